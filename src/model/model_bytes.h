/* model_bytes.h - the numbers of a model file in its little-endian order,
 * written and read byte by byte whatever the machine's order (not a public
 * interface: the files of model/ that write and read model files share it). */
#ifndef CONDNET_MODEL_BYTES_H
#define CONDNET_MODEL_BYTES_H

#include <stdint.h>
#include <string.h>

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

#endif
