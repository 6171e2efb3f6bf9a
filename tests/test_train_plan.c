/* test_train_plan.c - training runs and their stopping rules: exactly E
 * epochs, or whole epochs until the training error is 0; derived shuffling
 * seeds; what the run reports to its hook, and how a hook stops it. */
#include <math.h>

#include "engine/cond.h"
#include "engine/hook.h"
#include "engine/net.h"
#include "engine/train_plan.h"
#include "testutil.h"

/* Two Gaussian clusters in the plane, centres (±sep, ±sep), n rows each. */
/* net_error's value, NaN when it fails. */
static double error_of(const Net *net, const Dataset *d, double *loss)
{
	double err;
	return net_error(net, d, &err, loss, NULL) ? NAN : err;
}

static Dataset *two_clusters(int n, double sep, uint64_t seed)
{
	Dataset *d = dataset_new(2 * n, 2, 2, NULL);
	ck_assert_ptr_nonnull(d);
	Rng r;
	rng_seed(&r, seed);
	for (int i = 0; i < d->n; i++) {
		int c = i % 2;
		d->y[i] = c;
		for (int j = 0; j < 2; j++)
			d->x[i * 2 + j] = (float)((c ? sep : -sep) + 0.5 * rng_normal(&r));
	}
	snprintf(d->name, sizeof d->name, "two clusters");
	return d;
}

/* The same points with labels drawn at random: no network gets them all. */
static Dataset *noise_labels(int n, uint64_t seed)
{
	Dataset *d = two_clusters(n, 0.0, seed);
	Rng r;
	rng_seed(&r, seed + 1);
	for (int i = 0; i < d->n; i++)
		d->y[i] = (int)(rng_next(&r) % 2);
	return d;
}

static const int W[3] = {2, 6, 2};

static Net *fresh(uint64_t seed)
{
	Err e;
	Net *net = net_fresh(2, W, ACT_TANH, 1.0f, seed, &e);
	ck_assert_msg(net != NULL, "%s", e.msg);
	return net;
}

static TrainPlan plan(double epochs, double lr)
{
	TrainOpts o;
	train_opts_default(&o);
	o.batch = 8;
	o.adam.lr = lr;
	o.seed = 77;
	TrainPlan p;
	train_plan_default(&p, &o, epochs);
	return p;
}

static int same_bits(const Net *a, const Net *b)
{
	if (a->m != b->m || memcmp(a->n, b->n, sizeof(int) * (size_t)(a->m + 1)) ||
	    a->nparam != b->nparam || a->adam_t != b->adam_t)
		return 0;
	return !memcmp(a->param, b->param, sizeof(float) * a->nparam) &&
	       !memcmp(a->adam_m, b->adam_m, sizeof(float) * a->nparam) &&
	       !memcmp(a->adam_v, b->adam_v, sizeof(float) * a->nparam);
}

/* What a hook saw: progress reports, epoch ends, steps and their texts. */
static struct {
	int progress, epoch_ends, trained, notes, cancel_calls;
	int stop_at;   /* progress() returns 1 on this call (0: never) */
	int cancel_at; /* cancelled() returns 1 from this call on (0: never) */
	double last_epoch;
	char text[256];
} seen;

static int on_progress(const TrainProgress *p, void *ud)
{
	ck_assert_ptr_eq(ud, &seen);
	seen.progress++;
	seen.epoch_ends += p->epoch_end;
	seen.last_epoch = p->epoch;
	return seen.stop_at && seen.progress >= seen.stop_at;
}

static void on_step(const HookStep *s, void *ud)
{
	(void)ud;
	if (s->kind == HOOK_TRAINED)
		seen.trained++;
	if (s->kind == HOOK_NOTE)
		seen.notes++;
	snprintf(seen.text, sizeof seen.text, "%s", s->text);
}

static int on_cancelled(void *ud)
{
	(void)ud;
	seen.cancel_calls++;
	return seen.cancel_at && seen.cancel_calls >= seen.cancel_at;
}

static const Hook watch = {.progress = on_progress, .step = on_step, .ud = &seen};

START_TEST(until_perfect_stops_at_zero_error)
{
	Dataset *d = two_clusters(20, 1.5, 3);
	Net *net = fresh(5), *ref = net_clone(net, NULL);
	TrainPlan p = plan(50, 0.01);
	p.until_perfect = 1;
	Err e;
	int ep = -1;
	memset(&seen, 0, sizeof seen);
	ck_assert_msg(train_plan_run(net, d, &p, &watch, &ep, &e) == 0, "%s", e.msg);
	ck_assert_double_eq(error_of(net, d, NULL), 0.0);
	/* the training must have taken more than one epoch for the test to say
	 * something about where it stopped */
	ck_assert_int_gt(ep, 1);
	ck_assert_int_lt(ep, 50);
	ck_assert_int_eq(seen.epoch_ends, ep);
	/* the same epochs one at a time: not perfect before epoch ep, perfect at it */
	for (int k = 1; k <= ep; k++) {
		ck_assert_int_eq(train_epochs(ref, d, &p.opts, 1.0, NULL, NULL, &e), 0);
		double err = error_of(ref, d, NULL);
		if (k < ep)
			ck_assert_msg(err > 0, "perfect after epoch %d, but it trained %d", k, ep);
		else
			ck_assert_double_eq(err, 0.0);
	}
	ck_assert(same_bits(net, ref));
	ck_assert_int_eq(seen.trained, 1);
	char want[64];
	snprintf(want, sizeof want, "trained %d epochs", ep);
	ck_assert_str_eq(seen.text, want);
	net_free(net);
	net_free(ref);
	dataset_free(d);
}
END_TEST

/* Under until_perfect the epochs are a cap: on labels no network fits, it
 * trains whole epochs up to the cap (rounded up). */
START_TEST(until_perfect_stops_at_the_cap)
{
	Dataset *d = noise_labels(20, 4);
	Net *net = fresh(6);
	TrainPlan p = plan(2.5, 0.01);
	p.until_perfect = 1;
	Err e;
	int ep = -1;
	memset(&seen, 0, sizeof seen);
	ck_assert_int_eq(train_plan_run(net, d, &p, &watch, &ep, &e), 0);
	ck_assert_int_eq(ep, 3);
	ck_assert_int_eq(seen.epoch_ends, 3);
	ck_assert_str_eq(seen.text, "trained 3 epochs");
	net_free(net);
	dataset_free(d);
}
END_TEST

START_TEST(exact_epochs)
{
	Dataset *d = two_clusters(20, 1.5, 3);
	Net *net = fresh(5), *ref = net_clone(net, NULL);
	TrainPlan p = plan(3, 0.01);
	Err e;
	int ep = -1;
	memset(&seen, 0, sizeof seen);
	ck_assert_int_eq(train_plan_run(net, d, &p, &watch, &ep, &e), 0);
	ck_assert_int_eq(ep, 3);
	ck_assert_int_eq(seen.epoch_ends, 3);
	ck_assert_double_eq(seen.last_epoch, 3.0);
	ck_assert_int_eq(seen.trained, 1);
	ck_assert_str_eq(seen.text, "trained 3 epochs");
	/* one call of train_epochs, even though the first epoch was already perfect */
	ck_assert_int_eq(train_epochs(ref, d, &p.opts, 3.0, NULL, NULL, &e), 0);
	ck_assert(same_bits(net, ref));

	/* fractional: ceil(2.4) = 3 epochs counted, two of them closed (5
	 * batches an epoch, 12 batches) */
	memset(&seen, 0, sizeof seen);
	p.epochs = 2.4;
	ck_assert_int_eq(train_plan_run(net, d, &p, &watch, &ep, &e), 0);
	ck_assert_int_eq(ep, 3);
	ck_assert_int_eq(seen.epoch_ends, 2);
	ck_assert_double_eq_tol(seen.last_epoch, 2.4, 1e-12);
	ck_assert_str_eq(seen.text, "trained 3 epochs");

	memset(&seen, 0, sizeof seen);
	p.epochs = 1;
	ck_assert_int_eq(train_plan_run(net, d, &p, &watch, NULL, &e), 0);
	ck_assert_int_eq(seen.epoch_ends, 1);
	ck_assert_str_eq(seen.text, "trained 1 epoch");

	p.epochs = -1;
	ck_assert_int_eq(train_plan_run(net, d, &p, &watch, &ep, &e), -1);
	ck_assert_str_eq(e.msg, "epochs -1: expected a number from 0 to 1e6");
	p.epochs = NAN;
	ck_assert_int_eq(train_plan_run(net, d, &p, &watch, &ep, &e), -1);
	/* the cap is checked too, not only what one call trains */
	p.until_perfect = 1;
	p.epochs = 2e6;
	ck_assert_int_eq(train_plan_run(net, d, &p, &watch, &ep, &e), -1);
	ck_assert_str_eq(e.msg, "epochs 2e+06: expected a number from 0 to 1e6");
	net_free(net);
	net_free(ref);
	dataset_free(d);
}
END_TEST

START_TEST(derived_seeds)
{
	Dataset *d = noise_labels(20, 8);
	Net *a = fresh(9), *b = net_clone(a, NULL), *c = net_clone(a, NULL);
	TrainPlan p = plan(1, 0.01);
	p.derive_seed = 1;
	Err e;
	/* the same network state: the same order, the same bits */
	uint64_t s0 = train_plan_seed(p.opts.seed, a);
	ck_assert_int_eq(train_plan_run(a, d, &p, NULL, NULL, &e), 0);
	ck_assert_int_eq(train_plan_run(b, d, &p, NULL, NULL, &e), 0);
	ck_assert(same_bits(a, b));
	/* namely the order of train_plan_seed of the state before the call */
	TrainPlan fixed = plan(1, 0.01);
	fixed.opts.seed = s0;
	ck_assert_int_eq(train_plan_run(c, d, &fixed, NULL, NULL, &e), 0);
	ck_assert(same_bits(a, c));

	/* a has changed (its Adam steps): trained again, another order than
	 * the first one, repeated, gives */
	uint64_t s1 = train_plan_seed(p.opts.seed, a);
	ck_assert(s1 != s0);
	ck_assert_int_eq(train_plan_run(a, d, &p, NULL, NULL, &e), 0);
	ck_assert_int_eq(train_plan_run(b, d, &fixed, NULL, NULL, &e), 0);
	ck_assert(!same_bits(a, b));
	fixed.opts.seed = s1;
	ck_assert_int_eq(train_plan_run(c, d, &fixed, NULL, NULL, &e), 0);
	ck_assert(same_bits(a, c));
	/* until_perfect derives a seed for every epoch */
	Net *x = fresh(9), *y = fresh(9);
	p.until_perfect = 1;
	p.epochs = 2;
	int ep = 0;
	ck_assert_int_eq(train_plan_run(x, d, &p, NULL, &ep, &e), 0);
	ck_assert_int_eq(ep, 2);
	fixed.opts.seed = s0;
	ck_assert_int_eq(train_plan_run(y, d, &fixed, NULL, NULL, &e), 0);
	fixed.opts.seed = train_plan_seed(p.opts.seed, y);
	ck_assert_int_eq(train_plan_run(y, d, &fixed, NULL, NULL, &e), 0);
	ck_assert(same_bits(x, y));

	/* the seed changes with the hidden widths and with the Adam steps */
	Net *wide = net_fresh(2, (int[]){2, 7, 2}, ACT_TANH, 1.0f, 9, &e);
	Net *f = fresh(9);
	ck_assert(train_plan_seed(5, wide) != train_plan_seed(5, f));
	uint64_t before = train_plan_seed(5, f);
	f->adam_t = 1;
	ck_assert(train_plan_seed(5, f) != before);
	net_free(wide);
	net_free(f);
	net_free(x);
	net_free(y);
	net_free(a);
	net_free(b);
	net_free(c);
	dataset_free(d);
}
END_TEST

START_TEST(hook_stops_it)
{
	Dataset *d = two_clusters(40, 1.5, 3);
	Net *net = fresh(5), *start = net_clone(net, NULL), *full = net_clone(net, NULL);
	TrainPlan p = plan(4, 0.01);
	Err e;
	int ep = -1;
	ck_assert_int_eq(train_plan_run(full, d, &p, NULL, NULL, &e), 0);

	/* progress() says stop on its third report */
	memset(&seen, 0, sizeof seen);
	seen.stop_at = 3;
	ck_assert_int_eq(train_plan_run(net, d, &p, &watch, &ep, &e), 1);
	ck_assert_int_eq(seen.progress, 3);
	ck_assert_int_eq(seen.trained, 0);
	ck_assert(!same_bits(net, start));
	ck_assert(!same_bits(net, full));
	ck_assert_int_eq(net->adam_t, 3); /* a report after every batch */

	/* cancelled() says stop on its second call (after the second batch) */
	net_free(net);
	net = net_clone(start, NULL);
	memset(&seen, 0, sizeof seen);
	seen.cancel_at = 2;
	Hook h = {.cancelled = on_cancelled, .step = on_step};
	ck_assert_int_eq(train_plan_run(net, d, &p, &h, &ep, &e), 1);
	ck_assert_int_eq(seen.cancel_calls, 2);
	ck_assert_int_eq(seen.trained, 0);
	ck_assert_int_eq(net->adam_t, 2);

	/* under until_perfect: the epochs done before the stop */
	net_free(net);
	net = net_clone(start, NULL);
	Dataset *hard = noise_labels(40, 4);
	memset(&seen, 0, sizeof seen);
	p.until_perfect = 1;
	p.epochs = 50;
	seen.stop_at = 10 + 3; /* 10 batches an epoch: in the second epoch */
	ck_assert_int_eq(train_plan_run(net, hard, &p, &watch, &ep, &e), 1);
	ck_assert_int_eq(ep, 1);
	ck_assert_int_eq(seen.trained, 0);

	/* train_plan_fresh: nothing, and a message */
	memset(&seen, 0, sizeof seen);
	seen.stop_at = 1;
	Net *none = net;
	ck_assert_int_eq(train_plan_fresh(2, W, ACT_TANH, 1.0f, 5, d, &p, &watch, &ep, &none, &e),
	                 1);
	ck_assert_ptr_null(none);
	ck_assert_str_eq(e.msg, "interrupted during training");
	net_free(net);
	net_free(start);
	net_free(full);
	dataset_free(d);
	dataset_free(hard);
}
END_TEST

START_TEST(fresh_is_net_fresh_then_run)
{
	Dataset *d = two_clusters(20, 1.5, 3);
	TrainPlan p = plan(30, 0.01);
	p.until_perfect = 1;
	p.derive_seed = 1;
	Err e;
	int ep1 = -1, ep2 = -2;
	Net *a;
	ck_assert_msg(train_plan_fresh(2, W, ACT_TANH, 1.0f, 12, d, &p, NULL, &ep1, &a, &e) == 0,
	              "%s", e.msg);
	Net *b = net_fresh(2, W, ACT_TANH, 1.0f, 12, &e);
	ck_assert_int_eq(train_plan_run(b, d, &p, NULL, &ep2, &e), 0);
	ck_assert_int_eq(ep1, ep2);
	ck_assert(same_bits(a, b));
	net_free(a);
	net_free(b);
	ck_assert_int_eq(
	    train_plan_fresh(2, (int[]){2, 0, 2}, ACT_TANH, 1.0f, 12, d, &p, NULL, &ep1, &a, &e),
	    -1);
	ck_assert_ptr_null(a);
	ck_assert_ptr_nonnull(strstr(e.msg, "width"));
	dataset_free(d);
}
END_TEST

START_TEST(hook_members)
{
	TrainProgress tp = {.epoch = 1};
	ck_assert_int_eq(hook_train(&tp, NULL), 0);
	Hook none = {0};
	ck_assert_int_eq(hook_train(&tp, &none), 0);
	ck_assert_int_eq(hook_cancelled(NULL), 0);
	ck_assert_int_eq(hook_cancelled(&none), 0);
	hook_step(NULL, (HookStep){.kind = HOOK_TRAINED}, "x %d", 1);
	hook_note(&none, "nothing listens");

	memset(&seen, 0, sizeof seen);
	seen.stop_at = 2;
	ck_assert_int_eq(hook_train(&tp, (void *)&watch), 0);
	ck_assert_int_eq(hook_train(&tp, (void *)&watch), 1);
	memset(&seen, 0, sizeof seen);
	seen.cancel_at = 1;
	Hook c = {.progress = on_progress, .cancelled = on_cancelled, .ud = &seen};
	ck_assert_int_eq(hook_cancelled(&c), 1);
	ck_assert_int_eq(hook_train(&tp, &c), 1);
	ck_assert_int_eq(seen.progress, 1);
	hook_note(&watch, "stage %s: %d", "alg1", 3);
	ck_assert_int_eq(seen.notes, 1);
	ck_assert_str_eq(seen.text, "stage alg1: 3");

	/* training with hook_train and no hook is training without a callback */
	Dataset *d = two_clusters(20, 1.5, 3);
	Net *a = fresh(5), *b = net_clone(a, NULL);
	TrainPlan p = plan(2, 0.01);
	Err e;
	ck_assert_int_eq(train_epochs(a, d, &p.opts, 2, hook_train, NULL, &e), 0);
	ck_assert_int_eq(train_epochs(b, d, &p.opts, 2, NULL, NULL, &e), 0);
	ck_assert(same_bits(a, b));
	net_free(a);
	net_free(b);
	dataset_free(d);
}
END_TEST

static int stop_now(void *ud)
{
	return *(int *)ud;
}

/* What a stoppable measure answers: its rc, and its value into *v. */
static int hooked(const Net *net, const Dataset *d, const Hook *h, double *v)
{
	return net_error_hooked(net, d, 0, h, v, NULL);
}

/* net_error_hooked: net_error's value bit for bit, in slices; 1 (stopped,
 * the value NaN) once the hook or the thread's stop says stop; cond_net
 * stops between layers too. */
START_TEST(stoppable_measurements)
{
	Dataset *d = noise_labels(5000, 9); /* 10,000 rows: five slices */
	Net *net = fresh(4);
	double v;
	ck_assert_int_eq(hooked(net, d, NULL, &v), 0);
	ck_assert(v == error_of(net, d, NULL));
	memset(&seen, 0, sizeof seen);
	Hook c = {.cancelled = on_cancelled, .ud = &seen};
	ck_assert_int_eq(hooked(net, d, &c, &v), 0);
	ck_assert(v == error_of(net, d, NULL));
	ck_assert_int_ge(seen.cancel_calls, 5);
	memset(&seen, 0, sizeof seen);
	seen.cancel_at = 3; /* stopped after two slices */
	ck_assert_int_eq(hooked(net, d, &c, &v), 1);
	ck_assert(isnan(v));
	int stop = 1;
	hook_set_thread_stop(stop_now, &stop);
	ck_assert_int_eq(hook_thread_stopped(), 1);
	ck_assert_int_eq(hooked(net, d, NULL, &v), 1);
	LayerCond lc[2];
	Err e;
	ck_assert_int_eq(cond_net_values(net, 25, lc, &e), 1);
	ck_assert_str_eq(e.msg, "stopped before layer 1");
	stop = 0;
	ck_assert_int_eq(hooked(net, d, NULL, &v), 0);
	ck_assert(v == error_of(net, d, NULL));
	ck_assert_int_eq(cond_net_values(net, 25, lc, &e), 0);
	for (int i = 0; i < 2; i++)
		cond_layer_free(&lc[i]);
	hook_set_thread_stop(NULL, NULL);
	ck_assert_int_eq(hook_thread_stopped(), 0);
	net_free(net);
	dataset_free(d);
}
END_TEST

/* net_accuracy: 100·(1 − net_error), the same bits whether it is measured
 * whole or in slices under a hook or a thread's stop; NaN without a set; 1
 * when stopped, -1 for a set that does not fit. */
START_TEST(accuracy_in_percent)
{
	Dataset *d = noise_labels(5000, 9);
	Net *net = fresh(4);
	double acc = 100 * (1 - error_of(net, d, NULL)), a;
	Err e;
	ck_assert(acc > 0 && acc < 100);
	ck_assert_int_eq(net_accuracy(net, d, NULL, &a, &e), 0);
	ck_assert(a == acc);
	memset(&seen, 0, sizeof seen);
	Hook c = {.cancelled = on_cancelled, .ud = &seen};
	ck_assert_int_eq(net_accuracy(net, d, &c, &a, &e), 0);
	ck_assert(a == acc);
	ck_assert_int_ge(seen.cancel_calls, 5);
	int stop = 0;
	hook_set_thread_stop(stop_now, &stop);
	ck_assert_int_eq(net_accuracy(net, d, NULL, &a, &e), 0);
	ck_assert(a == acc);
	stop = 1;
	ck_assert_int_eq(net_accuracy(net, d, NULL, &a, &e), 1);
	ck_assert(isnan(a));
	ck_assert_str_eq(e.msg, "stopped");
	hook_set_thread_stop(NULL, NULL);
	ck_assert_int_eq(net_accuracy(net, NULL, NULL, &a, &e), 0);
	ck_assert(isnan(a));
	d->d = 3;
	ck_assert_int_eq(net_accuracy(net, d, NULL, &a, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "has 3 features, the network 2 inputs"));
	d->d = 2;
	net_free(net);
	dataset_free(d);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("train_plan");
	TCase *t = tcase_create("train_plan");
	tcase_add_test(t, until_perfect_stops_at_zero_error);
	tcase_add_test(t, until_perfect_stops_at_the_cap);
	tcase_add_test(t, exact_epochs);
	tcase_add_test(t, derived_seeds);
	tcase_add_test(t, hook_stops_it);
	tcase_add_test(t, fresh_is_net_fresh_then_run);
	tcase_add_test(t, hook_members);
	tcase_add_test(t, stoppable_measurements);
	tcase_add_test(t, accuracy_in_percent);
	suite_add_tcase(s, t);
	return tu_run(s);
}
