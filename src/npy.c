/* npy.c - NumPy .npy arrays and networks stored as W1.npy b1.npy W2.npy …
 *
 * Format: "\x93NUMPY", major and minor version bytes, the header length
 * (u16 for 1.0, u32 for 2.0 and 3.0, little-endian), then a Python dict
 * literal {'descr': '<f4', 'fortran_order': False, 'shape': (r, c), }
 * padded with spaces and a newline, then the raw data. */
#include "npy.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model_io.h"

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

/* Reads the whole file into a malloc'd buffer. */
static unsigned char *slurp(const char *path, size_t *len, Err *e)
{
	struct stat st;
	/* checked before opening too: opening a FIFO would wait for a writer */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		err_set(e, "%s: not a regular file", path);
		return NULL;
	}
	FILE *f = fopen(path, "rb");
	if (!f) {
		err_set(e, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		err_set(e, "%s: not a regular file", path);
		fclose(f);
		return NULL;
	}
	unsigned char *buf = malloc(st.st_size > 0 ? (size_t)st.st_size : 1);
	if (!buf) {
		err_set(e, "%s: out of memory for %lld bytes", path, (long long)st.st_size);
		fclose(f);
		return NULL;
	}
	size_t got = fread(buf, 1, (size_t)st.st_size, f);
	int bad = ferror(f);
	fclose(f);
	if (bad || got != (size_t)st.st_size) {
		err_set(e, "%s: read error after %zu of %lld bytes", path, got, (long long)st.st_size);
		free(buf);
		return NULL;
	}
	*len = got;
	return buf;
}

static double get_f4(const unsigned char *p)
{
	uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		     (uint32_t)p[3] << 24;
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

int npy_read(const char *path, double **data, int *ndim, long shape[2], Err *e)
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
		err_set(e, "%s: offset 6: format version %d.%d, expected 1.0, 2.0 or 3.0", path, major,
			minor);
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
		err_set(e, "%s: dtype '%s' is not float32 or float64 ('<f4' or '<f8')", path, h.descr);
		goto out;
	}
	if (h.fortran) {
		err_set(e, "%s: fortran_order is True, expected C order (False)", path);
		goto out;
	}
	char sh[160];
	shape_str(&h, sh, sizeof sh);
	if (h.ndim < 1 || h.ndim > 2) {
		err_set(e, "%s: shape %s has %d dimensions, expected 1 or 2", path, sh, h.ndim);
		goto out;
	}
	size_t count = 1;
	for (int d = 0; d < h.ndim; d++) {
		if (h.shape[d] < 1 || h.shape[d] > INT_MAX) {
			err_set(e, "%s: shape %s: dimension %d is %ld, expected 1 to %d", path, sh, d,
				h.shape[d], INT_MAX);
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
	shape[0] = h.shape[0];
	shape[1] = h.ndim == 2 ? h.shape[1] : 1;
	rc = 0;
out:
	free(buf);
	return rc;
}

/* Version 1.0: the preamble plus the padded header is a multiple of 64. */
/* A 1-D (cols < 0) or 2-D array of 4-byte little-endian values: words are
 * the values' bit patterns, descr their NumPy dtype ("<f4", "<i4"). */
static int write_words(const char *path, const void *words, long rows, long cols,
		       const char *descr, Err *e)
{
	if (rows < 1 || cols == 0 || cols < -1)
		return err_set(e, "%s: cannot write an array of shape (%ld, %ld)", path, rows, cols);
	char dict[128];
	int n = cols < 0 ? snprintf(dict, sizeof dict,
				    "{'descr': '%s', 'fortran_order': False, 'shape': (%ld,), }",
				    descr, rows)
			 : snprintf(dict, sizeof dict,
				    "{'descr': '%s', 'fortran_order': False, 'shape': (%ld, %ld), }",
				    descr, rows, cols);
	size_t hlen = ((10 + (size_t)n + 1 + 63) / 64) * 64 - 10;
	size_t count = (size_t)rows * (size_t)(cols < 0 ? 1 : cols);
	size_t total = 10 + hlen + 4 * count;
	unsigned char *buf = malloc(total);
	if (!buf)
		return err_set(e, "%s: out of memory for %zu bytes", path, total);
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
	int rc = file_write_atomic(path, buf, total, e);
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

int npy_write_dataset(const Dataset *ds, const char *dir, const char *part, Err *e)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/x_%s.npy", dir, part);
	if (npy_write_f32(path, ds->x, ds->n, ds->d, e))
		return -1;
	int32_t *y = malloc(sizeof *y * (size_t)ds->n);
	if (!y)
		return err_set(e, "%s: out of memory for %d labels", dir, ds->n);
	for (int i = 0; i < ds->n; i++)
		y[i] = ds->y[i];
	snprintf(path, sizeof path, "%s/y_%s.npy", dir, part);
	int rc = npy_write_i32(path, y, ds->n, -1, e);
	free(y);
	return rc;
}

static void layer_path(char *buf, size_t cap, const char *dir, char kind, int k)
{
	snprintf(buf, cap, "%s/%c%d.npy", dir, kind, k);
}

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* One layer's files into W (nin×nout, row-major) and b; the shapes are
 * checked against the previous layer's outputs (prev_out < 0: first). */
static int read_layer(const char *dir, int k, int layout, int prev_out, double **W, double **b,
		      int *nin, int *nout, Err *e)
{
	char wp[4096], bp[4096];
	layer_path(wp, sizeof wp, dir, 'W', k);
	layer_path(bp, sizeof bp, dir, 'b', k);
	double *w = NULL, *bias = NULL;
	int nd;
	long sh[2];
	if (npy_read(wp, &w, &nd, sh, e))
		return -1;
	if (nd != 2) {
		free(w);
		return err_set(e, "%s: shape (%ld,) is 1-D, expected a 2-D weight matrix", wp, sh[0]);
	}
	int in = (int)(layout == NPY_TORCH ? sh[1] : sh[0]);
	int out = (int)(layout == NPY_TORCH ? sh[0] : sh[1]);
	if (prev_out >= 0 && in != prev_out) {
		free(w);
		return err_set(e, "%s: %d inputs, but layer %d has %d outputs", wp, in, k - 1,
			       prev_out);
	}
	if (npy_read(bp, &bias, &nd, sh, e)) {
		free(w);
		return -1;
	}
	if (nd != 1 || sh[0] != out) {
		free(w);
		free(bias);
		if (nd != 1)
			return err_set(e, "%s: shape (%ld, %ld), expected 1-D of length %d", bp,
				       sh[0], sh[1], out);
		return err_set(e, "%s: %ld entries, expected %d (the outputs of W%d.npy)", bp, sh[0],
			       out, k);
	}
	if (layout == NPY_TORCH) {
		double *t = malloc((size_t)in * out * sizeof *t);
		if (!t) {
			free(w);
			free(bias);
			return err_set(e, "%s: out of memory", wp);
		}
		for (int r = 0; r < out; r++)
			for (int c = 0; c < in; c++)
				t[(size_t)c * out + r] = w[(size_t)r * in + c];
		free(w);
		w = t;
	}
	for (size_t i = 0; i < (size_t)in * out; i++) {
		if (!isfinite(w[i]) || fabs(w[i]) > FLT_MAX) {
			int r = (int)(i / out), c = (int)(i % out);
			err_set(e, "%s: weight (%d, %d) is %g, expected a finite float32", wp,
				layout == NPY_TORCH ? c : r, layout == NPY_TORCH ? r : c, w[i]);
			free(w);
			free(bias);
			return -1;
		}
	}
	for (int i = 0; i < out; i++) {
		if (!isfinite(bias[i]) || fabs(bias[i]) > FLT_MAX) {
			err_set(e, "%s: entry %d is %g, expected a finite float32", bp, i, bias[i]);
			free(w);
			free(bias);
			return -1;
		}
	}
	*W = w;
	*b = bias;
	*nin = in;
	*nout = out;
	return 0;
}

Net *npy_import(const char *dir, int layout, ActKind act, float act_a, Err *e)
{
	if (layout != NPY_KERAS && layout != NPY_TORCH) {
		err_set(e, "layout %d, expected NPY_KERAS (0) or NPY_TORCH (1)", layout);
		return NULL;
	}
	char path[4096];
	int m = 0;
	for (;;) {
		layer_path(path, sizeof path, dir, 'W', m + 1);
		if (!exists(path))
			break;
		if (++m > NPY_MAXLAYERS) {
			err_set(e, "%s: more than %d layers", dir, NPY_MAXLAYERS);
			return NULL;
		}
	}
	if (m == 0) {
		err_set(e, "%s: no W1.npy (expected W1.npy b1.npy W2.npy b2.npy …)", dir);
		return NULL;
	}
	double **W = calloc((size_t)m, sizeof *W), **b = calloc((size_t)m, sizeof *b);
	int *widths = malloc((size_t)(m + 1) * sizeof *widths);
	Net *net = NULL;
	if (!W || !b || !widths) {
		err_set(e, "%s: out of memory", dir);
		goto out;
	}
	for (int k = 1; k <= m; k++) {
		int in = 0, out = 0;
		if (read_layer(dir, k, layout, k > 1 ? widths[k - 1] : -1, &W[k - 1], &b[k - 1], &in,
			       &out, e))
			goto out;
		if (k == 1)
			widths[0] = in;
		widths[k] = out;
	}
	net = net_new(m, widths, act, act_a);
	if (!net) {
		err_set(e, "%s: out of memory for the network", dir);
		goto out;
	}
	for (int k = 0; k < m; k++) {
		for (size_t i = 0; i < (size_t)widths[k] * widths[k + 1]; i++)
			net->W[k][i] = (float)W[k][i];
		for (int i = 0; i < widths[k + 1]; i++)
			net->b[k][i] = (float)b[k][i];
	}
out:
	for (int k = 0; W && b && k < m; k++) {
		free(W[k]);
		free(b[k]);
	}
	free(W);
	free(b);
	free(widths);
	return net;
}

int npy_export(const Net *net, const char *dir, int layout, Err *e)
{
	if (layout != NPY_KERAS && layout != NPY_TORCH)
		return err_set(e, "layout %d, expected NPY_KERAS (0) or NPY_TORCH (1)", layout);
	struct stat st;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return err_set(e, "%s: not an existing directory", dir);
	/* a stale W{m+1}.npy would be read back as one more layer */
	char path[4096];
	layer_path(path, sizeof path, dir, 'W', net->m + 1);
	if (exists(path))
		return err_set(e, "%s: exists and would be read as layer %d; remove it", path,
			       net->m + 1);
	for (int k = 1; k <= net->m; k++) {
		int in = net->n[k - 1], out = net->n[k];
		const float *w = net->W[k - 1];
		float *t = NULL;
		if (layout == NPY_TORCH) {
			t = malloc((size_t)in * out * sizeof *t);
			if (!t)
				return err_set(e, "%s: out of memory", dir);
			for (int r = 0; r < in; r++)
				for (int c = 0; c < out; c++)
					t[(size_t)c * in + r] = w[(size_t)r * out + c];
		}
		layer_path(path, sizeof path, dir, 'W', k);
		int rc = t ? npy_write_f32(path, t, out, in, e) : npy_write_f32(path, w, in, out, e);
		free(t);
		if (rc)
			return -1;
		layer_path(path, sizeof path, dir, 'b', k);
		if (npy_write_f32(path, net->b[k - 1], out, -1, e))
			return -1;
	}
	return 0;
}
