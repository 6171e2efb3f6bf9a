/* report_test.h - what the tests of report/ share: a text rendered
 * compared whole, JSON records read back (their items, numbers and arrays
 * of them, to the last bit but one), and hand-made results to render: a
 * network's layers, Algorithm 1's iterations and a β sweep. */
#ifndef CONDNET_REPORT_TEST_H
#define CONDNET_REPORT_TEST_H

#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>

#include "alg/alg1_proportion.h"
#include "alg/alg2_scale.h"
#include "engine/cond.h"
#include "testutil.h"

static inline void assert_text(char *got, const char *want)
{
	ck_assert_msg(!strcmp(got, want), "got:\n%s\nwanted:\n%s", got, want);
	free(got);
}

/* a == b but for the last bit: cJSON prints 15 significant digits when they
 * read back within an ulp. */
static inline int near(double a, double b)
{
	return fabs(a - b) <= 2 * DBL_EPSILON * fmax(fabs(a), fabs(b));
}

/* root printed by cJSON and parsed back. */
static inline cJSON *reparse(cJSON *root)
{
	ck_assert_ptr_nonnull(root);
	char *s = cJSON_Print(root);
	ck_assert_ptr_nonnull(s);
	cJSON *back = cJSON_Parse(s);
	ck_assert_ptr_nonnull(back);
	cJSON_free(s);
	cJSON_Delete(root);
	return back;
}

static inline const cJSON *item(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	ck_assert_msg(v != NULL, "no \"%s\"", key);
	return v;
}

static inline double num(const cJSON *o, const char *key)
{
	const cJSON *v = item(o, key);
	ck_assert_msg(cJSON_IsNumber(v), "\"%s\" is not a number", key);
	return v->valuedouble;
}

/* An array of n numbers equal to want (∞ and NaN as null). */
static inline void assert_nums(const cJSON *a, const double *want, int n)
{
	ck_assert(cJSON_IsArray(a));
	ck_assert_int_eq(cJSON_GetArraySize(a), n);
	for (int i = 0; i < n; i++) {
		const cJSON *v = cJSON_GetArrayItem(a, i);
		if (isfinite(want[i])) {
			ck_assert_msg(cJSON_IsNumber(v), "entry %d is not a number", i);
			ck_assert_msg(near(v->valuedouble, want[i]), "entry %d: %.17g, not %.17g",
			              i, v->valuedouble, want[i]);
		} else
			ck_assert_msg(cJSON_IsNull(v), "entry %d: %g is not null", i, want[i]);
	}
}

static inline void assert_ints(const cJSON *a, const int *want, int n)
{
	ck_assert(cJSON_IsArray(a));
	ck_assert_int_eq(cJSON_GetArraySize(a), n);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(cJSON_GetArrayItem(a, i)->valueint, want[i]);
}

/* A network 4-2652-3-2 and a hand-made table of its layers: κ of layer 2
 * infinite, layer 2 computed without the pivoted QR. */
static inline Net *cond_net_2652(LayerCond *lc)
{
	Net *net = net_new(3, (int[]){4, 2652, 3, 2}, ACT_ERF, 1.0f, NULL);
	ck_assert_ptr_nonnull(net);
	static double sv0[5] = {9, 8, 7, 6, 9.0 / 12345.678};
	static double sv1[3] = {4, 2, 0};
	static double sv2[2] = {3, 2};
	static double rd0[5] = {1, 0.5, 0.25, 0.125, 0.01};
	static double rd2[2] = {1, 0.75};
	memset(lc, 0, 3 * sizeof *lc);
	lc[0] = (LayerCond){.layer = 1,
	                    .rows = 5,
	                    .cols = 2652,
	                    .nsv = 5,
	                    .sv = sv0,
	                    .kappa = 12345.678,
	                    .tau = 25,
	                    .p = 2,
	                    .rank_svd = 3,
	                    .rdiag = rd0,
	                    .rank_qr = 4};
	lc[1] = (LayerCond){.layer = 2,
	                    .rows = 2653,
	                    .cols = 3,
	                    .nsv = 3,
	                    .sv = sv1,
	                    .kappa = INFINITY,
	                    .tau = 25,
	                    .p = 1,
	                    .rank_svd = 2,
	                    .rank_qr = -1};
	lc[2] = (LayerCond){.layer = 3,
	                    .rows = 4,
	                    .cols = 2,
	                    .nsv = 2,
	                    .sv = sv2,
	                    .kappa = 1.5,
	                    .tau = 25,
	                    .p = 0,
	                    .rank_svd = 2,
	                    .rdiag = rd2,
	                    .rank_qr = 2};
	return net;
}

__attribute__((unused)) static int hand_n0[4] = {4, 50, 40, 3}, hand_n1[4] = {4, 45, 30, 3},
                                   hand_n2[4] = {4, 45, 21, 3};
__attribute__((unused)) static double hand_k0[3] = {12.4, 2652.4, 3},
                                      hand_k1[3] = {10, INFINITY, 2}, hand_k2[3] = {9.25, 20.6, 2};
__attribute__((unused)) static int hand_p0[3] = {0, 5, 0}, hand_p1[3] = {0, 9, 0},
                                   hand_p2[3] = {0, 0, 0};

/* Three iterations of a 4-50-40-3 network; the last ran at another τ and η. */
static inline void hand_alg1(Alg1 *a, Alg1Record *rec)
{
	memset(a, 0, sizeof *a);
	alg1_opts_default(&a->o);
	a->o.tau = 25;
	a->o.eta = 1;
	a->o.round = 0;
	a->o.max_iter = 7;
	a->o.warm = 1;
	a->o.seed = 42;
	rec[0] = (Alg1Record){.iter = 0,
	                      .m = 3,
	                      .n = hand_n0,
	                      .kappa = hand_k0,
	                      .p = hand_p0,
	                      .max_kappa = 2652.4,
	                      .sum_n = 93,
	                      .train_error = 0.125,
	                      .eval_error = NAN,
	                      .seconds = 1.5,
	                      .tau = 25,
	                      .eta = 1};
	rec[1] = (Alg1Record){.iter = 1,
	                      .m = 3,
	                      .n = hand_n1,
	                      .kappa = hand_k1,
	                      .p = hand_p1,
	                      .max_kappa = INFINITY,
	                      .sum_n = 78,
	                      .train_error = 0.25,
	                      .eval_error = NAN,
	                      .seconds = 2.5,
	                      .tau = 25,
	                      .eta = 1};
	rec[2] = (Alg1Record){.iter = 2,
	                      .m = 3,
	                      .n = hand_n2,
	                      .kappa = hand_k2,
	                      .p = hand_p2,
	                      .max_kappa = 20.6,
	                      .sum_n = 69,
	                      .train_error = 0.0625,
	                      .eval_error = NAN,
	                      .seconds = 0.75,
	                      .tau = 30,
	                      .eta = 0.5};
	a->rec = rec;
	a->nrec = 3;
	a->status = ALG1_DONE;
	snprintf(a->reason, sizeof a->reason, "every κ ≤ τ");
}

__attribute__((unused)) static int hand_w06[3] = {4, 6, 3}, hand_w10[3] = {4, 10, 3},
                                   hand_w14[3] = {4, 14, 3}, hand_w18[3] = {4, 18, 3};

/* β = 1.0 has the least score of the β with all q = 3 trials; β = 1.4 no
 * trial yet; β = 1.8 a lower score after a single trial. */
static inline void hand_alg2(Alg2 *a, Alg2Beta *b, Net *base)
{
	memset(a, 0, sizeof *a);
	alg2_opts_default(&a->o);
	a->o.q = 3;
	a->o.eta = 0.5;
	a->o.seed = 9;
	a->base = base;
	a->nw = base->m + 1;
	b[0] = (Alg2Beta){0.6, hand_w06, 3, 0.1, 0.15, 0.2};
	b[1] = (Alg2Beta){1.0, hand_w10, 3, 0.05, 0.1, 0.15};
	b[2] = (Alg2Beta){1.4, hand_w14, 0, 0, 0, 0};
	b[3] = (Alg2Beta){1.8, hand_w18, 1, 0.01, 0.05, 0.09};
	a->b = b;
	a->nb = 4;
}

#endif
