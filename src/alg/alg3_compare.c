/* alg3_compare.c - the pivoted-QR squeeze beside the norm rule and random
 * choice, at the counts the QR squeeze decides at τ. */
#include "alg/alg3_compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/rng.h"
#include "engine/cond.h"
#include "engine/train.h"

void alg3_compare_opts_default(Alg3CompareOpts *o)
{
	memset(o, 0, sizeof *o);
	o->tau = COND_TAU_DEFAULT;
	o->while_loop = 1;
	o->draws = 20;
	o->seed = 1;
	o->compensate = 1;
	o->sample_rows = ALG3_SAMPLE_ROWS;
	o->retrain = NULL;
	o->retrain_draws = -1;
	o->cost_repeats = 7;
}

void alg3_compare_free(Alg3Compare *c)
{
	if (!c)
		return;
	free(c->n);
	free(c->keep);
	free(c->removed_thresh);
	free(c->removed_loop);
	free(c->kappa);
	free(c->kappa_dec);
	for (int s = 0; s < CMP_NSTAGES; s++)
		free(c->draw_acc[s]);
	memset(c, 0, sizeof *c);
}

static int init(Alg3Compare *c, const Net *net, int draws, Err *e)
{
	memset(c, 0, sizeof *c);
	int h = net->m - 1;
	c->m = net->m;
	c->draws = draws;
	c->n = malloc((size_t)(net->m + 1) * sizeof *c->n);
	c->keep = calloc((size_t)h, sizeof *c->keep);
	c->removed_thresh = calloc((size_t)h, sizeof *c->removed_thresh);
	c->removed_loop = calloc((size_t)h, sizeof *c->removed_loop);
	c->kappa = calloc((size_t)h, sizeof *c->kappa);
	c->kappa_dec = calloc((size_t)h, sizeof *c->kappa_dec);
	int ok =
	    c->n && c->keep && c->removed_thresh && c->removed_loop && c->kappa && c->kappa_dec;
	for (int s = 0; s < CMP_NSTAGES; s++) {
		c->draw_acc[s] = malloc((size_t)draws * sizeof *c->draw_acc[s]);
		ok = ok && c->draw_acc[s];
		for (int r = 0; c->draw_acc[s] && r < draws; r++)
			c->draw_acc[s][r] = NAN;
		c->share_ge[s] = NAN;
		for (int k = 0; k < ALG3_NCRITERIA; k++)
			c->acc[s][k] = (CriterionAcc){NAN, NAN, 0};
	}
	if (!ok) {
		alg3_compare_free(c);
		return err_set(e, "out of memory for a comparison");
	}
	net_units_all(net, c->n);
	c->hidden = 0;
	for (int i = 1; i < net->m; i++)
		c->hidden += c->n[i];
	c->nconv = net->nconv;
	c->cost_before.sec_b1 = c->cost_after.sec_b1 = NAN;
	return 0;
}

typedef struct Ctx {
	const Net *net;
	const Alg3CompareOpts *o;
	const Dataset *train, *eval;
	const Hook *h;
	Alg3Compare *out;
} Ctx;

static double accuracy(const Net *net, const Dataset *d, Err *e)
{
	double acc;
	if (net_accuracy(net, d, NULL, &acc, e) != 0)
		return err_prefix(e, "a squeezed network"), NAN;
	return acc;
}

/* The network squeezed by criterion c (seed) to the counts out->keep, with
 * or without compensation; sq, when given, is that network already. Its
 * accuracy into acc[0] and, retrained, into acc[1] (when retrain). 0, 1
 * (stopped), -1. */
static int measure(Ctx *x, Net *sq, Alg3Criterion c, uint64_t seed, int comp, int retrain,
                   double acc[2], Err *e)
{
	if (!sq) {
		Alg3Opts so;
		alg3_opts_default(&so);
		so.tau = x->o->tau;
		so.while_loop = x->o->while_loop;
		so.compensate = comp;
		so.sample_rows = x->o->sample_rows;
		so.criterion = c;
		so.seed = seed;
		so.keep_counts = x->out->keep;
		so.only = x->o->only;
		sq = net_clone(x->net, e);
		int sr = sq ? alg3_squeeze_net(sq, &so, x->train, NULL, NULL, e) : -1;
		if (sr) {
			net_free(sq);
			return sr;
		}
	}
	int rc = isnan(acc[0] = accuracy(sq, x->eval, e)) ? -1 : 0;
	if (rc == 0 && retrain) {
		rc = train_plan_run(sq, x->train, x->o->retrain, x->h, NULL, e);
		if (rc == 0 && isnan(acc[1] = accuracy(sq, x->eval, e)))
			rc = -1;
	}
	net_free(sq);
	if (rc == 0)
		hook_note(x->h, "τ %g: %s%s: %.2f %%", x->o->tau, alg3_criterion_name(c),
		          comp ? ", compensated" : "", acc[0]);
	return rc == 0 && hook_cancelled(x->h) ? 1 : rc;
}

/* The QR squeeze at τ: the counts, what each stage removed, κ at decision;
 * the squeezed network into *qr. 0, 1 when stopped, -1. */
static int decide(Ctx *x, Net **qr, Err *e)
{
	Alg3Opts so;
	alg3_opts_default(&so);
	so.tau = x->o->tau;
	so.while_loop = x->o->while_loop;
	so.only = x->o->only;
	Net *sq = net_clone(x->net, e);
	Alg3 *a = sq ? alg3_new(sq, &so, NULL, e) : NULL;
	int rc = a ? alg3_run(a, x->h, e) : -1;
	Alg3Compare *c = x->out;
	if (rc == 0) {
		c->removed = a->total;
		for (int i = 1; i < sq->m; i++) {
			c->keep[i - 1] = net_units(sq, i);
			c->removed_thresh[i - 1] = a->removed_qr[i - 1];
			c->removed_loop[i - 1] = a->removed[i - 1] - a->removed_qr[i - 1];
			c->kappa_dec[i - 1] = a->kappa_dec[i - 1];
		}
	}
	alg3_free(a);
	if (rc) {
		net_free(sq);
		sq = NULL;
	}
	*qr = sq;
	return rc;
}

/* Mean, standard deviation and the share at least as good as QR, per stage. */
static void summarize(Alg3Compare *c)
{
	for (int s = 0; s < CMP_NSTAGES; s++) {
		double sum = 0, ss = 0, qr = c->acc[s][ALG3_QR].acc;
		int n = 0, ge = 0;
		for (int r = 0; r < c->draws; r++)
			if (!isnan(c->draw_acc[s][r])) {
				sum += c->draw_acc[s][r];
				ge += c->draw_acc[s][r] >= qr;
				n++;
			}
		if (n == 0)
			continue;
		double mean = sum / n;
		for (int r = 0; r < c->draws; r++)
			if (!isnan(c->draw_acc[s][r]))
				ss += (c->draw_acc[s][r] - mean) * (c->draw_acc[s][r] - mean);
		double sd = n > 1 ? sqrt(ss / (n - 1)) : NAN;
		c->acc[s][ALG3_RANDOM] = (CriterionAcc){mean, sd, n};
		c->share_ge[s] = (double)ge / n;
	}
}

/* Nothing removed and nothing retrained: every criterion's network is the
 * network as given, its accuracy acc_before (measured once). */
static void measure_none(Alg3Compare *c, int compensate)
{
	for (int comp = 0; comp <= compensate; comp++) {
		int s = comp ? CMP_COMPENSATED : CMP_SQUEEZED;
		for (int r = 0; r < c->draws; r++)
			c->draw_acc[s][r] = c->acc_before;
		c->acc[s][ALG3_QR] = c->acc[s][ALG3_NORM] = (CriterionAcc){c->acc_before, NAN, 1};
	}
	summarize(c);
}

/* Every criterion, without and with compensation, retrained when asked. */
static int measure_all(Ctx *x, Net *qr, Err *e)
{
	Alg3Compare *c = x->out;
	const Alg3CompareOpts *o = x->o;
	if (c->removed == 0 && !o->retrain) {
		net_free(qr);
		measure_none(c, o->compensate);
		return 0;
	}
	int rt = o->retrain != NULL, rdraws = o->retrain_draws < 0 ? o->draws : o->retrain_draws;
	for (int comp = 0; comp <= o->compensate; comp++) {
		int s0 = comp ? CMP_COMPENSATED : CMP_SQUEEZED;
		int s1 = comp ? CMP_COMP_RETRAINED : CMP_RETRAINED;
		for (int k = 0; k < ALG3_NCRITERIA; k++) {
			int draws = k == ALG3_RANDOM ? o->draws : 1;
			for (int r = 0; r < draws; r++) {
				double acc[2] = {NAN, NAN};
				int retrain = rt && (k != ALG3_RANDOM || r < rdraws);
				Net *given = k == ALG3_QR && !comp ? qr : NULL;
				if (given)
					qr = NULL; /* measure frees it */
				uint64_t seed = rng_derive(o->seed, (uint64_t)r);
				int rc = measure(x, given, (Alg3Criterion)k, seed, comp, retrain,
				                 acc, e);
				/* a compensation that fails (an overflow) leaves the
				 * squeezes without it compared, its stages marked */
				if (rc < 0 && comp && !hook_cancelled(x->h) &&
				    !hook_thread_stopped()) {
					snprintf(c->comp_failed, sizeof c->comp_failed, "%.255s",
					         e ? e->msg : "failed");
					for (int j = 0; j < c->draws; j++)
						c->draw_acc[s0][j] = c->draw_acc[s1][j] = NAN;
					for (int j = 0; j < ALG3_NCRITERIA; j++)
						c->acc[s0][j] = c->acc[s1][j] =
						    (CriterionAcc){NAN, NAN, 0};
					summarize(c);
					return 0;
				}
				if (rc)
					return rc;
				if (k == ALG3_RANDOM) {
					c->draw_acc[s0][r] = acc[0];
					c->draw_acc[s1][r] = acc[1];
				} else {
					c->acc[s0][k] = (CriterionAcc){acc[0], NAN, 1};
					if (retrain)
						c->acc[s1][k] = (CriterionAcc){acc[1], NAN, 1};
				}
			}
		}
	}
	summarize(c);
	return 0;
}

int alg3_compare(const Net *net, const Alg3CompareOpts *o, const Dataset *train,
                 const Dataset *eval, const Hook *h, Alg3Compare *out, Err *e)
{
	if (!net || !o || !eval)
		return err_set(e, "a comparison needs a network, options and an evaluation set");
	if (o->draws < 1 || o->retrain_draws > o->draws)
		return err_set(e,
		               "%d random draws (%d retrained), expected at least 1 (and at "
		               "most that many retrained)",
		               o->draws, o->retrain_draws);
	if ((o->compensate || o->retrain) && !train)
		return err_set(e, "compensation and retraining need the training set (none given)");
	if (init(out, net, o->draws, e) < 0)
		return -1;
	double t0 = clock_seconds();
	out->tau = o->tau;
	Ctx x = {net, o, train, eval, h, out};
	LayerCond *lc;
	int rc = cond_net_new(net, o->tau, 0, &lc, e);
	for (int i = 0; rc == 0 && i < net->m - 1; i++)
		out->kappa[i] = lc[i].kappa;
	cond_net_free(lc, net->m);
	if (rc == 0 && isnan(out->acc_before = accuracy(net, eval, e)))
		rc = -1;
	if (rc == 0 && o->cost_repeats > 0)
		rc = net_cost_measure(net, o->cost_repeats, o->cost_threads, &out->cost_before, e);
	else if (rc == 0)
		net_cost_count(net, &out->cost_before);
	Net *qr = NULL;
	if (rc == 0)
		rc = decide(&x, &qr, e);
	if (rc == 0 && o->cost_repeats > 0)
		rc = net_cost_measure(qr, o->cost_repeats, o->cost_threads, &out->cost_after, e);
	else if (rc == 0)
		net_cost_count(qr, &out->cost_after);
	if (rc == 0)
		rc = measure_all(&x, qr, e); /* frees qr */
	else
		net_free(qr);
	out->seconds = clock_seconds() - t0;
	if (rc != 0)
		alg3_compare_free(out);
	return rc;
}
