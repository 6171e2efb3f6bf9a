/* test_mnist_inputs.c - the MNIST loader on a set of its own files: its
 * Haar-wavelet features and their cache, a cache it cannot write and the
 * errors it names, and its choices of inputs (pixels, the coarsest
 * coefficients, by variance, all of them) with the coefficients a model
 * records. */
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
	return tu_xorshift(&rng_state);
}

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

static Suite *suite(void)
{
	Suite *s = suite_create("mnist_inputs");
	TCase *t = tcase_create("mnist");
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
	return tu_run(suite());
}
