/* blas.c - the OpenBLAS calls condnet makes (BLAS and the LAPACK routines
 * of the conditioning), behind plain C signatures, and the floating-point
 * mode of OpenBLAS's worker threads. */
#include "base/blas.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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
extern void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau,
                    double *work, const int *lwork, int *info);
extern void dlabrd_(const int *m, const int *n, const int *nb, double *a, const int *lda, double *d,
                    double *e, double *tauq, double *taup, double *x, const int *ldx, double *y,
                    const int *ldy);
extern void dgebd2_(const int *m, const int *n, double *a, const int *lda, double *d, double *e,
                    double *tauq, double *taup, double *work, int *info);
extern void dlaqps_(const int *m, const int *n, const int *offset, const int *nb, int *kb,
                    double *a, const int *lda, int *jpvt, double *tau, double *vn1, double *vn2,
                    double *auxv, double *f, const int *ldf);
extern void dlaqp2_(const int *m, const int *n, const int *offset, double *a, const int *lda,
                    int *jpvt, double *tau, double *vn1, double *vn2, double *work);
extern void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info,
                    size_t uplo_len);

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

/* LAPACK's own block size and crossover for dgebrd and dgeqp3 (ilaenv's
 * 32 and 128): below BLK_CROSS columns left, the unblocked routine ends. */
enum { BLK_NB = 32, BLK_CROSS = 128 };

/* The share of a one- or two-sided Householder reduction of an m×n matrix
 * done after its first j of k columns: step x costs ∝ (m − x)(n − x). */
static double reduced_frac(double m, double n, double j, double k)
{
	double gj = m * n * j - (m + n) * j * j / 2 + j * j * j / 3;
	double gk = m * n * k - (m + n) * k * k / 2 + k * k * k / 3;
	return gk > 0 ? gj / gk : 1.0;
}

/* dgebrd's loop (LAPACK 3.x) for m ≥ n: dlabrd reduces BLK_NB rows and
 * columns and returns X and Y, two dgemm update the rest, A := A − V Yᵀ −
 * X Uᵀ; dgebd2 ends. d (n) and e (n − 1) receive the upper bidiagonal.
 * tick is asked after every block with the share done in [f0, f1]. */
static int bidiag(double *A, int m, int n, int lda, double *d, double *e, BlasTick tick, void *ud,
                  double f0, double f1)
{
	int nb = BLK_NB, ldx = m, ldy = n, info = 0;
	size_t ws = (size_t)(m + n) * nb + (size_t)m + 2 * (size_t)n;
	double *w = malloc(ws * sizeof *w);
	if (!w)
		return -1;
	double *X = w, *Y = X + (size_t)m * nb, *tauq = Y + (size_t)n * nb, *taup = tauq + n;
	double *w2 = taup + n;
#define AT(i, j) (A + (size_t)(i) + (size_t)(j) * (size_t)lda)
	int i = 0;
	for (; i < n - BLK_CROSS; i += nb) {
		int mi = m - i, ni = n - i;
		dlabrd_(&mi, &ni, &nb, AT(i, i), &lda, d + i, e + i, tauq + i, taup + i, X, &ldx, Y,
		        &ldy);
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, mi - nb, ni - nb, nb, -1.0,
		            AT(i + nb, i), lda, Y + nb, ldy, 1.0, AT(i + nb, i + nb), lda);
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, mi - nb, ni - nb, nb, -1.0,
		            X + nb, ldx, AT(i, i + nb), lda, 1.0, AT(i + nb, i + nb), lda);
		for (int j = i; j < i + nb; j++) {
			*AT(j, j) = d[j];
			*AT(j, j + 1) = e[j];
		}
		if (tick && tick(f0 + (f1 - f0) * reduced_frac(m, n, i + nb, n), ud)) {
			free(w);
			return BLAS_STOPPED;
		}
	}
	int mi = m - i, ni = n - i;
	dgebd2_(&mi, &ni, AT(i, i), &lda, d + i, e + i, tauq + i, taup + i, w2, &info);
#undef AT
	free(w);
	return info < 0 ? -1 : 0;
}

/* A (m×n, m ≥ 2n) := its triangle R (n×n, zeros below) in a new buffer. */
static double *to_triangle(double *A, int m, int n, int lda)
{
	int info = 0, lwork = -1;
	double q;
	dgeqrf_(&m, &n, A, &lda, NULL, &q, &lwork, &info);
	lwork = info == 0 && q >= n ? (int)q : n * BLK_NB;
	double *tau = malloc(((size_t)n + (size_t)lwork) * sizeof *tau);
	double *R = calloc((size_t)n * n, sizeof *R);
	if (!tau || !R) {
		free(tau);
		free(R);
		return NULL;
	}
	dgeqrf_(&m, &n, A, &lda, tau, tau + n, &lwork, &info);
	free(tau);
	if (info) {
		free(R);
		return NULL;
	}
	for (int j = 0; j < n; j++)
		memcpy(R + (size_t)j * n, A + (size_t)j * lda, ((size_t)j + 1) * sizeof *R);
	return R;
}

int blas_svd_values(double *A, int m, int n, int lda, double *sv, BlasTick tick, void *ud)
{
	if (n < 1 || m < n)
		return -1;
	double *R = NULL, f0 = 0.0;
	if (m >= 2 * n) {
		if (!(R = to_triangle(A, m, n, lda)))
			return -1;
		/* dgeqrf's share: 2mn² − 2n³/3 of that and dgebrd's 8n³/3 */
		f0 = (2.0 * m - 2.0 * n / 3) / (2.0 * m + 2.0 * n);
		if (tick && tick(f0, ud)) {
			free(R);
			return BLAS_STOPPED;
		}
		A = R;
		m = lda = n;
	}
	double *e = malloc((size_t)n * sizeof *e);
	int rc = e ? bidiag(A, m, n, lda, sv, e, tick, ud, f0, 1.0) : -1;
	if (rc == 0)
		rc = blas_dbdsqr_values(sv, e, n);
	free(e);
	free(R);
	return rc;
}

/* dgeqp3's loop (LAPACK 3.x) with every column free: the exact column norms
 * into vn1 and vn2, then dlaqps factors up to BLK_NB columns at a time (fewer
 * when a norm has to be computed again), dlaqp2 the last BLK_CROSS. */
int blas_qrpt(double *A, int m, int n, int lda, int *jpvt, BlasTick tick, void *ud)
{
	int k = m < n ? m : n, nb = BLK_NB;
	size_t ws = 4 * (size_t)n + (size_t)nb + (size_t)n * nb;
	double *w = malloc(ws * sizeof *w);
	if (!w)
		return -1;
	double *tau = w, *vn1 = tau + n, *vn2 = vn1 + n, *auxv = vn2 + n, *F = auxv + nb;
	double *work = F + (size_t)n * nb - (size_t)n; /* dlaqp2's n entries, after F's use */
	for (int j = 0; j < n; j++) {
		jpvt[j] = j + 1;
		vn1[j] = vn2[j] = cblas_dnrm2(m, A + (size_t)j * lda, 1);
	}
	int j = 0;
	for (int top = k - BLK_CROSS; j < top;) {
		int jb = top - j < nb ? top - j : nb, nj = n - j, ldf = n - j, fjb = 0;
		dlaqps_(&m, &nj, &j, &jb, &fjb, A + (size_t)j * lda, &lda, jpvt + j, tau + j,
		        vn1 + j, vn2 + j, auxv, F, &ldf);
		j += fjb;
		if (tick && tick(reduced_frac(m, n, j, k), ud)) {
			free(w);
			return BLAS_STOPPED;
		}
	}
	if (j < k) {
		int nj = n - j;
		dlaqp2_(&m, &nj, &j, A + (size_t)j * lda, &lda, jpvt + j, tau + j, vn1 + j, vn2 + j,
		        work);
	}
	for (int c = 0; c < n; c++)
		jpvt[c]--;
	free(w);
	return 0;
}

int blas_chol_leading(double *A, int n, int lda)
{
	int info = 0;
	dpotrf_("L", &n, A, &lda, &info, 1);
	return info < 0 ? -1 : info > 0 ? info - 1 : n;
}
