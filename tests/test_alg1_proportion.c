/* test_alg1.c - Algorithm 1 on the synthetic set: it ends with every κ ≤ τ,
 * each iteration removes exactly p_i neurons from the layers over τ, and the
 * run is reproducible from its seed. */
#include <math.h>

#include "alg/alg1_proportion.h"
#include "engine/cond.h"
#include "engine/cond_matrix.h"
#include "engine/hook.h"
#include "testutil.h"

static Dataset *data;

static void setup(void)
{
	data = dataset_synthetic(150, 3, 10, 21, NULL);
	ck_assert_ptr_nonnull(data);
}

static void teardown(void)
{
	dataset_free(data);
	data = NULL;
}

static Net *shape(int m, const int *w)
{
	Net *n = net_new(m, w, ACT_ERF, 1.0f, NULL);
	ck_assert_ptr_nonnull(n);
	return n;
}

static Alg1Opts opts(double tau, int round, int warm)
{
	Alg1Opts o;
	alg1_opts_default(&o);
	o.tau = tau;
	o.eta = 2;
	o.round = round;
	o.warm = warm;
	o.seed = 3;
	o.max_iter = 30;
	o.train.batch = 32;
	/* enough training in η = 2 epochs that κ reflects the data, not the
	 * random start */
	o.train.adam.lr = 0.01;
	return o;
}

static Alg1 *run(const Alg1Opts *o, int m, const int *w, int expect)
{
	Err e;
	Net *s = shape(m, w);
	Alg1 *a = alg1_new(s, data, o, &e);
	net_free(s);
	ck_assert_msg(a != NULL, "%s", e.msg);
	ck_assert_msg(alg1_run(a, NULL, &e) == 0, "%s", e.msg);
	ck_assert_msg((int)a->status == expect, "status %s, expected %s: %s",
	              alg1_status_name(a->status), alg1_status_name(expect), a->reason);
	return a;
}

/* Every record is consistent with itself, and each iteration applied line 4
 * of the algorithm to the record before it. */
static void check_records(const Alg1 *a)
{
	int round = a->o.round;
	ck_assert_int_ge(a->nrec, 1);
	for (int k = 0; k < a->nrec; k++) {
		const Alg1Record *r = &a->rec[k];
		int m = r->m;
		ck_assert_int_eq(r->iter, k);
		ck_assert_int_eq(r->n[0], 10);
		ck_assert_int_eq(r->n[m], 3);
		long sum = 0;
		double mk = 0;
		for (int i = 0; i < m; i++) {
			sum += r->n[i + 1];
			mk = fmax(mk, r->kappa[i]);
			ck_assert(r->kappa[i] >= 1.0);
			ck_assert_int_ge(r->p[i], 0);
			ck_assert_int_ge(r->n[i + 1], 1);
		}
		ck_assert_int_eq(r->sum_n, sum);
		ck_assert_double_eq(r->max_kappa, mk);
		ck_assert(r->train_error >= 0 && r->train_error <= 1);
		if (k == 0)
			continue;
		const Alg1Record *q = &a->rec[k - 1];
		for (int i = 0; i < m - 1; i++) {
			int n = q->n[i + 1], want = n;
			if (q->kappa[i] > a->o.tau) {
				want = n - q->p[i];
				if (round > 1)
					want = want / round * round < round ? round
					                                    : want / round * round;
				want = want < 1 ? 1 : want > n ? n : want;
			}
			ck_assert_msg(r->n[i + 1] == want, "iteration %d layer %d: %d, expected %d",
			              k, i + 1, r->n[i + 1], want);
			ck_assert_int_le(r->n[i + 1], n);
		}
		ck_assert_int_le(r->sum_n, q->sum_n);
	}
	const Alg1Record *last = &a->rec[a->nrec - 1];
	ck_assert_mem_eq(a->net->n, last->n, (size_t)(last->m + 1) * sizeof(int));
}

START_TEST(paper_mode_reaches_tau)
{
	int w[] = {10, 40, 40, 40, 3};
	Alg1Opts o = opts(25.0, 1, 0);
	Alg1 *a = run(&o, 4, w, ALG1_DONE);
	check_records(a);
	ck_assert_int_ge(a->nrec, 2);
	const Alg1Record *last = &a->rec[a->nrec - 1];
	for (int i = 0; i < last->m; i++)
		ck_assert_msg(last->kappa[i] <= o.tau, "layer %d: κ = %g", i + 1, last->kappa[i]);
	ck_assert(last->max_kappa <= o.tau);
	ck_assert_int_lt(last->sum_n, 123);
	ck_assert(a->rec[0].max_kappa > o.tau);
	ck_assert_ptr_nonnull(strstr(a->reason, "every κ <= τ = 25 after "));
	/* a step after the end changes nothing */
	Err e;
	int nrec = a->nrec;
	ck_assert_int_eq(alg1_step(a, NULL, &e), 0);
	ck_assert_int_eq(a->status, ALG1_DONE);
	ck_assert_int_eq(a->nrec, nrec);
	int next[5];
	ck_assert_int_eq(alg1_next_widths(a, next, &e), 0);
	ck_assert_mem_eq(next, last->n, sizeof next);
	alg1_free(a);
}
END_TEST

START_TEST(preview_matches_step)
{
	int w[] = {10, 40, 40, 40, 3};
	Alg1Opts o = opts(25.0, 1, 0);
	Err e;
	Net *s = shape(4, w);
	Alg1 *a = alg1_new(s, data, &o, &e);
	net_free(s);
	ck_assert_ptr_nonnull(a);
	int next[5];
	ck_assert_int_eq(alg1_next_widths(a, next, &e), 0);
	ck_assert_mem_eq(next, w, sizeof w);
	ck_assert_int_eq(alg1_step(a, NULL, &e), 0);
	ck_assert_int_eq(a->status, ALG1_RUNNING);
	ck_assert_int_eq(a->nrec, 1);
	int changes = alg1_next_widths(a, next, &e);
	ck_assert_int_ge(changes, 1);
	int differ = 0;
	for (int i = 1; i < 4; i++)
		differ += next[i] != a->rec[0].n[i];
	ck_assert_int_eq(differ, changes);
	ck_assert_int_ge(alg1_step(a, NULL, &e), 0);
	ck_assert_int_eq(a->nrec, 2);
	ck_assert_mem_eq(a->rec[1].n, next, sizeof next);
	alg1_free(a);
}
END_TEST

START_TEST(rounds_to_multiples)
{
	int w[] = {10, 40, 40, 40, 3};
	Alg1Opts o = opts(25.0, 5, 0);
	Alg1 *a = run(&o, 4, w, ALG1_DONE);
	check_records(a);
	for (int k = 0; k < a->nrec; k++)
		for (int i = 1; i < 4; i++)
			ck_assert_msg(a->rec[k].n[i] % 5 == 0, "iteration %d layer %d: %d", k, i,
			              a->rec[k].n[i]);
	ck_assert_int_lt(a->rec[a->nrec - 1].sum_n, 123);
	alg1_free(a);
}
END_TEST

START_TEST(same_seed_same_run)
{
	int w[] = {10, 40, 40, 40, 3};
	Alg1Opts o = opts(25.0, 1, 0);
	Alg1 *a = run(&o, 4, w, ALG1_DONE);
	Alg1 *b = run(&o, 4, w, ALG1_DONE);
	ck_assert_int_eq(a->nrec, b->nrec);
	for (int k = 0; k < a->nrec; k++) {
		int m = a->rec[k].m;
		ck_assert_mem_eq(a->rec[k].n, b->rec[k].n, (size_t)(m + 1) * sizeof(int));
		ck_assert_mem_eq(a->rec[k].p, b->rec[k].p, (size_t)m * sizeof(int));
		for (int i = 0; i < m; i++)
			ck_assert_double_eq(a->rec[k].kappa[i], b->rec[k].kappa[i]);
		ck_assert_double_eq(a->rec[k].train_error, b->rec[k].train_error);
	}
	ck_assert_uint_eq(a->net->nparam, b->net->nparam);
	ck_assert_mem_eq(a->net->param, b->net->param, a->net->nparam * sizeof(float));
	/* another seed starts from other weights */
	o.seed = 4;
	Alg1 *c = run(&o, 4, w, ALG1_DONE);
	ck_assert(c->rec[0].kappa[0] != a->rec[0].kappa[0]);
	alg1_free(c);
	alg1_free(b);
	alg1_free(a);
}
END_TEST

START_TEST(warm_mode_terminates)
{
	int w[] = {10, 40, 40, 40, 3};
	Alg1Opts o = opts(25.0, 1, 1);
	Alg1 *a = run(&o, 4, w, ALG1_DONE);
	check_records(a);
	ck_assert_int_ge(a->nrec, 2);
	/* the trained weights carried over: the Adam step count keeps growing */
	ck_assert_int_ge(a->net->adam_t, (long)a->nrec * 2 * (450 / 32));
	alg1_free(a);
}
END_TEST

static int cmp_int(const void *x, const void *y)
{
	return *(const int *)x - *(const int *)y;
}

/* With a zero learning rate training leaves the weights as they are, so
 * after a warm iteration every layer must hold exactly the columns (and
 * rows) of the neurons first in the pivoted-QR order of the network before. */
START_TEST(warm_keeps_pivoted_neurons)
{
	int w[] = {10, 24, 24, 3};
	Alg1Opts o = opts(25.0, 1, 1);
	o.train.adam.lr = 0;
	o.eta = 0.25;
	Err e;
	Net *s = shape(3, w);
	Alg1 *a = alg1_new(s, data, &o, &e);
	net_free(s);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(alg1_step(a, NULL, &e), 0);
	ck_assert_int_eq(a->status, ALG1_RUNNING);
	int next[4];
	ck_assert_int_ge(alg1_next_widths(a, next, &e), 1);
	Net *old = net_clone(a->net, &e);
	int *keep[3] = {NULL, NULL, NULL};
	for (int l = 1; l < 3; l++) {
		LayerCond lc;
		ck_assert_msg(cond_layer(old, l, o.tau, &lc, &e) == 0, "%s", e.msg);
		keep[l] = malloc((size_t)next[l] * sizeof(int));
		memcpy(keep[l], lc.perm, (size_t)next[l] * sizeof(int));
		qsort(keep[l], (size_t)next[l], sizeof(int), cmp_int);
		cond_layer_free(&lc);
	}
	ck_assert_int_ge(alg1_step(a, NULL, &e), 0);
	const Net *cur = a->net;
	ck_assert_mem_eq(cur->n, next, sizeof next);
	for (int l = 1; l <= 3; l++) {
		int rows = cur->n[l - 1], cols = cur->n[l];
		for (int r = 0; r < rows; r++) {
			int orow = l > 1 ? keep[l - 1][r] : r;
			for (int c = 0; c < cols; c++) {
				int ocol = l < 3 ? keep[l][c] : c;
				ck_assert_float_eq(cur->W[l - 1][r * cols + c],
				                   old->W[l - 1][orow * old->n[l] + ocol]);
			}
		}
		for (int c = 0; c < cols; c++)
			ck_assert_float_eq(cur->b[l - 1][c], old->b[l - 1][l < 3 ? keep[l][c] : c]);
	}
	free(keep[1]);
	free(keep[2]);
	net_free(old);
	alg1_free(a);
}
END_TEST

START_TEST(never_below_one_and_output_only)
{
	/* τ just above 1: every layer with two or more singular values is over
	 * τ, so hidden layers fall to one neuron (κ of a single column is 1) and
	 * only the output layer, whose width is fixed, remains over τ */
	int w[] = {10, 12, 6, 3};
	Alg1Opts o = opts(1.01, 1, 0);
	Alg1 *a = run(&o, 3, w, ALG1_STUCK);
	check_records(a);
	const Alg1Record *last = &a->rec[a->nrec - 1];
	ck_assert_int_eq(last->n[1], 1);
	ck_assert_int_eq(last->n[2], 1);
	ck_assert(last->kappa[2] > o.tau);
	ck_assert_msg(strstr(a->reason, "only the output layer (layer 3)") != NULL, "%s",
	              a->reason);
	Err e;
	int nrec = a->nrec;
	ck_assert_int_eq(alg1_step(a, NULL, &e), 0);
	ck_assert_int_eq(a->status, ALG1_STUCK);
	ck_assert_int_eq(a->nrec, nrec);
	alg1_free(a);
}
END_TEST

START_TEST(rounding_cannot_change)
{
	/* widths already at one multiple of 5: removing p ≥ 1 neurons rounds back */
	int w[] = {10, 5, 5, 3};
	Alg1Opts o = opts(1.01, 5, 0);
	Alg1 *a = run(&o, 3, w, ALG1_STUCK);
	ck_assert_int_eq(a->nrec, 1);
	char expect[128];
	snprintf(expect, sizeof expect, "layer 1: p = %d rounds to no change at multiple 5",
	         a->rec[0].p[0]);
	ck_assert_msg(strncmp(a->reason, expect, strlen(expect)) == 0, "%s", a->reason);
	ck_assert_ptr_nonnull(strstr(a->reason, "; layer 2: p = "));
	int next[4];
	Err e;
	ck_assert_int_eq(alg1_next_widths(a, next, &e), 0);
	ck_assert_mem_eq(next, w, sizeof w);
	alg1_free(a);
}
END_TEST

START_TEST(max_iter_stops)
{
	int w[] = {10, 40, 40, 40, 3};
	Alg1Opts o = opts(1.01, 1, 0);
	o.max_iter = 1;
	Alg1 *a = run(&o, 4, w, ALG1_MAX_ITER);
	ck_assert_int_eq(a->nrec, 2);
	ck_assert_ptr_nonnull(strstr(a->reason, "reached max_iter = 1 with max κ = "));
	alg1_free(a);
}
END_TEST

static int stop_now(const TrainProgress *p, void *ud)
{
	(void)p;
	(*(int *)ud)++;
	return 1;
}

static int always_stop(void *ud)
{
	(void)ud;
	return 1;
}

START_TEST(callback_stop_keeps_state)
{
	int w[] = {10, 20, 20, 3};
	Alg1Opts o = opts(25.0, 1, 0);
	Err e;
	Net *s = shape(3, w);
	Alg1 *a = alg1_new(s, data, &o, &e);
	net_free(s);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(alg1_step(a, NULL, &e), 0);
	ck_assert_int_eq(a->status, ALG1_RUNNING);
	Net *before = net_clone(a->net, &e);
	int calls = 0;
	Hook stop = {.progress = stop_now, .ud = &calls};
	/* stopped: 1, the state as before the step, where it stopped in e */
	ck_assert_int_eq(alg1_step(a, &stop, &e), 1);
	ck_assert_int_ge(calls, 1);
	ck_assert_int_eq(a->nrec, 1);
	ck_assert_int_eq(a->status, ALG1_RUNNING);
	ck_assert_mem_eq(a->net->n, before->n, 4 * sizeof(int));
	ck_assert_mem_eq(a->net->param, before->param, before->nparam * sizeof(float));
	ck_assert_ptr_nonnull(strstr(e.msg, "iteration 1: stopped during training"));
	/* stopped between iterations, alg1_run says so too */
	Hook cancel = {.cancelled = always_stop};
	ck_assert_int_eq(alg1_run(a, &cancel, &e), 1);
	ck_assert_str_eq(e.msg, "Algorithm 1: stopped before iteration 1");
	ck_assert_int_eq(a->nrec, 1);
	/* the next step runs the interrupted iteration */
	ck_assert_int_ge(alg1_step(a, NULL, &e), 0);
	ck_assert_int_eq(a->nrec, 2);
	ck_assert_int_eq(a->rec[1].iter, 1);
	net_free(before);
	alg1_free(a);
}
END_TEST

/* A warm iteration shrinks each layer by its pivoted QR before it trains;
 * on LAPACK's path that asks the calling thread's stop (a 11×40 Ŵ: after
 * its first QR). A stop there is the step's stop (1, not a failure), the
 * state as before it; the next step runs the iteration. */
START_TEST(stop_while_shrinking)
{
	int w[] = {10, 40, 3};
	Alg1Opts o = opts(1.01, 1, 1);
	Err e;
	Net *s = shape(2, w);
	Alg1 *a = alg1_new(s, data, &o, &e);
	net_free(s);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(alg1_step(a, NULL, &e), 0);
	ck_assert_int_eq(a->status, ALG1_RUNNING);
	Net *before = net_clone(a->net, &e);
	cond_set_path(COND_PATH_LAPACK);
	hook_set_thread_stop(always_stop, NULL);
	ck_assert_int_eq(alg1_step(a, NULL, &e), 1);
	ck_assert_str_eq(e.msg, "Algorithm 1, iteration 1, while the network was shrunk (the one "
	                        "before it is kept): layer 1: Ŵ: stopped during the "
	                        "decomposition of a 11×40 matrix");
	ck_assert_int_eq(a->nrec, 1);
	ck_assert_int_eq(a->status, ALG1_RUNNING);
	ck_assert_mem_eq(a->net->n, before->n, 3 * sizeof(int));
	ck_assert_mem_eq(a->net->param, before->param, before->nparam * sizeof(float));
	hook_set_thread_stop(NULL, NULL);
	ck_assert_msg(alg1_step(a, NULL, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(a->nrec, 2);
	ck_assert_int_lt(a->net->n[1], 40);
	cond_set_path(COND_PATH_AUTO);
	net_free(before);
	alg1_free(a);
}
END_TEST

START_TEST(bad_inputs)
{
	int w[] = {10, 8, 3};
	Net *s = shape(2, w);
	Alg1Opts o = opts(0.5, 1, 0);
	Err e;
	ck_assert_ptr_null(alg1_new(s, data, &o, &e));
	ck_assert_str_eq(e.msg, "Algorithm 1: τ = 0.5, expected a finite threshold > 1");
	/* τ = 1 is Algorithm 3's least τ, not Algorithm 1's */
	o = opts(1, 1, 0);
	ck_assert_ptr_null(alg1_new(s, data, &o, &e));
	ck_assert_str_eq(e.msg, "Algorithm 1: τ = 1, expected a finite threshold > 1");
	ck_assert_int_eq(alg1_check_tau(1.0000001, NULL), 0);
	ck_assert_int_eq(alg1_check_tau(INFINITY, &e), -1);
	ck_assert_str_eq(e.msg, "τ = inf, expected a finite threshold > 1");
	o = opts(25.0, 1, 0);
	o.eta = 0;
	ck_assert_ptr_null(alg1_new(s, data, &o, &e));
	ck_assert_str_eq(e.msg, "Algorithm 1: η = 0, expected a positive number of epochs");
	o.eta = 1;
	int w2[] = {9, 8, 3};
	Net *s2 = shape(2, w2);
	ck_assert_ptr_null(alg1_new(s2, data, &o, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "has 10 features, the network expects 9 inputs"));
	/* no validation split: a plateau schedule and early stopping are refused */
	o.train.sched.kind = SCHED_PLATEAU;
	ck_assert_ptr_null(alg1_new(s, data, &o, &e));
	ck_assert_str_eq(e.msg, "Algorithm 1: the plateau schedule needs a validation set, which "
	                        "Algorithm 1 has not (it trains η epochs each time)");
	o.train.sched.kind = SCHED_CONSTANT;
	ck_assert_int_eq(alg1_check_training(&o.train, 3, &e), -1);
	ck_assert_str_eq(e.msg, "early stopping needs a validation set, which Algorithm 1 has not "
	                        "(it trains η epochs each time)");
	ck_assert_int_eq(alg1_check_training(&o.train, 0, &e), 0);
	ck_assert_str_eq(alg1_status_name(ALG1_MAX_ITER), "max-iter");
	net_free(s2);
	net_free(s);
}
END_TEST

static int count_calls(const TrainProgress *p, void *ud)
{
	(void)p;
	(*(int *)ud)++;
	return 0;
}

/* A clone owns copies of everything and continues exactly as the original
 * would, even after the original is freed, reporting to the hook it is
 * stepped with. */
START_TEST(clone_is_deep_and_continues_alike)
{
	int w[] = {10, 30, 30, 3};
	Alg1Opts o = opts(25.0, 1, 0);
	Err e;
	Net *s = shape(3, w);
	Alg1 *a = alg1_new(s, data, &o, &e), *ref = alg1_new(s, data, &o, &e);
	net_free(s);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(ref);
	int calls = 0;
	Hook count = {.progress = count_calls, .ud = &calls};
	for (int k = 0; k < 2; k++) {
		ck_assert_int_ge(alg1_step(a, &count, &e), 0);
		ck_assert_int_ge(alg1_step(ref, NULL, &e), 0);
	}
	ck_assert_ptr_null(a->training);
	Alg1 *c = alg1_clone(a, &e);
	ck_assert_msg(c != NULL, "%s", e.msg);
	ck_assert_int_eq(c->nrec, 2);
	ck_assert(c->net != a->net && c->rec != a->rec);
	ck_assert_ptr_eq(c->train, a->train);
	ck_assert_int_eq(c->status, a->status);
	ck_assert_str_eq(c->reason, a->reason);
	for (int k = 0; k < 2; k++) {
		int m = a->rec[k].m;
		ck_assert(c->rec[k].n != a->rec[k].n && c->rec[k].kappa != a->rec[k].kappa &&
		          c->rec[k].p != a->rec[k].p);
		ck_assert_mem_eq(c->rec[k].n, a->rec[k].n, (size_t)(m + 1) * sizeof(int));
		ck_assert_mem_eq(c->rec[k].kappa, a->rec[k].kappa, (size_t)m * sizeof(double));
		ck_assert_mem_eq(c->rec[k].p, a->rec[k].p, (size_t)m * sizeof(int));
	}
	ck_assert_mem_eq(c->net->param, a->net->param, a->net->nparam * sizeof(float));
	alg1_free(a);
	/* the clone's third iteration is the reference's, and reports to the hook */
	calls = 0;
	int sc = alg1_step(c, &count, &e), sr = alg1_step(ref, NULL, &e);
	ck_assert_int_eq(sc, sr);
	ck_assert_int_gt(calls, 0);
	ck_assert_int_eq(c->nrec, ref->nrec);
	ck_assert_mem_eq(c->net->n, ref->net->n, 4 * sizeof(int));
	ck_assert_mem_eq(c->net->param, ref->net->param, ref->net->nparam * sizeof(float));
	ck_assert_ptr_null(alg1_clone(NULL, &e));
	ck_assert_str_eq(e.msg, "Algorithm 1: no state to copy");
	alg1_free(c);
	alg1_free(ref);
}
END_TEST

static Suite *alg1_suite(void)
{
	Suite *s = suite_create("alg1");
	TCase *c = tcase_create("core");
	tcase_add_checked_fixture(c, setup, teardown);
	tcase_set_timeout(c, 60);
	tcase_add_test(c, paper_mode_reaches_tau);
	tcase_add_test(c, preview_matches_step);
	tcase_add_test(c, rounds_to_multiples);
	tcase_add_test(c, same_seed_same_run);
	tcase_add_test(c, warm_mode_terminates);
	tcase_add_test(c, warm_keeps_pivoted_neurons);
	tcase_add_test(c, stop_while_shrinking);
	tcase_add_test(c, never_below_one_and_output_only);
	tcase_add_test(c, rounding_cannot_change);
	tcase_add_test(c, max_iter_stops);
	tcase_add_test(c, callback_stop_keeps_state);
	tcase_add_test(c, bad_inputs);
	tcase_add_test(c, clone_is_deep_and_continues_alike);
	suite_add_tcase(s, c);
	return s;
}

int main(void)
{
	return tu_run(alg1_suite());
}
