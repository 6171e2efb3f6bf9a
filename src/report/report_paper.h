/* report_paper.h - the tables of the paper's reports (condnet paper): each
 * a record kind described once in report_paper.c, its rows the figures the
 * caller (paper/) reads from the stage results set beside the paper's,
 * written as the reports write their tables (REPORT_MD_ROWS: "| 1 | 300 |"
 * under each column's rule). A figure not known (NaN) is "—", a κ that is
 * infinite "∞"; a column of the paper's figures that has none is left out.
 * Each writer returns 0, or -1 with a message (out of memory). */
#ifndef CONDNET_REPORT_PAPER_H
#define CONDNET_REPORT_PAPER_H

#include <stdio.h>

#include "base/err.h"

/* A layer at Algorithm 1's start and end beside the paper's (Tables 1 and
 * 4): n0, the width it starts with, is a column of Table 1 only. */
typedef struct ReportPaperAlg1 {
	double n0, k0, k0_paper, n1, n1_paper, k1, k1_paper;
} ReportPaperAlg1;
int report_paper_alg1(FILE *f, const ReportPaperAlg1 *r, int n, int with_n0, Err *e);

/* A β of Algorithm 2 (Table 2, Figure 4): the errors in percent, the pick
 * marked "◀"; the paper's columns when it has figures. */
typedef struct ReportPaperBeta {
	double beta;
	int pick;
	double err_tr, err_tr_paper, err_v, err_v_paper, score, score_paper;
} ReportPaperBeta;
int report_paper_betas(FILE *f, const ReportPaperBeta *r, int n, Err *e);

/* The test error (%) of a β fully trained (Tables 3 and 5). */
typedef struct ReportPaperError {
	double beta, err, err_paper;
} ReportPaperError;
int report_paper_errors(FILE *f, const ReportPaperError *r, int n, Err *e);

/* A layer's width and κ beside the paper's (Tables 7, 8 and 11), layers
 * numbered from 1. */
typedef struct ReportPaperLayer {
	double n, n_paper, kappa, kappa_paper;
} ReportPaperLayer;
int report_paper_layers(FILE *f, const ReportPaperLayer *r, int n, Err *e);

/* A squeeze at τ and its retraining (Tables 6, 8, 9, 10 and 12); trained
 * to convergence, the epochs run and the one kept (a column when some row
 * has them). */
typedef struct ReportPaperSqueeze {
	double tau, removed, removed_paper, before, before_paper, after, after_paper;
	double epochs, kept;
} ReportPaperSqueeze;
int report_paper_squeeze(FILE *f, const ReportPaperSqueeze *r, int n, Err *e);

/* The pick fully trained, here and in the paper: a row per figure that
 * either has (test and training accuracy, the validation accuracy, the
 * epochs run and kept, or the epochs to 100 % training accuracy). */
typedef struct ReportPaperPick {
	double test_acc, train_acc, val_acc, epochs, kept, epochs_full;
} ReportPaperPick;
int report_paper_pick(FILE *f, const ReportPaperPick *here, const ReportPaperPick *paper, Err *e);

/* κ and p of m layers (widths n) after each of ng trainings of η epochs
 * (Tables 14 and 15): kappa[i * ng + g], and the paper's beside each. */
typedef struct ReportPaperEta {
	int m, ng;
	const double *eta, *n;
	const double *kappa, *kappa_paper, *p, *p_paper;
} ReportPaperEta;
int report_paper_eta(FILE *f, const ReportPaperEta *t, Err *e);

/* Algorithm 1's widths per iteration (Tables 16 and 17): a column per
 * iteration (iter), a row per layer (widths[k * m + i]), then the paper's
 * output widths; the rows of max κ (the paper's beside it, NaN: none) and Σ
 * n. */
typedef struct ReportPaperHistory {
	int m, ni;
	const double *iter, *widths, *max_kappa, *max_kappa_paper, *sum_n, *paper_final;
} ReportPaperHistory;
int report_paper_history(FILE *f, const ReportPaperHistory *t, Err *e);

/* Squeeze-and-retrain rounds (Table 13): the hidden widths (nw of them),
 * the accuracy beside the paper's and, trained to convergence, the epochs
 * run and kept (none for the network as given: a blank). */
typedef struct ReportPaperRound {
	const double *widths;
	int nw;
	double acc, acc_paper, epochs, kept;
} ReportPaperRound;
int report_paper_rounds(FILE *f, const ReportPaperRound *r, int n, int converge, Err *e);

/* The stages of a run: their names, what of the paper each makes, their
 * seconds and a note on them ("" for none). */
typedef struct ReportPaperStage {
	const char *name, *what, *note;
	double seconds;
} ReportPaperStage;
int report_paper_stages(FILE *f, const ReportPaperStage *r, int n, Err *e);

/* A percentage that differs from the paper's by more than 0.3 points. */
typedef struct ReportPaperDiff {
	char what[112];
	double ours, paper;
} ReportPaperDiff;
/* "## Differences of more than 0.3 percentage points" and a line each
 * ("None."), linked to why ("" for no link). */
int report_paper_diffs(FILE *f, const ReportPaperDiff *d, int n, const char *why, Err *e);

#endif
