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

#endif
