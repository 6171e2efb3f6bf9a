/* pool.h - a team of computing threads that stays up between jobs.
 *
 * A job is a sequence of phases, each split into parts: pool_run calls
 * fn(arg, phase, part) once for every phase and part. The pool's threads
 * claim the parts of a phase one at a time and run them at once, and phase
 * k + 1 starts when every part of phase k has returned. So the parts of a
 * phase may write disjoint outputs and read what earlier phases wrote, and a
 * part computes the same bits whichever thread runs it: the result of a job
 * depends on how it is split into parts, never on the number of threads or
 * on which of them ran which part. A thread that the system deschedules
 * leaves its parts to the others instead of holding them up.
 *
 * The threads start once (thread_start, so they compute with subnormals
 * flushed to zero) and wait between phases and between jobs by spinning for
 * a few tens of microseconds, then sleeping; a small product is handed to a
 * thread that is already awake instead of one woken for each call. */
#ifndef CONDNET_POOL_H
#define CONDNET_POOL_H

#include "base/err.h"

typedef struct Pool Pool;

/* One part of one phase of a job. */
typedef void (*PoolFn)(void *arg, int phase, int part);

/* A pool of `threads` threads: the caller of pool_run and threads − 1 started
 * here (fewer when the system refuses some; pool_threads says how many).
 * NULL with a message when out of memory or threads < 1. */
Pool *pool_new(int threads, Err *e);
/* Stops and joins the threads; p may be NULL. Not while pool_run runs. */
void pool_free(Pool *p);
int pool_threads(const Pool *p);

/* Runs the job: fn(arg, phase, part) for phase 0..nphases-1 and part
 * 0..nparts-1, as described above, and returns when every call has
 * returned. One caller at a time; p NULL runs everything in the caller. */
void pool_run(Pool *p, PoolFn fn, void *arg, int nphases, int nparts);

/* The items [*lo, *hi) of part `part` when n items are split into nparts
 * nearly equal runs whose boundaries fall on multiples of `align` (so two
 * parts never write the same cache line of a row aligned to it); some parts
 * are empty when n is small. */
void pool_split(int n, int nparts, int part, int align, int *lo, int *hi);

/* The thread count computing code uses when not told (trainers with
 * TrainOpts.threads 0, evaluation): the last pool_set_default_threads, else
 * OPENBLAS_NUM_THREADS from the environment, else the online CPUs. */
int pool_default_threads(void);
void pool_set_default_threads(int n);

#endif
