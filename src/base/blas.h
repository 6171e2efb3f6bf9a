/* blas.h - the only door to OpenBLAS, its BLAS and the LAPACK it bundles.
 * Everything else calls these, so that <cblas.h> is included in one file (it
 * clashes with <gsl/gsl_blas.h>).
 * Linking this module makes every OpenBLAS worker thread compute with
 * subnormals flushed to zero, like condnet's own threads (fpmode.h), and
 * sets OpenBLAS to one thread before main() runs: condnet's threads split
 * the work themselves (pool.h). */
#ifndef CONDNET_BLAS_H
#define CONDNET_BLAS_H

#include "base/err.h"

/* C = alpha·op(A)·op(B) + beta·C, row-major; ta/tb: 0 = as is, 1 = transposed.
 * op(A) is m×k, op(B) is k×n, C is m×n; lda/ldb/ldc are row strides. */
void blas_sgemm(int ta, int tb, int m, int n, int k, float alpha, const float *A, int lda,
                const float *B, int ldb, float beta, float *C, int ldc);
void blas_dgemm(int ta, int tb, int m, int n, int k, double alpha, const double *A, int lda,
                const double *B, int ldb, double beta, double *C, int ldc);
/* C (n×n, upper and lower filled) = alpha·AᵀA + beta·C for row-major A (k×n). */
void blas_dsyrk_t(int n, int k, double alpha, const double *A, int lda, double beta, double *C,
                  int ldc);
/* The singular values of the n×n upper bidiagonal matrix with diagonal
 * d[0..n) and superdiagonal e[0..n-1), into d in descending order: LAPACK's
 * dbdsqr without vectors, which is its dqds algorithm (dlasq1; every σ to
 * high relative accuracy). e is not changed. 0; -1 when out of memory for
 * the workspace (or on an argument LAPACK rejects); LAPACK's info > 0 when
 * it did not converge. */
int blas_dbdsqr_values(double *d, const double *e, int n);

/* The blocked decompositions below call tick (when not NULL) between their
 * blocks with the fraction of their work done (0..1); a non-zero answer
 * stops them, and they return BLAS_STOPPED. A block is 32 columns, so a
 * stop is answered within about 1.5 % of the work of a square matrix. */
typedef int (*BlasTick)(double frac, void *ud);
#define BLAS_STOPPED (-2)

/* The min(m, n) singular values, descending, of the column-major m×n A
 * (leading dimension lda; destroyed), m ≥ n: LAPACK's dgebrd (Householder
 * bidiagonalisation in blocks, half of its work in dgemm), driven one block
 * of dlabrd at a time, then dbdsqr without vectors (dqds). An A with
 * m ≥ 2n is first reduced to its triangle by dgeqrf. 0; -1 when out of
 * memory; BLAS_STOPPED; LAPACK's info > 0 when dqds did not converge. */
int blas_svd_values(double *A, int m, int n, int lda, double *sv, BlasTick tick, void *ud);
/* Column-pivoted QR A P = Q R of the column-major m×n A (destroyed; R in
 * its upper triangle): LAPACK's dgeqp3, driven one block of dlaqps at a
 * time (Businger-Golub pivoting with the column norms downdated as LAPACK
 * does). jpvt[j] (n entries) receives the column of A at position j, from
 * 0. 0, -1 when out of memory, or BLAS_STOPPED. */
int blas_qrpt(double *A, int m, int n, int lda, int *jpvt, BlasTick tick, void *ud);
/* For the column-major symmetric n×n A (lower triangle read; destroyed):
 * the largest k ≤ n whose leading k×k block is positive definite, by
 * LAPACK's Cholesky (dpotrf), or -1 on an argument it rejects. */
int blas_chol_leading(double *A, int n, int lda);
/* Stops OpenBLAS's worker threads and starts them again from the calling
 * thread, so they take its floating-point mode (fpmode.h); done once before
 * main() runs. -1 where this OpenBLAS cannot (no blas_thread_shutdown_). Not
 * while another thread is inside OpenBLAS. */
int blas_restart_threads(void);
/* OpenBLAS's thread count (1 or more); 0, or the count it has, leaves it
 * as it is. Condnet's own threads call OpenBLAS side by side and expect one
 * (trainers and evaluation set it back to one). */
void blas_set_threads(int n);
int blas_get_threads(void);
/* Under an address-space limit (ulimit -v), makes sure that `threads`
 * threads can compute with OpenBLAS at once beside work more bytes of the
 * run's own (an estimate): each needs a buffer of 128 MiB, which is taken
 * now into OpenBLAS's pool (where OpenBLAS finds it), since OpenBLAS spins
 * for ever on one it cannot have. -1 with a message saying how much is
 * needed when the limit leaves too little. Without a limit, nothing. Call
 * before the work, from the thread that starts it. (Before main(), the
 * start of OpenBLAS's own threads is checked the same way: condnet exits
 * with status 1 and such a message when one of them cannot have its
 * buffer.) */
int blas_reserve(int threads, double work, Err *e);
/* 1 when the process runs under an address-space limit. */
int blas_address_limited(void);
/* The family of kernels OpenBLAS picked for this CPU when it loaded
 * ("Haswell", "SkylakeX", "Zen", …; OPENBLAS_CORETYPE overrides it). */
const char *blas_corename(void);
/* OpenBLAS's build configuration: "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH
 * NO_AFFINITY Cooperlake MAX_THREADS=64" (its version, options and
 * kernels). */
const char *blas_config(void);

#endif
