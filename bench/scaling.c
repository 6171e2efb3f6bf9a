/* scaling.c - how condnet's costs grow with the width of the hidden layers:
 * for a network of DEPTH hidden layers of WIDTH neurons on 200 inputs and 10
 * classes (erf, Adam, batch 50, the MNIST-wavelet shape of bench.h), the
 * time of a training epoch and of κ of all layers (cond_net_values), and a
 * copy of the network in a model file for `condnet squeeze`.
 *
 *   scaling WIDTH DEPTH THREADS MODEL
 *
 * The epoch is the best of three windows of batches (at least 10 and about
 * a second each, after 2 not timed) scaled to the 1,200 batches of 60,000
 * rows; κ is the best of 3 runs, or 1 when a run takes more than 2 s.
 * Prints one line: width, depth, parameters, batches per window, epoch
 * seconds, κ seconds. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "engine/cond.h"
#include "engine/net.h"
#include "engine/train.h"
#include "model/model_io.h"

static void die(const char *what, const Err *e)
{
	fprintf(stderr, "scaling: %s: %s\n", what, e ? e->msg : "out of memory");
	exit(1);
}

int main(int argc, char **argv)
{
	if (argc != 5 || atoi(argv[1]) < 1 || atoi(argv[2]) < 1 || atoi(argv[3]) < 1) {
		fprintf(stderr, "usage: scaling WIDTH DEPTH THREADS MODEL\n");
		return 2;
	}
	int width = atoi(argv[1]), depth = atoi(argv[2]), threads = atoi(argv[3]);
	int m = depth + 1, *w = malloc(sizeof *w * (size_t)(m + 1));
	if (!w)
		die("setup", NULL);
	w[0] = widths[0];
	for (int i = 1; i <= depth; i++)
		w[i] = width;
	w[m] = 10;
	Rng r;
	rng_seed(&r, 1);
	Dataset *d = bench_data(&r);
	Err e;
	Net *net = net_fresh(m, w, ACT_ERF, 1.0f, 2, &e);
	if (!d || !net)
		die("setup", d ? &e : NULL);
	TrainOpts o;
	train_opts_default(&o);
	o.threads = threads;
	Trainer *t = trainer_new(net, d, &o, &e);
	if (!t || trainer_step(t, 2, NULL, &e) != 0)
		die("train", &e);
	/* a window of at least 10 batches and about a second, then two more */
	long nb = 10;
	double secs;
	for (;;) {
		double t0 = now();
		if (trainer_step(t, nb, NULL, &e) != 0)
			die("train", &e);
		secs = now() - t0;
		if (secs >= 0.7 || nb >= 1200)
			break;
		long want = (long)(1.0 / (secs / nb)) + 1;
		nb = want > 1200 ? 1200 : want < 2 * nb ? 2 * nb : want;
	}
	double best = secs / nb;
	for (int k = 0; k < 2; k++) {
		double t0 = now();
		if (trainer_step(t, nb, NULL, &e) != 0)
			die("train", &e);
		double s = (now() - t0) / nb;
		best = s < best ? s : best;
	}
	trainer_free(t);
	double epoch = best * (double)((d->n + o.batch - 1) / o.batch);

	LayerCond *lc = calloc((size_t)m, sizeof *lc);
	if (!lc)
		die("cond", NULL);
	cond_set_threads(threads);
	double kbest = 1e30;
	for (int k = 0; k < 3; k++) {
		double t0 = now();
		if (cond_net_values(net, 25, lc, &e))
			die("cond", &e);
		double s = now() - t0;
		kbest = s < kbest ? s : kbest;
		for (int i = 0; i < m; i++)
			cond_layer_free(&lc[i]);
		if (s > 2.0)
			break;
	}
	if (model_save(net, argv[4], &e))
		die("save", &e);
	printf("width %d depth %d params %zu batches %ld epoch %.4f kappa %.5f\n", width, depth,
	       net->nparam, nb, epoch, kbest);
	free(lc);
	free(w);
	net_free(net);
	dataset_free(d);
	return 0;
}
