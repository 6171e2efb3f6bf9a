/* report_layers.h - the layers of a network with convolutions in the
 * tables and records: what each layer is, and the conditioning table where
 * a convolution's κ is not computed yet. */
#ifndef CONDNET_REPORT_LAYERS_H
#define CONDNET_REPORT_LAYERS_H

#include <stddef.h>

#include "engine/cond.h"
#include "engine/net.h"
#include "report/report.h"

/* What layer i (0-based) of net is, into buf: "conv 6@5×5, pool → 6×12×12"
 * (output channels, kernel, padding when there is some, the pool, the maps
 * the layer gives), or "dense". */
const char *report_layer_kind(const Net *net, int i, char *buf, size_t len);
/* The text a convolution layer shows in place of its κ. */
#define REPORT_KAPPA_NOT_YET "not computed yet"

/* report_cond for a network with convolution layers: the same columns and
 * a column saying what each layer is; a convolution's κ, p and ranks say
 * that they are not computed yet. */
void report_cond_layers(FILE *f, const Net *net, const LayerCond *lc, ReportFormat fmt);

/* Into the cond record's object o of layer i of a network with
 * convolutions, made as for a dense layer: "kind" ("conv" or "dense") and,
 * for a convolution, "channels", "kernel", "padding", "pool" (true or
 * false), "maps" ([C, H, W] the layer gives), "kappa_note": "not computed
 * yet", and p and rank_svd null (as κ). */
struct cJSON;
void report_layer_json(struct cJSON *o, const Net *net, int i);
/* The network's "p" array of the record root: null for its convolutions. */
void report_layers_json_p(struct cJSON *root, const Net *net);

#endif
