/* tui/worker.c - the background engine thread behind the screen. */
#include "tui/worker.h"
#include "tui/worker_int.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/alg3_squeeze.h"
#include "engine/report.h"
#include "base/clock.h"
#include "base/fpmode.h"

static void free_lc(LayerCond *lc, int m)
{
	for (int i = 0; lc && i < m; i++)
		cond_layer_free(&lc[i]);
	free(lc);
}

/* Conditioning of net published as the layer table; live while training. */
static void pub_cond(Worker *w, const Net *net, int live)
{
	Err e = {{0}};
	LayerCond *lc = calloc((size_t)net->m, sizeof *lc);
	int *n = malloc((size_t)(net->m + 1) * sizeof *n);
	if (!lc || !n || cond_net_values(net, w->s->tau, lc, &e) < 0) {
		free(lc);
		free(n);
		worker_status(w, 1, "conditioning: %s", e.msg[0] ? e.msg : "out of memory");
		return;
	}
	memcpy(n, net->n, (size_t)(net->m + 1) * sizeof *n);
	pthread_mutex_lock(&w->mu);
	free_lc(w->pub.lc, w->pub.m);
	free(w->pub.n);
	w->pub.lc = lc;
	w->pub.n = n;
	w->pub.m = net->m;
	w->pub.nparam = net->nparam;
	w->pub.live = live;
	pthread_mutex_unlock(&w->mu);
}

static void pub_sweep_locked(Worker *w, const Alg2 *a)
{
	PubBeta *b = a->nb ? realloc(w->pub.beta, (size_t)a->nb * sizeof *b) : NULL;
	if (a->nb && !b)
		return;
	for (int i = 0; i < a->nb; i++)
		b[i] = (PubBeta){a->b[i].beta, a->b[i].err_tr, a->b[i].err_v, a->b[i].score,
		                 a->b[i].done};
	w->pub.beta = b ? b : w->pub.beta;
	w->pub.nbeta = a->nb;
	w->pub.q = a->o.q;
	w->pub.pick = alg2_pick(a);
	w->pub.pick_shape[0] = '\0';
	for (int i = 0, k = 0; w->pub.pick >= 0 && i <= a->base->m; i++) {
		int n = snprintf(w->pub.pick_shape + k, sizeof w->pub.pick_shape - (size_t)k,
		                 i ? "-%d" : "%d", a->b[w->pub.pick].widths[i]);
		if (n < 0 || (size_t)(k + n) >= sizeof w->pub.pick_shape)
			break;
		k += n;
	}
}

static void pub_alg1_locked(Worker *w, const Alg1 *a, int live)
{
	Alg1Record *r = alg1_records_copy(a->rec, a->nrec, NULL);
	if (a->nrec && !r)
		return;
	alg1_records_free(w->pub.rec, w->pub.nrec);
	w->pub.rec = r;
	w->pub.nrec = a->nrec;
	snprintf(w->pub.alg1_state, sizeof w->pub.alg1_state, "%.40s%s%.200s%s",
	         alg1_status_name(a->status), a->reason[0] ? ": " : "", a->reason,
	         live ? "" : " (the next step starts afresh from the current network)");
}

/* Everything the panels show, after a job. */
void worker_publish(Worker *w)
{
	Session *s = w->s;
	if (s->net)
		pub_cond(w, s->net, 0);
	double acc = session_test_acc(s);
	pthread_mutex_lock(&w->mu);
	w->pub.tau = s->tau;
	w->pub.eta = s->eta;
	w->pub.seed = s->seed;
	w->pub.test_acc = acc;
	w->pub.dirty = s->dirty;
	w->pub.nundo = session_can_undo(s);
	if (s->alg1)
		pub_alg1_locked(w, s->alg1, s->alg1_live);
	if (s->sweep)
		pub_sweep_locked(w, s->sweep);
	pthread_mutex_unlock(&w->mu);
}

/* ---- hooks, called on the worker thread from inside the engine ---- */

static int hook_progress(const TrainProgress *p, void *ud)
{
	Worker *w = ud;
	double t = clock_seconds();
	const Net *net = session_training(w->s);
	/* live κ at most every 0.3 s and at most 5 % of the training time
	 * (docs/performance.md, bench/scaling) */
	if (net && t - w->last_cond >= fmax(0.3, 19 * w->cond_cost)) {
		pub_cond(w, net, 1);
		w->cond_cost = clock_seconds() - t;
		w->last_cond = clock_seconds();
	}
	pthread_mutex_lock(&w->mu);
	w->pub.prog = *p;
	w->pub.have_prog = 1;
	if (p->epoch > 0)
		w->pub.sec_per_epoch = p->seconds / p->epoch;
	while (w->pub.paused && !w->cancel && !w->quit)
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

/* One step of an algorithm is done: publish what changed. */
static void hook_step_done(const HookStep *st, void *ud)
{
	Worker *w = ud;
	if (st->kind == HOOK_ALG1_ITER)
		pub_cond(w, st->alg1->net, 0);
	pthread_mutex_lock(&w->mu);
	switch (st->kind) {
	case HOOK_ALG1_ITER:
		pub_alg1_locked(w, st->alg1, 1);
		snprintf(w->pub.activity, sizeof w->pub.activity,
		         "Algorithm 1: iteration %d done", st->alg1->nrec - 1);
		break;
	case HOOK_ALG2_TRIAL:
		pub_sweep_locked(w, st->alg2);
		snprintf(w->pub.activity, sizeof w->pub.activity, "β sweep: β %.2f trial %d done",
		         st->trial->beta, st->trial->trial + 1);
		break;
	default:
		break;
	}
	pthread_mutex_unlock(&w->mu);
}

/* ---- jobs ---- */

static const char *describe(const SessAction *a, char *buf, size_t len)
{
	switch (a->kind) {
	case SESS_TRAIN:
		snprintf(buf, len, "training %g epochs", a->x);
		break;
	case SESS_ALG1_STEP:
		snprintf(buf, len, "Algorithm 1 (one iteration)");
		break;
	case SESS_ALG1_RUN:
		snprintf(buf, len, "Algorithm 1 (until every kappa <= tau)");
		break;
	case SESS_SWEEP:
		snprintf(buf, len, "beta sweep %.100s, q = %d", a->spec, a->q);
		break;
	case SESS_LOAD:
		snprintf(buf, len, "opening %.120s", a->path);
		break;
	case SESS_SAVE:
		snprintf(buf, len, "saving %.120s", a->path);
		break;
	default:
		snprintf(buf, len, "%s", session_kind_name(a->kind));
		break;
	}
	return buf;
}

/* Applies one action and says how it went in the status line (unless quiet
 * and successful); returns session_apply's result. */
static int run_action(Worker *w, const SessAction *a, int quiet)
{
	Session *s = w->s;
	Err e = {{0}};
	char what[160], shape[256];
	describe(a, what, sizeof what);
	if (a->kind != SESS_SAVE && w->pub.sq.active)
		worker_sqz_finish(w, "stopped");
	pthread_mutex_lock(&w->mu);
	snprintf(w->pub.activity, sizeof w->pub.activity, "%.120s", what);
	if (a->kind == SESS_SWEEP) {
		w->pub.sweep_state = 1;
		w->pub.nbeta = 0;
	}
	pthread_mutex_unlock(&w->mu);
	int rc = session_apply(s, a, &w->hooks, &e);
	if (a->kind == SESS_TAU && rc == 0) {
		pthread_mutex_lock(&w->mu);
		for (int i = 0; w->pub.lc && i < w->pub.m; i++)
			cond_set_tau(&w->pub.lc[i], s->tau);
		w->pub.tau = s->tau;
		if (s->alg1)
			pub_alg1_locked(w, s->alg1, s->alg1_live);
		pthread_mutex_unlock(&w->mu);
	} else {
		worker_publish(w);
	}
	if (a->kind == SESS_SWEEP) {
		pthread_mutex_lock(&w->mu);
		w->pub.sweep_state = rc == 0 ? 2 : 3;
		pthread_mutex_unlock(&w->mu);
	}
	if (rc < 0) {
		worker_status(w, 1, "%s failed: %s", session_kind_name(a->kind), e.msg);
		return rc;
	}
	if (rc == 1) {
		worker_status(w, 0, "cancelled: %s%s", what,
		           a->kind == SESS_ALG1_RUN && s->alg1 ? " (finished iterations kept)"
		                                               : "");
		return rc;
	}
	if (quiet)
		return rc;
	net_shape_str(s->net, shape, sizeof shape);
	switch (a->kind) {
	case SESS_TAU:
		worker_status(w, 0, "tau = %g", s->tau);
		break;
	case SESS_ETA:
		worker_status(w, 0, "eta = %g epochs", s->eta);
		break;
	case SESS_TRAIN:
		pthread_mutex_lock(&w->mu);
		if (!isnan(w->pub.sq.acc_end) && !w->pub.sq.active && !w->pub.sq.undone)
			w->pub.sq.acc_retrained = w->pub.test_acc;
		pthread_mutex_unlock(&w->mu);
		worker_status(w, 0, "trained %g epochs: test accuracy %.2f%%", a->x, w->pub.test_acc);
		break;
	case SESS_ALG1_STEP:
	case SESS_ALG1_RUN:
		worker_status(w, 0, "Algorithm 1, iteration %d: %s (%s)", s->alg1->nrec - 1, shape,
		           alg1_status_name(s->alg1->status));
		break;
	case SESS_SWEEP: {
		int p = alg2_pick(s->sweep);
		worker_status(w, 0, "beta sweep finished: pick beta = %g",
		           p >= 0 ? s->sweep->b[p].beta : NAN);
		break;
	}
	case SESS_UNDO:
		pthread_mutex_lock(&w->mu);
		w->pub.sq.undone = !isnan(w->pub.sq.acc_end);
		pthread_mutex_unlock(&w->mu);
		worker_status(w, 0, "undone: %s", shape);
		break;
	case SESS_SAVE:
		worker_status(w, 0, "saved %s", a->path);
		break;
	case SESS_LOAD:
		worker_status(w, 0, "opened %s: %s", a->path, shape);
		break;
	default:
		worker_status(w, 0, "%s: %s", session_kind_name(a->kind), shape);
		break;
	}
	return rc;
}

/* Replaces the network by a fresh one of the sweep's pick (undoable). */
static void run_adopt(Worker *w)
{
	SessAction a;
	Err e = {{0}};
	double beta;
	char shape[256];
	if (session_adopt_action(w->s, &a, &beta, &e) < 0) {
		worker_status(w, 1, "%s", e.msg);
		return;
	}
	session_log_note(w->s, "adopt the beta sweep's pick, beta = %.17g", beta);
	if (run_action(w, &a, 1) != 0)
		return;
	worker_status(w, 0, "adopted the sweep's pick (beta %g): %s with fresh weights; u undoes",
	           beta, net_shape_str(w->s->net, shape, sizeof shape));
}

static void render_tables(FILE *f, const void *ud)
{
	const Worker *w = ud;
	const Session *s = w->s;
	ReportFormat fmt = w->export_csv ? REPORT_CSV : REPORT_MARKDOWN;
	int md = fmt == REPORT_MARKDOWN;
	Err e = {{0}};
	LayerCond *lc = calloc((size_t)s->net->m, sizeof *lc);
	if (md)
		fprintf(f, "## Conditioning per layer (tau = %g)\n\n", s->tau);
	if (lc && cond_net(s->net, s->tau, lc, &e) == 0)
		report_cond(f, s->net, lc, fmt);
	free_lc(lc, lc ? s->net->m : 0);
	if (s->alg1 && s->alg1->nrec) {
		fprintf(f, md ? "\n## Algorithm 1, per iteration\n\n" : "\n");
		report_alg1_history(f, s->alg1, fmt);
	}
	if (s->sweep) {
		fprintf(f, md ? "\n## Algorithm 2, beta sweep\n\n" : "\n");
		report_alg2(f, s->sweep, fmt);
	}
	const PubSqueeze *q = &w->pub.sq;
	if (!isnan(q->acc_end) && !q->undone) {
		SqueezeRow r = {s->tau, q->removed, q->acc_end, NAN, q->acc_retrained};
		fprintf(f, md ? "\n## Algorithm 3, squeeze\n\n" : "\n");
		report_squeeze(f, &r, 1, fmt);
	}
}

static void run_job(Worker *w, Job *j)
{
	Err e = {{0}};
	switch (j->kind) {
	case JOB_ACTION:
		run_action(w, &j->a, j->quiet);
		break;
	case JOB_ADOPT:
		run_adopt(w);
		break;
	case JOB_SQZ_START:
		worker_sqz_begin(w);
		break;
	case JOB_SQZ_DECIDE:
		worker_sqz_decide(w, j->a.apply);
		break;
	case JOB_SQZ_ALL:
		while (session_squeeze_proposal(w->s) && worker_sqz_decide(w, 1) == 0)
			;
		break;
	case JOB_SQZ_STOP:
		worker_sqz_finish(w, "stopped");
		break;
	case JOB_SQZ_COMP:
		pthread_mutex_lock(&w->mu);
		w->pub.sq.comp = !w->pub.sq.comp;
		pthread_mutex_unlock(&w->mu);
		break;
	case JOB_EXPORT: {
		size_t n = strlen(j->path);
		int csv = n >= 4 && !strcmp(j->path + n - 4, ".csv");
		w->export_csv = csv;
		if (report_write_file(j->path, render_tables, w, &e) < 0)
			worker_status(w, 1, "export failed: %s", e.msg);
		else
			worker_status(w, 0, "exported the tables to %s (%s)", j->path,
			           csv ? "CSV" : "Markdown");
		break;
	}
	}
}

/* A change of τ, η or compensation: never refused, never counted as busy. */
static int is_setting(const Job *j)
{
	return j->kind == JOB_SQZ_COMP ||
	       (j->kind == JOB_ACTION && (j->a.kind == SESS_TAU || j->a.kind == SESS_ETA));
}

static const char *job_name(const Job *j, char *buf, size_t len)
{
	static const char *const names[] = {[JOB_SQZ_START] = "the squeeze preview",
	                                    [JOB_SQZ_DECIDE] = "a squeeze decision",
	                                    [JOB_SQZ_ALL] = "the squeeze",
	                                    [JOB_SQZ_STOP] = "the end of the squeeze",
	                                    [JOB_SQZ_COMP] = "a compensation toggle",
	                                    [JOB_EXPORT] = "the export",
	                                    [JOB_ADOPT] = "adopting the sweep's pick"};
	if (j->kind == JOB_ACTION)
		return describe(&j->a, buf, len);
	snprintf(buf, len, "%s", names[j->kind]);
	return buf;
}

static void *thread_main(void *arg)
{
	Worker *w = arg;
	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (!w->quit && !w->qn)
			pthread_cond_wait(&w->wake, &w->mu);
		if (w->quit)
			break;
		Job *j = malloc(sizeof *j);
		if (!j) {
			snprintf(w->pub.status, sizeof w->pub.status, "out of memory");
			w->pub.status_err = 1;
			w->qn = w->pub.ops = 0;
			continue;
		}
		*j = w->q[w->qh];
		w->qh = (w->qh + 1) % QMAX;
		w->qn--;
		w->cancel = 0;
		w->pub.busy = 1;
		w->pub.queued = w->qn;
		w->pub.have_prog = 0;
		job_name(j, w->pub.running, sizeof w->pub.running);
		pthread_mutex_unlock(&w->mu);
		run_job(w, j);
		pthread_mutex_lock(&w->mu);
		if (!is_setting(j) && w->pub.ops > 0)
			w->pub.ops--;
		w->pub.busy = 0;
		w->pub.paused = 0;
		w->pub.queued = w->qn;
		w->pub.activity[0] = '\0';
		w->pub.running[0] = '\0';
		free(j);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

Worker *worker_start(Session *s, Err *e)
{
	Worker *w = calloc(1, sizeof *w);
	if (!w) {
		err_set(e, "out of memory");
		return NULL;
	}
	w->s = s;
	w->hooks = (Hook){hook_progress, hook_step_done, hook_is_cancelled, w};
	w->pub.sq.acc_start = w->pub.sq.acc_end = w->pub.sq.acc_retrained = NAN;
	w->pub.pick = -1;
	snprintf(w->pub.log_path, sizeof w->pub.log_path, "%s", s->log_path);
	if (s->train)
		snprintf(w->pub.data, sizeof w->pub.data,
		         "%.120s (train %d, test %d, %d features, %d classes)",
		         s->train->name[0] ? s->train->name : s->data_spec, s->train->n,
		         s->test ? s->test->n : 0, s->train->d, s->train->k);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->wake, NULL);
	pthread_cond_init(&w->resume, NULL);
	worker_publish(w);
	/* signals belong to the screen's thread */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int rc = thread_start(&w->th, thread_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		err_set(e, "cannot start the worker thread");
		free(w);
		return NULL;
	}
	return w;
}

void worker_stop(Worker *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	w->quit = w->cancel = 1;
	w->qn = 0;
	w->pub.paused = 0;
	pthread_cond_broadcast(&w->wake);
	pthread_cond_broadcast(&w->resume);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->th, NULL);
	session_squeeze_stop(w->s);
	free_lc(w->pub.lc, w->pub.m);
	free(w->pub.n);
	alg1_records_free(w->pub.rec, w->pub.nrec);
	free(w->pub.beta);
	free(w->pub.sq.perm);
	free(w->pub.sq.rdiag);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->wake);
	pthread_cond_destroy(&w->resume);
	free(w);
}

int worker_submit(Worker *w, const Job *j)
{
	pthread_mutex_lock(&w->mu);
	int ok = w->qn < QMAX;
	if (ok) {
		w->q[(w->qh + w->qn) % QMAX] = *j;
		w->qn++;
		w->pub.ops += !is_setting(j);
		w->pub.queued = w->qn;
		pthread_cond_signal(&w->wake);
	}
	pthread_mutex_unlock(&w->mu);
	return ok ? 0 : -1;
}

int worker_toggle_pause(Worker *w)
{
	int r = -1;
	pthread_mutex_lock(&w->mu);
	if (w->pub.busy || w->qn) {
		r = w->pub.paused = !w->pub.paused;
		pthread_cond_broadcast(&w->resume);
	}
	pthread_mutex_unlock(&w->mu);
	return r;
}

void worker_cancel(Worker *w)
{
	pthread_mutex_lock(&w->mu);
	if (w->pub.busy)
		w->cancel = 1;
	pthread_cond_broadcast(&w->resume);
	pthread_mutex_unlock(&w->mu);
}

const Pub *worker_lock(Worker *w)
{
	pthread_mutex_lock(&w->mu);
	return &w->pub;
}

void worker_unlock(Worker *w)
{
	pthread_mutex_unlock(&w->mu);
}

void worker_status(Worker *w, int err, const char *fmt, ...)
{
	va_list ap;
	pthread_mutex_lock(&w->mu);
	va_start(ap, fmt);
	vsnprintf(w->pub.status, sizeof w->pub.status, fmt, ap);
	va_end(ap);
	w->pub.status_err = err;
	pthread_mutex_unlock(&w->mu);
}
