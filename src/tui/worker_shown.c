/* tui/worker_shown.c - what the worker publishes for the panels: the layer
 * table, the Algorithm-1 history, the sweep with its spreads, κ against
 * epochs while training, and the narration; and the hooks the engine
 * reports to. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "tui/worker.h"
#include "tui/worker_int.h"

void worker_shown_free(Shown *p)
{
	cond_net_free(p->lc, p->m);
	free(p->n);
	free(p->bias0);
	alg1_records_free(p->rec, p->nrec);
	free(p->beta);
	free(p->sq.perm);
	free(p->sq.rdiag);
	free(p->ks.epoch);
	free(p->ks.kappa);
	free(p->ep.acc);
	free(p->ep.val_acc);
	free(p->ep.lr);
	free(p->narr);
	plane_shown_free(&p->pl);
	memset(p, 0, sizeof *p);
}

int worker_narr_count(const Shown *p)
{
	return p->nnarr < NARR_MAX ? p->nnarr : NARR_MAX;
}

const char *worker_narr(const Shown *p, int k)
{
	int first = p->nnarr < NARR_MAX ? 0 : p->nnarr - NARR_MAX;
	return p->narr ? p->narr[(first + k) % NARR_MAX] : "";
}

NarrKind worker_narr_kind(const Shown *p, int k)
{
	int first = p->nnarr < NARR_MAX ? 0 : p->nnarr - NARR_MAX;
	return (NarrKind)p->narr_kind[(first + k) % NARR_MAX];
}

const char *worker_narr_last_op(const Shown *p)
{
	for (int k = worker_narr_count(p) - 1; k >= 0; k--)
		if (worker_narr_kind(p, k) == NARR_OP)
			return worker_narr(p, k);
	return NULL;
}

static void narrate_v(Worker *w, NarrKind kind, const char *fmt, va_list ap)
{
	pthread_mutex_lock(&w->mu);
	if (w->shown.narr) {
		int at = w->shown.nnarr % NARR_MAX;
		vsnprintf(w->shown.narr[at], NARR_LEN, fmt, ap);
		w->shown.narr_kind[at] = (unsigned char)kind;
		w->shown.nnarr++;
	}
	pthread_mutex_unlock(&w->mu);
}

void worker_narrate(Worker *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	narrate_v(w, NARR_OP, fmt, ap);
	va_end(ap);
}

void worker_narrate_kind(Worker *w, NarrKind kind, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	narrate_v(w, kind, fmt, ap);
	va_end(ap);
}

int worker_quitting(Worker *w)
{
	pthread_mutex_lock(&w->mu);
	int q = w->quit;
	pthread_mutex_unlock(&w->mu);
	return q;
}

int worker_stop_quit(void *ud)
{
	return worker_quitting(ud);
}

int worker_stop_any(void *ud)
{
	Worker *w = ud;
	pthread_mutex_lock(&w->mu);
	int q = w->quit || w->cancel;
	pthread_mutex_unlock(&w->mu);
	return q;
}

/* Publishes lc (computed for net; taken over) as the layer table. */
static void shown_lc(Worker *w, const Net *net, LayerCond *lc, int live)
{
	int m = net->m;
	int *n = malloc((size_t)(m + 1) * sizeof *n), *b0 = malloc((size_t)m * sizeof *b0);
	if (!n || !b0) {
		cond_net_free(lc, m);
		free(n);
		free(b0);
		worker_status(w, 1, "conditioning: out of memory");
		return;
	}
	memcpy(n, net->n, (size_t)(m + 1) * sizeof *n);
	for (int i = 0; i < m; i++) {
		b0[i] = 1;
		for (int j = 0; j < net->n[i + 1] && b0[i]; j++)
			b0[i] = net->b[i][j] == 0;
	}
	pthread_mutex_lock(&w->mu);
	cond_net_free(w->shown.lc, w->shown.m);
	free(w->shown.n);
	free(w->shown.bias0);
	w->shown.lc = lc;
	w->shown.n = n;
	w->shown.bias0 = b0;
	w->shown.m = m;
	w->shown.nparam = net->nparam;
	w->shown.live = live;
	pthread_mutex_unlock(&w->mu);
}

void worker_meter(const char *what, double frac, void *ud)
{
	Worker *w = ud;
	pthread_mutex_lock(&w->mu);
	snprintf(w->shown.work, sizeof w->shown.work, "%s", what);
	w->shown.work_frac = frac;
	w->shown.have_work = 1;
	pthread_mutex_unlock(&w->mu);
}

void worker_meter_done(Worker *w)
{
	pthread_mutex_lock(&w->mu);
	w->shown.have_work = 0;
	pthread_mutex_unlock(&w->mu);
}

void worker_shown_cond(Worker *w, const Net *net, int live)
{
	Err e = {{0}};
	LayerCond *lc;
	int rc = cond_net_new(net, w->s->tau, !live, &lc, &e);
	worker_meter_done(w);
	if (rc != 0) {
		/* a stop (the screen ending, or Esc while it trains) is no failure */
		if (!worker_stop_any(w))
			worker_status(w, 1, "conditioning: %s", e.msg[0] ? e.msg : "out of memory");
		return;
	}
	shown_lc(w, net, lc, live);
}

/* The sweep's table; the spreads of β already shown are kept. */
static void shown_sweep_locked(Worker *w, const Alg2 *a)
{
	Shown *p = &w->shown;
	ShownBeta *b = a->nb ? calloc((size_t)a->nb, sizeof *b) : NULL;
	if (a->nb && !b)
		return;
	for (int i = 0; i < a->nb; i++) {
		b[i] = (ShownBeta){
		    a->b[i].beta, a->b[i].err_tr, a->b[i].err_v, a->b[i].score, a->b[i].done, NAN,
		    NAN};
		for (int k = 0; k < p->nbeta; k++)
			if (p->beta[k].beta == b[i].beta) {
				b[i].smin = p->beta[k].smin;
				b[i].smax = p->beta[k].smax;
			}
	}
	free(p->beta);
	p->beta = b;
	p->nbeta = a->nb;
	p->q = a->o.q;
	p->sweep_eta = a->o.eta;
	p->pick = alg2_pick(a);
	p->pick_shape[0] = '\0';
	for (int i = 0, k = 0; p->pick >= 0 && i <= a->base->m; i++) {
		int n = snprintf(p->pick_shape + k, sizeof p->pick_shape - (size_t)k,
		                 i ? "-%d" : "%d", a->b[p->pick].widths[i]);
		if (n < 0 || (size_t)(k + n) >= sizeof p->pick_shape)
			break;
		k += n;
	}
}

static void pub_alg1_locked(Worker *w, const Alg1 *a, int live)
{
	Alg1Record *r = alg1_records_copy(a->rec, a->nrec, NULL);
	if (a->nrec && !r)
		return;
	alg1_records_free(w->shown.rec, w->shown.nrec);
	w->shown.rec = r;
	w->shown.nrec = a->nrec;
	w->shown.alg1_status = (int)a->status;
	w->shown.alg1_live = live;
	snprintf(w->shown.alg1_reason, sizeof w->shown.alg1_reason, "%s", a->reason);
}

/* Everything but the layer table, with the test accuracy acc. */
static void publish_rest(Worker *w, double acc)
{
	Session *s = w->s;
	uint32_t crc = s->net ? session_param_crc(s->net) : 0;
	pthread_mutex_lock(&w->mu);
	Shown *p = &w->shown;
	p->tau = s->tau;
	p->eta = s->eta;
	worker_ahead_locked(w);
	p->lr = s->topt.adam.lr;
	p->sched = s->topt.sched;
	p->seed = s->seed;
	p->test_acc = acc;
	p->crc = crc;
	p->dirty = s->dirty;
	p->nundo = session_can_undo(s);
	p->gen++; /* what was said about the state before is history */
	if (s->alg1) {
		pub_alg1_locked(w, s->alg1, s->alg1_live);
	} else {
		alg1_records_free(p->rec, p->nrec);
		p->rec = NULL;
		p->nrec = 0;
	}
	if (s->sweep) {
		shown_sweep_locked(w, s->sweep);
		p->sweep_state = s->sweep_done ? 2 : 3;
	} else {
		p->nbeta = 0;
		p->sweep_state = 0;
	}
	pthread_mutex_unlock(&w->mu);
	worker_plane_publish(w);
}

void worker_publish(Worker *w)
{
	Session *s = w->s;
	if (worker_quitting(w))
		return;
	if (s->net)
		worker_shown_cond(w, s->net, 0);
	double acc; /* NaN when it cannot be measured (a stop) */
	session_test_acc(s, &acc, NULL);
	publish_rest(w, acc);
}

void worker_publish_settings(Worker *w)
{
	publish_rest(w, NAN);
}

/* ---- κ against epochs ---- */

void worker_series_reset(Worker *w, const char *what, double epochs)
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
	worker_series_reset(w, "", 0);
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
		worker_series_reset(w, what,
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
		series_add(w, p->epoch, lc, net->m);
		w->sample_epoch = p->epoch;
		/* the next point past the epochs reached */
		while (span * w->sample_k / worker_series_samples(span) <= p->epoch + 1e-9)
			w->sample_k++;
	}
	if (table) { /* the same values as the layer table */
		shown_lc(w, net, lc, 1);
		w->last_cond = clock_seconds();
	} else {
		cond_net_free(lc, net->m);
	}
}

/* ---- hooks, called on the worker thread from inside the engine ---- */

static int hook_progress(const TrainProgress *p, void *ud)
{
	Worker *w = ud;
	const Net *net = session_training(w->s);
	int own = pthread_equal(pthread_self(), w->th);
	if (net) {
		sample(w, net, p);
		worker_plane_sample(w, net);
	}
	pthread_mutex_lock(&w->mu);
	/* a sweep's β and trials show from its first trial on, not after it */
	if (own && w->shown.sweep_state == 1 && !w->shown.nbeta && w->s->sweep)
		shown_sweep_locked(w, w->s->sweep);
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
	pub_alg1_locked(w, a, 1);
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
	shown_sweep_locked(w, st->alg2);
	for (int i = 0; i < w->shown.nbeta; i++) {
		ShownBeta *b = &w->shown.beta[i];
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

/* ---- the epochs of a training ---- */

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
		if (!l) {
			pthread_mutex_unlock(&w->mu);
			return;
		}
		k->cap = cap;
	}
	k->acc[k->n] = te->acc;
	k->val_acc[k->n] = te->val_acc;
	k->lr[k->n] = te->lr;
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
