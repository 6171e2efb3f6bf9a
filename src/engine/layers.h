/* layers.h - the layers a network may hold besides dense ones, and the
 * --layers specification that names them all.
 *
 * A convolution layer reads C_in maps of H×W values (row-major C×H×W, the
 * layout of NumPy, PyTorch and ONNX) and makes C_out maps: a K×K kernel of
 * stride 1 over the input padded with `pad` zeros on every side, a bias per
 * output channel, the network's activation, then, when asked, a 2×2 max pool
 * of stride 2 (the map halved, rounded down, as PyTorch and ONNX pool).
 * Convolution layers come first; the dense layers after them read the last
 * maps flattened, C×H×W values in that order (the flatten is no layer of its
 * own). Layer i's weights W⁽ⁱ⁾ are stored as the (C_in·K·K) × C_out
 * row-major matrix whose row (c·K + y)·K + x and column j hold the weight of
 * input channel c at kernel offset (y, x) for output channel j: Ŵ = [W; bᵀ]
 * has a column per output channel as a dense layer's has a column per
 * neuron.
 *
 * The specification: comma-separated items, each a dense width N, R dense
 * layers of width N as RxN, a convolution conv:C:K (no padding) or
 * conv:C:K:same (K odd, padding (K−1)/2: the map keeps its size) or
 * conv:C:K:P (P zeros on every side, below K), or pool:2 after a
 * convolution. "conv:6:5,pool:2,conv:16:5,pool:2,120,84" is
 * LeNet-5's shape; "12x300" twelve dense layers of 300. */
#ifndef CONDNET_LAYERS_H
#define CONDNET_LAYERS_H

#include <stddef.h>

#include "base/err.h"

/* The largest kernel side, and the largest side of a map. */
#define LAYERS_MAX_KERNEL 64
#define LAYERS_MAX_SIDE 65536

typedef struct ConvShape {
	int c_in, h_in, w_in; /* the input maps */
	int c_out, k, pad;    /* output channels, kernel side, zeros on every side */
	int h_conv, w_conv;   /* the maps of the convolution: h_in + 2·pad − k + 1 */
	int pool;             /* 1: a 2×2 max pool of stride 2 after the activation */
	int h_out, w_out;     /* the maps the layer gives: h_conv, or h_conv/2 pooled */
} ConvShape;

/* One weight layer of a specification: a dense width, or a convolution. */
typedef struct LayerSpec {
	int conv;  /* 1: a convolution */
	int units; /* the dense width, or the output channels */
	int k;     /* convolution: the kernel side */
	int pad;   /* convolution: zeros on every side ("same": (k−1)/2) */
	int pool;  /* convolution: pool:2 follows */
} LayerSpec;

/* Parses spec into *out (malloc'd, *count items, pool folded into the
 * convolution before it). -1 and one line naming the column and what was
 * expected: "layers \"conv:6\": expected ':' and the kernel side at column
 * 7", a pool that follows no convolution, a convolution after a dense
 * width, an even kernel with same, a width or channel count out of range. */
int layers_parse(const char *spec, LayerSpec **out, int *count, Err *e);
/* The convolutions at the head of s[0..count). */
int layers_conv_count(const LayerSpec *s, int count);

/* The shapes of the convolutions s[0..nconv) on inputs of c×h×w into
 * out[0..nconv): -1 and a message when a kernel is larger than its padded
 * input map ("layer 2: a 5×5 kernel on 4×4 maps"), a pool has no 2×2 window
 * ("layer 1: a 2×2 pool on 1×1 maps") or a size is out of range. */
int layers_geometry(const LayerSpec *s, int nconv, int c, int h, int w, ConvShape *out, Err *e);
/* 0 when cs[0..nconv) chain (every layer reads the maps the one before
 * gives) and each is consistent in itself, else -1 and why (what names the
 * network). */
int layers_check(const ConvShape *cs, int nconv, const char *what, Err *e);

/* The values a convolution layer gives (c_out·h_out·w_out), the rows of its
 * W (c_in·k·k), and the multiply-adds of its convolution on one input
 * (h_conv·w_conv·c_in·k·k·c_out). */
long layers_out_width(const ConvShape *c);
long layers_rows(const ConvShape *c);
double layers_macs(const ConvShape *c);

/* "conv:6:5", "conv:6:5:same" or "conv:6:5:1", then ",pool:2" when
 * pooled: the specification of the layer, into buf. */
const char *layers_conv_str(const ConvShape *c, char *buf, size_t len);

#endif
