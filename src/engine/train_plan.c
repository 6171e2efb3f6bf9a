/* train_plan.c - training runs with their stopping rules: a fixed length,
 * until the training set is learnt, or until the validation set stops
 * improving (with the best epoch kept). */
#include "engine/train_plan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "base/rng.h"

void train_plan_default(TrainPlan *p, const TrainOpts *opts, double epochs)
{
	memset(p, 0, sizeof *p);
	p->opts = *opts;
	p->epochs = epochs;
}

uint64_t train_plan_seed(uint64_t seed, const Net *net)
{
	return rng_derive(seed, (uint64_t)net_hidden_total(net) * 131 + (uint64_t)net->adam_t);
}

/* A training under way. */
typedef struct Fit {
	const TrainPlan *p;
	const Hook *h;
	Net *net;
	long bpe;
	TrainProgress last; /* the trainer's last report */
	int stop;           /* the hook asked to stop */
	long base, total;   /* batches before the current trainer call, and in all */
	double epoch0;      /* epochs before the current trainer's first */
	double t0;
	Net *best; /* early stopping: the best epoch's network */
	int has_best, bad;
	double best_err, best_loss;
	TrainResult res;
	Err *e;
} Fit;

/* The trainer's callback: the report with the training's batch count and
 * time, to the hook. */
static int fit_progress(const TrainProgress *tp, void *ud)
{
	Fit *f = ud;
	f->last = *tp;
	TrainProgress q = *tp;
	q.epoch = f->epoch0 + tp->epoch;
	q.batch = f->base + tp->batch;
	q.batches = f->total;
	q.seconds = clock_seconds() - f->t0;
	if (hook_train(&q, (void *)f->h))
		f->stop = 1;
	return f->stop;
}

/* dst takes src's parameters, Adam state and schedule position (same shape). */
static void copy_state(Net *dst, const Net *src)
{
	memcpy(dst->param, src->param, src->nparam * sizeof *src->param);
	memcpy(dst->adam_m, src->adam_m, src->nparam * sizeof *src->adam_m);
	memcpy(dst->adam_v, src->adam_v, src->nparam * sizeof *src->adam_v);
	dst->adam_t = src->adam_t;
	dst->sched = src->sched;
	dst->sched_st = src->sched_st;
}

/* The end of an epoch (whole, or the last partial one): validation, the
 * plateau rule, early stopping's record, the HOOK_EPOCH step. Returns 1
 * when the patience has run out, -1 when the validation fails. */
static int epoch_end(Fit *f, int whole, double at)
{
	const TrainPlan *p = f->p;
	Net *net = f->net;
	TrainEpoch te = {
	    .epoch = ++f->res.epochs,
	    .epochs = (int)ceil(p->epochs),
	    .whole = whole,
	    .at = at,
	    .loss = f->last.loss,
	    .acc = f->last.acc,
	    .val_loss = NAN,
	    .val_acc = NAN,
	    .lr = f->last.lr,
	    .seconds = clock_seconds() - f->t0,
	    .net = net,
	};
	f->res.lr = f->last.lr;
	f->res.best_epoch = te.epoch;
	if (p->val) {
		double err;
		if (net_error(net, p->val, &err, &te.val_loss, f->e) < 0)
			return -1;
		te.val_acc = 1.0 - err;
		if (whole)
			sched_observe(&net->sched, &net->sched_st, f->bpe, te.val_loss);
		if (!f->has_best || err < f->best_err ||
		    (err == f->best_err && te.val_loss < f->best_loss)) {
			f->has_best = 1;
			f->best_err = err;
			f->best_loss = te.val_loss;
			f->bad = 0;
			if (f->best)
				copy_state(f->best, net);
		} else {
			f->bad++;
		}
		te.best_epoch = te.epoch - f->bad;
		te.bad = f->bad;
		/* the network kept: the best epoch's under early stopping, else this one */
		f->res.val_loss = f->best ? f->best_loss : te.val_loss;
		f->res.val_acc = f->best ? 1.0 - f->best_err : te.val_acc;
		if (f->best)
			f->res.best_epoch = te.best_epoch;
	}
	char val[96] = "";
	if (p->val)
		snprintf(val, sizeof val, ", validation loss %.4f, accuracy %.2f %%", te.val_loss,
		         100 * te.val_acc);
	hook_step(f->h, (HookStep){.kind = HOOK_EPOCH, .epoch = &te},
	          "epoch %d: loss %.4f, accuracy %.2f %%%s, lr %.3g", te.epoch, te.loss,
	          100 * te.acc, val, te.lr);
	return p->patience > 0 && f->bad >= p->patience;
}

/* One trainer for the whole training, stepped an epoch at a time. */
static int fit_once(Fit *f, const Dataset *d, Err *e)
{
	const TrainPlan *p = f->p;
	TrainOpts o = p->opts;
	if (p->derive_seed)
		o.seed = train_plan_seed(p->opts.seed, f->net);
	if (p->resume)
		o.sched_keep = 1;
	else if (!o.sched_keep)
		sched_resolve(&o.sched, p->epochs);
	Trainer *t = trainer_new(f->net, d, &o, e);
	if (!t)
		return -1;
	trainer_set_callback(t, fit_progress, f);
	long bpe = f->bpe = trainer_batches_per_epoch(t), pos = 0;
	if (p->resume) {
		trainer_skip(t, f->net->sched_st.step);
		pos = f->net->sched_st.step % bpe;
	}
	/* The small slack keeps e.g. 0.1·1200 = 120.00000000000001 at 120. */
	f->total = (long)ceil(p->epochs * (double)bpe - 1e-9);
	int rc = 0;
	for (long done = 0; done < f->total;) {
		long chunk = f->total - done < bpe - pos ? f->total - done : bpe - pos;
		f->base = done;
		long k;
		int st = trainer_step(t, chunk, &k, e);
		if (st < 0) {
			rc = -1;
			break;
		}
		done += k;
		pos = (pos + k) % bpe;
		if (f->stop || st > 0) {
			rc = 1;
			break;
		}
		int end = epoch_end(f, pos == 0, trainer_epoch(t));
		if (end) {
			rc = end < 0 ? -1 : 0;
			break;
		}
	}
	trainer_free(t);
	return rc;
}

/* A trainer per epoch, as many as it takes to classify every row of d
 * right (at most the plan's epochs). */
static int fit_until_perfect(Fit *f, const Dataset *d, Err *e)
{
	const TrainPlan *p = f->p;
	int cap = (int)ceil(p->epochs);
	for (int ep = 0; ep < cap; ep++) {
		TrainOpts o = p->opts;
		if (p->derive_seed)
			o.seed = train_plan_seed(p->opts.seed, f->net);
		if (ep > 0)
			o.sched_keep = 1;
		else if (!o.sched_keep)
			sched_resolve(&o.sched, p->epochs);
		Trainer *t = trainer_new(f->net, d, &o, e);
		if (!t)
			return -1;
		trainer_set_callback(t, fit_progress, f);
		f->bpe = trainer_batches_per_epoch(t);
		f->base = ep * f->bpe;
		f->total = cap * f->bpe;
		f->epoch0 = ep;
		int st = trainer_step(t, f->bpe, NULL, e);
		trainer_free(t);
		if (st < 0)
			return -1;
		if (f->stop || st > 0)
			return 1;
		double err = 1;
		int end = epoch_end(f, 1, ep + 1);
		if (end == 0 && net_error(f->net, d, &err, NULL, e) < 0)
			end = -1;
		if (end < 0)
			return -1;
		if (end || err == 0.0)
			break;
	}
	return 0;
}

/* The plan's demands that can be checked before training. */
static int plan_check(const Net *net, const TrainPlan *p, Err *e)
{
	if (!(p->epochs >= 0) || p->epochs > 1e6)
		return err_set(e, "epochs %g: expected a number from 0 to 1e6", p->epochs);
	if (p->patience < 0)
		return err_set(e, "early-stopping patience %d: expected 0 or more", p->patience);
	const LrSchedule *s = p->resume || p->opts.sched_keep ? &net->sched : &p->opts.sched;
	if (!p->val && p->patience > 0)
		return err_set(e, "early stopping needs a validation set");
	if (!p->val && s->kind == SCHED_PLATEAU)
		return err_set(e, "the plateau schedule needs a validation set");
	if (p->resume && (p->until_perfect || p->derive_seed))
		return err_set(e, "a resumed training keeps one batch order: not with "
		                  "until_perfect or derive_seed");
	const Dataset *v = p->val;
	if (v && (v->n < 1 || v->d != net->n[0]))
		return err_set(e,
		               "validation set %s: %d rows of %d features, the network takes %d "
		               "inputs",
		               v->name, v->n, v->d, net->n[0]);
	for (int r = 0; v && r < v->n; r++)
		if (v->y[r] < 0 || v->y[r] >= net->n[net->m])
			return err_set(e,
			               "validation set %s: row %d has label %d, outside the "
			               "network's %d classes",
			               v->name, r + 1, v->y[r], net->n[net->m]);
	return 0;
}

int train_plan_fit(Net *net, const Dataset *d, const TrainPlan *p, const Hook *h, TrainResult *r,
                   Err *e)
{
	if (plan_check(net, p, e) < 0)
		return -1;
	Fit f = {.p = p, .h = h, .net = net, .t0 = clock_seconds(), .e = e};
	f.res.val_loss = f.res.val_acc = NAN;
	f.res.lr = NAN;
	if (p->patience > 0 && !(f.best = net_clone(net, e)))
		return err_prefix(e, "early stopping");
	int rc = p->until_perfect ? fit_until_perfect(&f, d, e) : fit_once(&f, d, e);
	if (rc == 0 && f.best && f.has_best && f.res.best_epoch < f.res.epochs)
		copy_state(net, f.best);
	f.res.stopped_early = rc == 0 && p->patience > 0 && f.bad >= p->patience &&
	                      f.res.epochs < (int)ceil(p->epochs);
	net_free(f.best);
	if (r)
		*r = f.res;
	if (rc != 0)
		return rc;
	int ep = f.res.epochs;
	if (f.best)
		hook_step(h, (HookStep){.kind = HOOK_TRAINED, .result = &f.res},
		          "trained %d epoch%s, kept epoch %d (validation accuracy %.2f %%)", ep,
		          ep == 1 ? "" : "s", f.res.best_epoch, 100 * f.res.val_acc);
	else
		hook_step(h, (HookStep){.kind = HOOK_TRAINED, .result = &f.res},
		          "trained %d epoch%s", ep, ep == 1 ? "" : "s");
	return 0;
}

int train_plan_run(Net *net, const Dataset *d, const TrainPlan *p, const Hook *h, int *epochs_run,
                   Err *e)
{
	TrainResult r = {0};
	int rc = train_plan_fit(net, d, p, h, &r, e);
	if (epochs_run)
		*epochs_run = r.epochs;
	return rc;
}

int train_plan_fresh(int m, const int *widths, ActKind act, float act_a, uint64_t seed,
                     const Dataset *d, const TrainPlan *p, const Hook *h, int *epochs_run,
                     Net **out, Err *e)
{
	*out = NULL;
	Net *net = net_fresh(m, widths, act, act_a, seed, e);
	if (!net)
		return -1;
	int rc = train_plan_run(net, d, p, h, epochs_run, e);
	if (rc != 0) {
		net_free(net);
		return rc > 0 ? err_stop(e, "interrupted during training") : -1;
	}
	*out = net;
	return 0;
}

int net_error_hooked(const Net *net, const Dataset *data, int threads, const Hook *h, double *err,
                     Err *e)
{
	enum { SLICE = 2048 }; /* a multiple of net_error's own chunks of 1024 rows */
	*err = NAN;
	if (hook_cancelled(h) || hook_thread_stopped())
		return err_stop(e, "stopped");
	if (data->n <= SLICE)
		return net_error_threads(net, data, threads, err, NULL, e);
	long correct = 0;
	for (int start = 0; start < data->n; start += SLICE) {
		if (hook_cancelled(h) || hook_thread_stopped())
			return err_stop(e, "stopped");
		Dataset v = *data;
		v.n = data->n - start < SLICE ? data->n - start : SLICE;
		v.x = data->x + (size_t)start * (size_t)data->d;
		v.y = data->y + start;
		double part;
		if (net_error_threads(net, &v, threads, &part, NULL, e) < 0)
			return -1;
		correct += lround((1.0 - part) * v.n);
	}
	*err = 1.0 - (double)correct / data->n;
	return 0;
}

int net_accuracy(const Net *net, const Dataset *d, const Hook *h, double *acc, Err *e)
{
	*acc = NAN;
	if (!d)
		return 0;
	int (*stop)(void *);
	void *ud;
	hook_thread_stop_get(&stop, &ud);
	/* the whole set at once is faster where nothing can ask it to stop */
	double err;
	int rc =
	    h || stop ? net_error_hooked(net, d, 0, h, &err, e) : net_error(net, d, &err, NULL, e);
	if (rc == 0)
		*acc = 100 * (1 - err);
	return rc;
}
