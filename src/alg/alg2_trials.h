/* alg2_trials.h - Algorithm 2's trials run apart, as separate processes
 * (`condnet sweep --beta B --trial T --out FILE`, one per trial, on one
 * machine or many), gathered into the same table the in-process sweep
 * gives (`condnet sweep --gather`): the settings a trial's numbers depend
 * on, and the gather. Their files are report/report_trials.h's. */
#ifndef CONDNET_ALG2_TRIALS_H
#define CONDNET_ALG2_TRIALS_H

#include "alg/alg2_scale.h"
#include "base/err.h"
#include "data/dataset.h"
#include "engine/net.h"

/* What a trial's numbers depend on besides its β and its number: the
 * settings it was trained under, as named text fields (the seed, η, the
 * activation and its scale, the batch, the learning rate, the parts a batch
 * is split into, the reproducible mode, the data set as the command line
 * named it, and, once the data are read, their sizes and the CRC-32 of
 * their numbers). Every trial file records them; a gather compares them. */
enum { ALG2_SETTINGS_MAX = 16 };
typedef struct Alg2Settings {
	int n;
	struct {
		char key[24];
		char value[200];
	} f[ALG2_SETTINGS_MAX];
} Alg2Settings;

/* The settings of the trials o runs on base's shape; all is the data set
 * the training and validation rows are split from (NULL when not read: the
 * fields of the data's numbers are then left out), data the command line's
 * name for it with its options ("synthetic --limit 20 --val-frac 0.1"). */
void alg2_settings(Alg2Settings *st, const Alg2Opts *o, const Net *base, const Dataset *all,
                   const char *data);

/* A trial run apart: its result, the widths n[0..m] of its network, the
 * settings it was made under (n = -1 when it records none: an older
 * condnet's), and the name (a file's path) messages give it. */
typedef struct Alg2TrialFile {
	Alg2Trial t;
	int *widths; /* m + 1, malloc'd */
	int m;
	Alg2Settings st;
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
 * empty. Every trial must record the settings st holds (those of the
 * gathering command) and all the same ones: a trial made under another
 * seed, η, data set, … or without a record is refused, naming the setting,
 * so that the table never compares unlike trials. NULL with a message
 * naming the trial or the missing one (and the command that runs it). */
Alg2 *alg2_gather(const Net *base, const Alg2Opts *o, int betas_given, const Alg2TrialFile *files,
                  int nfiles, const Alg2Settings *st, double *next_beta, Err *e);

#endif
