/* report_int.h - what the report files build on one another (not a public
 * interface: a front end asks for a command's whole record, report_run.h,
 * report_squeeze.h, report_eval.h, report_stage.h, or its figures,
 * report_plot.h): the JSON records inside others, NULL with a message when
 * memory runs out, and the records as gnuplot data.
 *
 * A network's κ is {"n": [n_0, …, n_m], "kappa": [κ_1, …, κ_m], "p": [p_1,
 * …, p_m]}, p at the record's τ: report_net_json makes it for a network
 * from its conditioning (lc, its m layers' at that τ, computed by the caller),
 * and every record that shows a network's conditioning holds these three
 * (the cond record, an Algorithm-1 iteration, a squeeze round's "net"). */
#ifndef CONDNET_REPORT_INT_H
#define CONDNET_REPORT_INT_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "alg/alg1_proportion.h"
#include "alg/alg2_scale.h"
#include "alg/alg3_squeeze.h"
#include "base/err.h"
#include "engine/cond.h"
#include "engine/evaluate.h"
#include "engine/net.h"
#include "engine/train_plan.h"
#include "model/net_cost.h"
#include "report/report_plot.h"
#include "report/report_squeeze.h"

cJSON *report_net_json(const Net *net, const LayerCond *lc, Err *e);
/* The same schema from widths n[0..m], κ and p: its fields into o. */
int report_net_fields(cJSON *o, const int *n, int m, const double *kappa, const int *p, Err *e);
/* The cond record: the network's κ, and "shape", "m", "tau", "max_kappa",
 * "layers": [{"layer", "n", "rows", "cols", "kappa", "p", "rank_svd",
 * "sv", and with the pivoted QR "rank_qr", "rdiag"}, …]. */
cJSON *report_cond_json(const Net *net, const LayerCond *lc, Err *e);
/* Algorithm 1: its options, "status", "reason", "history" (per iteration
 * "iter", the network's κ, "max_kappa", "sum_n", "train_error", "seconds",
 * "tau", "eta"), "final_n", "final_kappa", "final_max_kappa". */
cJSON *report_alg1_json(const Alg1 *a, Err *e);
/* A β sweep: "betas": [{"beta", "n" (the widths), "trials", "err_tr",
 * "err_v", "score"}, …] (percent, null before a trial), "pick" (β, or null),
 * "pick_n", "q", "eta", "seed". */
cJSON *report_alg2_json(const Alg2 *a, Err *e);
/* What a training did, into o: "epochs" (run) and, when it kept its best
 * validation epoch, "best_epoch" and "val_acc". */
int report_trained_json(cJSON *o, const TrainResult *r, Err *e);
/* A squeeze round (a row of the paper's Tables 6, 9-12, a round of Table
 * 13): "tau", "removed", "removed_per_layer", "acc_before" (right after
 * squeezing), "acc_after" (after retraining), what the retraining did
 * (report_trained_json), "net" (the network's κ after it). Rounds are an
 * array of them, the first the network as given. */
cJSON *report_squeeze_round_json(const Alg3Round *r, double tau, Err *e);
cJSON *report_squeeze_rounds_json(const Alg3Round *r, int n, double tau, Err *e);
/* One agreement {"rows","same","share" (percent),"differ_per_class":[…]}
 * (report_eval.c). */
cJSON *report_agreement_json(const Agreement *ag, Err *e);
/* A squeeze pass's decisions on the screen, one row each; κ keeps the
 * digits that place it beside τ (report_squeeze.c). */
int report_squeeze_decisions(FILE *f, const SqueezeDecisionRow *r, int n, ReportFormat fmt, Err *e);
/* A squeeze's layers (report_squeeze.c). */
cJSON *report_squeeze_layers_json(const SqueezeLayerRow *r, int n, Err *e);

/* One part of condnet squeeze's record (report_squeeze.c): a network's
 * costs. */
cJSON *report_cost_json(const NetCost *c, Err *e);

/* ---- gnuplot (report_plot.c writes every script) ---- */

/* A file of a plot: written as PREFIX + suffix by fn when on; data: it
 * counts among the data files. */
typedef struct ReportPlotFile {
	const char *suffix;
	ReportFn fn;
	const void *ud;
	int on, data;
} ReportPlotFile;
/* Writes the files of the table in order until one fails: the data files
 * written, or -1 with a message. */
int report_plot_files(const char *prefix, const ReportPlotFile *files, int n, Err *e);
/* A script of slides, BASE + suffix, and what it draws: the preamble (a
 * grid when grid is set), cmds(f, ud, ext) for PNG and again for PDF (ext
 * "png" and "pdf"). report_gp_slides writes it (a ReportFn of a
 * ReportSlides). */
typedef int (*ReportGpCmds)(FILE *f, const void *ud, const char *ext, Err *e);
typedef struct ReportSlides {
	const char *base, *suffix, *what;
	int grid;
	ReportGpCmds cmds;
	const void *ud;
} ReportSlides;
int report_gp_slides(FILE *f, const void *slides, Err *e);
/* The colour of class cls, 0..255 each, as the screen's (report_plane.c). */
void report_class_rgb(int cls, int rgb[3]);
/* s with every single quote doubled, for gnuplot's single quotes (malloc'd;
 * NULL when out of memory). */
char *report_gp_quoted(const char *s);

/* ---- gnuplot data ---- */

/* The layer table: layer n kappa p rank_svd rank_qr. */
int report_cond_data(FILE *f, const LayerCond *lc, int m, double tau, Err *e);
/* Algorithm 1's iterations: iteration tau eta sum_n test_acc_percent
 * max_kappa kappa_1… n_1…. */
int report_alg1_data(FILE *f, const Alg1Record *rec, int n, Err *e);
/* A sweep's betas: beta err_tr err_v score score_min score_max trials pick. */
int report_betas_data(FILE *f, const ReportBeta *b, int n, int pick, Err *e);
/* A comparison per τ (report_compare.c): fraction_removed tau, then per
 * stage QR, norm, random mean and sd ("?" unknown); the stages measured
 * (their number) and a stage's title. */
int report_compare_data(FILE *f, const Alg3Compare *c, int n, Err *e);
int report_compare_stages(const Alg3Compare *c, int n, int stages[CMP_NSTAGES]);
const char *report_compare_stage_title(int s);

#endif
