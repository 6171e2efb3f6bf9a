/* graph_groups.c - the channel groups of a graph network: its nodes'
 * channels tied into units by a union-find, the units' producer layers
 * bound into groups by a second one. */
#include "engine/graph_groups.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The most channels of all the nodes together that are tied (4 bytes and
 * a flag each). */
#define GROUPS_MAX_CHANNELS (1u << 27)

typedef struct Tie {
	uint32_t *up;       /* a channel's parent; a root is its own */
	unsigned char *why; /* GroupFixed of a channel, then of its root */
	size_t *base;       /* node k's channel j is base[k] + j */
} Tie;

const char *graph_group_fixed_str(GroupFixed f)
{
	switch (f) {
	case GROUP_INPUT:
		return "the network's inputs";
	case GROUP_LOGITS:
		return "the logits";
	case GROUP_GROUPED:
		return "a grouped convolution reads or gives them";
	case GROUP_RESHAPE:
		return "a Reshape moves them";
	default:
		return "";
	}
}

static uint32_t find(uint32_t *up, uint32_t x)
{
	while (up[x] != x) {
		up[x] = up[up[x]]; /* path halving */
		x = up[x];
	}
	return x;
}

/* The earlier root becomes the root of both. */
static void join(uint32_t *up, uint32_t a, uint32_t b)
{
	a = find(up, a);
	b = find(up, b);
	if (a < b)
		up[b] = a;
	else if (b < a)
		up[a] = b;
}

static void fix(Tie *t, const GraphNode *n, int k, GroupFixed why)
{
	for (int j = 0; j < n->c; j++)
		if (!t->why[t->base[k] + j])
			t->why[t->base[k] + j] = (unsigned char)why;
}

/* Node k's channels tied to those of its inputs, by its operator. */
static void tie_node(Tie *t, const Graph *g, int k)
{
	const GraphNode *n = &g->node[k];
	const int *in = graph_in(g, k);
	size_t o = t->base[k];
	switch (n->op) {
	case GRAPH_INPUT:
		fix(t, n, k, GROUP_INPUT);
		return;
	case GRAPH_GEMM:
		return;
	case GRAPH_CONV: {
		const GraphNode *a = &g->node[in[0]];
		if (n->group == 1)
			return;
		if (!graph_depthwise(g, k)) { /* grouped: its channels stay */
			fix(t, a, in[0], GROUP_GROUPED);
			fix(t, n, k, GROUP_GROUPED);
			return;
		}
		int m = n->c / n->group; /* depthwise: channel j gives j·m … */
		for (int j = 0; j < n->c; j++)
			join(t->up, (uint32_t)(o + (size_t)j),
			     (uint32_t)(t->base[in[0]] + (size_t)(j / m)));
		return;
	}
	case GRAPH_CONCAT:
		for (int i = 0; i < n->nin; i++) {
			const GraphNode *a = &g->node[in[i]];
			for (int j = 0; j < a->c; j++)
				join(t->up, (uint32_t)(o + (size_t)j),
				     (uint32_t)(t->base[in[i]] + (size_t)j));
			o += (size_t)a->c;
		}
		return;
	case GRAPH_RESHAPE: {
		const GraphNode *a = &g->node[in[0]];
		size_t hw = (size_t)a->h * (size_t)a->w;
		if (n->rank == 2 && (size_t)n->c == (size_t)a->c * hw) { /* a Flatten */
			for (size_t j = 0; j < (size_t)n->c; j++)
				join(t->up, (uint32_t)(o + j), (uint32_t)(t->base[in[0]] + j / hw));
			return;
		}
		if (n->c == a->c && (size_t)n->h * (size_t)n->w == hw) {
			for (int j = 0; j < n->c; j++)
				join(t->up, (uint32_t)(o + (size_t)j),
				     (uint32_t)(t->base[in[0]] + (size_t)j));
			return;
		}
		fix(t, a, in[0], GROUP_RESHAPE);
		fix(t, n, k, GROUP_RESHAPE);
		return;
	}
	default: /* Add, Affine, the pools and the activations: channel j is j */
		for (int i = 0; i < n->nin; i++)
			for (int j = 0; j < n->c; j++)
				join(t->up, (uint32_t)(o + (size_t)j),
				     (uint32_t)(t->base[in[i]] + (size_t)j));
		return;
	}
}

static int is_layer(const GraphNode *n)
{
	return n->op == GRAPH_CONV || n->op == GRAPH_GEMM;
}

static int push(int **v, int *n, int x, Err *e)
{
	int *p = realloc(*v, (size_t)(*n + 1) * sizeof *p);
	if (!p)
		return err_set(e, "out of memory for the channel groups");
	p[(*n)++] = x;
	*v = p;
	return 0;
}

/* The producer layers of each unit bound by the second union-find (over
 * layers, in lup), owner[root] the first layer that produces the unit. */
static void bind_layers(const Graph *g, Tie *t, int *owner, uint32_t *lup)
{
	for (int k = 1, l = 0; k < g->n; k++) {
		if (!is_layer(&g->node[k]))
			continue;
		for (int j = 0; j < g->node[k].c; j++) {
			uint32_t r = find(t->up, (uint32_t)(t->base[k] + (size_t)j));
			if (owner[r] < 0)
				owner[r] = l;
			else
				join(lup, (uint32_t)owner[r], (uint32_t)l);
		}
		l++;
	}
}

/* Each group's units, the free ones, why the others are fixed. */
static void count_units(const Tie *t, size_t total, const int *owner, ChannelGroups *gg)
{
	for (size_t x = 0; x < total; x++) {
		if (t->up[x] != x || owner[x] < 0)
			continue;
		ChannelGroup *c = &gg->g[gg->of_layer[owner[x]]];
		c->units++;
		if (!t->why[x])
			c->free++;
		else if (!c->fixed)
			c->fixed = (GroupFixed)t->why[x];
	}
}

/* The group of node k's channel j, or -1 for one no layer produces. */
static int group_of(const Tie *t, const int *owner, const ChannelGroups *gg, int k, int j)
{
	int o = owner[find(t->up, (uint32_t)(t->base[k] + (size_t)j))];
	return o < 0 ? -1 : gg->of_layer[o];
}

/* The Add nodes, depthwise Convs and Concats each group's channels meet. */
static void ties(const Graph *g, const Tie *t, const int *owner, ChannelGroups *gg)
{
	for (int k = 1; k < g->n; k++) {
		const GraphNode *n = &g->node[k];
		const int *in = graph_in(g, k);
		int q = group_of(t, owner, gg, k, 0);
		if (q >= 0 && n->op == GRAPH_ADD)
			gg->g[q].adds++;
		if (q >= 0 && graph_depthwise(g, k))
			gg->g[q].depthwise++;
		for (int i = 0; n->op == GRAPH_CONCAT && i < n->nin; i++)
			if ((q = group_of(t, owner, gg, in[i], 0)) >= 0)
				gg->g[q].concats++;
	}
}

/* The layers that read each group's channels and produce none of them. */
static int readers(const Graph *g, const Tie *t, const int *owner, ChannelGroups *gg, Err *e)
{
	for (int k = 1, layer = 0; k < g->n; k++) {
		if (!is_layer(&g->node[k]))
			continue;
		layer++; /* this node's layer, from 1 */
		int in = graph_in(g, k)[0], mine = gg->of_layer[layer - 1];
		for (int j = 0; j < g->node[in].c; j++) {
			int q = group_of(t, owner, gg, in, j);
			if (q < 0 || q == mine)
				continue;
			ChannelGroup *c = &gg->g[q];
			if ((c->nread == 0 || c->read[c->nread - 1] != layer) &&
			    push(&c->read, &c->nread, layer, e))
				return -1;
		}
	}
	return 0;
}

/* The groups from the layers' union-find: numbered by their first layer. */
static int make_groups(ChannelGroups *gg, uint32_t *lup, Err *e)
{
	int L = gg->nlayers;
	for (int l = 0; l < L; l++) {
		uint32_t r = find(lup, (uint32_t)l);
		if (r == (uint32_t)l) {
			ChannelGroup *p = realloc(gg->g, (size_t)(gg->n + 1) * sizeof *p);
			if (!p)
				return err_set(e, "out of memory for the channel groups");
			gg->g = p;
			memset(&gg->g[gg->n], 0, sizeof *p);
			gg->of_layer[l] = gg->n++;
		} else {
			gg->of_layer[l] = gg->of_layer[r];
		}
		ChannelGroup *c = &gg->g[gg->of_layer[l]];
		if (push(&c->layer, &c->nlayer, l + 1, e))
			return -1;
	}
	return 0;
}

static int tie_all(const Graph *g, Tie *t, size_t *total, Err *e)
{
	t->base = malloc((size_t)g->n * sizeof *t->base);
	if (!t->base)
		return err_set(e, "out of memory for the channel groups");
	size_t s = 0;
	for (int k = 0; k < g->n; k++) {
		t->base[k] = s;
		s += (size_t)g->node[k].c;
		if (s > GROUPS_MAX_CHANNELS)
			return err_set(
			    e,
			    "a graph of more than %u channels in all: its channel groups "
			    "are not worked out",
			    GROUPS_MAX_CHANNELS);
	}
	t->up = malloc((s ? s : 1) * sizeof *t->up);
	t->why = calloc(s ? s : 1, 1);
	if (!t->up || !t->why)
		return err_set(e, "out of memory for the channel groups of %zu channels", s);
	for (size_t x = 0; x < s; x++)
		t->up[x] = (uint32_t)x;
	for (int k = 0; k < g->n; k++)
		tie_node(t, g, k);
	fix(t, &g->node[g->n - 1], g->n - 1, GROUP_LOGITS);
	for (size_t x = 0; x < s; x++) { /* each root: the first reason met */
		uint32_t r = find(t->up, (uint32_t)x);
		if (t->why[x] && !t->why[r])
			t->why[r] = t->why[x];
	}
	*total = s;
	return 0;
}

/* The units numbered in the order of their first channels, each with its
 * group and why it is fixed; the channels' table of units (t->base taken). */
static int number_units(Tie *t, size_t total, const int *owner, ChannelGroups *gg, Err *e)
{
	gg->unit = malloc((total ? total : 1) * sizeof *gg->unit);
	if (!gg->unit)
		return err_set(e, "out of memory for the channel groups");
	int n = 0;
	for (size_t x = 0; x < total; x++)
		n += t->up[x] == x;
	gg->unit_group = malloc((size_t)(n ? n : 1) * sizeof *gg->unit_group);
	gg->unit_fixed = malloc((size_t)(n ? n : 1));
	if (!gg->unit_group || !gg->unit_fixed)
		return err_set(e, "out of memory for the channel groups");
	for (size_t x = 0; x < total; x++) { /* a root comes before its channels */
		uint32_t r = find(t->up, (uint32_t)x);
		if (r == x) {
			gg->unit_group[gg->nunits] = owner[x] < 0 ? -1 : gg->of_layer[owner[x]];
			gg->unit_fixed[gg->nunits] = t->why[x];
			gg->unit[x] = gg->nunits++;
		} else {
			gg->unit[x] = gg->unit[r];
		}
	}
	gg->base = t->base;
	t->base = NULL;
	return 0;
}

ChannelGroups *graph_groups(const Graph *g, Err *e)
{
	Tie t = {0};
	size_t total = 0;
	int L = graph_nlayers(g);
	ChannelGroups *gg = calloc(1, sizeof *gg);
	int *owner = NULL;
	uint32_t *lup = NULL;
	if (!gg) {
		err_set(e, "out of memory for the channel groups");
		goto fail;
	}
	gg->nlayers = L;
	if (tie_all(g, &t, &total, e))
		goto fail;
	owner = malloc((total ? total : 1) * sizeof *owner);
	lup = malloc((size_t)(L ? L : 1) * sizeof *lup);
	gg->of_layer = malloc((size_t)(L ? L : 1) * sizeof *gg->of_layer);
	if (!owner || !lup || !gg->of_layer) {
		err_set(e, "out of memory for the channel groups");
		goto fail;
	}
	for (size_t x = 0; x < total; x++)
		owner[x] = -1;
	for (int l = 0; l < L; l++)
		lup[l] = (uint32_t)l;
	bind_layers(g, &t, owner, lup);
	if (make_groups(gg, lup, e))
		goto fail;
	count_units(&t, total, owner, gg);
	ties(g, &t, owner, gg);
	if (readers(g, &t, owner, gg, e) || number_units(&t, total, owner, gg, e))
		goto fail;
	free(t.up), free(t.why), free(owner), free(lup);
	return gg;
fail:
	free(t.up), free(t.why), free(t.base), free(owner), free(lup);
	graph_groups_free(gg);
	return NULL;
}

void graph_groups_free(ChannelGroups *gg)
{
	if (!gg)
		return;
	for (int i = 0; i < gg->n; i++)
		free(gg->g[i].layer), free(gg->g[i].read);
	free(gg->g);
	free(gg->of_layer);
	free(gg->unit_group);
	free(gg->unit_fixed);
	free(gg->base);
	free(gg->unit);
	free(gg);
}
