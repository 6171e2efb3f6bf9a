/* graph_resize.h - a graph network of other widths: each channel group's
 * number of units changed (engine/graph_groups.h), fewer or more, its node
 * structure kept (kernels, strides, padding, Adds, Concats, pools, a
 * depthwise convolution's multiplier), its weights fresh.
 *
 * A node's channels follow their units: a node with c channels of a
 * group's u units (a depthwise convolution's m per unit, a Flatten's h·w
 * per unit) has c/u·u' of them when the group has u' units. Fixed units
 * (the network's inputs, its logits, the channels of a grouped
 * convolution or of a Reshape that moves them) are never changed: a group
 * that holds one keeps its size. */
#ifndef CONDNET_GRAPH_RESIZE_H
#define CONDNET_GRAPH_RESIZE_H

#include <stdint.h>

#include "base/err.h"
#include "base/rng.h"
#include "engine/graph_groups.h"
#include "engine/net.h"

/* A new network: net (a graph network, gg its groups) with units[q] units
 * in group q (every group's entry; fixed groups' their own count), fresh
 * weights (net_init_glorot) from a generator seeded with seed, net's
 * preprocessing record kept. NULL with a message when a count is below 1,
 * a group with fixed units is given another count, or a node does not fit
 * (graph_add's message). */
Net *graph_net_resize(const Net *net, const ChannelGroups *gg, const int *units, uint64_t seed,
                      Err *e);

#endif
