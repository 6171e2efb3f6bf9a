/* alg3_combination.c - each neuron a squeeze removes as the combination of
 * the kept ones that replaces it, from the pivoted QR of Ŵ⁽ⁱ⁾. */
#include "alg/alg3_combination.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/blas.h"
#include "engine/cond.h"
#include "engine/cond_matrix.h"

void alg3_combinations_free(Alg3Combinations *c)
{
	if (!c)
		return;
	free(c->perm);
	free(c->coef);
	free(c->residual);
	free(c->act_coef);
	free(c->act_residual);
	c->perm = NULL;
	c->coef = c->residual = c->act_coef = c->act_residual = NULL;
	c->rows = 0;
	c->refit = 0;
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

/* Positions 0..n) of co by |co| descending, ties by position. */
static void order_by_size(const double *co, int n, int *order)
{
	for (int k = 0; k < n; k++)
		order[k] = k;
	for (int k = 1; k < n; k++) {
		int v = order[k], t = k;
		while (t > 0 && fabs(co[order[t - 1]]) < fabs(co[v])) {
			order[t] = order[t - 1];
			t--;
		}
		order[t] = v;
	}
}

void alg3_combination_order(const Alg3Combinations *c, int r, int *order)
{
	order_by_size(c->coef + (size_t)r * c->nkeep, c->nkeep, order);
}

/* "n17 ≈ 0.62·n3 − 0.21·n8 + … (residual 0.3 %)" from coefficients co of
 * the kept neurons; with constant (a fit of activations), its constant term
 * when every other term is shown, and the residual in Ŵ after the one
 * given. */
static const char *combination_text(const Alg3Combinations *c, int r, const double *co,
                                    const double *constant, double residual, int terms, int ascii,
                                    char *buf, size_t len)
{
	int *order = malloc((size_t)c->nkeep * sizeof *order);
	size_t k = 0;
	if (!len)
		return buf;
	buf[0] = '\0';
	if (!order)
		return buf;
	order_by_size(co, c->nkeep, order);
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
	else if (k < len && constant)
		k += (size_t)snprintf(buf + k, len - k, " %s %.2f",
		                      *constant < 0 ? (ascii ? "-" : "−") : "+", fabs(*constant));
	if (k < len && constant)
		snprintf(buf + k, len - k, " (residual %.1f %%; %s %.1f %%)", 100 * residual,
		         ascii ? "W^" : "Ŵ", 100 * c->residual[r]);
	else if (k < len)
		snprintf(buf + k, len - k, " (residual %.1f %%)", 100 * residual);
	free(order);
	return buf;
}

const char *alg3_combination_str(const Alg3Combinations *c, int r, int terms, int ascii, char *buf,
                                 size_t len)
{
	return combination_text(c, r, c->coef + (size_t)r * c->nkeep, NULL, c->residual[r], terms,
	                        ascii, buf, len);
}

const char *alg3_combination_act_str(const Alg3Combinations *c, int r, int terms, int ascii,
                                     char *buf, size_t len)
{
	const double *co = c->act_coef + (size_t)r * (c->nkeep + 1);
	return combination_text(c, r, co, co + c->nkeep, c->act_residual[r], terms, ascii, buf,
	                        len);
}

int alg3_combinations_spread(const Alg3Combinations *c, double *lo, double *median, double *hi)
{
	int gone = c->n - c->nkeep;
	if (gone < 1 || !c->act_residual)
		return -1;
	double *v = malloc((size_t)gone * sizeof *v);
	if (!v)
		return -1;
	memcpy(v, c->act_residual, (size_t)gone * sizeof *v);
	for (int i = 1; i < gone; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	*lo = v[0];
	*median = gone % 2 ? v[gone / 2] : (v[gone / 2 - 1] + v[gone / 2]) / 2;
	*hi = v[gone - 1];
	free(v);
	return 0;
}

/* ---- in activations ---- */

/* Column j of the s × n row-major Y, less its mean: the sum of squares. */
static double centred_ss(const double *Y, int s, int n, int j)
{
	double mean = 0, ss = 0;
	for (int i = 0; i < s; i++)
		mean += Y[(size_t)i * n + j];
	mean /= s;
	for (int i = 0; i < s; i++) {
		double d = Y[(size_t)i * n + j] - mean;
		ss += d * d;
	}
	return ss;
}

/* The fits of c's removed neurons on the activations Y (s × n): the
 * coefficients, the residuals E (s × gone) and their relative sizes. */
static int fit(const Alg3Combinations *c, const double *Y, int s, double *coef, double *E,
               double *resid, Err *e)
{
	int n = c->n, nk = c->nkeep, gone = n - nk, cols = nk + 1;
	double *A = malloc((size_t)s * cols * sizeof *A);
	if (!A)
		return err_set(e, "out of memory for the fit on %d rows", s);
	for (int i = 0; i < s; i++) {
		for (int k = 0; k < nk; k++)
			A[(size_t)i * cols + k] = Y[(size_t)i * n + c->perm[k]];
		A[(size_t)i * cols + nk] = 1.0;
		for (int r = 0; r < gone; r++)
			E[(size_t)i * gone + r] = Y[(size_t)i * n + c->perm[nk + r]];
	}
	int rc = cond_lstsq(A, s, cols, E, gone, coef, e);
	if (rc == 0) {
		/* E = Y_R − [Y_K 1] X */
		blas_dgemm(0, 0, s, gone, cols, -1.0, A, cols, coef, gone, 1.0, E, gone);
		for (int r = 0; r < gone; r++) {
			double ss = 0, tot = centred_ss(Y, s, n, c->perm[nk + r]);
			for (int i = 0; i < s; i++)
				ss += E[(size_t)i * gone + r] * E[(size_t)i * gone + r];
			resid[r] = tot > 0 ? fmin(1, sqrt(ss / tot)) : 0;
		}
	}
	free(A);
	return rc;
}

/* ‖E W_R‖_F / ‖(Y_R − Ȳ_R) W_R‖_F with W_R the removed neurons' rows of
 * the next layer's weights. */
static int refit_share(const Net *net, const Alg3Combinations *c, const double *Y, int s,
                       const double *E, double *out, Err *e)
{
	int n = c->n, nk = c->nkeep, gone = n - nk, q = net->n[c->layer + 1];
	const float *W = net->W[c->layer];
	double *WR = malloc((size_t)gone * q * sizeof *WR);
	double *YR = malloc((size_t)s * gone * sizeof *YR);
	double *D = malloc((size_t)s * q * sizeof *D);
	int rc = -1;
	if (!WR || !YR || !D) {
		err_set(e, "out of memory for the refit's share on %d rows", s);
		goto out;
	}
	for (int r = 0; r < gone; r++) {
		int j = c->perm[nk + r];
		double mean = 0;
		for (int k = 0; k < q; k++)
			WR[(size_t)r * q + k] = W[(size_t)j * q + k];
		for (int i = 0; i < s; i++)
			mean += Y[(size_t)i * n + j];
		mean /= s;
		for (int i = 0; i < s; i++)
			YR[(size_t)i * gone + r] = Y[(size_t)i * n + j] - mean;
	}
	double left = 0, all = 0;
	blas_dgemm(0, 0, s, q, gone, 1.0, E, gone, WR, q, 0.0, D, q);
	for (size_t i = 0; i < (size_t)s * q; i++)
		left += D[i] * D[i];
	blas_dgemm(0, 0, s, q, gone, 1.0, YR, gone, WR, q, 0.0, D, q);
	for (size_t i = 0; i < (size_t)s * q; i++)
		all += D[i] * D[i];
	*out = all > 0 ? fmin(1, sqrt(left / all)) : 0;
	rc = 0;
out:
	free(WR);
	free(YR);
	free(D);
	return rc;
}

int alg3_combinations_act(const Net *net, const Dataset *sample, Alg3Combinations *c, Err *e)
{
	if (!net || !c->perm || c->layer < 1 || c->layer > net->m - 1 || net->n[c->layer] != c->n)
		return err_set(e, "the combinations are not of this network");
	int gone = c->n - c->nkeep, s = 0;
	free(c->act_coef);
	free(c->act_residual);
	c->act_coef = malloc(((size_t)gone * (c->nkeep + 1) + 1) * sizeof *c->act_coef);
	c->act_residual = malloc(((size_t)gone + 1) * sizeof *c->act_residual);
	c->refit = 0;
	c->rows = 0;
	if (!c->act_coef || !c->act_residual)
		return err_set(e, "layer %d: out of memory for the fits", c->layer);
	if (!gone)
		return 0;
	double *Y = NULL, *X = NULL, *E = NULL;
	if (alg3_activations(net, c->layer, sample, ALG3_SAMPLE_ROWS, &Y, &s, e))
		return err_prefix(e, "layer %d", c->layer);
	int rc = -1;
	if (s < c->nkeep + 1) {
		err_set(e, "layer %d: %d sample rows for %d kept neurons and a constant", c->layer,
		        s, c->nkeep);
		goto out;
	}
	X = malloc((size_t)(c->nkeep + 1) * gone * sizeof *X);
	E = malloc((size_t)s * gone * sizeof *E);
	if (!X || !E) {
		err_set(e, "layer %d: out of memory for the fits", c->layer);
		goto out;
	}
	if (fit(c, Y, s, X, E, c->act_residual, e) || refit_share(net, c, Y, s, E, &c->refit, e)) {
		err_prefix(e, "layer %d", c->layer);
		goto out;
	}
	/* X is (nkeep + 1) × gone: row r of act_coef is its column r */
	for (int r = 0; r < gone; r++)
		for (int k = 0; k <= c->nkeep; k++)
			c->act_coef[(size_t)r * (c->nkeep + 1) + k] = X[(size_t)k * gone + r];
	c->rows = s;
	rc = 0;
out:
	free(Y);
	free(X);
	free(E);
	return rc;
}
