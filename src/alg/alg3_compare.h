/* alg3_compare.h - Algorithm 3 against the simple rules, at equal counts.
 *
 * The pivoted-QR squeeze at τ decides how many neurons each hidden layer
 * keeps. With those very counts, the network is squeezed again choosing the
 * kept neurons by the outgoing-weight norm and by R seeded random orders
 * (Alg3Criterion), each without and with compensation, and optionally
 * retrained; the accuracy of every result on an evaluation set says whether
 * the conditioning-guided choice beat the simple ones. Whole networks here
 * (alg3_compare, for `condnet squeeze --compare`); one layer of a pass under
 * way (alg3_compare_layer, for the screen's preview). */
#ifndef CONDNET_ALG3_COMPARE_H
#define CONDNET_ALG3_COMPARE_H

#include <stdint.h>

#include "alg/alg3_squeeze.h"
#include "base/err.h"
#include "data/dataset.h"
#include "engine/hook.h"
#include "engine/net.h"
#include "engine/train_plan.h"
#include "model/net_cost.h"

/* What is measured of each squeezed network. */
typedef enum CompareStage {
	CMP_SQUEEZED = 0,   /* right after the squeeze */
	CMP_COMPENSATED,    /* squeezed with compensation */
	CMP_RETRAINED,      /* squeezed, then retrained */
	CMP_COMP_RETRAINED, /* squeezed with compensation, then retrained */
	CMP_NSTAGES
} CompareStage;

typedef struct Alg3CompareOpts {
	double tau;
	int while_loop;           /* as Alg3Opts (default 1) */
	int draws;                /* random orders R, ≥ 1 (default 20) */
	uint64_t seed;            /* draw r uses Alg3Opts.seed = rng_derive(seed, r) */
	int compensate;           /* 1 (default): the compensated stages too */
	int sample_rows;          /* compensation's sample rows (default ALG3_SAMPLE_ROWS) */
	const TrainPlan *retrain; /* NULL (default): no retraining; else every network by it */
	int retrain_draws;        /* random draws retrained, 0..draws (default: all) */
	int cost_repeats;         /* forward-timing repeats (0: counts only; default 7) */
	int cost_threads;         /* OpenBLAS threads of the timing (0, the default: the
	                           * pool's default, net_cost_measure) */
	const int *only;          /* as Alg3Opts: the hidden layers squeezed (NULL: all); every
	                           * criterion keeps the others whole */
} Alg3CompareOpts;

void alg3_compare_opts_default(Alg3CompareOpts *o);

/* One criterion at one stage: accuracy in percent (random: the mean over
 * the draws measured), its sample standard deviation (random with ≥ 2
 * draws; else NaN), and how many networks it is over (0: not measured). */
typedef struct CriterionAcc {
	double acc, sd;
	int n;
} CriterionAcc;

typedef struct Alg3Compare {
	double tau;
	int m;
	int *n;              /* n[0..m], the units before (net_units: channels of a
	                      * convolution, neurons of a dense layer) */
	int *keep;           /* keep[i-1]: units hidden layer i keeps (QR at τ, no
	                      * compensation) */
	int *removed_thresh; /* removed by the |r_jj| threshold (line 4), per hidden layer */
	int *removed_loop;   /* removed by the κ while loop (lines 6-9), per hidden layer */
	double *kappa;       /* κ(Ŵ⁽ⁱ⁾) before any removal, per hidden layer */
	double *kappa_dec;   /* κ(Ŵ⁽ⁱ⁾) when layer i was decided (after the cascade) */
	int removed;         /* Σ removed */
	long hidden;         /* Σ n_i (units) over the hidden layers before */
	int nconv;           /* the network's convolution layers (their units are channels) */
	double acc_before;   /* the network as given, percent */
	CriterionAcc acc[CMP_NSTAGES][ALG3_NCRITERIA];
	int draws;                     /* random draws */
	double *draw_acc[CMP_NSTAGES]; /* per draw, percent (NaN: not measured) */
	double share_ge[CMP_NSTAGES];  /* share of the draws measured at least as good as QR */
	NetCost cost_before, cost_after;
	double seconds;        /* wall time of the comparison */
	char comp_failed[256]; /* why the compensated stages are not measured (a
	                        * compensation that failed: an overflow), "" */
} Alg3Compare;

void alg3_compare_free(Alg3Compare *c); /* frees the arrays, not c */

/* The comparison at o->tau for net (not changed): train gives
 * compensation's sample and, with o->retrain, the retraining data; eval the
 * accuracies. Reports a HOOK_NOTE per network measured (and the training
 * progress) to h; a cancelled hook stops it (returns 1, out freed). 0 or -1. */
int alg3_compare(const Net *net, const Alg3CompareOpts *o, const Dataset *train,
                 const Dataset *eval, const Hook *h, Alg3Compare *out, Err *e);

/* ---- one layer (alg3_preview.c) ---- */

typedef struct Alg3LayerCompare {
	int layer, n_before, nkeep;
	int rows; /* evaluation rows used */
	int draws;
	double acc[ALG3_NCRITERIA];      /* percent: QR (the pivots), norm, random mean */
	double acc_comp[ALG3_NCRITERIA]; /* the same with compensation; NaN when not asked */
	double sd, sd_comp;              /* random's standard deviation (NaN below 2 draws) */
	double share_ge, share_ge_comp;  /* share of the draws at least as good as QR */
	double agree, agree_comp;        /* percent of the rows on which QR's choice answers the
	                                  * class the network answers now, without and with
	                                  * compensation (NaN when not asked) */
	double seconds;
} Alg3LayerCompare;

/* For the proposal sp of one layer of net: the accuracy on eval of the
 * network with that layer keeping sp->nkeep neurons chosen by pivoted QR
 * (sp->perm), by the norm rule, and by `draws` random orders (seeds
 * rng_derive(seed, r)), each also compensated when compensate is set
 * (sample: training inputs). The layers before are untouched, so their
 * activations on eval (at most max_rows rows, evenly spaced; 0: all) are
 * computed once and every variant evaluates only the layers after: about
 * (2 + draws)·(1 + compensate) evaluations of the tail of the network,
 * plus as many refits when compensating. net is not changed. The accuracy
 * equals alg3_preview's on the same rows up to float rounding; the
 * agreement compares with the same tail keeping every neuron. 0; 1 when
 * the calling thread's stop (hook_set_thread_stop) said stop between two
 * evaluations ("stopped"), -1. */
int alg3_compare_layer(const Net *net, const Alg3Proposal *sp, const Dataset *eval,
                       const Dataset *sample, int draws, uint64_t seed, int compensate,
                       int max_rows, Alg3LayerCompare *out, Err *e);

#endif
