/* test_haar.c - the Haar transform, pivoted column choice, the coarse order
 * and the choice by variance, and the MNIST wavelet loader with its cache and
 * its choices of inputs. */
#include <math.h>
#include <stdint.h>
#include <sys/stat.h>
#include <zlib.h>

#include "data/haar.h"
#include "data/mnist.h"
#include "testutil.h"

static uint64_t rng_state;

static double urand(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (double)(rng_state >> 11) / 9007199254740992.0;
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

/* ---- the loader on small idx files ---- */

enum { NTR = 40, NTE = 20, FEAT = 16 };
static unsigned char px_tr[NTR * 784], px_te[NTE * 784];
static unsigned char lb_tr[NTR], lb_te[NTE];

static void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* An idx file image: magic 0 0 8 ndim, dims, data. */
static size_t idx_bytes(unsigned char *out, int ndim, int n, const unsigned char *data)
{
	out[0] = out[1] = 0;
	out[2] = 8;
	out[3] = (unsigned char)ndim;
	put_be32(out + 4, (uint32_t)n);
	size_t off = 8, len = (size_t)n;
	if (ndim == 3) {
		put_be32(out + 8, 28);
		put_be32(out + 12, 28);
		off = 16;
		len *= 784;
	}
	memcpy(out + off, data, len);
	return off + len;
}

/* Writes the four files into a fresh directory; the test labels gzipped. */
static const char *write_set(void)
{
	static char dir[512];
	static unsigned char buf[16 + NTR * 784];
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
	rng_state = 0xabcdefULL;
	for (int i = 0; i < NTR * 784; i++)
		px_tr[i] = (unsigned char)(urand() * 256);
	for (int i = 0; i < NTE * 784; i++)
		px_te[i] = (unsigned char)(urand() * 256);
	for (int i = 0; i < NTR; i++)
		lb_tr[i] = (unsigned char)(i % 10);
	for (int i = 0; i < NTE; i++)
		lb_te[i] = (unsigned char)((i * 3) % 10);
	tu_write(dir, "train-images-idx3-ubyte", buf, idx_bytes(buf, 3, NTR, px_tr));
	tu_write(dir, "train-labels-idx1-ubyte", buf, idx_bytes(buf, 1, NTR, lb_tr));
	tu_write(dir, "t10k-images-idx3-ubyte", buf, idx_bytes(buf, 3, NTE, px_te));
	size_t len = idx_bytes(buf, 1, NTE, lb_te);
	char path[600];
	snprintf(path, sizeof path, "%s/t10k-labels-idx1-ubyte.gz", dir);
	gzFile gz = gzopen(path, "wb");
	ck_assert_ptr_nonnull(gz);
	ck_assert_int_eq(gzwrite(gz, buf, (unsigned)len), (int)len);
	ck_assert_int_eq(gzclose(gz), Z_OK);
	return dir;
}

static void spit(const char *path, const void *b, size_t len)
{
	FILE *f = fopen(path, "wb");
	ck_assert(f && fwrite(b, 1, len, f) == len);
	fclose(f);
}

static void assert_same(const Dataset *a, const Dataset *b)
{
	ck_assert_int_eq(a->n, b->n);
	ck_assert_int_eq(a->d, b->d);
	ck_assert_mem_eq(a->x, b->x, sizeof *a->x * a->n * a->d);
	ck_assert_mem_eq(a->y, b->y, sizeof *a->y * a->n);
}

START_TEST(test_mnist_load_and_cache)
{
	const char *dir = write_set();
	char cache[600];
	snprintf(cache, sizeof cache, "%s/tiny-haar%d.cache", dir, FEAT);
	Dataset *tr, *te, *tr2, *te2;
	int *idx, *idx2;
	Err e;
	ck_assert_msg(mnist_load(dir, "tiny", FEAT, &tr, &te, &idx, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(tr->n, NTR);
	ck_assert_int_eq(tr->d, FEAT);
	ck_assert_int_eq(tr->k, 10);
	ck_assert_int_eq(te->n, NTE);
	ck_assert_int_eq(te->d, FEAT);
	ck_assert_str_eq(tr->name, "tiny-haar16 train");
	ck_assert_str_eq(te->name, "tiny-haar16 test");
	for (int i = 0; i < NTR; i++)
		ck_assert_int_eq(tr->y[i], lb_tr[i]);
	for (int i = 0; i < NTE; i++)
		ck_assert_int_eq(te->y[i], lb_te[i]);

	/* The indices are the pivots of the full coefficient matrix. */
	static double A[NTR * 1024], h[1024];
	for (int i = 0; i < NTR; i++)
		haar_image(px_tr + i * 784, 28, 28, 32, A + i * 1024, NULL);
	int want[FEAT];
	ck_assert_int_eq(haar_select(A, NTR, 1024, FEAT, want, &e), 0);
	for (int j = 0; j < FEAT; j++) {
		ck_assert_int_eq(idx[j], want[j]);
		for (int l = 0; l < j; l++)
			ck_assert_int_ne(idx[j], idx[l]);
	}
	for (int j = 0; j < FEAT; j++)
		ck_assert_float_eq(tr->x[3 * FEAT + j], (float)A[3 * 1024 + idx[j]]);
	haar_image(px_te + 7 * 784, 28, 28, 32, h, NULL);
	for (int j = 0; j < FEAT; j++)
		ck_assert_float_eq(te->x[7 * FEAT + j], (float)h[idx[j]]);

	/* Second call: from the cache, identical. */
	size_t clen;
	unsigned char *c1 = tu_read(cache, &clen);
	ck_assert_ptr_nonnull(c1);
	ck_assert_msg(mnist_load(dir, "tiny", FEAT, &tr2, &te2, &idx2, &e) == 0, "%s", e.msg);
	assert_same(tr, tr2);
	assert_same(te, te2);
	ck_assert_mem_eq(idx, idx2, sizeof *idx * FEAT);
	ck_assert_str_eq(tr2->name, "tiny-haar16 train");
	dataset_free(tr2);
	dataset_free(te2);
	free(idx2);

	/* A valid cache is what gets read: plant a value and re-seal it. */
	unsigned char *c2 = malloc(clen);
	memcpy(c2, c1, clen);
	size_t x0 = 36 + 4 * FEAT;
	float planted = 12345.0f;
	uint32_t pv;
	memcpy(&pv, &planted, 4);
	for (int i = 0; i < 4; i++)
		c2[x0 + i] = (unsigned char)(pv >> (8 * i));
	tu_fix_crc(c2, clen);
	spit(cache, c2, clen);
	ck_assert_int_eq(mnist_load(dir, "tiny", FEAT, &tr2, &te2, NULL, &e), 0);
	ck_assert_float_eq(tr2->x[0], 12345.0f);
	dataset_free(tr2);
	dataset_free(te2);

	/* A flipped byte: not trusted, rebuilt and rewritten. */
	memcpy(c2, c1, clen);
	c2[clen / 2] ^= 0x40;
	spit(cache, c2, clen);
	ck_assert_int_eq(mnist_load(dir, "tiny", FEAT, &tr2, &te2, NULL, &e), 0);
	assert_same(tr, tr2);
	assert_same(te, te2);
	dataset_free(tr2);
	dataset_free(te2);
	size_t clen3;
	unsigned char *c3 = tu_read(cache, &clen3);
	ck_assert_uint_eq(clen3, clen);
	ck_assert_mem_eq(c3, c1, clen);
	free(c3);

	/* A sealed cache of the previous version (features of an older
	 * transform) is ignored. */
	memcpy(c2, c1, clen);
	for (int i = 0; i < 4; i++)
		c2[x0 + i] = (unsigned char)(pv >> (8 * i));
	ck_assert_uint_gt(c2[8], 0);
	c2[8]--;
	tu_fix_crc(c2, clen);
	spit(cache, c2, clen);
	ck_assert_int_eq(mnist_load(dir, "tiny", FEAT, &tr2, &te2, NULL, &e), 0);
	ck_assert_float_eq(tr2->x[0], tr->x[0]);
	dataset_free(tr2);
	dataset_free(te2);

	/* Changed inputs: a sealed cache with the old key is ignored. */
	memcpy(c2, c1, clen);
	for (int i = 0; i < 4; i++)
		c2[x0 + i] = (unsigned char)(pv >> (8 * i));
	tu_fix_crc(c2, clen);
	spit(cache, c2, clen);
	px_tr[0] ^= 1;
	static unsigned char buf[16 + NTR * 784];
	tu_write(dir, "train-images-idx3-ubyte", buf, idx_bytes(buf, 3, NTR, px_tr));
	ck_assert_int_eq(mnist_load(dir, "tiny", FEAT, &tr2, &te2, NULL, &e), 0);
	ck_assert_float_ne(tr2->x[0], 12345.0f);
	dataset_free(tr2);
	dataset_free(te2);

	free(c1);
	free(c2);
	dataset_free(tr);
	dataset_free(te);
	free(idx);
	ck_assert_int_eq(tu_rmtree(dir), 0);
}
END_TEST

START_TEST(test_mnist_unwritable_cache_and_errors)
{
	const char *dir = write_set();
	char cache[600];
	snprintf(cache, sizeof cache, "%s/tiny-haar%d.cache", dir, 8);
	/* A directory where the cache would go: it cannot be written or read. */
	ck_assert_int_eq(mkdir(cache, 0755), 0);
	Dataset *tr, *te;
	int *idx;
	Err e;
	ck_assert_msg(mnist_load(dir, "tiny", 8, &tr, &te, &idx, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(tr->n, NTR);
	ck_assert_int_eq(te->d, 8);
	dataset_free(tr);
	dataset_free(te);
	free(idx);

	ck_assert_int_eq(mnist_load(dir, "tiny", 0, &tr, &te, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "tiny: 0 wavelet features asked for, expected 1 to 1024");
	ck_assert_int_eq(mnist_load(dir, "tiny", 1025, &tr, &te, NULL, &e), -1);

	char path[600];
	snprintf(path, sizeof path, "%s/t10k-images-idx3-ubyte", dir);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mnist_load(dir, "tiny", 8, &tr, &te, NULL, &e), -1);
	char want[1400];
	snprintf(want, sizeof want,
	         "tiny: %s/t10k-images-idx3-ubyte: not found (nor t10k-images-idx3-ubyte.gz), "
	         "expected an idx file",
	         dir);
	ck_assert_str_eq(e.msg, want);
	ck_assert_ptr_null(tr);
	ck_assert_int_eq(mnist_load_pixels(dir, &tr, &te, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "not found"));
	ck_assert_int_eq(tu_rmtree(dir), 0);
}
END_TEST

START_TEST(test_mnist_pixels)
{
	const char *dir = write_set();
	Dataset *tr, *te;
	Err e;
	ck_assert_msg(mnist_load_pixels(dir, &tr, &te, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(tr->n, NTR);
	ck_assert_int_eq(tr->d, 784);
	ck_assert_int_eq(te->n, NTE);
	ck_assert_int_eq(te->k, 10);
	for (int i = 0; i < NTR * 784; i += 97)
		ck_assert_float_eq(tr->x[i], px_tr[i] / 255.0f);
	for (int i = 0; i < NTE; i++)
		ck_assert_int_eq(te->y[i], lb_te[i]);
	ck_assert_ptr_nonnull(strstr(tr->name, "-pixels train"));
	dataset_free(tr);
	dataset_free(te);
	ck_assert_int_eq(tu_rmtree(dir), 0);
}
END_TEST

/* Every choice of inputs: its features are the coefficients (or pixels) it
 * names, its indices those its rule gives, and its cache its own: a cache of
 * one choice put under another's name is not read as that one's. */
START_TEST(test_mnist_inputs)
{
	const char *dir = write_set();
	static double htr[NTR * 1024], hte[NTE * 1024], var[1024];
	static int coarse[1024];
	for (int i = 0; i < NTR; i++)
		haar_image(px_tr + i * 784, 28, 28, 32, htr + i * 1024, NULL);
	for (int i = 0; i < NTE; i++)
		haar_image(px_te + i * 784, 28, 28, 32, hte + i * 1024, NULL);
	for (int j = 0; j < 1024; j++) {
		double m = 0, v = 0;
		for (int i = 0; i < NTR; i++)
			m += htr[i * 1024 + j] / NTR;
		for (int i = 0; i < NTR; i++)
			v += (htr[i * 1024 + j] - m) * (htr[i * 1024 + j] - m) / NTR;
		var[j] = v;
	}
	haar_coarse_order(32, coarse);
	const struct {
		MnistInputs kind;
		const char *label;
		int k;
	} kinds[4] = {{MNIST_QR, "tiny-haar16", FEAT},
	              {MNIST_VARIANCE, "tiny-haar16-variance", FEAT},
	              {MNIST_COARSE, "tiny-haar16-coarse", FEAT},
	              {MNIST_ALL, "tiny-haar-all", 1024}};
	int *got[4];
	char path[4][700], want[200];
	Err e;
	for (int c = 0; c < 4; c++) {
		Dataset *tr, *te;
		int k = kinds[c].k;
		ck_assert_msg(
		    mnist_load_inputs(dir, "tiny", kinds[c].kind, FEAT, &tr, &te, &got[c], &e) == 0,
		    "%s", e.msg);
		ck_assert_int_eq(tr->d, k);
		ck_assert_int_eq(te->d, k);
		snprintf(want, sizeof want, "%s train", kinds[c].label);
		ck_assert_str_eq(tr->name, want);
		snprintf(want, sizeof want, "%s test", kinds[c].label);
		ck_assert_str_eq(te->name, want);
		snprintf(path[c], sizeof path[c], "%s/%s.cache", dir, kinds[c].label);
		struct stat st;
		ck_assert_int_eq(stat(path[c], &st), 0);
		ck_assert(S_ISREG(st.st_mode));
		for (int i = 0; i < NTR; i++) {
			ck_assert_int_eq(tr->y[i], lb_tr[i]);
			for (int j = 0; j < k; j++)
				ck_assert_float_eq(tr->x[i * k + j],
				                   (float)htr[i * 1024 + got[c][j]]);
		}
		for (int i = 0; i < NTE; i++) {
			ck_assert_int_eq(te->y[i], lb_te[i]);
			for (int j = 0; j < k; j++)
				ck_assert_float_eq(te->x[i * k + j],
				                   (float)hte[i * 1024 + got[c][j]]);
		}
		dataset_free(tr);
		dataset_free(te);
	}
	/* the paper's: pivoted QR on the training coefficients */
	int qr[FEAT];
	ck_assert_int_eq(haar_select(htr, NTR, 1024, FEAT, qr, &e), 0);
	for (int j = 0; j < FEAT; j++)
		ck_assert_int_eq(got[0][j], qr[j]);
	/* by variance: non-increasing, and none left out has more */
	const int *gv = got[1];
	for (int j = 0; j + 1 < FEAT; j++)
		ck_assert_double_ge(var[gv[j]] * (1 + 1e-9), var[gv[j + 1]]);
	for (int c = 0; c < 1024; c++) {
		int in = 0;
		for (int j = 0; j < FEAT; j++)
			in |= gv[j] == c;
		if (!in)
			ck_assert_double_le(var[c], var[gv[FEAT - 1]] * (1 + 1e-9));
	}
	ck_assert_double_gt(var[gv[FEAT - 1]], 0);
	/* the coarsest, and all in the layout's order */
	for (int j = 0; j < FEAT; j++)
		ck_assert_int_eq(got[2][j], coarse[j]);
	for (int j = 0; j < 1024; j++)
		ck_assert_int_eq(got[3][j], j);
	ck_assert_int_ne(memcmp(got[0], got[1], FEAT * sizeof *got[0]), 0);
	ck_assert_int_ne(memcmp(got[1], got[2], FEAT * sizeof *got[0]), 0);

	/* the variance cache copied over the QR and coarse ones: both built again */
	size_t vlen;
	unsigned char *vc = tu_read(path[1], &vlen);
	ck_assert_ptr_nonnull(vc);
	spit(path[0], vc, vlen);
	spit(path[2], vc, vlen);
	for (int c = 0; c <= 2; c += 2) {
		Dataset *tr, *te;
		int *again;
		ck_assert_int_eq(
		    mnist_load_inputs(dir, "tiny", kinds[c].kind, FEAT, &tr, &te, &again, &e), 0);
		ck_assert_mem_eq(again, got[c], FEAT * sizeof *again);
		size_t len;
		unsigned char *now = tu_read(path[c], &len);
		ck_assert(len != vlen || memcmp(now, vc, len) != 0);
		free(now);
		free(again);
		dataset_free(tr);
		dataset_free(te);
	}
	free(vc);
	for (int c = 0; c < 4; c++)
		free(got[c]);

	/* the pixels: no transform, no cache, no indices */
	Dataset *tr, *te;
	int *none = (int *)&e;
	ck_assert_int_eq(mnist_load_inputs(dir, "tiny", MNIST_PIXELS, FEAT, &tr, &te, &none, &e),
	                 0);
	ck_assert_ptr_null(none);
	ck_assert_int_eq(tr->d, 784);
	ck_assert_str_eq(tr->name, "tiny-pixels train");
	ck_assert_str_eq(te->name, "tiny-pixels test");
	for (int i = 0; i < NTE * 784; i += 13)
		ck_assert_float_eq(te->x[i], px_te[i] / 255.0f);
	dataset_free(tr);
	dataset_free(te);
	snprintf(want, sizeof want, "%s/tiny-pixels.cache", dir);
	ck_assert_int_ne(access(want, F_OK), 0);

	/* the words, and a kind that is none */
	for (int c = MNIST_QR; c <= MNIST_PIXELS; c++)
		ck_assert_int_eq(mnist_inputs_parse(mnist_inputs_name(c)), c);
	ck_assert_str_eq(mnist_inputs_name(MNIST_VARIANCE), "variance");
	ck_assert_int_eq(mnist_inputs_parse("QR"), -1);
	ck_assert_int_eq(mnist_load_inputs(dir, "tiny", (MnistInputs)7, FEAT, &tr, &te, NULL, &e),
	                 -1);
	ck_assert_ptr_null(tr);
	ck_assert_int_eq(tu_rmtree(dir), 0);
}
END_TEST

/* A record's coefficients, whichever choice made them: the same features,
 * to the bit, as the choice's loader gives, under a name of their own and
 * with no cache written; coefficients beyond the 32×32 transform refused. */
START_TEST(test_mnist_coeffs)
{
	const char *dir = write_set();
	Dataset *tr, *te, *rtr, *rte;
	int *idx;
	Err e;
	ck_assert_msg(mnist_load_inputs(dir, "tiny", MNIST_VARIANCE, FEAT, &tr, &te, &idx, &e) == 0,
	              "%s", e.msg);
	char cache[700];
	snprintf(cache, sizeof cache, "%s/tiny-haar16-variance.cache", dir);
	ck_assert_int_eq(unlink(cache), 0);
	ck_assert_msg(mnist_load_coeffs(dir, "tiny", idx, FEAT, &rtr, &rte, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(rtr->d, FEAT);
	ck_assert_int_eq(rtr->n, NTR);
	ck_assert_int_eq(rte->n, NTE);
	ck_assert_mem_eq(rtr->x, tr->x, sizeof(float) * NTR * FEAT);
	ck_assert_mem_eq(rte->x, te->x, sizeof(float) * NTE * FEAT);
	ck_assert_mem_eq(rtr->y, tr->y, sizeof(int) * NTR);
	ck_assert_mem_eq(rte->y, te->y, sizeof(int) * NTE);
	ck_assert_str_eq(rtr->name, "tiny-haar16-recorded train");
	ck_assert_str_eq(rte->name, "tiny-haar16-recorded test");
	ck_assert_int_ne(access(cache, F_OK), 0);
	dataset_free(rtr);
	dataset_free(rte);

	idx[3] = 1024;
	ck_assert_int_eq(mnist_load_coeffs(dir, "tiny", idx, FEAT, &rtr, &rte, &e), -1);
	ck_assert_str_eq(e.msg, "tiny: Haar coefficient 1024 asked for as feature 3, expected 0 "
	                        "to 1023");
	ck_assert_ptr_null(rtr);
	ck_assert_ptr_null(rte);
	ck_assert_int_eq(mnist_load_coeffs(dir, "tiny", idx, 0, &rtr, &rte, &e), -1);
	ck_assert_str_eq(e.msg, "tiny: 0 wavelet features asked for, expected 1 to 1024");
	free(idx);
	dataset_free(tr);
	dataset_free(te);
	ck_assert_int_eq(tu_rmtree(dir), 0);
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
	t = tcase_create("mnist");
	tcase_set_timeout(t, 30);
	tcase_add_test(t, test_mnist_load_and_cache);
	tcase_add_test(t, test_mnist_unwritable_cache_and_errors);
	tcase_add_test(t, test_mnist_pixels);
	tcase_add_test(t, test_mnist_inputs);
	tcase_add_test(t, test_mnist_coeffs);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(haar_suite());
}
