/* cond_bidiag.c - singular values of an upper bidiagonal matrix by the
 * implicit-shift QR iteration, values only. */
#include "engine/cond_bidiag.h"

#include <float.h>
#include <math.h>

/* Givens rotation [c s; −s c] taking (a, b) to (r, 0). */
static void rot(double a, double b, double *c, double *s, double *r)
{
	if (b == 0.0) {
		*c = 1.0;
		*s = 0.0;
		*r = a;
		return;
	}
	double h = sqrt(a * a + b * b);
	if (h < 1e-150 || !isfinite(h))
		h = hypot(a, b);
	*c = a / h;
	*s = b / h;
	*r = h;
}

/* The smaller singular value of the triangle [a b; 0 c]:
 * 2|a||c| / (√((|a|+|c|)² + b²) + √((|a|−|c|)² + b²)), scaled against overflow. */
static double sv2_min(double a, double b, double c)
{
	double fa = fabs(a), ga = fabs(b), ha = fabs(c);
	double mn = fmin(fa, ha), mx = fmax(fa, ha);
	if (mn == 0.0)
		return 0.0;
	double as = 1.0 + mn / mx, at = (mx - mn) / mx;
	if (ga < mx) {
		double au = (ga / mx) * (ga / mx);
		return 2.0 * mn / (sqrt(as * as + au) + sqrt(at * at + au));
	}
	double au = mx / ga;
	if (au == 0.0)
		return mn * mx / ga;
	return 2.0 * mn * au / (sqrt(1.0 + (as * au) * (as * au)) + sqrt(1.0 + (at * au) * (at * au)));
}

/* f_i is negligible beside its neighbours on the diagonal, or absolutely. */
static int negligible(const double *d, const double *f, int i, double tiny)
{
	return fabs(f[i]) <= DBL_EPSILON * (fabs(d[i]) + fabs(d[i + 1])) || fabs(f[i]) <= tiny;
}

/* Singular values of the upper bidiagonal B (diagonal d[0..n), superdiagonal
 * f[0..n-1), both destroyed) into d, unordered. Implicit-shift QR on B
 * (Golub & Kahan; Golub & Van Loan Alg. 8.6.2), values only, O(n²): a sweep
 * on the lowest unreduced block B[p..q] chases the bulge of the shift σ² (σ
 * the smaller singular value of B's trailing 2×2, as in LAPACK's dbdsqr)
 * from top to bottom; f_i is dropped when ≤ ε(|d_i|+|d_{i+1}|) or ≤ ε²‖B‖;
 * a zero d_i is split off by rotating its row (or last column) to zero.
 * B is scaled by a power of 2 first, so no square overflows. Backward
 * stable: |σ̃_j − σ_j| ≲ n·ε·σ₁. */
int cond_bidiag_sv(double *d, double *f, int n)
{
	double norm = 0.0;
	for (int i = 0; i < n; i++)
		norm = fmax(norm, fabs(d[i]) + (i + 1 < n ? fabs(f[i]) : 0.0));
	if (norm == 0.0)
		return 0;
	int ex;
	frexp(norm, &ex);
	for (int i = 0; i < n; i++) {
		d[i] = ldexp(d[i], -ex);
		if (i + 1 < n)
			f[i] = ldexp(f[i], -ex);
	}
	const double tiny = DBL_EPSILON * DBL_EPSILON;
	long sweeps = 0, max_sweeps = 30L * n + 100;
	int q = n - 1;
	while (q > 0) {
		if (negligible(d, f, q - 1, tiny)) {
			f[q - 1] = 0.0;
			q--;
			continue;
		}
		int p = q - 1;
		while (p > 0 && !negligible(d, f, p - 1, tiny))
			p--;
		if (p > 0)
			f[p - 1] = 0.0;
		int z = -1;
		for (int i = p; i <= q && z < 0; i++)
			if (fabs(d[i]) <= tiny)
				z = i;
		double c, s, r, x, y;
		if (z >= 0 && z < q) {
			/* row z against the rows below it: B[z][z+1..q] → 0 */
			d[z] = 0.0;
			x = f[z];
			f[z] = 0.0;
			for (int j = z + 1; j <= q && x != 0.0; j++) {
				rot(d[j], x, &c, &s, &r);
				d[j] = r;
				if (j < q) {
					x = -s * f[j];
					f[j] = c * f[j];
				}
			}
			continue;
		}
		if (z == q) {
			/* column q against the columns left of it: B[p..q-1][q] → 0 */
			d[q] = 0.0;
			x = f[q - 1];
			f[q - 1] = 0.0;
			for (int j = q - 1; j >= p && x != 0.0; j--) {
				rot(d[j], x, &c, &s, &r);
				d[j] = r;
				if (j > p) {
					x = -s * f[j - 1];
					f[j - 1] = c * f[j - 1];
				}
			}
			continue;
		}
		if (++sweeps > max_sweeps)
			return -1;
		double shift = sv2_min(d[q - 1], f[q - 1], d[q]);
		if ((shift / d[p]) * (shift / d[p]) < DBL_EPSILON)
			shift = 0.0;
		/* (d_p² − σ²)/d_p and f_p: the first column of BᵀB − σ²I, scaled */
		x = (fabs(d[p]) - shift) * (copysign(1.0, d[p]) + shift / d[p]);
		y = f[p];
		for (int i = p; i < q; i++) {
			rot(x, y, &c, &s, &r);
			if (i > p)
				f[i - 1] = r;
			x = c * d[i] + s * f[i];
			f[i] = c * f[i] - s * d[i];
			y = s * d[i + 1];
			d[i + 1] = c * d[i + 1];
			rot(x, y, &c, &s, &r);
			d[i] = r;
			x = c * f[i] + s * d[i + 1];
			d[i + 1] = c * d[i + 1] - s * f[i];
			if (i + 1 < q) {
				y = s * f[i + 1];
				f[i + 1] = c * f[i + 1];
			}
		}
		f[q - 1] = x;
	}
	for (int i = 0; i < n; i++)
		d[i] = ldexp(fabs(d[i]), ex);
	return 0;
}
