/* graph.h - a network as a graph: nodes in a topological order, each an
 * operator with the nodes it reads, so that a node may read two (a residual
 * Add, a channel Concat) and be read by several. ResNets, MobileNets and
 * what ONNX files hold that is not one chain (engine/net.h's chains stay
 * what they are).
 *
 * Node 0 is the input: the rows the network reads, as maps C×H×W (rank 4)
 * or as C features (rank 2, h = w = 1). Every node gives one tensor per
 * sample, its values row-major C×H×W as NumPy, PyTorch and ONNX hold them
 * (a flatten changes no value's place). The last node gives the logits:
 * features, one a class, which the softmax and cross-entropy read.
 *
 * The parameters of the nodes that have some live in one contiguous buffer
 * (the Net's param: a graph network is a Net whose graph is this, net.h),
 * node by node in order, each at its offset:
 *   - Conv: W as the ((C_in/g)·kh·kw) × C_out row-major matrix whose row
 *     (c·kh + y)·kw + x and column j hold the weight of input channel c of
 *     j's group at kernel offset (y, x) for output channel j, then b (C_out):
 *     Ŵ = [W; bᵀ] has a column per output channel, as engine/layers.h's;
 *   - Gemm: W (inputs × outputs) row-major, then b (outputs);
 *   - Affine: s (C) then t (C), y = s_c·x + t_c (a BatchNormalization that
 *     follows no Conv or Gemm; those are folded into the layer before).
 *
 * Every size is checked where a node is added (graph_add), against the
 * table of limits, before it is multiplied or stored in an int: the
 * importers and the model file build a graph only through it. */
#ifndef CONDNET_GRAPH_H
#define CONDNET_GRAPH_H

#include <stddef.h>

#include "base/err.h"

typedef enum GraphOp {
	GRAPH_INPUT = 0, /* node 0 only */
	GRAPH_CONV,      /* any stride, dilation, padding, group */
	GRAPH_GEMM,      /* a dense layer on features */
	GRAPH_AFFINE,    /* per channel s·x + t */
	GRAPH_ADD,       /* the sum of two inputs of one shape */
	GRAPH_CONCAT,    /* the channels of its inputs one after another */
	GRAPH_MAXPOOL,   /* windows' maxima (padding ignored) */
	GRAPH_AVGPOOL,   /* windows' means (padding counted or not) */
	GRAPH_GLOBALAVG, /* each map's mean: C×1×1 */
	GRAPH_RELU,
	GRAPH_CLIP, /* min(max(x, lo), hi): ReLU6 is lo 0, hi 6 */
	GRAPH_LEAKY,
	GRAPH_SIGMOID,
	GRAPH_TANH,
	GRAPH_ERF,
	GRAPH_SCALE,   /* a·x, a one constant */
	GRAPH_RESHAPE, /* the same values as another shape (Flatten, Reshape) */
	GRAPH_OP_COUNT
} GraphOp;

/* The window of a Conv or a pool: kh×kw cells, stride sh×sw, dilation
 * dh×dw (Conv only), pt/pl/pb/pr cells of padding above, left, below and
 * right; ceil: a pool's output size rounded up (windows that start in the
 * padding after the map dropped, as PyTorch does); count_pad: an average
 * pool divides by the whole window, padding included. */
typedef struct GraphWin {
	int kh, kw, sh, sw, dh, dw;
	int pt, pl, pb, pr;
	int ceil, count_pad;
} GraphWin;

/* The most inputs of one node (a Concat's). */
#define GRAPH_MAX_INPUTS 1024
/* The most nodes of a graph. */
#define GRAPH_MAX_NODES 100000
/* The characters kept of a node's name. */
#define GRAPH_NAME 48

typedef struct GraphNode {
	GraphOp op;
	int nin, in0;    /* its inputs: nodes edge[in0 .. in0 + nin), all earlier */
	int rank;        /* 4: maps of c×h×w; 2: c features (h = w = 1) */
	int c, h, w;     /* the tensor it gives for one sample */
	GraphWin win;    /* Conv, MaxPool, AveragePool */
	int group;       /* Conv: its groups (C_in and C_out multiples of it) */
	float a, lo, hi; /* LeakyRelu's α, Scale's a; Clip's bounds */
	size_t off;      /* its parameters' offset in the buffer, and how many */
	size_t nparam;
	char name[GRAPH_NAME]; /* the name its source gave it, "" for none */
} GraphNode;

typedef struct Graph {
	int n; /* nodes: 0 the input, n − 1 the logits */
	GraphNode *node;
	int nedge;
	int *edge;
	size_t nparam; /* of every node */
	int softmax;   /* 1: the source ended in a Softmax of the logits (what an export
	                * writes back); the probabilities are the softmax either way */
	int cap, capedge;
	unsigned long id; /* a number no other graph, nor this one before its last node
	                   * was added, had: what the passes' kept workspaces are for */
} Graph;

/* A graph of its input alone: rank 4, maps of c×h×w, or rank 2, c
 * features (h = w = 1). Each size is checked before the product (the
 * widest input is the table of limits' width). NULL with a message. */
Graph *graph_new(int rank, long long c, long long h, long long w, Err *e);
void graph_free(Graph *g); /* accepts NULL */
Graph *graph_clone(const Graph *g, Err *e);

/* Adds the node described by proto (its op and attributes: win, group, a,
 * lo, hi, name; the rest is computed) reading in[0..nin): its shape from
 * its inputs', every size checked against the table of limits, its
 * parameters placed after those before. The new node's index, or -1 with
 * a message saying what does not fit ("a 5×5 kernel on 3×3 maps padded by
 * 0"). For a Conv, proto->c is C_out; for a Gemm, proto->c is its outputs;
 * for a Reshape, proto->rank, c, h, w the shape (its values as many). */
int graph_add(Graph *g, const GraphNode *proto, const int *in, int nin, Err *e);

/* The inputs of node k. */
static inline const int *graph_in(const Graph *g, int k)
{
	return g->edge + g->node[k].in0;
}

/* Values of node k's tensor for one sample, c·h·w. */
static inline size_t graph_size(const GraphNode *n)
{
	return (size_t)n->c * (size_t)n->h * (size_t)n->w;
}

/* The rows and columns of a Conv or Gemm node's W (Ŵ has one row more). */
int graph_rows(const Graph *g, int k);
int graph_cols(const Graph *g, int k);

/* 1 when node k is a depthwise Conv: more than one group, as many as its
 * input's channels (each output channel reads one input channel). */
int graph_depthwise(const Graph *g, int k);

/* The layers of a graph: its Conv and Gemm nodes (those with a Ŵ), how
 * many, and the node of layer l (1-based, in the graph's order). */
int graph_nlayers(const Graph *g);
int graph_layer_node(const Graph *g, int l);

/* ONNX's name of an operator ("Conv", "GlobalAveragePool", …). */
const char *graph_op_name(GraphOp op);
/* "node 12 'layer1.0.conv1' (Conv)", or without the name when it has none. */
const char *graph_node_str(const Graph *g, int k, char *buf, size_t len);
/* The multiply-adds of a forward pass over one sample. */
double graph_macs(const Graph *g);
/* How many readers each node has, into uses[0..n). */
void graph_uses(const Graph *g, int *uses);
/* "3x32x32 graph: 20 Conv, 8 Add, 1 Gemm, … -> 10" into buf. */
const char *graph_shape_str(const Graph *g, char *buf, size_t len);

#endif
