/* paper_stage.h - what the paper reproductions of MNIST and Adult share:
 * the results of the stages (paper_result.c), the steps stages are made of
 * (paper_steps.c), the JSON of their results (paper_json.c) and the
 * Markdown of the reports (paper_markdown.c).
 *
 * Stage results are JSON objects written to OUT/<stage>.json and read back;
 * report/report_stage.h builds them (the paper's files only read them). The
 * schema, one for every stage (docs/runs/README.md):
 *   - a network is {"n": [n_0, …, n_m], "kappa": [κ_1, …, κ_m], "p": [p_1, …, p_m]}
 *     (n_0 the inputs, n_m the classes; κ = ∞ is null; p at the τ of the stage);
 *   - Algorithm 1 is the record of report_alg1_json (src/report/report.h):
 *     its options, status and reason, and "history": one network-like
 *     object per iteration with max_kappa, sum_n, train_error, seconds, tau
 *     and eta;
 *   - Algorithm 2 is the record of report_alg2_json: {"betas": [{"beta",
 *     "n", "trials", "err_tr", "err_v", "score"}…], "pick", "pick_n", "q",
 *     "eta", "seed"} with errors in percent;
 *   - a squeeze row is {"tau", "removed", "removed_per_layer", "acc_before",
 *     "acc_after", "epochs", "net"} with accuracies in percent (the
 *     iterations of Adult's over are such rows, the first the network as
 *     given; files made before then hold that one as a network with
 *     "acc_after" and "removed");
 *   - a full training records "epochs" (run) and, trained to convergence,
 *     "best_epoch" (the epoch kept) and "val_acc" (its validation accuracy,
 *     percent);
 *   - every stage adds "seconds", "threads" and what it computed with:
 *     "reproducible" (the mode, true or false), "kernels" (OpenBLAS's,
 *     "Haswell") and "parts" (a batch's split: base/repro.h). */
#ifndef CONDNET_PAPER_STAGE_H
#define CONDNET_PAPER_STAGE_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "alg/alg1_proportion.h"
#include "base/err.h"
#include "base/repro.h"
#include "data/dataset.h"
#include "engine/cond.h"
#include "engine/net.h"
#include "engine/train.h"
#include "engine/train_plan.h"
#include "paper/paper_settings.h"
#include "report/report_paper.h"

/* The most stages an experiment has. */
#define PAPER_MAX_STAGES 16

typedef struct Stage Stage;

typedef struct Paper {
	PaperOpts o;
	const Stage *stages;   /* the experiment's */
	Dataset *train, *test; /* the full training and test sets */
	Dataset *tr, *val;     /* Algorithm 2's training and validation parts */
	struct {
		const char *name; /* a stage's (static) */
		cJSON *r;         /* its result */
	} res[PAPER_MAX_STAGES];  /* in the order they were read or run */
	int nres;
	TrainOpts topt;     /* Adam, lr 1e-3, the experiment's batch */
	double t0;          /* when the running stage started (monotonic) */
	double before;      /* its seconds in earlier runs (from its partial file) */
	char data_rec[256]; /* the data read (paper_data_record), "" before */
} Paper;

struct Stage {
	const char *name;
	const char *what;                         /* the paper's table or figure */
	int (*run)(Paper *p, cJSON *out, Err *e); /* 0, 1 stopped, -1 */
	const char *needs; /* the stages whose results or models it reads, comma-separated */
};

/* ---- the results of the stages (paper_result.c) ---- */

/* Reads back a stage's earlier result or, if there is none and run is set,
 * runs it; p->res[name] is then set. 0, 1 when the run's hook stopped it,
 * -1. The result's "seconds" is the stage's
 * wall time, with that of its earlier runs when it resumed inside itself (a
 * stage may explain it in "seconds_note"). */
int paper_stage(Paper *p, const Stage *s, int run, Err *e);
/* A long stage's work so far, kept in OUT/<stage>.partial.json so that an
 * interrupted run resumes inside the stage: load returns what was saved (an
 * empty object when nothing was), save rewrites it atomically with the
 * seconds spent so far in "seconds", which load carries into p->before.
 * paper_stage removes the file once the stage is done. NULL (e filled)
 * when out of memory. */
cJSON *paper_partial_load(Paper *p, const char *stage, Err *e);
int paper_partial_save(const Paper *p, const char *stage, cJSON *part, Err *e);
/* The result of an earlier stage, or a failure saying which stage to run. */
cJSON *paper_need(const Paper *p, const char *stage, Err *e);
/* The result of an earlier stage, or NULL. */
cJSON *paper_result(const Paper *p, const char *stage);
const char *paper_path(const Paper *p, const char *file, char *buf, size_t len);
/* A HOOK_NOTE line to the run's hook. */
void paper_say(const Paper *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Parameters shared by stage and report (quick runs shrink them). */
int paper_scaled(const Paper *p, int width);

/* ---- the steps (paper_steps.c) ---- */

/* A fresh network for the data set with the given hidden widths (Glorot, erf). */
Net *paper_net(const Paper *p, const int *hidden, int nh, uint64_t seed, Err *e);
/* The paper's training: Adam with the experiment's batch, every call
 * shuffling with a seed derived from the run's seed and the network
 * (train_plan_seed). paper_train trains `epochs` on d (Algorithm 1's and
 * 2's η, Tables 14-15). */
TrainPlan paper_plan(const Paper *p, double epochs, int until_full);
int paper_train(const Paper *p, Net *net, const Dataset *d, double epochs, Err *e);

/* "Trained to convergence" (--converge): on Algorithm 2's training part, at
 * most PAPER_CONVERGE_CAP epochs with the learning rate on a cosine from
 * --lr down to 0 at that epoch, stopped PAPER_CONVERGE_PATIENCE epochs
 * after the best accuracy on its validation part, that epoch's weights
 * kept. (On MNIST's best network this beat the plateau schedule
 * plateau:2:0.1 on validation accuracy: docs/reproduction-notes.md.) */
#define PAPER_CONVERGE_CAP(p) ((p)->o.quick ? 4 : 30)
#define PAPER_CONVERGE_PATIENCE(p) ((p)->o.quick ? 1 : 5)
void paper_converge_schedule(const Paper *p, LrSchedule *s);
/* A full training ("fully trained", retraining after a squeeze): as
 * written, `epochs` on the whole training set (whole epochs until every
 * training row is right, at most `epochs`, when until_full); to convergence
 * as above. *d receives the data set it trains on (paper_fit_data). */
TrainPlan paper_full_plan(const Paper *p, double epochs, int until_full, const Dataset **d);
const Dataset *paper_fit_data(const Paper *p);
/* Trains net by paper_full_plan; *r (may be NULL) receives what it did. */
int paper_fit(const Paper *p, Net *net, double epochs, int until_full, TrainResult *r, Err *e);
int paper_save(const Paper *p, const Net *net, const char *file, Err *e);
/* The test accuracy of the network a stage starts from, into its result
 * ("acc"). 0, 1 when stopped, -1. */
int paper_stage_acc(const Paper *p, const Net *net, cJSON *out, Err *e);
/* The network's conditioning at τ for a stage's record (cond_net_free it),
 * or NULL with a message (a stop included: the stage is cut short). */
LayerCond *paper_cond(const Net *net, double tau, Err *e);
Net *paper_load(const Paper *p, const char *file, Err *e);

/* Algorithm 3 on a copy of net at τ, then retraining by paper_full_plan
 * (as written, until_full: until every training row is right, at most
 * `epochs`; else exactly `epochs`): a squeeze row appended to rows. *keep
 * receives the retrained network if keep is not NULL, *score (may be NULL)
 * the accuracy the best row is chosen by (on the validation part when
 * trained to convergence, else on the test set). */
int paper_squeeze_row(const Paper *p, const Net *net, double tau, int epochs, int until_full,
                      cJSON *rows, Net **keep, double *score, Err *e);
/* paper_squeeze_row for each τ, rows appended to out's "rows"; the best
 * retrained model saved as best_file if not NULL. */
int paper_squeeze_list(Paper *p, const Net *net, const double *taus, int nt, int epochs,
                       int until_full, const char *best_file, cJSON *out, Err *e);
/* The squeeze stage: the final model's test accuracy, then
 * paper_squeeze_list on it. */
int paper_squeeze_final(Paper *p, const double *taus, int nt, int epochs, int until_full,
                        const char *best_file, cJSON *out, Err *e);
/* The paper's Table 13 on net (consumed): squeeze at τ and retrain `epochs`
 * (paper_full_plan), until a squeeze removes nothing; rows into iterations
 * (the first the network as given). */
int paper_squeeze_rounds(Paper *p, Net *net, double tau, int epochs, cJSON *iterations, Err *e);

/* Algorithm 1 from the given hidden widths; its record into out, the final
 * trained network saved as `save` (if not NULL). */
int paper_alg1(Paper *p, const int *hidden, int nh, double tau, double eta, int round, int max_iter,
               const char *save, cJSON *out, Err *e);
/* Algorithm 2 on the widths of the "alg1" stage's result. */
int paper_sweep(Paper *p, const char *betas, int q, double eta, cJSON *out, Err *e);
/* Hidden widths of the "alg2" row of β (of its pick when beta is NaN); returns their count. */
int paper_sweep_widths(const Paper *p, double beta, int *w, Err *e);
/* A fresh network of these widths trained fully (paper_fit: at most
 * max_epochs as written); epochs, accuracies (training: on the data it
 * trained on) and κ into out, saved as `save` if not NULL. */
int paper_train_fresh(Paper *p, const int *w, int nh, int max_epochs, cJSON *out, const char *save,
                      Err *e);
/* The pick of the "alg2" stage trained fully from fresh weights (saved as
 * final.model), and every β of it trained fully (the verification tables). */
int paper_final(Paper *p, int max_epochs, cJSON *out, Err *e);
int paper_verify(Paper *p, int max_epochs, cJSON *out, Err *e);

/* ---- reading stage JSON (paper_json.c) ---- */

/* The widths obj[key], an array whose entries are integers from 1 to
 * LIMIT_MAX_WIDTH (checked before they are converted), into out (at most
 * max): its length, or -1 with a message naming the field. */
int paper_json_ints(const cJSON *obj, const char *key, int *out, int max, Err *e);
double paper_json_num(const cJSON *obj, const char *key);
/* The record of the mode a stage result was computed in (base/repro.h),
 * kernels "" when it has none. */
void paper_stage_record(const cJSON *obj, ReproRecord *r);
/* Array element i of obj[key] as a number: ∞ for null, NaN when absent. */
double paper_json_at(const cJSON *obj, const char *key, int i);
/* The network object of a squeeze row: its "net", or the row itself for
 * the first of the iterations files made before it had one. */
const cJSON *paper_json_row_net(const cJSON *row);
/* The layers m of a network object (its "n" has m + 1 entries), and the
 * width n_{i+1} of its layer i + 1 (i from 0). */
int paper_json_layers(const cJSON *net);
double paper_json_width(const cJSON *net, int i);

/* ---- Markdown (paper_markdown.c) ---- */

/* A report being written: its text (the prose; every table goes through
 * report/report_paper.h), and the figures that differ from the paper's by
 * more than 0.3 points, listed at its end. Each md_ function that can fail
 * returns 0, or -1 with a message (out of memory). */
typedef struct Md {
	FILE *f;
	ReportPaperDiff *diff; /* the differences so far (malloc'd) */
	int ndiff, capdiff;
	int converge;  /* trained to convergence: tables show the epochs run and kept */
	char why[256]; /* where each flagged difference is explained (a link), "" for none */
} Md;

/* The report's head: title, how to regenerate, the machine, stage times. */
int md_head(const Paper *p, Md *md, const char *title, Err *e);
/* Notes a percentage that differs from the paper's by more than 0.3 points;
 * md_flags() lists them at the end of the report and empties the list. */
int md_flag(Md *md, const char *what, double ours, double paper, Err *e);
int md_flags(Md *md, Err *e);
/* Links every flagged difference to section anchor of
 * docs/reproduction-notes.md, relative to the report (docs/NAME.md, or a
 * folder below docs/); no link for a report outside a docs/ folder. */
void md_why(Md *md, const char *report, const char *anchor);
/* The row of β in a table of the paper's that starts at beta0 and steps by
 * 0.2 (its 8 rows), or -1. */
int md_beta_row(double beta, double beta0);
/* A squeeze table (τ, removed, accuracy before and after retraining, and
 * when trained to convergence the retraining's epochs) with the paper's rows
 * {τ, removed, before, after} beside ours; name labels flags. */
int md_squeeze_rows(Md *md, const cJSON *rows, const double (*paper)[4], int np, const char *name,
                    Err *e);
/* "## NAME — test error of every β fully trained": the verification stage's
 * rows beside paper[0..8), the paper's errors for β = beta0, beta0 + 0.2, …. */
int md_test_errors(Md *md, const cJSON *ver, const double *paper, double beta0, const char *name,
                   Err *e);
/* "; trained N epochs, epoch B kept" of a full training's record when
 * trained to convergence, else nothing. */
void md_epochs(Md *md, const cJSON *r);
/* "retrained to convergence" or the as-written words given. */
const char *md_retrained(const Md *md, const char *as_written);

/* ---- the two experiments ---- */
extern const Stage paper_mnist_stages[];
extern const Stage paper_adult_stages[];
/* The report of each, into md (0, or -1 with a message). */
int paper_mnist_report(const Paper *p, Md *md, Err *e);
int paper_adult_report(const Paper *p, Md *md, Err *e);

#endif
