/* haar.c - the orthonormal 2-D Haar transform (GSL's) and the choice of
 * coefficients by column-pivoted QR, computed as a pivoted Cholesky of the
 * Gram matrix; the coarse-to-fine order of the coefficients and the choice by
 * variance, to compare with it. */
#include "data/haar.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_wavelet.h>
#include <gsl/gsl_wavelet2d.h>

#include "base/blas.h"

/* Rows of A handed to one blas_dsyrk_t call (its row count is an int). */
#define GRAM_BLOCK (1L << 20)

static int is_pow2(int n)
{
	return n > 0 && (n & (n - 1)) == 0;
}

/* GSL's default error handler aborts (on an allocation that fails, here):
 * it is switched off once, and every return code is checked. */
static pthread_once_t gsl_once = PTHREAD_ONCE_INIT;

static void gsl_quiet(void)
{
	gsl_set_error_handler_off();
}

/*
 * 2-D Haar pyramid (Mallat ordering): GSL's "non-standard" 2-D transform,
 * gsl_wavelet2d_nstransform with gsl_wavelet_haar. With the orthonormal 1-D
 * step
 *   a_i = (x_2i + x_2i+1)/√2,  d_i = (x_2i − x_2i+1)/√2,  stored as [a | d],
 * each level transforms the rows, then the columns, of the current L×L
 * approximation block (L = n, n/2, …, 2), leaving the detail bands in place;
 * the inverse undoes the levels coarsest first, columns then rows. (GSL's
 * "standard" gsl_wavelet2d_transform would instead transform every row fully,
 * then every column: another basis.) Every step is an orthogonal map, so
 * ‖Hx‖ = ‖x‖ and H⁻¹ = Hᵀ; after the last level out[0] = Σx / n (the DC
 * coefficient). GSL forms a_i as x_2i/√2 + x_2i+1/√2, so its coefficients
 * differ from (x_2i + x_2i+1)/√2 by rounding only. Its loop serves any filter
 * length and takes about twice the time of one written for Haar alone
 * (4.8 µs against 2.3 µs per 32×32 image, AMD EPYC Zen 5): 0.3 s over
 * MNIST's 130,000 transforms, once per feature cache (data/mnist.c).
 */
static int transform(const double *in, double *out, int n, gsl_wavelet_direction dir, Err *e)
{
	if (!is_pow2(n))
		return err_set(e, "a %d×%d image: the Haar transform needs a power of 2", n, n);
	pthread_once(&gsl_once, gsl_quiet);
	gsl_wavelet *w = gsl_wavelet_alloc(gsl_wavelet_haar, 2);
	gsl_wavelet_workspace *ws = gsl_wavelet_workspace_alloc((size_t)n);
	size_t len = (size_t)n;
	int rc = -1;
	if (w && ws) {
		if (out != in)
			memmove(out, in, len * len * sizeof *out);
		if (gsl_wavelet2d_nstransform(w, out, len, len, len, dir, ws) == GSL_SUCCESS)
			rc = 0;
	}
	if (w)
		gsl_wavelet_free(w);
	if (ws)
		gsl_wavelet_workspace_free(ws);
	return rc ? err_set(e, "out of memory for the Haar transform of a %d×%d image", n, n) : 0;
}

int haar2d(const double *in, double *out, int n, Err *e)
{
	return transform(in, out, n, gsl_wavelet_forward, e);
}

int haar2d_inverse(const double *in, double *out, int n, Err *e)
{
	return transform(in, out, n, gsl_wavelet_backward, e);
}

int haar_image(const unsigned char *img, int rows, int cols, int n, double *out, Err *e)
{
	memset(out, 0, (size_t)n * n * sizeof *out);
	for (int r = 0; r < rows && r < n; r++)
		for (int c = 0; c < cols && c < n; c++)
			out[(long)r * n + c] = img[(long)r * cols + c] / 255.0;
	return haar2d(out, out, n, e);
}

/*
 * Column choice of QR with column pivoting, A Π = Q R, without Q.
 *
 * QR with pivoting picks, at step t, the column whose component orthogonal to
 * the columns already chosen has the largest norm. With G = AᵀA and the first
 * t pivots P, that squared norm for column j is the Schur complement
 *   s_j = G_jj − G_jP G_PP⁻¹ G_Pj,
 * which is exactly the remaining diagonal of a Cholesky factorization
 * G = L Lᵀ after t steps. So Cholesky with diagonal pivoting on G picks the
 * same columns in the same order (ties go to the lower index in both).
 *
 * Step t with pivot p: l_t = (G_:p − Σ_{s<t} L_:s L_ps) / √s_p, then
 * s_j −= l_tj². Keeping the k columns of L (cols×k) makes the k steps cost
 * O(cols·k²), within the O(cols²·k) of updating the whole Schur complement.
 * Forming G is one O(rows·cols²) BLAS syrk, streamed over row blocks; a QR of
 * A would instead need all of A in memory (60000×1024 doubles, 490 MB, for
 * MNIST). G squares the condition number, so columns whose remaining norm is
 * below about √ε·‖A‖ are ordered by rounding; the leading pivots are not.
 *
 * If every remaining s_j is exactly zero before k columns are chosen (A has
 * rank < k, e.g. coefficients that vanish on every image), the remaining
 * entries of idx are the columns not yet chosen, in increasing index order.
 */
int haar_select_gram(double *G, int cols, int k, int *idx, Err *e)
{
	if (cols < 1 || k < 0 || k > cols)
		return err_set(
		    e, "haar_select: need 0 <= k <= cols and cols >= 1, got k = %d, cols = %d", k,
		    cols);
	if (k == 0)
		return 0;
	double *s = malloc((size_t)cols * sizeof *s);
	double *L = malloc((size_t)cols * k * sizeof *L);
	char *used = calloc((size_t)cols, 1);
	if (!s || !L || !used) {
		free(s);
		free(L);
		free(used);
		return err_set(e, "haar_select: out of memory for a %d×%d factor", cols, k);
	}
	for (int j = 0; j < cols; j++) {
		double g = G[(long)j * cols + j];
		if (!isfinite(g)) {
			free(s);
			free(L);
			free(used);
			return err_set(e,
			               "haar_select: Gram matrix entry (%d, %d) is %g, expected a "
			               "finite number",
			               j, j, g);
		}
		s[j] = g;
	}
	int t = 0;
	for (; t < k; t++) {
		int p = -1;
		double best = 0.0;
		for (int j = 0; j < cols; j++)
			if (!used[j] && s[j] > best) {
				best = s[j];
				p = j;
			}
		if (p < 0)
			break;
		used[p] = 1;
		idx[t] = p;
		double piv = sqrt(best);
		for (int j = 0; j < cols; j++) {
			if (used[j]) {
				L[(long)j * k + t] = 0.0;
				continue;
			}
			double v = G[(long)j * cols + p];
			for (int q = 0; q < t; q++)
				v -= L[(long)j * k + q] * L[(long)p * k + q];
			v /= piv;
			L[(long)j * k + t] = v;
			s[j] -= v * v;
		}
		L[(long)p * k + t] = piv;
	}
	for (int j = 0; j < cols && t < k; j++)
		if (!used[j])
			idx[t++] = j;
	free(s);
	free(L);
	free(used);
	return 0;
}

/* G = AᵀA accumulated in row blocks, then haar_select_gram(). */
int haar_select(const double *A, long rows, int cols, int k, int *idx, Err *e)
{
	if (rows < 0 || cols < 1 || k < 0 || k > cols)
		return err_set(e,
		               "haar_select: need rows >= 0, cols >= 1, 0 <= k <= cols, got "
		               "rows = %ld, cols = %d, k = %d",
		               rows, cols, k);
	double *G = calloc((size_t)cols * cols, sizeof *G);
	if (!G)
		return err_set(e, "haar_select: out of memory for a %d×%d Gram matrix", cols, cols);
	for (long r0 = 0; r0 < rows; r0 += GRAM_BLOCK) {
		long nb = rows - r0 < GRAM_BLOCK ? rows - r0 : GRAM_BLOCK;
		blas_dsyrk_t(cols, (int)nb, 1.0, A + r0 * cols, cols, 1.0, G, cols);
	}
	int rc = haar_select_gram(G, cols, k, idx, e);
	free(G);
	return rc;
}

int haar_coarse_order(int n, int *order)
{
	if (!is_pow2(n))
		return -1;
	int pos = 0;
	order[pos++] = 0;
	for (int l = 1; l < n; l *= 2)
		for (int i = 0; i < l; i++)
			for (int j = 0; j < l; j++) {
				order[pos++] = i * n + l + j;
				order[pos++] = (l + i) * n + j;
				order[pos++] = (l + i) * n + l + j;
			}
	return 0;
}

/* A column and its variance; sorted by variance down, then index up. */
typedef struct VarCol {
	double v;
	int j;
} VarCol;

static int by_variance(const void *a, const void *b)
{
	const VarCol *x = a, *y = b;
	if (x->v != y->v)
		return x->v > y->v ? -1 : 1;
	return (x->j > y->j) - (x->j < y->j);
}

int haar_select_variance(const double *var, int cols, int k, int *idx, Err *e)
{
	if (cols < 1 || k < 0 || k > cols)
		return err_set(e,
		               "haar_select_variance: need 0 <= k <= cols and cols >= 1, got k = "
		               "%d, cols = %d",
		               k, cols);
	VarCol *all = malloc((size_t)cols * sizeof *all);
	if (!all)
		return err_set(e, "haar_select_variance: out of memory for %d columns", cols);
	for (int j = 0; j < cols; j++) {
		if (!isfinite(var[j])) {
			free(all);
			return err_set(e,
			               "haar_select_variance: the variance of column %d is %g, "
			               "expected a finite number",
			               j, var[j]);
		}
		all[j] = (VarCol){var[j], j};
	}
	qsort(all, (size_t)cols, sizeof *all, by_variance);
	for (int j = 0; j < k; j++)
		idx[j] = all[j].j;
	free(all);
	return 0;
}
