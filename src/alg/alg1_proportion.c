/* alg1_proportion.c - Algorithm 1: proportions of neurons among the layers
 * from the conditioning of the stacked matrices Ŵ⁽ⁱ⁾ = [W⁽ⁱ⁾; b⁽ⁱ⁾ᵀ]. */
#include "alg/alg1_proportion.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/append.h"
#include "base/clock.h"
#include "engine/cond.h"
#include "engine/train_plan.h"

void alg1_opts_default(Alg1Opts *o)
{
	memset(o, 0, sizeof *o);
	o->tau = COND_TAU_DEFAULT;
	o->eta = 1.0;
	o->round = 1;
	o->max_iter = 100;
	o->warm = 0;
	o->seed = 1;
	train_opts_default(&o->train);
}

int alg1_check_tau(double tau, Err *e)
{
	if (!(tau > 1.0) || !isfinite(tau))
		return err_set(e, "τ = %g, expected a finite threshold > 1", tau);
	return 0;
}

int alg1_check_eta(double eta, Err *e)
{
	if (!(eta > 0.0) || !isfinite(eta))
		return err_set(e, "η = %g, expected a positive number of epochs", eta);
	return 0;
}

int alg1_check_training(const TrainOpts *t, int patience, Err *e)
{
	const char *what = patience > 0                     ? "early stopping"
	                   : t->sched.kind == SCHED_PLATEAU ? "the plateau schedule"
	                                                    : NULL;
	if (what)
		return err_set(e,
		               "%s needs a validation set, which Algorithm 1 has not (it trains "
		               "η epochs each time)",
		               what);
	return 0;
}

int alg1_set_tau(Alg1 *a, double tau, Err *e)
{
	if (alg1_check_tau(tau, e) < 0)
		return -1;
	a->o.tau = tau;
	return 0;
}

int alg1_set_eta(Alg1 *a, double eta, Err *e)
{
	if (alg1_check_eta(eta, e) < 0)
		return -1;
	a->o.eta = eta;
	return 0;
}

const char *alg1_status_name(Alg1Status s)
{
	switch (s) {
	case ALG1_RUNNING:
		return "running";
	case ALG1_DONE:
		return "done";
	case ALG1_STUCK:
		return "stuck";
	case ALG1_MAX_ITER:
		return "max-iter";
	}
	return "unknown";
}

static void record_free(Alg1Record *r)
{
	free(r->n);
	free(r->kappa);
	free(r->p);
}

Alg1 *alg1_new(const Net *initial, const Dataset *train, const Alg1Opts *o, Err *e)
{
	if (!initial || initial->m < 1 || !initial->n) {
		err_set(e, "Algorithm 1: expected an initial network with at least one layer");
		return NULL;
	}
	if (!train || !o) {
		err_set(e, "Algorithm 1: expected a training set and options");
		return NULL;
	}
	int m = initial->m;
	if (train->d != initial->n[0]) {
		err_set(e,
		        "Algorithm 1: the training set '%s' has %d features, the network "
		        "expects %d inputs",
		        train->name, train->d, initial->n[0]);
		return NULL;
	}
	if (train->k > initial->n[m]) {
		err_set(e,
		        "Algorithm 1: the training set '%s' has %d classes, the network has "
		        "%d outputs",
		        train->name, train->k, initial->n[m]);
		return NULL;
	}
	if (alg1_check_tau(o->tau, e) < 0) {
		err_prefix(e, "Algorithm 1");
		return NULL;
	}
	if (alg1_check_eta(o->eta, e) < 0) {
		err_prefix(e, "Algorithm 1");
		return NULL;
	}
	if (alg1_check_training(&o->train, 0, e) < 0) {
		err_prefix(e, "Algorithm 1");
		return NULL;
	}
	if (o->round < 0 || o->max_iter < 1) {
		err_set(e,
		        "Algorithm 1: round = %d, max_iter = %d, expected round >= 0 and "
		        "max_iter >= 1",
		        o->round, o->max_iter);
		return NULL;
	}
	for (int i = 0; i <= m; i++)
		if (initial->n[i] < 1) {
			err_set(e, "Algorithm 1: width n[%d] = %d, expected >= 1", i,
			        initial->n[i]);
			return NULL;
		}
	Alg1 *a = calloc(1, sizeof *a);
	if (!a) {
		err_set(e, "Algorithm 1: out of memory");
		return NULL;
	}
	a->o = *o;
	a->train = train;
	/* the shape of the initial network: its units (neurons, channels) and layers */
	int *units = malloc((size_t)(m + 1) * sizeof *units);
	if (units) {
		net_units_all(initial, units);
		a->net = net_reshape(initial, units + 1, e);
	}
	free(units);
	if (!a->net) {
		free(a);
		err_set(e, "Algorithm 1: out of memory for a network of %zu parameters",
		        initial->nparam);
		return NULL;
	}
	net_set_prep(a->net, NULL, NULL);
	a->status = ALG1_RUNNING;
	return a;
}

void alg1_free(Alg1 *a)
{
	if (!a)
		return;
	alg1_records_free(a->rec, a->nrec);
	net_free(a->net);
	free(a);
}

void alg1_records_free(Alg1Record *r, int n)
{
	for (int i = 0; r && i < n; i++)
		record_free(&r[i]);
	free(r);
}

Alg1Record *alg1_records_copy(const Alg1Record *r, int n, Err *e)
{
	if (n < 1)
		return NULL;
	Alg1Record *c = calloc((size_t)n, sizeof *c);
	if (!c) {
		err_set(e, "out of memory copying %d Algorithm-1 records", n);
		return NULL;
	}
	for (int k = 0; k < n; k++) {
		size_t m = (size_t)r[k].m;
		c[k] = r[k];
		c[k].n = malloc((m + 1) * sizeof *c[k].n);
		c[k].kappa = malloc(m * sizeof *c[k].kappa);
		c[k].p = malloc(m * sizeof *c[k].p);
		if (!c[k].n || !c[k].kappa || !c[k].p) {
			alg1_records_free(c, k + 1);
			err_set(e, "out of memory copying %d Algorithm-1 records", n);
			return NULL;
		}
		memcpy(c[k].n, r[k].n, (m + 1) * sizeof *c[k].n);
		memcpy(c[k].kappa, r[k].kappa, m * sizeof *c[k].kappa);
		memcpy(c[k].p, r[k].p, m * sizeof *c[k].p);
	}
	return c;
}

Alg1 *alg1_clone(const Alg1 *a, Err *e)
{
	if (!a) {
		err_set(e, "Algorithm 1: no state to copy");
		return NULL;
	}
	Alg1 *c = malloc(sizeof *c);
	if (!c) {
		err_set(e, "Algorithm 1: out of memory copying the state");
		return NULL;
	}
	*c = *a;
	c->training = NULL;
	c->net = a->net ? net_clone(a->net, e) : NULL;
	c->rec = alg1_records_copy(a->rec, a->nrec, e);
	if ((a->net && !c->net) || (a->nrec > 0 && !c->rec)) {
		net_free(c->net);
		alg1_records_free(c->rec, c->rec ? a->nrec : 0);
		free(c);
		return NULL;
	}
	return c;
}

/* Measures a trained N̂: κ(Ŵ⁽ⁱ⁾) and p_i(τ) of every layer (cond_net), Σ n_i,
 * the training error and, with an eval set, the error there. 0, 1 when
 * stopped, -1. */
static int record_make(const Net *net, const Alg1 *a, int iter, double seconds, const Hook *h,
                       Alg1Record *r, Err *e)
{
	const Alg1Opts *o = &a->o;
	int m = net->m;
	memset(r, 0, sizeof *r);
	r->n = malloc((size_t)(m + 1) * sizeof *r->n);
	r->kappa = malloc((size_t)m * sizeof *r->kappa);
	r->p = malloc((size_t)m * sizeof *r->p);
	if (!r->n || !r->kappa || !r->p) {
		record_free(r);
		return err_set(e, "Algorithm 1, iteration %d: out of memory for the record", iter);
	}
	double tau = o->tau;
	LayerCond *lc;
	int rc = cond_net_new(net, tau, 0, &lc, e);
	if (rc != 0) {
		record_free(r);
		return rc < 0 ? err_prefix(e, "Algorithm 1, iteration %d", iter) : 1;
	}
	r->iter = iter;
	r->m = m;
	r->sum_n = 0;
	net_units_all(net, r->n);
	for (int i = 0; i < m; i++) {
		double k = lc[i].kappa;
		/* an all-zero Ŵ has no meaningful ratio: count it as singular */
		r->kappa[i] = isnan(k) ? INFINITY : k;
		r->p[i] = lc[i].p;
		r->sum_n += r->n[i + 1];
	}
	r->max_kappa = cond_max_kappa(lc, m);
	cond_net_free(lc, m);
	/* in slices, so that a stop is answered within one of them */
	r->eval_error = NAN;
	rc = net_error_hooked(net, a->train, 0, h, &r->train_error, e);
	if (rc == 0 && a->eval)
		rc = net_error_hooked(net, a->eval, 0, h, &r->eval_error, e);
	if (rc != 0) {
		record_free(r);
		return rc < 0 ? err_prefix(e, "Algorithm 1, iteration %d", iter) : 1;
	}
	r->seconds = seconds;
	r->tau = tau;
	r->eta = o->eta;
	return 0;
}

/* Line 4 from the last record: every hidden layer i with κ_i > τ gets
 *     n_i' = n_i − p_i, rounded down to a multiple of `round` (if > 1, and
 * then at least one multiple), clamped to [1, n_i]; the output layer keeps
 * its width. Fills w[0..m] (if
 * not NULL) and, in why, the layers with κ > τ whose width cannot change.
 * Returns how many widths change. */
static int plan_widths(const Alg1 *a, int *w, char *why, size_t len)
{
	const Alg1Record *r = &a->rec[a->nrec - 1];
	int m = r->m, changes = 0, round = a->o.round;
	size_t used = 0;
	if (why && len)
		why[0] = '\0';
	if (w)
		memcpy(w, r->n, (size_t)(m + 1) * sizeof *w);
	for (int i = 0; i < m - 1; i++) {
		int n = r->n[i + 1], p = r->p[i];
		if (!cond_over(r->kappa[i], a->o.tau))
			continue;
		int nw = n - p;
		if (round > 1) {
			nw = nw / round * round;
			if (nw < round)
				nw = round;
		}
		if (nw < 1)
			nw = 1;
		if (nw > n)
			nw = n;
		if (nw != n) {
			changes++;
			if (w)
				w[i + 1] = nw;
			continue;
		}
		if (!why || used + 1 >= len)
			continue;
		int k;
		if (n == 1)
			k = snprintf(why + used, len - used, "%slayer %d: already at width 1",
			             used ? "; " : "", i + 1);
		else if (p == 0)
			k = snprintf(why + used, len - used,
			             "%slayer %d: κ = %.4g > τ but no singular value below σ₁/τ",
			             used ? "; " : "", i + 1, r->kappa[i]);
		else
			k = snprintf(why + used, len - used,
			             "%slayer %d: p = %d rounds to no change at multiple %d",
			             used ? "; " : "", i + 1, p, round);
		if (k > 0)
			used = (size_t)k >= len - used ? len - 1 : used + (size_t)k;
	}
	return changes;
}

/* The loop condition of line 2 evaluated on the newest record, so the status
 * returned by a step already says whether another iteration will follow. */
static void settle(Alg1 *a)
{
	const Alg1Record *r = &a->rec[a->nrec - 1];
	int m = r->m, over = 0, hidden_over = 0;
	for (int i = 0; i < m; i++)
		if (cond_over(r->kappa[i], a->o.tau)) {
			over++;
			if (i < m - 1)
				hidden_over++;
		}
	if (!over) {
		a->status = ALG1_DONE;
		snprintf(a->reason, sizeof a->reason,
		         "every κ <= τ = %g after %d iterations (max κ = %.4g)", a->o.tau, r->iter,
		         r->max_kappa);
		return;
	}
	if (!hidden_over) {
		a->status = ALG1_STUCK;
		snprintf(a->reason, sizeof a->reason,
		         "only the output layer (layer %d) has κ = %.4g > τ = %g, and its width "
		         "is the number of classes",
		         m, r->kappa[m - 1], a->o.tau);
		return;
	}
	char why[sizeof a->reason];
	if (plan_widths(a, NULL, why, sizeof why) == 0) {
		a->status = ALG1_STUCK;
		snprintf(a->reason, sizeof a->reason, "%s", why);
		return;
	}
	if (r->iter >= a->o.max_iter) {
		a->status = ALG1_MAX_ITER;
		snprintf(a->reason, sizeof a->reason,
		         "reached max_iter = %d with max κ = %.4g > τ = %g", r->iter, r->max_kappa,
		         a->o.tau);
		return;
	}
	a->status = ALG1_RUNNING;
	a->reason[0] = '\0';
}

/* Warm start: every shrunk layer keeps the first w[l] neurons of the
 * column-pivoted QR order of its Ŵ in the trained N̂ (the most independent
 * ones), with their weights and Adam moments; into *out. 0, -1, or 1 when
 * a layer's decomposition was stopped. */
static int shrink_warm(const Alg1 *a, const int *w, int iter, Net **out, Err *e)
{
	const Net *cur = a->net;
	*out = NULL;
	Net *next = net_clone(cur, e);
	if (!next)
		return err_set(e, "Algorithm 1, iteration %d: out of memory copying the network",
		               iter);
	for (int l = 1; l < cur->m; l++) {
		if (w[l] == net_units(cur, l))
			continue;
		LayerCond lc;
		memset(&lc, 0, sizeof lc);
		int rc = cond_layer(cur, l, a->o.tau, &lc, e);
		if (rc == 0 && net_keep_neurons(next, l, lc.perm, w[l], e) < 0)
			rc = -1;
		cond_layer_free(&lc);
		if (rc) {
			net_free(next);
			/* a stop says where already */
			return rc < 0
			           ? err_prefix(e, "Algorithm 1, iteration %d, layer %d", iter, l)
			           : 1;
		}
	}
	*out = next;
	return 0;
}

/* What line 4 does to each layer with κ > τ, from the last record and the
 * planned widths w: "layer 2: κ 649 > τ = 25 with 95 σ below σ₁/τ, 300 → 205
 * neurons". */
static void describe_plan(const Alg1 *a, const int *w, char *buf, size_t len)
{
	const Alg1Record *r = &a->rec[a->nrec - 1];
	char kb[32];
	buf[0] = '\0';
	for (int i = 0; i < r->m - 1; i++) {
		if (!cond_over(r->kappa[i], a->o.tau))
			continue;
		buf_append(buf, len, "%slayer %d: κ %s > τ = %g with %d σ below σ₁/τ, %d → %d %s",
		           buf[0] ? "; " : "", i + 1,
		           cond_kappa_str(r->kappa[i], a->o.tau, kb, sizeof kb), a->o.tau, r->p[i],
		           r->n[i + 1], w[i + 1], net_unit_name(a->net, i + 1, 1));
		if (a->o.round > 1 && r->n[i + 1] - r->p[i] != w[i + 1])
			buf_append(buf, len, " (rounded to a multiple of %d)", a->o.round);
	}
}

/* Which layers of the newest record have κ > τ and what follows, for the
 * step's text: "κ > τ = 25 in layers 2, 3 (max κ 56.2): another iteration
 * removes their p_i neurons". */
static void describe_outcome(const Alg1 *a, char *buf, size_t len)
{
	const Alg1Record *r = &a->rec[a->nrec - 1];
	char kb[32];
	int over = 0;
	buf[0] = '\0';
	for (int i = 0; i < r->m; i++)
		if (cond_over(r->kappa[i], a->o.tau))
			buf_append(buf, len, "%s%d", over++ ? ", " : "", i + 1);
	cond_kappa_str(r->max_kappa, a->o.tau, kb, sizeof kb);
	if (!over) {
		snprintf(buf, len, "every κ ≤ τ = %g (max κ %s): done", a->o.tau, kb);
		return;
	}
	char layers[256];
	snprintf(layers, sizeof layers, "%s", buf);
	snprintf(buf, len, "κ > τ = %g in layer%s %s (max κ %s): ", a->o.tau, over > 1 ? "s" : "",
	         layers, kb);
	if (a->status == ALG1_RUNNING)
		buf_append(buf, len, "another iteration removes their p_i neurons");
	else
		buf_append(buf, len, "%s, %s", alg1_status_name(a->status), a->reason);
}

/* The network of the next iteration into *next: the initial shape (line
 * 1), or the widths of line 4 from fresh weights or warm; *what describes
 * line 4. 0, -1, or 1 when stopped in a layer's pivoted QR (warm). */
static int next_network(Alg1 *a, int iter, char *what, size_t len, Net **next, Err *e)
{
	int m = a->net->m;
	*next = NULL;
	if (iter == 0) {
		what[0] = '\0';
		int *units = malloc((size_t)(m + 1) * sizeof *units);
		if (!units)
			return err_set(e, "Algorithm 1: out of memory");
		net_units_all(a->net, units);
		*next = net_fresh_like(a->net, units, rng_derive(a->o.seed, 0), e);
		free(units);
		return *next ? 0 : -1;
	}
	int *w = malloc((size_t)(m + 1) * sizeof *w);
	if (!w)
		return err_set(e, "Algorithm 1, iteration %d: out of memory", iter);
	plan_widths(a, w, NULL, 0);
	describe_plan(a, w, what, len);
	int rc = 0;
	if (a->o.warm)
		rc = shrink_warm(a, w, iter, next, e);
	else if (!(*next = net_fresh_like(a->net, w, rng_derive(a->o.seed, (uint64_t)iter), e)))
		rc = -1;
	free(w);
	return rc;
}

/* One pass of Algorithm 1 (paper, Algorithm 1):
 *   first call, line 1:  N̂ = T(N, D_tr, η) from Glorot weights (seed, 0);
 *   later calls, lines 3-6: for each hidden layer with κ(Ŵ⁽ⁱ⁾) > τ remove
 *   p_i = #{σ_j < σ₁/τ} neurons, then N̂ = T(N, D_tr, η) — from fresh
 *   Glorot weights (seed, iter) as the paper does, or warm from the kept
 *   neurons. The loop test of line 2 runs on the new N̂ before returning. */
int alg1_step(Alg1 *a, const Hook *h, Err *e)
{
	if (!a)
		return err_set(e, "Algorithm 1: no state to step");
	if (a->status != ALG1_RUNNING)
		return 0;
	int iter = a->nrec;
	Alg1Record *grown = realloc(a->rec, (size_t)(a->nrec + 1) * sizeof *a->rec);
	if (!grown)
		return err_set(e, "Algorithm 1, iteration %d: out of memory for the records", iter);
	a->rec = grown;
	char what[1200];
	Net *next;
	int rc = next_network(a, iter, what, sizeof what, &next, e);
	if (rc < 0)
		return err_prefix(e, "Algorithm 1, iteration %d", iter);
	if (rc == 1) { /* the decomposition said where it stopped */
		err_prefix(e,
		           "Algorithm 1, iteration %d, while the network was shrunk (the one "
		           "before it is kept)",
		           iter);
		return 1;
	}

	double t0 = clock_seconds();
	a->training = next;
	rc = train_epochs(next, a->train, &a->o.train, a->o.eta, hook_train, (void *)h, e);
	a->training = NULL;
	double secs = clock_seconds() - t0;
	if (rc < 0) {
		net_free(next);
		return err_prefix(e, "Algorithm 1, iteration %d", iter);
	}
	if (rc == 1) {
		net_free(next);
		return err_stop(e,
		                "Algorithm 1, iteration %d: stopped during training; the network "
		                "before it is kept",
		                iter);
	}
	Alg1Record r;
	if ((rc = record_make(next, a, iter, secs, h, &r, e)) != 0) {
		net_free(next);
		if (rc < 0)
			return -1;
		/* a stop while κ or the errors were measured: as one during training */
		return err_stop(e,
		                "Algorithm 1, iteration %d: stopped while it was measured; the "
		                "network before it is kept",
		                iter);
	}
	net_free(a->net);
	a->net = next;
	a->rec[a->nrec++] = r;
	settle(a);
	char shape[256], outcome[512];
	net_shape_str(next, shape, sizeof shape);
	describe_outcome(a, outcome, sizeof outcome);
	hook_step(h, (HookStep){.kind = HOOK_ALG1_ITER, .alg1 = a},
	          "Algorithm 1, iteration %d: %s%s%s %s trained %g epoch%s %s; Σ n_i %ld; %s", iter,
	          what, what[0] ? "; " : "", iter ? "the smaller network" : "the initial network",
	          shape, a->o.eta, a->o.eta == 1 ? "" : "s",
	          iter && a->o.warm ? "from its kept neurons" : "from fresh weights", r.sum_n,
	          outcome);
	return 0;
}

int alg1_run(Alg1 *a, const Hook *h, Err *e)
{
	if (!a)
		return err_set(e, "Algorithm 1: no state to run");
	while (a->status == ALG1_RUNNING) {
		if (hook_cancelled(h))
			return err_stop(e, "Algorithm 1: stopped before iteration %d", a->nrec);
		int rc = alg1_step(a, h, e);
		if (rc != 0)
			return rc;
	}
	return 0;
}

int alg1_next_widths(const Alg1 *a, int *widths, Err *e)
{
	if (!a || !widths)
		return err_set(e, "Algorithm 1: expected a state and a widths array");
	if (a->nrec == 0) {
		net_units_all(a->net, widths);
		return 0;
	}
	return plan_widths(a, widths, NULL, 0);
}
