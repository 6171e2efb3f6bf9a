/* report_run.h - the records the batch commands write with --json: the
 * algorithm's record (report.h) and what the command adds to it of its run
 * (the data set, the model, an interruption, a final training), and
 * condnet train's record with its epochs, also as CSV. (condnet squeeze's
 * record is report_squeeze.h's.) */
#ifndef CONDNET_REPORT_RUN_H
#define CONDNET_REPORT_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "alg/alg1_proportion.h"
#include "alg/alg2_scale.h"
#include "base/err.h"
#include "engine/cond.h"
#include "engine/net.h"
#include "engine/train_plan.h"
#include "report/report_squeeze.h"

struct cJSON;

/* condnet alg1: Algorithm 1's record, "data" and "interrupted"; its
 * "status" is "stopped" when the last iteration was stopped inside (stopped:
 * alg1_step returned 1), and the next run would do it again. */
struct cJSON *report_alg1_run_json(const Alg1 *a, const char *data, int interrupted, int stopped,
                                   Err *e);

/* What condnet sweep adds to the sweep's record. */
typedef struct SweepRun {
	const char *data;
	int interrupted;
	int final;             /* 1: the pick was trained fully (the fields below) */
	double final_epochs;   /* asked for */
	double final_test_acc; /* percent */
	const char *final_schedule;
	double final_warmup;
	int final_early_stop;     /* patience, 0 none */
	TrainResult final_result; /* what the final training did */
} SweepRun;
/* condnet sweep: the sweep's record (report_alg2_json), "data",
 * "interrupted" when it was, and the final training's "final_epochs",
 * "final_test_accuracy", "final_schedule", "final_warmup",
 * "final_early_stop", "final_epochs_run", "final_best_epoch" and
 * "final_val_accuracy" (with a validation set). */
struct cJSON *report_sweep_run_json(const Alg2 *a, const SweepRun *r, Err *e);

/* condnet cond: the cond record (report_cond_json); "squeeze": {"removed",
 * "layers"} (report_squeeze_layers_json) when rows is not NULL; "model"
 * when given; "test_accuracy" when not NaN. */
struct cJSON *report_cond_run_json(const Net *net, const LayerCond *lc, const SqueezeLayerRow *rows,
                                   int removed, const char *model, double test_acc, Err *e);

/* One epoch of condnet train: the training's epoch and the test accuracy
 * (percent, NaN without a test set) measured after it. */
typedef struct EpochRow {
	TrainEpoch te; /* its net is not kept */
	double test_acc;
} EpochRow;

/* What condnet train did. */
typedef struct TrainRun {
	const char *data;
	const Net *net;
	double epochs, epochs_done; /* asked for, and run (fractional) */
	int batch;
	double lr;
	int resumed, early_stop; /* early_stop: the patience, 0 none */
	TrainResult result;
	int validation_rows; /* 0 without a validation set */
	uint64_t seed;
	int interrupted;
	const EpochRow *hist;
	int nhist;
	double train_acc, test_acc; /* percent; test NaN without a test set */
} TrainRun;
/* condnet train's record: "command", "data", "shape", "act", "act_scale",
 * "epochs", "epochs_done", "batch", "lr", "schedule", "warmup", "resumed",
 * "early_stop", "epochs_run", "best_epoch", with a validation set
 * "validation_rows" and "val_accuracy", "seed", "interrupted", "history"
 * (an object per epoch: "epoch", "loss", "train_acc", "test_acc",
 * "seconds", "lr", "val_loss", "val_acc", each when measured),
 * "train_accuracy", "test_accuracy" (with a test set). */
struct cJSON *report_train_run_json(const TrainRun *t, Err *e);
/* The epochs as CSV, a row per epoch; an empty cell where a value was not
 * measured. */
int report_train_history_csv(FILE *f, const EpochRow *h, int n, Err *e);

#endif
