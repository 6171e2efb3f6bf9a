/* bench.h - what the benchmark programs share: the paper's best MNIST
 * network, a monotonic clock, their command line, and random data of
 * MNIST-wavelet shape. */
#ifndef CONDNET_BENCH_H
#define CONDNET_BENCH_H

#include <stdio.h>
#include <stdlib.h>

#include "base/clock.h"
#include "base/rng.h"
#include "data/dataset.h"

static const int widths[] = {200, 600, 410, 510, 420, 364, 319, 278, 249, 212, 180, 130, 50, 10};
#define M ((int)(sizeof widths / sizeof *widths) - 1)
#define ROWS 60000

static inline double now(void)
{
	return clock_seconds();
}

/* The command line [THREADS [REPS]] (defaults 2 and 3) of the program name;
 * 0, or 2 after printing the usage when a value is not positive. */
static inline int bench_args(int argc, char **argv, const char *name, int *threads, int *reps)
{
	*threads = argc > 1 ? atoi(argv[1]) : 2;
	*reps = argc > 2 ? atoi(argv[2]) : 3;
	if (*threads < 1 || *reps < 1) {
		fprintf(stderr, "usage: %s [THREADS [REPS]]\n", name);
		return 2;
	}
	return 0;
}

/* ROWS rows of standard normal features and uniform labels 0..9 drawn from
 * r (seeded 1 by the caller, who may go on drawing from it); NULL when out
 * of memory. */
static inline Dataset *bench_data(Rng *r)
{
	Dataset *d = dataset_new(ROWS, widths[0], 10, NULL);
	if (!d)
		return NULL;
	for (long i = 0; i < (long)ROWS * widths[0]; i++)
		d->x[i] = (float)rng_normal(r);
	for (int i = 0; i < ROWS; i++)
		d->y[i] = (int)rng_below(r, 10);
	return d;
}

#endif
