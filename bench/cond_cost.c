/* cond_cost.c - the cost of conditioning against the cost of training: κ of
 * every layer of the paper's best MNIST network (after one epoch on random
 * rows, so the matrices are trained ones), the full per-layer analysis with
 * the pivoted QR, and the pivoted QR alone, each timed separately and set
 * against one training epoch at batch 50 in the same run.
 *
 *   cond_cost [THREADS [REPS]]      (defaults 2 and 3)
 *
 * Epochs are timed REPS times, the conditioning 3·REPS times; the best and
 * the spread (worst − best)/best are printed, then the ratios. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/blas.h"
#include "bench.h"
#include "data/dataset.h"
#include "engine/cond.h"
#include "engine/cond_matrix.h"
#include "engine/net.h"
#include "engine/train.h"

static void die(const char *what, const Err *e)
{
	fprintf(stderr, "cond_cost: %s: %s\n", what, e ? e->msg : "out of memory");
	exit(1);
}

typedef struct Timing {
	double best, worst;
} Timing;

static void timing_add(Timing *t, double s)
{
	t->best = s < t->best ? s : t->best;
	t->worst = s > t->worst ? s : t->worst;
}

/* cond_net or cond_net_values on `threads` threads; frees the result unless
 * keep is given. */
static double time_cond(const Net *net, int full, int threads, LayerCond *keep)
{
	LayerCond lc[M];
	Err e;
	cond_set_threads(threads);
	double t0 = now();
	int rc = full ? cond_net(net, 25, lc, &e) : cond_net_values(net, 25, lc, &e);
	double t = now() - t0;
	if (rc)
		die("cond", &e);
	if (keep)
		memcpy(keep, lc, sizeof lc);
	else
		for (int i = 0; i < M; i++)
			cond_layer_free(&lc[i]);
	return t;
}

/* The pivoted QR of every Ŵ, one after the other. */
static double time_qrpt(const Net *net)
{
	double total = 0;
	for (int l = 1; l <= M; l++) {
		int rows, cols;
		double *A = cond_stacked(net, l, NULL, 0, &rows, &cols, NULL);
		int *perm = malloc(sizeof *perm * (size_t)cols);
		double *rd = malloc(sizeof *rd * (size_t)cols);
		if (!A || !perm || !rd)
			die("qrpt", NULL);
		Err e;
		double t0 = now();
		if (cond_qrpt(A, rows, cols, perm, rd, &e))
			die("qrpt", &e);
		total += now() - t0;
		free(A);
		free(perm);
		free(rd);
	}
	return total;
}

/* 1 when two analyses agree bit for bit in everything both computed. */
static int same(const LayerCond *a, const LayerCond *b, int qr)
{
	for (int i = 0; i < M; i++) {
		if (a[i].nsv != b[i].nsv || memcmp(a[i].sv, b[i].sv, sizeof *a[i].sv * a[i].nsv) ||
		    a[i].p != b[i].p || memcmp(&a[i].kappa, &b[i].kappa, sizeof a[i].kappa))
			return 0;
		if (qr && (memcmp(a[i].perm, b[i].perm, sizeof *a[i].perm * a[i].cols) ||
		           memcmp(a[i].rdiag, b[i].rdiag, sizeof *a[i].rdiag * a[i].nsv)))
			return 0;
	}
	return 1;
}

static void line(const char *what, Timing t, double epoch)
{
	printf("%-34s %8.4f s (spread %5.1f %%) = %6.3f %% of one batch-50 epoch\n", what, t.best,
	       100 * (t.worst - t.best) / t.best, 100 * t.best / epoch);
}

int main(int argc, char **argv)
{
	int threads, reps;
	if (bench_args(argc, argv, "cond_cost", &threads, &reps))
		return 2;
	Rng r;
	rng_seed(&r, 1);
	Dataset *d = bench_data(&r);
	Net *net = net_new(M, widths, ACT_ERF, 1.0f, NULL);
	if (!d || !net)
		die("setup", NULL);
	TrainOpts o;
	train_opts_default(&o);
	o.threads = threads;
	Timing ep = {1e30, 0};
	for (int k = 0; k < reps; k++) {
		net_init_glorot(net, &r);
		net_reset_adam(net);
		Err e;
		double t0 = now();
		if (train_epochs(net, d, &o, 1.0, NULL, NULL, &e))
			die("train", &e);
		timing_add(&ep, now() - t0);
	}
	printf("threads %d; epochs timed %d times, conditioning %d times\n", threads, reps,
	       3 * reps);
	printf("%-34s %8.4f s (spread %5.1f %%)\n", "one epoch, batch 50", ep.best,
	       100 * (ep.worst - ep.best) / ep.best);

	Timing v1 = {1e30, 0}, vn = {1e30, 0}, f1 = {1e30, 0}, fn = {1e30, 0}, qr = {1e30, 0};
	for (int k = 0; k < 3 * reps; k++) {
		timing_add(&v1, time_cond(net, 0, 1, NULL));
		timing_add(&vn, time_cond(net, 0, threads, NULL));
		timing_add(&f1, time_cond(net, 1, 1, NULL));
		timing_add(&fn, time_cond(net, 1, threads, NULL));
		timing_add(&qr, time_qrpt(net));
	}
	char buf[64];
	line("kappa, all layers, 1 thread", v1, ep.best);
	snprintf(buf, sizeof buf, "kappa, all layers, %d threads", threads);
	line(buf, vn, ep.best);
	line("kappa + pivoted QR, 1 thread", f1, ep.best);
	snprintf(buf, sizeof buf, "kappa + pivoted QR, %d threads", threads);
	line(buf, fn, ep.best);
	line("pivoted QR alone, 1 thread", qr, ep.best);

	LayerCond a[M], b[M], c[M];
	time_cond(net, 0, 1, a);
	time_cond(net, 0, threads, b);
	time_cond(net, 1, threads, c);
	printf("values-only equals full, and %d threads equal 1: %s\n", threads,
	       same(a, b, 0) && same(a, c, 0) ? "yes, bit for bit" : "NO");
	double kmax = 0;
	for (int i = 0; i < M; i++) {
		kmax = c[i].kappa > kmax ? c[i].kappa : kmax;
		cond_layer_free(&a[i]);
		cond_layer_free(&b[i]);
		cond_layer_free(&c[i]);
	}
	printf("largest kappa after training: %.4g\n", kmax);
	printf(
	    "ratio: kappa of all layers (%d threads) / one epoch = %.3f %% (target <= 1 %%: %s)\n",
	    threads, 100 * vn.best / ep.best, vn.best <= 0.01 * ep.best ? "met" : "NOT met");
	net_free(net);
	dataset_free(d);
	return 0;
}
