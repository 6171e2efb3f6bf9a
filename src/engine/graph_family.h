/* graph_family.h - graph networks of two residual families, made fresh from
 * a --layers specification, so that a residual network can be built,
 * trained and squeezed without another tool:
 *
 *   resnet:C[xB],C[xB],…   a ResNet of basic blocks on images: a 3×3
 *       convolution of the first C channels (the stem), then a stage per
 *       item of B blocks (1 when xB is left out) of C channels, the first
 *       block of every stage after the first of stride 2; a block is
 *       conv 3×3 → activation → conv 3×3, added to its input (or to a 1×1
 *       projection of it, of the block's stride, where the shape changes),
 *       then the activation; a global average of the last maps and a dense
 *       layer to the classes. "resnet:16,32,64" is the ResNet-8 of
 *       bench/torch_graph.py without its batch norms.
 *   residual:W[xB],W[xB],…  its dense counterpart on features (images are
 *       read flattened): a dense layer of the first W neurons, then per item
 *       B blocks of two dense layers of W, added to their input (or to a
 *       dense projection of it where the width changes), then a dense layer
 *       to the classes.
 *
 * Both use the network's activation (erf(a·x) as Scale then Erf). Every
 * node is named ("s2b1.conv1", "s2b1.proj", "fc"), as the screen's table
 * and the graph view show. */
#ifndef CONDNET_GRAPH_FAMILY_H
#define CONDNET_GRAPH_FAMILY_H

#include "base/err.h"
#include "engine/act.h"
#include "engine/graph.h"

/* 1 when spec names one of the families ("resnet:" or "residual:"). */
int graph_family_spec(const char *spec);

/* 0 when spec is a family's specification as written (its stages parse),
 * else -1 with the message graph_family gives. */
int graph_family_check(const char *spec, Err *e);

/* The graph of spec for inputs of c×h×w (c = 0: d features without an
 * image's shape, which resnet refuses) and `classes` outputs. NULL with one
 * line naming the column and what was expected ("layers \"resnet:16,x\":
 * expected a channel count at column 11"), or what does not fit. */
Graph *graph_family(const char *spec, int d, int c, int h, int w, int classes, ActKind act,
                    float act_a, Err *e);

#endif
