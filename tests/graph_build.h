/* graph_build.h - the unit tests' way of building a graph network by hand
 * (engine/graph.h): a node added, the test failing with the message when it
 * cannot be; a convolution's and an operator's node. */
#ifndef CONDNET_TESTS_GRAPH_BUILD_H
#define CONDNET_TESTS_GRAPH_BUILD_H

#include <check.h>

#include "engine/graph.h"

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

#endif
