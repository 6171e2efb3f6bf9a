/* alg3_compensate.c - compensation for a squeeze (not in the paper): the
 * layer after the squeezed one is refitted by least squares so that its
 * pre-activations change as little as possible. */
#include "alg/alg3_squeeze.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/blas.h"
#include "engine/cond.h"
#include "engine/cond_matrix.h"
#include "engine/train.h"

int alg3_refit(const double *Y, int s, int n, const double *Z, int q, const int *keep, int nkeep,
               double *sol, Err *e)
{
	int c = nkeep + 1;
	if (nkeep < 1 || s < c)
		return err_set(e, "a refit of %d kept neurons on %d rows (expected at least %d)",
		               nkeep, s, c);
	for (int j = 0; j < nkeep; j++)
		if (keep[j] < 0 || keep[j] >= n)
			return err_set(e, "kept neuron %d does not exist (expected 0..%d)", keep[j],
			               n - 1);
	double *a = malloc((size_t)s * c * sizeof *a);
	if (!a)
		return err_set(e, "out of memory for the refit on %d rows", s);
	for (int i = 0; i < s; i++) {
		for (int j = 0; j < nkeep; j++)
			a[(size_t)i * c + j] = Y[(size_t)i * n + keep[j]];
		a[(size_t)i * c + nkeep] = 1.0;
	}
	int rc = cond_lstsq(a, s, c, Z, q, sol, e);
	free(a);
	for (size_t i = 0; rc == 0 && i < (size_t)c * q; i++)
		if (!(fabs(sol[i]) <= FLT_MAX))
			rc = err_set(e, "the refit gave weight %g, outside float range", sol[i]);
	return rc;
}

int alg3_activations(const Net *net, int layer, const Dataset *sample, int maxrows, double **Y,
                     int *rows, Err *e)
{
	*Y = NULL;
	*rows = 0;
	if (!sample)
		return err_set(e, "the refit needs a sample of training inputs (none given)");
	if (sample->d != net->n[0])
		return err_set(e, "the sample has %d features, the network %d inputs", sample->d,
		               net->n[0]);
	/* at most maxrows rows, evenly spaced so a sample sorted by class is covered */
	int s = sample->n < maxrows ? sample->n : maxrows, n = net->n[layer], d = sample->d;
	if (s < 1)
		return err_set(e, "the sample has no rows");
	float *x = malloc((size_t)s * d * sizeof *x);
	float *y = malloc((size_t)s * n * sizeof *y);
	double *yd = malloc((size_t)s * n * sizeof *yd);
	int rc = -1;
	if (!x || !y || !yd) {
		err_set(e, "layer %d: out of memory for its activations on %d rows", layer, s);
		goto out;
	}
	for (int i = 0; i < s; i++) {
		long r = (long)i * sample->n / s;
		memcpy(x + (size_t)i * d, sample->x + (size_t)r * d, (size_t)d * sizeof *x);
	}
	if (net_forward(net, x, s, layer, y, e))
		goto out;
	for (size_t i = 0; i < (size_t)s * n; i++)
		yd[i] = y[i];
	*Y = yd;
	*rows = s;
	yd = NULL;
	rc = 0;
out:
	free(x);
	free(y);
	free(yd);
	return rc;
}

/* Compensation of a convolution layer (alg3_channel_fit and _fold): each
 * removed channel as one combination of the kept ones and a constant,
 * fitted on the maps of the sample's rows, folded into the next layer. */
static int compensate_channels(Net *net, int layer, const int *keep, int nkeep,
                               const Dataset *sample, int maxrows, Err *e)
{
	int s, C = net_units(net, layer), P = net->n[layer] / C, rc = -1;
	size_t wlen = (size_t)net_rows(net, layer) * net_cols(net, layer);
	double *y = NULL;
	if (alg3_activations(net, layer, sample, maxrows, &y, &s, e))
		return err_prefix(e, "layer %d: compensation", layer);
	double *comb = malloc(((size_t)nkeep + 1) * C * sizeof *comb);
	float *W = malloc(wlen * sizeof *W);
	float *b = malloc((size_t)net_cols(net, layer) * sizeof *b);
	if (!comb || !W || !b) {
		err_set(e, "layer %d: out of memory for the refit on %d rows", layer, s);
		goto out;
	}
	memcpy(W, net->W[layer], wlen * sizeof *W);
	memcpy(b, net->b[layer], (size_t)net_cols(net, layer) * sizeof *b);
	if ((rc = alg3_channel_fit(y, s, C, P, keep, nkeep, comb, e)) != 0 ||
	    (rc = alg3_channel_fold(net, layer, keep, nkeep, comb, W, b, e)) != 0) {
		err_prefix(e, "layer %d: compensation", layer);
		goto out;
	}
	memcpy(net->W[layer], W, wlen * sizeof *W);
	memcpy(net->b[layer], b, (size_t)net_cols(net, layer) * sizeof *b);
out:
	free(y);
	free(comb);
	free(W);
	free(b);
	return rc;
}

/* Compensation (not in the paper). With Y (s×n) the activations of layer
 * i on s sample inputs, K the kept and R the removed neurons, layer i+1 sees
 * the pre-activations
 *     Z = Y_K W_K + Y_R W_R + 1 bᵀ        (W = W⁽ⁱ⁺¹⁾, b = b⁽ⁱ⁺¹⁾).
 * After the removal it can only see Y_K, so W_K and b are replaced by the
 * least-squares solution of
 *     min ‖[Y_K 1] [W'_K; b'ᵀ] − Z‖_F
 * (alg3_refit: cond_lstsq, pivoted QR). If each removed neuron's
 * activation is an affine function of the kept ones, Z is reproduced
 * exactly. (The same as each removed neuron replaced by its least-squares
 * combination of the kept ones and a constant, folded into W⁽ⁱ⁺¹⁾: the
 * solution is linear in Z; a convolution layer's channels are compensated
 * that way, compensate_channels.) */
static int compensate(Net *net, int layer, const int *keep, int nkeep, const Dataset *sample,
                      int maxrows, Err *e)
{
	if (!sample)
		return err_set(e, "compensation needs a sample of training inputs (none given)");
	if (sample->d != net->n[0])
		return err_set(e, "the sample has %d features, the network %d inputs", sample->d,
		               net->n[0]);
	if (layer <= net->nconv)
		return compensate_channels(net, layer, keep, nkeep, sample, maxrows, e);
	int s = sample->n < maxrows ? sample->n : maxrows;
	if (s < nkeep + 1)
		return err_set(e,
		               "the sample has %d rows, compensation needs at least %d (kept "
		               "neurons + 1)",
		               s, nkeep + 1);
	int n = net->n[layer], q = net->n[layer + 1], c = nkeep + 1;
	for (int j = 0; j < nkeep; j++)
		if (keep[j] < 0 || keep[j] >= n)
			return err_set(e,
			               "layer %d: kept neuron %d does not exist (expected 0..%d)",
			               layer, keep[j], n - 1);
	double *yd = NULL;
	if (alg3_activations(net, layer, sample, maxrows, &yd, &s, e))
		return err_prefix(e, "layer %d: compensation", layer);
	double *w = malloc((size_t)n * q * sizeof *w);
	double *z = malloc((size_t)s * q * sizeof *z);
	double *sol = malloc((size_t)c * q * sizeof *sol);
	int rc = -1;
	if (!w || !z || !sol) {
		err_set(e, "layer %d: out of memory for the refit on %d rows", layer, s);
		goto out;
	}
	const float *W = net->W[layer], *b = net->b[layer];
	for (size_t i = 0; i < (size_t)n * q; i++)
		w[i] = W[i];
	blas_dgemm(0, 0, s, q, n, 1.0, yd, n, w, q, 0.0, z, q);
	for (int i = 0; i < s; i++)
		for (int k = 0; k < q; k++)
			z[(size_t)i * q + k] += b[k];
	if (alg3_refit(yd, s, n, z, q, keep, nkeep, sol, e)) {
		err_prefix(e, "layer %d: compensation", layer);
		goto out;
	}
	float *W2 = net->W[layer], *b2 = net->b[layer];
	for (int j = 0; j < nkeep; j++)
		for (int k = 0; k < q; k++)
			W2[(size_t)keep[j] * q + k] = (float)sol[(size_t)j * q + k];
	for (int k = 0; k < q; k++)
		b2[k] = (float)sol[(size_t)nkeep * q + k];
	rc = 0;
out:
	free(yd);
	free(w);
	free(z);
	free(sol);
	return rc;
}

int alg3_compensate(Net *net, int layer, const int *keep, int nkeep, const Dataset *sample,
                    int maxrows, Err *e)
{
	if (!net)
		return err_set(e, "no network");
	if (layer < 1 || layer > net->m - 1)
		return err_set(e, "layer %d is not a hidden layer (expected 1..%d)", layer,
		               net->m - 1);
	if (nkeep < 1)
		return err_set(e, "layer %d: %d %s kept, expected at least 1", layer, nkeep,
		               net_unit_name(net, layer, 1));
	if (maxrows < 1)
		return err_set(e, "compensation on %d sample rows, expected at least 1", maxrows);
	return compensate(net, layer, keep, nkeep, sample, maxrows, e);
}
