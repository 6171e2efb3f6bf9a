/* blas.c - the OpenBLAS calls condnet makes (BLAS and one LAPACK routine),
 * behind plain C signatures, the floating-point mode of OpenBLAS's worker
 * threads, and the address space OpenBLAS needs under a limit. */
#include "base/blas.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cblas.h>

#include "base/fpmode.h"
#include "config.h"

#ifdef HAVE_BLAS_THREAD_SHUTDOWN_
/* OpenBLAS (pthreads build) stops its worker threads with this (it is what
 * its fork handler calls); the next openblas_set_num_threads starts them
 * again from the calling thread. */
extern int blas_thread_shutdown_(void);
#endif

/* LAPACK's Fortran interface (OpenBLAS has no header for it without
 * LAPACKE): every argument by reference, then the hidden length of the
 * character argument. configure checks that OpenBLAS exports it. */
extern void dbdsqr_(const char *uplo, const int *n, const int *ncvt, const int *nru, const int *ncc,
                    double *d, double *e, double *vt, const int *ldvt, double *u, const int *ldu,
                    double *c, const int *ldc, double *work, int *info, size_t uplo_len);

int blas_restart_threads(void)
{
#ifdef HAVE_BLAS_THREAD_SHUTDOWN_
	int n = openblas_get_num_threads();
	blas_thread_shutdown_();
	openblas_set_num_threads(n);
	return 0;
#else
	return -1;
#endif
}

#ifdef HAVE_BLAS_MEMORY_ALLOC
/* OpenBLAS's pool of buffers: a thread computing with OpenBLAS takes one
 * (blas_memory_alloc) and gives it back (blas_memory_free), and the buffer
 * stays in the pool for the next. */
extern void *blas_memory_alloc(int procpos);
extern void blas_memory_free(void *buffer);
#endif

/* ---- the address space OpenBLAS needs ----
 *
 * Each thread computing with OpenBLAS at once needs a buffer of its own,
 * BUFFER_SIZE (32 << 22 bytes on x86-64 in OpenBLAS 0.3.21) and a page,
 * which malloc maps with another page. OpenBLAS retries a failed
 * allocation for ever: under an address-space limit (ulimit -v) that leaves
 * no room for one, the thread spins at full speed and no signal stops it. So
 * the room is checked first. */
#define BLAS_BUFFER ((uint64_t)(32 << 22) + 8192)
/* A thread's stack (as pthreads gives one, RLIMIT_STACK) when there is none
 * to read. */
#define STACK_DEFAULT ((uint64_t)8 << 20)

/* The address-space limit, or 0 when there is none. */
static uint64_t as_limit(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return 0;
	return (uint64_t)rl.rlim_cur;
}

/* The address space the process maps now (what the limit counts). */
static uint64_t as_mapped(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long long pages = 0;
	if (f) {
		if (fscanf(f, "%llu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	return (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* Mappings as large as a buffer: the buffers OpenBLAS holds. */
static int buffers_mapped(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	int n = 0;
	unsigned long long a, b;
	char line[512];
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "%llx-%llx", &a, &b) == 2 && b - a >= BLAS_BUFFER - 8192)
			n++;
	if (f)
		fclose(f);
	return n;
}

static uint64_t kib_up(uint64_t bytes)
{
	return (bytes + 1023) / 1024;
}

/* A thread's stack, as pthreads sizes it. */
static uint64_t stack_bytes(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur < 65536)
		return STACK_DEFAULT;
	return (uint64_t)rl.rlim_cur;
}

/* Before main(), while OpenBLAS's own threads start: when one of them
 * cannot have its buffer it spins, and restarting them would wait for it
 * for ever. Says what is needed and ends the process instead (_exit: the
 * libraries' destructors would wait for the thread too). */
static void check_start(int workers)
{
	uint64_t lim = as_limit();
	if (!lim || workers < 1)
		return;
	uint64_t now = as_mapped();
	int have = buffers_mapped();
	if (now + BLAS_BUFFER <= lim || have >= workers)
		return;
	/* the workers' buffers, the calling thread's, and 64 MiB to compute in */
	uint64_t need = now + (uint64_t)(workers - have + 1) * BLAS_BUFFER + ((uint64_t)64 << 20);
	char msg[640];
	int n =
	    snprintf(msg, sizeof msg,
	             "condnet: the address-space limit (ulimit -v %llu KiB) is too low for "
	             "OpenBLAS to start: it needs a buffer of %llu KiB for each thread that "
	             "computes with it (%d of its own here: OPENBLAS_NUM_THREADS sets them), "
	             "and condnet at least %llu KiB in all; raise the limit (ulimit -v %llu)\n",
	             (unsigned long long)kib_up(lim), (unsigned long long)kib_up(BLAS_BUFFER),
	             workers, (unsigned long long)kib_up(need), (unsigned long long)kib_up(need));
	if (n > 0)
		(void)!write(STDERR_FILENO, msg,
		             (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
	_exit(1);
}

int blas_address_limited(void)
{
	return as_limit() != 0;
}

/* Buffers put in OpenBLAS's pool by blas_reserve. */
static int reserved;

int blas_reserve(int threads, double work, Err *e)
{
	uint64_t lim = as_limit();
	if (!lim)
		return 0;
	if (threads < 1)
		threads = 1;
	int more = threads > reserved ? threads - reserved : 0;
	uint64_t now = as_mapped(), w = work > 0 ? (uint64_t)work : 0;
	uint64_t bufs = (uint64_t)more * BLAS_BUFFER, stacks = (uint64_t)threads * stack_bytes();
	uint64_t need = bufs + stacks + w;
	if (now + need > lim)
		return err_set(
		    e,
		    "the address-space limit (ulimit -v %llu KiB) leaves %llu KiB, and "
		    "this run needs about %llu KiB more: %llu KiB for OpenBLAS's buffers "
		    "(%llu KiB for each of the %d threads computing with it at once), "
		    "%llu KiB for the threads' stacks and %llu KiB for the work; raise "
		    "the limit to at least %llu KiB (ulimit -v), or give fewer --threads",
		    (unsigned long long)kib_up(lim),
		    (unsigned long long)(now < lim ? (lim - now) / 1024 : 0),
		    (unsigned long long)kib_up(need), (unsigned long long)kib_up(bufs),
		    (unsigned long long)kib_up(BLAS_BUFFER), threads,
		    (unsigned long long)kib_up(stacks), (unsigned long long)kib_up(w),
		    (unsigned long long)kib_up(now + need));
#ifdef HAVE_BLAS_MEMORY_ALLOC
	/* the buffers taken now, one by one while there is room for each (OpenBLAS
	 * would spin on one there is none for), and given back to its pool, where
	 * the threads find them */
	void *got[64];
	int n = 0;
	while (n < more && n < 64 && as_mapped() + BLAS_BUFFER <= lim)
		got[n++] = blas_memory_alloc(0);
	for (int i = 0; i < n; i++)
		blas_memory_free(got[i]);
	reserved += n;
	if (n < more)
		return err_set(e,
		               "the address-space limit (ulimit -v %llu KiB) left room for %d of "
		               "OpenBLAS's buffers of %llu KiB, and %d threads compute with it: "
		               "raise the limit, or give fewer --threads",
		               (unsigned long long)kib_up(lim), reserved,
		               (unsigned long long)kib_up(BLAS_BUFFER), threads);
#endif
	return 0;
}

/* Before main(): OpenBLAS's constructor has already started its workers in
 * the IEEE default mode. Set FTZ and DAZ in the main thread, then restart
 * the workers from it: a new thread inherits its creator's floating-point
 * environment (POSIX), so every thread OpenBLAS computes on has the mode.
 * Threads OpenBLAS adds later (openblas_set_num_threads) are created by a
 * condnet thread, which has it too.
 * Then OpenBLAS is held at one thread: condnet's own threads share out the
 * work (base/pool.h, the conditioning's threads) and call it side by side;
 * its thread count is one setting for the whole process, and its results
 * change with it. */
__attribute__((constructor)) static void blas_fpmode_init(void)
{
	fpmode_set();
	check_start(openblas_get_num_threads() - 1);
	blas_restart_threads();
	openblas_set_num_threads(1);
}

static enum CBLAS_TRANSPOSE tr(int t)
{
	return t ? CblasTrans : CblasNoTrans;
}

void blas_sgemm(int ta, int tb, int m, int n, int k, float alpha, const float *A, int lda,
                const float *B, int ldb, float beta, float *C, int ldc)
{
	cblas_sgemm(CblasRowMajor, tr(ta), tr(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

void blas_dgemm(int ta, int tb, int m, int n, int k, double alpha, const double *A, int lda,
                const double *B, int ldb, double beta, double *C, int ldc)
{
	cblas_dgemm(CblasRowMajor, tr(ta), tr(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

void blas_dsyrk_t(int n, int k, double alpha, const double *A, int lda, double beta, double *C,
                  int ldc)
{
	/* Row-major C (upper) = alpha·AᵀA + beta·C, then mirrored to the lower half. */
	cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, n, k, alpha, A, lda, beta, C, ldc);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			C[(long)i * ldc + j] = C[(long)j * ldc + i];
}

void blas_set_threads(int n)
{
	if (n > 0 && n != openblas_get_num_threads())
		openblas_set_num_threads(n);
}

int blas_get_threads(void)
{
	return openblas_get_num_threads();
}

const char *blas_corename(void)
{
	const char *s = openblas_get_corename();
	return s && *s ? s : "unknown";
}

/* ncvt = nru = ncc = 0: no vectors, so dbdsqr hands B to dlasq1 (dqds) and
 * the leading dimensions only have to be ≥ 1. work holds dbdsqr's 4n, then a
 * copy of e with n entries: dlasq1 writes e[n-1] when it hands an unfinished
 * B back to dbdsqr's QR iteration. */
int blas_dbdsqr_values(double *d, const double *e, int n)
{
	if (n < 1)
		return 0;
	double *work = malloc(5 * (size_t)n * sizeof *work);
	if (!work)
		return -1;
	double *ecopy = work + 4 * (size_t)n;
	for (int i = 0; i < n - 1; i++)
		ecopy[i] = e[i];
	ecopy[n - 1] = 0.0;
	int zero = 0, one = 1, info = 0;
	dbdsqr_("U", &n, &zero, &zero, &zero, d, ecopy, NULL, &one, NULL, &one, NULL, &one, work,
	        &info, 1);
	free(work);
	return info < 0 ? -1 : info;
}
