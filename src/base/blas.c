/* blas.c - the OpenBLAS calls condnet makes (BLAS and one LAPACK routine),
 * behind plain C signatures, and the floating-point mode of OpenBLAS's
 * worker threads. */
#include "base/blas.h"

#include <stddef.h>
#include <stdlib.h>

#include <cblas.h>

#include "base/fpmode.h"
#include "config.h"

#ifdef HAVE_BLAS_THREAD_SHUTDOWN_
/* OpenBLAS (pthreads build) stops its worker threads with this (it is what
 * its fork handler calls); the next openblas_set_num_threads starts them
 * again from the calling thread. */
extern int blas_thread_shutdown_(void);
#endif

/* LAPACK's Fortran interface (OpenBLAS has no header for it without
 * LAPACKE): every argument by reference, then the hidden length of the
 * character argument. configure checks that OpenBLAS exports it. */
extern void dbdsqr_(const char *uplo, const int *n, const int *ncvt, const int *nru, const int *ncc,
                    double *d, double *e, double *vt, const int *ldvt, double *u, const int *ldu,
                    double *c, const int *ldc, double *work, int *info, size_t uplo_len);

int blas_restart_threads(void)
{
#ifdef HAVE_BLAS_THREAD_SHUTDOWN_
	int n = openblas_get_num_threads();
	blas_thread_shutdown_();
	openblas_set_num_threads(n);
	return 0;
#else
	return -1;
#endif
}

/* Before main(): OpenBLAS's constructor has already started its workers in
 * the IEEE default mode. Set FTZ and DAZ in the main thread, then restart
 * the workers from it: a new thread inherits its creator's floating-point
 * environment (POSIX), so every thread OpenBLAS computes on has the mode.
 * Threads OpenBLAS adds later (openblas_set_num_threads) are created by a
 * condnet thread, which has it too.
 * Then OpenBLAS is held at one thread: condnet's own threads share out the
 * work (base/pool.h, the conditioning's threads) and call it side by side;
 * its thread count is one setting for the whole process, and its results
 * change with it. */
__attribute__((constructor)) static void blas_fpmode_init(void)
{
	fpmode_set();
	blas_restart_threads();
	openblas_set_num_threads(1);
}

static enum CBLAS_TRANSPOSE tr(int t)
{
	return t ? CblasTrans : CblasNoTrans;
}

void blas_sgemm(int ta, int tb, int m, int n, int k, float alpha, const float *A, int lda,
                const float *B, int ldb, float beta, float *C, int ldc)
{
	cblas_sgemm(CblasRowMajor, tr(ta), tr(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

void blas_dgemm(int ta, int tb, int m, int n, int k, double alpha, const double *A, int lda,
                const double *B, int ldb, double beta, double *C, int ldc)
{
	cblas_dgemm(CblasRowMajor, tr(ta), tr(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

void blas_dsyrk_t(int n, int k, double alpha, const double *A, int lda, double beta, double *C,
                  int ldc)
{
	/* Row-major C (upper) = alpha·AᵀA + beta·C, then mirrored to the lower half. */
	cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, n, k, alpha, A, lda, beta, C, ldc);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			C[(long)i * ldc + j] = C[(long)j * ldc + i];
}

void blas_set_threads(int n)
{
	if (n > 0 && n != openblas_get_num_threads())
		openblas_set_num_threads(n);
}

int blas_get_threads(void)
{
	return openblas_get_num_threads();
}

const char *blas_corename(void)
{
	const char *s = openblas_get_corename();
	return s && *s ? s : "unknown";
}

/* ncvt = nru = ncc = 0: no vectors, so dbdsqr hands B to dlasq1 (dqds) and
 * the leading dimensions only have to be ≥ 1. work holds dbdsqr's 4n, then a
 * copy of e with n entries: dlasq1 writes e[n-1] when it hands an unfinished
 * B back to dbdsqr's QR iteration. */
int blas_dbdsqr_values(double *d, const double *e, int n)
{
	if (n < 1)
		return 0;
	double *work = malloc(5 * (size_t)n * sizeof *work);
	if (!work)
		return -1;
	double *ecopy = work + 4 * (size_t)n;
	for (int i = 0; i < n - 1; i++)
		ecopy[i] = e[i];
	ecopy[n - 1] = 0.0;
	int zero = 0, one = 1, info = 0;
	dbdsqr_("U", &n, &zero, &zero, &zero, d, ecopy, NULL, &one, NULL, &one, NULL, &one, work,
	        &info, 1);
	free(work);
	return info < 0 ? -1 : info;
}
