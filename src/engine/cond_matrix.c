/* cond_matrix.c - singular values, condition numbers, column-pivoted QR and
 * least squares of plain matrices, through GSL. GSL's default error handler
 * aborts, so it is switched off once and every return code is checked. */
#include "engine/cond_matrix.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "base/blas.h"

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

/* The singular values of R (k×k, the triangle of a matrix whose longer side
 * is big; destroyed), with those ≤ big·ε·σ₁ set to 0. */
static int sv_reduced(gsl_matrix *R, int big, double *sv, Err *e)
{
	size_t k = R->size2;
	if (sv_only(R, sv, e))
		return -1;
	double tol = big * DBL_EPSILON * sv[0];
	for (size_t j = 0; j < k; j++)
		if (sv[j] <= tol)
			sv[j] = 0.0;
	return 0;
}

/* σ₁ ≥ … ≥ σ_k, k = min(rows, cols), of A (its transpose when wide). Values
 * below max(rows, cols)·ε·σ₁ are indistinguishable from rounding and are
 * returned as 0, so a singular matrix has κ = ∞. */
int cond_singular_values(const double *A, int rows, int cols, double *sv, Err *e)
{
	if (check_dims(rows, cols, e) || check_finite(A, rows, cols, e))
		return -1;
	gsl_init();
	int wide = rows < cols;
	int big = wide ? cols : rows;
	gsl_matrix *M = to_gsl(A, rows, cols, wide);
	if (!M)
		return err_set(e, "out of memory for the SVD of a %d×%d matrix", rows, cols);
	gsl_matrix *R = reduce_tall(M, e);
	if (!R) {
		gsl_matrix_free(M);
		return err_prefix(e, "singular values");
	}
	int rc = sv_reduced(R, big, sv, e);
	gsl_matrix_free(R);
	return rc;
}

double cond_kappa_sv(const double *sv, int nsv)
{
	if (sv[nsv - 1] <= 0.0 || sv[0] <= 0.0)
		return INFINITY;
	return sv[0] / sv[nsv - 1];
}

/* κ(A) = σ_max/σ_min over min(rows, cols) singular values. */
int cond_kappa(const double *A, int rows, int cols, double *kappa, Err *e)
{
	*kappa = NAN;
	if (check_dims(rows, cols, e))
		return -1;
	int nsv = rows < cols ? rows : cols;
	double *sv = malloc((size_t)nsv * sizeof *sv);
	if (!sv)
		return err_set(e, "out of memory for %d singular values", nsv);
	int rc = cond_singular_values(A, rows, cols, sv, e);
	if (rc == 0)
		*kappa = cond_kappa_sv(sv, nsv);
	free(sv);
	return rc;
}

/* What qrpt_reduced computes besides the pivot order: for the columns at
 * pivot positions nkeep.. their combination of the first nkeep (see
 * cond_qrpt_combine), into coef and resid. */
typedef struct Combine {
	int nkeep;
	double *coef, *resid;
} Combine;

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
 * not tall (rows × cols name A in messages), and the combinations cb asks
 * for (may be NULL); frees M. */
static int qrpt_reduced(gsl_matrix *M, int rows, int cols, int *perm, double *rdiag,
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
int cond_qrpt(const double *A, int rows, int cols, int *perm, double *rdiag, Err *e)
{
	if (check_dims(rows, cols, e) || check_finite(A, rows, cols, e))
		return -1;
	gsl_init();
	gsl_matrix *M = to_gsl(A, rows, cols, 0);
	if (!M)
		return err_set(e, "out of memory for the QR of a %d×%d matrix", rows, cols);
	gsl_matrix *R = reduce_tall(M, e);
	if (!R) {
		gsl_matrix_free(M);
		return err_prefix(e, "pivoted QR");
	}
	return qrpt_reduced(R, rows, cols, perm, rdiag, NULL, e);
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
	int rc = qrpt_reduced(R, rows, cols, perm, rdiag, nkeep < cols ? &cb : NULL, e);
	free(rdiag);
	return rc;
}

/* For a tall A: the triangle R₀ of A = Q₀R₀ is computed once, its singular
 * values from a copy of it and the pivoted QR from R₀ itself, exactly as
 * cond_singular_values and cond_qrpt each compute them from their own R₀.
 * Otherwise those two are called. */
int cond_sv_qrpt(const double *A, int rows, int cols, double *sv, int *perm, double *rdiag, Err *e)
{
	if (rows <= cols) {
		if (cond_singular_values(A, rows, cols, sv, e))
			return -1;
		return cond_qrpt(A, rows, cols, perm, rdiag, e);
	}
	if (check_dims(rows, cols, e) || check_finite(A, rows, cols, e))
		return -1;
	gsl_init();
	gsl_matrix *M = to_gsl(A, rows, cols, 0);
	gsl_matrix *R = M ? reduce_tall(M, e) : NULL;
	if (!R) {
		if (!M)
			err_set(e, "out of memory for the SVD of a %d×%d matrix", rows, cols);
		gsl_matrix_free(M);
		return -1;
	}
	gsl_matrix *S = gsl_matrix_alloc(R->size1, R->size2);
	if (!S) {
		gsl_matrix_free(R);
		return err_set(e, "out of memory for the SVD of a %d×%d matrix", rows, cols);
	}
	gsl_matrix_memcpy(S, R);
	int rc = sv_reduced(S, rows, sv, e);
	gsl_matrix_free(S);
	if (rc) {
		gsl_matrix_free(R);
		return -1;
	}
	return qrpt_reduced(R, rows, cols, perm, rdiag, NULL, e);
}

/* Least squares through the pivoted QR A P = Q R: the numerical rank k is the
 * number of |r_jj| > rcond·|r_11|; x = P [R₁₁⁻¹ (Qᵀb)₁..ₖ; 0], the basic
 * solution (gsl_linalg_QRPT_lssolve2), whose residual is minimal over all x
 * once the columns beyond k are treated as dependent. */
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
	gsl_matrix *QR = gsl_matrix_alloc(rows, cols);
	gsl_vector *tau = gsl_vector_alloc(cols);
	gsl_vector *norm = gsl_vector_alloc(cols);
	gsl_permutation *p = gsl_permutation_alloc(cols);
	gsl_vector *b = gsl_vector_alloc(rows);
	gsl_vector *x = gsl_vector_alloc(cols);
	gsl_vector *res = gsl_vector_alloc(rows);
	int rc = -1, signum;
	if (!QR || !tau || !norm || !p || !b || !x || !res) {
		err_set(e, "out of memory for least squares on a %d×%d matrix", rows, cols);
		goto out;
	}
	memcpy(QR->data, A, (size_t)rows * cols * sizeof *A);
	int st = gsl_linalg_QRPT_decomp(QR, tau, p, &signum, norm);
	if (st) {
		err_set(e, "pivoted QR of a %d×%d matrix failed: %s", rows, cols, gsl_strerror(st));
		goto out;
	}
	double r11 = fabs(gsl_matrix_get(QR, 0, 0));
	size_t k = r11 > 0.0 ? gsl_linalg_QRPT_rank(QR, rcond * r11) : 0;
	if (rank)
		*rank = (int)k;
	if (k == 0) {
		memset(X, 0, (size_t)cols * nrhs * sizeof *X);
		rc = 0;
		goto out;
	}
	for (int c = 0; c < nrhs; c++) {
		for (int r = 0; r < rows; r++)
			gsl_vector_set(b, r, B[(size_t)r * nrhs + c]);
		st = gsl_linalg_QRPT_lssolve2(QR, tau, p, b, k, x, res);
		if (st) {
			err_set(e, "least squares for right-hand side %d failed: %s", c,
			        gsl_strerror(st));
			goto out;
		}
		for (int j = 0; j < cols; j++)
			X[(size_t)j * nrhs + c] = gsl_vector_get(x, j);
	}
	rc = 0;
out:
	gsl_matrix_free(QR);
	gsl_vector_free(tau);
	gsl_vector_free(norm);
	gsl_permutation_free(p);
	gsl_vector_free(b);
	gsl_vector_free(x);
	gsl_vector_free(res);
	return rc;
}

int cond_lstsq(const double *A, int rows, int cols, const double *B, int nrhs, double *X, Err *e)
{
	return cond_lstsq_rcond(A, rows, cols, B, nrhs, X, COND_LSTSQ_RCOND, NULL, e);
}
