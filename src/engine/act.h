/* act.h - activation functions applied in place over a batch, and their
 * derivatives expressed through the pre-activation. */
#ifndef CONDNET_ACT_H
#define CONDNET_ACT_H

#include "base/err.h"

#include <stddef.h>

typedef enum ActKind {
	ACT_ERF = 0, /* erf(a·x): the paper's "tunable error function" */
	ACT_TANH,
	ACT_RELU,
	ACT_SIGMOID,
	ACT_COUNT
} ActKind;

const char *act_name(ActKind k);
/* Parses "erf", "tanh", "relu", "sigmoid" into *k; 0, or -1 and "unknown
 * activation 'S' (expected …)". */
int act_parse(const char *s, ActKind *k, Err *e);

/* y[i] = f(z[i]) for i < n; y may equal z. a is the erf scale. */
void act_forward(ActKind k, float a, const float *z, float *y, size_t n);
/* g[i] *= f'(z[i]) given the pre-activation z (and its output y = f(z)). */
void act_backward(ActKind k, float a, const float *z, const float *y, float *g, size_t n);

/* The bias and activation of one layer in a single pass over a batch:
 * z[r][j] += b[j], then y[r][j] = f(z[r][j]), for rows × cols row-major z and
 * y. y may equal z when the pre-activation is not needed afterwards
 * (act_backward reads z for erf and relu). */
void act_forward_bias(ActKind k, float a, float *z, const float *b, float *y, size_t rows,
                      size_t cols);
/* The same over a block of columns of wider matrices: row r of z and y
 * starts at r·ld. */
void act_forward_bias_ld(ActKind k, float a, float *z, const float *b, float *y, size_t rows,
                         size_t cols, size_t ld);
/* act_backward over a rows × cols block: row r of z and y starts at r·ldz,
 * of g at r·ldg. */
void act_backward_ld(ActKind k, float a, const float *z, const float *y, size_t ldz, float *g,
                     size_t ldg, size_t rows, size_t cols);

/* The branch-free forms used above, vectorisable by the compiler.
 * act_erf_fast: |act_erf_fast(x) − erf(x)| ≤ 5e-7 for every float x
 * (measured maximum 4.5e-7 over [-6, 6]; tested over [-6, 6]).
 * act_exp_fast: relative error ≤ 2e-7 for x in [-87, 88]; the argument is
 * clamped to that range. */
float act_erf_fast(float x);
float act_exp_fast(float x);

#endif
