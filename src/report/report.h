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
void report_squeeze_rounds(FILE *f, const Alg3Round *r, int nround, int m, ReportFormat fmt);

/* v rounded to an integer with thousands separators ("2,652"; "inf"). */
const char *report_thousands(double v, char *buf, size_t len);

/* JSON records as libcjson objects (free with cJSON_Delete); NULL with a
 * message when out of memory. Only report/ builds records, one writer for
 * each kind; NaN and ∞ are written as null.
 *
 * A network's κ is {"n": [n_0, …, n_m], "kappa": [κ_1, …, κ_m], "p": [p_1,
 * …, p_m]}, p at the record's τ: report_net_json makes it for a network,
 * and every record that shows a network's conditioning holds these three
 * (the cond record, an Algorithm-1 iteration, a squeeze round's "net"). */
struct cJSON;
struct cJSON *report_net_json(const Net *net, double tau, Err *e);
/* The cond record: the network's κ, and "shape", "m", "tau", "max_kappa",
 * "layers": [{"layer", "n", "rows", "cols", "kappa", "p", "rank_svd",
 * "sv", and with the pivoted QR "rank_qr", "rdiag"}, …]. */
struct cJSON *report_cond_json(const Net *net, const LayerCond *lc, Err *e);
/* Algorithm 1: its options, "status", "reason", "history" (per iteration
 * "iter", the network's κ, "max_kappa", "sum_n", "train_error", "seconds",
 * "tau", "eta"), "final_n", "final_kappa", "final_max_kappa". */
struct cJSON *report_alg1_json(const Alg1 *a, Err *e);
/* A β sweep: "betas": [{"beta", "n" (the widths), "trials", "err_tr",
 * "err_v", "score"}, …] (percent, null before a trial), "pick" (β, or null),
 * "pick_n", "q", "eta", "seed". */
struct cJSON *report_alg2_json(const Alg2 *a, Err *e);
/* What a training did, into o: "epochs" (run) and, when it kept its best
 * validation epoch, "best_epoch" and "val_acc". */
void report_trained_json(struct cJSON *o, const TrainResult *r);
/* A squeeze round (a row of the paper's Tables 6, 9-12, a round of Table
 * 13): "tau", "removed", "removed_per_layer", "acc_before" (right after
 * squeezing), "acc_after" (after retraining), what the retraining did
 * (report_trained_json), "net" (the network's κ after it). Rounds are an
 * array of them, the first the network as given. */
struct cJSON *report_squeeze_round_json(const Alg3Round *r, double tau, Err *e);
struct cJSON *report_squeeze_rounds_json(const Alg3Round *r, int n, double tau, Err *e);
/* Writes a JSON object, indented, to path atomically, with the kernels it
 * was computed with added to it: "kernels" (OpenBLAS's name of them) and,
 * when there is a why, "kernels_why" (base/kernels.h). */
int report_write_json(const char *path, struct cJSON *root, Err *e);
/* Frees a record (NULL accepted). */
void report_free(struct cJSON *root);
/* The same, then frees the record; a NULL record (its writer ran out of
 * memory, and e says so) writes nothing and fails. */
int report_write_record(const char *path, struct cJSON *root, Err *e);

/* Writes text to path atomically after rendering it with fn(FILE*, ud);
 * used for --csv and --json files and for exports. */
int report_write_file(const char *path, void (*fn)(FILE *, const void *), const void *ud, Err *e);

#endif
