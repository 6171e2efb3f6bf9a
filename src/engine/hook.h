/* hook.h - how a stepped engine operation reports to whoever drives it.
 *
 * Every stepped operation (a training, one Algorithm-1 iteration, one β
 * trial, one layer of a squeeze, a stage of the paper's experiments) takes a
 * `const Hook *` (NULL for none). The engine calls
 *   - progress() while it trains, after every batch or every few: the
 *     numbers of the training under way; non-zero asks it to stop;
 *   - step() when a step is done, with what it was and one line saying what
 *     happened, in the paper's terms, for people;
 *   - cancelled() between steps; non-zero asks the operation to stop.
 * A stopped operation leaves its state as before the step it stopped in.
 * Any member may be NULL. */
#ifndef CONDNET_HOOK_H
#define CONDNET_HOOK_H

#include "engine/train.h"

struct Alg1;
struct Alg2;
struct Alg2Trial;
struct Alg3;
struct TrainEpoch;
struct TrainResult;

typedef enum HookKind {
	HOOK_NOTE = 0,   /* a line of news (a paper stage started, resumed, …) */
	HOOK_TRAINED,    /* a training (train_plan_fit) finished: result */
	HOOK_ALG1_ITER,  /* an Algorithm-1 iteration is done: alg1 */
	HOOK_ALG2_TRIAL, /* an Algorithm-2 trial is done: alg2, trial */
	HOOK_ALG3_LAYER, /* a squeeze decision was made (applied or refused): alg3 */
	HOOK_EPOCH       /* an epoch of a training (train_plan_fit) ended: epoch, with its
	                  * learning rate and validation loss and accuracy */
} HookKind;

typedef struct HookStep {
	HookKind kind;
	const char *text; /* one line for people (no newline, under 2048 bytes), never NULL */
	const struct Alg1 *alg1;
	const struct Alg2 *alg2;
	const struct Alg2Trial *trial;
	const struct Alg3 *alg3; /* HOOK_ALG3_LAYER: its proposal (prop) is the one decided */
	int applied;             /* HOOK_ALG3_LAYER: 1 applied, 0 refused */
	const struct TrainEpoch *epoch;   /* HOOK_EPOCH (train_plan.h) */
	const struct TrainResult *result; /* HOOK_TRAINED (train_plan.h) */
} HookStep;

typedef struct Hook {
	int (*progress)(const TrainProgress *p, void *ud);
	void (*step)(const HookStep *s, void *ud);
	int (*cancelled)(void *ud);
	void *ud;
} Hook;

/* The TrainCallback that forwards to a hook: pass hook_train and the Hook
 * as the callback and its data of train_epochs or trainer_set_callback.
 * Returns non-zero when progress() or cancelled() says stop. */
int hook_train(const TrainProgress *p, void *hook);
/* 1 when the hook says the operation should stop (h may be NULL). */
int hook_cancelled(const Hook *h);
/* Reports a step; text is formatted like printf. */
void hook_step(const Hook *h, HookStep s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A HOOK_NOTE line. */
void hook_note(const Hook *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A stop for work that is handed no Hook (κ of every layer, evaluations,
 * the screen's squeeze preview): a predicate set for the calling thread,
 * which that work asks between its pieces (a layer's decomposition, a slice
 * of rows) and then fails with "stopped". NULL (the default) for none. For a
 * screen whose work must answer a stop within a piece, whatever the
 * network's size. */
void hook_set_thread_stop(int (*stop)(void *ud), void *ud);
/* The calling thread's predicate and its data (for work spread over threads). */
void hook_thread_stop_get(int (**stop)(void *ud), void **ud);
/* 1 when the calling thread's predicate says stop. */
int hook_thread_stopped(void);

/* How far work that is handed no Hook has come (the conditioning of a large
 * layer, a squeeze's κ loop): the calling thread's meter, called with a line
 * saying what is computed ("κ and pivoted QR of 3 layers") and the share of
 * it done, 0..1, whenever the work has news (between the blocks of a
 * decomposition: a meter that draws keeps its own pace). NULL (the default)
 * for none. Work spread over threads calls its caller's meter from them,
 * one call at a time. */
typedef void (*HookMeter)(const char *what, double frac, void *ud);
void hook_set_thread_meter(HookMeter fn, void *ud);
void hook_thread_meter_get(HookMeter *fn, void **ud);

/* The part of the whole that the calling thread's next reports are about:
 * hook_meter_part(what, f0, f1) maps the shares hook_meter reports to
 * [f0, f1] of the part that was current (parts nest) and names them `what`
 * (NULL keeps the current name; the string must live until the part is
 * restored). It returns the part it replaces, for hook_meter_restore. */
typedef struct HookPart {
	const char *what;
	double f0, f1; /* of the whole */
} HookPart;
HookPart hook_meter_part(const char *what, double f0, double f1);
void hook_meter_restore(HookPart old);
/* Reports frac (0..1) of the current part to the calling thread's meter. */
void hook_meter(double frac);

#endif
