/* conv_maps.c - the maps of one convolution layer on one input, and those
 * of combinations of its channels, through the layer's own forward pass. */
#include "engine/conv_maps.h"

#include <stdlib.h>
#include <string.h>

#include "engine/conv.h"
#include "engine/train.h"

int conv_channel_maps(const Net *net, int layer, const float *x, float *out, const int *idx, int n,
                      const double *coef, int ncomb, float *comb, Err *e)
{
	if (!net || layer < 1 || layer > net->nconv)
		return err_set(e, "layer %d is not a convolution layer (expected 1..%d)", layer,
		               net ? net->nconv : 0);
	const ConvShape *cs = &net->conv[layer - 1];
	for (int k = 0; k < n; k++)
		if (idx[k] < 0 || idx[k] >= cs->c_out)
			return err_set(e, "layer %d: channel %d does not exist (expected 0..%d)",
			               layer, idx[k], cs->c_out - 1);
	int rows = (int)layers_rows(cs), C = cs->c_out, din = net->n[layer - 1];
	size_t P = (size_t)cs->h_conv * cs->w_conv;
	float *in = layer > 1 ? malloc((size_t)din * sizeof *in) : NULL;
	float *col = malloc(conv_col_floats(cs, 1) * sizeof *col);
	float *z = malloc((size_t)C * P * sizeof *z), *y = malloc((size_t)C * P * sizeof *y);
	float *w1 = malloc((size_t)rows * sizeof *w1);
	int rc = -1;
	if ((layer > 1 && !in) || !col || !z || !y || !w1) {
		err_set(e, "layer %d: out of memory for its maps", layer);
		goto out;
	}
	if (layer > 1 && net_forward(net, x, 1, layer - 1, in, e))
		goto out;
	const float *src = layer > 1 ? in : x;
	conv_forward(cs, net->act, net->act_a, net->W[layer - 1], net->b[layer - 1], src,
	             (size_t)din, 1, col, z, y, NULL, out, (size_t)layers_out_width(cs));
	/* a combination: the layer with that one channel */
	ConvShape one = *cs;
	one.c_out = 1;
	const float *W = net->W[layer - 1], *b = net->b[layer - 1];
	for (int r = 0; r < ncomb; r++) {
		const double *c = coef + (size_t)r * n;
		double bias = 0;
		for (int i = 0; i < rows; i++) {
			double v = 0;
			for (int k = 0; k < n; k++)
				v += c[k] * W[(size_t)i * C + idx[k]];
			w1[i] = (float)v;
		}
		for (int k = 0; k < n; k++)
			bias += c[k] * b[idx[k]];
		float b1 = (float)bias;
		size_t per = (size_t)cs->h_out * cs->w_out;
		conv_forward(&one, net->act, net->act_a, w1, &b1, src, (size_t)din, 1, col, z, y,
		             NULL, comb + (size_t)r * per, per);
	}
	rc = 0;
out:
	free(in);
	free(col);
	free(z);
	free(y);
	free(w1);
	return rc;
}
