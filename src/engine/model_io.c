/* model_io.c - reading and writing model files. */
#include "base/file.h"
#include "engine/model_io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static const char MAGIC[8] = {'C', 'O', 'N', 'D', 'N', 'E', 'T', '\0'};

/* Bytes before n[0]: magic, version, header bytes, m, act, act_a. */
#define FIXED_HEAD 28
/* Bytes after n[m] in the header: adam_t, flags. */
#define TAIL_HEAD 12
#define FLAG_ADAM 1u

static uint64_t header_bytes(uint64_t m)
{
	return FIXED_HEAD + 4 * (m + 1) + TAIL_HEAD;
}

static void put_u32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_u64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_u64(const unsigned char *p)
{
	return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

static void put_f32(unsigned char *p, float f)
{
	uint32_t v;
	memcpy(&v, &f, sizeof v);
	put_u32(p, v);
}

static float get_f32(const unsigned char *p)
{
	uint32_t v = get_u32(p);
	float f;
	memcpy(&f, &v, sizeof f);
	return f;
}

static void put_f64(unsigned char *p, double x)
{
	uint64_t v;
	memcpy(&v, &x, sizeof v);
	put_u64(p, v);
}

static double get_f64(const unsigned char *p)
{
	uint64_t v = get_u64(p);
	double x;
	memcpy(&x, &v, sizeof x);
	return x;
}

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

/* The schedule block at file offset off into net, checked. */
static int get_sched(const unsigned char *p, Net *net, const char *path, uint64_t off, Err *e)
{
	LrSchedule s;
	SchedState st;
	uint32_t kind = get_u32(p), patience = get_u32(p + 4);
	if (kind >= SCHED_KIND_COUNT)
		return err_set(e, "%s: unknown schedule kind %u at offset %llu (expected 0..%d)", path,
			       kind, (unsigned long long)off, SCHED_KIND_COUNT - 1);
	sched_default(&s);
	s.kind = (SchedKind)kind;
	s.patience = patience > INT_MAX ? INT_MAX : (int)patience;
	s.every = get_f64(p + 8);
	s.factor = get_f64(p + 16);
	s.period = get_f64(p + 24);
	s.warmup = get_f64(p + 32);
	if (sched_check(&s, e) < 0)
		return err_prefix(e, "%s: the schedule at offset %llu", path, (unsigned long long)off);
	int64_t step = (int64_t)get_u64(p + 40);
	uint32_t red = get_u32(p + 48), bad = get_u32(p + 52), has = get_u32(p + 56);
	double best = get_f64(p + 64);
	if (step < 0 || red > INT_MAX || bad > INT_MAX || has > 1 || get_u32(p + 60) != 0 ||
	    (has && !isfinite(best)))
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

size_t model_file_bytes(const Net *net)
{
	size_t nbuf = net->adam_t > 0 ? 3 : 1;
	return (size_t)header_bytes((uint64_t)net->m) + 4 * nbuf * net->nparam + MODEL_SCHED_BYTES +
	       MODEL_RUN_BYTES + 4;
}

int model_save(const Net *net, const char *path, Err *e)
{
	uint32_t flags = net->adam_t > 0 ? FLAG_ADAM : 0;
	size_t hb = (size_t)header_bytes((uint64_t)net->m);
	size_t nbuf = flags & FLAG_ADAM ? 3 : 1;
	size_t total = model_file_bytes(net);
	unsigned char *buf = malloc(total);
	if (!buf)
		return err_set(e, "%s: out of memory for %zu bytes", path, total);
	unsigned char *p = buf;
	memcpy(p, MAGIC, 8);
	put_u32(p + 8, MODEL_VERSION);
	put_u32(p + 12, (uint32_t)hb);
	put_u32(p + 16, (uint32_t)net->m);
	put_u32(p + 20, (uint32_t)net->act);
	put_f32(p + 24, net->act_a);
	p += FIXED_HEAD;
	for (int i = 0; i <= net->m; i++, p += 4)
		put_u32(p, (uint32_t)net->n[i]);
	put_u64(p, (uint64_t)net->adam_t);
	put_u32(p + 8, flags);
	p += TAIL_HEAD;
	const float *src[3] = {net->param, net->adam_m, net->adam_v};
	for (size_t k = 0; k < nbuf; k++) {
		memcpy(p, src[k], net->nparam * 4);
		swap_floats((float *)(void *)p, net->nparam);
		p += net->nparam * 4;
	}
	put_sched(p, net);
	p += MODEL_SCHED_BYTES;
	put_run(p, net);
	p += MODEL_RUN_BYTES;
	put_u32(p, (uint32_t)crc32(0L, buf, (uInt)(p - buf)));
	int rc = file_write(path, buf, total, 0, e);
	free(buf);
	return rc;
}

/* Reads exactly len bytes, updating the running CRC. */
static int read_all(FILE *f, void *dst, size_t len, uLong *crc, const char *path, Err *e)
{
	if (fread(dst, 1, len, f) != len)
		return err_set(e, "%s: %s while reading", path,
			       ferror(f) ? strerror(errno) : "unexpected end of file");
	if (crc) {
		/* zlib takes lengths as uInt: feed large buffers in pieces. */
		const unsigned char *b = dst;
		for (size_t off = 0; off < len;) {
			size_t piece = len - off < (1u << 30) ? len - off : (1u << 30);
			*crc = crc32(*crc, b + off, (uInt)piece);
			off += piece;
		}
	}
	return 0;
}

static Net *load_open(FILE *f, const char *path, uint64_t fsize, Err *e)
{
	unsigned char head[FIXED_HEAD];
	uLong crc = crc32(0L, Z_NULL, 0);
	if (fsize < header_bytes(1) + 4) {
		err_set(e, "%s: %llu bytes is too short for a model file", path,
			(unsigned long long)fsize);
		return NULL;
	}
	if (read_all(f, head, sizeof head, &crc, path, e))
		return NULL;
	if (memcmp(head, MAGIC, 8) != 0) {
		err_set(e, "%s: not a condnet model (bad magic at offset 0)", path);
		return NULL;
	}
	uint32_t version = get_u32(head + 8), hb = get_u32(head + 12), m = get_u32(head + 16);
	uint32_t act = get_u32(head + 20);
	float act_a = get_f32(head + 24);
	if (version > MODEL_VERSION) {
		err_set(e, "%s: format version %u is newer than this condnet reads (%d)", path,
			version, MODEL_VERSION);
		return NULL;
	}
	if (version == 0) {
		err_set(e, "%s: format version 0 at offset 8 is not valid", path);
		return NULL;
	}
	if (m < 1 || m > (fsize - FIXED_HEAD - TAIL_HEAD - 4) / 4 - 1) {
		err_set(e, "%s: %u layers at offset 16 do not fit in a file of %llu bytes", path, m,
			(unsigned long long)fsize);
		return NULL;
	}
	if (hb != header_bytes(m)) {
		err_set(e, "%s: header size %u at offset 12, expected %llu for %u layers", path, hb,
			(unsigned long long)header_bytes(m), m);
		return NULL;
	}
	if (act >= ACT_COUNT) {
		err_set(e, "%s: unknown activation %u at offset 20 (expected 0..%d)", path, act,
			ACT_COUNT - 1);
		return NULL;
	}
	if (!isfinite(act_a)) {
		err_set(e, "%s: activation scale at offset 24 is not a finite number", path);
		return NULL;
	}
	size_t rest = hb - sizeof head;
	unsigned char *h = malloc(rest);
	int *n = malloc(((size_t)m + 1) * sizeof *n);
	Net *net = NULL;
	if (!h || !n) {
		err_set(e, "%s: out of memory", path);
		goto done;
	}
	if (read_all(f, h, rest, &crc, path, e))
		goto done;
	uint64_t np = 0;
	for (uint32_t i = 0; i <= m; i++) {
		uint32_t w = get_u32(h + 4 * i);
		if (w < 1 || w > INT_MAX) {
			err_set(e, "%s: width n[%u] = %u at offset %zu is not a positive int", path,
				i, w, sizeof head + 4 * (size_t)i);
			goto done;
		}
		n[i] = (int)w;
		/* Each layer adds (n[i-1]+1)·n[i]; stop as soon as it exceeds the file. */
		if (i > 0) {
			np += ((uint64_t)n[i - 1] + 1) * w;
			if (np > fsize / 4) {
				err_set(e, "%s: widths up to n[%u] = %u at offset %zu need more "
					   "parameters than a file of %llu bytes holds",
					path, i, w, sizeof head + 4 * (size_t)i,
					(unsigned long long)fsize);
				goto done;
			}
		}
	}
	const unsigned char *t = h + 4 * ((size_t)m + 1);
	int64_t adam_t = (int64_t)get_u64(t);
	uint32_t flags = get_u32(t + 8);
	size_t toff = hb - TAIL_HEAD;
	if (adam_t < 0) {
		err_set(e, "%s: negative Adam step count at offset %zu", path, toff);
		goto done;
	}
	if (flags & ~FLAG_ADAM) {
		err_set(e, "%s: unknown flags 0x%x at offset %zu", path, flags, toff + 8);
		goto done;
	}
	int nbuf = flags & FLAG_ADAM ? 3 : 1;
	uint64_t sb = version >= 2 ? MODEL_SCHED_BYTES : 0;
	uint64_t rb = version >= 3 ? MODEL_RUN_BYTES : 0;
	uint64_t want = hb + 4 * np * (uint64_t)nbuf + sb + rb + 4;
	if (fsize != want) {
		err_set(e, "%s: %llu bytes, but its header describes %llu (%s)", path,
			(unsigned long long)fsize, (unsigned long long)want,
			fsize < want ? "truncated" : "trailing data");
		goto done;
	}
	net = net_new((int)m, n, (ActKind)act, act_a, e);
	if (!net) {
		err_set(e, "%s: out of memory for %llu parameters", path, (unsigned long long)np);
		goto done;
	}
	net->adam_t = adam_t;
	float *dst[3] = {net->param, net->adam_m, net->adam_v};
	for (int k = 0; k < nbuf; k++) {
		if (read_all(f, dst[k], net->nparam * 4, &crc, path, e))
			goto fail;
		swap_floats(dst[k], net->nparam);
	}
	unsigned char blk[MODEL_SCHED_BYTES];
	if (sb && read_all(f, blk, sizeof blk, &crc, path, e))
		goto fail;
	unsigned char rblk[MODEL_RUN_BYTES];
	if (rb && read_all(f, rblk, sizeof rblk, &crc, path, e))
		goto fail;
	unsigned char cb[4];
	if (read_all(f, cb, 4, NULL, path, e))
		goto fail;
	if (get_u32(cb) != (uint32_t)crc) {
		err_set(e, "%s: checksum mismatch at offset %llu (stored %08x, computed %08x): the "
			   "file is damaged",
			path, (unsigned long long)(fsize - 4), get_u32(cb), (unsigned)crc);
		goto fail;
	}
	if (sb && get_sched(blk, net, path, fsize - 4 - rb - sb, e))
		goto fail;
	if (rb && get_run(rblk, net, path, fsize - 4 - rb, e))
		goto fail;
	goto done;
fail:
	net_free(net);
	net = NULL;
done:
	free(h);
	free(n);
	return net;
}

Net *model_load(const char *path, Err *e)
{
	long long size;
	FILE *f = file_open_regular(path, "rb", &size, e);
	if (!f)
		return NULL;
	Net *net = load_open(f, path, (uint64_t)size, e);
	fclose(f);
	return net;
}

