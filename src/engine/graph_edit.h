/* graph_edit.h - a graph network without some of its channel units
 * (engine/graph_groups.h): each removed unit's columns taken from the
 * layers that produce it (W's columns and b's entries, a depthwise
 * convolution's kernels, a scale and shift's entries), and the rows that
 * read it from the layers that read it (a convolution's kh·kw rows of the
 * channel, a dense layer's features of it), every other weight kept. */
#ifndef CONDNET_GRAPH_EDIT_H
#define CONDNET_GRAPH_EDIT_H

#include "base/err.h"
#include "engine/graph_groups.h"
#include "engine/net.h"

/* A new network: net (a graph network, gg its groups) without the units u
 * with drop[u] ≠ 0, its preprocessing record kept, Adam's moments zeroed.
 * NULL with a message when a dropped unit is fixed or a node would be left
 * with no channel. */
Net *graph_net_drop(const Net *net, const ChannelGroups *gg, const unsigned char *drop, Err *e);

/* The rows of layer node k's W that read channel c of its input, at each
 * of the *per positions a channel has there (a convolution's kh·kw kernel
 * offsets; a dense layer after a Flatten of maps, their h·w features; else
 * 1): row c·per + t for t < per. The channels its input has (those of the
 * maps before a Flatten) into *nchan, and that input node into *src (the
 * node whose channels they are). -1 for a grouped convolution. */
int graph_read_rows(const Graph *g, int k, int *per, int *nchan, int *src);

#endif
