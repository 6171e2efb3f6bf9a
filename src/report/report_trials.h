/* report_trials.h - Algorithm 2's trials as files, so that the trials of a
 * sweep can run as separate processes (`condnet sweep --beta B --trial T
 * --out FILE`) and be gathered (`condnet sweep --gather`, alg2_trials.h):
 * {"beta", "trial", "err_tr", "err_v", "max_kappa", "seconds", "widths",
 * "settings"}, errors as fractions, the settings (alg2_trials.h) as strings. */
#ifndef CONDNET_REPORT_TRIALS_H
#define CONDNET_REPORT_TRIALS_H

#include "alg/alg2_scale.h"
#include "alg/alg2_trials.h"
#include "base/err.h"

/* A trial as JSON, with the widths n[0..m] of its network and the settings
 * it was made under: every double is written with the digits that read
 * back to the same bits. */
int report_trial_write(const char *path, const Alg2Trial *t, const int *widths, int m,
                       const Alg2Settings *st, Err *e);
/* Every file of paths[0..n), read back, in a new array named by their
 * paths (alg2_gather takes it; free it with alg2_trial_files_free): its
 * widths malloc'd (m + 1 entries), its settings (n = -1 when the file has
 * none, an older condnet's). Every field is checked (range, integrality),
 * and the message names the file and field. NULL with the message of the
 * first that cannot be read. */
Alg2TrialFile *report_trials_read(char **paths, int n, Err *e);

#endif
