/* conv_maps.h - what one convolution layer makes of one input: the map of
 * every channel, and the map of a channel made as a combination of others
 * (its kernel and bias the combination of theirs). What a screen draws of a
 * layer's channels. */
#ifndef CONDNET_CONV_MAPS_H
#define CONDNET_CONV_MAPS_H

#include "base/err.h"
#include "engine/net.h"

/* For convolution layer `layer` (1..nconv) of net on the input row x (n[0]
 * values): every channel's map as the layer gives it (after the activation
 * and the pool) into out (c_out × h_out × w_out); and, for r < ncomb, into
 * comb + r·h_out·w_out, the map of a channel whose kernel and bias are
 * Σ_k coef[r·n + k] times those of channel idx[k] (k < n): since the
 * convolution is linear in its kernel, its pre-activation is the same
 * combination of theirs, σ(Σ_k c_k z_k), then pooled. comb may be NULL when
 * ncomb is 0. 0, or -1 with a message. */
int conv_channel_maps(const Net *net, int layer, const float *x, float *out, const int *idx, int n,
                      const double *coef, int ncomb, float *comb, Err *e);

#endif
