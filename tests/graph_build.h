/* graph_build.h - the unit tests' way of building a graph network by hand
 * (engine/graph.h): a node added, the test failing with the message when it
 * cannot be; a convolution's and an operator's node; a head of three
 * classes; random parameters and random rows. */
#ifndef CONDNET_TESTS_GRAPH_BUILD_H
#define CONDNET_TESTS_GRAPH_BUILD_H

#include <check.h>

#include "base/rng.h"
#include "data/dataset.h"
#include "engine/graph.h"
#include "engine/net.h"

/* p reading node a, and b unless it is negative: the new node's index. */
static inline int gb_add(Graph *g, GraphNode p, int a, int b)
{
	int in[2] = {a, b};
	Err e;
	int k = graph_add(g, &p, in, b < 0 ? 1 : 2, &e);
	ck_assert_msg(k > 0, "%s", e.msg);
	return k;
}

/* A Conv of c channels, a k×k window of stride s padded by pad on every
 * side, in group groups. */
static inline GraphNode gb_conv(int c, int k, int s, int pad, int group)
{
	return (GraphNode){.op = GRAPH_CONV,
	                   .c = c,
	                   .group = group,
	                   .win = {k, k, s, s, 1, 1, pad, pad, pad, pad, 0, 0}};
}

static inline GraphNode gb_op(GraphOp o)
{
	return (GraphNode){.op = o};
}

/* Global average, Flatten and a Gemm to 3 classes after node k. */
static inline void gb_head_gap(Graph *g, int k)
{
	int p = gb_add(g, gb_op(GRAPH_GLOBALAVG), k, -1);
	int f = gb_add(
	    g, (GraphNode){.op = GRAPH_RESHAPE, .rank = 2, .c = g->node[p].c, .h = 1, .w = 1}, p,
	    -1);
	gb_add(g, (GraphNode){.op = GRAPH_GEMM, .c = 3}, f, -1);
}

/* The network of g with parameters uniform in ±0.5 (an Affine's scale near 1). */
static inline Net *gb_random_net(Graph *g, uint64_t seed)
{
	Err e;
	Net *net = net_new_graph(g, &e);
	ck_assert_msg(net != NULL, "%s", e.msg);
	Rng r;
	rng_seed(&r, seed);
	for (size_t i = 0; i < net->nparam; i++)
		net->param[i] = (float)(rng_uniform(&r) - 0.5);
	for (int k = 1; k < net->graph->n; k++) {
		const GraphNode *n = &net->graph->node[k];
		for (int c = 0; n->op == GRAPH_AFFINE && c < n->c; c++)
			net->param[n->off + c] += 1.0f;
	}
	return net;
}

/* n rows of dim values uniform in ±1, labels 0, 1, 2 in turn. */
static inline Dataset *gb_random_rows(int n, int dim, uint64_t seed)
{
	Err e;
	Dataset *d = dataset_new(n, dim, 3, &e);
	ck_assert_msg(d != NULL, "%s", e.msg);
	Rng r;
	rng_seed(&r, seed);
	for (size_t i = 0; i < (size_t)n * dim; i++)
		d->x[i] = (float)(2.0 * rng_uniform(&r) - 1.0);
	for (int i = 0; i < n; i++)
		d->y[i] = i % 3;
	return d;
}

#endif
