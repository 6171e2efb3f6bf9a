/* act.h - activation functions applied in place over a batch, and their
 * derivatives expressed through the pre-activation. */
#ifndef CONDNET_ACT_H
#define CONDNET_ACT_H

#include <stddef.h>

typedef enum ActKind {
	ACT_ERF = 0, /* erf(a·x): the paper's "tunable error function" */
	ACT_TANH,
	ACT_RELU,
	ACT_SIGMOID,
	ACT_COUNT
} ActKind;

const char *act_name(ActKind k);
/* Parses "erf", "tanh", "relu", "sigmoid"; returns -1 if unknown. */
int act_parse(const char *s);

/* y[i] = f(z[i]) for i < n; y may equal z. a is the erf scale. */
void act_forward(ActKind k, float a, const float *z, float *y, size_t n);
/* g[i] *= f'(z[i]) given the pre-activation z (and its output y = f(z)). */
void act_backward(ActKind k, float a, const float *z, const float *y, float *g, size_t n);

#endif
