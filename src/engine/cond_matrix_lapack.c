/* cond_matrix_lapack.c - LAPACK's path of the decompositions
 * (cond_matrix.h): its blocked SVD values and pivoted QR (base/blas.h, the
 * door to them) on as many OpenBLAS threads as a matrix is worth, which
 * report their progress to the thread's meter and stop between blocks; and
 * the Gram matrices of a triangle's leading blocks. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/blas.h"
#include "engine/cond_matrix_int.h"

static atomic_int lapack_nthr; /* 0: the online CPUs */
static _Thread_local int keep_blas_threads;

void cond_matrix_set_threads(int n)
{
	atomic_store(&lapack_nthr, n > 0 ? n : 0);
}

void cond_matrix_one_thread(int on)
{
	keep_blas_threads = on;
}

/* OpenBLAS's threads for one LAPACK call on a matrix whose shorter side is
 * k: returns the count to put back. Below COND_PARALLEL_MIN one thread: the
 * hand-offs of the blocks cost more than a second thread gains there. */
static int blas_threads_begin(int k)
{
	int before = blas_get_threads();
	if (keep_blas_threads)
		return before;
	int n = atomic_load(&lapack_nthr);
	if (n == 0) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		n = cpus > 0 ? (int)cpus : 1;
	}
	n = k < COND_PARALLEL_MIN ? 1 : n > 64 ? 64 : n;
	if (n != before)
		blas_set_threads(n);
	return before;
}

static void blas_threads_end(int before)
{
	if (!keep_blas_threads && blas_get_threads() != before)
		blas_set_threads(before);
}

/* Between LAPACK's blocks: the share done to the thread's meter, and the
 * stop asked. */
static int lapack_tick(double frac, void *ud)
{
	hook_meter(frac);
	return cond_stop_asked(ud);
}

/* LAPACK's answer st for the rows×cols matrix: 1 when stopped, else -1. */
static int lapack_fail(int st, const char *what, int rows, int cols, Err *e)
{
	if (st == BLAS_STOPPED)
		return err_stop(e, "stopped during the decomposition of a %d×%d matrix", rows,
		                cols);
	if (st < 0)
		return err_set(e, "out of memory for the %s of a %d×%d matrix", what, rows, cols);
	return err_set(e, "%s of a %d×%d matrix did not converge", what, rows, cols);
}

/* The row-major rows×cols A as a column-major m×n matrix with m ≥ n (A
 * itself when it is wide, read as Aᵀ; its transpose when tall): same σ's. */
static double *colmajor_tall(const double *A, int rows, int cols, int *m, int *n)
{
	double *B = malloc((size_t)rows * cols * sizeof *B);
	if (!B)
		return NULL;
	if (cols >= rows) {
		memcpy(B, A, (size_t)rows * cols * sizeof *B);
		*m = cols;
		*n = rows;
		return B;
	}
	for (size_t i = 0; i < (size_t)rows; i++)
		for (size_t j = 0; j < (size_t)cols; j++)
			B[i + j * rows] = A[i * cols + j];
	*m = rows;
	*n = cols;
	return B;
}

/* The singular values of the column-major m×n B (m ≥ n; destroyed), a
 * rows×cols matrix in messages. */
int cond_lapack_sv_colmajor(double *B, int m, int n, double *sv, int rows, int cols, Err *e)
{
	int before = blas_threads_begin(n);
	int st = blas_svd_values(B, m, n, m, sv, lapack_tick, NULL);
	blas_threads_end(before);
	return st ? lapack_fail(st, "singular values", rows, cols, e) : 0;
}

int cond_lapack_sv(const double *A, int rows, int cols, double *sv, Err *e)
{
	int m, n;
	double *B = colmajor_tall(A, rows, cols, &m, &n);
	if (!B)
		return err_set(e, "out of memory for the SVD of a %d×%d matrix", rows, cols);
	int rc = cond_lapack_sv_colmajor(B, m, n, sv, rows, cols, e);
	free(B);
	return rc;
}

/* dgeqp3 on the row-major A: perm, rdiag, and R's leading k×k block. */
int cond_lapack_qrpt(const double *A, int rows, int cols, int *perm, double *rdiag, double *R,
                     Err *e)
{
	size_t k = rows < cols ? rows : cols;
	double *B = malloc((size_t)rows * cols * sizeof *B);
	if (!B)
		return err_set(e, "out of memory for the QR of a %d×%d matrix", rows, cols);
	for (size_t i = 0; i < (size_t)rows; i++)
		for (size_t j = 0; j < (size_t)cols; j++)
			B[i + j * rows] = A[i * cols + j];
	int before = blas_threads_begin((int)k);
	int st = blas_qrpt(B, rows, cols, rows, perm, lapack_tick, NULL);
	blas_threads_end(before);
	if (st) {
		free(B);
		return lapack_fail(st, "pivoted QR", rows, cols, e);
	}
	double r11 = fabs(B[0]);
	for (size_t j = 0; j < k; j++)
		rdiag[j] = r11 > 0.0 ? fabs(B[j + j * rows]) / r11 : 0.0;
	for (size_t i = 0; R && i < k; i++)
		for (size_t j = 0; j < k; j++)
			R[i * k + j] = j >= i ? B[i + j * rows] : 0.0;
	free(B);
	return 0;
}

struct CondGram {
	int n;
	double *G;    /* n×n, RᵀR */
	double *work; /* n×n */
};

CondGram *cond_gram_new(const double *R, int ldr, int n, Err *e)
{
	CondGram *g = calloc(1, sizeof *g);
	if (g) {
		g->n = n;
		g->G = malloc((size_t)n * n * sizeof *g->G);
		g->work = malloc((size_t)n * n * sizeof *g->work);
	}
	if (!g || !g->G || !g->work) {
		cond_gram_free(g);
		err_set(e, "out of memory for the Gram matrix of a %d×%d triangle", n, n);
		return NULL;
	}
	int before = blas_threads_begin(n);
	blas_dsyrk_t(n, n, 1.0, R, ldr, 0.0, g->G, n);
	blas_threads_end(before);
	return g;
}

int cond_gram_smin_count(CondGram *g, int n, double s)
{
	if (n < 1)
		return 0;
	n = n < g->n ? n : g->n;
	for (int j = 0; j < n; j++)
		memcpy(g->work + (size_t)j * n, g->G + (size_t)j * g->n, (size_t)n * sizeof *g->G);
	for (int j = 0; j < n; j++)
		g->work[(size_t)j * n + j] -= s * s;
	int before = blas_threads_begin(n);
	int q = blas_chol_leading(g->work, n, n);
	blas_threads_end(before);
	return q;
}

void cond_gram_free(CondGram *g)
{
	if (!g)
		return;
	free(g->G);
	free(g->work);
	free(g);
}
