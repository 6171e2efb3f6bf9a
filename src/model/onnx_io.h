/* onnx_io.h - a network as an ONNX model: reading one that PyTorch, Keras
 * converters or condnet wrote, and writing a Net for any ONNX runtime.
 *
 * A graph condnet reads is one chain from its input to its output of, first
 * when the input is images (N, C, H, W) with C, H and W fixed (or a Reshape
 * of features into such images),
 *     convolution layers (Conv: square kernel of stride 1, no dilation, one
 *                 group, the same padding on every side below the kernel
 *                 side, or auto_pad SAME with an odd kernel; its kernel
 *                 (out, in, K, K) and bias constants), each followed by the
 *                 activation and, before or after it, at most one MaxPool of
 *                 2×2 windows and stride 2 (the activations do not decrease,
 *                 so the order gives the same maps),
 *     then a Flatten (axis 1) or a Reshape to (batch, C·H·W) of the maps,
 * then
 *     dense layer (Gemm, or MatMul with an optional Add of a constant bias;
 *                  the weight a constant in either orientation: Gemm's transB,
 *                  or a Transpose of the constant),
 *     activation (Erf, with an optional Mul by a constant before it as the
 *                 scale a of erf(a·x); Tanh; Relu; Sigmoid),
 *     ... dense layer, and a final Softmax over the features or none,
 * plus Identity nodes, a Flatten(axis 1) before everything, and Constant
 * nodes. Every hidden layer must use the same activation (a Net has one).
 * An activation with no dense layer before it (an activation-only graph such
 * as a lone Relu) is read through identity dense layers, which compute the
 * same function exactly: Relu(x) becomes the Net x·I → relu → ·I, so such a
 * graph imports and reproduces its outputs.
 *
 * Everything else (another operator, a branch or skip connection, Dropout
 * left in, shapes that do not chain, a cycle, an input nothing defines) is
 * refused with one line naming the node (its index and name) and operator.
 *
 * The model condnet writes: IR version 7, opset 13 of the default domain,
 * input "input" (float32, N × n[0], or N × C × H × W for a network with
 * convolutions), output "probabilities" (float32, N × n[m]); for a
 * convolution layer k a Conv (kernel_shape, pads, strides 1) of
 * initializers "Wk" (C_out × C_in × K × K, as torch.nn.Conv2d holds it) and
 * "bk", its activation, and a MaxPool (2×2, strides 2) when it pools; a
 * Flatten (axis 1) after the last; for each dense layer k a Gemm (transB = 1) of initializers "Wk"
 * (n[k] × n[k-1], outputs × inputs as torch.nn.Linear stores it, the
 * orientation every runtime reads) and "bk"; after each hidden layer Mul by the
 * initializer "erf_scale" and Erf (act erf), or Tanh, Relu, Sigmoid; and
 * Softmax(axis 1) after the last. metadata_props: condnet.version,
 * condnet.widths ("784-600-10"), condnet.activation, condnet.erf_scale and,
 * when known, condnet.tau; and condnet.prep, the record of how the inputs
 * are made from raw ones (data/prep_text.h: Haar coefficients, means and
 * scales), which the graph does not apply: it takes the inputs made so.
 * An import reads condnet.prep back into the network's record. */
#ifndef CONDNET_ONNX_IO_H
#define CONDNET_ONNX_IO_H

#include <stddef.h>

#include "base/err.h"
#include "engine/net.h"

#define ONNX_OPSET 13
/* The opset of a graph network that holds a Clip (onnx_gexport.c). */
#define ONNX_OPSET_CLIP 10
#define ONNX_IR_VERSION 7
#define ONNX_INPUT_NAME "input"
#define ONNX_OUTPUT_NAME "probabilities"
#define ONNX_META_PREP "condnet.prep"

/* What an import found besides the Net. */
typedef struct OnnxInfo {
	int softmax;  /* 1: the graph ends in Softmax (its outputs are probabilities);
	                 0: it ends in the last layer's outputs (logits) */
	int identity; /* identity dense layers put in for activations with no dense
	                 layer before them */
	int graph;    /* 1: a graph network (onnx_import_any), not a chain */
	long opset;   /* opset version of the default domain */
	long ir_version;
	char input[128]; /* the graph's input and output names (cut to fit) */
	char output[128];
	char producer[128]; /* producer_name and producer_version */
} OnnxInfo;

/* What an export records besides the Net. */
typedef struct OnnxMeta {
	double tau; /* the τ the network was refined with; <= 0 when unknown */
} OnnxMeta;

/* Reads the ONNX model at path (or buf[0..len), named name in messages) into
 * a new Net; info (may be NULL) receives what else the file said. Weights
 * float32 or float64, as raw_data or typed fields; every value must be a
 * finite float32. NULL and a message naming the file on failure. */
Net *onnx_import(const char *path, OnnxInfo *info, Err *e);
Net *onnx_import_mem(const void *buf, size_t len, const char *name, OnnxInfo *info, Err *e);

/* Reads any model condnet reads: a chain as onnx_import reads it, and any
 * other graph of the operators a graph network holds (engine/graph.h) as a
 * graph network (info->graph 1). The graph's grammar:
 *   its one data input (N, C, H, W) or (N, F), every size but N fixed; its
 *   one output (N, classes); nodes Conv (2-D, any strides, dilations, pads,
 *   auto_pad and group), BatchNormalization (evaluation's: folded into the
 *   Conv or Gemm before it when that one's output goes to it alone, else a
 *   per-channel scale and shift), Add of two tensors of one shape or of a
 *   constant (a bias, folded likewise, or one value a channel), Mul by a
 *   constant (one number, or one a channel), Concat of channels, MaxPool
 *   and AveragePool (any window, stride and pads, ceil_mode,
 *   count_include_pad; no dilation), GlobalAveragePool, Relu, Clip (min and
 *   max constants: ReLU6), LeakyRelu, Sigmoid, Tanh, Erf, Flatten (axis 1)
 *   and Reshape (keeping the batch) to (N, F) or (N, C, H, W), Gemm or
 *   MatMul by constant weights, a Softmax over the classes computing the
 *   output, Identity, Dropout (evaluation's), and constants through
 *   Constant, Identity and Transpose. Every other operator, attribute or
 *   shape is refused naming the node; every size is checked against the
 *   table of limits before it is used. */
Net *onnx_import_any(const char *path, OnnxInfo *info, Err *e);
Net *onnx_import_any_mem(const void *buf, size_t len, const char *name, OnnxInfo *info, Err *e);

/* Writes net as an ONNX model (layout above) to path, atomically. A graph
 * network is written node for node (IR version 7, input "input" of (N, C,
 * H, W) or (N, F), output "probabilities"): Conv with kernel_shape,
 * strides, pads, dilations and group and initializers W (C_out, C_in/g,
 * kh, kw) and b, Gemm (transB 1) of W (outputs, inputs) and b, a
 * per-channel scale and shift as a BatchNormalization of mean 0, variance
 * 1 and epsilon 0, the pools with their windows, ceil_mode and
 * count_include_pad, Add, Concat
 * (axis 1), the activations, Flatten or Reshape, and a Softmax (axis 1)
 * over the logits; opset 13, or 10 when it holds a Clip (onnx_graph_opset:
 * its bounds are then attributes, the only form OpenCV 4.6's dnn reads);
 * metadata condnet.version, condnet.graph (its shape), condnet.tau and
 * condnet.prep. */
int onnx_export(const Net *net, const char *path, const OnnxMeta *meta, Err *e);
/* The opset a graph network is written in. */
int onnx_graph_opset(const Graph *g);

/* The outputs of the imported graph on rows x[0..n) (n × n[0]) into out
 * (n × n[m]): the softmax probabilities (net_forward's last layer) when
 * softmax, else the last layer's outputs before the softmax. */
int onnx_forward(const Net *net, int softmax, const float *x, int n, float *out, Err *e);

/* A TensorProto file (the input_0.pb and output_0.pb of ONNX's test data):
 * float32 or float64 values into a malloc'd float array, its dimensions into
 * dims[0..*nd) (*nd <= 8). */
int onnx_read_tensor(const char *path, float **data, int *nd, long long dims[8], Err *e);

#endif
