/* net.h - a feed-forward network: m layers, layer i (1-based in the paper,
 * stored at index i-1) maps n[i-1] inputs to n[i] outputs as
 *     y⁽ⁱ⁾ = f(y⁽ⁱ⁻¹⁾ W⁽ⁱ⁾ + b⁽ⁱ⁾),
 * W⁽ⁱ⁾ an n[i-1]×n[i] row-major matrix (a column is a neuron), b⁽ⁱ⁾ of length
 * n[i]. Hidden layers use the activation; the output layer (i = m) feeds a
 * softmax with cross-entropy.
 *
 * The first nconv layers may be convolutions (engine/layers.h): n[i] is
 * then the number of values of the maps layer i gives (C·H·W, after its
 * pool), n[0] those of the input image, and W⁽ⁱ⁾ is (C_in·K·K) × C_out with
 * b⁽ⁱ⁾ of C_out; net_rows and net_cols say a layer's sizes either way. The
 * output layer is dense.
 *
 * All parameters live in one contiguous buffer, layer by layer, W then b, and
 * the Adam moments live in two buffers of the same layout, so an optimizer
 * step is one pass over arrays, and removing a neuron removes its optimizer
 * state with it. The learning-rate schedule of the run under way and its
 * position (schedule.h) are optimizer state too: they travel with the
 * network through clones and model files.
 *
 * A graph network (engine/graph.h: residual Adds, Concats, strides,
 * groups, …) is a Net whose `graph` holds its nodes: m = 1, n[0] its
 * inputs and n[1] its classes, nparam and param the graph's parameters in
 * the graph's layout, with the Adam moments, schedule, record and
 * preprocessing of any network; W, b and conv are NULL and nconv 0. What
 * reads a network as a whole (its answers, its training, its files) takes
 * either kind; what reads it layer by layer through W and b (the
 * algorithms, the edits, the screen) refuses a graph (net_refuse_graph). */
#ifndef CONDNET_NET_H
#define CONDNET_NET_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/repro.h"
#include "base/rng.h"
#include "data/prep.h"
#include "engine/act.h"
#include "engine/graph.h"
#include "engine/layers.h"
#include "engine/schedule.h"

typedef struct Net {
	int m;  /* number of weight layers (hidden layers = m-1) */
	int *n; /* n[0..m]: n[0] inputs, n[m] outputs (classes) */
	ActKind act;
	float act_a;         /* erf scale a in erf(a·x); ignored by other activations */
	size_t nparam;       /* total number of parameters */
	float *param;        /* all parameters; W[i], b[i] point into it */
	float *adam_m;       /* Adam first moments, same layout (zeros when fresh) */
	float *adam_v;       /* Adam second moments */
	long adam_t;         /* Adam step count */
	LrSchedule sched;    /* the learning-rate schedule of the training run under way */
	SchedState sched_st; /* where that run is (zero: none started) */
	ReproRecord run;     /* what its last training computed with (kernels "": none) */
	Prep *prep;          /* how its inputs are made from raw ones (data/prep.h): the
	                      * training set's record, NULL when not known */
	float **W;           /* W[i], i < m: net_rows(i) × net_cols(i) row-major */
	float **b;           /* b[i], i < m: net_cols(i) */
	int nconv;           /* layers 0..nconv-1 are convolutions; 0: a dense network */
	ConvShape *conv;     /* their shapes (NULL when nconv is 0) */
	Graph *graph;        /* a graph network's nodes, or NULL for a chain */
} Net;

/* widths[0..m]: inputs, hidden widths, outputs. Parameters zeroed. Like
 * every constructor here, NULL with a message in e (may be NULL) when a
 * width is not positive, the activation is unknown or memory runs out. */
Net *net_new(int m, const int *widths, ActKind act, float act_a, Err *e);
/* The same with convolutions first: conv[0..nconv) (nconv < m), whose
 * shapes chain and give the widths n[0..nconv] (layers_check). */
Net *net_new_conv(int m, const int *widths, int nconv, const ConvShape *conv, ActKind act,
                  float act_a, Err *e);
/* A graph network of g's nodes (g taken, freed on failure too): its
 * parameters zeroed. The graph must end in features (the logits). */
Net *net_new_graph(Graph *g, Err *e);
/* 1 for a graph network. */
int net_is_graph(const Net *net);
/* 0 for a chain; for a graph network -1 and "WHAT reads a network layer by
 * layer, and NAME is a graph (…): …", what saying who refuses it. */
int net_refuse_graph(const Net *net, const char *what, Err *e);
/* The rows and columns of W[i] (0-based layer i < m), and the parameters of
 * the layer, W and b. */
int net_rows(const Net *net, int i);
int net_cols(const Net *net, int i);
size_t net_layer_params(const Net *net, int i);
/* 1 when the network has convolution layers. */
int net_has_conv(const Net *net);
/* The input image of a network with convolutions, C×H×W, into c, h, w
 * (zeros for a dense network). */
void net_input_shape(const Net *net, int *c, int *h, int *w);
/* 0 when rows of images c×h×w (0: rows that declare no shape) fit the
 * input of net; else -1 and a message naming what (the data). */
int net_check_images(const Net *net, int c, int h, int w, const char *what, Err *e);
/* The units of layer i (1..m): the output channels of a convolution, the
 * neurons of a dense layer, the columns of Ŵ⁽ⁱ⁾ either way; i = 0: the
 * inputs, n[0]. For a dense network the units are the widths n[]. */
int net_units(const Net *net, int i);
/* units[0..m] = net_units(net, 0..m). */
void net_units_all(const Net *net, int *units);
/* The rows of W⁽ⁱ⁺¹⁾ that read one unit of hidden layer i (1..m-1),
 * consecutive: 1 for a neuron, K² for a channel the next convolution reads
 * (rows (c·K + y)·K + x), h·w for a channel the flatten reads (its map's
 * positions, rows c·h·w ..); 1 for any other i. */
int net_unit_rows(const Net *net, int i);
/* "channel(s)" for a convolution layer i (1..nconv), else "neuron(s)". */
const char *net_unit_name(const Net *net, int i, int plural);
void net_free(Net *net); /* accepts NULL */
/* A copy: parameters, Adam state, schedule, record and preprocessing. */
Net *net_clone(const Net *net, Err *e);
/* Records p (a copy; NULL clears the record) as the preprocessing of net's
 * inputs; p->d must be net's input width. */
int net_set_prep(Net *net, const Prep *p, Err *e);

/* Keras Dense initialisation: W uniform in ±sqrt(6/(fan_in+fan_out))
 * (Glorot uniform; a convolution's fans are C_in·K·K and C_out·K·K, as
 * Keras' Conv2D counts them), b = 0; Adam state reset. A graph network's
 * Conv and Gemm nodes alike, node by node in the graph's order, fan-in
 * their rows (graph_rows) and fan-out their columns times kh·kw (a
 * depthwise Conv's multiplier times kh·kw, as Keras' DepthwiseConv2D), its
 * Affine nodes the identity. */
void net_init_glorot(Net *net, Rng *rng);
/* A new network of these widths with Glorot weights drawn from a generator
 * seeded with seed: what every "fresh network" of condnet is. */
Net *net_fresh(int m, const int *widths, ActKind act, float act_a, uint64_t seed, Err *e);
/* A fresh network of the --layers specification spec (layers.h) for d
 * inputs and `classes` outputs: the inputs an image of c×h×w (c·h·w = d)
 * when the specification has convolutions, which inputs without a shape
 * (c = 0) refuse. what names the inputs in messages ("mnist-pixels train").
 * A specification of a residual family (graph_family.h: resnet:…,
 * residual:…) makes a graph network. */
Net *net_fresh_spec(const char *spec, int d, int c, int h, int w, int classes, ActKind act,
                    float act_a, uint64_t seed, const char *what, Err *e);
/* Zero Adam moments and step count, and no schedule run (constant, not started). */
void net_reset_adam(Net *net);

/* The structural edits (net_edit.c). A unit is a neuron of a dense layer or
 * a channel of a convolution: a column of W⁽ˡ⁾ and an entry of b⁽ˡ⁾, and
 * the net_unit_rows(net, l) rows of W⁽ˡ⁺¹⁾ that read it (the slices
 * W_next[:, j, :, :] of the next convolution, or the flatten's rows of its
 * map in the first dense layer; a pool keeps channels one to one).
 *
 * Hidden layer `layer` (1..m-1, the paper's numbering) keeps only the units
 * keep[0..nkeep) (indices into the current layer, any order: the kept units
 * are stored in ascending index order). Removes the other columns of W⁽ˡ⁾,
 * entries of b⁽ˡ⁾, rows of W⁽ˡ⁺¹⁾ and their Adam state; a convolution's
 * shapes follow. nkeep >= 1. */
int net_keep_neurons(Net *net, int layer, const int *keep, int nkeep, Err *e);
/* Removes unit j of hidden layer `layer` (a convenience over the above). */
int net_remove_neuron(Net *net, int layer, int j, Err *e);
/* Appends count units to hidden layer `layer`: incoming weights Glorot
 * uniform for the new shape, bias 0, outgoing weights 0 (so outputs are
 * unchanged until trained), Adam state 0. */
int net_add_neurons(Net *net, int layer, int count, Rng *rng, Err *e);

/* The same layers (the convolutions' kernels, padding and pools, the input
 * image) with the units of every hidden layer replaced: hidden[0..m-2] holds
 * the new units of layers 1..m-1 (fresh zero parameters, the same
 * preprocessing). */
Net *net_reshape(const Net *net, const int *hidden, Err *e);
/* A fresh network of shape's layers with units[1..m-1] as its hidden units
 * (units[0] and units[m] are shape's), Glorot weights drawn from seed and
 * no preprocessing recorded: for a dense network net_fresh(m, units, …). */
Net *net_fresh_like(const Net *shape, const int *units, uint64_t seed, Err *e);

/* Parses "12x300", "600,410,510", "3x50,20" into hidden widths (malloc'd).
 * Every width must be a positive integer; a convolution or pool (layers.h)
 * is refused: what takes only dense widths. */
int net_parse_layers(const char *spec, int **widths, int *count, Err *e);
/* "200-600-410-…-10" into buf; with convolutions the input image, then
 * each one's channels@kernel (and padding), "1x28x28-6@5x5-pool-120-84-10". */
const char *net_shape_str(const Net *net, char *buf, size_t len);
size_t net_param_count_for(int m, const int *widths);
/* Total hidden neurons, Σ n[1..m-1]. */
long net_hidden_total(const Net *net);

#endif
