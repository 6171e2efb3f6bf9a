/* repro.h - the reproducible mode: the same bits on every x86-64 machine
 * with AVX2 and FMA.
 *
 * What makes a run differ between machines at a fixed seed is the kernels
 * OpenBLAS picks for the CPU (their blocking and their order of additions)
 * and the number of parts a batch is split into (train_pass.h). The mode
 * fixes both: OpenBLAS runs its Haswell kernels (the process re-executes
 * itself with OPENBLAS_CORETYPE=Haswell when OpenBLAS chose others, since
 * the library reads it when it loads), and every batch is split into
 * REPRO_PARTS parts whatever the thread count (threads only decide how many
 * of them compute at once). Everything else condnet computes already gives
 * the same bits for any thread count: evaluation in fixed chunks, the Adam
 * step and the activations element by element, κ in its own order.
 *
 * A record of the mode (ReproRecord) goes into every file that can be
 * replayed, and repro_compare says when a replay runs under another one. */
#ifndef CONDNET_REPRO_H
#define CONDNET_REPRO_H

#include <stddef.h>

#include "base/err.h"

/* The parts of every batch, and the OpenBLAS kernels, of the mode. */
#define REPRO_PARTS 2
#define REPRO_KERNELS "Haswell"

/* The mode argv asks for: the last of --reproducible and --no-reproducible
 * among argv[1..argc), else def. */
int repro_wanted(int argc, char **argv, int def);

/* Enters the mode before anything else runs: refuses a CPU without AVX2 and
 * FMA; when OpenBLAS did not pick its Haswell kernels, re-executes the
 * program with OPENBLAS_CORETYPE=Haswell (reexec.h), which does not return
 * when it works; refuses when the kernels are still others after that. 0
 * once in the mode, -1 with a message. */
int repro_enter(char **argv, Err *e);
/* 1 in the mode, else 0. */
int repro_on(void);
/* The parts a batch is split into for `threads` threads: REPRO_PARTS in the
 * mode, else threads (train_pass.h may use fewer for a small network). */
int repro_parts(int threads);

/* What a run computed with: the mode, OpenBLAS's kernels, the threads and
 * the parts asked for. kernels "" and threads 0 when not recorded. */
typedef struct ReproRecord {
	int on;
	char kernels[32];
	int threads, parts;
} ReproRecord;

/* This process's record for `threads` threads (≥ 1). */
void repro_current(ReproRecord *r, int threads);
/* "reproducible=on kernels=Haswell threads=2 parts=2" into buf. */
const char *repro_format(const ReproRecord *r, char *buf, size_t len);
/* Reads the words repro_format writes (others are skipped) into r; 0, or
 * -1 with a message when s holds no kernels= word. */
int repro_parse(const char *s, ReproRecord *r, Err *e);
/* 0 when a run under `now` computes what `rec` recorded (same kernels and
 * parts), or rec records nothing (kernels ""); else -1 and e says how they
 * differ: "recorded with Haswell kernels, 2 parts; this run: SkylakeX, 2
 * parts — numbers may differ" (a warning to show: nothing failed). */
int repro_compare(const ReproRecord *rec, const ReproRecord *now, Err *e);

#endif
