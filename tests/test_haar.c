/* test_haar.c - the Haar transform, pivoted column choice, the coarse order
 * and the choice by variance. */
#include <math.h>
#include <stdint.h>

#include "data/haar.h"
#include "testutil.h"

static uint64_t rng_state;

static double urand(void)
{
	return tu_xorshift(&rng_state);
}

static double dot(const double *a, const double *b, int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}

START_TEST(test_orthonormal_and_inverse)
{
	enum { N = 32, NN = N * N };
	static double x[NN], y[NN], hx[NN], hy[NN], back[NN];
	rng_state = 0x1234567ULL;
	for (int rep = 0; rep < 5; rep++) {
		for (int i = 0; i < NN; i++) {
			x[i] = urand() * 2 - 1;
			y[i] = urand() * 2 - 1;
		}
		haar2d(x, hx, N, NULL);
		haar2d(y, hy, N, NULL);
		ck_assert_double_eq_tol(sqrt(dot(hx, hx, NN)), sqrt(dot(x, x, NN)), 1e-12);
		ck_assert_double_eq_tol(dot(hx, hy, NN), dot(x, y, NN), 1e-11);
		haar2d_inverse(hx, back, N, NULL);
		double err = 0;
		for (int i = 0; i < NN; i++)
			err = fmax(err, fabs(back[i] - x[i]));
		ck_assert_double_lt(err, 1e-12);
		/* In place gives the same as out of place. */
		memcpy(back, x, sizeof x);
		haar2d(back, back, N, NULL);
		ck_assert_mem_eq(back, hx, sizeof hx);
		haar2d_inverse(back, back, N, NULL);
		for (int i = 0; i < NN; i++)
			ck_assert_double_eq_tol(back[i], x[i], 1e-12);
	}
}
END_TEST

START_TEST(test_constant_image)
{
	enum { N = 32, NN = N * N };
	static double x[NN], h[NN];
	for (int i = 0; i < NN; i++)
		x[i] = 0.75;
	haar2d(x, h, N, NULL);
	ck_assert_double_eq_tol(h[0], 32 * 0.75, 1e-12);
	for (int i = 1; i < NN; i++)
		ck_assert_double_eq_tol(h[i], 0.0, 1e-13);
}
END_TEST

START_TEST(test_known_small)
{
	/* 2×2: [a b; c d] -> [s/2, (a-b+c-d)/2; (a+b-c-d)/2, (a-b-c+d)/2]. */
	double x[4] = {1, 2, 3, 5}, h[4];
	haar2d(x, h, 2, NULL);
	ck_assert_double_eq_tol(h[0], 11 / 2.0, 1e-15);
	ck_assert_double_eq_tol(h[1], -3 / 2.0, 1e-15);
	ck_assert_double_eq_tol(h[2], -5 / 2.0, 1e-15);
	ck_assert_double_eq_tol(h[3], 1 / 2.0, 1e-15);
	/* 4×4 unit pixel at (0,0): pyramid ordering, second level in the corner. */
	double u[16] = {1}, hu[16];
	const double want[16] = {0.25, 0.25, 0.5, 0, 0.25, 0.25, 0, 0, 0.5, 0, 0.5, 0, 0, 0, 0, 0};
	haar2d(u, hu, 4, NULL);
	for (int i = 0; i < 16; i++)
		ck_assert_double_eq_tol(hu[i], want[i], 1e-15);
	/* a size that is not a power of 2 fails and says why, the output untouched */
	Err e;
	double odd[9] = {0}, keep[9] = {7};
	ck_assert_int_eq(haar2d(odd, keep, 3, &e), -1);
	ck_assert_str_eq(e.msg, "a 3×3 image: the Haar transform needs a power of 2");
	ck_assert(keep[0] == 7);
	unsigned char px[4] = {0};
	ck_assert_int_eq(haar_image(px, 2, 2, 3, odd, &e), -1);
	ck_assert_str_eq(e.msg, "a 3×3 image: the Haar transform needs a power of 2");
}
END_TEST

START_TEST(test_image_padding)
{
	enum { N = 32 };
	static unsigned char img[28 * 28];
	static double h[N * N], back[N * N];
	for (int i = 0; i < 28 * 28; i++)
		img[i] = (unsigned char)(i % 7 == 0 ? 51 : 255);
	haar_image(img, 28, 28, N, h, NULL);
	haar2d_inverse(h, back, N, NULL);
	for (int r = 0; r < N; r++)
		for (int c = 0; c < N; c++) {
			double want = r < 28 && c < 28 ? img[r * 28 + c] / 255.0 : 0.0;
			ck_assert_double_eq_tol(back[r * N + c], want, 1e-12);
		}
	ck_assert_double_eq_tol(back[0], 0.2, 1e-12);
	/* An all-255 image: DC = 784 / 32. */
	memset(img, 255, sizeof img);
	haar_image(img, 28, 28, N, h, NULL);
	ck_assert_double_eq_tol(h[0], 784.0 / 32, 1e-12);
}
END_TEST

START_TEST(test_select_known_order)
{
	/* Columns: 10e0, 0, 6e1, 7.5e0+3e1 (dependent, norm 8.08 > 6), 3e2,
	 * 0.5e3. QR order: 0, 2, 4, 5; then only exact zeros remain, so the rest
	 * follows in index order: 1, 3. */
	enum { R = 6, C = 6 };
	double A[R * C] = {0};
	A[0 * C + 0] = 10;
	A[1 * C + 2] = 6;
	A[0 * C + 3] = 7.5;
	A[1 * C + 3] = 3;
	A[2 * C + 4] = 3;
	A[3 * C + 5] = 0.5;
	int idx[C], want[C] = {0, 2, 4, 5, 1, 3};
	Err e;
	ck_assert_int_eq(haar_select(A, R, C, C, idx, &e), 0);
	for (int i = 0; i < C; i++)
		ck_assert_int_eq(idx[i], want[i]);
	/* k smaller than the rank stops after k pivots. */
	int idx2[3] = {-1, -1, -1};
	ck_assert_int_eq(haar_select(A, R, C, 2, idx2, &e), 0);
	ck_assert_int_eq(idx2[0], 0);
	ck_assert_int_eq(idx2[1], 2);
	ck_assert_int_eq(idx2[2], -1);
	/* Errors. */
	ck_assert_int_eq(haar_select(A, R, C, C + 1, idx, &e), -1);
	ck_assert_str_eq(e.msg, "haar_select: need rows >= 0, cols >= 1, 0 <= k <= cols, got "
	                        "rows = 6, cols = 6, k = 7");
	double G[4] = {1, 0, 0, NAN};
	ck_assert_int_eq(haar_select_gram(G, 2, 1, idx, &e), -1);
	ck_assert_str_eq(e.msg,
	                 "haar_select: Gram matrix entry (1, 1) is nan, expected a finite number");
}
END_TEST

/* Reference: modified Gram-Schmidt with column pivoting on a copy of A,
 * re-orthogonalized once; the pivots in order. */
static void ref_qrp(const double *A, int rows, int cols, int k, int *piv)
{
	double *M = malloc(sizeof *M * rows * cols);
	double *q = malloc(sizeof *q * rows);
	int *used = calloc(cols, sizeof *used);
	ck_assert(M && q && used);
	memcpy(M, A, sizeof *M * rows * cols);
	for (int t = 0; t < k; t++) {
		int p = -1;
		double best = 0;
		for (int j = 0; j < cols; j++) {
			if (used[j])
				continue;
			double s = 0;
			for (int i = 0; i < rows; i++)
				s += M[i * cols + j] * M[i * cols + j];
			if (s > best) {
				best = s;
				p = j;
			}
		}
		ck_assert_int_ge(p, 0);
		used[p] = 1;
		piv[t] = p;
		for (int i = 0; i < rows; i++)
			q[i] = M[i * cols + p] / sqrt(best);
		for (int pass = 0; pass < 2; pass++)
			for (int j = 0; j < cols; j++) {
				if (used[j])
					continue;
				double r = 0;
				for (int i = 0; i < rows; i++)
					r += q[i] * M[i * cols + j];
				for (int i = 0; i < rows; i++)
					M[i * cols + j] -= r * q[i];
			}
	}
	free(M);
	free(q);
	free(used);
}

START_TEST(test_select_matches_qr)
{
	enum { R = 120, C = 40, K = 30 };
	static double A[R * C];
	rng_state = 0xfeedbeefULL;
	for (int j = 0; j < C; j++) {
		double scale = 0.5 + 1.5 * urand();
		for (int i = 0; i < R; i++)
			A[i * C + j] = scale * (urand() - 0.5);
	}
	int got[K], want[K];
	Err e;
	ck_assert_int_eq(haar_select(A, R, C, K, got, &e), 0);
	ref_qrp(A, R, C, K, want);
	for (int t = 0; t < K; t++)
		ck_assert_int_eq(got[t], want[t]);
}
END_TEST

/* On 4×4 the order haar.h describes; on 32×32 a permutation from the DC
 * coefficient on along which no basis function's support grows, ending at
 * the finest (2×2). */
START_TEST(test_coarse_order)
{
	int o4[16];
	const int want4[16] = {0, 1, 4, 5, 2, 8, 10, 3, 9, 11, 6, 12, 14, 7, 13, 15};
	ck_assert_int_eq(haar_coarse_order(4, o4), 0);
	for (int i = 0; i < 16; i++)
		ck_assert_int_eq(o4[i], want4[i]);
	ck_assert_int_eq(haar_coarse_order(12, o4), -1);

	enum { N = 32, NN = N * N };
	static int order[NN];
	static double unit[NN], basis[NN];
	static char seen[NN];
	ck_assert_int_eq(haar_coarse_order(N, order), 0);
	ck_assert_int_eq(order[0], 0);
	int prev = NN, count[NN + 1] = {0};
	for (int p = 0; p < NN; p++) {
		ck_assert(order[p] >= 0 && order[p] < NN && !seen[order[p]]);
		seen[order[p]] = 1;
		memset(unit, 0, sizeof unit);
		unit[order[p]] = 1;
		haar2d_inverse(unit, basis, N, NULL);
		int support = 0;
		for (int i = 0; i < NN; i++)
			support += fabs(basis[i]) > 1e-12;
		ck_assert_int_le(support, prev);
		prev = support;
		count[support]++;
	}
	/* 4 functions on the whole image, then 3·4^l on (32/2^l)² pixels */
	ck_assert_int_eq(count[1024], 4);
	ck_assert_int_eq(count[256], 12);
	ck_assert_int_eq(count[64], 48);
	ck_assert_int_eq(count[16], 192);
	ck_assert_int_eq(count[4], 768);
}
END_TEST

/* Largest first, equal values by index, and the bad inputs refused. */
START_TEST(test_select_variance)
{
	const double var[6] = {1, 3, 0, 3, 2, 0};
	const int want[6] = {1, 3, 4, 0, 2, 5};
	int idx[6];
	Err e;
	ck_assert_int_eq(haar_select_variance(var, 6, 6, idx, &e), 0);
	for (int j = 0; j < 6; j++)
		ck_assert_int_eq(idx[j], want[j]);
	idx[2] = -1;
	ck_assert_int_eq(haar_select_variance(var, 6, 2, idx, &e), 0);
	ck_assert_int_eq(idx[0], 1);
	ck_assert_int_eq(idx[1], 3);
	ck_assert_int_eq(idx[2], -1);
	ck_assert_int_eq(haar_select_variance(var, 6, 7, idx, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "got k = 7, cols = 6"));
	const double bad[2] = {1, NAN};
	ck_assert_int_eq(haar_select_variance(bad, 2, 1, idx, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "variance of column 1 is nan"));
}
END_TEST

static Suite *haar_suite(void)
{
	Suite *s = suite_create("haar");
	TCase *t = tcase_create("transform");
	tcase_add_test(t, test_orthonormal_and_inverse);
	tcase_add_test(t, test_constant_image);
	tcase_add_test(t, test_known_small);
	tcase_add_test(t, test_image_padding);
	suite_add_tcase(s, t);
	t = tcase_create("select");
	tcase_add_test(t, test_select_known_order);
	tcase_add_test(t, test_select_matches_qr);
	tcase_add_test(t, test_coarse_order);
	tcase_add_test(t, test_select_variance);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(haar_suite());
}
