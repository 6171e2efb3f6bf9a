/* alg3_preview.c - one layer's squeeze decision beside the norm rule and
 * random choice, for the screen: the layers before the decided one are
 * untouched, so only the network's tail is evaluated for each choice. */
#include "alg/alg3_compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/blas.h"
#include "base/clock.h"
#include "base/rng.h"
#include "engine/hook.h"
#include "engine/train.h"
#include "engine/train_plan.h"

/* Rows of d, at most max (0: all), evenly spaced, with their labels. */
static Dataset *spaced_rows(const Dataset *d, int max, Err *e)
{
	int s = max > 0 && d->n > max ? max : d->n;
	int *idx = malloc((size_t)s * sizeof *idx);
	if (!idx) {
		err_set(e, "out of memory");
		return NULL;
	}
	for (int i = 0; i < s; i++)
		idx[i] = (int)((long)i * d->n / s);
	Dataset *r = dataset_subset(d, idx, s, e);
	free(idx);
	return r;
}

/* The activations of hidden layer `layer` on the rows of d, in slices with
 * the calling thread's stop asked between them. */
static float *activations(const Net *net, int layer, const Dataset *d, Err *e)
{
	enum { SLICE = 2048 };
	size_t w = (size_t)net->n[layer];
	float *y = malloc((size_t)d->n * w * sizeof *y);
	if (!y) {
		err_set(e, "out of memory for %d rows of activations", d->n);
		return NULL;
	}
	for (int start = 0; start < d->n; start += SLICE) {
		int rows = d->n - start < SLICE ? d->n - start : SLICE;
		if (hook_thread_stopped()) {
			err_set(e, "stopped");
			free(y);
			return NULL;
		}
		if (net_forward(net, d->x + (size_t)start * d->d, rows, layer,
		                y + (size_t)start * w, e)) {
			free(y);
			return NULL;
		}
	}
	return y;
}

/* The shared inputs of every choice for one layer. */
typedef struct Tail {
	const Net *net;
	int layer, nkeep;
	const Dataset *eval;   /* the rows evaluated */
	const float *Y;        /* eval->n × n_layer activations */
	const double *Ys, *Zs; /* compensation: sample activations and next pre-activations */
	int s;                 /* sample rows (0: no compensation) */
	int *now;              /* eval->n: the classes the network answers now */
	int *cls;              /* eval->n: those of the choice evaluated last */
} Tail;

/* The classes a network answers for the rows of d, in slices with the
 * calling thread's stop asked between them; the rows answered right into
 * *correct. */
static int classes(const Net *net, const Dataset *d, int *cls, long *correct, Err *e)
{
	enum { SLICE = 2048 };
	*correct = 0;
	for (int start = 0; start < d->n; start += SLICE) {
		int rows = d->n - start < SLICE ? d->n - start : SLICE;
		long c = 0;
		if (hook_thread_stopped())
			return err_set(e, "stopped");
		if (net_classify(net, d->x + (size_t)start * d->d, d->y + start, rows, cls + start,
		                 NULL, &c, NULL, NULL, NULL, e))
			return -1;
		*correct += c;
	}
	return 0;
}

/* Accuracy (percent) of the network after `layer`, fed the k kept columns
 * keep[0..k) of the activations: layer+1 takes the kept rows of
 * W⁽ˡᵃʸᵉʳ⁺¹⁾ and b, or the refit sol ((k+1)×q) when given; the later
 * layers as they are. The class of every row into cls. */
static double tail_accuracy(const Tail *t, const int *keep, int k, const double *sol, int *cls,
                            Err *e)
{
	const Net *net = t->net;
	int L = t->layer, m2 = net->m - L, n = net->n[L], q = net->n[L + 1];
	int *w = malloc((size_t)(m2 + 1) * sizeof *w);
	if (!w)
		return err_set(e, "out of memory"), NAN;
	w[0] = k;
	for (int j = 1; j <= m2; j++)
		w[j] = net->n[L + j];
	Net *tail = net_new(m2, w, net->act, net->act_a, e);
	free(w);
	Dataset *d = tail ? dataset_new(t->eval->n, k, t->eval->k, e) : NULL;
	if (!d) {
		net_free(tail);
		return NAN;
	}
	for (int j = 0; j < k; j++) {
		float *dst = tail->W[0] + (size_t)j * q;
		const float *row = net->W[L] + (size_t)keep[j] * q;
		for (int c = 0; c < q; c++)
			dst[c] = sol ? (float)sol[(size_t)j * q + c] : row[c];
	}
	for (int c = 0; c < q; c++)
		tail->b[0][c] = sol ? (float)sol[(size_t)k * q + c] : net->b[L][c];
	for (int j = 1; j < m2; j++) {
		memcpy(tail->W[j], net->W[L + j], (size_t)net->n[L + j] * net->n[L + j + 1] * 4);
		memcpy(tail->b[j], net->b[L + j], (size_t)net->n[L + j + 1] * 4);
	}
	for (int i = 0; i < d->n; i++)
		for (int j = 0; j < k; j++)
			d->x[(size_t)i * k + j] = t->Y[(size_t)i * n + keep[j]];
	memcpy(d->y, t->eval->y, (size_t)d->n * sizeof *d->y);
	long correct = 0;
	int rc = classes(tail, d, cls, &correct, e);
	net_free(tail);
	dataset_free(d);
	if (rc)
		return NAN;
	return 100 * (double)correct / t->eval->n;
}

/* The share (percent) of the evaluated rows on which cls answers as t->now. */
static double agree(const Tail *t, const int *cls)
{
	long same = 0;
	for (int i = 0; i < t->eval->n; i++)
		same += cls[i] == t->now[i] && cls[i] != NET_NO_ANSWER;
	return 100 * (double)same / t->eval->n;
}

/* One choice of kept neurons: acc[0] plain, acc[1] compensated (when t->s);
 * with ag, how far each answers as the network now. */
static int choice(const Tail *t, const int *keep, double acc[2], double *ag, Err *e)
{
	int k = t->nkeep;
	if (isnan(acc[0] = tail_accuracy(t, keep, k, NULL, t->cls, e)))
		return -1;
	if (ag)
		ag[0] = agree(t, t->cls);
	if (!t->s)
		return 0;
	int q = t->net->n[t->layer + 1];
	double *sol = malloc((size_t)(k + 1) * q * sizeof *sol);
	if (!sol)
		return err_set(e, "out of memory");
	int rc = alg3_refit(t->Ys, t->s, t->net->n[t->layer], t->Zs, q, keep, k, sol, e);
	if (rc == 0 && isnan(acc[1] = tail_accuracy(t, keep, k, sol, t->cls, e)))
		rc = -1;
	if (rc == 0 && ag)
		ag[1] = agree(t, t->cls);
	free(sol);
	return rc;
}

/* What the network answers now on the evaluated rows, through the same
 * tail with every neuron kept, into t->now. */
static int answers_now(Tail *t, Err *e)
{
	int n = t->net->n[t->layer];
	int *all = malloc((size_t)n * sizeof *all);
	if (!all)
		return err_set(e, "out of memory");
	for (int j = 0; j < n; j++)
		all[j] = j;
	double acc = tail_accuracy(t, all, n, NULL, t->now, e);
	free(all);
	return isnan(acc) ? -1 : 0;
}

/* Compensation's inputs: the sample's activations at the layer and the
 * next layer's pre-activations, in double. */
static int sample_side(Tail *t, const Dataset *sample, Err *e)
{
	const Net *net = t->net;
	int L = t->layer, n = net->n[L], q = net->n[L + 1];
	Dataset *s = spaced_rows(sample, ALG3_SAMPLE_ROWS, e);
	float *y = s ? activations(net, L, s, e) : NULL;
	double *Ys = y ? malloc((size_t)s->n * n * sizeof *Ys) : NULL;
	double *Zs = Ys ? malloc((size_t)s->n * q * sizeof *Zs) : NULL;
	double *W = Zs ? malloc((size_t)n * q * sizeof *W) : NULL;
	int rc = -1;
	if (s && y && !W)
		err_set(e, "out of memory for the refit on %d rows", s->n);
	if (W) {
		for (size_t i = 0; i < (size_t)s->n * n; i++)
			Ys[i] = y[i];
		for (size_t i = 0; i < (size_t)n * q; i++)
			W[i] = net->W[L][i];
		blas_dgemm(0, 0, s->n, q, n, 1.0, Ys, n, W, q, 0.0, Zs, q);
		for (int i = 0; i < s->n; i++)
			for (int c = 0; c < q; c++)
				Zs[(size_t)i * q + c] += net->b[L][c];
		t->Ys = Ys;
		t->Zs = Zs;
		t->s = s->n;
		Ys = Zs = NULL;
		rc = 0;
	}
	free(W);
	free(Ys);
	free(Zs);
	free(y);
	dataset_free(s);
	return rc;
}

static void spread(const double *v, int n, double qr, double *mean, double *sd, double *share)
{
	double s = 0, ss = 0;
	int ge = 0;
	for (int r = 0; r < n; r++) {
		s += v[r];
		ge += v[r] >= qr;
	}
	*mean = s / n;
	for (int r = 0; r < n; r++)
		ss += (v[r] - *mean) * (v[r] - *mean);
	*sd = n > 1 ? sqrt(ss / (n - 1)) : NAN;
	*share = (double)ge / n;
}

int alg3_compare_layer(const Net *net, const Alg3Proposal *sp, const Dataset *eval,
                       const Dataset *sample, int draws, uint64_t seed, int compensate,
                       int max_rows, Alg3LayerCompare *out, Err *e)
{
	double t0 = clock_seconds();
	memset(out, 0, sizeof *out);
	if (net && net_refuse_conv(net, "a comparison of squeezes", e))
		return -1;
	if (!net || !sp || !eval || sp->layer < 1 || sp->layer >= net->m ||
	    net->n[sp->layer] != sp->n_before)
		return err_set(e, "the proposal does not fit the network");
	if (eval->d != net->n[0] || eval->n < 1)
		return err_set(e, "the evaluation set must have rows of %d features", net->n[0]);
	if (draws < 1 || (compensate && !sample))
		return err_set(e,
		               "expected at least 1 random draw (%d) and, to compensate, a "
		               "sample",
		               draws);
	int n = sp->n_before;
	Tail t = {.net = net, .layer = sp->layer, .nkeep = sp->nkeep};
	Dataset *ev = spaced_rows(eval, max_rows, e);
	float *Y = ev ? activations(net, sp->layer, ev, e) : NULL;
	int *order = malloc((size_t)n * sizeof *order);
	double *acc = malloc((size_t)2 * draws * sizeof *acc);
	int rc = -1;
	if (ev && Y && (!order || !acc))
		err_set(e, "out of memory");
	if (!Y || !order || !acc || (compensate && sample_side(&t, sample, e) < 0))
		goto out;
	t.eval = ev;
	t.Y = Y;
	*out = (Alg3LayerCompare){
	    .layer = sp->layer, .n_before = n, .nkeep = sp->nkeep, .rows = ev->n, .draws = draws};
	for (int k = 0; k < ALG3_NCRITERIA; k++)
		out->acc_comp[k] = NAN;
	out->sd_comp = out->share_ge_comp = NAN;
	double a2[2], ag[2] = {NAN, NAN};
	out->agree = out->agree_comp = NAN;
	t.now = malloc((size_t)ev->n * sizeof *t.now);
	t.cls = malloc((size_t)ev->n * sizeof *t.cls);
	if (!t.now || !t.cls) {
		err_set(e, "out of memory");
		goto out;
	}
	if (answers_now(&t, e) || choice(&t, sp->perm, a2, ag, e))
		goto out;
	out->acc[ALG3_QR] = a2[0];
	out->acc_comp[ALG3_QR] = t.s ? a2[1] : NAN;
	out->agree = ag[0];
	out->agree_comp = t.s ? ag[1] : NAN;
	if (alg3_order(net, sp->layer, ALG3_NORM, 0, order, e) || choice(&t, order, a2, NULL, e))
		goto out;
	out->acc[ALG3_NORM] = a2[0];
	out->acc_comp[ALG3_NORM] = t.s ? a2[1] : NAN;
	for (int r = 0; r < draws; r++) {
		if (alg3_order(net, sp->layer, ALG3_RANDOM, rng_derive(seed, r), order, e) ||
		    choice(&t, order, a2, NULL, e))
			goto out;
		acc[r] = a2[0];
		acc[draws + r] = a2[1];
	}
	spread(acc, draws, out->acc[ALG3_QR], &out->acc[ALG3_RANDOM], &out->sd, &out->share_ge);
	if (t.s)
		spread(acc + draws, draws, out->acc_comp[ALG3_QR], &out->acc_comp[ALG3_RANDOM],
		       &out->sd_comp, &out->share_ge_comp);
	out->seconds = clock_seconds() - t0;
	rc = 0;
out:
	if (rc < 0 && hook_thread_stopped()) /* a stop between two evaluations */
		rc = 1;
	free(t.now);
	free(t.cls);
	free((void *)t.Ys);
	free((void *)t.Zs);
	free(Y);
	free(order);
	free(acc);
	dataset_free(ev);
	return rc;
}
