/* cond_matrix.c - singular values, condition numbers, column-pivoted QR and
 * least squares of plain matrices: the checks of a matrix, and the path it
 * is decomposed on, GSL's (cond_matrix_gsl.c) or LAPACK's
 * (cond_matrix_lapack.c). */
#include "engine/cond_matrix.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/repro.h"
#include "engine/cond_matrix_int.h"

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

static atomic_int path_set; /* CondPath */

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

/* σ₁ ≥ … ≥ σ_k, k = min(rows, cols), of A (its transpose when wide). Values
 * below max(rows, cols)·ε·σ₁ are indistinguishable from rounding and are
 * returned as 0, so a singular matrix has κ = ∞. */
int cond_singular_values(const double *A, int rows, int cols, double *sv, Err *e)
{
	if (check_dims(rows, cols, e) || check_finite(A, rows, cols, e))
		return -1;
	if (cond_path_for(rows, cols) == COND_PATH_LAPACK) {
		int rc = cond_lapack_sv(A, rows, cols, sv, e);
		if (rc)
			return rc;
		cond_zero_rounding(sv, rows < cols ? rows : cols, rows < cols ? cols : rows);
		return 0;
	}
	cond_gsl_init();
	int wide = rows < cols;
	int big = wide ? cols : rows;
	gsl_matrix *M = cond_gsl_matrix(A, rows, cols, wide);
	if (!M)
		return err_set(e, "out of memory for the SVD of a %d×%d matrix", rows, cols);
	CondDecomp d = {.M = M, .rows = rows, .cols = cols, .big = big, .want_sv = 1};
	return cond_gsl_decompose(&d, sv, NULL, NULL, NULL, e);
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
		rc = cond_lapack_sv_colmajor(B, q, q, sv, q, q, e);
		if (rc == 0)
			cond_zero_rounding(sv, q, big);
	} else {
		cond_gsl_init();
		gsl_matrix *M = gsl_matrix_alloc(q, q);
		if (!M) {
			rc = err_set(e, "out of memory for the singular values of a %d×%d triangle",
			             q, q);
			goto out;
		}
		memcpy(M->data, B, (size_t)q * q * sizeof *B);
		CondDecomp d = {.M = M, .rows = q, .cols = q, .big = big, .want_sv = 1};
		rc = cond_gsl_decompose(&d, sv, NULL, NULL, NULL, e);
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

/* Businger-Golub column pivoting, A P = Q R (gsl_linalg_QRPT_decomp): at step
 * j the remaining column of largest norm is moved to position j, so |r_jj| is
 * non-increasing. perm[j] is the original column at position j. */
int cond_qrpt_r(const double *A, int rows, int cols, int *perm, double *rdiag, double *R, Err *e)
{
	if (check_dims(rows, cols, e) || check_finite(A, rows, cols, e))
		return -1;
	if (cond_path_for(rows, cols) == COND_PATH_LAPACK)
		return cond_lapack_qrpt(A, rows, cols, perm, rdiag, R, e);
	cond_gsl_init();
	gsl_matrix *M = cond_gsl_matrix(A, rows, cols, 0);
	if (!M)
		return err_set(e, "out of memory for the QR of a %d×%d matrix", rows, cols);
	CondDecomp d = {.M = M, .rows = rows, .cols = cols, .want_qr = 1};
	return cond_gsl_decompose(&d, NULL, perm, rdiag, R, e);
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
	if (nkeep < 1 || nkeep > cols)
		return err_set(e, "%d columns kept of a %d×%d matrix, expected 1..%d", nkeep, rows,
		               cols, cols);
	return cond_gsl_qrpt_combine(A, rows, cols, nkeep, perm, coef, resid, e);
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
	cond_gsl_init();
	gsl_matrix *M = cond_gsl_matrix(A, rows, cols, 0);
	if (!M)
		return err_set(e, "out of memory for the SVD of a %d×%d matrix", rows, cols);
	CondDecomp d = {
	    .M = M, .rows = rows, .cols = cols, .big = rows, .want_sv = 1, .want_qr = 1};
	return cond_gsl_decompose(&d, sv, perm, rdiag, NULL, e);
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
	return cond_gsl_lstsq(A, rows, cols, B, nrhs, X, rcond, rank, e);
}

int cond_lstsq(const double *A, int rows, int cols, const double *B, int nrhs, double *X, Err *e)
{
	return cond_lstsq_rcond(A, rows, cols, B, nrhs, X, COND_LSTSQ_RCOND, NULL, e);
}

/* Rows gathered before they are compressed: a few times the columns, so
 * that a compression's work is spread over many rows. */
#define LSQ_BLOCK 4096

struct CondLsq {
	int cols, nrhs, k; /* k = cols + nrhs */
	int have;          /* rows of M in use */
	int cap;           /* rows M holds */
	double *M;         /* cap × k: the compressed triangle, then the rows added */
	double *R;         /* k × k */
	int *perm;
	double *rdiag;
};

CondLsq *cond_lsq_new(int cols, int nrhs, Err *e)
{
	if (cols < 1 || nrhs < 1) {
		err_set(e,
		        "least squares of %d columns and %d right-hand sides, expected at least 1",
		        cols, nrhs);
		return NULL;
	}
	CondLsq *q = calloc(1, sizeof *q);
	int k = cols + nrhs;
	if (q) {
		q->cols = cols;
		q->nrhs = nrhs;
		q->k = k;
		q->cap = k + (LSQ_BLOCK > 4 * k ? LSQ_BLOCK : 4 * k);
		q->M = malloc((size_t)q->cap * k * sizeof *q->M);
		q->R = malloc((size_t)k * k * sizeof *q->R);
		q->perm = malloc((size_t)k * sizeof *q->perm);
		q->rdiag = malloc((size_t)k * sizeof *q->rdiag);
	}
	if (!q || !q->M || !q->R || !q->perm || !q->rdiag) {
		cond_lsq_free(q);
		err_set(e, "out of memory for least squares of %d columns", cols);
		return NULL;
	}
	return q;
}

void cond_lsq_free(CondLsq *q)
{
	if (!q)
		return;
	free(q->M);
	free(q->R);
	free(q->perm);
	free(q->rdiag);
	free(q);
}

/* M's rows into the k × k matrix R Pᵀ of their pivoted QR M P = Q R:
 * ‖M z‖ = ‖R Pᵀ z‖ for every z. */
static int lsq_compress(CondLsq *q, Err *e)
{
	int k = q->k;
	if (q->have <= k)
		return 0;
	int rc = cond_qrpt_r(q->M, q->have, k, q->perm, q->rdiag, q->R, e);
	if (rc)
		return rc;
	for (int i = 0; i < k; i++)
		for (int j = 0; j < k; j++)
			q->M[(size_t)i * k + q->perm[j]] = q->R[(size_t)i * k + j];
	q->have = k;
	return 0;
}

int cond_lsq_add(CondLsq *q, const double *A, const double *B, int rows, Err *e)
{
	if (check_finite(A, rows, q->cols, e) || check_finite(B, rows, q->nrhs, e))
		return -1;
	int k = q->k;
	for (int r = 0; r < rows; r++) {
		if (q->have == q->cap) {
			int rc = lsq_compress(q, e);
			if (rc)
				return rc;
		}
		double *row = q->M + (size_t)q->have * k;
		memcpy(row, A + (size_t)r * q->cols, (size_t)q->cols * sizeof *row);
		memcpy(row + q->cols, B + (size_t)r * q->nrhs, (size_t)q->nrhs * sizeof *row);
		q->have++;
	}
	return 0;
}

int cond_lsq_solve(CondLsq *q, double rcond, double *X, int *rank, Err *e)
{
	int k = q->k, rc = lsq_compress(q, e);
	if (rc)
		return rc;
	if (q->have < q->cols)
		return err_set(e, "least squares of %d columns on %d rows", q->cols, q->have);
	double *A = malloc((size_t)q->have * q->cols * sizeof *A);
	double *B = malloc((size_t)q->have * q->nrhs * sizeof *B);
	if (!A || !B) {
		free(A);
		free(B);
		return err_set(e, "out of memory for least squares of %d columns", q->cols);
	}
	for (int i = 0; i < q->have; i++) {
		memcpy(A + (size_t)i * q->cols, q->M + (size_t)i * k, (size_t)q->cols * sizeof *A);
		memcpy(B + (size_t)i * q->nrhs, q->M + (size_t)i * k + q->cols,
		       (size_t)q->nrhs * sizeof *B);
	}
	rc = cond_lstsq_rcond(A, q->have, q->cols, B, q->nrhs, X, rcond, rank, e);
	free(A);
	free(B);
	return rc;
}
