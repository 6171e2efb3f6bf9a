/* cond_matrix_gsl.c - GSL's path of the decompositions (cond_matrix.h):
 * a tall matrix reduced to its triangle by Householder QR, singular values
 * by bidiagonalisation and LAPACK's dqds, Businger-Golub column pivoting,
 * the combinations a pivoted QR gives, and least squares; a large
 * decomposition on a thread of its own that a stop can leave. GSL's default
 * error handler aborts, so it is switched off once and every return code is
 * checked. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "base/blas.h"
#include "base/offload.h"
#include "engine/cond_matrix_int.h"

static pthread_once_t gsl_once = PTHREAD_ONCE_INIT;

static void gsl_quiet(void)
{
	gsl_set_error_handler_off();
}

void cond_gsl_init(void)
{
	pthread_once(&gsl_once, gsl_quiet);
}

/* Copies the row-major A (or its transpose) into a new GSL matrix. */
gsl_matrix *cond_gsl_matrix(const double *A, int rows, int cols, int transpose)
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
	if (sv_only(R, sv, e))
		return -1;
	cond_zero_rounding(sv, R->size2, big);
	return 0;
}

/* With R the triangle of a pivoted QR in M (GSL's layout: R on and above
 * the diagonal), each column t ≥ nkeep of R as R₁₁ c = R[0..nkeep, t]
 * solved by back substitution (gsl_blas_dtrsv), and the share of its norm
 * below row nkeep. */
/* What qrpt_reduced computes besides the pivot order: for the columns at
 * pivot positions nkeep.. their combination of the first nkeep (see
 * cond_qrpt_combine), into coef and resid. */
typedef struct Combine {
	int nkeep;
	double *coef, *resid;
} Combine;

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

static void decomp_run(void *arg)
{
	CondDecomp *d = arg;
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
	CondDecomp *d = arg;
	gsl_matrix_free(d->M);
	if (d->own) {
		free(d->sv);
		free(d->rdiag);
		free(d->R);
		free(d->perm);
	}
	free(d);
}

/* Runs d (its M and the sizes set) into the caller's sv, perm, rdiag and R
 * (the pivoted QR's leading k×k block, may be NULL): a large one on a
 * thread of its own, so that a stop (cond_stop_asked) is answered at once and
 * the decomposition left to end alone with its own copies of the results. */
int cond_gsl_decompose(const CondDecomp *in, double *sv, int *perm, double *rdiag, double *R,
                       Err *e)
{
	double r = in->M->size1, c = in->M->size2;
	double work = r < c ? r * r * c : c * c * r;
	size_t k = in->M->size1 < in->M->size2 ? in->M->size1 : in->M->size2;
	CondDecomp *d = malloc(sizeof *d);
	if (d) {
		*d = *in;
		d->own = work >= COND_OFFLOAD_WORK;
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
	int st = d->own
	             ? offload_run("decompose", decomp_run, decomp_free, d, cond_stop_asked, NULL)
	             : -1;
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

/* Least squares through the pivoted QR A P = Q R: the numerical rank k is the
 * number of |r_jj| > rcond·|r_11|; x = P [R₁₁⁻¹ (Qᵀb)₁..ₖ; 0], the basic
 * solution (gsl_linalg_QRPT_lssolve2), whose residual is minimal over all x
 * once the columns beyond k are treated as dependent. */
/* A least-squares solve (cond_lstsq_rcond) of its own: A copied into QR,
 * B (the caller's, or a copy of its own when it may be left) and X. */
typedef struct Lstsq {
	gsl_matrix *QR;
	const double *B;
	double *X, rcond;
	int rows, cols, nrhs, rank, own, rc;
	Err e;
} Lstsq;

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

int cond_gsl_qrpt_combine(const double *A, int rows, int cols, int nkeep, int *perm, double *coef,
                          double *resid, Err *e)
{
	int k = rows < cols ? rows : cols;
	double *rdiag = malloc((size_t)k * sizeof *rdiag);
	cond_gsl_init();
	gsl_matrix *M = rdiag ? cond_gsl_matrix(A, rows, cols, 0) : NULL;
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

int cond_gsl_lstsq(const double *A, int rows, int cols, const double *B, int nrhs, double *X,
                   double rcond, int *rank, Err *e)
{
	cond_gsl_init();
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
		             .own = work >= COND_OFFLOAD_WORK};
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
	int st = l->own
	             ? offload_run("least squares", lstsq_run, lstsq_free, l, cond_stop_asked, NULL)
	             : -1;
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
