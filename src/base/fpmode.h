/* fpmode.h - the floating-point mode condnet computes in: subnormal numbers
 * are flushed to zero (FTZ: a result too small to be normal becomes 0) and
 * treated as zero when read (DAZ).
 *
 * Why: in the backward pass of a saturated erf neuron, erf'(a·z) is ~1e-38
 * and the gradient that flows through it is subnormal; on many x86 cores
 * every arithmetic operation that reads or makes a subnormal float takes a
 * microcode assist of ~100 cycles, and training slows down epoch after
 * epoch as more neurons saturate (docs/performance.md). Values below
 * FLT_MIN (1.2e-38) carry no information that training could use.
 *
 * The mode is a per-thread register (MXCSR on x86-64, FPCR on AArch64). It
 * must be the same in every thread that computes, or results would depend
 * on which thread did the work: blas.c sets it in the main thread before
 * main() runs and restarts OpenBLAS's worker threads so they inherit it, and
 * every thread condnet starts (thread_start) sets it first. The mode is
 * deterministic: results stay the same for a given seed and thread count. */
#ifndef CONDNET_FPMODE_H
#define CONDNET_FPMODE_H

#include <pthread.h>

/* Sets FTZ and DAZ in the calling thread: 1, or 0 where the architecture
 * has no such mode (the thread then computes with IEEE subnormals). */
int fpmode_set(void);
/* Restores the IEEE default (subnormals kept) in the calling thread; for
 * benchmarks that measure what the mode saves. */
void fpmode_clear(void);
/* 1 when the calling thread computes with FTZ and DAZ, else 0. */
int fpmode_active(void);

/* pthread_create for condnet's own threads: the new thread sets the mode
 * (fpmode_set) before it calls fn(arg). Returns pthread_create's result. */
int thread_start(pthread_t *th, void *(*fn)(void *), void *arg);

#endif
