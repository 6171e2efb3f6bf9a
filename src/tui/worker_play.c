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
	pthread_mutex_lock(&w->mu);
	int back = w->shown.replaying;
	pthread_mutex_unlock(&w->mu);
	if (back)
		return; /* a step back shows the caption it goes to from its start */
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

/* 1 when the lesson's action at pos decides the proposal shown. */
static int decides_proposal(Worker *w, int pos)
{
	const Lesson *l = w->lesson;
	const Alg3Proposal *sp = session_squeeze_proposal(w->s);
	return pos < l->n && l->a[pos].kind == SESS_SQUEEZE && sp &&
	       sp->layer == l->a[pos].squeeze.layer && w->shown.sq.waiting;
}

/* How a lesson's squeeze pass ends: finished when no hidden layer has
 * κ > τ any more, else the lesson's own end, naming what is left. */
static void end_pass(Worker *w)
{
	char left[200] = "", how[300];
	size_t k = 0;
	int n = 0;
	pthread_mutex_lock(&w->mu);
	const Shown *p = &w->shown;
	for (int i = 0; p->lc && i < p->m - 1; i++)
		if (cond_over(p->lc[i].kappa, p->tau) && k + 8 < sizeof left) {
			k += (size_t)snprintf(left + k, sizeof left - k, "%s%d", n ? ", " : "",
			                      i + 1);
			n++;
		}
	pthread_mutex_unlock(&w->mu);
	if (!n)
		snprintf(how, sizeof how, "finished");
	else
		snprintf(how, sizeof how,
		         "ended by the lesson (κ > τ still in layer%s %s, which z would squeeze "
		         "next)",
		         n > 1 ? "s" : "", left);
	worker_sqz_finish(w, how);
}

/* The lesson's squeeze action at pos: its proposal first (a screen of its
 * own, with the lesson's compensation shown), the decision on the next
 * step, which shows what it did; the pass goes on while the next action
 * squeezes too. */
static void play_squeeze(Worker *w, int pos)
{
	const Lesson *l = w->lesson;
	const SessSqueezeArgs *a = &l->a[pos].squeeze;
	pthread_mutex_lock(&w->mu);
	w->shown.sq.comp = a->comp;
	pthread_mutex_unlock(&w->mu);
	if (!decides_proposal(w, pos)) {
		worker_sqz_begin_at(w, a->layer);
		return;
	}
	if (worker_sqz_decide_as(w, a->apply, a->comp, 0) == 0)
		set_pos(w, pos + 1);
	pthread_mutex_lock(&w->mu);
	w->shown.sq.waiting = 0;
	pthread_mutex_unlock(&w->mu);
	if (pos + 1 >= l->n || l->a[pos + 1].kind != SESS_SQUEEZE)
		end_pass(w);
}

void worker_play_next(Worker *w)
{
	const Lesson *l = w->lesson;
	int pos = w->shown.play_pos;
	if (!l || pos >= l->n)
		return; /* the status line says the lesson has ended */
	const SessAction *a = &l->a[pos];
	if (a->kind == SESS_SQUEEZE && a->squeeze.group) {
		/* a graph network's group: decided as a replay decides it, without
		 * a proposal shown first */
		if (worker_run_action(w, a, 0) == 0)
			set_pos(w, pos + 1);
		return;
	}
	if (a->kind == SESS_SQUEEZE) {
		play_squeeze(w, pos);
		return;
	}
	if (worker_run_action(w, a, 0) == 0)
		set_pos(w, pos + 1);
}

void worker_play_note(Worker *w, const char *note)
{
	snprintf(w->note, sizeof w->note, "%s", note);
	worker_narrate(w, "%s", note);
}

/* What the lesson's start showed of the operations before it: nothing. */
static void forget_history(Worker *w)
{
	net_free(w->plane_before);
	w->plane_before = NULL;
	w->plane_step = 0;
	worker_forget_training(w);
	pthread_mutex_lock(&w->mu);
	Shown *p = &w->shown;
	ShownSqueeze *q = &p->sq;
	q->active = q->waiting = q->comp = q->ndone = q->ndec = q->removed = q->undone = 0;
	q->acc_start = q->acc_end = q->acc_retrained = NAN;
	p->pl.pn.n = 0;
	pthread_mutex_unlock(&w->mu);
}

/* The screen the lesson shows: after play_pos actions, or with the
 * proposal of the squeeze at play_pos. */
static int screen_index(Worker *w)
{
	return 2 * w->shown.play_pos + (w->shown.sq.waiting ? 1 : 0);
}

void worker_play_retarget(Worker *w, int screen)
{
	pthread_mutex_lock(&w->mu);
	w->back_want = screen;
	pthread_mutex_unlock(&w->mu);
}

/* How far a step back to screen want is: the actions replayed so far of
 * those it replays, as the activity (the status line and the view say it
 * while it runs). */
static void back_progress(Worker *w, int want, int done, const char *what)
{
	const Lesson *l = w->lesson;
	int total = want / 2 - l->setup + (want % 2);
	pthread_mutex_lock(&w->mu);
	snprintf(w->shown.activity, sizeof w->shown.activity, "%d of %d actions replayed%s%.100s",
	         done < total ? done : total, total, what ? ": " : "", what ? what : "");
	pthread_mutex_unlock(&w->mu);
}

/* The screen a step back goes to: the keys' (a → meanwhile moved it on),
 * else the job's. */
static int back_want(Worker *w, int job)
{
	pthread_mutex_lock(&w->mu);
	int want = w->back_want >= 0 ? w->back_want : job;
	pthread_mutex_unlock(&w->mu);
	return want;
}

/* What the replay of the setup says it does, beside where it goes. */
static void replay_note(const HookStep *st, void *ud)
{
	Worker *w = ud;
	if (st->kind == HOOK_NOTE)
		back_progress(w, back_want(w, 0), 0, st->text);
}

void worker_play_back(Worker *w, int target, int proposal)
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
	int want = back_want(w, 2 * target + (proposal ? 1 : 0));
	pthread_mutex_lock(&w->mu);
	w->shown.replaying = 1;
	pthread_mutex_unlock(&w->mu);
	back_progress(w, want, 0, "the lesson from its start");
	worker_sqz_finish(w, "stopped");
	/* the lesson's start as the screen opened on it, then every step →
	 * took from there, each as → took it: the same screens */
	int rc = session_replay_actions(s, l->a + 1, l->setup - 1, &quiet, &done, &e);
	forget_history(w);
	pthread_mutex_lock(&w->mu);
	w->shown.play_pos = rc == 0 ? l->setup : 1 + done;
	pthread_mutex_unlock(&w->mu);
	if (rc == 0) {
		worker_publish(w);
		if (w->note[0])
			worker_narrate(w, "%s", w->note);
	}
	while (rc == 0 && screen_index(w) < (want = back_want(w, want)) && !worker_stop_any(w)) {
		int was = screen_index(w);
		back_progress(w, want, was / 2 - l->setup, NULL);
		worker_play_next(w);
		if (screen_index(w) == was)
			break; /* a step that failed or was stopped */
	}
	pthread_mutex_lock(&w->mu);
	w->shown.replaying = 0;
	int k = w->shown.play_pos, at = screen_index(w);
	pthread_mutex_unlock(&w->mu);
	worker_play_caption(w, k);
	if (rc < 0)
		worker_status(w, 1, "stepping back failed at action %d: %s", done + 2, e.msg);
	else if (rc == 1 || at != want)
		worker_status(w, 0, "stepping back stopped: the lesson is at action %d of %d",
		              k - l->setup, l->n - l->setup);
	worker_narrate_kind(w, NARR_QUIET,
	                    "lesson: back to action %d of %d%s (replayed from the start)",
	                    k - l->setup, l->n - l->setup, at % 2 ? ", its proposal" : "");
}
