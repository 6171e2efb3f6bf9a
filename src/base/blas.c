/* blas.c - the OpenBLAS calls condnet makes (BLAS and the LAPACK routines
 * of the conditioning), behind plain C signatures, the floating-point mode
 * of OpenBLAS's worker threads, and the address space OpenBLAS needs under
 * a limit. */
#include "base/blas.h"

#include <errno.h>
#include <malloc.h>
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
extern void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau,
                    double *work, const int *lwork, int *info);
extern void dlabrd_(const int *m, const int *n, const int *nb, double *a, const int *lda, double *d,
                    double *e, double *tauq, double *taup, double *x, const int *ldx, double *y,
                    const int *ldy);
extern void dgebd2_(const int *m, const int *n, double *a, const int *lda, double *d, double *e,
                    double *tauq, double *taup, double *work, int *info);
extern void dlaqps_(const int *m, const int *n, const int *offset, const int *nb, int *kb,
                    double *a, const int *lda, int *jpvt, double *tau, double *vn1, double *vn2,
                    double *auxv, double *f, const int *ldf);
extern void dlaqp2_(const int *m, const int *n, const int *offset, double *a, const int *lda,
                    int *jpvt, double *tau, double *vn1, double *vn2, double *work);
extern void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info,
                    size_t uplo_len);

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
	/* the buffers taken now, all held at once, and given back to its pool,
	 * where the threads find them: OpenBLAS hands out a free buffer of its
	 * pool first (the `reserved` of an earlier call are there), then maps a
	 * new one, and spins on one there is no room for, so a new one is asked
	 * for only while there is room */
	void *got[64];
	int n = 0, want = threads < 64 ? threads : 64;
	while (n < want && (n < reserved || as_mapped() + BLAS_BUFFER <= lim))
		got[n++] = blas_memory_alloc(0);
	for (int i = 0; i < n; i++)
		blas_memory_free(got[i]);
	reserved = n > reserved ? n : reserved;
	if (n < want)
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
	/* Under an address-space limit every thread that allocates would have
	 * an arena of its own, 64 MiB of address space each (128 MiB while it is
	 * made): the room left for OpenBLAS's buffers would shrink behind every
	 * check of it, and OpenBLAS spins on a buffer it cannot have. One arena
	 * for all threads keeps the room what the checks measure. */
	if (as_limit())
		mallopt(M_ARENA_MAX, 1);
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

const char *blas_config(void)
{
	const char *s = openblas_get_config();
	return s ? s : "";
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

/* LAPACK's own block size and crossover for dgebrd and dgeqp3 (ilaenv's
 * 32 and 128): below BLK_CROSS columns left, the unblocked routine ends. */
enum { BLK_NB = 32, BLK_CROSS = 128 };

/* The share of a one- or two-sided Householder reduction of an m×n matrix
 * done after its first j of k columns: step x costs ∝ (m − x)(n − x). */
static double reduced_frac(double m, double n, double j, double k)
{
	double gj = m * n * j - (m + n) * j * j / 2 + j * j * j / 3;
	double gk = m * n * k - (m + n) * k * k / 2 + k * k * k / 3;
	return gk > 0 ? gj / gk : 1.0;
}

/* dgebrd's loop (LAPACK 3.x) for m ≥ n: dlabrd reduces BLK_NB rows and
 * columns and returns X and Y, two dgemm update the rest, A := A − V Yᵀ −
 * X Uᵀ; dgebd2 ends. d (n) and e (n − 1) receive the upper bidiagonal.
 * tick is asked after every block with the share done in [f0, f1]. */
static int bidiag(double *A, int m, int n, int lda, double *d, double *e, BlasTick tick, void *ud,
                  double f0, double f1)
{
	int nb = BLK_NB, ldx = m, ldy = n, info = 0;
	size_t ws = (size_t)(m + n) * nb + (size_t)m + 2 * (size_t)n;
	double *w = malloc(ws * sizeof *w);
	if (!w)
		return -1;
	double *X = w, *Y = X + (size_t)m * nb, *tauq = Y + (size_t)n * nb, *taup = tauq + n;
	double *w2 = taup + n;
#define AT(i, j) (A + (size_t)(i) + (size_t)(j) * (size_t)lda)
	int i = 0;
	for (; i < n - BLK_CROSS; i += nb) {
		int mi = m - i, ni = n - i;
		dlabrd_(&mi, &ni, &nb, AT(i, i), &lda, d + i, e + i, tauq + i, taup + i, X, &ldx, Y,
		        &ldy);
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, mi - nb, ni - nb, nb, -1.0,
		            AT(i + nb, i), lda, Y + nb, ldy, 1.0, AT(i + nb, i + nb), lda);
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, mi - nb, ni - nb, nb, -1.0,
		            X + nb, ldx, AT(i, i + nb), lda, 1.0, AT(i + nb, i + nb), lda);
		for (int j = i; j < i + nb; j++) {
			*AT(j, j) = d[j];
			*AT(j, j + 1) = e[j];
		}
		if (tick && tick(f0 + (f1 - f0) * reduced_frac(m, n, i + nb, n), ud)) {
			free(w);
			return BLAS_STOPPED;
		}
	}
	int mi = m - i, ni = n - i;
	dgebd2_(&mi, &ni, AT(i, i), &lda, d + i, e + i, tauq + i, taup + i, w2, &info);
#undef AT
	free(w);
	return info < 0 ? -1 : 0;
}

/* A (m×n, m ≥ 2n) := its triangle R (n×n, zeros below) in a new buffer. */
static double *to_triangle(double *A, int m, int n, int lda)
{
	int info = 0, lwork = -1;
	double q;
	dgeqrf_(&m, &n, A, &lda, NULL, &q, &lwork, &info);
	lwork = info == 0 && q >= n ? (int)q : n * BLK_NB;
	double *tau = malloc(((size_t)n + (size_t)lwork) * sizeof *tau);
	double *R = calloc((size_t)n * n, sizeof *R);
	if (!tau || !R) {
		free(tau);
		free(R);
		return NULL;
	}
	dgeqrf_(&m, &n, A, &lda, tau, tau + n, &lwork, &info);
	free(tau);
	if (info) {
		free(R);
		return NULL;
	}
	for (int j = 0; j < n; j++)
		memcpy(R + (size_t)j * n, A + (size_t)j * lda, ((size_t)j + 1) * sizeof *R);
	return R;
}

int blas_svd_values(double *A, int m, int n, int lda, double *sv, BlasTick tick, void *ud)
{
	if (n < 1 || m < n)
		return -1;
	double *R = NULL, f0 = 0.0;
	if (m >= 2 * n) {
		if (!(R = to_triangle(A, m, n, lda)))
			return -1;
		/* dgeqrf's share: 2mn² − 2n³/3 of that and dgebrd's 8n³/3 */
		f0 = (2.0 * m - 2.0 * n / 3) / (2.0 * m + 2.0 * n);
		if (tick && tick(f0, ud)) {
			free(R);
			return BLAS_STOPPED;
		}
		A = R;
		m = lda = n;
	}
	double *e = malloc((size_t)n * sizeof *e);
	int rc = e ? bidiag(A, m, n, lda, sv, e, tick, ud, f0, 1.0) : -1;
	if (rc == 0)
		rc = blas_dbdsqr_values(sv, e, n);
	free(e);
	free(R);
	return rc;
}

/* dgeqp3's loop (LAPACK 3.x) with every column free: the exact column norms
 * into vn1 and vn2, then dlaqps factors up to BLK_NB columns at a time (fewer
 * when a norm has to be computed again), dlaqp2 the last BLK_CROSS. */
int blas_qrpt(double *A, int m, int n, int lda, int *jpvt, BlasTick tick, void *ud)
{
	int k = m < n ? m : n, nb = BLK_NB;
	size_t ws = 4 * (size_t)n + (size_t)nb + (size_t)n * nb;
	double *w = malloc(ws * sizeof *w);
	if (!w)
		return -1;
	double *tau = w, *vn1 = tau + n, *vn2 = vn1 + n, *auxv = vn2 + n, *F = auxv + nb;
	double *work = F + (size_t)n * nb - (size_t)n; /* dlaqp2's n entries, after F's use */
	for (int j = 0; j < n; j++) {
		jpvt[j] = j + 1;
		vn1[j] = vn2[j] = cblas_dnrm2(m, A + (size_t)j * lda, 1);
	}
	int j = 0;
	for (int top = k - BLK_CROSS; j < top;) {
		int jb = top - j < nb ? top - j : nb, nj = n - j, ldf = n - j, fjb = 0;
		dlaqps_(&m, &nj, &j, &jb, &fjb, A + (size_t)j * lda, &lda, jpvt + j, tau + j,
		        vn1 + j, vn2 + j, auxv, F, &ldf);
		j += fjb;
		if (tick && tick(reduced_frac(m, n, j, k), ud)) {
			free(w);
			return BLAS_STOPPED;
		}
	}
	if (j < k) {
		int nj = n - j;
		dlaqp2_(&m, &nj, &j, A + (size_t)j * lda, &lda, jpvt + j, tau + j, vn1 + j, vn2 + j,
		        work);
	}
	for (int c = 0; c < n; c++)
		jpvt[c]--;
	free(w);
	return 0;
}

int blas_chol_leading(double *A, int n, int lda)
{
	int info = 0;
	dpotrf_("L", &n, A, &lda, &info, 1);
	return info < 0 ? -1 : info > 0 ? info - 1 : n;
}
