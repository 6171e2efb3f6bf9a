/* schedule.h - learning-rate schedules: the rate of every Adam step of a
 * training run, as a function of how far the run has come.
 *
 * A run has b batches per epoch; s is the number of batches it has run so
 * far (the step about to be taken is its (s+1)-th); lr is the base rate
 * (--lr). An optional warm-up of W epochs takes w = ⌈W·b⌉ batches, and
 * e = max(0, s − w)/b counts the epochs since it ended. The rate is
 *     lr · u(s) · g(e)
 * with the warm-up factor u(s) = (s + 1)/w for s < w, else 1, and g by kind:
 *     constant   g = 1
 *     step       g = F^⌊e/E⌋                        (× F every E epochs)
 *     cosine     g = (1 + cos(π·min(e, L)/L))/2,   L = T − w/b
 *                (from 1 at the end of the warm-up to 0 at epoch T of the run)
 *     plateau    g = F^r, r the reductions so far: at the end of every whole
 *                epoch after the warm-up the trainer's caller reports the
 *                validation loss v (sched_observe); v < best·(1 − 10⁻⁴)
 *                is an improvement (best ← v), otherwise one more epoch
 *                without one, and after P of them r grows by one.
 *
 * The schedule of the run under way and where it is (SchedState) belong to
 * the network (net.h) and are saved with it (model_io.h), so a run that is
 * saved, loaded and continued takes the very steps of an uninterrupted one.
 * A zero SchedState is a run that has not started. */
#ifndef CONDNET_SCHEDULE_H
#define CONDNET_SCHEDULE_H

#include <stddef.h>

#include "base/err.h"

typedef enum SchedKind {
	SCHED_CONSTANT = 0,
	SCHED_STEP,
	SCHED_COSINE,
	SCHED_PLATEAU,
	SCHED_KIND_COUNT
} SchedKind;

typedef struct LrSchedule {
	SchedKind kind;
	double every;  /* step: E, epochs between decays (> 0) */
	double factor; /* step, plateau: F, the multiplier, 0 < F ≤ 1 */
	double period; /* cosine: T, the run's length in epochs; 0 = the length of
	                * the training that starts it (sched_resolve) */
	int patience;  /* plateau: P epochs without improvement before a reduction */
	double warmup; /* W, epochs of linear warm-up (0: none) */
} LrSchedule;

typedef struct SchedState {
	long step;      /* batches run under the schedule */
	int reductions; /* plateau: r */
	int bad;        /* plateau: epochs since the last improvement or reduction */
	int has_best;   /* plateau: 1 once a validation loss was reported */
	double best;    /* plateau: the least validation loss reported */
} SchedState;

/* The constant schedule (what a zeroed LrSchedule is). */
void sched_default(LrSchedule *s);

/* Parses "constant", "step:E:F", "cosine", "cosine:T" or "plateau:P:F"
 * into s (its warm-up left as it was). -1 with a message saying what was
 * expected. */
int sched_parse(const char *spec, LrSchedule *s, Err *e);
/* The spec of s (without the warm-up) in the form sched_parse reads, with
 * every number exact ("step:10:0.5"); returns buf. */
const char *sched_format(const LrSchedule *s, char *buf, size_t len);
/* The training settings in one line, as the screen shows them: the base
 * rate, the spec, the warm-up when there is one and the early-stopping
 * patience when it is > 0 ("lr 0.001 cosine:30 warm 1 stop 5"); returns
 * buf. */
const char *sched_settings(double lr, const LrSchedule *s, int patience, char *buf, size_t len);
/* -1 when a field is out of the ranges above (message names it). */
int sched_check(const LrSchedule *s, Err *e);
/* 1 when a and b are the same schedule (every field equal). */
int sched_equal(const LrSchedule *a, const LrSchedule *b);

/* A cosine schedule of period 0 gets period `epochs`; others are left as
 * they are. */
void sched_resolve(LrSchedule *s, double epochs);
/* -1 when s cannot run with bpe batches per epoch: a cosine whose period
 * is 0 (unresolved) or ends before its warm-up does. */
int sched_ready(const LrSchedule *s, long bpe, Err *e);

/* The rate of the next step: lr·u(s)·g(e) above, at st->step. */
double sched_lr(const LrSchedule *s, const SchedState *st, long bpe, double lr);
/* The multiplier u·g alone. */
double sched_factor(const LrSchedule *s, const SchedState *st, long bpe);
/* The end of a whole epoch with validation loss v (NaN counts as no
 * improvement): the plateau rule above. Nothing for the other kinds, and
 * nothing during the warm-up. */
void sched_observe(const LrSchedule *s, SchedState *st, long bpe, double v);

#endif
