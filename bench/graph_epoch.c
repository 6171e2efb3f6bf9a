/* graph_epoch.c - a graph network's speed in condnet: inference over the
 * rows in batches of 64 (each batch a call, as a program hands batches to
 * a network) and one training epoch at batch 64 (Adam, lr 1e-3), on THREADS
 * threads; the best of REPS runs and the spread, in the format of
 * bench/torch_graph.py. The rows: Fashion-MNIST's 60,000 training images
 * (pixels scaled to 0..1) when the network reads 1x28x28 and DATADIR is
 * given, else ROWS images of uniform noise with classes in turn (the
 * speed does not depend on what the pixels are).
 *
 *   graph_epoch MODEL.onnx THREADS REPS ROWS [DATADIR] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/pool.h"
#include "base/rng.h"
#include "data/mnist.h"
#include "engine/graph.h"
#include "engine/net.h"
#include "engine/train.h"
#include "model/onnx_io.h"

/* The rows to run: Fashion-MNIST's training images, or noise. */
static Dataset *rows_of(const Net *net, int rows, const char *dir, Err *e)
{
	int c, h, w;
	net_input_shape(net, &c, &h, &w);
	if (dir && c == 1 && h == 28 && w == 28) {
		Dataset *tr, *te;
		if (mnist_load_pixels(dir, &tr, &te, e))
			return NULL;
		dataset_free(te);
		return tr;
	}
	Dataset *d = dataset_new(rows, net->n[0], net->n[1], e);
	Rng r;
	rng_seed(&r, 1);
	for (size_t i = 0; d && i < (size_t)rows * net->n[0]; i++)
		d->x[i] = (float)rng_uniform(&r);
	for (int i = 0; d && i < rows; i++)
		d->y[i] = i % net->n[1];
	return d;
}

/* The CPU seconds of the process, every thread's. */
static double cpu_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double infer(const Net *net, const Dataset *d, Err *e)
{
	int *cls = malloc(64 * sizeof *cls);
	float *p = malloc(64 * (size_t)net->n[1] * sizeof *p);
	double t0 = clock_seconds();
	for (int s = 0; s < d->n; s += 64) {
		int n = d->n - s < 64 ? d->n - s : 64;
		if (net_classify(net, d->x + (size_t)s * d->d, NULL, n, cls, p, NULL, NULL, NULL,
		                 NULL, e))
			return -1;
	}
	double t = clock_seconds() - t0;
	free(cls);
	free(p);
	return t;
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: graph_epoch MODEL.onnx THREADS REPS ROWS [DATADIR]\n");
		return 2;
	}
	int threads = atoi(argv[2]), reps = atoi(argv[3]), rows = atoi(argv[4]);
	Err e;
	Net *net = onnx_import_any(argv[1], NULL, &e);
	Dataset *d = net ? rows_of(net, rows, argc > 5 ? argv[5] : NULL, &e) : NULL;
	if (!d || threads < 1 || reps < 1) {
		fprintf(stderr, "graph_epoch: %s\n", d ? "bad arguments" : e.msg);
		return 1;
	}
	pool_set_default_threads(threads);
	char sh[512];
	printf("condnet, threads %d, %d runs each, %d rows of %s, %.4g GMAC an image\n", threads,
	       reps, d->n, d->name, graph_macs(net->graph) / 1e9);
	printf("network: %s, %zu parameters\n", net_shape_str(net, sh, sizeof sh), net->nparam);
	double best[2] = {1e30, 1e30}, worst[2] = {0, 0}, cpu[2] = {1e30, 1e30};
	for (int k = 0; k < reps; k++) {
		Net *copy = net_clone(net, &e);
		TrainOpts o;
		train_opts_default(&o);
		o.batch = 64;
		o.threads = threads;
		double c0 = cpu_seconds(), ti = infer(net, d, &e), c1 = cpu_seconds();
		double t0 = clock_seconds();
		if (!copy || ti < 0 || train_epochs(copy, d, &o, 1.0, NULL, NULL, &e)) {
			fprintf(stderr, "graph_epoch: %s\n", e.msg);
			return 1;
		}
		double tt = clock_seconds() - t0, t[2] = {ti, tt},
		       c[2] = {c1 - c0, cpu_seconds() - c1};
		for (int j = 0; j < 2; j++) {
			best[j] = t[j] < best[j] ? t[j] : best[j];
			worst[j] = t[j] > worst[j] ? t[j] : worst[j];
			cpu[j] = c[j] < cpu[j] ? c[j] : cpu[j];
		}
		net_free(copy);
	}
	printf("inference, batches of 64: %.3f s (spread %.1f %%), CPU %.3f s\n", best[0],
	       100 * (worst[0] - best[0]) / best[0], cpu[0]);
	printf("training epoch, batch 64: %.3f s (spread %.1f %%), CPU %.3f s\n", best[1],
	       100 * (worst[1] - best[1]) / best[1], cpu[1]);
	dataset_free(d);
	net_free(net);
	return 0;
}
