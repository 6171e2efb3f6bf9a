/* model_io.c - reading model files (model_io.h): every size checked
 * against the file before it is trusted, every value against the table of
 * limits, the checksum last; from a file, from memory, or from the bytes
 * of a network about to be saved (model_save.c checks them so). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/file.h"
#include "data/plane_inputs.h"
#include "data/prep.h"
#include "engine/limits.h"
#include "model/model_graph.h"
#include "model/model_io.h"
#include "model/model_io_int.h"

/* The schedule block at file offset off into net, checked. */
static int get_sched(const unsigned char *p, Net *net, const char *path, uint64_t off, Err *e)
{
	LrSchedule s;
	SchedState st;
	uint32_t kind = get_u32(p), patience = get_u32(p + 4);
	if (kind >= SCHED_KIND_COUNT)
		return err_set(e, "%s: unknown schedule kind %u at offset %llu (expected 0..%d)",
		               path, kind, (unsigned long long)off, SCHED_KIND_COUNT - 1);
	sched_default(&s);
	s.kind = (SchedKind)kind;
	s.patience = patience > INT_MAX ? INT_MAX : (int)patience;
	s.every = get_f64(p + 8);
	s.factor = get_f64(p + 16);
	s.period = get_f64(p + 24);
	s.warmup = get_f64(p + 32);
	if (sched_check(&s, e) < 0)
		return err_prefix(e, "%s: the schedule at offset %llu", path,
		                  (unsigned long long)off);
	int64_t step = (int64_t)get_u64(p + 40);
	uint32_t red = get_u32(p + 48), bad = get_u32(p + 52), has = get_u32(p + 56);
	double best = get_f64(p + 64);
	if (step < 0 || step > LIMIT_MAX_STEPS || red > INT_MAX || bad > INT_MAX || has > 1 ||
	    get_u32(p + 60) != 0 || (has && !isfinite(best)))
		return err_set(e, "%s: the schedule's position at offset %llu is not valid", path,
		               (unsigned long long)off + 40);
	memset(&st, 0, sizeof st);
	st.step = (long)step;
	st.reductions = (int)red;
	st.bad = (int)bad;
	st.has_best = (int)has;
	st.best = has ? best : 0.0;
	net->sched = s;
	net->sched_st = st;
	return 0;
}

/* The record block at file offset off into net, checked. */
static int get_run(const unsigned char *p, Net *net, const char *path, uint64_t off, Err *e)
{
	ReproRecord r;
	memset(&r, 0, sizeof r);
	uint32_t on = get_u32(p), threads = get_u32(p + 4), parts = get_u32(p + 8);
	int ok = on <= 1 && threads <= 1024 && parts <= 1024 && get_u32(p + 12) == 0 &&
	         p[16 + 31] == '\0';
	for (int i = 0; ok && i < 31 && p[16 + i]; i++)
		ok = p[16 + i] > ' ' && p[16 + i] < 0x7f;
	if (!ok)
		return err_set(e, "%s: the record of the training at offset %llu is not valid",
		               path, (unsigned long long)off);
	r.on = (int)on;
	r.threads = (int)threads;
	r.parts = (int)parts;
	memcpy(r.kernels, p + 16, 32);
	net->run = r;
	return 0;
}

/* The Haar block's sizes and coefficients: n a power of 2 up to
 * PREP_MAX_HAAR, the image within it, the d indices distinct below n². */
static int check_haar(const unsigned char *p, int d, const char *path, uint64_t off, Err *e)
{
	uint32_t rows = get_u32(p + 8), cols = get_u32(p + 12), n = get_u32(p + 16);
	if (n < 1 || n > PREP_MAX_HAAR || (n & (n - 1)) || rows < 1 || rows > n || cols < 1 ||
	    cols > n || (uint64_t)d > (uint64_t)n * n)
		return err_set(e,
		               "%s: the preprocessing's Haar sizes at offset %llu (%u×%u images, "
		               "transform %u) are not valid",
		               path, (unsigned long long)off + 8, rows, cols, n);
	char *seen = calloc((size_t)n * n, 1);
	if (!seen)
		return err_set(e, "%s: out of memory", path);
	for (int j = 0; j < d; j++) {
		uint32_t v = get_u32(p + MODEL_PREP_HEAD + 4 * (size_t)j);
		if (v >= n * n || seen[v]) {
			free(seen);
			return err_set(
			    e,
			    "%s: Haar coefficient %d at offset %llu is %u, expected distinct "
			    "values below %u",
			    path, j, (unsigned long long)off + MODEL_PREP_HEAD + 4 * j, v, n * n);
		}
		seen[v] = 1;
	}
	free(seen);
	return 0;
}

/* The pixels' image size: rows·cols pixels, the network's d inputs. */
static int check_pixels(const unsigned char *p, int d, const char *path, uint64_t off, Err *e)
{
	uint32_t rows = get_u32(p + 8), cols = get_u32(p + 12);
	if (rows < 1 || cols < 1 || (uint64_t)rows * cols != (uint64_t)d)
		return err_set(e,
		               "%s: the preprocessing's image size at offset %llu (%u×%u) is not "
		               "its %d pixels",
		               path, (unsigned long long)off + 8, rows, cols, d);
	return 0;
}

/* The preprocessing block of d inputs at file offset off, checked; into
 * *out (NULL: checked only; kind 0 gives no record). */
static int get_prep(const unsigned char *p, int d, Prep **out, const char *path, uint64_t off,
                    Err *e)
{
	uint32_t kind = get_u32(p), scale = get_u32(p + 4), plane = get_u32(p + 20);
	if (kind >= PREP_KINDS || scale >= DATA_SCALES || (kind == PREP_NONE && scale) ||
	    (kind != PREP_PLANE && plane) || get_u32(p + 24) || get_u32(p + 28))
		return err_set(e,
		               "%s: the preprocessing at offset %llu is not valid (kind %u, scale "
		               "%u)",
		               path, (unsigned long long)off, kind, scale);
	/* points of the plane: x, y and the inputs named, d of them */
	if (kind == PREP_PLANE &&
	    (!plane || plane > PLANE_INPUTS_ALL || plane_inputs_count(plane) != d))
		return err_set(e,
		               "%s: the preprocessing's inputs of the plane at offset %llu (%#x) "
		               "are not the network's %d inputs",
		               path, (unsigned long long)off + 20, plane, d);
	if (kind == PREP_HAAR && check_haar(p, d, path, off, e))
		return -1;
	if (kind == PREP_PIXELS && check_pixels(p, d, path, off, e))
		return -1;
	int stray =
	    kind != PREP_HAAR &&
	    (get_u32(p + 16) || (kind != PREP_PIXELS && (get_u32(p + 8) || get_u32(p + 12))));
	for (int j = 0; kind != PREP_HAAR && j < d; j++)
		stray |= get_u32(p + MODEL_PREP_HEAD + 4 * (size_t)j) != 0;
	if (stray)
		return err_set(e,
		               "%s: the preprocessing at offset %llu holds Haar coefficients "
		               "for %s inputs",
		               path, (unsigned long long)off, prep_kind_name((PrepKind)kind));
	const unsigned char *q = p + MODEL_PREP_HEAD + 4 * (size_t)d;
	for (int j = 0; j < d; j++) {
		double mu = get_f64(q + 8 * (size_t)j), sd = get_f64(q + 8 * ((size_t)d + j));
		int ok = scale == DATA_RAW      ? mu == 0 && sd == 1
		         : scale == DATA_CENTER ? isfinite(mu) && sd == 1
		                                : isfinite(mu) && isfinite(sd) && sd > 0;
		if (!ok)
			return err_set(
			    e,
			    "%s: feature %d's mean %g and scale %g at offset %llu do not "
			    "fit the scale step '%s'",
			    path, j, mu, sd, (unsigned long long)(q - p + off) + 8 * j,
			    prep_scale_name((int)scale));
	}
	if (!out || kind == PREP_NONE)
		return 0;
	Prep *r = prep_new((PrepKind)kind, d, e);
	if (!r)
		return err_prefix(e, "%s", path);
	r->scale = (int)scale;
	if (kind == PREP_HAAR || kind == PREP_PIXELS) {
		r->rows = (int)get_u32(p + 8);
		r->cols = (int)get_u32(p + 12);
		r->n = (int)get_u32(p + 16);
	}
	r->plane = plane;
	for (int j = 0; j < d; j++) {
		r->idx[j] = (int)get_u32(p + MODEL_PREP_HEAD + 4 * (size_t)j);
		r->mean[j] = get_f64(q + 8 * (size_t)j);
		r->sd[j] = get_f64(q + 8 * ((size_t)d + j));
	}
	*out = r;
	return 0;
}

/* Floats between host order and the file's little-endian order, in place. */
static void swap_floats(float *a, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	for (size_t i = 0; i < n; i++) {
		unsigned char b[4];
		put_f32(b, a[i]);
		memcpy(&a[i], b, 4);
	}
#else
	(void)a;
	(void)n;
#endif
}

/* Where a model's bytes come from: a file, read into the caller's buffers,
 * or memory, read in place (a model about to be saved). */
typedef struct Src {
	FILE *f;
	/* or the bytes of a network about to be saved, n at a time */
	void (*next)(void *ud, unsigned char *dst, size_t n);
	void *ud;
	const unsigned char *mem;
	uint64_t pos; /* the offset of the next byte */
	uLong crc;    /* of the bytes read so far */
	const char *path;
	int chains; /* 1: a graph network (version 6) is refused */
} Src;

/* The next len bytes: into dst from a file, or where they lie in memory;
 * folded into the CRC when crc is set. NULL with a message on a read error. */
static const unsigned char *src_next(Src *s, void *dst, size_t len, int crc, Err *e)
{
	const unsigned char *p = dst;
	if (s->mem)
		p = s->mem + s->pos;
	else if (s->next)
		s->next(s->ud, dst, len);
	else if (fread(dst, 1, len, s->f) != len) {
		err_set(e, "%s: %s while reading", s->path,
		        ferror(s->f) ? strerror(errno) : "unexpected end of file");
		return NULL;
	}
	if (crc)
		s->crc = crc32_z(s->crc, p, len);
	s->pos += len;
	return p;
}

/* The shape of the network a file describes: widths, and convolutions, or
 * a graph. */
typedef struct Shape {
	const int *n;
	int m, nconv;
	const ConvShape *cs;
	const Graph *g;
} Shape;

/* The layer (1..m) parameter index j belongs to; of a graph, its node. */
static int layer_of(const Shape *sh, size_t j)
{
	for (int k = 1; sh->g && k < sh->g->n; k++)
		if (j < sh->g->node[k].off + sh->g->node[k].nparam)
			return k;
	int m = sh->m;
	for (int i = 0; i < m; i++) {
		size_t layer = (size_t)model_layer_params(sh->n, i, sh->nconv, sh->cs);
		if (j < layer)
			return i + 1;
		j -= layer;
	}
	return m;
}

/* Checks np floats at p (little-endian) of array k (0 parameters, 1 and 2
 * Adam's moments), from its float j0 on, at file offset off: every value
 * finite, the second moment not negative. */
static int check_floats(const unsigned char *p, size_t np, int k, size_t j0, const Shape *sh,
                        const char *path, uint64_t off, Err *e)
{
	for (size_t i = 0; i < np; i++) {
		float v = get_f32(p + 4 * i);
		if (isfinite(v) && (k < 2 || v >= 0))
			continue;
		size_t j = j0 + i;
		unsigned long long at = (unsigned long long)(off + 4 * i);
		if (k == 0)
			return err_set(e,
			               "%s: parameter %zu (%s %d) at offset %llu is %g, expected a "
			               "finite number",
			               path, j, sh->g ? "graph node" : "layer", layer_of(sh, j), at,
			               (double)v);
		return err_set(e,
		               "%s: Adam's %s moment %zu at offset %llu is %g, expected a finite "
		               "number%s",
		               path, k == 1 ? "first" : "second", j, at, (double)v,
		               k == 1 ? "" : " >= 0");
	}
	return 0;
}

/* check_floats on the next np floats of s, read a piece at a time. */
static int check_chunks(Src *s, uint64_t np, int k, const Shape *sh, Err *e)
{
	enum { PIECE = 1 << 14 };
	unsigned char *buf = malloc(4 * PIECE);
	if (!buf)
		return err_set(e, "%s: out of memory", s->path);
	int rc = 0;
	for (uint64_t j = 0; rc == 0 && j < np; j += PIECE) {
		size_t c = np - j < PIECE ? (size_t)(np - j) : PIECE;
		uint64_t off = s->pos;
		const unsigned char *a = src_next(s, buf, 4 * c, 1, e);
		rc = !a || check_floats(a, c, k, (size_t)j, sh, s->path, off, e) ? -1 : 0;
	}
	free(buf);
	return rc;
}

/* The header fields after the fixed part, checked: widths into n (m + 1),
 * the parameter count into *np; against the file's size and the table of
 * limits. */
static int get_widths(const unsigned char *h, uint32_t m, uint64_t fsize, const char *path, int *n,
                      int nconv, const ConvShape *cs, uint64_t *np, Err *e)
{
	*np = 0;
	for (uint32_t i = 0; i <= m; i++) {
		uint32_t w = get_u32(h + 4 * i);
		size_t at = FIXED_HEAD + 4 * (size_t)i;
		if (w < 1 || w > INT_MAX)
			return err_set(e,
			               "%s: width n[%u] = %u at offset %zu is not a positive int",
			               path, i, w, at);
		if (w > LIMIT_MAX_WIDTH)
			return err_set(e,
			               "%s: width n[%u] = %u at offset %zu is more than condnet's "
			               "limit of %d",
			               path, i, w, at, LIMIT_MAX_WIDTH);
		n[i] = (int)w;
		/* Each layer adds (n[i-1]+1)·n[i] (a convolution (C_in·K·K+1)·C_out);
		 * stop as soon as it exceeds the file. */
		if (i > 0) {
			*np += model_layer_params(n, (int)i - 1, nconv, cs);
			if (*np > fsize / 4)
				return err_set(
				    e,
				    "%s: widths up to n[%u] = %u at offset %zu need more "
				    "parameters than a file of %llu bytes holds",
				    path, i, w, at, (unsigned long long)fsize);
		}
	}
	if (*np > LIMIT_MAX_PARAMS)
		return err_set(e, "%s: %llu parameters, more than condnet trains (%lu)", path,
		               (unsigned long long)*np, (unsigned long)LIMIT_MAX_PARAMS);
	return 0;
}

/* The fixed head: magic, version, header size, layers, activation, scale. */
static int get_head(const unsigned char *head, uint64_t fsize, const char *path, uint32_t *version,
                    uint32_t *m, Err *e)
{
	if (memcmp(head, MAGIC, 8) != 0)
		return err_set(e, "%s: not a condnet model (bad magic at offset 0)", path);
	uint32_t hb = get_u32(head + 12), act = get_u32(head + 20);
	*version = get_u32(head + 8);
	*m = get_u32(head + 16);
	float act_a = get_f32(head + 24);
	if (*version > MODEL_VERSION)
		return err_set(e, "%s: format version %u is newer than this condnet reads (%d)",
		               path, *version, MODEL_VERSION);
	if (*version == 0)
		return err_set(e, "%s: format version 0 at offset 8 is not valid", path);
	if (*m < 1 || *m > (fsize - FIXED_HEAD - TAIL_HEAD - 4) / 4 - 1)
		return err_set(e, "%s: %u layers at offset 16 do not fit in a file of %llu bytes",
		               path, *m, (unsigned long long)fsize);
	if (*m > LIMIT_MAX_LAYERS)
		return err_set(e, "%s: %u layers at offset 16, more than condnet's limit of %d",
		               path, *m, LIMIT_MAX_LAYERS);
	/* version 5 adds the convolutions' block (its count read next), 6 a graph's */
	uint64_t least =
	    *version >= 6 ? header_bytes(*m) + MODEL_GRAPH_HEAD : header_bytes_v(*m, *version, 0);
	int bad = *version < 5    ? hb != least
	          : *version == 5 ? hb < least || (hb - least) % MODEL_CONV_LAYER_BYTES
	                          : hb < least;
	if (bad || hb > fsize - 4)
		return err_set(e, "%s: header size %u at offset 12, expected %llu%s for %u layers",
		               path, hb, (unsigned long long)least,
		               *version < 5    ? ""
		               : *version == 5 ? " and a block of convolutions"
		                               : " and a graph's nodes",
		               *m);
	if (*version >= 6 && *m != 1)
		return err_set(e, "%s: %u layers at offset 16, expected 1 for a graph network",
		               path, *m);
	if (act >= ACT_COUNT)
		return err_set(e, "%s: unknown activation %u at offset 20 (expected 0..%d)", path,
		               act, ACT_COUNT - 1);
	char name[PATH_MAX + 64];
	snprintf(name, sizeof name, "%s: the activation scale at offset 24", path);
	return limit_check(LIM_ACT_SCALE, act_a, name, NULL, e);
}

/* A graph network's header: the graph's block after the flags (at t +
 * TAIL_HEAD, file offset toff + TAIL_HEAD), built into *g; the widths
 * n[0..1] its inputs and classes, its parameters into *np. */
static int graph_head(const Src *s, const unsigned char *hr, uint64_t hb, uint64_t fsize, int *n,
                      Graph **g, uint64_t *np, Err *e)
{
	const char *path = s->path;
	const unsigned char *blk = hr + 4 * 2 + TAIL_HEAD;
	uint64_t at = FIXED_HEAD + 4 * 2 + TAIL_HEAD, size = model_graph_size(blk);
	if (s->chains)
		return err_set(e,
		               "%s holds a graph network (model version 6): predict, eval, cond, "
		               "train, alg1, sweep, squeeze and export read it, not this command",
		               path);
	if (!size || hb != header_bytes(1) + size)
		return err_set(
		    e,
		    "%s: header size %llu at offset 12 does not hold the graph at offset "
		    "%llu",
		    path, (unsigned long long)hb, (unsigned long long)at);
	if (model_graph_get(blk, g, path, at, e))
		return -1;
	const GraphNode *in = &(*g)->node[0], *out = &(*g)->node[(*g)->n - 1];
	for (int i = 0; i < 2; i++) {
		uint32_t w = get_u32(hr + 4 * (size_t)i);
		long want = i ? (out->rank == 2 ? out->c : -1) : (long)graph_size(in);
		if (w != (uint64_t)want)
			return err_set(
			    e, "%s: width n[%d] = %u at offset %d, but the graph's %s %ld", path, i,
			    w, FIXED_HEAD + 4 * i, i ? "classes are" : "inputs are", want);
		n[i] = (int)w;
	}
	*np = (*g)->nparam;
	if (*np > fsize / 4)
		return err_set(
		    e, "%s: the graph's %llu parameters need more than a file of %llu bytes", path,
		    (unsigned long long)*np, (unsigned long long)fsize);
	return 0;
}

/* Reads and checks a model from s, fsize bytes: into *out, or only checked
 * (out NULL: a memory source, read in place). Every size is checked against
 * the file before it is trusted, every value against the table of limits.
 * Long on purpose: one pass over the file's blocks in their order, each
 * checked before the next is read, so that the checks read as the layout. */
static int load_src(Src *s, uint64_t fsize, Net **out, Err *e)
{
	const char *path = s->path;
	unsigned char head[FIXED_HEAD];
	s->crc = crc32(0L, Z_NULL, 0);
	if (fsize < header_bytes(1) + 4)
		return err_set(e, "%s: %llu bytes is too short for a model file", path,
		               (unsigned long long)fsize);
	const unsigned char *hp = src_next(s, head, sizeof head, 1, e);
	uint32_t version = 0, m = 0;
	if (!hp || get_head(hp, fsize, path, &version, &m, e))
		return -1;
	uint64_t hb = get_u32(hp + 12);
	size_t rest = (size_t)hb - FIXED_HEAD;
	unsigned char *h = s->mem ? NULL : malloc(rest);
	int *n = malloc(((size_t)m + 1) * sizeof *n);
	Net *net = NULL, shell = {0};
	ConvShape *cs = NULL;
	Graph *graph = NULL;
	uint64_t np = 0;
	int rc = -1, nconv = 0;
	if ((!s->mem && !h) || !n) {
		err_set(e, "%s: out of memory", path);
		goto done;
	}
	const unsigned char *hr = src_next(s, h, rest, 1, e);
	if (!hr)
		goto done;
	const unsigned char *t = hr + 4 * ((size_t)m + 1);
	size_t toff = FIXED_HEAD + 4 * ((size_t)m + 1);
	if (version >= 6) {
		if (graph_head(s, hr, hb, fsize, n, &graph, &np, e))
			goto done;
	} else if (version >= 5) {
		/* the convolutions first: they say what the widths hold */
		uint32_t nc = model_conv_count(t + TAIL_HEAD);
		if (hb != header_bytes_v(m, version, nc)) {
			err_set(
			    e,
			    "%s: header size %llu at offset 12, expected %llu for %u layers, %u "
			    "of them convolutions",
			    path, (unsigned long long)hb,
			    (unsigned long long)header_bytes_v(m, version, nc), m, nc);
			goto done;
		}
		for (uint32_t i = 0; i <= m; i++) {
			uint32_t w = get_u32(hr + 4 * (size_t)i);
			n[i] = w > INT_MAX ? INT_MAX : (int)w;
		}
		if (model_conv_get(t + TAIL_HEAD, m, n, &cs, path, toff + TAIL_HEAD, e))
			goto done;
		nconv = (int)nc;
	}
	if (!graph && get_widths(hr, m, fsize, path, n, nconv, cs, &np, e))
		goto done;
	int64_t adam_t = (int64_t)get_u64(t);
	uint32_t flags = get_u32(t + 8);
	if (adam_t < 0) {
		err_set(e, "%s: negative Adam step count at offset %zu", path, toff);
		goto done;
	}
	if (adam_t > LIMIT_MAX_STEPS) {
		err_set(e,
		        "%s: Adam step count %lld at offset %zu is more than condnet's limit of "
		        "2^53",
		        path, (long long)adam_t, toff);
		goto done;
	}
	if (flags & ~FLAG_ADAM) {
		err_set(e, "%s: unknown flags 0x%x at offset %zu", path, flags, toff + 8);
		goto done;
	}
	int nbuf = flags & FLAG_ADAM ? 3 : 1;
	uint64_t sb = version >= 2 ? MODEL_SCHED_BYTES : 0;
	uint64_t rb = version >= 3 ? MODEL_RUN_BYTES : 0;
	uint64_t pb = version >= 4 ? MODEL_PREP_BYTES(n[0]) : 0;
	uint64_t want = hb + 4 * np * (uint64_t)nbuf + sb + rb + pb + 4;
	if (fsize != want) {
		err_set(e, "%s: %llu bytes, but its header describes %llu (%s)", path,
		        (unsigned long long)fsize, (unsigned long long)want,
		        fsize < want ? "truncated" : "trailing data");
		goto done;
	}
	Shape sh = {n, (int)m, nconv, cs, graph};
	if (out && graph) {
		net = net_new_graph(graph, e); /* graph taken */
		graph = NULL;
	} else if (out) {
		net = net_new_conv((int)m, n, nconv, cs, (ActKind)get_u32(hp + 20),
		                   get_f32(hp + 24), e);
	}
	if (out && !net) {
		err_set(e, "%s: out of memory for %llu parameters", path, (unsigned long long)np);
		goto done;
	}
	if (net) {
		net->adam_t = adam_t;
		sh.g = net->graph;
	}
	float *dst[3] = {net ? net->param : NULL, net ? net->adam_m : NULL,
	                 net ? net->adam_v : NULL};
	for (int k = 0; k < nbuf; k++) {
		if (!dst[k] && !s->mem) {
			/* checked only: in pieces, never the whole array at once */
			if (check_chunks(s, np, k, &sh, e))
				goto done;
			continue;
		}
		uint64_t off = s->pos;
		const unsigned char *a = src_next(s, dst[k], np * 4, 1, e);
		if (!a || check_floats(a, np, k, 0, &sh, path, off, e))
			goto done;
		if (dst[k])
			swap_floats(dst[k], np);
	}
	unsigned char blk[MODEL_SCHED_BYTES], cb[4];
	const unsigned char *bp = sb ? src_next(s, blk, sizeof blk, 1, e) : blk;
	unsigned char rblk[MODEL_RUN_BYTES];
	const unsigned char *rp = !bp ? NULL : rb ? src_next(s, rblk, sizeof rblk, 1, e) : rblk;
	unsigned char *pbuf = pb && !s->mem ? malloc(pb) : NULL;
	if (pb && !s->mem && !pbuf) {
		err_set(e, "%s: out of memory", path);
		goto done;
	}
	const unsigned char *pp = !rp ? NULL : pb ? src_next(s, pbuf, pb, 1, e) : rp;
	const unsigned char *cp = pp ? src_next(s, cb, 4, 0, e) : NULL;
	if (!cp) {
		free(pbuf);
		goto done;
	}
	if (get_u32(cp) != (uint32_t)s->crc) {
		err_set(e,
		        "%s: checksum mismatch at offset %llu (stored %08x, computed %08x): the "
		        "file is damaged",
		        path, (unsigned long long)(fsize - 4), get_u32(cp), (unsigned)s->crc);
		free(pbuf);
		goto done;
	}
	int bad = (sb && get_sched(bp, net ? net : &shell, path, fsize - 4 - pb - rb - sb, e)) ||
	          (rb && get_run(rp, net ? net : &shell, path, fsize - 4 - pb - rb, e)) ||
	          (pb && get_prep(pp, n[0], net ? &net->prep : NULL, path, fsize - 4 - pb, e));
	free(pbuf);
	if (bad)
		goto done;
	rc = 0;
done:
	if (rc == 0 && out)
		*out = net;
	else
		net_free(net);
	free(h);
	free(n);
	free(cs);
	graph_free(graph);
	return rc;
}

int model_read_check(void (*next)(void *ud, unsigned char *dst, size_t n), void *ud, uint64_t size,
                     const char *path, Err *e)
{
	Src s = {.next = next, .ud = ud, .path = path};
	return load_src(&s, size, NULL, e);
}

static int check_bytes(const unsigned char *buf, size_t len, const char *path, Err *e)
{
	Src s = {.mem = buf, .path = path};
	return load_src(&s, len, NULL, e);
}

int model_check(const void *buf, size_t len, const char *name, Err *e)
{
	return check_bytes(buf, len, name, e);
}

static Net *load(const char *path, int chains, Err *e)
{
	long long size;
	FILE *f = file_open_regular(path, "rb", &size, e);
	if (!f)
		return NULL;
	Src s = {.f = f, .path = path, .chains = chains};
	Net *net = NULL;
	load_src(&s, (uint64_t)size, &net, e);
	fclose(f);
	return net;
}

Net *model_load(const char *path, Err *e)
{
	return load(path, 1, e);
}

Net *model_load_any(const char *path, Err *e)
{
	return load(path, 0, e);
}
