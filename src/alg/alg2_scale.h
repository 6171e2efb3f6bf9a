/* alg2_scale.h - Algorithm 2 of the paper: scale every hidden width of the
 * base network by each β, train each scaled network q times from fresh
 * weights for η epochs, average the training and validation errors, and
 * pick the least 2ε_v − ε_tr (validation error plus generalisation gap).
 *
 * One alg2_step() runs one trial (one β, one of its q trainings), or with
 * o.jobs > 1 the next o.jobs trials at once. A trial's seed depends only on
 * the base seed, β and the trial number, and its bits on the thread count it
 * splits batches into (train.threads), not on the threads that compute them:
 * trials run side by side, as separate processes (`condnet sweep --beta B
 * --trial T`) and gathered, or one after another give the same result. */
#ifndef CONDNET_ALG2_SCALE_H
#define CONDNET_ALG2_SCALE_H

#include <stdint.h>

#include "base/err.h"
#include "data/dataset.h"
#include "engine/hook.h"
#include "engine/net.h"
#include "engine/train.h"

typedef struct Alg2Opts {
	double betas[64];
	int nbeta;
	int q;      /* trainings per β (paper: 5) */
	double eta; /* epochs per training (paper: 1) */
	int extend; /* 1: when the pick is the smallest or largest β, add one more β step beyond it
	             */
	int max_extend; /* at most this many added β (default 4) */
	int jobs;       /* trials run at once (default 1), each on its share of
	                   train.threads; the results are those of the serial run */
	uint64_t seed;
	TrainOpts train;
} Alg2Opts;

void alg2_opts_default(Alg2Opts *o);
/* Parses "1.0,1.2,1.4" or "1.0:2.4:0.2" into o->betas; every β > 0. */
int alg2_parse_betas(const char *s, Alg2Opts *o, Err *e);

/* Two β closer than this are the same β. */
#define BETA_MATCH 1e-9

/* β on a 1e-9 grid, so 1.0 + 3·0.2 and a typed 1.6 are the same value. */
double alg2_beta_snap(double b);
/* betas[0..n) in ascending order. */
void alg2_sort_betas(double *betas, int n);

typedef struct Alg2Trial {
	double beta;
	int trial; /* 0..q-1 */
	double err_tr, err_v;
	double max_kappa; /* of the trained network */
	double seconds;
} Alg2Trial;

typedef struct Alg2Beta {
	double beta;
	int *widths;          /* n[0..m] of the scaled network (a graph's: its groups' units) */
	int done;             /* trials done */
	double err_tr, err_v; /* means over the trials done */
	double score;         /* 2·err_v − err_tr */
} Alg2Beta;

/* Runs one trial: the network of the given widths trained from fresh weights
 * for o->eta epochs on tr, reporting its progress to h; fills out->err_tr
 * (on tr) and out->err_v (on v). 0 when done, 1 when the hook stopped it,
 * -1 on error. */
typedef int (*Alg2TrialFn)(const Net *shape, double beta, int trial, const Dataset *tr,
                           const Dataset *v, const Alg2Opts *o, Alg2Trial *out, const Hook *h,
                           void *ud, Err *e);

typedef struct Alg2 {
	Alg2Opts o;
	Net *base; /* a copy of the base shape */
	const Dataset *tr, *v;
	Alg2Beta *b; /* nb entries, in ascending β */
	int nb;
	int next;       /* index into b of the next trial's β */
	int extended;   /* β added so far */
	int finished;   /* every trial done, the range extended as far as it goes */
	Alg2TrialFn fn; /* alg2_trial_train unless replaced (tests) */
	void *fn_ud;
	int nw; /* entries of each β's widths (alg2_nwidths) */
} Alg2;

/* The entries of a β's widths: m + 1 for a chain (its n[0..m]); for a graph
 * network one a channel group (engine/graph_groups.h), its units. -1 when
 * out of memory. */
int alg2_nwidths(const Net *base);
/* Scaled widths: n[0] and n[m] as in base, every hidden width round(β·n_i), at least 1;
 * a convolution layer's channels (net_units) scaled the same way, so that
 * widths[1..m-1] are the scaled network's units. A graph network's: each
 * group whose units may all go scaled so, round(β·units) and at least 1,
 * the others (the logits, a grouped convolution's channels) kept. 0, or -1
 * when out of memory (a graph's groups). */
int alg2_scaled_widths(const Net *base, double beta, int *widths);
/* A network of base's layers (its convolutions' kernels, padding and
 * pools) with units[0..m] as its units (NULL: base's), zero parameters, no
 * preprocessing: the shape a trial trains from fresh weights. NULL with a
 * message when it breaks the table of limits or memory runs out. */
Net *alg2_shape(const Net *base, const int *units, Err *e);
/* A fresh network of base's layers (a graph's nodes: graph_net_resize)
 * with widths as alg2_scaled_widths gives them (a chain's units[0..m], a
 * graph's units per group), Glorot weights drawn from seed, no
 * preprocessing. NULL with a message. */
Net *alg2_fresh(const Net *base, const int *widths, uint64_t seed, Err *e);
/* Checks that the network of every β of betas[0..n) is within the table of
 * limits (widths, parameters): "β = 1000: its network has 19513031010
 * parameters, more than condnet trains (1073741824)". alg2_new checks its β
 * so; a command checks them before any training. */
int alg2_check_betas(const Net *base, const double *betas, int n, Err *e);
/* 0 when no two β of betas[0..n) give base the same widths; else -1 and
 * "β = 0.01 and β = 0.02 give the same hidden layers 1x1: …". A command
 * checks its β list so before any training; an extension of the range
 * that would repeat the edge's network ends the sweep instead. */
int alg2_check_distinct(const Net *base, const double *betas, int n, Err *e);
/* The real trial: Glorot weights from seed rng_derive(o->seed, β, trial), Adam, η epochs. */
int alg2_trial_train(const Net *shape, double beta, int trial, const Dataset *tr, const Dataset *v,
                     const Alg2Opts *o, Alg2Trial *out, const Hook *h, void *ud, Err *e);
uint64_t alg2_trial_seed(uint64_t seed, double beta, int trial);
/* One trial on its own, as alg2_step runs it (the same result bit for bit):
 * the base network's widths scaled by β into widths[0..m], trained by
 * alg2_trial_train. 0, 1 when the hook stopped it, -1 on error. */
int alg2_trial(const Net *base, double beta, int trial, const Dataset *tr, const Dataset *v,
               const Alg2Opts *o, int *widths, Alg2Trial *out, const Hook *h, Err *e);

Alg2 *alg2_new(const Net *base, const Dataset *tr, const Dataset *v, const Alg2Opts *o, Err *e);
void alg2_free(Alg2 *a);
/* Runs the next trial, reporting its training to h and, when it is done, a
 * HOOK_ALG2_TRIAL step; after the last, extends the β range or finishes
 * (a->finished). 0 when it is done (a step after the end does nothing); 1
 * when the hook stopped the trial, -1 on error: the state is then
 * unchanged, and the next step runs the trial again. */
int alg2_step(Alg2 *a, const Hook *h, Err *e);
/* Steps until finished: 0; 1 when the hook stopped it, -1. */
int alg2_run(Alg2 *a, const Hook *h, Err *e);
/* Records an externally run trial (gather); -1 if β is not in the list. */
int alg2_add_trial(Alg2 *a, const Alg2Trial *t, Err *e);
/* Index of the least score among β with all q trials done, -1 if none. */
int alg2_pick(const Alg2 *a);
/* A network of the pick's widths with fresh Glorot weights from seed (the
 * model Algorithm 2's last line trains fully). NULL with a message when no
 * β has all its trials. */
Net *alg2_pick_net(const Alg2 *a, uint64_t seed, Err *e);

#endif
