/* tui/worker_plane.h - what the Plane view shows (ShownPlane, in
 * worker_types.h), as the worker computes it (worker_plane.c, with the
 * library: engine/plane.h for the regions and the maps,
 * alg/alg3_combination.h for what replaces a removed neuron; the view only
 * draws): the training points, the decision regions of the current
 * network, and for every hidden layer one map per neuron in pivoted-QR
 * order, each kept or removed by the squeeze at τ, with the combination of
 * kept neurons that replaces each removed one. */
#ifndef CONDNET_TUI_WORKER_PLANE_H
#define CONDNET_TUI_WORKER_PLANE_H

#include "tui/worker_types.h"

void plane_shown_free(ShownPlane *p);
/* What the view shows of a network, into p (its box given): the regions of
 * net and the maps of every hidden layer of maps_of (net itself, or the
 * network before the last removal) with the squeeze's marks at tau, or,
 * with counts, hidden layer i keeping the first counts[i-1] of its pivots;
 * the removed neurons' combinations fitted on the activations of sample
 * (the training set: where the refit works; NULL: in Ŵ only). The
 * worker's computation, on the network as it is after an operation and
 * while it trains; 0, or -1 with a message (what was made is freed by
 * plane_shown_free). */
int plane_shown_compute(const Net *net, const Net *maps_of, double tau, const int *counts,
                        const Dataset *sample, ShownPlane *p, Err *e);

#endif
