/* test_net.c - the network: the parameter layout, Glorot initialisation,
 * layer specifications and the keep/remove/add neuron edits. */
#include <math.h>

#include "engine/act.h"
#include "engine/net.h"
#include "engine/train.h"
#include "testutil.h"

/* A 5-4-3-3 network with Glorot weights and small random biases. */
static Net *small_net(ActKind act, uint64_t seed)
{
	int w[] = {5, 4, 3, 3};
	Net *net = net_new(3, w, act, 1.5f, NULL);
	ck_assert_ptr_nonnull(net);
	Rng r;
	rng_seed(&r, seed);
	net_init_glorot(net, &r);
	for (int i = 0; i < net->m; i++)
		for (int j = 0; j < net->n[i + 1]; j++)
			net->b[i][j] = (float)(0.2 * rng_normal(&r));
	return net;
}

static void fill_x(float *x, int n, uint64_t seed)
{
	Rng r;
	rng_seed(&r, seed);
	for (int i = 0; i < n; i++)
		x[i] = (float)rng_normal(&r);
}

static double max_abs_diff(const float *a, const float *b, int n)
{
	double d = 0;
	for (int i = 0; i < n; i++)
		d = fmax(d, fabs((double)a[i] - b[i]));
	return d;
}

START_TEST(test_layout)
{
	Net *net = small_net(ACT_ERF, 1);
	ck_assert_uint_eq(net->nparam, 5 * 4 + 4 + 4 * 3 + 3 + 3 * 3 + 3);
	ck_assert_uint_eq(net_param_count_for(3, net->n), net->nparam);
	ck_assert_ptr_eq(net->W[0], net->param);
	ck_assert_ptr_eq(net->b[0], net->param + 20);
	ck_assert_ptr_eq(net->W[1], net->param + 24);
	ck_assert_ptr_eq(net->b[1], net->param + 36);
	ck_assert_ptr_eq(net->W[2], net->param + 39);
	ck_assert_ptr_eq(net->b[2], net->param + 48);
	char buf[64];
	ck_assert_str_eq(net_shape_str(net, buf, sizeof buf), "5-4-3-3");
	ck_assert_str_eq(net_shape_str(net, buf, 4), "5-4");
	ck_assert_int_eq(net_hidden_total(net), 7);
	int zero[] = {5, 0, 3};
	ck_assert_ptr_null(net_new(2, zero, ACT_ERF, 1.0f, NULL));
	ck_assert_uint_eq(net_param_count_for(2, zero), 0);
	Net *c = net_clone(net, NULL);
	ck_assert_mem_eq(c->param, net->param, net->nparam * sizeof(float));
	ck_assert_ptr_ne(c->param, net->param);
	int hidden[] = {7, 2};
	Net *r = net_reshape(net, hidden, NULL);
	ck_assert_str_eq(net_shape_str(r, buf, sizeof buf), "5-7-2-3");
	ck_assert_int_eq(r->act, ACT_ERF);
	ck_assert_float_eq(r->act_a, 1.5f);
	ck_assert_float_eq(r->param[0], 0.0f);
	net_free(r);
	net_free(c);
	net_free(net);
	net_free(NULL);
}
END_TEST

START_TEST(test_glorot)
{
	int w[] = {200, 600, 10};
	Net *a = net_new(2, w, ACT_ERF, 1.0f, NULL), *b = net_new(2, w, ACT_ERF, 1.0f, NULL);
	Rng r1, r2;
	rng_seed(&r1, 9);
	rng_seed(&r2, 9);
	a->adam_t = 4;
	a->adam_m[3] = 1.0f;
	net_init_glorot(a, &r1);
	net_init_glorot(b, &r2);
	ck_assert_mem_eq(a->param, b->param, a->nparam * sizeof(float));
	ck_assert_int_eq(a->adam_t, 0);
	ck_assert_float_eq(a->adam_m[3], 0.0f);
	double lim = sqrt(6.0 / 800), mx = 0, sum = 0;
	for (int k = 0; k < 200 * 600; k++) {
		mx = fmax(mx, fabs(a->W[0][k]));
		sum += a->W[0][k];
	}
	ck_assert_double_le(mx, lim);
	ck_assert_double_gt(mx, 0.99 * lim);
	ck_assert_double_lt(fabs(sum / (200 * 600)), 0.01 * lim);
	for (int j = 0; j < 600; j++)
		ck_assert_float_eq(a->b[0][j], 0.0f);
	mx = 0;
	for (int k = 0; k < 600 * 10; k++)
		mx = fmax(mx, fabs(a->W[1][k]));
	ck_assert_double_le(mx, sqrt(6.0 / 610));
	ck_assert_double_gt(mx, 0.95 * sqrt(6.0 / 610));
	net_free(a);
	net_free(b);
}
END_TEST

static void expect_layers(const char *spec, const int *want, int n)
{
	int *w, count;
	Err e;
	ck_assert_msg(net_parse_layers(spec, &w, &count, &e) == 0, "%s: %s", spec, e.msg);
	ck_assert_int_eq(count, n);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(w[i], want[i]);
	free(w);
}

static void expect_layer_error(const char *spec, const char *text)
{
	int *w = (int *)1, count = 5;
	Err e = {""};
	ck_assert_int_eq(net_parse_layers(spec, &w, &count, &e), -1);
	ck_assert_ptr_null(w);
	ck_assert_int_eq(count, 0);
	ck_assert_msg(strstr(e.msg, text), "\"%s\": got \"%s\", expected \"%s\"", spec, e.msg,
	              text);
}

START_TEST(test_parse_layers)
{
	int twelve[12];
	for (int i = 0; i < 12; i++)
		twelve[i] = 300;
	expect_layers("12x300", twelve, 12);
	expect_layers("600,410,510", (int[]){600, 410, 510}, 3);
	expect_layers("3x50,20", (int[]){50, 50, 50, 20}, 4);
	expect_layers("7", (int[]){7}, 1);
	expect_layers("1x5,2X3", (int[]){5, 3, 3}, 3);
	expect_layer_error("", "empty specification");
	expect_layer_error("0", "width at column 1 must be positive, not 0");
	expect_layer_error("600,0", "column 5 must be positive");
	expect_layer_error("12x0", "column 4 must be positive");
	expect_layer_error("0x12", "column 1 must be positive");
	expect_layer_error("-5", "expected a width at column 1, found '-'");
	expect_layer_error("600,-5", "column 5, found '-'");
	expect_layer_error("abc", "column 1, found 'a'");
	expect_layer_error("600;410", "expected ',' or 'x' at column 4, found ';'");
	expect_layer_error("600,", "expected a width at the end");
	expect_layer_error("3x", "expected a width at the end");
	expect_layer_error("5,,6", "column 3, found ','");
	expect_layer_error("2x3x4", "expected ',' at column 4, found 'x'");
	expect_layer_error("99999999999999999999", "too large");
	expect_layer_error("200000x5", "too many");
}
END_TEST

START_TEST(test_remove_dead_neuron)
{
	enum { N = 9 };
	float x[N * 5], before[N * 3], after[N * 3];
	fill_x(x, N * 5, 3);
	for (int k = 0; k < ACT_COUNT; k++) {
		Net *net = small_net((ActKind)k, 4);
		/* Neuron 2 of hidden layer 1 has zero outgoing weights. */
		for (int c = 0; c < 3; c++)
			net->W[1][2 * 3 + c] = 0.0f;
		Err e;
		ck_assert_int_eq(net_forward(net, x, N, 3, before, &e), 0);
		ck_assert_int_eq(net_remove_neuron(net, 1, 2, &e), 0);
		ck_assert_int_eq(net->n[1], 3);
		ck_assert_uint_eq(net->nparam, 5 * 3 + 3 + 3 * 3 + 3 + 3 * 3 + 3);
		ck_assert_int_eq(net_forward(net, x, N, 3, after, &e), 0);
		ck_assert_double_lt(max_abs_diff(before, after, N * 3), 1e-6);
		net_free(net);
	}
}
END_TEST

/* Each parameter and both moments carry the parameter's original index, so
 * after an edit every entry says where it came from. */
static void tag(Net *net)
{
	for (size_t k = 0; k < net->nparam; k++) {
		net->param[k] = (float)k;
		net->adam_m[k] = (float)k + 0.25f;
		net->adam_v[k] = (float)k + 0.5f;
	}
	net->adam_t = 17;
}

START_TEST(test_keep_neurons)
{
	Net *a = small_net(ACT_TANH, 5), *b = net_clone(a, NULL);
	tag(a);
	tag(b);
	Err e;
	ck_assert_int_eq(net_keep_neurons(a, 1, (int[]){3, 0, 1}, 3, &e), 0);
	ck_assert_int_eq(net_keep_neurons(b, 1, (int[]){0, 1, 3}, 3, &e), 0);
	ck_assert_uint_eq(a->nparam, b->nparam);
	ck_assert_mem_eq(a->param, b->param, a->nparam * sizeof(float));
	ck_assert_mem_eq(a->adam_m, b->adam_m, a->nparam * sizeof(float));
	ck_assert_mem_eq(a->adam_v, b->adam_v, a->nparam * sizeof(float));
	ck_assert_int_eq(a->adam_t, 17);
	/* Old layout: W0 5×4 at 0, b0 at 20, W1 4×3 at 24, b1 at 36, W2 at 39, b2 at 48. */
	const int keep[3] = {0, 1, 3};
	for (int r = 0; r < 5; r++)
		for (int j = 0; j < 3; j++)
			ck_assert_float_eq(a->W[0][r * 3 + j], (float)(r * 4 + keep[j]));
	for (int j = 0; j < 3; j++) {
		ck_assert_float_eq(a->b[0][j], (float)(20 + keep[j]));
		for (int c = 0; c < 3; c++)
			ck_assert_float_eq(a->W[1][j * 3 + c], (float)(24 + keep[j] * 3 + c));
	}
	for (int c = 0; c < 3; c++)
		ck_assert_float_eq(a->b[1][c], (float)(36 + c));
	for (int k = 0; k < 12; k++)
		ck_assert_float_eq(a->W[2][k], (float)(39 + k));
	for (size_t k = 0; k < a->nparam; k++) {
		ck_assert_float_eq(a->adam_m[k], a->param[k] + 0.25f);
		ck_assert_float_eq(a->adam_v[k], a->param[k] + 0.5f);
	}
	/* The last hidden layer: rows of the output matrix go with it. */
	ck_assert_int_eq(net_keep_neurons(a, 2, (int[]){2}, 1, &e), 0);
	ck_assert_int_eq(a->n[2], 1);
	for (int c = 0; c < 3; c++)
		ck_assert_float_eq(a->W[2][c], (float)(39 + 2 * 3 + c));
	ck_assert_float_eq(a->b[1][0], (float)(36 + 2));
	net_free(a);
	net_free(b);
}
END_TEST

START_TEST(test_keep_errors)
{
	Net *net = small_net(ACT_ERF, 6);
	Err e;
	ck_assert_int_eq(net_keep_neurons(net, 0, (int[]){0}, 1, &e), -1);
	ck_assert_str_eq(e.msg, "layer 0 is not a hidden layer (expected 1..2)");
	ck_assert_int_eq(net_keep_neurons(net, 3, (int[]){0}, 1, &e), -1);
	ck_assert_str_eq(e.msg, "layer 3 is not a hidden layer (expected 1..2)");
	ck_assert_int_eq(net_keep_neurons(net, 1, (int[]){0, 4}, 2, &e), -1);
	ck_assert_str_eq(e.msg, "hidden layer 1: neuron 4 out of range (0..3)");
	ck_assert_int_eq(net_keep_neurons(net, 1, (int[]){2, 0, 2}, 3, &e), -1);
	ck_assert_str_eq(e.msg, "hidden layer 1: neuron 2 listed twice");
	ck_assert_int_eq(net_keep_neurons(net, 1, NULL, 0, &e), -1);
	ck_assert_str_eq(e.msg, "hidden layer 1: cannot keep 0 of its 4 neurons");
	ck_assert_int_eq(net_remove_neuron(net, 2, 3, &e), -1);
	ck_assert_str_eq(e.msg, "hidden layer 2: neuron 3 out of range (0..2)");
	ck_assert_int_eq(net_keep_neurons(net, 2, (int[]){1}, 1, &e), 0);
	ck_assert_int_eq(net_remove_neuron(net, 2, 0, &e), -1);
	ck_assert_str_eq(e.msg, "hidden layer 2: cannot remove its only neuron");
	ck_assert_int_eq(net_add_neurons(net, 1, 0, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "hidden layer 1: cannot add 0 neurons to 4");
	/* Failed edits leave the shape as it was. */
	char buf[32];
	ck_assert_str_eq(net_shape_str(net, buf, sizeof buf), "5-4-1-3");
	net_free(net);
}
END_TEST

START_TEST(test_add_neurons)
{
	enum { N = 13 };
	float x[N * 5], before[N * 3], after[N * 3];
	fill_x(x, N * 5, 8);
	for (int k = 0; k < ACT_COUNT; k++) {
		Net *net = small_net((ActKind)k, 7), *old = net_clone(net, NULL);
		for (size_t i = 0; i < net->nparam; i++)
			net->adam_m[i] = old->adam_m[i] = 1.0f;
		Err e;
		Rng r;
		rng_seed(&r, 2);
		ck_assert_int_eq(net_forward(net, x, N, 3, before, &e), 0);
		ck_assert_int_eq(net_add_neurons(net, 2, 4, &r, &e), 0);
		ck_assert_int_eq(net->n[2], 7);
		ck_assert_int_eq(net_forward(net, x, N, 3, after, &e), 0);
		ck_assert_double_lt(max_abs_diff(before, after, N * 3), 1e-6);
		double lim = sqrt(6.0 / (4 + 7)), mx = 0;
		for (int row = 0; row < 4; row++)
			for (int j = 0; j < 7; j++) {
				float w = net->W[1][row * 7 + j];
				if (j < 3) {
					ck_assert_float_eq(w, old->W[1][row * 3 + j]);
					ck_assert_float_eq(
					    net->adam_m[net->W[1] - net->param + row * 7 + j],
					    1.0f);
				} else {
					mx = fmax(mx, fabs(w));
					ck_assert_float_eq(
					    net->adam_m[net->W[1] - net->param + row * 7 + j],
					    0.0f);
				}
			}
		ck_assert_double_gt(mx, 0.0);
		ck_assert_double_le(mx, lim);
		for (int j = 3; j < 7; j++) {
			ck_assert_float_eq(net->b[1][j], 0.0f);
			for (int c = 0; c < 3; c++)
				ck_assert_float_eq(net->W[2][j * 3 + c], 0.0f);
		}
		ck_assert_mem_eq(net->W[0], old->W[0], (5 * 4 + 4 + 0) * sizeof(float));
		ck_assert_mem_eq(net->b[2], old->b[2], 3 * sizeof(float));
		net_free(net);
		net_free(old);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("net");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_glorot);
	tcase_add_test(tc, test_parse_layers);
	tcase_add_test(tc, test_remove_dead_neuron);
	tcase_add_test(tc, test_keep_neurons);
	tcase_add_test(tc, test_keep_errors);
	tcase_add_test(tc, test_add_neurons);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
