/* test_mnist.c - the MNIST loader's feature cache: written on the first
 * run, read on the next; a cache that is not a regular file is neither
 * opened nor replaced; one whose contents are bad (NaN under a valid CRC, a
 * stale key) is refused by mnist_cache_read with the reason, and mnist_load
 * builds it again and replaces it. */
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <zlib.h>

#include "data/mnist.h"
#include "testutil.h"

#define NIMG 12

static char dir[512], cache[700];

/* Four idx files of NIMG 8×8 images with labels 0..9. */
static void make_set(void)
{
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
	snprintf(cache, sizeof cache, "%s/mnist-haar4.cache", dir);
	uint8_t img[16 + NIMG * 64], lab[8 + NIMG];
	const uint8_t ih[16] = {0, 0, 8, 3, 0, 0, 0, NIMG, 0, 0, 0, 8, 0, 0, 0, 8};
	const uint8_t lh[8] = {0, 0, 8, 1, 0, 0, 0, NIMG};
	memcpy(img, ih, 16);
	memcpy(lab, lh, 8);
	for (int i = 0; i < NIMG * 64; i++)
		img[16 + i] = (uint8_t)((i * 37 + i / 64 * 11) % 256);
	for (int i = 0; i < NIMG; i++)
		lab[8 + i] = (uint8_t)(i % 10);
	tu_write(dir, "train-images-idx3-ubyte", img, sizeof img);
	tu_write(dir, "t10k-images-idx3-ubyte", img, sizeof img);
	tu_write(dir, "train-labels-idx1-ubyte", lab, sizeof lab);
	tu_write(dir, "t10k-labels-idx1-ubyte", lab, sizeof lab);
}

static void load_ok(Dataset **tr, Dataset **te)
{
	Err e;
	ck_assert_msg(mnist_load(dir, "mnist", 4, tr, te, NULL, &e) == 0, "%s", e.msg);
	ck_assert_int_eq((*tr)->n, NIMG);
	ck_assert_int_eq((*tr)->d, 4);
}

static void same_sets(const Dataset *a, const Dataset *b)
{
	ck_assert_int_eq(a->n, b->n);
	ck_assert_mem_eq(a->x, b->x, (size_t)a->n * a->d * sizeof *a->x);
	ck_assert_mem_eq(a->y, b->y, (size_t)a->n * sizeof *a->y);
}

START_TEST(test_cache_written_and_read)
{
	Dataset *tr, *te, *tr2, *te2;
	make_set();
	load_ok(&tr, &te);
	struct stat st;
	ck_assert_int_eq(stat(cache, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	size_t len;
	unsigned char *c = tu_read(cache, &len);
	int *idx;
	Err e;
	ck_assert_msg(
	    mnist_cache_read(cache, 4, 32, get_u32(c + 32), "mnist", &tr2, &te2, &idx, &e) == 0,
	    "%s", e.msg);
	same_sets(tr, tr2);
	same_sets(te, te2);
	free(idx);
	dataset_free(tr2);
	dataset_free(te2);
	/* another key (other inputs) or another k: refused with the reason */
	ck_assert_int_eq(
	    mnist_cache_read(cache, 4, 32, get_u32(c + 32) ^ 1, "mnist", &tr2, &te2, &idx, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "made by another version, for other features"));
	ck_assert_int_eq(
	    mnist_cache_read(cache, 5, 32, get_u32(c + 32), "mnist", &tr2, &te2, &idx, &e), -1);
	free(c);
	dataset_free(tr);
	dataset_free(te);
}
END_TEST

/* NaN in a feature with a CRC that matches: refused by name, then built
 * again and replaced by mnist_load. (It used to load, and the NaN reached
 * dataset_validate, which named neither the cache nor what to delete.) */
START_TEST(test_cache_with_nan)
{
	Dataset *tr, *te, *tr2, *te2;
	make_set();
	load_ok(&tr, &te);
	size_t len;
	unsigned char *good = tu_read(cache, &len);
	unsigned char *bad = malloc(len);
	memcpy(bad, good, len);
	uint32_t k = get_u32(bad + 12), nan_bits = 0x7fc00000u;
	size_t at = 36 + 4 * k + 4 * 5; /* training image 1, feature 1 */
	for (int i = 0; i < 4; i++)
		bad[at + i] = (unsigned char)(nan_bits >> (8 * i));
	uint32_t crc = (uint32_t)crc32(0L, bad, (uInt)(len - 4));
	for (int i = 0; i < 4; i++)
		bad[len - 4 + i] = (unsigned char)(crc >> (8 * i));
	tu_write(dir, "mnist-haar4.cache", bad, len);
	int *idx;
	Err e;
	ck_assert_int_eq(
	    mnist_cache_read(cache, 4, 32, get_u32(bad + 32), "mnist", &tr2, &te2, &idx, &e), -1);
	ck_assert_msg(strstr(e.msg, "mnist-haar4.cache: training image 1, feature 1 is nan, "
	                            "expected a finite number"),
	              "%s", e.msg);
	load_ok(&tr2, &te2);
	same_sets(tr, tr2);
	size_t len2;
	unsigned char *again = tu_read(cache, &len2);
	ck_assert_uint_eq(len, len2);
	ck_assert_mem_eq(good, again, len);
	/* a damaged byte (CRC no longer matches) is named too */
	again[40] ^= 1;
	tu_write(dir, "mnist-haar4.cache", again, len);
	ck_assert_int_eq(
	    mnist_cache_read(cache, 4, 32, get_u32(bad + 32), "mnist", &tr2, &te2, &idx, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "checksum mismatch"));
	free(good);
	free(bad);
	free(again);
	dataset_free(tr);
	dataset_free(te);
	dataset_free(tr2);
	dataset_free(te2);
}
END_TEST

/* A FIFO (or a directory) at the cache's path is not opened: no wait for a
 * writer, no replacement; the features are built. */
START_TEST(test_cache_not_regular)
{
	Dataset *tr, *te;
	make_set();
	ck_assert_int_eq(mkfifo(cache, 0600), 0);
	alarm(60);
	load_ok(&tr, &te);
	alarm(0);
	struct stat st;
	ck_assert_int_eq(stat(cache, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
	int *idx;
	Err e;
	Dataset *a, *b;
	ck_assert_int_eq(mnist_cache_read(cache, 4, 32, 0, "mnist", &a, &b, &idx, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "mnist-haar4.cache: not a regular file"));
	dataset_free(tr);
	dataset_free(te);
	ck_assert_int_eq(unlink(cache), 0);
	ck_assert_int_eq(mkdir(cache, 0755), 0);
	load_ok(&tr, &te);
	ck_assert_int_eq(stat(cache, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	dataset_free(tr);
	dataset_free(te);
}
END_TEST

/* A label file that is a directory is named as such. */
START_TEST(test_input_not_a_file)
{
	Dataset *tr, *te;
	Err e;
	make_set();
	char p[700];
	snprintf(p, sizeof p, "%s/t10k-labels-idx1-ubyte", dir);
	ck_assert_int_eq(unlink(p), 0);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	ck_assert_int_eq(mnist_load(dir, "mnist", 4, &tr, &te, NULL, &e), -1);
	ck_assert_msg(strstr(e.msg, "t10k-labels-idx1-ubyte: a directory, expected an idx file"),
	              "%s", e.msg);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("mnist");
	TCase *tc = tcase_create("cache");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_cache_written_and_read);
	tcase_add_test(tc, test_cache_with_nan);
	tcase_add_test(tc, test_cache_not_regular);
	tcase_add_test(tc, test_input_not_a_file);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
