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
 * σ(Σ_k c_k z_k) look alike when the residual is small. */
#ifndef CONDNET_ALG3_COMBINATION_H
#define CONDNET_ALG3_COMBINATION_H

#include <stddef.h>

#include "alg/alg3_squeeze.h"
#include "base/err.h"
#include "engine/net.h"

typedef struct Alg3Combinations {
	int layer;    /* hidden layer 1..m-1 */
	int n, nkeep; /* its neurons, and how many are kept */
	int *perm;    /* n neuron indices in pivot order: perm[0..nkeep) kept, the rest removed */
	double *coef; /* (n − nkeep) × nkeep: row r is removed neuron perm[nkeep + r] as a
	               * combination of perm[0..nkeep), in that order */
	double *residual; /* n − nkeep relative residuals, in [0, 1] */
	char unit;        /* how units are named in text: 'n' neurons, 'c' channels */
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

/* Removed neuron r (0 ≤ r < n − nkeep) as text, neurons numbered from 1:
 * "n17 ≈ 0.62·n3 − 0.21·n8 + 0.05·n1 (residual 0.3 %)", its terms largest
 * first, at most `terms` of them (then " + …" says that more follow), in
 * ASCII ("n17 ~ 0.62*n3 - 0.21*n8 …") when ascii is set; a convolution
 * layer's channels as c17, c3, …. Returns buf. */
const char *alg3_combination_str(const Alg3Combinations *c, int r, int terms, int ascii, char *buf,
                                 size_t len);
/* The kept neurons' positions in perm of removed neuron r's terms, largest
 * |c_k| first, into order[0..nkeep). */
void alg3_combination_order(const Alg3Combinations *c, int r, int *order);

#endif
