/* test_net_hand.c - a network changed by hand (engine/net_hand.h): every
 * weight not named kept bit for bit, a new neuron's drawn from its seed
 * with its outgoing weights small, a layer added as the identity and
 * removed as its inverse; and the inputs of the plane (data/plane_inputs.h)
 * through the data sets, the model file and the regions of engine/plane.h. */
#include <math.h>

#include "data/datasets.h"
#include "data/plane_inputs.h"
#include "engine/net_hand.h"
#include "engine/plane.h"
#include "engine/train.h"
#include "fixtures.h"
#include "model/model_io.h"
#include "testutil.h"

/* The outputs of net on a few rows of d inputs (rows × classes). */
static float *outputs(const Net *net, int rows, float *x)
{
	float *p = malloc((size_t)rows * net->n[net->m] * sizeof *p);
	Err e = {{0}};
	ck_assert_msg(net_forward(net, x, rows, net->m, p, &e) == 0, "%s", e.msg);
	return p;
}

static float *sample_rows(int rows, int d)
{
	float *x = malloc((size_t)rows * d * sizeof *x);
	for (int i = 0; i < rows * d; i++)
		x[i] = (float)sin(0.7 * i + 0.3);
	return x;
}

/* A neuron added: the other weights and moments as they were, the new
 * one's outgoing row small, its incoming column as a fresh network's; the
 * same seed the same weights; removed again, the network as before. */
START_TEST(neuron_added_and_removed)
{
	Err e = {{0}};
	Net *a = fx_sample_net(ACT_TANH, 1, 3); /* 5-4-3-2 */
	for (size_t i = 0; i < a->nparam; i++)
		a->adam_m[i] = (float)i, a->adam_v[i] = (float)(2 * i);
	Net *b = net_clone(a, &e), *c = net_clone(a, &e);
	ck_assert_int_eq(net_hand_add_neuron(b, 2, 77, &e), 0);
	ck_assert_int_eq(net_hand_add_neuron(c, 2, 77, &e), 0);
	ck_assert_int_eq(b->n[2], 4);
	ck_assert(!memcmp(b->param, c->param, b->nparam * sizeof *b->param));
	/* layer 1's weights untouched; layer 2's old columns and layer 3's old rows kept */
	ck_assert(!memcmp(b->W[0], a->W[0], (size_t)(5 * 4 + 4) * sizeof(float)));
	for (int r = 0; r <= 4; r++)
		for (int j = 0; j < 3; j++)
			ck_assert(b->W[1][r * 4 + j] == a->W[1][r * 3 + j]);
	for (int r = 0; r < 3; r++)
		for (int j = 0; j < 2; j++)
			ck_assert(b->W[2][r * 2 + j] == a->W[2][r * 2 + j]);
	double small = NET_HAND_SMALL * sqrt(6.0 / (4 + 2)), glorot = sqrt(6.0 / (4 + 4));
	int big = 0;
	for (int j = 0; j < 2; j++) {
		ck_assert(fabs(b->W[2][3 * 2 + j]) <= small);
		ck_assert(b->W[2][3 * 2 + j] != 0);
	}
	for (int r = 0; r < 4; r++) {
		ck_assert(fabs(b->W[1][r * 4 + 3]) <= glorot);
		big += fabs(b->W[1][r * 4 + 3]) > small;
	}
	ck_assert_int_gt(big, 0);
	ck_assert(b->b[1][3] == 0);
	/* the moments of the weights kept, kept; the new ones' zero */
	ck_assert(b->adam_m[5] == a->adam_m[5]);
	ck_assert(b->adam_m[(size_t)(b->W[1] - b->param) + 3] == 0);
	ck_assert_int_eq(b->adam_t, a->adam_t);
	/* the outputs barely move */
	float *x = sample_rows(8, 5), *pa = outputs(a, 8, x), *pb = outputs(b, 8, x);
	for (int i = 0; i < 16; i++)
		ck_assert(fabs(pa[i] - pb[i]) < 0.05);
	/* another seed, other weights */
	Net *d = net_clone(a, &e);
	ck_assert_int_eq(net_hand_add_neuron(d, 2, 78, &e), 0);
	ck_assert(memcmp(b->param, d->param, b->nparam * sizeof *b->param));
	/* removed again: as before */
	ck_assert_int_eq(net_hand_remove_neuron(b, 2, 3, &e), 0);
	ck_assert_int_eq(b->nparam, a->nparam);
	ck_assert(!memcmp(b->param, a->param, a->nparam * sizeof *a->param));
	/* what cannot be */
	ck_assert_int_eq(net_hand_add_neuron(b, 3, 1, &e), -1);
	ck_assert_str_eq(e.msg, "layer 3 is not a hidden layer (expected 1..2)");
	free(x);
	free(pa);
	free(pb);
	net_free(a);
	net_free(b);
	net_free(c);
	net_free(d);
}
END_TEST

/* A layer added after each place starts as the identity: with relu the
 * network computes what it did (relu(relu(z)) = relu(z)); removed again
 * (the one after the inputs too), the weights are the ones before, bit for
 * bit. */
START_TEST(layer_added_and_removed)
{
	Err e = {{0}};
	for (int after = 0; after <= 2; after++) {
		Net *a = fx_sample_net(ACT_RELU, 1, 3); /* 5-4-3-2 */
		Net *b = net_clone(a, &e);
		ck_assert_int_eq(net_hand_add_layer(b, after, &e), 0);
		ck_assert_int_eq(b->m, 4);
		ck_assert_int_eq(b->n[after + 1], a->n[after]);
		for (int i = 0; i < a->m; i++) {
			int k = i < after ? i : i + 1;
			ck_assert(!memcmp(b->W[k], a->W[i],
			                  ((size_t)a->n[i] + 1) * a->n[i + 1] * sizeof(float)));
		}
		int w = a->n[after];
		for (int r = 0; r < w; r++)
			for (int j = 0; j < w; j++)
				ck_assert(b->W[after][r * w + j] == (r == j ? 1.0f : 0.0f));
		if (after > 0) {
			/* after a hidden relu layer the identity changes nothing */
			float *x = sample_rows(8, 5), *pa = outputs(a, 8, x),
			      *pb = outputs(b, 8, x);
			ck_assert(!memcmp(pa, pb, 16 * sizeof *pa));
			free(x);
			free(pa);
			free(pb);
		}
		ck_assert_int_eq(net_hand_remove_layer(b, after + 1, &e), 0);
		ck_assert_int_eq(b->m, a->m);
		ck_assert(!memcmp(b->param, a->param, a->nparam * sizeof *a->param));
		net_free(a);
		net_free(b);
	}
}
END_TEST

/* Removing a layer multiplies its weights into the next layer's: W' =
 * W⁽ˡ⁾W⁽ˡ⁺¹⁾, b' = b⁽ˡ⁾W⁽ˡ⁺¹⁾ + b⁽ˡ⁺¹⁾; adding one and removing it gives the
 * weights back bit for bit. */
START_TEST(layer_removed_multiplies)
{
	Err e = {{0}};
	Net *a = fx_sample_net(ACT_ERF, 1, 3); /* 5-4-3-2 */
	Net *b = net_clone(a, &e);
	ck_assert_int_eq(net_hand_remove_layer(b, 2, &e), 0);
	ck_assert_int_eq(b->m, 2);
	ck_assert_int_eq(b->n[1], 4);
	ck_assert_int_eq(b->n[2], 2);
	ck_assert(!memcmp(b->W[0], a->W[0], (size_t)(5 + 1) * 4 * sizeof(float)));
	for (int c = 0; c < 2; c++) {
		for (int r = 0; r < 4; r++) {
			double s = 0;
			for (int j = 0; j < 3; j++)
				s += (double)a->W[1][r * 3 + j] * a->W[2][j * 2 + c];
			ck_assert(fabs(b->W[1][r * 2 + c] - s) < 1e-6);
		}
		double s = a->b[2][c];
		for (int j = 0; j < 3; j++)
			s += (double)a->b[1][j] * a->W[2][j * 2 + c];
		ck_assert(fabs(b->b[1][c] - s) < 1e-6);
	}
	/* added after layer 1 and removed: the same bits */
	Net *c = net_clone(a, &e);
	ck_assert_int_eq(net_hand_add_layer(c, 1, &e), 0);
	ck_assert_int_eq(net_hand_remove_layer(c, 2, &e), 0);
	ck_assert_int_eq(c->m, a->m);
	ck_assert(!memcmp(c->param, a->param, a->nparam * sizeof *a->param));
	ck_assert_int_eq(net_hand_remove_layer(c, 3, &e), -1);
	ck_assert_str_eq(e.msg, "layer 3 is not a hidden layer (expected 1..2)");
	ck_assert_int_eq(net_hand_add_layer(c, 3, &e), -1);
	ck_assert_str_eq(e.msg, "a layer after layer 3: expected 0 (the inputs) to 2");
	net_free(a);
	net_free(b);
	net_free(c);
}
END_TEST

/* The inputs remade: kept rows as they were, new ones small from the seed,
 * the bias and the other layers untouched, the record dropped. */
START_TEST(inputs_remade)
{
	Err e = {{0}};
	Net *a = fx_sample_net(ACT_TANH, 1, 3); /* 5-4-3-2 */
	Prep *pr = prep_new(PREP_FEATURES, 5, &e);
	ck_assert_ptr_nonnull(pr);
	ck_assert_int_eq(net_set_prep(a, pr, &e), 0); /* it keeps a copy */
	prep_free(pr);
	Net *b = net_clone(a, &e);
	int src[4] = {0, 3, -1, 1};
	ck_assert_int_eq(net_hand_inputs(b, src, 4, 9, &e), 0);
	ck_assert_int_eq(b->n[0], 4);
	ck_assert_ptr_null(b->prep);
	double small = NET_HAND_SMALL * sqrt(6.0 / (4 + 4));
	for (int k = 0; k < 4; k++)
		for (int j = 0; j < 4; j++)
			if (src[k] >= 0)
				ck_assert(b->W[0][k * 4 + j] == a->W[0][src[k] * 4 + j]);
			else
				ck_assert(fabs(b->W[0][k * 4 + j]) <= small &&
				          b->W[0][k * 4 + j] != 0);
	ck_assert(!memcmp(b->b[0], a->b[0], 4 * sizeof(float)));
	ck_assert(!memcmp(b->W[1], a->W[1], (size_t)(4 * 3 + 3 + 3 * 2 + 2) * sizeof(float)));
	int bad[1] = {5};
	ck_assert_int_eq(net_hand_inputs(b, bad, 1, 9, &e), -1);
	ck_assert_str_eq(e.msg, "input 6: the network has 4");
	net_free(a);
	net_free(b);
}
END_TEST

/* The inputs' names, their rows and their order. */
START_TEST(plane_inputs_names_and_rows)
{
	Err e = {{0}};
	unsigned m;
	char buf[64];
	ck_assert_int_eq(plane_inputs_parse("siny,x2,xy", &m, &e), 0);
	ck_assert_uint_eq(m, PLANE_X2 | PLANE_XY | PLANE_SINY);
	ck_assert_str_eq(plane_inputs_format(m, buf, sizeof buf), "x2,xy,siny");
	ck_assert_int_eq(plane_inputs_count(m), 5);
	ck_assert_str_eq(plane_inputs_name(m, 2, 0), "x²");
	ck_assert_str_eq(plane_inputs_name(m, 4, 1), "sin y");
	ck_assert_int_eq(plane_inputs_parse("none", &m, &e), 0);
	ck_assert_uint_eq(m, 0);
	ck_assert_str_eq(plane_inputs_format(0, buf, sizeof buf), "none");
	ck_assert_int_eq(plane_inputs_parse("x2,", &m, &e), -1);
	ck_assert_int_eq(plane_inputs_parse("y2,y2", &m, &e), -1);
	ck_assert_str_eq(e.msg, "inputs \"y2,y2\": y2 named twice");
	float r[7];
	plane_inputs_row(PLANE_INPUTS_ALL, 0.5, -2, r);
	const float want[7] = {0.5f, -2.0f, 0.25f, 4.0f, -1.0f, (float)sin(0.5), (float)sin(-2.0)};
	ck_assert(!memcmp(r, want, sizeof want));
}
END_TEST

/* A plane data set with inputs: made and recorded, the same whether asked
 * at load or made from the sets loaded; a model records them and reads
 * them back; the data for a model of such inputs are made as its record
 * says; its regions are drawn over the plane. */
START_TEST(plane_inputs_data_model_regions)
{
	Err e = {{0}};
	DataSpec s;
	dataspec_default(&s);
	s.spec = "circles";
	Dataset *tr, *te, *tr2, *te2, *tr3, *te3, *ptr, *pte;
	ck_assert_int_eq(datasets_load(&s, &ptr, &pte, &e), 0);
	s.plane_inputs = PLANE_X2 | PLANE_Y2;
	ck_assert_msg(datasets_load(&s, &tr, &te, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(tr->d, 4);
	ck_assert_int_eq(tr->prep->kind, PREP_PLANE);
	ck_assert_uint_eq(tr->prep->plane, PLANE_X2 | PLANE_Y2);
	ck_assert(tr->x[2] == tr->x[0] * tr->x[0]);
	ck_assert_int_eq(datasets_plane_inputs(ptr, pte, PLANE_X2 | PLANE_Y2, &tr2, &te2, &e), 0);
	ck_assert(!memcmp(tr->x, tr2->x, (size_t)tr->n * tr->d * sizeof *tr->x));
	ck_assert(!memcmp(te->x, te2->x, (size_t)te->n * te->d * sizeof *te->x));
	/* a network of those inputs, saved and read back with its record */
	int w[3] = {4, 6, 2};
	Net *net = net_fresh(2, w, ACT_TANH, 1, 3, &e);
	ck_assert_int_eq(net_set_prep(net, tr->prep, &e), 0);
	char path[1024];
	snprintf(path, sizeof path, "%s/circles.model", tu_tmpdir());
	ck_assert_msg(model_save(net, path, &e) == 0, "%s", e.msg);
	Net *back = model_load(path, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	ck_assert_int_eq(back->prep->kind, PREP_PLANE);
	ck_assert_uint_eq(back->prep->plane, PLANE_X2 | PLANE_Y2);
	/* the data a model of these inputs is evaluated on: made as it says */
	s.plane_inputs = 0;
	ck_assert_msg(datasets_load_as(&s, back->prep, "circles.model", &tr3, &te3, &e) == 0, "%s",
	              e.msg);
	ck_assert(!memcmp(te->x, te3->x, (size_t)te->n * te->d * sizeof *te->x));
	/* other features refuse them */
	DataSpec syn;
	dataspec_default(&syn);
	syn.plane_inputs = PLANE_XY;
	Dataset *a, *b;
	ck_assert_int_eq(datasets_load(&syn, &a, &b, &e), -1);
	ck_assert_msg(strstr(e.msg, "inputs of the plane (2 features)"), "%s", e.msg);
	/* regions over the plane, the inputs made at every pixel */
	PlaneBox box;
	ck_assert_int_eq(plane_box(tr, &box, &e), 0);
	PlaneRegions r;
	ck_assert_msg(plane_regions(back, &box, 8, 8, &r, &e) == 0, "%s", e.msg);
	PlaneMaps in;
	ck_assert_int_eq(plane_io_maps(back, 0, &box, 8, 8, &in, &e), 0);
	ck_assert_int_eq(in.n, 4);
	for (int i = 0; i < 64; i++)
		ck_assert(fabs(in.z[2 * 64 + i] - in.z[i] * in.z[i]) < 1e-6);
	PlaneMaps out;
	ck_assert_int_eq(plane_io_maps(back, 2, &box, 8, 8, &out, &e), 0);
	for (int i = 0; i < 64; i++)
		ck_assert(fabs(out.z[i] + out.z[64 + i] - 1) < 1e-5);
	plane_maps_free(&in);
	plane_maps_free(&out);
	plane_regions_free(&r);
	/* a network of 4 inputs without the record is not of the plane */
	Net *plain = net_fresh(2, w, ACT_TANH, 1, 3, &e);
	ck_assert_int_eq(plane_regions(plain, &box, 8, 8, &r, &e), -1);
	ck_assert_str_eq(e.msg, "the network has 4 inputs: the plane has 2");
	net_free(plain);
	net_free(net);
	net_free(back);
	dataset_free(tr), dataset_free(te), dataset_free(tr2), dataset_free(te2);
	dataset_free(tr3), dataset_free(te3), dataset_free(ptr), dataset_free(pte);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("net_hand");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, neuron_added_and_removed);
	tcase_add_test(tc, layer_added_and_removed);
	tcase_add_test(tc, layer_removed_multiplies);
	tcase_add_test(tc, inputs_remade);
	tcase_add_test(tc, plane_inputs_names_and_rows);
	tcase_add_test(tc, plane_inputs_data_model_regions);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
