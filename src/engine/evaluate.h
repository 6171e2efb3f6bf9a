/* evaluate.h - how good a network is on a labelled data set, and how far two
 * networks answer alike.
 *
 * An evaluation holds what the network answers for every row (the class of
 * its largest output, as net_error counts it), the accuracy and loss
 * net_error gives to the bit, the confusion matrix and from it each class's
 * precision (of the rows answered c, the share of class c) and recall (of
 * the rows of class c, the share answered c). The agreement of two
 * networks is the share of the rows on which they answer the same class,
 * with the rows where they differ counted per class: what a person who
 * squeezed a network wants beside κ ("the squeezed network answers as the
 * original on 99.6 % of the test set"). A row whose outputs are not all
 * finite answers no class (net_answer): it counts as wrong, in no class's
 * precision or confusion column, and the loss is then not finite; two
 * networks agree on it only when both answer a class, the same. */
#ifndef CONDNET_EVALUATE_H
#define CONDNET_EVALUATE_H

#include "base/err.h"
#include "data/dataset.h"
#include "engine/net.h"
#include "engine/train.h"

/* The most classes whose confusion matrix an evaluation keeps (k² counts). */
#define EVAL_MAX_CONFUSION 1024

typedef struct Evaluation {
	int n;           /* rows */
	int k;           /* classes: the network's outputs */
	int *cls;        /* n: the class answered for each row */
	float *prob;     /* n × k probabilities, or NULL when not asked for */
	long correct;    /* rows answered right */
	long no_answer;  /* rows answered no class (NET_NO_ANSWER: an output not
	                  * finite); counted wrong, in no class's answers */
	double error;    /* 1 − correct/n: net_error's */
	double loss;     /* mean cross-entropy: net_error's */
	long *rows;      /* k: rows of class c */
	long *answered;  /* k: rows answered c */
	long *hits;      /* k: rows of class c answered c */
	long *confusion; /* k × k: [t·k + a] rows of class t answered a; NULL
	                  * above EVAL_MAX_CONFUSION classes */
} Evaluation;

/* Evaluates net on the rows of d (labels below net's outputs, else an
 * error naming the row); with_prob keeps the probabilities. progress as
 * net_classify's (may be NULL). 0, 1 when progress asked to stop, -1. */
int net_evaluate(const Net *net, const Dataset *d, int with_prob, NetRowsFn progress, void *ud,
                 Evaluation *out, Err *e);
void evaluation_free(Evaluation *ev); /* frees the arrays, not ev */

/* Precision and recall of class c in [0, 1], NaN when no row is answered c
 * (precision) or of class c (recall). */
double evaluation_precision(const Evaluation *ev, int c);
double evaluation_recall(const Evaluation *ev, int c);

typedef struct Agreement {
	long n;       /* rows compared */
	long same;    /* rows answered alike */
	double share; /* same/n in [0, 1] */
	int k;
	long *differ; /* k: rows of class c answered differently */
} Agreement;

/* The agreement of a and b, answers cls for the same n rows with labels y
 * (below k). */
int agreement_of(const int *a, const int *b, const int *y, int n, int k, Agreement *out, Err *e);
/* The same of two evaluations of one data set (y its labels). */
int evaluation_agreement(const Evaluation *a, const Evaluation *b, const int *y, Agreement *out,
                         Err *e);
/* The agreement of networks a and b on d, evaluated here. */
int net_agreement(const Net *a, const Net *b, const Dataset *d, Agreement *out, Err *e);
void agreement_free(Agreement *ag); /* frees the array, not ag */

#endif
