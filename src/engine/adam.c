/* adam.c - the Adam update over contiguous parameter, moment and gradient
 * arrays, four lanes at a time. */
#include "engine/adam.h"

#include <math.h>

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

/* Kingma & Ba, Algorithm 1, with Keras' ε placement:
 *   m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²,
 *   m̂ = m/(1−β₁ᵗ),  v̂ = v/(1−β₂ᵗ),  w ← w − lr·m̂/(√v̂ + ε).
 * The bias corrections are formed once in double and applied as factors. */
void adam_step(const AdamOpts *o, long t, size_t n, const float *g, float *w, float *m, float *v)
{
	const float b1 = (float)o->beta1, b2 = (float)o->beta2;
	const float a1 = (float)(1.0 - o->beta1), a2 = (float)(1.0 - o->beta2);
	const float c1 = (float)(1.0 / (1.0 - pow(o->beta1, (double)t)));
	const float c2 = (float)(1.0 / (1.0 - pow(o->beta2, (double)t)));
	const float lr = (float)o->lr, eps = (float)o->eps;
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		v4f gi = ld4(g + i);
		v4f mi = b1 * ld4(m + i) + a1 * gi;
		v4f vi = b2 * ld4(v + i) + a2 * gi * gi;
		st4(m + i, mi);
		st4(v + i, vi);
		st4(w + i, ld4(w + i) - lr * (mi * c1) / (sqrt4(vi * c2) + eps));
	}
	for (; i < n; i++) {
		float mi = b1 * m[i] + a1 * g[i];
		float vi = b2 * v[i] + a2 * g[i] * g[i];
		m[i] = mi;
		v[i] = vi;
		w[i] -= lr * (mi * c1) / (sqrtf(vi * c2) + eps);
	}
}
