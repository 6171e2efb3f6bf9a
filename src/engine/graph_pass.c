/* graph_pass.c - a graph's forward and backward passes over a block of
 * samples, node by node, and their workspaces. */
#include "engine/graph_pass.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine/graph_ops.h"

/* The most floats of an evaluation block (32 MiB), and the most rows. */
#define EVAL_FLOATS ((double)(1 << 23))
#define EVAL_ROWS 32

struct GraphWork {
	const Graph *g;
	unsigned long id; /* the graph's when the workspace was made */
	int n;            /* its nodes */
	int B, train;
	float **val;  /* per node: its output rows (node 0: the input rows) */
	float **grad; /* training: per node whose gradient is needed, else NULL */
	float **slot; /* evaluation: the buffers the outputs share */
	int nslot;
	float *col, *z, *wc; /* a Conv's scratch */
	unsigned char *need; /* training: the node's gradient leads to a parameter */
	const float **ins;   /* a join's inputs */
	float **gins;        /* and their gradients */
};

static float *falloc(size_t n)
{
	void *p = NULL;
	if (posix_memalign(&p, 64, (n ? n : 1) * sizeof(float)))
		return NULL;
	return p;
}

/* The outputs of an evaluation in shared buffers: node k in buffer
 * slot[k] of caps[slot[k]] floats, taken when k is computed and given
 * back after its last reader. The buffers' count. */
static int plan_slots(const Graph *g, int B, int *slot, size_t *caps)
{
	int *last = malloc((size_t)g->n * sizeof *last), nslot = 0, nfree = 0;
	int *freel = malloc((size_t)g->n * sizeof *freel);
	if (!last || !freel) {
		free(last);
		free(freel);
		return -1;
	}
	for (int k = 0; k < g->n; k++)
		last[k] = k == g->n - 1 ? g->n : k;
	for (int k = 1; k < g->n; k++)
		for (int i = 0; i < g->node[k].nin; i++)
			last[graph_in(g, k)[i]] = k;
	for (int k = 1; k < g->n; k++) {
		size_t need = graph_size(&g->node[k]) * (size_t)B;
		/* the smallest free buffer that holds it, else the largest (grown) */
		int best = -1, big = -1;
		for (int f = 0; f < nfree; f++) {
			size_t c = caps[freel[f]];
			if (c >= need && (best < 0 || c < caps[freel[best]]))
				best = f;
			if (big < 0 || c > caps[freel[big]])
				big = f;
		}
		if (best < 0)
			best = big;
		if (best >= 0) {
			slot[k] = freel[best];
			freel[best] = freel[--nfree];
		} else {
			slot[k] = nslot;
			caps[nslot++] = 0;
		}
		if (caps[slot[k]] < need)
			caps[slot[k]] = need;
		for (int i = 0; i < g->node[k].nin; i++) {
			int a = graph_in(g, k)[i], seen = 0;
			for (int j = 0; j < i; j++)
				seen |= graph_in(g, k)[j] == a;
			if (a > 0 && last[a] == k && !seen)
				freel[nfree++] = slot[a];
		}
	}
	free(last);
	free(freel);
	return nslot;
}

/* The largest scratch of the Conv nodes for blocks of B. */
static void conv_scratch(const Graph *g, int B, size_t *col, size_t *z, size_t *wc)
{
	*col = *z = *wc = 1;
	for (int k = 1; k < g->n; k++)
		if (g->node[k].op == GRAPH_CONV) {
			size_t c = gop_conv_col_floats(g, k, B), y = gop_conv_z_floats(g, k, B);
			size_t v = gop_conv_wc_floats(g, k);
			*col = c > *col ? c : *col;
			*z = y > *z ? y : *z;
			*wc = v > *wc ? v : *wc;
		}
}

double graph_work_floats(const Graph *g, int B, int train)
{
	size_t col, z, wc;
	conv_scratch(g, B, &col, &z, &wc);
	double sum = (double)col + (double)z + (double)wc;
	if (train) {
		for (int k = 1; k < g->n; k++)
			sum += 2.0 * (double)graph_size(&g->node[k]) * B;
		return sum;
	}
	int *slot = malloc((size_t)g->n * sizeof *slot);
	size_t *caps = malloc((size_t)g->n * sizeof *caps);
	int ns = slot && caps ? plan_slots(g, B, slot, caps) : -1;
	for (int s = 0; s < ns; s++)
		sum += (double)caps[s];
	free(slot);
	free(caps);
	return ns < 0 ? 1e30 : sum;
}

int graph_eval_rows(const Graph *g)
{
	double per = graph_work_floats(g, 1, 0);
	double rows = per > 0 ? EVAL_FLOATS / per : EVAL_ROWS;
	return rows >= EVAL_ROWS ? EVAL_ROWS : rows < 1 ? 1 : (int)rows;
}

void graph_work_free(GraphWork *w)
{
	if (!w)
		return;
	for (int s = 0; w->slot && s < w->nslot; s++)
		free(w->slot[s]);
	for (int k = 1; w->train && w->val && k < w->n; k++)
		free(w->val[k]);
	for (int k = 1; w->grad && k < w->n; k++)
		free(w->grad[k]);
	free(w->slot);
	free(w->val);
	free(w->grad);
	free(w->col);
	free(w->z);
	free(w->wc);
	free(w->need);
	free(w->ins);
	free(w->gins);
	free(w);
}

/* The evaluation's shared buffers. */
static int alloc_slots(GraphWork *w)
{
	const Graph *g = w->g;
	int *slot = malloc((size_t)g->n * sizeof *slot);
	size_t *caps = malloc((size_t)g->n * sizeof *caps);
	int rc = -1;
	if (slot && caps && (w->nslot = plan_slots(g, w->B, slot, caps)) >= 0 &&
	    (w->slot = calloc((size_t)w->nslot + 1, sizeof *w->slot))) {
		rc = 0;
		for (int s = 0; s < w->nslot && rc == 0; s++)
			if (!(w->slot[s] = falloc(caps[s])))
				rc = -1;
		for (int k = 1; rc == 0 && k < g->n; k++)
			w->val[k] = w->slot[slot[k]];
	}
	if (w->nslot < 0)
		w->nslot = 0;
	free(slot);
	free(caps);
	return rc;
}

/* Training's buffers: every output, and the gradients that lead to a parameter. */
static int alloc_train(GraphWork *w)
{
	const Graph *g = w->g;
	if (!(w->grad = calloc((size_t)g->n, sizeof *w->grad)) ||
	    !(w->need = calloc((size_t)g->n, 1)))
		return -1;
	for (int k = 1; k < g->n; k++) {
		const GraphNode *n = &g->node[k];
		int need = n->nparam > 0;
		for (int i = 0; i < n->nin; i++)
			need |= w->need[graph_in(g, k)[i]];
		w->need[k] = (unsigned char)need;
		size_t len = graph_size(n) * (size_t)w->B;
		if (!(w->val[k] = falloc(len)) || (need && !(w->grad[k] = falloc(len))))
			return -1;
	}
	return 0;
}

GraphWork *graph_work_new(const Graph *g, int B, int train, Err *e)
{
	GraphWork *w = calloc(1, sizeof *w);
	if (!w)
		goto fail;
	w->g = g;
	w->id = g->id;
	w->n = g->n;
	w->B = B > 0 ? B : 1;
	w->train = train;
	size_t col, z, wc;
	conv_scratch(g, w->B, &col, &z, &wc);
	int most = 2;
	for (int k = 1; k < g->n; k++)
		most = g->node[k].nin > most ? g->node[k].nin : most;
	if (!(w->val = calloc((size_t)g->n, sizeof *w->val)) || !(w->col = falloc(col)) ||
	    !(w->z = falloc(z)) || !(w->wc = falloc(wc)) ||
	    !(w->ins = calloc((size_t)most, sizeof *w->ins)) ||
	    !(w->gins = calloc((size_t)most, sizeof *w->gins)))
		goto fail;
	if (train ? alloc_train(w) : alloc_slots(w))
		goto fail;
	return w;
fail:
	graph_work_free(w);
	err_set(e, "out of memory for the workspace of a graph of %d nodes on %d rows", g->n, B);
	return NULL;
}

/* The evaluation workspaces kept between passes, each for the graph whose
 * id it has (never another's: ids are not reused) and its rows. */
#define KEPT 4
static GraphWork *kept[KEPT];
static pthread_mutex_t kept_mu = PTHREAD_MUTEX_INITIALIZER;

GraphWork *graph_work_take(const Graph *g, int B, Err *e)
{
	GraphWork *w = NULL;
	pthread_mutex_lock(&kept_mu);
	for (int i = 0; i < KEPT && !w; i++)
		if (kept[i] && kept[i]->id == g->id && kept[i]->B == (B > 0 ? B : 1)) {
			w = kept[i];
			kept[i] = NULL;
		}
	pthread_mutex_unlock(&kept_mu);
	if (w)
		w->g = g;
	return w ? w : graph_work_new(g, B, 0, e);
}

void graph_work_give(GraphWork *w)
{
	if (!w || w->train) {
		graph_work_free(w);
		return;
	}
	GraphWork *out = NULL;
	pthread_mutex_lock(&kept_mu);
	int i = 0;
	while (i < KEPT && kept[i])
		i++;
	if (i == KEPT) { /* the oldest goes */
		out = kept[0];
		memmove(kept, kept + 1, (KEPT - 1) * sizeof *kept);
		i = KEPT - 1;
	}
	kept[i] = w;
	pthread_mutex_unlock(&kept_mu);
	graph_work_free(out);
}

float *graph_forward(GraphWork *w, const float *param, const float *x, int ns)
{
	const Graph *g = w->g;
	w->val[0] = (float *)x;
	for (int k = 1; k < g->n; k++) {
		const GraphNode *n = &g->node[k];
		const int *in = graph_in(g, k);
		const float *a = w->val[in[0]];
		switch (n->op) {
		case GRAPH_CONV:
			gop_conv_forward(g, k, param, a, ns, w->val[k], w->col, w->z, w->wc);
			break;
		case GRAPH_GEMM:
			gop_gemm_forward(g, k, param, a, ns, w->val[k]);
			break;
		case GRAPH_MAXPOOL:
		case GRAPH_AVGPOOL:
		case GRAPH_GLOBALAVG:
			gop_pool_forward(g, k, a, ns, w->val[k]);
			break;
		case GRAPH_ADD:
		case GRAPH_CONCAT:
			for (int i = 0; i < n->nin; i++)
				w->ins[i] = w->val[in[i]];
			gop_join_forward(g, k, w->ins, ns, w->val[k]);
			break;
		default:
			gop_elem_forward(g, k, param, a, ns, w->val[k]);
		}
	}
	return w->val[g->n - 1];
}

void graph_backward(GraphWork *w, const float *param, const float *gl, int ns, float *gp)
{
	const Graph *g = w->g;
	int last = g->n - 1;
	for (int k = 1; k < last; k++)
		if (w->grad[k])
			memset(w->grad[k], 0, graph_size(&g->node[k]) * (size_t)ns * sizeof(float));
	if (!w->grad[last])
		return;
	memcpy(w->grad[last], gl, graph_size(&g->node[last]) * (size_t)ns * sizeof(float));
	for (int k = last; k >= 1; k--) {
		const GraphNode *n = &g->node[k];
		if (!w->need[k])
			continue;
		const int *in = graph_in(g, k);
		const float *a = w->val[in[0]], *go = w->grad[k];
		float *ga = w->grad[in[0]];
		switch (n->op) {
		case GRAPH_CONV:
			gop_conv_backward(g, k, param, a, go, ns, ga, gp, w->col, w->z);
			break;
		case GRAPH_GEMM:
			gop_gemm_backward(g, k, param, a, go, ns, ga, gp);
			break;
		case GRAPH_MAXPOOL:
		case GRAPH_AVGPOOL:
		case GRAPH_GLOBALAVG:
			if (ga)
				gop_pool_backward(g, k, a, go, ns, ga);
			break;
		case GRAPH_ADD:
		case GRAPH_CONCAT:
			for (int i = 0; i < n->nin; i++)
				w->gins[i] = w->grad[in[i]];
			gop_join_backward(g, k, go, ns, w->gins);
			break;
		default:
			gop_elem_backward(g, k, param, a, w->val[k], go, ns, ga, gp);
		}
	}
}

int graph_logits(const Graph *g, const float *param, const float *x, int n, float *out, Err *e)
{
	int B = graph_eval_rows(g), k = g->node[g->n - 1].c;
	size_t in = graph_size(&g->node[0]);
	GraphWork *w = graph_work_take(g, n < B ? (n > 0 ? n : 1) : B, e);
	if (!w)
		return -1;
	for (int r = 0; r < n; r += B) {
		int ns = n - r < B ? n - r : B;
		const float *z = graph_forward(w, param, x + (size_t)r * in, ns);
		memcpy(out + (size_t)r * k, z, (size_t)ns * k * sizeof *out);
	}
	graph_work_give(w);
	return 0;
}

const float *graph_work_value(const GraphWork *w, int k)
{
	return w->train && k >= 0 && k < w->n ? w->val[k] : NULL;
}
