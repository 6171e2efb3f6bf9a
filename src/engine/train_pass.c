/* train_pass.c - a mini-batch's forward and backward passes and the Adam
 * step in parts on a pool of threads, and evaluation in chunks of rows. */
#include "engine/train_pass.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/blas.h"
#include "base/vec4.h"
#include "engine/act.h"
#include "engine/conv.h"
#include "engine/graph_pass.h"
#include "engine/graph_train.h"
#include "engine/train.h"
#include "engine/train_conv.h"

/* Floats in a 64-byte cache line: parts are cut at multiples of it, and the
 * row strides of the workspaces are rounded up to it, so two parts never
 * write the same line. */
#define ALIGN 16
/* Rows per chunk in evaluation: a chunk is one thread's, whole. */
#define EVAL_CHUNK 1024
/* Samples a convolution layer lowers at once in evaluation (a chunk's in
 * blocks of this many: the same bits whatever the chunk's rows). */
#define EVAL_CONV_BLOCK 32

struct Work {
	int B, m, parts;
	int *ld;        /* ld[i]: row stride of z[i] and a[i], n[i+1] rounded up to ALIGN */
	float **z;      /* z[i]: B × n[i+1] pre-activations of layer i */
	float **a;      /* a[i]: B × n[i+1] activations of hidden layer i (i < m-1) */
	float *g0, *g1; /* B × ldg: gradients with respect to a layer's output */
	int ldg;
	unsigned char *bad; /* per part, ALIGN·4 bytes apart: a non-finite gradient entry */
	int nconv;          /* the convolution layers (their z[i] unused) */
	ConvWork *cw;       /* their workspaces, or NULL */
	GraphTrain *gt;     /* a graph network's batches (graph_train.h), or NULL */
	/* the batch under way */
	const Net *net;
	const float *x;
	const int *y;
	int rows;
	float *grad;
	double loss;
	long correct;
};

static int round_up(int n)
{
	return (n + ALIGN - 1) / ALIGN * ALIGN;
}

static float *falloc(size_t n)
{
	void *p = NULL;
	if (posix_memalign(&p, 64, (n ? n : 1) * sizeof(float)))
		return NULL;
	return p;
}

/* 6·B·Σ n_i n_{i+1}: the forward product, the weight gradient and the
 * input gradient of every layer (a convolution's multiply-adds in place of
 * n_i n_{i+1}). */
int pass_parts(const Net *net, int B, int threads)
{
	if (net->graph)
		return graph_train_parts(net, B, threads, PASS_PART_FLOPS);
	double f = 0.0;
	for (int i = 0; i < net->m; i++)
		f += 6.0 * B *
		     (i < net->nconv ? layers_macs(&net->conv[i])
		                     : (double)net->n[i] * net->n[i + 1]);
	double most = floor(f / PASS_PART_FLOPS);
	int parts = most < threads ? (int)most : threads;
	return parts > 1 ? parts : 1;
}

void work_free(Work *w)
{
	if (!w)
		return;
	for (int i = 0; w->z && i < w->m; i++)
		free(w->z[i]);
	for (int i = 0; w->a && i < w->m; i++)
		free(w->a[i]);
	free(w->z);
	free(w->a);
	free(w->ld);
	free(w->g0);
	free(w->g1);
	free(w->bad);
	conv_work_free(w->cw);
	graph_train_free(w->gt);
	free(w);
}

Work *work_new(const Net *net, int B, int parts, Err *e)
{
	Work *w = calloc(1, sizeof *w);
	if (!w) {
		err_set(e, "out of memory for the workspaces of a batch of %d rows", B);
		return NULL;
	}
	w->B = B;
	w->m = net->m;
	w->parts = parts;
	if (net->graph) {
		if (!(w->gt = graph_train_new(net, B, parts, e))) {
			work_free(w);
			return NULL;
		}
		return w;
	}
	w->z = calloc((size_t)net->m, sizeof *w->z);
	w->a = calloc((size_t)net->m, sizeof *w->a);
	w->ld = calloc((size_t)net->m, sizeof *w->ld);
	w->bad = calloc((size_t)parts, 4 * ALIGN);
	if (!w->z || !w->a || !w->ld || !w->bad)
		goto fail;
	int maxw = 1;
	for (int i = 0; i < net->m; i++) {
		w->ld[i] = round_up(net->n[i + 1]);
		size_t len = (size_t)B * w->ld[i];
		if (w->ld[i] > maxw)
			maxw = w->ld[i];
		if (i >= net->nconv && !(w->z[i] = falloc(len)))
			goto fail;
		if (i < net->m - 1 && !(w->a[i] = falloc(len)))
			goto fail;
	}
	w->ldg = maxw;
	w->g0 = falloc((size_t)B * maxw);
	w->g1 = falloc((size_t)B * maxw);
	if (!w->g0 || !w->g1)
		goto fail;
	w->nconv = net->nconv;
	if (net->nconv && !(w->cw = conv_work_new(net, B, parts)))
		goto fail;
	return w;
fail:
	work_free(w);
	err_set(e, "out of memory for the workspaces of a batch of %d rows", B);
	return NULL;
}

int pass_all_finite(const float *p, size_t n)
{
	return vec_all_finite(p, n);
}

/* The output layer on rows of logits z (rows × k, row stride ldz): z += b
 * (b NULL: none, a graph's logits have theirs), then per row the log-sum-exp
 * L = log Σⱼ exp(zⱼ − max z); −log pᵧ = L − (zᵧ − max z). Adds the losses
 * and the number of rows whose first arg max equals y to *loss and *correct
 * (when y is given), and writes the probabilities to p (row stride ldp,
 * when given; p may equal z). */
static void output_rows(float *z, int ldz, const float *b, int rows, int k, const int *y, float *p,
                        int ldp, int *cls, double *loss, long *correct)
{
	for (int r = 0; r < rows; r++) {
		float *zr = z + (size_t)r * ldz;
		for (int j = 0; b && j < k; j++)
			zr[j] += b[j];
		int arg = net_answer(zr, k);
		if (cls)
			cls[r] = arg;
		if (arg == NET_NO_ANSWER) {
			/* no class, a loss that is not finite, probabilities NaN */
			if (y)
				*loss += NAN;
			for (int j = 0; p && j < k; j++)
				p[(size_t)r * ldp + j] = NAN;
			continue;
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
			float *pr = p + (size_t)r * ldp;
			for (int j = 0; j < k; j++)
				pr[j] = (float)(exp((double)(zr[j] - mx)) / s);
		}
	}
}

/* ---- one batch ---- */

/* Forward through layer i, part p: its run of output columns,
 * Z[:, run] = Y⁽ⁱ⁻¹⁾ W[:, run], then bias and activation on the run. The
 * output layer's logits stay without bias (output_part adds it). */
static void forward_part(Work *w, int i, int p)
{
	const Net *net = w->net;
	int ni = net->n[i], no = net->n[i + 1], lo, hi;
	const float *in = i ? w->a[i - 1] : w->x;
	int ldin = i ? w->ld[i - 1] : ni;
	if (i < w->nconv) {
		conv_work_forward(w->cw, net, i, p, w->rows, in, (size_t)ldin, w->a[i],
		                  (size_t)w->ld[i]);
		return;
	}
	pool_split(no, w->parts, p, ALIGN, &lo, &hi);
	if (lo >= hi)
		return;
	blas_sgemm(0, 0, w->rows, hi - lo, ni, 1.0f, in, ldin, net->W[i] + lo, no, 0.0f,
	           w->z[i] + lo, w->ld[i]);
	if (i < w->m - 1)
		act_forward_bias_ld(net->act, net->act_a, w->z[i] + lo, net->b[i] + lo,
		                    w->a[i] + lo, (size_t)w->rows, (size_t)(hi - lo),
		                    (size_t)w->ld[i]);
}

/* Softmax, loss and dZᵐ = (P − onehot(y))/B into g0: one part's, it is small. */
static void output_part(Work *w)
{
	const Net *net = w->net;
	int m = w->m, k = net->n[m], rows = w->rows;
	w->loss = 0.0;
	w->correct = 0;
	output_rows(w->z[m - 1], w->ld[m - 1], net->b[m - 1], rows, k, w->y, w->g0, w->ldg, NULL,
	            &w->loss, &w->correct);
	const float inv = 1.0f / (float)rows;
	for (int r = 0; r < rows; r++) {
		float *gr = w->g0 + (size_t)r * w->ldg;
		gr[w->y[r]] -= 1.0f;
		for (int j = 0; j < k; j++)
			gr[j] *= inv;
	}
}

/* Backward through layer i, part p, with dZⁱ complete: the bias gradient
 * of its run of layer i's neurons; for its run R of the neurons below, the
 * rows R of dWⁱ = (Yⁱ⁻¹)ᵀdZⁱ and the columns R of dZⁱ⁻¹ = (dZⁱ(Wⁱ)ᵀ) ⊙ f'. */
static void backward_part(Work *w, int i, int p)
{
	const Net *net = w->net;
	int ni = net->n[i], no = net->n[i + 1], rows = w->rows, ldg = w->ldg, lo, hi;
	float *g = (w->m - 1 - i) % 2 == 0 ? w->g0 : w->g1;
	float *gn = g == w->g0 ? w->g1 : w->g0;
	if (i < w->nconv) {
		/* the last convolution's output gradient is the first dense layer's gn */
		size_t ld = (size_t)ldg;
		const float *go = i == w->nconv - 1 ? g : conv_work_grad_rows(w->cw, i, &ld);
		if (conv_work_backward(w->cw, net, i, p, rows, go, ld))
			w->bad[(size_t)p * 4 * ALIGN] = 1;
		return;
	}
	float *gw = w->grad + (net->W[i] - net->param);
	float *gb = w->grad + (net->b[i] - net->param);
	int ok = 1;
	pool_split(no, w->parts, p, ALIGN, &lo, &hi);
	if (lo < hi) {
		memcpy(gb + lo, g + lo, (size_t)(hi - lo) * sizeof *gb);
		for (int r = 1; r < rows; r++) {
			const float *gr = g + (size_t)r * ldg;
			for (int j = lo; j < hi; j++)
				gb[j] += gr[j];
		}
		ok = pass_all_finite(gb + lo, (size_t)(hi - lo));
	}
	pool_split(ni, w->parts, p, ALIGN, &lo, &hi);
	if (lo < hi) {
		const float *in = i ? w->a[i - 1] : w->x;
		int ldin = i ? w->ld[i - 1] : ni;
		float *gwr = gw + (size_t)lo * no;
		blas_sgemm(1, 0, hi - lo, no, rows, 1.0f, in + lo, ldin, g, ldg, 0.0f, gwr, no);
		ok &= pass_all_finite(gwr, (size_t)(hi - lo) * no);
		if (i > 0) {
			blas_sgemm(0, 1, rows, hi - lo, no, 1.0f, g, ldg,
			           net->W[i] + (size_t)lo * no, no, 0.0f, gn + lo, ldg);
			/* below a convolution, its own backward goes through the
			 * pool and the activation */
			if (i > w->nconv)
				act_backward_ld(net->act, net->act_a, w->z[i - 1] + lo,
				                w->a[i - 1] + lo, (size_t)w->ld[i - 1], gn + lo,
				                (size_t)ldg, (size_t)rows, (size_t)(hi - lo));
		}
	}
	if (!ok)
		w->bad[(size_t)p * 4 * ALIGN] = 1;
}

/* Phases 0..m-1 forward through layer 0..m-1, phase m the output, phases
 * m+1..2m backward through layer m-1..0, and with convolutions phase 2m+1
 * their gradients summed over the parts. */
static void pass_phase(void *arg, int ph, int part)
{
	Work *w = arg;
	if (ph < w->m)
		forward_part(w, ph, part);
	else if (ph == w->m && part == 0)
		output_part(w);
	else if (ph > w->m && ph <= 2 * w->m)
		backward_part(w, 2 * w->m - ph, part);
	else if (ph == 2 * w->m + 1 && conv_work_reduce(w->cw, w->net, part, w->grad))
		w->bad[(size_t)part * 4 * ALIGN] = 1;
}

double pass_batch(Work *w, Pool *pool, const Net *net, const float *x, const int *y, int rows,
                  float *grad, long *correct, int *finite)
{
	if (w->gt)
		return graph_train_batch(w->gt, pool, net, x, y, rows, grad, correct, finite);
	w->net = net;
	w->x = x;
	w->y = y;
	w->rows = rows;
	w->grad = grad;
	for (int p = 0; p < w->parts; p++)
		w->bad[(size_t)p * 4 * ALIGN] = 0;
	pool_run(pool, pass_phase, w, 2 * w->m + 1 + (w->nconv > 0), w->parts);
	*finite = 1;
	for (int p = 0; p < w->parts; p++)
		if (w->bad[(size_t)p * 4 * ALIGN])
			*finite = 0;
	*correct += w->correct;
	return w->loss / rows;
}

typedef struct AdamJob {
	const AdamOpts *o;
	long t;
	size_t n;
	const float *g;
	float *w, *m, *v;
	int parts;
} AdamJob;

/* Part p's run of the parameters, cut at multiples of ALIGN so that every
 * entry takes the same vector lane as in one call over all of them. */
static void adam_part(void *arg, int ph, int p)
{
	AdamJob *j = arg;
	size_t lo = j->n / ALIGN * p / j->parts * ALIGN;
	size_t hi = p == j->parts - 1 ? j->n : j->n / ALIGN * (p + 1) / j->parts * ALIGN;
	adam_step(j->o, j->t, hi - lo, j->g + lo, j->w + lo, j->m + lo, j->v + lo);
}

void pass_adam(Pool *pool, const AdamOpts *o, long t, size_t n, const float *g, float *w, float *m,
               float *v)
{
	AdamJob j = {o, t, n, g, w, m, v, pool_threads(pool)};
	pool_run(pool, adam_part, &j, 1, j.parts);
}

/* ---- evaluation ---- */

/* The forward pass over rows in chunks of EVAL_CHUNK (of a graph, of
 * graph_eval_rows), each chunk on one thread with its own two buffers (a
 * graph's workspace), so the result does not depend on the thread count;
 * losses and counts per chunk, summed in chunk order. */
typedef struct Eval {
	const Net *net;
	const float *x;
	const int *y; /* labels (loss and errors), or NULL */
	float *out;   /* n × width of the layer, or NULL */
	int *cls;     /* n: the class of every row (layer m), or NULL */
	int n, layer, nchunks, nparts, ldb, chunk;
	int blas;       /* OpenBLAS threads when the pass is one part (< 1: one) */
	float **buf;    /* 2 per part */
	GraphWork **gw; /* a graph's: 1 per part */
	float **conv;   /* 2 per part with convolutions: a block's columns and maps */
	double *loss;   /* per chunk */
	long *correct;  /* per chunk */
} Eval;

static void eval_chunk(Eval *ev, int part, int c)
{
	const Net *net = ev->net;
	int m = net->m, start = c * ev->chunk;
	int rows = ev->n - start < ev->chunk ? ev->n - start : ev->chunk;
	const float *in = ev->x + (size_t)start * net->n[0];
	int ldin = net->n[0];
	float *z = NULL;
	if (net->graph) {
		z = graph_forward(ev->gw[part], net->param, in, rows);
		ev->ldb = net->n[m];
	}
	for (int i = 0; !net->graph && i < ev->layer; i++) {
		int ni = net->n[i], no = net->n[i + 1];
		z = ev->buf[2 * part + (i & 1)];
		if (i < net->nconv) {
			const ConvShape *cs = &net->conv[i];
			float *col = ev->conv[2 * part], *map = ev->conv[2 * part + 1];
			for (int r = 0; r < rows; r += EVAL_CONV_BLOCK) {
				int ns = rows - r < EVAL_CONV_BLOCK ? rows - r : EVAL_CONV_BLOCK;
				conv_forward(cs, net->act, net->act_a, net->W[i], net->b[i],
				             in + (size_t)r * ldin, (size_t)ldin, ns, col, map, map,
				             NULL, z + (size_t)r * ev->ldb, (size_t)ev->ldb);
			}
			in = z;
			ldin = ev->ldb;
			continue;
		}
		blas_sgemm(0, 0, rows, no, ni, 1.0f, in, ldin, net->W[i], no, 0.0f, z, ev->ldb);
		if (i < m - 1)
			act_forward_bias_ld(net->act, net->act_a, z, net->b[i], z, (size_t)rows,
			                    (size_t)no, (size_t)ev->ldb);
		in = z;
		ldin = ev->ldb;
	}
	int width = net->n[ev->layer];
	float *dst = ev->out ? ev->out + (size_t)start * width : NULL;
	if (ev->layer == m) {
		ev->loss[c] = 0.0;
		ev->correct[c] = 0;
		output_rows(z, ev->ldb, net->graph ? NULL : net->b[m - 1], rows, width,
		            ev->y ? ev->y + start : NULL, dst, width,
		            ev->cls ? ev->cls + start : NULL, &ev->loss[c], &ev->correct[c]);
	} else {
		for (int r = 0; r < rows; r++)
			memcpy(dst + (size_t)r * width, z + (size_t)r * ev->ldb,
			       (size_t)width * sizeof *dst);
	}
}

static void eval_part(void *arg, int ph, int part)
{
	Eval *ev = arg;
	for (int c = part; c < ev->nchunks; c += ev->nparts)
		eval_chunk(ev, part, c);
}

/* The buffers of a chain's chunks of B rows: two a part, and a
 * convolution's columns and maps. */
static int eval_alloc_chain(Eval *ev, int B)
{
	const Net *net = ev->net;
	int maxw = 1, rc = 0;
	for (int i = 1; i <= ev->layer; i++)
		maxw = net->n[i] > maxw ? net->n[i] : maxw;
	ev->ldb = round_up(maxw);
	if (!(ev->buf = calloc(2 * (size_t)ev->nparts, sizeof *ev->buf)))
		return -1;
	for (int k = 0; rc == 0 && k < 2 * ev->nparts; k++)
		if (!(ev->buf[k] = falloc((size_t)B * ev->ldb)))
			rc = -1;
	size_t cols = 1, maps = 1;
	for (int i = 0; i < net->nconv && i < ev->layer; i++) {
		size_t c = conv_col_floats(&net->conv[i], EVAL_CONV_BLOCK);
		size_t z = conv_map_floats(&net->conv[i], EVAL_CONV_BLOCK);
		cols = c > cols ? c : cols;
		maps = z > maps ? z : maps;
	}
	if (rc == 0 && net->nconv && !(ev->conv = calloc(2 * (size_t)ev->nparts, sizeof *ev->conv)))
		rc = -1;
	for (int k = 0; rc == 0 && ev->conv && k < 2 * ev->nparts; k++)
		if (!(ev->conv[k] = falloc(k % 2 ? maps : cols)))
			rc = -1;
	return rc;
}

static void eval_free(Eval *ev)
{
	for (int k = 0; ev->buf && k < 2 * ev->nparts; k++)
		free(ev->buf[k]);
	free(ev->buf);
	for (int k = 0; ev->conv && k < 2 * ev->nparts; k++)
		free(ev->conv[k]);
	free(ev->conv);
	for (int k = 0; ev->gw && k < ev->nparts; k++)
		graph_work_give(ev->gw[k]);
	free(ev->gw);
}

/* Runs ev over ev->n ≥ 1 rows up to ev->layer ≥ 1 on up to `threads`
 * threads; -1 when out of memory. */
static int eval_run(Eval *ev, int threads)
{
	const Net *net = ev->net;
	ev->chunk = net->graph ? graph_eval_rows(net->graph) : EVAL_CHUNK;
	ev->nchunks = (ev->n + ev->chunk - 1) / ev->chunk;
	ev->nparts = threads < ev->nchunks ? threads : ev->nchunks;
	if (ev->nparts < 1)
		ev->nparts = 1;
	int B = ev->n < ev->chunk ? ev->n : ev->chunk, rc = 0;
	ev->loss = calloc((size_t)ev->nchunks, sizeof *ev->loss);
	ev->correct = calloc((size_t)ev->nchunks, sizeof *ev->correct);
	if (!ev->loss || !ev->correct)
		rc = -1;
	else if (!net->graph)
		rc = eval_alloc_chain(ev, B);
	else if (!(ev->gw = calloc((size_t)ev->nparts, sizeof *ev->gw)))
		rc = -1;
	for (int k = 0; rc == 0 && ev->gw && k < ev->nparts; k++)
		if (!(ev->gw[k] = graph_work_take(net->graph, B, NULL)))
			rc = -1;
	Pool *pool = NULL;
	blas_set_threads(ev->nparts > 1 || ev->blas < 1 ? 1 : ev->blas);
	if (rc == 0 && ev->nparts > 1)
		pool = pool_new(ev->nparts, NULL); /* NULL: the caller computes alone */
	if (rc == 0)
		pool_run(pool, eval_part, ev, 1, ev->nparts);
	pool_free(pool);
	eval_free(ev);
	return rc;
}

int net_error_threads(const Net *net, const Dataset *data, int threads, double *err, double *loss,
                      Err *e)
{
	int m = net->m, k = net->n[m];
	*err = NAN;
	if (loss)
		*loss = NAN;
	if (data->n < 1)
		return err_set(e, "the data set '%s' has no rows", data->name);
	if (data->d != net->n[0])
		return err_set(e, "the data set '%s' has %d features, the network %d inputs",
		               data->name, data->d, net->n[0]);
	for (int r = 0; r < data->n; r++)
		if (data->y[r] < 0 || data->y[r] >= k)
			return err_set(e, "row %d of '%s' has the label %d, the network %d outputs",
			               r + 1, data->name, data->y[r], k);
	Eval ev = {.net = net, .x = data->x, .y = data->y, .n = data->n, .layer = m};
	int rc = eval_run(&ev, threads > 0 ? threads : pool_default_threads());
	if (rc == 0) {
		double sum = 0.0;
		long correct = 0;
		for (int c = 0; c < ev.nchunks; c++) {
			sum += ev.loss[c];
			correct += ev.correct[c];
		}
		if (loss)
			*loss = sum / data->n;
		*err = 1.0 - (double)correct / data->n;
	}
	free(ev.loss);
	free(ev.correct);
	return rc ? err_set(e, "out of memory evaluating %d rows", data->n) : 0;
}

int net_error(const Net *net, const Dataset *data, double *err, double *loss, Err *e)
{
	return net_error_threads(net, data, 0, err, loss, e);
}

int net_forward(const Net *net, const float *x, int n, int layer, float *out, Err *e)
{
	int m = net->m;
	if (layer < 0 || layer > m)
		return err_set(e, "net_forward: layer %d outside 0..%d", layer, m);
	if (n < 0)
		return err_set(e, "net_forward: %d rows", n);
	if (layer == 0) {
		memcpy(out, x, (size_t)n * net->n[0] * sizeof *out);
		return 0;
	}
	if (n == 0)
		return 0;
	Eval ev = {.net = net, .x = x, .out = out, .n = n, .layer = layer};
	int rc = eval_run(&ev, pool_default_threads());
	free(ev.loss);
	free(ev.correct);
	if (rc)
		return err_set(e, "out of memory for a forward pass of %d rows", n);
	return 0;
}

int net_forward_blas(const Net *net, const float *x, int n, int layer, float *out, int blas_threads,
                     Err *e)
{
	if (layer < 1 || layer > net->m || n < 1)
		return net_forward(net, x, n, layer, out, e);
	Eval ev = {.net = net, .x = x, .out = out, .n = n, .layer = layer, .blas = blas_threads};
	int rc = eval_run(&ev, 1);
	free(ev.loss);
	free(ev.correct);
	if (rc)
		return err_set(e, "out of memory for a forward pass of %d rows", n);
	return 0;
}

int net_classify(const Net *net, const float *x, const int *y, int n, int *cls, float *prob,
                 long *correct, double *loss, NetRowsFn progress, void *ud, Err *e)
{
	/* slices of whole chunks: the losses are summed chunk by chunk in order,
	 * as net_error sums them */
	int m = net->m, k = net->n[m];
	int chunk = net->graph ? graph_eval_rows(net->graph) : EVAL_CHUNK;
	const int SLICE = 16 * EVAL_CHUNK / chunk * chunk;
	if (n < 0)
		return err_set(e, "net_classify: %d rows", n);
	for (int r = 0; y && r < n; r++)
		if (y[r] < 0 || y[r] >= k)
			return err_set(
			    e, "row %d has class %d, but the network has %d outputs (0..%d)", r + 1,
			    y[r], k, k - 1);
	double sum = 0.0;
	long good = 0;
	for (int start = 0; start < n; start += SLICE) {
		int rows = n - start < SLICE ? n - start : SLICE;
		Eval ev = {.net = net,
		           .x = x + (size_t)start * net->n[0],
		           .y = y ? y + start : NULL,
		           .out = prob ? prob + (size_t)start * k : NULL,
		           .cls = cls + start,
		           .n = rows,
		           .layer = m};
		int rc = eval_run(&ev, pool_default_threads());
		for (int c = 0; rc == 0 && c < ev.nchunks; c++) {
			sum += ev.loss[c];
			good += ev.correct[c];
		}
		free(ev.loss);
		free(ev.correct);
		if (rc)
			return err_set(e, "out of memory for a forward pass of %d rows", rows);
		if (progress && progress(start + rows, n, ud))
			return 1;
	}
	if (correct)
		*correct = good;
	if (loss)
		*loss = n > 0 && y ? sum / n : NAN;
	return 0;
}

int train_gradient(Net *net, const float *x, const int *y, int n, float *grad, double *loss, Err *e)
{
	if (n < 1)
		return err_set(e, "train_gradient: %d rows (expected at least 1)", n);
	for (int r = 0; r < n; r++)
		if (y[r] < 0 || y[r] >= net->n[net->m])
			return err_set(e, "train_gradient: row %d has label %d, outside 0..%d",
			               r + 1, y[r], net->n[net->m] - 1);
	Work *w = work_new(net, n, 1, e);
	if (!w)
		return -1;
	long correct = 0;
	int finite;
	double l = pass_batch(w, NULL, net, x, y, n, grad, &correct, &finite);
	work_free(w);
	if (loss)
		*loss = l;
	return 0;
}
