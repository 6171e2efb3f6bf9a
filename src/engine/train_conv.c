/* train_conv.c - the convolution layers' workspaces and parts of a
 * mini-batch's passes. */
#include "engine/train_conv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/pool.h"
#include "base/vec4.h"
#include "engine/conv.h"

/* Floats in a 64-byte cache line, as train_pass.c cuts its parts. */
#define ALIGN 16

typedef struct ConvLayerWork {
	float *col;    /* B samples' columns; part p's block from its first sample on */
	float *z, *y;  /* the block's pre-activations and activations, channel-major */
	int32_t *arg;  /* B × n[i+1]: where each pooled maximum lies in its block's y */
	float *gout;   /* B × ld: the gradient of the layer's outputs (but the last's) */
	size_t ld;     /* the row stride of gout */
	float *slot;   /* parts × stride: each part's weight and bias gradients */
	size_t params; /* the layer's W and b */
	size_t stride; /* params rounded up to a cache line */
} ConvLayerWork;

struct ConvWork {
	int nconv, parts;
	ConvLayerWork *l;
	float *dz; /* B samples' pre-activation gradients (the largest layer's) */
};

static float *falloc(size_t n)
{
	void *p = NULL;
	if (posix_memalign(&p, 64, (n ? n : 1) * sizeof(float)))
		return NULL;
	return p;
}

void conv_work_free(ConvWork *cw)
{
	if (!cw)
		return;
	for (int i = 0; cw->l && i < cw->nconv; i++) {
		ConvLayerWork *l = &cw->l[i];
		free(l->col);
		free(l->z);
		free(l->y);
		free(l->arg);
		free(l->gout);
		free(l->slot);
	}
	free(cw->l);
	free(cw->dz);
	free(cw);
}

ConvWork *conv_work_new(const Net *net, int B, int parts)
{
	ConvWork *cw = calloc(1, sizeof *cw);
	if (!cw)
		return NULL;
	cw->nconv = net->nconv;
	cw->parts = parts;
	if (!(cw->l = calloc((size_t)net->nconv, sizeof *cw->l)))
		goto fail;
	size_t most = 1;
	for (int i = 0; i < net->nconv; i++) {
		const ConvShape *c = &net->conv[i];
		ConvLayerWork *l = &cw->l[i];
		size_t map = conv_map_floats(c, B);
		most = map > most ? map : most;
		l->params = net_layer_params(net, i);
		l->stride = (l->params + ALIGN - 1) / ALIGN * ALIGN;
		l->ld = ((size_t)net->n[i + 1] + ALIGN - 1) / ALIGN * ALIGN;
		if (!(l->col = falloc(conv_col_floats(c, B))) || !(l->z = falloc(map)) ||
		    !(l->y = falloc(map)) || !(l->slot = falloc((size_t)parts * l->stride)))
			goto fail;
		if (c->pool && !(l->arg = malloc((size_t)B * net->n[i + 1] * sizeof *l->arg)))
			goto fail;
		if (i < net->nconv - 1 && !(l->gout = falloc((size_t)B * l->ld)))
			goto fail;
	}
	if (!(cw->dz = falloc(most)))
		goto fail;
	return cw;
fail:
	conv_work_free(cw);
	return NULL;
}

/* Part p's run of the rows [*lo, *hi) of a batch of `rows`. */
static void run_of(const ConvWork *cw, int rows, int p, int *lo, int *hi)
{
	pool_split(rows, cw->parts, p, 1, lo, hi);
}

void conv_work_forward(ConvWork *cw, const Net *net, int i, int p, int rows, const float *in,
                       size_t ldin, float *out, size_t ldout)
{
	const ConvShape *c = &net->conv[i];
	ConvLayerWork *l = &cw->l[i];
	int lo, hi;
	run_of(cw, rows, p, &lo, &hi);
	if (lo >= hi)
		return;
	conv_forward(c, net->act, net->act_a, net->W[i], net->b[i], in + (size_t)lo * ldin, ldin,
	             hi - lo, l->col + conv_col_floats(c, lo), l->z + conv_map_floats(c, lo),
	             l->y + conv_map_floats(c, lo),
	             l->arg ? l->arg + (size_t)lo * net->n[i + 1] : NULL, out + (size_t)lo * ldout,
	             ldout);
}

int conv_work_backward(ConvWork *cw, const Net *net, int i, int p, int rows, const float *g,
                       size_t ldg)
{
	const ConvShape *c = &net->conv[i];
	ConvLayerWork *l = &cw->l[i];
	float *gw = l->slot + (size_t)p * l->stride;
	float *gb = gw + layers_rows(c) * c->c_out;
	int lo, hi;
	run_of(cw, rows, p, &lo, &hi);
	if (lo >= hi) {
		memset(gw, 0, l->params * sizeof *gw);
		return 0;
	}
	int ns = hi - lo;
	float *col = l->col + conv_col_floats(c, lo), *dz = cw->dz + conv_map_floats(c, lo);
	conv_backward_act(c, net->act, net->act_a, g + (size_t)lo * ldg, ldg,
	                  l->arg ? l->arg + (size_t)lo * net->n[i + 1] : NULL,
	                  l->z + conv_map_floats(c, lo), l->y + conv_map_floats(c, lo), ns, dz);
	conv_backward_params(c, col, dz, ns, gw, gb);
	if (i > 0) {
		ConvLayerWork *below = &cw->l[i - 1];
		conv_backward_input(c, net->W[i], dz, ns, col, below->gout + (size_t)lo * below->ld,
		                    below->ld);
	}
	return vec_all_finite(gw, l->params) ? 0 : -1;
}

const float *conv_work_grad_rows(const ConvWork *cw, int i, size_t *ld)
{
	*ld = cw->l[i].ld;
	return cw->l[i].gout;
}

int conv_work_reduce(ConvWork *cw, const Net *net, int p, float *grad)
{
	int ok = 1;
	for (int i = 0; i < cw->nconv; i++) {
		ConvLayerWork *l = &cw->l[i];
		float *dst = grad + (net->W[i] - net->param);
		int lo, hi;
		pool_split((int)l->params, cw->parts, p, ALIGN, &lo, &hi);
		if (lo >= hi)
			continue;
		memcpy(dst + lo, l->slot + lo, (size_t)(hi - lo) * sizeof *dst);
		for (int q = 1; q < cw->parts; q++) {
			const float *s = l->slot + (size_t)q * l->stride;
			for (int j = lo; j < hi; j++)
				dst[j] += s[j];
		}
		ok &= vec_all_finite(dst + lo, (size_t)(hi - lo));
	}
	return ok ? 0 : -1;
}
