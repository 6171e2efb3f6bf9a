/* cond_matrix.h - singular values, κ, column-pivoted QR and least squares of
 * plain row-major double matrices (the per-layer conditioning of a network,
 * engine/cond.h, is built on these).
 *
 * κ(A) = σ₁/σ_k over the k = min(rows, cols) singular values. Column-pivoted
 * QR, A P = Q R, orders the columns from most to least independent; the
 * profile |r_jj|/|r_11| is non-increasing. Every function checks that the
 * matrix is at least 1×1 and finite, and fills an Err instead of aborting
 * (GSL's own error handler is switched off).
 *
 * Two paths compute the singular values and the pivoted QR (least squares
 * is always GSL's):
 *   - GSL's, unblocked Householder (level-2 BLAS): the paper's path, and the
 *     only one before large layers were supported;
 *   - LAPACK's blocked routines inside OpenBLAS (dgebrd then dqds for the
 *     values, dgeqp3 for the pivoted QR), driven block by block so that the
 *     calling thread's meter (hook_set_thread_meter) hears how far they are.
 * Both are backward stable: their σ's agree to rounding (relative error
 * about ε·κ), and their pivot orders agree except where two columns' norms
 * tie to rounding at some step, where each may take either.
 *
 * Both answer a stop: the calling thread's (hook_set_thread_stop) or a stop
 * signal the command took (base/signals.h). LAPACK's path asks it between
 * its blocks; on GSL's, a large decomposition or least-squares solve (about
 * 0.1 s of work or more) runs on a thread of its own (base/offload.h) while
 * the caller asks it, and is left to end alone. When it says stop, the
 * function returns 1 ("stopped during the decomposition of a R×C matrix"),
 * its outputs unset. */
#ifndef CONDNET_COND_MATRIX_H
#define CONDNET_COND_MATRIX_H

#include "base/err.h"

typedef enum CondPath {
	COND_PATH_AUTO = 0, /* LAPACK where the matrix is large, else GSL (cond_path_for) */
	COND_PATH_GSL,
	COND_PATH_LAPACK
} CondPath;

/* Under COND_PATH_AUTO, matrices whose shorter side has at least this many
 * entries go to LAPACK: from there GSL's pivoted QR takes 14 to 45 times
 * LAPACK's time and its values 1.5 to 1.9 times; below, a layer takes under
 * 10 ms on either path, and GSL's gives the results the tests, lessons and
 * stage files were made with (docs/performance.md, bench/cond-scale). */
#define COND_LAPACK_MIN 256
/* From this shorter side on, LAPACK's path runs one matrix on several
 * OpenBLAS threads; below, handing its blocks to a second thread costs more
 * than the thread gains (the values of a 257×256 matrix took 0.014-0.017 s
 * on two threads and 0.005-0.009 s on one, on two shared cores). */
#define COND_PARALLEL_MIN 512

/* The path of the whole process (default COND_PATH_AUTO). */
void cond_set_path(CondPath p);
CondPath cond_get_path(void);
/* The path a rows×cols matrix is decomposed on: the one set, or under AUTO
 * LAPACK when min(rows, cols) ≥ COND_LAPACK_MIN, outside the reproducible
 * mode (base/repro.h: LAPACK's blocks on several OpenBLAS threads are not
 * pinned to the bit), else GSL. */
CondPath cond_path_for(int rows, int cols);
/* "auto", "gsl", "lapack": 0 and *p, or -1 with a message naming s. */
int cond_path_parse(const char *s, CondPath *p, Err *e);
const char *cond_path_name(CondPath p);

/* OpenBLAS threads LAPACK's path runs one matrix on (0, the default: the
 * online CPUs) when its shorter side is at least COND_PARALLEL_MIN, else
 * one; the calling thread's OpenBLAS count is set for the call and put back
 * after. cond_matrix_one_thread(1) makes the calling thread's
 * decompositions keep OpenBLAS as it is (the layers of cond_net, decomposed
 * side by side, each on one). */
void cond_matrix_set_threads(int n);
void cond_matrix_one_thread(int on);

/* Singular values (descending, min(rows,cols) of them) of a row-major
 * matrix; a wide matrix is decomposed through its transpose. */
int cond_singular_values(const double *A, int rows, int cols, double *sv, Err *e);
/* κ of a row-major matrix (σ_max/σ_min over min(rows,cols) values) into
 * *kappa: 0, or -1 with a message (*kappa NaN). */
int cond_kappa(const double *A, int rows, int cols, double *kappa, Err *e);
/* cond_kappa, and σ₁ into *s1 (may be NULL). */
int cond_kappa_s1(const double *A, int rows, int cols, double *kappa, double *s1, Err *e);
/* κ from nsv ≥ 1 singular values in descending order: sv[0]/sv[nsv-1], or
 * INFINITY when either is 0. */
double cond_kappa_sv(const double *sv, int nsv);
/* Column-pivoted QR: perm[0..cols) pivot order, rdiag[0..min) |r_jj|/|r_11|. */
int cond_qrpt(const double *A, int rows, int cols, int *perm, double *rdiag, Err *e);
/* cond_qrpt, and the leading k×k block of the triangle R (k = min(rows,
 * cols)) into R (row-major, k×k, zeros below the diagonal) when R is not
 * NULL: Ŵ P(:, 1..q) has the singular values of R's leading q×q block. */
int cond_qrpt_r(const double *A, int rows, int cols, int *perm, double *rdiag, double *R, Err *e);
/* κ of the leading q×q block of the upper triangle R (row-major, row
 * stride ldr), with the singular values at most big·ε·σ₁ taken as 0, as
 * cond_singular_values takes them for a matrix whose longer side is big,
 * into *kappa, and σ₁ into *s1 (may be NULL): 0, or -1 with a message, or 1
 * when stopped (*kappa NaN both). */
int cond_kappa_triangle(const double *R, int ldr, int q, int big, double *kappa, double *s1,
                        Err *e);
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
 * singular (a zero diagonal entry). Always on GSL's path (the plane's
 * small layers; there the same perm as cond_qrpt's under auto). */
int cond_qrpt_combine(const double *A, int rows, int cols, int nkeep, int *perm, double *coef,
                      double *resid, Err *e);
/* cond_singular_values and cond_qrpt of the same matrix, with the same
 * results bit for bit; a tall matrix is reduced to its triangle once for
 * both instead of once for each. */
int cond_sv_qrpt(const double *A, int rows, int cols, double *sv, int *perm, double *rdiag, Err *e);

/* The leading blocks of an upper triangle R (row-major, stride ldr, n×n)
 * through its Gram matrix G = RᵀR, formed once: the leading q×q block of
 * G − s²I is positive definite exactly when σ_min(R₁₁(1..q)) > s, and
 * Cholesky's factors of the leading blocks are nested, so one Cholesky of
 * G − s²I answers for every q at once. For guesses only: forming G squares
 * the condition, so rounding of order ε·σ₁² may move the answer. */
typedef struct CondGram CondGram;
CondGram *cond_gram_new(const double *R, int ldr, int n, Err *e);
/* The largest q ≤ n (n at most the size given to cond_gram_new) with
 * σ_min(R₁₁(1..q)) > s, from the Cholesky of G's leading n×n block − s²I;
 * -1 when out of memory. */
int cond_gram_smin_count(CondGram *g, int n, double s);
void cond_gram_free(CondGram *g); /* accepts NULL */

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

/* Least squares of a tall system given a block of rows at a time, in the
 * memory of a few blocks: min ‖A X − B‖_F for A of `cols` columns and B of
 * nrhs, however many rows. The rows gathered are compressed now and then to
 * the (cols + nrhs)² triangle of a pivoted QR of [A B] (cond_qrpt_r), which
 * keeps every norm ‖[A B] z‖ and so the solution; the solve is
 * cond_lstsq_rcond's on the compressed system. */
typedef struct CondLsq CondLsq;
CondLsq *cond_lsq_new(int cols, int nrhs, Err *e);
/* Adds `rows` rows: A (rows × cols) and B (rows × nrhs), row-major. 0; -1
 * with a message (a value not finite, no memory); 1 when a compression was
 * stopped (cond_matrix.h's stop). */
int cond_lsq_add(CondLsq *q, const double *A, const double *B, int rows, Err *e);
/* X (cols × nrhs) from the rows added so far (at least cols of them),
 * columns of A with |r_jj| ≤ rcond·|r_11| taken as dependent; the rank used
 * into *rank (may be NULL). 0, -1 or 1 as cond_lsq_add. */
int cond_lsq_solve(CondLsq *q, double rcond, double *X, int *rank, Err *e);
void cond_lsq_free(CondLsq *q); /* accepts NULL */

#endif
