/* report_layers.h - what each layer of a network with convolutions is, as
 * the tables and the screen say it. */
#ifndef CONDNET_REPORT_LAYERS_H
#define CONDNET_REPORT_LAYERS_H

#include <stddef.h>

#include "engine/net.h"

/* What layer i (0-based) of net is, into buf: "conv 6@5×5, pool → 6×12×12"
 * (output channels, kernel, padding when there is some, the pool, the maps
 * the layer gives), or "dense". */
const char *report_layer_kind(const Net *net, int i, char *buf, size_t len);
/* What Conv or Gemm node k of a graph is: "conv 64@3×3/2 pad 1 → 64×16×16
 * 'layer1.0.conv1'" (channels, kernel, stride, padding, dilation and groups
 * where they are not 1 and 0, the maps it gives, its name), "dense
 * 512→10 'fc'". */
const char *report_graph_kind(const Graph *g, int k, char *buf, size_t len);

#endif
