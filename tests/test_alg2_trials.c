/* test_alg2_trials.c - Algorithm 2's trials run apart: a trial added is
 * checked, trials added give the sweep run in process, a gather extends as
 * it does, and trials made under other settings are refused. */
#include <math.h>

#include "alg2_test.h"

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

static Suite *suite(void)
{
	Suite *s = suite_create("alg2_trials");
	TCase *c = tcase_create("trials");
	tcase_set_timeout(c, 60);
	tcase_add_test(c, add_trial_checks);
	tcase_add_test(c, trials_added_match_in_process);
	tcase_add_test(c, gather_extends_as_in_process);
	tcase_add_test(c, gather_refuses_other_settings);
	suite_add_tcase(s, c);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
