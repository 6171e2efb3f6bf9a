/* alg3_kloop.h - Algorithm 3's κ loop (lines 6-9) in O(log p) evaluations.
 *
 * The loop keeps the first p pivoted neurons of a layer, p from the |r_jj|
 * threshold, and while κ(Ŵ P(:, 1..p)) > τ and p > 1 drops the last: its
 * answer is the largest p' ≤ p with κ(Ŵ P(:, 1..p')) ≤ τ, or 1. For p' ≤
 * rows the σ's of Ŵ P(:, 1..p') are those of R₁₁(1..p', 1..p'), the leading
 * block of the triangle the pivoted QR already computed, and they interlace
 * as columns are added, so κ grows with p' and the answer can be found by
 * bisection on the blocks of R instead of by one SVD of the stacked columns
 * per step.
 *
 * The decision is the loop's own, evaluation for evaluation where it
 * matters: κ of a block of R differs from κ of the stacked columns by
 * rounding (a relative ε·κ or so), so a block whose κ lies within a band of
 * τ far wider than that decides nothing; there the columns themselves are
 * measured, one at a time from the top as the loop does. On GSL's path (the
 * paper's) the loop's first test and κ of the columns kept are measured on
 * the columns too, so every κ it reports is the loop's to the bit.
 *
 * A guide picks the probes: the Cholesky factor of RᵀR − s²I tells for
 * every leading block at once whether σ_min > s (cond_gram_smin_count), and
 * with σ₁ of the blocks probed so far, where κ crosses τ. It only chooses
 * where to look (plain bisection takes over after GUIDE_MAX guesses or two
 * wrong ones); the probes decide. */
#ifndef CONDNET_ALG3_KLOOP_H
#define CONDNET_ALG3_KLOOP_H

#include "base/err.h"
#include "engine/net.h"

typedef struct KLoopLayer {
	const Net *net;
	int layer;       /* the hidden layer, 1..m-1 */
	const int *perm; /* its neurons in pivot order */
	const double *R; /* the leading k×k block of the pivoted QR's triangle, row-major */
	int k;           /* min(rows, cols) of Ŵ */
	int p_qr;        /* the count the loop starts from, 1..k */
	double tau;      /* τ ≥ 1 */
	double s1;       /* σ₁ of Ŵ (at least that of every block), or 0 */
} KLoopLayer;

typedef struct KLoopResult {
	int nkeep;      /* the loop's answer */
	double kappa;   /* κ(Ŵ P(:, 1..nkeep)): on GSL's path as cond_kappa_columns
	                 * computes it; on LAPACK's, of the block of R when that
	                 * decided (the same σ's, to rounding) */
	int evals_tri;  /* κ of leading blocks of R computed */
	int evals_cols; /* κ of stacked columns computed (cond_kappa_columns) */
	int guided;     /* probes the guide chose */
} KLoopResult;

/* The loop's answer for one layer. guide 0: plain bisection. Reports each
 * probe to the calling thread's meter and asks its stop between probes (and
 * inside the decompositions of a probe, cond_matrix.h). 0; -1 with a
 * message; 1 when stopped, saying where (out is then not the answer). */
int alg3_kloop(const KLoopLayer *in, int guide, KLoopResult *out, Err *e);

#endif
