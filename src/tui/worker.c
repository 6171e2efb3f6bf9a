/* tui/worker.c - the background engine thread behind the screen: its queue
 * and its jobs (an action's run is worker_action.c's). */
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
#include "session/session_setting.h"
#include "tui/status.h"

static void run_job(Worker *w, Job *j)
{
	switch (j->kind) {
	case JOB_ACTION:
		worker_run_action(w, &j->a, j->quiet);
		break;
	case JOB_ADOPT:
		worker_adopt(w);
		break;
	case JOB_SQZ_START:
		worker_sqz_begin(w);
		break;
	case JOB_SQZ_DECIDE:
		if (worker_sqz_answers(w, j->target))
			worker_sqz_decide(w, j->apply, -1);
		break;
	case JOB_SQZ_ALL:
		if (worker_sqz_answers(w, j->target))
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
		worker_export(w, j->path, j->target, j->apply);
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

/* A change of a setting (session_setting.h) or of compensation: never
 * refused, never counted as busy. */
static int is_setting(const Job *j)
{
	return j->kind == JOB_SQZ_COMP || (j->kind == JOB_ACTION && j->a.kind == SESS_SET);
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
		worker_files_sync(w); /* what the job read and wrote */
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
	w->back_want = -1;
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
	worker_files_sync(w); /* what the session has read and written so far */
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

/* Whether j sets the setting id. */
static int sets(const Job *j, int id)
{
	return j->kind == JOB_ACTION && j->a.kind == SESS_SET && j->a.set.id == id;
}

/* The value of the number id before the queued job at index `before` (an
 * offset from the head) applies. */
static double value_before(const Worker *w, int id, int before)
{
	double v = w->shown.set[id];
	/* a change taken off the queue but not yet published */
	if (w->shown.busy && sets(&w->cur, id))
		v = w->cur.a.set.value;
	for (int i = 0; i < before; i++) {
		const Job *q = &w->q[(w->qh + i) % QMAX];
		if (sets(q, id))
			v = q->a.set.value;
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
	const SessSetting *t = session_setting_of(&j->a);
	if (!w->qn || j->kind != JOB_ACTION || !t)
		return 0;
	Job *tail = &w->q[(w->qh + w->qn - 1) % QMAX];
	if (!sets(tail, j->a.set.id))
		return 0;
	if (t->type == SET_NUMBER) {
		double was = value_before(w, j->a.set.id, w->qn - 1);
		if (fabs(j->a.set.value - was) <= 1e-12 * fabs(was)) {
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
