/* alg3_squeeze.c - Algorithm 3: squeeze the hidden layers of a trained
 * network with column-pivoted QR of Ŵ⁽ⁱ⁾, one layer's decision at a time. */
#include "alg/alg3_squeeze.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alg/alg3_kloop.h"
#include "engine/cond.h"
#include "engine/cond_matrix.h"
#include "engine/hook.h"
#include "engine/train.h"

void alg3_opts_default(Alg3Opts *o)
{
	o->tau = COND_TAU_DEFAULT;
	o->while_loop = 1;
	o->compensate = 0;
	o->sample_rows = ALG3_SAMPLE_ROWS;
	o->criterion = ALG3_QR;
	o->seed = 1;
	o->keep_counts = NULL;
	o->only = NULL;
}

void alg3_proposal_free(Alg3Proposal *sp)
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
 *     while κ(Ŵ P(:, 1..p)) > τ and p > 1: p = p − 1 (lines 6-9), the
 *     loop's answer found by bisection on the blocks of R (alg3_kloop.h).
 * The neurons kept are perm[0..p): the count p and, under ALG3_QR, the
 * choice. A count given (keep_counts) replaces p; another criterion
 * replaces the choice (the first p of its order). R is the pivoted QR's
 * leading triangle, NULL when the loop does not run; s1 σ₁ of Ŵ. 0, -1, or
 * 1 when stopped. */
static int decide_count(const Net *net, int layer, const Alg3Opts *o, Alg3Proposal *sp,
                        const double *R, double s1, Err *e)
{
	int cols = sp->n_before;
	sp->p_qr = sp->nkeep = cols;
	sp->kappa_after = sp->kappa_before;
	if (cond_over(sp->kappa_before, o->tau)) {
		int p = 0;
		while (p < sp->nrdiag && sp->rdiag[p] > 0.0 && sp->rdiag[p] >= 1.0 / o->tau)
			p++;
		sp->p_qr = p < 1 ? 1 : p;
	}
	if (o->keep_counts) {
		sp->counted = 1;
		sp->nkeep = o->keep_counts[layer - 1];
		return 0;
	}
	if (!cond_over(sp->kappa_before, o->tau))
		return 0;
	if (!o->while_loop) {
		double k;
		int rc = cond_kappa_columns(net, layer, sp->perm, sp->p_qr, &k, e);
		if (rc)
			return rc;
		sp->nkeep = sp->p_qr;
		sp->kappa_after = k;
		return 0;
	}
	KLoopLayer kl = {net, layer, sp->perm, R, sp->nrdiag, sp->p_qr, o->tau, s1};
	KLoopResult res;
	int rc = alg3_kloop(&kl, 1, &res, e);
	if (rc)
		return rc;
	sp->nkeep = res.nkeep;
	sp->kappa_after = res.kappa;
	return 0;
}

/* A step of a proposal, for the meter: what, and its share of the whole. */
static HookPart propose_part(char *what, size_t len, int layer, const char *step, double f0,
                             double f1)
{
	snprintf(what, len, "layer %d: %s", layer, step);
	return hook_meter_part(what, f0, f1);
}

int alg3_propose(const Net *net, int layer, const Alg3Opts *o, Alg3Proposal *sp, Err *e)
{
	memset(sp, 0, sizeof *sp);
	if (check_hidden(net, layer, e))
		return -1;
	if (cond_check_tau(o->tau, e) < 0)
		return -1;
	if ((unsigned)o->criterion >= ALG3_NCRITERIA)
		return err_set(e, "unknown squeeze criterion %d", (int)o->criterion);
	int units = net_units(net, layer);
	if (o->keep_counts && (o->keep_counts[layer - 1] < 1 || o->keep_counts[layer - 1] > units))
		return err_set(e, "layer %d: keep %d of %d %s, expected 1..%d", layer,
		               o->keep_counts[layer - 1], units, net_unit_name(net, layer, 1),
		               units);
	int rows, cols;
	double *A = cond_stacked(net, layer, NULL, 0, &rows, &cols, e), *R = NULL;
	if (!A)
		return -1;
	sp->layer = layer;
	sp->criterion = o->criterion;
	sp->n_before = cols;
	sp->nrdiag = rows < cols ? rows : cols;
	sp->perm = malloc((size_t)cols * sizeof *sp->perm);
	sp->rdiag = malloc((size_t)sp->nrdiag * sizeof *sp->rdiag);
	sp->keep = malloc((size_t)cols * sizeof *sp->keep);
	int rc = -1;
	if (!sp->perm || !sp->rdiag || !sp->keep) {
		err_set(e, "layer %d: out of memory", layer);
		goto fail;
	}
	/* the meter: κ about a third of the work, the QR a fifth, the loop the rest */
	char what[96];
	HookPart was = propose_part(what, sizeof what, layer, "κ", 0.0, 0.3);
	double s1 = 0;
	rc = cond_kappa_s1(A, rows, cols, &sp->kappa_before, &s1, e);
	hook_meter_restore(was);
	if (rc == 0) /* a wide Ŵ's κ as the reading counts it (engine/cond.h) */
		sp->kappa_before = cond_kappa_read(sp->kappa_before, rows, cols);
	int loop = cond_over(sp->kappa_before, o->tau) && o->while_loop && !o->keep_counts;
	if (rc == 0 && loop && !(R = malloc((size_t)sp->nrdiag * sp->nrdiag * sizeof *R))) {
		rc = err_set(e, "layer %d: out of memory", layer);
		goto fail;
	}
	if (rc == 0) {
		was = propose_part(what, sizeof what, layer, "pivoted QR", 0.3, 0.5);
		rc = cond_qrpt_r(A, rows, cols, sp->perm, sp->rdiag, R, e);
		hook_meter_restore(was);
	}
	if (rc) { /* failed, or stopped (1) */
		err_prefix(e, "layer %d: Ŵ", layer);
		goto fail;
	}
	free(A);
	A = NULL;
	was = hook_meter_part(NULL, 0.5, 1.0);
	rc = decide_count(net, layer, o, sp, R, s1, e);
	hook_meter_restore(was);
	if (rc)
		goto fail;
	free(R);
	R = NULL;
	rc = -1;
	if (o->criterion == ALG3_QR)
		memcpy(sp->keep, sp->perm, (size_t)cols * sizeof *sp->keep);
	else if (alg3_order(net, layer, o->criterion, o->seed, sp->keep, e))
		goto fail;
	int by_order = sp->counted || o->criterion != ALG3_QR;
	if (sp->nkeep == cols)
		sp->kappa_after = sp->kappa_before;
	else if (by_order &&
	         (rc = cond_kappa_columns(net, layer, sp->keep, sp->nkeep, &sp->kappa_after, e)))
		goto fail;
	return 0;
fail:
	free(A);
	free(R);
	alg3_proposal_free(sp);
	return rc;
}

/* Algorithm 3, line 10: remove the neurons not kept (columns of W⁽ⁱ⁾,
 * entries of b⁽ⁱ⁾, rows of W⁽ⁱ⁺¹⁾), after the refit when asked for. */
static int apply(Net *net, const Alg3Proposal *sp, int comp, const Dataset *sample, int maxrows,
                 Err *e)
{
	if (check_hidden(net, sp->layer, e))
		return -1;
	const char *units = net_unit_name(net, sp->layer, 1);
	if (net_units(net, sp->layer) != sp->n_before)
		return err_set(e, "layer %d has %d %s, but the proposal was made for %d", sp->layer,
		               net_units(net, sp->layer), units, sp->n_before);
	if (sp->nkeep < 1 || sp->nkeep > sp->n_before)
		return err_set(e, "layer %d: proposal keeps %d of %d %s", sp->layer, sp->nkeep,
		               sp->n_before, units);
	if (sp->nkeep == sp->n_before)
		return 0;
	if (comp && alg3_compensate(net, sp->layer, sp->keep, sp->nkeep, sample, maxrows, e))
		return -1;
	return net_keep_neurons(net, sp->layer, sp->keep, sp->nkeep, e);
}

int alg3_apply_proposal(Net *net, const Alg3Proposal *sp, int comp, const Dataset *sample, Err *e)
{
	return apply(net, sp, comp, sample, ALG3_SAMPLE_ROWS, e);
}

static int accuracy_after(const Net *net, const Alg3Proposal *sp, int comp, const Dataset *eval,
                          const Dataset *sample, double *acc, Err *e)
{
	Net *copy = net_clone(net, e);
	if (!copy)
		return err_set(e, "out of memory for a copy of the network");
	int rc = apply(copy, sp, comp, sample, ALG3_SAMPLE_ROWS, e);
	if (rc == 0 && net_accuracy(copy, eval, NULL, acc, e) != 0)
		rc = err_prefix(e, "the squeezed network");
	net_free(copy);
	return rc;
}

int alg3_preview(const Net *net, const Alg3Proposal *sp, const Dataset *eval, const Dataset *sample,
                 double *acc, double *acc_comp, Err *e)
{
	if (!eval || eval->d != net->n[0] || eval->n < 1)
		return err_set(e, "the evaluation set must have rows of %d features", net->n[0]);
	if (accuracy_after(net, sp, 0, eval, sample, acc, e))
		return -1;
	if (acc_comp && accuracy_after(net, sp, 1, eval, sample, acc_comp, e))
		return -1;
	return 0;
}

/* ---- the stepped algorithm ---- */

Alg3 *alg3_new(Net *net, const Alg3Opts *o, const Dataset *sample, Err *e)
{
	if (!net || !o) {
		err_set(e, "Algorithm 3: expected a network and options");
		return NULL;
	}
	if (cond_check_tau(o->tau, e) < 0) {
		err_prefix(e, "Algorithm 3");
		return NULL;
	}
	if (o->compensate && !sample) {
		err_set(e, "compensation needs a sample of training inputs (none given)");
		return NULL;
	}
	if (o->compensate && o->sample_rows < 1) {
		err_set(e, "sample_rows = %d, expected at least 1", o->sample_rows);
		return NULL;
	}
	if ((unsigned)o->criterion >= ALG3_NCRITERIA) {
		err_set(e, "Algorithm 3: unknown criterion %d", (int)o->criterion);
		return NULL;
	}
	if (o->keep_counts && alg3_check_counts(net, o->keep_counts, net->m - 1, e) < 0) {
		err_prefix(e, "Algorithm 3");
		return NULL;
	}
	Alg3 *a = calloc(1, sizeof *a);
	if (a) {
		a->removed = calloc((size_t)net->m, sizeof *a->removed);
		a->removed_qr = calloc((size_t)net->m, sizeof *a->removed_qr);
		a->kappa_dec = malloc((size_t)net->m * sizeof *a->kappa_dec);
		if (o->keep_counts)
			a->counts = malloc((size_t)net->m * sizeof *a->counts);
		if (o->only)
			a->only = malloc((size_t)net->m * sizeof *a->only);
	}
	if (!a || !a->removed || !a->removed_qr || !a->kappa_dec ||
	    (o->keep_counts && !a->counts) || (o->only && !a->only)) {
		alg3_free(a);
		err_set(e, "Algorithm 3: out of memory");
		return NULL;
	}
	for (int i = 0; i < net->m; i++)
		a->kappa_dec[i] = NAN;
	a->o = *o;
	if (a->counts) {
		memcpy(a->counts, o->keep_counts, (size_t)(net->m - 1) * sizeof *a->counts);
		a->o.keep_counts = a->counts;
	}
	if (a->only) {
		memcpy(a->only, o->only, (size_t)(net->m - 1) * sizeof *a->only);
		a->o.only = a->only;
	}
	a->net = net;
	a->sample = sample;
	a->next = 1;
	a->status = ALG3_DONE;
	return a;
}

void alg3_free(Alg3 *a)
{
	if (!a)
		return;
	alg3_proposal_free(&a->prop);
	free(a->removed);
	free(a->removed_qr);
	free(a->kappa_dec);
	free(a->counts);
	free(a->only);
	free(a);
}

int alg3_propose_layer(Alg3 *a, int layer, Err *e)
{
	alg3_proposal_free(&a->prop);
	a->status = ALG3_DONE;
	int rc = alg3_propose(a->net, layer, &a->o, &a->prop, e);
	if (rc)
		return rc;
	a->kappa_dec[layer - 1] = a->prop.kappa_before;
	a->status = ALG3_PROPOSED;
	return 0;
}

/* Algorithm 3, lines 1-3: the next layer i (in order) with τ < κ(Ŵ⁽ⁱ⁾)
 * whose decision removes something (with counts given: whose count is
 * below its width), among the layers o.only names (all without it). */
int alg3_step(Alg3 *a, Err *e)
{
	if (!a)
		return err_set(e, "Algorithm 3: no state to step");
	if (a->status == ALG3_PROPOSED)
		return 0;
	for (; a->next < a->net->m; a->next++) {
		if (a->o.only && !a->o.only[a->next - 1])
			continue;
		int rc = alg3_propose_layer(a, a->next, e);
		if (rc)
			return rc;
		const Alg3Proposal *sp = &a->prop;
		if (sp->nkeep < sp->n_before)
			return 0;
		alg3_proposal_free(&a->prop);
		a->status = ALG3_DONE;
	}
	return 0;
}

/* The decision is made: forget the proposal, go on after its layer. */
static void decided(Alg3 *a)
{
	a->next = a->prop.layer + 1;
	alg3_proposal_free(&a->prop);
	a->status = ALG3_DONE;
}

/* Algorithm 3, lines 4-10 for the proposed layer (the proposal holds lines
 * 3-9; line 10 removes the neurons not kept). */
int alg3_apply(Alg3 *a, int compensate, const Hook *h, Err *e)
{
	if (!a || a->status != ALG3_PROPOSED)
		return err_set(e, "Algorithm 3: no proposal to apply");
	const Alg3Proposal *sp = &a->prop;
	if (apply(a->net, sp, compensate, a->sample, a->o.sample_rows, e) < 0)
		return -1;
	int gone = sp->n_before - sp->nkeep, by_qr = sp->counted ? 0 : sp->n_before - sp->p_qr;
	a->removed[sp->layer - 1] += gone;
	a->removed_qr[sp->layer - 1] += by_qr;
	a->total += gone;
	a->applied++;
	const char *comp = compensate && gone ? ", next layer refitted (compensation)" : "";
	const char *units = net_unit_name(a->net, sp->layer, 1);
	char k0[48], k1[48];
	HookStep st = {.kind = HOOK_ALG3_LAYER, .alg3 = a, .applied = 1};
	if (sp->counted || sp->criterion != ALG3_QR)
		hook_step(h, st,
		          "Algorithm 3, layer %d: κ %s (after the earlier layers' removals); "
		          "%s, %s keeps %d of %d %s, κ %s%s",
		          sp->layer, cond_kappa_str(sp->kappa_before, a->o.tau, k0, sizeof k0),
		          sp->counted ? "count given" : "count decided by pivoted QR at τ",
		          alg3_criterion_name(sp->criterion), sp->nkeep, sp->n_before, units,
		          cond_kappa_str(sp->kappa_after, a->o.tau, k1, sizeof k1), comp);
	else
		hook_step(h, st,
		          "Algorithm 3, layer %d: κ %s %s τ = %g (after the earlier layers' "
		          "removals); pivoted QR keeps %d of %d (|r_jj| ≥ |r_11|/τ), the κ loop "
		          "%d: %d → %d %s, κ %s%s",
		          sp->layer, cond_kappa_str(sp->kappa_before, a->o.tau, k0, sizeof k0),
		          cond_over(sp->kappa_before, a->o.tau) ? ">" : "≤", a->o.tau, sp->p_qr,
		          sp->n_before, sp->nkeep, sp->n_before, sp->nkeep, units,
		          cond_kappa_str(sp->kappa_after, a->o.tau, k1, sizeof k1), comp);
	decided(a);
	return 0;
}

int alg3_refuse(Alg3 *a, const Hook *h, Err *e)
{
	if (!a || a->status != ALG3_PROPOSED)
		return err_set(e, "Algorithm 3: no proposal to refuse");
	const Alg3Proposal *sp = &a->prop;
	a->refused++;
	char k0[48];
	hook_step(h, (HookStep){.kind = HOOK_ALG3_LAYER, .alg3 = a},
	          "Algorithm 3, layer %d: refused; κ %s, all %d %s kept", sp->layer,
	          cond_kappa_str(sp->kappa_before, a->o.tau, k0, sizeof k0), sp->n_before,
	          net_unit_name(a->net, sp->layer, 1));
	decided(a);
	return 0;
}

int alg3_run(Alg3 *a, const Hook *h, Err *e)
{
	int rc;
	while ((rc = alg3_step(a, e)) == 0 && a->status == ALG3_PROPOSED)
		if (alg3_apply(a, a->o.compensate, h, e) < 0)
			return -1;
	return rc;
}

/* Algorithm 3, lines 1-12: every hidden layer in order, each proposal made on
 * the network as squeezed so far (the output layer is never squeezed). */
int alg3_squeeze_net(Net *net, const Alg3Opts *o, const Dataset *sample, int *removed, int *total,
                     Err *e)
{
	Alg3 *a = alg3_new(net, o, sample, e);
	if (!a)
		return -1;
	int rc = alg3_run(a, NULL, e);
	if (rc == 0 && removed)
		memcpy(removed, a->removed, (size_t)net->m * sizeof *removed);
	if (rc == 0 && total)
		*total = a->total;
	alg3_free(a);
	return rc;
}
