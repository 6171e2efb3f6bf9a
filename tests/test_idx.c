/* test_idx.c - idx images and labels, plain and gzip, and every header check. */
#include <stdint.h>
#include <sys/stat.h>
#include <zlib.h>

#include "data/idx.h"
#include "testutil.h"

/* One scratch directory for the whole run, removed when the tests end. */
static char dir[512];

static void dir_make(void)
{
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
}

static void dir_remove(void)
{
	tu_rmtree(dir);
}

/* An idx header with ndim dimensions followed by payload bytes 0, 1, 2, … */
static size_t make_idx(uint8_t *buf, int ndim, const uint32_t *dim, size_t payload)
{
	size_t at = 0;
	buf[at++] = 0;
	buf[at++] = 0;
	buf[at++] = 0x08;
	buf[at++] = (uint8_t)ndim;
	for (int i = 0; i < ndim; i++) {
		buf[at++] = (uint8_t)(dim[i] >> 24);
		buf[at++] = (uint8_t)(dim[i] >> 16);
		buf[at++] = (uint8_t)(dim[i] >> 8);
		buf[at++] = (uint8_t)dim[i];
	}
	for (size_t i = 0; i < payload; i++)
		buf[at++] = (uint8_t)(i % 7);
	return at;
}

static char path[1024];

static const char *write_plain(const char *name, const uint8_t *buf, size_t len)
{
	snprintf(path, sizeof path, "%s", tu_write(dir, name, buf, len));
	return path;
}

static const char *write_gz(const char *name, const uint8_t *buf, size_t len)
{
	snprintf(path, sizeof path, "%s/%s", dir, name);
	gzFile gz = gzopen(path, "wb");
	ck_assert_ptr_nonnull(gz);
	ck_assert_int_eq(gzwrite(gz, buf, (unsigned)len), (int)len);
	ck_assert_int_eq(gzclose(gz), Z_OK);
	return path;
}

static uint8_t buf[4096];

static void check_images(const char *p)
{
	uint8_t *px = NULL;
	int n, r, c;
	Err e;
	ck_assert_msg(idx_load_images(p, &px, &n, &r, &c, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(r, 4);
	ck_assert_int_eq(c, 5);
	for (int i = 0; i < 60; i++)
		ck_assert_int_eq(px[i], i % 7);
	free(px);
}

START_TEST(test_images_plain_and_gz)
{
	uint32_t dim[3] = {3, 4, 5};
	size_t len = make_idx(buf, 3, dim, 60);
	check_images(write_plain("img", buf, len));
	check_images(write_gz("img.gz", buf, len));
}
END_TEST

START_TEST(test_labels)
{
	uint32_t dim[1] = {9};
	size_t len = make_idx(buf, 1, dim, 9);
	int *lab = NULL, n;
	Err e;
	ck_assert_int_eq(idx_load_labels(write_gz("lab.gz", buf, len), &lab, &n, 10, &e), 0);
	ck_assert_int_eq(n, 9);
	for (int i = 0; i < 9; i++)
		ck_assert_int_eq(lab[i], i % 7);
	free(lab);
	/* Label 6 at byte 8 + 6 is out of range for 6 classes. */
	ck_assert_int_eq(idx_load_labels(write_plain("lab", buf, len), &lab, &n, 6, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "/lab: offset 14: label 6, expected 0..5"));
}
END_TEST

START_TEST(test_truncated)
{
	uint32_t dim[3] = {60000, 28, 28};
	size_t len = make_idx(buf, 3, dim, 1200);
	uint8_t *px = (uint8_t *)1;
	int n, r, c;
	Err e;
	const char *p = write_plain("trunc", buf, len);
	ck_assert_int_eq(idx_load_images(p, &px, &n, &r, &c, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "trunc: truncated: header says 60000×28×28 = 47040000 "
	                                    "bytes of pixels, file holds 1200"));
	ck_assert_ptr_null(px);
	p = write_gz("trunc.gz", buf, len);
	ck_assert_int_eq(idx_load_images(p, &px, &n, &r, &c, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "trunc.gz: truncated: header says 60000×28×28 = "
	                                    "47040000 bytes of pixels, file holds 1200"));
	/* A header cut short. */
	ck_assert_int_eq(idx_load_images(write_plain("short", buf, 9), &px, &n, &r, &c, &e), -1);
	ck_assert_ptr_nonnull(
	    strstr(e.msg, "short: truncated: expected a 16-byte header, found 9"));
	ck_assert_int_eq(idx_load_images(write_plain("tiny", buf, 2), &px, &n, &r, &c, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "tiny: truncated: expected a 4-byte idx header"));
}
END_TEST

START_TEST(test_trailing_data)
{
	uint32_t dim[3] = {2, 2, 2};
	size_t len = make_idx(buf, 3, dim, 9);
	uint8_t *px;
	int n, r, c;
	Err e;
	ck_assert_int_eq(idx_load_images(write_gz("long.gz", buf, len), &px, &n, &r, &c, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "long.gz: offset 24: expected the end of the pixels"));
}
END_TEST

/* The bytes of a gzip file of buf[0..len) into out; its length. */
static size_t gz_bytes(const uint8_t *src, size_t len, uint8_t *out, size_t cap)
{
	const char *p = write_gz("tmp.gz", src, len);
	FILE *f = fopen(p, "rb");
	ck_assert_ptr_nonnull(f);
	size_t n = fread(out, 1, cap, f);
	fclose(f);
	ck_assert_uint_lt(n, cap);
	return n;
}

/* One rule for plain and gzip files: nothing after the data, and a gzip
 * stream must be whole. Bytes after the gzip stream used to be ignored. */
START_TEST(test_gzip_stream_ends)
{
	uint32_t dim[3] = {3, 4, 5};
	size_t len = make_idx(buf, 3, dim, 60);
	static uint8_t z[8192], two[8192];
	size_t zn = gz_bytes(buf, len, z, sizeof z);
	uint8_t *px = (uint8_t *)1;
	int n, r, c;
	Err e;
	memcpy(z + zn, "xxxxx", 5);
	ck_assert_int_eq(idx_load_images(write_plain("trail.gz", z, zn + 5), &px, &n, &r, &c, &e),
	                 -1);
	ck_assert_ptr_null(px);
	char want[200];
	snprintf(want, sizeof want,
	         "trail.gz: offset %zu: 5 bytes after the end of the gzip stream, expected the end "
	         "of the file",
	         zn);
	ck_assert_msg(strstr(e.msg, want), "%s", e.msg);
	/* zeros after the stream are trailing data too */
	memset(z + zn, 0, 5);
	ck_assert_int_eq(idx_load_images(write_plain("zeros.gz", z, zn + 5), &px, &n, &r, &c, &e),
	                 -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "5 bytes after the end of the gzip stream"));
	/* the 8-byte trailer (CRC-32 and length) cut off: the data is all there
	 * but unchecked */
	ck_assert_int_eq(idx_load_images(write_plain("cut.gz", z, zn - 8), &px, &n, &r, &c, &e),
	                 -1);
	snprintf(want, sizeof want,
	         "cut.gz: truncated: the gzip stream ends at offset %zu without its trailer",
	         zn - 8);
	ck_assert_msg(strstr(e.msg, want), "%s", e.msg);
	/* two gzip members (cat a.gz b.gz) are one stream */
	size_t an = gz_bytes(buf, 10, two, sizeof two);
	an += gz_bytes(buf + 10, len - 10, two + an, sizeof two - an);
	check_images(write_plain("two.gz", two, an));
	/* a damaged CRC-32 in the trailer */
	z[zn - 8] ^= 1;
	ck_assert_int_eq(idx_load_images(write_plain("crc.gz", z, zn), &px, &n, &r, &c, &e), -1);
	ck_assert_msg(strstr(e.msg, "crc.gz: offset ") && strstr(e.msg, "incorrect data check"),
	              "%s", e.msg);
}
END_TEST

/* A FIFO or device is refused without being opened (no wait for a writer). */
START_TEST(test_not_regular)
{
	uint8_t *px = (uint8_t *)1;
	int n, r, c;
	Err e;
	char fifo[1100];
	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	alarm(10);
	ck_assert_int_eq(idx_load_images(fifo, &px, &n, &r, &c, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "fifo: not a regular file"));
	ck_assert_int_eq(idx_load_images("/dev/zero", &px, &n, &r, &c, &e), -1);
	ck_assert_str_eq(e.msg, "/dev/zero: not a regular file");
	alarm(0);
	unlink(fifo);
}
END_TEST

START_TEST(test_bad_magic_and_ndim)
{
	uint32_t dim[3] = {1, 2, 2};
	size_t len = make_idx(buf, 3, dim, 4);
	uint8_t *px;
	int n, r, c, *lab;
	Err e;
	buf[2] = 0x0d;
	ck_assert_int_eq(idx_load_images(write_plain("magic", buf, len), &px, &n, &r, &c, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "magic: offset 0: expected idx magic 00 00 08 03 "
	                                    "(unsigned bytes), found 00 00 0d 03"));
	buf[2] = 0x08;
	/* A label file read as images and an image file read as labels. */
	uint32_t ldim[1] = {4};
	size_t llen = make_idx(buf, 1, ldim, 4);
	ck_assert_int_eq(idx_load_images(write_plain("labs", buf, llen), &px, &n, &r, &c, &e), -1);
	ck_assert_ptr_nonnull(
	    strstr(e.msg, "labs: offset 3: expected 3 dimensions (images), found 1"));
	len = make_idx(buf, 3, dim, 4);
	ck_assert_int_eq(idx_load_labels(write_plain("imgs", buf, len), &lab, &n, 10, &e), -1);
	ck_assert_ptr_nonnull(
	    strstr(e.msg, "imgs: offset 3: expected 1 dimension (labels), found 3"));
	ck_assert_int_eq(idx_load_labels("/nonexistent/x", &lab, &n, 10, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent/x: cannot open"));
}
END_TEST

START_TEST(test_bad_dimensions)
{
	uint8_t *px = (uint8_t *)1;
	int n, r, c;
	Err e;
	uint32_t zero[3] = {5, 0, 28};
	size_t len = make_idx(buf, 3, zero, 0);
	ck_assert_int_eq(idx_load_images(write_plain("zero", buf, len), &px, &n, &r, &c, &e), -1);
	ck_assert_ptr_nonnull(
	    strstr(e.msg, "zero: offset 8: dimension 2 is 0, expected 1..2147483647"));
	uint32_t huge[3] = {0xffffffffu, 28, 28};
	len = make_idx(buf, 3, huge, 0);
	ck_assert_int_eq(idx_load_images(write_gz("huge.gz", buf, len), &px, &n, &r, &c, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "huge.gz: offset 4: dimension 1 is 4294967295"));
	/* Each dimension fits an int but their product is absurd. */
	uint32_t big[3] = {20000000u, 28, 28};
	len = make_idx(buf, 3, big, 0);
	ck_assert_int_eq(idx_load_images(write_plain("big", buf, len), &px, &n, &r, &c, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "big: offset 12: dimensions 20000000×28×28 exceed the "
	                                    "limit of 1073741824 bytes"));
	/* Within the limit but far beyond what the gzip stream holds: the
	 * loader reports truncation rather than allocating the claimed size. */
	uint32_t lie[3] = {1000000, 32, 32};
	len = make_idx(buf, 3, lie, 100);
	ck_assert_int_eq(idx_load_images(write_gz("lie.gz", buf, len), &px, &n, &r, &c, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "= 1024000000 bytes of pixels, file holds 100"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("idx");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_images_plain_and_gz);
	tcase_add_test(tc, test_labels);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_trailing_data);
	tcase_add_test(tc, test_gzip_stream_ends);
	tcase_add_test(tc, test_not_regular);
	tcase_add_test(tc, test_bad_magic_and_ndim);
	tcase_add_test(tc, test_bad_dimensions);
	tcase_add_unchecked_fixture(tc, dir_make, dir_remove);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
