/* model_io_int.h - what the writer (model_save.c) and the reader
 * (model_io.c) of model files share (not a public interface): the
 * header's layout, numbers in the file's little-endian order, and the
 * reader's checks on bytes made in memory. */
#ifndef CONDNET_MODEL_IO_INT_H
#define CONDNET_MODEL_IO_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/err.h"
#include "model/model_conv.h"

/* The file's first bytes. */
static const char MAGIC[8] = {'C', 'O', 'N', 'D', 'N', 'E', 'T', '\0'};

/* Bytes before n[0]: magic, version, header bytes, m, act, act_a. */
#define FIXED_HEAD 28
/* Bytes after n[m] in the header: adam_t, flags. */
#define TAIL_HEAD 12
#define FLAG_ADAM 1u

/* The header of m layers, in bytes. */
static inline uint64_t header_bytes(uint64_t m)
{
	return FIXED_HEAD + 4 * (m + 1) + TAIL_HEAD;
}

/* The header of m layers, nconv of them convolutions (their block from
 * version 5 on). */
static inline uint64_t header_bytes_v(uint64_t m, uint32_t version, uint64_t nconv)
{
	return header_bytes(m) + (version >= 5 ? model_conv_bytes(nconv) : 0);
}

static inline void put_u32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void put_u64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline uint64_t get_u64(const unsigned char *p)
{
	return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

static inline void put_f32(unsigned char *p, float f)
{
	uint32_t v;
	memcpy(&v, &f, sizeof v);
	put_u32(p, v);
}

static inline float get_f32(const unsigned char *p)
{
	uint32_t v = get_u32(p);
	float f;
	memcpy(&f, &v, sizeof f);
	return f;
}

static inline void put_f64(unsigned char *p, double x)
{
	uint64_t v;
	memcpy(&v, &x, sizeof v);
	put_u64(p, v);
}

static inline double get_f64(const unsigned char *p)
{
	uint64_t v = get_u64(p);
	double x;
	memcpy(&x, &v, sizeof x);
	return x;
}

/* The loader's checks (model_load) on size bytes that next(ud, dst, n)
 * gives in order, n at a time; path names them in messages. 0, or -1 with
 * the message the loader would give. */
int model_read_check(void (*next)(void *ud, unsigned char *dst, size_t n), void *ud, uint64_t size,
                     const char *path, Err *e);

#endif
