/* alg3_squeeze.h - Algorithm 3 of the paper: squeeze a trained network.
 *
 * For each hidden layer i with κ(Ŵ⁽ⁱ⁾) > τ: pivoted QR Ŵ P = Q R; keep the
 * first p pivoted neurons, p = number of |r_jj| ≥ |r_11|/τ (the paper's line 4
 * with its threshold read as relative); then, while κ of the kept columns
 * > τ, drop the last kept pivot (optional, as the paper allows); remove the
 * other neurons: columns of W⁽ⁱ⁾, entries of b⁽ⁱ⁾, rows of W⁽ⁱ⁺¹⁾ and their
 * optimizer state. The output layer is never squeezed. Layers are decided
 * in order, each on the network as the earlier decisions left it, so the κ
 * a layer is decided on is that after the earlier layers' removals.
 *
 * Alg3 is the algorithm as a stepped object, like Algorithms 1 and 2: a step
 * proposes the next layer that has neurons to remove (its pivot order, |r_jj|
 * profile, decision κ and how many go), and the driver applies or refuses
 * it; alg3_run applies every proposal (the whole algorithm). Every front end
 * (the screen, `condnet squeeze`, the paper's experiments, the session log)
 * squeezes through it. The primitives below it (propose, apply, preview)
 * work on one layer. Compensation (not in the paper, alg3_compensate.c)
 * refits W⁽ⁱ⁺¹⁾ and b⁽ⁱ⁺¹⁾ by least squares on a sample of inputs so the next
 * layer's pre-activations change as little as possible.
 *
 * Which neurons a layer keeps is the criterion's choice (alg3_criteria.c):
 * the paper's pivoted-QR order, or for comparison the largest outgoing
 * weights or a seeded random order; how many it keeps is Algorithm 3's
 * decision at τ, or a count per layer given by the caller.
 *
 * A convolution layer's neurons are its output channels, the columns of its
 * Ŵ (engine/cond.h): removing one removes its kernel and bias and, in the
 * next layer, what reads its map (net_keep_neurons), and compensation
 * refits by one combination of the kept channels per removed one, the same
 * at every position (alg3_channels.c). Counts and widths below are units
 * (net_units): channels of a convolution, neurons of a dense layer. */
#ifndef CONDNET_ALG3_SQUEEZE_H
#define CONDNET_ALG3_SQUEEZE_H

#include <stdint.h>

#include "base/err.h"
#include "data/dataset.h"
#include "engine/hook.h"
#include "engine/net.h"
#include "engine/train_plan.h"

/* The order in which a layer's neurons are kept (alg3_order). */
typedef enum Alg3Criterion {
	ALG3_QR = 0, /* the paper's: column-pivoted QR of Ŵ⁽ⁱ⁾, most independent first */
	ALG3_NORM,   /* largest L2 norm of the outgoing weights (row of W⁽ⁱ⁺¹⁾) first */
	ALG3_RANDOM, /* a random order, from rng_derive(seed, i) for layer i */
	ALG3_NCRITERIA
} Alg3Criterion;

typedef struct Alg3Opts {
	double tau;              /* threshold on κ (default COND_TAU_DEFAULT) */
	int while_loop;          /* 1 (default): drop pivots until κ(kept) ≤ τ */
	int compensate;          /* 1: refit the next layer by least squares */
	int sample_rows;         /* rows of the sample used for compensation (default 2000) */
	Alg3Criterion criterion; /* which neurons are kept (default ALG3_QR) */
	uint64_t seed;           /* ALG3_RANDOM's seed (default 1) */
	const int *keep_counts;  /* NULL (default): Algorithm 3 decides at τ how many neurons
	                          * each layer keeps; else hidden layer i keeps keep_counts[i-1]
	                          * (1..n_i; m-1 entries) and τ decides nothing */
	const int *only;         /* NULL (default): every hidden layer is decided; else hidden
	                          * layer i only when only[i-1] is not 0 (m-1 entries), the
	                          * others keeping every unit whatever their κ */
} Alg3Opts;

void alg3_opts_default(Alg3Opts *o);

/* The most sample rows a refit uses (evenly spaced through the sample). */
#define ALG3_SAMPLE_ROWS 2000

typedef struct Alg3Proposal {
	int layer; /* 1..m-1 */
	int n_before;
	double kappa_before; /* κ(Ŵ) now: the κ the decision is made on */
	int *perm;           /* n_before: neuron indices in pivot order */
	double *rdiag;       /* min(rows, n_before): |r_jj|/|r_11| */
	int nrdiag;
	int p_qr;  /* kept by the QR threshold alone (line 4); n_before when κ ≤ τ */
	int nkeep; /* kept after the while loop (≤ p_qr; lines 6-9), or the count given */
	double kappa_after; /* κ of the kept columns */
	int *keep;          /* n_before neuron indices in the criterion's order: keep[0..nkeep)
	                     * are kept (perm[0..nkeep) under ALG3_QR), the rest removed */
	Alg3Criterion criterion;
	int counted; /* 1: nkeep is the count the caller gave (keep_counts), not τ's */
} Alg3Proposal;

/* What Algorithm 3 would do to one hidden layer of net. When κ ≤ τ the
 * proposal keeps every neuron (nkeep == n_before). With keep_counts, nkeep
 * is the count given whatever κ is. Under another criterion than QR the
 * count is the same (QR's decision at τ, or the one given) and the
 * criterion chooses which neurons; κ of its kept columns may exceed τ.
 * Reports its steps to the calling thread's meter (hook_set_thread_meter).
 * 0; -1 with a message; 1 when a decomposition was stopped (cond_matrix.h:
 * the calling thread's stop or a stop signal; "layer L: Ŵ: stopped during
 * …"; sp is then empty, as on failure). */
int alg3_propose(const Net *net, int layer, const Alg3Opts *o, Alg3Proposal *sp, Err *e);
void alg3_proposal_free(Alg3Proposal *sp);

/* Applies a proposal; with compensate, sample (training inputs, at most
 * ALG3_SAMPLE_ROWS of them) drives the least-squares refit of layer+1. */
int alg3_apply_proposal(Net *net, const Alg3Proposal *sp, int compensate, const Dataset *sample,
                        Err *e);
/* Accuracy (percent) on eval of a copy of net with the proposal applied,
 * without and with compensation (acc_comp may be NULL). net is not changed. */
int alg3_preview(const Net *net, const Alg3Proposal *sp, const Dataset *eval, const Dataset *sample,
                 double *acc, double *acc_comp, Err *e);

/* The least-squares refit alone: after keeping keep[0..nkeep) of layer,
 * choose W⁽ˡᵃʸᵉʳ⁺¹⁾ rows and b⁽ˡᵃʸᵉʳ⁺¹⁾ (net is the network before removal),
 * on at most maxrows rows of sample. */
int alg3_compensate(Net *net, int layer, const int *keep, int nkeep, const Dataset *sample,
                    int maxrows, Err *e);
/* The activations the refit works on: those of hidden layer `layer` on at
 * most maxrows rows of sample, evenly spaced through it, into *Y (allocated,
 * *rows × n_layer, row-major). 0, or -1 with a message. */
int alg3_activations(const Net *net, int layer, const Dataset *sample, int maxrows, double **Y,
                     int *rows, Err *e);

/* ---- the channels of a convolution layer (alg3_channels.c) ---- */

/* Compensation for channels removed from a convolution layer: with Y the
 * layer's maps on s samples (s × C × P values, as the layer gives them: C
 * channels of P positions), each removed channel r (the channels not in
 * keep[0..nkeep), ascending) as y_r ≈ Σ_j c_jr y_keep[j] + d_r, the same
 * coefficients at every position, fitted by least squares over all s·P
 * positions (cond_lsq, pivoted QR; columns dependent to 1e-6 left out):
 * comb ((nkeep+1) × (C − nkeep), row-major) receives c and, in its last row,
 * d. 0, -1 with a message, 1 when stopped. */
int alg3_channel_fit(const double *Y, int s, int C, int P, const int *keep, int nkeep, double *comb,
                     Err *e);
/* The combinations folded into the layer after hidden layer `layer`: in W
 * and b, laid out as W⁽ˡᵃʸᵉʳ⁺¹⁾ and b⁽ˡᵃʸᵉʳ⁺¹⁾ of net, the rows that read kept
 * channel keep[j] gain Σ_r c_jr times those that read removed channel r
 * (net_unit_rows: the next convolution's kernel slices, or the flatten's
 * rows), and b gains each d_r times the sum of channel r's rows. What the
 * next layer computed is then kept wherever the combinations hold, up to
 * the zero padding of a padded convolution (its border positions read only
 * part of d_r). 0, or -1 when a weight overflows float. */
int alg3_channel_fold(const Net *net, int layer, const int *keep, int nkeep, const double *comb,
                      float *W, float *b, Err *e);

/* ---- criteria (alg3_criteria.c) ---- */

/* "qr", "norm", "random"; parse puts the criterion into *c: 0, or -1 and
 * "unknown criterion 'S' (expected …)". */
const char *alg3_criterion_name(Alg3Criterion c);
int alg3_criterion_parse(const char *s, Alg3Criterion *c, Err *e);

/* The neurons of hidden layer `layer` in the order criterion c keeps them
 * (order[0..n_layer), the first kept first):
 *   ALG3_QR      the pivots of Ŵ⁽ⁱ⁾ P = Q R, as alg3_propose orders them;
 *   ALG3_NORM    ‖W⁽ⁱ⁺¹⁾(j,:)‖₂ (neuron j's outgoing weights) descending,
 *                   ties by index, so the smallest norm is removed first;
 *   ALG3_RANDOM  a Fisher-Yates shuffle of 0..n-1 from rng_derive(seed, layer).
 * Keeping the first k of the order is the criterion's choice of k neurons. */
int alg3_order(const Net *net, int layer, Alg3Criterion c, uint64_t seed, int *order, Err *e);

/* 0 when counts[0..m-1) fits net: one count per hidden layer, each in
 * 1..n_i; else -1 naming the first that does not. */
int alg3_check_counts(const Net *net, const int *counts, int ncounts, Err *e);

/* The least-squares step of compensation on activations already computed:
 * Y (s×n, layer i's activations), Z (s×q, layer i+1's pre-activations
 * before removal); sol ((nkeep+1)×q) receives [W'_K; b'ᵀ] minimising
 * ‖[Y_K 1] sol − Z‖_F. s ≥ nkeep + 1. */
int alg3_refit(const double *Y, int s, int n, const double *Z, int q, const int *keep, int nkeep,
               double *sol, Err *e);

typedef enum Alg3Status {
	ALG3_PROPOSED = 0, /* a proposal waits for alg3_apply or alg3_refuse */
	ALG3_DONE          /* no later hidden layer has a neuron to remove */
} Alg3Status;

typedef struct Alg3 {
	Alg3Opts o;
	Net *net;              /* squeezed in place: the caller's network */
	const Dataset *sample; /* training inputs for compensation, may be NULL */
	int next;              /* the first hidden layer not yet decided */
	Alg3Status status;
	Alg3Proposal prop;    /* the decision waiting, when ALG3_PROPOSED */
	int *removed;         /* removed[i-1]: neurons removed from layer i in this pass */
	int *removed_qr;      /* of those, how many the |r_jj| threshold removed (the
	                       * rest went in the κ while loop); 0 with keep_counts */
	double *kappa_dec;    /* kappa_dec[i-1]: κ(Ŵ⁽ⁱ⁾) when layer i was decided, after the
	                       * earlier layers' removals (NaN: not reached, and the output) */
	int *counts;          /* the pass's copy of o.keep_counts, or NULL */
	int *only;            /* the pass's copy of o.only, or NULL */
	int total;            /* Σ removed */
	int applied, refused; /* decisions so far */
} Alg3;

/* A pass over net (which must outlive it and change only through it). NULL
 * with a message on bad options or no memory. */
Alg3 *alg3_new(Net *net, const Alg3Opts *o, const Dataset *sample, Err *e);
void alg3_free(Alg3 *a); /* accepts NULL */
/* Proposes the next hidden layer, from a->next on, with κ > τ and a neuron
 * to remove (layers with nothing to remove, and those o.only leaves out,
 * are passed over): 0, a->status
 * saying ALG3_PROPOSED (a->prop waits) or ALG3_DONE; -1 on error; 1 when a
 * proposal was stopped (alg3_propose: ALG3_DONE, a->next at the layer it
 * stopped in, so stepping again goes on from there). */
int alg3_step(Alg3 *a, Err *e);
/* Proposes the given layer even if it has nothing to remove (for a
 * recorded decision replayed on its own): 0 (ALG3_PROPOSED), -1, or 1 when
 * stopped (ALG3_DONE). */
int alg3_propose_layer(Alg3 *a, int layer, Err *e);
/* Applies the waiting proposal (compensated when compensate is set), then
 * reports a HOOK_ALG3_LAYER step saying what was decided, on which κ, and
 * what each stage of the algorithm kept. 0 or -1 (nothing changed). */
int alg3_apply(Alg3 *a, int compensate, const Hook *h, Err *e);
/* Refuses it: the layer keeps its neurons, the pass moves on. */
int alg3_refuse(Alg3 *a, const Hook *h, Err *e);
/* Algorithm 3 to the end: every proposal applied (compensated as o says);
 * a->total says how many neurons went. 0; 1 when a proposal was stopped
 * (alg3_step), -1 on error. */
int alg3_run(Alg3 *a, const Hook *h, Err *e);

/* Algorithm 3 over every hidden layer of net in one call (alg3_run).
 * removed[0..m) receives the neurons removed per layer and *total their sum
 * (either may be NULL). 0; 1 when stopped (alg3_step), -1 on error; the
 * network keeps the layers decided before either. */
int alg3_squeeze_net(Net *net, const Alg3Opts *o, const Dataset *sample, int *removed, int *total,
                     Err *e);

/* One round of "squeeze, then retrain" (a row of the paper's Tables 6, 9-12,
 * an iteration of Table 13). */
typedef struct Alg3Round {
	int m;
	int *n;                 /* n[0..m] after the round (round 0: as loaded): units */
	int removed;            /* neurons removed in the round */
	int *removed_per_layer; /* m entries */
	double *kappa; /* κ(Ŵ⁽ⁱ⁾) of every layer at the end of the round (∞ possible) */
	int *p;        /* p_i at τ at the end of the round */
	double acc_squeezed;  /* accuracy on eval right after squeezing (percent), NaN without */
	double acc_retrained; /* after retraining (percent), NaN without eval or retraining */
	TrainResult trained;  /* the retraining: epochs run, the epoch kept and its validation
	                       * accuracy (NaN without a validation set); 0 epochs without */
} Alg3Round;

void alg3_round_free(Alg3Round *r); /* frees the arrays, not r */

/* Algorithm 3 on net, then training by plan (none when plan is NULL), and
 * the accuracies on eval (may be NULL) after each. 0, 1 when the hook
 * stopped the retraining or the calling thread's stop a proposal (alg3_run;
 * out is then empty), -1 on error. */
int alg3_squeeze_retrain(Net *net, const Alg3Opts *o, const Dataset *sample, const TrainPlan *plan,
                         const Dataset *train, const Dataset *eval, const Hook *h, Alg3Round *out,
                         Err *e);

/* The paper's Table 13: squeeze and retrain, again and again, until a
 * squeeze removes nothing (no retraining then) or max_rounds rounds ran.
 * rounds[0] is the network as given, rounds[1..] the rounds that removed
 * something; rounds has room for max_rounds + 1. *stable is 1 when the
 * last squeeze removed nothing. 0, 1 when the hook stopped it, -1. */
int alg3_until_stable(Net *net, const Alg3Opts *o, const Dataset *sample, const TrainPlan *plan,
                      const Dataset *train, const Dataset *eval, int max_rounds, const Hook *h,
                      Alg3Round *rounds, int *nrounds, int *stable, Err *e);

#endif
