/* test_alg2.c - Algorithm 2: β lists, scaled widths, trial order, means,
 * scores, the pick, extension at either edge, gather and the trial JSON. */
#include <math.h>

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

static int stub_trial(const Net *shape, double beta, int trial, const Dataset *tr, const Dataset *v,
                      const Alg2Opts *o, Alg2Trial *out, const Hook *h, void *ud, Err *e)
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

static Net *base_net(void)
{
	int w[] = {10, 20, 7, 3, 3};
	Net *n = net_new(4, w, ACT_ERF, 1.0f, NULL);
	ck_assert_ptr_nonnull(n);
	return n;
}

static Alg2Opts stub_opts(const char *betas, int q, int extend, int max_extend)
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

static Alg2 *stub_alg(const Net *base, const Alg2Opts *o, Stub *s)
{
	Err e;
	Alg2 *a = alg2_new(base, NULL, NULL, o, &e);
	ck_assert_msg(a != NULL, "%s", e.msg);
	a->fn = stub_trial;
	a->fn_ud = s;
	return a;
}

START_TEST(parse_lists_and_ranges)
{
	Alg2Opts o;
	Err e;
	alg2_opts_default(&o);
	ck_assert_int_eq(alg2_parse_betas("1.0,1.2,1.4", &o, &e), 0);
	ck_assert_int_eq(o.nbeta, 3);
	ck_assert_double_eq(o.betas[1], 1.2);
	ck_assert_int_eq(alg2_parse_betas("1.4, 1.0 ,1.2", &o, &e), 0);
	ck_assert_double_eq(o.betas[0], 1.0);
	ck_assert_double_eq(o.betas[2], 1.4);
	/* 1.0:2.4:0.2 is the paper's eight β, end included despite 0.2 not being exact */
	ck_assert_int_eq(alg2_parse_betas("1.0:2.4:0.2", &o, &e), 0);
	ck_assert_int_eq(o.nbeta, 8);
	ck_assert_double_eq(o.betas[7], 2.4);
	ck_assert_double_eq(o.betas[3], 1.6);
	ck_assert_int_eq(alg2_parse_betas("0.6:2.0:0.2", &o, &e), 0);
	ck_assert_int_eq(o.nbeta, 8);
	ck_assert_double_eq(o.betas[0], 0.6);
	ck_assert_int_eq(alg2_parse_betas("0.1:0.3:0.1", &o, &e), 0);
	ck_assert_int_eq(o.nbeta, 3);
	ck_assert_int_eq(alg2_parse_betas("1.5", &o, &e), 0);
	ck_assert_int_eq(o.nbeta, 1);
	ck_assert_int_eq(alg2_parse_betas("1:64:1", &o, &e), 0);
	ck_assert_int_eq(o.nbeta, 64);
}
END_TEST

START_TEST(parse_rejects)
{
	Alg2Opts o;
	Err e;
	alg2_opts_default(&o);
	ck_assert_int_eq(alg2_parse_betas("", &o, &e), -1);
	ck_assert_str_eq(e.msg, "betas \"\": empty list");
	ck_assert_int_eq(alg2_parse_betas("1.0,0,1.2", &o, &e), -1);
	ck_assert_str_eq(e.msg, "betas \"1.0,0,1.2\": β = 0, every β must be > 0");
	ck_assert_int_eq(alg2_parse_betas("-1", &o, &e), -1);
	ck_assert_int_eq(alg2_parse_betas("1.0,abc", &o, &e), -1);
	ck_assert_str_eq(e.msg, "betas \"1.0,abc\": at offset 4: expected a number");
	ck_assert_int_eq(alg2_parse_betas("1.0;1.2", &o, &e), -1);
	ck_assert_str_eq(e.msg, "betas \"1.0;1.2\": at offset 3: expected ',' or the end");
	ck_assert_int_eq(alg2_parse_betas("1.0,", &o, &e), -1);
	ck_assert_int_eq(alg2_parse_betas("1:2:0", &o, &e), -1);
	ck_assert_str_eq(e.msg, "betas \"1:2:0\": step 0, expected > 0");
	ck_assert_int_eq(alg2_parse_betas("2:1:0.1", &o, &e), -1);
	ck_assert_int_eq(alg2_parse_betas("1:65:1", &o, &e), -1);
	ck_assert_str_eq(e.msg, "betas \"1:65:1\": step 1 from 1 to 65 makes more than 64 values");
	ck_assert_int_eq(alg2_parse_betas("1.2,1.2", &o, &e), -1);
	ck_assert_int_eq(alg2_parse_betas("nan", &o, &e), -1);
	char many[512] = "1";
	for (int i = 2; i <= 65; i++)
		snprintf(many + strlen(many), sizeof many - strlen(many), ",%d", i);
	ck_assert_int_eq(alg2_parse_betas(many, &o, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "more than 64 values"));
	/* a failed parse leaves the previous list (the default eight) */
	ck_assert_int_eq(o.nbeta, 8);
	ck_assert_double_eq(o.betas[0], 1.0);
}
END_TEST

START_TEST(scaled_widths)
{
	Net *b = base_net();
	int w[5];
	alg2_scaled_widths(b, 1.5, w);
	ck_assert_int_eq(w[0], 10);
	ck_assert_int_eq(w[1], 30);
	ck_assert_int_eq(w[2], 11); /* 10.5 rounds away from zero */
	ck_assert_int_eq(w[3], 5);  /* 4.5 */
	ck_assert_int_eq(w[4], 3);
	alg2_scaled_widths(b, 0.1, w);
	ck_assert_int_eq(w[1], 2);
	ck_assert_int_eq(w[2], 1);
	ck_assert_int_eq(w[3], 1); /* 0.3 rounds to 0: at least 1 */
	ck_assert_int_eq(w[0], 10);
	ck_assert_int_eq(w[4], 3);
	alg2_scaled_widths(b, 1.15, w);
	ck_assert_int_eq(w[1], 23);
	net_free(b);
}
END_TEST

START_TEST(trial_seed)
{
	uint64_t s = alg2_trial_seed(7, 1.2, 3);
	ck_assert_uint_eq(s, alg2_trial_seed(7, 1.2, 3));
	ck_assert_uint_eq(s, alg2_trial_seed(7, 1.0 + 0.2, 3));
	ck_assert_uint_ne(s, alg2_trial_seed(7, 1.2, 4));
	ck_assert_uint_ne(s, alg2_trial_seed(7, 1.4, 3));
	ck_assert_uint_ne(s, alg2_trial_seed(8, 1.2, 3));
}
END_TEST

static int on_trial_count;
static void count_trials(const HookStep *st, void *ud)
{
	ck_assert_int_eq(st->kind, HOOK_ALG2_TRIAL);
	ck_assert(st->alg2 && st->trial);
	(*(int *)ud)++;
	on_trial_count++;
}

START_TEST(order_means_scores_pick)
{
	Net *b = base_net();
	Alg2Opts o = stub_opts("1.0,1.2,1.4", 3, 0, 0);
	Stub s = {.tr0 = 0.10, .slope_tr = -0.05, .v0 = 0.20, .slope_v = -0.05, .curve = 1.0};
	Alg2 *a = stub_alg(b, &o, &s);
	int count = 0;
	Hook h = {.step = count_trials, .ud = &count};
	Err e;
	ck_assert_int_eq(alg2_pick(a), -1);
	for (int k = 0; k < 8; k++) {
		ck_assert_int_eq(alg2_step(a, &h, &e), 0);
		ck_assert_int_eq(a->finished, 0);
	}
	ck_assert_int_eq(alg2_step(a, &h, &e), 0);
	ck_assert_int_eq(a->finished, 1);
	ck_assert_int_eq(alg2_step(a, &h, &e), 0); /* nothing more */
	ck_assert_int_eq(s.nlog, 9);
	ck_assert_int_eq(count, 9);
	for (int k = 0; k < 9; k++) {
		ck_assert_double_eq_tol(s.log_beta[k], 1.0 + 0.2 * (k / 3), 1e-12);
		ck_assert_int_eq(s.log_trial[k], k % 3);
	}
	ck_assert_int_eq(s.last_width, 28); /* 1.4 · 20 */
	for (int i = 0; i < 3; i++) {
		double beta = 1.0 + 0.2 * i;
		double tr = 0.10 - 0.05 * beta;
		double v = 0.20 - 0.05 * beta + (beta - 1.2) * (beta - 1.2);
		ck_assert_int_eq(a->b[i].done, 3);
		ck_assert_double_eq_tol(a->b[i].err_tr, tr, 1e-12);
		ck_assert_double_eq_tol(a->b[i].err_v, v, 1e-12);
		ck_assert_double_eq_tol(a->b[i].score, 2 * v - tr, 1e-12);
	}
	ck_assert_int_eq(a->b[2].widths[1], 28);
	ck_assert_int_eq(a->b[2].widths[2], 10); /* 9.8 */
	ck_assert_int_eq(alg2_pick(a), 1);
	alg2_free(a);
	net_free(b);
}
END_TEST

START_TEST(extend_upper_edge)
{
	Net *b = base_net();
	Alg2Opts o = stub_opts("1.0,1.2", 2, 1, 2);
	/* the score falls with β: the largest is always picked */
	Stub s = {.tr0 = 0.05, .slope_tr = 0.0, .v0 = 0.5, .slope_v = -0.1};
	Alg2 *a = stub_alg(b, &o, &s);
	Err e;
	ck_assert_int_eq(alg2_run(a, NULL, &e), 0);
	ck_assert_int_eq(a->nb, 4);
	ck_assert_int_eq(a->extended, 2); /* max_extend reached */
	ck_assert_double_eq_tol(a->b[2].beta, 1.4, 1e-12);
	ck_assert_double_eq_tol(a->b[3].beta, 1.6, 1e-12);
	ck_assert_int_eq(a->b[3].widths[1], 32);
	ck_assert_int_eq(s.nlog, 8);
	ck_assert_double_eq_tol(s.log_beta[6], 1.6, 1e-12);
	ck_assert_int_eq(alg2_pick(a), 3);
	alg2_free(a);

	/* a single β extends by 0.2 */
	o = stub_opts("1.0", 1, 1, 1);
	s.nlog = 0;
	a = stub_alg(b, &o, &s);
	ck_assert_int_eq(alg2_run(a, NULL, &e), 0);
	ck_assert_int_eq(a->nb, 2);
	ck_assert_double_eq_tol(a->b[1].beta, 1.2, 1e-12);
	alg2_free(a);

	/* without extend nothing is added */
	o = stub_opts("1.0,1.2", 1, 0, 4);
	a = stub_alg(b, &o, &s);
	ck_assert_int_eq(alg2_run(a, NULL, &e), 0);
	ck_assert_int_eq(a->nb, 2);
	ck_assert_int_eq(alg2_pick(a), 1);
	alg2_free(a);
	net_free(b);
}
END_TEST

START_TEST(extend_lower_edge_stays_positive)
{
	Net *b = base_net();
	Alg2Opts o = stub_opts("0.4,0.6", 2, 1, 4);
	/* the score rises with β: the smallest is always picked */
	Stub s = {.tr0 = 0.05, .slope_tr = 0.0, .v0 = 0.1, .slope_v = 0.1};
	Alg2 *a = stub_alg(b, &o, &s);
	Err e;
	ck_assert_int_eq(alg2_run(a, NULL, &e), 0);
	/* 0.2 is added; the next step would reach 0, so extension stops there */
	ck_assert_int_eq(a->nb, 3);
	ck_assert_int_eq(a->extended, 1);
	ck_assert_double_eq_tol(a->b[0].beta, 0.2, 1e-12);
	ck_assert_double_eq_tol(a->b[1].beta, 0.4, 1e-12);
	ck_assert_double_eq_tol(a->b[2].beta, 0.6, 1e-12);
	for (int i = 0; i < a->nb; i++) {
		ck_assert(a->b[i].beta > 0);
		ck_assert_int_eq(a->b[i].done, 2);
	}
	ck_assert_int_eq(a->b[0].widths[1], 4);
	ck_assert_int_eq(alg2_pick(a), 0);
	/* the trials of the shifted β kept their errors */
	ck_assert_double_eq_tol(a->b[2].err_v, 0.1 + 0.1 * 0.6 - 0.01, 1e-12);
	ck_assert_int_eq(s.nlog, 6);
	ck_assert_double_eq_tol(s.log_beta[4], 0.2, 1e-12);
	alg2_free(a);

	/* 2.0, 2.5: extended down by 0.5 twice, then max_extend stops it */
	o = stub_opts("2.0,2.5", 1, 1, 2);
	s.nlog = 0;
	a = stub_alg(b, &o, &s);
	ck_assert_int_eq(alg2_run(a, NULL, &e), 0);
	ck_assert_int_eq(a->nb, 4);
	ck_assert_double_eq_tol(a->b[0].beta, 1.0, 1e-12);
	ck_assert_double_eq_tol(a->b[1].beta, 1.5, 1e-12);
	alg2_free(a);
	net_free(b);
}
END_TEST

START_TEST(add_trial_checks)
{
	Net *b = base_net();
	Alg2Opts o = stub_opts("1.0,1.2", 2, 0, 0);
	Stub s = {.tr0 = 0.1, .v0 = 0.2};
	Alg2 *a = stub_alg(b, &o, &s);
	Err e;
	Alg2Trial t = {.beta = 1.3, .trial = 0, .err_tr = 0.1, .err_v = 0.2};
	ck_assert_int_eq(alg2_add_trial(a, &t, &e), -1);
	ck_assert_str_eq(e.msg, "Algorithm 2: β = 1.3 is not in the list (1 .. 1.2, 2 values)");
	t.beta = 1.2 + 1e-12;
	t.trial = 2;
	ck_assert_int_eq(alg2_add_trial(a, &t, &e), -1);
	ck_assert_str_eq(e.msg, "Algorithm 2: β = 1.2, trial 2, expected a trial in 0..1");
	t.trial = 1;
	t.err_v = 1.5;
	ck_assert_int_eq(alg2_add_trial(a, &t, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "expected both in [0, 1]"));
	t.err_v = 0.2;
	ck_assert_int_eq(alg2_add_trial(a, &t, &e), 0);
	ck_assert_int_eq(a->b[1].done, 1);
	ck_assert_int_eq(alg2_pick(a), -1); /* no β has all its trials */
	ck_assert_int_eq(alg2_add_trial(a, &t, &e), -1);
	ck_assert_str_eq(e.msg, "Algorithm 2: β = 1.2, trial 1 was already recorded");
	/* stepping runs only the missing trials, in order */
	ck_assert_int_eq(alg2_run(a, NULL, &e), 0);
	ck_assert_int_eq(s.nlog, 3);
	ck_assert_double_eq(s.log_beta[2], 1.2);
	ck_assert_int_eq(s.log_trial[2], 0);
	alg2_free(a);
	net_free(b);
}
END_TEST

/* Trials kept as they finish, as separate processes would hand them over
 * (their files are report_trials.h's, tested in test_report_trials.c). */
static Alg2TrialFile kept[64];
static char kept_name[64][64];
static int nkept;
/* the settings the trials are kept with */
static Alg2Settings kept_settings;

static void keep_trial(const HookStep *st, void *ud)
{
	const Alg2 *a = st->alg2;
	const Alg2Trial *t = st->trial;
	int i = 0;
	(void)ud;
	while (a->b[i].beta != t->beta)
		i++;
	Alg2TrialFile *f = &kept[nkept];
	snprintf(kept_name[nkept], sizeof kept_name[0], "b%g-t%d.json", t->beta, t->trial);
	f->t = *t;
	f->st = kept_settings;
	f->m = a->base->m;
	f->widths = malloc((size_t)(f->m + 1) * sizeof *f->widths);
	memcpy(f->widths, a->b[i].widths, (size_t)(f->m + 1) * sizeof *f->widths);
	f->name = kept_name[nkept++];
}

static void forget_trials(void)
{
	for (int i = 0; i < nkept; i++)
		free(kept[i].widths);
	nkept = 0;
}

/* The trials kept of the β in list, trials 0..q-1, into out. */
static int kept_trials(const double *list, int nb, int q, Alg2TrialFile *out)
{
	int n = 0;
	for (int i = 0; i < nb; i++)
		for (int t = 0; t < q; t++)
			for (int k = 0; k < nkept; k++)
				if (fabs(kept[k].t.beta - list[i]) < 1e-9 && kept[k].t.trial == t)
					out[n++] = kept[k];
	return n;
}

START_TEST(trials_added_match_in_process)
{
	Net *b = base_net();
	Alg2Opts o = stub_opts("0.8:1.6:0.2", 3, 0, 0);
	Stub s = {.tr0 = 0.02, .slope_tr = 0.01, .v0 = 0.15, .slope_v = -0.02, .curve = 0.3};
	Alg2 *a = stub_alg(b, &o, &s);
	nkept = 0;
	Hook h = {.step = keep_trial};
	Err e;
	ck_assert_int_eq(alg2_run(a, &h, &e), 0);
	ck_assert_int_eq(nkept, 15);

	/* added in reverse order, as separate processes might finish */
	Alg2 *g = alg2_new(b, NULL, NULL, &o, &e);
	ck_assert_ptr_nonnull(g);
	for (int k = nkept - 1; k >= 0; k--) {
		ck_assert_double_eq(kept[k].t.max_kappa, 10.0 + kept[k].t.beta);
		ck_assert_double_eq(kept[k].t.seconds, 0.5);
		ck_assert_msg(alg2_add_trial(g, &kept[k].t, &e) == 0, "%s", e.msg);
	}
	ck_assert_int_eq(alg2_pick(g), alg2_pick(a));
	ck_assert_int_eq(alg2_pick(a), 2);
	for (int i = 0; i < 5; i++) {
		ck_assert_double_eq(g->b[i].err_tr, a->b[i].err_tr);
		ck_assert_double_eq(g->b[i].err_v, a->b[i].err_v);
		ck_assert_double_eq(g->b[i].score, a->b[i].score);
	}
	ck_assert_int_eq(alg2_step(g, NULL, &e), 0); /* all gathered: nothing to run */
	ck_assert_int_eq(g->finished, 1);
	forget_trials();
	alg2_free(g);
	alg2_free(a);
	net_free(b);
}
END_TEST

/* The gather follows Algorithm 2 beyond the edge: the β it adds are taken
 * from the trials, and the first without trials is named as the next. */
START_TEST(gather_extends_as_in_process)
{
	Net *b = base_net();
	Alg2Opts o = stub_opts("1.0:1.4:0.2", 3, 1, 2);
	Stub s = {.tr0 = 0.1, .slope_tr = -0.01, .v0 = 0.3, .slope_v = -0.05};
	Alg2 *a = stub_alg(b, &o, &s);
	nkept = 0;
	Alg2Settings st;
	alg2_settings(&st, &o, b, NULL, "stub");
	kept_settings = st;
	Hook h = {.step = keep_trial};
	Err e;
	ck_assert_int_eq(alg2_run(a, &h, &e), 0);
	ck_assert_int_eq(a->nb, 5); /* 1.6 and 1.8 added at the upper edge */
	ck_assert_int_eq(nkept, 15);

	const double list[] = {1.0, 1.2, 1.4, 1.6, 1.8};
	Alg2TrialFile f[64];
	double next;
	for (int k = 3; k <= 5; k++) {
		int n = kept_trials(list, k, 3, f);
		Alg2 *g = alg2_gather(b, &o, 1, f, n, &st, &next, &e);
		ck_assert_msg(g != NULL, "%d β: %s", k, e.msg);
		if (k < 5) {
			ck_assert_double_eq_tol(next, list[k], 1e-12);
			ck_assert_int_eq(g->nb, k + 1);
			ck_assert_int_eq(g->b[k].done, 0);
		} else {
			ck_assert(isnan(next));
			ck_assert_int_eq(g->nb, 5);
			for (int i = 0; i < 5; i++) {
				ck_assert_double_eq(g->b[i].beta, a->b[i].beta);
				ck_assert_double_eq(g->b[i].score, a->b[i].score);
			}
			ck_assert_int_eq(alg2_pick(g), alg2_pick(a));
		}
		alg2_free(g);
	}
	/* without --beta the trials' β are the list; with --no-extend 1.6 is foreign */
	int n = kept_trials(list, 5, 3, f);
	Alg2 *g = alg2_gather(b, &o, 0, f, n, &st, &next, &e);
	ck_assert_msg(g != NULL, "%s", e.msg);
	ck_assert_int_eq(g->nb, 6);
	ck_assert_double_eq_tol(next, 2.0, 1e-12);
	alg2_free(g);
	Alg2Opts no = o;
	no.extend = 0;
	ck_assert_ptr_null(alg2_gather(b, &no, 1, f, n, &st, &next, &e));
	ck_assert_msg(strstr(e.msg, "b1.6-t0.json: beta 1.6 is not among the sweep's") != NULL,
	              "%s", e.msg);
	/* an added β with a trial missing is named */
	ck_assert_ptr_null(alg2_gather(b, &o, 1, f, n - 1, &st, &next, &e));
	ck_assert_msg(strstr(e.msg, "beta 1.8, trial 2 is missing (2 of 3") != NULL, "%s", e.msg);
	/* a listed β without any trial is missing, not next */
	ck_assert_ptr_null(alg2_gather(b, &o, 1, f + 3, n - 3, &st, &next, &e));
	ck_assert_msg(strstr(e.msg, "beta 1, trial 0 is missing (0 of 3") != NULL, "%s", e.msg);
	/* widths that are not the base network's scaled by β: another base */
	f[0].widths[1]++;
	ck_assert_ptr_null(alg2_gather(b, &o, 1, f, n, &st, &next, &e));
	ck_assert_msg(strstr(e.msg, "b1-t0.json: beta 1: its widths are not the base network's") !=
	                  NULL,
	              "%s", e.msg);
	forget_trials();
	alg2_free(a);
	net_free(b);
}
END_TEST

/* Trials of other settings are refused by name: against the gather's own
 * settings, against each other (the data's numbers, which a gather that
 * reads no data does not know), and a trial without a record. */
START_TEST(gather_refuses_other_settings)
{
	Net *b = base_net();
	Alg2Opts o = stub_opts("1.0:1.4:0.2", 2, 0, 0);
	Stub s = {.tr0 = 0.1, .slope_tr = -0.01, .v0 = 0.3, .slope_v = -0.05};
	Alg2 *a = stub_alg(b, &o, &s);
	Dataset *d1 = dataset_synthetic(10, 3, 5, 1, NULL),
	        *d2 = dataset_synthetic(10, 3, 5, 2, NULL);
	ck_assert(d1 && d2);
	Alg2Settings mine, seed7, nodata, data2;
	alg2_settings(&mine, &o, b, d1, "synthetic limit=10");
	alg2_settings(&nodata, &o, b, NULL, "synthetic limit=10");
	alg2_settings(&data2, &o, b, d2, "synthetic limit=10");
	Alg2Opts o7 = o;
	o7.seed = 7;
	alg2_settings(&seed7, &o7, b, d1, "synthetic limit=10");
	kept_settings = mine;
	nkept = 0;
	Hook h = {.step = keep_trial};
	Err e;
	ck_assert_int_eq(alg2_run(a, &h, &e), 0);
	const double list[] = {1.0, 1.2, 1.4};
	Alg2TrialFile f[64];
	double next;
	int n = kept_trials(list, 3, 2, f);
	Alg2 *g = alg2_gather(b, &o, 1, f, n, &mine, &next, &e);
	ck_assert_msg(g != NULL, "%s", e.msg);
	alg2_free(g);
	/* the gather's own seed is another */
	ck_assert_ptr_null(alg2_gather(b, &o7, 1, f, n, &seed7, &next, &e));
	ck_assert_msg(strstr(e.msg, "b1-t0.json: made with --seed '1', but this gather has '7': "
	                            "trials of other settings are not compared"),
	              "%s", e.msg);
	/* one trial of another seed among them */
	f[3].st = seed7;
	ck_assert_ptr_null(alg2_gather(b, &o, 1, f, n, &mine, &next, &e));
	ck_assert_msg(strstr(e.msg, "b1.2-t1.json: made with --seed '7', but this gather has '1'"),
	              "%s", e.msg);
	/* one of other data, gathered without reading the data: the first decides */
	f[3].st = data2;
	ck_assert_ptr_null(alg2_gather(b, &o, 1, f, n, &nodata, &next, &e));
	ck_assert_msg(strstr(e.msg, "b1.2-t1.json: made with the data's numbers (their CRC-32) '"),
	              "%s", e.msg);
	ck_assert_msg(strstr(e.msg, "b1-t0.json with '") && strstr(e.msg, "a mix of settings"),
	              "%s", e.msg);
	/* a trial without a record: an older condnet's */
	f[3].st = mine;
	f[5].st.n = -1;
	ck_assert_ptr_null(alg2_gather(b, &o, 1, f, n, &mine, &next, &e));
	ck_assert_msg(strstr(e.msg, "b1.4-t1.json: no record of the settings the trial was made "
	                            "under (a file written by an older condnet)"),
	              "%s", e.msg);
	forget_trials();
	dataset_free(d1);
	dataset_free(d2);
	alg2_free(a);
	net_free(b);
}
END_TEST

static int stop_now(const TrainProgress *p, void *ud)
{
	(void)p;
	(*(int *)ud)++;
	return 1;
}

START_TEST(real_trial_reproducible)
{
	Dataset *all = dataset_synthetic(60, 3, 6, 11, NULL);
	ck_assert_ptr_nonnull(all);
	Dataset *tr = NULL, *v = NULL;
	Err e;
	ck_assert_msg(dataset_split(all, 0.2, 0, 5, &tr, &v, &e) == 0, "%s", e.msg);
	int w[] = {6, 8, 6, 3};
	Net *base = net_new(3, w, ACT_ERF, 1.0f, &e);
	Alg2Opts o;
	alg2_opts_default(&o);
	ck_assert_int_eq(alg2_parse_betas("1.0,1.5", &o, &e), 0);
	o.q = 2;
	o.eta = 2;
	o.seed = 99;
	o.train.batch = 16;

	int sw[4];
	alg2_scaled_widths(base, 1.5, sw);
	Net *shape = net_new(3, sw, ACT_ERF, 1.0f, &e);
	Alg2Trial t1, t2, t3;
	ck_assert_msg(alg2_trial_train(shape, 1.5, 1, tr, v, &o, &t1, NULL, NULL, &e) == 0, "%s",
	              e.msg);
	ck_assert_msg(alg2_trial_train(shape, 1.5, 1, tr, v, &o, &t2, NULL, NULL, &e) == 0, "%s",
	              e.msg);
	ck_assert_msg(alg2_trial_train(shape, 1.5, 0, tr, v, &o, &t3, NULL, NULL, &e) == 0, "%s",
	              e.msg);
	ck_assert_double_eq(t1.err_tr, t2.err_tr);
	ck_assert_double_eq(t1.err_v, t2.err_v);
	ck_assert_double_eq(t1.max_kappa, t2.max_kappa);
	ck_assert(t1.max_kappa >= 1.0 && isfinite(t1.max_kappa));
	ck_assert(t1.max_kappa != t3.max_kappa); /* another trial, other weights */
	/* a trial on its own from the base network: its widths, the same bits */
	Alg2Trial t4;
	int w4[4];
	ck_assert_msg(alg2_trial(base, 1.5, 1, tr, v, &o, w4, &t4, NULL, &e) == 0, "%s", e.msg);
	ck_assert_mem_eq(w4, sw, sizeof sw);
	ck_assert_mem_eq(&t4.err_tr, &t1.err_tr, sizeof(double));
	ck_assert_mem_eq(&t4.err_v, &t1.err_v, sizeof(double));
	ck_assert_mem_eq(&t4.max_kappa, &t1.max_kappa, sizeof(double));
	ck_assert(t4.beta == 1.5 && t4.trial == 1);

	/* the in-process sweep runs the same trial to the same numbers; a trial
	 * stopped by the progress callback is not recorded and runs again */
	Alg2 *a = alg2_new(base, tr, v, &o, &e);
	ck_assert_msg(a != NULL, "%s", e.msg);
	int calls = 0;
	Hook stop = {.progress = stop_now, .ud = &calls};
	ck_assert_int_eq(alg2_step(a, &stop, &e), 1); /* stopped: the state unchanged */
	ck_assert_str_eq(e.msg, "Algorithm 2, β = 1, trial 0: stopped during training");
	ck_assert_int_ge(calls, 1);
	ck_assert_int_eq(a->b[0].done, 0);
	ck_assert_msg(alg2_run(a, NULL, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(a->b[1].done, 2);
	ck_assert_double_eq(a->b[1].err_tr, (t3.err_tr + t1.err_tr) / 2);
	ck_assert_double_eq(a->b[1].err_v, (t3.err_v + t1.err_v) / 2);
	ck_assert_int_ge(alg2_pick(a), 0);
	alg2_free(a);

	/* mismatched data is refused with a reason */
	int bw[] = {5, 8, 3};
	Net *wrong = net_new(2, bw, ACT_ERF, 1.0f, &e);
	ck_assert_ptr_null(alg2_new(wrong, tr, v, &o, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "has 6 features"));
	net_free(wrong);
	net_free(shape);
	net_free(base);
	dataset_free(tr);
	dataset_free(v);
	dataset_free(all);
}
END_TEST

/* The trials a sweep reports, in the order of its steps. */
typedef struct Seen {
	Alg2Trial t[16];
	int n;
} Seen;

static void note_trial(const HookStep *st, void *ud)
{
	Seen *s = ud;
	if (st->kind == HOOK_ALG2_TRIAL && s->n < 16)
		s->t[s->n++] = *st->trial;
}

/* A real sweep with 3 threads, run with 1, 2 and 4 trials at once: the
 * same trials in the same order, bit for bit (max κ follows every bit of
 * the trained weights), and the same means. Its batches are split into 2
 * parts (β = 1) and 3 (β = 1.5) whatever the threads that compute them. */
START_TEST(side_by_side_same_as_serial)
{
	Dataset *all = dataset_synthetic(80, 3, 32, 12, NULL);
	Dataset *tr = NULL, *v = NULL;
	Err e;
	ck_assert_msg(dataset_split(all, 0.2, 0, 5, &tr, &v, &e) == 0, "%s", e.msg);
	int w[] = {32, 256, 256, 3};
	Net *base = net_new(3, w, ACT_ERF, 1.0f, &e);
	Alg2Opts o;
	alg2_opts_default(&o);
	ck_assert_int_eq(alg2_parse_betas("1.0,1.5", &o, &e), 0);
	o.q = 3;
	o.eta = 1;
	o.extend = 0;
	o.train.batch = 40;
	o.train.threads = 3;
	Seen ref = {.n = 0};
	Alg2 *ra = NULL;
	int jobs[] = {1, 2, 4};
	for (int k = 0; k < 3; k++) {
		o.jobs = jobs[k];
		Seen seen = {.n = 0};
		Hook h = {.step = note_trial, .ud = &seen};
		Alg2 *a = alg2_new(base, tr, v, &o, &e);
		ck_assert_msg(a != NULL, "%s", e.msg);
		ck_assert_msg(alg2_run(a, &h, &e) == 0, "%s", e.msg);
		ck_assert_int_eq(seen.n, 6);
		if (k == 0) {
			ref = seen;
			ra = a;
			continue;
		}
		for (int i = 0; i < 6; i++) {
			ck_assert_double_eq(seen.t[i].beta, ref.t[i].beta);
			ck_assert_int_eq(seen.t[i].trial, ref.t[i].trial);
			ck_assert_mem_eq(&seen.t[i].err_tr, &ref.t[i].err_tr, sizeof(double));
			ck_assert_mem_eq(&seen.t[i].err_v, &ref.t[i].err_v, sizeof(double));
			ck_assert_mem_eq(&seen.t[i].max_kappa, &ref.t[i].max_kappa, sizeof(double));
		}
		for (int i = 0; i < 2; i++) {
			ck_assert_mem_eq(&a->b[i].err_tr, &ra->b[i].err_tr, sizeof(double));
			ck_assert_mem_eq(&a->b[i].err_v, &ra->b[i].err_v, sizeof(double));
		}
		ck_assert_int_eq(alg2_pick(a), alg2_pick(ra));
		alg2_free(a);
	}
	/* trials differ from one another: the comparison above can fail */
	ck_assert(ref.t[0].max_kappa != ref.t[1].max_kappa);

	/* a stop reaches every trial under way; none is recorded */
	o.jobs = 2;
	Alg2 *a = alg2_new(base, tr, v, &o, &e);
	int calls = 0;
	Hook stop = {.progress = stop_now, .ud = &calls};
	ck_assert_int_eq(alg2_step(a, &stop, &e), 1); /* stopped: the state unchanged */
	ck_assert_str_eq(e.msg, "Algorithm 2, β = 1, trial 0: stopped during training");
	ck_assert_int_eq(a->b[0].done, 0);
	alg2_free(a);
	alg2_free(ra);
	net_free(base);
	dataset_free(tr);
	dataset_free(v);
	dataset_free(all);
}
END_TEST

static Suite *alg2_suite(void)
{
	Suite *s = suite_create("alg2");
	TCase *c = tcase_create("core");
	tcase_set_timeout(c, 60);
	tcase_add_test(c, parse_lists_and_ranges);
	tcase_add_test(c, parse_rejects);
	tcase_add_test(c, scaled_widths);
	tcase_add_test(c, trial_seed);
	tcase_add_test(c, order_means_scores_pick);
	tcase_add_test(c, extend_upper_edge);
	tcase_add_test(c, extend_lower_edge_stays_positive);
	tcase_add_test(c, add_trial_checks);
	tcase_add_test(c, trials_added_match_in_process);
	tcase_add_test(c, gather_extends_as_in_process);
	tcase_add_test(c, gather_refuses_other_settings);
	tcase_add_test(c, real_trial_reproducible);
	tcase_add_test(c, side_by_side_same_as_serial);
	suite_add_tcase(s, c);
	return s;
}

int main(void)
{
	return tu_run(alg2_suite());
}
