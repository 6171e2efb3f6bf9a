/* report.h - the paper's table layouts as aligned text, Markdown or CSV,
 * and the files records are written to. Shared by the batch commands, the
 * screen's export and the paper reproduction.
 *
 * Every writer takes the FILE it writes to and an Err: 0, or -1 with a
 * message when memory runs out (nothing is written then). A record kind
 * is described once, as data (report_rec.h): its CSV has one quoting rule
 * (a cell with a comma, a double quote or a line break is quoted, RFC
 * 4180). */
#ifndef CONDNET_REPORT_H
#define CONDNET_REPORT_H

#include <stdio.h>

#include "alg/alg1_proportion.h"
#include "alg/alg2_scale.h"
#include "alg/alg3_squeeze.h"
#include "base/err.h"
#include "engine/cond.h"
#include "engine/net.h"
#include "report/report_format.h"

/* Per-layer table: layer i, n_i, κ(Ŵ⁽ⁱ⁾), p_i at τ, QR rank. lc has net->m entries. */
int report_cond(FILE *f, const Net *net, const LayerCond *lc, ReportFormat fmt, Err *e);
/* The paper's Table 1 / Table 4 layout: layer, initial n_i and κ, final n_i and κ. */
int report_alg1_summary(FILE *f, const Alg1 *a, ReportFormat fmt, Err *e);
/* The paper's Table 16 layout: n_i per iteration (columns), then max κ and Σ n_i rows;
 * before the first iteration nothing, or the row names alone as CSV. */
int report_alg1_history(FILE *f, const Alg1 *a, ReportFormat fmt, Err *e);
/* The paper's Table 2 layout: β, ε_tr, ε_v, 2ε_v − ε_tr (percent), the pick marked. */
int report_alg2(FILE *f, const Alg2 *a, ReportFormat fmt, Err *e);
/* Squeeze rounds (the paper's Table 13, alg3_until_stable): hidden widths
 * per round (columns), then the removed and accuracy-after-retraining rows. */
int report_squeeze_rounds(FILE *f, const Alg3Round *r, int nround, int m, ReportFormat fmt, Err *e);

/* A β of a sweep as the screen shows it: the means over the trials done,
 * and the least and largest 2ε_v − ε_tr of single trials (NaN unknown). */
typedef struct ReportBeta {
	double beta, err_tr, err_v, score, smin, smax;
	int done;
	const int *widths; /* n_0..n_m of its network, nwidths of them (may be NULL) */
	int nwidths;
} ReportBeta;

/* JSON records are libcjson objects made only under report/ (one writer
 * for each kind; NaN and ∞ written as null). */
struct cJSON;
/* Writes a record, indented, to path (- standard output) atomically, with
 * the kernels it was computed with added to it: "kernels" (OpenBLAS's name
 * of them) and, when there is a why, "kernels_why" (base/kernels.h). */
int report_write_json(const char *path, struct cJSON *root, Err *e);
/* Frees a record (NULL accepted). */
void report_free(struct cJSON *root);
/* The same, then frees the record; a NULL record (its writer ran out of
 * memory, and e says so) writes nothing and fails. */
int report_write_record(const char *path, struct cJSON *root, Err *e);

/* Writes what fn(FILE*, ud, e) renders to path (- standard output)
 * atomically: --csv and --json files, plot data and scripts, exports. */
typedef int (*ReportFn)(FILE *f, const void *ud, Err *e);
int report_write_file(const char *path, ReportFn fn, const void *ud, Err *e);

#endif
