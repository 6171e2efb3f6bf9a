/* train_conv.h - the convolution layers' share of a mini-batch's passes
 * (train_pass.h): their workspaces, and the forward, backward and gradient
 * sums of each part. Internal to train_pass.c.
 *
 * A convolution layer splits the batch's samples into the parts (where a
 * dense layer splits its neurons): part p lowers, multiplies and pools its
 * own run of samples, and computes the weight and bias gradients of that
 * run into a slot of its own; a last phase adds the parts' slots in part
 * order. So the bits depend on the number of parts, not on the threads
 * that run them. */
#ifndef CONDNET_TRAIN_CONV_H
#define CONDNET_TRAIN_CONV_H

#include <stddef.h>

#include "engine/net.h"

typedef struct ConvWork ConvWork;

/* Workspaces for batches of up to B rows of net's convolution layers, in
 * `parts` parts; NULL when out of memory (net has convolutions). */
ConvWork *conv_work_new(const Net *net, int B, int parts);
void conv_work_free(ConvWork *cw);

/* Layer i (< nconv) forward over part p's run of the rows input rows in
 * (row stride ldin): its outputs into out (row stride ldout). */
void conv_work_forward(ConvWork *cw, const Net *net, int i, int p, int rows, const float *in,
                       size_t ldin, float *out, size_t ldout);
/* Layer i backward over part p's run of the rows: g (row stride ldg) the
 * gradient of its outputs; the run's weight and bias gradients into the
 * part's slot and, for i > 0, the gradient of its input rows into the
 * workspace's rows for layer i − 1 (conv_work_grad_rows). 0 when every
 * entry of the slot is finite, else -1. */
int conv_work_backward(ConvWork *cw, const Net *net, int i, int p, int rows, const float *g,
                       size_t ldg);
/* The gradient rows of layer i's outputs (i < nconv − 1) that layer i + 1's
 * backward wrote, and their row stride. */
const float *conv_work_grad_rows(const ConvWork *cw, int i, size_t *ld);
/* Part p's run of every convolution layer's gradient entries: the sum of
 * the parts' slots in part order, into grad (the parameter layout). 0 when
 * finite, else -1. */
int conv_work_reduce(ConvWork *cw, const Net *net, int p, float *grad);

#endif
