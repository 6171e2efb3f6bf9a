/* net_hand.h - a network changed by hand, every weight not named kept: a
 * neuron added to a hidden layer or removed from it, a hidden layer added
 * or removed, inputs added or removed. What a class does on the screen to
 * see what one neuron (or one layer, one input) does, beside what the
 * squeeze's pivoted QR would choose.
 *
 * A new neuron's incoming weights are a fresh network's (Glorot uniform for
 * the layer's shape, bias 0) and its outgoing ones small (uniform within
 * NET_HAND_SMALL times the next layer's Glorot bound), so the outputs
 * barely move until it trains; a new input's weights are small the same
 * way. Both are drawn from a generator seeded with the seed given: the same
 * seed, the same weights. A new hidden layer starts as the identity (W = I,
 * b = 0, as wide as the layer before it): it passes on what that layer
 * gives through its activation. Removing a hidden layer multiplies its
 * weights into the next layer's as if its activation were the identity:
 * W' = W⁽ˡ⁾W⁽ˡ⁺¹⁾, b' = b⁽ˡ⁾W⁽ˡ⁺¹⁾ + b⁽ˡ⁺¹⁾, the inverse of adding one.
 * The Adam moments of the weights kept are kept, the new ones' are zero; the
 * step count, the schedule and its position and the record of the last
 * training are kept. Every function changes net in place and returns 0, or
 * -1 with a message and net as it was; a network with convolution layers
 * is refused. */
#ifndef CONDNET_NET_HAND_H
#define CONDNET_NET_HAND_H

#include <stdint.h>

#include "base/err.h"
#include "engine/net.h"

/* A new neuron's outgoing weights, and a new input's, as a share of the
 * Glorot bound of their layer. */
#define NET_HAND_SMALL 0.01

/* A neuron appended to hidden layer `layer` (1..m-1), drawn from seed. */
int net_hand_add_neuron(Net *net, int layer, uint64_t seed, Err *e);
/* Neuron j (from 0) of hidden layer `layer` removed, with its weights; the
 * layer keeps one at least. */
int net_hand_remove_neuron(Net *net, int layer, int j, Err *e);
/* A hidden layer after layer `after` (0: after the inputs, up to m-1: just
 * before the output layer), as wide as n[after], starting as the identity.
 * It becomes layer after + 1. */
int net_hand_add_layer(Net *net, int after, Err *e);
/* Hidden layer `layer` (1..m-1) removed, its weights multiplied into the
 * next layer's. */
int net_hand_remove_layer(Net *net, int layer, Err *e);
/* The inputs made src[0..d): new input r is old input src[r] with its
 * weights, or a new one (src[r] < 0) with small weights drawn from seed.
 * The record of how the inputs are made (net->prep) no longer fits and is
 * dropped; the caller records the new one. */
int net_hand_inputs(Net *net, const int *src, int d, uint64_t seed, Err *e);

#endif
