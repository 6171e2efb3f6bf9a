/* tui/worker_play.c - a lesson on the worker: its next action (a squeeze's
 * proposal shown before the decision), one action back (the lesson replayed
 * from its start, which gives exactly the state it had), and captions
 * recorded into the session log. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "tui/worker.h"
#include "tui/worker_int.h"

void worker_caption(Worker *w, const char *text)
{
	session_log_caption(w->s, text);
	worker_narrate(w, "caption: %s", text);
	if (w->s->log)
		worker_status(w, 0, "caption recorded in %s", w->s->log_path);
	else
		worker_status(w, 1, "no session log is open: the caption is not recorded");
}

void worker_play_caption(Worker *w, int pos)
{
	const char *c = w->lesson && pos <= w->lesson->n ? w->lesson->caption[pos] : NULL;
	char line[NARR_LEN];
	if (!c)
		return;
	snprintf(line, sizeof line, "%s", c);
	for (char *k = line; *k; k++)
		if (*k == '\n')
			*k = ' ';
	/* the caption panel shows it; the log keeps it between the accounts */
	worker_narrate_kind(w, NARR_CAPTION, "lesson: %s", line);
}

static void set_pos(Worker *w, int pos)
{
	pthread_mutex_lock(&w->mu);
	w->shown.play_pos = pos;
	pthread_mutex_unlock(&w->mu);
	worker_play_caption(w, pos);
}

/* 1 when the lesson's action at pos decides the proposal the session holds. */
static int decides_proposal(Worker *w, int pos)
{
	const Lesson *l = w->lesson;
	const Alg3Proposal *sp = session_squeeze_proposal(w->s);
	return pos < l->n && l->a[pos].kind == SESS_SQUEEZE && sp && sp->layer == l->a[pos].layer;
}

/* The lesson's squeeze action at pos: its proposal first (with the
 * lesson's compensation shown), the decision on the next step; after it,
 * the next proposal only when the lesson decides that one too. */
static void play_squeeze(Worker *w, int pos)
{
	const SessAction *a = &w->lesson->a[pos];
	pthread_mutex_lock(&w->mu);
	w->shown.sq.comp = a->comp;
	pthread_mutex_unlock(&w->mu);
	if (!decides_proposal(w, pos)) {
		worker_sqz_begin_at(w, a->layer);
		return;
	}
	if (worker_sqz_decide_as(w, a->apply, a->comp, 0) == 0)
		set_pos(w, pos + 1);
	if (decides_proposal(w, pos + 1)) {
		pthread_mutex_lock(&w->mu);
		w->shown.sq.comp = w->lesson->a[pos + 1].comp;
		pthread_mutex_unlock(&w->mu);
		worker_sqz_show(w);
	} else {
		worker_sqz_finish(w, "finished");
	}
}

void worker_play_next(Worker *w)
{
	const Lesson *l = w->lesson;
	int pos = w->shown.play_pos;
	if (!l || pos >= l->n)
		return; /* the status line says the lesson has ended */
	const SessAction *a = &l->a[pos];
	if (a->kind == SESS_SQUEEZE) {
		play_squeeze(w, pos);
		return;
	}
	if (worker_run_action(w, a, 0) == 0)
		set_pos(w, pos + 1);
}

/* What the replay of a step back says it does, as the activity; the
 * narration of the steps replayed is not repeated. */
static void replay_note(const HookStep *st, void *ud)
{
	Worker *w = ud;
	if (st->kind != HOOK_NOTE)
		return;
	pthread_mutex_lock(&w->mu);
	snprintf(w->shown.activity, sizeof w->shown.activity, "stepping back: %.130s", st->text);
	pthread_mutex_unlock(&w->mu);
}

void worker_play_back(Worker *w, int target)
{
	const Lesson *l = w->lesson;
	int done = 0;
	/* any place from the setup on: a step back that gave way to a later one
	 * may have stopped short of it */
	if (!l || target < l->setup) {
		worker_status(w, 1, "at the start of the lesson: nothing to step back over");
		return;
	}
	Session *s = w->s;
	Err e = {{0}};
	Hook quiet = {w->hooks.progress, replay_note, w->hooks.cancelled, w};
	worker_sqz_finish(w, "stopped");
	/* the lesson from its first action after the data (which the rewind keeps) */
	int rc = session_replay_actions(s, l->a + 1, target - 1, &quiet, &done, &e);
	int k = 1 + done;
	pthread_mutex_lock(&w->mu);
	w->shown.play_pos = k;
	w->shown.sq.active = w->shown.sq.waiting = w->shown.sq.ndone = w->shown.sq.ndec = 0;
	w->shown.sq.acc_start = w->shown.sq.acc_end = w->shown.sq.acc_retrained = NAN;
	pthread_mutex_unlock(&w->mu);
	worker_publish(w);
	if (rc < 0)
		worker_status(w, 1, "stepping back failed at action %d: %s", k + 1, e.msg);
	else if (rc == 1)
		worker_status(w, 0, "stepping back cancelled: the lesson is at action %d of %d",
		              k - l->setup, l->n - l->setup);
	else
		worker_status(w, 0, "stepped back: the lesson is at action %d of %d", k - l->setup,
		              l->n - l->setup);
	worker_narrate(w, "lesson: back to action %d of %d (replayed from the start)", k - l->setup,
	               l->n - l->setup);
}
