/* train.c - forward and backward passes as sgemm on batch-major float32
 * matrices, the mini-batch loop with Adam, and evaluation. */
#include "engine/train.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/blas.h"
#include "base/vec4.h"
#include "base/clock.h"
#include "engine/limits.h"

/* Rows per forward chunk in evaluation. */
#define EVAL_CHUNK 1024

/* Buffers for one forward and backward pass over up to B rows. */
typedef struct Work {
	int B, m;
	float **z;     /* z[i]: B × n[i+1] pre-activations of layer i */
	float **a;     /* a[i]: B × n[i+1] activations of hidden layer i (i < m-1) */
	float *g0, *g1; /* B × max n[1..m]: gradients with respect to a layer's output */
} Work;

static void work_free(Work *w)
{
	if (!w)
		return;
	for (int i = 0; w->z && i < w->m; i++)
		free(w->z[i]);
	for (int i = 0; w->a && i < w->m; i++)
		free(w->a[i]);
	free(w->z);
	free(w->a);
	free(w->g0);
	free(w->g1);
	free(w);
}

static Work *work_new(const Net *net, int B)
{
	Work *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->B = B;
	w->m = net->m;
	w->z = calloc((size_t)net->m, sizeof *w->z);
	w->a = calloc((size_t)net->m, sizeof *w->a);
	if (!w->z || !w->a)
		goto fail;
	int maxw = 1;
	for (int i = 0; i < net->m; i++) {
		size_t len = (size_t)B * net->n[i + 1];
		if (net->n[i + 1] > maxw)
			maxw = net->n[i + 1];
		w->z[i] = malloc(len * sizeof(float));
		if (!w->z[i])
			goto fail;
		if (i < net->m - 1 && !(w->a[i] = malloc(len * sizeof(float))))
			goto fail;
	}
	w->g0 = malloc((size_t)B * maxw * sizeof(float));
	w->g1 = malloc((size_t)B * maxw * sizeof(float));
	if (!w->g0 || !w->g1)
		goto fail;
	return w;
fail:
	work_free(w);
	return NULL;
}

/* The output layer on rows of logits z (rows × k): z += b, then per row the
 * log-sum-exp L = log Σⱼ exp(zⱼ − max z); −log pᵧ = L − (zᵧ − max z).
 * Adds the losses and the number of rows whose first arg max equals y to
 * *loss and *correct (when y is given), and writes the probabilities to p
 * (when given; p may equal z). */
static void output_rows(float *z, const float *b, int rows, int k, const int *y, float *p,
			double *loss, long *correct)
{
	for (int r = 0; r < rows; r++) {
		float *zr = z + (size_t)r * k;
		int arg = 0;
		for (int j = 0; j < k; j++) {
			zr[j] += b[j];
			if (zr[j] > zr[arg])
				arg = j;
		}
		float mx = zr[arg];
		double s = 0.0;
		for (int j = 0; j < k; j++)
			s += exp((double)(zr[j] - mx));
		if (y) {
			*loss += log(s) - (double)(zr[y[r]] - mx);
			*correct += arg == y[r];
		}
		if (p) {
			float *pr = p + (size_t)r * k;
			for (int j = 0; j < k; j++)
				pr[j] = (float)(exp((double)(zr[j] - mx)) / s);
		}
	}
}

/* The forward pass of one batch x (rows × n[0]) through the layers
 * 0..upto-1, leaving z[i] (with bias) and a[i]; the output layer's logits
 * stay in z[m-1] without bias when upto = m. */
static void forward(const Net *net, Work *w, const float *x, int rows, int upto)
{
	const float *in = x;
	for (int i = 0; i < upto; i++) {
		int ni = net->n[i], no = net->n[i + 1];
		blas_sgemm(0, 0, rows, no, ni, 1.0f, in, ni, net->W[i], no, 0.0f, w->z[i], no);
		if (i < net->m - 1) {
			act_forward_bias(net->act, net->act_a, w->z[i], net->b[i], w->a[i],
					 (size_t)rows, (size_t)no);
			in = w->a[i];
		}
	}
}

/* One forward and backward pass of cross-entropy over rows x, y.
 *   Zⁱ = Yⁱ⁻¹Wⁱ + bⁱ, Yⁱ = f(Zⁱ), P = softmax(Zᵐ), loss = −(1/B) Σ log P[r, yᵣ];
 *   dZᵐ = (P − onehot(y))/B, and for i = m..1:
 *   dWⁱ = (Yⁱ⁻¹)ᵀdZⁱ, dbⁱ = Σ_rows dZⁱ, dZⁱ⁻¹ = (dZⁱ(Wⁱ)ᵀ) ⊙ f'(Zⁱ⁻¹).
 * The gradient goes to grad in the parameter layout; returns the mean loss. */
static double forward_backward(const Net *net, Work *w, const float *x, const int *y, int rows,
			       float *grad, long *correct)
{
	int m = net->m, k = net->n[m];
	double loss = 0.0;
	forward(net, w, x, rows, m);
	float *g = w->g0, *gn = w->g1;
	output_rows(w->z[m - 1], net->b[m - 1], rows, k, y, g, &loss, correct);
	const float inv = 1.0f / (float)rows;
	for (int r = 0; r < rows; r++) {
		float *gr = g + (size_t)r * k;
		gr[y[r]] -= 1.0f;
		for (int j = 0; j < k; j++)
			gr[j] *= inv;
	}
	for (int i = m - 1; i >= 0; i--) {
		int ni = net->n[i], no = net->n[i + 1];
		const float *in = i > 0 ? w->a[i - 1] : x;
		float *gw = grad + (net->W[i] - net->param);
		float *gb = grad + (net->b[i] - net->param);
		blas_sgemm(1, 0, ni, no, rows, 1.0f, in, ni, g, no, 0.0f, gw, no);
		memcpy(gb, g, (size_t)no * sizeof *gb);
		for (int r = 1; r < rows; r++) {
			const float *gr = g + (size_t)r * no;
			for (int j = 0; j < no; j++)
				gb[j] += gr[j];
		}
		if (i == 0)
			break;
		blas_sgemm(0, 1, rows, ni, no, 1.0f, g, no, net->W[i], no, 0.0f, gn, ni);
		act_backward(net->act, net->act_a, w->z[i - 1], w->a[i - 1], gn, (size_t)rows * ni);
		float *t = g;
		g = gn;
		gn = t;
	}
	return loss / rows;
}

/* 1 when no entry of p is NaN or ±Inf (all exponent bits set). */
static int all_finite(const float *p, size_t n)
{
	const v4i ex = {0x7f800000, 0x7f800000, 0x7f800000, 0x7f800000};
	v4i bad = {0, 0, 0, 0};
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		v4i v;
		memcpy(&v, p + i, sizeof v);
		bad |= (v & ex) == ex;
	}
	for (; i < n; i++)
		if (!isfinite(p[i]))
			return 0;
	return !(bad[0] | bad[1] | bad[2] | bad[3]);
}

static int check_shapes(const Net *net, const Dataset *d, Err *e)
{
	if (d->n < 1)
		return err_set(e, "%s: no rows to train on", d->name);
	if (d->d != net->n[0])
		return err_set(e, "%s: %d features per row, but the network takes %d inputs",
			       d->name, d->d, net->n[0]);
	for (int r = 0; r < d->n; r++)
		if (d->y[r] < 0 || d->y[r] >= net->n[net->m])
			return err_set(e, "%s: row %d has label %d, outside the network's %d classes",
				       d->name, r + 1, d->y[r], net->n[net->m]);
	return 0;
}

int train_gradient(Net *net, const float *x, const int *y, int n, float *grad, double *loss,
		   Err *e)
{
	if (n < 1)
		return err_set(e, "train_gradient: %d rows (expected at least 1)", n);
	for (int r = 0; r < n; r++)
		if (y[r] < 0 || y[r] >= net->n[net->m])
			return err_set(e, "train_gradient: row %d has label %d, outside 0..%d", r + 1,
				       y[r], net->n[net->m] - 1);
	Work *w = work_new(net, n);
	if (!w)
		return err_set(e, "out of memory for a batch of %d rows", n);
	long correct = 0;
	double l = forward_backward(net, w, x, y, n, grad, &correct);
	work_free(w);
	if (loss)
		*loss = l;
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
}

struct Trainer {
	Net *net;
	const Dataset *data;
	TrainOpts o;
	Rng rng;
	Work *w;
	int B;
	int *perm;     /* row order of the current epoch */
	float *xb;     /* B × n[0] gathered batch */
	int *yb;       /* B labels */
	float *grad;   /* nparam, parameter layout */
	long bpe;      /* batches per epoch */
	long done;     /* batches run since creation */
	long pos;      /* batch index within the current epoch */
	double ep_loss;   /* Σ loss·rows over the current epoch */
	long ep_correct, ep_rows;
	TrainCallback cb;
	void *ud;
	long every;
	double lr;     /* the rate of the last batch */
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
	t->w = work_new(net, t->B);
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
	if (o->threads > 0)
		blas_set_threads(o->threads);
	return t;
}

void trainer_free(Trainer *t)
{
	if (!t)
		return;
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
		memcpy(t->xb + (size_t)r * d->d, d->x + (size_t)src * d->d, (size_t)d->d * sizeof(float));
		t->yb[r] = d->y[src];
	}
	long correct = 0;
	double l = forward_backward(net, t->w, t->xb, t->yb, rows, t->grad, &correct);
	*loss = l;
	if ((!isfinite(l) || !all_finite(t->grad, net->nparam)) &&
	    !all_finite(net->param, net->nparam))
		return err_set(e, "training diverged at epoch %ld, batch %ld: the weights are not "
				  "finite (loss %g)", t->done / t->bpe + 1, t->pos + 1, l);
	if (!isfinite(l) || !all_finite(t->grad, net->nparam))
		return err_set(e, "training diverged at epoch %ld, batch %ld (loss %g); weights "
				  "kept from before that batch",
			       t->done / t->bpe + 1, t->pos + 1, l);
	/* the step counts stay in the table of limits (a loaded model's may be near) */
	if (net->adam_t >= LIMIT_MAX_STEPS || net->sched_st.step >= LIMIT_MAX_STEPS)
		return err_set(e, "the network has taken %lld Adam steps, condnet's limit (2^53): it "
				  "trains no further", (long long)net->adam_t);
	AdamOpts adam = t->o.adam;
	adam.lr = t->lr = sched_lr(&net->sched, &net->sched_st, t->bpe, t->o.adam.lr);
	net->adam_t++;
	net->sched_st.step++;
	adam_step(&adam, net->adam_t, net->nparam, t->grad, net->param, net->adam_m,
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
		/* the weights themselves, once an epoch and at the end of the call */
		if ((end || k + 1 == nb) && !all_finite(t->net->param, t->net->nparam))
			return err_set(e, "training diverged at epoch %ld: the weights are not finite "
					  "after batch %ld", (t->done - 1) / t->bpe + 1, t->pos), -1;
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

long trainer_step(Trainer *t, long nbatches, Err *e)
{
	int stopped;
	return step(t, nbatches, &stopped, e);
}

int train_epochs(Net *net, const Dataset *data, const TrainOpts *o, double epochs,
		 TrainCallback cb, void *ud, Err *e)
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

double net_error(const Net *net, const Dataset *data, double *loss)
{
	int m = net->m, k = net->n[m];
	if (loss)
		*loss = NAN;
	if (data->n < 1 || data->d != net->n[0])
		return NAN;
	for (int r = 0; r < data->n; r++)
		if (data->y[r] < 0 || data->y[r] >= k)
			return NAN;
	int B = data->n < EVAL_CHUNK ? data->n : EVAL_CHUNK;
	Work *w = work_new(net, B);
	if (!w)
		return NAN;
	double sum = 0.0;
	long correct = 0;
	for (int start = 0; start < data->n; start += B) {
		int rows = data->n - start < B ? data->n - start : B;
		forward(net, w, data->x + (size_t)start * data->d, rows, m);
		output_rows(w->z[m - 1], net->b[m - 1], rows, k, data->y + start, NULL, &sum,
			    &correct);
	}
	work_free(w);
	if (loss)
		*loss = sum / data->n;
	return 1.0 - (double)correct / data->n;
}

int net_forward(const Net *net, const float *x, int n, int layer, float *out, Err *e)
{
	int m = net->m;
	if (layer < 0 || layer > m)
		return err_set(e, "net_forward: layer %d outside 0..%d", layer, m);
	if (n < 0)
		return err_set(e, "net_forward: %d rows", n);
	size_t width = (size_t)net->n[layer];
	if (layer == 0) {
		memcpy(out, x, (size_t)n * width * sizeof *out);
		return 0;
	}
	if (n == 0)
		return 0;
	int B = n < EVAL_CHUNK ? n : EVAL_CHUNK;
	Work *w = work_new(net, B);
	if (!w)
		return err_set(e, "out of memory for a forward pass of %d rows", B);
	for (int start = 0; start < n; start += B) {
		int rows = n - start < B ? n - start : B;
		forward(net, w, x + (size_t)start * net->n[0], rows, layer);
		float *dst = out + (size_t)start * width;
		if (layer == m)
			output_rows(w->z[m - 1], net->b[m - 1], rows, (int)width, NULL, dst, NULL,
				    NULL);
		else
			memcpy(dst, w->a[layer - 1], (size_t)rows * width * sizeof *dst);
	}
	work_free(w);
	return 0;
}
