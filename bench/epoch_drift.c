/* epoch_drift.c - does training slow down as it goes on? The paper's best
 * MNIST network (200-600-410-…-50-10, erf, Adam 1e-3, batch 50) is trained
 * for EPOCHS epochs on MNIST with 200 Haar-wavelet features in condnet's
 * floating-point mode, printing each epoch's time and the share of saturated
 * neurons: hidden pre-activations with |a·z| ≥ 9 on 2,000 training rows,
 * whose erf' (< 1e-35) makes the gradient flowing back through them
 * subnormal in IEEE arithmetic.
 *
 * Epoch times on a shared machine vary by ±10 % from one epoch to the next,
 * and a shared machine's speed drifts over minutes, so the comparison is
 * made on probes: from the network as it was after epochs 1, 5, 10 and 20,
 * the same PROBE batches of training are timed with subnormals flushed to
 * zero (condnet's mode) and with IEEE subnormals, all eight in turn, three
 * rounds, the best of each kept, and scaled to a whole epoch.
 *
 *   epoch_drift [EPOCHS [THREADS]]   (defaults 20 and 2) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/blas.h"
#include "base/fpmode.h"
#include "bench.h"
#include "data/datasets.h"
#include "engine/net.h"
#include "engine/train.h"

#define PROBE 300
#define MARKS 4
static const int marks[MARKS] = {1, 5, 10, 20};

/* Share of hidden pre-activations with |a·z| ≥ 9 over the first rows of d. */
static double saturated_share(const Net *net, const Dataset *d, int rows)
{
	rows = rows < d->n ? rows : d->n;
	long sat = 0, all = 0;
	size_t cap = (size_t)rows * 1024;
	float *in = malloc(sizeof(float) * cap), *z = malloc(sizeof(float) * cap);
	if (!in || !z)
		exit(1);
	memcpy(in, d->x, sizeof(float) * (size_t)rows * d->d);
	for (int i = 0; i < net->m - 1; i++) {
		int ni = net->n[i], no = net->n[i + 1];
		blas_sgemm(0, 0, rows, no, ni, 1.0f, in, ni, net->W[i], no, 0.0f, z, no);
		for (int r = 0; r < rows; r++)
			for (int j = 0; j < no; j++) {
				float v = net->act_a * (z[(size_t)r * no + j] + net->b[i][j]);
				sat += fabsf(v) >= 9.0f;
				all++;
				in[(size_t)r * no + j] = erff(v);
			}
	}
	free(in);
	free(z);
	return (double)sat / (double)all;
}

typedef struct Watch {
	double last;
	int epoch;
	const Net *net;
	const Dataset *d;
	Net *snap[MARKS];
} Watch;

static int on_batch(const TrainProgress *p, void *ud)
{
	Watch *w = ud;
	if (!p->epoch_end)
		return 0;
	double sec = p->seconds - w->last;
	double t0 = now();
	w->epoch++;
	printf("  epoch %2d: %6.2f s, loss %.4f, saturated %5.2f %%\n", w->epoch, sec, p->loss,
	       100 * saturated_share(w->net, w->d, 2000));
	fflush(stdout);
	for (int k = 0; k < MARKS; k++)
		if (marks[k] == w->epoch)
			w->snap[k] = net_clone(w->net, NULL);
	w->last = p->seconds + (now() - t0); /* the census is not training time */
	return 0;
}

/* Seconds per epoch of training from snap, measured on PROBE batches. */
static double probe(const Net *snap, const Dataset *d, const TrainOpts *o, long per_epoch)
{
	Net *net = net_clone(snap, NULL);
	Err e;
	Trainer *t = trainer_new(net, d, o, &e);
	if (!t) {
		fprintf(stderr, "epoch_drift: %s\n", e.msg);
		exit(1);
	}
	double t0 = now();
	trainer_step(t, PROBE, NULL, &e);
	double s = now() - t0;
	trainer_free(t);
	net_free(net);
	return s * (double)per_epoch / PROBE;
}

static void set_mode(int ieee)
{
	if (ieee)
		fpmode_clear();
	else
		fpmode_set();
	blas_restart_threads(); /* the workers take the main thread's mode */
}

int main(int argc, char **argv)
{
	int epochs = argc > 1 ? atoi(argv[1]) : 20;
	int threads = argc > 2 ? atoi(argv[2]) : 2;
	if (epochs < 1 || threads < 1) {
		fprintf(stderr, "usage: epoch_drift [EPOCHS [THREADS]]\n");
		return 2;
	}
	DataSpec s;
	dataspec_default(&s);
	s.spec = "mnist";
	Dataset *tr, *te;
	Err e;
	if (datasets_load(&s, &tr, &te, &e)) {
		fprintf(stderr, "epoch_drift: %s\n", e.msg);
		return 1;
	}
	int w[M + 1];
	memcpy(w, widths, sizeof w);
	Net *net = net_new(M, w, ACT_ERF, 1.0f, &e);
	Rng r;
	rng_seed(&r, 1);
	net_init_glorot(net, &r);
	TrainOpts o;
	train_opts_default(&o);
	o.threads = threads;
	Watch wt = {.net = net, .d = tr};
	printf("== training %d epochs, subnormals flushed to zero, %d threads\n", epochs, threads);
	if (train_epochs(net, tr, &o, epochs, on_batch, &wt, &e) < 0) {
		fprintf(stderr, "epoch_drift: %s\n", e.msg);
		return 1;
	}
	long per_epoch = (tr->n + o.batch - 1) / o.batch;
	printf("== probes: %d batches from the network after epoch k, scaled to an epoch of %ld "
	       "batches; best of 3 rounds, each round measuring every epoch and mode in turn\n",
	       PROBE, per_epoch);
	double sec[2][MARKS];
	for (int k = 0; k < MARKS; k++)
		sec[0][k] = sec[1][k] = wt.snap[k] ? INFINITY : NAN;
	for (int r = 0; r < 3; r++)
		for (int k = 0; k < MARKS; k++)
			for (int mode = 0; wt.snap[k] && mode < 2; mode++) {
				set_mode(mode);
				double s = probe(wt.snap[k], tr, &o, per_epoch);
				sec[mode][k] = s < sec[mode][k] ? s : sec[mode][k];
			}
	set_mode(0);
	printf("epoch   flushed (condnet)   IEEE subnormals   IEEE / flushed\n");
	for (int k = 0; k < MARKS; k++)
		if (wt.snap[k])
			printf("%5d   %7.2f s  x%.2f     %7.2f s  x%.2f    %.2f\n", marks[k],
			       sec[0][k], sec[0][k] / sec[0][0], sec[1][k], sec[1][k] / sec[1][0],
			       sec[1][k] / sec[0][k]);
	for (int k = 0; k < MARKS; k++)
		net_free(wt.snap[k]);
	net_free(net);
	dataset_free(tr);
	dataset_free(te);
	return 0;
}
