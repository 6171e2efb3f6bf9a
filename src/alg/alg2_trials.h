/* alg2_trials.h - Algorithm 2's trials as files, so that the trials of a
 * sweep can run as separate processes (`condnet sweep --beta B --trial T
 * --out FILE`, one per trial, on one machine or many) and be gathered into
 * the same table the in-process sweep gives (`condnet sweep --gather`). */
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

/* A trial as JSON, with the widths n[0..m] of its network and the settings
 * it was made under: every double is written with the digits that read
 * back to the same bits. */
int alg2_trial_write_json(const char *path, const Alg2Trial *t, const int *widths, int m,
                          const Alg2Settings *st, Err *e);
/* Reads one back; *widths is malloc'd (m + 1 entries); st (may be NULL)
 * receives the settings, n = -1 when the file has none (an older condnet's).
 * Every field is checked (range, integrality), and the message names the
 * file and field. */
int alg2_trial_read_json(const char *path, Alg2Trial *t, int **widths, int *m, Alg2Settings *st,
                         Err *e);

/* The sweep of the base network's shape over the trial files: the β values
 * are o's when betas_given, else those the files hold; every β must have
 * each of its q trials exactly once, with the widths of base scaled by β.
 * The means are summed in trial order, so the result equals the in-process
 * sweep's bit for bit. When o->extend is set and the pick is at an edge,
 * the β Algorithm 2 adds beyond it (at most o->max_extend of them) are
 * taken from the files as well; the first such β of which no file holds a
 * trial goes into *next_beta (NaN when the sweep is complete), its row
 * empty. Every file must record the settings st holds (those of the
 * gathering command) and all the same ones: a file made under another seed,
 * η, data set, … or without a record is refused, naming the setting, so that
 * the table never compares unlike trials. NULL with a message naming the
 * file or the missing trial (and the command that runs it). */
Alg2 *alg2_gather(const Net *base, const Alg2Opts *o, int betas_given, char **files, int nfiles,
                  const Alg2Settings *st, double *next_beta, Err *e);

#endif
