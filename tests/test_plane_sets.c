/* test_plane_sets.c - the data sets in the plane: seeded, shaped as stated
 * (points, two features, their classes taking turns, where each class
 * lies), the noise as a displacement of the stated size, their loading by
 * name with the test part from another seed, and --points and --noise
 * refused out of range or for a data set not in the plane. */
#include <math.h>

#include "data/datasets.h"
#include "data/plane_sets.h"
#include "engine/limits.h"
#include "testutil.h"

static const char *const names[] = {"spiral", "circles", "xor", "gauss", "moons"};
static const int classes[] = {3, 2, 2, 3, 2};

START_TEST(test_seeded_and_shaped)
{
	for (int i = 0; i < 5; i++) {
		Err e = {{0}};
		Dataset *a = plane_set(names[i], 301, 0.05, 7, &e);
		Dataset *b = plane_set(names[i], 301, 0.05, 7, &e);
		Dataset *c = plane_set(names[i], 301, 0.05, 8, &e);
		ck_assert_msg(a && b && c, "%s: %s", names[i], e.msg);
		ck_assert_int_eq(a->n, 301);
		ck_assert_int_eq(a->d, 2);
		ck_assert_int_eq(a->k, classes[i]);
		ck_assert_int_eq(plane_set_classes(names[i]), classes[i]);
		ck_assert_int_eq(plane_set_is(names[i]), 1);
		ck_assert_msg(!memcmp(a->x, b->x, 301 * 2 * sizeof *a->x), "%s: not seeded",
		              names[i]);
		ck_assert_msg(memcmp(a->x, c->x, 301 * 2 * sizeof *a->x), "%s: seed ignored",
		              names[i]);
		for (int j = 0; j < a->n; j++) {
			ck_assert_int_eq(a->y[j], j % a->k);
			ck_assert_msg(fabs(a->x[2 * j]) < 1.5 && fabs(a->x[2 * j + 1]) < 1.5,
			              "%s: point %d at (%g, %g)", names[i], j, a->x[2 * j],
			              a->x[2 * j + 1]);
		}
		dataset_free(a);
		dataset_free(b);
		dataset_free(c);
	}
	ck_assert_int_eq(plane_set_is("synthetic"), 0);
	ck_assert_int_eq(plane_set_is(NULL), 0);
	ck_assert_int_eq(plane_set_classes("mnist"), 0);
}
END_TEST

/* Without noise every class lies where the set says it does. */
START_TEST(test_classes_where_stated)
{
	Err e = {{0}};
	Dataset *d = plane_set("circles", 400, 0, 3, &e);
	ck_assert_ptr_nonnull(d);
	for (int j = 0; j < d->n; j++) {
		double r = hypot(d->x[2 * j], d->x[2 * j + 1]);
		if (d->y[j] == 0)
			ck_assert_double_le(r, 0.45 + 1e-6);
		else
			ck_assert(r >= 0.65 - 1e-6 && r <= 1 + 1e-6);
	}
	dataset_free(d);
	d = plane_set("xor", 400, 0, 3, &e);
	for (int j = 0; j < d->n; j++) {
		double x = d->x[2 * j], y = d->x[2 * j + 1];
		ck_assert_int_eq(d->y[j], x * y > 0 ? 0 : 1);
		ck_assert(fabs(x) >= 0.05 - 1e-6 && fabs(y) >= 0.05 - 1e-6);
	}
	dataset_free(d);
	d = plane_set("spiral", 300, 0, 3, &e);
	for (int j = 0; j < d->n; j++) {
		double r = hypot(d->x[2 * j], d->x[2 * j + 1]);
		ck_assert(r >= 0.1 - 1e-6 && r <= 1 + 1e-6);
		/* the arm of class c starts at angle 2πc/3 and turns 3.5 (r − 0.1)/0.9 */
		double th = 2 * M_PI * d->y[j] / 3 + 3.5 * (r - 0.1) / 0.9;
		double dx = r * cos(th) - d->x[2 * j], dy = r * sin(th) - d->x[2 * j + 1];
		ck_assert_double_lt(hypot(dx, dy), 1e-5);
	}
	dataset_free(d);
	/* the clouds: every point nearer its own centre than the others, on average */
	d = plane_set("gauss", 900, 0, 3, &e);
	double own = 0, other = 0;
	for (int j = 0; j < d->n; j++)
		for (int c = 0; c < 3; c++) {
			double th = M_PI / 2 + 2 * M_PI * c / 3;
			double dist =
			    hypot(d->x[2 * j] - 0.55 * cos(th), d->x[2 * j + 1] - 0.55 * sin(th));
			if (c == d->y[j])
				own += dist;
			else
				other += dist / 2; /* the mean of the two others */
		}
	ck_assert_double_lt(own, 0.5 * other);
	dataset_free(d);
	d = plane_set("moons", 400, 0, 3, &e);
	for (int j = 0; j < d->n; j++) {
		double x = 1.5 * d->x[2 * j] + 0.5, y = 1.5 * d->x[2 * j + 1] + 0.25;
		double cx = d->y[j] == 0 ? 0 : 1, cy = d->y[j] == 0 ? 0 : 0.5;
		ck_assert_double_lt(fabs(hypot(x - cx, y - cy) - 1), 1e-5);
		ck_assert(d->y[j] == 0 ? y >= -1e-6 : y <= 0.5 + 1e-6);
	}
	dataset_free(d);
}
END_TEST

/* The noise moves every coordinate by a normal displacement of standard
 * deviation S, from the same points. */
START_TEST(test_noise_is_the_displacement)
{
	for (int i = 0; i < 5; i++) {
		Err e = {{0}};
		Dataset *clean = plane_set(names[i], 3000, 0, 11, &e);
		Dataset *noisy = plane_set(names[i], 3000, 0.1, 11, &e);
		ck_assert_ptr_nonnull(noisy);
		double ss = 0, s = 0;
		for (int j = 0; j < 2 * 3000; j++) {
			double dv = noisy->x[j] - clean->x[j];
			s += dv;
			ss += dv * dv;
		}
		double sd = sqrt(ss / 6000 - (s / 6000) * (s / 6000));
		ck_assert_msg(fabs(sd - 0.1) < 0.01, "%s: the noise's deviation is %g", names[i],
		              sd);
		dataset_free(clean);
		dataset_free(noisy);
	}
}
END_TEST

START_TEST(test_refused)
{
	Err e = {{0}};
	ck_assert_ptr_null(plane_set("spiral", 5, 0.1, 1, &e));
	ck_assert_str_eq(e.msg, "spiral: 5 points with noise 0.1: expected at least 6 points and a "
	                        "finite noise ≥ 0");
	ck_assert_ptr_null(plane_set("spiral", 100, -0.1, 1, &e));
	ck_assert_ptr_null(plane_set("ring", 100, 0.1, 1, &e));
	ck_assert_str_eq(
	    e.msg, "unknown plane data set 'ring': expected spiral, circles, xor, gauss, moons");
	/* the limits every entry point checks --points and --noise against */
	int n;
	double x;
	ck_assert_int_eq(limit_parse_int(LIM_POINTS, "--points", "5", &n, &e), -1);
	ck_assert_str_eq(e.msg, "--points: '5' is out of range (6..1000000)");
	ck_assert_int_eq(limit_parse_int(LIM_POINTS, "--points", "1000001", &n, &e), -1);
	ck_assert_str_eq(e.msg, "--points: '1000001' is out of range (6..1000000)");
	ck_assert_int_eq(limit_parse_int(LIM_POINTS, "--points", "6", &n, &e), 0);
	ck_assert_int_eq(n, 6);
	ck_assert_int_eq(limit_parse(LIM_NOISE, "--noise", "1.5", &x, &e), -1);
	ck_assert_str_eq(e.msg, "--noise: '1.5' must be at most 1");
	ck_assert_int_eq(limit_parse(LIM_NOISE, "--noise", "-0.1", &x, &e), -1);
	ck_assert_str_eq(e.msg, "--noise: '-0.1' must be at least 0");
	ck_assert_int_eq(limit_parse(LIM_NOISE, "--noise", "0", &x, &e), 0);
	ck_assert_double_eq(x, 0);
	ck_assert_str_eq(limit_of(LIM_POINTS)->what, "the points");
	ck_assert_str_eq(limit_of(LIM_NOISE)->what, "the noise");
}
END_TEST

/* --data spiral: training and test parts of as many points, the test part
 * from a derived seed; the defaults; points and noise for another set. */
START_TEST(test_loaded_by_name)
{
	DataSpec s;
	Dataset *tr, *te;
	Err e = {{0}};
	dataspec_default(&s);
	s.spec = "spiral";
	s.seed = 4;
	ck_assert_int_eq(datasets_available("spiral", NULL), 1);
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), 0);
	ck_assert_int_eq(tr->n, PLANE_POINTS_DEFAULT);
	ck_assert_int_eq(te->n, PLANE_POINTS_DEFAULT);
	ck_assert_int_eq(tr->d, 2);
	ck_assert_int_eq(te->k, 3);
	Dataset *same = plane_set("spiral", PLANE_POINTS_DEFAULT, 0.05, 4, &e);
	ck_assert(!memcmp(same->x, tr->x, (size_t)tr->n * 2 * sizeof *tr->x));
	ck_assert(memcmp(te->x, tr->x, (size_t)tr->n * 2 * sizeof *tr->x));
	ck_assert_str_eq(tr->name, "spiral train (300 points, noise 0.05, seed 4)");
	int points;
	double noise;
	ck_assert_int_eq(datasets_plane_params(&s, &points, &noise, &e), 0);
	ck_assert_int_eq(points, 300);
	ck_assert_double_eq(noise, 0.05);
	dataset_free(same);
	dataset_free(tr);
	dataset_free(te);
	s.spec = "moons";
	s.points = 50;
	s.noise = 0;
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), 0);
	ck_assert_int_eq(tr->n, 50);
	ck_assert_int_eq(te->n, 50);
	ck_assert_int_eq(datasets_plane_params(&s, &points, &noise, &e), 0);
	ck_assert_int_eq(points, 50);
	ck_assert_double_eq(noise, 0);
	dataset_free(tr);
	dataset_free(te);
	s.spec = "synthetic";
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), -1);
	ck_assert_str_eq(e.msg, "--points and --noise draw a plane data set (spiral, circles, xor, "
	                        "gauss, moons), not synthetic");
	ck_assert_int_eq(datasets_plane_params(&s, &points, &noise, &e), -1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("plane_sets");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_seeded_and_shaped);
	tcase_add_test(tc, test_classes_where_stated);
	tcase_add_test(tc, test_noise_is_the_displacement);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_loaded_by_name);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
