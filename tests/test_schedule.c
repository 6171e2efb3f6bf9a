/* test_schedule.c - learning-rate schedules against hand-computed rates, the
 * trainer taking its steps at those rates, early stopping that keeps exactly
 * the best epoch, and a run saved, loaded and resumed that equals an
 * uninterrupted one bit for bit. */
#include <math.h>

#include "data/datasets.h"
#include "engine/schedule.h"
#include "engine/train.h"
#include "engine/train_plan.h"
#include "model/model_io.h"
#include "model_test.h"
#include "session/session.h"
#include "testutil.h"

/* k Gaussian clusters in d dimensions (centres 3 apart on the axes); with
 * noise > 0 that fraction of the labels is drawn at random instead. */
/* net_error's value, NaN when it fails. */
static double error_of(const Net *net, const Dataset *d, double *loss)
{
	double err;
	return net_error(net, d, &err, loss, NULL) ? NAN : err;
}

static Dataset *clusters(int per_class, int d, int k, double noise, uint64_t seed)
{
	Dataset *ds = calloc(1, sizeof *ds);
	ds->n = per_class * k;
	ds->d = d;
	ds->k = k;
	ds->x = calloc((size_t)ds->n * d, sizeof(float));
	ds->y = calloc((size_t)ds->n, sizeof(int));
	strcpy(ds->name, "clusters");
	Rng r;
	rng_seed(&r, seed);
	for (int i = 0; i < ds->n; i++) {
		int c = i % k;
		for (int j = 0; j < d; j++)
			ds->x[i * d + j] = (float)((j == c % d ? 3.0 : 0.0) + rng_normal(&r));
		ds->y[i] = rng_uniform(&r) < noise ? (int)(rng_uniform(&r) * k) % k : c;
	}
	return ds;
}

static void free_data(Dataset *ds)
{
	free(ds->x);
	free(ds->y);
	free(ds);
}

static Net *fresh(int d, int k, uint64_t seed)
{
	int w[] = {d, 24, 16, k};
	Net *net = net_fresh(3, w, ACT_ERF, 1.0f, seed, NULL);
	ck_assert_ptr_nonnull(net);
	return net;
}

static double lr_at(const LrSchedule *s, long step, long bpe)
{
	SchedState st = {.step = step};
	return sched_lr(s, &st, bpe, 0.01);
}

#define CLOSE(a, b) ck_assert_msg(fabs((a) - (b)) <= 1e-15, "%.17g, expected %.17g", (a), (b))

START_TEST(test_rates_by_hand)
{
	/* 10 batches per epoch, base rate 0.01 */
	LrSchedule s;
	sched_default(&s);
	CLOSE(lr_at(&s, 0, 10), 0.01);
	CLOSE(lr_at(&s, 12345, 10), 0.01);

	s = (LrSchedule){.kind = SCHED_STEP, .every = 2, .factor = 0.5};
	CLOSE(lr_at(&s, 0, 10), 0.01);
	CLOSE(lr_at(&s, 19, 10), 0.01);
	CLOSE(lr_at(&s, 20, 10), 0.005);
	CLOSE(lr_at(&s, 39, 10), 0.005);
	CLOSE(lr_at(&s, 40, 10), 0.0025);
	/* with one epoch of warm-up (w = 10): (s+1)/10, then the decays from epoch 1 on */
	s.warmup = 1;
	CLOSE(lr_at(&s, 0, 10), 0.001);
	CLOSE(lr_at(&s, 4, 10), 0.005);
	CLOSE(lr_at(&s, 9, 10), 0.01);
	CLOSE(lr_at(&s, 29, 10), 0.01);
	CLOSE(lr_at(&s, 30, 10), 0.005);
	/* a quarter epoch of warm-up over 10 batches: w = ⌈2.5⌉ = 3 */
	s.warmup = 0.25;
	CLOSE(lr_at(&s, 0, 10), 0.01 / 3);
	CLOSE(lr_at(&s, 1, 10), 0.02 / 3);
	CLOSE(lr_at(&s, 2, 10), 0.01);

	/* cosine over 4 epochs: 1, (1 + cos(π/4))/2 after one, ½ after two, 0 at 4 */
	s = (LrSchedule){.kind = SCHED_COSINE, .period = 4};
	CLOSE(lr_at(&s, 0, 10), 0.01);
	CLOSE(lr_at(&s, 10, 10), 0.01 * (1 + sqrt(0.5)) / 2);
	CLOSE(lr_at(&s, 20, 10), 0.005);
	CLOSE(lr_at(&s, 40, 10), 0.0);
	CLOSE(lr_at(&s, 55, 10), 0.0);
	/* with 2 epochs of warm-up the cosine spans epochs 2 to 4 */
	s.warmup = 2;
	CLOSE(lr_at(&s, 9, 10), 0.005);
	CLOSE(lr_at(&s, 20, 10), 0.01);
	CLOSE(lr_at(&s, 30, 10), 0.005);
	CLOSE(lr_at(&s, 35, 10), 0.01 * (1 + cos(0.75 * M_PI)) / 2);

	/* plateau: F^reductions */
	s = (LrSchedule){.kind = SCHED_PLATEAU, .patience = 2, .factor = 0.5};
	SchedState st = {.step = 10};
	CLOSE(sched_lr(&s, &st, 10, 0.01), 0.01);
	st.reductions = 3;
	CLOSE(sched_lr(&s, &st, 10, 0.01), 0.00125);
}
END_TEST

START_TEST(test_plateau_rule)
{
	LrSchedule s = {.kind = SCHED_PLATEAU, .patience = 2, .factor = 0.5, .warmup = 1};
	SchedState st = {0};
	/* during the warm-up (10 batches) nothing is counted */
	st.step = 5;
	sched_observe(&s, &st, 10, 1.0);
	ck_assert_int_eq(st.has_best, 0);
	st.step = 10;
	static const double v[] = {1.0, 0.9, 0.95, 0.9, 0.8, 0.79995, NAN, 0.7};
	static const int red[] = {0, 0, 0, 1, 1, 1, 2, 2};
	static const int bad[] = {0, 0, 1, 0, 0, 1, 0, 0};
	for (int i = 0; i < 8; i++) {
		sched_observe(&s, &st, 10, v[i]);
		st.step += 10;
		ck_assert_msg(st.reductions == red[i] && st.bad == bad[i],
		              "after %g: %d reductions, %d bad; expected %d, %d", v[i],
		              st.reductions, st.bad, red[i], bad[i]);
	}
	/* 0.79995 is not 10⁻⁴ below 0.8: no improvement; 0.7 is */
	CLOSE(st.best, 0.7);
	CLOSE(sched_lr(&s, &st, 10, 0.01), 0.0025);
}
END_TEST

START_TEST(test_parse_and_format)
{
	static const char *const good[][2] = {
	    {"constant", "constant"},           {"step:3", "step:3:0.1"},
	    {"step:2.5:0.5", "step:2.5:0.5"},   {"cosine", "cosine"},
	    {"cosine:30", "cosine:30"},         {"plateau:4", "plateau:4:0.1"},
	    {"plateau:2:0.3", "plateau:2:0.3"},
	};
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		LrSchedule s = {.warmup = 1.5}, back = {.warmup = 1.5};
		Err e = {""};
		char buf[64];
		ck_assert_msg(sched_parse(good[i][0], &s, &e) == 0, "%s: %s", good[i][0], e.msg);
		ck_assert_str_eq(sched_format(&s, buf, sizeof buf), good[i][1]);
		ck_assert_int_eq(sched_parse(buf, &back, &e), 0);
		ck_assert(sched_equal(&s, &back));
		ck_assert(s.warmup == 1.5);
	}
	static const char *const bad[][2] = {
	    {"linear", "expected constant, step:EPOCHS[:FACTOR]"},
	    {"step", "expected constant"},
	    {"step:0", "step every 0 epochs"},
	    {"step:2:1.5", "factor 1.5"},
	    {"step:2:0.5:1", "too many fields"},
	    {"cosine:0", "positive number of epochs"},
	    {"cosine:x", "'x' is not a number"},
	    {"plateau:2.5", "whole number of epochs"},
	    {"plateau:3:0", "factor 0"},
	    {"constant:1", "expected constant"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		LrSchedule s;
		sched_default(&s);
		Err e = {""};
		ck_assert_int_eq(sched_parse(bad[i][0], &s, &e), -1);
		ck_assert_msg(strstr(e.msg, bad[i][1]), "%s: got \"%s\"", bad[i][0], e.msg);
		ck_assert_int_eq(s.kind, SCHED_CONSTANT);
	}
	/* an exact factor survives the round trip */
	LrSchedule s = {.kind = SCHED_STEP, .every = 1, .factor = 0.1 + 1e-16};
	char buf[64];
	LrSchedule back;
	sched_default(&back);
	ck_assert_int_eq(sched_parse(sched_format(&s, buf, sizeof buf), &back, NULL), 0);
	ck_assert(back.factor == s.factor);
}
END_TEST

/* The settings line of the screen: spec, warm-up and patience only when
 * they are there. */
START_TEST(test_settings_line)
{
	char buf[96];
	LrSchedule s;
	sched_default(&s);
	ck_assert_str_eq(sched_settings(0.001, &s, 0, buf, sizeof buf), "lr 0.001 constant");
	ck_assert_int_eq(sched_parse("cosine:30", &s, NULL), 0);
	s.warmup = 1;
	ck_assert_str_eq(sched_settings(0.001, &s, 5, buf, sizeof buf),
	                 "lr 0.001 cosine:30 warm 1 stop 5");
	ck_assert_int_eq(sched_parse("step:10:0.1", &s, NULL), 0);
	s.warmup = 0.25;
	ck_assert_str_eq(sched_settings(0.0005, &s, 0, buf, sizeof buf),
	                 "lr 0.0005 step:10:0.1 warm 0.25");
	s.warmup = 0;
	ck_assert_str_eq(sched_settings(0.01, &s, 3, buf, sizeof buf),
	                 "lr 0.01 step:10:0.1 stop 3");
	/* a short buffer holds a cut line, terminated */
	ck_assert_str_eq(sched_settings(0.01, &s, 3, buf, 9), "lr 0.01 ");
}
END_TEST

static int record_lr(const TrainProgress *tp, void *ud)
{
	double *lr = ud;
	lr[(long)llround(tp->epoch * 4) - 1] = tp->lr;
	return 0;
}

/* The trainer takes its steps at the schedule's rate: step:1:0.5 over two
 * epochs equals an epoch at lr then one at lr/2, bit for bit (no shuffling,
 * so both see the same batches); the progress reports each batch's rate. */
START_TEST(test_trainer_follows_schedule)
{
	Dataset *d = clusters(10, 3, 2, 0, 5); /* 20 rows, batch 5: 4 batches per epoch */
	TrainOpts o;
	train_opts_default(&o);
	o.batch = 5;
	o.shuffle = 0;
	o.adam.lr = 0.01;
	Net *a = fresh(3, 2, 1), *b = fresh(3, 2, 1);
	Err e = {""};
	o.sched = (LrSchedule){.kind = SCHED_STEP, .every = 1, .factor = 0.5, .warmup = 0.5};
	double lr[8] = {0};
	ck_assert_msg(train_epochs(a, d, &o, 2, record_lr, lr, &e) == 0, "%s", e.msg);
	static const double want[8] = {0.005, 0.01, 0.01, 0.01, 0.01, 0.01, 0.005, 0.005};
	for (int i = 0; i < 8; i++)
		CLOSE(lr[i], want[i]);
	ck_assert_int_eq(a->sched_st.step, 8);

	/* the same by hand: constant rates over the same batches */
	TrainOpts c = o;
	sched_default(&c.sched);
	static const double by_hand[4] = {0.005, 0.01, 0.01, 0.01};
	for (int i = 0; i < 4; i++) {
		c.adam.lr = by_hand[i];
		Trainer *t = trainer_new(b, d, &c, &e);
		trainer_skip(t, i);
		ck_assert_int_eq(trainer_step(t, 1, NULL, &e), 0);
		trainer_free(t);
	}
	c.adam.lr = 0.01;
	ck_assert_int_eq(train_epochs(b, d, &c, 0.5, NULL, NULL, &e), 0);
	c.adam.lr = 0.005;
	Trainer *t = trainer_new(b, d, &c, &e);
	trainer_skip(t, 2);
	ck_assert_int_eq(trainer_step(t, 2, NULL, &e), 0);
	trainer_free(t);
	ck_assert_mem_eq(a->param, b->param, a->nparam * sizeof(float));
	ck_assert_mem_eq(a->adam_v, b->adam_v, a->nparam * sizeof(float));
	net_free(a);
	net_free(b);
	free_data(d);
}
END_TEST

START_TEST(test_needs)
{
	Dataset *d = clusters(10, 3, 2, 0, 5);
	Net *net = fresh(3, 2, 1);
	TrainOpts o;
	train_opts_default(&o);
	Err e = {""};
	o.sched = (LrSchedule){.kind = SCHED_PLATEAU, .patience = 1, .factor = 0.5};
	ck_assert_int_eq(train_epochs(net, d, &o, 1, NULL, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "the plateau schedule needs a validation set, which this training "
	                        "has not");
	TrainPlan p;
	train_plan_default(&p, &o, 2);
	ck_assert_int_eq(train_plan_fit(net, d, &p, NULL, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "the plateau schedule needs a validation set");
	sched_default(&p.opts.sched);
	p.patience = 2;
	ck_assert_int_eq(train_plan_fit(net, d, &p, NULL, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "early stopping needs a validation set");
	/* a cosine without a length cannot run on its own */
	o.sched = (LrSchedule){.kind = SCHED_COSINE};
	ck_assert_ptr_null(trainer_new(net, d, &o, &e));
	ck_assert_str_eq(e.msg, "cosine schedule: its length in epochs is not set (cosine:EPOCHS)");
	o.sched = (LrSchedule){.kind = SCHED_COSINE, .period = 1, .warmup = 2};
	ck_assert_ptr_null(trainer_new(net, d, &o, &e));
	ck_assert_str_eq(e.msg, "cosine over 1 epochs ends before its warm-up of 2 epochs");
	ck_assert_int_eq(net->sched.kind, SCHED_CONSTANT);
	/* train_epochs gives it the training's length */
	o.sched.warmup = 0;
	o.sched.period = 0;
	ck_assert_int_eq(train_epochs(net, d, &o, 3, NULL, NULL, &e), 0);
	ck_assert(net->sched.period == 3);
	net_free(net);
	free_data(d);
}
END_TEST

/* Saves the network after every epoch as DIR/epoch-N.model. */
typedef struct Saver {
	const char *dir;
	int epochs;
	double val_acc[64], val_loss[64];
} Saver;

static void save_epoch(const HookStep *s, void *ud)
{
	Saver *sv = ud;
	if (s->kind != HOOK_EPOCH)
		return;
	char path[1024];
	snprintf(path, sizeof path, "%s/epoch-%d.model", sv->dir, s->epoch->epoch);
	Err e = {""};
	ck_assert_msg(model_save(s->epoch->net, path, &e) == 0, "%s", e.msg);
	sv->val_acc[s->epoch->epoch] = s->epoch->val_acc;
	sv->val_loss[s->epoch->epoch] = s->epoch->val_loss;
	sv->epochs = s->epoch->epoch;
}

/* Early stopping on a validation set of noisy labels: the training stops
 * before the cap, and the network it leaves is byte for byte the one saved
 * at the end of its best epoch (Adam state and schedule position included). */
START_TEST(test_early_stopping_keeps_best_epoch)
{
	const char *dir = tu_tmpdir();
	Dataset *tr = clusters(30, 4, 3, 0.3, 11), *val = clusters(20, 4, 3, 0.5, 12);
	Net *net = fresh(4, 3, 2);
	TrainOpts o;
	train_opts_default(&o);
	o.batch = 10;
	o.adam.lr = 0.02;
	o.sched = (LrSchedule){.kind = SCHED_PLATEAU, .patience = 2, .factor = 0.5};
	TrainPlan p;
	train_plan_default(&p, &o, 60);
	p.val = val;
	p.patience = 4;
	Saver sv = {.dir = dir};
	Hook h = {.step = save_epoch, .ud = &sv};
	TrainResult r;
	Err e = {""};
	ck_assert_msg(train_plan_fit(net, tr, &p, &h, &r, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(r.epochs, sv.epochs);
	ck_assert_msg(r.stopped_early && r.epochs < 60, "ran %d epochs", r.epochs);
	ck_assert_int_eq(r.best_epoch, r.epochs - p.patience);
	/* no epoch after the best did better on validation */
	for (int i = r.best_epoch + 1; i <= r.epochs; i++)
		ck_assert(sv.val_acc[i] <= sv.val_acc[r.best_epoch]);
	/* the best is the first of the least validation error, and of those the
	 * least validation loss: an epoch as accurate is better only with a
	 * lower loss (this run has such ties: the accuracy is in 60ths) */
	int ties = 0;
	for (int i = 1; i <= r.epochs; i++) {
		double a = sv.val_acc[i], b = sv.val_acc[r.best_epoch];
		double la = sv.val_loss[i], lb = sv.val_loss[r.best_epoch];
		if (i == r.best_epoch)
			continue;
		ties += a == b;
		ck_assert_msg(a < b || (a == b && (la > lb || (la == lb && i > r.best_epoch))),
		              "epoch %d (accuracy %g, loss %g) beats the kept epoch %d (%g, %g)", i,
		              a, la, r.best_epoch, b, lb);
	}
	ck_assert_int_gt(ties, 0);
	ck_assert(r.val_acc == sv.val_acc[r.best_epoch]);
	double loss;
	ck_assert(1.0 - error_of(net, val, &loss) == r.val_acc);
	ck_assert(loss == r.val_loss);

	char path[1024], best[1024];
	snprintf(path, sizeof path, "%s/kept.model", dir);
	snprintf(best, sizeof best, "%s/epoch-%d.model", dir, r.best_epoch);
	ck_assert_int_eq(model_save(net, path, &e), 0);
	size_t la, lb;
	unsigned char *a = tu_read(path, &la), *b = tu_read(best, &lb);
	ck_assert_uint_eq(la, lb);
	ck_assert_mem_eq(a, b, la);
	free(a);
	/* and not the last epoch's */
	snprintf(best, sizeof best, "%s/epoch-%d.model", dir, r.epochs);
	unsigned char *c = tu_read(best, &lb);
	ck_assert(memcmp(b, c, la) != 0);
	free(b);
	free(c);
	net_free(net);
	free_data(tr);
	free_data(val);
	tu_rmtree(dir);
}
END_TEST

/* For every kind of schedule (with a warm-up): 6 epochs in one go equal
 * 2.5 epochs, a save, a load and 3.5 resumed epochs, bit for bit, with the
 * batches reshuffled every epoch. */
START_TEST(test_resume_equals_uninterrupted)
{
	const char *dir = tu_tmpdir();
	Dataset *tr = clusters(25, 4, 3, 0.2, 21), *val = clusters(10, 4, 3, 0.2, 22);
	static const LrSchedule kinds[] = {
	    {.kind = SCHED_CONSTANT, .warmup = 1},
	    {.kind = SCHED_STEP, .every = 2, .factor = 0.5, .warmup = 0.5},
	    {.kind = SCHED_COSINE, .period = 6, .warmup = 1},
	    {.kind = SCHED_PLATEAU, .patience = 1, .factor = 0.5, .warmup = 0.5},
	};
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
		TrainOpts o;
		train_opts_default(&o);
		o.batch = 8; /* 75 rows: 10 batches per epoch, the last of 3 rows */
		o.adam.lr = 0.01;
		o.seed = 77;
		o.sched = kinds[k];
		TrainPlan p;
		Err e = {""};
		Net *a = fresh(4, 3, 3), *b = fresh(4, 3, 3);
		train_plan_default(&p, &o, 6);
		p.val = val;
		ck_assert_msg(train_plan_fit(a, tr, &p, NULL, NULL, &e) == 0, "%s", e.msg);
		ck_assert_int_eq(a->sched_st.step, 60);

		p.epochs = 2.5;
		ck_assert_msg(train_plan_fit(b, tr, &p, NULL, NULL, &e) == 0, "%s", e.msg);
		char path[1024];
		snprintf(path, sizeof path, "%s/part.model", dir);
		ck_assert_int_eq(model_save(b, path, &e), 0);
		net_free(b);
		b = model_load(path, &e);
		ck_assert_msg(b != NULL, "%s", e.msg);
		ck_assert_int_eq(b->sched_st.step, 25);
		/* the options' schedule is ignored: the network's run goes on */
		sched_default(&p.opts.sched);
		p.resume = 1;
		p.epochs = 3.5;
		ck_assert_msg(train_plan_fit(b, tr, &p, NULL, NULL, &e) == 0, "%s", e.msg);
		expect_same(a, b);
		if (kinds[k].kind == SCHED_PLATEAU)
			ck_assert_int_gt(a->sched_st.reductions, 0);
		/* without resuming the order, the result differs */
		Net *c = model_load(path, &e);
		p.resume = 0;
		p.opts.sched = kinds[k];
		p.opts.sched_keep = 1;
		ck_assert_int_eq(train_plan_fit(c, tr, &p, NULL, NULL, &e), 0);
		ck_assert(memcmp(a->param, c->param, a->nparam * sizeof(float)) != 0);
		net_free(a);
		net_free(b);
		net_free(c);
	}
	free_data(tr);
	free_data(val);
	tu_rmtree(dir);
}
END_TEST

/* Until every row is right, an epoch per trainer: the schedule runs on
 * across them. */
START_TEST(test_until_perfect_keeps_schedule)
{
	Dataset *d = clusters(20, 3, 3, 0.4, 31);
	Net *net = fresh(3, 3, 4);
	TrainOpts o;
	train_opts_default(&o);
	o.batch = 10;
	o.sched = (LrSchedule){.kind = SCHED_STEP, .every = 1, .factor = 0.5};
	TrainPlan p;
	train_plan_default(&p, &o, 3);
	p.until_perfect = 1;
	p.derive_seed = 1;
	TrainResult r;
	Err e = {""};
	ck_assert_int_eq(train_plan_fit(net, d, &p, NULL, &r, &e), 0);
	ck_assert_int_eq(r.epochs, 3);
	ck_assert_int_eq(net->sched_st.step, 18);
	CLOSE(r.lr, 0.00025);
	net_free(net);
	free_data(d);
}
END_TEST

static const char sched_log[] =
    "data spec=synthetic features=0 label_col=-1 seed=3 limit=60 val_frac=0.2 val_per_class=0\n"
    "opts batch=20 lr=0.01\n"
    "net layers=16,12 act=tanh act_a=1 seed=5\n"
    "sched plateau:1:0.5 warmup=0.5\n"
    "train 8 patience=2\n"
    "sched step:1:0.5\n"
    "train 1.5\n";

/* Counts the HOOK_EPOCH steps that carry a validation accuracy. */
static void count_epochs(const HookStep *s, void *ud)
{
	int *n = ud;
	if (s->kind == HOOK_EPOCH && !isnan(s->epoch->val_acc) && s->epoch->lr > 0)
		n[0]++;
	if (s->kind == HOOK_TRAINED)
		n[1]++;
}

/* A session's schedule and early stopping replay to the network that the
 * same engine calls give, and the session's own log replays to it again. */
START_TEST(test_session_replays_schedule)
{
	const char *dir = tu_tmpdir();
	const char *path = tu_write(dir, "s.log", sched_log, sizeof sched_log - 1);
	char logp[1100];
	snprintf(logp, sizeof logp, "%s/again.log", dir);
	Err e = {""};
	Session *s = session_new(&e);
	ck_assert_int_eq(session_log_open(s, logp, &e), 0);
	int n[2] = {0, 0};
	Hook h = {.step = count_epochs, .ud = n};
	ck_assert_msg(session_replay(s, path, &h, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(n[1], 2);
	ck_assert_int_ge(n[0], 3); /* the first training's epochs, validated */

	/* the same by hand */
	DataSpec d;
	Dataset *tr, *te, *ftr, *fval;
	dataspec_default(&d);
	d.spec = "synthetic";
	d.features = 0;
	d.seed = 3;
	d.limit = 60;
	ck_assert_int_eq(datasets_load(&d, &tr, &te, &e), 0);
	ck_assert_int_eq(dataset_split(tr, 0.2, 0, 5, &ftr, &fval, &e), 0);
	int w[4] = {tr->d, 16, 12, tr->k};
	Net *net = net_fresh(3, w, ACT_TANH, 1, 5, &e);
	TrainOpts o;
	train_opts_default(&o);
	o.batch = 20;
	o.adam.lr = 0.01;
	o.seed = rng_derive(5, 0x7000);
	o.sched = (LrSchedule){.kind = SCHED_PLATEAU, .patience = 1, .factor = 0.5, .warmup = 0.5};
	TrainPlan p;
	train_plan_default(&p, &o, 8);
	p.val = fval;
	p.patience = 2;
	TrainResult r1;
	ck_assert_int_eq(train_plan_fit(net, ftr, &p, NULL, &r1, &e), 0);
	o.seed = rng_derive(5, 0x7001);
	o.sched = (LrSchedule){.kind = SCHED_STEP, .every = 1, .factor = 0.5};
	train_plan_default(&p, &o, 1.5);
	ck_assert_int_eq(train_plan_fit(net, tr, &p, NULL, NULL, &e), 0);
	ck_assert_uint_eq(session_param_crc(s->net), session_param_crc(net));
	ck_assert(sched_equal(&s->net->sched, &net->sched));
	ck_assert_mem_eq(&s->net->sched_st, &net->sched_st, sizeof net->sched_st);
	ck_assert_int_eq(s->trained.epochs, 2);
	session_free(s);

	/* the first five lines alone: the early-stopped training's result */
	Session *s1 = session_new(&e);
	const char *five =
	    tu_write(dir, "five.log", sched_log, strstr(sched_log, "sched step") - sched_log);
	ck_assert_int_eq(session_replay(s1, five, NULL, &e), 0);
	ck_assert_int_eq(s1->trained.epochs, r1.epochs);
	ck_assert_int_eq(s1->trained.best_epoch, r1.best_epoch);
	ck_assert(s1->trained.val_acc == r1.val_acc);
	session_free(s1);

	/* the log the session wrote names the schedule and the patience */
	size_t len;
	char *text = (char *)tu_read(logp, &len);
	text = realloc(text, len + 1);
	text[len] = '\0';
	ck_assert_msg(strstr(text, "\nsched plateau:1:0.5 warmup=0.5\ntrain 8 patience=2\n"), "%s",
	              text);
	free(text);
	Session *s2 = session_new(&e);
	ck_assert_msg(session_replay(s2, logp, NULL, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(session_param_crc(s2->net), session_param_crc(net));
	session_free(s2);
	net_free(net);
	dataset_free(tr);
	dataset_free(te);
	dataset_free(ftr);
	dataset_free(fval);
	tu_rmtree(dir);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("schedule");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_rates_by_hand);
	tcase_add_test(tc, test_plateau_rule);
	tcase_add_test(tc, test_parse_and_format);
	tcase_add_test(tc, test_settings_line);
	tcase_add_test(tc, test_trainer_follows_schedule);
	tcase_add_test(tc, test_needs);
	tcase_add_test(tc, test_early_stopping_keeps_best_epoch);
	tcase_add_test(tc, test_resume_equals_uninterrupted);
	tcase_add_test(tc, test_until_perfect_keeps_schedule);
	tcase_add_test(tc, test_session_replays_schedule);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
