/* offload.h - work that cannot ask a stop between pieces, run so that its
 * caller can stop waiting for it.
 *
 * A library's decomposition of a large matrix is one call of minutes that
 * nothing interrupts. offload_run runs such work on a thread of its own
 * while the calling thread waits, asking a stop predicate every 20 ms: on a
 * stop the caller goes on at once and the work is left to finish alone, then
 * to free what it holds. While work is left running, the process ends
 * without the libraries' destructors (OpenBLAS's frees the buffers the work
 * computes in): its streams are flushed and it exits with its status
 * (offload_init arranges it). */
#ifndef CONDNET_OFFLOAD_H
#define CONDNET_OFFLOAD_H

/* Arranges the end above; call once, early in main (before anything that
 * registers its own atexit handler, such as the screen's, so that those
 * still run). */
void offload_init(void);

/* Runs fn(job) on a new thread named name (as top -H and /proc show it: at
 * most 15 characters), with condnet's floating-point mode, while the caller
 * waits. 0: fn returned, job is the caller's again. 1: stop(ud) said stop
 * first: the job belongs to the thread, which calls done(job) once fn
 * returns; the caller must not touch it. -1: no thread could be started
 * (fn was not run). */
int offload_run(const char *name, void (*fn)(void *job), void (*done)(void *job), void *job,
                int (*stop)(void *ud), void *ud);

/* The number of works left running. */
int offload_left(void);
/* A thread of the caller's own is left running at the end (one that did not
 * stop in time): the process ends as with left work. */
void offload_note_left(void);

#endif
