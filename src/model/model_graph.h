/* model_graph.h - the block of a model file that records a graph network's
 * nodes (version 6; model_io.h). A graph network is written as version 6
 * and a chain as before (version 4, or 5 with convolutions), so files of
 * chains stay readable by older condnets.
 *
 * The block: u32 nodes (the input with them), u32 edges, u32 softmax (0 or
 * 1), u32 0; the input: u32 rank (2 or 4), u32 c, u32 h, u32 w; then for
 * each other node MODEL_GRAPH_NODE_BYTES: u32 op (engine/graph.h's
 * GraphOp), u32 inputs, u32 rank, u32 c, u32 h, u32 w (a Conv's output
 * channels, a Gemm's outputs, a Reshape's shape; else 0), u32 group, u32
 * kh, kw, sh, sw, dh, dw, pt, pl, pb, pr, ceil, count_pad, f32 a, lo, hi,
 * u32 0, the name in 48 bytes padded with NULs; then u32 edges[edges], the
 * inputs of each node in order. The loader builds the graph from them
 * through graph_add, which works out every shape and checks every size as
 * for an import, and refuses a record that differs from what it builds. */
#ifndef CONDNET_MODEL_GRAPH_H
#define CONDNET_MODEL_GRAPH_H

#include <stdint.h>

#include "base/err.h"
#include "engine/graph.h"

#define MODEL_GRAPH_HEAD 32
#define MODEL_GRAPH_NODE_BYTES 144

/* The bytes of g's block. */
uint64_t model_graph_bytes(const Graph *g);
/* g's block into p. */
void model_graph_put(unsigned char *p, const Graph *g);
/* The bytes of the block at p, from its head (len bytes there at least
 * MODEL_GRAPH_HEAD): 0 when its counts are out of range. */
uint64_t model_graph_size(const unsigned char *p);
/* The block at p (model_graph_size bytes, within the header read) at file
 * offset off, built into *g and checked; -1 with a message naming the
 * offset and what is wrong. */
int model_graph_get(const unsigned char *p, Graph **g, const char *path, uint64_t off, Err *e);

#endif
