/* onnx_gimp.c - the state of an import into a graph network (onnx_gimp.h):
 * the graph node each ONNX node's output is, and the nodes added with their
 * parameters in double. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/onnx_gimp.h"

const char *gimp_node_s(const GImp *im, int k, OnnxNodeStr *buf)
{
	*buf = onnx_node_str(im->g, k);
	return buf->s;
}

int gimp_value(GImp *im, int k, int j, const char *what, Err *e)
{
	const Onnx__NodeProto *n = im->g->node[k];
	const char *name = j < (int)n->n_input ? n->input[j] : "";
	if (!name[0])
		return onnx_node_err(im->g, k, e, "%s (input %d) is left out", what, j + 1);
	if (onnx_graph_is_const(&im->gr, name))
		return onnx_node_err(im->g, k, e,
		                     "%s '%s' is a constant; condnet reads there what the graph "
		                     "computes from its input",
		                     what, onnx_name(name).s);
	const OnnxDef *d = onnx_graph_def(&im->gr, name);
	if (d->kind == DEF_INPUT)
		return 0; /* the data input (the others are refused before) */
	return im->val[d->idx];
}

void gimp_alias(GImp *im, int k, int v)
{
	im->val[k] = v;
}

int gimp_push(GImp *im, int k, const GraphNode *proto, const int *in, int nin, double *par, Err *e)
{
	Graph *g = im->graph;
	if (g->n >= im->cap) {
		int cap = im->cap ? 2 * im->cap : 64;
		double **p = realloc(im->par, (size_t)cap * sizeof *p);
		if (p)
			im->par = p;
		int *f = p ? realloc(im->from, (size_t)cap * sizeof *f) : NULL;
		if (!f) {
			free(par);
			return onnx_node_err(im->g, k, e, "out of memory");
		}
		im->from = f;
		for (int i = im->cap; i < cap; i++)
			im->par[i] = NULL, im->from[i] = -1;
		im->cap = cap;
	}
	GraphNode p = *proto;
	const char *name = im->g->node[k]->name ? im->g->node[k]->name : "";
	OnnxName nm = onnx_name(name);
	memcpy(p.name, nm.s, sizeof p.name - 1);
	p.name[sizeof p.name - 1] = '\0';
	Err ge;
	int v = graph_add(g, &p, in, nin, &ge);
	if (v < 0) {
		free(par);
		return onnx_node_err(im->g, k, e, "%s", ge.msg);
	}
	im->par[v] = par;
	im->from[v] = k;
	im->val[k] = v;
	im->nodes = v + 1;
	return v;
}
