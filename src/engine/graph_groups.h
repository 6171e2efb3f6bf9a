/* graph_groups.h - the channel groups of a graph network: the channels that
 * can only be removed together.
 *
 * Every node's tensor has channels (a rank-2 node's features count as its
 * channels). A channel of one node is the same channel as one of another
 * when removing one removes the other:
 *   - an activation, a pool, a per-channel Affine or a Scale gives its
 *     input's channel j as its own channel j;
 *   - an Add's channel j is channel j of both its inputs: the layers that
 *     feed a residual Add lose the same channels;
 *   - a Concat's channel o + j is channel j of the input placed at offset o;
 *   - a depthwise Conv (as many groups as input channels) reads input
 *     channel j alone, and gives its channels j·m … j·m + m − 1 from it (m
 *     its multiplier): they go with the input channel, and so with the layer
 *     that produced it;
 *   - a Reshape that only drops a 1×1 map keeps every channel; a Flatten of
 *     c×h×w maps gives the h·w features c·h·w … of channel c.
 * A unit is a set of channels tied this way: removing it removes a column
 * of Ŵ from each Conv or Gemm layer that produces one of them (its
 * producers), and the rows that read them from each layer that reads one.
 * A unit is fixed (never removed) when it holds a channel of the network's
 * input or of its logits, or one that a grouped (not depthwise) Conv reads
 * or gives, or one a Reshape moves otherwise than above.
 *
 * A group is a set of producer layers bound by units: two layers are in one
 * group when some unit holds channels of both. Its size is the number of
 * units; each of its layers loses a column (a depthwise Conv m) per unit
 * removed. */
#ifndef CONDNET_GRAPH_GROUPS_H
#define CONDNET_GRAPH_GROUPS_H

#include "base/err.h"
#include "engine/graph.h"

/* Why a group's units are fixed. */
typedef enum GroupFixed {
	GROUP_FREE = 0,
	GROUP_INPUT,   /* they are the network's input channels */
	GROUP_LOGITS,  /* they are the logits */
	GROUP_GROUPED, /* a grouped Conv reads or gives them */
	GROUP_RESHAPE  /* a Reshape moves them */
} GroupFixed;

typedef struct ChannelGroup {
	int nlayer, *layer;  /* its producer layers (1-based, in the graph's order) */
	int nread, *read;    /* the layers that read its channels and produce none */
	int units, free;     /* its units, and those that may be removed */
	GroupFixed fixed;    /* why the others may not (the first reason met) */
	int adds, depthwise; /* the Add nodes and depthwise Convs that tie it */
	int concats;         /* the Concat nodes its channels enter */
} ChannelGroup;

typedef struct ChannelGroups {
	int n; /* groups, ordered by their first layer */
	ChannelGroup *g;
	int nlayers;
	int *of_layer; /* layer l's group (0-based), of_layer[l − 1] */
	/* the units: node k's channel j is unit unit[base[k] + j] (graph_unit),
	 * numbered in the order of their first channels */
	int nunits;
	int *unit_group;           /* a unit's group, -1 when no layer produces it */
	unsigned char *unit_fixed; /* its GroupFixed */
	size_t *base;
	int *unit;
} ChannelGroups;

/* The unit of node k's channel j. */
static inline int graph_unit(const ChannelGroups *gg, int k, int j)
{
	return gg->unit[gg->base[k] + (size_t)j];
}

/* The groups of g; NULL with a message (out of memory, or more channels in
 * all than the table of limits' width times its nodes allows). */
ChannelGroups *graph_groups(const Graph *g, Err *e);
void graph_groups_free(ChannelGroups *gg); /* accepts NULL */

/* "the logits", "a grouped convolution reads them", … ("" for GROUP_FREE). */
const char *graph_group_fixed_str(GroupFixed f);

#endif
