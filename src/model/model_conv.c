/* model_conv.c - the model file's record of the convolution layers. */
#include "model/model_conv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_bytes.h"

uint64_t model_conv_bytes(uint64_t nconv)
{
	return 4 + MODEL_CONV_LAYER_BYTES * nconv;
}

void model_conv_put(unsigned char *p, const Net *net)
{
	put_u32(p, (uint32_t)net->nconv);
	for (int i = 0; i < net->nconv; i++) {
		const ConvShape *c = &net->conv[i];
		unsigned char *q = p + 4 + MODEL_CONV_LAYER_BYTES * (size_t)i;
		uint32_t v[8] = {
		    (uint32_t)c->c_in, (uint32_t)c->h_in, (uint32_t)c->w_in, (uint32_t)c->c_out,
		    (uint32_t)c->k,    (uint32_t)c->pad,  (uint32_t)c->pool, 0};
		for (int j = 0; j < 8; j++)
			put_u32(q + 4 * j, v[j]);
	}
}

uint32_t model_conv_count(const unsigned char *p)
{
	return get_u32(p);
}

int model_conv_get(const unsigned char *p, uint32_t m, const int *n, ConvShape **cs,
                   const char *path, uint64_t off, Err *e)
{
	uint32_t nconv = get_u32(p);
	*cs = NULL;
	if (nconv >= m)
		return err_set(e,
		               "%s: %u convolution layers at offset %llu in a network of %u layers "
		               "(its output layer is dense)",
		               path, nconv, (unsigned long long)off, m);
	if (nconv == 0)
		return 0;
	ConvShape *s = calloc(nconv, sizeof *s);
	if (!s)
		return err_set(e, "%s: out of memory", path);
	for (uint32_t i = 0; i < nconv; i++) {
		const unsigned char *q = p + 4 + MODEL_CONV_LAYER_BYTES * (size_t)i;
		uint32_t v[8];
		int big = 0;
		for (int j = 0; j < 8; j++)
			big |= (v[j] = get_u32(q + 4 * j)) > LAYERS_MAX_SIDE * 256u;
		if (big || v[7]) {
			free(s);
			return err_set(e, "%s: convolution layer %u at offset %llu is not valid",
			               path, i + 1,
			               (unsigned long long)off + 4 + MODEL_CONV_LAYER_BYTES * i);
		}
		s[i] = (ConvShape){.c_in = (int)v[0],
		                   .h_in = (int)v[1],
		                   .w_in = (int)v[2],
		                   .c_out = (int)v[3],
		                   .k = (int)v[4],
		                   .pad = (int)v[5],
		                   .pool = (int)v[6]};
		ConvShape *c = &s[i];
		c->h_conv = c->h_in + 2 * c->pad - c->k + 1;
		c->w_conv = c->w_in + 2 * c->pad - c->k + 1;
		c->h_out = c->pool ? c->h_conv / 2 : c->h_conv;
		c->w_out = c->pool ? c->w_conv / 2 : c->w_conv;
	}
	char what[300];
	snprintf(what, sizeof what, "%s: the convolution layers at offset %llu", path,
	         (unsigned long long)off);
	int rc = layers_check(s, (int)nconv, what, e);
	for (uint32_t i = 0; rc == 0 && i <= nconv; i++) {
		long want =
		    i == 0 ? (long)s[0].c_in * s[0].h_in * s[0].w_in : layers_out_width(&s[i - 1]);
		if (want != n[i])
			rc = err_set(e, "%s: width n[%u] = %d, but the maps there hold %ld values",
			             path, i, n[i], want);
	}
	if (rc)
		free(s);
	else
		*cs = s;
	return rc;
}

uint64_t model_layer_params(const int *n, int i, int nconv, const ConvShape *cs)
{
	if (i < nconv)
		return ((uint64_t)layers_rows(&cs[i]) + 1) * (uint64_t)cs[i].c_out;
	return ((uint64_t)n[i] + 1) * (uint64_t)n[i + 1];
}
