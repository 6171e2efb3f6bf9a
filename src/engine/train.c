/* train.c - the mini-batch loop with Adam: batches gathered in a shuffled
 * order, their passes (train_pass.c) on the trainer's pool of threads. */
#include "engine/train.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/blas.h"
#include "base/clock.h"
#include "base/pool.h"
#include "base/repro.h"
#include "engine/limits.h"
#include "engine/train_pass.h"

static int check_shapes(const Net *net, const Dataset *d, Err *e)
{
	if (d->n < 1)
		return err_set(e, "%s: no rows to train on", d->name);
	if (d->d != net->n[0])
		return err_set(e, "%s: %d features per row, but the network takes %d inputs",
		               d->name, d->d, net->n[0]);
	if (net_check_images(net, d->c, d->h, d->w, d->name, e))
		return -1;
	for (int r = 0; r < d->n; r++)
		if (d->y[r] < 0 || d->y[r] >= net->n[net->m])
			return err_set(e,
			               "%s: row %d has label %d, outside the network's %d classes",
			               d->name, r + 1, d->y[r], net->n[net->m]);
	return 0;
}

void train_opts_default(TrainOpts *o)
{
	o->batch = 50;
	adam_default(&o->adam);
	o->seed = 1;
	o->shuffle = 1;
	o->threads = 0;
	sched_default(&o->sched);
	o->sched_keep = 0;
	o->workers = 0;
}

int train_threads(const TrainOpts *o)
{
	int n = o->threads > 0 ? o->threads : pool_default_threads();
	return n < TRAIN_MAX_THREADS ? n : TRAIN_MAX_THREADS;
}

struct Trainer {
	Net *net;
	const Dataset *data;
	TrainOpts o;
	Rng rng;
	Work *w;
	Pool *pool; /* NULL: the calling thread computes alone */
	int B;
	int *perm;      /* row order of the current epoch */
	float *xb;      /* B × n[0] gathered batch */
	int *yb;        /* B labels */
	float *grad;    /* nparam, parameter layout */
	long bpe;       /* batches per epoch */
	long done;      /* batches run since creation */
	long pos;       /* batch index within the current epoch */
	double ep_loss; /* Σ loss·rows over the current epoch */
	long ep_correct, ep_rows;
	TrainCallback cb;
	void *ud;
	long every;
	double lr; /* the rate of the last batch */
};

Trainer *trainer_new(Net *net, const Dataset *data, const TrainOpts *o, Err *e)
{
	if (check_shapes(net, data, e))
		return NULL;
	if (o->batch < 1) {
		err_set(e, "batch size %d: expected a positive integer", o->batch);
		return NULL;
	}
	long B = o->batch < data->n ? o->batch : data->n;
	if (sched_ready(o->sched_keep ? &net->sched : &o->sched, (data->n + B - 1) / B, e) < 0)
		return NULL;
	Trainer *t = calloc(1, sizeof *t);
	if (!t) {
		err_set(e, "out of memory");
		return NULL;
	}
	t->net = net;
	t->data = data;
	t->o = *o;
	t->B = o->batch < data->n ? o->batch : data->n;
	t->bpe = (data->n + t->B - 1) / t->B;
	t->every = 1;
	rng_seed(&t->rng, o->seed);
	blas_set_threads(1); /* the pool's threads share the work, each calling OpenBLAS alone */
	/* parts by the thread count, or fixed in the reproducible mode; the
	 * threads (or the workers asked for) compute them, at most one a part */
	int threads = train_threads(o);
	int parts = pass_parts(net, t->B, repro_parts(threads));
	int workers = o->workers > 0 && o->workers < threads ? o->workers : threads;
	if (workers > parts)
		workers = parts;
	repro_current(&net->run, threads);
	if (o->threads > 0)
		pool_set_default_threads(o->threads);
	if (workers > 1 && !(t->pool = pool_new(workers, e))) {
		trainer_free(t);
		return NULL;
	}
	t->w = work_new(net, t->B, parts, NULL); /* the message is the one below */
	t->perm = malloc((size_t)data->n * sizeof *t->perm);
	t->xb = malloc((size_t)t->B * data->d * sizeof *t->xb);
	t->yb = malloc((size_t)t->B * sizeof *t->yb);
	t->grad = malloc(net->nparam * sizeof *t->grad);
	if (!t->w || !t->perm || !t->xb || !t->yb || !t->grad) {
		trainer_free(t);
		err_set(e, "out of memory for training workspaces (batch %d, %zu parameters)",
		        o->batch, net->nparam);
		return NULL;
	}
	for (int r = 0; r < data->n; r++)
		t->perm[r] = r;
	if (!o->sched_keep) {
		net->sched = o->sched;
		memset(&net->sched_st, 0, sizeof net->sched_st);
	}
	t->lr = sched_lr(&net->sched, &net->sched_st, t->bpe, o->adam.lr);
	return t;
}

void trainer_free(Trainer *t)
{
	if (!t)
		return;
	pool_free(t->pool);
	work_free(t->w);
	free(t->perm);
	free(t->xb);
	free(t->yb);
	free(t->grad);
	free(t);
}

void trainer_set_callback(Trainer *t, TrainCallback cb, void *ud)
{
	t->cb = cb;
	t->ud = ud;
}

void trainer_set_report_every(Trainer *t, long every)
{
	t->every = every > 0 ? every : 1;
}

double trainer_epoch(const Trainer *t)
{
	return (double)t->done / (double)t->bpe;
}

long trainer_batches_per_epoch(const Trainer *t)
{
	return t->bpe;
}

/* One mini-batch: gather, forward, backward, check, Adam. */
static int run_batch(Trainer *t, double *loss, Err *e)
{
	const Dataset *d = t->data;
	Net *net = t->net;
	if (t->pos == 0 && t->o.shuffle)
		rng_shuffle(&t->rng, t->perm, d->n);
	int start = (int)(t->pos * t->B);
	int rows = d->n - start < t->B ? d->n - start : t->B;
	for (int r = 0; r < rows; r++) {
		int src = t->perm[start + r];
		memcpy(t->xb + (size_t)r * d->d, d->x + (size_t)src * d->d,
		       (size_t)d->d * sizeof(float));
		t->yb[r] = d->y[src];
	}
	long correct = 0;
	int finite;
	double l = pass_batch(t->w, t->pool, net, t->xb, t->yb, rows, t->grad, &correct, &finite);
	*loss = l;
	if ((!isfinite(l) || !finite) && !pass_all_finite(net->param, net->nparam))
		return err_set(e,
		               "training diverged at epoch %ld, batch %ld: the weights are not "
		               "finite (loss %g)",
		               t->done / t->bpe + 1, t->pos + 1, l);
	if (!isfinite(l) || !finite)
		return err_set(e,
		               "training diverged at epoch %ld, batch %ld (loss %g); weights "
		               "kept from before that batch",
		               t->done / t->bpe + 1, t->pos + 1, l);
	/* the step counts stay in the table of limits (a loaded model's may be near) */
	if (net->adam_t >= LIMIT_MAX_STEPS || net->sched_st.step >= LIMIT_MAX_STEPS)
		return err_set(e,
		               "the network has taken %lld Adam steps, condnet's limit (2^53): it "
		               "trains no further",
		               (long long)net->adam_t);
	AdamOpts adam = t->o.adam;
	adam.lr = t->lr = sched_lr(&net->sched, &net->sched_st, t->bpe, t->o.adam.lr);
	net->adam_t++;
	net->sched_st.step++;
	pass_adam(t->pool, &adam, net->adam_t, net->nparam, t->grad, net->param, net->adam_m,
	          net->adam_v);
	t->ep_loss += l * rows;
	t->ep_correct += correct;
	t->ep_rows += rows;
	return 0;
}

/* Runs up to nb batches; *stopped is set when the callback asked to stop. */
static long step(Trainer *t, long nb, int *stopped, Err *e)
{
	double t0 = clock_seconds();
	*stopped = 0;
	if (nb < 0)
		nb = 0;
	for (long k = 0; k < nb; k++) {
		double loss;
		if (run_batch(t, &loss, e))
			return -1;
		t->done++;
		int end = ++t->pos == t->bpe;
		/* the weights themselves and Adam's moments (a squared gradient past
		 * the float range), once an epoch and at the end of the call */
		if ((end || k + 1 == nb) && !pass_all_finite(t->net->param, t->net->nparam))
			return err_set(e,
			               "training diverged at epoch %ld: the weights are not finite "
			               "after batch %ld",
			               (t->done - 1) / t->bpe + 1, t->pos),
			       -1;
		if ((end || k + 1 == nb) && (!pass_all_finite(t->net->adam_m, t->net->nparam) ||
		                             !pass_all_finite(t->net->adam_v, t->net->nparam)))
			return err_set(e,
			               "training diverged at epoch %ld: Adam's moments are not "
			               "finite after batch %ld (a gradient past the float range)",
			               (t->done - 1) / t->bpe + 1, t->pos),
			       -1;
		if (t->cb && (end || k + 1 == nb || (k + 1) % t->every == 0)) {
			TrainProgress p = {
			    .epoch = trainer_epoch(t),
			    .batch = k + 1,
			    .batches = nb,
			    .loss = t->ep_loss / t->ep_rows,
			    .acc = (double)t->ep_correct / t->ep_rows,
			    .seconds = clock_seconds() - t0,
			    .epoch_end = end,
			    .lr = t->lr,
			};
			if (t->cb(&p, t->ud))
				*stopped = 1;
		}
		if (end) {
			t->pos = 0;
			t->ep_loss = 0.0;
			t->ep_correct = t->ep_rows = 0;
		}
		if (*stopped)
			return k + 1;
	}
	return nb;
}

void trainer_skip(Trainer *t, long nbatches)
{
	for (long k = 0; k < nbatches; k++) {
		if (t->pos == 0 && t->o.shuffle)
			rng_shuffle(&t->rng, t->perm, t->data->n);
		t->done++;
		if (++t->pos == t->bpe)
			t->pos = 0;
	}
}

int trainer_step(Trainer *t, long nbatches, long *done, Err *e)
{
	int stopped = 0;
	long k = step(t, nbatches, &stopped, e);
	if (done)
		*done = k < 0 ? 0 : k;
	if (k < 0)
		return -1;
	return stopped || k < nbatches
	           ? err_stop(e, "stopped after %ld of %ld batches", k, nbatches)
	           : 0;
}

int train_epochs(Net *net, const Dataset *data, const TrainOpts *o, double epochs, TrainCallback cb,
                 void *ud, Err *e)
{
	if (!(epochs >= 0.0) || epochs > 1e6)
		return err_set(e, "epochs %g: expected a number from 0 to 1e6", epochs);
	TrainOpts ro = *o;
	if (!o->sched_keep && o->sched.kind == SCHED_PLATEAU)
		return err_set(e, "the plateau schedule needs a validation set, which this "
		                  "training has not");
	if (!o->sched_keep)
		sched_resolve(&ro.sched, epochs);
	Trainer *t = trainer_new(net, data, &ro, e);
	if (!t)
		return -1;
	trainer_set_callback(t, cb, ud);
	/* The small slack keeps e.g. 0.1·1200 = 120.00000000000001 at 120. */
	long nb = (long)ceil(epochs * (double)t->bpe - 1e-9);
	int stopped = 0;
	long r = nb > 0 ? step(t, nb, &stopped, e) : 0;
	trainer_free(t);
	if (r < 0)
		return -1;
	return stopped ? 1 : 0;
}
