/* graph_edit.c - a graph network without some of its channel units: the
 * graph built again node by node with the channels left, and each node's
 * parameters copied over those channels. */
#include "engine/graph_edit.h"

#include <stdlib.h>
#include <string.h>

int graph_read_rows(const Graph *g, int k, int *per, int *nchan, int *src)
{
	const GraphNode *n = &g->node[k];
	int i = graph_in(g, k)[0];
	const GraphNode *a = &g->node[i];
	if (n->op == GRAPH_CONV) {
		if (n->group != 1)
			return -1;
		*per = n->win.kh * n->win.kw, *nchan = a->c, *src = i;
		return 0;
	}
	if (a->op == GRAPH_RESHAPE && a->rank == 2) { /* a Flatten of maps */
		int f = graph_in(g, i)[0];
		const GraphNode *m = &g->node[f];
		if ((size_t)a->c == graph_size(m)) {
			*per = m->h * m->w, *nchan = m->c, *src = f;
			return 0;
		}
	}
	*per = 1, *nchan = a->c, *src = i;
	return 0;
}

/* Each node's channels left, in order: keep[k][0..nkeep[k]). */
typedef struct Kept {
	int **keep;
	int *nkeep;
} Kept;

static void kept_free(Kept *kp, int n)
{
	for (int k = 0; kp->keep && k < n; k++)
		free(kp->keep[k]);
	free(kp->keep);
	free(kp->nkeep);
}

static int kept_of(const Graph *g, const ChannelGroups *gg, const unsigned char *drop, Kept *kp,
                   Err *e)
{
	kp->keep = calloc((size_t)g->n, sizeof *kp->keep);
	kp->nkeep = calloc((size_t)g->n, sizeof *kp->nkeep);
	if (!kp->keep || !kp->nkeep)
		return err_set(e, "out of memory for a graph's channels");
	for (int k = 0; k < g->n; k++) {
		const GraphNode *n = &g->node[k];
		if (!(kp->keep[k] = malloc((size_t)n->c * sizeof **kp->keep)))
			return err_set(e, "out of memory for a graph's channels");
		for (int j = 0; j < n->c; j++) {
			int u = graph_unit(gg, k, j);
			if (drop[u] && gg->unit_fixed[u]) {
				char b[160];
				return err_set(
				    e, "channel %d of %s cannot be removed: %s", j,
				    graph_node_str(g, k, b, sizeof b),
				    graph_group_fixed_str((GroupFixed)gg->unit_fixed[u]));
			}
			if (!drop[u])
				kp->keep[k][kp->nkeep[k]++] = j;
		}
		if (!kp->nkeep[k]) {
			char b[160];
			return err_set(e, "%s would be left with no channel",
			               graph_node_str(g, k, b, sizeof b));
		}
	}
	return 0;
}

/* Node k of g as it is added to the graph without the dropped channels. */
static GraphNode proto_of(const Graph *g, const Kept *kp, int k)
{
	GraphNode p = g->node[k];
	const int in = graph_in(g, k)[0];
	switch (p.op) {
	case GRAPH_CONV:
		if (graph_depthwise(g, k))
			p.group = kp->nkeep[in];
		p.c = kp->nkeep[k];
		break;
	case GRAPH_GEMM:
	case GRAPH_RESHAPE:
		p.c = kp->nkeep[k];
		break;
	default:
		break;
	}
	return p;
}

/* Node k's parameters at from (g's layout) into to (the new node's): the
 * columns of the channels kept, and for a layer the rows of its input's. */
static void copy_params(const Graph *g, const Kept *kp, int k, const float *from, float *to)
{
	const GraphNode *n = &g->node[k];
	const int *kk = kp->keep[k], nk = kp->nkeep[k];
	if (n->op == GRAPH_AFFINE) {
		for (int j = 0; j < nk; j++)
			to[j] = from[kk[j]], to[nk + j] = from[n->c + kk[j]];
		return;
	}
	if (n->op != GRAPH_CONV && n->op != GRAPH_GEMM)
		return;
	int per = graph_rows(g, k), nchan = 1, src = 0, cols = n->c;
	const int *rk = NULL;
	int nr = 1;
	if (graph_read_rows(g, k, &per, &nchan, &src) == 0)
		rk = kp->keep[src], nr = kp->nkeep[src];
	else
		nchan = 1; /* depthwise: its kh·kw rows are every channel's */
	size_t o = 0;
	for (int r = 0; r < nr; r++)
		for (int t = 0; t < per; t++, o++) {
			const float *row =
			    from + ((size_t)(rk ? rk[r] : 0) * per + (size_t)t) * cols;
			for (int j = 0; j < nk; j++)
				to[o * (size_t)nk + (size_t)j] = row[kk[j]];
		}
	const float *b = from + (size_t)graph_rows(g, k) * cols;
	for (int j = 0; j < nk; j++)
		to[o * (size_t)nk + (size_t)j] = b[kk[j]];
}

Net *graph_net_drop(const Net *net, const ChannelGroups *gg, const unsigned char *drop, Err *e)
{
	const Graph *g = net->graph;
	Kept kp = {0};
	Graph *ng = NULL;
	Net *out = NULL;
	if (kept_of(g, gg, drop, &kp, e))
		goto done;
	const GraphNode *i0 = &g->node[0];
	if (!(ng = graph_new(i0->rank, i0->c, i0->h, i0->w, e)))
		goto done;
	ng->softmax = g->softmax;
	for (int k = 1; k < g->n; k++) {
		GraphNode p = proto_of(g, &kp, k);
		if (graph_add(ng, &p, graph_in(g, k), g->node[k].nin, e) != k)
			goto done;
	}
	out = net_new_graph(ng, e); /* takes ng */
	ng = NULL;
	if (!out)
		goto done;
	for (int k = 1; k < g->n; k++)
		copy_params(g, &kp, k, net->param + g->node[k].off,
		            out->param + out->graph->node[k].off);
	if (net->prep && !(out->prep = prep_clone(net->prep, e))) {
		net_free(out);
		out = NULL;
	}
done:
	kept_free(&kp, g->n);
	graph_free(ng);
	return out;
}
