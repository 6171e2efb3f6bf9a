/* onnx_gnodes.c - what each node of an ONNX graph adds to a graph network:
 * the layers (onnx_glayers.c), and here the pools, Concat, the
 * activations, Flatten and Reshape, the final Softmax, and Identity and
 * Dropout (which pass their input on). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/limits.h"
#include "model/onnx_gimp.h"

/* A node of one input, op and attributes p, reading node k's data. */
static int unary(GImp *im, int k, GraphNode *p, Err *e)
{
	int x = gimp_value(im, k, 0, "its data", e);
	return x < 0 || gimp_push(im, k, p, &x, 1, NULL, e) < 0 ? -1 : 0;
}

static int pool(GImp *im, int k, GraphOp op, Err *e)
{
	int x = gimp_value(im, k, 0, "its data", e);
	if (x < 0)
		return -1;
	GraphNode p = {.op = op};
	const GraphNode *a = &im->graph->node[x];
	if (a->rank != 4)
		return onnx_node_err(im->g, k, e, "its input is %d features, not maps", a->c);
	if (op != GRAPH_GLOBALAVG && onnx_window(im, k, NULL, x, &p.win, e))
		return -1;
	return gimp_push(im, k, &p, &x, 1, NULL, e) < 0 ? -1 : 0;
}

/* Concat of channels: axis 1 (or −3) of maps, 1 (or −1) of features. */
static int concat(GImp *im, int k, Err *e)
{
	const Onnx__NodeProto *n = im->g->node[k];
	long long axis;
	int *in = malloc(n->n_input * sizeof *in), rc = -1;
	if (!in)
		return onnx_node_err(im->g, k, e, "out of memory");
	if (!onnx_attr(n, "axis")) {
		onnx_node_err(im->g, k, e, "no attribute 'axis'");
		goto out;
	}
	if (onnx_attr_int(im->g, k, "axis", 1, &axis, e))
		goto out;
	for (size_t i = 0; i < n->n_input; i++) {
		char what[32];
		snprintf(what, sizeof what, "input %zu", i + 1);
		if ((in[i] = gimp_value(im, k, (int)i, what, e)) < 0)
			goto out;
	}
	int rank = im->graph->node[in[0]].rank;
	if (axis != 1 && axis != -(long long)(rank - 1)) {
		onnx_node_err(im->g, k, e,
		              "concatenates along axis %lld of a %d-dimensional tensor; condnet "
		              "concatenates channels (axis 1)",
		              axis, rank);
		goto out;
	}
	GraphNode p = {.op = GRAPH_CONCAT};
	rc = gimp_push(im, k, &p, in, (int)n->n_input, NULL, e) < 0 ? -1 : 0;
out:
	free(in);
	return rc;
}

/* Clip's bounds: attributes before opset 11, constant inputs after. */
static int clip(GImp *im, int k, Err *e)
{
	const Onnx__NodeProto *n = im->g->node[k];
	double b[2] = {-FLT_MAX, FLT_MAX};
	static const char *const which[2] = {"min", "max"};
	for (int i = 0; i < 2; i++) {
		if (im->gr.opset < 11) {
			if (onnx_attr_float(im->g, k, which[i], b[i], &b[i], e))
				return -1;
			continue;
		}
		if ((int)n->n_input <= i + 1 || !n->input[i + 1][0])
			continue;
		OnnxTensor t;
		if (!onnx_graph_is_const(&im->gr, n->input[i + 1]))
			return onnx_node_err(im->g, k, e, "its %s is not a constant", which[i]);
		if (onnx_graph_const(&im->gr, n->input[i + 1], k, &t, e))
			return -1;
		size_t count = t.count;
		b[i] = count == 1 ? t.v[0] : 0;
		free(t.v);
		if (count != 1)
			return onnx_node_err(im->g, k, e, "its %s holds %zu values, expected one",
			                     which[i], count);
	}
	if (!(b[0] <= b[1]))
		return onnx_node_err(im->g, k, e, "min %g above max %g", b[0], b[1]);
	GraphNode p = {.op = GRAPH_CLIP, .lo = (float)b[0], .hi = (float)b[1]};
	return unary(im, k, &p, e);
}

/* Flatten from axis 1 (or the axis before the features): maps into their
 * values as features; features as they are. */
static int flatten(GImp *im, int k, Err *e)
{
	long long axis;
	int x = gimp_value(im, k, 0, "its data", e);
	if (x < 0 || onnx_attr_int(im->g, k, "axis", 1, &axis, e))
		return -1;
	const GraphNode *a = &im->graph->node[x];
	if (axis < 0)
		axis += a->rank;
	if (axis != 1)
		return onnx_node_err(im->g, k, e,
		                     "flattens from axis %lld of a %d-dimensional tensor; condnet "
		                     "keeps the batch whole (axis 1)",
		                     axis, a->rank);
	if (a->rank == 2) {
		gimp_alias(im, k, x);
		return 0;
	}
	GraphNode p = {.op = GRAPH_RESHAPE, .rank = 2, .c = (int)graph_size(a), .h = 1, .w = 1};
	return gimp_push(im, k, &p, &x, 1, NULL, e) < 0 ? -1 : 0;
}

/* The sizes of one sample after a Reshape to d[0..nd) (d[0] the batch: 0
 * or −1), into s[0..nd−1), checked; the input's dims are in[0..ni). */
static int reshape_dims(GImp *im, int k, const long long *d, int nd, const long long *in, int ni,
                        long long size, int allowzero, long long *s, Err *e)
{
	int infer = -1;
	long long known = 1;
	for (int i = 0; i < nd; i++)
		if (d[i] < -1)
			return onnx_node_err(
			    im->g, k, e,
			    "shape value %lld at position %d, expected -1 (inferred), "
			    "0 (copied) or a size",
			    d[i], i + 1);
	if (d[0] > 0 || (d[0] == 0 && allowzero))
		return onnx_node_err(
		    im->g, k, e,
		    "reshapes to a batch of %lld; condnet keeps the batch (0 or -1 "
		    "first)",
		    d[0]);
	for (int i = 1; i < nd; i++) {
		long long v = d[i];
		if (v < -1 || (v == 0 && allowzero))
			return onnx_node_err(
			    im->g, k, e,
			    "shape value %lld at position %d, expected -1 (inferred), "
			    "0 (copied) or a size",
			    v, i + 1);
		if (v == 0 && i - 1 >= ni)
			return onnx_node_err(
			    im->g, k, e,
			    "shape value 0 at position %d copies a dimension its input "
			    "has not",
			    i + 1);
		if (v == -1 && (infer >= 0 || d[0] == -1))
			return onnx_node_err(im->g, k, e, "more than one -1 in its shape");
		s[i - 1] = v == 0 ? in[i - 1] : v;
		if (v == -1)
			infer = i - 1;
		else if (s[i - 1] > LIMIT_MAX_WIDTH)
			return onnx_node_err(
			    im->g, k, e,
			    "shape value %lld at position %d, more than condnet reads "
			    "(at most %d)",
			    s[i - 1], i + 1, LIMIT_MAX_WIDTH);
		else if ((known *= s[i - 1]) > LIMIT_MAX_WIDTH)
			return onnx_node_err(
			    im->g, k, e,
			    "a shape of more than %d values a sample, more than condnet "
			    "reads",
			    LIMIT_MAX_WIDTH);
	}
	if (infer >= 0 && size % known == 0)
		s[infer] = size / known, known = size;
	if (known != size)
		return onnx_node_err(im->g, k, e,
		                     "a reshape of %lld values a sample into %lld (its shape, the "
		                     "batch first)",
		                     size, known);
	return 0;
}

static int reshape(GImp *im, int k, Err *e)
{
	const Onnx__NodeProto *n = im->g->node[k];
	long long d[ONNX_MAXDIMS], s[ONNX_MAXDIMS], in[3], az = 0;
	int nd, x = gimp_value(im, k, 0, "its data", e);
	if (x < 0 || onnx_attr_int(im->g, k, "allowzero", 0, &az, e))
		return -1;
	const Onnx__AttributeProto *sa = onnx_attr(n, "shape");
	if (n->n_input < 2 && sa) { /* before opset 5 */
		if (sa->n_ints < 1 || sa->n_ints > ONNX_MAXDIMS)
			return onnx_node_err(im->g, k, e, "a shape of %zu values", sa->n_ints);
		nd = (int)sa->n_ints;
		for (int i = 0; i < nd; i++)
			d[i] = (long long)sa->ints[i];
	} else if (n->n_input < 2 || onnx_graph_int64s(&im->gr, n->input[1], k, "its shape", d, &nd,
	                                               ONNX_MAXDIMS, e)) {
		return n->n_input < 2 ? onnx_node_err(im->g, k, e, "no shape") : -1;
	}
	const GraphNode *a = &im->graph->node[x];
	int ni = a->rank == 4 ? 3 : 1;
	in[0] = a->c, in[1] = a->h, in[2] = a->w;
	if (reshape_dims(im, k, d, nd, in, ni, (long long)graph_size(a), az != 0, s, e))
		return -1;
	if (nd != 2 && nd != 4)
		return onnx_node_err(im->g, k, e,
		                     "a reshape to %d dimensions; condnet reads (batch, features) "
		                     "and (batch, channels, height, width)",
		                     nd);
	GraphNode p = {.op = GRAPH_RESHAPE, .rank = nd, .c = (int)s[0]};
	p.h = nd == 4 ? (int)s[1] : 1;
	p.w = nd == 4 ? (int)s[2] : 1;
	if (p.rank == a->rank && p.c == a->c && p.h == a->h && p.w == a->w) {
		gimp_alias(im, k, x);
		return 0;
	}
	return gimp_push(im, k, &p, &x, 1, NULL, e) < 0 ? -1 : 0;
}

/* The final Softmax over the classes; it computes the graph's output. */
static int softmax(GImp *im, int k, Err *e)
{
	long long axis;
	int x = gimp_value(im, k, 0, "its data", e);
	if (x < 0 || onnx_attr_int(im->g, k, "axis", im->gr.opset < 13 ? 1 : -1, &axis, e))
		return -1;
	if (k != im->output)
		return onnx_node_err(im->g, k, e,
		                     "a Softmax that does not compute the graph's output (condnet "
		                     "reads one, over the classes, last)");
	const GraphNode *a = &im->graph->node[x];
	if (a->rank != 2 || (axis != 1 && axis != -1))
		return onnx_node_err(im->g, k, e,
		                     "softmax over axis %lld of a %d-dimensional tensor; condnet's "
		                     "runs over the features (axis 1 of (batch, features))",
		                     axis, a->rank);
	im->softmax = 1;
	gimp_alias(im, k, x);
	return 0;
}

/* Identity, and Dropout as evaluation computes it: the input. */
static int pass_on(GImp *im, int k, Err *e)
{
	const Onnx__NodeProto *n = im->g->node[k];
	int x = gimp_value(im, k, 0, "its data", e), train = 0;
	long long is_test = 1;
	if (x < 0)
		return -1;
	if (!strcmp(n->op_type, "Dropout")) {
		if (n->n_input == 3 && n->input[2][0] &&
		    onnx_graph_bool(&im->gr, n->input[2], k, "its training_mode", &train, e))
			return -1;
		if (onnx_attr_int(im->g, k, "is_test", 1, &is_test, e))
			return -1;
		if (train || !is_test)
			return onnx_node_err(im->g, k, e,
			                     "dropout in training mode (export the model in "
			                     "evaluation mode)");
	}
	gimp_alias(im, k, x);
	return 0;
}

static int activation(GImp *im, int k, GraphOp op, Err *e)
{
	GraphNode p = {.op = op};
	double alpha;
	if (op == GRAPH_LEAKY) {
		if (onnx_attr_float(im->g, k, "alpha", 0.01, &alpha, e))
			return -1;
		p.a = (float)alpha;
	}
	return unary(im, k, &p, e);
}

int gimp_node(GImp *im, int k, Err *e)
{
	static const struct {
		const char *op;
		GraphOp g;
	} acts[] = {{"Relu", GRAPH_RELU},           {"Sigmoid", GRAPH_SIGMOID},
	            {"Tanh", GRAPH_TANH},           {"Erf", GRAPH_ERF},
	            {"LeakyRelu", GRAPH_LEAKY},     {"MaxPool", GRAPH_MAXPOOL},
	            {"AveragePool", GRAPH_AVGPOOL}, {"GlobalAveragePool", GRAPH_GLOBALAVG}};
	const char *op = im->g->node[k]->op_type;
	if (im->gr.isconst[k])
		return 0; /* a constant: read where it is used */
	for (size_t i = 0; i < sizeof acts / sizeof *acts; i++)
		if (!strcmp(op, acts[i].op))
			return i < 5 ? activation(im, k, acts[i].g, e) : pool(im, k, acts[i].g, e);
	if (!strcmp(op, "Conv"))
		return gimp_conv(im, k, e);
	if (!strcmp(op, "Gemm") || !strcmp(op, "MatMul"))
		return gimp_gemm(im, k, e);
	if (!strcmp(op, "BatchNormalization"))
		return gimp_batchnorm(im, k, e);
	if (!strcmp(op, "Add") || !strcmp(op, "Mul"))
		return gimp_const_op(im, k, e);
	if (!strcmp(op, "Concat"))
		return concat(im, k, e);
	if (!strcmp(op, "Clip"))
		return clip(im, k, e);
	if (!strcmp(op, "Flatten"))
		return flatten(im, k, e);
	if (!strcmp(op, "Reshape"))
		return reshape(im, k, e);
	if (!strcmp(op, "Softmax"))
		return softmax(im, k, e);
	if (!strcmp(op, "Identity") || !strcmp(op, "Dropout"))
		return pass_on(im, k, e);
	return onnx_node_err(im->g, k, e,
	                     "transposes the data; condnet reads a Transpose only of a constant "
	                     "weight");
}
