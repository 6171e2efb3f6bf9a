/* graph_resize.c - a graph network of other widths: every node's channel
 * count from its units' groups, the graph built again node by node, and
 * fresh weights. */
#include "engine/graph_resize.h"

#include <stdlib.h>

#include "engine/limits.h"

/* Each group's counts checked: 0, or -1 with a message. */
static int check_units(const ChannelGroups *gg, const int *units, Err *e)
{
	for (int q = 0; q < gg->n; q++) {
		const ChannelGroup *c = &gg->g[q];
		if (units[q] < 1)
			return err_set(e, "group %d: %d units, expected at least 1", q + 1,
			               units[q]);
		if (units[q] != c->units && c->free < c->units)
			return err_set(e, "group %d keeps its %d units (%s), not %d", q + 1,
			               c->units, graph_group_fixed_str(c->fixed), units[q]);
	}
	return 0;
}

/* Node k's channels when the groups have units[]: those of fixed units or
 * of no group as they are, each group's c_q of u_q units as c_q/u_q·u'_q.
 * cnt is gg->n zeros on entry and on return. -1 when a group's channels
 * are not a multiple of its units in the node (not of one such graph). */
static long long new_channels(const Graph *g, const ChannelGroups *gg, const int *units, int k,
                              int *cnt)
{
	long long c = 0;
	int bad = 0;
	for (int j = 0; j < g->node[k].c; j++) {
		int u = graph_unit(gg, k, j), q = gg->unit_group[u];
		if (q < 0 || units[q] == gg->g[q].units)
			c++;
		else
			cnt[q]++;
	}
	for (int j = 0; j < g->node[k].c; j++) {
		int q = gg->unit_group[graph_unit(gg, k, j)];
		if (q < 0 || !cnt[q])
			continue;
		if (cnt[q] % gg->g[q].units)
			bad = 1;
		c += (long long)cnt[q] / gg->g[q].units * units[q];
		cnt[q] = 0;
	}
	return bad ? -1 : c;
}

/* The graph of g with every node's channels new_channels': NULL with a
 * message. */
static Graph *resized_graph(const Graph *g, const ChannelGroups *gg, const int *units, Err *e)
{
	int *cnt = calloc((size_t)(gg->n ? gg->n : 1), sizeof *cnt);
	long long *nc = malloc((size_t)g->n * sizeof *nc);
	Graph *ng = NULL;
	if (!cnt || !nc) {
		err_set(e, "out of memory for a graph's channels");
		goto out;
	}
	for (int k = 0; k < g->n; k++)
		if ((nc[k] = new_channels(g, gg, units, k, cnt)) < 0) {
			char b[160];
			err_set(e, "%s: its channels are not a multiple of its groups' units",
			        graph_node_str(g, k, b, sizeof b));
			goto out;
		}
	const GraphNode *i0 = &g->node[0];
	if (!(ng = graph_new(i0->rank, i0->c, i0->h, i0->w, e)))
		goto out;
	ng->softmax = g->softmax;
	for (int k = 1; k < g->n; k++) {
		GraphNode p = g->node[k];
		int in = graph_in(g, k)[0];
		if (p.op == GRAPH_CONV && graph_depthwise(g, k))
			p.group = (int)nc[in];
		if (p.op == GRAPH_CONV || p.op == GRAPH_GEMM || p.op == GRAPH_RESHAPE)
			p.c = (int)(nc[k] < 1 || nc[k] > LIMIT_MAX_WIDTH ? 0 : nc[k]);
		if (graph_add(ng, &p, graph_in(g, k), g->node[k].nin, e) != k) {
			char b[160];
			err_prefix(e, "%s with %lld channels", graph_node_str(g, k, b, sizeof b),
			           nc[k]);
			graph_free(ng);
			ng = NULL;
			goto out;
		}
	}
out:
	free(cnt);
	free(nc);
	return ng;
}

Net *graph_net_resize(const Net *net, const ChannelGroups *gg, const int *units, uint64_t seed,
                      Err *e)
{
	if (!net->graph)
		return err_set(e, "a network resized by its channel groups is a graph"), NULL;
	if (check_units(gg, units, e))
		return NULL;
	Graph *ng = resized_graph(net->graph, gg, units, e);
	if (!ng)
		return NULL;
	Net *out = net_new_graph(ng, e); /* takes ng */
	if (!out)
		return NULL;
	Rng r;
	rng_seed(&r, seed);
	net_init_glorot(out, &r);
	if (net->prep && !(out->prep = prep_clone(net->prep, e))) {
		net_free(out);
		return NULL;
	}
	return out;
}
