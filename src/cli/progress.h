/* progress.h - training progress for the batch commands, and the signals
 * that stop a run cleanly.
 *
 * On a terminal (stderr is a tty) one line is redrawn in place, at most ten
 * times a second: a bar over the batches of the current training call, the
 * epoch, the batch, the running loss and accuracy, the learning rate and the
 * elapsed time.
 * Elsewhere one line is written per finished epoch. */
#ifndef CONDNET_PROGRESS_H
#define CONDNET_PROGRESS_H

#include <stdio.h>

#include "engine/hook.h"
#include "engine/train.h"

typedef enum ProgressMode {
	PROGRESS_OFF = 0, /* --quiet */
	PROGRESS_LINE,    /* a redrawn line on a terminal */
	PROGRESS_EPOCHS   /* one line per epoch end */
} ProgressMode;

typedef struct Progress {
	FILE *f;        /* stderr */
	char label[64]; /* "condnet train" */
	char what[64];  /* what is training now ("iteration 3"), may be empty */
	ProgressMode mode;
	double last_draw; /* monotonic seconds of the last redraw */
	double started;   /* monotonic seconds of progress_init */
	int shown;        /* a redrawn line is on the terminal */
	char work[128];   /* what the conditioning computes now (the meter) */
	double work_t0;   /* when it began */
} Progress;

/* Chooses the mode from quiet and isatty(stderr). A command that prints its
 * own per-epoch lines passes epoch_lines = 0, so that nothing is written
 * away from a terminal. On a terminal the calling thread's meter
 * (hook_set_thread_meter) draws on the same line: what the conditioning of
 * a large layer computes, a bar over its share and its time, at most ten
 * times a second; p must live as long as that thread computes. */
void progress_init(Progress *p, const char *label, int quiet, int epoch_lines);
/* Names what trains next ("β 1.4 trial 2"), shown before the numbers. */
void progress_what(Progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The TrainCallback; ud is a Progress. Returns 1 (stop) once a signal came. */
int progress_train_cb(const TrainProgress *tp, void *ud);
/* Work over rows (an evaluation): on a terminal the redrawn line "[bar]
 * what  done/total rows  seconds", at most ten times a second and at the
 * last row; elsewhere nothing. Returns 1 (stop) once a signal came. */
int progress_rows(Progress *p, long done, long total);
/* Erases the redrawn line, before other output. */
void progress_clear(Progress *p);

/* The Hook a batch command hands the engine: training progress drawn on p,
 * a signal stops the work, and each finished step goes to step (may be
 * NULL), called with p as its ud. */
Hook progress_hook(Progress *p, void (*step)(const HookStep *s, void *ud));
/* A step function for progress_hook: the step's line on stderr, for
 * HOOK_NOTE steps only. */
void progress_notes(const HookStep *s, void *ud);
/* SIGHUP, SIGINT, SIGQUIT and SIGTERM set a flag instead of ending the
 * process; a second one ends it the default way, after any save under way
 * (signals_trap_stop, base/signals.h). The flag is the calling thread's
 * stop too (hook_set_thread_stop), so that work handed no Hook, the
 * conditioning of a large layer, stops within one of its blocks. */
void progress_trap_signals(void);
/* The signal that arrived (SIGHUP, SIGINT, SIGQUIT, SIGTERM) or 0. */
int progress_interrupted(void);

#endif
