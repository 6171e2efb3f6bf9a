/* net_cost.c - counting and timing what a network costs. */
#include "model/net_cost.h"

#include <math.h>
#include <stdlib.h>

#include "base/blas.h"
#include "base/clock.h"
#include "base/pool.h"
#include "base/rng.h"
#include "engine/train.h"
#include "model/model_io.h"

void net_cost_count(const Net *net, NetCost *c)
{
	c->params = net->nparam;
	c->madds = 0;
	for (int i = 1; i <= net->m; i++) /* a convolution's at every position */
		c->madds += i <= net->nconv ? layers_macs(&net->conv[i - 1])
		                            : (double)net->n[i - 1] * net->n[i];
	c->file_bytes = model_file_bytes(net);
	c->sec_b1 = c->sec_b256 = NAN;
	c->repeats = 0;
	c->threads = 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median seconds per sample of a forward pass on batch rows of x, with
 * OpenBLAS on `threads` threads. */
static int time_batch(const Net *net, const float *x, int batch, float *out, int repeats,
                      int threads, double *sec, Err *e)
{
	/* warm up, then calibrate: as many calls per repeat as fill about 5 ms */
	if (net_forward_blas(net, x, batch, net->m, out, threads, e))
		return -1;
	double t0 = clock_seconds();
	if (net_forward_blas(net, x, batch, net->m, out, threads, e))
		return -1;
	double one = clock_seconds() - t0;
	long calls = one > 0 ? (long)ceil(0.005 / one) : 1000;
	calls = calls < 1 ? 1 : calls > 100000 ? 100000 : calls;
	double *t = malloc((size_t)repeats * sizeof *t);
	if (!t)
		return err_set(e, "out of memory");
	for (int r = 0; r < repeats; r++) {
		t0 = clock_seconds();
		for (long k = 0; k < calls; k++)
			if (net_forward_blas(net, x, batch, net->m, out, threads, e)) {
				free(t);
				return -1;
			}
		t[r] = (clock_seconds() - t0) / ((double)calls * batch);
	}
	qsort(t, (size_t)repeats, sizeof *t, cmp_double);
	*sec = repeats % 2 ? t[repeats / 2] : 0.5 * (t[repeats / 2 - 1] + t[repeats / 2]);
	free(t);
	return 0;
}

int net_cost_measure(const Net *net, int repeats, int threads, NetCost *c, Err *e)
{
	net_cost_count(net, c);
	if (repeats < 1)
		return err_set(e, "%d timing repeats, expected at least 1", repeats);
	enum { BIG = 256 };
	int d = net->n[0], k = net->n[net->m];
	float *x = malloc((size_t)BIG * d * sizeof *x);
	float *out = malloc((size_t)BIG * k * sizeof *out);
	if (!x || !out) {
		free(x);
		free(out);
		return err_set(e, "out of memory for %d timing rows", BIG);
	}
	Rng r;
	rng_seed(&r, 0x7153);
	for (size_t i = 0; i < (size_t)BIG * d; i++)
		x[i] = (float)rng_normal(&r);
	/* OpenBLAS's threads, not condnet's: evaluation and training set it back
	 * to one thread whenever they run, each of their threads calling it alone */
	int n = threads > 0 ? threads : pool_default_threads();
	int rc = time_batch(net, x, 1, out, repeats, n, &c->sec_b1, e);
	if (rc == 0)
		rc = time_batch(net, x, BIG, out, repeats, n, &c->sec_b256, e);
	if (rc == 0) {
		c->repeats = repeats;
		c->threads = blas_get_threads(); /* what the timed passes ran on */
	}
	blas_set_threads(1);
	free(x);
	free(out);
	return rc;
}
