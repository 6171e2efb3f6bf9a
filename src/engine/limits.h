/* limits.h - the one table of the ranges condnet's values lie in, however a
 * value enters: an option of the command line (src/cli), a field of a
 * session log (session_action.c), a model file (model_io.c), an import
 * (net_npy.c, onnx_*.c), a value an algorithm computes (the widths of a β).
 * Each entry point checks its values here, so what one accepts every other
 * accepts, and nothing condnet writes fails to read back.
 *
 * Where a value is stored in single precision (the learning rate in the
 * Adam step, the activation scale), its least positive value is the least
 * normal float: below it the value would be a subnormal or 0, and the
 * message says it is too small. */
#ifndef CONDNET_LIMITS_H
#define CONDNET_LIMITS_H

#include <stdint.h>

#include "base/err.h"

typedef enum LimitId {
	LIM_TAU,            /* τ, the threshold on κ */
	LIM_ETA,            /* η, epochs of each training of Algorithms 1 and 2 */
	LIM_EPOCHS,         /* epochs of a training (--epochs, a log's train) */
	LIM_LR,             /* Adam's learning rate */
	LIM_ACT_SCALE,      /* a in erf(a·x) */
	LIM_BATCH,          /* mini-batch rows */
	LIM_THREADS,        /* OpenBLAS threads */
	LIM_FEATURES,       /* Haar-wavelet features of MNIST and Fashion */
	LIM_BETA,           /* Algorithm 2's width factor β */
	LIM_Q,              /* Algorithm 2's trainings per β */
	LIM_WIDTH,          /* neurons of a layer (inputs and outputs too) */
	LIM_LAYERS,         /* layers m of a network (hidden and output) */
	LIM_PARAMS,         /* parameters of a network */
	LIM_ADAM_STEPS,     /* Adam steps a network has taken */
	LIM_SCHED_STEPS,    /* batches run under a learning-rate schedule */
	LIM_SCHED_EVERY,    /* step:E, epochs between decays */
	LIM_SCHED_FACTOR,   /* step and plateau's factor F */
	LIM_SCHED_PERIOD,   /* cosine:T, epochs (0: the training's length) */
	LIM_SCHED_PATIENCE, /* plateau:P, epochs without improvement */
	LIM_WARMUP,         /* epochs of warm-up */
	LIM_EARLY_STOP,     /* early stopping's patience in epochs */
	LIM_ROWS,           /* --limit: rows kept of every class */
	LIM_VAL_FRAC,       /* the validation fraction */
	LIM_VAL_PER_CLASS,  /* validation rows of every class */
	LIM_POINTS,         /* --points: the training points of a plane data set */
	LIM_NOISE,          /* --noise: the noise of a plane data set's points */
	LIM_SPEED,          /* the screen's training speed, epochs a second */
	LIM_COUNT
} LimitId;

typedef struct Limit {
	const char *what; /* for messages and the table in docs: "the learning rate" */
	double lo, hi;    /* the range; lo excluded when lo_open, hi when hi_open */
	int lo_open, hi_open;
	int integer;  /* whole numbers only */
	double least; /* the least non-zero magnitude allowed, 0 for no such bound */
} Limit;

/* The entry of id. */
const Limit *limit_of(LimitId id);

/* The largest network condnet builds, trains or reads: 2^30 parameters take
 * 16 GiB with their gradients and Adam moments. */
#define LIMIT_MAX_PARAMS (1UL << 30)
/* The widest layer, and the most layers. */
#define LIMIT_MAX_WIDTH 10000000
#define LIMIT_MAX_LAYERS 100001
/* The largest step counts (Adam's, a schedule's): 2^53, the largest
 * integer a double holds exactly, far from overflowing an int64_t. */
#define LIMIT_MAX_STEPS (INT64_C(1) << 53)

/* 0 when v lies in id's range; else -1 and a message "NAME: V must be …",
 * V being 'text' when given (the value as it was written), else v. */
int limit_check(LimitId id, double v, const char *name, const char *text, Err *e);

/* Parses s, the whole of it, as a value of id (a decimal integer for an
 * integer limit), and checks it: "NAME: 'S' is not a number", "… is too
 * small (the least is L)", "… must be at most H", … */
int limit_parse(LimitId id, const char *name, const char *s, double *out, Err *e);
/* The same for an integer limit, into an int. */
int limit_parse_int(LimitId id, const char *name, const char *s, int *out, Err *e);
/* The training speed of the screen: from one epoch a day to 100,000 epochs
 * a second (0 is full speed, no wait). A wait between two epochs is then at
 * most a day, whichever way the speed came (--speed, a lesson's "#speed:"
 * line, the speed keys). */
#define LIMIT_MIN_SPEED (1.0 / 86400)
#define LIMIT_MAX_SPEED 1e5
/* S as a speed: "full" (0) or epochs a second held to LIM_SPEED; else -1 and
 * "NAME: 'S' is not a speed: expected epochs a second, from one a day
 * (1/86400) to 100000, or full". */
int limit_parse_speed(const char *name, const char *s, double *out, Err *e);

/* S as a decimal integer in lo..hi into *out, or the message every integer
 * option gives: "NAME: 'S' is out of range (LO..HI)", "… is not a positive
 * integer", … */
int limit_parse_range(const char *name, const char *s, long lo, long hi, int *out, Err *e);

/* The parameters of a network of m layers of widths w[0..m] checked against
 * LIM_LAYERS, LIM_WIDTH and LIM_PARAMS; *nparam (may be NULL) receives the
 * count. what names the network in the message ("a 12x600 network"). */
int limit_check_widths(int m, const int *w, const char *what, uint64_t *nparam, Err *e);

#endif
