/* onnx_export.c - a Net as an ONNX model (the layout is in onnx_io.h), and
 * the outputs an imported graph computes. */
#include "model/onnx_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "config.h"
#include "data/prep_text.h"
#include "engine/graph_pass.h"
#include "engine/train.h"
#include "model/onnx_int.h"

typedef char Name[32];

/* Everything the model points to, allocated at once for m layers. */
typedef struct Builder {
	Onnx__ModelProto model;
	Onnx__GraphProto graph;
	Onnx__OperatorSetIdProto opset, *opsets[1];
	Onnx__TensorProto *inits, **initp; /* W1 b1 … Wm bm [erf_scale] */
	uint8_t **raw;
	Onnx__NodeProto *nodes, **nodep;
	Name *names; /* node outputs and node names */
	char **ins;  /* node inputs, 3 a node */
	char **outs; /* node outputs, 1 a node */
	Onnx__AttributeProto attr[2], *softmax_attr[1], *gemm_attr[1];
	Onnx__AttributeProto *cattr; /* 3 a convolution: kernel_shape, pads, strides */
	Onnx__AttributeProto **cattrp;
	Onnx__AttributeProto pattr[2], *pattrp[2]; /* the pools' kernel_shape and strides */
	int64_t *cints;                            /* 8 a convolution */
	int64_t two[2];
	Onnx__ValueInfoProto io[2], *iop[2];
	Onnx__TypeProto type[2];
	Onnx__TypeProto__Tensor tt[2];
	Onnx__TensorShapeProto shape[2];
	Onnx__TensorShapeProto__Dimension dim[8], *dimp[8];
	Onnx__StringStringEntryProto meta[6], *metap[6];
	char *prep; /* the preprocessing record's line (data/prep_text.h) */
	char widths[4096], tau[32], scale[32];
	int64_t *dims; /* the initializers' dimensions, 3 a layer */
	Name *inames;  /* initializer names */
	size_t ninit, nnode;
} Builder;

/* A float32 initializer of dims dims[0..nd) holding v (copied little-endian);
 * with transpose, v is dims[1]×dims[0] and is written transposed. */
static int add_init(Builder *b, const char *name, const float *v, int nd, int64_t *dims,
                    int transpose)
{
	size_t i = b->ninit++, n = 1;
	Onnx__TensorProto *t = &b->inits[i];
	onnx__tensor_proto__init(t);
	snprintf(b->inames[i], sizeof b->inames[i], "%s", name);
	for (int k = 0; k < nd; k++)
		n *= (size_t)dims[k];
	if (!(b->raw[i] = malloc(4 * (n ? n : 1))))
		return -1;
	for (size_t k = 0; k < n; k++) {
		uint32_t u;
		size_t r = transpose ? (size_t)dims[1] : 1, c = transpose ? (size_t)dims[0] : 1;
		memcpy(&u, transpose ? &v[(k % r) * c + k / r] : &v[k], 4);
		for (int j = 0; j < 4; j++)
			b->raw[i][4 * k + (size_t)j] = (uint8_t)(u >> (8 * j));
	}
	t->name = b->inames[i];
	t->n_dims = (size_t)nd;
	t->dims = dims;
	t->has_data_type = 1;
	t->data_type = ONNX_FLOAT;
	t->has_raw_data = 1;
	t->raw_data.len = 4 * n;
	t->raw_data.data = b->raw[i];
	b->initp[i] = t;
	return 0;
}

/* A node op(in0, in1, in2) -> out; NULL inputs are left out. */
static void add_node(Builder *b, const char *op, const char *out, const char *in0, const char *in1,
                     const char *in2)
{
	size_t k = b->nnode++;
	Onnx__NodeProto *n = &b->nodes[k];
	onnx__node_proto__init(n);
	const char *in[3] = {in0, in1, in2};
	n->input = &b->ins[3 * k];
	for (int i = 0; i < 3 && in[i]; i++)
		n->input[n->n_input++] = (char *)in[i];
	snprintf(b->names[2 * k], sizeof *b->names, "%s", out);
	snprintf(b->names[2 * k + 1], sizeof *b->names, "%s_%zu", op, k);
	b->outs[k] = b->names[2 * k];
	n->output = &b->outs[k];
	n->n_output = 1;
	n->name = b->names[2 * k + 1];
	n->op_type = (char *)op;
	b->nodep[k] = n;
}

/* Graph input or output i: float32 of shape (N, dims[0..nd)), nd ≤ 3. */
static void add_io(Builder *b, int i, const char *name, int nd, const int *dims)
{
	onnx__value_info_proto__init(&b->io[i]);
	onnx__type_proto__init(&b->type[i]);
	onnx__type_proto__tensor__init(&b->tt[i]);
	onnx__tensor_shape_proto__init(&b->shape[i]);
	for (int d = 0; d <= nd; d++) {
		Onnx__TensorShapeProto__Dimension *dim = &b->dim[4 * i + d];
		onnx__tensor_shape_proto__dimension__init(dim);
		if (d == 0) {
			dim->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
			dim->dim_param = (char *)"N";
		} else {
			dim->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
			dim->dim_value = dims[d - 1];
		}
		b->dimp[4 * i + d] = dim;
	}
	b->shape[i].n_dim = (size_t)nd + 1;
	b->shape[i].dim = &b->dimp[4 * i];
	b->tt[i].has_elem_type = 1;
	b->tt[i].elem_type = ONNX_FLOAT;
	b->tt[i].shape = &b->shape[i];
	b->type[i].value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
	b->type[i].tensor_type = &b->tt[i];
	b->io[i].name = (char *)name;
	b->io[i].type = &b->type[i];
	b->iop[i] = &b->io[i];
}

static void add_meta(Builder *b, const char *key, const char *value)
{
	size_t i = b->model.n_metadata_props++;
	onnx__string_string_entry_proto__init(&b->meta[i]);
	b->meta[i].key = (char *)key;
	b->meta[i].value = (char *)value;
	b->metap[i] = &b->meta[i];
}

/* The output name of the node added last. */
static const char *last_out(const Builder *b)
{
	return b->names[2 * (b->nnode - 1)];
}

/* An INTS attribute of n values v. */
static Onnx__AttributeProto *ints_attr(Onnx__AttributeProto *a, const char *name, int64_t *v,
                                       size_t n)
{
	onnx__attribute_proto__init(a);
	a->name = (char *)name;
	a->has_type = 1;
	a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
	a->n_ints = n;
	a->ints = v;
	return a;
}

/* The activation of a layer after node out (Mul by the scale then Erf, or
 * the function); its output named h<k>. */
static void add_act(Builder *b, const Net *net, int k)
{
	static const char *const ops[ACT_COUNT] = {"Erf", "Tanh", "Relu", "Sigmoid"};
	Name out;
	if (net->act == ACT_ERF) {
		snprintf(out, sizeof out, "s%d", k);
		add_node(b, "Mul", out, last_out(b), "erf_scale", NULL);
	}
	snprintf(out, sizeof out, "h%d", k);
	add_node(b, ops[net->act], out, last_out(b), NULL, NULL);
}

/* Convolution layer k (1-based): Conv with initializers Wk (C_out × C_in ×
 * K × K, as PyTorch's Conv2d holds it) and bk, its activation, the pool. */
static int add_conv(Builder *b, const Net *net, int k, const char *in)
{
	const ConvShape *c = &net->conv[k - 1];
	int64_t *d = b->dims + 6 * (k - 1), *ci = b->cints + 8 * (k - 1);
	Name w, bias, out;
	d[0] = d[4] = c->c_out;
	d[1] = c->c_in;
	d[2] = d[3] = c->k;
	snprintf(w, sizeof w, "W%d", k);
	snprintf(bias, sizeof bias, "b%d", k);
	/* (in·K + y)·K + x rows × out columns: written transposed, out first */
	int64_t td[2] = {c->c_out, layers_rows(c)};
	if (add_init(b, w, net->W[k - 1], 2, td, 1) ||
	    add_init(b, bias, net->b[k - 1], 1, d + 4, 0))
		return -1;
	b->inits[b->ninit - 2].n_dims = 4;
	b->inits[b->ninit - 2].dims = d;
	snprintf(out, sizeof out, "c%d", k);
	add_node(b, "Conv", out, in, b->inames[b->ninit - 2], b->inames[b->ninit - 1]);
	ci[0] = ci[1] = c->k;
	ci[2] = ci[3] = ci[4] = ci[5] = c->pad;
	ci[6] = ci[7] = 1;
	Onnx__AttributeProto **ap = b->cattrp + 3 * (k - 1), *a = b->cattr + 3 * (k - 1);
	ap[0] = ints_attr(&a[0], "kernel_shape", ci, 2);
	ap[1] = ints_attr(&a[1], "pads", ci + 2, 4);
	ap[2] = ints_attr(&a[2], "strides", ci + 6, 2);
	b->nodes[b->nnode - 1].n_attribute = 3;
	b->nodes[b->nnode - 1].attribute = ap;
	add_act(b, net, k);
	if (c->pool) {
		snprintf(out, sizeof out, "p%d", k);
		add_node(b, "MaxPool", out, last_out(b), NULL, NULL);
		b->nodes[b->nnode - 1].n_attribute = 2;
		b->nodes[b->nnode - 1].attribute = b->pattrp;
	}
	return 0;
}

/* The layers, activations and Softmax of net as nodes and initializers. */
static int build_graph(Builder *b, const Net *net)
{
	int m = net->m;
	const char *h = ONNX_INPUT_NAME;
	Name w, bias, out;
	for (int k = 1; k <= net->nconv; k++) {
		if (add_conv(b, net, k, h))
			return -1;
		h = last_out(b);
	}
	if (net->nconv) {
		add_node(b, "Flatten", "flat", h, NULL, NULL);
		b->nodes[b->nnode - 1].n_attribute = 1;
		b->nodes[b->nnode - 1].attribute = b->softmax_attr; /* axis 1 */
		h = last_out(b);
	}
	for (int k = net->nconv + 1; k <= m; k++) {
		/* W as outputs × inputs with transB = 1, as torch.nn.Linear stores it: the
		 * orientation every runtime reads (OpenCV 4.6 reads no other with a bias) */
		int64_t *wd = b->dims + 6 * (k - 1);
		wd[0] = wd[2] = net->n[k];
		wd[1] = net->n[k - 1];
		snprintf(w, sizeof w, "W%d", k);
		snprintf(bias, sizeof bias, "b%d", k);
		if (add_init(b, w, net->W[k - 1], 2, wd, 1) ||
		    add_init(b, bias, net->b[k - 1], 1, wd + 2, 0))
			return -1;
		snprintf(out, sizeof out, k < m ? "z%d" : "logits", k);
		add_node(b, "Gemm", out, h, b->inames[b->ninit - 2], b->inames[b->ninit - 1]);
		b->nodes[b->nnode - 1].n_attribute = 1;
		b->nodes[b->nnode - 1].attribute = b->gemm_attr;
		if (k == m)
			break;
		add_act(b, net, k);
		h = last_out(b);
	}
	add_node(b, "Softmax", ONNX_OUTPUT_NAME, last_out(b), NULL, NULL);
	b->nodes[b->nnode - 1].n_attribute = 1;
	b->nodes[b->nnode - 1].attribute = b->softmax_attr;
	if (net->act == ACT_ERF && m > 1 && add_init(b, "erf_scale", &net->act_a, 0, NULL, 0))
		return -1;
	return 0;
}

/* The model around the graph: versions, opset, input and output, metadata. */
static void build_model(Builder *b, const Net *net, const OnnxMeta *meta)
{
	Onnx__ModelProto *mo = &b->model;
	onnx__model_proto__init(mo);
	onnx__graph_proto__init(&b->graph);
	onnx__operator_set_id_proto__init(&b->opset);
	for (int i = 0; i < 2; i++) {
		onnx__attribute_proto__init(&b->attr[i]);
		b->attr[i].name = (char *)(i ? "transB" : "axis");
		b->attr[i].has_type = 1;
		b->attr[i].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
		b->attr[i].has_i = 1;
		b->attr[i].i = 1;
	}
	b->softmax_attr[0] = &b->attr[0];
	b->gemm_attr[0] = &b->attr[1];
	b->two[0] = b->two[1] = 2;
	b->pattrp[0] = ints_attr(&b->pattr[0], "kernel_shape", b->two, 2);
	b->pattrp[1] = ints_attr(&b->pattr[1], "strides", b->two, 2);
	b->opset.domain = (char *)"";
	b->opset.has_version = 1;
	b->opset.version = ONNX_OPSET;
	b->opsets[0] = &b->opset;
	mo->has_ir_version = 1;
	mo->ir_version = ONNX_IR_VERSION;
	mo->n_opset_import = 1;
	mo->opset_import = b->opsets;
	mo->producer_name = (char *)"condnet";
	mo->producer_version = (char *)PACKAGE_VERSION;
	mo->doc_string = net->nconv
	                     ? (char *)"A network written by condnet: Conv layers (each "
	                               "followed by the activation and a MaxPool or not), "
	                               "a Flatten, Gemm layers, one hidden activation, "
	                               "softmax over the classes."
	                     : (char *)"A dense network written by condnet: Gemm layers, one "
	                               "hidden activation, softmax over the classes.";
	mo->graph = &b->graph;
	b->graph.name = (char *)"condnet";
	int in[3], nin = 1;
	if (net->nconv) /* images: (N, C, H, W) */
		net_input_shape(net, &in[0], &in[1], &in[2]), nin = 3;
	else
		in[0] = net->n[0];
	add_io(b, 0, ONNX_INPUT_NAME, nin, in);
	add_io(b, 1, ONNX_OUTPUT_NAME, 1, &net->n[net->m]);
	b->graph.n_input = b->graph.n_output = 1;
	b->graph.input = &b->iop[0];
	b->graph.output = &b->iop[1];
	net_shape_str(net, b->widths, sizeof b->widths);
	snprintf(b->scale, sizeof b->scale, "%.9g", (double)net->act_a);
	mo->metadata_props = b->metap;
	add_meta(b, "condnet.version", PACKAGE_VERSION);
	add_meta(b, "condnet.widths", b->widths);
	add_meta(b, "condnet.activation", act_name(net->act));
	add_meta(b, "condnet.erf_scale", b->scale);
	if (meta && meta->tau > 0) {
		snprintf(b->tau, sizeof b->tau, "%.17g", meta->tau);
		add_meta(b, "condnet.tau", b->tau);
	}
	/* what the inputs are made of: condnet import reads it back */
	if (b->prep)
		add_meta(b, ONNX_META_PREP, b->prep);
}

static void builder_free(Builder *b)
{
	for (size_t i = 0; b->raw && i < b->ninit; i++)
		free(b->raw[i]);
	free(b->raw);
	free(b->inits);
	free(b->initp);
	free(b->inames);
	free(b->nodes);
	free(b->nodep);
	free(b->names);
	free(b->ins);
	free(b->outs);
	free(b->dims);
	free(b->prep);
	free(b->cattr);
	free(b->cattrp);
	free(b->cints);
	free(b);
}

int onnx_export(const Net *net, const char *path, const OnnxMeta *meta, Err *e)
{
	if (net->graph)
		return onnx_gexport(net, path, meta, e);
	size_t m = (size_t)net->m, ninit = 2 * m + 1, nnode = 4 * m + 2, nc = (size_t)net->nconv;
	Builder *b = calloc(1, sizeof *b);
	uint8_t *buf = NULL;
	int rc = -1;
	if (!b || !(b->raw = calloc(ninit, sizeof *b->raw)) ||
	    !(b->inits = calloc(ninit, sizeof *b->inits)) ||
	    !(b->initp = calloc(ninit, sizeof *b->initp)) ||
	    !(b->inames = calloc(ninit, sizeof *b->inames)) ||
	    !(b->nodes = calloc(nnode, sizeof *b->nodes)) ||
	    !(b->nodep = calloc(nnode, sizeof *b->nodep)) ||
	    !(b->names = calloc(2 * nnode, sizeof *b->names)) ||
	    !(b->ins = calloc(3 * nnode, sizeof *b->ins)) ||
	    !(b->outs = calloc(nnode, sizeof *b->outs)) ||
	    !(b->dims = calloc(6 * m, sizeof *b->dims)) ||
	    !(b->cattr = calloc(3 * nc + 1, sizeof *b->cattr)) ||
	    !(b->cattrp = calloc(3 * nc + 1, sizeof *b->cattrp)) ||
	    !(b->cints = calloc(8 * nc + 1, sizeof *b->cints)) ||
	    (net->prep && net->prep->kind != PREP_NONE &&
	     !(b->prep = prep_to_text(net->prep, e)))) {
		err_set(e, "%s: out of memory", path);
		goto out;
	}
	build_model(b, net, meta);
	if (build_graph(b, net)) {
		err_set(e, "%s: out of memory", path);
		goto out;
	}
	b->graph.n_node = b->nnode;
	b->graph.node = b->nodep;
	b->graph.n_initializer = b->ninit;
	b->graph.initializer = b->initp;
	size_t len = onnx__model_proto__get_packed_size(&b->model);
	if ((long long)len > ONNX_MAX_BYTES) {
		err_set(e, "%s: the model takes %zu bytes, more than protobuf's limit of %lld",
		        path, len, ONNX_MAX_BYTES);
		goto out;
	}
	if (!(buf = malloc(len))) {
		err_set(e, "%s: out of memory for %zu bytes", path, len);
		goto out;
	}
	onnx__model_proto__pack(&b->model, buf);
	rc = file_write(path, buf, len, 0, e);
out:
	free(buf);
	if (b)
		builder_free(b);
	return rc;
}

int onnx_forward(const Net *net, int softmax, const float *x, int n, float *out, Err *e)
{
	int m = net->m, h = net->n[m - 1], o = net->n[m];
	if (softmax)
		return net_forward(net, x, n, m, out, e);
	if (net->graph)
		return graph_logits(net->graph, net->param, x, n, out, e);
	if (n < 0)
		return err_set(e, "onnx_forward: %d rows", n);
	float *a = malloc(((size_t)n * h + 1) * sizeof *a);
	if (!a)
		return err_set(e, "out of memory for a forward pass of %d rows", n);
	if (net_forward(net, x, n, m - 1, a, e)) {
		free(a);
		return -1;
	}
	for (int r = 0; r < n; r++)
		for (int j = 0; j < o; j++) {
			double z = net->b[m - 1][j];
			for (int i = 0; i < h; i++)
				z +=
				    (double)a[(size_t)r * h + i] * net->W[m - 1][(size_t)i * o + j];
			out[(size_t)r * o + j] = (float)z;
		}
	free(a);
	return 0;
}
