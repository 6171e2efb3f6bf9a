/* cond_matrix.h - singular values, κ, column-pivoted QR and least squares of
 * plain row-major double matrices (through GSL; the per-layer conditioning of
 * a network, engine/cond.h, is built on these).
 *
 * κ(A) = σ₁/σ_k over the k = min(rows, cols) singular values. Column-pivoted
 * QR, A P = Q R, orders the columns from most to least independent; the
 * profile |r_jj|/|r_11| is non-increasing. Every function checks that the
 * matrix is at least 1×1 and finite, and fills an Err instead of aborting
 * (GSL's own error handler is switched off). */
#ifndef CONDNET_COND_MATRIX_H
#define CONDNET_COND_MATRIX_H

#include "base/err.h"

/* Singular values (descending, min(rows,cols) of them) of a row-major
 * matrix; a wide matrix is decomposed through its transpose. */
int cond_singular_values(const double *A, int rows, int cols, double *sv, Err *e);
/* κ of a row-major matrix (σ_max/σ_min over min(rows,cols) values) into
 * *kappa: 0, or -1 with a message (*kappa NaN). */
int cond_kappa(const double *A, int rows, int cols, double *kappa, Err *e);
/* κ from nsv ≥ 1 singular values in descending order: sv[0]/sv[nsv-1], or
 * INFINITY when either is 0. */
double cond_kappa_sv(const double *sv, int nsv);
/* Column-pivoted QR: perm[0..cols) pivot order, rdiag[0..min) |r_jj|/|r_11|. */
int cond_qrpt(const double *A, int rows, int cols, int *perm, double *rdiag, Err *e);
/* cond_qrpt's pivoted QR, A P = Q R (the same perm), and what it says of
 * the columns beyond the first nkeep pivots (1 ≤ nkeep ≤ cols): the column
 * at pivot position t ≥ nkeep is, in least squares, the combination
 * c = R₁₁⁻¹ R[0..nkeep, t] of the first nkeep pivoted columns (R₁₁ the
 * leading nkeep × nkeep triangle), into coef[(t − nkeep)·nkeep ..] in pivot
 * order, and the relative residual ‖a_t − A_K c‖/‖a_t‖ = the norm of
 * R[nkeep.., t] over that of R[.., t] into resid[t − nkeep] (0 for a zero
 * column). With nkeep above k = min(rows, cols), R₁₁ is the leading k × k
 * triangle and the coefficients of the pivots k..nkeep − 1 are 0 (a wide A
 * has rank k at most: the first k pivots span it). Fails when R₁₁ is
 * singular (a zero diagonal entry). */
int cond_qrpt_combine(const double *A, int rows, int cols, int nkeep, int *perm, double *coef,
                      double *resid, Err *e);
/* cond_singular_values and cond_qrpt of the same matrix, with the same
 * results bit for bit; a tall matrix is reduced to its triangle once for
 * both instead of once for each. */
int cond_sv_qrpt(const double *A, int rows, int cols, double *sv, int *perm, double *rdiag, Err *e);

/* Least squares: X (cols×nrhs) minimising ‖A X − B‖_F for row-major A
 * (rows×cols, rows >= cols) and B (rows×nrhs); rank-deficient A is handled
 * through a pivoted QR (minimum-norm not guaranteed, residual minimal). */
int cond_lstsq(const double *A, int rows, int cols, const double *B, int nrhs, double *X, Err *e);

/* The relative cutoff cond_lstsq uses: columns whose |r_jj| ≤ rcond·|r_11|
 * are treated as dependent (their coefficients are 0). The data it serves
 * are float32, whose rounding (6e-8) would otherwise be fitted. */
#define COND_LSTSQ_RCOND 1e-6
/* cond_lstsq with an explicit cutoff; rank (may be NULL) receives the
 * numerical rank used. */
int cond_lstsq_rcond(const double *A, int rows, int cols, const double *B, int nrhs, double *X,
                     double rcond, int *rank, Err *e);

#endif
