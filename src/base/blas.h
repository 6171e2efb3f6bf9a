/* blas.h - the only door to OpenBLAS. Everything else calls these, so that
 * <cblas.h> is included in one file (it clashes with <gsl/gsl_blas.h>).
 * Linking this module makes every OpenBLAS worker thread compute with
 * subnormals flushed to zero, like condnet's own threads (fpmode.h). */
#ifndef CONDNET_BLAS_H
#define CONDNET_BLAS_H

/* C = alpha·op(A)·op(B) + beta·C, row-major; ta/tb: 0 = as is, 1 = transposed.
 * op(A) is m×k, op(B) is k×n, C is m×n; lda/ldb/ldc are row strides. */
void blas_sgemm(int ta, int tb, int m, int n, int k, float alpha, const float *A, int lda,
		const float *B, int ldb, float beta, float *C, int ldc);
void blas_dgemm(int ta, int tb, int m, int n, int k, double alpha, const double *A, int lda,
		const double *B, int ldb, double beta, double *C, int ldc);
/* C (n×n, upper and lower filled) = alpha·AᵀA + beta·C for row-major A (k×n). */
void blas_dsyrk_t(int n, int k, double alpha, const double *A, int lda, double beta, double *C,
		  int ldc);
/* Stops OpenBLAS's worker threads and starts them again from the calling
 * thread, so they take its floating-point mode (fpmode.h); done once before
 * main() runs. -1 where this OpenBLAS cannot (no blas_thread_shutdown_). Not
 * while another thread is inside OpenBLAS. */
int blas_restart_threads(void);
/* OpenBLAS's thread count (1 or more); 0 leaves it as it is. */
void blas_set_threads(int n);
int blas_get_threads(void);

#endif
