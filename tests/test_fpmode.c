/* test_fpmode.c - every thread that computes runs with subnormals flushed
 * to zero: the main thread, OpenBLAS's workers and condnet's own threads
 * (thread_start and the threads of a pool).
 *
 * The program runs itself again with OPENBLAS_NUM_THREADS=2 so that
 * OpenBLAS starts a worker thread in its own constructor, before condnet's
 * code runs: the case the mode must reach. */
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "base/blas.h"
#include "base/clock.h"
#include "base/fpmode.h"
#include "base/pool.h"
#include "data/dataset.h"
#include "engine/net.h"
#include "engine/train.h"
#include "testutil.h"

static long count_subnormal(const float *p, size_t n)
{
	long c = 0;
	for (size_t i = 0; i < n; i++)
		c += fpclassify(p[i]) == FP_SUBNORMAL;
	return c;
}

START_TEST(test_main_thread)
{
	ck_assert_int_eq(fpmode_active(), 1);
	volatile float a = 1e-20f, b = 1e-20f;
	float r = a * b; /* 1e-40 is subnormal in IEEE arithmetic */
	ck_assert(r == 0.0f);
	volatile float s = FLT_MIN / 4; /* a subnormal operand reads as 0 */
	ck_assert(s + 0.0f == 0.0f);
}
END_TEST

/* C = A·B with A holding subnormals and zeros and B large: with DAZ each
 * subnormal reads as 0, so every entry of C is exactly 0 (IEEE arithmetic
 * gives 256·1e-40·1e30). OpenBLAS splits a 512×512 product between its
 * threads; an entry computed by a thread without the mode is not 0. */
static long sgemm_wrong_entries(void)
{
	enum { N = 512 };
	float *A = malloc(sizeof(float) * N * N), *B = malloc(sizeof(float) * N * N);
	float *C = malloc(sizeof(float) * N * N);
	ck_assert(A && B && C);
	for (int i = 0; i < N * N; i++) {
		A[i] = (i % 2) ? 1e-40f : 0.0f;
		B[i] = 1e30f;
	}
	blas_sgemm(0, 0, N, N, N, 1.0f, A, N, B, N, 0.0f, C, N);
	long wrong = 0;
	for (int i = 0; i < N * N; i++)
		wrong += C[i] != 0.0f;
	free(A);
	free(B);
	free(C);
	return wrong;
}

/* OpenBLAS started two threads in its constructor (the environment asks
 * for them); condnet holds it at one, its own threads share out the work. */
START_TEST(test_openblas_held_at_one)
{
	ck_assert_int_eq(blas_get_threads(), 1);
}
END_TEST

START_TEST(test_openblas_workers)
{
	blas_set_threads(2);
	ck_assert_int_eq(blas_get_threads(), 2);
	ck_assert_int_eq(sgemm_wrong_entries(), 0);
	/* threads OpenBLAS adds later are made by a thread with the mode */
	blas_set_threads(1);
	blas_set_threads(3);
	ck_assert_int_eq(sgemm_wrong_entries(), 0);
	blas_set_threads(1);
}
END_TEST

/* The check above can fail: workers restarted from a thread without the
 * mode compute with subnormals, and the product differs. */
START_TEST(test_openblas_workers_without_mode)
{
	blas_set_threads(2);
	fpmode_clear();
	ck_assert_int_eq(blas_restart_threads(), 0);
	fpmode_set();
	long wrong = sgemm_wrong_entries();
	ck_assert_int_eq(blas_restart_threads(), 0); /* the mode again, for later tests */
	blas_set_threads(1);
	ck_assert_int_gt(wrong, 0);
}
END_TEST

static void *probe(void *arg)
{
	*(int *)arg = fpmode_active();
	return NULL;
}

START_TEST(test_own_threads)
{
	/* thread_start sets the mode even when its creator lacks it */
	fpmode_clear();
	int seen = -1;
	pthread_t th;
	ck_assert_int_eq(thread_start(&th, probe, &seen), 0);
	pthread_join(th, NULL);
	ck_assert_int_eq(seen, 1);
	fpmode_set();
}
END_TEST

enum { POOL_PARTS = 3 };

typedef struct PoolProbe {
	pthread_t who[POOL_PARTS];
	int mode[POOL_PARTS];
	long wrong[POOL_PARTS];
	atomic_int arrived[2];
	int met[2][POOL_PARTS];
} PoolProbe;

/* Each part notes its thread and mode, and multiplies subnormals in it;
 * then it waits (at most 10 s) until every part of the phase has started,
 * so each runs on a thread of its own. */
static void pool_probe(void *arg, int phase, int part)
{
	PoolProbe *pp = arg;
	pp->who[part] = pthread_self();
	pp->mode[part] = fpmode_active();
	volatile float a = 1e-20f, b = 1e-20f, s = FLT_MIN / 4;
	pp->wrong[part] = (a * b != 0.0f) + (s + 0.0f != 0.0f);
	atomic_fetch_add(&pp->arrived[phase], 1);
	double until = clock_seconds() + 10;
	while (atomic_load(&pp->arrived[phase]) < POOL_PARTS && clock_seconds() < until)
		;
	pp->met[phase][part] = atomic_load(&pp->arrived[phase]) == POOL_PARTS;
}

/* Every thread of a pool computes in the mode, even when the pool was made
 * by a thread without it, and every part ran on a thread of its own. */
START_TEST(test_pool_threads)
{
	fpmode_clear();
	Pool *p = pool_new(POOL_PARTS, NULL);
	fpmode_set();
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(pool_threads(p), POOL_PARTS);
	for (int round = 0; round < 3; round++) {
		PoolProbe pp;
		memset(&pp, 0, sizeof pp);
		pool_run(p, pool_probe, &pp, 2, POOL_PARTS);
		for (int i = 0; i < POOL_PARTS; i++) {
			ck_assert_int_eq(pp.met[0][i] + pp.met[1][i], 2);
			ck_assert_int_eq(pp.mode[i], 1);
			ck_assert_int_eq(pp.wrong[i], 0);
			for (int j = 0; j < i; j++)
				ck_assert(!pthread_equal(pp.who[i], pp.who[j]));
		}
	}
	pool_free(p);
}
END_TEST

/* A layer of erf neurons driven far into saturation (z = 10): erf'(z) is
 * about 1e-38 and the gradient that flows back through it underflows. */
static Net *saturated_net(void)
{
	int w[] = {2, 4, 3, 2};
	Net *net = net_new(3, w, ACT_ERF, 1.0f, NULL);
	ck_assert_ptr_nonnull(net);
	for (int i = 0; i < 2 * 4; i++)
		net->W[0][i] = 10.0f;
	for (int i = 0; i < 4 * 3; i++)
		net->W[1][i] = 0.5f * (i % 3) - 0.4f;
	for (int i = 0; i < 3 * 2; i++)
		net->W[2][i] = 1e-4f * (float)(i + 1);
	return net;
}

static long gradient_subnormals(void)
{
	Net *net = saturated_net();
	float x[] = {1.0f, 0.0f, 0.0f, 1.0f};
	int y[] = {0, 1};
	float *g = calloc(net->nparam, sizeof *g);
	Err e;
	ck_assert_int_eq(train_gradient(net, x, y, 2, g, NULL, &e), 0);
	long c = count_subnormal(g, net->nparam);
	free(g);
	net_free(net);
	return c;
}

START_TEST(test_gradient_no_subnormals)
{
	ck_assert_int_eq(gradient_subnormals(), 0);
	/* the same pass in IEEE mode does make subnormals: the case is real */
	fpmode_clear();
	long ieee = gradient_subnormals();
	fpmode_set();
	ck_assert_int_gt(ieee, 0);
}
END_TEST

typedef struct TrainJob {
	Dataset *d;
	Net *net;
	int rc;
} TrainJob;

static void *train_job(void *p)
{
	TrainJob *j = p;
	TrainOpts o;
	Err e;
	train_opts_default(&o);
	o.batch = 16;
	j->rc = train_epochs(j->net, j->d, &o, 2, NULL, NULL, &e);
	return NULL;
}

/* Training in a thread of condnet's gives the very bits it gives in main. */
START_TEST(test_training_same_in_threads)
{
	Dataset *d = dataset_synthetic(60, 3, 8, 5, NULL);
	ck_assert_ptr_nonnull(d);
	int w[] = {8, 24, 16, 3};
	Net *a = net_new(3, w, ACT_ERF, 1.0f, NULL);
	Rng r;
	rng_seed(&r, 9);
	net_init_glorot(a, &r);
	Net *b = net_clone(a, NULL);
	TrainJob ja = {d, a, -1}, jb = {d, b, -1};
	train_job(&ja);
	pthread_t th;
	ck_assert_int_eq(thread_start(&th, train_job, &jb), 0);
	pthread_join(th, NULL);
	ck_assert_int_eq(ja.rc, 0);
	ck_assert_int_eq(jb.rc, 0);
	ck_assert_int_eq(memcmp(a->param, b->param, a->nparam * sizeof *a->param), 0);
	net_free(a);
	net_free(b);
	dataset_free(d);
}
END_TEST

int main(int argc, char **argv)
{
	const char *nt = getenv("OPENBLAS_NUM_THREADS");
	if (!nt || strcmp(nt, "2") != 0) {
		setenv("OPENBLAS_NUM_THREADS", "2", 1);
		execv("/proc/self/exe", argv);
		perror("execv /proc/self/exe");
		return EXIT_FAILURE;
	}
	Suite *s = suite_create("fpmode");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_main_thread);
	tcase_add_test(tc, test_openblas_held_at_one);
	tcase_add_test(tc, test_openblas_workers);
	tcase_add_test(tc, test_openblas_workers_without_mode);
	tcase_add_test(tc, test_own_threads);
	tcase_add_test(tc, test_pool_threads);
	tcase_add_test(tc, test_gradient_no_subnormals);
	tcase_add_test(tc, test_training_same_in_threads);
	suite_add_tcase(s, tc);
	/* In one process, without a fork per test: OpenBLAS restarts its
	 * workers after a fork, from the forking thread, which would hide a
	 * pool started in the wrong mode. */
	SRunner *sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
