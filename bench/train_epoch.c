/* train_epoch.c - one training epoch of the paper's best MNIST network
 * (200-600-410-510-420-364-319-278-249-212-180-130-50-10, erf, Adam, float32)
 * on 60,000 random rows of MNIST-wavelet shape, at batch 50 and 256, and the
 * raw sgemm rate at the same matrix shapes, measured in the same run.
 *
 *   bench/train_epoch [THREADS]
 *
 * Prints one line per batch size: seconds per epoch, achieved GFLOP/s
 * (6·rows·Σ n_{i-1}·n_i, less the first layer's input gradient), and the
 * sgemm GFLOP/s of the forward and backward products of one batch. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "blas.h"
#include "cond.h"
#include "dataset.h"
#include "net.h"
#include "train.h"

static const int widths[] = {200, 600, 410, 510, 420, 364, 319, 278, 249, 212, 180, 130, 50, 10};
#define M ((int)(sizeof widths / sizeof *widths) - 1)

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double flops_per_row(void)
{
	double f = 0;
	for (int i = 0; i < M; i++)
		f += (i == 0 ? 4.0 : 6.0) * widths[i] * widths[i + 1];
	return f;
}

/* The forward and backward sgemm calls of one batch, repeated for ~1 s. */
static double sgemm_rate(int batch)
{
	float *x = malloc(sizeof(float) * (size_t)batch * 600);
	float *y = malloc(sizeof(float) * (size_t)batch * 600);
	float *w = malloc(sizeof(float) * 600 * 600);
	float *g = malloc(sizeof(float) * 600 * 600);
	for (int i = 0; i < batch * 600; i++)
		x[i] = y[i] = (float)(i % 17) * 0.01f;
	for (int i = 0; i < 600 * 600; i++)
		w[i] = (float)(i % 13) * 0.01f;
	long reps = 0;
	double t0 = now(), t;
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
	return reps * batch * flops_per_row() / t * 1e-9;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 2;
	int rows = 60000;
	Dataset *d = dataset_new(rows, widths[0], 10);
	Rng r;
	rng_seed(&r, 1);
	for (long i = 0; i < (long)rows * widths[0]; i++)
		d->x[i] = (float)rng_normal(&r);
	for (int i = 0; i < rows; i++)
		d->y[i] = (int)rng_below(&r, 10);
	blas_set_threads(threads);
	printf("threads %d\n", threads);
	static const int batches[] = {50, 256};
	for (int k = 0; k < 2; k++) {
		Net *net = net_new(M, widths, ACT_ERF, 1.0f);
		net_init_glorot(net, &r);
		TrainOpts o;
		train_opts_default(&o);
		o.batch = batches[k];
		o.threads = threads;
		Err e;
		double t0 = now();
		if (train_epochs(net, d, &o, 1.0, NULL, NULL, &e) != 0) {
			fprintf(stderr, "train: %s\n", e.msg);
			return 1;
		}
		double secs = now() - t0;
		double gf = rows * flops_per_row() / secs * 1e-9;
		double sg = sgemm_rate(batches[k]);
		printf("batch %d: epoch %.2f s, %.1f GFLOP/s, sgemm %.1f GFLOP/s, ratio %.2f\n",
		       batches[k], secs, gf, sg, gf / sg);
		if (k == 0) {
			/* κ of every layer and the pivoted QR, against this epoch. */
			LayerCond lc[M];
			double c0 = now();
			if (cond_net(net, 25, lc, &e) != 0) {
				fprintf(stderr, "cond: %s\n", e.msg);
				return 1;
			}
			double cs = now() - c0;
			for (int i = 0; i < M; i++)
				cond_layer_free(&lc[i]);
			printf("cond: all %d layers %.3f s = %.2f %% of one batch-50 epoch\n", M, cs,
			       100 * cs / secs);
		}
		net_free(net);
	}
	dataset_free(d);
	return 0;
}
