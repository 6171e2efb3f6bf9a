/* idx.c - reading idx files (MNIST, Fashion-MNIST), plain or gzip. */
#include "data/idx.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/file.h"

/* Largest payload accepted: 1 GiB, far above MNIST's 47 MB. */
#define IDX_MAX_BYTES (1ULL << 30)
/* Largest single dimension (an int must hold the sample count). */
#define IDX_MAX_DIM 0x7fffffffULL
/* Growth step while reading compressed data of unknown length. */
#define IDX_CHUNK (1u << 20)
/* Compressed bytes read at a time. */
#define IDX_IN (64u << 10)

/* The bytes of an idx file: a regular file read as it is, or, when it starts
 * with the gzip magic 1f 8b, inflated member by member. */
typedef struct Src {
	FILE *f;
	const char *path;
	long long size; /* of the file */
	long long read; /* bytes of the file read so far */
	uint64_t out;   /* bytes delivered */
	int gz, zinit;
	int ended; /* gzip: the last member ended, nothing follows */
	int cut;   /* gzip: the file ended inside a member */
	z_stream z;
	unsigned char in[IDX_IN];
} Src;

static void src_close(Src *s)
{
	if (s->zinit)
		inflateEnd(&s->z);
	if (s->f)
		fclose(s->f);
	free(s);
}

/* Opens path (a regular file only, so a FIFO or device is not waited on). */
static Src *src_open(const char *path, Err *e)
{
	Src *s = calloc(1, sizeof *s);
	if (!s) {
		err_set(e, "%s: out of memory", path);
		return NULL;
	}
	s->path = path;
	s->f = file_open_regular(path, "rb", &s->size, e);
	if (!s->f) {
		free(s);
		return NULL;
	}
	unsigned char m[2];
	size_t got = fread(m, 1, 2, s->f);
	s->gz = got == 2 && m[0] == 0x1f && m[1] == 0x8b;
	if (fseek(s->f, 0, SEEK_SET) != 0) {
		err_set(e, "%s: cannot read: %s", path, strerror(errno));
		src_close(s);
		return NULL;
	}
	if (s->gz) {
		if (inflateInit2(&s->z, 15 + 16) != Z_OK) {
			err_set(e, "%s: out of memory for zlib", path);
			src_close(s);
			return NULL;
		}
		s->zinit = 1;
	}
	return s;
}

/* Refills the compressed input; 0 at the end of the file. */
static int src_fill(Src *s, Err *e)
{
	size_t n = fread(s->in, 1, sizeof s->in, s->f);
	if (n == 0 && ferror(s->f))
		return err_set(e, "%s: offset %lld: read error: %s", s->path, s->read,
		               strerror(errno));
	s->read += (long long)n;
	s->z.next_in = s->in;
	s->z.avail_in = (uInt)n;
	return n > 0;
}

/* After the end of a gzip member: another member (1f 8b) or the end of the
 * file; anything else is trailing data. */
static int src_next_member(Src *s, Err *e)
{
	if (s->z.avail_in == 0) {
		int r = src_fill(s, e);
		if (r <= 0) {
			s->ended = r == 0;
			return r;
		}
	}
	long long at = s->read - s->z.avail_in;
	if (s->z.next_in[0] != 0x1f || (s->z.avail_in > 1 && s->z.next_in[1] != 0x8b))
		return err_set(e,
		               "%s: offset %lld: %lld bytes after the end of the gzip stream, "
		               "expected the end of the file",
		               s->path, at, s->size - at);
	if (inflateReset(&s->z) != Z_OK)
		return err_set(e, "%s: offset %lld: cannot restart zlib", s->path, at);
	return 0;
}

/* Reads up to len bytes: the count read (less only at the end of the data),
 * or -1 with e set. */
static long src_read(Src *s, void *buf, size_t len, Err *e)
{
	if (!s->gz) {
		size_t got = fread(buf, 1, len, s->f);
		if (got < len && ferror(s->f))
			return err_set(e, "%s: offset %" PRIu64 ": read error: %s", s->path, s->out,
			               strerror(errno));
		s->out += got;
		return (long)got;
	}
	s->z.next_out = buf;
	s->z.avail_out = (uInt)len;
	while (s->z.avail_out > 0 && !s->ended && !s->cut) {
		if (s->z.avail_in == 0) {
			int r = src_fill(s, e);
			if (r < 0)
				return -1;
			if (r == 0) {
				s->cut = 1;
				break;
			}
		}
		int r = inflate(&s->z, Z_NO_FLUSH);
		if (r == Z_STREAM_END) {
			if (src_next_member(s, e))
				return -1;
		} else if (r != Z_OK && (r != Z_BUF_ERROR || s->z.avail_in > 0)) {
			long long at = s->read - s->z.avail_in;
			return err_set(e, "%s: offset %lld: cannot read the gzip data: %s", s->path,
			               at,
			               r == Z_MEM_ERROR ? "out of memory"
			               : s->z.msg       ? s->z.msg
			                                : "damaged data");
		}
	}
	size_t got = len - s->z.avail_out;
	s->out += got;
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
 * holds plus one chunk). Nothing may follow the data: neither more bytes
 * after it (in the file or in the gzip stream) nor bytes after the gzip
 * stream, and a gzip stream must be whole.
 * Long on purpose: one pass over header, data and what follows them, plain
 * or gzip alike, each check before the read it guards.
 */
static int idx_read(const char *path, int ndim, const char *kind, uint32_t *dim, uint8_t **out,
                    Err *e)
{
	uint8_t hdr[4 + 4 * 3];
	size_t hlen = 4 + 4 * (size_t)ndim;
	uint8_t *data = NULL;
	*out = NULL;
	Src *src = src_open(path, e);
	if (!src)
		return -1;
	long got = src_read(src, hdr, 4, e);
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
	got = src_read(src, hdr + 4, hlen - 4, e);
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
	if (!src->gz) {
		uint64_t have = (uint64_t)src->size > hlen ? (uint64_t)src->size - hlen : 0;
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
		got = src_read(src, data, total, e);
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
			long r = src_read(src, data + got, ncap - (size_t)got, e);
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
	long more = src_read(src, &extra, 1, e);
	if (more < 0)
		goto fail;
	if (more > 0) {
		err_set(e,
		        "%s: offset %" PRIu64 ": expected the end of the %s (header says %s), "
		        "found more data",
		        path, hlen + total, unit, dt);
		goto fail;
	}
	if (src->cut) {
		err_set(e, "%s: truncated: the gzip stream ends at offset %lld without its trailer",
		        path, src->size);
		goto fail;
	}
	src_close(src);
	*out = data;
	return 0;
fail:
	free(data);
	src_close(src);
	return -1;
}

int idx_image_shape(const char *path, int *n, int *rows, int *cols, Err *e)
{
	uint8_t hdr[16];
	Src *src = src_open(path, e);
	if (!src)
		return -1;
	long got = src_read(src, hdr, sizeof hdr, e);
	src_close(src);
	if (got < 0)
		return -1;
	if (got < (long)sizeof hdr)
		return err_set(e, "%s: truncated: expected a 16-byte header, found %ld bytes", path,
		               got);
	if (hdr[0] != 0 || hdr[1] != 0 || hdr[2] != 0x08 || hdr[3] != 3)
		return err_set(e,
		               "%s: offset 0: expected idx magic 00 00 08 03 (images), found %02x "
		               "%02x %02x %02x",
		               path, hdr[0], hdr[1], hdr[2], hdr[3]);
	uint32_t dim[3];
	for (int i = 0; i < 3; i++) {
		const uint8_t *p = hdr + 4 + 4 * i;
		dim[i] = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
		if (dim[i] == 0 || dim[i] > IDX_MAX_DIM)
			return err_set(
			    e, "%s: offset %d: dimension %d is %" PRIu32 ", expected 1..%llu", path,
			    4 + 4 * i, i + 1, dim[i], IDX_MAX_DIM);
	}
	*n = (int)dim[0];
	*rows = (int)dim[1];
	*cols = (int)dim[2];
	return 0;
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
