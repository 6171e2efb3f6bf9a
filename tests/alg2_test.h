/* alg2_test.h - what the tests of Algorithm 2 share (test_alg2_scale.c,
 * test_alg2_trials.c): a stub trial whose errors are lines in β (and the
 * order of its calls), the network every β scales, and a sweep made of
 * them. */
#ifndef CONDNET_ALG2_TEST_H
#define CONDNET_ALG2_TEST_H

#include "alg/alg2_scale.h"
#include "alg/alg2_trials.h"
#include "testutil.h"

/* A stub trial: err_tr = tr0 + slope_tr·β + 0.01·(trial − 1) and
 * err_v = v0 + slope_v·β + 0.02·(trial − 1) (the trial terms cancel in the
 * mean when q = 3), logging the order of the calls. */
typedef struct Stub {
	double tr0, slope_tr, v0, slope_v;
	double curve; /* adds curve·(β − 1.2)² to err_v: a minimum at β = 1.2 */
	double log_beta[64];
	int log_trial[64];
	int nlog;
	int last_width; /* widths[1] of the last shape */
} Stub;

static inline int stub_trial(const Net *shape, double beta, int trial, const Dataset *tr,
                             const Dataset *v, const Alg2Opts *o, Alg2Trial *out, const Hook *h,
                             void *ud, Err *e)
{
	Stub *s = ud;
	(void)tr;
	(void)v;
	(void)o;
	(void)e;
	if (s->nlog < 64) {
		s->log_beta[s->nlog] = beta;
		s->log_trial[s->nlog] = trial;
	}
	s->nlog++;
	s->last_width = shape->n[1];
	out->err_tr = s->tr0 + s->slope_tr * beta + 0.01 * (trial - 1);
	out->err_v =
	    s->v0 + s->slope_v * beta + 0.02 * (trial - 1) + s->curve * (beta - 1.2) * (beta - 1.2);
	out->max_kappa = 10.0 + beta;
	out->seconds = 0.5;
	return 0;
}

static inline Net *base_net(void)
{
	int w[] = {10, 20, 7, 3, 3};
	Net *n = net_new(4, w, ACT_ERF, 1.0f, NULL);
	ck_assert_ptr_nonnull(n);
	return n;
}

static inline Alg2Opts stub_opts(const char *betas, int q, int extend, int max_extend)
{
	Alg2Opts o;
	Err e;
	alg2_opts_default(&o);
	ck_assert_msg(alg2_parse_betas(betas, &o, &e) == 0, "%s", e.msg);
	o.q = q;
	o.extend = extend;
	o.max_extend = max_extend;
	return o;
}

static inline Alg2 *stub_alg(const Net *base, const Alg2Opts *o, Stub *s)
{
	Err e;
	Alg2 *a = alg2_new(base, NULL, NULL, o, &e);
	ck_assert_msg(a != NULL, "%s", e.msg);
	a->fn = stub_trial;
	a->fn_ud = s;
	return a;
}

#endif
