/* alg3_combination.c - each neuron a squeeze removes as the combination of
 * the kept ones that replaces it, from the pivoted QR of Ŵ⁽ⁱ⁾. */
#include "alg/alg3_combination.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cond.h"
#include "engine/cond_matrix.h"

void alg3_combinations_free(Alg3Combinations *c)
{
	if (!c)
		return;
	free(c->perm);
	free(c->coef);
	free(c->residual);
	c->perm = NULL;
	c->coef = c->residual = NULL;
}

int alg3_combinations(const Net *net, int layer, int nkeep, Alg3Combinations *out, Err *e)
{
	memset(out, 0, sizeof *out);
	if (!net || layer < 1 || layer > net->m - 1)
		return err_set(e, "layer %d is not a hidden layer (expected 1..%d)", layer,
		               net ? net->m - 1 : 0);
	int rows, n;
	double *A = cond_stacked(net, layer, NULL, 0, &rows, &n, e);
	if (!A)
		return -1;
	int gone = n - nkeep > 0 ? n - nkeep : 0;
	out->perm = malloc((size_t)n * sizeof *out->perm);
	out->coef = malloc(((size_t)gone * nkeep + 1) * sizeof *out->coef);
	out->residual = malloc(((size_t)gone + 1) * sizeof *out->residual);
	int rc = -1;
	if (!out->perm || !out->coef || !out->residual)
		err_set(e, "layer %d: out of memory", layer);
	else if (cond_qrpt_combine(A, rows, n, nkeep, out->perm, out->coef, out->residual, e))
		err_prefix(e, "layer %d: Ŵ", layer);
	else
		rc = 0;
	free(A);
	if (rc) {
		alg3_combinations_free(out);
		return -1;
	}
	out->layer = layer;
	out->n = n;
	out->nkeep = nkeep;
	out->unit = layer <= net->nconv ? 'c' : 'n';
	return 0;
}

int alg3_combinations_of(const Net *net, const Alg3Proposal *sp, Alg3Combinations *out, Err *e)
{
	memset(out, 0, sizeof *out);
	if (sp->criterion != ALG3_QR)
		return err_set(e, "layer %d: the %s criterion keeps no pivots", sp->layer,
		               alg3_criterion_name(sp->criterion));
	if (alg3_combinations(net, sp->layer, sp->nkeep, out, e))
		return -1;
	if (out->n != sp->n_before ||
	    memcmp(out->perm, sp->perm, (size_t)out->n * sizeof *out->perm)) {
		alg3_combinations_free(out);
		return err_set(e, "layer %d: the proposal was made on another network", sp->layer);
	}
	return 0;
}

int alg3_combinations_at(const Net *net, int layer, double tau, Alg3Combinations *out, Err *e)
{
	Alg3Opts o;
	Alg3Proposal sp;
	memset(out, 0, sizeof *out);
	alg3_opts_default(&o);
	o.tau = tau;
	if (alg3_propose(net, layer, &o, &sp, e))
		return -1;
	int rc = alg3_combinations_of(net, &sp, out, e);
	alg3_proposal_free(&sp);
	return rc;
}

void alg3_combination_order(const Alg3Combinations *c, int r, int *order)
{
	const double *co = c->coef + (size_t)r * c->nkeep;
	for (int k = 0; k < c->nkeep; k++)
		order[k] = k;
	/* insertion sort by |c_k| descending, ties by pivot position */
	for (int k = 1; k < c->nkeep; k++) {
		int v = order[k], t = k;
		while (t > 0 && fabs(co[order[t - 1]]) < fabs(co[v])) {
			order[t] = order[t - 1];
			t--;
		}
		order[t] = v;
	}
}

const char *alg3_combination_str(const Alg3Combinations *c, int r, int terms, int ascii, char *buf,
                                 size_t len)
{
	const double *co = c->coef + (size_t)r * c->nkeep;
	int *order = malloc((size_t)c->nkeep * sizeof *order);
	size_t k = 0;
	if (!len)
		return buf;
	buf[0] = '\0';
	if (!order)
		return buf;
	alg3_combination_order(c, r, order);
	int shown = terms < c->nkeep ? terms : c->nkeep;
	char u = c->unit ? c->unit : 'n';
	k +=
	    (size_t)snprintf(buf, len, "%c%d %s ", u, c->perm[c->nkeep + r] + 1, ascii ? "~" : "≈");
	for (int t = 0; t < shown && k < len; t++) {
		double v = co[order[t]];
		const char *sign = v < 0 ? (ascii ? "-" : "−") : "+";
		if (t == 0)
			k += (size_t)snprintf(buf + k, len - k, "%s%.2f%s%c%d", v < 0 ? sign : "",
			                      fabs(v), ascii ? "*" : "·", u, c->perm[order[t]] + 1);
		else
			k += (size_t)snprintf(buf + k, len - k, " %s %.2f%s%c%d", sign, fabs(v),
			                      ascii ? "*" : "·", u, c->perm[order[t]] + 1);
	}
	if (k < len && shown < c->nkeep)
		k += (size_t)snprintf(buf + k, len - k, " + %s", ascii ? "..." : "…");
	if (k < len)
		snprintf(buf + k, len - k, " (residual %.1f %%)", 100 * c->residual[r]);
	free(order);
	return buf;
}
