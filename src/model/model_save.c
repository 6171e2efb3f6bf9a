/* model_save.c - writing model files (model_io.h): the bytes made in order,
 * piece by piece, and checked by the reader (model_io.c) before any is
 * written. */
#include "model/model_io.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/file.h"
#include "data/prep.h"
#include "engine/limits.h"
#include "model/model_graph.h"
#include "model/model_io_int.h"

/* The schedule block (model_io.h) of net into p. */
static void put_sched(unsigned char *p, const Net *net)
{
	const LrSchedule *s = &net->sched;
	const SchedState *st = &net->sched_st;
	put_u32(p, (uint32_t)s->kind);
	put_u32(p + 4, (uint32_t)s->patience);
	put_f64(p + 8, s->every);
	put_f64(p + 16, s->factor);
	put_f64(p + 24, s->period);
	put_f64(p + 32, s->warmup);
	put_u64(p + 40, (uint64_t)st->step);
	put_u32(p + 48, (uint32_t)st->reductions);
	put_u32(p + 52, (uint32_t)st->bad);
	put_u32(p + 56, (uint32_t)st->has_best);
	put_u32(p + 60, 0);
	put_f64(p + 64, st->best);
}

/* The record block (model_io.h) of net into p. */
static void put_run(unsigned char *p, const Net *net)
{
	const ReproRecord *r = &net->run;
	memset(p, 0, MODEL_RUN_BYTES);
	if (!r->kernels[0])
		return;
	put_u32(p, (uint32_t)(r->on != 0));
	put_u32(p + 4, (uint32_t)r->threads);
	put_u32(p + 8, (uint32_t)r->parts);
	memcpy(p + 16, r->kernels, strnlen(r->kernels, 31));
}

/* The version a network is written as: the oldest that holds it. */
static uint32_t version_of(const Net *net)
{
	return net->graph ? 6 : net->nconv ? 5 : 4;
}

/* The header's bytes: with the convolutions' block, or the graph's. */
static size_t head_bytes(const Net *net)
{
	if (net->graph)
		return (size_t)(header_bytes(1) + model_graph_bytes(net->graph));
	return (size_t)header_bytes_v((uint64_t)net->m, version_of(net), (uint64_t)net->nconv);
}

size_t model_file_bytes(const Net *net)
{
	size_t nbuf = net->adam_t > 0 ? 3 : 1;
	return head_bytes(net) + 4 * nbuf * net->nparam + MODEL_SCHED_BYTES + MODEL_RUN_BYTES +
	       MODEL_PREP_BYTES(net->n[0]) + 4;
}

/* ---- a model file's bytes, made in order, piece by piece ----
 *
 * A save neither holds the whole file in memory nor checks a copy of it:
 * the bytes are made from the network as they are needed, once for the
 * checksum, once for the loader's checks and once for the file, the same
 * bytes each time. */

/* A stretch of the file: bytes, or an array of numbers written as the file
 * keeps them (little-endian). */
typedef enum SecKind { SEC_RAW, SEC_F32, SEC_IDX, SEC_F64 } SecKind;
typedef struct Sec {
	SecKind kind;
	uint64_t len;  /* bytes */
	const void *p; /* RAW: the bytes; F32: floats; IDX: ints (NULL: zeros); F64:
	                * doubles (NULL: dflt each) */
	double dflt;
} Sec;

enum { GEN_SECS = 11 }; /* header, 3 arrays, schedule, record, 4 of the preprocessing, checksum */
typedef struct ModelBytes {
	unsigned char *head; /* the header (header_bytes(m)) */
	unsigned char sched[MODEL_SCHED_BYTES], run[MODEL_RUN_BYTES], prep[MODEL_PREP_HEAD], crc[4];
	Sec sec[GEN_SECS];
	int nsec;
	uint64_t total;
	int cur;      /* the section of the next byte */
	uint64_t off; /* and its offset there */
} ModelBytes;

static void gen_add(ModelBytes *g, SecKind kind, uint64_t len, const void *p, double dflt)
{
	g->sec[g->nsec++] = (Sec){kind, len, p, dflt};
	g->total += len;
}

/* Element i of an array section, as the file holds it. */
static void sec_elem(const Sec *s, size_t i, unsigned char *out)
{
	if (s->kind == SEC_F32)
		put_f32(out, ((const float *)s->p)[i]);
	else if (s->kind == SEC_IDX)
		put_u32(out, s->p ? (uint32_t)((const int *)s->p)[i] : 0);
	else
		put_f64(out, s->p ? ((const double *)s->p)[i] : s->dflt);
}

/* n bytes of section s from offset off into dst. */
static void sec_read(const Sec *s, uint64_t off, unsigned char *dst, size_t n)
{
	if (s->kind == SEC_RAW) {
		memcpy(dst, (const unsigned char *)s->p + off, n);
		return;
	}
	size_t z = s->kind == SEC_F64 ? 8 : 4;
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_BIG_ENDIAN__
	if (s->kind == SEC_F32 && off % 4 == 0) {
		/* the floats as they are in memory, when it is the file's order */
		size_t whole = n / 4 * 4;
		memcpy(dst, (const unsigned char *)s->p + off, whole);
		dst += whole, off += whole, n -= whole;
	}
#endif
	while (n > 0) {
		unsigned char t[8];
		size_t in = (size_t)(off % z), k = z - in < n ? z - in : n;
		sec_elem(s, (size_t)(off / z), t);
		memcpy(dst, t + in, k);
		dst += k, off += k, n -= k;
	}
}

/* The next n bytes of the file into dst. */
static void gen_read(ModelBytes *g, unsigned char *dst, size_t n)
{
	while (n > 0 && g->cur < g->nsec) {
		const Sec *s = &g->sec[g->cur];
		uint64_t left = s->len - g->off;
		size_t k = left < n ? (size_t)left : n;
		sec_read(s, g->off, dst, k);
		dst += k, n -= k, g->off += k;
		if (g->off == s->len)
			g->cur++, g->off = 0;
	}
}

static void gen_rewind(ModelBytes *g)
{
	g->cur = 0;
	g->off = 0;
}

/* The file of net: its sections, and the checksum over all but the last. */
static int gen_init(ModelBytes *g, const Net *net, Err *e)
{
	memset(g, 0, sizeof *g);
	uint32_t flags = net->adam_t > 0 ? FLAG_ADAM : 0;
	size_t hb = head_bytes(net);
	if (!(g->head = malloc(hb)))
		return err_set(e, "out of memory");
	unsigned char *p = g->head;
	memcpy(p, MAGIC, 8);
	put_u32(p + 8, version_of(net));
	put_u32(p + 12, (uint32_t)hb);
	put_u32(p + 16, (uint32_t)net->m);
	put_u32(p + 20, (uint32_t)net->act);
	put_f32(p + 24, net->act_a);
	p += FIXED_HEAD;
	for (int i = 0; i <= net->m; i++, p += 4)
		put_u32(p, (uint32_t)net->n[i]);
	put_u64(p, (uint64_t)net->adam_t);
	put_u32(p + 8, flags);
	if (net->graph)
		model_graph_put(p + 12, net->graph);
	else if (version_of(net) >= 5)
		model_conv_put(p + 12, net);
	gen_add(g, SEC_RAW, hb, g->head, 0);
	const float *arr[3] = {net->param, net->adam_m, net->adam_v};
	for (int k = 0; k < (flags & FLAG_ADAM ? 3 : 1); k++)
		gen_add(g, SEC_F32, 4 * (uint64_t)net->nparam, arr[k], 0);
	put_sched(g->sched, net);
	gen_add(g, SEC_RAW, MODEL_SCHED_BYTES, g->sched, 0);
	put_run(g->run, net);
	gen_add(g, SEC_RAW, MODEL_RUN_BYTES, g->run, 0);
	/* the preprocessing block (model_io.h): kind 0 with the raw scale step
	 * when none is recorded; the Haar indices, then the means, then the scales */
	const Prep *r = net->prep;
	uint64_t d = (uint64_t)net->n[0];
	memset(g->prep, 0, sizeof g->prep);
	if (r) {
		put_u32(g->prep, (uint32_t)r->kind);
		put_u32(g->prep + 4, (uint32_t)r->scale);
		put_u32(g->prep + 8, (uint32_t)r->rows);
		put_u32(g->prep + 12, (uint32_t)r->cols);
		put_u32(g->prep + 16, (uint32_t)r->n);
		put_u32(g->prep + 20, r->kind == PREP_PLANE ? r->plane : 0);
	}
	gen_add(g, SEC_RAW, MODEL_PREP_HEAD, g->prep, 0);
	gen_add(g, SEC_IDX, 4 * d, r ? r->idx : NULL, 0);
	gen_add(g, SEC_F64, 8 * d, r ? r->mean : NULL, 0.0);
	gen_add(g, SEC_F64, 8 * d, r ? r->sd : NULL, 1.0);
	/* the checksum of everything before it (crc32_z: a size_t, so a file
	 * past 4 GiB gets its whole checksum) */
	unsigned char buf[1 << 16];
	uLong crc = crc32(0L, Z_NULL, 0);
	for (uint64_t done = 0; done < g->total;) {
		size_t n = g->total - done < sizeof buf ? (size_t)(g->total - done) : sizeof buf;
		gen_read(g, buf, n);
		crc = crc32_z(crc, buf, n);
		done += n;
	}
	put_u32(g->crc, (uint32_t)crc);
	gen_add(g, SEC_RAW, 4, g->crc, 0);
	gen_rewind(g);
	return 0;
}

static void gen_free(ModelBytes *g)
{
	free(g->head);
}

/* A model file's bytes into the output, from the generator. */
static int fill_model(FileSink *s, void *ud, Err *e)
{
	(void)e;
	ModelBytes *g = ud;
	enum { CHUNK = 1 << 20 };
	unsigned char *buf = malloc(CHUNK);
	if (!buf)
		return err_set(e, "out of memory");
	int rc = 0;
	gen_rewind(g);
	for (uint64_t done = 0; rc == 0 && done < g->total;) {
		size_t n = g->total - done < CHUNK ? (size_t)(g->total - done) : CHUNK;
		gen_read(g, buf, n);
		rc = file_sink_put(s, buf, n);
		done += n;
	}
	free(buf);
	return rc;
}

static void gen_next(void *ud, unsigned char *dst, size_t n)
{
	gen_read(ud, dst, n);
}

/* The loader's checks on the bytes g makes. */
static int check_gen(ModelBytes *g, const char *path, Err *e)
{
	gen_rewind(g);
	return model_read_check(gen_next, g, g->total, path, e);
}

int model_save(const Net *net, const char *path, Err *e)
{
	ModelBytes g;
	if (gen_init(&g, net, e) < 0)
		return err_prefix(e, "%s", path);
	/* condnet never writes a model it cannot read back: the bytes pass the
	 * loader's own checks before they are written */
	int rc = check_gen(&g, path, e);
	if (rc < 0)
		err_prefix(e, "not saving %s, which would not load back", path);
	else
		rc = file_write_with(path, 0, fill_model, &g, e);
	gen_free(&g);
	return rc;
}
