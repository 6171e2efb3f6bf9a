/* cnn_forward.c - the forward pass of saved networks timed side by side:
 * a network and the networks squeezed from it, interleaved round after
 * round so that the load of a shared machine falls on all of them alike.
 * Each round times, for every model, 64 samples one at a time (batch 1)
 * and 1,024 in batches of 256, on THREADS OpenBLAS threads (as
 * model/net_cost.h times a model); the best and the median over ROUNDS
 * rounds are printed per sample, with the ratios to the first model.
 *
 *   cnn_forward THREADS ROUNDS MODEL...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/blas.h"
#include "bench.h"
#include "engine/train.h"
#include "model/model_io.h"
#include "model/net_cost.h"

enum { B1 = 64, BIG = 256, NBIG = 4 };

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Seconds per sample of `rows` samples in batches of `batch`. */
static double per_sample(const Net *net, const float *x, float *out, int batch, int rows,
                         int threads)
{
	Err e;
	double t0 = now();
	for (int r = 0; r < rows; r += batch)
		if (net_forward_blas(net, x + (size_t)r * net->n[0], batch, net->m, out, threads,
		                     &e)) {
			fprintf(stderr, "cnn_forward: %s\n", e.msg);
			exit(1);
		}
	return (now() - t0) / rows;
}

int main(int argc, char **argv)
{
	int threads = argc > 2 ? atoi(argv[1]) : 0, rounds = argc > 2 ? atoi(argv[2]) : 0;
	int n = argc - 3;
	if (threads < 1 || rounds < 1 || n < 1) {
		fprintf(stderr, "usage: cnn_forward THREADS ROUNDS MODEL...\n");
		return 2;
	}
	Net **net = calloc((size_t)n, sizeof *net);
	double *t1 = calloc((size_t)n * rounds, sizeof *t1), *t256 = calloc((size_t)n * rounds, 8);
	int rows = BIG * NBIG, d = 0;
	for (int k = 0; k < n; k++) {
		Err e;
		if (!(net[k] = model_load(argv[k + 3], &e))) {
			fprintf(stderr, "cnn_forward: %s\n", e.msg);
			return 1;
		}
		if (k && net[k]->n[0] != d) {
			fprintf(stderr, "cnn_forward: %s reads %d inputs, %s %d\n", argv[k + 3],
			        net[k]->n[0], argv[3], d);
			return 1;
		}
		d = net[k]->n[0];
	}
	float *x = malloc((size_t)rows * d * sizeof *x), *out = malloc((size_t)BIG * 1024 * 4);
	Rng r;
	rng_seed(&r, 1);
	for (size_t i = 0; i < (size_t)rows * d; i++)
		x[i] = (float)rng_uniform(&r);
	for (int k = 0; k < n; k++) /* warm: the first pass pays for the memory */
		per_sample(net[k], x, out, BIG, BIG, threads);
	for (int q = 0; q < rounds; q++)
		for (int k = 0; k < n; k++) {
			t1[k * rounds + q] = per_sample(net[k], x, out, 1, B1, threads);
			t256[k * rounds + q] = per_sample(net[k], x, out, BIG, rows, threads);
		}
	printf("%d rounds, %d OpenBLAS thread%s; µs per sample, best and median of the rounds\n\n",
	       rounds, threads, threads == 1 ? "" : "s");
	printf("%-28s %10s %12s %9s %9s %9s %9s %14s %14s\n", "model", "parameters", "mult-adds",
	       "b1 best", "b1 med", "b256 best", "b256 med", "b1 best/first", "b256 best/first");
	double f1 = 0, f256 = 0;
	for (int k = 0; k < n; k++) {
		qsort(t1 + k * rounds, (size_t)rounds, sizeof *t1, cmp_double);
		qsort(t256 + k * rounds, (size_t)rounds, sizeof *t256, cmp_double);
		NetCost c;
		net_cost_count(net[k], &c);
		double b1 = t1[k * rounds], m1 = t1[k * rounds + rounds / 2];
		double b2 = t256[k * rounds], m2 = t256[k * rounds + rounds / 2];
		if (k == 0) {
			f1 = b1;
			f256 = b2;
		}
		const char *name = strrchr(argv[k + 3], '/');
		printf("%-28s %10zu %12.0f %9.2f %9.2f %9.2f %9.2f %14.3f %14.3f\n",
		       name ? name + 1 : argv[k + 3], c.params, c.madds, 1e6 * b1, 1e6 * m1,
		       1e6 * b2, 1e6 * m2, b1 / f1, b2 / f256);
	}
	for (int k = 0; k < n; k++)
		net_free(net[k]);
	free(net);
	free(t1);
	free(t256);
	free(x);
	free(out);
	return 0;
}
