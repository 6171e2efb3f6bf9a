/* report_stage.h - the stage files of the paper's experiments
 * (OUT/STAGE.json; docs/runs/README.md gives the schema): a stage's result
 * is built here, from the records of report.h, and read back by the paper's
 * report (src/paper). Each function adds one part of a result to the object
 * it is given; a stage's own layout (which parts, under which name) is the
 * stage's.
 *
 * The records inside: a network's κ (report_net_json), Algorithm 1
 * (report_alg1_json), a β sweep (report_alg2_json), a squeeze round
 * (report_squeeze_round_json), what a training did (report_trained_json). */
#ifndef CONDNET_REPORT_STAGE_H
#define CONDNET_REPORT_STAGE_H

#include "alg/alg1_proportion.h"
#include "alg/alg2_scale.h"
#include "alg/alg3_squeeze.h"
#include "base/err.h"
#include "base/repro.h"
#include "engine/cond.h"
#include "engine/net.h"
#include "engine/train_plan.h"

struct cJSON;

/* An empty result (or partial result) of a stage; NULL with a message when
 * out of memory. Free it with cJSON_Delete unless it is kept. */
struct cJSON *report_stage_new(Err *e);
/* Writes a stage's result, or the work of a stage so far (its partial
 * file), to path atomically, after recording in it "reproducible",
 * "kernels", "threads" and "parts" (what it was computed with, mode) and
 * "seconds" (the time it took, with that of earlier runs it resumed). */
int report_stage_write(struct cJSON *out, const ReproRecord *mode, double seconds, const char *path,
                       Err *e);
/* "settings": what the stage's numbers depend on, as n named text fields
 * (keys[i]: values[i]); and "data": the data it computed on, when data is
 * neither NULL nor "". Each replaces what out held; -1 with a message when
 * out of memory. */
int report_stage_settings(struct cJSON *out, const char *const *keys, const char *const *values,
                          int n, const char *data, Err *e);
/* Moves every part of a partial result but its "seconds" and mode into out. */
int report_stage_take(struct cJSON *out, struct cJSON *part, Err *e);

/* Algorithm 1's record (report_alg1_json), part by part, into out. */
int report_stage_alg1(struct cJSON *out, const Alg1 *a, Err *e);
/* A β sweep's record (report_alg2_json), part by part, into out. */
int report_stage_sweep(struct cJSON *out, const Alg2 *a, Err *e);
/* A sub-object key of out (made when absent), for a record of its own. */
struct cJSON *report_stage_part(struct cJSON *out, const char *key, Err *e);

/* "acc": the test accuracy (percent) of the network a stage starts from. */
int report_stage_acc(struct cJSON *out, double acc, Err *e);
/* "beta": the β of the network a stage trains. */
int report_stage_beta(struct cJSON *out, double beta, Err *e);
/* "net": the network's κ from its conditioning at the record's τ (lc, its
 * m layers': report_net_json). */
int report_stage_net(struct cJSON *out, const Net *net, const LayerCond *lc, Err *e);
/* What a training did (report_trained_json). */
int report_stage_trained(struct cJSON *out, const TrainResult *r, Err *e);
/* A network trained fully: what the training did, "train_acc" (on the
 * data it trained on), "test_acc" and "net" (its κ: lc). */
int report_stage_fit(struct cJSON *out, const Net *net, const LayerCond *lc, const TrainResult *r,
                     double train_acc, double test_acc, Err *e);
/* "seconds_note": why the seconds leave something out. */
int report_stage_seconds_note(struct cJSON *out, const char *note, Err *e);

/* The array of rows named key ("rows", "betas", "iterations", …), made
 * when absent; NULL with a message when out of memory. */
struct cJSON *report_stage_rows(struct cJSON *out, const char *key, Err *e);
/* A new empty row appended to rows, for the parts above; NULL when out of
 * memory. */
struct cJSON *report_stage_row(struct cJSON *rows, Err *e);
/* Squeeze rounds (report_squeeze_round_json) appended to rows: one squeeze,
 * or those of a squeeze repeated until stable. */
int report_stage_rounds(struct cJSON *rows, const Alg3Round *r, int n, double tau, Err *e);
/* A row of the η stage: the network's κ (lc) after training to η epochs,
 * and "eta". */
int report_stage_eta_row(struct cJSON *rows, const Net *net, const LayerCond *lc, double eta,
                         Err *e);

#endif
