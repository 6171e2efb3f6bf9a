/* tui/worker_hooks.c - the hooks the engine reports to on the worker
 * thread: training's progress (a pause waits here, a cancel stops it), the
 * layer table and κ against epochs sampled while a network trains, and
 * each step of an algorithm, published and said as it is done. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "tui/worker.h"
#include "tui/worker_int.h"

/* Forgets the κ series; the next training starts a new one named what. */
static void series_reset(Worker *w, const char *what, double epochs)
{
	pthread_mutex_lock(&w->mu);
	w->shown.ks.n = 0;
	w->shown.ks.epochs = epochs;
	snprintf(w->shown.ks.what, sizeof w->shown.ks.what, "%s", what);
	pthread_mutex_unlock(&w->mu);
	w->sampled = NULL;
	w->sample_epoch = -1;
}

/* Appends (epoch, κ of every layer) to the series. */
static void series_add(Worker *w, double epoch, const LayerCond *lc, int m)
{
	ShownSeries *k = &w->shown.ks;
	pthread_mutex_lock(&w->mu);
	if (k->m != m) {
		free(k->epoch);
		free(k->kappa);
		k->epoch = k->kappa = NULL;
		k->n = k->cap = 0;
	}
	if (k->n == k->cap) {
		int cap = k->cap ? 2 * k->cap : 64;
		double *e = realloc(k->epoch, (size_t)cap * sizeof *e);
		if (e)
			k->epoch = e;
		double *v = e ? realloc(k->kappa, (size_t)cap * (size_t)m * sizeof *v) : NULL;
		if (v)
			k->kappa = v;
		if (!e || !v) {
			pthread_mutex_unlock(&w->mu);
			return;
		}
		k->cap = cap;
	}
	k->m = m;
	k->epoch[k->n] = epoch;
	for (int i = 0; i < m; i++)
		k->kappa[(size_t)k->n * (size_t)m + (size_t)i] = lc[i].kappa;
	k->n++;
	pthread_mutex_unlock(&w->mu);
}

void worker_forget_training(Worker *w)
{
	series_reset(w, "", 0);
	pthread_mutex_lock(&w->mu);
	ShownEpochs *k = &w->shown.ep;
	k->n = k->done = k->stopped_early = k->best = k->val = 0;
	w->shown.last_train[0] = '\0';
	pthread_mutex_unlock(&w->mu);
}

/* Taken by the epochs reached, never by the clock, so that a training
 * gives the same series however fast it runs. */
int worker_series_samples(double span)
{
	double n = round(span);
	return fabs(span - n) < 1e-9 && n >= 16 && n <= 64 ? (int)n : span < 16 ? 16 : 64;
}

/* While a network trains: the layer table at most every 0.3 s (or 19 times
 * the conditioning's cost), and the κ series at the first report and then
 * at worker_series_samples points of the training. */
static void sample(Worker *w, const Net *net, const TrainProgress *p)
{
	double t = clock_seconds();
	int last = p->batch == p->batches;
	if (net != w->sampled || p->epoch < w->sample_epoch) {
		char what[128], shape[96];
		const Session *s = w->s;
		net_shape_str(net, shape, sizeof shape);
		if (s->alg1 && s->alg1->training == net)
			snprintf(what, sizeof what, "Algorithm 1, iteration %d: %s", s->alg1->nrec,
			         shape);
		else
			snprintf(what, sizeof what, "training %s", shape);
		series_reset(w, what,
		             p->batches && p->batch ? p->epoch * p->batches / p->batch : 0);
		w->sampled = net;
		w->sample_epoch = -1;
		w->sample_k = 0;
	}
	pthread_mutex_lock(&w->mu);
	double span = w->shown.ks.epochs > 0 ? w->shown.ks.epochs : 1;
	pthread_mutex_unlock(&w->mu);
	/* live κ at most every max(0.3 s, 19 × its cost): at most 5 % of the
	 * training time (docs/performance.md, bench/scaling) */
	int table = t - w->last_cond >= fmax(0.3, 19 * w->cond_cost);
	/* the series: the first report, then each time the epochs reach the
	 * next of its points, and the last */
	double next = span * w->sample_k / worker_series_samples(span);
	int series = last || w->sample_epoch < 0 || p->epoch >= next - 1e-9;
	if (!table && !series)
		return;
	LayerCond *lc;
	Err e = {{0}};
	int rc = cond_net_new(net, w->s->tau, 0, &lc, &e);
	worker_meter_done(w);
	if (rc != 0)
		return;
	w->cond_cost = clock_seconds() - t;
	if (series) {
		series_add(w, p->epoch, lc, cond_layers(net));
		w->sample_epoch = p->epoch;
		/* the next point past the epochs reached */
		while (span * w->sample_k / worker_series_samples(span) <= p->epoch + 1e-9)
			w->sample_k++;
	}
	if (table) { /* the same values as the layer table */
		worker_shown_lc(w, net, lc, 1);
		w->last_cond = clock_seconds();
	} else {
		cond_net_free(lc, cond_layers(net));
	}
}

static int hook_progress(const TrainProgress *p, void *ud)
{
	Worker *w = ud;
	const Net *net = session_training(w->s);
	int own = pthread_equal(pthread_self(), w->th);
	if (net) {
		sample(w, net, p);
		worker_plane_sample(w, net, p->epoch, 0);
		worker_diagram_sample(w, net, 0);
	}
	pthread_mutex_lock(&w->mu);
	/* a sweep's β and trials show from its first trial on, not after it */
	if (own && w->shown.sweep_state == 1 && !w->shown.nbeta && w->s->sweep)
		worker_shown_sweep_locked(w, w->s->sweep);
	w->shown.prog = *p;
	w->shown.have_prog = 1;
	while (w->shown.paused && !w->cancel && !w->quit)
		pthread_cond_wait(&w->resume, &w->mu);
	int stop = w->cancel || w->quit;
	pthread_mutex_unlock(&w->mu);
	return stop;
}

static int hook_is_cancelled(void *ud)
{
	Worker *w = ud;
	pthread_mutex_lock(&w->mu);
	int c = w->cancel || w->quit;
	pthread_mutex_unlock(&w->mu);
	return c;
}

static void step_alg1(Worker *w, const HookStep *st)
{
	const Alg1 *a = st->alg1;
	const Alg1Record *r = &a->rec[a->nrec - 1];
	double acc = 100 * (1 - r->eval_error), before = w->alg1_acc_prev;
	worker_shown_cond(w, a->net, 0);
	pthread_mutex_lock(&w->mu);
	worker_shown_alg1_locked(w, a, 1);
	w->shown.test_acc = acc;
	snprintf(w->shown.activity, sizeof w->shown.activity, "Algorithm 1: iteration %d done",
	         a->nrec - 1);
	pthread_mutex_unlock(&w->mu);
	if (isnan(before))
		worker_narrate(w, "%s; test accuracy %.2f %%", st->text, acc);
	else
		worker_narrate(w, "%s; test accuracy %.2f %% → %.2f %%", st->text, before, acc);
	w->alg1_acc_prev = acc;
}

static void step_alg2(Worker *w, const HookStep *st)
{
	const Alg2Trial *t = st->trial;
	double score = 2 * t->err_v - t->err_tr;
	pthread_mutex_lock(&w->mu);
	worker_shown_sweep_locked(w, st->alg2);
	for (int i = 0; i < w->shown.nbeta; i++) {
		ReportBeta *b = &w->shown.beta[i];
		if (b->beta != t->beta)
			continue;
		b->smin = isnan(b->smin) ? score : fmin(b->smin, score);
		b->smax = isnan(b->smax) ? score : fmax(b->smax, score);
	}
	w->shown.sweep_secs = clock_seconds() - w->t_job;
	w->sweep_trials++;
	snprintf(w->shown.activity, sizeof w->shown.activity, "β sweep: β %.2f trial %d done",
	         t->beta, t->trial + 1);
	pthread_mutex_unlock(&w->mu);
	worker_narrate(w, "%s", st->text);
}

/* An epoch of a `t` training: the first starts a new series. */
static void step_epoch(Worker *w, const HookStep *st)
{
	const TrainEpoch *te = st->epoch;
	char shape[96] = "", spec[64] = "";
	if (te->epoch == 1) {
		net_shape_str(te->net, shape, sizeof shape);
		sched_format(&w->s->topt.sched, spec, sizeof spec);
	}
	pthread_mutex_lock(&w->mu);
	ShownEpochs *k = &w->shown.ep;
	if (te->epoch == 1) {
		k->n = k->done = k->stopped_early = k->best = 0;
		snprintf(k->what, sizeof k->what, "%.80s, %.40s", shape, spec);
	}
	if (k->n == k->cap) {
		int cap = k->cap ? 2 * k->cap : 64;
		double *a = realloc(k->acc, (size_t)cap * sizeof *a);
		if (a)
			k->acc = a;
		double *v = a ? realloc(k->val_acc, (size_t)cap * sizeof *v) : NULL;
		if (v)
			k->val_acc = v;
		double *l = v ? realloc(k->lr, (size_t)cap * sizeof *l) : NULL;
		if (l)
			k->lr = l;
		double *lo = l ? realloc(k->loss, (size_t)cap * sizeof *lo) : NULL;
		if (lo)
			k->loss = lo;
		if (!lo) {
			pthread_mutex_unlock(&w->mu);
			return;
		}
		k->cap = cap;
	}
	k->acc[k->n] = te->acc;
	k->val_acc[k->n] = te->val_acc;
	k->lr[k->n] = te->lr;
	k->loss[k->n] = te->loss;
	k->n++;
	k->epochs = te->epochs;
	k->best = te->best_epoch;
	k->val = !isnan(te->val_acc);
	pthread_mutex_unlock(&w->mu);
}

static void step_trained(Worker *w, const HookStep *st)
{
	const TrainResult *r = st->result;
	pthread_mutex_lock(&w->mu);
	ShownEpochs *k = &w->shown.ep;
	k->done = 1;
	k->stopped_early = r->stopped_early;
	if (k->val)
		k->best = r->best_epoch;
	pthread_mutex_unlock(&w->mu);
}

/* One step of an algorithm is done: publish what changed, and say it. */
static void hook_step_done(const HookStep *st, void *ud)
{
	Worker *w = ud;
	worker_meter_done(w);
	switch (st->kind) {
	case HOOK_ALG1_ITER:
		step_alg1(w, st);
		break;
	case HOOK_ALG2_TRIAL:
		step_alg2(w, st);
		break;
	case HOOK_EPOCH:
		step_epoch(w, st);
		worker_narrate(w, "%s", st->text);
		worker_pace_epoch(w, st->epoch);
		break;
	case HOOK_TRAINED:
		step_trained(w, st);
		worker_narrate(w, "%s", st->text);
		break;
	case HOOK_ALG3_LAYER: {
		pthread_mutex_lock(&w->mu);
		double before = w->shown.test_acc;
		pthread_mutex_unlock(&w->mu);
		double after;
		session_test_acc(w->s, &after, NULL);
		worker_narrate(w, "%s; test accuracy %.2f %% → %.2f %%", st->text, before, after);
		/* the next decision's "before", when several are made in one job */
		pthread_mutex_lock(&w->mu);
		w->shown.test_acc = after;
		pthread_mutex_unlock(&w->mu);
		worker_sqz_decided(w, st);
		break;
	}
	default:
		worker_narrate(w, "%s", st->text);
		break;
	}
}

Hook worker_hooks(Worker *w)
{
	return (Hook){hook_progress, hook_step_done, hook_is_cancelled, w};
}
