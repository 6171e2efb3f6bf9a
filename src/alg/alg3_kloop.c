/* alg3_kloop.c - Algorithm 3's κ loop by bisection on the blocks of the
 * pivoted QR's triangle, with the one-at-a-time loop's decisions. */
#include "alg/alg3_kloop.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/cond.h"
#include "engine/cond_matrix.h"
#include "engine/hook.h"

/* What κ of a block of R says about the loop's test κ ≤ τ. */
enum { ABOVE, NEAR, BELOW };

/* Guesses of the guide before plain bisection takes over, and the wrong
 * ones (on the side the guide did not expect) that end them earlier. */
enum { GUIDE_MAX = 8, GUIDE_MISSES = 2 };

typedef struct Search {
	const KLoopLayer *in;
	KLoopResult *out;
	int rows;       /* of Ŵ: the zero threshold of the σ's */
	double band;    /* relative: κ of a block within τ(1 ± band) decides nothing */
	CondGram *gram; /* RᵀR for the guide, made at its first guess */
	int guide;      /* the guide still guesses */
	int misses;
	int expect; /* what the last guess expected, or -1 */
	int probes; /* probes so far, for the meter */
	char what[128];
	Err *e;
} Search;

/* The band: κ of a block and κ of the stacked columns each lie within about
 * ε·κ·√n of the exact κ (Householder QR and the SVD are backward stable);
 * 2⁻⁴⁰·(rows + cols)·τ is thousands of times that, and still a relative
 * 10⁻⁸ or less at τ = 25 for layers of up to 4,000 neurons. */
static double band_of(int rows, int cols, double tau)
{
	return ldexp((double)rows + cols, -40) * tau;
}

static int classify(const Search *s, double k)
{
	double tau = s->in->tau;
	if (k > tau * (1 + s->band))
		return ABOVE;
	if (k < tau * (1 - s->band))
		return BELOW;
	return NEAR;
}

/* The meter's part for the next probe: each takes 30 % of what is left of
 * the whole, so the share grows with every probe. */
static HookPart probe_part(Search *s, const char *kind, int q)
{
	double f0 = 1 - pow(0.7, s->probes), f1 = 1 - pow(0.7, s->probes + 1);
	s->probes++;
	snprintf(s->what, sizeof s->what, "layer %d: the κ loop, κ of the first %d pivoted %s",
	         s->in->layer, q, kind);
	return hook_meter_part(s->what, f0, f1);
}

/* κ(Ŵ P(:, 1..q)) from the stacked columns, as the loop measures it, into
 * *k (σ₁ into *s1, may be NULL). 0, 1 when stopped, -1. */
static int kappa_cols(Search *s, int q, double *k, double *s1)
{
	const KLoopLayer *in = s->in;
	s->out->evals_cols++;
	HookPart was = probe_part(s, "columns", q);
	int rc = cond_kappa_columns_s1(in->net, in->layer, in->perm, q, k, s1, s->e);
	hook_meter_restore(was);
	return rc;
}

/* κ of R₁₁(1..q, 1..q): the same σ's in exact arithmetic, into *k and σ₁
 * into *s1. 0, 1 when stopped, -1. */
static int kappa_block(Search *s, int q, double *k, double *s1)
{
	const KLoopLayer *in = s->in;
	s->out->evals_tri++;
	HookPart was = probe_part(s, "columns (block of R)", q);
	int rc = cond_kappa_triangle(in->R, in->k, q, s->rows, k, s1, s->e);
	hook_meter_restore(was);
	if (rc) /* failed, or stopped (1) */
		err_prefix(s->e, "layer %d: the κ loop", in->layer);
	return rc;
}

/* The next probe, strictly between lo (not above τ) and hi (above): the
 * guide's guess or the middle. With h_lo and h_hi the σ₁ of the blocks lo
 * and hi (σ₁ grows with q), every q ≤ smin_count(h_hi/τ) has σ_min >
 * h_hi/τ ≥ σ₁/τ, so κ < τ; every q > smin_count(h_lo/τ) has σ_min ≤ h_lo/τ
 * ≤ σ₁/τ, so κ ≥ τ. The first such q the guide has not confirmed is its
 * guess. */
static int next_probe(Search *s, int lo, int hi, double h_lo, double h_hi)
{
	int mid = lo + (hi - lo) / 2;
	s->expect = -1;
	if (!s->guide || hi - lo <= 2 || s->out->guided >= GUIDE_MAX || s->misses >= GUIDE_MISSES)
		return mid;
	if (!s->gram && !(s->gram = cond_gram_new(s->in->R, s->in->k, hi - 1, NULL))) {
		s->guide = 0; /* out of memory: plain bisection does without */
		return mid;
	}
	double tau = s->in->tau;
	int q = cond_gram_smin_count(s->gram, hi - 1, h_hi / tau);
	if (q > lo && q < hi) {
		s->expect = BELOW;
	} else {
		q = cond_gram_smin_count(s->gram, hi - 1, h_lo / tau) + 1;
		if (q > lo && q < hi)
			s->expect = ABOVE;
	}
	if (s->expect < 0)
		return mid;
	s->out->guided++;
	return q;
}

/* The largest block not above τ, between lo and hi (hi is above): by
 * bisection, guided; it into *p, its class and κ into *cls and *k_lo. 0, 1
 * when stopped, -1. */
static int search(Search *s, int lo, int hi, double h_lo, double h_hi, int *p, int *cls,
                  double *k_lo)
{
	*k_lo = 1.0; /* κ of one column */
	*cls = classify(s, 1.0);
	while (hi - lo > 1) {
		if (hook_thread_stopped())
			return err_stop(s->e, "layer %d: stopped in the κ loop", s->in->layer);
		int q = next_probe(s, lo, hi, h_lo, h_hi);
		double s1 = 0, k;
		int rc = kappa_block(s, q, &k, &s1);
		if (rc)
			return rc;
		int c = classify(s, k);
		if (s->expect >= 0 && (c == ABOVE) != (s->expect == ABOVE))
			s->misses++;
		if (c == ABOVE) {
			hi = q;
			h_hi = s1;
		} else {
			lo = q;
			h_lo = s1;
			*cls = c;
			*k_lo = k;
		}
	}
	*p = lo;
	return 0;
}

int alg3_kloop(const KLoopLayer *in, int guide, KLoopResult *out, Err *e)
{
	memset(out, 0, sizeof *out);
	const Net *net = in->net;
	if (!net || in->layer < 1 || in->layer >= net->m || in->p_qr < 1 || in->p_qr > in->k)
		return err_set(e, "the κ loop: no layer to decide, or p = %d outside 1..%d",
		               in->p_qr, in->k);
	int rows = net_rows(net, in->layer - 1) + 1, cols = net_cols(net, in->layer - 1);
	Search s = {.in = in,
	            .out = out,
	            .rows = rows,
	            .band = band_of(rows, cols, in->tau),
	            .guide = guide,
	            .expect = -1,
	            .e = e};
	/* On GSL's path (the paper's) every κ the loop reports is measured on
	 * the columns, as the loop measures it, starting with its first test. */
	int on_cols = cond_path_for(rows, cols) == COND_PATH_GSL;
	int p = in->p_qr, hi = p + 1, cls = NEAR, rc;
	double k = 1.0, h_hi = in->s1 > 0 ? in->s1 : INFINITY;
	if (p == 1 || on_cols) {
		if ((rc = kappa_cols(&s, p, &k, &h_hi)) != 0)
			return rc;
		if (p == 1 || !cond_over(k, in->tau))
			goto done;
		hi = p;
	}
	/* κ of one column is 1, and its σ₁ is |r_11| */
	rc = search(&s, 1, hi, fabs(in->R[0]), h_hi, &p, &cls, &k);
	cond_gram_free(s.gram);
	if (rc)
		return rc;
	/* Above p every block is above τ by more than rounding, and so is every
	 * stacked set of columns: the loop passes over them. A block below τ by
	 * more than rounding is where it stops; from a block within rounding of
	 * τ down it tests the columns until κ ≤ τ, as the loop does. */
	if (cls == BELOW && !on_cols)
		goto done;
	rc = kappa_cols(&s, p, &k, NULL);
	while (rc == 0 && p > 1 && cond_over(k, in->tau)) {
		if (hook_thread_stopped())
			return err_stop(e, "layer %d: stopped in the κ loop", in->layer);
		rc = kappa_cols(&s, --p, &k, NULL);
	}
	if (rc)
		return rc;
done:
	out->nkeep = p;
	out->kappa = k;
	return 0;
}
