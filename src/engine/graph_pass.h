/* graph_pass.h - a graph's passes over a block of samples, node by node in
 * the graph's order, and the workspace they run in.
 *
 * A workspace for evaluation keeps a node's output only until its last
 * reader has run: the outputs share a few buffers, assigned once for the
 * graph (a ResNet's forward pass holds a handful of maps at a time). A
 * workspace for training keeps every output, and a gradient per node, for
 * the backward pass. One workspace is one thread's: the pass gives the same
 * bits whichever thread runs it. */
#ifndef CONDNET_GRAPH_PASS_H
#define CONDNET_GRAPH_PASS_H

#include <stddef.h>

#include "base/err.h"
#include "engine/graph.h"

typedef struct GraphWork GraphWork;

/* A workspace for blocks of up to B samples of g; train: keep what the
 * backward pass needs. NULL with a message when out of memory. */
GraphWork *graph_work_new(const Graph *g, int B, int train, Err *e);
void graph_work_free(GraphWork *w); /* accepts NULL */
/* A workspace for evaluation of blocks of up to B samples of g, one kept
 * from an earlier pass when there is one (the passes of a network come in
 * calls of a program's batches: a workspace allocated for each would be
 * faulted into memory each time), and the workspace given back to be kept
 * (a few are, the oldest freed). Thread-safe. */
GraphWork *graph_work_take(const Graph *g, int B, Err *e);
void graph_work_give(GraphWork *w);
/* The floats a workspace holds for B samples (for the sizes of the runs). */
double graph_work_floats(const Graph *g, int B, int train);

/* The forward pass of rows x[0..ns) (ns ≤ B; n[0] values each) under the
 * parameters param: the logits, ns × classes, in the workspace (valid
 * until its next pass). */
float *graph_forward(GraphWork *w, const float *param, const float *x, int ns);
/* After graph_forward of the same rows in a training workspace: the
 * backward pass from the logits' gradient gl (ns × classes), adding the
 * parameters' gradient to gp (the parameter layout). */
void graph_backward(GraphWork *w, const float *param, const float *gl, int ns, float *gp);

/* After graph_forward in a training workspace: node k's output, a row of
 * its c·h·w values (C×H×W) per sample of the pass; NULL in an evaluation
 * workspace (its outputs share buffers). */
const float *graph_work_value(const GraphWork *w, int k);

/* The logits of rows x[0..n) into out (n × classes), on the calling
 * thread, block by block of graph_eval_rows. */
int graph_logits(const Graph *g, const float *param, const float *x, int n, float *out, Err *e);

/* The rows of a block of evaluation for g: as many as fit a few tens of
 * MiB, at most 64 and at least 1; fixed by the graph alone, so that a
 * graph's answers do not depend on the threads that compute them. */
int graph_eval_rows(const Graph *g);

#endif
