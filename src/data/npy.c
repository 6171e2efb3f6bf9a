/* npy.c - NumPy .npy arrays: reading any 1-D or 2-D float array, writing
 * float32 and int32 arrays, and a data set as x_PART.npy and y_PART.npy.
 *
 * Format: "\x93NUMPY", major and minor version bytes, the header length
 * (u16 for 1.0, u32 for 2.0 and 3.0, little-endian), then a Python dict
 * literal {'descr': '<f4', 'fortran_order': False, 'shape': (r, c), }
 * padded with spaces and a newline, then the raw data. */
#include "data/npy.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAXDIM 8
#define NPY_MAXLAYERS 1000

typedef struct Header {
	char descr[16];
	int fortran;
	int ndim;
	long shape[NPY_MAXDIM];
	int seen; /* bit 0 descr, 1 fortran_order, 2 shape */
} Header;

typedef struct Parser {
	const char *s;
	size_t len, pos, base; /* base: file offset of s[0] */
	const char *path;
	Err *e;
} Parser;

static int perr(Parser *p, const char *what)
{
	return err_set(p->e, "%s: header offset %zu: expected %s", p->path, p->base + p->pos, what);
}

static void skip_ws(Parser *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
	                           p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
		p->pos++;
}

static int accept(Parser *p, char c)
{
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == c) {
		p->pos++;
		return 1;
	}
	return 0;
}

static int expect(Parser *p, char c)
{
	char what[8];
	if (accept(p, c))
		return 0;
	snprintf(what, sizeof what, "'%c'", c);
	return perr(p, what);
}

/* A quoted Python string (no escapes) into out. */
static int parse_str(Parser *p, char *out, size_t cap)
{
	skip_ws(p);
	if (p->pos >= p->len || (p->s[p->pos] != '\'' && p->s[p->pos] != '"'))
		return perr(p, "a quoted string");
	char q = p->s[p->pos++];
	size_t n = 0;
	while (p->pos < p->len && p->s[p->pos] != q) {
		if (n + 1 >= cap)
			return perr(p, "a shorter string");
		out[n++] = p->s[p->pos++];
	}
	if (p->pos >= p->len)
		return perr(p, "a closing quote");
	p->pos++;
	out[n] = '\0';
	return 0;
}

static int parse_bool(Parser *p, int *v)
{
	skip_ws(p);
	if (p->len - p->pos >= 4 && !memcmp(p->s + p->pos, "True", 4)) {
		p->pos += 4;
		*v = 1;
		return 0;
	}
	if (p->len - p->pos >= 5 && !memcmp(p->s + p->pos, "False", 5)) {
		p->pos += 5;
		*v = 0;
		return 0;
	}
	return perr(p, "True or False");
}

/* (), (n,), (r, c), … of non-negative integers. */
static int parse_shape(Parser *p, Header *h)
{
	if (expect(p, '('))
		return -1;
	h->ndim = 0;
	while (!accept(p, ')')) {
		if (h->ndim == NPY_MAXDIM)
			return perr(p, "at most 8 dimensions");
		skip_ws(p);
		long v = 0;
		size_t start = p->pos;
		while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
			if (v > (LONG_MAX - 9) / 10)
				return perr(p, "a smaller dimension");
			v = v * 10 + (p->s[p->pos++] - '0');
		}
		if (p->pos == start)
			return perr(p, "a dimension (a non-negative integer)");
		if (p->pos < p->len && p->s[p->pos] == 'L')
			p->pos++;
		h->shape[h->ndim++] = v;
		if (!accept(p, ',')) {
			if (expect(p, ')'))
				return -1;
			break;
		}
	}
	return 0;
}

static int parse_header(Parser *p, Header *h)
{
	memset(h, 0, sizeof *h);
	if (expect(p, '{'))
		return -1;
	while (!accept(p, '}')) {
		char key[32];
		skip_ws(p);
		size_t at = p->base + p->pos;
		if (parse_str(p, key, sizeof key) || expect(p, ':'))
			return -1;
		int rc;
		if (!strcmp(key, "descr")) {
			rc = parse_str(p, h->descr, sizeof h->descr);
			h->seen |= 1;
		} else if (!strcmp(key, "fortran_order")) {
			rc = parse_bool(p, &h->fortran);
			h->seen |= 2;
		} else if (!strcmp(key, "shape")) {
			rc = parse_shape(p, h);
			h->seen |= 4;
		} else {
			return err_set(p->e,
			               "%s: header offset %zu: key '%s', expected 'descr', "
			               "'fortran_order' or 'shape'",
			               p->path, at, key);
		}
		if (rc)
			return -1;
		if (!accept(p, ',')) {
			if (expect(p, '}'))
				return -1;
			break;
		}
	}
	skip_ws(p);
	if (p->pos != p->len)
		return perr(p, "only padding after the header dict");
	static const char *const keys[3] = {"descr", "fortran_order", "shape"};
	for (int k = 0; k < 3; k++)
		if (!(h->seen & (1 << k)))
			return err_set(p->e, "%s: header lacks the key '%s'", p->path, keys[k]);
	return 0;
}

static int shape_str(const Header *h, char *buf, size_t cap)
{
	size_t n = (size_t)snprintf(buf, cap, "(");
	for (int d = 0; d < h->ndim && n < cap; d++)
		n += (size_t)snprintf(buf + n, cap - n, d ? ", %ld" : "%ld", h->shape[d]);
	if (n < cap)
		snprintf(buf + n, cap - n, h->ndim == 1 ? ",)" : ")");
	return 0;
}

/* Reads the whole file (a regular file only) into a malloc'd buffer. */
static unsigned char *slurp(const char *path, size_t *len, Err *e)
{
	long long size;
	FILE *f = file_open_regular(path, "rb", &size, e);
	if (!f)
		return NULL;
	unsigned char *buf = malloc(size > 0 ? (size_t)size : 1);
	if (!buf) {
		err_set(e, "%s: out of memory for %lld bytes", path, size);
		fclose(f);
		return NULL;
	}
	size_t got = fread(buf, 1, (size_t)size, f);
	int bad = ferror(f);
	fclose(f);
	if (bad || got != (size_t)size) {
		err_set(e, "%s: read error after %zu of %lld bytes", path, got, size);
		free(buf);
		return NULL;
	}
	*len = got;
	return buf;
}

static double get_f4(const unsigned char *p)
{
	uint32_t u =
	    (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static double get_f8(const unsigned char *p)
{
	uint64_t u = 0;
	for (int i = 7; i >= 0; i--)
		u = u << 8 | p[i];
	double d;
	memcpy(&d, &u, sizeof d);
	return d;
}

/* An array of 1 to maxd dimensions into *data, its shape into shape. Long
 * on purpose: the header's dictionary, the shape and the data read in the
 * file's order, each checked before the next is trusted. */
static int read_array(const char *path, double **data, int *ndim, long *shape, int maxd, Err *e)
{
	size_t len;
	unsigned char *buf = slurp(path, &len, e);
	if (!buf)
		return -1;
	int rc = -1;
	if (len < 10 || memcmp(buf, NPY_MAGIC, 6)) {
		err_set(e, "%s: offset 0: expected the magic \\x93NUMPY of a .npy file", path);
		goto out;
	}
	int major = buf[6], minor = buf[7];
	if (major < 1 || major > 3 || minor != 0) {
		err_set(e, "%s: offset 6: format version %d.%d, expected 1.0, 2.0 or 3.0", path,
		        major, minor);
		goto out;
	}
	size_t hstart = major == 1 ? 10 : 12;
	if (len < hstart) {
		err_set(e, "%s: file ends at offset %zu inside the preamble", path, len);
		goto out;
	}
	size_t hlen = major == 1 ? (size_t)buf[8] | (size_t)buf[9] << 8
	                         : (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 |
	                               (size_t)buf[11] << 24;
	if (hlen > len - hstart) {
		err_set(e, "%s: offset 8: header of %zu bytes, but only %zu follow", path, hlen,
		        len - hstart);
		goto out;
	}
	Parser p = {(const char *)buf + hstart, hlen, 0, hstart, path, e};
	Header h;
	if (parse_header(&p, &h))
		goto out;
	int size;
	if (!strcmp(h.descr, "<f4"))
		size = 4;
	else if (!strcmp(h.descr, "<f8"))
		size = 8;
	else {
		err_set(e, "%s: dtype '%s' is not float32 or float64 ('<f4' or '<f8')", path,
		        h.descr);
		goto out;
	}
	if (h.fortran) {
		err_set(e, "%s: fortran_order is True, expected C order (False)", path);
		goto out;
	}
	char sh[160];
	shape_str(&h, sh, sizeof sh);
	if (h.ndim < 1 || h.ndim > maxd) {
		err_set(e, "%s: shape %s has %d dimensions, expected 1 %s %d", path, sh, h.ndim,
		        maxd == 2 ? "or" : "to", maxd);
		goto out;
	}
	size_t count = 1;
	for (int d = 0; d < h.ndim; d++) {
		if (h.shape[d] < 1 || h.shape[d] > INT_MAX) {
			err_set(e, "%s: shape %s: dimension %d is %ld, expected 1 to %d", path, sh,
			        d, h.shape[d], INT_MAX);
			goto out;
		}
		if ((size_t)h.shape[d] > SIZE_MAX / 8 / count) {
			err_set(e, "%s: shape %s is too large", path, sh);
			goto out;
		}
		count *= (size_t)h.shape[d];
	}
	size_t have = len - hstart - hlen, need = count * size;
	if (have != need) {
		err_set(e, "%s: offset %zu: %s data of %zu bytes, expected %zu for shape %s", path,
		        hstart + hlen, have < need ? "truncated" : "oversized", have, need, sh);
		goto out;
	}
	double *out = malloc(count * sizeof *out);
	if (!out) {
		err_set(e, "%s: out of memory for %zu values", path, count);
		goto out;
	}
	const unsigned char *src = buf + hstart + hlen;
	for (size_t i = 0; i < count; i++)
		out[i] = size == 4 ? get_f4(src + 4 * i) : get_f8(src + 8 * i);
	*data = out;
	*ndim = h.ndim;
	for (int d = 0; d < maxd; d++)
		shape[d] = d < h.ndim ? h.shape[d] : 1;
	rc = 0;
out:
	free(buf);
	return rc;
}

int npy_read(const char *path, double **data, int *ndim, long shape[2], Err *e)
{
	return read_array(path, data, ndim, shape, 2, e);
}

int npy_read_nd(const char *path, double **data, int *ndim, long shape[4], Err *e)
{
	return read_array(path, data, ndim, shape, 4, e);
}

/* Version 1.0: the preamble plus the padded header is a multiple of 64. */
/* A 1-D (cols < 0) or 2-D array of 4-byte little-endian values as the bytes
 * of a .npy file: words are the values' bit patterns, descr their NumPy
 * dtype ("<f4", "<i4"). */
static unsigned char *encode_nd(const void *words, int nd, const long *dims, const char *descr,
                                size_t *len, Err *e)
{
	char sh[120] = "";
	size_t count = 1;
	for (int d = 0; d < nd; d++) {
		if (dims[d] < 1) {
			err_set(e, "cannot write an array whose dimension %d is %ld", d, dims[d]);
			return NULL;
		}
		count *= (size_t)dims[d];
		snprintf(sh + strlen(sh), sizeof sh - strlen(sh), d ? " %ld," : "%ld,", dims[d]);
	}
	if (nd > 1) /* (3,) but (3, 4) */
		sh[strlen(sh) - 1] = '\0';
	char dict[200];
	int n = snprintf(dict, sizeof dict,
	                 "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, sh);
	size_t hlen = ((10 + (size_t)n + 1 + 63) / 64) * 64 - 10;
	size_t total = 10 + hlen + 4 * count;
	unsigned char *buf = malloc(total);
	if (!buf) {
		err_set(e, "out of memory for %zu bytes", total);
		return NULL;
	}
	memcpy(buf, NPY_MAGIC, 6);
	buf[6] = 1;
	buf[7] = 0;
	buf[8] = (unsigned char)(hlen & 0xff);
	buf[9] = (unsigned char)(hlen >> 8);
	memcpy(buf + 10, dict, (size_t)n);
	memset(buf + 10 + n, ' ', hlen - (size_t)n - 1);
	buf[10 + hlen - 1] = '\n';
	unsigned char *dst = buf + 10 + hlen;
	for (size_t i = 0; i < count; i++) {
		uint32_t u;
		memcpy(&u, (const unsigned char *)words + 4 * i, sizeof u);
		for (int k = 0; k < 4; k++)
			dst[4 * i + k] = (unsigned char)(u >> (8 * k));
	}
	*len = total;
	return buf;
}

static unsigned char *encode_words(const void *words, long rows, long cols, const char *descr,
                                   size_t *len, Err *e)
{
	if (rows < 1 || cols == 0 || cols < -1) {
		err_set(e, "cannot write an array of shape (%ld, %ld)", rows, cols);
		return NULL;
	}
	long dims[2] = {rows, cols};
	return encode_nd(words, cols < 0 ? 1 : 2, dims, descr, len, e);
}

unsigned char *npy_encode_f32_nd(const float *data, int nd, const long *dims, size_t *len, Err *e)
{
	if (nd < 1 || nd > 4) {
		err_set(e, "cannot write an array of %d dimensions", nd);
		return NULL;
	}
	return encode_nd(data, nd, dims, "<f4", len, e);
}

unsigned char *npy_encode_f32(const float *data, long rows, long cols, size_t *len, Err *e)
{
	return encode_words(data, rows, cols, "<f4", len, e);
}

unsigned char *npy_encode_i32(const int32_t *data, long rows, long cols, size_t *len, Err *e)
{
	return encode_words(data, rows, cols, "<i4", len, e);
}

static int write_words(const char *path, const void *words, long rows, long cols, const char *descr,
                       Err *e)
{
	size_t total;
	unsigned char *buf = encode_words(words, rows, cols, descr, &total, e);
	if (!buf)
		return err_prefix(e, "%s", path);
	int rc = file_write(path, buf, total, 0, e);
	free(buf);
	return rc;
}

int npy_write_f32(const char *path, const float *data, long rows, long cols, Err *e)
{
	return write_words(path, data, rows, cols, "<f4", e);
}

int npy_write_i32(const char *path, const int32_t *data, long rows, long cols, Err *e)
{
	return write_words(path, data, rows, cols, "<i4", e);
}
