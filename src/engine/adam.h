/* adam.h - the Adam optimizer as one pass over contiguous arrays
 * (Kingma & Ba; the defaults of TensorFlow/Keras: lr 1e-3, β₁ 0.9, β₂ 0.999,
 * ε 1e-8 with Keras' ε placement outside the square root of the corrected
 * second moment). */
#ifndef CONDNET_ADAM_H
#define CONDNET_ADAM_H

#include <stddef.h>

typedef struct AdamOpts {
	double lr, beta1, beta2, eps;
} AdamOpts;

void adam_default(AdamOpts *o);

/* One step t (1-based, after increment) over n parameters:
 *   m ← β₁m + (1-β₁)g;  v ← β₂v + (1-β₂)g²;
 *   w ← w − lr·(m/(1-β₁ᵗ)) / (sqrt(v/(1-β₂ᵗ)) + ε). */
void adam_step(const AdamOpts *o, long t, size_t n, const float *g, float *w, float *m, float *v);

#endif
