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

#endif
