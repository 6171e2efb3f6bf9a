/* paper.h - reproduction of the paper's experiments (Section 5), stage by
 * stage, with a Markdown report that sets every figure beside the paper's.
 *
 * Each stage writes OUT/<stage>.json (and the models later stages need);
 * a stage whose file is already there is read back instead of recomputed,
 * so an interrupted run resumes where it stopped. */
#ifndef CONDNET_PAPER_H
#define CONDNET_PAPER_H

#include <stdint.h>

#include "base/err.h"
#include "engine/hook.h"

typedef struct PaperOpts {
	const char *which;    /* "mnist" or "adult" */
	const char *out;      /* stage directory */
	const char *report;   /* Markdown report path */
	const char *data_dir; /* NULL: the default data directory */
	const char *stages;   /* comma-separated stage names to run, NULL = all */
	int quick;            /* small subset, few epochs: a smoke run */
	int converge;         /* 1: every full training to convergence (paper_stage.h),
	                       * not as written */
	float act_a;          /* a in the hidden layers' erf(a·x): 1 is the paper's */
	int no_report;        /* run the stages, write no report */
	int data_scale;       /* DATA_RAW (the paper's), DATA_CENTER or DATA_STANDARDIZE */
	uint64_t seed;
	int threads;
	/* Training progress, and a HOOK_NOTE line per stage event ("alg1: done
	 * in 12.3 s"); may be NULL. */
	const Hook *hook;
} PaperOpts;

/* Names of the stages of an experiment, NULL-terminated. */
const char *const *paper_stage_names(const char *which);

/* Runs the stages asked for (reading back those done) and writes the
 * report. 0; 1 when the hook stopped a stage (the stages done are kept
 * whole, the rest run on the next call); -1. */
int paper_run(const PaperOpts *o, Err *e);

/* Whether a stage result or partial file in o->out was computed under other
 * OpenBLAS kernels or another split of the batches than this run would use
 * (base/repro.h), so that what is computed now may not match it: 0 when
 * every file matches or records nothing, else -1 and e holds the warning
 * to show: "OUT/alg1.json: recorded with Haswell kernels, 2 parts; this
 * run: SkylakeX, 2 parts — numbers may differ". */
int paper_check_records(const PaperOpts *o, Err *e);

/* The stages that can run now, each as a separate process (`condnet paper
 * WHICH --stages NAME`, at the same time as the others): those asked for
 * (o->stages, all when NULL) whose result is not in o->out yet and whose
 * inputs, the results and models of the stages they read, are. mnist's
 * alg1, eta, tau and over and adult's alg1 and over read only the data;
 * alg2 reads alg1's result, final and verify alg2's, squeeze final's model
 * and add20 squeeze's. Their names into ready (NULL-terminated, room for
 * every stage and the NULL); *waiting receives the number of the others
 * not done. */
int paper_ready(const PaperOpts *o, const char **ready, int *waiting, Err *e);

#endif
