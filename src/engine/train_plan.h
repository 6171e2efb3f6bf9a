/* train_plan.h - a training and its stopping rule: exactly E epochs, or
 * whole epochs until every training row is classified right (at most E,
 * what the paper's experiments call "fully trained").
 *
 * Every compound procedure that trains (Algorithm 2's training of its pick,
 * a squeeze followed by retraining, the paper's stages) describes its
 * training as a TrainPlan and runs it here. */
#ifndef CONDNET_TRAIN_PLAN_H
#define CONDNET_TRAIN_PLAN_H

#include <stdint.h>

#include "base/err.h"
#include "data/dataset.h"
#include "engine/hook.h"
#include "engine/net.h"
#include "engine/train.h"

typedef struct TrainPlan {
	TrainOpts opts;    /* batch, Adam, threads and the shuffling seed */
	double epochs;     /* epochs to train (fractional allowed); the cap under until_perfect */
	int until_perfect; /* 1: one epoch at a time until the training error is 0 */
	int derive_seed;   /* 1: each training call (each epoch under until_perfect)
			    * shuffles with train_plan_seed(opts.seed, net), so training a
			    * network again after it changed never repeats an order */
} TrainPlan;

/* epochs E of opts, nothing derived. */
void train_plan_default(TrainPlan *p, const TrainOpts *opts, double epochs);

/* rng_derive(seed, Σ hidden widths · 131 + Adam steps of net). */
uint64_t train_plan_seed(uint64_t seed, const Net *net);

/* Trains net on d by the plan, reporting to h. *epochs_run (may be NULL)
 * receives the whole epochs trained (the epochs asked for when not
 * until_perfect). 0 when done, 1 when the hook stopped it (the weights are
 * those reached so far), -1 on error. */
int train_plan_run(Net *net, const Dataset *d, const TrainPlan *p, const Hook *h,
		   int *epochs_run, Err *e);

/* A network of the given widths (widths[0..m]) with Glorot weights from
 * seed, trained on d by the plan (the paper's "train the chosen model from
 * scratch"). NULL on error or when the hook stopped it (message in e). */
Net *train_plan_fresh(int m, const int *widths, ActKind act, float act_a, uint64_t seed,
		      const Dataset *d, const TrainPlan *p, const Hook *h, int *epochs_run,
		      Err *e);

#endif
