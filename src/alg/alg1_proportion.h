/* alg1_proportion.h - Algorithm 1 of the paper: find the proportions of
 * neurons among the layers from the conditioning of Ŵ⁽ⁱ⁾.
 *
 *   1  N̂ = T(N, D, η)
 *   2  while some κ(Ŵ⁽ⁱ⁾ of N̂) > τ:
 *   4      for each such hidden layer remove p_i neurons from N,
 *          p_i = number of singular values below σ₁/τ
 *   6      N̂ = T(N, D, η)
 *
 * One alg1_step() is one pass of that loop (the first call is line 1), so a
 * screen can show every iteration and a user can step by hand. A
 * convolution layer's neurons are its output channels (the columns of its
 * Ŵ): the widths below are units (net_units), and the networks of line 6
 * keep the layers of the initial one (kernels, padding, pools). */
#ifndef CONDNET_ALG1_PROPORTION_H
#define CONDNET_ALG1_PROPORTION_H

#include <stdint.h>

#include "base/err.h"
#include "data/dataset.h"
#include "engine/hook.h"
#include "engine/net.h"
#include "engine/train.h"

typedef struct Alg1Opts {
	double tau;    /* threshold on κ (paper: 25 for MNIST, 40 for Adult) */
	double eta;    /* epochs of training per iteration, may be fractional */
	int round;     /* > 1: round each new width down to a multiple of this */
	int max_iter;  /* stop after this many removal iterations (default 100) */
	int warm;      /* 0 (paper, line 6): retrain the reduced untrained N
	                * from fresh weights; 1: keep the neurons pivoted QR
	                * chooses, with their trained weights and Adam state */
	uint64_t seed; /* initial weights of every iteration derive from it */
	TrainOpts train;
} Alg1Opts;

void alg1_opts_default(Alg1Opts *o);
/* Algorithm 1's rule on τ: finite and > 1 (at τ = 1 every layer but a
 * perfectly conditioned one has κ > τ, and the loop would not end). 0, or
 * -1 and "τ = T, expected a finite threshold > 1". alg1_new and the
 * session's τ ask it (Algorithm 3 accepts τ = 1: cond_check_tau). */
int alg1_check_tau(double tau, Err *e);
/* η, the epochs of every training: finite and > 0. 0, or -1 and "η = E,
 * expected a positive number of epochs". */
int alg1_check_eta(double eta, Err *e);

typedef struct Alg1Record {
	int iter; /* 0 = the initial network after line 1 */
	int m;
	int *n;           /* n[0..m]: the inputs, then every layer's units */
	double *kappa;    /* kappa[0..m) for layers 1..m */
	int *p;           /* p[0..m) at τ (the output layer's is shown, never applied) */
	double max_kappa; /* over all layers */
	long sum_n;       /* Σ n_i over layers 1..m (the paper's Σ(n_i) counts the output too) */
	double train_error;
	double eval_error; /* on Alg1.eval after this iteration, NaN without one */
	double seconds;    /* training time of this iteration */
	double tau, eta; /* the τ and η this iteration ran with (p and the marks are at this τ) */
} Alg1Record;

typedef enum Alg1Status {
	ALG1_RUNNING = 0, /* more iterations may follow */
	ALG1_DONE,        /* every κ ≤ τ */
	ALG1_STUCK,       /* no width can change (all at 1, or rounding keeps them) */
	ALG1_MAX_ITER
} Alg1Status;

typedef struct Alg1 {
	Alg1Opts o;
	const Dataset *train;
	const Dataset *eval; /* optional, NULL by default: every record's eval_error
	                      * is measured on it (for people watching; the
	                      * algorithm never looks at it) */
	Net *net;            /* N̂: the current trained network (owned) */
	Alg1Record *rec;     /* nrec records, one per iteration done */
	int nrec;
	Alg1Status status;
	char reason[256]; /* why it stopped, for people */
	/* The network a step is training right now (the N̂ of the iteration
	 * under way, not yet a->net), NULL outside alg1_step's training. The
	 * hook's progress() may read it, e.g. to show κ while it trains; it
	 * must not keep it. */
	const Net *training;
} Alg1;

/* Algorithm 1's rule on its trainings: it has no validation split (it
 * trains η epochs on the whole training set each time), so neither a
 * plateau schedule (t->sched) nor early stopping (patience > 0) applies. 0,
 * or -1 and "the plateau schedule needs a validation set, which Algorithm 1
 * has not (…)" or "early stopping needs …". alg1_new holds its options to
 * it; a front end asks it of its settings before it reads any data. */
int alg1_check_training(const TrainOpts *t, int patience, Err *e);

/* Deep copies of records (for screens), and their release (r may be NULL).
 * A copy of no records is NULL; otherwise NULL means no memory (message in e). */
Alg1Record *alg1_records_copy(const Alg1Record *r, int n, Err *e);
void alg1_records_free(Alg1Record *r, int n);

/* initial: the starting shape (its weights are not used: line 1 trains it
 * from fresh Glorot weights drawn from o->seed). train must outlive it.
 * NULL with a message for options that break alg1_check_tau, alg1_check_eta
 * or alg1_check_training, a network that does not fit the data, or no
 * memory. */
Alg1 *alg1_new(const Net *initial, const Dataset *train, const Alg1Opts *o, Err *e);
void alg1_free(Alg1 *a);
/* A deep copy: its own network and records (nothing shared with a), the
 * same train set, options and status; training is NULL. NULL with a
 * message when out of memory. */
Alg1 *alg1_clone(const Alg1 *a, Err *e);
/* One iteration, reporting the training's progress to h and, when it is
 * done, a HOOK_ALG1_ITER step whose text says what the iteration did: each
 * layer with κ > τ, how many σ fell below σ₁/τ, how many neurons went after
 * rounding, how the smaller network was trained, which layers still have
 * κ > τ and what comes next. 0 when it is done (a->status says whether
 * another follows: ALG1_RUNNING while some κ > τ remains); 1 when the hook
 * stopped it, -1 on error: a's state is then that before the iteration,
 * and the next alg1_step runs it again. A step after the end does nothing
 * and returns 0. */
int alg1_step(Alg1 *a, const Hook *h, Err *e);
/* The τ and η of the iterations from the next on (the records keep the τ and
 * η each ran with): 0, or -1 with nothing changed when τ breaks
 * alg1_check_tau or η is not a positive number of epochs. */
int alg1_set_tau(Alg1 *a, double tau, Err *e);
int alg1_set_eta(Alg1 *a, double eta, Err *e);
/* Steps until the status is not ALG1_RUNNING: 0; 1 when the hook stopped
 * it (between iterations or inside one), -1. */
int alg1_run(Alg1 *a, const Hook *h, Err *e);

/* The widths the next iteration would use, into widths[0..m] (for preview);
 * returns how many hidden widths change. */
int alg1_next_widths(const Alg1 *a, int *widths, Err *e);
const char *alg1_status_name(Alg1Status s);

#endif
