/* net_edit.c - the structural edits of a network that carry its
 * parameters and Adam state: a hidden layer keeps some of its units (the
 * neurons of a dense layer, the channels of a convolution), gains new ones,
 * or the whole network is made again with other unit counts. */
#include "engine/net.h"

#include "engine/limits.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The shapes of net's convolutions with hidden layer L holding nnew
 * units: its output channels, and the input channels of the convolution
 * after it (malloc'd; NULL for a dense network). */
static ConvShape *shapes_with(const Net *net, int L, int nnew)
{
	if (!net->nconv)
		return NULL;
	ConvShape *cs = malloc((size_t)net->nconv * sizeof *cs);
	if (!cs)
		return NULL;
	memcpy(cs, net->conv, (size_t)net->nconv * sizeof *cs);
	if (L <= net->nconv)
		cs[L - 1].c_out = nnew;
	if (L < net->nconv)
		cs[L].c_in = nnew;
	return cs;
}

/* The widths n[0..m] of a network whose convolutions are cs (NULL: none)
 * and whose hidden layer L holds nnew units, into n2. */
static void widths_with(const Net *net, const ConvShape *cs, int L, int nnew, int *n2)
{
	memcpy(n2, net->n, (size_t)(net->m + 1) * sizeof *n2);
	n2[L] = L <= net->nconv ? (int)layers_out_width(&cs[L - 1]) : nnew;
}

/* Copies one buffer (parameters or a moment) of net into the layout of
 * to, where hidden layer L's unit j of to is net's unit src[j], or new
 * (zeros) when src[j] < 0. A unit is a column of W⁽ᴸ⁾ and an entry of b⁽ᴸ⁾
 * (incoming), and a block of g consecutive rows of W⁽ᴸ⁺¹⁾ (outgoing: g is 1
 * for a neuron, K² for a channel a convolution reads, its map's positions
 * for a channel the flatten reads). */
static void remap(const Net *net, const Net *to, int L, const int *src, const float *old,
                  float *dst)
{
	int nnew = net_cols(to, L - 1);
	size_t g = (size_t)net_unit_rows(net, L);
	for (int i = 0; i < net->m; i++) {
		size_t rows = (size_t)net_rows(net, i), cols = (size_t)net_cols(net, i);
		size_t ocount = (rows + 1) * cols;
		if (i == L - 1) {
			/* incoming W (rows × cols → rows × nnew), then the bias */
			for (size_t r = 0; r <= rows; r++)
				for (int j = 0; j < nnew; j++)
					dst[r * nnew + j] =
					    src[j] >= 0 ? old[r * cols + src[j]] : 0.0f;
			dst += (rows + 1) * nnew;
		} else if (i == L) {
			/* outgoing W (units·g × cols → nnew·g × cols), then the bias as is */
			size_t block = g * cols;
			for (int j = 0; j < nnew; j++) {
				if (src[j] >= 0)
					memcpy(dst + (size_t)j * block,
					       old + (size_t)src[j] * block, block * sizeof *dst);
				else
					memset(dst + (size_t)j * block, 0, block * sizeof *dst);
			}
			memcpy(dst + (size_t)nnew * block, old + rows * cols, cols * sizeof *dst);
			dst += (size_t)nnew * block + cols;
		} else {
			memcpy(dst, old, ocount * sizeof *dst);
			dst += ocount;
		}
		old += ocount;
	}
}

/* Hidden layer L of net holds the units src[0..nnew) of before (src[j]
 * < 0: a new unit, its incoming weights drawn from Glorot uniform when rng
 * is given, zeros otherwise, its outgoing weights zeros). */
static int rebuild(Net *net, int L, const int *src, int nnew, Rng *rng, Err *e)
{
	int *n2 = malloc((size_t)(net->m + 1) * sizeof *n2);
	ConvShape *cs = shapes_with(net, L, nnew);
	Net *to = NULL;
	if (n2 && (cs || !net->nconv)) {
		widths_with(net, cs, L, nnew, n2);
		to = net_new_conv(net->m, n2, net->nconv, cs, net->act, net->act_a, e);
	} else {
		err_set(e, "out of memory");
	}
	free(n2);
	free(cs);
	if (!to)
		return err_prefix(e, "hidden layer %d resized to %d %s", L, nnew,
		                  net_unit_name(net, L, 1));
	remap(net, to, L, src, net->param, to->param);
	remap(net, to, L, src, net->adam_m, to->adam_m);
	remap(net, to, L, src, net->adam_v, to->adam_v);
	if (rng) {
		float *w = to->W[L - 1];
		int fan_in = net_rows(to, L - 1);
		double k2 = L <= to->nconv ? (double)to->conv[L - 1].k * to->conv[L - 1].k : 1.0;
		double lim = sqrt(6.0 / (fan_in + nnew * k2));
		for (int r = 0; r < fan_in; r++)
			for (int j = 0; j < nnew; j++)
				if (src[j] < 0)
					w[(size_t)r * nnew + j] =
					    (float)((2.0 * rng_uniform(rng) - 1.0) * lim);
	}
	/* the new layout into net, which keeps everything else */
	Net old = *net;
	net->n = to->n;
	net->nparam = to->nparam;
	net->param = to->param;
	net->adam_m = to->adam_m;
	net->adam_v = to->adam_v;
	net->W = to->W;
	net->b = to->b;
	net->conv = to->conv;
	to->n = old.n;
	to->param = old.param;
	to->adam_m = old.adam_m;
	to->adam_v = old.adam_v;
	to->W = old.W;
	to->b = old.b;
	to->conv = old.conv;
	net_free(to);
	return 0;
}

static int check_hidden(const Net *net, int layer, Err *e)
{
	if (layer < 1 || layer > net->m - 1)
		return err_set(e, "layer %d is not a hidden layer (expected 1..%d)", layer,
		               net->m - 1);
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int net_keep_neurons(Net *net, int layer, const int *keep, int nkeep, Err *e)
{
	if (check_hidden(net, layer, e))
		return -1;
	int width = net_units(net, layer);
	const char *units = net_unit_name(net, layer, 1), *unit = net_unit_name(net, layer, 0);
	if (nkeep < 1 || nkeep > width)
		return err_set(e, "hidden layer %d: cannot keep %d of its %d %s", layer, nkeep,
		               width, units);
	int *src = malloc((size_t)nkeep * sizeof *src);
	if (!src)
		return err_set(e, "out of memory");
	memcpy(src, keep, (size_t)nkeep * sizeof *src);
	qsort(src, (size_t)nkeep, sizeof *src, cmp_int);
	for (int j = 0; j < nkeep; j++) {
		if (src[j] < 0 || src[j] >= width || (j > 0 && src[j] == src[j - 1])) {
			int bad = src[j];
			free(src);
			if (bad < 0 || bad >= width)
				return err_set(e, "hidden layer %d: %s %d out of range (0..%d)",
				               layer, unit, bad, width - 1);
			return err_set(e, "hidden layer %d: %s %d listed twice", layer, unit, bad);
		}
	}
	int rc = rebuild(net, layer, src, nkeep, NULL, e);
	free(src);
	return rc;
}

int net_remove_neuron(Net *net, int layer, int j, Err *e)
{
	if (check_hidden(net, layer, e))
		return -1;
	int width = net_units(net, layer);
	if (j < 0 || j >= width)
		return err_set(e, "hidden layer %d: %s %d out of range (0..%d)", layer,
		               net_unit_name(net, layer, 0), j, width - 1);
	if (width == 1)
		return err_set(e, "hidden layer %d: cannot remove its only %s", layer,
		               net_unit_name(net, layer, 0));
	int *keep = malloc((size_t)(width - 1) * sizeof *keep);
	if (!keep)
		return err_set(e, "out of memory");
	for (int k = 0, c = 0; k < width; k++)
		if (k != j)
			keep[c++] = k;
	int rc = rebuild(net, layer, keep, width - 1, NULL, e);
	free(keep);
	return rc;
}

int net_add_neurons(Net *net, int layer, int count, Rng *rng, Err *e)
{
	if (check_hidden(net, layer, e))
		return -1;
	int width = net_units(net, layer);
	if (count < 1 || count > (int)LIMIT_MAX_WIDTH - width)
		return err_set(e, "hidden layer %d: cannot add %d %s to %d", layer, count,
		               net_unit_name(net, layer, 1), width);
	int *src = malloc((size_t)(width + count) * sizeof *src);
	if (!src)
		return err_set(e, "out of memory");
	for (int k = 0; k < width + count; k++)
		src[k] = k < width ? k : -1;
	int rc = rebuild(net, layer, src, width + count, rng, e);
	free(src);
	return rc;
}

/* hidden[0..m-2] become the units of layers 1..m-1. */
Net *net_reshape(const Net *net, const int *hidden, Err *e)
{
	int m = net->m;
	int *w = malloc((size_t)(m + 1) * sizeof *w);
	ConvShape *cs = net->nconv ? malloc((size_t)net->nconv * sizeof *cs) : NULL;
	Net *r = NULL;
	if (!w || (net->nconv && !cs)) {
		err_set(e, "out of memory");
		goto out;
	}
	if (net->nconv)
		memcpy(cs, net->conv, (size_t)net->nconv * sizeof *cs);
	w[0] = net->n[0];
	w[m] = net->n[m];
	for (int i = 1; i < m; i++) {
		if (hidden[i - 1] < 1) {
			err_set(e, "layer %d: %d %s, expected at least 1", i, hidden[i - 1],
			        net_unit_name(net, i, 1));
			goto out;
		}
		if (i <= net->nconv) {
			cs[i - 1].c_out = hidden[i - 1];
			if (i < net->nconv)
				cs[i].c_in = hidden[i - 1];
			/* maps too large for a width: net_new_conv says so */
			long v = layers_out_width(&cs[i - 1]);
			w[i] = v <= INT_MAX ? (int)v : INT_MAX;
		} else {
			w[i] = hidden[i - 1];
		}
	}
	r = net_new_conv(m, w, net->nconv, cs, net->act, net->act_a, e);
	if (r && net_set_prep(r, net->prep, e)) {
		net_free(r);
		r = NULL;
	}
out:
	free(w);
	free(cs);
	return r;
}

Net *net_fresh_like(const Net *shape, const int *units, uint64_t seed, Err *e)
{
	if (!shape->nconv)
		return net_fresh(shape->m, units, shape->act, shape->act_a, seed, e);
	Net *net = net_reshape(shape, units + 1, e);
	if (!net)
		return NULL;
	net_set_prep(net, NULL, NULL);
	Rng r;
	rng_seed(&r, seed);
	net_init_glorot(net, &r);
	return net;
}
