/* reexec.h - running this very program again with other OpenBLAS kernels.
 *
 * OpenBLAS picks its kernels once, when it loads, before main() runs; it
 * reads OPENBLAS_CORETYPE then. So the only way to change them is to start
 * the program again with that variable set: the same binary, the same
 * argv, under the same process id and name. Both the reproducible mode
 * (repro.h) and the choice of kernels outside it (kernels.h) do so. */
#ifndef CONDNET_REEXEC_H
#define CONDNET_REEXEC_H

#include "base/err.h"

/* Set in the environment of the re-executed process (reexec_arrived reads
 * and removes it). */
#define REEXEC_MARK "CONDNET_REEXEC"

/* Executes this program again with OPENBLAS_CORETYPE=core: the file it was
 * started from when that is still the running binary (so that ps, top,
 * pgrep, pidof and killall see its name), else /proc/self/exe, after which
 * the new process takes back the name of argv[0] (reexec_arrived). Does not
 * return when it works; -1 with a message when it does not, ending with
 * what the system said ("cannot re-execute … with OPENBLAS_CORETYPE=X:
 * Argument list too long"; the environment is then as it was). */
int reexec_with_kernels(char **argv, const char *core, Err *e);

/* In a process reexec_with_kernels started: takes back its name when it
 * was started through /proc/self/exe, removes the mark and returns 1; in
 * any other process 0. Call once, before anything else reads the
 * environment's mark. */
int reexec_arrived(char **argv);

#endif
