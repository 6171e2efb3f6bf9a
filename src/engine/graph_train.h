/* graph_train.h - a mini-batch's passes through a graph network, in parts
 * on a pool of threads: the batch's rows are shared out in `parts` runs,
 * each part runs its rows forward, takes the softmax's cross-entropy and
 * runs them backward into a gradient slot of its own, and a last phase adds
 * the slots in part order, each part a run of the parameters. So the bits
 * depend on the number of parts (REPRO_PARTS in the reproducible mode),
 * not on the threads that run them. Internal to train_pass.c, which hands a
 * graph network's batches here (train_pass.h says what a batch computes). */
#ifndef CONDNET_GRAPH_TRAIN_H
#define CONDNET_GRAPH_TRAIN_H

#include "base/err.h"
#include "base/pool.h"
#include "engine/net.h"

typedef struct GraphTrain GraphTrain;

/* The parts a batch of B rows of graph network net is split into on
 * `threads` threads: as many, but each worth PASS_PART_FLOPS at least and
 * at most one a row; at least 1. */
int graph_train_parts(const Net *net, int B, int threads, double part_flops);
/* Workspaces for batches of up to B rows in `parts` parts; NULL with a
 * message. */
GraphTrain *graph_train_new(const Net *net, int B, int parts, Err *e);
void graph_train_free(GraphTrain *t);
/* pass_batch's work for a graph network (train_pass.h). */
double graph_train_batch(GraphTrain *t, Pool *pool, const Net *net, const float *x, const int *y,
                         int rows, float *grad, long *correct, int *finite);

#endif
