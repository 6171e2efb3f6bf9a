/* blas.c - the OpenBLAS calls condnet makes, behind plain C signatures. */
#include "blas.h"

#include <cblas.h>

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
	if (n > 0)
		openblas_set_num_threads(n);
}

int blas_get_threads(void)
{
	return openblas_get_num_threads();
}
