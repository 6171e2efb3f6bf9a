/* fixtures.c - the networks the unit tests share (tests/fixtures.h). */
#include "fixtures.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "engine/train.h"

Net *fx_planted(uint64_t seed, float a1, float a5, float a3, float a6)
{
	int wb[4] = {10, 8, 5, 3}, wp[4] = {10, 8, 7, 3};
	Net *base = net_fresh(3, wb, ACT_TANH, 1.0f, seed, NULL),
	    *net = net_new(3, wp, ACT_TANH, 1.0f, NULL);
	ck_assert_ptr_nonnull(base);
	ck_assert_ptr_nonnull(net);
	Rng r;
	rng_seed(&r, seed);
	for (size_t i = 0; i < base->nparam; i++)
		base->param[i] += (float)(0.1 * rng_normal(&r));
	for (int j = 0; j < 5; j++) {
		float *row = base->W[2] + j * 3;
		double s = 0;
		for (int k = 0; k < 3; k++)
			s += (double)row[k] * row[k];
		double want = 1 + rng_uniform(&r);
		for (int k = 0; k < 3; k++)
			row[k] = (float)(row[k] * want / sqrt(s));
	}
	memcpy(net->W[0], base->W[0], sizeof(float) * 10 * 8);
	memcpy(net->b[0], base->b[0], sizeof(float) * 8);
	int src[7] = {0, 1, 2, 3, 4, 1, 3};
	float share[7] = {1, a1, 1, a3, 1, a5, a6};
	for (int j = 0; j < 7; j++) {
		for (int i = 0; i < 8; i++)
			net->W[1][i * 7 + j] = base->W[1][i * 5 + src[j]];
		net->b[1][j] = base->b[1][src[j]];
		for (int k = 0; k < 3; k++)
			net->W[2][j * 3 + k] = share[j] * base->W[2][src[j] * 3 + k];
	}
	memcpy(net->b[2], base->b[2], sizeof(float) * 3);
	net_free(base);
	return net;
}

Net *fx_sample_net(ActKind act, float a, int m)
{
	int widths[4] = {5, 4, 3, 2};
	if (m == 1)
		widths[1] = 2;
	Net *net = net_new(m, widths, act, a, NULL);
	ck_assert_ptr_nonnull(net);
	for (size_t i = 0; i < net->nparam; i++)
		net->param[i] = (float)(sin(1.0 + 7.3 * (double)i) * 0.8);
	return net;
}

Net *fx_deep_net(int m, ActKind act, float (*value)(size_t i, size_t n))
{
	int *w = malloc((size_t)(m + 1) * sizeof *w);
	ck_assert_ptr_nonnull(w);
	for (int i = 0; i <= m; i++)
		w[i] = 2;
	Err e;
	Net *net = net_new(m, w, act, 1, &e);
	free(w);
	ck_assert_msg(net != NULL, "%s", e.msg);
	for (size_t i = 0; i < net->nparam; i++)
		net->param[i] = value(i, net->nparam);
	return net;
}

const int fx_wide_widths[5] = {12, 30, 25, 20, 4};

Net *fx_wide_net(void)
{
	Net *net = net_new(4, fx_wide_widths, ACT_TANH, 1.0f, NULL);
	ck_assert_ptr_nonnull(net);
	Rng r;
	rng_seed(&r, 5);
	net_init_glorot(net, &r);
	return net;
}

Dataset *fx_random_inputs(int n, int d, uint64_t seed)
{
	Dataset *ds = dataset_new(n, d, 3, NULL);
	ck_assert_ptr_nonnull(ds);
	Rng r;
	rng_seed(&r, seed);
	for (int i = 0; i < n * d; i++)
		ds->x[i] = (float)(2 * rng_normal(&r));
	snprintf(ds->name, sizeof ds->name, "random");
	return ds;
}

float *fx_outputs(const Net *net, const Dataset *ds)
{
	float *p = malloc(sizeof *p * ds->n * net->n[net->m]);
	Err e;
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(net_forward(net, ds->x, ds->n, net->m, p, &e), 0);
	return p;
}
