/* adam.c - the Adam update over contiguous parameter, moment and gradient
 * arrays, four lanes at a time, or eight on cores with AVX2. */
#include "engine/adam.h"

#include <math.h>
#include <string.h>

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include "base/vec4.h"

static inline v4f sqrt4(v4f x)
{
#if defined(__SSE__)
	return (v4f)_mm_sqrt_ps((__m128)x);
#else
	return (v4f){sqrtf(x[0]), sqrtf(x[1]), sqrtf(x[2]), sqrtf(x[3])};
#endif
}

void adam_default(AdamOpts *o)
{
	o->lr = 1e-3;
	o->beta1 = 0.9;
	o->beta2 = 0.999;
	o->eps = 1e-8;
}

/* One Adam step over [i0, n) in lanes of 4 and a scalar tail; every entry
 * gets the same operations in every form, so the bits do not depend on the
 * lane it takes. */
#define ADAM_TAIL(i)                                                                               \
	for (; i < n; i++) {                                                                       \
		float mi = b1 * m[i] + a1 * g[i];                                                  \
		float vi = b2 * v[i] + a2 * g[i] * g[i];                                           \
		m[i] = mi;                                                                         \
		v[i] = vi;                                                                         \
		w[i] -= lr * (mi * c1) / (sqrtf(vi * c2) + eps);                                   \
	}

#define ADAM_CONSTANTS                                                                             \
	const float b1 = (float)o->beta1, b2 = (float)o->beta2;                                    \
	const float a1 = (float)(1.0 - o->beta1), a2 = (float)(1.0 - o->beta2);                    \
	const float c1 = (float)(1.0 / (1.0 - pow(o->beta1, (double)t)));                          \
	const float c2 = (float)(1.0 / (1.0 - pow(o->beta2, (double)t)));                          \
	const float lr = (float)o->lr, eps = (float)o->eps

static void step4(const AdamOpts *o, long t, size_t n, const float *g, float *w, float *m, float *v)
{
	ADAM_CONSTANTS;
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		v4f gi = ld4(g + i);
		v4f mi = b1 * ld4(m + i) + a1 * gi;
		v4f vi = b2 * ld4(v + i) + a2 * gi * gi;
		st4(m + i, mi);
		st4(v + i, vi);
		st4(w + i, ld4(w + i) - lr * (mi * c1) / (sqrt4(vi * c2) + eps));
	}
	ADAM_TAIL(i)
}

#if defined(__x86_64__)
#include <immintrin.h>

typedef float v8f __attribute__((vector_size(32)));

/* The same in lanes of 8 on cores with AVX2 (no FMA: the same roundings). */
__attribute__((target("avx2"))) static void step8(const AdamOpts *o, long t, size_t n,
                                                  const float *g, float *w, float *m, float *v)
{
	ADAM_CONSTANTS;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		v8f gi, mi, vi, wi;
		memcpy(&gi, g + i, sizeof gi);
		memcpy(&mi, m + i, sizeof mi);
		memcpy(&vi, v + i, sizeof vi);
		memcpy(&wi, w + i, sizeof wi);
		mi = b1 * mi + a1 * gi;
		vi = b2 * vi + a2 * gi * gi;
		wi = wi - lr * (mi * c1) / ((v8f)_mm256_sqrt_ps((__m256)(vi * c2)) + eps);
		memcpy(m + i, &mi, sizeof mi);
		memcpy(v + i, &vi, sizeof vi);
		memcpy(w + i, &wi, sizeof wi);
	}
	ADAM_TAIL(i)
}
#endif

/* Kingma & Ba, Algorithm 1, with Keras' ε placement:
 *   m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²,
 *   m̂ = m/(1−β₁ᵗ),  v̂ = v/(1−β₂ᵗ),  w ← w − lr·m̂/(√v̂ + ε).
 * The bias corrections are formed once in double and applied as factors. */
void adam_step(const AdamOpts *o, long t, size_t n, const float *g, float *w, float *m, float *v)
{
#if defined(__x86_64__)
	if (__builtin_cpu_supports("avx2")) {
		step8(o, t, n, g, w, m, v);
		return;
	}
#endif
	step4(o, t, n, g, w, m, v);
}
