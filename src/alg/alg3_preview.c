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
	int units, P;          /* the layer's units, and the values of each (a map's
	                        * positions; 1 for a neuron) */
	const Dataset *eval;   /* the rows evaluated */
	const float *Y;        /* eval->n × n_layer activations */
	const double *Ys, *Zs; /* a dense layer's compensation: sample activations and
	                        * next pre-activations */
	const double *Ym;      /* a convolution's: the sample's maps */
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

/* The network after `layer` reading k kept units of it (a convolution
 * first when the next layer is one, its input channels the kept ones), its
 * first layer's weights the kept units' rows of W and b (laid out as
 * W⁽ˡᵃʸᵉʳ⁺¹⁾ and b⁽ˡᵃʸᵉʳ⁺¹⁾), the later layers as they are. */
static Net *tail_net(const Tail *t, const int *keep, int k, const float *W, const float *b, Err *e)
{
	const Net *net = t->net;
	int L = t->layer, m2 = net->m - L, nc = net->nconv > L ? net->nconv - L : 0;
	int *w = malloc((size_t)(m2 + 1) * sizeof *w);
	ConvShape *cs = nc ? malloc((size_t)nc * sizeof *cs) : NULL;
	Net *tail = NULL;
	if (!w || (nc && !cs)) {
		err_set(e, "out of memory");
		goto out;
	}
	w[0] = k * t->P;
	for (int j = 1; j <= m2; j++)
		w[j] = net->n[L + j];
	if (nc) {
		memcpy(cs, net->conv + L, (size_t)nc * sizeof *cs);
		cs[0].c_in = k;
	}
	if (!(tail = net_new_conv(m2, w, nc, cs, net->act, net->act_a, e)))
		goto out;
	size_t g = (size_t)net_unit_rows(net, L), q = (size_t)net_cols(net, L);
	for (int j = 0; j < k; j++)
		memcpy(tail->W[0] + j * g * q, W + (size_t)keep[j] * g * q, g * q * sizeof *W);
	memcpy(tail->b[0], b, q * sizeof *b);
	for (int j = 1; j < m2; j++)
		memcpy(tail->W[j], net->W[L + j], net_layer_params(net, L + j) * sizeof(float));
out:
	free(w);
	free(cs);
	return tail;
}

/* Accuracy (percent) of the network after `layer`, fed the k kept units
 * keep[0..k) of the activations (tail_net, its first layer's weights from
 * W and b); the class of every row into cls. */
static double tail_accuracy(const Tail *t, const int *keep, int k, const float *W, const float *b,
                            int *cls, Err *e)
{
	int n = t->units * t->P, P = t->P;
	Net *tail = tail_net(t, keep, k, W, b, e);
	Dataset *d = tail ? dataset_new(t->eval->n, k * P, t->eval->k, e) : NULL;
	if (!d) {
		net_free(tail);
		return NAN;
	}
	for (int i = 0; i < d->n; i++)
		for (int j = 0; j < k; j++)
			memcpy(d->x + ((size_t)i * k + j) * P,
			       t->Y + (size_t)i * n + (size_t)keep[j] * P,
			       (size_t)P * sizeof *d->x);
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

/* The next layer's weights after compensation for keeping keep[0..k), in
 * W and b (copies of W⁽ˡᵃʸᵉʳ⁺¹⁾ and b⁽ˡᵃʸᵉʳ⁺¹⁾): a dense layer's kept rows
 * refitted (alg3_refit), a convolution's removed channels folded in
 * (alg3_channel_fit and _fold). */
static int compensated(const Tail *t, const int *keep, int k, float *W, float *b, Err *e)
{
	const Net *net = t->net;
	int L = t->layer, q = net_cols(net, L), c = L <= net->nconv ? t->units : k;
	double *sol = malloc(((size_t)k + 1) * (size_t)(L <= net->nconv ? c : q) * sizeof *sol);
	if (!sol)
		return err_set(e, "out of memory");
	int rc;
	if (L <= net->nconv) {
		rc = alg3_channel_fit(t->Ym, t->s, t->units, t->P, keep, k, sol, e);
		if (rc == 0)
			rc = alg3_channel_fold(net, L, keep, k, sol, W, b, e);
	} else if ((rc = alg3_refit(t->Ys, t->s, t->units, t->Zs, q, keep, k, sol, e)) == 0) {
		for (int j = 0; j < k; j++)
			for (int i = 0; i < q; i++)
				W[(size_t)keep[j] * q + i] = (float)sol[(size_t)j * q + i];
		for (int i = 0; i < q; i++)
			b[i] = (float)sol[(size_t)k * q + i];
	}
	free(sol);
	return rc;
}

/* One choice of kept units: acc[0] plain, acc[1] compensated (when t->s);
 * with ag, how far each answers as the network now. */
static int choice(const Tail *t, const int *keep, double acc[2], double *ag, Err *e)
{
	const Net *net = t->net;
	int k = t->nkeep, L = t->layer;
	if (isnan(acc[0] = tail_accuracy(t, keep, k, net->W[L], net->b[L], t->cls, e)))
		return -1;
	if (ag)
		ag[0] = agree(t, t->cls);
	if (!t->s)
		return 0;
	size_t wlen = (size_t)net_rows(net, L) * net_cols(net, L);
	float *W = malloc(wlen * sizeof *W), *b = malloc((size_t)net_cols(net, L) * sizeof *b);
	int rc = W && b ? 0 : err_set(e, "out of memory");
	if (rc == 0) {
		memcpy(W, net->W[L], wlen * sizeof *W);
		memcpy(b, net->b[L], (size_t)net_cols(net, L) * sizeof *b);
		rc = compensated(t, keep, k, W, b, e);
	}
	if (rc == 0 && isnan(acc[1] = tail_accuracy(t, keep, k, W, b, t->cls, e)))
		rc = -1;
	if (rc == 0 && ag)
		ag[1] = agree(t, t->cls);
	free(W);
	free(b);
	return rc;
}

/* What the network answers now on the evaluated rows, through the same
 * tail with every unit kept, into t->now. */
static int answers_now(Tail *t, Err *e)
{
	int n = t->units;
	int *all = malloc((size_t)n * sizeof *all);
	if (!all)
		return err_set(e, "out of memory");
	for (int j = 0; j < n; j++)
		all[j] = j;
	double acc = tail_accuracy(t, all, n, t->net->W[t->layer], t->net->b[t->layer], t->now, e);
	free(all);
	return isnan(acc) ? -1 : 0;
}

/* Compensation's inputs: the sample's activations at the layer and, for a
 * dense layer, the next layer's pre-activations, in double; a
 * convolution's maps as they are. */
static int sample_side(Tail *t, const Dataset *sample, Err *e)
{
	const Net *net = t->net;
	int L = t->layer, n = net->n[L], q = net_cols(net, L);
	Dataset *s = spaced_rows(sample, ALG3_SAMPLE_ROWS, e);
	float *y = s ? activations(net, L, s, e) : NULL;
	double *Ys = y ? malloc((size_t)s->n * n * sizeof *Ys) : NULL;
	if (Ys && L <= net->nconv) { /* a convolution's maps are all it needs */
		for (size_t i = 0; i < (size_t)s->n * n; i++)
			Ys[i] = y[i];
		t->Ym = Ys;
		t->s = s->n;
		free(y);
		dataset_free(s);
		return 0;
	}
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

/* Long on purpose: QR's choice, the norm rule and the random draws are
 * measured in turn on one tail of the network (the layer's activations on
 * the evaluation rows), whose buffers one exit frees. */
int alg3_compare_layer(const Net *net, const Alg3Proposal *sp, const Dataset *eval,
                       const Dataset *sample, int draws, uint64_t seed, int compensate,
                       int max_rows, Alg3LayerCompare *out, Err *e)
{
	double t0 = clock_seconds();
	memset(out, 0, sizeof *out);
	if (!net || !sp || !eval || sp->layer < 1 || sp->layer >= net->m ||
	    net_units(net, sp->layer) != sp->n_before)
		return err_set(e, "the proposal does not fit the network");
	if (eval->d != net->n[0] || eval->n < 1)
		return err_set(e, "the evaluation set must have rows of %d features", net->n[0]);
	if (draws < 1 || (compensate && !sample))
		return err_set(e,
		               "expected at least 1 random draw (%d) and, to compensate, a "
		               "sample",
		               draws);
	int n = sp->n_before;
	Tail t = {.net = net,
	          .layer = sp->layer,
	          .nkeep = sp->nkeep,
	          .units = n,
	          .P = net->n[sp->layer] / n};
	/* a convolution's maps: at most 2²⁴ values of them at once */
	long most = (1L << 24) / net->n[sp->layer];
	if (most < 1)
		most = 1;
	if (t.P > 1 && (max_rows < 1 || max_rows > most))
		max_rows = (int)most;
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
	free((void *)t.Ym);
	free(Y);
	free(order);
	free(acc);
	dataset_free(ev);
	return rc;
}
