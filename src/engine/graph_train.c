/* graph_train.c - a graph network's mini-batch: its rows in parts, each
 * forward, cross-entropy and backward into a slot of its own, and the slots
 * added in part order. */
#include "engine/graph_train.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec4.h"
#include "engine/graph.h"
#include "engine/graph_pass.h"
#include "engine/train.h"

/* Floats in a cache line: the parameter runs of the last phase are cut at
 * multiples of it. */
#define ALIGN 16

struct GraphTrain {
	int parts, B;
	GraphWork **gw;     /* one a part */
	float **slot;       /* one a part: the part's gradient, parameter layout */
	float **gl;         /* one a part: its logits' gradient */
	double *loss;       /* one a part */
	long *correct;      /* one a part */
	unsigned char *bad; /* one a part, a cache line apart */
	/* the batch under way */
	const Net *net;
	const float *x;
	const int *y;
	int rows;
	float *grad;
};

int graph_train_parts(const Net *net, int B, int threads, double part_flops)
{
	double f = 6.0 * B * graph_macs(net->graph);
	double most = floor(f / part_flops);
	int parts = most < threads ? (int)most : threads;
	if (parts > B)
		parts = B;
	return parts > 1 ? parts : 1;
}

void graph_train_free(GraphTrain *t)
{
	if (!t)
		return;
	for (int p = 0; p < t->parts; p++) {
		if (t->gw)
			graph_work_free(t->gw[p]);
		if (t->slot)
			free(t->slot[p]);
		if (t->gl)
			free(t->gl[p]);
	}
	free(t->gw);
	free(t->slot);
	free(t->gl);
	free(t->loss);
	free(t->correct);
	free(t->bad);
	free(t);
}

GraphTrain *graph_train_new(const Net *net, int B, int parts, Err *e)
{
	GraphTrain *t = calloc(1, sizeof *t);
	if (!t)
		goto fail;
	t->parts = parts;
	t->B = B;
	int rows = (B + parts - 1) / parts, k = net->n[net->m];
	t->gw = calloc((size_t)parts, sizeof *t->gw);
	t->slot = calloc((size_t)parts, sizeof *t->slot);
	t->gl = calloc((size_t)parts, sizeof *t->gl);
	t->loss = calloc((size_t)parts, sizeof *t->loss);
	t->correct = calloc((size_t)parts, sizeof *t->correct);
	t->bad = calloc((size_t)parts, 4 * ALIGN);
	if (!t->gw || !t->slot || !t->gl || !t->loss || !t->correct || !t->bad)
		goto fail;
	for (int p = 0; p < parts; p++) {
		if (!(t->gw[p] = graph_work_new(net->graph, rows, 1, e)))
			goto fail;
		t->slot[p] = malloc((net->nparam ? net->nparam : 1) * sizeof(float));
		t->gl[p] = malloc((size_t)rows * k * sizeof(float));
		if (!t->slot[p] || !t->gl[p])
			goto fail;
	}
	return t;
fail:
	graph_train_free(t);
	err_set(e, "out of memory for the workspaces of a graph of %zu parameters on batches of %d",
	        net->nparam, B);
	return NULL;
}

/* Softmax and cross-entropy of rows of logits z (k each): the loss summed
 * into *loss, the rows answered right into *correct, and the logits'
 * gradient (P − onehot(y))/B into gl. */
static void loss_rows(const float *z, int rows, int k, const int *y, int B, float *gl, double *loss,
                      long *correct)
{
	for (int r = 0; r < rows; r++) {
		const float *zr = z + (size_t)r * k;
		float *g = gl + (size_t)r * k;
		int arg = net_answer(zr, k);
		if (arg == NET_NO_ANSWER) {
			*loss += NAN;
			for (int j = 0; j < k; j++)
				g[j] = NAN;
			continue;
		}
		float mx = zr[arg];
		double s = 0.0;
		for (int j = 0; j < k; j++)
			s += exp((double)(zr[j] - mx));
		*loss += log(s) - (double)(zr[y[r]] - mx);
		*correct += arg == y[r];
		for (int j = 0; j < k; j++)
			g[j] = (float)(exp((double)(zr[j] - mx)) / s) / (float)B;
		g[y[r]] -= 1.0f / (float)B;
	}
}

/* Phase 0: part p's rows forward and back into its slot; phase 1: part p's
 * run of the parameters summed over the slots in part order. */
static void phase(void *arg, int ph, int p)
{
	GraphTrain *t = arg;
	const Net *net = t->net;
	if (ph == 0) {
		int lo, hi;
		pool_split(t->rows, t->parts, p, 1, &lo, &hi);
		t->loss[p] = 0;
		t->correct[p] = 0;
		memset(t->slot[p], 0, net->nparam * sizeof(float));
		if (lo >= hi)
			return;
		const float *x = t->x + (size_t)lo * net->n[0];
		int k = net->n[net->m];
		const float *z = graph_forward(t->gw[p], net->param, x, hi - lo);
		loss_rows(z, hi - lo, k, t->y + lo, t->rows, t->gl[p], &t->loss[p], &t->correct[p]);
		graph_backward(t->gw[p], net->param, t->gl[p], hi - lo, t->slot[p]);
		return;
	}
	size_t n = net->nparam;
	size_t lo = n / ALIGN * (size_t)p / (size_t)t->parts * ALIGN;
	size_t hi = p == t->parts - 1 ? n : n / ALIGN * (size_t)(p + 1) / (size_t)t->parts * ALIGN;
	if (lo >= hi)
		return;
	memcpy(t->grad + lo, t->slot[0] + lo, (hi - lo) * sizeof(float));
	for (int q = 1; q < t->parts; q++) {
		const float *s = t->slot[q];
		for (size_t i = lo; i < hi; i++)
			t->grad[i] += s[i];
	}
	if (!vec_all_finite(t->grad + lo, hi - lo))
		t->bad[(size_t)p * 4 * ALIGN] = 1;
}

double graph_train_batch(GraphTrain *t, Pool *pool, const Net *net, const float *x, const int *y,
                         int rows, float *grad, long *correct, int *finite)
{
	t->net = net;
	t->x = x;
	t->y = y;
	t->rows = rows;
	t->grad = grad;
	for (int p = 0; p < t->parts; p++)
		t->bad[(size_t)p * 4 * ALIGN] = 0;
	pool_run(pool, phase, t, 2, t->parts);
	double loss = 0;
	*finite = 1;
	for (int p = 0; p < t->parts; p++) {
		loss += t->loss[p];
		*correct += t->correct[p];
		if (t->bad[(size_t)p * 4 * ALIGN])
			*finite = 0;
	}
	return loss / rows;
}
