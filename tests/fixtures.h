/* fixtures.h - the networks the unit tests share (tests/fixtures.c, linked
 * into the tests that use them). Each checks what it makes (Check's
 * assertions) and returns a network the caller frees. */
#ifndef CONDNET_FIXTURES_H
#define CONDNET_FIXTURES_H

#include <stdint.h>

#include "data/dataset.h"
#include "engine/act.h"
#include "engine/net.h"

/* 10-8-7-3, tanh: a random 10-8-5-3 network (Glorot weights from seed,
 * every parameter moved by 0.1·N(0, 1), the outgoing rows of its second
 * hidden layer of norm in [1, 2]) whose second hidden layer gets copies of
 * its neurons 1 and 3 as neurons 5 and 6: the same incoming weights and
 * bias, the outgoing row shared, a1 of it on neuron 1 and a5 on its copy,
 * a3 on neuron 3 and a6 on its copy. With a1 + a5 = a3 + a6 = 1 the network
 * computes what the 10-8-5-3 one does. */
Net *fx_planted(uint64_t seed, float a1, float a5, float a3, float a6);

/* A network of widths 5-4-3-2 (m = 3) or 5-2 (m = 1), activation act with
 * scale a, every parameter i set to 0.8·sin(1 + 7.3·i): no two alike, the
 * same on every machine. */
Net *fx_sample_net(ActKind act, float a, int m);

/* A network of m layers of width 2, activation act, its parameters from
 * value(i) (i counts them in order): deep networks for the limits of the
 * importers and exporters. */
Net *fx_deep_net(int m, ActKind act, float (*value)(size_t i, size_t n));

/* 12-30-25-20-4 (fx_wide_widths), tanh, Glorot weights from seed 5: wide
 * enough that τ = 3 squeezes every hidden layer, some of it by the QR
 * threshold and some by the κ loop. */
extern const int fx_wide_widths[5];
Net *fx_wide_net(void);

/* n rows of d features drawn from N(0, 4) by seed, 3 classes (all 0):
 * inputs to measure a network on. */
Dataset *fx_random_inputs(int n, int d, uint64_t seed);
/* net's outputs on ds (malloc'd, ds->n × its outputs). */
float *fx_outputs(const Net *net, const Dataset *ds);

#endif
