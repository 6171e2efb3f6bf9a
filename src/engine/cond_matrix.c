/* cond_matrix.c - singular values, condition numbers, column-pivoted QR and
 * least squares of plain matrices, through GSL or LAPACK (the path). GSL's
 * default error handler aborts, so it is switched off once and every return
 * code is checked. */
#include "engine/cond_matrix.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "base/blas.h"
#include "base/offload.h"
#include "base/repro.h"
#include "base/signals.h"
#include "engine/hook.h"

static pthread_once_t gsl_once = PTHREAD_ONCE_INIT;

static void gsl_quiet(void)
{
	gsl_set_error_handler_off();
}

static void gsl_init(void)
{
	pthread_once(&gsl_once, gsl_quiet);
}

/* Fails naming the first non-finite entry of a row-major matrix. */
static int check_finite(const double *A, int rows, int cols, Err *e)
{
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++)
			if (!isfinite(A[(size_t)r * cols + c]))
				return err_set(
				    e, "matrix entry (%d, %d) is %g, expected a finite number", r,
				    c, A[(size_t)r * cols + c]);
	return 0;
}

static int check_dims(int rows, int cols, Err *e)
{
	if (rows < 1 || cols < 1)
		return err_set(e, "matrix is %d×%d, expected at least 1×1", rows, cols);
	return 0;
}

/* ---- the path ---- */

static atomic_int path_set;    /* CondPath */
static atomic_int lapack_nthr; /* 0: the online CPUs */
static _Thread_local int keep_blas_threads;

void cond_set_path(CondPath p)
{
	atomic_store(&path_set, (int)p);
}

CondPath cond_get_path(void)
{
	return (CondPath)atomic_load(&path_set);
}

CondPath cond_path_for(int rows, int cols)
{
	CondPath p = cond_get_path();
	if (p != COND_PATH_AUTO)
		return p;
	int k = rows < cols ? rows : cols;
	return k >= COND_LAPACK_MIN && !repro_on() ? COND_PATH_LAPACK : COND_PATH_GSL;
}

static const char *const path_names[] = {"auto", "gsl", "lapack"};

const char *cond_path_name(CondPath p)
{
	return (unsigned)p < 3 ? path_names[p] : "?";
}

int cond_path_parse(const char *s, CondPath *p, Err *e)
{
	for (int i = 0; i < 3; i++)
		if (s && !strcmp(s, path_names[i])) {
			*p = (CondPath)i;
			return 0;
		}
	return err_set(e, "unknown decomposition path '%s' (expected auto, gsl or lapack)",
	               s ? s : "");
}

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

/* What stops a decomposition: the calling thread's stop, or a stop signal
 * (SIGINT, SIGTERM, …) the command took as a request to stop. */
static int stop_asked(void *ud)
{
	(void)ud;
	return hook_thread_stopped() || signals_stop();
}

/* Between LAPACK's blocks: the share done to the thread's meter, and the
 * stop asked. */
static int lapack_tick(double frac, void *ud)
{
	hook_meter(frac);
	return stop_asked(ud);
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
static int lapack_sv_colmajor(double *B, int m, int n, double *sv, int rows, int cols, Err *e)
{
	int before = blas_threads_begin(n);
	int st = blas_svd_values(B, m, n, m, sv, lapack_tick, NULL);
	blas_threads_end(before);
	return st ? lapack_fail(st, "singular values", rows, cols, e) : 0;
}

static int lapack_sv(const double *A, int rows, int cols, double *sv, Err *e)
{
	int m, n;
	double *B = colmajor_tall(A, rows, cols, &m, &n);
	if (!B)
		return err_set(e, "out of memory for the SVD of a %d×%d matrix", rows, cols);
	int rc = lapack_sv_colmajor(B, m, n, sv, rows, cols, e);
	free(B);
	return rc;
}

/* dgeqp3 on the row-major A: perm, rdiag, and R's leading k×k block. */
static int lapack_qrpt(const double *A, int rows, int cols, int *perm, double *rdiag, double *R,
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

/* Copies the row-major A (or its transpose) into a new GSL matrix. */
static gsl_matrix *to_gsl(const double *A, int rows, int cols, int transpose)
{
	gsl_matrix *M = transpose ? gsl_matrix_alloc(cols, rows) : gsl_matrix_alloc(rows, cols);
	if (!M)
		return NULL;
	for (size_t i = 0; i < (size_t)rows; i++)
		for (size_t j = 0; j < (size_t)cols; j++)
			if (transpose)
				gsl_matrix_set(M, j, i, A[i * cols + j]);
			else
				gsl_matrix_set(M, i, j, A[i * cols + j]);
	return M;
}

/* For a tall M (r×c, r > c), M = Q₀R₀ by blocked Householder QR and the
 * c×c triangle R₀ replaces M: it has the same singular values, and column
 * pivoting on R₀ makes the same choices as on M in exact arithmetic (Q₀
 * keeps every column norm and inner product). Frees M on success. */
static gsl_matrix *reduce_tall(gsl_matrix *M, Err *e)
{
	size_t r = M->size1, c = M->size2;
	if (r <= c)
		return M;
	gsl_matrix *T = gsl_matrix_alloc(c, c);
	gsl_matrix *R = gsl_matrix_calloc(c, c);
	if (!T || !R) {
		gsl_matrix_free(T);
		gsl_matrix_free(R);
		err_set(e, "out of memory for the QR of a %zu×%zu matrix", r, c);
		return NULL;
	}
	int st = gsl_linalg_QR_decomp_r(M, T);
	gsl_matrix_free(T);
	if (st) {
		gsl_matrix_free(R);
		err_set(e, "QR of a %zu×%zu matrix failed: %s", r, c, gsl_strerror(st));
		return NULL;
	}
	for (size_t i = 0; i < c; i++)
		for (size_t j = i; j < c; j++)
			gsl_matrix_set(R, i, j, gsl_matrix_get(M, i, j));
	gsl_matrix_free(M);
	return R;
}

/* Singular values only, of M (r×c, r ≥ c, destroyed), descending: GSL's
 * Householder bidiagonalisation M = U B Vᵀ without accumulating U or V, then
 * LAPACK's dbdsqr on B without vectors (blas_dbdsqr_values: dqds, O(c²)). */
static int sv_only(gsl_matrix *M, double *sv, Err *e)
{
	size_t r = M->size1, c = M->size2;
	if (c == 1) {
		gsl_vector_view col = gsl_matrix_column(M, 0);
		double scale = 0.0, ssq = 1.0;
		for (size_t i = 0; i < r; i++) {
			double a = fabs(gsl_vector_get(&col.vector, i));
			if (a == 0.0)
				continue;
			if (scale < a) {
				ssq = 1.0 + ssq * (scale / a) * (scale / a);
				scale = a;
			} else {
				ssq += (a / scale) * (a / scale);
			}
		}
		sv[0] = scale * sqrt(ssq);
		return 0;
	}
	gsl_vector *tu = gsl_vector_alloc(c), *tv = gsl_vector_alloc(c - 1);
	gsl_vector *f = gsl_vector_alloc(c - 1);
	gsl_vector_view d = gsl_vector_view_array(sv, c);
	int rc = -1, st;
	if (!tu || !tv || !f) {
		err_set(e, "out of memory for the singular values of a %zu×%zu matrix", r, c);
		goto out;
	}
	if ((st = gsl_linalg_bidiag_decomp(M, tu, tv)) ||
	    (st = gsl_linalg_bidiag_unpack_B(M, &d.vector, f))) {
		err_set(e, "bidiagonalisation of a %zu×%zu matrix failed: %s", r, c,
		        gsl_strerror(st));
		goto out;
	}
	if ((st = blas_dbdsqr_values(sv, f->data, (int)c))) {
		if (st < 0)
			err_set(e, "out of memory for the singular values of a %zu×%zu matrix", r,
			        c);
		else
			err_set(e, "singular values of a %zu×%zu matrix did not converge", r, c);
		goto out;
	}
	rc = 0;
out:
	gsl_vector_free(tu);
	gsl_vector_free(tv);
	gsl_vector_free(f);
	return rc;
}

/* Singular values at most big·ε·σ₁ are rounding: set to 0. */
static void zero_rounding(double *sv, size_t k, int big)
{
	double tol = big * DBL_EPSILON * sv[0];
	for (size_t j = 0; j < k; j++)
		if (sv[j] <= tol)
			sv[j] = 0.0;
}

/* The singular values of R (k×k, the triangle of a matrix whose longer side
 * is big; destroyed), with those ≤ big·ε·σ₁ set to 0. */
static int sv_reduced(gsl_matrix *R, int big, double *sv, Err *e)
{
	if (sv_only(R, sv, e))
		return -1;
	zero_rounding(sv, R->size2, big);
	return 0;
}

/* What qrpt_reduced computes besides the pivot order: for the columns at
 * pivot positions nkeep.. their combination of the first nkeep (see
 * cond_qrpt_combine), into coef and resid. */
typedef struct Combine {
	int nkeep;
	double *coef, *resid;
} Combine;

static int qrpt_reduced(gsl_matrix *M, int rows, int cols, int *perm, double *rdiag, double *R,
                        const Combine *cb, Err *e);

/* A decomposition of a matrix already copied into M (which it consumes):
 * its singular values, its pivoted QR, or both (M tall); rows × cols name
 * the matrix in messages, big its longer side. */
typedef struct Decomp {
	gsl_matrix *M;
	int rows, cols, big, want_sv, want_qr;
	double *sv, *rdiag, *R; /* the results: the caller's, or the job's own */
	int *perm;
	int own; /* the results are the job's (freed with it) */
	int rc;
	Err e;
} Decomp;

static void decomp_run(void *arg)
{
	Decomp *d = arg;
	gsl_matrix *R = reduce_tall(d->M, &d->e);
	if (!R) {
		gsl_matrix_free(d->M);
		d->M = NULL;
		d->rc = err_prefix(&d->e, d->want_sv ? "singular values" : "pivoted QR");
		return;
	}
	d->M = NULL;
	if (!d->want_qr) {
		d->rc = sv_reduced(R, d->big, d->sv, &d->e);
		gsl_matrix_free(R);
		return;
	}
	if (d->want_sv) {
		gsl_matrix *S = gsl_matrix_alloc(R->size1, R->size2);
		if (!S) {
			gsl_matrix_free(R);
			d->rc = err_set(&d->e, "out of memory for the SVD of a %d×%d matrix",
			                d->rows, d->cols);
			return;
		}
		gsl_matrix_memcpy(S, R);
		d->rc = sv_reduced(S, d->big, d->sv, &d->e);
		gsl_matrix_free(S);
		if (d->rc) {
			gsl_matrix_free(R);
			return;
		}
	}
	d->rc = qrpt_reduced(R, d->rows, d->cols, d->perm, d->rdiag, d->R, NULL, &d->e);
}

static void decomp_free(void *arg)
{
	Decomp *d = arg;
	gsl_matrix_free(d->M);
	if (d->own) {
		free(d->sv);
		free(d->rdiag);
		free(d->R);
		free(d->perm);
	}
	free(d);
}

/* Decompositions of at least this much work (min(r, c)²·max(r, c), about
 * 0.1 s) run where a stop can leave them (base/offload.h); smaller ones,
 * done sooner than a stop is noticed, on the calling thread. */
#define OFFLOAD_WORK 1.5e8

/* Runs d (its M and the sizes set) into the caller's sv, perm, rdiag and R
 * (the pivoted QR's leading k×k block, may be NULL): a large one on a
 * thread of its own, so that a stop (stop_asked) is answered at once and
 * the decomposition left to end alone with its own copies of the results. */
static int decompose(const Decomp *in, double *sv, int *perm, double *rdiag, double *R, Err *e)
{
	double r = in->M->size1, c = in->M->size2;
	double work = r < c ? r * r * c : c * c * r;
	size_t k = in->M->size1 < in->M->size2 ? in->M->size1 : in->M->size2;
	Decomp *d = malloc(sizeof *d);
	if (d) {
		*d = *in;
		d->own = work >= OFFLOAD_WORK;
		d->sv = d->own && sv ? malloc(k * sizeof *sv) : sv;
		d->rdiag = d->own && rdiag ? malloc(k * sizeof *rdiag) : rdiag;
		d->R = d->own && R ? malloc(k * k * sizeof *R) : R;
		d->perm = d->own && perm ? malloc((size_t)in->cols * sizeof *perm) : perm;
	}
	if (!d || (sv && !d->sv) || (rdiag && !d->rdiag) || (R && !d->R) || (perm && !d->perm)) {
		if (d)
			decomp_free(d);
		else
			gsl_matrix_free(in->M);
		return err_set(e, "out of memory for the decomposition of a %d×%d matrix", in->rows,
		               in->cols);
	}
	int st =
	    d->own ? offload_run("decompose", decomp_run, decomp_free, d, stop_asked, NULL) : -1;
	if (st == 1)
		return err_stop(e, "stopped during the decomposition of a %d×%d matrix", in->rows,
		                in->cols);
	if (st < 0)
		decomp_run(d); /* here, when small or when no thread could start */
	int rc = d->rc;
	if (rc)
		*e = d->e;
	else if (d->own) {
		if (sv)
			memcpy(sv, d->sv, k * sizeof *sv);
		if (rdiag)
			memcpy(rdiag, d->rdiag, k * sizeof *rdiag);
		if (R)
			memcpy(R, d->R, k * k * sizeof *R);
		if (perm)
			memcpy(perm, d->perm, (size_t)in->cols * sizeof *perm);
	}
	decomp_free(d);
	return rc;
}

/* σ₁ ≥ … ≥ σ_k, k = min(rows, cols), of A (its transpose when wide). Values
 * below max(rows, cols)·ε·σ₁ are indistinguishable from rounding and are
 * returned as 0, so a singular matrix has κ = ∞. */
int cond_singular_values(const double *A, int rows, int cols, double *sv, Err *e)
{
	if (check_dims(rows, cols, e) || check_finite(A, rows, cols, e))
		return -1;
	if (cond_path_for(rows, cols) == COND_PATH_LAPACK) {
		int rc = lapack_sv(A, rows, cols, sv, e);
		if (rc)
			return rc;
		zero_rounding(sv, rows < cols ? rows : cols, rows < cols ? cols : rows);
		return 0;
	}
	gsl_init();
	int wide = rows < cols;
	int big = wide ? cols : rows;
	gsl_matrix *M = to_gsl(A, rows, cols, wide);
	if (!M)
		return err_set(e, "out of memory for the SVD of a %d×%d matrix", rows, cols);
	Decomp d = {.M = M, .rows = rows, .cols = cols, .big = big, .want_sv = 1};
	return decompose(&d, sv, NULL, NULL, NULL, e);
}

double cond_kappa_sv(const double *sv, int nsv)
{
	if (sv[nsv - 1] <= 0.0 || sv[0] <= 0.0)
		return INFINITY;
	return sv[0] / sv[nsv - 1];
}

/* κ(A) = σ_max/σ_min over min(rows, cols) singular values. */
int cond_kappa_s1(const double *A, int rows, int cols, double *kappa, double *s1, Err *e)
{
	*kappa = NAN;
	if (check_dims(rows, cols, e))
		return -1;
	int nsv = rows < cols ? rows : cols;
	double *sv = malloc((size_t)nsv * sizeof *sv);
	if (!sv)
		return err_set(e, "out of memory for %d singular values", nsv);
	int rc = cond_singular_values(A, rows, cols, sv, e);
	if (rc == 0) {
		*kappa = cond_kappa_sv(sv, nsv);
		if (s1)
			*s1 = sv[0];
	}
	free(sv);
	return rc;
}

int cond_kappa(const double *A, int rows, int cols, double *kappa, Err *e)
{
	return cond_kappa_s1(A, rows, cols, kappa, NULL, e);
}

/* The leading q×q block of the row-major upper triangle R: its σ's on the
 * path of a q×q matrix, then κ. */
int cond_kappa_triangle(const double *R, int ldr, int q, int big, double *kappa, double *s1, Err *e)
{
	*kappa = NAN;
	if (q < 1 || ldr < q)
		return err_set(e, "the leading %d×%d block of a triangle with rows of %d", q, q,
		               ldr);
	double *sv = malloc((size_t)q * sizeof *sv);
	double *B = malloc((size_t)q * q * sizeof *B);
	int rc = -1;
	if (!sv || !B) {
		err_set(e, "out of memory for the singular values of a %d×%d triangle", q, q);
		goto out;
	}
	for (int i = 0; i < q; i++)
		memcpy(B + (size_t)i * q, R + (size_t)i * ldr, (size_t)q * sizeof *B);
	if (check_finite(B, q, q, e))
		goto out;
	if (cond_path_for(q, q) == COND_PATH_LAPACK) {
		/* B read column-major is R₁₁ᵀ: the same σ's */
		rc = lapack_sv_colmajor(B, q, q, sv, q, q, e);
		if (rc == 0)
			zero_rounding(sv, q, big);
	} else {
		gsl_init();
		gsl_matrix *M = gsl_matrix_alloc(q, q);
		if (!M) {
			rc = err_set(e, "out of memory for the singular values of a %d×%d triangle",
			             q, q);
			goto out;
		}
		memcpy(M->data, B, (size_t)q * q * sizeof *B);
		Decomp d = {.M = M, .rows = q, .cols = q, .big = big, .want_sv = 1};
		rc = decompose(&d, sv, NULL, NULL, NULL, e);
	}
	if (rc == 0) {
		*kappa = cond_kappa_sv(sv, q);
		if (s1)
			*s1 = sv[0];
	}
out:
	free(sv);
	free(B);
	return rc;
}

/* With R the triangle of a pivoted QR in M (GSL's layout: R on and above
 * the diagonal), each column t ≥ nkeep of R as R₁₁ c = R[0..nkeep, t]
 * solved by back substitution (gsl_blas_dtrsv), and the share of its norm
 * below row nkeep. */
static int combine(const gsl_matrix *M, size_t k, const Combine *cb, Err *e)
{
	size_t nk = (size_t)cb->nkeep, cols = M->size2, ns = nk < k ? nk : k;
	gsl_matrix_const_view R11 = gsl_matrix_const_submatrix(M, 0, 0, ns, ns);
	for (size_t t = nk; t < cols; t++) {
		double *row = cb->coef + (t - nk) * nk;
		gsl_vector_view c = gsl_vector_view_array(row, ns);
		double below = 0, all = 0;
		for (size_t i = 0; i < nk; i++)
			row[i] = i < ns ? gsl_matrix_get(M, i, t) : 0.0;
		for (size_t i = 0; i <= t && i < k; i++) {
			double v = gsl_matrix_get(M, i, t);
			all += v * v;
			below += i >= ns ? v * v : 0;
		}
		int st =
		    gsl_blas_dtrsv(CblasUpper, CblasNoTrans, CblasNonUnit, &R11.matrix, &c.vector);
		if (st)
			return err_set(e, "back substitution for column %zu failed: %s", t,
			               gsl_strerror(st));
		cb->resid[t - nk] = all > 0 ? sqrt(below / all) : 0;
	}
	return 0;
}

/* The pivoted QR of M, A's triangle from reduce_tall or A itself when it is
 * not tall (rows × cols name A in messages), R's leading block when R is not
 * NULL, and the combinations cb asks for (may be NULL); frees M. */
static int qrpt_reduced(gsl_matrix *M, int rows, int cols, int *perm, double *rdiag, double *R,
                        const Combine *cb, Err *e)
{
	size_t k = M->size1 < M->size2 ? M->size1 : M->size2;
	gsl_vector *tau = gsl_vector_alloc(k);
	gsl_vector *norm = gsl_vector_alloc(cols);
	gsl_permutation *p = gsl_permutation_alloc(cols);
	int rc = -1, signum;
	if (!tau || !norm || !p) {
		err_set(e, "out of memory for the QR of a %d×%d matrix", rows, cols);
		goto out;
	}
	int st = gsl_linalg_QRPT_decomp(M, tau, p, &signum, norm);
	if (st) {
		err_set(e, "pivoted QR of a %d×%d matrix failed: %s", rows, cols, gsl_strerror(st));
		goto out;
	}
	for (int j = 0; j < cols; j++)
		perm[j] = (int)gsl_permutation_get(p, j);
	double r11 = fabs(gsl_matrix_get(M, 0, 0));
	for (size_t j = 0; j < k; j++)
		rdiag[j] = r11 > 0.0 ? fabs(gsl_matrix_get(M, j, j)) / r11 : 0.0;
	for (size_t i = 0; R && i < k; i++)
		for (size_t j = 0; j < k; j++)
			R[i * k + j] = j >= i ? gsl_matrix_get(M, i, j) : 0.0;
	size_t ns = cb && (size_t)cb->nkeep < k ? (size_t)cb->nkeep : k;
	if (cb && gsl_matrix_get(M, ns - 1, ns - 1) == 0.0) {
		err_set(e, "the first %zu pivots of a %d×%d matrix are dependent", ns, rows, cols);
		goto out;
	}
	if (cb && combine(M, k, cb, e))
		goto out;
	rc = 0;
out:
	gsl_matrix_free(M);
	gsl_vector_free(tau);
	gsl_vector_free(norm);
	gsl_permutation_free(p);
	return rc;
}

/* Businger-Golub column pivoting, A P = Q R (gsl_linalg_QRPT_decomp): at step
 * j the remaining column of largest norm is moved to position j, so |r_jj| is
 * non-increasing. perm[j] is the original column at position j. */
int cond_qrpt_r(const double *A, int rows, int cols, int *perm, double *rdiag, double *R, Err *e)
{
	if (check_dims(rows, cols, e) || check_finite(A, rows, cols, e))
		return -1;
	if (cond_path_for(rows, cols) == COND_PATH_LAPACK)
		return lapack_qrpt(A, rows, cols, perm, rdiag, R, e);
	gsl_init();
	gsl_matrix *M = to_gsl(A, rows, cols, 0);
	if (!M)
		return err_set(e, "out of memory for the QR of a %d×%d matrix", rows, cols);
	Decomp d = {.M = M, .rows = rows, .cols = cols, .want_qr = 1};
	return decompose(&d, NULL, perm, rdiag, R, e);
}

int cond_qrpt(const double *A, int rows, int cols, int *perm, double *rdiag, Err *e)
{
	return cond_qrpt_r(A, rows, cols, perm, rdiag, NULL, e);
}

int cond_qrpt_combine(const double *A, int rows, int cols, int nkeep, int *perm, double *coef,
                      double *resid, Err *e)
{
	if (check_dims(rows, cols, e) || check_finite(A, rows, cols, e))
		return -1;
	int k = rows < cols ? rows : cols;
	if (nkeep < 1 || nkeep > cols)
		return err_set(e, "%d columns kept of a %d×%d matrix, expected 1..%d", nkeep, rows,
		               cols, cols);
	double *rdiag = malloc((size_t)k * sizeof *rdiag);
	gsl_init();
	gsl_matrix *M = rdiag ? to_gsl(A, rows, cols, 0) : NULL;
	if (!M) {
		free(rdiag);
		return err_set(e, "out of memory for the QR of a %d×%d matrix", rows, cols);
	}
	gsl_matrix *R = reduce_tall(M, e);
	if (!R) {
		gsl_matrix_free(M);
		free(rdiag);
		return err_prefix(e, "pivoted QR");
	}
	Combine cb = {nkeep, coef, resid};
	int rc = qrpt_reduced(R, rows, cols, perm, rdiag, NULL, nkeep < cols ? &cb : NULL, e);
	free(rdiag);
	return rc;
}

/* For a tall A on GSL's path: the triangle R₀ of A = Q₀R₀ is computed once,
 * its singular values from a copy of it and the pivoted QR from R₀ itself,
 * exactly as cond_singular_values and cond_qrpt each compute them from their
 * own R₀. Otherwise those two are called (the values are about two thirds
 * of the work, for the meter). */
int cond_sv_qrpt(const double *A, int rows, int cols, double *sv, int *perm, double *rdiag, Err *e)
{
	if (rows <= cols || cond_path_for(rows, cols) == COND_PATH_LAPACK) {
		HookPart was = hook_meter_part(NULL, 0.0, 2.0 / 3);
		int rc = cond_singular_values(A, rows, cols, sv, e);
		hook_meter_restore(was);
		if (rc)
			return rc;
		was = hook_meter_part(NULL, 2.0 / 3, 1.0);
		rc = cond_qrpt(A, rows, cols, perm, rdiag, e);
		hook_meter_restore(was);
		return rc;
	}
	if (check_dims(rows, cols, e) || check_finite(A, rows, cols, e))
		return -1;
	gsl_init();
	gsl_matrix *M = to_gsl(A, rows, cols, 0);
	if (!M)
		return err_set(e, "out of memory for the SVD of a %d×%d matrix", rows, cols);
	Decomp d = {.M = M, .rows = rows, .cols = cols, .big = rows, .want_sv = 1, .want_qr = 1};
	return decompose(&d, sv, perm, rdiag, NULL, e);
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

/* A least-squares solve (cond_lstsq_rcond) of its own: A copied into QR,
 * B (the caller's, or a copy of its own when it may be left) and X. */
typedef struct Lstsq {
	gsl_matrix *QR;
	const double *B;
	double *X, rcond;
	int rows, cols, nrhs, rank, own, rc;
	Err e;
} Lstsq;

/* Least squares through the pivoted QR A P = Q R: the numerical rank k is the
 * number of |r_jj| > rcond·|r_11|; x = P [R₁₁⁻¹ (Qᵀb)₁..ₖ; 0], the basic
 * solution (gsl_linalg_QRPT_lssolve2), whose residual is minimal over all x
 * once the columns beyond k are treated as dependent. */
static void lstsq_run(void *arg)
{
	Lstsq *l = arg;
	int rows = l->rows, cols = l->cols, nrhs = l->nrhs, signum;
	gsl_matrix *QR = l->QR;
	gsl_vector *tau = gsl_vector_alloc(cols);
	gsl_vector *norm = gsl_vector_alloc(cols);
	gsl_permutation *p = gsl_permutation_alloc(cols);
	gsl_vector *b = gsl_vector_alloc(rows);
	gsl_vector *x = gsl_vector_alloc(cols);
	gsl_vector *res = gsl_vector_alloc(rows);
	Err *e = &l->e;
	l->rc = -1;
	if (!tau || !norm || !p || !b || !x || !res) {
		err_set(e, "out of memory for least squares on a %d×%d matrix", rows, cols);
		goto out;
	}
	int st = gsl_linalg_QRPT_decomp(QR, tau, p, &signum, norm);
	if (st) {
		err_set(e, "pivoted QR of a %d×%d matrix failed: %s", rows, cols, gsl_strerror(st));
		goto out;
	}
	double r11 = fabs(gsl_matrix_get(QR, 0, 0));
	size_t k = r11 > 0.0 ? gsl_linalg_QRPT_rank(QR, l->rcond * r11) : 0;
	l->rank = (int)k;
	if (k == 0) {
		memset(l->X, 0, (size_t)cols * nrhs * sizeof *l->X);
		l->rc = 0;
		goto out;
	}
	for (int c = 0; c < nrhs; c++) {
		for (int r = 0; r < rows; r++)
			gsl_vector_set(b, r, l->B[(size_t)r * nrhs + c]);
		st = gsl_linalg_QRPT_lssolve2(QR, tau, p, b, k, x, res);
		if (st) {
			err_set(e, "least squares for right-hand side %d failed: %s", c,
			        gsl_strerror(st));
			goto out;
		}
		for (int j = 0; j < cols; j++)
			l->X[(size_t)j * nrhs + c] = gsl_vector_get(x, j);
	}
	l->rc = 0;
out:
	gsl_vector_free(tau);
	gsl_vector_free(norm);
	gsl_permutation_free(p);
	gsl_vector_free(b);
	gsl_vector_free(x);
	gsl_vector_free(res);
}

static void lstsq_free(void *arg)
{
	Lstsq *l = arg;
	gsl_matrix_free(l->QR);
	if (l->own) {
		free((double *)l->B);
		free(l->X);
	}
	free(l);
}

int cond_lstsq_rcond(const double *A, int rows, int cols, const double *B, int nrhs, double *X,
                     double rcond, int *rank, Err *e)
{
	if (check_dims(rows, cols, e))
		return -1;
	if (rows < cols)
		return err_set(e, "least squares on a %d×%d matrix: expected rows ≥ columns", rows,
		               cols);
	if (nrhs < 1)
		return err_set(e, "least squares with %d right-hand sides, expected at least 1",
		               nrhs);
	if (check_finite(A, rows, cols, e) || check_finite(B, rows, nrhs, e))
		return -1;
	gsl_init();
	double work = (double)cols * cols * rows;
	size_t nb = (size_t)rows * nrhs, nx = (size_t)cols * nrhs;
	Lstsq *l = calloc(1, sizeof *l);
	if (l) {
		*l = (Lstsq){.QR = gsl_matrix_alloc(rows, cols),
		             .B = B,
		             .X = X,
		             .rcond = rcond,
		             .rows = rows,
		             .cols = cols,
		             .nrhs = nrhs,
		             .own = work >= OFFLOAD_WORK};
		if (l->own) {
			double *b = malloc(nb * sizeof *b);
			if (b)
				memcpy(b, B, nb * sizeof *b);
			l->B = b;
			l->X = malloc(nx * sizeof *X);
		}
	}
	if (!l || !l->QR || !l->B || !l->X) {
		if (l)
			lstsq_free(l);
		return err_set(e, "out of memory for least squares on a %d×%d matrix", rows, cols);
	}
	memcpy(l->QR->data, A, (size_t)rows * cols * sizeof *A);
	int st =
	    l->own ? offload_run("least squares", lstsq_run, lstsq_free, l, stop_asked, NULL) : -1;
	if (st == 1)
		return err_stop(e, "stopped during least squares on a %d×%d matrix", rows, cols);
	if (st < 0)
		lstsq_run(l);
	int rc = l->rc;
	if (rc)
		*e = l->e;
	else {
		if (l->own)
			memcpy(X, l->X, nx * sizeof *X);
		if (rank)
			*rank = l->rank;
	}
	lstsq_free(l);
	return rc;
}

int cond_lstsq(const double *A, int rows, int cols, const double *B, int nrhs, double *X, Err *e)
{
	return cond_lstsq_rcond(A, rows, cols, B, nrhs, X, COND_LSTSQ_RCOND, NULL, e);
}
