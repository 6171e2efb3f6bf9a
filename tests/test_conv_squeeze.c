/* test_conv_squeeze.c - a convolution layer's channels as the units of the
 * conditioning and of Algorithm 3: removing channels (their kernels and
 * biases, the next convolution's input slices or the flatten's rows, and
 * their Adam state) answers as zeroing what read them; added channels
 * change nothing until trained; a reshaped network keeps its kernels; κ of
 * a convolution is that of its stacked matrix; least squares in blocks is
 * least squares; compensation gives back the answers when a channel is a
 * multiple of another or constant; the norm criterion ranks a channel by
 * the weights that read it; a squeeze removes the dependent channel; the
 * what-if of a proposal (the tail of the network) is what applying it does. */
#include <math.h>

#include "alg/alg3_compare.h"
#include "alg/alg3_squeeze.h"
#include "engine/cond.h"
#include "engine/cond_matrix.h"
#include "engine/net.h"
#include "engine/train.h"
#include "testutil.h"

static Net *spec_net(const char *spec, int side, ActKind act, uint64_t seed)
{
	Err e;
	Net *net = net_fresh_spec(spec, side * side, 1, side, side, 3, act, 1.0f, seed, "test", &e);
	ck_assert_msg(net != NULL, "%s: %s", spec, e.msg);
	/* biases away from zero, so that every row of Ŵ takes part */
	Rng r;
	rng_seed(&r, seed + 100);
	for (int i = 0; i < net->m; i++)
		for (int j = 0; j < net_cols(net, i); j++)
			net->b[i][j] = (float)(0.2 * (rng_uniform(&r) - 0.3));
	return net;
}

/* n rows of side×side uniform values in [0, 1). */
static float *inputs(int n, int side, uint64_t seed)
{
	float *x = malloc((size_t)n * side * side * sizeof *x);
	Rng r;
	rng_seed(&r, seed);
	for (int i = 0; i < n * side * side; i++)
		x[i] = (float)rng_uniform(&r);
	return x;
}

/* The probabilities of n rows. */
static float *probs(const Net *net, const float *x, int n)
{
	float *p = malloc((size_t)n * net->n[net->m] * sizeof *p);
	int *cls = malloc((size_t)n * sizeof *cls);
	Err e;
	ck_assert_int_eq(net_classify(net, x, NULL, n, cls, p, NULL, NULL, NULL, NULL, &e), 0);
	free(cls);
	return p;
}

static double max_diff(const float *a, const float *b, size_t n)
{
	double d = 0;
	for (size_t i = 0; i < n; i++)
		d = fmax(d, fabs((double)a[i] - b[i]));
	return d;
}

/* Zeroes the rows of W⁽ˡᵃʸᵉʳ⁺¹⁾ that read channel j of `layer`. */
static void zero_reads(Net *net, int layer, int j)
{
	size_t g = (size_t)net_unit_rows(net, layer), q = (size_t)net_cols(net, layer);
	memset(net->W[layer] + (size_t)j * g * q, 0, g * q * sizeof(float));
}

static const char *const specs[] = {"conv:5:3:same,pool:2,conv:4:3,6", "conv:5:3,conv:4:2,pool:2,6",
                                    "conv:6:3:1,pool:2,7"};

START_TEST(test_keep_channels)
{
	const char *spec = specs[_i];
	int n = 40;
	float *x = inputs(n, 8, 3);
	for (int layer = 1; layer <= 2; layer++) {
		Net *net = spec_net(spec, 8, ACT_RELU, 7);
		if (layer > net->nconv) {
			net_free(net);
			continue;
		}
		int C = net_units(net, layer), keep[] = {C - 1, 0, 2};
		Net *zeroed = net_clone(net, NULL);
		for (int j = 0; j < C; j++)
			if (j != 0 && j != 2 && j != C - 1)
				zero_reads(zeroed, layer, j);
		/* the Adam moments follow the parameters */
		for (size_t i = 0; i < net->nparam; i++)
			net->adam_m[i] = net->param[i];
		Err e;
		ck_assert_msg(net_keep_neurons(net, layer, keep, 3, &e) == 0, "%s", e.msg);
		ck_assert_int_eq(net_units(net, layer), 3);
		ck_assert_int_eq(net->conv[layer - 1].c_out, 3);
		if (layer < net->nconv)
			ck_assert_int_eq(net->conv[layer].c_in, 3);
		ck_assert_int_eq(net->n[layer],
		                 3 * net->conv[layer - 1].h_out * net->conv[layer - 1].w_out);
		ck_assert_mem_eq(net->adam_m, net->param, net->nparam * sizeof(float));
		size_t np = 0;
		for (int i = 0; i < net->m; i++)
			np += net_layer_params(net, i);
		ck_assert_uint_eq(np, net->nparam);
		float *a = probs(zeroed, x, n), *b = probs(net, x, n);
		ck_assert_double_le(max_diff(a, b, (size_t)n * 3), 1e-6);
		/* a channel out of range, or twice, is refused with nothing changed */
		ck_assert_int_eq(net_keep_neurons(net, layer, (int[]){0, 3}, 2, &e), -1);
		ck_assert_str_eq(e.msg, layer == 1
		                            ? "hidden layer 1: channel 3 out of range (0..2)"
		                            : "hidden layer 2: channel 3 out of range (0..2)");
		ck_assert_int_eq(net_keep_neurons(net, layer, (int[]){1, 1}, 2, &e), -1);
		ck_assert_int_eq(net_units(net, layer), 3);
		free(a);
		free(b);
		net_free(zeroed);
		net_free(net);
	}
	free(x);
}
END_TEST

START_TEST(test_add_channels)
{
	Net *net = spec_net(specs[0], 8, ACT_TANH, 5);
	float *x = inputs(30, 8, 4), *a = probs(net, x, 30);
	Rng r;
	rng_seed(&r, 9);
	Err e;
	ck_assert_int_eq(net_add_neurons(net, 1, 2, &r, &e), 0);
	ck_assert_int_eq(net_units(net, 1), 7);
	ck_assert_int_eq(net->conv[1].c_in, 7);
	/* the new kernels are drawn, what reads them is zero: nothing changes */
	double s = 0;
	for (int row = 0; row < net_rows(net, 0); row++)
		s += fabs(net->W[0][row * 7 + 6]);
	ck_assert_double_gt(s, 0);
	float *b = probs(net, x, 30);
	ck_assert_double_le(max_diff(a, b, 90), 1e-6);
	free(a);
	free(b);
	free(x);
	net_free(net);
}
END_TEST

START_TEST(test_reshape_fresh)
{
	Net *net = spec_net(specs[0], 8, ACT_RELU, 2);
	Err e;
	int units[] = {64, 7, 2, 9, 3};
	Net *f = net_fresh_like(net, units, 11, &e);
	ck_assert_ptr_nonnull(f);
	char buf[128];
	ck_assert_str_eq(net_shape_str(f, buf, sizeof buf), "1x8x8-7@3x3pad1-pool-2@3x3-9-3");
	ck_assert_int_eq(f->conv[1].c_in, 7);
	ck_assert_int_eq(f->n[2], 2 * 2 * 2);
	/* the same seed, the same weights */
	Net *g = net_fresh_like(net, units, 11, &e);
	ck_assert_mem_eq(f->param, g->param, f->nparam * sizeof(float));
	net_free(g);
	ck_assert_ptr_null(net_reshape(net, (int[]){0, 2, 3}, &e));
	ck_assert_str_eq(e.msg, "layer 1: 0 channels, expected at least 1");
	net_free(f);
	net_free(net);
}
END_TEST

/* κ of a convolution: its Ŵ is (C_in·K·K + 1) × C_out, a column per channel. */
START_TEST(test_cond_conv)
{
	Net *net = spec_net(specs[0], 8, ACT_RELU, 4);
	LayerCond lc;
	Err e;
	ck_assert_int_eq(cond_layer(net, 2, 25, &lc, &e), 0);
	ck_assert_int_eq(lc.conv, 1);
	ck_assert_int_eq(lc.rows, 5 * 9 + 1);
	ck_assert_int_eq(lc.cols, 4);
	ck_assert_int_eq(lc.nsv, 4);
	int rows, cols;
	double *A = cond_stacked(net, 2, NULL, 0, &rows, &cols, &e), k;
	ck_assert_double_eq(A[(size_t)(rows - 1) * cols + 3], net->b[1][3]);
	ck_assert_double_eq(A[(size_t)(2 * 9 + 1 * 3 + 2) * cols + 1],
	                    net->W[1][(2 * 9 + 5) * 4 + 1]);
	ck_assert_int_eq(cond_kappa(A, rows, cols, &k, &e), 0);
	ck_assert_double_eq(k, lc.kappa);
	free(A);
	cond_layer_free(&lc);
	net_free(net);
}
END_TEST

/* Least squares fed in blocks gives cond_lstsq's answer, with a dependent
 * column too. */
START_TEST(test_lsq_blocks)
{
	enum { R = 9000, N = 6, Q = 3 };
	double *A = malloc((size_t)R * N * sizeof *A), *B = malloc((size_t)R * Q * sizeof *B);
	Rng r;
	rng_seed(&r, 17);
	for (int dep = 0; dep <= 1; dep++) {
		for (int i = 0; i < R; i++) {
			for (int j = 0; j < N; j++)
				A[i * N + j] = rng_uniform(&r) - 0.5 + (j == 0);
			if (dep)
				A[i * N + 4] = 2 * A[i * N + 1] - A[i * N + 2];
			for (int k = 0; k < Q; k++)
				B[i * Q + k] =
				    A[i * N + k] * (k + 1) - A[i * N + 5] + 0.1 * rng_uniform(&r);
		}
		double want[N * Q], got[N * Q];
		int rank_w, rank_g;
		Err e;
		ck_assert_int_eq(cond_lstsq_rcond(A, R, N, B, Q, want, 1e-6, &rank_w, &e), 0);
		CondLsq *q = cond_lsq_new(N, Q, &e);
		for (int at = 0; at < R; at += 777) {
			int rows = R - at < 777 ? R - at : 777;
			ck_assert_int_eq(
			    cond_lsq_add(q, A + (size_t)at * N, B + (size_t)at * Q, rows, &e), 0);
		}
		ck_assert_int_eq(cond_lsq_solve(q, 1e-6, got, &rank_g, &e), 0);
		cond_lsq_free(q);
		ck_assert_int_eq(rank_g, rank_w);
		ck_assert_int_eq(rank_g, dep ? N - 1 : N);
		/* the residuals agree; without a dependence the solutions too */
		double rw = 0, rg = 0;
		for (int i = 0; i < R; i++)
			for (int k = 0; k < Q; k++) {
				double sw = -B[i * Q + k], sg = sw;
				for (int j = 0; j < N; j++) {
					sw += A[i * N + j] * want[j * Q + k];
					sg += A[i * N + j] * got[j * Q + k];
				}
				rw += sw * sw;
				rg += sg * sg;
			}
		ck_assert_double_le(fabs(rw - rg), 1e-10 * rw);
		for (int j = 0; !dep && j < N * Q; j++)
			ck_assert_double_le(fabs(want[j] - got[j]), 1e-10 * (1 + fabs(want[j])));
	}
	free(A);
	free(B);
}
END_TEST

/* Channel r of `layer` made f times channel k (kernel and bias): under
 * relu and the max pool its maps are f times k's. */
static void make_multiple(Net *net, int layer, int r, int k, float f)
{
	int rows = net_rows(net, layer - 1), C = net_cols(net, layer - 1);
	for (int i = 0; i < rows; i++)
		net->W[layer - 1][i * C + r] = f * net->W[layer - 1][i * C + k];
	net->b[layer - 1][r] = f * net->b[layer - 1][k];
}

/* Channel r of `layer` made constant: no kernel, a positive bias. */
static void make_constant(Net *net, int layer, int r)
{
	int rows = net_rows(net, layer - 1), C = net_cols(net, layer - 1);
	for (int i = 0; i < rows; i++)
		net->W[layer - 1][i * C + r] = 0;
	net->b[layer - 1][r] = 0.75f;
}

START_TEST(test_compensate_channels)
{
	/* layer 1 read by an unpadded convolution, layer 2 by the flatten */
	const char *spec = "conv:5:3:same,pool:2,conv:4:2,6";
	float *x = inputs(64, 8, 6);
	Dataset *sample = dataset_new(64, 64, 3, NULL);
	memcpy(sample->x, x, 64 * 64 * sizeof *x);
	for (int layer = 1; layer <= 2; layer++)
		for (int constant = 0; constant <= 1; constant++) {
			Net *net = spec_net(spec, 8, ACT_RELU, 21);
			int r = layer == 1 ? 3 : 2;
			if (constant)
				make_constant(net, layer, r);
			else
				make_multiple(net, layer, r, 1, 2.5f);
			int C = net_units(net, layer), keep[8], nk = 0;
			for (int j = 0; j < C; j++)
				if (j != r)
					keep[nk++] = j;
			Net *plain = net_clone(net, NULL);
			float *want = probs(net, x, 64);
			Err e;
			ck_assert_msg(alg3_compensate(net, layer, keep, nk, sample, 2000, &e) == 0,
			              "%s", e.msg);
			ck_assert_int_eq(net_keep_neurons(net, layer, keep, nk, &e), 0);
			ck_assert_int_eq(net_keep_neurons(plain, layer, keep, nk, &e), 0);
			float *got = probs(net, x, 64), *without = probs(plain, x, 64);
			double d = max_diff(want, got, 64 * 3),
			       d0 = max_diff(want, without, 64 * 3);
			ck_assert_msg(d <= 1e-5, "layer %d%s: compensated, %g", layer,
			              constant ? " (constant)" : "", d);
			ck_assert_msg(d0 > 1e-3, "layer %d: without compensation only %g", layer,
			              d0);
			free(want);
			free(got);
			free(without);
			net_free(plain);
			net_free(net);
		}
	dataset_free(sample);
	free(x);
}
END_TEST

/* The fit alone: a removed channel that is 0.5·a − 2·b + 1 at every
 * position of every map is found so. */
START_TEST(test_channel_fit)
{
	enum { S = 7, C = 4, P = 9 };
	double Y[S * C * P];
	Rng r;
	rng_seed(&r, 3);
	for (int s = 0; s < S; s++)
		for (int p = 0; p < P; p++) {
			double *y = Y + s * C * P;
			y[0 * P + p] = (float)rng_uniform(&r);
			y[1 * P + p] = (float)rng_uniform(&r);
			y[3 * P + p] = (float)rng_uniform(&r);
			y[2 * P + p] = 0.5f * y[0 * P + p] - 2 * y[3 * P + p] + 1;
		}
	double comb[4 * 1];
	Err e;
	ck_assert_int_eq(alg3_channel_fit(Y, S, C, P, (int[]){3, 0, 1}, 3, comb, &e), 0);
	ck_assert_double_eq_tol(comb[0], -2, 1e-6);
	ck_assert_double_eq_tol(comb[1], 0.5, 1e-6);
	ck_assert_double_eq_tol(comb[2], 0, 1e-6);
	ck_assert_double_eq_tol(comb[3], 1, 1e-6);
	ck_assert_int_eq(alg3_channel_fit(Y, S, C, P, (int[]){0, 0}, 2, comb, &e), -1);
	ck_assert_str_eq(e.msg, "the kept channels are not 2 distinct channels of 0..3");
}
END_TEST

/* The norm criterion ranks a channel by the weights that read it. */
START_TEST(test_norm_order)
{
	Net *net = spec_net(specs[2], 8, ACT_RELU, 8);
	/* layer 1's 6 channels are read by 16 rows each of the dense layer */
	ck_assert_int_eq(net_unit_rows(net, 1), 16);
	float *W = net->W[1];
	int q = net_cols(net, 1);
	for (int j = 0; j < 6; j++)
		for (int t = 0; t < 16 * q; t++)
			W[j * 16 * q + t] = (float)(j == 4   ? 0.01
			                            : j == 1 ? 0.5
			                                     : 0.1 + 0.01 * j) *
			                    (t % 2 ? 1 : -1);
	int order[6];
	Err e;
	ck_assert_int_eq(alg3_order(net, 1, ALG3_NORM, 0, order, &e), 0);
	int want[] = {1, 5, 3, 2, 0, 4};
	ck_assert_mem_eq(order, want, sizeof want);
	net_free(net);
}
END_TEST

/* Algorithm 3 on a network whose first layer has a channel twice another:
 * κ is infinite there and the squeeze removes it, and only it. */
START_TEST(test_squeeze_dependent)
{
	Net *net = spec_net(specs[0], 8, ACT_RELU, 13);
	make_multiple(net, 1, 2, 4, 2.0f);
	LayerCond lc;
	Err e;
	ck_assert_int_eq(cond_layer(net, 1, 1e6, &lc, &e), 0);
	ck_assert_double_gt(lc.kappa, 1e6);
	cond_layer_free(&lc);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 1e6;
	/* alg3_squeeze_net writes one count per layer of the network (net->m). */
	int removed[16] = {0}, total = 0;
	ck_assert_int_le(net->m, 16);
	ck_assert_msg(alg3_squeeze_net(net, &o, NULL, removed, &total, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(removed[0], 1);
	ck_assert_int_eq(total, 1);
	ck_assert_int_eq(net->conv[0].c_out, 4);
	ck_assert_int_eq(net->conv[1].c_in, 4);
	net_free(net);
}
END_TEST

/* The what-if of one convolution layer's proposal measures what applying
 * it does: alg3_compare_layer's tail of the network against alg3_preview's
 * whole network; compensation gives back every answer when the channel
 * removed is a multiple of a kept one. The labels are the network's own
 * answers. */
START_TEST(test_layer_compare_conv)
{
	Net *net = spec_net(specs[0], 8, ACT_RELU, 31);
	make_multiple(net, 1, 1, 3, 1.5f);
	make_multiple(net, 2, 0, 2, 2.0f);
	int n = 300;
	Dataset *eval = dataset_new(n, 64, 3, NULL), *sample = dataset_new(n, 64, 3, NULL);
	float *x = inputs(n, 8, 12), *x2 = inputs(n, 8, 13), *p = probs(net, x, n);
	memcpy(eval->x, x, (size_t)n * 64 * sizeof *x);
	memcpy(sample->x, x2, (size_t)n * 64 * sizeof *x2);
	for (int i = 0; i < n; i++)
		eval->y[i] = p[3 * i] >= p[3 * i + 1] && p[3 * i] >= p[3 * i + 2] ? 0
		             : p[3 * i + 1] >= p[3 * i + 2]                       ? 1
		                                                                  : 2;
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 1e6;
	for (int layer = 1; layer <= 2; layer++) {
		Alg3Proposal sp;
		Err e;
		ck_assert_int_eq(alg3_propose(net, layer, &o, &sp, &e), 0);
		ck_assert_int_eq(sp.nkeep, sp.n_before - 1);
		double acc, accc;
		ck_assert_msg(alg3_preview(net, &sp, eval, sample, &acc, &accc, &e) == 0, "%s",
		              e.msg);
		Alg3LayerCompare lc;
		ck_assert_msg(alg3_compare_layer(net, &sp, eval, sample, 3, 1, 1, 0, &lc, &e) == 0,
		              "%s", e.msg);
		ck_assert_int_eq(lc.rows, n);
		ck_assert_double_eq_tol(lc.acc[ALG3_QR], acc, 1e-9);
		ck_assert_double_eq_tol(lc.acc_comp[ALG3_QR], accc, 1e-9);
		ck_assert_double_eq(lc.acc_comp[ALG3_QR], 100);
		ck_assert_double_eq(lc.agree_comp, 100);
		alg3_proposal_free(&sp);
	}
	free(x);
	free(x2);
	free(p);
	dataset_free(eval);
	dataset_free(sample);
	net_free(net);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("conv_squeeze");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_keep_channels, 0, (int)(sizeof specs / sizeof *specs));
	tcase_add_test(tc, test_add_channels);
	tcase_add_test(tc, test_reshape_fresh);
	tcase_add_test(tc, test_cond_conv);
	tcase_add_test(tc, test_lsq_blocks);
	tcase_add_test(tc, test_compensate_channels);
	tcase_add_test(tc, test_channel_fit);
	tcase_add_test(tc, test_norm_order);
	tcase_add_test(tc, test_squeeze_dependent);
	tcase_add_test(tc, test_layer_compare_conv);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
