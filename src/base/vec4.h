/* vec4.h - four floats (or ints) at a time through the compiler's generic
 * vectors (SSE on x86-64, NEON on arm64), for the element-wise loops of the
 * activations, the Adam step and the trainer's finiteness check. Loads and
 * stores go through memcpy, so the arrays need no particular alignment. */
#ifndef CONDNET_VEC4_H
#define CONDNET_VEC4_H

#include <string.h>

typedef float v4f __attribute__((vector_size(16)));
typedef int v4i __attribute__((vector_size(16)));

static inline v4f ld4(const float *p)
{
	v4f v;
	memcpy(&v, p, sizeof v);
	return v;
}

static inline void st4(float *p, v4f v)
{
	memcpy(p, &v, sizeof v);
}

static inline v4f splat(float x)
{
	return (v4f){x, x, x, x};
}

/* 1 when no entry of p[0..n) is NaN or ±Inf (all exponent bits set).
 * Four independent chains of lanes: the check runs at the speed of the
 * loads, not of one chain of ORs (it reads every weight gradient of every
 * batch: with one chain, a twentieth of a batch's time). */
static inline int vec_all_finite(const float *p, size_t n)
{
	const v4i ex = {0x7f800000, 0x7f800000, 0x7f800000, 0x7f800000};
	v4i bad = {0, 0, 0, 0}, b1 = bad, b2 = bad, b3 = bad;
	size_t i = 0;
	for (; i + 16 <= n; i += 16) {
		v4i v0, v1, v2, v3;
		memcpy(&v0, p + i, sizeof v0);
		memcpy(&v1, p + i + 4, sizeof v1);
		memcpy(&v2, p + i + 8, sizeof v2);
		memcpy(&v3, p + i + 12, sizeof v3);
		bad |= (v0 & ex) == ex;
		b1 |= (v1 & ex) == ex;
		b2 |= (v2 & ex) == ex;
		b3 |= (v3 & ex) == ex;
	}
	bad |= b1 | b2 | b3;
	for (; i + 4 <= n; i += 4) {
		v4i v;
		memcpy(&v, p + i, sizeof v);
		bad |= (v & ex) == ex;
	}
	for (; i < n; i++) {
		unsigned u;
		memcpy(&u, p + i, sizeof u);
		if ((u & 0x7f800000u) == 0x7f800000u)
			return 0;
	}
	return !(bad[0] | bad[1] | bad[2] | bad[3]);
}

#endif
