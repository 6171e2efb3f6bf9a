/* graph_pool.c - a graph's pools over a block of samples: MaxPool (the
 * first largest cell of each window; padding is no cell), AveragePool (the
 * window's sum over its cells, or over the whole window with its padding
 * when count_pad, as PyTorch's avg_pool2d counts it), GlobalAveragePool;
 * forward and backward. */
#include <math.h>

#include "engine/graph_ops.h"

typedef struct Pl {
	const GraphWin *w;
	int c, hi, wi, ho, wo;
	size_t isz, osz;
} Pl;

static Pl pl_of(const Graph *g, int k)
{
	const GraphNode *n = &g->node[k], *a = &g->node[graph_in(g, k)[0]];
	Pl p = {&n->win, a->c, a->h, a->w, n->h, n->w, 0, 0};
	p.isz = (size_t)a->c * a->h * a->w;
	p.osz = (size_t)n->c * n->h * n->w;
	return p;
}

/* Window (oy, ox): its cells inside the map [*y0, *y1) × [*x0, *x1), and
 * what an average divides by. */
static double window(const Pl *p, int oy, int ox, int *y0, int *y1, int *x0, int *x1)
{
	const GraphWin *w = p->w;
	int ys = oy * w->sh - w->pt, xs = ox * w->sw - w->pl;
	int ye = ys + w->kh, xe = xs + w->kw;
	/* with the padding: up to the padded map's end */
	int yp = ye < p->hi + w->pb ? ye : p->hi + w->pb;
	int xp = xe < p->wi + w->pr ? xe : p->wi + w->pr;
	double whole = (double)(yp - ys) * (xp - xs);
	*y0 = ys > 0 ? ys : 0;
	*x0 = xs > 0 ? xs : 0;
	*y1 = ye < p->hi ? ye : p->hi;
	*x1 = xe < p->wi ? xe : p->wi;
	return w->count_pad ? whole : (double)(*y1 - *y0) * (*x1 - *x0);
}

/* Window (oy, ox)'s cells inside the map, [*y0, *y1) × [*x0, *x1). */
static void cells(const Pl *p, int oy, int ox, int *y0, int *y1, int *x0, int *x1)
{
	const GraphWin *w = p->w;
	int ys = oy * w->sh - w->pt, xs = ox * w->sw - w->pl;
	int ye = ys + w->kh, xe = xs + w->kw;
	*y0 = ys > 0 ? ys : 0;
	*x0 = xs > 0 ? xs : 0;
	*y1 = ye < p->hi ? ye : p->hi;
	*x1 = xe < p->wi ? xe : p->wi;
}

/* The index in the map of window (oy, ox)'s first largest cell. */
static int argmax(const Pl *p, const float *m, int oy, int ox)
{
	int y0, y1, x0, x1;
	cells(p, oy, ox, &y0, &y1, &x0, &x1);
	int best = y0 * p->wi + x0;
	for (int y = y0; y < y1; y++)
		for (int x = x0; x < x1; x++)
			if (m[y * p->wi + x] > m[best])
				best = y * p->wi + x;
	return best;
}

/* The value of that cell, found by the same comparisons. */
static float wmax(const Pl *p, const float *m, int oy, int ox)
{
	int y0, y1, x0, x1;
	cells(p, oy, ox, &y0, &y1, &x0, &x1);
	float best = m[y0 * p->wi + x0];
	for (int y = y0; y < y1; y++) {
		const float *r = m + (size_t)y * p->wi;
		for (int x = x0; x < x1; x++)
			if (r[x] > best)
				best = r[x];
	}
	return best;
}

static void global_forward(const Graph *g, int k, const float *in, int ns, float *out)
{
	const GraphNode *a = &g->node[graph_in(g, k)[0]];
	size_t P = (size_t)a->h * a->w;
	for (int s = 0; s < ns; s++)
		for (int ch = 0; ch < a->c; ch++) {
			const float *m = in + ((size_t)s * a->c + ch) * P;
			float sum = 0;
			for (size_t i = 0; i < P; i++)
				sum += m[i];
			out[(size_t)s * a->c + ch] = sum / (float)P;
		}
}

void gop_pool_forward(const Graph *g, int k, const float *in, int ns, float *out)
{
	GraphOp op = g->node[k].op;
	if (op == GRAPH_GLOBALAVG) {
		global_forward(g, k, in, ns, out);
		return;
	}
	Pl p = pl_of(g, k);
	for (int s = 0; s < ns; s++)
		for (int ch = 0; ch < p.c; ch++) {
			const float *m = in + (size_t)s * p.isz + (size_t)ch * p.hi * p.wi;
			float *o = out + (size_t)s * p.osz + (size_t)ch * p.ho * p.wo;
			for (int oy = 0; oy < p.ho; oy++)
				for (int ox = 0; ox < p.wo; ox++) {
					if (op == GRAPH_MAXPOOL) {
						o[oy * p.wo + ox] = wmax(&p, m, oy, ox);
						continue;
					}
					int y0, y1, x0, x1;
					double div = window(&p, oy, ox, &y0, &y1, &x0, &x1);
					float sum = 0;
					for (int y = y0; y < y1; y++)
						for (int x = x0; x < x1; x++)
							sum += m[y * p.wi + x];
					o[oy * p.wo + ox] = sum / (float)div;
				}
		}
}

void gop_pool_backward(const Graph *g, int k, const float *in, const float *gout, int ns,
                       float *gin)
{
	GraphOp op = g->node[k].op;
	if (op == GRAPH_GLOBALAVG) {
		const GraphNode *a = &g->node[graph_in(g, k)[0]];
		size_t P = (size_t)a->h * a->w;
		for (size_t r = 0; r < (size_t)ns * a->c; r++) {
			float v = gout[r] / (float)P;
			for (size_t i = 0; i < P; i++)
				gin[r * P + i] += v;
		}
		return;
	}
	Pl p = pl_of(g, k);
	for (int s = 0; s < ns; s++)
		for (int ch = 0; ch < p.c; ch++) {
			size_t at = (size_t)s * p.isz + (size_t)ch * p.hi * p.wi;
			const float *m = in + at,
			            *go = gout + (size_t)s * p.osz + (size_t)ch * p.ho * p.wo;
			float *gi = gin + at;
			for (int oy = 0; oy < p.ho; oy++)
				for (int ox = 0; ox < p.wo; ox++) {
					float v = go[oy * p.wo + ox];
					if (op == GRAPH_MAXPOOL) {
						gi[argmax(&p, m, oy, ox)] += v;
						continue;
					}
					int y0, y1, x0, x1;
					v /= (float)window(&p, oy, ox, &y0, &y1, &x0, &x1);
					for (int y = y0; y < y1; y++)
						for (int x = x0; x < x1; x++)
							gi[y * p.wi + x] += v;
				}
		}
}
