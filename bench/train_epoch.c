/* train_epoch.c - one training epoch of the paper's best MNIST network
 * (200-600-410-510-420-364-319-278-249-212-180-130-50-10, erf, Adam, float32)
 * on 60,000 random rows of MNIST-wavelet shape, at batch 50 and 256, and the
 * raw sgemm rate at the same matrix shapes, measured in the same run.
 *
 *   train_epoch [THREADS [REPS]]      (defaults 2 and 3)
 *
 * Every measure is repeated REPS times on a fresh network with the same seed;
 * one line per batch size gives the best epoch time, the spread
 * (worst − best)/best, the achieved GFLOP/s (6·rows·Σ n_{i-1}·n_i, less the
 * first layer's input gradient), the best sgemm GFLOP/s of the forward and
 * backward products of one batch on OpenBLAS's threads (and on one), the
 * share of the limit THREADS × the one-thread rate, the same share counted
 * in CPU seconds (GFLOP per CPU second of all the process's threads over
 * the one-thread sgemm's per CPU second: what the cores condnet was given
 * did, whatever other jobs took of them), and the ratio of the GFLOP/s to
 * the sgemm rate on THREADS threads. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "base/blas.h"
#include "bench.h"
#include "data/dataset.h"
#include "engine/net.h"
#include "engine/train.h"

static double flops_per_row(void)
{
	double f = 0;
	for (int i = 0; i < M; i++)
		f += (i == 0 ? 4.0 : 6.0) * widths[i] * widths[i + 1];
	return f;
}

/* CPU seconds of the clock `id` (the process's, or the calling thread's). */
static double cpu_seconds(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The forward and backward sgemm calls of one batch, repeated for ~1 s, on
 * OpenBLAS's own `threads` threads (condnet holds it at one otherwise); with
 * cpu, the rate per CPU second of the calling thread (threads 1) into *cpu. */
static double sgemm_rate(int batch, int threads, double *cpu)
{
	blas_set_threads(threads);
	float *x = malloc(sizeof(float) * (size_t)batch * 600);
	float *y = malloc(sizeof(float) * (size_t)batch * 600);
	float *w = malloc(sizeof(float) * 600 * 600);
	float *g = malloc(sizeof(float) * 600 * 600);
	if (!x || !y || !w || !g) {
		fprintf(stderr, "train_epoch: out of memory\n");
		exit(1);
	}
	for (int i = 0; i < batch * 600; i++)
		x[i] = y[i] = (float)(i % 17) * 0.01f;
	for (int i = 0; i < 600 * 600; i++)
		w[i] = (float)(i % 13) * 0.01f;
	long reps = 0;
	double t0 = now(), c0 = cpu_seconds(CLOCK_THREAD_CPUTIME_ID), t;
	do {
		for (int i = 0; i < M; i++) {
			int a = widths[i], b = widths[i + 1];
			blas_sgemm(0, 0, batch, b, a, 1, x, a, w, b, 0, y, b);
			blas_sgemm(1, 0, a, b, batch, 1, x, a, y, b, 0, g, b);
			if (i > 0)
				blas_sgemm(0, 1, batch, a, b, 1, y, b, w, b, 0, x, a);
		}
		reps++;
		t = now() - t0;
	} while (t < 1.0);
	free(x);
	free(y);
	free(w);
	free(g);
	blas_set_threads(1);
	if (cpu)
		*cpu = reps * batch * flops_per_row() /
		       (cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - c0) * 1e-9;
	return reps * batch * flops_per_row() / t * 1e-9;
}

/* One epoch of a fresh Glorot network; its wall time in seconds, and the
 * CPU seconds of all the process's threads into *cpu. */
static double epoch(const Dataset *d, int batch, int threads, double *cpu)
{
	Rng r;
	rng_seed(&r, 2);
	Net *net = net_new(M, widths, ACT_ERF, 1.0f, NULL);
	if (!net) {
		fprintf(stderr, "train_epoch: out of memory\n");
		exit(1);
	}
	net_init_glorot(net, &r);
	TrainOpts o;
	train_opts_default(&o);
	o.batch = batch;
	o.threads = threads;
	Err e;
	double t0 = now(), c0 = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
	if (train_epochs(net, d, &o, 1.0, NULL, NULL, &e) != 0) {
		fprintf(stderr, "train_epoch: %s\n", e.msg);
		exit(1);
	}
	double t = now() - t0;
	*cpu = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
	net_free(net);
	return t;
}

int main(int argc, char **argv)
{
	int threads, reps;
	if (bench_args(argc, argv, "train_epoch", &threads, &reps))
		return 2;
	Rng r;
	rng_seed(&r, 1);
	Dataset *d = bench_data(&r);
	if (!d) {
		fprintf(stderr, "train_epoch: out of memory\n");
		return 1;
	}
	printf("threads %d, %d runs each\n", threads, reps);
	static const int batches[] = {50, 256};
	for (int k = 0; k < 2; k++) {
		double best = 1e30, worst = 0, sg = 0, sg1 = 0, cbest = 1e30, c1 = 0;
		for (int i = 0; i < reps; i++) {
			double c, t = epoch(d, batches[k], threads, &c);
			best = t < best ? t : best;
			worst = t > worst ? t : worst;
			cbest = c < cbest ? c : cbest;
			double s = sgemm_rate(batches[k], threads, NULL);
			sg = s > sg ? s : sg;
			s = sgemm_rate(batches[k], 1, &c);
			sg1 = s > sg1 ? s : sg1;
			c1 = c > c1 ? c : c1;
		}
		double gf = ROWS * flops_per_row() / best * 1e-9;
		double gfc = ROWS * flops_per_row() / cbest * 1e-9;
		printf("batch %d: epoch %.2f s (spread %.1f %%), %.1f GFLOP/s, sgemm %.1f GFLOP/s "
		       "(one thread %.1f), of the limit %.2f, by CPU time %.2f (%.1f GFLOP per CPU "
		       "second, one-thread sgemm %.1f), ratio %.2f\n",
		       batches[k], best, 100 * (worst - best) / best, gf, sg, sg1,
		       gf / (threads * sg1), gfc / c1, gfc, c1, gf / sg);
		fflush(stdout);
	}
	dataset_free(d);
	return 0;
}
