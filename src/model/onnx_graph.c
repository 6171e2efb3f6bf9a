/* onnx_graph.c - an ONNX graph's nodes and names, checked before the
 * importer follows its chain: only the operators of a dense network, one
 * definition per tensor name, every input defined before the node reading it
 * (so no cycle and nothing dangling), and constants folded through Identity
 * and Transpose. */
#include "model/onnx_int.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The operators condnet reads, with how many inputs each takes and how
 * many outputs it may have (the first is the one condnet computes): a
 * chain's (onnx_import.c), and a graph's (onnx_gimport.c). */
typedef struct OpSpec {
	const char *op;
	int min_in, max_in, max_out;
} OpSpec;
static const OpSpec chain_ops[] = {
    {"Gemm", 2, 3, 1},     {"MatMul", 2, 2, 1},   {"Add", 2, 2, 1},     {"Mul", 2, 2, 1},
    {"Erf", 1, 1, 1},      {"Tanh", 1, 1, 1},     {"Relu", 1, 1, 1},    {"Sigmoid", 1, 1, 1},
    {"Softmax", 1, 1, 1},  {"Identity", 1, 1, 1}, {"Flatten", 1, 1, 1}, {"Transpose", 1, 1, 1},
    {"Constant", 0, 0, 1}, {"Conv", 2, 3, 1},     {"MaxPool", 1, 1, 1}, {"Reshape", 2, 2, 1},
};
static const OpSpec graph_ops[] = {
    {"Conv", 2, 3, 1},        {"BatchNormalization", 5, 5, 5},
    {"Add", 2, 2, 1},         {"Mul", 2, 2, 1},
    {"Concat", 1, 1024, 1},   {"MaxPool", 1, 1, 2},
    {"AveragePool", 1, 1, 1}, {"GlobalAveragePool", 1, 1, 1},
    {"Relu", 1, 1, 1},        {"Clip", 1, 3, 1},
    {"LeakyRelu", 1, 1, 1},   {"Sigmoid", 1, 1, 1},
    {"Tanh", 1, 1, 1},        {"Erf", 1, 1, 1},
    {"Flatten", 1, 1, 1},     {"Reshape", 1, 2, 1},
    {"Gemm", 2, 3, 1},        {"MatMul", 2, 2, 1},
    {"Softmax", 1, 1, 1},     {"Identity", 1, 1, 1},
    {"Dropout", 1, 3, 2},     {"Transpose", 1, 1, 1},
    {"Constant", 0, 0, 1},
};
#define CHAIN_LIST                                                                                 \
	"Gemm, MatMul, Add, Mul, Erf, Tanh, Relu, Sigmoid, Softmax, Flatten, Identity, "           \
	"Transpose, Constant, Conv, MaxPool and Reshape"
#define GRAPH_LIST                                                                                 \
	"Conv, BatchNormalization, Add, Mul, Concat, MaxPool, AveragePool, GlobalAveragePool, "    \
	"Relu, Clip, LeakyRelu, Sigmoid, Tanh, Erf, Flatten, Reshape, Gemm, MatMul, Softmax, "     \
	"Identity, Dropout, Transpose and Constant"

/* Identity or Transpose nodes a constant may pass through. */
#define MAX_CONST_DEPTH 32

OnnxNodeStr onnx_node_str(const Onnx__GraphProto *g, int k)
{
	OnnxNodeStr r;
	const Onnx__NodeProto *n = g->node[k];
	if (n->name && n->name[0])
		snprintf(r.s, sizeof r.s, "node %d '%s' (%s)", k, onnx_name(n->name).s,
		         onnx_name(n->op_type).s);
	else
		snprintf(r.s, sizeof r.s, "node %d (%s)", k, onnx_name(n->op_type).s);
	return r;
}

int onnx_node_err(const Onnx__GraphProto *g, int k, Err *e, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return err_set(e, "%s: %s", onnx_node_str(g, k).s, msg);
}

/* The operator is one condnet reads, from ONNX's default domain, with a
 * fitting number of inputs and one output. */
static int check_op(const Onnx__GraphProto *g, int k, int graph, Err *e)
{
	const Onnx__NodeProto *n = g->node[k];
	const char *op = n->op_type ? n->op_type : "";
	if (n->domain && n->domain[0] && strcmp(n->domain, "ai.onnx"))
		return onnx_node_err(g, k, e, "operator of domain '%s', not ONNX's default domain",
		                     onnx_name(n->domain).s);
	const OpSpec *ops = graph ? graph_ops : chain_ops;
	int i = 0, nops = graph ? (int)(sizeof graph_ops / sizeof *graph_ops)
	                        : (int)(sizeof chain_ops / sizeof *chain_ops);
	while (i < nops && strcmp(ops[i].op, op))
		i++;
	if (i == nops) {
		if (!strcmp(op, "Dropout"))
			return onnx_node_err(g, k, e,
			                     "dropout left in the graph (export the model "
			                     "in evaluation mode)");
		return onnx_node_err(g, k, e, "not an operator condnet reads (%s)",
		                     graph ? GRAPH_LIST : CHAIN_LIST);
	}
	if ((int)n->n_input < ops[i].min_in || (int)n->n_input > ops[i].max_in) {
		char want[64];
		snprintf(want, sizeof want, ops[i].min_in == ops[i].max_in ? "%d" : "%d to %d",
		         ops[i].min_in, ops[i].max_in);
		return err_set(e, "%s: %zu inputs, expected %s", onnx_node_str(g, k).s, n->n_input,
		               want);
	}
	if (n->n_output < 1 || (int)n->n_output > ops[i].max_out || !n->output[0][0]) {
		if (ops[i].max_out == 1)
			return err_set(e, "%s: %zu outputs, expected one", onnx_node_str(g, k).s,
			               n->n_output);
		return err_set(e, "%s: %zu outputs, expected 1 to %d (the first named)",
		               onnx_node_str(g, k).s, n->n_output, ops[i].max_out);
	}
	return 0;
}

static size_t hash(const char *s)
{
	size_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* The slot of name: its definition, or the empty slot where it would go. */
static OnnxDef *slot(const OnnxGraph *gr, const char *name)
{
	size_t i = hash(name) & (gr->cap - 1);
	while (gr->defs[i].name && strcmp(gr->defs[i].name, name))
		i = (i + 1) & (gr->cap - 1);
	return &gr->defs[i];
}

OnnxDef *onnx_graph_def(const OnnxGraph *gr, const char *name)
{
	OnnxDef *d = slot(gr, name);
	return d->name ? d : NULL;
}

/* What defines d, for messages. */
static const char *def_str(const OnnxGraph *gr, const OnnxDef *d, char *buf, size_t cap)
{
	if (d->kind == DEF_NODE)
		snprintf(buf, cap, "%s", onnx_node_str(gr->g, d->idx).s);
	else
		snprintf(buf, cap, d->kind == DEF_INIT ? "initializer %d" : "graph input %d",
		         d->idx);
	return buf;
}

static int define(OnnxGraph *gr, const char *name, int kind, int idx, Err *e)
{
	char a[256], b[256];
	OnnxDef *d = slot(gr, name);
	if (d->name && !(d->kind == DEF_INPUT && kind == DEF_INIT)) {
		OnnxDef now = {name, kind, idx, 0, {0, 0}, 0};
		return err_set(e, "tensor '%s' is defined twice: by %s and by %s",
		               onnx_name(name).s, def_str(gr, d, a, sizeof a),
		               def_str(gr, &now, b, sizeof b));
	}
	/* an initializer listed among the graph inputs (IR version < 4) is a constant */
	*d = (OnnxDef){name, kind, idx, 0, {-1, -1}, 0};
	return 0;
}

/* Every input of node k is defined by an earlier node, an initializer or a
 * graph input; records the use. */
static int check_inputs(OnnxGraph *gr, int k, Err *e)
{
	const Onnx__NodeProto *n = gr->g->node[k];
	for (size_t j = 0; j < n->n_input; j++) {
		const char *in = n->input[j];
		if (!in[0])
			continue; /* an optional input left out */
		OnnxDef *d = onnx_graph_def(gr, in);
		if (!d)
			return err_set(e,
			               "%s: input '%s' is not produced by any node, initializer or "
			               "graph input",
			               onnx_node_str(gr->g, k).s, onnx_name(in).s);
		if (d->kind == DEF_NODE && d->out > 0)
			return err_set(e,
			               "%s: input '%s' is output %d of %s, which condnet does not "
			               "compute (it reads a node's first output)",
			               onnx_node_str(gr->g, k).s, onnx_name(in).s, d->out + 1,
			               onnx_node_str(gr->g, d->idx).s);
		if (d->kind == DEF_NODE && d->idx >= k)
			return err_set(e,
			               "%s: input '%s' comes from %s%s (a cycle, or nodes out of "
			               "topological order)",
			               onnx_node_str(gr->g, k).s, onnx_name(in).s,
			               d->idx == k ? "its own output" : "the later ",
			               d->idx == k ? "" : onnx_node_str(gr->g, d->idx).s);
		if (d->nuse < 2)
			d->user[d->nuse] = k;
		d->nuse++;
	}
	return 0;
}

int onnx_graph_init(OnnxGraph *gr, const Onnx__GraphProto *g, long opset, int graph, Err *e)
{
	memset(gr, 0, sizeof *gr);
	gr->g = g;
	gr->opset = opset;
	if (g->n_node > (1u << 20))
		return err_set(e, "graph of %zu nodes, more than %u", g->n_node, 1u << 20);
	for (size_t k = 0; k < g->n_node; k++)
		if (check_op(g, (int)k, graph, e))
			return -1;
	if (g->n_sparse_initializer)
		return err_set(e, "graph with %zu sparse initializers, which condnet does not read",
		               g->n_sparse_initializer);
	size_t ndefs = g->n_input + g->n_initializer;
	for (size_t k = 0; k < g->n_node; k++)
		ndefs += g->node[k]->n_output;
	gr->cap = 16;
	while (gr->cap < 2 * ndefs + 2)
		gr->cap *= 2;
	gr->defs = calloc(gr->cap, sizeof *gr->defs);
	gr->isconst = calloc(g->n_node + 1, 1);
	if (!gr->defs || !gr->isconst)
		return err_set(e, "out of memory for a graph of %zu nodes", g->n_node);
	for (size_t i = 0; i < g->n_input; i++) {
		const char *name = g->input[i]->name;
		if (!name || !name[0])
			return err_set(e, "graph input %zu has no name", i);
		if (define(gr, name, DEF_INPUT, (int)i, e))
			return -1;
	}
	for (size_t i = 0; i < g->n_initializer; i++) {
		const char *name = g->initializer[i]->name;
		if (!name || !name[0])
			return err_set(e, "initializer %zu has no name", i);
		if (define(gr, name, DEF_INIT, (int)i, e))
			return -1;
	}
	for (size_t k = 0; k < g->n_node; k++)
		for (size_t j = 0; j < g->node[k]->n_output; j++) {
			const char *name = g->node[k]->output[j];
			if (j && !name[0])
				continue; /* an optional output left out */
			if (define(gr, name, DEF_NODE, (int)k, e))
				return -1;
			onnx_graph_def(gr, name)->out = (int)j;
		}
	for (size_t k = 0; k < g->n_node; k++) {
		if (check_inputs(gr, (int)k, e))
			return -1;
		const Onnx__NodeProto *n = g->node[k];
		if (!strcmp(n->op_type, "Constant"))
			gr->isconst[k] = 1;
		else if (!strcmp(n->op_type, "Identity") || !strcmp(n->op_type, "Transpose"))
			gr->isconst[k] = (unsigned char)onnx_graph_is_const(gr, n->input[0]);
	}
	return 0;
}

void onnx_graph_free(OnnxGraph *gr)
{
	free(gr->defs);
	free(gr->isconst);
	gr->defs = NULL;
	gr->isconst = NULL;
}

int onnx_graph_is_const(const OnnxGraph *gr, const char *name)
{
	const OnnxDef *d = name[0] ? onnx_graph_def(gr, name) : NULL;
	return d && (d->kind == DEF_INIT || (d->kind == DEF_NODE && gr->isconst[d->idx]));
}

const Onnx__AttributeProto *onnx_attr(const Onnx__NodeProto *n, const char *name)
{
	for (size_t i = 0; i < n->n_attribute; i++)
		if (n->attribute[i]->name && !strcmp(n->attribute[i]->name, name))
			return n->attribute[i];
	return NULL;
}

int onnx_attr_int(const Onnx__GraphProto *g, int k, const char *name, long long def, long long *out,
                  Err *e)
{
	const Onnx__AttributeProto *a = onnx_attr(g->node[k], name);
	*out = def;
	if (!a)
		return 0;
	if ((a->has_type && a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT) || !a->has_i)
		return err_set(e, "%s: attribute '%s' is not an integer", onnx_node_str(g, k).s,
		               name);
	*out = (long long)a->i;
	return 0;
}

int onnx_attr_float(const Onnx__GraphProto *g, int k, const char *name, double def, double *out,
                    Err *e)
{
	const Onnx__AttributeProto *a = onnx_attr(g->node[k], name);
	*out = def;
	if (!a)
		return 0;
	if ((a->has_type && a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT) || !a->has_f)
		return err_set(e, "%s: attribute '%s' is not a float", onnx_node_str(g, k).s, name);
	if (!isfinite(a->f))
		return err_set(e, "%s: attribute '%s' is %g, expected a finite number",
		               onnx_node_str(g, k).s, name, (double)a->f);
	*out = a->f;
	return 0;
}

/* The value of Constant node k: its 'value' tensor, 'value_float' or 'value_floats'. */
static int constant_value(const OnnxGraph *gr, int k, OnnxTensor *out, Err *e)
{
	const Onnx__NodeProto *n = gr->g->node[k];
	const Onnx__AttributeProto *a = onnx_attr(n, "value");
	char what[256];
	snprintf(what, sizeof what, "%s: value", onnx_node_str(gr->g, k).s);
	if (a && a->t)
		return onnx_tensor_values(a->t, what, out, e);
	memset(out, 0, sizeof *out);
	if ((a = onnx_attr(n, "value_float")) && a->has_f) {
		out->count = 1;
	} else if ((a = onnx_attr(n, "value_floats"))) {
		out->nd = 1;
		out->dims[0] = (long long)a->n_floats;
		out->count = a->n_floats;
	} else {
		return err_set(e,
		               "%s: no float tensor in its attributes (expected 'value', "
		               "'value_float' or 'value_floats')",
		               onnx_node_str(gr->g, k).s);
	}
	out->v = malloc((out->count ? out->count : 1) * sizeof *out->v);
	if (!out->v)
		return err_set(e, "%s: out of memory", what);
	for (size_t i = 0; i < out->count; i++) {
		double v = out->nd ? a->floats[i] : a->f;
		if (!isfinite(v)) {
			free(out->v);
			out->v = NULL;
			return err_set(e, "%s: value %zu is %g, expected a finite float32", what, i,
			               v);
		}
		out->v[i] = v;
	}
	return 0;
}

/* Transposes a 2-D tensor in place (Transpose with perm absent or [1, 0]). */
static int transpose(const OnnxGraph *gr, int k, OnnxTensor *t, Err *e)
{
	const Onnx__AttributeProto *a = onnx_attr(gr->g->node[k], "perm");
	if (t->nd != 2 || (a && (a->n_ints != 2 || a->ints[0] != 1 || a->ints[1] != 0)))
		return err_set(e,
		               "%s: transposes a %d-dimensional constant; condnet reads only "
		               "the transpose of a matrix (perm [1, 0])",
		               onnx_node_str(gr->g, k).s, t->nd);
	size_t r = (size_t)t->dims[0], c = (size_t)t->dims[1];
	double *v = malloc((t->count ? t->count : 1) * sizeof *v);
	if (!v)
		return err_set(e, "%s: out of memory", onnx_node_str(gr->g, k).s);
	for (size_t i = 0; i < r; i++)
		for (size_t j = 0; j < c; j++)
			v[j * r + i] = t->v[i * c + j];
	free(t->v);
	t->v = v;
	t->dims[0] = (long long)c;
	t->dims[1] = (long long)r;
	return 0;
}

static int const_at(const OnnxGraph *gr, const char *name, int k, int depth, OnnxTensor *out,
                    Err *e)
{
	const OnnxDef *d = name[0] ? onnx_graph_def(gr, name) : NULL;
	if (!onnx_graph_is_const(gr, name))
		return err_set(e, "%s: '%s' is not a constant", onnx_node_str(gr->g, k).s,
		               onnx_name(name).s);
	if (d->kind == DEF_INIT) {
		char what[256];
		snprintf(what, sizeof what, "initializer '%s'", onnx_name(name).s);
		return onnx_tensor_values(gr->g->initializer[d->idx], what, out, e);
	}
	const Onnx__NodeProto *n = gr->g->node[d->idx];
	if (!strcmp(n->op_type, "Constant"))
		return constant_value(gr, d->idx, out, e);
	if (depth >= MAX_CONST_DEPTH)
		return err_set(e,
		               "%s: a constant passed through more than %d Identity or "
		               "Transpose nodes",
		               onnx_node_str(gr->g, d->idx).s, MAX_CONST_DEPTH);
	if (const_at(gr, n->input[0], d->idx, depth + 1, out, e))
		return -1;
	if (!strcmp(n->op_type, "Transpose") && transpose(gr, d->idx, out, e)) {
		free(out->v);
		out->v = NULL;
		return -1;
	}
	return 0;
}

int onnx_graph_const(const OnnxGraph *gr, const char *name, int k, OnnxTensor *out, Err *e)
{
	if (!const_at(gr, name, k, 0, out, e))
		return 0;
	if (strncmp(e->msg, "node ", 5))
		err_prefix(e, "%s", onnx_node_str(gr->g, k).s);
	return -1;
}

/* The TensorProto of constant name: an initializer, or a Constant node's
 * value, through Identity nodes; NULL when it is neither. */
static const Onnx__TensorProto *const_tensor(const OnnxGraph *gr, const char *name)
{
	for (int depth = 0; depth < MAX_CONST_DEPTH && name[0]; depth++) {
		const OnnxDef *d = onnx_graph_def(gr, name);
		if (!d)
			return NULL;
		if (d->kind == DEF_INIT)
			return gr->g->initializer[d->idx];
		if (d->kind != DEF_NODE)
			return NULL;
		const Onnx__NodeProto *n = gr->g->node[d->idx];
		if (!strcmp(n->op_type, "Constant")) {
			const Onnx__AttributeProto *a = onnx_attr(n, "value");
			return a ? a->t : NULL;
		}
		if (strcmp(n->op_type, "Identity"))
			return NULL;
		name = n->input[0];
	}
	return NULL;
}

int onnx_graph_int64s(const OnnxGraph *gr, const char *name, int k, const char *what, long long *d,
                      int *nd, int max, Err *e)
{
	const Onnx__TensorProto *t = const_tensor(gr, name);
	if (!t || !t->has_data_type || t->data_type != 7 || t->n_dims != 1 || t->dims[0] < 1 ||
	    t->dims[0] > max)
		return onnx_node_err(gr->g, k, e,
		                     "%s is not a constant of 1 to %d INT64 values (an initializer "
		                     "or a Constant)",
		                     what, max);
	*nd = (int)t->dims[0];
	if (t->has_raw_data ? t->raw_data.len != 8 * (size_t)*nd : t->n_int64_data != (size_t)*nd)
		return onnx_node_err(gr->g, k, e, "%s holds other than %d values", what, *nd);
	for (int i = 0; i < *nd; i++) {
		if (!t->has_raw_data) {
			d[i] = (long long)t->int64_data[i];
			continue;
		}
		uint64_t u = 0;
		for (int j = 0; j < 8; j++)
			u |= (uint64_t)t->raw_data.data[8 * i + j] << (8 * j);
		d[i] = (long long)u;
	}
	return 0;
}

int onnx_graph_bool(const OnnxGraph *gr, const char *name, int k, const char *what, int *v, Err *e)
{
	const Onnx__TensorProto *t = const_tensor(gr, name);
	size_t count = 1;
	for (size_t i = 0; t && i < t->n_dims; i++)
		count = t->dims[i] == 1 ? count : 0;
	if (!t || !t->has_data_type || t->data_type != 9 || count != 1 ||
	    (t->has_raw_data ? t->raw_data.len != 1 : t->n_int32_data != 1))
		return onnx_node_err(gr->g, k, e,
		                     "%s is not one BOOL constant (an initializer or a Constant)",
		                     what);
	*v = t->has_raw_data ? t->raw_data.data[0] != 0 : t->int32_data[0] != 0;
	return 0;
}

/* The rank and feature count (-1 when not fixed) of a graph input or output. */
int onnx_value_shape(const Onnx__ValueInfoProto *v, const char *what, int *rank, long long *width,
                     Err *e)
{
	char tb[32];
	*rank = 2;
	*width = -1;
	const Onnx__TypeProto *tp = v->type;
	if (!tp)
		return 0;
	if (tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type)
		return err_set(e, "%s '%s' is not a tensor", what, onnx_name(v->name).s);
	const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
	if (tt->has_elem_type && tt->elem_type != ONNX_FLOAT && tt->elem_type != ONNX_DOUBLE)
		return err_set(e, "%s '%s' holds %s, expected FLOAT (1) or DOUBLE (11)", what,
		               onnx_name(v->name).s, onnx_type_name(tt->elem_type, tb));
	if (!tt->shape)
		return 0;
	*rank = (int)(tt->shape->n_dim < 100 ? tt->shape->n_dim : 100);
	if (*rank < 2)
		return err_set(e, "%s '%s' has %d dimension%s, expected (batch, features)", what,
		               onnx_name(v->name).s, *rank, *rank == 1 ? "" : "s");
	long long w = 1;
	for (int i = 0; i < *rank; i++) {
		const Onnx__TensorShapeProto__Dimension *d = tt->shape->dim[i];
		if (d->value_case != ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
			if (i)
				w = -1;
			continue;
		}
		long long dv = (long long)d->dim_value;
		if (dv < 0 || (i && dv == 0))
			return err_set(e, "%s '%s': dimension %d is %lld, expected %s", what,
			               onnx_name(v->name).s, i, dv, i ? ">= 1" : ">= 0");
		if (i && w > 0)
			w = dv > (1LL << 31) / w ? (1LL << 31) : w * dv;
	}
	*width = w;
	return 0;
}

/* The model's opset version of the default domain. */
long onnx_default_opset(const Onnx__ModelProto *m, Err *e)
{
	for (size_t i = 0; i < m->n_opset_import; i++) {
		const Onnx__OperatorSetIdProto *o = m->opset_import[i];
		if (!o->domain || !o->domain[0] || !strcmp(o->domain, "ai.onnx")) {
			if (!o->has_version || o->version < 1)
				return err_set(e,
				               "opset_import: version %lld of the default domain, "
				               "expected >= 1",
				               (long long)o->version);
			return o->version > 1000000 ? 1000000 : (long)o->version;
		}
	}
	return err_set(e, "opset_import names no version of the default domain ('' or 'ai.onnx')");
}
