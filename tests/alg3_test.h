/* alg3_test.h - what the tests of Algorithm 3 share (test_alg3_squeeze.c,
 * test_alg3_steps.c, test_alg3_rounds.c): the networks with planted
 * duplicate neurons, the kept set they must leave, accuracy and κ, two
 * networks compared to the bit, the steps a hook heard, and τ = 100. */
#ifndef CONDNET_ALG3_TEST_H
#define CONDNET_ALG3_TEST_H

#include <math.h>

#include "alg/alg3_squeeze.h"
#include "base/rng.h"
#include "data/dataset.h"
#include "engine/cond.h"
#include "engine/hook.h"
#include "engine/net.h"
#include "fixtures.h"
#include "testutil.h"

/* Layer 2 duplicates: neuron 5 copies neuron 1, neuron 6 copies neuron 3. */
__attribute__((unused)) static const int dup_of[2][2] = {{1, 5}, {3, 6}};

/* 10-8-7-3: the copies of neurons 1 and 3 with the outgoing rows split
 * 0.3/0.7 and 0.5/0.5 (fixtures.h), so its function is unchanged. */
static inline Net *planted(uint64_t seed)
{
	return fx_planted(seed, 0.3f, 0.7f, 0.5f, 0.5f);
}

/* The kept set of layer 2 is {0, 2, 4} plus one neuron of each pair. */
static inline void assert_planted_kept(const int *keep, int nkeep)
{
	ck_assert_int_eq(nkeep, 5);
	int seen[7] = {0};
	for (int j = 0; j < nkeep; j++)
		seen[keep[j]]++;
	ck_assert(seen[0] && seen[2] && seen[4]);
	for (int d = 0; d < 2; d++)
		ck_assert_int_eq(seen[dup_of[d][0]] + seen[dup_of[d][1]], 1);
}

/* The accuracy (percent) of net on d, which must fit it. */
static inline double acc(const Net *net, const Dataset *d)
{
	double a;
	Err e;
	ck_assert_msg(net_accuracy(net, d, NULL, &a, &e) == 0, "%s", e.msg);
	return a;
}

/* 10-8-7-6-5-3: a random 10-8-5-4-5-3 network with redundancy planted in two
 * hidden layers: layer 2 gets exact copies of neurons 1 and 3 (outgoing
 * weights split, as in planted()), layer 3 near-copies of its neurons 0 and
 * 2 (incoming weights plus noise of 1e-4, outgoing weights halved). Layers
 * 1 and 4 are left random, with κ well within τ = 100. */
static inline Net *planted2(uint64_t seed)
{
	int wb[6] = {10, 8, 5, 4, 5, 3}, wp[6] = {10, 8, 7, 6, 5, 3};
	Net *base = net_new(5, wb, ACT_TANH, 1.0f, NULL),
	    *net = net_new(5, wp, ACT_TANH, 1.0f, NULL);
	ck_assert_ptr_nonnull(base);
	ck_assert_ptr_nonnull(net);
	Rng r;
	rng_seed(&r, seed);
	net_init_glorot(base, &r);
	for (size_t i = 0; i < base->nparam; i++)
		base->param[i] += (float)(0.1 * rng_normal(&r));
	static const int src2[7] = {0, 1, 2, 3, 4, 1, 3}, src3[6] = {0, 1, 2, 3, 0, 2};
	static const float share2[7] = {1, 0.3f, 1, 0.5f, 1, 0.7f, 0.5f};
	static const float share3[6] = {0.5f, 1, 0.5f, 1, 0.5f, 0.5f};
	memcpy(net->W[0], base->W[0], sizeof(float) * 10 * 8);
	memcpy(net->b[0], base->b[0], sizeof(float) * 8);
	for (int j = 0; j < 7; j++) {
		for (int i = 0; i < 8; i++)
			net->W[1][i * 7 + j] = base->W[1][i * 5 + src2[j]];
		net->b[1][j] = base->b[1][src2[j]];
	}
	for (int c = 0; c < 6; c++) {
		float noise = c >= 4 ? 1e-4f : 0.0f;
		for (int j = 0; j < 7; j++)
			net->W[2][j * 6 + c] = share2[j] * base->W[2][src2[j] * 4 + src3[c]] +
			                       noise * (float)rng_normal(&r);
		net->b[2][c] = base->b[2][src3[c]] + noise * (float)rng_normal(&r);
		for (int k = 0; k < 5; k++)
			net->W[3][c * 5 + k] = share3[c] * base->W[3][src3[c] * 5 + k];
	}
	memcpy(net->b[3], base->b[3], sizeof(float) * 5);
	memcpy(net->W[4], base->W[4], sizeof(float) * 5 * 3);
	memcpy(net->b[4], base->b[4], sizeof(float) * 3);
	net_free(base);
	return net;
}

static inline double kappa_of(const Net *net, int layer)
{
	LayerCond lc;
	Err e;
	ck_assert_msg(cond_layer(net, layer, 100, &lc, &e) == 0, "%s", e.msg);
	double k = lc.kappa;
	cond_layer_free(&lc);
	return k;
}

static inline int same_net(const Net *a, const Net *b)
{
	return a->m == b->m && !memcmp(a->n, b->n, sizeof(int) * (size_t)(a->m + 1)) &&
	       a->nparam == b->nparam && !memcmp(a->param, b->param, sizeof(float) * a->nparam) &&
	       !memcmp(a->adam_m, b->adam_m, sizeof(float) * a->nparam) &&
	       !memcmp(a->adam_v, b->adam_v, sizeof(float) * a->nparam);
}

/* The steps a hook received. */
__attribute__((unused)) static struct {
	int n, kinds[32];
	char text[32][512];
	const Alg3 *alg3[32];
} steps;

static inline void on_step(const HookStep *s, void *ud)
{
	(void)ud;
	if (steps.n < 32) {
		steps.kinds[steps.n] = s->kind;
		steps.alg3[steps.n] = s->alg3;
		snprintf(steps.text[steps.n], sizeof steps.text[0], "%s", s->text);
	}
	steps.n++;
}

static inline int count_steps(HookKind k)
{
	int c = 0;
	for (int i = 0; i < steps.n && i < 32; i++)
		c += steps.kinds[i] == (int)k;
	return c;
}

__attribute__((unused)) static const Hook step_hook = {.step = on_step};

static inline void assert_prefix(const char *s, const char *prefix)
{
	ck_assert_msg(!strncmp(s, prefix, strlen(prefix)), "'%s' does not start with '%s'", s,
	              prefix);
}

static inline Alg3Opts opts100(void)
{
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 100;
	return o;
}

/* τ = 3: every hidden layer of fx_wide_net is squeezed. */
static inline Alg3Opts opts3(void)
{
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 3;
	return o;
}
#endif
