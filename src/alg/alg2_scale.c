/* alg2_scale.c - Algorithm 2: scale the hidden widths by each β, train q
 * times, pick the least 2ε_v − ε_tr. */
#include "alg/alg2_scale.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/fpmode.h"
#include "base/rng.h"
#include "engine/cond.h"
#include "engine/graph_resize.h"
#include "engine/limits.h"
#include "engine/train_plan.h"

/* The public state followed by what screens need not see: per trial, whether
 * it is done and its errors, so means are summed in trial order whatever
 * order the trials arrived in (in-process and gathered runs agree bit for bit). */
typedef struct Alg2Priv {
	Alg2 pub;
	int cap;             /* entries allocated in pub.b (each with its widths) */
	unsigned char *seen; /* cap × q */
	double *etr, *ev;    /* cap × q */
} Alg2Priv;

static Alg2Priv *priv(Alg2 *a)
{
	return (Alg2Priv *)a;
}

void alg2_opts_default(Alg2Opts *o)
{
	memset(o, 0, sizeof *o);
	o->nbeta = 8; /* the paper's MNIST sweep, 1.0:2.4:0.2 */
	for (int i = 0; i < o->nbeta; i++)
		o->betas[i] = 1.0 + 0.2 * i;
	o->q = 5;
	o->eta = 1.0;
	o->extend = 1;
	o->max_extend = 4;
	o->jobs = 1;
	o->seed = 1;
	train_opts_default(&o->train);
}

uint64_t alg2_trial_seed(uint64_t seed, double beta, int trial)
{
	return rng_derive(seed, (uint64_t)llround(beta * 1000.0) * 1000u + (uint64_t)trial);
}

/* Algorithm 2, line 4: [N̂ʲ, ε_tr, ε_v] = T(Nʲ, D_tr, D_v, η) from Glorot
 * weights and a shuffling order drawn from alg2_trial_seed(seed, β, trial).
 * Also records max_i κ(Ŵ⁽ⁱ⁾) of the trained network. */
int alg2_trial_train(const Net *shape, double beta, int trial, const Dataset *tr, const Dataset *v,
                     const Alg2Opts *o, Alg2Trial *out, const Hook *h, void *ud, Err *e)
{
	if (!shape || !tr || !v || !o || !out)
		return err_set(e, "Algorithm 2 trial: expected a network, data sets and options");
	int m = shape->m;
	if (tr->d != shape->n[0] || v->d != shape->n[0])
		return err_set(e,
		               "Algorithm 2 trial: data sets have %d and %d features, the "
		               "network expects %d inputs",
		               tr->d, v->d, shape->n[0]);
	uint64_t seed = alg2_trial_seed(o->seed, beta, trial);
	int *units = malloc((size_t)(m + 1) * sizeof *units);
	Net *net = NULL;
	if (units && shape->graph) { /* the shape's own widths, fresh weights */
		if ((net = net_clone(shape, e))) {
			Rng r;
			rng_seed(&r, seed);
			net_init_glorot(net, &r);
		}
	} else if (units) {
		net_units_all(shape, units);
		net = net_fresh_like(shape, units, seed, e);
	}
	free(units);
	if (!net)
		return err_set(e, "Algorithm 2 trial β = %g: out of memory", beta);
	m = cond_layers(net);
	TrainOpts to = o->train;
	to.seed = seed;
	double t0 = clock_seconds();
	int rc = train_epochs(net, tr, &to, o->eta, hook_train, (void *)h, e);
	double secs = clock_seconds() - t0;
	LayerCond *lc = NULL;
	if (rc == 0)
		rc = cond_net_new(net, COND_TAU_DEFAULT, 0, &lc, e);
	if (rc == 0) {
		out->beta = beta;
		out->trial = trial;
		rc = net_error_hooked(net, tr, o->train.workers, h, &out->err_tr, e);
		if (rc == 0)
			rc = net_error_hooked(net, v, o->train.workers, h, &out->err_v, e);
		out->max_kappa = cond_max_kappa(lc, m);
		out->seconds = secs;
	}
	cond_net_free(lc, m);
	net_free(net);
	if (rc < 0)
		err_prefix(e, "Algorithm 2 trial β = %g, trial %d", beta, trial);
	return rc;
}

void alg2_free(Alg2 *a)
{
	if (!a)
		return;
	Alg2Priv *p = priv(a);
	if (a->b)
		for (int i = 0; i < p->cap; i++)
			free(a->b[i].widths);
	free(a->b);
	free(p->seen);
	free(p->etr);
	free(p->ev);
	net_free(a->base);
	free(p);
}

static int beta_set(Alg2 *a, int i, double beta)
{
	Alg2Beta *b = &a->b[i];
	b->beta = beta;
	b->done = 0;
	b->err_tr = b->err_v = b->score = 0.0;
	return alg2_scaled_widths(a->base, beta, b->widths);
}

Alg2 *alg2_new(const Net *base, const Dataset *tr, const Dataset *v, const Alg2Opts *o, Err *e)
{
	if (!base || base->m < 1 || !o) {
		err_set(e, "Algorithm 2: expected a base network and options");
		return NULL;
	}
	if (o->nbeta < 1 || o->nbeta > 64 || o->q < 1 || !(o->eta > 0) || !isfinite(o->eta) ||
	    o->max_extend < 0) {
		err_set(e,
		        "Algorithm 2: %d β, q = %d, η = %g, max_extend = %d; expected 1..64 β, "
		        "q >= 1, η > 0, max_extend >= 0",
		        o->nbeta, o->q, o->eta, o->max_extend);
		return NULL;
	}
	double betas[64];
	memcpy(betas, o->betas, (size_t)o->nbeta * sizeof *betas);
	alg2_sort_betas(betas, o->nbeta);
	for (int i = 0; i < o->nbeta; i++) {
		if (!(betas[i] > 0) || !isfinite(betas[i])) {
			err_set(e, "Algorithm 2: β = %g, every β must be finite and > 0", betas[i]);
			return NULL;
		}
		if (i > 0 && betas[i] - betas[i - 1] < BETA_MATCH) {
			err_set(e, "Algorithm 2: β = %g appears twice", betas[i]);
			return NULL;
		}
	}
	if (alg2_check_betas(base, betas, o->nbeta, e) < 0)
		return NULL;
	const Dataset *ds[2] = {tr, v};
	for (int j = 0; j < 2; j++)
		if (ds[j] && (ds[j]->d != base->n[0] || ds[j]->k > base->n[base->m])) {
			err_set(e,
			        "Algorithm 2: the data set '%s' has %d features and %d classes, "
			        "the network %d inputs and %d outputs",
			        ds[j]->name, ds[j]->d, ds[j]->k, base->n[0], base->n[base->m]);
			return NULL;
		}
	Alg2Priv *p = calloc(1, sizeof *p);
	if (!p) {
		err_set(e, "Algorithm 2: out of memory");
		return NULL;
	}
	Alg2 *a = &p->pub;
	a->o = *o;
	a->tr = tr;
	a->v = v;
	a->fn = alg2_trial_train;
	p->cap = o->nbeta + o->max_extend;
	size_t cells = (size_t)p->cap * (size_t)o->q;
	a->base = alg2_shape(base, NULL, e);
	a->b = calloc((size_t)p->cap, sizeof *a->b);
	p->seen = calloc(cells, 1);
	p->etr = calloc(cells, sizeof *p->etr);
	p->ev = calloc(cells, sizeof *p->ev);
	a->nw = alg2_nwidths(base);
	int ok = a->base && a->b && p->seen && p->etr && p->ev && a->nw > 0;
	for (int i = 0; ok && i < p->cap; i++) {
		a->b[i].widths = malloc((size_t)a->nw * sizeof(int));
		ok = a->b[i].widths != NULL;
	}
	a->nb = o->nbeta;
	for (int i = 0; ok && i < a->nb; i++)
		ok = beta_set(a, i, betas[i]) == 0;
	if (!ok) {
		alg2_free(a);
		err_set(e, "Algorithm 2: out of memory");
		return NULL;
	}
	return a;
}

/* Lines 6-7 and the score of line 9 for β index i: means over the trials
 * done, summed in trial order. */
static void beta_update(Alg2 *a, int i)
{
	Alg2Priv *p = priv(a);
	int q = a->o.q, d = 0;
	double st = 0, sv = 0;
	for (int t = 0; t < q; t++)
		if (p->seen[i * q + t]) {
			st += p->etr[i * q + t];
			sv += p->ev[i * q + t];
			d++;
		}
	Alg2Beta *b = &a->b[i];
	b->done = d;
	b->err_tr = d ? st / d : 0.0;
	b->err_v = d ? sv / d : 0.0;
	b->score = 2.0 * b->err_v - b->err_tr;
}

static int trial_check(const Alg2Trial *t, Err *e)
{
	if (!(t->err_tr >= 0 && t->err_tr <= 1) || !(t->err_v >= 0 && t->err_v <= 1))
		return err_set(e, "β = %g, trial %d: errors %g and %g, expected both in [0, 1]",
		               t->beta, t->trial, t->err_tr, t->err_v);
	return 0;
}

static void trial_store(Alg2 *a, int i, const Alg2Trial *t)
{
	Alg2Priv *p = priv(a);
	int k = i * a->o.q + t->trial;
	p->seen[k] = 1;
	p->etr[k] = t->err_tr;
	p->ev[k] = t->err_v;
	beta_update(a, i);
}

/* The next (β, trial) in order: β ascending, trials 0..q−1. 0 if all done. */
static int next_trial(Alg2 *a, int *bi, int *ti)
{
	const Alg2Priv *p = priv(a);
	int q = a->o.q;
	for (int i = 0; i < a->nb; i++)
		for (int t = 0; t < q; t++)
			if (!p->seen[i * q + t]) {
				*bi = i;
				*ti = t;
				a->next = i;
				return 1;
			}
	a->next = a->nb;
	return 0;
}

int alg2_pick(const Alg2 *a)
{
	int best = -1;
	for (int i = 0; i < a->nb; i++)
		if (a->b[i].done == a->o.q && (best < 0 || a->b[i].score < a->b[best].score))
			best = i;
	return best;
}

/* After the last trial: when the pick is at an edge of the β range, the
 * paper suggests looking beyond it; add one β one gap further (0.2 for a
 * single β), while β stays > 0 and fewer than max_extend were added.
 * Returns 0 when a β was added, 1 when finished. */
static int settle(Alg2 *a)
{
	Alg2Priv *p = priv(a);
	int pick = alg2_pick(a), q = a->o.q;
	if (a->o.extend && a->extended < a->o.max_extend && a->nb < p->cap && pick >= 0) {
		double nb;
		int at = -1;
		if (pick == a->nb - 1) {
			double gap = a->nb > 1 ? a->b[a->nb - 1].beta - a->b[a->nb - 2].beta : 0.2;
			nb = alg2_beta_snap(a->b[a->nb - 1].beta + gap);
			at = a->nb;
		} else if (pick == 0) {
			nb = alg2_beta_snap(a->b[0].beta - (a->b[1].beta - a->b[0].beta));
			if (nb > BETA_MATCH)
				at = 0;
		}
		/* a β the step cannot move (1e20 + 0.2), whose network is past the
		 * limits, or the edge's network again (the step adds no neuron) ends
		 * the sweep instead */
		double pair[2] = {a->b[at > 0 ? a->nb - 1 : 0].beta, nb};
		if (at >= 0 && (fabs(nb - pair[0]) < BETA_MATCH ||
		                limit_check(LIM_BETA, nb, "β", NULL, NULL) < 0 ||
		                alg2_check_betas(a->base, &nb, 1, NULL) < 0 ||
		                alg2_check_distinct(a->base, pair, 2, NULL) < 0))
			at = -1;
		if (at >= 0) {
			Alg2Beta spare = a->b[a->nb];
			size_t row = (size_t)q;
			if (at == 0) {
				memmove(a->b + 1, a->b, (size_t)a->nb * sizeof *a->b);
				memmove(p->seen + row, p->seen, (size_t)a->nb * row);
				memmove(p->etr + row, p->etr, (size_t)a->nb * row * sizeof *p->etr);
				memmove(p->ev + row, p->ev, (size_t)a->nb * row * sizeof *p->ev);
			}
			a->b[at] = spare;
			memset(p->seen + (size_t)at * row, 0, row);
			a->nb++;
			a->extended++;
			a->next = at;
			/* alg2_check_betas computed these widths above */
			(void)beta_set(a, at, nb);
			return 0;
		}
	}
	a->finished = 1;
	return 1;
}

/* Trial t of β by fn on the network of base's kind with the given widths. */
static int shape_trial(Alg2TrialFn fn, void *ud, const Net *base, const int *widths, double beta,
                       int t, const Dataset *trs, const Dataset *v, const Alg2Opts *o,
                       Alg2Trial *tr, const Hook *h, Err *e)
{
	Net *shape = alg2_shape(base, widths, e);
	if (!shape)
		return err_prefix(e, "Algorithm 2, β = %g", beta);
	memset(tr, 0, sizeof *tr);
	tr->beta = beta;
	tr->trial = t;
	int rc = fn(shape, beta, t, trs, v, o, tr, h, ud, e);
	net_free(shape);
	tr->beta = beta;
	tr->trial = t;
	return rc;
}

/* Runs trial t of β index i on the calling thread with options o. */
static int run_trial(Alg2 *a, int i, int t, const Alg2Opts *o, Alg2Trial *tr, const Hook *h, Err *e)
{
	return shape_trial(a->fn, a->fn_ud, a->base, a->b[i].widths, a->b[i].beta, t, a->tr, a->v,
	                   o, tr, h, e);
}

int alg2_trial(const Net *base, double beta, int trial, const Dataset *tr, const Dataset *v,
               const Alg2Opts *o, int *widths, Alg2Trial *out, const Hook *h, Err *e)
{
	if (alg2_scaled_widths(base, beta, widths))
		return err_set(e, "Algorithm 2, β = %g: out of memory", beta);
	return shape_trial(alg2_trial_train, NULL, base, widths, beta, trial, tr, v, o, out, h, e);
}

/* Records the outcome rc of trial t of β index i and reports it; 0, 1 when
 * it was stopped, -1 when it failed (with the message). */
static int record_trial(Alg2 *a, int i, int t, int rc, Alg2Trial *tr, const Hook *h, Err *e)
{
	double beta = a->b[i].beta;
	if (rc < 0)
		return err_prefix(e, "Algorithm 2, β = %g, trial %d", beta, t);
	if (rc > 0)
		return err_stop(e, "Algorithm 2, β = %g, trial %d: stopped during training", beta,
		                t);
	if (trial_check(tr, e) < 0)
		return err_prefix(e, "Algorithm 2");
	trial_store(a, i, tr);
	const Alg2Beta *b = &a->b[i];
	hook_step(h, (HookStep){.kind = HOOK_ALG2_TRIAL, .alg2 = a, .trial = tr},
	          "Algorithm 2, β %.2f, trial %d of %d: ε_tr %.2f %%, ε_v %.2f %%; mean of %d: "
	          "2ε_v − ε_tr = %.2f %%",
	          beta, t + 1, a->o.q, 100 * tr->err_tr, 100 * tr->err_v, b->done, 100 * b->score);
	return 0;
}

/* ---- trials side by side ---- */

#define ALG2_MAX_JOBS 64

/* The next trials of one alg2_step with o.jobs > 1, each on a thread of
 * its own with its share of the threads (TrainOpts.workers), all with the
 * same parts (TrainOpts.threads): their results are the serial run's. Only
 * the calling thread calls the caller's hook; the trial it runs reports its
 * progress, and a stop reaches the others through `stop`. */
typedef struct Side {
	Alg2 *a;
	Alg2Opts o;
	const Hook *h;
	int k;
	int bi[ALG2_MAX_JOBS], ti[ALG2_MAX_JOBS], rc[ALG2_MAX_JOBS];
	Alg2Trial tr[ALG2_MAX_JOBS];
	Err err[ALG2_MAX_JOBS];
	atomic_int stop, done;
} Side;

typedef struct SideArg {
	Side *s;
	int j;
} SideArg;

static int side_progress(const TrainProgress *p, void *ud)
{
	return atomic_load(&((Side *)ud)->stop);
}

static int side_cancelled(void *ud)
{
	return atomic_load(&((Side *)ud)->stop);
}

static int lead_progress(const TrainProgress *p, void *ud)
{
	Side *s = ud;
	if (s->h && s->h->progress && s->h->progress(p, s->h->ud))
		atomic_store(&s->stop, 1);
	return atomic_load(&s->stop);
}

static void lead_step(const HookStep *st, void *ud)
{
	Side *s = ud;
	if (s->h && s->h->step)
		s->h->step(st, s->h->ud);
}

static int lead_cancelled(void *ud)
{
	Side *s = ud;
	if (hook_cancelled(s->h))
		atomic_store(&s->stop, 1);
	return atomic_load(&s->stop);
}

static void *side_thread(void *v)
{
	SideArg *sa = v;
	Side *s = sa->s;
	int j = sa->j;
	Hook hk = {side_progress, NULL, side_cancelled, s};
	s->rc[j] = run_trial(s->a, s->bi[j], s->ti[j], &s->o, &s->tr[j], &hk, &s->err[j]);
	atomic_fetch_add(&s->done, 1);
	return NULL;
}

/* Runs the next min(o.jobs, trials left) trials at once and records them in
 * trial order, up to the first that failed or was stopped (its message). */
static int side_step(Alg2 *a, const Hook *h, Err *e)
{
	const Alg2Priv *p = priv(a);
	Side *s = calloc(1, sizeof *s);
	if (!s)
		return err_set(e, "Algorithm 2: out of memory");
	int q = a->o.q, jobs = a->o.jobs < ALG2_MAX_JOBS ? a->o.jobs : ALG2_MAX_JOBS;
	for (int i = 0; i < a->nb; i++)
		for (int t = 0; t < q && s->k < jobs; t++)
			if (!p->seen[i * q + t]) {
				s->bi[s->k] = i;
				s->ti[s->k++] = t;
			}
	s->a = a;
	s->h = h;
	s->o = a->o;
	int threads = train_threads(&a->o.train);
	s->o.train.threads = threads;
	s->o.train.workers = threads / s->k > 1 ? threads / s->k : 1;
	pthread_t tid[ALG2_MAX_JOBS];
	SideArg arg[ALG2_MAX_JOBS];
	int started[ALG2_MAX_JOBS] = {0}, nstarted = 0;
	for (int j = 1; j < s->k; j++) {
		arg[j] = (SideArg){s, j};
		started[j] = thread_start(&tid[j], side_thread, &arg[j]) == 0;
		nstarted += started[j];
	}
	Hook lead = {lead_progress, lead_step, lead_cancelled, s};
	/* the caller's trial, then any whose thread did not start */
	for (int j = 0; j < s->k; j++)
		if (j == 0 || !started[j])
			s->rc[j] =
			    run_trial(a, s->bi[j], s->ti[j], &s->o, &s->tr[j], &lead, &s->err[j]);
	while (atomic_load(&s->done) < nstarted) {
		if (hook_cancelled(h))
			atomic_store(&s->stop, 1);
		nanosleep(&(struct timespec){0, 10000000}, NULL);
	}
	for (int j = 1; j < s->k; j++)
		if (started[j])
			pthread_join(tid[j], NULL);
	int rc = 0;
	for (int j = 0; j < s->k && rc == 0; j++)
		if ((rc =
		         record_trial(a, s->bi[j], s->ti[j], s->rc[j], &s->tr[j], h, &s->err[j])) &&
		    e)
			*e = s->err[j];
	free(s);
	return rc;
}

/* One trial of Algorithm 2 (lines 3-5 for one (β_j, l)), in the order β
 * ascending, l = 0..q−1, or the next o.jobs trials side by side; after the last one the means give
 * the pick of line 9, possibly extending the β range at the chosen edge. */
int alg2_step(Alg2 *a, const Hook *h, Err *e)
{
	if (!a)
		return err_set(e, "Algorithm 2: no state to step");
	if (a->finished)
		return 0;
	int i, t, rc;
	if (!next_trial(a, &i, &t)) {
		settle(a);
		return 0;
	}
	if (a->o.jobs > 1) {
		if ((rc = side_step(a, h, e)) != 0)
			return rc;
	} else {
		Alg2Trial tr;
		rc = run_trial(a, i, t, &a->o, &tr, h, e);
		if ((rc = record_trial(a, i, t, rc, &tr, h, e)) != 0)
			return rc;
	}
	if (!next_trial(a, &i, &t))
		settle(a);
	return 0;
}

int alg2_run(Alg2 *a, const Hook *h, Err *e)
{
	if (!a)
		return err_set(e, "Algorithm 2: no state to run");
	while (!a->finished) {
		if (hook_cancelled(h))
			return err_stop(e, "Algorithm 2: stopped between trials");
		int rc = alg2_step(a, h, e);
		if (rc != 0)
			return rc;
	}
	return 0;
}

Net *alg2_pick_net(const Alg2 *a, uint64_t seed, Err *e)
{
	int pick = alg2_pick(a);
	if (pick < 0) {
		err_set(e, "Algorithm 2: no β has all its %d trials yet", a->o.q);
		return NULL;
	}
	return alg2_fresh(a->base, a->b[pick].widths, seed, e);
}

int alg2_add_trial(Alg2 *a, const Alg2Trial *t, Err *e)
{
	if (!a || !t)
		return err_set(e, "Algorithm 2: expected a state and a trial");
	int i = 0;
	while (i < a->nb && fabs(a->b[i].beta - t->beta) > BETA_MATCH)
		i++;
	if (i == a->nb)
		return err_set(e, "Algorithm 2: β = %g is not in the list (%g .. %g, %d values)",
		               t->beta, a->b[0].beta, a->b[a->nb - 1].beta, a->nb);
	if (t->trial < 0 || t->trial >= a->o.q)
		return err_set(e, "Algorithm 2: β = %g, trial %d, expected a trial in 0..%d",
		               t->beta, t->trial, a->o.q - 1);
	if (priv(a)->seen[i * a->o.q + t->trial])
		return err_set(e, "Algorithm 2: β = %g, trial %d was already recorded", t->beta,
		               t->trial);
	if (trial_check(t, e) < 0)
		return err_prefix(e, "Algorithm 2");
	Alg2Trial c = *t;
	c.beta = a->b[i].beta;
	trial_store(a, i, &c);
	int bi, ti;
	next_trial(a, &bi, &ti);
	return 0;
}
