/* alg3_combination.h - the paper's reason for a squeeze, neuron by neuron:
 * a neuron the pivoted QR of Ŵ⁽ⁱ⁾ puts after the kept ones is (nearly) a
 * combination of them.
 *
 * With Ŵ P = Q R and the first nkeep pivots kept (K), the column ŵ_j of a
 * removed neuron j is in least squares ŵ_j ≈ Ŵ_K c with c = R₁₁⁻¹ times
 * the upper part of the column of R that belongs to j, and the relative
 * residual ‖ŵ_j − Ŵ_K c‖/‖ŵ_j‖ is the norm of that column's lower part over
 * its whole norm (engine/cond_matrix.h, cond_qrpt_combine: the same QR as
 * alg3_propose's). Since ŵ_j = [w_j; b_j], the neuron's pre-activation
 * is then z_j ≈ Σ_k c_k z_k on every input: its map σ(z_j) and the map of
 * σ(Σ_k c_k z_k) look alike when the residual is small.
 *
 * That is a statement about Ŵ, not about what the next layer receives:
 * σ(z_j) is a combination of the σ(z_k) only where σ is nearly linear. The
 * refit of compensation (alg3_compensate) works on activations, so the
 * combination it relies on is the least-squares fit of each removed
 * neuron's activation y_j by the kept ones' and a constant on the refit's
 * own sample rows (alg3_combinations_act), with the relative residual
 * ‖y_j − ŷ_j‖/‖y_j − ȳ_j‖: the share of the neuron's variation over the
 * sample that the kept neurons do not reproduce. The next layer's refit
 * leaves E W_R of what the removed neurons sent it (E the residuals, W_R
 * their rows of W⁽ⁱ⁺¹⁾), and `refit` is ‖E W_R‖_F/‖(Y_R − Ȳ_R) W_R‖_F: the
 * share of what they did that the refit does not restore. */
#ifndef CONDNET_ALG3_COMBINATION_H
#define CONDNET_ALG3_COMBINATION_H

#include <stddef.h>

#include "alg/alg3_squeeze.h"
#include "base/err.h"
#include "data/dataset.h"
#include "engine/net.h"

typedef struct Alg3Combinations {
	int layer;    /* hidden layer 1..m-1 */
	int n, nkeep; /* its neurons, and how many are kept */
	int *perm;    /* n neuron indices in pivot order: perm[0..nkeep) kept, the rest removed */
	double *coef; /* (n − nkeep) × nkeep: row r is removed neuron perm[nkeep + r] as a
	               * combination of perm[0..nkeep), in that order */
	double *residual; /* n − nkeep relative residuals, in [0, 1] */
	char unit;        /* how units are named in text: 'n' neurons, 'c' channels */
	/* where the refit works (alg3_combinations_act; NULL and 0 until then) */
	int rows;         /* sample rows the activations were fitted on */
	double *act_coef; /* (n − nkeep) × (nkeep + 1): removed neuron perm[nkeep + r]'s
	                   * activation ≈ Σ_k act_coef[k] y_perm[k] + act_coef[nkeep] */
	double *act_residual; /* n − nkeep: ‖y_j − ŷ_j‖/‖y_j − ȳ_j‖ (0 for a constant y_j) */
	double refit; /* ‖E W_R‖_F/‖(Y_R − Ȳ_R) W_R‖_F, 0 when nothing is removed */
} Alg3Combinations;

/* The combinations of hidden layer `layer` of net when it keeps its first
 * nkeep pivots (1..n_i; beyond the n_{i-1} + 1 rows of Ŵ, only the first
 * n_{i-1} + 1 pivots take part). 0, or -1 with a message; out
 * is allocated (alg3_combinations_free). */
int alg3_combinations(const Net *net, int layer, int nkeep, Alg3Combinations *out, Err *e);
/* The same for a proposal of the pivoted-QR criterion (alg3_propose):
 * its layer and nkeep, checked to give its pivot order. */
int alg3_combinations_of(const Net *net, const Alg3Proposal *sp, Alg3Combinations *out, Err *e);
/* The same for what Algorithm 3 at tau (its default options otherwise)
 * decides for the layer as it is now (alg3_propose). */
int alg3_combinations_at(const Net *net, int layer, double tau, Alg3Combinations *out, Err *e);
void alg3_combinations_free(Alg3Combinations *c); /* frees the arrays, not c */

/* The combinations of c (its layer, pivot order and nkeep) in activations:
 * on the rows of sample the refit uses (ALG3_SAMPLE_ROWS at most, evenly
 * spaced), each removed neuron's activation fitted by the kept ones' and a
 * constant, and the refit's share left (see above). 0, or -1 with a
 * message (c's weight-space combinations stay). */
int alg3_combinations_act(const Net *net, const Dataset *sample, Alg3Combinations *c, Err *e);

/* Removed neuron r (0 ≤ r < n − nkeep) as text, neurons numbered from 1:
 * "n17 ≈ 0.62·n3 − 0.21·n8 + 0.05·n1 (residual 0.3 %)", its terms largest
 * first, at most `terms` of them (then " + …" says that more follow), in
 * ASCII ("n17 ~ 0.62*n3 - 0.21*n8 …") when ascii is set; a convolution
 * layer's channels as c17, c3, …. Returns buf. */
const char *alg3_combination_str(const Alg3Combinations *c, int r, int terms, int ascii, char *buf,
                                 size_t len);
/* The least, the median (of an even count, the mean of the two in the
 * middle) and the largest of c's residuals in activations
 * (alg3_combinations_act made them); 0, or -1 when there are none
 * (nothing removed, or no fit). */
int alg3_combinations_spread(const Alg3Combinations *c, double *lo, double *median, double *hi);
/* The same in activations (alg3_combinations_act made them): the constant
 * as a last term when every term is shown, and beside the residual the one
 * in Ŵ: "n17 ≈ 0.91·n3 − 0.05·n8 + … (residual 4.2 %; Ŵ 38.0 %)". */
const char *alg3_combination_act_str(const Alg3Combinations *c, int r, int terms, int ascii,
                                     char *buf, size_t len);
/* The kept neurons' positions in perm of removed neuron r's terms, largest
 * |c_k| first, into order[0..nkeep). */
void alg3_combination_order(const Alg3Combinations *c, int r, int *order);

#endif
