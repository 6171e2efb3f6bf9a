/* alg3_squeeze.c - Algorithm 3: squeeze the hidden layers of a trained
 * network with column-pivoted QR of Ŵ⁽ⁱ⁾, optionally refitting the next
 * layer by least squares to compensate for the removed neurons. */
#include "engine/alg3_squeeze.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/blas.h"
#include "engine/cond.h"
#include "engine/cond_matrix.h"
#include "engine/train.h"

void squeeze_opts_default(SqueezeOpts *o)
{
	o->tau = 30;
	o->while_loop = 1;
	o->compensate = 0;
	o->sample_rows = SQUEEZE_SAMPLE_ROWS;
}

void squeeze_proposal_free(SqueezeProposal *sp)
{
	if (!sp)
		return;
	free(sp->perm);
	free(sp->rdiag);
	free(sp->keep);
	sp->perm = sp->keep = NULL;
	sp->rdiag = NULL;
}

static int check_hidden(const Net *net, int layer, Err *e)
{
	if (!net)
		return err_set(e, "no network");
	if (layer < 1 || layer > net->m - 1)
		return err_set(e, "layer %d is not a hidden layer (expected 1..%d)", layer,
			       net->m - 1);
	return 0;
}

/* Algorithm 3, lines 2-9, for one hidden layer i, Ŵ = Ŵ⁽ⁱ⁾:
 *   if κ(Ŵ) > τ (line 2):
 *     Ŵ P = Q R, |r_11| ≥ |r_22| ≥ … (line 3);
 *     p = #{j : |r_jj| ≥ |r_11|/τ} (line 4, threshold relative);
 *     keep the columns P(:, 1..p) (line 5);
 *     while κ(Ŵ P(:, 1..p)) > τ and p > 1: p = p − 1 (lines 6-9).
 * The neurons kept are perm[0..p). */
int squeeze_propose(const Net *net, int layer, const SqueezeOpts *o, SqueezeProposal *sp, Err *e)
{
	memset(sp, 0, sizeof *sp);
	if (check_hidden(net, layer, e))
		return -1;
	if (!(o->tau >= 1.0) || isinf(o->tau))
		return err_set(e, "τ = %g, expected a finite number ≥ 1", o->tau);
	int rows, cols;
	double *A = cond_stacked(net, layer, NULL, 0, &rows, &cols);
	if (!A)
		return err_set(e, "layer %d: out of memory for Ŵ", layer);
	sp->layer = layer;
	sp->n_before = cols;
	sp->nrdiag = rows < cols ? rows : cols;
	sp->perm = malloc((size_t)cols * sizeof *sp->perm);
	sp->rdiag = malloc((size_t)sp->nrdiag * sizeof *sp->rdiag);
	sp->keep = malloc((size_t)cols * sizeof *sp->keep);
	if (!sp->perm || !sp->rdiag || !sp->keep) {
		err_set(e, "layer %d: out of memory", layer);
		goto fail;
	}
	sp->kappa_before = cond_kappa(A, rows, cols, e);
	if (isnan(sp->kappa_before) || cond_qrpt(A, rows, cols, sp->perm, sp->rdiag, e)) {
		err_prefix(e, "layer %d: Ŵ", layer);
		goto fail;
	}
	free(A);
	A = NULL;
	memcpy(sp->keep, sp->perm, (size_t)cols * sizeof *sp->keep);
	if (sp->kappa_before <= o->tau) {
		sp->p_qr = sp->nkeep = cols;
		sp->kappa_after = sp->kappa_before;
		return 0;
	}
	int p = 0;
	while (p < sp->nrdiag && sp->rdiag[p] > 0.0 && sp->rdiag[p] >= 1.0 / o->tau)
		p++;
	if (p < 1)
		p = 1;
	sp->p_qr = p;
	double k = cond_kappa_columns(net, layer, sp->keep, p, e);
	while (o->while_loop && p > 1 && !isnan(k) && k > o->tau)
		k = cond_kappa_columns(net, layer, sp->keep, --p, e);
	if (isnan(k))
		goto fail;
	sp->nkeep = p;
	sp->kappa_after = k;
	return 0;
fail:
	free(A);
	squeeze_proposal_free(sp);
	return -1;
}

/* Compensation (not in the paper). With Y (s×n) the activations of layer
 * i on s sample inputs, K the kept and R the removed neurons, layer i+1 sees
 * the pre-activations
 *     Z = Y_K W_K + Y_R W_R + 1 bᵀ        (W = W⁽ⁱ⁺¹⁾, b = b⁽ⁱ⁺¹⁾).
 * After the removal it can only see Y_K, so W_K and b are replaced by the
 * least-squares solution of
 *     min ‖[Y_K 1] [W'_K; b'ᵀ] − Z‖_F
 * (cond_lstsq, pivoted QR). If each removed neuron's activation is an affine
 * function of the kept ones, Z is reproduced exactly. */
static int compensate(Net *net, int layer, const int *keep, int nkeep, const Dataset *sample,
		      int maxrows, Err *e)
{
	if (!sample)
		return err_set(e, "compensation needs a sample of training inputs (none given)");
	if (sample->d != net->n[0])
		return err_set(e, "the sample has %d features, the network %d inputs", sample->d,
			       net->n[0]);
	/* at most maxrows rows, evenly spaced so a sample sorted by class is covered */
	int s = sample->n < maxrows ? sample->n : maxrows;
	if (s < nkeep + 1)
		return err_set(e,
			       "the sample has %d rows, compensation needs at least %d (kept "
			       "neurons + 1)",
			       s, nkeep + 1);
	int n = net->n[layer], q = net->n[layer + 1], d = sample->d, c = nkeep + 1;
	for (int j = 0; j < nkeep; j++)
		if (keep[j] < 0 || keep[j] >= n)
			return err_set(e, "layer %d: kept neuron %d does not exist (expected 0..%d)",
				       layer, keep[j], n - 1);
	float *x = malloc((size_t)s * d * sizeof *x);
	float *y = malloc((size_t)s * n * sizeof *y);
	double *yd = malloc((size_t)s * n * sizeof *yd);
	double *w = malloc((size_t)n * q * sizeof *w);
	double *z = malloc((size_t)s * q * sizeof *z);
	double *a = malloc((size_t)s * c * sizeof *a);
	double *sol = malloc((size_t)c * q * sizeof *sol);
	int rc = -1;
	if (!x || !y || !yd || !w || !z || !a || !sol) {
		err_set(e, "layer %d: out of memory for the refit on %d rows", layer, s);
		goto out;
	}
	for (int i = 0; i < s; i++) {
		long r = (long)i * sample->n / s;
		memcpy(x + (size_t)i * d, sample->x + (size_t)r * d, (size_t)d * sizeof *x);
	}
	if (net_forward(net, x, s, layer, y, e)) {
		err_prefix(e, "layer %d: compensation", layer);
		goto out;
	}
	for (size_t i = 0; i < (size_t)s * n; i++)
		yd[i] = y[i];
	const float *W = net->W[layer], *b = net->b[layer];
	for (size_t i = 0; i < (size_t)n * q; i++)
		w[i] = W[i];
	blas_dgemm(0, 0, s, q, n, 1.0, yd, n, w, q, 0.0, z, q);
	for (int i = 0; i < s; i++) {
		for (int k = 0; k < q; k++)
			z[(size_t)i * q + k] += b[k];
		for (int j = 0; j < nkeep; j++)
			a[(size_t)i * c + j] = yd[(size_t)i * n + keep[j]];
		a[(size_t)i * c + nkeep] = 1.0;
	}
	if (cond_lstsq(a, s, c, z, q, sol, e)) {
		err_prefix(e, "layer %d: compensation", layer);
		goto out;
	}
	for (size_t i = 0; i < (size_t)c * q; i++) {
		if (!(fabs(sol[i]) <= FLT_MAX)) {
			err_set(e, "layer %d: compensation gave weight %g, outside float range", layer,
				sol[i]);
			goto out;
		}
	}
	float *W2 = net->W[layer], *b2 = net->b[layer];
	for (int j = 0; j < nkeep; j++)
		for (int k = 0; k < q; k++)
			W2[(size_t)keep[j] * q + k] = (float)sol[(size_t)j * q + k];
	for (int k = 0; k < q; k++)
		b2[k] = (float)sol[(size_t)nkeep * q + k];
	rc = 0;
out:
	free(x);
	free(y);
	free(yd);
	free(w);
	free(z);
	free(a);
	free(sol);
	return rc;
}

int squeeze_compensate(Net *net, int layer, const int *keep, int nkeep, const Dataset *sample,
		       Err *e)
{
	if (check_hidden(net, layer, e))
		return -1;
	if (nkeep < 1)
		return err_set(e, "layer %d: %d neurons kept, expected at least 1", layer, nkeep);
	return compensate(net, layer, keep, nkeep, sample, SQUEEZE_SAMPLE_ROWS, e);
}

/* Algorithm 3, line 10: remove the neurons not kept (columns of W⁽ⁱ⁾,
 * entries of b⁽ⁱ⁾, rows of W⁽ⁱ⁺¹⁾), after the refit when asked for. */
static int apply(Net *net, const SqueezeProposal *sp, int comp, const Dataset *sample, int maxrows,
		 Err *e)
{
	if (check_hidden(net, sp->layer, e))
		return -1;
	if (net->n[sp->layer] != sp->n_before)
		return err_set(e, "layer %d has %d neurons, but the proposal was made for %d",
			       sp->layer, net->n[sp->layer], sp->n_before);
	if (sp->nkeep < 1 || sp->nkeep > sp->n_before)
		return err_set(e, "layer %d: proposal keeps %d of %d neurons", sp->layer, sp->nkeep,
			       sp->n_before);
	if (sp->nkeep == sp->n_before)
		return 0;
	if (comp && compensate(net, sp->layer, sp->keep, sp->nkeep, sample, maxrows, e))
		return -1;
	return net_keep_neurons(net, sp->layer, sp->keep, sp->nkeep, e);
}

int squeeze_apply(Net *net, const SqueezeProposal *sp, int comp, const Dataset *sample, Err *e)
{
	return apply(net, sp, comp, sample, SQUEEZE_SAMPLE_ROWS, e);
}

static int accuracy_after(const Net *net, const SqueezeProposal *sp, int comp,
			  const Dataset *eval, const Dataset *sample, double *acc, Err *e)
{
	Net *copy = net_clone(net);
	if (!copy)
		return err_set(e, "out of memory for a copy of the network");
	int rc = apply(copy, sp, comp, sample, SQUEEZE_SAMPLE_ROWS, e);
	if (rc == 0) {
		double err = net_error(copy, eval, NULL);
		if (isnan(err) || err < 0 || err > 1)
			rc = err_set(e, "could not evaluate the squeezed network on %s", eval->name);
		else
			*acc = 1.0 - err;
	}
	net_free(copy);
	return rc;
}

int squeeze_preview(const Net *net, const SqueezeProposal *sp, const Dataset *eval,
		    const Dataset *sample, double *acc, double *acc_comp, Err *e)
{
	if (!eval || eval->d != net->n[0] || eval->n < 1)
		return err_set(e, "the evaluation set must have rows of %d features", net->n[0]);
	if (accuracy_after(net, sp, 0, eval, sample, acc, e))
		return -1;
	if (acc_comp && accuracy_after(net, sp, 1, eval, sample, acc_comp, e))
		return -1;
	return 0;
}

/* Algorithm 3, lines 1-12: every hidden layer in order, each proposal made on
 * the network as squeezed so far (the output layer is never squeezed). */
int squeeze_net(Net *net, const SqueezeOpts *o, const Dataset *sample, int *removed, Err *e)
{
	if (!net)
		return err_set(e, "no network");
	if (o->compensate && !sample)
		return err_set(e, "compensation needs a sample of training inputs (none given)");
	if (o->compensate && o->sample_rows < 1)
		return err_set(e, "sample_rows = %d, expected at least 1", o->sample_rows);
	int total = 0;
	for (int i = 0; removed && i < net->m; i++)
		removed[i] = 0;
	for (int layer = 1; layer < net->m; layer++) {
		SqueezeProposal sp;
		if (squeeze_propose(net, layer, o, &sp, e))
			return -1;
		int gone = sp.n_before - sp.nkeep;
		int rc = apply(net, &sp, o->compensate, sample, o->sample_rows, e);
		squeeze_proposal_free(&sp);
		if (rc)
			return -1;
		if (removed)
			removed[layer - 1] = gone;
		total += gone;
	}
	return total;
}
