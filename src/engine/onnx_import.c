/* onnx_import.c - an ONNX model into a Net: the graph's one chain from its
 * input to its output, read node by node into dense layers, one activation
 * and an optional final Softmax (the grammar is in onnx_io.h). */
#include "engine/onnx_io.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/onnx_int.h"
#include "engine/train.h"

#define MAX_LAYERS 1000
#define MAX_PARAMS (1LL << 28)
/* identity layers put in for an activation-only graph: at most this many weights in all */
#define MAX_IDENTITY_PARAMS (1LL << 25)

/* Where the chain is: nothing read yet, after a dense layer (its bias may
 * follow), after a Mul (an Erf must follow), after an activation, after the
 * final Softmax. */
enum { S_START, S_DENSE, S_SCALED, S_ACT, S_SOFTMAX };

typedef struct Layer {
	int in, out;
	double *W, *b; /* in×out row-major, out; W NULL: the identity */
	int biased;    /* a bias was read (an Add then adds to it) */
} Layer;

typedef struct Imp {
	OnnxGraph gr;
	const Onnx__GraphProto *g;
	Layer layers[MAX_LAYERS];
	int nlayers;
	int state, last;   /* last: the node read most recently */
	long long width;   /* features of the current tensor, -1 when unknown */
	int rank;	   /* its dimensions */
	int act, act_node; /* the hidden activation (-1 until one is read) and its node */
	double act_a, scale;
	long long params, id_params;
	int softmax, identity;
	unsigned char *visited; /* per node */
} Imp;

static const char *node_s(const Imp *im, int k, OnnxNodeStr *buf)
{
	*buf = onnx_node_str(im->g, k);
	return buf->s;
}

static int push_layer(Imp *im, int k, int in, int out, double *W, double *b, Err *e)
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
	im->layers[im->nlayers++] = (Layer){in, out, W, b, 0};
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
static int push_identity(Imp *im, int k, Err *e)
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
	return push_layer(im, k, (int)im->width, (int)im->width, NULL, b, e);
}

/* Input j of node k must be a constant (what names it in the message). */
static int need_const(Imp *im, int k, int j, const char *what, Err *e)
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
	if (need_const(im, k, 1, "weight matrix", e) || (has_c && need_const(im, k, 2, "bias", e)))
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
	rc = push_layer(im, k, in, out, W, b, e);
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
	if (need_const(im, k, 1, "weight matrix", e))
		return -1;
	OnnxTensor B;
	if (onnx_graph_const(&im->gr, im->g->node[k]->input[1], k, &B, e))
		return -1;
	double *W = NULL, *b = NULL;
	int in, out, rc = -1;
	if (!dense(im, k, &B, 0, 1, &W, &in, &out, e)) {
		if ((b = calloc((size_t)out, sizeof *b)))
			rc = push_layer(im, k, in, out, W, b, e);
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
	if (need_const(im, k, 1 - slot, "operand", e))
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
	if (need_const(im, k, 1 - slot, "factor", e) ||
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
	if ((im->state == S_START || im->state == S_ACT) && push_identity(im, k, e))
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
	if ((im->state == S_START || im->state == S_ACT) && push_identity(im, k, e))
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
	if ((im->state == S_START || im->state == S_ACT) && push_identity(im, k, e))
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
	return 0;
}

/* Node k reads the chain's current tensor at input slot. */
static int do_node(Imp *im, int k, int slot, Err *e)
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
static int walk(Imp *im, const char *input, const char *output, Err *e)
{
	OnnxNodeStr a;
	for (const char *cur = input;;) {
		const OnnxDef *d = onnx_graph_def(&im->gr, cur);
		if (d->nuse > 1 && d->user[0] == d->user[1])
			return onnx_node_err(im->g, d->user[0], e, "reads '%s' twice",
					     onnx_name(cur).s);
		if (d->nuse > 1)
			return onnx_node_err(im->g, d->user[1], e,
					     "reads '%s', which %s reads too: a "
					     "branch or skip connection",
					     onnx_name(cur).s, node_s(im, d->user[0], &a));
		if (!strcmp(cur, output)) {
			if (d->nuse)
				return err_set(e, "the output '%s' also feeds %s", onnx_name(cur).s,
					       node_s(im, d->user[0], &a));
			return 0;
		}
		if (d->nuse == 0)
			return err_set(
			    e,
			    "tensor '%s' is read by no node and is not the graph's output "
			    "'%s'",
			    onnx_name(cur).s, onnx_name(output).s);
		int k = d->user[0];
		const Onnx__NodeProto *n = im->g->node[k];
		int slot = 0;
		while (strcmp(n->input[slot], cur))
			slot++;
		if (do_node(im, k, slot, e))
			return -1;
		im->visited[k] = 1;
		im->last = k;
		cur = n->output[0];
	}
}

/* The graph's one input that is not an initializer. */
static int data_input(Imp *im, const Onnx__GraphProto *g, Err *e)
{
	int found = -1;
	for (size_t i = 0; i < g->n_input; i++) {
		const OnnxDef *d = onnx_graph_def(&im->gr, g->input[i]->name);
		if (d->kind != DEF_INPUT)
			continue;
		if (found < 0)
			found = (int)i;
		else if (d->nuse == 0)
			return err_set(e,
				       "graph input '%s' is read by no node (condnet's networks "
				       "have one input)",
				       onnx_name(g->input[i]->name).s);
	}
	if (found < 0)
		return err_set(e, "the graph has no input besides its initializers");
	return found;
}

/* A message about the whole graph names a node too: the one reading the
 * data input, else the one computing the output. */
static void name_node(const Imp *im, Err *e)
{
	if (strstr(e->msg, "node ") || !im->g->n_node)
		return;
	const Onnx__GraphProto *g = im->g;
	int k = -1;
	for (size_t i = 0; i < g->n_input && k < 0; i++) {
		const OnnxDef *d = onnx_graph_def(&im->gr, g->input[i]->name);
		if (d->kind == DEF_INPUT && d->nuse)
			k = d->user[0];
	}
	const OnnxDef *o = g->n_output == 1 && g->output[0]->name
			       ? onnx_graph_def(&im->gr, g->output[0]->name)
			       : NULL;
	if (k < 0)
		k = o && o->kind == DEF_NODE ? o->idx : 0;
	OnnxNodeStr ns;
	err_prefix(e, "%s", node_s(im, k, &ns));
}

/* The chain of g into im->layers, checked against the declared shapes. */
static int read_graph(Imp *im, const Onnx__GraphProto *g, Err *e)
{
	OnnxNodeStr ns;
	if (g->n_output != 1)
		return err_set(e, "the graph has %zu outputs, expected one", g->n_output);
	const char *out = g->output[0]->name;
	if (!out || !out[0])
		return err_set(e, "the graph's output has no name");
	if (!onnx_graph_def(&im->gr, out))
		return err_set(e, "the graph's output '%s' is produced by no node",
			       onnx_name(out).s);
	int in = data_input(im, g, e), out_rank;
	long long out_width;
	if (in < 0 || onnx_value_shape(g->input[in], "input", &im->rank, &im->width, e) ||
	    onnx_value_shape(g->output[0], "output", &out_rank, &out_width, e))
		return -1;
	im->act = -1;
	if (walk(im, g->input[in]->name, out, e))
		return -1;
	for (size_t k = 0; k < g->n_node; k++)
		if (!im->visited[k] && !im->gr.isconst[k])
			return err_set(e,
				       "%s is not on the path from the input '%s' to the output "
				       "'%s'",
				       node_s(im, (int)k, &ns), onnx_name(g->input[in]->name).s,
				       onnx_name(out).s);
	if (im->state == S_START)
		return err_set(e, "the graph computes no dense layer and no activation");
	if (im->state == S_SCALED)
		return onnx_node_err(g, im->last, e, "a Mul by a constant with no Erf after it");
	if (im->state == S_ACT && push_identity(im, im->last, e))
		return -1;
	if (out_rank != im->rank || (out_width >= 0 && out_width != im->width)) {
		/* named by the node that computes the output (the chain reached it) */
		int k = onnx_graph_def(&im->gr, out)->idx;
		if (out_rank != im->rank)
			return onnx_node_err(g, k, e,
					     "output '%s' is declared with %d dimensions, "
					     "the graph computes %d",
					     onnx_name(out).s, out_rank, im->rank);
		return onnx_node_err(g, k, e,
				     "output '%s' is declared with %lld features, the "
				     "graph computes %lld",
				     onnx_name(out).s, out_width, im->width);
	}
	return 0;
}

/* The layers as a Net; every parameter must be a finite float32. */
static Net *make_net(const Imp *im, Err *e)
{
	int m = im->nlayers, widths[MAX_LAYERS + 1];
	widths[0] = im->layers[0].in;
	for (int k = 0; k < m; k++)
		widths[k + 1] = im->layers[k].out;
	ActKind act = im->act >= 0 ? (ActKind)im->act : ACT_ERF;
	float a = im->act == ACT_ERF ? (float)im->act_a : 1.0f;
	if (!isfinite(a)) {
		err_set(e, "erf scale %g is beyond float32", im->act_a);
		return NULL;
	}
	Net *net = net_new(m, widths, act, a, e);
	if (!net)
		return NULL;
	for (int k = 0; k < m; k++) {
		const Layer *L = &im->layers[k];
		size_t nw = (size_t)L->in * L->out;
		for (size_t i = 0; i < nw; i++) {
			double v = L->W ? L->W[i] : (i / L->out == i % L->out);
			if (fabs(v) > FLT_MAX) {
				err_set(e, "layer %d: weight (%zu, %zu) is %g, beyond float32",
					k + 1, i / L->out, i % L->out, v);
				net_free(net);
				return NULL;
			}
			net->W[k][i] = (float)v;
		}
		for (int j = 0; j < L->out; j++) {
			if (fabs(L->b[j]) > FLT_MAX) {
				err_set(e, "layer %d: bias %d is %g, beyond float32", k + 1, j,
					L->b[j]);
				net_free(net);
				return NULL;
			}
			net->b[k][j] = (float)L->b[j];
		}
	}
	return net;
}

static void fill_info(OnnxInfo *info, const Onnx__ModelProto *m, const Imp *im, long opset)
{
	const Onnx__GraphProto *g = m->graph;
	memset(info, 0, sizeof *info);
	info->softmax = im->softmax;
	info->identity = im->identity;
	info->opset = opset;
	info->ir_version = m->has_ir_version ? (long)m->ir_version : 0;
	for (size_t i = 0; i < g->n_input; i++)
		if (onnx_graph_def(&im->gr, g->input[i]->name)->kind == DEF_INPUT) {
			snprintf(info->input, sizeof info->input, "%s", g->input[i]->name);
			break;
		}
	snprintf(info->output, sizeof info->output, "%s", g->output[0]->name);
	snprintf(info->producer, sizeof info->producer, "%s%s%s",
		 m->producer_name ? m->producer_name : "", m->producer_version ? " " : "",
		 m->producer_version ? m->producer_version : "");
}

Net *onnx_import_mem(const void *buf, size_t len, const char *name, OnnxInfo *info, Err *e)
{
	Onnx__ModelProto *m =
	    (Onnx__ModelProto *)onnx_unpack(&onnx__model_proto__descriptor, buf, len, e);
	Imp *im = NULL;
	Net *net = NULL;
	long opset;
	if (!m)
		goto out;
	if (!m->graph) {
		err_set(e, "the model has no graph");
		goto out;
	}
	if (!(im = calloc(1, sizeof *im)) || !(im->visited = calloc(m->graph->n_node + 1, 1))) {
		err_set(e, "out of memory");
		goto out;
	}
	im->g = m->graph;
	if (onnx_graph_init(&im->gr, m->graph, 0, e))
		goto out;
	if ((opset = onnx_default_opset(m, e)) < 0 ||
	    (im->gr.opset = opset, read_graph(im, m->graph, e))) {
		name_node(im, e);
		goto out;
	}
	if ((net = make_net(im, e)) && info)
		fill_info(info, m, im, opset);
out:
	if (im) {
		for (int k = 0; k < im->nlayers; k++) {
			free(im->layers[k].W);
			free(im->layers[k].b);
		}
		onnx_graph_free(&im->gr);
		free(im->visited);
		free(im);
	}
	if (m)
		protobuf_c_message_free_unpacked(&m->base, NULL);
	if (!net)
		err_prefix(e, "%s", name);
	return net;
}

Net *onnx_import(const char *path, OnnxInfo *info, Err *e)
{
	uint8_t *buf;
	size_t len;
	if (onnx_read_file(path, &buf, &len, e))
		return NULL;
	Net *net = onnx_import_mem(buf, len, path, info, e);
	free(buf);
	return net;
}
