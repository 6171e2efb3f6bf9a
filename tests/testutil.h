/* testutil.h - small helpers shared by the unit tests (Check). */
#ifndef CONDNET_TESTUTIL_H
#define CONDNET_TESTUTIL_H

#include <check.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "model/model_bytes.h"

static inline int tu_rm_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	return remove(path);
}

/* Removes a directory the test made, and everything in it; 0 when all went. */
static inline int tu_rmtree(const char *dir)
{
	return nftw(dir, tu_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Directories made by tu_tmpdir, each removed when the process that made it
 * exits (Check forks a process per test: a child leaves its parent's alone). */
static struct {
	char path[512];
	pid_t pid;
} tu_dirs[64];
static int tu_ndirs;

static inline void tu_cleanup(void)
{
	for (int i = 0; i < tu_ndirs; i++)
		if (tu_dirs[i].pid == getpid())
			tu_rmtree(tu_dirs[i].path);
}

/* A fresh temporary directory for one test (under $TMPDIR or /tmp), removed
 * at exit. */
static inline const char *tu_tmpdir(void)
{
	static char dir[512];
	const char *base = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/condnet-test-XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	if (tu_ndirs < (int)(sizeof tu_dirs / sizeof *tu_dirs)) {
		if (tu_ndirs == 0)
			atexit(tu_cleanup);
		snprintf(tu_dirs[tu_ndirs].path, sizeof tu_dirs[0].path, "%s", dir);
		tu_dirs[tu_ndirs++].pid = getpid();
	}
	return dir;
}

/* Writes len bytes to dir/name; returns the path (static buffer, copy it). */
static inline const char *tu_write(const char *dir, const char *name, const void *data, size_t len)
{
	static char path[1024];
	if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) {
		fprintf(stderr, "%s/%s: path too long\n", dir, name);
		exit(1);
	}
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len) {
		perror(path);
		exit(1);
	}
	fclose(f);
	return path;
}

/* Writes dir/name as a .npy file of format version major (1, 2 or 3) with
 * dict as its header, padded as NumPy pads it, followed by len bytes of data;
 * returns the path (static buffer, copy it). */
static inline const char *tu_npy_raw(const char *dir, const char *name, int major, const char *dict,
                                     const void *data, size_t len)
{
	static char path[2048];
	size_t pre = major == 1 ? 10 : 12, n = strlen(dict);
	size_t hlen = ((pre + n + 1 + 63) / 64) * 64 - pre;
	unsigned char *buf = calloc(1, pre + hlen + len);
	if (!buf) {
		perror("tu_npy_raw");
		exit(1);
	}
	memcpy(buf, "\x93NUMPY", 6);
	buf[6] = (unsigned char)major;
	buf[8] = (unsigned char)(hlen & 0xff);
	buf[9] = (unsigned char)(hlen >> 8);
	memcpy(buf + pre, dict, n);
	memset(buf + pre + n, ' ', hlen - n - 1);
	buf[pre + hlen - 1] = '\n';
	memcpy(buf + pre + hlen, data, len);
	snprintf(path, sizeof path, "%s", tu_write(dir, name, buf, pre + hlen + len));
	free(buf);
	return path;
}

/* The whole file at path (malloc'd, *len its size); the test fails when it
 * cannot be read. */
static inline unsigned char *tu_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "%s: cannot open", path);
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	unsigned char *buf = malloc(*len ? *len : 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, *len, f), *len);
	fclose(f);
	return buf;
}

/* What `call` writes to the stream f (a FILE * it can name), as a malloc'd
 * string: TU_WRITTEN(report_cond(f, net, lc, REPORT_TEXT)). */
#define TU_WRITTEN(call)                                                                           \
	({                                                                                         \
		char *buf_ = NULL;                                                                 \
		size_t len_ = 0;                                                                   \
		FILE *f = open_memstream(&buf_, &len_);                                            \
		ck_assert_ptr_nonnull(f);                                                          \
		call;                                                                              \
		fclose(f);                                                                         \
		buf_;                                                                              \
	})

/* A uniform number in [0, 1) from the xorshift generator state (the same
 * on every machine): the tests' own random numbers, no library's. */
static inline double tu_xorshift(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return (double)(*state >> 11) / 9007199254740992.0;
}

/* The CRC-32 (zlib) of all but a file's last 4 bytes written into them in
 * the little-endian order of condnet's files (model/model_bytes.h's), so
 * that only a field forged by a test is wrong. */
static inline void tu_fix_crc(unsigned char *buf, size_t len)
{
	put_u32(buf + len - 4, (uint32_t)crc32(0L, buf, (uInt)(len - 4)));
}

/* Runs one suite; the test program's exit status. */
static inline int tu_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
