/* alg3_squeeze.h - Algorithm 3 of the paper: squeeze a trained network.
 *
 * For each hidden layer i with κ(Ŵ⁽ⁱ⁾) > τ: pivoted QR Ŵ P = Q R; keep the
 * first p pivoted neurons, p = number of |r_jj| ≥ |r_11|/τ (the paper's line 4
 * with its threshold read as relative); then, while κ of the kept columns
 * > τ, drop the last kept pivot (optional, as the paper allows); remove the
 * other neurons: columns of W⁽ⁱ⁾, entries of b⁽ⁱ⁾, rows of W⁽ⁱ⁺¹⁾ and their
 * optimizer state. The output layer is never squeezed.
 *
 * The work is split so a person can decide each layer: squeeze_propose()
 * computes what would go, squeeze_preview() measures the effect,
 * squeeze_apply() does it. Compensation (not in the paper) refits W⁽ⁱ⁺¹⁾ and
 * b⁽ⁱ⁺¹⁾ by least squares on a sample of inputs so the next layer's
 * pre-activations change as little as possible. */
#ifndef CONDNET_ALG3_SQUEEZE_H
#define CONDNET_ALG3_SQUEEZE_H

#include "data/dataset.h"
#include "base/err.h"
#include "engine/net.h"

typedef struct SqueezeOpts {
	double tau;
	int while_loop;      /* 1 (default): drop pivots until κ(kept) ≤ τ */
	int compensate;      /* 1: refit the next layer by least squares */
	int sample_rows;     /* rows of the sample used for compensation (default 2000) */
} SqueezeOpts;

void squeeze_opts_default(SqueezeOpts *o);

/* The most sample rows a refit uses (evenly spaced through the sample) when
 * called through squeeze_apply, squeeze_preview or squeeze_compensate;
 * squeeze_net uses o->sample_rows. */
#define SQUEEZE_SAMPLE_ROWS 2000

typedef struct SqueezeProposal {
	int layer;           /* 1..m-1 */
	int n_before;
	double kappa_before;
	int *perm;           /* n_before: neuron indices in pivot order */
	double *rdiag;       /* min(rows, n_before): |r_jj|/|r_11| */
	int nrdiag;
	int p_qr;            /* kept by the QR threshold alone */
	int nkeep;           /* kept after the while loop (≤ p_qr) */
	double kappa_after;  /* κ of the kept columns */
	int *keep;           /* nkeep neuron indices: perm[0..nkeep) */
} SqueezeProposal;

/* What Algorithm 3 would do to one hidden layer of net. When κ ≤ τ the
 * proposal keeps every neuron (nkeep == n_before). */
int squeeze_propose(const Net *net, int layer, const SqueezeOpts *o, SqueezeProposal *sp, Err *e);
void squeeze_proposal_free(SqueezeProposal *sp);

/* Applies a proposal; with compensate, sample (training inputs) drives the
 * least-squares refit of layer+1. */
int squeeze_apply(Net *net, const SqueezeProposal *sp, int compensate, const Dataset *sample,
		  Err *e);
/* Accuracy on eval of a copy of net with the proposal applied, without and
 * with compensation (acc_comp may be NULL). net is not changed. */
int squeeze_preview(const Net *net, const SqueezeProposal *sp, const Dataset *eval,
		    const Dataset *sample, double *acc, double *acc_comp, Err *e);

/* The least-squares refit alone: after keeping keep[0..nkeep) of layer,
 * choose W⁽ˡᵃʸᵉʳ⁺¹⁾ rows and b⁽ˡᵃʸᵉʳ⁺¹⁾ (net is the network before removal). */
int squeeze_compensate(Net *net, int layer, const int *keep, int nkeep, const Dataset *sample,
		       Err *e);

/* Algorithm 3 over every hidden layer in order, each proposal computed on
 * the network as squeezed so far. removed[0..m) receives the neurons removed
 * per layer (may be NULL). Returns the total removed, or -1. */
int squeeze_net(Net *net, const SqueezeOpts *o, const Dataset *sample, int *removed, Err *e);

#endif
