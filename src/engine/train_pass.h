/* train_pass.h - the forward and backward passes of one mini-batch, split
 * into parts that run on a pool of threads, and the Adam step split the
 * same way; the trainer's workspaces. Internal to train.c and
 * train_pass.c (the evaluation, net_error and net_forward, is in
 * train_pass.c too and declared in train.h).
 *
 * A batch's work is split into `parts`: every product's output columns (or,
 * for the weight gradient and the input gradient, the neurons of the layer
 * below) are cut at multiples of 16 into `parts` runs, one per part, and
 * each part adds the bias, applies the activation or its derivative and
 * checks the finiteness of the gradient on its own run while it is in cache.
 * The bits depend on `parts` and not on the threads that run them. */
#ifndef CONDNET_TRAIN_PASS_H
#define CONDNET_TRAIN_PASS_H

#include <stddef.h>

#include "base/pool.h"
#include "engine/adam.h"
#include "engine/net.h"

typedef struct Work Work;

/* The parts a batch of B rows of net is split into on `threads` threads:
 * as many, but each worth at least PASS_PART_FLOPS, so that a small
 * network is not cut into pieces that cost more to hand over than to
 * compute; at least 1. */
#define PASS_PART_FLOPS 8e6
int pass_parts(const Net *net, int B, int threads);

/* Workspaces for batches of up to B rows of net, split into `parts`; NULL
 * with a message when out of memory. */
Work *work_new(const Net *net, int B, int parts, Err *e);
void work_free(Work *w);

/* One forward and backward pass of cross-entropy over rows x (rows × n[0]),
 * labels y, on pool (NULL: the calling thread):
 *   Zⁱ = Yⁱ⁻¹Wⁱ + bⁱ, Yⁱ = f(Zⁱ), P = softmax(Zᵐ), loss = −(1/B) Σ log P[r, yᵣ];
 *   dZᵐ = (P − onehot(y))/B, and for i = m..1:
 *   dWⁱ = (Yⁱ⁻¹)ᵀdZⁱ, dbⁱ = Σ_rows dZⁱ, dZⁱ⁻¹ = (dZⁱ(Wⁱ)ᵀ) ⊙ f'(Zⁱ⁻¹).
 * The gradient goes to grad in the parameter layout; returns the mean loss,
 * adds the rows whose first arg max is the label to *correct, and sets
 * *finite to 0 when an entry of the gradient is NaN or ±Inf (else 1). */
double pass_batch(Work *w, Pool *pool, const Net *net, const float *x, const int *y, int rows,
                  float *grad, long *correct, int *finite);

/* 1 when no entry of p[0..n) is NaN or ±Inf (all exponent bits set). */
int pass_all_finite(const float *p, size_t n);

/* adam_step over n parameters, split over the pool's threads (each entry is
 * computed as by one adam_step call over all n). */
void pass_adam(Pool *pool, const AdamOpts *o, long t, size_t n, const float *g, float *w, float *m,
               float *v);

#endif
