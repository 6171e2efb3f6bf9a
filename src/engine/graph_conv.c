/* graph_conv.c - a graph's Conv nodes over a block of samples: im2col per
 * group and one sgemm each, or direct loops for a group of one input
 * channel (depthwise), forward and backward. */
#include <string.h>

#include "base/blas.h"
#include "engine/graph_ops.h"
#include "engine/layers.h"

/* Columns of one run of samples: at most this many floats (2 MiB). */
#define COL_FLOATS ((size_t)1 << 19)
/* From this many positions of an output map on, a sample's products are
 * large enough alone: each sample is lowered and multiplied by itself,
 * straight into its rows of the output (no channel-major block to copy). */
#define EACH_P 256

/* What a Conv node reads and makes, for the loops below. */
typedef struct Cv {
	const GraphNode *n;
	const GraphWin *w;
	int ci, hi, wi;     /* input maps */
	int co, ho, wo;     /* output maps */
	int cig, cog;       /* channels of one group, in and out */
	int rows;           /* cig·kh·kw */
	size_t P, isz, osz; /* positions of an output map; values of a sample in and out */
} Cv;

static Cv cv_of(const Graph *g, int k)
{
	Cv c;
	c.n = &g->node[k];
	c.w = &c.n->win;
	const GraphNode *a = &g->node[graph_in(g, k)[0]];
	c.ci = a->c, c.hi = a->h, c.wi = a->w;
	c.co = c.n->c, c.ho = c.n->h, c.wo = c.n->w;
	c.cig = c.ci / c.n->group;
	c.cog = c.co / c.n->group;
	c.rows = c.cig * c.w->kh * c.w->kw;
	c.P = (size_t)c.ho * c.wo;
	c.isz = (size_t)c.ci * c.hi * c.wi;
	c.osz = (size_t)c.co * c.P;
	return c;
}

static int depthwise(const Cv *c)
{
	return c->cig == 1;
}

/* One sample at a time (large maps), and without columns at all (a 1×1
 * kernel of stride 1, unpadded: the input's rows are the columns). */
static int each(const Cv *c)
{
	return c->P >= EACH_P;
}

static int pointwise(const Cv *c)
{
	const GraphWin *w = c->w;
	return w->kh == 1 && w->kw == 1 && w->sh == 1 && w->sw == 1 && !w->pt && !w->pl && !w->pb &&
	       !w->pr;
}

int gop_conv_run(const Graph *g, int k, int ns)
{
	Cv c = cv_of(g, k);
	if (each(&c))
		return ns < 1 ? ns : 1;
	size_t per = (size_t)c.rows * c.P;
	size_t run = per ? COL_FLOATS / per : 1;
	if (run < 1)
		run = 1;
	return (int)(run < (size_t)ns ? run : (size_t)ns);
}

size_t gop_conv_col_floats(const Graph *g, int k, int ns)
{
	Cv c = cv_of(g, k);
	if (depthwise(&c) || (each(&c) && pointwise(&c)))
		return 0;
	return (size_t)c.rows * c.P * (size_t)gop_conv_run(g, k, ns);
}

size_t gop_conv_z_floats(const Graph *g, int k, int ns)
{
	Cv c = cv_of(g, k);
	return depthwise(&c) || each(&c) ? 0 : (size_t)c.cog * c.P * (size_t)gop_conv_run(g, k, ns);
}

/* The output positions [*lo, *hi) of one side whose input cell
 * o·s − pad + off lies inside 0..in−1. */
static void span(int out, int in, int s, int pad, int off, int *lo, int *hi)
{
	int first = pad - off; /* o·s ≥ first */
	*lo = first <= 0 ? 0 : (first + s - 1) / s;
	int last = in - 1 + pad - off; /* o·s ≤ last */
	*hi = last < 0 ? 0 : last / s + 1;
	if (*hi > out)
		*hi = out;
	if (*lo > *hi)
		*lo = *hi;
}

/* The rows of the columns for kernel offset (y, x) of ns samples, one
 * after another (P values each, ld apart in the input by isz): the input
 * cell each output position meets, 0 in the padding. The spans of output
 * positions inside the map are found once for all the samples. */
static void lower_row(const Cv *c, const float *src, int ns, int y, int x, float *d)
{
	const GraphWin *w = c->w;
	int ylo, yhi, xlo, xhi, wo = c->wo, sw = w->sw;
	span(c->ho, c->hi, w->sh, w->pt, y * w->dh, &ylo, &yhi);
	span(c->wo, c->wi, sw, w->pl, x * w->dw, &xlo, &xhi);
	if (yhi > ylo && xhi > xlo)
		src += (size_t)(ylo * w->sh - w->pt + y * w->dh) * c->wi - w->pl + x * w->dw;
	size_t step = (size_t)w->sh * c->wi;
	int full = ylo == 0 && yhi == c->ho && xlo == 0 && xhi == wo;
	for (int s = 0; s < ns; s++, src += c->isz, d += c->P) {
		if (!full)
			memset(d, 0, c->P * sizeof *d);
		const float *sr = src;
		for (int oy = ylo; oy < yhi; oy++, sr += step) {
			float *dr = d + (size_t)oy * wo;
			if (sw == 1)
				for (int ox = xlo; ox < xhi; ox++)
					dr[ox] = sr[ox];
			else
				for (int ox = xlo; ox < xhi; ox++)
					dr[ox] = sr[ox * sw];
		}
	}
}

/* The columns of group gi of samples in[0..ns) into col: row
 * (c·kh + y)·kw + x, column s·P + position, the input cell each kernel
 * weight meets (0 in the padding). */
static void im2col(const Cv *c, int gi, const float *in, int ns, float *col)
{
	const GraphWin *w = c->w;
	const size_t ld = c->P * (size_t)ns;
	for (int ch = 0; ch < c->cig; ch++)
		for (int y = 0; y < w->kh; y++)
			for (int x = 0; x < w->kw; x++) {
				float *row = col + ((size_t)(ch * w->kh + y) * w->kw + x) * ld;
				lower_row(c, in + (size_t)(gi * c->cig + ch) * c->hi * c->wi, ns, y,
				          x, row);
			}
}

/* The kernel offsets t = y·kw + x that meet a cell of the map at some
 * output position, into taps (their count returned): the others meet only
 * padding (a 3×3 kernel of padding 1 on 1×1 maps meets its centre alone),
 * and their rows of the columns are all 0. */
static int live_taps(const Cv *c, int *taps)
{
	const GraphWin *w = c->w;
	int n = 0;
	for (int y = 0; y < w->kh; y++)
		for (int x = 0; x < w->kw; x++) {
			int ylo, yhi, xlo, xhi;
			span(c->ho, c->hi, w->sh, w->pt, y * w->dh, &ylo, &yhi);
			span(c->wo, c->wi, w->sw, w->pl, x * w->dw, &xlo, &xhi);
			if (ylo < yhi && xlo < xhi)
				taps[n++] = y * w->kw + x;
		}
	return n;
}

/* The columns of the live taps alone (row c·ntaps + t), and the rows of W
 * that meet them into wc ((cig·ntaps) × C_out): the product then skips the
 * kernel offsets that meet only padding. */
static void compact(const Cv *c, int gi, const float *in, int ns, const int *taps, int ntaps,
                    float *col)
{
	const GraphWin *w = c->w;
	const size_t ld = c->P * (size_t)ns;
	for (int ch = 0; ch < c->cig; ch++)
		for (int t = 0; t < ntaps; t++) {
			float *row = col + ((size_t)ch * ntaps + t) * ld;
			lower_row(c, in + (size_t)(gi * c->cig + ch) * c->hi * c->wi, ns,
			          taps[t] / w->kw, taps[t] % w->kw, row);
		}
}

/* The rows of W (all groups' columns) of the live taps into wc. */
static void compact_w(const Cv *c, const float *W, const int *taps, int ntaps, float *wc)
{
	int kk = c->w->kh * c->w->kw;
	for (int ch = 0; ch < c->cig; ch++)
		for (int t = 0; t < ntaps; t++)
			memcpy(wc + ((size_t)ch * ntaps + t) * c->co,
			       W + ((size_t)ch * kk + taps[t]) * c->co, (size_t)c->co * sizeof *wc);
}

size_t gop_conv_wc_floats(const Graph *g, int k)
{
	Cv c = cv_of(g, k);
	int taps[LAYERS_MAX_KERNEL * LAYERS_MAX_KERNEL];
	if (depthwise(&c) || each(&c))
		return 0;
	int n = live_taps(&c, taps);
	return n < c.w->kh * c.w->kw ? (size_t)c.cig * n * c.co : 0;
}

/* The columns' gradient col (row c·ntaps + t for the kernel offsets
 * taps[0..ntaps), every offset or the live ones) added back onto group
 * gi's input rows gin. */
static void col2im(const Cv *c, int gi, const float *col, int ns, const int *taps, int ntaps,
                   float *gin)
{
	const GraphWin *w = c->w;
	const size_t ld = c->P * (size_t)ns;
	for (int ch = 0; ch < c->cig; ch++)
		for (int t = 0; t < ntaps; t++) {
			int y = taps[t] / w->kw, x = taps[t] % w->kw;
			const float *row = col + ((size_t)ch * ntaps + t) * ld;
			int ylo, yhi, xlo, xhi;
			span(c->ho, c->hi, w->sh, w->pt, y * w->dh, &ylo, &yhi);
			span(c->wo, c->wi, w->sw, w->pl, x * w->dw, &xlo, &xhi);
			int ix0 = -w->pl + x * w->dw;
			for (int s = 0; s < ns; s++) {
				float *dst = gin + (size_t)s * c->isz +
				             (size_t)(gi * c->cig + ch) * c->hi * c->wi;
				const float *r = row + (size_t)s * c->P;
				for (int oy = ylo; oy < yhi; oy++) {
					int iy = oy * w->sh - w->pt + y * w->dh;
					float *dr = dst + (size_t)iy * c->wi;
					const float *sr = r + (size_t)oy * c->wo;
					for (int ox = xlo; ox < xhi; ox++)
						dr[ox * w->sw + ix0] += sr[ox];
				}
			}
		}
}

/* Depthwise: each output channel j reads input channel j / cog alone. */
static void dw_forward(const Cv *c, const float *W, const float *b, const float *in, int ns,
                       float *out)
{
	const GraphWin *w = c->w;
	float ker[LAYERS_MAX_KERNEL * LAYERS_MAX_KERNEL];
	for (int j = 0; j < c->co; j++) {
		for (int t = 0; t < w->kh * w->kw; t++)
			ker[t] = W[(size_t)t * c->co + j];
		for (int s = 0; s < ns; s++) {
			const float *src =
			    in + (size_t)s * c->isz + (size_t)(j / c->cog) * c->hi * c->wi;
			float *dst = out + (size_t)s * c->osz + (size_t)j * c->P;
			for (size_t p = 0; p < c->P; p++)
				dst[p] = b[j];
			for (int y = 0; y < w->kh; y++) {
				int ylo, yhi;
				span(c->ho, c->hi, w->sh, w->pt, y * w->dh, &ylo, &yhi);
				for (int x = 0; x < w->kw; x++) {
					int xlo, xhi, ix0 = -w->pl + x * w->dw;
					span(c->wo, c->wi, w->sw, w->pl, x * w->dw, &xlo, &xhi);
					float kv = ker[y * w->kw + x];
					for (int oy = ylo; oy < yhi; oy++) {
						int iy = oy * w->sh - w->pt + y * w->dh;
						const float *sr = src + (size_t)iy * c->wi + ix0;
						float *dr = dst + (size_t)oy * c->wo;
						if (w->sw == 1)
							for (int ox = xlo; ox < xhi; ox++)
								dr[ox] += kv * sr[ox];
						else
							for (int ox = xlo; ox < xhi; ox++)
								dr[ox] += kv * sr[ox * w->sw];
					}
				}
			}
		}
	}
}

static void dw_backward(const Cv *c, const float *W, const float *in, const float *gout, int ns,
                        float *gin, float *gW, float *gb)
{
	const GraphWin *w = c->w;
	for (int j = 0; j < c->co; j++)
		for (int s = 0; s < ns; s++) {
			size_t at = (size_t)s * c->isz + (size_t)(j / c->cog) * c->hi * c->wi;
			const float *src = in + at,
			            *go = gout + (size_t)s * c->osz + (size_t)j * c->P;
			double sb = 0;
			for (size_t p = 0; p < c->P; p++)
				sb += go[p];
			gb[j] += (float)sb;
			for (int y = 0; y < w->kh; y++) {
				int ylo, yhi;
				span(c->ho, c->hi, w->sh, w->pt, y * w->dh, &ylo, &yhi);
				for (int x = 0; x < w->kw; x++) {
					int xlo, xhi, ix0 = -w->pl + x * w->dw;
					span(c->wo, c->wi, w->sw, w->pl, x * w->dw, &xlo, &xhi);
					size_t t = (size_t)(y * w->kw + x) * c->co + j;
					float kv = W[t], sw = 0;
					for (int oy = ylo; oy < yhi; oy++) {
						size_t r =
						    (size_t)(oy * w->sh - w->pt + y * w->dh) *
						    c->wi;
						const float *gr = go + (size_t)oy * c->wo;
						const float *sr = src + r + ix0;
						for (int ox = xlo; ox < xhi; ox++)
							sw += gr[ox] * sr[ox * w->sw];
						if (!gin)
							continue;
						float *dr = gin + at + r + ix0;
						for (int ox = xlo; ox < xhi; ox++)
							dr[ox * w->sw] += kv * gr[ox];
					}
					gW[t] += sw;
				}
			}
		}
}

/* Sample by sample: each group's W_gᵀ · columns straight into the output. */
static void each_forward(const Cv *c, const float *W, const float *b, const float *in, int ns,
                         float *out, float *col)
{
	int pw = pointwise(c), P = (int)c->P;
	for (int s = 0; s < ns; s++) {
		const float *x = in + (size_t)s * c->isz;
		float *y = out + (size_t)s * c->osz;
		for (int gi = 0; gi < c->n->group; gi++) {
			const float *B = x + (size_t)gi * c->cig * c->P;
			if (!pw) {
				im2col(c, gi, x, 1, col);
				B = col;
			}
			blas_sgemm(1, 0, c->cog, P, c->rows, 1.0f, W + (size_t)gi * c->cog, c->co,
			           B, P, 0.0f, y + (size_t)gi * c->cog * c->P, P);
		}
		for (int o = 0; o < c->co; o++) {
			float *r = y + (size_t)o * c->P, bo = b[o];
			for (size_t p = 0; p < c->P; p++)
				r[p] += bo;
		}
	}
}

static void each_backward(const Cv *c, const float *W, const float *in, const float *gout, int ns,
                          float *gin, float *gW, float *gb, float *col)
{
	int pw = pointwise(c), P = (int)c->P, kk = c->w->kh * c->w->kw;
	int taps[LAYERS_MAX_KERNEL * LAYERS_MAX_KERNEL];
	for (int t = 0; t < kk; t++)
		taps[t] = t;
	for (int s = 0; s < ns; s++) {
		const float *x = in + (size_t)s * c->isz, *go = gout + (size_t)s * c->osz;
		float *gx = gin ? gin + (size_t)s * c->isz : NULL;
		for (int o = 0; o < c->co; o++) {
			double sb = 0;
			for (size_t p = 0; p < c->P; p++)
				sb += go[(size_t)o * c->P + p];
			gb[o] += (float)sb;
		}
		for (int gi = 0; gi < c->n->group; gi++) {
			const float *B = x + (size_t)gi * c->cig * c->P;
			const float *G = go + (size_t)gi * c->cog * c->P;
			if (!pw) {
				im2col(c, gi, x, 1, col);
				B = col;
			}
			blas_sgemm(0, 1, c->rows, c->cog, P, 1.0f, B, P, G, P, 1.0f,
			           gW + (size_t)gi * c->cog, c->co);
			if (!gx)
				continue;
			if (pw) { /* added straight to the input's gradient */
				blas_sgemm(0, 0, c->rows, P, c->cog, 1.0f, W + (size_t)gi * c->cog,
				           c->co, G, P, 1.0f, gx + (size_t)gi * c->cig * c->P, P);
				continue;
			}
			blas_sgemm(0, 0, c->rows, P, c->cog, 1.0f, W + (size_t)gi * c->cog, c->co,
			           G, P, 0.0f, col, P);
			col2im(c, gi, col, 1, taps, kk, gx);
		}
	}
}

void gop_conv_forward(const Graph *g, int k, const float *param, const float *in, int ns,
                      float *out, float *col, float *z, float *wc)
{
	Cv c = cv_of(g, k);
	const float *W = param + c.n->off, *b = W + (size_t)c.rows * c.co;
	if (depthwise(&c)) {
		dw_forward(&c, W, b, in, ns, out);
		return;
	}
	if (each(&c)) {
		each_forward(&c, W, b, in, ns, out, col);
		return;
	}
	int taps[LAYERS_MAX_KERNEL * LAYERS_MAX_KERNEL], ntaps = live_taps(&c, taps);
	int kk = c.w->kh * c.w->kw, dead = ntaps < kk, rows = dead ? c.cig * ntaps : c.rows;
	/* W's rows of the live offsets: one offset's are one stride apart */
	const float *A = ntaps == 1 ? W + (size_t)taps[0] * c.co : dead ? wc : W;
	int lda = ntaps == 1 ? kk * c.co : c.co;
	if (dead && ntaps > 1)
		compact_w(&c, W, taps, ntaps, wc);
	int run = gop_conv_run(g, k, ns);
	for (int s0 = 0; s0 < ns; s0 += run) {
		int m = ns - s0 < run ? ns - s0 : run;
		const size_t ld = c.P * (size_t)m;
		for (int gi = 0; gi < c.n->group; gi++) {
			if (dead)
				compact(&c, gi, in + (size_t)s0 * c.isz, m, taps, ntaps, col);
			else
				im2col(&c, gi, in + (size_t)s0 * c.isz, m, col);
			blas_sgemm(1, 0, c.cog, (int)ld, rows, 1.0f, A + (size_t)gi * c.cog, lda,
			           col, (int)ld, 0.0f, z, (int)ld);
			for (int j = 0; j < c.cog; j++) {
				int oc = gi * c.cog + j;
				float bj = b[oc];
				for (int s = 0; s < m; s++) {
					float *d =
					    out + (size_t)(s0 + s) * c.osz + (size_t)oc * c.P;
					const float *zr = z + (size_t)j * ld + (size_t)s * c.P;
					for (size_t p = 0; p < c.P; p++)
						d[p] = zr[p] + bj;
				}
			}
		}
	}
}

/* Group gi of a run of m samples backward, its output gradient z
 * channel-major: W's gradient from the columns, the input's through them.
 * Where kernel offsets meet only padding (small maps), their rows of the
 * columns are 0: the products then cover the live offsets alone, one
 * offset at a time (its rows of W one stride apart). */
static void block_backward(const Cv *c, int gi, const float *W, const float *in, const float *z,
                           int m, float *gin, float *gW, float *col)
{
	int taps[LAYERS_MAX_KERNEL * LAYERS_MAX_KERNEL], ntaps = live_taps(c, taps);
	int kk = c->w->kh * c->w->kw, ld = (int)(c->P * (size_t)m);
	size_t sld = (size_t)ld * ntaps;
	const float *Wg = W + (size_t)gi * c->cog;
	float *gWg = gW + (size_t)gi * c->cog;
	if (ntaps == kk) {
		im2col(c, gi, in, m, col);
		blas_sgemm(0, 1, c->rows, c->cog, ld, 1.0f, col, ld, z, ld, 1.0f, gWg, c->co);
		if (!gin)
			return;
		blas_sgemm(0, 0, c->rows, ld, c->cog, 1.0f, Wg, c->co, z, ld, 0.0f, col, ld);
		col2im(c, gi, col, m, taps, ntaps, gin);
		return;
	}
	compact(c, gi, in, m, taps, ntaps, col);
	for (int t = 0; t < ntaps; t++)
		blas_sgemm(0, 1, c->cig, c->cog, ld, 1.0f, col + (size_t)t * ld, (int)sld, z, ld,
		           1.0f, gWg + (size_t)taps[t] * c->co, kk * c->co);
	if (!gin)
		return;
	for (int t = 0; t < ntaps; t++)
		blas_sgemm(0, 0, c->cig, ld, c->cog, 1.0f, Wg + (size_t)taps[t] * c->co, kk * c->co,
		           z, ld, 0.0f, col + (size_t)t * ld, (int)sld);
	col2im(c, gi, col, m, taps, ntaps, gin);
}

void gop_conv_backward(const Graph *g, int k, const float *param, const float *in,
                       const float *gout, int ns, float *gin, float *gp, float *col, float *z)
{
	Cv c = cv_of(g, k);
	const float *W = param + c.n->off;
	float *gW = gp + c.n->off, *gb = gW + (size_t)c.rows * c.co;
	if (depthwise(&c)) {
		dw_backward(&c, W, in, gout, ns, gin, gW, gb);
		return;
	}
	if (each(&c)) {
		each_backward(&c, W, in, gout, ns, gin, gW, gb, col);
		return;
	}
	int run = gop_conv_run(g, k, ns);
	for (int s0 = 0; s0 < ns; s0 += run) {
		int m = ns - s0 < run ? ns - s0 : run;
		const size_t ld = c.P * (size_t)m;
		for (int gi = 0; gi < c.n->group; gi++) {
			/* the group's output gradient, channel-major, and the bias's */
			for (int j = 0; j < c.cog; j++) {
				int oc = gi * c.cog + j;
				double sb = 0;
				for (int s = 0; s < m; s++) {
					const float *go =
					    gout + (size_t)(s0 + s) * c.osz + (size_t)oc * c.P;
					float *zr = z + (size_t)j * ld + (size_t)s * c.P;
					for (size_t p = 0; p < c.P; p++)
						sb += (zr[p] = go[p]);
				}
				gb[oc] += (float)sb;
			}
			block_backward(&c, gi, W, in + (size_t)s0 * c.isz, z, m,
			               gin ? gin + (size_t)s0 * c.isz : NULL, gW, col);
		}
	}
}

void gop_gemm_forward(const Graph *g, int k, const float *param, const float *in, int ns,
                      float *out)
{
	const GraphNode *n = &g->node[k];
	int ci = graph_rows(g, k), co = n->c;
	const float *W = param + n->off, *b = W + (size_t)ci * co;
	blas_sgemm(0, 0, ns, co, ci, 1.0f, in, ci, W, co, 0.0f, out, co);
	for (int s = 0; s < ns; s++) {
		float *r = out + (size_t)s * co;
		for (int j = 0; j < co; j++)
			r[j] += b[j];
	}
}

void gop_gemm_backward(const Graph *g, int k, const float *param, const float *in,
                       const float *gout, int ns, float *gin, float *gp)
{
	const GraphNode *n = &g->node[k];
	int ci = graph_rows(g, k), co = n->c;
	const float *W = param + n->off;
	float *gW = gp + n->off, *gb = gW + (size_t)ci * co;
	blas_sgemm(1, 0, ci, co, ns, 1.0f, in, ci, gout, co, 1.0f, gW, co);
	for (int s = 0; s < ns; s++) {
		const float *r = gout + (size_t)s * co;
		for (int j = 0; j < co; j++)
			gb[j] += r[j];
	}
	if (gin)
		blas_sgemm(0, 1, ns, ci, co, 1.0f, gout, co, W, co, 1.0f, gin, ci);
}
