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

#endif
