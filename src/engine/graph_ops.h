/* graph_ops.h - the forward and backward passes of a graph's operators over
 * a block of ns samples (engine/graph.h): inputs and outputs are rows of
 * one sample each, graph_size values, one after another. Internal to the
 * graph's passes (graph_pass.c).
 *
 * Every backward adds: the gradient of a node's inputs into gin (which the
 * pass zeroed, and which several readers of one node add to), its
 * parameters' gradient into gp (the node's place in a buffer of the
 * parameter layout). A NULL gin asks for no input gradient (the graph's
 * input, or a part of the graph below every parameter).
 *
 * A Conv lowers a run of samples to columns (im2col) per group and makes
 * each group's outputs with one sgemm, W_gᵀ · cols, as engine/conv.c does;
 * a group of one input channel (depthwise) is computed by direct loops. */
#ifndef CONDNET_GRAPH_OPS_H
#define CONDNET_GRAPH_OPS_H

#include <stddef.h>

#include "engine/graph.h"

/* The samples a Conv node lowers at once in a block of ns (its columns
 * kept to a few MiB), and the floats of its columns and of its
 * channel-major products for that many: the scratch the pass gives it. */
int gop_conv_run(const Graph *g, int k, int ns);
size_t gop_conv_col_floats(const Graph *g, int k, int ns);
size_t gop_conv_z_floats(const Graph *g, int k, int ns);

/* The floats of a Conv node's weights kept of the kernel offsets that meet
 * the map (0 when every offset does): the rows of W its forward pass
 * multiplies when the others meet only padding (small maps). */
size_t gop_conv_wc_floats(const Graph *g, int k);

/* Conv node k: out = conv(in) + b. col, z and wc: scratch of the sizes
 * above. */
void gop_conv_forward(const Graph *g, int k, const float *param, const float *in, int ns,
                      float *out, float *col, float *z, float *wc);
/* Conv node k backward from gout: gp += (W's, b's gradient), gin += the
 * input's (gin may be NULL). */
void gop_conv_backward(const Graph *g, int k, const float *param, const float *in,
                       const float *gout, int ns, float *gin, float *gp, float *col, float *z);

/* Gemm node k: out = in·W + b; backward as above. */
void gop_gemm_forward(const Graph *g, int k, const float *param, const float *in, int ns,
                      float *out);
void gop_gemm_backward(const Graph *g, int k, const float *param, const float *in,
                       const float *gout, int ns, float *gin, float *gp);

/* MaxPool, AveragePool and GlobalAveragePool node k. */
void gop_pool_forward(const Graph *g, int k, const float *in, int ns, float *out);
void gop_pool_backward(const Graph *g, int k, const float *in, const float *gout, int ns,
                       float *gin);

/* The operators of one input value to one output value (Relu, Clip,
 * LeakyRelu, Sigmoid, Tanh, Erf, Mul by a constant, Reshape) and Affine
 * over n values: x the input, y the output (written), g the output's
 * gradient. Affine reads its s and t from param and adds their gradient to
 * gp. */
void gop_elem_forward(const Graph *g, int k, const float *param, const float *x, int ns, float *y);
void gop_elem_backward(const Graph *g, int k, const float *param, const float *x, const float *y,
                       const float *gout, int ns, float *gin, float *gp);

/* Add (two inputs) and Concat (its inputs' channels in order): ins[i] the
 * rows of input i; gins[i] its gradient (NULL: not asked for). */
void gop_join_forward(const Graph *g, int k, const float *const *ins, int ns, float *out);
void gop_join_backward(const Graph *g, int k, const float *gout, int ns, float *const *gins);

#endif
