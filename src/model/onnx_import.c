/* onnx_import.c - an ONNX model into a Net: the graph's one chain from its
 * input to its output, walked node by node (each node's meaning is read in
 * onnx_nodes.c) into dense layers, one activation and an optional final
 * Softmax (the grammar is in onnx_io.h). */
#include "model/onnx_io.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/prep_text.h"
#include "engine/limits.h"
#include "engine/train.h"
#include "model/onnx_int.h"
#include "model/onnx_nodes.h"

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
		int rc = onnx_conv_node(im, k, slot, e);
		if (rc < 0 || (rc > 0 && onnx_do_node(im, k, slot, e)))
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
	    onnx_value_shape(g->output[0], "output", &out_rank, &out_width, e) ||
	    (im->rank == 4 && onnx_input_maps(im, g->input[in], e)))
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
	if (im->maps)
		return onnx_node_err(g, im->last, e,
		                     "the graph ends in maps, not in a dense layer's outputs "
		                     "(condnet's last layer is dense)");
	if (im->state == S_ACT && onnx_push_identity(im, im->last, e))
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
	int m = im->nlayers, *widths = malloc(((size_t)m + 1) * sizeof *widths);
	if (!widths) {
		err_set(e, "out of memory");
		return NULL;
	}
	ConvShape *cs = malloc(((size_t)m + 1) * sizeof *cs);
	int nconv = 0;
	if (!cs) {
		free(widths);
		err_set(e, "out of memory");
		return NULL;
	}
	while (nconv < m && im->layers[nconv].conv) {
		cs[nconv] = im->layers[nconv].cs;
		nconv++;
	}
	widths[0] = nconv ? cs[0].c_in * cs[0].h_in * cs[0].w_in : im->layers[0].in;
	for (int k = 0; k < m; k++)
		widths[k + 1] = k < nconv ? (int)layers_out_width(&cs[k]) : im->layers[k].out;
	ActKind act = im->act >= 0 ? (ActKind)im->act : ACT_ERF;
	/* the scale and the widths within the table of limits, as any model's */
	if (im->act == ACT_ERF &&
	    limit_check(LIM_ACT_SCALE, im->act_a, "the erf scale (the Mul before Erf)", NULL, e)) {
		free(widths);
		free(cs);
		return NULL;
	}
	float a = im->act == ACT_ERF ? (float)im->act_a : 1.0f;
	Net *net = net_new_conv(m, widths, nconv, cs, act, a, e);
	free(widths);
	free(cs);
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

/* The chain of the unpacked model m as a Net. */
static Net *import_chain(const Onnx__ModelProto *m, OnnxInfo *info, Err *e)
{
	Imp *im = NULL;
	Net *net = NULL;
	long opset;
	if (!m->graph) {
		err_set(e, "the model has no graph");
		return NULL;
	}
	if (!(im = calloc(1, sizeof *im)) || !(im->visited = calloc(m->graph->n_node + 1, 1))) {
		err_set(e, "out of memory");
		goto out;
	}
	im->g = m->graph;
	if (onnx_graph_init(&im->gr, m->graph, 0, 0, e) || onnx_check_attrs(m->graph, e))
		goto out;
	if ((opset = onnx_default_opset(m, e)) < 0 ||
	    (im->gr.opset = opset, read_graph(im, m->graph, e))) {
		name_node(im, e);
		goto out;
	}
	if ((net = make_net(im, e)) && onnx_model_prep(net, m, e) < 0) {
		net_free(net);
		net = NULL;
	}
	if (net && info)
		onnx_model_info(info, m, opset, im->softmax, im->identity, 0);
out:
	if (im) {
		for (int k = 0; k < im->nlayers; k++) {
			free(im->layers[k].W);
			free(im->layers[k].b);
		}
		free(im->layers);
		onnx_graph_free(&im->gr);
		free(im->visited);
		free(im);
	}
	return net;
}

/* The model in buf: its chain (any = 0), or its chain when it is one and
 * else its graph (any = 1). */
static Net *import_mem(const void *buf, size_t len, const char *name, OnnxInfo *info, int any,
                       Err *e)
{
	Onnx__ModelProto *m =
	    (Onnx__ModelProto *)onnx_unpack(&onnx__model_proto__descriptor, buf, len, e);
	Net *net = NULL;
	if (m) {
		Err chain = {{0}};
		net = import_chain(m, info, any ? &chain : e);
		if (!net && any && m->graph)
			net = onnx_gimport(m, info, e);
		else if (!net && any && e)
			*e = chain;
		protobuf_c_message_free_unpacked(&m->base, NULL);
	}
	if (!net)
		err_prefix(e, "%s", name);
	return net;
}

Net *onnx_import_mem(const void *buf, size_t len, const char *name, OnnxInfo *info, Err *e)
{
	return import_mem(buf, len, name, info, 0, e);
}

Net *onnx_import_any_mem(const void *buf, size_t len, const char *name, OnnxInfo *info, Err *e)
{
	return import_mem(buf, len, name, info, 1, e);
}

static Net *import_file(const char *path, OnnxInfo *info, int any, Err *e)
{
	uint8_t *buf;
	size_t len;
	if (onnx_read_file(path, &buf, &len, e))
		return NULL;
	Net *net = import_mem(buf, len, path, info, any, e);
	free(buf);
	return net;
}

Net *onnx_import_any(const char *path, OnnxInfo *info, Err *e)
{
	return import_file(path, info, 1, e);
}

Net *onnx_import(const char *path, OnnxInfo *info, Err *e)
{
	return import_file(path, info, 0, e);
}
