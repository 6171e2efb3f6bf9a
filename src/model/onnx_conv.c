/* onnx_conv.c - what the nodes of a convolutional network add to the one
 * being imported: Conv as a convolution layer (stride 1, no dilation, one
 * group, the same padding on every side), MaxPool of 2×2 windows and stride
 * 2 as its pool (before or after its activation, which condnet's
 * non-decreasing activations allow), and Flatten or Reshape from the maps to
 * the features of the dense layers; and the graph input's maps. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/onnx_int.h"
#include "model/onnx_nodes.h"

int onnx_input_maps(Imp *im, const Onnx__ValueInfoProto *v, Err *e)
{
	const Onnx__TensorShapeProto *s = v->type->tensor_type->shape;
	long long d[3];
	for (int i = 0; i < 3; i++) {
		const Onnx__TensorShapeProto__Dimension *dim = s->dim[i + 1];
		if (dim->value_case != ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE)
			return err_set(e,
			               "input '%s': maps of (batch, channels, height, width) whose "
			               "dimension %d is not fixed",
			               onnx_name(v->name).s, i + 1);
		d[i] = (long long)dim->dim_value;
	}
	/* each size checked before the product */
	if (d[0] > LIMIT_MAX_WIDTH || d[1] > LAYERS_MAX_SIDE || d[2] > LAYERS_MAX_SIDE ||
	    d[0] * d[1] > LIMIT_MAX_WIDTH || d[0] * d[1] * d[2] > LIMIT_MAX_WIDTH)
		return err_set(e,
		               "input '%s': maps of %lld×%lld×%lld, larger than condnet reads (%d "
		               "values, sides of %d)",
		               onnx_name(v->name).s, d[0], d[1], d[2], LIMIT_MAX_WIDTH,
		               LAYERS_MAX_SIDE);
	im->maps = 1;
	im->map_c = (int)d[0];
	im->map_h = (int)d[1];
	im->map_w = (int)d[2];
	return 0;
}

/* An INTS attribute of node k: n values (all equal to want when want ≥ 0)
 * or absent; *v its first value (def when absent). */
static int ints_attr(Imp *im, int k, const char *name, size_t n, long long def, long long *v,
                     Err *e)
{
	const Onnx__AttributeProto *a = onnx_attr(im->g->node[k], name);
	*v = def;
	if (!a)
		return 0;
	if (a->n_ints != n)
		return onnx_node_err(im->g, k, e, "attribute '%s' has %zu values, expected %zu",
		                     name, a->n_ints, n);
	*v = (long long)a->ints[0];
	for (size_t i = 1; i < n; i++)
		if (a->ints[i] != a->ints[0])
			return onnx_node_err(
			    im->g, k, e,
			    "attribute '%s' is not the same on every side (condnet "
			    "reads square kernels and windows)",
			    name);
	return 0;
}

/* The auto_pad attribute of node k: "NOTSET" (or absent), "VALID", or
 * "SAME_UPPER"/"SAME_LOWER" into *same. */
static int auto_pad(Imp *im, int k, int *same, Err *e)
{
	const Onnx__AttributeProto *a = onnx_attr(im->g->node[k], "auto_pad");
	*same = 0;
	if (!a || !a->has_s || !a->s.len)
		return 0;
	char v[16] = "";
	snprintf(v, sizeof v, "%.*s", (int)(a->s.len < 15 ? a->s.len : 15),
	         (const char *)a->s.data);
	const Onnx__AttributeProto *p = onnx_attr(im->g->node[k], "pads");
	for (size_t i = 0; p && strcmp(v, "NOTSET") && i < p->n_ints; i++)
		if (p->ints[i])
			return onnx_node_err(
			    im->g, k, e,
			    "auto_pad %s with non-zero pads: the padding is given by "
			    "the one or the other",
			    onnx_name(v).s);
	if (!strcmp(v, "NOTSET") || !strcmp(v, "VALID"))
		return 0;
	if (!strcmp(v, "SAME_UPPER") || !strcmp(v, "SAME_LOWER")) {
		*same = 1;
		return 0;
	}
	return onnx_node_err(im->g, k, e, "auto_pad '%s' is not one condnet reads", onnx_name(v).s);
}

/* The maps after the convolution or pool of the last layer. */
static void set_maps(Imp *im, const ConvShape *c)
{
	im->map_c = c->c_out;
	im->map_h = c->h_out;
	im->map_w = c->w_out;
	im->width = layers_out_width(c);
}

/* Long on purpose: a Conv node's attributes and tensors checked in the
 * order the ONNX operator defines them, before any is used. */
static int onnx_do_conv(Imp *im, int k, int slot, Err *e)
{
	const Onnx__NodeProto *n = im->g->node[k];
	OnnxNodeStr ns;
	long long kern, stride, dil, pad, group;
	int same;
	if (slot != 0)
		return onnx_node_err(im->g, k, e, "the data is not its first input");
	if (!im->maps)
		return onnx_node_err(im->g, k, e,
		                     "its input is not maps of (batch, channels, height, width)");
	if (im->state == S_CONV || im->state == S_SCALED)
		return onnx_node_err(
		    im->g, k, e, "follows the convolution of %s with no activation between them",
		    node_s(im, im->last, &ns));
	if (ints_attr(im, k, "kernel_shape", 2, -1, &kern, e) ||
	    ints_attr(im, k, "strides", 2, 1, &stride, e) ||
	    ints_attr(im, k, "dilations", 2, 1, &dil, e) ||
	    ints_attr(im, k, "pads", 4, 0, &pad, e) ||
	    onnx_attr_int(im->g, k, "group", 1, &group, e) || auto_pad(im, k, &same, e))
		return -1;
	if (stride != 1 || dil != 1 || group != 1)
		return onnx_node_err(im->g, k, e,
		                     "strides %lld, dilations %lld, group %lld: condnet convolves "
		                     "with stride 1, no dilation, one group",
		                     stride, dil, group);
	int has_b = n->n_input == 3 && n->input[2][0];
	if (onnx_need_const(im, k, 1, "kernel", e) ||
	    (has_b && onnx_need_const(im, k, 2, "bias", e)))
		return -1;
	OnnxTensor W, B = {0};
	if (onnx_graph_const(&im->gr, n->input[1], k, &W, e))
		return -1;
	int rc = -1;
	double *w = NULL, *b = NULL;
	if (W.nd == 4 && kern >= 0 && (kern != W.dims[2] || kern != W.dims[3])) {
		onnx_node_err(im->g, k, e,
		              "kernel_shape (%lld, %lld), but its weights hold %lld×%lld kernels",
		              kern, kern, W.dims[2], W.dims[3]);
		goto out;
	}
	if (W.nd != 4 || W.dims[1] != im->map_c || W.dims[2] != W.dims[3] || W.dims[2] < 1 ||
	    W.dims[0] < 1 || W.dims[0] > LIMIT_MAX_WIDTH || W.dims[2] > LAYERS_MAX_KERNEL) {
		onnx_node_err(im->g, k, e,
		              "a kernel of %d dimensions (%lld, %lld, …), expected (out channels, "
		              "%d, K, K) with K at most %d",
		              W.nd, W.nd > 0 ? W.dims[0] : 0, W.nd > 1 ? W.dims[1] : 0, im->map_c,
		              LAYERS_MAX_KERNEL);
		goto out;
	}
	int co = (int)W.dims[0], ci = im->map_c, K = (int)W.dims[2];
	if (same && K % 2 == 0) {
		onnx_node_err(im->g, k, e, "auto_pad SAME with an even kernel pads unevenly");
		goto out;
	}
	if (same)
		pad = (K - 1) / 2;
	LayerSpec spec = {.conv = 1, .units = co, .k = K, .pad = (int)pad};
	ConvShape cs;
	if (pad < 0 || pad >= K) {
		onnx_node_err(im->g, k, e, "padding %lld, expected 0 to %d (below the kernel side)",
		              pad, K - 1);
		goto out;
	}
	Err ge;
	if (layers_geometry(&spec, 1, ci, im->map_h, im->map_w, &cs, &ge)) {
		onnx_node_err(im->g, k, e, "%s", ge.msg);
		goto out;
	}
	if (has_b &&
	    (onnx_graph_const(&im->gr, n->input[2], k, &B, e) ||
	     ((B.nd != 1 || B.count != (size_t)co) &&
	      onnx_node_err(im->g, k, e,
	                    "a bias of %d dimensions (%lld, …), expected (%d,): one value an "
	                    "output channel",
	                    B.nd, B.nd ? B.dims[0] : 0, co))))
		goto out;
	size_t rows = (size_t)ci * K * K;
	w = malloc(rows * co * sizeof *w);
	b = calloc((size_t)co, sizeof *b);
	if (!w || !b) {
		onnx_node_err(im->g, k, e, "out of memory");
		goto out;
	}
	/* (out, in, y, x) to the rows (in·K + y)·K + x and the column out */
	for (int o = 0; o < co; o++)
		for (size_t r = 0; r < rows; r++)
			w[r * co + o] = W.v[(size_t)o * rows + r];
	for (int o = 0; has_b && o < co; o++)
		b[o] = B.v[o];
	rc = onnx_push_layer(im, k, (int)rows, co, w, b, e);
	w = b = NULL;
	if (rc == 0) {
		Layer *L = &im->layers[im->nlayers - 1];
		L->conv = 1;
		L->cs = cs;
		L->biased = 1;
		set_maps(im, &cs);
		im->state = S_CONV;
	}
out:
	free(w);
	free(b);
	free(W.v);
	free(B.v);
	return rc;
}

static int onnx_do_maxpool(Imp *im, int k, Err *e)
{
	long long kern, stride, pad, dil, ceil, order;
	int same;
	Layer *L = im->nlayers ? &im->layers[im->nlayers - 1] : NULL;
	if (!L || !L->conv || !im->maps || (im->state != S_CONV && im->state != S_ACT))
		return onnx_node_err(im->g, k, e,
		                     "a pool that follows no convolution (condnet pools a "
		                     "convolution's maps, before or after its activation)");
	if (L->cs.pool)
		return onnx_node_err(im->g, k, e, "a second pool after one convolution");
	if (ints_attr(im, k, "kernel_shape", 2, -1, &kern, e) ||
	    ints_attr(im, k, "strides", 2, 1, &stride, e) ||
	    ints_attr(im, k, "pads", 4, 0, &pad, e) ||
	    ints_attr(im, k, "dilations", 2, 1, &dil, e) ||
	    onnx_attr_int(im->g, k, "ceil_mode", 0, &ceil, e) ||
	    onnx_attr_int(im->g, k, "storage_order", 0, &order, e) || auto_pad(im, k, &same, e))
		return -1;
	if (!onnx_attr(im->g->node[k], "kernel_shape"))
		return onnx_node_err(
		    im->g, k, e, "no attribute 'kernel_shape' (MaxPool needs the window's size)");
	if (dil != 1)
		return onnx_node_err(im->g, k, e, "dilations %lld: condnet pools without dilation",
		                     dil);
	if (kern != 2 || stride != 2 || pad || ceil || same)
		return onnx_node_err(
		    im->g, k, e,
		    "a pool of %lld×%lld windows, stride %lld, padding %lld%s: "
		    "condnet pools 2×2 windows of stride 2, unpadded, rounding down",
		    kern, kern, stride, pad, ceil ? ", ceil_mode" : "");
	ConvShape *c = &L->cs;
	if (c->h_conv < 2 || c->w_conv < 2)
		return onnx_node_err(im->g, k, e, "a 2×2 pool on %d×%d maps has no window",
		                     c->h_conv, c->w_conv);
	c->pool = 1;
	c->h_out = c->h_conv / 2;
	c->w_out = c->w_conv / 2;
	set_maps(im, c);
	return 0;
}

static int onnx_do_flatten_maps(Imp *im, int k, Err *e)
{
	OnnxNodeStr ns;
	long long axis;
	if (onnx_attr_int(im->g, k, "axis", 1, &axis, e))
		return -1;
	if (axis < 0)
		axis += 4;
	if (axis != 1)
		return onnx_node_err(im->g, k, e,
		                     "flattens maps from axis %lld; condnet reads axis 1 (batch, "
		                     "features)",
		                     axis);
	if (im->state != S_ACT)
		return onnx_node_err(
		    im->g, k, e, "follows the convolution of %s with no activation between them",
		    node_s(im, im->last, &ns));
	im->maps = 0;
	im->rank = 2;
	im->width = (long long)im->map_c * im->map_h * im->map_w;
	return 0;
}

static int onnx_do_reshape(Imp *im, int k, int slot, Err *e)
{
	long long d[ONNX_MAXDIMS];
	int nd = 0;
	if (slot != 0)
		return onnx_node_err(im->g, k, e, "the data is its shape");
	if (onnx_graph_int64s(&im->gr, im->g->node[k]->input[1], k, "its shape", d, &nd,
	                      ONNX_MAXDIMS, e))
		return -1;
	if (im->maps && im->state != S_START && nd == 2 && d[0] <= 0 &&
	    (d[1] == -1 || d[1] == (long long)im->map_c * im->map_h * im->map_w))
		return onnx_do_flatten_maps(im, k, e);
	long long width = im->width;
	for (int i = 0; i < nd; i++)
		if (d[i] < -1 || d[i] > LIMIT_MAX_WIDTH)
			return onnx_node_err(
			    im->g, k, e,
			    "shape value %lld at position %d, expected -1 (inferred), "
			    "0 (copied) or a size up to %d",
			    d[i], i + 1, LIMIT_MAX_WIDTH);
	if (im->state == S_START && !im->nlayers && nd == 4 && d[0] <= 0 && d[1] > 0 && d[2] > 0 &&
	    d[3] > 0 && d[2] <= LAYERS_MAX_SIDE && d[3] <= LAYERS_MAX_SIDE &&
	    d[1] * d[2] <= LIMIT_MAX_WIDTH && d[1] * d[2] * d[3] <= LIMIT_MAX_WIDTH &&
	    (width < 0 || d[1] * d[2] * d[3] == width)) {
		im->maps = 1;
		im->rank = 4;
		im->map_c = (int)d[1];
		im->map_h = (int)d[2];
		im->map_w = (int)d[3];
		im->width = d[1] * d[2] * d[3];
		return 0;
	}
	if (im->state == S_START && !im->maps && nd == 2 && d[0] <= 0 &&
	    (d[1] == -1 || d[1] == width))
		return 0;
	return onnx_node_err(im->g, k, e,
	                     "a reshape to %d dimensions that is not a flatten of maps, or the "
	                     "input into maps of (batch, channels, height, width)",
	                     nd);
}

int onnx_conv_node(Imp *im, int k, int slot, Err *e)
{
	const char *op = im->g->node[k]->op_type;
	if (im->state == S_SOFTMAX)
		return 1; /* onnx_do_node says what follows the Softmax */
	if (!strcmp(op, "Conv"))
		return onnx_do_conv(im, k, slot, e);
	if (!strcmp(op, "MaxPool"))
		return onnx_do_maxpool(im, k, e);
	if (!strcmp(op, "Reshape"))
		return onnx_do_reshape(im, k, slot, e);
	if (!strcmp(op, "Flatten") && im->maps && im->state != S_START)
		return onnx_do_flatten_maps(im, k, e);
	return 1;
}
