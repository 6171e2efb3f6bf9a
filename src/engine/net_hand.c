/* net_hand.c - a network changed by hand (net_hand.h): neurons, hidden
 * layers and inputs added or removed, every other weight and its Adam state
 * kept. A neuron goes through net_edit.c's structural edits; a layer or the inputs make
 * a network of the new widths and copy the layers that stay. */
#include "engine/net_hand.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"

/* A zero network of widths n[0..m] with net's activation, Adam step count,
 * schedule and record of its last training (not its preprocessing). */
static Net *shaped(const Net *net, int m, const int *n, Err *e)
{
	Net *r = net_new(m, n, net->act, net->act_a, e);
	if (!r)
		return NULL;
	r->adam_t = net->adam_t;
	r->sched = net->sched;
	r->sched_st = net->sched_st;
	r->run = net->run;
	return r;
}

/* net takes the contents of r (freed); net's preprocessing stays unless
 * drop_prep. */
static void take(Net *net, Net *r, int drop_prep)
{
	Prep *keep = drop_prep ? NULL : net->prep;
	if (drop_prep)
		prep_free(net->prep);
	net->prep = NULL;
	free(net->n);
	free(net->W);
	free(net->b);
	free(net->param);
	free(net->adam_m);
	free(net->adam_v);
	*net = *r;
	net->prep = keep;
	free(r);
}

/* The offset of weight layer i (0-based) in the parameter buffer, and its
 * size, W and b. */
static size_t layer_at(const Net *net, int i)
{
	return (size_t)(net->W[i] - net->param);
}

static size_t layer_len(const Net *net, int i)
{
	return ((size_t)net->n[i] + 1) * (size_t)net->n[i + 1];
}

/* Weight layer i of src into weight layer k of dst (the same shape): the
 * parameters and both Adam moments. */
static void copy_layer(Net *dst, int k, const Net *src, int i)
{
	size_t a = layer_at(dst, k), b = layer_at(src, i), len = layer_len(src, i);
	memcpy(dst->param + a, src->param + b, len * sizeof(float));
	memcpy(dst->adam_m + a, src->adam_m + b, len * sizeof(float));
	memcpy(dst->adam_v + a, src->adam_v + b, len * sizeof(float));
}

/* The edits by hand are those of a dense network: -1 with a message naming
 * what was asked when net has convolution layers. */
static int refuse_conv(const Net *net, const char *what, Err *e)
{
	if (net_has_conv(net))
		return err_set(e,
		               "%s: this network has convolution layers; changes by hand "
		               "are made to dense networks only",
		               what);
	return 0;
}

static int check_hidden(const Net *net, int layer, Err *e)
{
	if (layer < 1 || layer > net->m - 1)
		return err_set(e, "layer %d is not a hidden layer (expected 1..%d)", layer,
		               net->m - 1);
	return 0;
}

int net_hand_add_neuron(Net *net, int layer, uint64_t seed, Err *e)
{
	if (refuse_conv(net, "a neuron added by hand", e) || check_hidden(net, layer, e))
		return -1;
	Rng r;
	rng_seed(&r, seed);
	if (net_add_neurons(net, layer, 1, &r, e) < 0)
		return -1;
	/* its outgoing row, small: the outputs barely move until it trains */
	int j = net->n[layer] - 1, cols = net->n[layer + 1];
	double lim = NET_HAND_SMALL * sqrt(6.0 / (net->n[layer] + cols));
	for (int c = 0; c < cols; c++)
		net->W[layer][(size_t)j * cols + c] = (float)((2.0 * rng_uniform(&r) - 1.0) * lim);
	return 0;
}

int net_hand_remove_neuron(Net *net, int layer, int j, Err *e)
{
	if (refuse_conv(net, "a neuron removed by hand", e))
		return -1;
	return net_remove_neuron(net, layer, j, e);
}

int net_hand_add_layer(Net *net, int after, Err *e)
{
	int m = net->m;
	if (refuse_conv(net, "a layer added by hand", e))
		return -1;
	if (after < 0 || after > m - 1)
		return err_set(e, "a layer after layer %d: expected 0 (the inputs) to %d", after,
		               m - 1);
	int *n = malloc((size_t)(m + 2) * sizeof *n);
	if (!n)
		return err_set(e, "out of memory adding a layer");
	for (int i = 0, k = 0; i <= m; i++) {
		n[k++] = net->n[i];
		if (i == after)
			n[k++] = net->n[i];
	}
	Net *r = shaped(net, m + 1, n, e);
	free(n);
	if (!r)
		return -1;
	for (int i = 0; i < m; i++)
		copy_layer(r, i < after ? i : i + 1, net, i);
	/* the new weight layer `after`: the identity, bias 0 */
	int w = net->n[after];
	for (int j = 0; j < w; j++)
		r->W[after][(size_t)j * w + j] = 1.0f;
	take(net, r, 0);
	return 0;
}

int net_hand_remove_layer(Net *net, int layer, Err *e)
{
	if (refuse_conv(net, "a layer removed by hand", e) || check_hidden(net, layer, e))
		return -1;
	int m = net->m;
	int *n = malloc((size_t)m * sizeof *n);
	if (!n)
		return err_set(e, "out of memory removing layer %d", layer);
	for (int i = 0, k = 0; i <= m; i++)
		if (i != layer)
			n[k++] = net->n[i];
	Net *r = shaped(net, m - 1, n, e);
	free(n);
	if (!r)
		return -1;
	for (int i = 0; i < m; i++)
		if (i < layer - 1 || i > layer)
			copy_layer(r, i < layer - 1 ? i : i - 1, net, i);
	/* W' = W⁽ˡ⁾ W⁽ˡ⁺¹⁾ and b' = b⁽ˡ⁾ W⁽ˡ⁺¹⁾ + b⁽ˡ⁺¹⁾, summed in double */
	const float *A = net->W[layer - 1], *a = net->b[layer - 1], *B = net->W[layer],
	            *b = net->b[layer];
	int rows = net->n[layer - 1], mid = net->n[layer], cols = net->n[layer + 1];
	float *W = r->W[layer - 1], *bias = r->b[layer - 1];
	for (int c = 0; c < cols; c++) {
		for (int i = 0; i < rows; i++) {
			double s = 0;
			for (int j = 0; j < mid; j++)
				s += (double)A[(size_t)i * mid + j] * B[(size_t)j * cols + c];
			W[(size_t)i * cols + c] = (float)s;
		}
		double s = b[c];
		for (int j = 0; j < mid; j++)
			s += (double)a[j] * B[(size_t)j * cols + c];
		bias[c] = (float)s;
	}
	take(net, r, 0);
	return 0;
}

int net_hand_inputs(Net *net, const int *src, int d, uint64_t seed, Err *e)
{
	if (refuse_conv(net, "inputs changed by hand", e))
		return -1;
	for (int r = 0; r < d; r++)
		if (src[r] >= net->n[0])
			return err_set(e, "input %d: the network has %d", src[r] + 1, net->n[0]);
	int *n = malloc((size_t)(net->m + 1) * sizeof *n);
	if (!n)
		return err_set(e, "out of memory changing the inputs");
	memcpy(n, net->n, (size_t)(net->m + 1) * sizeof *n);
	n[0] = d;
	Net *r = shaped(net, net->m, n, e);
	free(n);
	if (!r)
		return -1;
	for (int i = 1; i < net->m; i++)
		copy_layer(r, i, net, i);
	Rng g;
	rng_seed(&g, seed);
	int cols = net->n[1];
	double lim = NET_HAND_SMALL * sqrt(6.0 / (d + cols));
	for (int k = 0; k < d; k++) {
		size_t to = (size_t)k * cols;
		if (src[k] >= 0) {
			size_t from = (size_t)src[k] * cols;
			memcpy(r->W[0] + to, net->W[0] + from, (size_t)cols * sizeof(float));
			memcpy(r->adam_m + to, net->adam_m + from, (size_t)cols * sizeof(float));
			memcpy(r->adam_v + to, net->adam_v + from, (size_t)cols * sizeof(float));
		} else {
			for (int c = 0; c < cols; c++)
				r->W[0][to + c] = (float)((2.0 * rng_uniform(&g) - 1.0) * lim);
		}
	}
	/* the first layer's bias, after its d rows */
	size_t bo = (size_t)d * cols, bi = (size_t)net->n[0] * cols;
	memcpy(r->param + bo, net->param + bi, (size_t)cols * sizeof(float));
	memcpy(r->adam_m + bo, net->adam_m + bi, (size_t)cols * sizeof(float));
	memcpy(r->adam_v + bo, net->adam_v + bi, (size_t)cols * sizeof(float));
	take(net, r, 1);
	return 0;
}
