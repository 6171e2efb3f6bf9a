/* model_conv.h - the block of a model file that records a network's
 * convolution layers (version 5 on; model_io.h): u32 nconv, then for each
 * convolution layer 8 u32: input channels, height, width, output channels,
 * kernel side, padding, pool (0 or 1), 0. A network without convolutions
 * is written as version 4, without the block, which condnet before
 * version 5 reads. */
#ifndef CONDNET_MODEL_CONV_H
#define CONDNET_MODEL_CONV_H

#include <stdint.h>

#include "base/err.h"
#include "engine/net.h"

#define MODEL_CONV_LAYER_BYTES 32

/* The bytes of the block for nconv layers. */
uint64_t model_conv_bytes(uint64_t nconv);
/* net's block into p (model_conv_bytes(net->nconv) bytes). */
void model_conv_put(unsigned char *p, const Net *net);
/* The count at the head of a block. */
uint32_t model_conv_count(const unsigned char *p);
/* The block at p (whose count is within the header read) at file offset
 * off, for a network of m layers of widths n[0..m], checked: the layers are
 * fewer than m, each one a convolution condnet makes, they chain, and
 * their maps hold n[0..nconv] values. The shapes into *cs (malloc'd; NULL
 * for none). */
int model_conv_get(const unsigned char *p, uint32_t m, const int *n, ConvShape **cs,
                   const char *path, uint64_t off, Err *e);
/* The parameters of layer i (0-based) of widths n whose first nconv layers
 * are the convolutions cs. */
uint64_t model_layer_params(const int *n, int i, int nconv, const ConvShape *cs);

#endif
