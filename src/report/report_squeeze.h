/* report_squeeze.h - the tables, JSON records and plot files of a squeeze
 * beyond the paper's layouts (report.h): per-layer decisions with the κ each
 * layer was decided on, what the network costs before and after, and the
 * comparison of the squeeze's criteria (alg3_compare.h). */
#ifndef CONDNET_REPORT_SQUEEZE_H
#define CONDNET_REPORT_SQUEEZE_H

#include <stdio.h>

#include "alg/alg3_compare.h"
#include "base/err.h"
#include "model/net_cost.h"
#include "report/report.h"

/* One layer of a squeeze: widths, κ as given, κ when decided (after the
 * earlier layers' removals), κ after the squeeze and after retraining (NaN
 * when absent), and how many neurons the |r_jj| threshold and the κ loop
 * removed (-1 when the counts were given, not decided at τ). */
typedef struct SqueezeLayerRow {
	int layer, n_before, n_after;
	double kappa, kappa_dec, kappa_after, kappa_retrained;
	int by_threshold, by_loop;
} SqueezeLayerRow;

/* The per-layer table; the κ-after-retraining column only when some row
 * has one. */
void report_squeeze_layers(FILE *f, const SqueezeLayerRow *r, int n, ReportFormat fmt);
struct cJSON *report_squeeze_layers_json(const SqueezeLayerRow *r, int n, Err *e);

/* One decision of a squeeze pass on the screen: the layer's widths, κ when
 * decided and after, whether it was applied and compensated, the test
 * accuracy after it (percent). */
typedef struct SqueezeDecisionRow {
	int layer, n_before, n_after, applied, compensated;
	double tau, kappa_dec, kappa_after, acc_after;
} SqueezeDecisionRow;
/* The decisions, one row each; κ keeps the digits that place it beside τ. */
void report_squeeze_decisions(FILE *f, const SqueezeDecisionRow *r, int n, ReportFormat fmt);

/* The networks one `condnet squeeze` makes: the one kept, and the one
 * measured beside it (the same τ with the other compensation setting): a
 * different network, with its own removal count. */
typedef struct SqueezeNetRow {
	int kept; /* 1: the result; 0: measured beside it, not kept */
	double tau;
	const char *criterion; /* "qr", "norm", "random" */
	int counted;           /* 1: the counts were given (--keep-counts), not decided at τ */
	int compensated;
	int removed;
	double acc_squeezed;  /* percent; NaN when absent */
	double acc_retrained; /* percent; NaN when not retrained */
} SqueezeNetRow;
void report_squeeze_networks(FILE *f, const SqueezeNetRow *r, int n, ReportFormat fmt);

/* Rows: parameters, multiply-adds per sample, model-file bytes, forward
 * time per sample at batch 1 and 256 (µs); columns before, after and
 * after/before. */
void report_costs(FILE *f, const NetCost *before, const NetCost *after, ReportFormat fmt);
struct cJSON *report_cost_json(const NetCost *c, Err *e);

/* A comparison per τ (c[0..n)): the removal table (τ, removed, share of the
 * hidden neurons, by the |r_jj| threshold, by the κ loop, parameters and
 * multiply-adds after), then one table per stage measured (QR, norm, random
 * mean ± sd over its draws, the share of draws at least as good as QR). */
void report_squeeze_compare(FILE *f, const SqueezeCompare *c, int n, ReportFormat fmt);
struct cJSON *report_squeeze_compare_json(const SqueezeCompare *c, int n, Err *e);

/* gnuplot input: a data file (one line per τ: the fraction removed, τ, then
 * per stage QR, norm, random mean and sd) and a script plotting accuracy
 * against the fraction removed, one panel per stage measured, into png. */
void report_squeeze_compare_data(FILE *f, const SqueezeCompare *c, int n);
void report_squeeze_compare_gnuplot(FILE *f, const SqueezeCompare *c, int n, const char *data,
                                    const char *png, const char *title);

#endif
