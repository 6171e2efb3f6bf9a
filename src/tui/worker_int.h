/* tui/worker_int.h - what the worker's files share: the Worker itself, the
 * publishing of its state (worker_shown.c), the squeeze pass (worker_squeeze.c),
 * lessons (worker_play.c) and exports (export.c). Only the worker thread
 * runs these; the mutex guards shown. */
#ifndef CONDNET_TUI_WORKER_INT_H
#define CONDNET_TUI_WORKER_INT_H

#include <pthread.h>

#include "alg/alg3_squeeze.h"
#include "tui/worker.h"

#define QMAX 64

struct Worker {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t wake, resume;
	Session *s;
	const Lesson *lesson;
	Job q[QMAX];
	int qh, qn, quit, cancel;
	Job cur;     /* the job running, taken off the queue */
	int has_cur; /* 1 while it runs */
	Shown shown;
	/* worker thread only */
	double last_cond, cond_cost, last_sample, sample_epoch, t_job;
	const Net *sampled;   /* the network the κ series belongs to */
	double acc_before;    /* test accuracy before the running job */
	double alg1_acc_prev; /* of the network before the Algorithm-1 iteration under way */
	int sweep_trials;     /* trials reported in the sweep under way */
	Hook hooks;
	int export_csv;
};

/* 1 when the screen is ending (worker_stop): nothing is published any more. */
int worker_quitting(Worker *w);
/* Predicates for cond_set_stop: the screen is ending; or the job under way
 * is cancelled too. */
int worker_stop_quit(void *w);
int worker_stop_any(void *w);

/* Everything the panels show, after a job. */
void worker_publish(Worker *w);
/* The conditioning of net as the layer table (live: while it trains). */
void worker_shown_cond(Worker *w, const Net *net, int live);
/* The hooks the engine reports to (progress, step, cancelled). */
Hook worker_hooks(Worker *w);
/* Forgets the κ series; the next training starts a new one named what. */
void worker_series_reset(Worker *w, const char *what, double epochs);
/* Runs a session action with the screen's hooks and narrates the outcome
 * (quiet: leave the status line alone unless it fails); returns
 * session_apply's result. */
int worker_run_action(Worker *w, const SessAction *a, int quiet);
/* Frees what Shown holds (the lock is not taken). */
void worker_shown_free(Shown *p);

/* The squeeze pass (the session holds it): begin it and show the first
 * proposal; show the proposal the session holds, with its preview, or end
 * the pass when none is left; end it (how: "finished", "stopped"); apply
 * (1) or refuse (0) the proposal shown with compensation comp (-1: as the
 * screen's toggle says), then show the next (0, or -1 when there was none
 * or it failed). */
void worker_sqz_begin(Worker *w);
void worker_sqz_show(Worker *w);
void worker_sqz_finish(Worker *w, const char *how);
int worker_sqz_decide(Worker *w, int apply, int comp);
/* The pass begun at a given hidden layer's proposal (layer 0: the first
 * with something to remove, as worker_sqz_begin), and a decision that shows
 * the next proposal only when show is set (a lesson shows only those it
 * decides). */
void worker_sqz_begin_at(Worker *w, int layer);
int worker_sqz_decide_as(Worker *w, int apply, int comp, int show);

/* Lessons: the caption before action pos into the narration, the next
 * action, one back, a caption written to the log. */
void worker_play_caption(Worker *w, int pos);
void worker_play_next(Worker *w);
void worker_play_back(Worker *w, int target);
void worker_caption(Worker *w, const char *text);

/* The tables (CSV or Markdown by path's extension) and, beside them, every
 * plot's data and a gnuplot script (run when gnuplot is installed). */
void worker_export(Worker *w, const char *path);

#endif
