/* idx.c - reading idx files (MNIST, Fashion-MNIST), plain or gzip. */
#include "data/idx.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

/* Largest payload accepted: 1 GiB, far above MNIST's 47 MB. */
#define IDX_MAX_BYTES (1ULL << 30)
/* Largest single dimension (an int must hold the sample count). */
#define IDX_MAX_DIM 0x7fffffffULL
/* Growth step while reading compressed data of unknown length. */
#define IDX_CHUNK (1u << 20)

/* Reads up to len bytes; the count read, or -1 with e set. */
static long gz_read_all(gzFile gz, const char *path, void *buf, size_t len, Err *e)
{
	size_t got = 0;
	while (got < len) {
		unsigned want = len - got > IDX_CHUNK ? IDX_CHUNK : (unsigned)(len - got);
		int r = gzread(gz, (char *)buf + got, want);
		if (r < 0) {
			int code;
			const char *msg = gzerror(gz, &code);
			return err_set(e, "%s: offset %zu: cannot read: %s", path, got,
			               code == Z_ERRNO ? strerror(errno) : msg);
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (long)got;
}

static void dims_text(char *buf, size_t len, const uint32_t *dim, int ndim)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int i = 0; i < ndim && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%" PRIu32, i ? "×" : "", dim[i]);
}

/*
 * One ubyte idx file with ndim dimensions: checks the magic 00 00 08 ndim,
 * every dimension in 1..IDX_MAX_DIM, their product against IDX_MAX_BYTES and
 * against the file length (plain files: the size from stat before the one
 * allocation; compressed files: the buffer grows with the data actually
 * decompressed, so a lying header cannot make it allocate more than the file
 * holds plus one chunk). Trailing bytes after the data are an error too.
 */
static int idx_read(const char *path, int ndim, const char *kind, uint32_t *dim, uint8_t **out,
                    Err *e)
{
	uint8_t hdr[4 + 4 * 3];
	size_t hlen = 4 + 4 * (size_t)ndim;
	uint8_t *data = NULL;
	*out = NULL;
	struct stat st0;
	/* before opening: a device never ends, opening a FIFO waits for a writer */
	if (stat(path, &st0) == 0 && !S_ISREG(st0.st_mode))
		return err_set(e, "%s: not a regular file", path);
	errno = 0;
	gzFile gz = gzopen(path, "rb");
	if (!gz)
		return err_set(e, "%s: cannot open: %s", path,
		               errno ? strerror(errno) : "out of memory");
	long got = gz_read_all(gz, path, hdr, 4, e);
	if (got < 0)
		goto fail;
	if (got < 4) {
		err_set(e, "%s: truncated: expected a 4-byte idx header, found %ld bytes", path,
		        got);
		goto fail;
	}
	if (hdr[0] != 0 || hdr[1] != 0 || hdr[2] != 0x08) {
		err_set(e,
		        "%s: offset 0: expected idx magic 00 00 08 %02x (unsigned bytes), "
		        "found %02x %02x %02x %02x",
		        path, (unsigned)ndim, hdr[0], hdr[1], hdr[2], hdr[3]);
		goto fail;
	}
	if (hdr[3] != ndim) {
		err_set(e, "%s: offset 3: expected %d dimension%s (%s), found %u", path, ndim,
		        ndim == 1 ? "" : "s", kind, hdr[3]);
		goto fail;
	}
	got = gz_read_all(gz, path, hdr + 4, hlen - 4, e);
	if (got < 0)
		goto fail;
	if ((size_t)got < hlen - 4) {
		err_set(e, "%s: truncated: expected a %zu-byte header, found %ld bytes", path, hlen,
		        4 + got);
		goto fail;
	}
	uint64_t total = 1;
	for (int i = 0; i < ndim; i++) {
		const uint8_t *p = hdr + 4 + 4 * i;
		dim[i] = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
		if (dim[i] == 0 || dim[i] > IDX_MAX_DIM) {
			err_set(e, "%s: offset %d: dimension %d is %" PRIu32 ", expected 1..%llu",
			        path, 4 + 4 * i, i + 1, dim[i], IDX_MAX_DIM);
			goto fail;
		}
		total *= dim[i];
		if (total > IDX_MAX_BYTES) {
			char dt[128];
			dims_text(dt, sizeof dt, dim, i + 1);
			err_set(e, "%s: offset %d: dimensions %s exceed the limit of %llu bytes",
			        path, 4 + 4 * i, dt, IDX_MAX_BYTES);
			goto fail;
		}
	}
	char dt[128];
	dims_text(dt, sizeof dt, dim, ndim);
	const char *unit = ndim == 1 ? "labels" : "pixels";
	int direct = gzdirect(gz);
	if (direct) {
		struct stat st;
		if (stat(path, &st) != 0) {
			err_set(e, "%s: cannot stat: %s", path, strerror(errno));
			goto fail;
		}
		uint64_t have = (uint64_t)st.st_size > hlen ? (uint64_t)st.st_size - hlen : 0;
		if (have < total) {
			err_set(e,
			        "%s: truncated: header says %s = %" PRIu64
			        " bytes of %s, file holds %" PRIu64,
			        path, dt, total, unit, have);
			goto fail;
		}
		data = malloc(total);
		if (!data) {
			err_set(e, "%s: out of memory for %" PRIu64 " bytes", path, total);
			goto fail;
		}
		got = gz_read_all(gz, path, data, total, e);
		if (got < 0)
			goto fail;
	} else {
		size_t cap = 0;
		got = 0;
		while ((uint64_t)got < total) {
			size_t ncap = cap ? 2 * cap : IDX_CHUNK;
			if (ncap > total)
				ncap = total;
			uint8_t *nd = realloc(data, ncap);
			if (!nd) {
				err_set(e, "%s: out of memory for %zu bytes", path, ncap);
				goto fail;
			}
			data = nd;
			long r = gz_read_all(gz, path, data + got, ncap - (size_t)got, e);
			if (r < 0)
				goto fail;
			got += r;
			cap = ncap;
			if ((size_t)got < cap)
				break;
		}
	}
	if ((uint64_t)got < total) {
		err_set(e,
		        "%s: truncated: header says %s = %" PRIu64 " bytes of %s, file holds %ld",
		        path, dt, total, unit, got);
		goto fail;
	}
	uint8_t extra;
	long more = gz_read_all(gz, path, &extra, 1, e);
	if (more < 0)
		goto fail;
	if (more > 0) {
		err_set(e,
		        "%s: offset %" PRIu64 ": expected the end of the %s (header says %s), "
		        "found more data",
		        path, hlen + total, unit, dt);
		goto fail;
	}
	gzclose(gz);
	*out = data;
	return 0;
fail:
	free(data);
	gzclose(gz);
	return -1;
}

int idx_load_images(const char *path, uint8_t **pixels, int *n, int *rows, int *cols, Err *e)
{
	uint32_t dim[3];
	if (idx_read(path, 3, "images", dim, pixels, e) != 0)
		return -1;
	*n = (int)dim[0];
	*rows = (int)dim[1];
	*cols = (int)dim[2];
	return 0;
}

int idx_load_labels(const char *path, int **labels, int *n, int max_label, Err *e)
{
	uint32_t dim[1];
	uint8_t *raw;
	if (idx_read(path, 1, "labels", dim, &raw, e) != 0)
		return -1;
	int *lab = malloc((size_t)dim[0] * sizeof *lab);
	if (!lab) {
		free(raw);
		return err_set(e, "%s: out of memory for %" PRIu32 " labels", path, dim[0]);
	}
	for (uint32_t i = 0; i < dim[0]; i++) {
		if (raw[i] >= max_label) {
			err_set(e, "%s: offset %" PRIu32 ": label %u, expected 0..%d", path, 8 + i,
			        raw[i], max_label - 1);
			free(raw);
			free(lab);
			return -1;
		}
		lab[i] = raw[i];
	}
	free(raw);
	*labels = lab;
	*n = (int)dim[0];
	return 0;
}
