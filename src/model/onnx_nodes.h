/* onnx_nodes.h - the state of an ONNX import as it walks the graph's chain
 * (onnx_import.c), and the reading of one node into it (onnx_nodes.c). */
#ifndef CONDNET_ONNX_NODES_H
#define CONDNET_ONNX_NODES_H

#include "engine/act.h"
#include "engine/layers.h"
#include "engine/limits.h"
#include "model/onnx_int.h"

/* The layers and parameters of the table of limits, as for every network
 * condnet builds, reads or writes (an export always imports back). */
#define MAX_LAYERS LIMIT_MAX_LAYERS
#define MAX_PARAMS ((long long)LIMIT_MAX_PARAMS)
/* identity layers put in for an activation-only graph: at most this many weights in all */
#define MAX_IDENTITY_PARAMS (1LL << 25)

/* Where the chain is: nothing read yet, after a dense layer (its bias may
 * follow), after a Mul (an Erf must follow), after an activation, after the
 * final Softmax, after a convolution (its activation must follow, a
 * MaxPool may come first). */
enum { S_START, S_DENSE, S_SCALED, S_ACT, S_SOFTMAX, S_CONV };

typedef struct Layer {
	int in, out;
	double *W, *b; /* in×out row-major, out; W NULL: the identity */
	int biased;    /* a bias was read (an Add then adds to it) */
	int conv;      /* 1: a convolution, of shape cs (in = C_in·K·K, out = C_out) */
	ConvShape cs;
} Layer;

typedef struct Imp {
	OnnxGraph gr;
	const Onnx__GraphProto *g;
	Layer *layers; /* nlayers of cap */
	int nlayers, cap;
	int state, last;   /* last: the node read most recently */
	long long width;   /* features of the current tensor, -1 when unknown */
	int rank;          /* its dimensions */
	int act, act_node; /* the hidden activation (-1 until one is read) and its node */
	double act_a, scale;
	long long params, id_params;
	int softmax, identity;
	unsigned char *visited; /* per node */
	int maps; /* 1: the current tensor is maps (N, C, H, W) of map_c×map_h×map_w */
	int map_c, map_h, map_w;
} Imp;

/* "node 3 (Gemm 'fc1')" for messages, into buf. */
static inline const char *node_s(const Imp *im, int k, OnnxNodeStr *buf)
{
	*buf = onnx_node_str(im->g, k);
	return buf->s;
}

/* An identity dense layer of the current width, put in before an
 * activation that follows no dense layer (node k). */
int onnx_push_identity(Imp *im, int k, Err *e);
/* Input j of node k must be a constant (what names it in the message). */
int onnx_need_const(Imp *im, int k, int j, const char *what, Err *e);
/* A layer of node k (W in×out, b out; both taken, freed on failure). */
int onnx_push_layer(Imp *im, int k, int in, int out, double *W, double *b, Err *e);

/* The convolution layers' nodes (onnx_conv.c): node k read into im when it
 * is a Conv, a MaxPool, a Reshape, or a Flatten of maps: 0, or -1 with a
 * message; 1 when it is none of these (onnx_do_node reads it). */
int onnx_conv_node(Imp *im, int k, int slot, Err *e);
/* The maps of a graph input of 4 dimensions (N, C, H, W) into im. */
int onnx_input_maps(Imp *im, const Onnx__ValueInfoProto *v, Err *e);

/* Node k of the chain (slot: which of its inputs carries the chain) read
 * into im; -1 with a message naming the node and its operator. */
int onnx_do_node(Imp *im, int k, int slot, Err *e);

#endif
