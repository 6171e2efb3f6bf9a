/* graph_elem.c - a graph's operators of one value each (the activations,
 * Mul by a constant, Reshape, the per-channel Affine) and its joins (Add,
 * Concat), forward and backward over a block of samples. The activations
 * Relu, Sigmoid, Tanh and Erf are engine/act.h's, as a chain's. */
#include <math.h>
#include <string.h>

#include "engine/act.h"
#include "engine/graph_ops.h"

static int act_of(GraphOp op, ActKind *k)
{
	switch (op) {
	case GRAPH_RELU:
		*k = ACT_RELU;
		return 1;
	case GRAPH_SIGMOID:
		*k = ACT_SIGMOID;
		return 1;
	case GRAPH_TANH:
		*k = ACT_TANH;
		return 1;
	case GRAPH_ERF:
		*k = ACT_ERF;
		return 1;
	default:
		return 0;
	}
}

/* The channels and values of one channel of node k's tensor. */
static void chans(const GraphNode *n, int *c, size_t *per)
{
	*c = n->c;
	*per = (size_t)n->h * n->w;
}

void gop_elem_forward(const Graph *g, int k, const float *param, const float *x, int ns, float *y)
{
	const GraphNode *n = &g->node[k];
	size_t len = (size_t)ns * graph_size(n);
	ActKind a;
	if (act_of(n->op, &a)) {
		act_forward(a, 1.0f, x, y, len);
		return;
	}
	switch (n->op) {
	case GRAPH_CLIP:
		for (size_t i = 0; i < len; i++)
			y[i] = x[i] < n->lo ? n->lo : x[i] > n->hi ? n->hi : x[i];
		return;
	case GRAPH_LEAKY:
		for (size_t i = 0; i < len; i++)
			y[i] = x[i] >= 0 ? x[i] : n->a * x[i];
		return;
	case GRAPH_SCALE:
		for (size_t i = 0; i < len; i++)
			y[i] = n->a * x[i];
		return;
	case GRAPH_AFFINE: {
		int c;
		size_t per;
		chans(n, &c, &per);
		const float *sc = param + n->off, *t = sc + c;
		for (int s = 0; s < ns; s++)
			for (int ch = 0; ch < c; ch++) {
				size_t at = ((size_t)s * c + ch) * per;
				for (size_t i = 0; i < per; i++)
					y[at + i] = sc[ch] * x[at + i] + t[ch];
			}
		return;
	}
	default: /* Reshape: the values as they are */
		memcpy(y, x, len * sizeof *y);
	}
}

static void affine_backward(const GraphNode *n, const float *param, const float *x,
                            const float *gout, int ns, float *gin, float *gp)
{
	int c;
	size_t per;
	chans(n, &c, &per);
	const float *sc = param + n->off;
	float *gs = gp + n->off, *gt = gs + c;
	for (int s = 0; s < ns; s++)
		for (int ch = 0; ch < c; ch++) {
			size_t at = ((size_t)s * c + ch) * per;
			double ss = 0, st = 0;
			for (size_t i = 0; i < per; i++) {
				ss += (double)gout[at + i] * x[at + i];
				st += gout[at + i];
				if (gin)
					gin[at + i] += sc[ch] * gout[at + i];
			}
			gs[ch] += (float)ss;
			gt[ch] += (float)st;
		}
}

void gop_elem_backward(const Graph *g, int k, const float *param, const float *x, const float *y,
                       const float *gout, int ns, float *gin, float *gp)
{
	const GraphNode *n = &g->node[k];
	size_t len = (size_t)ns * graph_size(n);
	if (n->op == GRAPH_AFFINE) {
		affine_backward(n, param, x, gout, ns, gin, gp);
		return;
	}
	if (!gin)
		return;
	switch (n->op) {
	case GRAPH_RELU:
		for (size_t i = 0; i < len; i++)
			gin[i] += y[i] > 0 ? gout[i] : 0.0f;
		return;
	case GRAPH_CLIP: /* PyTorch's hardtanh: the gradient passes strictly inside */
		for (size_t i = 0; i < len; i++)
			gin[i] += x[i] > n->lo && x[i] < n->hi ? gout[i] : 0.0f;
		return;
	case GRAPH_LEAKY:
		for (size_t i = 0; i < len; i++)
			gin[i] += x[i] > 0 ? gout[i] : n->a * gout[i];
		return;
	case GRAPH_SIGMOID:
		for (size_t i = 0; i < len; i++)
			gin[i] += gout[i] * y[i] * (1.0f - y[i]);
		return;
	case GRAPH_TANH:
		for (size_t i = 0; i < len; i++)
			gin[i] += gout[i] * (1.0f - y[i] * y[i]);
		return;
	case GRAPH_ERF:
		for (size_t i = 0; i < len; i++)
			gin[i] += gout[i] * 1.1283791671f * act_exp_fast(-x[i] * x[i]);
		return;
	case GRAPH_SCALE:
		for (size_t i = 0; i < len; i++)
			gin[i] += n->a * gout[i];
		return;
	default: /* Reshape */
		for (size_t i = 0; i < len; i++)
			gin[i] += gout[i];
	}
}

void gop_join_forward(const Graph *g, int k, const float *const *ins, int ns, float *out)
{
	const GraphNode *n = &g->node[k];
	size_t sz = graph_size(n);
	if (n->op == GRAPH_ADD) {
		for (size_t i = 0; i < (size_t)ns * sz; i++)
			out[i] = ins[0][i] + ins[1][i];
		return;
	}
	for (int s = 0; s < ns; s++) {
		float *o = out + (size_t)s * sz;
		for (int i = 0; i < n->nin; i++) {
			size_t isz = graph_size(&g->node[graph_in(g, k)[i]]);
			memcpy(o, ins[i] + (size_t)s * isz, isz * sizeof *o);
			o += isz;
		}
	}
}

void gop_join_backward(const Graph *g, int k, const float *gout, int ns, float *const *gins)
{
	const GraphNode *n = &g->node[k];
	size_t sz = graph_size(n);
	for (int s = 0; s < ns; s++) {
		const float *go = gout + (size_t)s * sz;
		for (int i = 0; i < n->nin; i++) {
			size_t isz = graph_size(&g->node[graph_in(g, k)[i]]);
			float *gi = gins[i] ? gins[i] + (size_t)s * isz : NULL;
			for (size_t j = 0; gi && j < isz; j++)
				gi[j] += go[j];
			if (n->op != GRAPH_ADD)
				go += isz;
		}
	}
}
