/* alg2_trials.h - Algorithm 2's trials run apart, as separate processes
 * (`condnet sweep --beta B --trial T --out FILE`, one per trial, on one
 * machine or many), gathered into the same table the in-process sweep
 * gives (`condnet sweep --gather`). Their files are report/report_trials.h's. */
#ifndef CONDNET_ALG2_TRIALS_H
#define CONDNET_ALG2_TRIALS_H

#include "alg/alg2_scale.h"
#include "base/err.h"
#include "engine/net.h"

/* A trial run apart: its result and the widths n[0..m] of its network, and
 * the name (a file's path) messages give it. */
typedef struct Alg2TrialFile {
	Alg2Trial t;
	int *widths; /* m + 1, malloc'd */
	int m;
	const char *name;
} Alg2TrialFile;

/* Frees the widths of f[0..n) and f (NULL accepted). */
void alg2_trial_files_free(Alg2TrialFile *f, int n);

/* The sweep of the base network's shape over trials run apart: the β
 * values are o's when betas_given, else those of the trials; every β must
 * have each of its q trials exactly once, with the widths of base scaled by
 * β. The means are summed in trial order, so the result equals the
 * in-process sweep's bit for bit. When o->extend is set and the pick is at
 * an edge, the β Algorithm 2 adds beyond it (at most o->max_extend of them)
 * are taken from the trials as well; the first such β of which none holds
 * a trial goes into *next_beta (NaN when the sweep is complete), its row
 * empty. NULL with a message naming the trial or the missing one (and the
 * command that runs it). */
Alg2 *alg2_gather(const Net *base, const Alg2Opts *o, int betas_given, const Alg2TrialFile *files,
                  int nfiles, double *next_beta, Err *e);

#endif
