/* onnx_gimport.c - an ONNX model into a graph network: its data input as
 * the graph's input, its nodes in their (topological) order, each read by
 * onnx_gnodes.c into graph nodes, its output as the logits (a final Softmax
 * noted), every graph node on the path to the output; then the network and
 * its parameters (the grammar is in onnx_io.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/limits.h"
#include "engine/net.h"
#include "model/onnx_gimp.h"
#include "model/onnx_io.h"

/* The data input's shape into the graph's first node: (N, C, H, W) or
 * (N, F), every size but N fixed and each checked before any product. */
static int read_input(GImp *im, const Onnx__ValueInfoProto *v, Err *e)
{
	char tb[32];
	const char *name = onnx_name(v->name).s;
	const Onnx__TypeProto *tp = v->type;
	if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type ||
	    !tp->tensor_type->shape)
		return err_set(e, "input '%s' has no shape (a graph reads fixed sizes)", name);
	const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
	if (tt->has_elem_type && tt->elem_type != ONNX_FLOAT && tt->elem_type != ONNX_DOUBLE)
		return err_set(e, "input '%s' holds %s, expected FLOAT (1) or DOUBLE (11)", name,
		               onnx_type_name(tt->elem_type, tb));
	size_t rank = tt->shape->n_dim;
	if (rank != 2 && rank != 4)
		return err_set(
		    e,
		    "input '%s' has %zu dimensions, expected (batch, features) or (batch, "
		    "channels, height, width)",
		    name, rank);
	long long d[4] = {1, 1, 1, 1};
	for (size_t i = 1; i < rank; i++) {
		const Onnx__TensorShapeProto__Dimension *dim = tt->shape->dim[i];
		if (dim->value_case != ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE)
			return err_set(e, "input '%s': dimension %zu is not fixed", name, i);
		d[i] = (long long)dim->dim_value;
		if (d[i] < 1)
			return err_set(e, "input '%s': dimension %zu is %lld, expected >= 1", name,
			               i, d[i]);
	}
	Err ge;
	if (!(im->graph = graph_new((int)rank, d[1], d[2], d[3], &ge)))
		return err_set(e, "input '%s': %s", name, ge.msg);
	return 0;
}

/* The one graph input that is not an initializer, read; the graph's one
 * output, and the node that computes it. */
static int read_io(GImp *im, Err *e)
{
	const Onnx__GraphProto *g = im->g;
	int found = -1;
	for (size_t i = 0; i < g->n_input; i++) {
		const OnnxDef *d = onnx_graph_def(&im->gr, g->input[i]->name);
		if (d->kind != DEF_INPUT)
			continue;
		if (found >= 0)
			return err_set(e, "graph inputs '%s' and '%s': condnet reads one, the data",
			               onnx_name(g->input[found]->name).s,
			               onnx_name(g->input[i]->name).s);
		found = (int)i;
	}
	if (found < 0)
		return err_set(e, "the graph has no input besides its initializers");
	if (g->n_output != 1)
		return err_set(e, "the graph has %zu outputs, expected one", g->n_output);
	const char *out = g->output[0]->name;
	const OnnxDef *o = out && out[0] ? onnx_graph_def(&im->gr, out) : NULL;
	if (!o || o->kind != DEF_NODE)
		return err_set(e, "the graph's output '%s' is computed by no node",
		               onnx_name(out ? out : "").s);
	im->output = o->idx;
	return read_input(im, g->input[found], e);
}

/* Every graph node leads to the output (the last); the output's declared
 * shape is what the graph computes. */
static int check_output(GImp *im, Err *e)
{
	const Onnx__GraphProto *g = im->g;
	Graph *gr = im->graph;
	int o = im->val[im->output];
	OnnxNodeStr ns;
	if (o < 1)
		return onnx_node_err(g, im->output, e, "the graph's output is its input");
	unsigned char *on = calloc((size_t)gr->n, 1);
	if (!on)
		return err_set(e, "out of memory");
	on[o] = 1;
	for (int v = o; v >= 1; v--)
		for (int i = 0; on[v] && i < gr->node[v].nin; i++)
			on[graph_in(gr, v)[i]] = 1;
	int stray = -1;
	for (int v = gr->n - 1; v >= 1; v--)
		if (!on[v])
			stray = v;
	free(on);
	if (stray > 0)
		return err_set(e, "%s is not on the path from the input '%s' to the output '%s'",
		               gimp_node_s(im, im->from[stray], &ns),
		               onnx_name(g->input[0]->name).s, onnx_name(g->output[0]->name).s);
	int rank;
	long long width;
	const GraphNode *last = &gr->node[o];
	if (last->rank != 2)
		return onnx_node_err(g, im->output, e,
		                     "the graph ends in maps of %d×%d×%d, not in (batch, classes): "
		                     "a Flatten or a dense layer comes last",
		                     last->c, last->h, last->w);
	if (onnx_value_shape(g->output[0], "output", &rank, &width, e))
		return -1;
	if (rank != last->rank)
		return onnx_node_err(
		    g, im->output, e,
		    "output '%s' is declared with %d dimensions, the graph computes "
		    "%d",
		    onnx_name(g->output[0]->name).s, rank, last->rank);
	if (width >= 0 && width != (long long)graph_size(last))
		return onnx_node_err(g, im->output, e,
		                     "output '%s' is declared with %lld features, the graph "
		                     "computes %zu",
		                     onnx_name(g->output[0]->name).s, width, graph_size(last));
	return 0;
}

/* The network: the graph and its parameters as float32. */
static Net *make_net(GImp *im, Err *e)
{
	Graph *g = im->graph;
	for (int v = 1; v < g->n; v++)
		for (size_t i = 0; im->par[v] && i < g->node[v].nparam; i++)
			if (fabs(im->par[v][i]) > FLT_MAX) {
				OnnxNodeStr ns;
				err_set(e, "%s: parameter %zu is %g, beyond float32",
				        gimp_node_s(im, im->from[v], &ns), i, im->par[v][i]);
				return NULL;
			}
	im->graph = NULL;
	Net *net = net_new_graph(g, e);
	for (int v = 1; net && v < g->n; v++)
		for (size_t i = 0; im->par[v] && i < g->node[v].nparam; i++)
			net->param[g->node[v].off + i] = (float)im->par[v][i];
	return net;
}

/* A message about the whole graph names the node reading the data. */
static void name_node(GImp *im, Err *e)
{
	if (!e || strstr(e->msg, "node ") || !im->g->n_node)
		return;
	int k = 0;
	for (size_t i = 0; i < im->g->n_input; i++) {
		const OnnxDef *d = onnx_graph_def(&im->gr, im->g->input[i]->name);
		if (d && d->kind == DEF_INPUT && d->nuse) {
			k = d->user[0];
			break;
		}
	}
	OnnxNodeStr ns;
	err_prefix(e, "%s", gimp_node_s(im, k, &ns));
}

static Net *walk(GImp *im, const Onnx__ModelProto *m, OnnxInfo *info, Err *e)
{
	long opset;
	if (onnx_graph_init(&im->gr, im->g, 0, 1, e) || onnx_check_attrs(im->g, e) ||
	    (opset = onnx_default_opset(m, e)) < 0)
		return NULL;
	im->gr.opset = opset;
	if (read_io(im, e)) {
		name_node(im, e);
		return NULL;
	}
	for (size_t k = 0; k < im->g->n_node; k++)
		if (gimp_node(im, (int)k, e))
			return NULL;
	if (check_output(im, e))
		return NULL;
	im->graph->softmax = im->softmax;
	Net *net = make_net(im, e);
	if (net && onnx_model_prep(net, m, e) < 0) {
		net_free(net);
		return NULL;
	}
	if (net && info)
		onnx_model_info(info, m, opset, im->softmax, 0, 1);
	return net;
}

Net *onnx_gimport(const Onnx__ModelProto *m, OnnxInfo *info, Err *e)
{
	GImp *im = calloc(1, sizeof *im);
	Net *net = NULL;
	if (!im || !(im->val = malloc((m->graph->n_node + 1) * sizeof *im->val))) {
		err_set(e, "out of memory");
		goto out;
	}
	for (size_t k = 0; k <= m->graph->n_node; k++)
		im->val[k] = -1;
	im->g = m->graph;
	net = walk(im, m, info, e);
out:
	if (im) {
		for (int v = 0; v < im->nodes; v++)
			free(im->par[v]);
		graph_free(im->graph);
		free(im->par);
		free(im->from);
		free(im->val);
		onnx_graph_free(&im->gr);
		free(im);
	}
	return net;
}
