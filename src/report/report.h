/* report.h - the paper's table layouts as aligned text, Markdown or CSV, and
 * the JSON record of a run (libcjson). Shared by the batch commands, the
 * screen's export and the paper reproduction. */
#ifndef CONDNET_REPORT_H
#define CONDNET_REPORT_H

#include <stdio.h>

#include "alg/alg1_proportion.h"
#include "alg/alg2_scale.h"
#include "alg/alg3_squeeze.h"
#include "base/err.h"
#include "engine/cond.h"
#include "engine/net.h"

typedef enum ReportFormat { REPORT_TEXT = 0, REPORT_MARKDOWN, REPORT_CSV } ReportFormat;

/* Per-layer table: layer i, n_i, κ(Ŵ⁽ⁱ⁾), p_i at τ, QR rank. lc has net->m entries. */
void report_cond(FILE *f, const Net *net, const LayerCond *lc, ReportFormat fmt);
/* The paper's Table 1 / Table 4 layout: layer, initial n_i and κ, final n_i and κ. */
void report_alg1_summary(FILE *f, const Alg1 *a, ReportFormat fmt);
/* The paper's Table 16 layout: n_i per iteration (columns), then max κ and Σ n_i rows;
 * before the first iteration nothing, or the row names alone as CSV. */
void report_alg1_history(FILE *f, const Alg1 *a, ReportFormat fmt);
/* The paper's Table 2 layout: β, ε_tr, ε_v, 2ε_v − ε_tr (percent), the pick marked. */
void report_alg2(FILE *f, const Alg2 *a, ReportFormat fmt);

/* One row of a squeeze report (the paper's Tables 6, 9-12). */
typedef struct SqueezeRow {
	double tau;
	int removed;            /* neurons removed in total */
	double acc_before;      /* accuracy right after squeezing (percent) */
	double acc_before_comp; /* the same with compensation; NaN if not measured */
	double acc_after;       /* after retraining; NaN if not retrained */
} SqueezeRow;
void report_squeeze(FILE *f, const SqueezeRow *rows, int n, ReportFormat fmt);

/* Squeeze rounds (the paper's Table 13, alg3_until_stable): hidden widths
 * per round (columns), then the removed and accuracy-after-retraining rows. */
void report_squeeze_rounds(FILE *f, const SqueezeRound *r, int nround, int m, ReportFormat fmt);

/* v rounded to an integer with thousands separators ("2,652"; "inf"). */
const char *report_thousands(double v, char *buf, size_t len);

/* JSON records as libcjson objects (free with cJSON_Delete); NULL with a
 * message when out of memory. The cond record is {"tau":…, "max_kappa":…, "layers":[{"layer":1,
 * "n":…, "rows":…, "cols":…, "kappa":…, "p":…, "rank_svd":…, "rank_qr":…,
 * "sv":[…], "rdiag":[…]}, …]}; κ = ∞ is written as null. */
struct cJSON;
struct cJSON *report_cond_json(const Net *net, const LayerCond *lc, Err *e);
struct cJSON *report_alg1_json(const Alg1 *a, Err *e);
struct cJSON *report_alg2_json(const Alg2 *a, Err *e);
/* Writes a JSON object, indented, to path atomically. */
int report_write_json(const char *path, const struct cJSON *root, Err *e);

/* Writes text to path atomically after rendering it with fn(FILE*, ud);
 * used for --csv and --json files and for exports. */
int report_write_file(const char *path, void (*fn)(FILE *, const void *), const void *ud, Err *e);

#endif
