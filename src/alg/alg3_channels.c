/* alg3_channels.c - compensation for the channels a squeeze removes from a
 * convolution layer (not in the paper): each removed channel as one
 * combination of the kept channels and a constant, the same at every
 * position of the maps, fitted by least squares on the activation maps and
 * folded into the layer after. */
#include "alg/alg3_squeeze.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cond_matrix.h"
#include "engine/hook.h"

/* The channels of 0..C−1 not in keep[0..nkeep), ascending, into rem; how
 * many; -1 when keep names a channel twice or one that does not exist. */
static int removed_of(int C, const int *keep, int nkeep, int *rem)
{
	char *kept = calloc((size_t)C, 1);
	if (!kept)
		return -1;
	int n = 0;
	for (int j = 0; j < nkeep; j++) {
		if (keep[j] < 0 || keep[j] >= C || kept[keep[j]]) {
			free(kept);
			return -1;
		}
		kept[keep[j]] = 1;
	}
	for (int c = 0; c < C; c++)
		if (!kept[c])
			rem[n++] = c;
	free(kept);
	return n;
}

int alg3_channel_fit(const double *Y, int s, int C, int P, const int *keep, int nkeep, double *comb,
                     Err *e)
{
	int *rem = malloc((size_t)C * sizeof *rem);
	if (!rem)
		return err_set(e, "out of memory");
	int nrem = removed_of(C, keep, nkeep, rem), c = nkeep + 1, rc = -1;
	if (nrem < 0) {
		free(rem);
		return err_set(e, "the kept channels are not %d distinct channels of 0..%d", nkeep,
		               C - 1);
	}
	if (nrem == 0) {
		free(rem);
		return 0;
	}
	if ((long)s * P < c) {
		free(rem);
		return err_set(e,
		               "%d maps of %d positions fit no combination of %d kept channels "
		               "(expected at least %d values)",
		               s, P, nkeep, c);
	}
	CondLsq *q = cond_lsq_new(c, nrem, e);
	double *A = malloc((size_t)P * c * sizeof *A);
	double *B = malloc((size_t)P * nrem * sizeof *B);
	if (!q || !A || !B) {
		if (q)
			err_set(e, "out of memory for the fit of %d channels", nrem);
		goto out;
	}
	/* a row per position of every sample's maps */
	for (int i = 0; i < s; i++) {
		const double *y = Y + (size_t)i * C * P;
		for (int p = 0; p < P; p++) {
			for (int j = 0; j < nkeep; j++)
				A[(size_t)p * c + j] = y[(size_t)keep[j] * P + p];
			A[(size_t)p * c + nkeep] = 1.0;
			for (int r = 0; r < nrem; r++)
				B[(size_t)p * nrem + r] = y[(size_t)rem[r] * P + p];
		}
		if ((rc = cond_lsq_add(q, A, B, P, e)) != 0)
			goto out;
		if (hook_thread_stopped()) {
			rc = err_stop(e, "stopped in the fit of the removed channels");
			goto out;
		}
	}
	rc = cond_lsq_solve(q, COND_LSTSQ_RCOND, comb, NULL, e);
	for (size_t i = 0; rc == 0 && i < (size_t)c * nrem; i++)
		if (!(fabs(comb[i]) <= FLT_MAX))
			rc =
			    err_set(e, "the fit gave coefficient %g, outside float range", comb[i]);
out:
	cond_lsq_free(q);
	free(A);
	free(B);
	free(rem);
	return rc;
}

int alg3_channel_fold(const Net *net, int layer, const int *keep, int nkeep, const double *comb,
                      float *W, float *b, Err *e)
{
	int C = net_units(net, layer), g = net_unit_rows(net, layer), q = net_cols(net, layer);
	int *rem = malloc((size_t)C * sizeof *rem);
	if (!rem)
		return err_set(e, "out of memory");
	int nrem = removed_of(C, keep, nkeep, rem);
	if (nrem < 0) {
		free(rem);
		return err_set(e,
		               "layer %d: the kept channels are not %d distinct channels of 0..%d",
		               layer, nkeep, C - 1);
	}
	/* the kept channels' blocks read the removed ones', which stay as they are */
	for (int j = 0; j < nkeep; j++)
		for (int t = 0; t < g; t++)
			for (int k = 0; k < q; k++) {
				double v = W[((size_t)keep[j] * g + t) * q + k];
				for (int r = 0; r < nrem; r++)
					v += comb[(size_t)j * nrem + r] *
					     W[((size_t)rem[r] * g + t) * q + k];
				W[((size_t)keep[j] * g + t) * q + k] = (float)v;
			}
	/* a removed channel's constant reaches every output through all its rows
	 * (exactly for the flatten and unpadded convolutions; a padded one's
	 * border positions see part of it) */
	for (int k = 0; k < q; k++) {
		double v = b[k];
		for (int r = 0; r < nrem; r++) {
			double sum = 0;
			for (int t = 0; t < g; t++)
				sum += W[((size_t)rem[r] * g + t) * q + k];
			v += comb[(size_t)nkeep * nrem + r] * sum;
		}
		b[k] = (float)v;
	}
	free(rem);
	for (size_t i = 0; i < (size_t)C * g * q; i++)
		if (!(fabsf(W[i]) <= FLT_MAX))
			return err_set(e, "layer %d: the folded weights overflow float", layer + 1);
	return 0;
}
