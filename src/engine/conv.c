/* conv.c - a convolution layer's forward and backward passes over a block
 * of samples, lowered to columns and one sgemm each. */
#include "engine/conv.h"

#include <string.h>

#include "base/blas.h"

static size_t positions(const ConvShape *c)
{
	return (size_t)c->h_conv * c->w_conv;
}

size_t conv_col_floats(const ConvShape *c, int ns)
{
	return (size_t)layers_rows(c) * positions(c) * (size_t)ns;
}

size_t conv_map_floats(const ConvShape *c, int ns)
{
	return (size_t)c->c_out * positions(c) * (size_t)ns;
}

/* The output columns [*lo, *hi) of kernel column x whose input column
 * ox + x − pad lies inside the map. */
static void inside(const ConvShape *c, int x, int *lo, int *hi)
{
	*lo = c->pad - x > 0 ? c->pad - x : 0;
	*hi = c->w_in + c->pad - x < c->w_conv ? c->w_in + c->pad - x : c->w_conv;
	if (*hi < *lo)
		*hi = *lo;
}

void conv_im2col(const ConvShape *c, const float *in, size_t ldin, int ns, float *col)
{
	const int K = c->k, H = c->h_in, W = c->w_in, ho = c->h_conv, wo = c->w_conv;
	const size_t P = positions(c), ld = P * (size_t)ns;
	for (int ch = 0; ch < c->c_in; ch++)
		for (int y = 0; y < K; y++)
			for (int x = 0; x < K; x++) {
				float *row = col + ((size_t)(ch * K + y) * K + x) * ld;
				int lo, hi;
				inside(c, x, &lo, &hi);
				for (int s = 0; s < ns; s++) {
					const float *src =
					    in + (size_t)s * ldin + (size_t)ch * H * W;
					float *dst = row + (size_t)s * P;
					for (int oy = 0; oy < ho; oy++) {
						float *d = dst + (size_t)oy * wo;
						int iy = oy + y - c->pad;
						if (iy < 0 || iy >= H) {
							for (int ox = 0; ox < wo; ox++)
								d[ox] = 0.0f;
							continue;
						}
						/* loops, not calls: the runs are short */
						const float *sr = src + (size_t)iy * W + x - c->pad;
						for (int ox = 0; ox < lo; ox++)
							d[ox] = 0.0f;
						for (int ox = lo; ox < hi; ox++)
							d[ox] = sr[ox];
						for (int ox = hi; ox < wo; ox++)
							d[ox] = 0.0f;
					}
				}
			}
}

void conv_col2im(const ConvShape *c, const float *col, int ns, float *gin, size_t ldg)
{
	const int K = c->k, H = c->h_in, W = c->w_in, ho = c->h_conv, wo = c->w_conv;
	const size_t P = positions(c), ld = P * (size_t)ns;
	for (int s = 0; s < ns; s++)
		for (int ch = 0; ch < c->c_in; ch++) {
			float *dst = gin + (size_t)s * ldg + (size_t)ch * H * W;
			for (int y = 0; y < K; y++)
				for (int x = 0; x < K; x++) {
					const float *row = col +
					                   ((size_t)(ch * K + y) * K + x) * ld +
					                   (size_t)s * P;
					int lo, hi;
					inside(c, x, &lo, &hi);
					for (int oy = 0; oy < ho; oy++) {
						int iy = oy + y - c->pad;
						if (iy < 0 || iy >= H)
							continue;
						float *d = dst + (size_t)iy * W + x - c->pad;
						const float *r = row + (size_t)oy * wo;
						for (int ox = lo; ox < hi; ox++)
							d[ox] += r[ox];
					}
				}
		}
}

/* The 2×2 windows of stride 2 of the block y into the output rows, the
 * first largest value of each (row by row) and its index in y into arg. */
static void pool_forward(const ConvShape *c, const float *y, int ns, int32_t *arg, float *out,
                         size_t ldout)
{
	const size_t P = positions(c), ld = P * (size_t)ns;
	const int wo = c->w_conv, hp = c->h_out, wp = c->w_out;
	for (int s = 0; s < ns; s++)
		for (int ch = 0; ch < c->c_out; ch++) {
			size_t base = (size_t)ch * ld + (size_t)s * P;
			float *o = out + (size_t)s * ldout + (size_t)ch * hp * wp;
			int32_t *a =
			    arg ? arg + (size_t)s * c->c_out * hp * wp + (size_t)ch * hp * wp
			        : NULL;
			for (int py = 0; py < hp; py++)
				for (int px = 0; px < wp; px++) {
					size_t at = base + (size_t)(2 * py) * wo + 2 * px;
					size_t cand[4] = {at, at + 1, at + wo, at + wo + 1},
					       best = at;
					for (int q = 1; q < 4; q++)
						if (y[cand[q]] > y[best])
							best = cand[q];
					o[py * wp + px] = y[best];
					if (a)
						a[py * wp + px] = (int32_t)best;
				}
		}
}

void conv_forward(const ConvShape *c, ActKind act, float act_a, const float *W, const float *b,
                  const float *in, size_t ldin, int ns, float *col, float *z, float *y,
                  int32_t *arg, float *out, size_t ldout)
{
	const size_t P = positions(c), ld = P * (size_t)ns;
	conv_im2col(c, in, ldin, ns, col);
	blas_sgemm(1, 0, c->c_out, (int)ld, (int)layers_rows(c), 1.0f, W, c->c_out, col, (int)ld,
	           0.0f, z, (int)ld);
	for (int ch = 0; ch < c->c_out; ch++) {
		float *r = z + (size_t)ch * ld, bc = b[ch];
		for (size_t j = 0; j < ld; j++)
			r[j] += bc;
	}
	act_forward(act, act_a, z, y, (size_t)c->c_out * ld);
	if (c->pool) {
		pool_forward(c, y, ns, arg, out, ldout);
		return;
	}
	for (int s = 0; s < ns; s++)
		for (int ch = 0; ch < c->c_out; ch++)
			memcpy(out + (size_t)s * ldout + (size_t)ch * P,
			       y + (size_t)ch * ld + (size_t)s * P, P * sizeof *out);
}

void conv_backward_act(const ConvShape *c, ActKind act, float act_a, const float *g, size_t ldg,
                       const int32_t *arg, const float *z, const float *y, int ns, float *dz)
{
	const size_t P = positions(c), ld = P * (size_t)ns;
	if (c->pool) {
		size_t per = (size_t)c->c_out * c->h_out * c->w_out;
		memset(dz, 0, (size_t)c->c_out * ld * sizeof *dz);
		for (int s = 0; s < ns; s++) {
			const float *gs = g + (size_t)s * ldg;
			const int32_t *as = arg + (size_t)s * per;
			for (size_t j = 0; j < per; j++)
				dz[as[j]] = gs[j];
		}
	} else {
		for (int s = 0; s < ns; s++)
			for (int ch = 0; ch < c->c_out; ch++)
				memcpy(dz + (size_t)ch * ld + (size_t)s * P,
				       g + (size_t)s * ldg + (size_t)ch * P, P * sizeof *dz);
	}
	act_backward(act, act_a, z, y, dz, (size_t)c->c_out * ld);
}

void conv_backward_params(const ConvShape *c, const float *col, const float *dz, int ns, float *gw,
                          float *gb)
{
	const size_t ld = positions(c) * (size_t)ns;
	blas_sgemm(0, 1, (int)layers_rows(c), c->c_out, (int)ld, 1.0f, col, (int)ld, dz, (int)ld,
	           0.0f, gw, c->c_out);
	for (int ch = 0; ch < c->c_out; ch++) {
		const float *r = dz + (size_t)ch * ld;
		double s = 0.0;
		for (size_t j = 0; j < ld; j++)
			s += r[j];
		gb[ch] = (float)s;
	}
}

void conv_backward_input(const ConvShape *c, const float *W, const float *dz, int ns, float *col,
                         float *gin, size_t ldgin)
{
	const size_t ld = positions(c) * (size_t)ns;
	blas_sgemm(0, 0, (int)layers_rows(c), (int)ld, c->c_out, 1.0f, W, c->c_out, dz, (int)ld,
	           0.0f, col, (int)ld);
	size_t in = (size_t)c->c_in * c->h_in * c->w_in;
	for (int s = 0; s < ns; s++)
		memset(gin + (size_t)s * ldgin, 0, in * sizeof *gin);
	conv_col2im(c, col, ns, gin, ldgin);
}
