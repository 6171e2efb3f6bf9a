/* haar.c - the orthonormal 2-D Haar transform and the choice of coefficients
 * by column-pivoted QR, computed as a pivoted Cholesky of the Gram matrix. */
#include "data/haar.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/blas.h"

/* Rows of A handed to one blas_dsyrk_t call (its row count is an int). */
#define GRAM_BLOCK (1L << 20)

static int is_pow2(int n)
{
	return n > 0 && (n & (n - 1)) == 0;
}

/* One level of the 1-D transform on len entries spaced stride apart:
 * (x[2i], x[2i+1]) -> a[i] = (x[2i]+x[2i+1])/√2, d[i] = (x[2i]-x[2i+1])/√2,
 * stored as [a | d]. tmp holds len entries. */
static void step_fwd(double *x, int len, int stride, double *tmp)
{
	int h = len / 2;
	for (int i = 0; i < h; i++) {
		double u = x[(long)2 * i * stride], v = x[(long)(2 * i + 1) * stride];
		tmp[i] = (u + v) * M_SQRT1_2;
		tmp[h + i] = (u - v) * M_SQRT1_2;
	}
	for (int i = 0; i < len; i++)
		x[(long)i * stride] = tmp[i];
}

/* The inverse of step_fwd. */
static void step_inv(double *x, int len, int stride, double *tmp)
{
	int h = len / 2;
	for (int i = 0; i < h; i++) {
		double a = x[(long)i * stride], d = x[(long)(h + i) * stride];
		tmp[2 * i] = (a + d) * M_SQRT1_2;
		tmp[2 * i + 1] = (a - d) * M_SQRT1_2;
	}
	for (int i = 0; i < len; i++)
		x[(long)i * stride] = tmp[i];
}

/*
 * 2-D Haar pyramid (Mallat ordering). With the orthonormal 1-D step
 *   a_i = (x_2i + x_2i+1)/√2,  d_i = (x_2i − x_2i+1)/√2,
 * each level transforms the rows, then the columns, of the current L×L
 * approximation block (L = n, n/2, …, 2), leaving the detail bands in place.
 * Every step is an orthogonal map, so ‖Hx‖ = ‖x‖ and H⁻¹ = Hᵀ; after the last
 * level out[0] = Σx / n (the DC coefficient). Non-power-of-2 n is rejected by
 * leaving out untouched.
 */
void haar2d(const double *in, double *out, int n)
{
	if (!is_pow2(n))
		return;
	double tmp[n];
	if (out != in)
		memmove(out, in, (size_t)n * n * sizeof *out);
	for (int len = n; len >= 2; len /= 2) {
		for (int r = 0; r < len; r++)
			step_fwd(out + (long)r * n, len, 1, tmp);
		for (int c = 0; c < len; c++)
			step_fwd(out + c, len, n, tmp);
	}
}

/* Undoes haar2d level by level, coarsest first: columns, then rows. */
void haar2d_inverse(const double *in, double *out, int n)
{
	if (!is_pow2(n))
		return;
	double tmp[n];
	if (out != in)
		memmove(out, in, (size_t)n * n * sizeof *out);
	for (int len = 2; len <= n; len *= 2) {
		for (int c = 0; c < len; c++)
			step_inv(out + c, len, n, tmp);
		for (int r = 0; r < len; r++)
			step_inv(out + (long)r * n, len, 1, tmp);
	}
}

void haar_image(const unsigned char *img, int rows, int cols, int n, double *out)
{
	memset(out, 0, (size_t)n * n * sizeof *out);
	for (int r = 0; r < rows && r < n; r++)
		for (int c = 0; c < cols && c < n; c++)
			out[(long)r * n + c] = img[(long)r * cols + c] / 255.0;
	haar2d(out, out, n);
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
