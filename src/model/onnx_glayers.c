/* onnx_glayers.c - the layers of an ONNX graph read into a graph network:
 * Conv (any stride, dilation, padding and group), Gemm and MatMul, a
 * BatchNormalization folded into the Conv or Gemm before it (else a
 * per-channel Affine), and Add or Mul of a constant (a layer's bias, a
 * scale, or an Affine). Parameters are kept in double until the network is
 * made, so that a folding rounds once. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/layers.h"
#include "engine/limits.h"
#include "model/onnx_gimp.h"

static const char *dims_str(const OnnxTensor *t, char *buf, size_t cap)
{
	size_t at = (size_t)snprintf(buf, cap, "(");
	for (int i = 0; i < t->nd && at < cap; i++)
		at += (size_t)snprintf(buf + at, cap - at, i ? ", %lld" : "%lld", t->dims[i]);
	if (at < cap)
		snprintf(buf + at, cap - at, t->nd == 1 ? ",)" : ")");
	return buf;
}

/* Input j of node k as a constant's values (what names it). */
static int constant(GImp *im, int k, int j, const char *what, OnnxTensor *t, Err *e)
{
	const char *name = im->g->node[k]->input[j];
	memset(t, 0, sizeof *t);
	if (!onnx_graph_is_const(&im->gr, name)) {
		const OnnxDef *d = name[0] ? onnx_graph_def(&im->gr, name) : NULL;
		if (!d)
			return onnx_node_err(im->g, k, e, "%s (input %d) is left out", what, j + 1);
		return onnx_node_err(im->g, k, e,
		                     "%s '%s' is %s, not a constant (condnet reads one input, the "
		                     "data, and constant weights)",
		                     what, onnx_name(name).s,
		                     d->kind == DEF_INPUT ? "a graph input" : "computed by a node");
	}
	return onnx_graph_const(&im->gr, name, k, t, e);
}

/* The values of a constant t that broadcasts over the channels of graph
 * node x (c of them) as one value a channel into v: one value, (c,),
 * (1, c) of features, (c, 1, 1) or (1, c, 1, 1) of maps. -1 when it does
 * not. */
static int per_channel(const OnnxTensor *t, const GraphNode *x, double *v)
{
	long long c = x->c;
	int ok = t->count == 1;
	if (x->rank == 2)
		ok |= (t->nd == 1 && t->dims[0] == c) ||
		      (t->nd == 2 && t->dims[0] == 1 && t->dims[1] == c);
	else
		ok |= (t->nd == 3 && t->dims[0] == c && t->dims[1] == 1 && t->dims[2] == 1) ||
		      (t->nd == 4 && t->dims[0] == 1 && t->dims[1] == c && t->dims[2] == 1 &&
		       t->dims[3] == 1);
	if (!ok)
		return -1;
	for (long long j = 0; j < c; j++)
		v[j] = t->v[t->count == 1 ? 0 : j];
	return 0;
}

/* The Conv's weights (C_out, C_in/g, kh, kw) checked against its input's
 * c_in channels in g groups. */
static int conv_weights(GImp *im, int k, const OnnxTensor *W, int c_in, long long g, Err *e)
{
	char ds[128];
	if (g < 1 || g > c_in || c_in % g)
		return onnx_node_err(im->g, k, e,
		                     "group %lld: the %d input channels must be a multiple of it",
		                     g, c_in);
	long long cig = c_in / g;
	if (W->nd != 4 || W->dims[1] != cig || W->dims[0] < g || W->dims[0] % g ||
	    W->dims[0] > LIMIT_MAX_WIDTH || W->dims[2] < 1 || W->dims[3] < 1)
		return onnx_node_err(im->g, k, e,
		                     "weights of shape %s for %d input channels in %lld group%s: "
		                     "expected (out channels, %lld, kh, kw), out channels a "
		                     "multiple of %lld",
		                     dims_str(W, ds, sizeof ds), c_in, g, g > 1 ? "s" : "", cig, g);
	if (W->dims[2] > LAYERS_MAX_KERNEL || W->dims[3] > LAYERS_MAX_KERNEL)
		return onnx_node_err(im->g, k, e,
		                     "kernels of %lld×%lld, larger than condnet's %d×%d",
		                     W->dims[2], W->dims[3], LAYERS_MAX_KERNEL, LAYERS_MAX_KERNEL);
	return 0;
}

int gimp_conv(GImp *im, int k, Err *e)
{
	const Onnx__NodeProto *n = im->g->node[k];
	char ds[128];
	int x = gimp_value(im, k, 0, "its data", e), has_b = n->n_input == 3 && n->input[2][0];
	long long group;
	if (x < 0 || onnx_attr_int(im->g, k, "group", 1, &group, e))
		return -1;
	const GraphNode *a = &im->graph->node[x];
	if (a->rank != 4)
		return onnx_node_err(im->g, k, e,
		                     "its input is %d features, not maps (batch, channels, height, "
		                     "width)",
		                     a->c);
	OnnxTensor W, B = {0};
	if (constant(im, k, 1, "kernel", &W, e))
		return -1;
	int rc = -1;
	double *par = NULL;
	GraphNode p = {.op = GRAPH_CONV};
	if (conv_weights(im, k, &W, a->c, group, e) ||
	    onnx_window(im, k, W.dims + 2, x, &p.win, e) ||
	    (has_b && constant(im, k, 2, "bias", &B, e)))
		goto out;
	int co = (int)W.dims[0];
	if (has_b && (B.nd != 1 || B.dims[0] != co)) {
		onnx_node_err(im->g, k, e,
		              "a bias of shape %s, expected (%d,): one value an output "
		              "channel",
		              dims_str(&B, ds, sizeof ds), co);
		goto out;
	}
	size_t rows = W.count / (size_t)co;
	if (!(par = calloc((rows + 1) * (size_t)co, sizeof *par))) {
		onnx_node_err(im->g, k, e, "out of memory");
		goto out;
	}
	/* (out, in, y, x) to the row (in·kh + y)·kw + x and the column out */
	for (int o = 0; o < co; o++)
		for (size_t r = 0; r < rows; r++)
			par[r * co + o] = W.v[(size_t)o * rows + r];
	for (int o = 0; has_b && o < co; o++)
		par[rows * co + o] = B.v[o];
	p.c = co;
	p.group = (int)group;
	rc = gimp_push(im, k, &p, &x, 1, par, e) < 0 ? -1 : 0;
	par = NULL;
out:
	free(par);
	free(W.v);
	free(B.v);
	return rc;
}

/* Gemm(A, B, C) = alpha·A·op(B) + beta·C, or MatMul(A, B) = A·B: A the
 * data, B constant weights, C a constant bias. */
int gimp_gemm(GImp *im, int k, Err *e)
{
	const Onnx__NodeProto *n = im->g->node[k];
	int gemm = !strcmp(n->op_type, "Gemm"), has_c = gemm && n->n_input == 3 && n->input[2][0];
	long long ta = 0, tb = 0;
	double alpha = 1, beta = 1;
	char ds[128];
	if (gemm && (onnx_attr_int(im->g, k, "transA", 0, &ta, e) ||
	             onnx_attr_int(im->g, k, "transB", 0, &tb, e) ||
	             onnx_attr_float(im->g, k, "alpha", 1, &alpha, e) ||
	             onnx_attr_float(im->g, k, "beta", 1, &beta, e)))
		return -1;
	if (ta)
		return onnx_node_err(im->g, k, e, "transA = %lld transposes the data", ta);
	if (onnx_graph_is_const(&im->gr, n->input[0]) && !onnx_graph_is_const(&im->gr, n->input[1]))
		return onnx_node_err(im->g, k, e,
		                     "the data is the second operand; condnet reads data × "
		                     "weights");
	int x = gimp_value(im, k, 0, "its data", e);
	OnnxTensor B, C = {0};
	if (x < 0 || constant(im, k, 1, "weight matrix", &B, e))
		return -1;
	const GraphNode *a = &im->graph->node[x];
	double *par = NULL;
	int rc = -1;
	if (B.nd != 2 || B.dims[0] < 1 || B.dims[1] < 1 || B.dims[0] > LIMIT_MAX_WIDTH ||
	    B.dims[1] > LIMIT_MAX_WIDTH) {
		onnx_node_err(im->g, k, e, "weights of shape %s, expected a matrix",
		              dims_str(&B, ds, sizeof ds));
		goto out;
	}
	int r = (int)B.dims[0], c = (int)B.dims[1], in = tb ? c : r, out = tb ? r : c;
	if (a->rank == 4) {
		onnx_node_err(im->g, k, e,
		              "its input is maps of %d×%d×%d; a Flatten comes between maps and a "
		              "dense layer",
		              a->c, a->h, a->w);
		goto out;
	}
	if (in != a->c) {
		onnx_node_err(im->g, k, e,
		              "weights of %d inputs × %d outputs, but its input has %d "
		              "features",
		              in, out, a->c);
		goto out;
	}
	if (!(par = calloc(((size_t)in + 1) * (size_t)out, sizeof *par)) ||
	    (has_c && constant(im, k, 2, "bias", &C, e)))
		goto out;
	for (int i = 0; i < in; i++)
		for (int j = 0; j < out; j++)
			par[(size_t)i * out + j] =
			    alpha * B.v[tb ? (size_t)j * c + i : (size_t)i * c + j];
	GraphNode p = {.op = GRAPH_GEMM, .c = out, .rank = 2};
	if (has_c) {
		GraphNode o = {.rank = 2, .c = out, .h = 1, .w = 1};
		if (per_channel(&C, &o, par + (size_t)in * out)) {
			onnx_node_err(im->g, k, e,
			              "bias of shape %s does not broadcast over rows of %d "
			              "outputs",
			              dims_str(&C, ds, sizeof ds), out);
			goto out;
		}
		for (int j = 0; j < out; j++)
			par[(size_t)in * out + j] *= beta;
	}
	rc = gimp_push(im, k, &p, &x, 1, par, e) < 0 ? -1 : 0;
	par = NULL;
out:
	free(par);
	free(B.v);
	free(C.v);
	return rc;
}

/* The Conv or Gemm graph node whose output node k's input j is, read by
 * node k alone, or -1: a BatchNormalization or a bias is folded into it. */
static int foldable(GImp *im, int k, int j)
{
	const char *name = im->g->node[k]->input[j];
	const OnnxDef *d = onnx_graph_def(&im->gr, name);
	if (!d || d->kind != DEF_NODE || d->nuse != 1)
		return -1;
	int v = im->val[d->idx];
	if (v < 1 || im->from[v] != d->idx)
		return -1;
	GraphOp op = im->graph->node[v].op;
	return op == GRAPH_CONV || op == GRAPH_GEMM ? v : -1;
}

/* y = s·x + t per channel of node k's data x (its input slot): folded
 * into the Conv or Gemm before it when that one is read here alone, else
 * an Affine (s and t taken). */
static int affine(GImp *im, int k, int slot, int x, double *s, double *t, Err *e)
{
	int v = foldable(im, k, slot), c = im->graph->node[x].c;
	if (v > 0) {
		int rows = graph_rows(im->graph, v);
		double *p = im->par[v];
		for (int r = 0; r <= rows; r++)
			for (int o = 0; o < c; o++)
				p[(size_t)r * c + o] *= s[o];
		for (int o = 0; o < c; o++)
			p[(size_t)rows * c + o] += t[o];
		gimp_alias(im, k, v);
		free(s);
		free(t);
		return 0;
	}
	double *par = malloc(2 * (size_t)c * sizeof *par);
	if (!par) {
		free(s);
		free(t);
		return onnx_node_err(im->g, k, e, "out of memory");
	}
	memcpy(par, s, (size_t)c * sizeof *par);
	memcpy(par + c, t, (size_t)c * sizeof *par);
	free(s);
	free(t);
	GraphNode p = {.op = GRAPH_AFFINE};
	return gimp_push(im, k, &p, &x, 1, par, e) < 0 ? -1 : 0;
}

int gimp_batchnorm(GImp *im, int k, Err *e)
{
	static const char *const what[4] = {"scale", "bias", "mean", "variance"};
	long long train = 0, spatial = 1;
	double eps;
	int x = gimp_value(im, k, 0, "its data", e);
	if (x < 0 || onnx_attr_float(im->g, k, "epsilon", 1e-5, &eps, e) ||
	    onnx_attr_int(im->g, k, "training_mode", 0, &train, e) ||
	    onnx_attr_int(im->g, k, "spatial", 1, &spatial, e))
		return -1;
	if (train)
		return onnx_node_err(im->g, k, e,
		                     "training_mode %lld: batch statistics (export the model in "
		                     "evaluation mode)",
		                     train);
	if (spatial != 1)
		return onnx_node_err(im->g, k, e,
		                     "spatial %lld: condnet reads one mean and variance "
		                     "a channel",
		                     spatial);
	int c = im->graph->node[x].c;
	OnnxTensor t[4] = {{0}};
	double *s = malloc((size_t)c * sizeof *s), *b = malloc((size_t)c * sizeof *b);
	int rc = s && b ? 0 : onnx_node_err(im->g, k, e, "out of memory");
	for (int i = 0; rc == 0 && i < 4; i++) {
		char ds[128];
		if (constant(im, k, i + 1, what[i], &t[i], e))
			rc = -1;
		else if (t[i].nd != 1 || t[i].dims[0] != c)
			rc = onnx_node_err(im->g, k, e,
			                   "%s of shape %s, expected (%d,): one value a "
			                   "channel",
			                   what[i], dims_str(&t[i], ds, sizeof ds), c);
	}
	for (int j = 0; rc == 0 && j < c; j++) {
		double v = t[3].v[j] + eps;
		if (!(v > 0))
			rc = onnx_node_err(
			    im->g, k, e, "channel %d: variance %g plus epsilon %g is not positive",
			    j, t[3].v[j], eps);
		else {
			s[j] = t[0].v[j] / sqrt(v);
			b[j] = t[1].v[j] - t[2].v[j] * s[j];
		}
	}
	for (int i = 0; i < 4; i++)
		free(t[i].v);
	if (rc) {
		free(s);
		free(b);
		return -1;
	}
	return affine(im, k, 0, x, s, b, e);
}

/* Add or Mul of a constant c to the data: a bias or a scale folded into the
 * layer before, a Mul by one number, or an Affine of one value a channel. */
static int with_constant(GImp *im, int k, int slot, Err *e)
{
	const char *op = im->g->node[k]->op_type;
	int add = !strcmp(op, "Add"), x = gimp_value(im, k, slot, "its data", e);
	OnnxTensor t;
	if (x < 0 || constant(im, k, 1 - slot, add ? "the constant added" : "the factor", &t, e))
		return -1;
	const GraphNode *a = &im->graph->node[x];
	size_t c = (size_t)a->c;
	double *s = malloc(c * sizeof *s), *b = malloc(c * sizeof *b);
	char ds[128];
	int rc = 0;
	if (!s || !b)
		rc = onnx_node_err(im->g, k, e, "out of memory");
	else if (per_channel(&t, a, add ? b : s))
		rc = onnx_node_err(im->g, k, e,
		                   "%s a constant of shape %s, which is neither one value nor one "
		                   "a channel of its %d×%d×%d input",
		                   add ? "adds" : "multiplies by", dims_str(&t, ds, sizeof ds),
		                   a->c, a->h, a->w);
	int scalar = t.count == 1;
	double v = t.count ? t.v[0] : 0;
	free(t.v);
	if (rc == 0 && !add && scalar && foldable(im, k, slot) < 0) {
		free(s);
		free(b);
		GraphNode p = {.op = GRAPH_SCALE, .a = (float)v};
		if (fabs(v) > FLT_MAX)
			return onnx_node_err(im->g, k, e, "a factor of %g, beyond float32", v);
		return gimp_push(im, k, &p, &x, 1, NULL, e) < 0 ? -1 : 0;
	}
	for (size_t j = 0; rc == 0 && j < c; j++) {
		if (add)
			s[j] = 1;
		else
			b[j] = 0;
	}
	if (rc) {
		free(s);
		free(b);
		return -1;
	}
	return affine(im, k, slot, x, s, b, e);
}

int gimp_const_op(GImp *im, int k, Err *e)
{
	const Onnx__NodeProto *n = im->g->node[k];
	int c0 = onnx_graph_is_const(&im->gr, n->input[0]);
	int c1 = onnx_graph_is_const(&im->gr, n->input[1]);
	if (c0 != c1)
		return with_constant(im, k, c0 ? 1 : 0, e);
	if (c0)
		return onnx_node_err(im->g, k, e, "both operands are constants");
	if (strcmp(n->op_type, "Add"))
		return onnx_node_err(
		    im->g, k, e,
		    "multiplies two tensors the graph computes; condnet reads a Mul "
		    "by a constant");
	int in[2] = {gimp_value(im, k, 0, "its first operand", e), -1};
	if (in[0] < 0 || (in[1] = gimp_value(im, k, 1, "its second operand", e)) < 0)
		return -1;
	GraphNode p = {.op = GRAPH_ADD};
	return gimp_push(im, k, &p, in, 2, NULL, e) < 0 ? -1 : 0;
}
