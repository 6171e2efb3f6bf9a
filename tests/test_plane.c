/* test_plane.c - the rasteriser on networks whose regions are known: one
 * neuron with w = (1, 0), b = 0 splits the plane at x = 0, a line
 * x + y = 0.3 splits it there, three classes by the largest coordinate;
 * the maps are the pre-activations at the pixels' centres (layer 1 and a
 * deeper layer); a combination of maps; the box of a data set and what is
 * not in the plane. */
#include <math.h>

#include "engine/act.h"
#include "engine/net.h"
#include "engine/plane.h"
#include "testutil.h"

static const PlaneBox box = {-1, 1, -0.75, 0.75};

/* A network of widths w[0..m] with zero parameters. */
static Net *make(int m, const int *w, ActKind act)
{
	Err e = {{0}};
	Net *net = net_new(m, w, act, 1.0f, &e);
	ck_assert_msg(net != NULL, "%s", e.msg);
	return net;
}

/* One hidden neuron tanh(x): w = (1, 0), b = 0; the output prefers class 0
 * where it is positive. */
START_TEST(test_one_neuron_splits_at_x0)
{
	int w[] = {2, 1, 2};
	Net *net = make(2, w, ACT_TANH);
	net->W[0][0] = 1; /* from x */
	net->W[0][1] = 0; /* from y */
	net->b[0][0] = 0;
	net->W[1][0] = 3; /* to class 0 */
	net->W[1][1] = -3;
	PlaneRegions r;
	Err e = {{0}};
	ck_assert_int_eq(plane_regions(net, &box, 40, 30, &r, &e), 0);
	ck_assert_int_eq(r.w, 40);
	ck_assert_int_eq(r.h, 30);
	ck_assert_int_eq(r.k, 2);
	int c0 = 0;
	for (int row = 0; row < 30; row++)
		for (int c = 0; c < 40; c++) {
			double x, y;
			plane_point(&box, 40, 30, c, row, &x, &y);
			int want = x > 0 ? 0 : 1;
			ck_assert_msg(r.cls[row * 40 + c] == want,
			              "pixel (%d, %d) at x = %g: class %d", c, row, x,
			              r.cls[row * 40 + c]);
			ck_assert(r.conf[row * 40 + c] >= 0.5f && r.conf[row * 40 + c] <= 1.0f);
			c0 += want == 0;
		}
	ck_assert_int_eq(c0, 20 * 30);
	/* surer far from the line than next to it */
	ck_assert_float_gt(r.conf[0], r.conf[19] + 0.3f);
	ck_assert_float_gt(r.conf[39], r.conf[20] + 0.3f);
	plane_regions_free(&r);
	net_free(net);
}
END_TEST

/* No hidden layer: class 0 where x + y > 0.3; the same regions are 0 %
 * apart, a shifted line some. */
START_TEST(test_line_and_differ)
{
	int w[] = {2, 2};
	Net *net = make(1, w, ACT_ERF);
	net->W[0][0] = 1; /* x to class 0 */
	net->W[0][2] = 1; /* y to class 0 */
	net->b[0][0] = -0.3f;
	PlaneRegions a, b;
	Err e = {{0}};
	ck_assert_int_eq(plane_regions(net, &box, 64, 48, &a, &e), 0);
	for (int row = 0; row < 48; row++)
		for (int c = 0; c < 64; c++) {
			double x, y;
			plane_point(&box, 64, 48, c, row, &x, &y);
			if (fabs(x + y - 0.3) > 1e-6)
				ck_assert_int_eq(a.cls[row * 64 + c], x + y > 0.3 ? 0 : 1);
		}
	ck_assert_int_eq(plane_regions(net, &box, 64, 48, &b, &e), 0);
	ck_assert_double_eq(plane_regions_differ(&a, &b), 0);
	plane_regions_free(&b);
	net->b[0][0] = -0.5f;
	ck_assert_int_eq(plane_regions(net, &box, 64, 48, &b, &e), 0);
	double d = plane_regions_differ(&a, &b);
	ck_assert(d > 0.01 && d < 0.2);
	plane_regions_free(&b);
	ck_assert_int_eq(plane_regions(net, &box, 32, 48, &b, &e), 0);
	ck_assert(isnan(plane_regions_differ(&a, &b)));
	plane_regions_free(&a);
	plane_regions_free(&b);
	net_free(net);
}
END_TEST

/* Three classes: the one of the largest of x, y and −x − y. */
START_TEST(test_three_classes)
{
	int w[] = {2, 3};
	Net *net = make(1, w, ACT_ERF);
	float W[6] = {1, 0, -1, 0, 1, -1};
	memcpy(net->W[0], W, sizeof W);
	PlaneRegions r;
	Err e = {{0}};
	ck_assert_int_eq(plane_regions(net, &box, 50, 50, &r, &e), 0);
	int seen[3] = {0};
	for (int row = 0; row < 50; row++)
		for (int c = 0; c < 50; c++) {
			double x, y, v[3];
			plane_point(&box, 50, 50, c, row, &x, &y);
			v[0] = x, v[1] = y, v[2] = -x - y;
			int want = 0;
			for (int k = 1; k < 3; k++)
				if (v[k] > v[want])
					want = k;
			if (fabs(v[0] - v[1]) > 1e-6 && fabs(v[1] - v[2]) > 1e-6 &&
			    fabs(v[0] - v[2]) > 1e-6)
				ck_assert_int_eq(r.cls[row * 50 + c], want);
			seen[r.cls[row * 50 + c]]++;
			ck_assert(r.conf[row * 50 + c] >= 1.0f / 3 - 1e-6f);
		}
	ck_assert(seen[0] && seen[1] && seen[2]);
	plane_regions_free(&r);
	net_free(net);
}
END_TEST

/* Layer 1's maps are w_j·(x, y) + b_j at the pixels' centres; layer 2's
 * are the next layer's pre-activations of the activations. */
START_TEST(test_maps)
{
	int w[] = {2, 3, 2, 2};
	Err e = {{0}};
	Net *net = net_fresh(3, w, ACT_ERF, 1.0f, 5, &e);
	ck_assert_ptr_nonnull(net);
	for (int j = 0; j < 3; j++)
		net->b[0][j] = 0.1f * (j + 1);
	net->b[1][1] = -0.2f;
	PlaneMaps m1, m2;
	ck_assert_int_eq(plane_maps(net, 1, &box, 12, 10, &m1, &e), 0);
	ck_assert_int_eq(plane_maps(net, 2, &box, 12, 10, &m2, &e), 0);
	ck_assert_int_eq(m1.n, 3);
	ck_assert_int_eq(m2.n, 2);
	ck_assert_int_eq(m2.layer, 2);
	for (int i = 0; i < 120; i++) {
		double x, y, a[3];
		plane_point(&box, 12, 10, i % 12, i / 12, &x, &y);
		for (int j = 0; j < 3; j++) {
			double z = net->W[0][j] * x + net->W[0][3 + j] * y + net->b[0][j];
			ck_assert_double_eq_tol(m1.z[j * 120 + i], z, 1e-5);
			a[j] = erf(z);
		}
		for (int j = 0; j < 2; j++) {
			double z = net->b[1][j];
			for (int k = 0; k < 3; k++)
				z += a[k] * net->W[1][k * 2 + j];
			ck_assert_double_eq_tol(m2.z[j * 120 + i], z, 1e-5);
		}
	}
	/* σ of a map, and σ of the combination 1·z_2 (the same), 0.5·z_0 + 0.5·z_0 */
	float act[120], comb[120];
	plane_map_activation(net, &m1, 2, act);
	int idx[2] = {2, 0};
	double one[2] = {1, 0};
	plane_map_combination(net, &m1, idx, one, 2, comb);
	for (int i = 0; i < 120; i++) {
		ck_assert_double_eq_tol(act[i], erf(m1.z[2 * 120 + i]), 1e-6);
		ck_assert_float_eq(comb[i], act[i]);
	}
	int twice[2] = {0, 0};
	double half[2] = {0.5, 0.5};
	plane_map_combination(net, &m1, twice, half, 2, comb);
	plane_map_activation(net, &m1, 0, act);
	for (int i = 0; i < 120; i++)
		ck_assert_double_eq_tol(comb[i], act[i], 1e-6);
	plane_maps_free(&m1);
	ck_assert_int_eq(plane_maps(net, 3, &box, 12, 10, &m1, &e), -1);
	ck_assert_str_eq(e.msg, "layer 3 is not a hidden layer (expected 1..2)");
	plane_maps_free(&m2);
	net_free(net);
}
END_TEST

/* The box holds the points with a margin; a data set of 10 features, or a
 * network of 10 inputs, is not in the plane; pixels and points agree. */
START_TEST(test_box_and_refusals)
{
	Err e = {{0}};
	Dataset *d = dataset_new(3, 2, 2, &e);
	float x[6] = {-1, 0, 1, 2, 0, -2};
	memcpy(d->x, x, sizeof x);
	PlaneBox b;
	ck_assert_int_eq(plane_box(d, &b, &e), 0);
	ck_assert_double_eq_tol(b.x0, -1.2, 1e-12);
	ck_assert_double_eq_tol(b.x1, 1.2, 1e-12);
	ck_assert_double_eq_tol(b.y0, -2.4, 1e-12);
	ck_assert_double_eq_tol(b.y1, 2.4, 1e-12);
	dataset_free(d);
	d = dataset_new(3, 10, 2, &e);
	ck_assert_int_eq(plane_box(d, &b, &e), -1);
	ck_assert_str_eq(e.msg, "10 features: the plane has 2");
	dataset_free(d);
	int w[] = {10, 2};
	Net *net = make(1, w, ACT_ERF);
	PlaneRegions r;
	ck_assert_int_eq(plane_regions(net, &box, 8, 8, &r, &e), -1);
	ck_assert_str_eq(e.msg, "the network has 10 inputs: the plane has 2");
	net_free(net);
	for (int c = 0; c < 9; c++)
		for (int row = 0; row < 7; row++) {
			double px, py;
			int c2, r2;
			plane_point(&box, 9, 7, c, row, &px, &py);
			plane_pixel(&box, 9, 7, px, py, &c2, &r2);
			ck_assert_int_eq(c2, c);
			ck_assert_int_eq(r2, row);
		}
	int c2, r2;
	plane_pixel(&box, 9, 7, 5, -5, &c2, &r2);
	ck_assert_int_eq(c2, 8);
	ck_assert_int_eq(r2, 6);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("plane");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_one_neuron_splits_at_x0);
	tcase_add_test(tc, test_line_and_differ);
	tcase_add_test(tc, test_three_classes);
	tcase_add_test(tc, test_maps);
	tcase_add_test(tc, test_box_and_refusals);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
