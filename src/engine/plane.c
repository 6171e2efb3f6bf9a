/* plane.c - a network of two inputs over a grid of the plane: its decision
 * regions and one hidden layer's pre-activation maps, by the forward pass
 * of train_pass.c (net_forward) and one product through OpenBLAS. */
#include "engine/plane.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/blas.h"
#include "data/plane_inputs.h"
#include "data/prep.h"
#include "engine/act.h"
#include "engine/train.h"

int plane_box(const Dataset *ds, PlaneBox *b, Err *e)
{
	int planar = ds && ds->prep && ds->prep->kind == PREP_PLANE && ds->d >= 2;
	if (!ds || (ds->d != 2 && !planar))
		return err_set(e, "%d features: the plane has 2", ds ? ds->d : 0);
	if (ds->n < 1)
		return err_set(e, "%s: no points", ds->name);
	double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
	for (int i = 0; i < ds->n; i++)
		for (int k = 0; k < 2; k++) {
			double v = ds->x[(size_t)ds->d * i + k];
			lo[k] = fmin(lo[k], v);
			hi[k] = fmax(hi[k], v);
		}
	if (!isfinite(lo[0]) || !isfinite(lo[1]) || !isfinite(hi[0]) || !isfinite(hi[1]))
		return err_set(e, "%s: a point is not finite", ds->name);
	double v[4];
	for (int k = 0; k < 2; k++) {
		double mid = (lo[k] + hi[k]) / 2, half = fmax((hi[k] - lo[k]) * 0.6, 0.1);
		v[2 * k] = mid - half;
		v[2 * k + 1] = mid + half;
	}
	*b = (PlaneBox){v[0], v[1], v[2], v[3]};
	return 0;
}

void plane_point(const PlaneBox *b, int w, int h, int c, int r, double *x, double *y)
{
	*x = b->x0 + (c + 0.5) * (b->x1 - b->x0) / w;
	*y = b->y1 - (r + 0.5) * (b->y1 - b->y0) / h;
}

void plane_pixel(const PlaneBox *b, int w, int h, double x, double y, int *c, int *r)
{
	double fc = floor((x - b->x0) / (b->x1 - b->x0) * w);
	double fr = floor((b->y1 - y) / (b->y1 - b->y0) * h);
	*c = fc < 0 ? 0 : fc >= w ? w - 1 : (int)fc;
	*r = fr < 0 ? 0 : fr >= h ? h - 1 : (int)fr;
}

/* The w·h points of the grid, row by row from the top (x, y pairs). */
static float *grid(const PlaneBox *b, int w, int h, Err *e)
{
	float *g = malloc((size_t)w * h * 2 * sizeof *g);
	if (!g) {
		err_set(e, "out of memory for a %d×%d grid of the plane", w, h);
		return NULL;
	}
	for (int r = 0; r < h; r++)
		for (int c = 0; c < w; c++) {
			double x, y;
			plane_point(b, w, h, c, r, &x, &y);
			g[2 * ((size_t)r * w + c)] = (float)x;
			g[2 * ((size_t)r * w + c) + 1] = (float)y;
		}
	return g;
}

/* 1 when net reads points of the plane as x, y and other inputs of them. */
static int plane_net(const Net *net)
{
	return net->prep && net->prep->kind == PREP_PLANE && net->prep->d == net->n[0];
}

/* The network's inputs at the w·h points of the grid: the points
 * themselves, or, for a network that reads other inputs of them (its
 * record, PREP_PLANE), those, made of x and y as its training set's were:
 * the scale step undone on x and y, the inputs made, the scale step done
 * on them all. */
static float *inputs(const Net *net, const PlaneBox *b, int w, int h, Err *e)
{
	float *g = grid(b, w, h, e);
	if (!g || !plane_net(net))
		return g;
	const Prep *p = net->prep;
	int d = p->d;
	size_t np = (size_t)w * h;
	float *r = malloc(np * (size_t)d * sizeof *r);
	if (!r) {
		free(g);
		err_set(e, "out of memory for a %d×%d grid of the plane", w, h);
		return NULL;
	}
	for (size_t i = 0; i < np; i++) {
		double x = g[2 * i] * p->sd[0] + p->mean[0],
		       y = g[2 * i + 1] * p->sd[1] + p->mean[1];
		float *row = r + i * (size_t)d;
		plane_inputs_row(p->plane, x, y, row);
		for (int j = 0; j < d; j++)
			row[j] = (float)((row[j] - p->mean[j]) / p->sd[j]);
	}
	free(g);
	return r;
}

static int check(const Net *net, const PlaneBox *b, int w, int h, Err *e)
{
	if (!net || (net->n[0] != 2 && !plane_net(net)))
		return err_set(e, "the network has %d inputs: the plane has 2",
		               net ? net->n[0] : 0);
	if (w < 1 || h < 1 || (long)w * h > 1L << 24)
		return err_set(e, "a grid of %d×%d pixels, expected 1 to 2^24", w, h);
	if (!(b->x1 > b->x0) || !(b->y1 > b->y0) || !isfinite(b->x1 - b->x0) ||
	    !isfinite(b->y1 - b->y0))
		return err_set(e, "the box [%g, %g]×[%g, %g] is empty or not finite", b->x0, b->x1,
		               b->y0, b->y1);
	return 0;
}

int plane_regions(const Net *net, const PlaneBox *b, int w, int h, PlaneRegions *out, Err *e)
{
	memset(out, 0, sizeof *out);
	if (check(net, b, w, h, e))
		return -1;
	int k = net->n[net->m], np = w * h;
	if (k > 255)
		return err_set(e, "%d classes: the regions hold at most 255", k);
	float *g = inputs(net, b, w, h, e), *p = g ? malloc((size_t)np * k * sizeof *p) : NULL;
	out->cls = p ? malloc((size_t)np) : NULL;
	out->conf = out->cls ? malloc((size_t)np * sizeof *out->conf) : NULL;
	int rc = -1;
	if (g && !out->conf)
		err_set(e, "out of memory for the regions of a %d×%d grid", w, h);
	else if (g && net_forward(net, g, np, net->m, p, e) == 0)
		rc = 0;
	for (int i = 0; rc == 0 && i < np; i++) {
		const float *row = p + (size_t)i * k;
		int best = net_answer(row, k);
		/* no class: drawn as the least sure pixel of class 0 */
		out->cls[i] = (unsigned char)(best == NET_NO_ANSWER ? 0 : best);
		out->conf[i] = best == NET_NO_ANSWER ? 0.0f : row[best];
	}
	free(g);
	free(p);
	if (rc) {
		plane_regions_free(out);
		return -1;
	}
	out->w = w;
	out->h = h;
	out->k = k;
	out->box = *b;
	return 0;
}

void plane_regions_free(PlaneRegions *r)
{
	if (!r)
		return;
	free(r->cls);
	free(r->conf);
	r->cls = NULL;
	r->conf = NULL;
}

double plane_regions_differ(const PlaneRegions *a, const PlaneRegions *b)
{
	if (!a->cls || !b->cls || a->w != b->w || a->h != b->h)
		return NAN;
	long n = (long)a->w * a->h, diff = 0;
	for (long i = 0; i < n; i++)
		diff += a->cls[i] != b->cls[i];
	return (double)diff / n;
}

int plane_maps(const Net *net, int layer, const PlaneBox *b, int w, int h, PlaneMaps *out, Err *e)
{
	memset(out, 0, sizeof *out);
	if (check(net, b, w, h, e))
		return -1;
	if (layer < 1 || layer > net->m - 1)
		return err_set(e, "layer %d is not a hidden layer (expected 1..%d)", layer,
		               net->m - 1);
	int np = w * h, nin = net->n[layer - 1], n = net->n[layer];
	float *g = inputs(net, b, w, h, e);
	float *y = g && layer > 1 ? malloc((size_t)np * nin * sizeof *y) : NULL;
	float *z = g ? malloc((size_t)np * n * sizeof *z) : NULL;
	out->z = z ? malloc((size_t)np * n * sizeof *out->z) : NULL;
	int rc = -1;
	if (g && (!out->z || (layer > 1 && !y)))
		err_set(e, "out of memory for the maps of %d neurons", n);
	else if (g && (layer == 1 || net_forward(net, g, np, layer - 1, y, e) == 0))
		rc = 0;
	if (rc == 0) {
		/* Z = Y W⁽ˡᵃʸᵉʳ⁾ + b⁽ˡᵃʸᵉʳ⁾, one row per pixel, then one map per neuron */
		blas_sgemm(0, 0, np, n, nin, 1.0f, layer > 1 ? y : g, nin, net->W[layer - 1], n,
		           0.0f, z, n);
		const float *bias = net->b[layer - 1];
		for (int i = 0; i < np; i++)
			for (int j = 0; j < n; j++)
				out->z[(size_t)j * np + i] = z[(size_t)i * n + j] + bias[j];
	}
	free(g);
	free(y);
	free(z);
	if (rc) {
		plane_maps_free(out);
		return -1;
	}
	*out = (PlaneMaps){w, h, layer, n, *b, out->z};
	return 0;
}

void plane_maps_free(PlaneMaps *m)
{
	if (!m)
		return;
	free(m->z);
	m->z = NULL;
}

void plane_map_activation(const Net *net, const PlaneMaps *m, int j, float *out)
{
	size_t np = (size_t)m->w * m->h;
	act_forward(net->act, net->act_a, m->z + (size_t)j * np, out, np);
}

void plane_map_combination(const Net *net, const PlaneMaps *m, const int *idx, const double *coef,
                           int nterms, float *out)
{
	size_t np = (size_t)m->w * m->h;
	for (size_t i = 0; i < np; i++) {
		double s = 0;
		for (int t = 0; t < nterms; t++)
			s += coef[t] * m->z[(size_t)idx[t] * np + i];
		out[i] = (float)s;
	}
	act_forward(net->act, net->act_a, out, out, np);
}

int plane_io_maps(const Net *net, int layer, const PlaneBox *b, int w, int h, PlaneMaps *out,
                  Err *e)
{
	memset(out, 0, sizeof *out);
	if (check(net, b, w, h, e))
		return -1;
	if (layer != 0 && layer != net->m)
		return err_set(e, "layer %d is neither the inputs (0) nor the outputs (%d)", layer,
		               net->m);
	int np = w * h, n = net->n[layer];
	float *g = inputs(net, b, w, h, e);
	float *p = g && layer ? malloc((size_t)np * n * sizeof *p) : NULL;
	out->z = g ? malloc((size_t)np * n * sizeof *out->z) : NULL;
	int rc = -1;
	if (g && (!out->z || (layer && !p)))
		err_set(e, "out of memory for the maps of %d neurons", n);
	else if (g && (!layer || net_forward(net, g, np, net->m, p, e) == 0))
		rc = 0;
	const float *v = layer ? p : g;
	for (int i = 0; rc == 0 && i < np; i++)
		for (int j = 0; j < n; j++)
			out->z[(size_t)j * np + i] = v[(size_t)i * n + j];
	free(g);
	free(p);
	if (rc) {
		plane_maps_free(out);
		return -1;
	}
	*out = (PlaneMaps){w, h, layer, n, *b, out->z};
	return 0;
}
