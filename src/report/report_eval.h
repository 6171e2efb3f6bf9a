/* report_eval.h - the tables and JSON record of `condnet eval` (one or more
 * networks on one labelled data set: accuracy, loss, per-class precision
 * and recall, confusion matrices, the agreement of every pair), the
 * agreement line of a squeeze, and the answers `condnet predict` writes. */
#ifndef CONDNET_REPORT_EVAL_H
#define CONDNET_REPORT_EVAL_H

#include <stdio.h>

#include "base/err.h"
#include "engine/evaluate.h"
#include "report/report.h"

/* One network evaluated. */
typedef struct EvalModel {
	const char *name; /* as given on the command line */
	const char *kind; /* "model", "onnx" or "npy" */
	const char *prep; /* how its inputs were made (prep_describe) */
	const Net *net;
	const Evaluation *ev;
} EvalModel;

/* What `condnet eval` shows: nm networks on the same rows, and the
 * agreement of every pair (i, j), i < j, in that order: (0,1), (0,2), …,
 * (1,2), …; nm·(nm−1)/2 of them. */
typedef struct EvalReport {
	const char *data;  /* the data set */
	const char *split; /* "test", "train" or "all" */
	int rows, k;       /* rows evaluated; classes (the networks' outputs) */
	const EvalModel *m;
	int nm;
	const Agreement *ag;
} EvalReport;

/* The tables: the networks (accuracy, loss), per class its rows and every
 * network's precision and recall, every network's confusion matrix (up to
 * 32 classes; the JSON record holds up to EVAL_MAX_CONFUSION), and with
 * two or more networks the agreement lines and the rows that differ per
 * class. Networks are numbered from 1 in the columns. */
int report_eval(FILE *f, const EvalReport *r, ReportFormat fmt, Err *e);
/* The per-class table as CSV, one row per network and class: model,
 * class, rows, answered, correct, precision, recall (precision and recall
 * in percent, empty when undefined). */
int report_eval_csv(FILE *f, const void *r, Err *e);
/* The record {"command":"eval","data","split","rows","classes","models":
 * [{"model","kind","shape","inputs","accuracy","loss","correct","per_class":
 * [{"class","rows","answered","correct","precision","recall"}],"confusion":
 * [[…]]}],"agreement":[{"rows","same","share","differ_per_class","a","b"}]}
 * (percentages in percent, NaN as null) written to path (- standard
 * output), atomically. */
int report_eval_write_json(const char *path, const EvalReport *r, Err *e);

/* "answers as the original on 99.67 % of the test set: 2 of its 600 rows
 * differ (1 of class 0, 1 of class 2)" into buf, set naming the rows ("the
 * test set"); the classes listed up to 8. */
const char *report_agreement_line(const Agreement *ag, const char *set, char *buf, size_t len);

/* The answers of predict: n rows of k classes, cls[r] and prob (n × k). */
typedef struct Answers {
	int n, k;
	const int *cls;
	const float *prob;
} Answers;
/* As CSV: a header "class,p0,…,p{k-1}", then one line per row in order,
 * the probabilities to float precision (%.9g). ud is an Answers. */
int report_answers_csv(FILE *f, const void *ud, Err *e);

#endif
