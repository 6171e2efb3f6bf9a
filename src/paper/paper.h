/* paper.h - reproduction of the paper's experiments (Section 5), stage by
 * stage, with a Markdown report that sets every figure beside the paper's.
 *
 * Each stage writes OUT/<stage>.json (and the models later stages need);
 * a stage whose file is already there is read back instead of recomputed,
 * so an interrupted run resumes where it stopped. */
#ifndef CONDNET_PAPER_H
#define CONDNET_PAPER_H

#include "base/err.h"
#include "paper/paper_settings.h"

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
