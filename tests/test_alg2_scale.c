/* test_alg2_scale.c - Algorithm 2: β lists, scaled widths, trial order,
 * means, scores, the pick, extension at either edge; a real trial the same
 * run twice, and trials side by side the same as one after another. */
#include <math.h>

#include "alg2_test.h"

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

/* Line 9 picks the β of least 2ε̂_v − ε̂_tr over the means of its q trials,
 * and of two equal, the first. Four β with dyadic errors (sums exact):
 *   β     ε̂_tr      ε̂_v        2ε̂_v − ε̂_tr
 *   1.0   0.125     0.25       0.375        least, tied
 *   1.2   0.375     0.375      0.375        tied, after 1.0
 *   1.4   0.015625  0.21875    0.421875     least ε̂_v
 *   1.6   0.5       0.4453125  0.390625     least ε̂_v − ε̂_tr
 * Each β's two trials are ε ∓ 1/64, so the means matter, not one trial. */
START_TEST(pick_least_score_first_of_ties)
{
	static const double tr[4] = {0.125, 0.375, 0.015625, 0.5};
	static const double v[4] = {0.25, 0.375, 0.21875, 0.4453125};
	Net *b = base_net();
	Err e;
	for (int order = 0; order < 2; order++) {
		Alg2Opts o = stub_opts("1.0,1.2,1.4,1.6", 2, 0, 0);
		Stub s = {0};
		Alg2 *a = stub_alg(b, &o, &s);
		/* the trials recorded in either order of β */
		for (int k = 0; k < 4; k++) {
			int i = order ? 3 - k : k;
			for (int t = 0; t < 2; t++) {
				double d = t ? 1.0 / 64 : -1.0 / 64;
				Alg2Trial x = {.beta = 1.0 + 0.2 * i,
				               .trial = t,
				               .err_tr = tr[i] + (i == 2 ? d / 4 : d),
				               .err_v = v[i] - d};
				ck_assert_msg(alg2_add_trial(a, &x, &e) == 0, "%s", e.msg);
			}
		}
		for (int i = 0; i < 4; i++) {
			ck_assert(a->b[i].err_tr == tr[i]);
			ck_assert(a->b[i].err_v == v[i]);
			ck_assert(a->b[i].score == 2 * v[i] - tr[i]);
		}
		ck_assert(a->b[0].score == a->b[1].score);
		ck_assert_int_eq(alg2_pick(a), 0);
		alg2_free(a);
	}
	/* without β = 1.0 the tie is gone: 1.2 */
	Alg2Opts o = stub_opts("1.2,1.4,1.6", 2, 0, 0);
	Stub s = {0};
	Alg2 *a = stub_alg(b, &o, &s);
	for (int i = 1; i < 4; i++)
		for (int t = 0; t < 2; t++) {
			Alg2Trial x = {
			    .beta = 1.0 + 0.2 * i, .trial = t, .err_tr = tr[i], .err_v = v[i]};
			ck_assert_int_eq(alg2_add_trial(a, &x, &e), 0);
		}
	ck_assert_int_eq(alg2_pick(a), 0);
	ck_assert_double_eq_tol(a->b[alg2_pick(a)].beta, 1.2, 1e-12);
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
	tcase_add_test(c, pick_least_score_first_of_ties);
	tcase_add_test(c, trial_seed);
	tcase_add_test(c, order_means_scores_pick);
	tcase_add_test(c, extend_upper_edge);
	tcase_add_test(c, extend_lower_edge_stays_positive);
	tcase_add_test(c, real_trial_reproducible);
	tcase_add_test(c, side_by_side_same_as_serial);
	suite_add_tcase(s, c);
	return s;
}

int main(void)
{
	return tu_run(alg2_suite());
}
