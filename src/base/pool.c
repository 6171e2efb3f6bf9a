/* pool.c - persistent computing threads that claim the parts of each phase
 * of a job as they come, and wait by spinning briefly before they sleep.
 *
 * Every phase has two counters, `next` (parts claimed) and `done` (parts
 * finished), each tagged with the job's generation in its upper 32 bits. A
 * thread claims a part with a compare-and-swap that also checks the
 * generation, so a thread that wakes up late, after its job is over, finds
 * a newer generation and claims nothing. A thread that is descheduled does
 * not hold the others up: they claim its parts; they wait only for parts
 * under way. */
#include "base/pool.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/fpmode.h"

/* How long a waiting thread spins before it sleeps: longer than the gap
 * between two phases of a batch or two batches (microseconds), much shorter
 * than a scheduler's time slice. */
#define SPIN_SECONDS 50e-6
/* Phases a job runs in one go; longer jobs run in runs of this many. */
#define MAX_PHASES 256

typedef struct Phase {
	_Atomic uint64_t next, done; /* generation << 32 | count */
	char pad[64 - 2 * sizeof(uint64_t)];
} Phase;

struct Pool {
	int n; /* threads, the caller's included */
	pthread_t *tid;
	Phase ph[MAX_PHASES];
	/* the job of generation `job`, written before `job` is */
	_Atomic(PoolFn) fn;
	_Atomic(void *) arg;
	atomic_int nphases, nparts, first;
	atomic_uint job;
	atomic_int stop;
	unsigned gen; /* the caller's count of jobs */
	/* sleeping */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	atomic_int sleepers;
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* Wakes the sleeping threads after a change of a word they wait on. A
 * sleeper counts itself before it checks its word and a waker changes the
 * word before it reads the count (both sequentially consistent), so one of
 * them sees the other. */
static void wake(Pool *p)
{
	if (atomic_load(&p->sleepers) > 0) {
		pthread_mutex_lock(&p->mu);
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
}

/* Returns once ready(p, a, b) holds: spins for SPIN_SECONDS, then sleeps
 * until a wake(). */
static void wait_for(Pool *p, int (*ready)(Pool *, const void *, uint64_t), const void *w,
                     uint64_t v)
{
	double until = 0.0;
	for (unsigned i = 1;; i++) {
		if (ready(p, w, v))
			return;
		cpu_relax();
		if ((i & 63) == 0) {
			double t = clock_seconds();
			if (until == 0.0)
				until = t + SPIN_SECONDS;
			else if (t > until)
				break;
		}
	}
	pthread_mutex_lock(&p->mu);
	atomic_fetch_add(&p->sleepers, 1);
	while (!ready(p, w, v))
		pthread_cond_wait(&p->cv, &p->mu);
	atomic_fetch_sub(&p->sleepers, 1);
	pthread_mutex_unlock(&p->mu);
}

/* A new job (or the stop): `job` differs from v. */
static int job_changed(Pool *p, const void *w, uint64_t v)
{
	return atomic_load(&p->job) != (unsigned)v;
}

/* A phase is over: done reached v (generation and part count), or the
 * generation moved on. */
static int phase_over(Pool *p, const void *w, uint64_t v)
{
	uint64_t d = atomic_load((_Atomic uint64_t *)w);
	return d == v || (d >> 32) != (v >> 32);
}

/* The calling thread's work on job g: claims and runs parts of each phase
 * in turn and waits for the parts others run. Returns early when the job is
 * over (a thread that arrived late). */
static void work(Pool *p, unsigned g, PoolFn fn, void *arg, int first, int nphases, int nparts)
{
	uint64_t tag = (uint64_t)g << 32;
	for (int k = 0; k < nphases; k++) {
		Phase *ph = &p->ph[k];
		for (;;) {
			uint64_t v = atomic_load(&ph->next);
			if ((v >> 32) != g)
				return;
			unsigned c = (unsigned)v;
			if (c >= (unsigned)nparts)
				break;
			if (atomic_compare_exchange_weak(&ph->next, &v, v + 1)) {
				fn(arg, first + k, (int)c);
				if (atomic_fetch_add(&ph->done, 1) + 1 == (tag | (unsigned)nparts))
					wake(p);
			}
		}
		wait_for(p, phase_over, &ph->done, tag | (unsigned)nparts);
		if ((atomic_load(&ph->done) >> 32) != g)
			return;
	}
}

static void *worker(void *v)
{
	Pool *p = v;
	unsigned seen = 0;
	for (;;) {
		wait_for(p, job_changed, NULL, seen);
		seen = atomic_load(&p->job);
		if (atomic_load(&p->stop))
			return NULL;
		work(p, seen, atomic_load(&p->fn), atomic_load(&p->arg), atomic_load(&p->first),
		     atomic_load(&p->nphases), atomic_load(&p->nparts));
	}
}

Pool *pool_new(int threads, Err *e)
{
	if (threads < 1) {
		err_set(e, "pool of %d threads: expected at least 1", threads);
		return NULL;
	}
	Pool *p = NULL;
	if (posix_memalign((void **)&p, 64, sizeof *p) == 0) {
		memset(p, 0, sizeof *p);
		p->tid = calloc((size_t)threads, sizeof *p->tid);
	}
	if (!p || !p->tid) {
		free(p);
		err_set(e, "out of memory for a pool of %d threads", threads);
		return NULL;
	}
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	p->n = 1;
	/* A thread that cannot be started leaves its parts to the others. */
	for (int t = 1; t < threads; t++) {
		if (thread_start(&p->tid[t], worker, p) != 0)
			break;
		p->n++;
	}
	return p;
}

void pool_free(Pool *p)
{
	if (!p)
		return;
	atomic_store(&p->stop, 1);
	atomic_fetch_add(&p->job, 1);
	wake(p);
	for (int t = 1; t < p->n; t++)
		pthread_join(p->tid[t], NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	free(p->tid);
	free(p);
}

int pool_threads(const Pool *p)
{
	return p ? p->n : 1;
}

/* Phases first..first+nphases-1 (at most MAX_PHASES) as one job. */
static void run_phases(Pool *p, PoolFn fn, void *arg, int first, int nphases, int nparts)
{
	unsigned g = ++p->gen;
	uint64_t tag = (uint64_t)g << 32;
	for (int k = 0; k < nphases; k++) {
		atomic_store(&p->ph[k].next, tag);
		atomic_store(&p->ph[k].done, tag);
	}
	atomic_store(&p->fn, fn);
	atomic_store(&p->arg, arg);
	atomic_store(&p->first, first);
	atomic_store(&p->nphases, nphases);
	atomic_store(&p->nparts, nparts);
	atomic_store(&p->job, g);
	wake(p);
	work(p, g, fn, arg, first, nphases, nparts);
}

void pool_run(Pool *p, PoolFn fn, void *arg, int nphases, int nparts)
{
	if (!p || p->n == 1 || nparts == 1) {
		for (int ph = 0; ph < nphases; ph++)
			for (int part = 0; part < nparts; part++)
				fn(arg, ph, part);
		return;
	}
	for (int first = 0; first < nphases; first += MAX_PHASES) {
		int n = nphases - first < MAX_PHASES ? nphases - first : MAX_PHASES;
		run_phases(p, fn, arg, first, n, nparts);
	}
}

void pool_split(int n, int nparts, int part, int align, int *lo, int *hi)
{
	long a = align > 0 ? align : 1;
	long b0 = ((long)n * part / nparts + a / 2) / a * a;
	long b1 = ((long)n * (part + 1) / nparts + a / 2) / a * a;
	*lo = part == 0 ? 0 : b0 < n ? (int)b0 : n;
	*hi = part == nparts - 1 ? n : b1 < n ? (int)b1 : n;
}

static atomic_int default_threads;

void pool_set_default_threads(int n)
{
	atomic_store(&default_threads, n > 0 ? n : 0);
}

int pool_default_threads(void)
{
	int n = atomic_load(&default_threads);
	if (n > 0)
		return n;
	const char *env = getenv("OPENBLAS_NUM_THREADS");
	char *end;
	long v = env ? strtol(env, &end, 10) : 0;
	if (env && end != env && *end == '\0' && v >= 1 && v <= INT_MAX)
		return (int)v;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return cpus > 0 ? (int)cpus : 1;
}
