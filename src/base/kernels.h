/* kernels.h - which OpenBLAS kernels condnet runs, and why.
 *
 * OpenBLAS picks its kernels for the CPU when it loads, from tables of the
 * CPUs its version knows. A CPU newer than its tables can be taken for a
 * much older one: OpenBLAS 0.3.21 (Debian 12's) runs its SSE3 kernels,
 * "Prescott", on Intel's family 6 model 207, which has AVX-512 (fixed in
 * OpenBLAS 0.3.25). Outside the reproducible mode, and when the user has
 * not set OPENBLAS_CORETYPE, condnet compares OpenBLAS's choice with the
 * best kernels the CPU's features allow (kernels_choose, the rule newer
 * OpenBLAS releases follow) and, when OpenBLAS chose less, runs itself again
 * with those (reexec.h). When a feature the better kernels need is missing
 * or its registers are not enabled by the OS, it keeps OpenBLAS's choice
 * and says why. The user's OPENBLAS_CORETYPE is always respected. */
#ifndef CONDNET_KERNELS_H
#define CONDNET_KERNELS_H

#include <stddef.h>

#include "base/cpu.h"
#include "base/err.h"

/* Why the kernels are the ones that run. */
typedef enum KernelsWhy {
	KERNELS_OPENBLAS,    /* OpenBLAS's choice, the best the CPU allows (or a
	                      * core condnet does not rank: not x86) */
	KERNELS_CHOSEN,      /* condnet's: better than OpenBLAS's choice */
	KERNELS_NO_AVX,      /* OpenBLAS's, kept: the CPU reports no AVX */
	KERNELS_OS_AVX,      /* kept: the OS has not enabled the AVX registers */
	KERNELS_NO_FMA,      /* kept: AVX2 without FMA */
	KERNELS_AVX512_PART, /* kept: AVX-512 F without all of CD, BW, DQ, VL */
	KERNELS_OS_AVX512,   /* kept: the OS has not enabled the AVX-512 registers */
	KERNELS_USER,        /* the user's OPENBLAS_CORETYPE */
	KERNELS_REPRO,       /* the reproducible mode's (repro.h) */
	KERNELS_NOT_TAKEN,   /* condnet asked for others; OpenBLAS runs these */
	KERNELS_NO_REEXEC,   /* OpenBLAS's: condnet could not run itself again */
} KernelsWhy;

typedef struct KernelsChoice {
	char core[32];     /* the kernels to run (kernels_choose) or that run */
	char openblas[32]; /* OpenBLAS's own choice for the CPU */
	char version[16];  /* OpenBLAS's version, "0.3.21" */
	char asked[32];    /* KERNELS_USER: OPENBLAS_CORETYPE; KERNELS_NOT_TAKEN
	                    * and KERNELS_NO_REEXEC: the kernels condnet chose */
	KernelsWhy why;
	unsigned missing; /* KERNELS_AVX512_PART: the CPU_AVX512* it lacks */
} KernelsChoice;

/* The choice, a pure function: OpenBLAS's core name and version and the
 * CPU's features → the kernels to run and why. The best the features allow
 * (the rule of OpenBLAS 0.3.25 and later, among the kernels 0.3.21 has):
 * Cooperlake with all of AVX-512 F, CD, BW, DQ, VL and BF16, SkylakeX
 * without BF16, both only when the OS saves the AVX-512 registers; then
 * Zen (AMD, Hygon) or Haswell with AVX2 and FMA; Sandybridge with AVX; all
 * of them only when the OS saves the AVX registers. When OpenBLAS's choice
 * ranks below it, that is the choice (KERNELS_CHOSEN); otherwise OpenBLAS's
 * stands, with the reason the CPU gets no better when one applies. */
void kernels_choose(const char *openblas, const char *version, const CpuFeatures *f,
                    KernelsChoice *k);
/* The rank of a core's kernels: 1 SSE only (Prescott, Nehalem, Barcelona…),
 * 2 AVX (Sandybridge, Bulldozer…), 3 AVX2 and FMA (Haswell, Zen,
 * Excavator), 4 SkylakeX, 5 Cooperlake, 6 SapphireRapids; 0 for a name
 * condnet does not know (any case). */
int kernels_rank(const char *core);
/* The why in words into buf: "chosen from the CPU's features; OpenBLAS
 * 0.3.21 took this CPU for Prescott" (brief: "chosen; OpenBLAS took
 * Prescott"); "" for KERNELS_OPENBLAS. */
const char *kernels_why_text(const KernelsChoice *k, int brief, char *buf, size_t len);

/* Outside the reproducible mode, before anything else runs: when
 * OPENBLAS_CORETYPE is not set and kernels_choose chooses other kernels
 * than OpenBLAS's, runs the program again with them (no return). 0 when
 * this process keeps its kernels; -1 with a message when the new ones
 * could not be had (the run goes on with OpenBLAS's). */
int kernels_enter(char **argv, Err *e);
/* The mark of condnet's choice in the environment (CONDNET_KERNELS), taken
 * for this process when it is the very process that chose and ran itself
 * again, with OPENBLAS_CORETYPE naming the kernels chosen and the choice the
 * one kernels_choose makes on this CPU; then removed from the environment,
 * whatever it held. 1 taken, 0 not (none, or one that is no record of
 * condnet's choice: kernels_current then calls OPENBLAS_CORETYPE the
 * user's). kernels_enter calls it first. */
int kernels_take_mark(void);
/* The kernels this process runs and why: the choice checked, never what
 * the environment claims (a mark kernels_take_mark did not take). */
void kernels_current(KernelsChoice *k);
/* "SkylakeX, chosen from the CPU's features; OpenBLAS 0.3.21 took this CPU
 * for Prescott", or the name alone, into buf (brief: "SkylakeX (chosen;
 * OpenBLAS took Prescott)"). */
const char *kernels_describe(int brief, char *buf, size_t len);

#endif
