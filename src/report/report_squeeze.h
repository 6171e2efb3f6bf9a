/* report_squeeze.h - the tables, JSON records and plot files of a squeeze
 * beyond the paper's layouts (report.h): per-layer decisions with the κ each
 * layer was decided on, what the network costs before and after, and the
 * comparison of the squeeze's criteria (alg3_compare.h, report_compare.c). */
#ifndef CONDNET_REPORT_SQUEEZE_H
#define CONDNET_REPORT_SQUEEZE_H

#include <stdio.h>

#include "alg/alg3_compare.h"
#include "base/err.h"
#include "engine/evaluate.h"
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

/* The rows of a squeeze: Algorithm 3's pass over a copy of before, which
 * it made into after; κ as given and after from lc_before and lc_after (m
 * entries each), κ at decision from the pass, κ after retraining NaN (the
 * caller fills it in), what each stage removed (-1 when the pass kept counts
 * given). before->m rows; NULL with a message when out of memory. */
SqueezeLayerRow *report_squeeze_layer_rows(const Net *before, const LayerCond *lc_before,
                                           const Net *after, const LayerCond *lc_after,
                                           const Alg3 *pass, Err *e);
/* The per-layer table; the κ-after-retraining column only when some row
 * has one. */
int report_squeeze_layers(FILE *f, const SqueezeLayerRow *r, int n, ReportFormat fmt, Err *e);

/* One decision of a squeeze pass on the screen: the layer's widths, κ when
 * decided and after, whether it was applied and compensated, the test
 * accuracy after it (percent). */
typedef struct SqueezeDecisionRow {
	int layer, n_before, n_after, applied, compensated;
	double tau, kappa_dec, kappa_after, acc_after;
} SqueezeDecisionRow;

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
	const char *failed;   /* why this squeeze failed (an overflow in its
	                       * compensation), NULL when it did not */
} SqueezeNetRow;
int report_squeeze_networks(FILE *f, const SqueezeNetRow *r, int n, ReportFormat fmt, Err *e);

/* Rows: parameters, multiply-adds per sample, model-file bytes, forward
 * time per sample at batch 1 and 256 (µs); columns before, after and
 * after/before. */
int report_costs(FILE *f, const NetCost *before, const NetCost *after, ReportFormat fmt, Err *e);

/* A comparison per τ (c[0..n)): the removal table (τ, removed, share of the
 * hidden neurons, by the |r_jj| threshold, by the κ loop, parameters and
 * multiply-adds after), then one table per stage measured (QR, norm, random
 * mean ± sd over its draws, the share of draws at least as good as QR). */
int report_squeeze_compare(FILE *f, const Alg3Compare *c, int n, ReportFormat fmt, Err *e);

/* gnuplot input beside prefix: PREFIX.dat (one line per τ: the fraction
 * removed, τ, then per stage QR, norm, random mean and sd) and PREFIX.gp, a
 * script plotting accuracy against the fraction removed into PREFIX.png, one
 * panel per stage measured, titled title; run from prefix's folder. */
int report_squeeze_compare_plot(const char *prefix, const Alg3Compare *c, int n, const char *title,
                                Err *e);

/* ---- condnet squeeze's record, part by part ---- */

/* What it was asked to do. */
typedef struct SqueezeSettings {
	const char *model, *shape_before;
	const Alg3Opts *so;
	const double *taus; /* --tau: one or (--compare) several */
	int ntau;
	const int *keep; /* --keep-counts: a count per hidden layer, NULL none */
	int nkeep;
	double retrain_epochs;
	const char *retrain_schedule;
	double retrain_warmup;
	int retrain_early_stop;
} SqueezeSettings;
/* The record, with the settings: "model", "shape_before", "tau" ("taus"
 * with several), "while_loop", "compensate", "criterion", "seed" (random),
 * "keep_counts", "only_layers" (the hidden layers squeezed, when not all),
 * "wide" (under the reading zero of wide layers, engine/cond.h),
 * "retrain_epochs", "retrain_schedule", "retrain_warmup",
 * "retrain_early_stop". NULL with a message when out of memory. */
struct cJSON *report_squeeze_record(const SqueezeSettings *s, Err *e);
/* One squeeze: its per-layer rows, "removed" (by the threshold and by the
 * loop unless the counts were given), the removals with and without
 * compensation, the accuracies before, after squeezing and after retraining
 * (acc0 NaN: none measured), "other_network": the one measured beside it
 * (only "failed", the reason, and no removals nor agreement when its squeeze
 * failed: nr[1].failed); with ag (NULL: none measured), how far each answers as the original
 * (report_agreement_json: ag[0] the kept one squeezed, ag[1] the other,
 * ag[2] the kept one retrained); what the retraining did (retrained NULL:
 * none). */
int report_squeeze_once_json(struct cJSON *rec, const SqueezeNetRow nr[2],
                             const SqueezeLayerRow *rows, int m, double acc0, int by_threshold,
                             const Agreement *ag, const TrainResult *retrained, Err *e);
/* Squeezes repeated until stable: "rounds" (report_squeeze_rounds_json),
 * "agreement" of the result with the original when ag is not NULL, and
 * "stable" when stable is 0 or 1 (-1: the run stopped before). */
int report_squeeze_rounds_run_json(struct cJSON *rec, const Alg3Round *r, int n, double tau,
                                   int stable, const Agreement *ag, Err *e);
/* "cost_before" and "cost_after": "parameters", "multiply_adds_per_sample",
 * "model_file_bytes", the forward seconds per sample at batch 1 and 256,
 * "timing_repeats", "threads". */
int report_squeeze_costs_json(struct cJSON *rec, const NetCost *before, const NetCost *after,
                              Err *e);
/* --compare: "comparisons" (report_squeeze_compare_json), "draws",
 * "retrain_draws", "seed". -1 when out of memory. */
int report_squeeze_compare_run_json(struct cJSON *rec, const Alg3Compare *c, int n, int draws,
                                    int retrain_draws, uint64_t seed, Err *e);
/* "shape_after": the network kept. */
int report_squeeze_shape_after(struct cJSON *rec, const char *shape, Err *e);

#endif
