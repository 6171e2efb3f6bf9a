/* onnx_gexport.c - a graph network as an ONNX model (IR version 7, opset
 * 13, or 10 when it holds a Clip: its bounds are then attributes, the form
 * OpenCV's dnn reads): input "input", (N, C, H, W) or (N, F); a node for
 * each graph node
 * (Conv with its kernel_shape, strides, pads, dilations and group and
 * initializers W (C_out, C_in/g, kh, kw) and b; Gemm with transB 1 and W
 * (outputs, inputs) as torch.nn.Linear holds it; an Affine as a
 * BatchNormalization of mean 0, variance 1 and epsilon 0, which is it
 * exactly; the pools with their windows; a Reshape to
 * features as Flatten); a Softmax over the
 * logits computing "probabilities" (N, classes); metadata condnet.version,
 * condnet.graph, condnet.tau when known and condnet.prep. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "config.h"
#include "data/prep_text.h"
#include "model/onnx_int.h"
#include "model/onnx_io.h"

typedef struct GEx {
	const Graph *g;
	long opset;
	void **mem; /* everything the model points to */
	size_t nmem, capmem;
	Onnx__NodeProto **node;
	size_t nnode, capnode;
	Onnx__TensorProto **init;
	size_t ninit, capinit;
	Onnx__StringStringEntryProto *meta[4];
	size_t nmeta;
	char **out;  /* per graph node: the name of the tensor it gives */
	char **used; /* node names given, an open-addressing set */
	size_t capused;
	int bad;
} GEx;

/* n zeroed bytes that live as long as the model; NULL (and bad) when out
 * of memory. */
static void *take(GEx *x, size_t n)
{
	if (x->bad)
		return NULL;
	if (x->nmem == x->capmem) {
		size_t cap = x->capmem ? 2 * x->capmem : 256;
		void **p = realloc(x->mem, cap * sizeof *p);
		if (!p) {
			x->bad = 1;
			return NULL;
		}
		x->mem = p;
		x->capmem = cap;
	}
	void *p = calloc(1, n ? n : 1);
	if (!p)
		x->bad = 1;
	else
		x->mem[x->nmem++] = p;
	return p;
}

static char *fmt(GEx *x, const char *f, ...) __attribute__((format(printf, 2, 3)));
static char *fmt(GEx *x, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	int n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	char *s = take(x, (size_t)n + 1);
	if (s) {
		va_start(ap, f);
		vsnprintf(s, (size_t)n + 1, f, ap);
		va_end(ap);
	}
	return s;
}

/* Appends p to a growing array of pointers. */
static void push(GEx *x, void ***arr, size_t *n, size_t *cap, void *p)
{
	if (!p || x->bad)
		return;
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		void **a = realloc(*arr, c * sizeof *a);
		if (!a) {
			x->bad = 1;
			return;
		}
		*arr = a;
		*cap = c;
	}
	(*arr)[(*n)++] = p;
}

/* A float32 initializer of dims[0..nd) holding v[i] = at(i) little-endian. */
static const char *init_f32(GEx *x, const char *name, const float *v, size_t n, const int64_t *dims,
                            int nd, const size_t *perm)
{
	Onnx__TensorProto *t = take(x, sizeof *t);
	uint8_t *raw = take(x, 4 * n);
	int64_t *d = take(x, (size_t)(nd ? nd : 1) * sizeof *d);
	if (!t || !raw || !d)
		return NULL;
	onnx__tensor_proto__init(t);
	for (size_t i = 0; i < n; i++) {
		uint32_t u;
		memcpy(&u, &v[perm ? perm[i] : i], 4);
		for (int j = 0; j < 4; j++)
			raw[4 * i + (size_t)j] = (uint8_t)(u >> (8 * j));
	}
	if (nd)
		memcpy(d, dims, (size_t)nd * sizeof *d);
	t->name = (char *)name;
	t->n_dims = (size_t)nd;
	t->dims = d;
	t->has_data_type = 1;
	t->data_type = ONNX_FLOAT;
	t->has_raw_data = 1;
	t->raw_data.len = 4 * n;
	t->raw_data.data = raw;
	push(x, (void ***)&x->init, &x->ninit, &x->capinit, t);
	return name;
}

/* An INT64 initializer of n values (1-D). */
static const char *init_i64(GEx *x, const char *name, const int64_t *v, size_t n)
{
	Onnx__TensorProto *t = take(x, sizeof *t);
	int64_t *d = take(x, sizeof *d), *val = take(x, n * sizeof *val);
	if (!t || !d || !val)
		return NULL;
	onnx__tensor_proto__init(t);
	memcpy(val, v, n * sizeof *val);
	*d = (int64_t)n;
	t->name = (char *)name;
	t->n_dims = 1;
	t->dims = d;
	t->has_data_type = 1;
	t->data_type = 7;
	t->n_int64_data = n;
	t->int64_data = val;
	push(x, (void ***)&x->init, &x->ninit, &x->capinit, t);
	return name;
}

static size_t hash(const char *s)
{
	size_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* name, or name_K when a node has it already: node names stay unique. */
static char *unique(GEx *x, const char *name, int k)
{
	char *s = fmt(x, "%s", name);
	for (int round = 0; s && round < 2; round++) {
		size_t i = hash(s) & (x->capused - 1);
		while (x->used[i] && strcmp(x->used[i], s))
			i = (i + 1) & (x->capused - 1);
		if (!x->used[i]) {
			x->used[i] = s;
			return s;
		}
		s = fmt(x, "%s_%d", name, k);
	}
	return s;
}

/* A node op(ins) → out named name, with room for na attributes. */
static Onnx__NodeProto *node(GEx *x, const char *op, const char *out, const char *const *ins,
                             int nin, const char *name, int na)
{
	Onnx__NodeProto *n = take(x, sizeof *n);
	char **in = take(x, (size_t)(nin ? nin : 1) * sizeof *in), **o = take(x, sizeof *o);
	Onnx__AttributeProto **a = take(x, (size_t)(na ? na : 1) * sizeof *a);
	if (!n || !in || !o || !a)
		return NULL;
	onnx__node_proto__init(n);
	for (int i = 0; i < nin; i++)
		in[i] = (char *)ins[i];
	o[0] = (char *)out;
	n->n_input = (size_t)nin;
	n->input = in;
	n->n_output = 1;
	n->output = o;
	n->name = (char *)name;
	n->op_type = (char *)op;
	n->attribute = a;
	push(x, (void ***)&x->node, &x->nnode, &x->capnode, n);
	return n;
}

static Onnx__AttributeProto *attr(GEx *x, Onnx__NodeProto *n, const char *name, int type)
{
	Onnx__AttributeProto *a = n ? take(x, sizeof *a) : NULL;
	if (!a)
		return NULL;
	onnx__attribute_proto__init(a);
	a->name = (char *)name;
	a->has_type = 1;
	a->type = (Onnx__AttributeProto__AttributeType)type;
	n->attribute[n->n_attribute++] = a;
	return a;
}

static void attr_int(GEx *x, Onnx__NodeProto *n, const char *name, int64_t v)
{
	Onnx__AttributeProto *a = attr(x, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
	if (a) {
		a->has_i = 1;
		a->i = v;
	}
}

static void attr_float(GEx *x, Onnx__NodeProto *n, const char *name, float v)
{
	Onnx__AttributeProto *a = attr(x, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
	if (a) {
		a->has_f = 1;
		a->f = v;
	}
}

static void attr_ints(GEx *x, Onnx__NodeProto *n, const char *name, const int64_t *v, size_t k)
{
	Onnx__AttributeProto *a = attr(x, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
	int64_t *c = a ? take(x, k * sizeof *c) : NULL;
	if (c) {
		memcpy(c, v, k * sizeof *c);
		a->n_ints = k;
		a->ints = c;
	}
}

/* A window's attributes: kernel_shape, strides, pads, and a Conv's
 * dilations or a pool's ceil_mode (and count_include_pad). */
static void window(GEx *x, Onnx__NodeProto *n, const GraphNode *gn)
{
	const GraphWin *w = &gn->win;
	int64_t ks[2] = {w->kh, w->kw}, st[2] = {w->sh, w->sw}, dl[2] = {w->dh, w->dw};
	int64_t pd[4] = {w->pt, w->pl, w->pb, w->pr};
	attr_ints(x, n, "kernel_shape", ks, 2);
	attr_ints(x, n, "strides", st, 2);
	attr_ints(x, n, "pads", pd, 4);
	if (gn->op == GRAPH_CONV) {
		attr_ints(x, n, "dilations", dl, 2);
		attr_int(x, n, "group", gn->group);
		return;
	}
	attr_int(x, n, "ceil_mode", w->ceil);
	if (gn->op == GRAPH_AVGPOOL)
		attr_int(x, n, "count_include_pad", w->count_pad);
}

/* A Conv or Gemm node's W and b as initializers; the W of a Conv as
 * (C_out, C_in/g, kh, kw), of a Gemm as (outputs, inputs). */
static int layer_inits(GEx *x, const Net *net, int k, const char **w, const char **b)
{
	const Graph *g = x->g;
	const GraphNode *n = &g->node[k];
	size_t rows = (size_t)graph_rows(g, k), co = (size_t)n->c;
	const float *W = net->param + n->off;
	size_t *perm = malloc(rows * co * sizeof *perm);
	if (!perm)
		return -1;
	for (size_t o = 0; o < co; o++) /* element (o, r) of the file is W[r][o] */
		for (size_t r = 0; r < rows; r++)
			perm[o * rows + r] = r * co + o;
	int64_t dims[4] = {(int64_t)co, (int64_t)rows, 1, 1};
	if (n->op == GRAPH_CONV) {
		dims[1] = graph_rows(g, k) / (n->win.kh * n->win.kw);
		dims[2] = n->win.kh;
		dims[3] = n->win.kw;
	}
	*w = init_f32(x, fmt(x, "W%d", k), W, rows * co, dims, n->op == GRAPH_CONV ? 4 : 2, perm);
	*b = init_f32(x, fmt(x, "b%d", k), W + rows * co, co, dims, 1, NULL);
	free(perm);
	return *w && *b ? 0 : -1;
}

static const char *const ops[GRAPH_OP_COUNT] = {
    [GRAPH_RELU] = "Relu",           [GRAPH_SIGMOID] = "Sigmoid",
    [GRAPH_TANH] = "Tanh",           [GRAPH_ERF] = "Erf",
    [GRAPH_LEAKY] = "LeakyRelu",     [GRAPH_ADD] = "Add",
    [GRAPH_CONCAT] = "Concat",       [GRAPH_MAXPOOL] = "MaxPool",
    [GRAPH_AVGPOOL] = "AveragePool", [GRAPH_GLOBALAVG] = "GlobalAveragePool",
    [GRAPH_CONV] = "Conv",           [GRAPH_GEMM] = "Gemm"};

/* Graph node k as ONNX nodes, its output named x->out[k]. */
static int add_node(GEx *x, const Net *net, int k)
{
	const GraphNode *n = &x->g->node[k];
	const char *in[GRAPH_MAX_INPUTS + 2],
	    *name = unique(x, n->name[0] ? n->name : graph_op_name(n->op), k);
	const char *out = x->out[k] = fmt(x, "t%d", k);
	for (int i = 0; i < n->nin; i++)
		in[i] = x->out[graph_in(x->g, k)[i]];
	int nin = n->nin;
	Onnx__NodeProto *o = NULL;
	switch (n->op) {
	case GRAPH_CONV:
	case GRAPH_GEMM:
		if (layer_inits(x, net, k, &in[1], &in[2]))
			return -1;
		o = node(x, ops[n->op], out, in, 3, name, 6);
		if (n->op == GRAPH_GEMM)
			attr_int(x, o, "transB", 1);
		else
			window(x, o, n);
		break;
	case GRAPH_AFFINE: { /* s·(x − 0)/√(1 + 0) + t: a batch normalization, exactly */
		const float *s = net->param + n->off;
		float *zero = take(x, (size_t)n->c * sizeof *zero),
		      *one = take(x, (size_t)n->c * sizeof *one);
		for (int c = 0; one && c < n->c; c++)
			one[c] = 1.0f;
		if (!zero || !one)
			return -1;
		int64_t dims[1] = {n->c};
		in[1] = init_f32(x, fmt(x, "bn_scale%d", k), s, (size_t)n->c, dims, 1, NULL);
		in[2] = init_f32(x, fmt(x, "bn_shift%d", k), s + n->c, (size_t)n->c, dims, 1, NULL);
		in[3] = init_f32(x, fmt(x, "bn_mean%d", k), zero, (size_t)n->c, dims, 1, NULL);
		in[4] = init_f32(x, fmt(x, "bn_var%d", k), one, (size_t)n->c, dims, 1, NULL);
		o = node(x, "BatchNormalization", out, in, 5, name, 1);
		attr_float(x, o, "epsilon", 0.0f);
		break;
	}
	case GRAPH_CLIP:
		o = node(x, "Clip", out, in, 1, name, 2);
		attr_float(x, o, "min", n->lo);
		attr_float(x, o, "max", n->hi);
		break;
	case GRAPH_SCALE:
		in[1] = init_f32(x, fmt(x, "a%d", k), &n->a, 1, NULL, 0, NULL);
		o = node(x, "Mul", out, in, 2, name, 0);
		break;
	case GRAPH_RESHAPE:
		if (n->rank == 2 && x->g->node[graph_in(x->g, k)[0]].rank == 4) {
			o = node(x, "Flatten", out, in, 1, name, 1);
			attr_int(x, o, "axis", 1);
			break;
		}
		int64_t shape[4] = {0, n->c, n->h, n->w};
		in[1] = init_i64(x, fmt(x, "shape%d", k), shape, n->rank == 4 ? 4 : 2);
		o = node(x, "Reshape", out, in, 2, name, 0);
		break;
	default:
		o = node(x, ops[n->op], out, in, nin, name, 7);
		if (n->op == GRAPH_LEAKY)
			attr_float(x, o, "alpha", n->a);
		else if (n->op == GRAPH_CONCAT)
			attr_int(x, o, "axis", 1);
		else if (n->op == GRAPH_MAXPOOL || n->op == GRAPH_AVGPOOL)
			window(x, o, n);
	}
	return o && !x->bad ? 0 : -1;
}

/* A graph input or output: float32 (N, dims[0..nd)). */
static Onnx__ValueInfoProto *value_info(GEx *x, const char *name, int nd, const int *dims)
{
	Onnx__ValueInfoProto *v = take(x, sizeof *v);
	Onnx__TypeProto *t = take(x, sizeof *t);
	Onnx__TypeProto__Tensor *tt = take(x, sizeof *tt);
	Onnx__TensorShapeProto *sh = take(x, sizeof *sh);
	Onnx__TensorShapeProto__Dimension *d = take(x, 4 * sizeof *d),
	                                  **dp = take(x, 4 * sizeof *dp);
	if (!v || !t || !tt || !sh || !d || !dp)
		return NULL;
	onnx__value_info_proto__init(v);
	onnx__type_proto__init(t);
	onnx__type_proto__tensor__init(tt);
	onnx__tensor_shape_proto__init(sh);
	for (int i = 0; i <= nd; i++) {
		onnx__tensor_shape_proto__dimension__init(&d[i]);
		if (i == 0) {
			d[i].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
			d[i].dim_param = (char *)"N";
		} else {
			d[i].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
			d[i].dim_value = dims[i - 1];
		}
		dp[i] = &d[i];
	}
	sh->n_dim = (size_t)nd + 1;
	sh->dim = dp;
	tt->has_elem_type = 1;
	tt->elem_type = ONNX_FLOAT;
	tt->shape = sh;
	t->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
	t->tensor_type = tt;
	v->name = (char *)name;
	v->type = t;
	return v;
}

static void meta_add(GEx *x, const char *key, const char *value)
{
	Onnx__StringStringEntryProto *p = value ? take(x, sizeof *p) : NULL;
	if (!p)
		return;
	onnx__string_string_entry_proto__init(p);
	p->key = (char *)key;
	p->value = (char *)value;
	x->meta[x->nmeta++] = p;
}

/* The model around the nodes, packed into *buf (*len bytes). */
static int pack(GEx *x, const Net *net, const OnnxMeta *meta, uint8_t **buf, size_t *len,
                const char *path, Err *e)
{
	const Graph *g = x->g;
	const GraphNode *in = &g->node[0];
	Onnx__ModelProto mo;
	Onnx__GraphProto gr;
	Onnx__OperatorSetIdProto os, *osp = &os;
	onnx__model_proto__init(&mo);
	onnx__graph_proto__init(&gr);
	onnx__operator_set_id_proto__init(&os);
	os.domain = (char *)"";
	os.has_version = 1;
	os.version = x->opset;
	int dims[3] = {in->c, in->h, in->w}, classes = g->node[g->n - 1].c;
	Onnx__ValueInfoProto *vin = value_info(x, ONNX_INPUT_NAME, in->rank == 4 ? 3 : 1, dims);
	Onnx__ValueInfoProto *vout = value_info(x, ONNX_OUTPUT_NAME, 1, &classes);
	char shape[1024], *prep = NULL;
	meta_add(x, "condnet.version", PACKAGE_VERSION);
	meta_add(x, "condnet.graph", fmt(x, "%s", net_shape_str(net, shape, sizeof shape)));
	if (meta && meta->tau > 0)
		meta_add(x, "condnet.tau", fmt(x, "%.17g", meta->tau));
	if (net->prep && net->prep->kind != PREP_NONE && !(prep = prep_to_text(net->prep, e)))
		return -1;
	if (prep)
		meta_add(x, ONNX_META_PREP, fmt(x, "%s", prep));
	free(prep);
	if (x->bad || !vin || !vout)
		return err_set(e, "%s: out of memory", path);
	mo.has_ir_version = 1;
	mo.ir_version = ONNX_IR_VERSION;
	mo.n_opset_import = 1;
	mo.opset_import = &osp;
	mo.producer_name = (char *)"condnet";
	mo.producer_version = (char *)PACKAGE_VERSION;
	mo.doc_string = (char *)"A graph network written by condnet: its nodes in order, then "
	                        "a softmax over the classes.";
	mo.graph = &gr;
	mo.n_metadata_props = x->nmeta;
	mo.metadata_props = x->meta;
	gr.name = (char *)"condnet";
	gr.n_input = gr.n_output = 1;
	gr.input = &vin;
	gr.output = &vout;
	gr.n_node = x->nnode;
	gr.node = x->node;
	gr.n_initializer = x->ninit;
	gr.initializer = x->init;
	*len = onnx__model_proto__get_packed_size(&mo);
	if ((long long)*len > ONNX_MAX_BYTES)
		return err_set(e,
		               "%s: the model takes %zu bytes, more than protobuf's limit of %lld",
		               path, *len, ONNX_MAX_BYTES);
	if (!(*buf = malloc(*len ? *len : 1)))
		return err_set(e, "%s: out of memory for %zu bytes", path, *len);
	onnx__model_proto__pack(&mo, *buf);
	return 0;
}

int onnx_graph_opset(const Graph *g)
{
	for (int k = 1; k < g->n; k++)
		if (g->node[k].op == GRAPH_CLIP)
			return ONNX_OPSET_CLIP;
	return ONNX_OPSET;
}

int onnx_gexport(const Net *net, const char *path, const OnnxMeta *meta, Err *e)
{
	const Graph *g = net->graph;
	GEx x = {.g = g};
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc = -1;
	x.capused = 16;
	while (x.capused < 4 * (size_t)g->n + 4)
		x.capused *= 2;
	x.out = calloc((size_t)g->n, sizeof *x.out);
	x.used = calloc(x.capused, sizeof *x.used);
	if (!x.out || !x.used) {
		err_set(e, "%s: out of memory", path);
		goto out;
	}
	x.out[0] = (char *)ONNX_INPUT_NAME;
	x.opset = onnx_graph_opset(g);
	for (int k = 1; k < g->n; k++)
		if (add_node(&x, net, k)) {
			err_set(e, "%s: out of memory", path);
			goto out;
		}
	const char *last = x.out[g->n - 1];
	Onnx__NodeProto *sm = node(&x, "Softmax", ONNX_OUTPUT_NAME, &last, 1, "softmax", 1);
	attr_int(&x, sm, "axis", 1);
	if (x.bad) {
		err_set(e, "%s: out of memory", path);
		goto out;
	}
	if (pack(&x, net, meta, &buf, &len, path, e) == 0)
		rc = file_write(path, buf, len, 0, e);
out:
	free(buf);
	for (size_t i = 0; i < x.nmem; i++)
		free(x.mem[i]);
	free(x.mem);
	free(x.node);
	free(x.init);
	free(x.out);
	free(x.used);
	return rc;
}
