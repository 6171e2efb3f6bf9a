/* train_plan.h - a training and its stopping rule: exactly E epochs, or
 * whole epochs until every training row is classified right (at most E,
 * what the paper's experiments call "fully trained"), or until the
 * validation accuracy stops improving (early stopping, at most E), under a
 * learning-rate schedule (schedule.h).
 *
 * Every compound procedure that trains (Algorithm 2's training of its pick,
 * a squeeze followed by retraining, the paper's stages) describes its
 * training as a TrainPlan and runs it here.
 *
 * With a validation set, the network is measured on it at the end of every
 * epoch (a last partial epoch included): the plateau schedule takes its
 * loss at the end of every whole epoch, and early stopping keeps a copy of
 * the best epoch — the least validation error, ties broken by the lesser
 * validation loss — with its Adam and schedule state, ends the training
 * after `patience` epochs without a better one, and puts that copy back:
 * the network is then bit for bit what it was at the end of its best epoch.
 * Every epoch is reported to the hook as a HOOK_EPOCH step (TrainEpoch). */
#ifndef CONDNET_TRAIN_PLAN_H
#define CONDNET_TRAIN_PLAN_H

#include <stdint.h>

#include "base/err.h"
#include "data/dataset.h"
#include "engine/hook.h"
#include "engine/net.h"
#include "engine/train.h"

typedef struct TrainPlan {
	TrainOpts opts;     /* batch, Adam, threads, the shuffling seed and the schedule */
	double epochs;      /* epochs to train (fractional allowed); the cap under
	                     * until_perfect and early stopping; a cosine schedule
	                     * without a length runs over these */
	int until_perfect;  /* 1: one epoch at a time until the training error is 0 */
	int derive_seed;    /* 1: each training call (each epoch under until_perfect)
	                     * shuffles with train_plan_seed(opts.seed, net), so training a
	                     * network again after it changed never repeats an order */
	const Dataset *val; /* validation set, measured after every epoch; NULL: none
	                     * (then neither early stopping nor the plateau schedule) */
	int patience;       /* > 0: early stopping after this many epochs without a
	                     * better validation result (needs val); 0: none */
	int resume;         /* 1: continue the schedule run the network carries (its
	                     * net->sched from net->sched_st, opts.sched ignored) in the
	                     * batch order of opts.seed, skipping the batches it already
	                     * ran: a run saved and resumed this way takes the steps of an
	                     * uninterrupted one (not with until_perfect or derive_seed) */
} TrainPlan;

/* The numbers of one epoch, for the hook (HOOK_EPOCH). Accuracies are
 * fractions in [0, 1]. */
typedef struct TrainEpoch {
	int epoch;        /* epochs this training has run, 1-based (a last partial one counts) */
	int epochs;       /* the cap, ⌈plan epochs⌉ */
	int whole;        /* 0 for a last partial epoch */
	double at;        /* epochs of the network's schedule run so far (a resumed
	                   * run counts its earlier ones) */
	double loss, acc; /* training: mean over the epoch's batches */
	double val_loss, val_acc; /* on the validation set after the epoch; NaN without one */
	double lr;                /* the learning rate of the epoch's last batch */
	double seconds;           /* since the training started */
	int best_epoch; /* the epoch with the best validation result so far (0: no validation) */
	int bad;        /* epochs since that one */
	const Net *net; /* the network after the epoch (valid during the call) */
} TrainEpoch;

/* What a training did. */
typedef struct TrainResult {
	int epochs;               /* epochs run (a last partial one counts) */
	int best_epoch;           /* the epoch whose weights the network keeps: under early
	                           * stopping the best validation epoch, else the last */
	int stopped_early;        /* 1 when the patience ran out before the cap */
	double val_loss, val_acc; /* on the validation set at best_epoch; NaN without one */
	double lr;                /* the rate of the last step taken */
} TrainResult;

/* epochs E of opts, nothing derived, no validation, no resume. */
void train_plan_default(TrainPlan *p, const TrainOpts *opts, double epochs);

/* rng_derive(seed, Σ hidden widths · 131 + Adam steps of net). */
uint64_t train_plan_seed(uint64_t seed, const Net *net);

/* Trains net on d by the plan, reporting to h: progress after every batch
 * (its batch, batches and seconds counted over the whole training), a
 * HOOK_EPOCH step after every epoch and a HOOK_TRAINED step at the end.
 * *r (may be NULL) receives what it did. 0 when done, 1 when the hook
 * stopped it (the weights are those reached so far), -1 on error. */
int train_plan_fit(Net *net, const Dataset *d, const TrainPlan *p, const Hook *h, TrainResult *r,
                   Err *e);

/* train_plan_fit with *epochs_run (may be NULL) receiving the epochs run
 * (those asked for, rounded up, when neither until_perfect nor early
 * stopping ends it sooner). */
int train_plan_run(Net *net, const Dataset *d, const TrainPlan *p, const Hook *h, int *epochs_run,
                   Err *e);

/* A network of the given widths (widths[0..m]) with Glorot weights from
 * seed, trained on d by the plan (the paper's "train the chosen model from
 * scratch"), into *out. 0; 1 when the hook stopped it, -1 (*out NULL both). */
int train_plan_fresh(int m, const int *widths, ActKind act, float act_a, uint64_t seed,
                     const Dataset *d, const TrainPlan *p, const Hook *h, int *epochs_run,
                     Net **out, Err *e);

/* net_error_threads(net, data, threads, err, NULL, e), in slices of a few
 * thousand rows with h (may be NULL) and the calling thread's stop
 * (hook_set_thread_stop) asked between them: a stop is answered within a
 * slice's forward pass, not the whole set's (60,000 MNIST rows through a
 * 12×600 network take seconds). The same value as net_error. 0, 1 when
 * told to stop (message "stopped"), -1. threads 0: the default. */
int net_error_hooked(const Net *net, const Dataset *data, int threads, const Hook *h, double *err,
                     Err *e);
/* The accuracy of net on d in percent, 100·(1 − error), into *acc: the
 * figure every table, record and screen shows; NaN without d. Asked of a
 * hook or under a thread's stop, it is measured as net_error_hooked does
 * (the same value). 0, 1 when told to stop, -1 for a set that does not fit
 * the network. */
int net_accuracy(const Net *net, const Dataset *d, const Hook *h, double *acc, Err *e);

#endif
