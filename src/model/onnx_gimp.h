/* onnx_gimp.h - the state of an ONNX import into a graph network
 * (onnx_gimport.c walks the nodes, onnx_gnodes.c and onnx_glayers.c read
 * each one, onnx_window.c the windows of Conv and pools). Not part of the
 * library's interface. */
#ifndef CONDNET_ONNX_GIMP_H
#define CONDNET_ONNX_GIMP_H

#include "engine/graph.h"
#include "model/onnx_int.h"

typedef struct GImp {
	OnnxGraph gr;
	const Onnx__GraphProto *g;
	Graph *graph;
	int *val;     /* per ONNX node: the graph node its output is, -1 until read */
	double **par; /* per graph node: its parameters in double, NULL for none */
	int *from;    /* per graph node: the ONNX node that made it (-1: the input) */
	int cap;      /* of par and from */
	int nodes;    /* graph nodes made so far (par's entries in use) */
	int softmax;  /* the output is a Softmax of the logits */
	int output;   /* the ONNX node whose output is the graph's */
} GImp;

/* Node k's input j as the graph node it is: -1 with a message naming the
 * node when it is a constant or left out (what names the input). */
int gimp_value(GImp *im, int k, int j, const char *what, Err *e);
/* Adds the graph node proto reading in[0..nin) for ONNX node k, with its
 * parameters par (taken: freed on failure; NULL for none); node k's output
 * is then the new node. The index, or -1 with a message naming node k. */
int gimp_push(GImp *im, int k, const GraphNode *proto, const int *in, int nin, double *par, Err *e);
/* Node k's output is graph node v (an Identity, a folded layer). */
void gimp_alias(GImp *im, int k, int v);
/* "node 3 'conv1' (Conv)", for messages, into buf. */
const char *gimp_node_s(const GImp *im, int k, OnnxNodeStr *buf);

/* The window of Conv or pool node k on the maps of graph node in: the
 * attributes kernel_shape (kern: a Conv's kernel sides from its weights,
 * which the attribute must equal; NULL for a pool, which needs the
 * attribute), strides, dilations, pads, auto_pad, ceil_mode and
 * count_include_pad, every value checked before it is used. */
int onnx_window(GImp *im, int k, const long long *kern, int in, GraphWin *w, Err *e);

/* Node k read into the graph (onnx_gnodes.c): 0, or -1 with a message
 * naming the node. */
int gimp_node(GImp *im, int k, Err *e);
/* The layers (onnx_glayers.c): Conv, Gemm and MatMul, BatchNormalization
 * (folded into the Conv or Gemm before it when that one's output is read
 * by it alone), and Add or Mul of a constant. */
int gimp_conv(GImp *im, int k, Err *e);
int gimp_gemm(GImp *im, int k, Err *e);
int gimp_batchnorm(GImp *im, int k, Err *e);
int gimp_const_op(GImp *im, int k, Err *e);

#endif
