/* alg2_trials.h - Algorithm 2's trials as files, so that the trials of a
 * sweep can run as separate processes (`condnet sweep --beta B --trial T
 * --out FILE`, one per trial, on one machine or many) and be gathered into
 * the same table the in-process sweep gives (`condnet sweep --gather`). */
#ifndef CONDNET_ALG2_TRIALS_H
#define CONDNET_ALG2_TRIALS_H

#include "alg/alg2_scale.h"
#include "base/err.h"
#include "engine/net.h"

/* A trial as JSON, with the widths n[0..m] of its network: every double is
 * written with the digits that read back to the same bits. */
int alg2_trial_write_json(const char *path, const Alg2Trial *t, const int *widths, int m, Err *e);
/* Reads one back; *widths is malloc'd (m + 1 entries). Every field is
 * checked (range, integrality), and the message names the file and field. */
int alg2_trial_read_json(const char *path, Alg2Trial *t, int **widths, int *m, Err *e);

/* The sweep of the base network's shape over the trial files: the β values
 * are o's when betas_given, else those the files hold; every β must have
 * each of its q trials exactly once, with the widths of base scaled by β.
 * The means are summed in trial order, so the result equals the in-process
 * sweep's bit for bit. When o->extend is set and the pick is at an edge,
 * the β Algorithm 2 adds beyond it (at most o->max_extend of them) are
 * taken from the files as well; the first such β of which no file holds a
 * trial goes into *next_beta (NaN when the sweep is complete), its row
 * empty. NULL with a message naming the file or the missing trial (and the
 * command that runs it). */
Alg2 *alg2_gather(const Net *base, const Alg2Opts *o, int betas_given, char **files, int nfiles,
                  double *next_beta, Err *e);

#endif
