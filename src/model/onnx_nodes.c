/* onnx_nodes.c - what each node of an ONNX graph adds to the network being
 * imported: Gemm, MatMul and Add as a dense layer and its bias, Mul by a
 * constant as erf's scale, the activations, Softmax and Flatten. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/onnx_int.h"
#include "model/onnx_nodes.h"

int onnx_push_layer(Imp *im, int k, int in, int out, double *W, double *b, Err *e)
{
	long long n = (long long)in * out + out;
	if (im->nlayers == MAX_LAYERS || im->params + n > MAX_PARAMS ||
	    (!W && im->id_params + n > MAX_IDENTITY_PARAMS)) {
		free(W);
		free(b);
		if (im->nlayers == MAX_LAYERS)
			return onnx_node_err(im->g, k, e, "more than %d dense layers", MAX_LAYERS);
		if (W)
			return onnx_node_err(im->g, k, e, "more than %lld parameters", MAX_PARAMS);
		return onnx_node_err(im->g, k, e,
		                     "the identity layers an activation-only graph "
		                     "needs would hold more than %lld weights (%d features)",
		                     MAX_IDENTITY_PARAMS, in);
	}
	if (im->nlayers == im->cap) {
		int cap = im->cap ? 2 * im->cap : 16;
		Layer *l = realloc(im->layers, (size_t)cap * sizeof *l);
		if (!l) {
			free(W);
			free(b);
			return onnx_node_err(im->g, k, e, "out of memory");
		}
		im->layers = l;
		im->cap = cap;
	}
	im->layers[im->nlayers++] = (Layer){.in = in, .out = out, .W = W, .b = b};
	im->params += n;
	if (!W) {
		im->id_params += n;
		im->identity++;
	}
	im->width = out;
	im->state = S_DENSE; /* an activation or Softmax after an identity layer sets its own */
	return 0;
}

/* An identity dense layer before the activation or Softmax of node k. */
int onnx_push_identity(Imp *im, int k, Err *e)
{
	if (im->width < 1)
		return onnx_node_err(im->g, k, e,
		                     "no dense layer before it, and the input's "
		                     "feature count is not fixed, so condnet cannot put "
		                     "an identity layer there");
	if (im->width * im->width > MAX_IDENTITY_PARAMS)
		return onnx_node_err(im->g, k, e,
		                     "the identity layers an activation-only graph "
		                     "needs would hold more than %lld weights (%lld features)",
		                     MAX_IDENTITY_PARAMS, im->width);
	double *b = calloc((size_t)im->width, sizeof *b);
	if (!b)
		return onnx_node_err(im->g, k, e, "out of memory");
	return onnx_push_layer(im, k, (int)im->width, (int)im->width, NULL, b, e);
}

/* Input j of node k must be a constant (what names it in the message). */
int onnx_need_const(Imp *im, int k, int j, const char *what, Err *e)
{
	const char *name = im->g->node[k]->input[j];
	if (onnx_graph_is_const(&im->gr, name))
		return 0;
	const OnnxDef *d = name[0] ? onnx_graph_def(&im->gr, name) : NULL;
	OnnxNodeStr b;
	if (!d)
		return onnx_node_err(im->g, k, e, "%s (input %d) is left out", what, j);
	if (d->kind == DEF_INPUT)
		return onnx_node_err(im->g, k, e,
		                     "%s '%s' is a graph input, not a constant "
		                     "(condnet reads one input, the data, and constant "
		                     "weights)",
		                     what, onnx_name(name).s);
	return onnx_node_err(im->g, k, e,
	                     "%s '%s' comes from %s, not a constant: a branch or "
	                     "skip connection",
	                     what, onnx_name(name).s, node_s(im, d->idx, &b));
}

static const char *dims_str(const OnnxTensor *t, char *buf, size_t cap)
{
	size_t at = (size_t)snprintf(buf, cap, "(");
	for (int i = 0; i < t->nd && at < cap; i++)
		at += (size_t)snprintf(buf + at, cap - at, i ? ", %lld" : "%lld", t->dims[i]);
	if (at < cap)
		snprintf(buf + at, cap - at, t->nd == 1 ? ",)" : ")");
	return buf;
}

/* b[j] = scale·c[j] (add: b[j] += scale·c[j]) for a bias c that broadcasts
 * over the rows: one value, (out,) or (1, out). Set rather than added to
 * zero, so that a bias of -0 is read as -0. */
static int add_bias(Imp *im, int k, const OnnxTensor *c, int out, double scale, double *b, int add,
                    Err *e)
{
	char ds[128];
	if (c->count == 1 || (c->nd == 1 && c->dims[0] == out) ||
	    (c->nd == 2 && c->dims[0] == 1 && c->dims[1] == out)) {
		for (int j = 0; j < out; j++) {
			double v = scale * c->v[c->count == 1 ? 0 : j];
			b[j] = add ? b[j] + v : v;
		}
	} else {
		return onnx_node_err(im->g, k, e,
		                     "bias of shape %s does not broadcast over rows of "
		                     "%d outputs",
		                     dims_str(c, ds, sizeof ds), out);
	}
	return 0;
}

/* A dense layer of node k with weights B (in×out, or out×in when tb). */
static int dense(Imp *im, int k, const OnnxTensor *B, int tb, double alpha, double **W, int *in,
                 int *out, Err *e)
{
	char ds[128];
	OnnxNodeStr ns;
	if (im->state == S_DENSE)
		return onnx_node_err(im->g, k, e,
		                     "follows the dense layer of %s with no activation "
		                     "between them",
		                     node_s(im, im->last, &ns));
	if (im->state == S_SCALED)
		return onnx_node_err(im->g, k, e,
		                     "follows a Mul by a constant with no Erf between");
	if (im->maps)
		return onnx_node_err(im->g, k, e,
		                     "its input is maps (batch, channels, height, width); a "
		                     "Flatten comes between convolutions and dense layers");
	if (im->rank != 2)
		return onnx_node_err(im->g, k, e,
		                     "its input has %d dimensions; a dense layer reads "
		                     "(batch, features)",
		                     im->rank);
	if (B->nd != 2 || B->dims[0] < 1 || B->dims[1] < 1 || B->dims[0] > INT32_MAX ||
	    B->dims[1] > INT32_MAX)
		return onnx_node_err(im->g, k, e, "weights of shape %s, expected a matrix",
		                     dims_str(B, ds, sizeof ds));
	int r = (int)B->dims[0], c = (int)B->dims[1];
	*in = tb ? c : r;
	*out = tb ? r : c;
	if (im->width >= 0 && *in != im->width)
		return onnx_node_err(im->g, k, e,
		                     "weights of %d inputs × %d outputs, but its input "
		                     "has %lld features",
		                     *in, *out, im->width);
	*W = malloc(B->count * sizeof **W);
	if (!*W)
		return onnx_node_err(im->g, k, e, "out of memory");
	for (int i = 0; i < *in; i++)
		for (int j = 0; j < *out; j++)
			(*W)[(size_t)i * *out + j] =
			    alpha * B->v[tb ? (size_t)j * c + i : (size_t)i * c + j];
	return 0;
}

/* Gemm(A, B, C): Y = alpha·A·op(B) + beta·C, A the data. */
static int do_gemm(Imp *im, int k, int slot, Err *e)
{
	const Onnx__NodeProto *n = im->g->node[k];
	long long ta, tb;
	double alpha, beta;
	if (slot != 0)
		return onnx_node_err(im->g, k, e,
		                     "the data is operand %c; condnet reads "
		                     "data × weights (operand A)",
		                     'A' + slot);
	if (onnx_attr_int(im->g, k, "transA", 0, &ta, e) ||
	    onnx_attr_int(im->g, k, "transB", 0, &tb, e) ||
	    onnx_attr_float(im->g, k, "alpha", 1, &alpha, e) ||
	    onnx_attr_float(im->g, k, "beta", 1, &beta, e))
		return -1;
	if (ta)
		return onnx_node_err(im->g, k, e, "transA = %lld transposes the data", ta);
	int has_c = n->n_input == 3 && n->input[2][0];
	if (onnx_need_const(im, k, 1, "weight matrix", e) ||
	    (has_c && onnx_need_const(im, k, 2, "bias", e)))
		return -1;
	OnnxTensor B, C = {0};
	if (onnx_graph_const(&im->gr, n->input[1], k, &B, e))
		return -1;
	double *W = NULL, *b = NULL;
	int in, out, rc = -1;
	if (dense(im, k, &B, tb != 0, alpha, &W, &in, &out, e))
		goto out;
	if (!(b = calloc((size_t)out, sizeof *b))) {
		onnx_node_err(im->g, k, e, "out of memory");
		goto out;
	}
	if (has_c && (onnx_graph_const(&im->gr, n->input[2], k, &C, e) ||
	              add_bias(im, k, &C, out, beta, b, 0, e)))
		goto out;
	rc = onnx_push_layer(im, k, in, out, W, b, e);
	if (!rc)
		im->layers[im->nlayers - 1].biased = has_c;
	W = b = NULL;
out:
	free(W);
	free(b);
	free(B.v);
	free(C.v);
	return rc;
}

/* MatMul(X, W): a dense layer without bias (an Add may follow). */
static int do_matmul(Imp *im, int k, int slot, Err *e)
{
	if (slot != 0)
		return onnx_node_err(im->g, k, e,
		                     "the data is the second operand; condnet reads "
		                     "data × weights");
	if (onnx_need_const(im, k, 1, "weight matrix", e))
		return -1;
	OnnxTensor B;
	if (onnx_graph_const(&im->gr, im->g->node[k]->input[1], k, &B, e))
		return -1;
	double *W = NULL, *b = NULL;
	int in, out, rc = -1;
	if (!dense(im, k, &B, 0, 1, &W, &in, &out, e)) {
		if ((b = calloc((size_t)out, sizeof *b)))
			rc = onnx_push_layer(im, k, in, out, W, b, e);
		else
			free(W), onnx_node_err(im->g, k, e, "out of memory");
	}
	free(B.v);
	return rc;
}

/* Add(X, c) right after a dense layer: its bias. */
static int do_add(Imp *im, int k, int slot, Err *e)
{
	const char *cname = im->g->node[k]->input[1 - slot];
	if (onnx_need_const(im, k, 1 - slot, "operand", e))
		return -1;
	if (im->state != S_DENSE)
		return onnx_node_err(im->g, k, e,
		                     "adds a constant that is not a dense layer's bias "
		                     "(condnet adds the bias right after the weights)");
	OnnxTensor c;
	if (onnx_graph_const(&im->gr, cname, k, &c, e))
		return -1;
	Layer *L = &im->layers[im->nlayers - 1];
	int rc = add_bias(im, k, &c, L->out, 1, L->b, L->biased, e);
	L->biased = 1;
	free(c.v);
	return rc;
}

/* Mul(X, a) before an Erf: the scale a of erf(a·x). */
static int do_mul(Imp *im, int k, int slot, Err *e)
{
	OnnxTensor c;
	if (onnx_need_const(im, k, 1 - slot, "factor", e) ||
	    onnx_graph_const(&im->gr, im->g->node[k]->input[1 - slot], k, &c, e))
		return -1;
	double a = c.count == 1 ? c.v[0] : 0;
	size_t count = c.count;
	free(c.v);
	if (count != 1)
		return onnx_node_err(im->g, k, e,
		                     "multiplies by %zu values; condnet reads a Mul only "
		                     "by one constant, the scale of an Erf after it",
		                     count);
	if (im->state == S_SCALED) {
		im->scale *= a;
		return 0;
	}
	if (im->maps && im->state == S_ACT)
		return onnx_node_err(im->g, k, e,
		                     "multiplies maps that follow no convolution (condnet reads a "
		                     "Mul only as the scale of an Erf after a layer)");
	if (im->state == S_START)
		im->maps = 0;
	if ((im->state == S_START || im->state == S_ACT) && onnx_push_identity(im, k, e))
		return -1;
	im->state = S_SCALED;
	im->scale = a;
	return 0;
}

static int do_act(Imp *im, int k, ActKind kind, Err *e)
{
	OnnxNodeStr ns;
	if (im->state == S_SCALED && kind != ACT_ERF)
		return onnx_node_err(im->g, k, e,
		                     "follows a Mul by a constant, which condnet reads "
		                     "only as the scale of an Erf");
	double a = im->state == S_SCALED ? im->scale : 1;
	if (im->maps && im->state == S_ACT)
		return onnx_node_err(im->g, k, e,
		                     "an activation of maps that follows no convolution (condnet "
		                     "puts one after each)");
	if (im->state == S_START)
		im->maps = 0; /* an activation of the input: its values as features */
	if ((im->state == S_START || im->state == S_ACT) && onnx_push_identity(im, k, e))
		return -1;
	if (im->act < 0) {
		im->act = (int)kind;
		im->act_a = a;
		im->act_node = k;
	} else if (im->act != (int)kind) {
		return onnx_node_err(im->g, k, e,
		                     "another activation than %s: condnet's hidden "
		                     "layers share one",
		                     node_s(im, im->act_node, &ns));
	} else if (kind == ACT_ERF && (float)a != (float)im->act_a) {
		return onnx_node_err(im->g, k, e,
		                     "erf scale %g, but %s used %g: condnet's hidden "
		                     "layers share one activation",
		                     a, node_s(im, im->act_node, &ns), im->act_a);
	}
	im->state = S_ACT;
	return 0;
}

static int do_softmax(Imp *im, int k, Err *e)
{
	long long axis;
	if (im->state == S_SCALED)
		return onnx_node_err(im->g, k, e,
		                     "follows a Mul by a constant with no Erf between");
	if (onnx_attr_int(im->g, k, "axis", im->gr.opset < 13 ? 1 : -1, &axis, e))
		return -1;
	if (axis < 0)
		axis += im->rank;
	/* before opset 13, Softmax(axis 1) runs over all dimensions after the first */
	if (axis != 1 || (im->rank != 2 && im->gr.opset >= 13))
		return onnx_node_err(im->g, k, e,
		                     "softmax over axis %lld of a %d-dimensional "
		                     "tensor; condnet's runs over the features (axis 1 "
		                     "of (batch, features))",
		                     axis, im->rank);
	if ((im->state == S_START || im->state == S_ACT) && onnx_push_identity(im, k, e))
		return -1;
	im->state = S_SOFTMAX;
	im->softmax = 1;
	return 0;
}

static int do_flatten(Imp *im, int k, Err *e)
{
	long long axis;
	if (onnx_attr_int(im->g, k, "axis", 1, &axis, e))
		return -1;
	if (axis < 0)
		axis += im->rank;
	if (im->state != S_START)
		return onnx_node_err(im->g, k, e,
		                     "condnet reads a Flatten only of the input, "
		                     "before every layer");
	if (axis != 1)
		return onnx_node_err(im->g, k, e,
		                     "flattens from axis %lld; condnet reads axis 1 "
		                     "(batch, features)",
		                     axis);
	im->rank = 2;
	im->maps = 0;
	return 0;
}

/* Node k reads the chain's current tensor at input slot. */
int onnx_do_node(Imp *im, int k, int slot, Err *e)
{
	const char *op = im->g->node[k]->op_type;
	static const char *const acts[ACT_COUNT] = {"Erf", "Tanh", "Relu", "Sigmoid"};
	if (im->state == S_SOFTMAX)
		return onnx_node_err(im->g, k, e, "follows the final Softmax");
	for (int a = 0; a < ACT_COUNT; a++)
		if (!strcmp(op, acts[a]))
			return do_act(im, k, (ActKind)a, e);
	if (!strcmp(op, "Gemm"))
		return do_gemm(im, k, slot, e);
	if (!strcmp(op, "MatMul"))
		return do_matmul(im, k, slot, e);
	if (!strcmp(op, "Add"))
		return do_add(im, k, slot, e);
	if (!strcmp(op, "Mul"))
		return do_mul(im, k, slot, e);
	if (!strcmp(op, "Softmax"))
		return do_softmax(im, k, e);
	if (!strcmp(op, "Flatten"))
		return do_flatten(im, k, e);
	if (!strcmp(op, "Identity"))
		return 0;
	return onnx_node_err(im->g, k, e,
	                     "transposes the data; condnet reads a Transpose only of "
	                     "a constant weight");
}

/* Follows the chain from the data input to the graph's output. */
