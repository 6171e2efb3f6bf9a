/* alg1_groups.c - Algorithm 1 on a graph network: each group's κ and p
 * from its producers' stacked Ŵ, the groups with κ > τ shrunk by p units,
 * the network retrained. */
#include "alg/alg1_groups.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alg/alg3_groups.h"
#include "base/append.h"
#include "base/clock.h"
#include "base/rng.h"
#include "engine/cond.h"
#include "engine/cond_matrix.h"
#include "engine/graph_edit.h"
#include "engine/graph_resize.h"
#include "engine/train_plan.h"

/* A group the loop may shrink: all its units free, a stack measured. */
static int shrinkable(const Alg1GroupsRecord *r, int q)
{
	return r->free[q] == r->units[q] && r->rows[q] > 0;
}

static void record_free(Alg1GroupsRecord *r)
{
	free(r->units), free(r->free), free(r->rows), free(r->kappa), free(r->p);
}

static int check_opts(const Net *initial, const Dataset *train, const Alg1Opts *o, Err *e)
{
	if (!initial || !initial->graph)
		return err_set(e, "expected a graph network");
	if (!train || !o)
		return err_set(e, "expected a training set and options");
	if (train->d != initial->n[0])
		return err_set(
		    e, "the training set '%s' has %d features, the network expects %d inputs",
		    train->name, train->d, initial->n[0]);
	if (train->k > initial->n[1])
		return err_set(e,
		               "the training set '%s' has %d classes, the network has %d outputs",
		               train->name, train->k, initial->n[1]);
	if (alg1_check_tau(o->tau, e) || alg1_check_eta(o->eta, e) ||
	    alg1_check_training(&o->train, 0, e))
		return -1;
	if (o->round > 1)
		return err_set(e,
		               "round = %d: a graph network's groups lose p units each, unrounded",
		               o->round);
	if (o->max_iter < 1)
		return err_set(e, "max_iter = %d, expected at least 1", o->max_iter);
	return 0;
}

Alg1Groups *alg1_groups_new(const Net *initial, const Dataset *train, const Alg1Opts *o, Err *e)
{
	if (check_opts(initial, train, o, e)) {
		err_prefix(e, "Algorithm 1");
		return NULL;
	}
	Alg1Groups *a = calloc(1, sizeof *a);
	if (!a) {
		err_set(e, "Algorithm 1: out of memory");
		return NULL;
	}
	a->o = *o;
	a->train = train;
	a->status = ALG1_RUNNING;
	if (!(a->net = net_clone(initial, e)) || !(a->gg = graph_groups(a->net->graph, e))) {
		err_prefix(e, "Algorithm 1");
		alg1_groups_free(a);
		return NULL;
	}
	net_set_prep(a->net, NULL, NULL);
	return a;
}

void alg1_groups_free(Alg1Groups *a)
{
	if (!a)
		return;
	for (int i = 0; i < a->nrec; i++)
		record_free(&a->rec[i]);
	free(a->rec);
	graph_groups_free(a->gg);
	net_free(a->net);
	free(a);
}

int alg1_groups_kappa(const Net *net, const ChannelGroups *gg, int q, double tau, double *kappa,
                      int *p, int *rows, Err *e)
{
	double *S, *sv = NULL;
	int *units, nu, rc = -1;
	*kappa = NAN, *p = 0;
	if (alg3_group_stack(net, gg, q, &S, &units, &nu, rows, e))
		return -1;
	if (!S)
		return 0;
	int nsv = *rows < nu ? *rows : nu;
	if (!(sv = malloc((size_t)nsv * sizeof *sv))) {
		err_set(e, "out of memory for group %d's singular values", q + 1);
		goto out;
	}
	if ((rc = cond_singular_values(S, *rows, nu, sv, e)) != 0)
		goto out;
	*kappa = cond_kappa_sv(sv, nsv);
	for (int j = 0; j < nsv; j++)
		*p += sv[j] < sv[0] / tau;
out:
	if (rc)
		*rows = 0;
	free(S), free(units), free(sv);
	return rc;
}

/* The record of a trained N̂ (gg its groups): every group's stack, the
 * errors. 0, 1 when stopped, -1. */
static int record_make(const Alg1Groups *a, const Net *net, const ChannelGroups *gg, int iter,
                       double secs, const Hook *h, Alg1GroupsRecord *r, Err *e)
{
	int n = gg->n, rc;
	memset(r, 0, sizeof *r);
	r->units = calloc((size_t)n + 1, sizeof *r->units);
	r->free = calloc((size_t)n + 1, sizeof *r->free);
	r->rows = calloc((size_t)n + 1, sizeof *r->rows);
	r->p = calloc((size_t)n + 1, sizeof *r->p);
	r->kappa = calloc((size_t)n + 1, sizeof *r->kappa);
	if (!r->units || !r->free || !r->rows || !r->p || !r->kappa) {
		record_free(r);
		return err_set(e, "out of memory for the record");
	}
	r->iter = iter, r->ngroups = n, r->nparam = net->nparam;
	r->seconds = secs, r->tau = a->o.tau, r->eta = a->o.eta;
	r->max_kappa = NAN;
	for (int q = 0; q < n; q++) {
		r->units[q] = gg->g[q].units, r->free[q] = gg->g[q].free;
		rc =
		    alg1_groups_kappa(net, gg, q, a->o.tau, &r->kappa[q], &r->p[q], &r->rows[q], e);
		if (rc) {
			record_free(r);
			return rc < 0 ? err_prefix(e, "group %d", q + 1) : 1;
		}
		if (shrinkable(r, q) && !(r->kappa[q] <= r->max_kappa))
			r->max_kappa = r->kappa[q];
	}
	r->eval_error = NAN;
	rc = net_error_hooked(net, a->train, 0, h, &r->train_error, e);
	if (rc == 0 && a->eval)
		rc = net_error_hooked(net, a->eval, 0, h, &r->eval_error, e);
	if (rc)
		record_free(r);
	return rc;
}

/* Line 4 from the last record: each shrinkable group with κ > τ loses
 * min(p, units − 1) units, into w (may be NULL); why the others over τ do
 * not change into why. How many groups change. */
static int plan_units(const Alg1Groups *a, int *w, char *why, size_t len)
{
	const Alg1GroupsRecord *r = &a->rec[a->nrec - 1];
	int changes = 0;
	size_t used = 0;
	if (why && len)
		why[0] = '\0';
	for (int q = 0; q < r->ngroups; q++) {
		int cut = r->p[q] < r->units[q] - 1 ? r->p[q] : r->units[q] - 1;
		if (w)
			w[q] = r->units[q];
		if (!shrinkable(r, q) || !cond_over(r->kappa[q], a->o.tau))
			continue;
		if (cut > 0) {
			changes++;
			if (w)
				w[q] -= cut;
		} else if (why && used + 1 < len) {
			int k = snprintf(
			    why + used, len - used, "%sgroup %d: %s", used ? "; " : "", q + 1,
			    r->units[q] == 1 ? "already at 1 unit"
			                     : "κ > τ but no singular value below σ₁/τ");
			used = k < 0 ? used : used + (size_t)k >= len ? len - 1 : used + (size_t)k;
		}
	}
	return changes;
}

int alg1_groups_next_units(const Alg1Groups *a, int *units)
{
	if (a->nrec == 0) {
		for (int q = 0; q < a->gg->n; q++)
			units[q] = a->gg->g[q].units;
		return 0;
	}
	return plan_units(a, units, NULL, 0);
}

/* Line 2 on the newest record. */
static void settle(Alg1Groups *a)
{
	const Alg1GroupsRecord *r = &a->rec[a->nrec - 1];
	int over = 0;
	for (int q = 0; q < r->ngroups; q++)
		over += shrinkable(r, q) && cond_over(r->kappa[q], a->o.tau);
	a->reason[0] = '\0';
	a->status = ALG1_RUNNING;
	if (!over) {
		a->status = ALG1_DONE;
		snprintf(a->reason, sizeof a->reason,
		         "every group that may lose units has κ <= τ = %g after %d iterations",
		         a->o.tau, r->iter);
	} else if (plan_units(a, NULL, a->reason, sizeof a->reason) == 0) {
		a->status = ALG1_STUCK;
	} else if (r->iter >= a->o.max_iter) {
		a->status = ALG1_MAX_ITER;
		snprintf(a->reason, sizeof a->reason,
		         "reached max_iter = %d with max κ = %.4g > τ = %g", r->iter, r->max_kappa,
		         a->o.tau);
	}
}

/* Warm: each group shrunk to w[q] keeps the first w[q] units of its
 * stack's pivoted QR, with their trained weights. 0, 1 when stopped, -1. */
static int shrink_warm(const Alg1Groups *a, const int *w, Net **out, Err *e)
{
	const ChannelGroups *gg = a->gg;
	unsigned char *drop = calloc((size_t)gg->nunits + 1, 1);
	int rc = drop ? 0 : err_set(e, "out of memory");
	for (int q = 0; q < gg->n && !rc; q++) {
		if (w[q] == gg->g[q].units)
			continue;
		double *S, *rdiag = NULL;
		int *units, nu, rows, *perm = NULL;
		if ((rc = alg3_group_stack(a->net, gg, q, &S, &units, &nu, &rows, e)))
			break;
		if (!S) /* no stack: plan_units never shrinks such a group */
			continue;
		perm = malloc((size_t)nu * sizeof *perm);
		rdiag = malloc((size_t)nu * sizeof *rdiag);
		if (!perm || !rdiag)
			rc = err_set(e, "out of memory");
		else if (!(rc = cond_qrpt(S, rows, nu, perm, rdiag, e)))
			for (int t = w[q]; t < nu; t++)
				drop[units[perm[t]]] = 1;
		if (rc < 0)
			err_prefix(e, "group %d", q + 1);
		free(S), free(units), free(perm), free(rdiag);
	}
	if (!rc && !(*out = graph_net_drop(a->net, gg, drop, e)))
		rc = -1;
	if (!rc)
		net_reset_adam(*out);
	free(drop);
	return rc;
}

/* The network of iteration iter into *next, and line 4 told in what. 0, 1
 * when stopped, -1. */
static int next_network(Alg1Groups *a, int iter, char *what, size_t len, Net **next, Err *e)
{
	int *w = malloc((size_t)a->gg->n * sizeof *w + 1);
	if (!w)
		return err_set(e, "out of memory");
	alg1_groups_next_units(a, w);
	what[0] = '\0';
	for (int q = 0; iter && q < a->gg->n; q++) {
		const Alg1GroupsRecord *r = &a->rec[a->nrec - 1];
		if (w[q] != r->units[q])
			buf_append(
			    what, len, "%sgroup %d: κ %.4g > τ with %d σ below σ₁/τ, %d → %d units",
			    what[0] ? "; " : "", q + 1, r->kappa[q], r->p[q], r->units[q], w[q]);
	}
	int rc = 0;
	*next = NULL;
	if (iter && a->o.warm)
		rc = shrink_warm(a, w, next, e);
	else if (!(*next = graph_net_resize(a->net, a->gg, w, rng_derive(a->o.seed, (uint64_t)iter),
	                                    e)))
		rc = -1;
	free(w);
	return rc;
}

/* Trains next η epochs and measures it into r (its groups into *ng). 0, 1
 * when stopped, -1. */
static int train_measure(Alg1Groups *a, Net *next, int iter, const Hook *h, ChannelGroups **ng,
                         Alg1GroupsRecord *r, Err *e)
{
	double t0 = clock_seconds();
	a->training = next;
	int rc = train_epochs(next, a->train, &a->o.train, a->o.eta, hook_train, (void *)h, e);
	a->training = NULL;
	if (rc)
		return rc < 0 ? -1 : err_stop(e, "stopped during training");
	if (!(*ng = graph_groups(next->graph, e)))
		return -1;
	rc = record_make(a, next, *ng, iter, clock_seconds() - t0, h, r, e);
	if (rc) {
		graph_groups_free(*ng);
		*ng = NULL;
	}
	return rc < 0 ? -1 : rc ? err_stop(e, "stopped while it was measured") : 0;
}

/* One pass of Algorithm 1 on groups: line 1 on the first call (the initial
 * widths from fresh weights drawn from (seed, 0)), lines 3-6 after (each
 * shrinkable group with κ > τ loses p units; fresh weights from (seed,
 * iter), or warm); line 2's test on the new N̂ before it returns. */
int alg1_groups_step(Alg1Groups *a, const Hook *h, Err *e)
{
	if (a->status != ALG1_RUNNING)
		return 0;
	int iter = a->nrec;
	Alg1GroupsRecord *grown = realloc(a->rec, (size_t)(a->nrec + 1) * sizeof *a->rec);
	if (!grown)
		return err_set(e, "Algorithm 1, iteration %d: out of memory", iter);
	a->rec = grown;
	char what[1200], shape[256];
	Net *next = NULL;
	ChannelGroups *ng = NULL;
	Alg1GroupsRecord r;
	int rc = next_network(a, iter, what, sizeof what, &next, e);
	if (rc == 0)
		rc = train_measure(a, next, iter, h, &ng, &r, e);
	if (rc) {
		net_free(next);
		err_prefix(e, "Algorithm 1, iteration %d%s", iter,
		           rc > 0 ? " (the network before it is kept)" : "");
		return rc;
	}
	net_free(a->net), graph_groups_free(a->gg);
	a->net = next, a->gg = ng;
	a->rec[a->nrec++] = r;
	settle(a);
	hook_step(h, (HookStep){.kind = HOOK_NOTE},
	          "Algorithm 1, iteration %d: %s%s%s %s trained %g epochs %s; %s%s%s", iter, what,
	          what[0] ? "; " : "", iter ? "the smaller network" : "the initial network",
	          graph_shape_str(next->graph, shape, sizeof shape), a->o.eta,
	          iter && a->o.warm ? "from its kept units" : "from fresh weights",
	          alg1_status_name(a->status), a->reason[0] ? ": " : "", a->reason);
	return 0;
}

int alg1_groups_run(Alg1Groups *a, const Hook *h, Err *e)
{
	while (a->status == ALG1_RUNNING) {
		if (hook_cancelled(h))
			return err_stop(e, "Algorithm 1: stopped before iteration %d", a->nrec);
		int rc = alg1_groups_step(a, h, e);
		if (rc)
			return rc;
	}
	return 0;
}
