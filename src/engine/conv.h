/* conv.h - a convolution layer's passes over a block of samples: the
 * lowering of its input to columns (im2col) and back (col2im), the product
 * with its weights as one OpenBLAS sgemm, the bias and activation, and the
 * 2×2 max pool with the place of each maximum.
 *
 * A block of ns samples is held "channel-major": row c of a c_out × (ns·P)
 * matrix (P = h_conv·w_conv positions) holds channel c of every sample,
 * sample s at columns s·P .. s·P+P−1. Its columns, rows (c·K + y)·K + x of
 * a (C_in·K·K) × (ns·P) matrix, hold the input values each kernel weight
 * meets, so the convolution of the block is Z = Wᵀ·cols, one product
 * whatever the number of samples. Inputs and outputs of a layer are rows of
 * C×H×W values, one a sample, as the dense layers read them. */
#ifndef CONDNET_CONV_H
#define CONDNET_CONV_H

#include <stddef.h>
#include <stdint.h>

#include "engine/act.h"
#include "engine/layers.h"

/* The floats of a block's columns and of its maps, for ns samples. */
size_t conv_col_floats(const ConvShape *c, int ns);
size_t conv_map_floats(const ConvShape *c, int ns);

/* The columns of ns input rows in (row stride ldin) into col. */
void conv_im2col(const ConvShape *c, const float *in, size_t ldin, int ns, float *col);
/* Adds the columns col of ns samples back onto their input rows gin (row
 * stride ldg): the gradient of the inputs from that of the columns. */
void conv_col2im(const ConvShape *c, const float *col, int ns, float *gin, size_t ldg);

/* The forward pass of a block: col from the input rows; z = Wᵀ·col + b
 * (channel-major); y = f(z) (y may equal z); then the output rows out (row
 * stride ldout): the pooled maps, with the index in y of each maximum into
 * arg (may be NULL), or y itself in rows. */
void conv_forward(const ConvShape *c, ActKind act, float act_a, const float *W, const float *b,
                  const float *in, size_t ldin, int ns, float *col, float *z, float *y,
                  int32_t *arg, float *out, size_t ldout);

/* The gradient of a block's pre-activations from that of its outputs g
 * (row stride ldg): through the pool (to the maximum of each window, by
 * arg) or straight, into dz (channel-major), then dz ⊙ f'(z). */
void conv_backward_act(const ConvShape *c, ActKind act, float act_a, const float *g, size_t ldg,
                       const int32_t *arg, const float *z, const float *y, int ns, float *dz);
/* The weight and bias gradients of a block, written (not added) to gw
 * ((C_in·K·K) × C_out) and gb (C_out): gw = col·dzᵀ, gb the sums of dz's
 * rows. */
void conv_backward_params(const ConvShape *c, const float *col, const float *dz, int ns, float *gw,
                          float *gb);
/* The gradient of the block's input rows, written to gin (row stride ldgin):
 * col ← W·dz (col is overwritten), then col2im. */
void conv_backward_input(const ConvShape *c, const float *W, const float *dz, int ns, float *col,
                         float *gin, size_t ldgin);

#endif
