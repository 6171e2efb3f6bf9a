/* tui/worker.c - the background engine thread behind the screen: its queue,
 * the jobs, and what each action says when it is done. */
#include "tui/worker.h"
#include "tui/worker_int.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/fpmode.h"
#include "base/offload.h"
#include "base/signals.h"
#include "tui/status.h"

/* The layers with κ > τ, as "2, 3" (or "none"), and how many. */
static int layers_over(const Shown *p, char *buf, size_t len)
{
	int over = 0;
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; p->lc && i < p->m && k + 8 < len; i++)
		if (cond_over(p->lc[i].kappa, p->tau))
			k += (size_t)snprintf(buf + k, len - k, "%s%d", over++ ? ", " : "", i + 1);
	if (!over)
		snprintf(buf, len, "none");
	return over;
}

/* What a train action did: the epochs run of the cap and, with a
 * validation split, the epoch kept (the run's first words say it, so that
 * they fit a narrow screen). */
static void narrate_train(Worker *w, const SessAction *a, const char *shape, double acc,
                          const char *over)
{
	const Session *s = w->s;
	const TrainResult *r = &s->trained;
	char spec[64], head[200];
	sched_format(&s->topt.sched, spec, sizeof spec);
	if (!isnan(r->val_acc))
		snprintf(head, sizeof head,
		         "trained %d of %g epochs, kept epoch %d (validation %.2f %%)%s", r->epochs,
		         a->x, r->best_epoch, 100 * r->val_acc,
		         r->stopped_early ? ", stopped early" : "");
	else
		snprintf(head, sizeof head, "trained %d epoch%s", r->epochs,
		         r->epochs == 1 ? "" : "s");
	worker_narrate(w,
	               "%s: %s (Adam, batches of %d, %s), test accuracy %.2f %% → %.2f %%; "
	               "κ > τ in %s",
	               head, shape, s->topt.batch, spec, w->acc_before, acc, over);
}

/* What an action did, in the paper's terms (Algorithm 1's iterations, the
 * sweep's trials and squeeze decisions say it themselves as they happen). */
static void narrate_done(Worker *w, const SessAction *a, int alg1_before, int quiet)
{
	const Session *s = w->s;
	char shape[256], over[128], kb[32];
	net_shape_str(s->net, shape, sizeof shape);
	pthread_mutex_lock(&w->mu);
	int nover = layers_over(&w->shown, over, sizeof over);
	double acc = w->shown.test_acc, maxk = 0;
	for (int i = 0; w->shown.lc && i < w->shown.m; i++)
		maxk = fmax(maxk, w->shown.lc[i].kappa);
	pthread_mutex_unlock(&w->mu);
	switch (a->kind) {
	case SESS_TAU:
		/* applied behind an operation: in the log, not over its account */
		worker_narrate_kind(
		    w, quiet ? NARR_QUIET : NARR_OP,
		    "τ = %g: p_i now counts the σ below σ₁/%g; κ > τ in %s (%d of %d layers)",
		    s->tau, s->tau, over, nover, s->net ? s->net->m : 0);
		break;
	case SESS_ETA:
		worker_narrate_kind(
		    w, quiet ? NARR_QUIET : NARR_OP,
		    "η = %g: every training of Algorithms 1 and 2 now runs %g epoch%s", s->eta,
		    s->eta, s->eta == 1 ? "" : "s");
		break;
	case SESS_TRAIN:
		narrate_train(w, a, shape, acc, over);
		break;
	case SESS_SCHED: {
		char spec[64], warm[64] = "";
		sched_format(&s->topt.sched, spec, sizeof spec);
		if (s->topt.sched.warmup > 0)
			snprintf(warm, sizeof warm, " after %g epoch%s of linear warm-up",
			         s->topt.sched.warmup, s->topt.sched.warmup == 1 ? "" : "s");
		worker_narrate_kind(w, quiet ? NARR_QUIET : NARR_OP,
		                    "learning rate: %s from %g%s; the later trainings follow it (a "
		                    "β sweep's trials keep the constant rate)",
		                    spec, s->topt.adam.lr, warm);
		break;
	}
	case SESS_ALG1_STEP:
	case SESS_ALG1_RUN:
		if (s->alg1 && s->alg1->status != ALG1_RUNNING && alg1_before == ALG1_RUNNING) {
			const Alg1 *g = s->alg1;
			char first[256];
			snprintf(first, sizeof first, "%d", g->rec[0].n[0]);
			for (int i = 1; i <= g->rec[0].m; i++)
				snprintf(first + strlen(first), sizeof first - strlen(first), "-%d",
				         g->rec[0].n[i]);
			char why[sizeof g->reason * 2];
			worker_narrate(
			    w, "Algorithm 1 %s after %d iterations: %s → %s, Σ n_i %ld → %ld (%s)",
			    alg1_status_name(g->status), g->nrec - 1, first, shape, g->rec[0].sum_n,
			    g->rec[g->nrec - 1].sum_n, status_symbols(g->reason, why, sizeof why));
		}
		break;
	case SESS_SWEEP: {
		int p = alg2_pick(s->sweep);
		if (p < 0)
			break;
		const Alg2Beta *b = &s->sweep->b[p];
		pthread_mutex_lock(&w->mu);
		char pick[256];
		snprintf(pick, sizeof pick, "%s", w->shown.pick_shape);
		pthread_mutex_unlock(&w->mu);
		worker_narrate(
		    w,
		    "Algorithm 2 picks β = %g, the least 2ε_v − ε_tr = %.2f %% (ε_tr %.2f %%, "
		    "ε_v %.2f %%, mean of %d): widths %s; A adopts them with fresh weights",
		    b->beta, 100 * b->score, 100 * b->err_tr, 100 * b->err_v, b->done, pick);
		break;
	}
	case SESS_UNDO:
		worker_narrate(w, "undo: back to %s (test accuracy %.2f %%)", shape, acc);
		break;
	case SESS_NET:
		worker_narrate(w,
		               "a fresh network %s: Glorot weights from seed %llu, biases zero (so "
		               "κ = ∞ where a layer has more neurons than inputs)",
		               shape, (unsigned long long)a->seed);
		break;
	case SESS_LOAD:
		worker_narrate(w, "opened %s: %s, test accuracy %.2f %%, max κ %s, κ > τ in %s",
		               a->path, shape, acc, cond_kappa_str(maxk, s->tau, kb, sizeof kb),
		               over);
		break;
	default:
		break;
	}
}

/* The status line after an action that went through. */
static void status_done(Worker *w, const SessAction *a)
{
	Session *s = w->s;
	char shape[256];
	net_shape_str(s->net, shape, sizeof shape);
	switch (a->kind) {
	case SESS_TAU:
		worker_status(w, 0, "τ = %g", s->tau);
		break;
	case SESS_ETA:
		worker_status(w, 0, "η = %g epochs", s->eta);
		break;
	case SESS_TRAIN:
		pthread_mutex_lock(&w->mu);
		if (!isnan(w->shown.sq.acc_end) && !w->shown.sq.active && !w->shown.sq.undone)
			w->shown.sq.acc_retrained = w->shown.test_acc;
		pthread_mutex_unlock(&w->mu);
		if (!isnan(s->trained.val_acc))
			worker_status(w, 0,
			              "trained %d of %g epochs, kept epoch %d: test "
			              "accuracy %.2f%%",
			              s->trained.epochs, a->x, s->trained.best_epoch,
			              w->shown.test_acc);
		else
			worker_status(w, 0, "trained %g epoch%s: test accuracy %.2f%%", a->x,
			              a->x == 1 ? "" : "s", w->shown.test_acc);
		break;
	case SESS_SCHED: {
		char spec[64];
		worker_status(w, 0, "schedule %s, warm-up %g epoch%s: the next trainings follow it",
		              sched_format(&s->topt.sched, spec, sizeof spec), s->topt.sched.warmup,
		              s->topt.sched.warmup == 1 ? "" : "s");
		break;
	}
	case SESS_ALG1_STEP:
	case SESS_ALG1_RUN:
		worker_status(w, 0, "Algorithm 1, iteration %d: %s (%s)", s->alg1->nrec - 1, shape,
		              s->alg1->status == ALG1_RUNNING ? "more to do"
		                                              : alg1_status_name(s->alg1->status));
		break;
	case SESS_SWEEP: {
		int p = alg2_pick(s->sweep);
		worker_status(w, 0, "β sweep finished: pick β = %g",
		              p >= 0 ? s->sweep->b[p].beta : NAN);
		break;
	}
	case SESS_UNDO:
		pthread_mutex_lock(&w->mu);
		w->shown.sq.undone = !isnan(w->shown.sq.acc_end);
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
}

/* The last training, for the progress area: what trained, for how long;
 * kept with the network it left, so that it is not shown beside another
 * (an undo, a lesson stepped back). */
static void note_training(Worker *w, const SessAction *a, int rc)
{
	pthread_mutex_lock(&w->mu);
	const TrainProgress *t = &w->shown.prog;
	int said = 1;
	if (w->shown.have_prog && rc == 1)
		snprintf(w->shown.last_train, sizeof w->shown.last_train,
		         "cancelled at epoch %.2f: %.100s (rolled back)", t->epoch,
		         w->shown.running);
	else if (w->shown.have_prog && rc == 0 && t->epoch > 0 &&
	         (a->kind == SESS_TRAIN || a->kind == SESS_ALG1_STEP || a->kind == SESS_ALG1_RUN))
		snprintf(w->shown.last_train, sizeof w->shown.last_train,
		         "last training: %.2f epochs in %.3g s (%.3g s/epoch)", t->epoch,
		         t->seconds, t->seconds / t->epoch);
	else if (w->shown.have_prog && rc == 0 && a->kind == SESS_SWEEP)
		snprintf(w->shown.last_train, sizeof w->shown.last_train,
		         "last sweep: %d trials in %.3g s", w->sweep_trials, w->shown.sweep_secs);
	else
		said = 0;
	if (said)
		w->shown.last_train_crc = w->shown.crc;
	w->shown.have_prog = 0;
	pthread_mutex_unlock(&w->mu);
}

int worker_run_action(Worker *w, const SessAction *a, int quiet)
{
	Session *s = w->s;
	Err e = {{0}};
	char what[160];
	status_action(a, what, sizeof what);
	if (a->kind != SESS_SAVE && w->shown.sq.active)
		worker_sqz_finish(w, "stopped");
	int alg1_before = s->alg1 && s->alg1_live ? (int)s->alg1->status : ALG1_RUNNING;
	pthread_mutex_lock(&w->mu);
	snprintf(w->shown.activity, sizeof w->shown.activity, "%.120s", what);
	w->acc_before = w->alg1_acc_prev = w->shown.test_acc;
	if (a->kind == SESS_SWEEP) {
		w->shown.sweep_state = 1;
		w->shown.nbeta = 0;
		w->shown.sweep_secs = 0;
	}
	pthread_mutex_unlock(&w->mu);
	w->sweep_trials = 0;
	Net *before = worker_plane_before(w, a);
	/* κ computed inside the action stops at Esc as well as when the screen ends */
	hook_set_thread_stop(worker_stop_any, w);
	int rc = session_apply(s, a, &w->hooks, &e);
	hook_set_thread_stop(worker_stop_quit, w);
	if (worker_quitting(w)) {
		net_free(before);
		return rc; /* the screen is ending: nothing to show */
	}
	/* said at once (publishing the network as it was back takes a while on
	 * MNIST), and again once it is published: the state it speaks of */
	char cancelled[300];
	snprintf(cancelled, sizeof cancelled, "cancelled: %s%s", what,
	         a->kind == SESS_ALG1_RUN && s->alg1 ? " (finished iterations kept)" : "");
	if (rc == 1)
		worker_status(w, 0, "%s", cancelled);
	if (a->kind == SESS_TAU && rc == 0) {
		pthread_mutex_lock(&w->mu);
		for (int i = 0; w->shown.lc && i < w->shown.m; i++)
			cond_set_tau(&w->shown.lc[i], s->tau);
		w->shown.tau = s->tau;
		pthread_mutex_unlock(&w->mu);
		worker_plane_publish(w); /* the squeeze's marks at the new τ */
	} else if (a->kind != SESS_ETA && a->kind != SESS_SCHED) {
		worker_publish(w);
	} else {
		pthread_mutex_lock(&w->mu);
		w->shown.eta = s->eta;
		w->shown.sched = s->topt.sched;
		pthread_mutex_unlock(&w->mu);
	}
	if (a->kind == SESS_SWEEP) {
		pthread_mutex_lock(&w->mu);
		w->shown.sweep_state = rc == 0 ? 2 : 3;
		pthread_mutex_unlock(&w->mu);
	}
	if (rc == 0 && (a->kind == SESS_NET || a->kind == SESS_LOAD))
		worker_forget_training(w); /* the charts are of the network shown */
	if (rc == 0 && before)
		worker_plane_step(w, before);
	else
		net_free(before);
	note_training(w, a, rc);
	if (rc == 1)
		worker_status(w, 0, "%s", cancelled);
	if (rc < 0 && (a->kind == SESS_SAVE || a->kind == SESS_LOAD)) {
		worker_status_failed(w, a->path, "%s failed: %s", session_kind_name(a->kind),
		                     e.msg);
		return rc;
	}
	if (rc < 0) {
		worker_status(w, 1, "%s failed: %s", session_kind_name(a->kind), e.msg);
		return rc;
	}
	if (rc == 1)
		return rc;
	narrate_done(w, a, alg1_before, quiet);
	if (!quiet)
		status_done(w, a);
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
	if (worker_run_action(w, &a, 1) != 0)
		return;
	worker_status(w, 0, "adopted the sweep's pick (β %g): %s with fresh weights; u undoes",
	              beta, net_shape_str(w->s->net, shape, sizeof shape));
}

static void run_job(Worker *w, Job *j)
{
	switch (j->kind) {
	case JOB_ACTION:
		worker_run_action(w, &j->a, j->quiet);
		break;
	case JOB_ADOPT:
		run_adopt(w);
		break;
	case JOB_SQZ_START:
		worker_sqz_begin(w);
		break;
	case JOB_SQZ_DECIDE:
		worker_sqz_decide(w, j->a.apply, -1);
		break;
	case JOB_SQZ_ALL:
		worker_sqz_all(w);
		break;
	case JOB_SQZ_STOP:
		worker_sqz_finish(w, "stopped");
		break;
	case JOB_SQZ_COMP:
		pthread_mutex_lock(&w->mu);
		w->shown.sq.comp = !w->shown.sq.comp;
		pthread_mutex_unlock(&w->mu);
		break;
	case JOB_EXPORT:
		/* Esc stops it too (gnuplot is ended) */
		hook_set_thread_stop(worker_stop_any, w);
		worker_export(w, j->path);
		hook_set_thread_stop(worker_stop_quit, w);
		break;
	case JOB_CAPTION:
		worker_caption(w, j->path);
		break;
	case JOB_PLAY_NEXT:
		worker_play_next(w);
		break;
	case JOB_PLAY_BACK:
		worker_play_back(w, j->target, j->proposal);
		break;
	}
}

/* A change of τ, η, the schedule or compensation: never refused, never
 * counted as busy. */
static int is_setting(const Job *j)
{
	return j->kind == JOB_SQZ_COMP ||
	       (j->kind == JOB_ACTION &&
	        (j->a.kind == SESS_TAU || j->a.kind == SESS_ETA || j->a.kind == SESS_SCHED));
}

/* Operations waiting in the queue (the lock held). */
static int count_ops(const Worker *w)
{
	int n = 0;
	for (int i = 0; i < w->qn; i++)
		n += !is_setting(&w->q[(w->qh + i) % QMAX]);
	return n;
}

static const char *job_name(const Job *j, char *buf, size_t len)
{
	static const char *const names[] = {[JOB_SQZ_START] = "the squeeze preview",
	                                    [JOB_SQZ_DECIDE] = "a squeeze decision",
	                                    [JOB_SQZ_ALL] = "the squeeze",
	                                    [JOB_SQZ_STOP] = "the end of the squeeze",
	                                    [JOB_SQZ_COMP] = "a compensation toggle",
	                                    [JOB_EXPORT] = "the export",
	                                    [JOB_ADOPT] = "adopting the sweep's pick",
	                                    [JOB_CAPTION] = "a caption",
	                                    [JOB_PLAY_NEXT] = "the lesson's next step",
	                                    [JOB_PLAY_BACK] = "stepping the lesson back"};
	if (j->kind == JOB_ACTION)
		return status_action(&j->a, buf, len);
	snprintf(buf, len, "%s", names[j->kind]);
	return buf;
}

/* The first job: κ of every layer and the test accuracy, measured here so
 * that the screen draws at once and shows how far they are. */
static void open_network(Worker *w)
{
	pthread_mutex_lock(&w->mu);
	w->shown.busy = 1;
	snprintf(w->shown.running, sizeof w->shown.running, "opening the network");
	snprintf(w->shown.activity, sizeof w->shown.activity,
	         "opening: κ and pivoted QR of every layer, then the test accuracy");
	pthread_mutex_unlock(&w->mu);
	worker_publish(w);
	pthread_mutex_lock(&w->mu);
	/* as at the end of every job: a pause asked meanwhile ends with it */
	w->shown.busy = w->shown.paused = w->shown.have_work = 0;
	w->cancel = 0;
	w->shown.activity[0] = w->shown.running[0] = '\0';
	worker_ahead_locked(w);
	pthread_mutex_unlock(&w->mu);
}

void worker_ahead_locked(Worker *w)
{
	Shown *p = &w->shown;
	p->tau_next = p->tau;
	p->eta_next = p->eta;
	for (int k = -1; k < w->qn; k++) {
		const Job *j = k < 0 ? (p->busy ? &w->cur : NULL) : &w->q[(w->qh + k) % QMAX];
		if (!j || j->kind != JOB_ACTION)
			continue;
		if (j->a.kind == SESS_TAU)
			p->tau_next = j->a.x;
		else if (j->a.kind == SESS_ETA)
			p->eta_next = j->a.x;
	}
}

/* A session log that lost a line is said once, over the job's own status. */
static void log_lost(Worker *w)
{
	if (!w->s->log_err || w->shown.log_err)
		return;
	pthread_mutex_lock(&w->mu);
	w->shown.log_err = w->s->log_err;
	pthread_mutex_unlock(&w->mu);
	worker_status_log_lost(w);
}

void worker_status_log_lost(Worker *w)
{
	pthread_mutex_lock(&w->mu);
	int err = w->shown.log_err;
	pthread_mutex_unlock(&w->mu);
	if (err)
		worker_status(w, 1,
		              "the session log %s cannot be written (%s): it ends before this "
		              "action and would not replay the session; condnet will exit with "
		              "status 1",
		              w->shown.log_path, strerror(err));
}

static void *thread_main(void *arg)
{
	Worker *w = arg;
	Job j;
	hook_set_thread_stop(worker_stop_quit, w);
	hook_set_thread_meter(worker_meter, w);
	open_network(w);
	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (!w->quit && !w->qn)
			pthread_cond_wait(&w->wake, &w->mu);
		if (w->quit)
			break;
		j = w->q[w->qh];
		w->qh = (w->qh + 1) % QMAX;
		w->qn--;
		w->cancel = 0;
		w->shown.busy = 1;
		w->cur = j;
		w->shown.queued = w->qn;
		w->shown.queued_ops = count_ops(w);
		if (!is_setting(&j))
			w->shown.gen++; /* an operation starts: the last one's words are history */
		w->shown.have_prog = 0;
		job_name(&j, w->shown.running, sizeof w->shown.running);
		w->t_job = clock_seconds();
		pthread_mutex_unlock(&w->mu);
		run_job(w, &j);
		log_lost(w);
		pthread_mutex_lock(&w->mu);
		if (!is_setting(&j) && w->shown.ops > 0)
			w->shown.ops--;
		w->shown.busy = 0;
		w->shown.paused = 0;
		w->shown.have_prog = 0;
		w->shown.have_work = 0;
		w->shown.queued = w->qn;
		w->shown.queued_ops = count_ops(w);
		w->shown.activity[0] = '\0';
		w->shown.running[0] = '\0';
		worker_ahead_locked(w);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

Worker *worker_start(Session *s, const Lesson *lesson, int applied, Err *e)
{
	Worker *w = calloc(1, sizeof *w);
	if (!w || !(w->shown.narr = calloc(NARR_MAX, sizeof *w->shown.narr))) {
		free(w);
		err_set(e, "out of memory");
		return NULL;
	}
	w->s = s;
	w->lesson = lesson;
	w->shown.play_pos = applied;
	w->hooks = worker_hooks(w);
	w->shown.sq.acc_start = w->shown.sq.acc_end = w->shown.sq.acc_retrained = NAN;
	w->shown.pick = -1;
	w->alg1_acc_prev = NAN;
	snprintf(w->shown.log_path, sizeof w->shown.log_path, "%s", s->log_path);
	w->shown.log_err = s->log_err;
	if (s->train)
		snprintf(w->shown.data, sizeof w->shown.data,
		         "%.120s: train %d, test %d, %d features, %d classes",
		         s->data_spec[0] ? s->data_spec : s->train->name, s->train->n,
		         s->test ? s->test->n : 0, s->train->d, s->train->k);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->wake, NULL);
	pthread_cond_init(&w->resume, NULL);
	/* κ and the accuracy follow from the worker thread (open_network) */
	worker_publish_settings(w);
	worker_play_caption(w, applied);
	/* signals belong to the screen's thread */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int rc = thread_start(&w->th, thread_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		err_set(e, "cannot start the worker thread");
		worker_shown_free(&w->shown);
		free(w);
		return NULL;
	}
	return w;
}

int worker_stop(Worker *w)
{
	if (!w)
		return 0;
	pthread_mutex_lock(&w->mu);
	w->quit = w->cancel = 1;
	w->qn = 0;
	w->shown.paused = 0;
	pthread_cond_broadcast(&w->wake);
	pthread_cond_broadcast(&w->resume);
	pthread_mutex_unlock(&w->mu);
	/* a worker that does not stop in time (stuck in a call that ignores its
	 * stop) is left: the screen still ends, and the process with it, the
	 * temporary file of a save under way removed (base/offload.h) */
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += WORKER_STOP_SECONDS;
	if (pthread_timedjoin_np(w->th, NULL, &until) != 0) {
		signals_discard_saves();
		offload_note_left();
		return -1;
	}
	net_free(w->plane_before);
	int log_err = w->s ? w->s->log_err : 0;
	session_free(w->s);
	worker_shown_free(&w->shown);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->wake);
	pthread_cond_destroy(&w->resume);
	free(w);
	return log_err;
}

/* The value of setting k before the queued job at index `before` (an
 * offset from the head) applies. */
static double value_before(const Worker *w, SessKind k, int before)
{
	double v = k == SESS_TAU ? w->shown.tau : w->shown.eta;
	/* a change taken off the queue but not yet published */
	if (w->shown.busy && w->cur.kind == JOB_ACTION && w->cur.a.kind == k)
		v = w->cur.a.x;
	for (int i = 0; i < before; i++) {
		const Job *q = &w->q[(w->qh + i) % QMAX];
		if (q->kind == JOB_ACTION && q->a.kind == k)
			v = q->a.x;
	}
	return v;
}

/* 1 when j replaced or cancelled the setting of its kind at the queue's
 * tail (the lock held). */
static int coalesce(Worker *w, const Job *j)
{
	Job *last = w->qn ? &w->q[(w->qh + w->qn - 1) % QMAX] : NULL;
	if (last && last->kind == JOB_PLAY_BACK && j->kind == JOB_PLAY_BACK) {
		*last = *j; /* the lesson goes back to the later target at once */
		return 1;
	}
	if (!w->qn || j->kind != JOB_ACTION ||
	    (j->a.kind != SESS_TAU && j->a.kind != SESS_ETA && j->a.kind != SESS_SCHED))
		return 0;
	Job *tail = &w->q[(w->qh + w->qn - 1) % QMAX];
	if (tail->kind != JOB_ACTION || tail->a.kind != j->a.kind)
		return 0;
	if (j->a.kind != SESS_SCHED) {
		double was = value_before(w, j->a.kind, w->qn - 1);
		if (fabs(j->a.x - was) <= 1e-12 * fabs(was)) {
			w->qn--; /* back where it was: nothing to do */
			return 1;
		}
	}
	*tail = *j;
	return 1;
}

int worker_submit(Worker *w, const Job *j)
{
	pthread_mutex_lock(&w->mu);
	int ok = 1;
	if (!coalesce(w, j)) {
		ok = w->qn < QMAX;
		if (ok) {
			w->q[(w->qh + w->qn) % QMAX] = *j;
			w->qn++;
			w->shown.ops += !is_setting(j);
			pthread_cond_signal(&w->wake);
		}
	}
	w->shown.queued = w->qn;
	w->shown.queued_ops = count_ops(w);
	worker_ahead_locked(w);
	pthread_mutex_unlock(&w->mu);
	return ok ? 0 : -1;
}

int worker_toggle_pause(Worker *w)
{
	int r = -1;
	pthread_mutex_lock(&w->mu);
	if (w->shown.busy || w->qn) {
		r = w->shown.paused = !w->shown.paused;
		pthread_cond_broadcast(&w->resume);
	}
	pthread_mutex_unlock(&w->mu);
	return r;
}

void worker_cancel(Worker *w)
{
	pthread_mutex_lock(&w->mu);
	if (w->shown.busy)
		w->cancel = 1;
	pthread_cond_broadcast(&w->resume);
	pthread_mutex_unlock(&w->mu);
}

const Shown *worker_lock(Worker *w)
{
	pthread_mutex_lock(&w->mu);
	return &w->shown;
}

void worker_unlock(Worker *w)
{
	pthread_mutex_unlock(&w->mu);
}

/* Columns a UTF-8 text takes (one a character). */
static size_t columns(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* Where path, or a directory of it, starts in text at or after t: the
 * length of the longest start of path found there (0: none of at least
 * min bytes), *at its place. */
static size_t next_path(const char *t, const char *path, size_t min, const char **at)
{
	for (; *t; t++) {
		size_t k = 0;
		while (t[k] && t[k] == path[k])
			k++;
		if (k >= min) {
			*at = t;
			return k;
		}
	}
	return 0;
}

/* text with each stretch that is path or one of its directories shortened
 * from the left to "…" and its last bytes, so that it takes at most fit
 * columns if it can (each keeps 16 bytes at least), into out. */
static void shorten_paths(const char *text, const char *path, size_t fit, char *out, size_t len)
{
	enum { KEEP = 16, MIN = 24, MAXN = 16 };
	size_t n = 0, cols = columns(text, strlen(text)), k, lens[MAXN], maxk = 0;
	const char *t = text, *at;
	while (n < MAXN && (k = next_path(t, path, MIN, &at))) {
		lens[n++] = k, t = at + k;
		maxk = k > maxk ? k : maxk;
	}
	/* the least cut of each stretch that brings the text to fit columns
	 * (a stretch keeps KEEP bytes, and "…" takes a column) */
	size_t cut = 0, o = 0;
	while (cols > fit && cut < maxk) {
		size_t saved = 0;
		cut++;
		for (size_t i = 0; i < n; i++) {
			size_t keep = lens[i] > cut + KEEP ? lens[i] - cut : KEEP;
			saved += lens[i] > keep + 1 ? lens[i] - keep - 1 : 0;
		}
		if (cols - fit <= saved)
			break;
	}
	for (t = text; o < len && (k = next_path(t, path, MIN, &at)); t = at + k) {
		size_t keep = k > cut + KEEP ? k - cut : KEEP;
		const char *tail = at + k - keep;
		while (((unsigned char)*tail & 0xc0) == 0x80 && tail > at)
			tail--;     /* the start of a character */
		if (tail <= at + 1) /* nothing to gain */
			o += (size_t)snprintf(out + o, len - o, "%.*s", (int)(at + k - t), t);
		else
			o += (size_t)snprintf(out + o, len - o, "%.*s…%.*s", (int)(at - t), t,
			                      (int)(at + k - tail), tail);
	}
	if (o < len)
		snprintf(out + o, len - o, "%s", t);
}

void worker_status_failed(Worker *w, const char *path, const char *fmt, ...)
{
	char text[NARR_LEN], shown[sizeof w->shown.status];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	worker_narrate(w, "%s", text);
	if (!path || columns(text, strlen(text)) <= STATUS_FIT) {
		worker_status(w, 1, "%s", text);
		return;
	}
	shorten_paths(text, path, STATUS_FIT, shown, sizeof shown);
	worker_status(w, 1, "%s", shown);
}

void worker_status(Worker *w, int err, const char *fmt, ...)
{
	va_list ap;
	pthread_mutex_lock(&w->mu);
	va_start(ap, fmt);
	vsnprintf(w->shown.status, sizeof w->shown.status, fmt, ap);
	va_end(ap);
	w->shown.status_err = err;
	w->shown.status_gen = w->shown.gen;
	w->shown.status_opening = 0;
	pthread_mutex_unlock(&w->mu);
}

void worker_status_opening(Worker *w, const char *note)
{
	worker_status(w, 0, "%s", note);
	pthread_mutex_lock(&w->mu);
	w->shown.status_opening = 1;
	pthread_mutex_unlock(&w->mu);
}

void worker_status_clear(Worker *w)
{
	pthread_mutex_lock(&w->mu);
	w->shown.status[0] = '\0';
	w->shown.status_err = 0;
	pthread_mutex_unlock(&w->mu);
}
