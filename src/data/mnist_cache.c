/* mnist_cache.c - the file that keeps the Haar-wavelet features of MNIST
 * and Fashion-MNIST beside their idx files: written whole with its CRC-32,
 * read back only when every check passes. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/file.h"
#include "data/mnist.h"

/* Cache layout, little-endian: magic[8], u32 version, k, haar size n,
 * n train, n test, classes, CRC-32 of the four input files; u32 idx[k];
 * f32 train features (n train × k), u8 train labels; the same for the test
 * set; u32 CRC-32 of everything before it. The version changes whenever the
 * features would (2: the Haar transform is GSL's, whose rounding differs in
 * coefficients that are zero in exact arithmetic). */
#define CACHE_MAGIC "CNHAAR\0\0"
#define CACHE_VERSION 2
#define CACHE_HEAD (8 + 7 * 4)

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static size_t cache_size(int k, int ntr, int nte)
{
	return CACHE_HEAD + 4 * (size_t)k + ((size_t)ntr + nte) * (4 * (size_t)k + 1) + 4;
}

/* Long on purpose: one pass over the cache file's header, coefficients and
 * rows in their order, each size and value checked before it is used. */
int mnist_cache_read(const char *path, int k, int n, uint32_t key, const char *name,
                     Dataset **train, Dataset **test, int **idx, Err *e)
{
	unsigned char head[CACHE_HEAD];
	long long size;
	FILE *f = file_open_regular(path, "rb", &size, e);
	if (!f)
		return -1;
	unsigned char *buf = NULL;
	Dataset *ds[2] = {NULL, NULL};
	int *ix = NULL;
	if (fread(head, 1, sizeof head, f) != sizeof head || memcmp(head, CACHE_MAGIC, 8)) {
		err_set(e, "%s: not a feature cache (no magic)", path);
		goto fail;
	}
	if (get32(head + 8) != CACHE_VERSION || get32(head + 12) != (uint32_t)k ||
	    get32(head + 16) != (uint32_t)n || get32(head + 28) != MNIST_CLASSES ||
	    get32(head + 32) != key) {
		err_set(e, "%s: made by another version, for other features or other inputs", path);
		goto fail;
	}
	uint32_t ntr = get32(head + 20), nte = get32(head + 24);
	uint64_t want =
	    CACHE_HEAD + 4 * (uint64_t)k + ((uint64_t)ntr + nte) * (4 * (uint64_t)k + 1) + 4;
	if (ntr < 1 || nte < 1 || ntr > INT32_MAX / 2 || nte > INT32_MAX / 2 ||
	    (uint64_t)size != want) {
		err_set(e,
		        "%s: %lld bytes, expected %" PRIu64 " for %" PRIu32 " training and %" PRIu32
		        " test images",
		        path, size, want, ntr, nte);
		goto fail;
	}
	size_t len = (size_t)size;
	buf = malloc(len);
	if (!buf) {
		err_set(e, "%s: out of memory for %zu bytes", path, len);
		goto fail;
	}
	memcpy(buf, head, sizeof head);
	if (fread(buf + sizeof head, 1, len - sizeof head, f) != len - sizeof head) {
		err_set(e, "%s: read error", path);
		goto fail;
	}
	if ((uint32_t)crc32_z(crc32(0L, Z_NULL, 0), buf, len - 4) != get32(buf + len - 4)) {
		err_set(e, "%s: checksum mismatch: the file is damaged", path);
		goto fail;
	}
	const unsigned char *p = buf + CACHE_HEAD;
	ix = malloc((size_t)k * sizeof *ix);
	char *seen = calloc((size_t)n * n, 1);
	if (!ix || !seen) {
		free(seen);
		err_set(e, "%s: out of memory", path);
		goto fail;
	}
	for (int j = 0; j < k; j++, p += 4) {
		uint32_t v = get32(p);
		if (v >= (uint32_t)n * n || seen[v]) {
			free(seen);
			err_set(e,
			        "%s: coefficient index %d is %u, expected distinct values below %d",
			        path, j, v, n * n);
			goto fail;
		}
		seen[v] = 1;
		ix[j] = (int)v;
	}
	free(seen);
	int cnt[2] = {(int)ntr, (int)nte};
	for (int s = 0; s < 2; s++) {
		ds[s] = dataset_new(cnt[s], k, MNIST_CLASSES, e);
		if (!ds[s]) {
			err_set(e, "%s: out of memory for %d×%d features", path, cnt[s], k);
			goto fail;
		}
		snprintf(ds[s]->name, sizeof ds[s]->name, "%s-haar%d %s", name, k,
		         s ? "test" : "train");
		for (long i = 0; i < (long)cnt[s] * k; i++, p += 4) {
			uint32_t v = get32(p);
			memcpy(&ds[s]->x[i], &v, 4);
			if (!isfinite(ds[s]->x[i])) {
				err_set(e,
				        "%s: %s image %ld, feature %ld is %g, expected a finite "
				        "number",
				        path, s ? "test" : "training", i / k, i % k, ds[s]->x[i]);
				goto fail;
			}
		}
		for (int i = 0; i < cnt[s]; i++, p++) {
			if (*p >= MNIST_CLASSES) {
				err_set(e, "%s: %s label %d is %u, expected 0..%d", path,
				        s ? "test" : "training", i, *p, MNIST_CLASSES - 1);
				goto fail;
			}
			ds[s]->y[i] = *p;
		}
	}
	fclose(f);
	free(buf);
	*train = ds[0];
	*test = ds[1];
	*idx = ix;
	return 0;
fail:
	fclose(f);
	free(buf);
	free(ix);
	dataset_free(ds[0]);
	dataset_free(ds[1]);
	return -1;
}

void mnist_cache_write(const char *path, int n, uint32_t key, const Dataset *train,
                       const Dataset *test, const int *idx)
{
	int k = train->d;
	size_t len = cache_size(k, train->n, test->n);
	unsigned char *buf = malloc(len);
	if (!buf)
		return;
	memcpy(buf, CACHE_MAGIC, 8);
	put32(buf + 8, CACHE_VERSION);
	put32(buf + 12, (uint32_t)k);
	put32(buf + 16, (uint32_t)n);
	put32(buf + 20, (uint32_t)train->n);
	put32(buf + 24, (uint32_t)test->n);
	put32(buf + 28, MNIST_CLASSES);
	put32(buf + 32, key);
	unsigned char *p = buf + CACHE_HEAD;
	for (int j = 0; j < k; j++, p += 4)
		put32(p, (uint32_t)idx[j]);
	const Dataset *ds[2] = {train, test};
	for (int s = 0; s < 2; s++) {
		for (long i = 0; i < (long)ds[s]->n * k; i++, p += 4) {
			uint32_t v;
			memcpy(&v, &ds[s]->x[i], 4);
			put32(p, v);
		}
		for (int i = 0; i < ds[s]->n; i++)
			*p++ = (unsigned char)ds[s]->y[i];
	}
	put32(p, (uint32_t)crc32_z(crc32(0L, Z_NULL, 0), buf, len - 4));
	Err ignored;
	file_write(path, buf, len, FILE_OUT_PLAIN, &ignored);
	free(buf);
}
