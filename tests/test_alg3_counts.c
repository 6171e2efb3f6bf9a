/* test_alg3_counts.c - Algorithm 3's two decisions, counted exactly: how
 * many neurons the |r_jj| threshold keeps (line 4, |r_jj| ≥ |r_11|/τ) and how
 * many the κ while loop leaves (lines 6-9), on layers whose Ŵ⁽ⁱ⁾ has a
 * pivoted-QR profile known in closed form.
 *
 * A layer is built in pivot order: pivot j is a column with |r_jj| in row j
 * and, for the second column of a pair, a second entry α in the row of its
 * partner. Ŵ P is then upper triangular with the profile on its diagonal, and
 * its columns fall into orthogonal blocks (a single column, or a pair), so the
 * singular values of any leading set of pivots are those of its blocks: a
 * single column's norm, or the two of the pair [[a, α], [0, β]],
 * σ± = √((S ± √(S² − 4a²β²))/2) with S = a² + α² + β². Every entry is a
 * small dyadic number, exact in float; the columns are spread over the
 * neurons in another order, some negated, so the pivoting has work to do.
 * Besides: line 2 (a layer within τ is left alone) on a wide layer and on
 * random ones at τ = κ(Ŵ), both stages' counts over two layers, and the
 * rounds of squeeze-until-stable. */
#include <math.h>

#include "alg/alg3_squeeze.h"
#include "base/rng.h"
#include "engine/cond.h"
#include "engine/net.h"
#include "testutil.h"

typedef struct Pivot {
	double r;     /* |r_jj|, in row j */
	int partner;  /* -1, or the pivot whose row also holds alpha */
	double alpha; /* the entry in the partner's row */
	int neuron;   /* the column of W⁽ⁱ⁾ (the neuron) it is */
	int sign;     /* +1 or -1: the column as built, or negated */
} Pivot;

typedef struct Profile {
	const char *name;
	int n; /* neurons = rows of Ŵ = pivots */
	Pivot p[8];
} Profile;

/* Scales 1, 1/2, …, 1/32 on orthogonal columns: |r_jj|/|r_11| = 2⁻ʲ, and κ of
 * the leading k pivots is 2^(k-1), all exact. The threshold at τ = 2ᵏ keeps
 * k + 1 pivots, and the κ loop finds κ = τ, exactly, so it stops. */
static const Profile scales = {"scales",
                               6,
                               {{1.0, -1, 0, 3, 1},
                                {0.5, -1, 0, 0, -1},
                                {0.25, -1, 0, 5, 1},
                                {0.125, -1, 0, 1, 1},
                                {0.0625, -1, 0, 4, -1},
                                {0.03125, -1, 0, 2, 1}}};

/* Three pairs: x₁, x₂, x₃ of norms 1, 3/4, 5/8, then y₁, y₂, y₃ close to them
 * (α = 15/16, 5/8, 1/2) with |r_jj| = 1/4, 7/32, 3/16. The profile is
 * 1, 3/4, 5/8, 1/4, 7/32, 3/16 (the threshold keeps all six from τ = 16/3
 * on), but each pair is ill-conditioned: κ of the leading 3, 4, 5, 6 pivots
 * is 1.6, 7.635, 8.308, 9.540, so between τ = 16/3 and 9.54 the κ loop
 * removes one, two or three of the neurons the threshold kept. */
static const Profile pairs = {"pairs",
                              6,
                              {{1.0, -1, 0, 4, 1},
                               {0.75, -1, 0, 1, -1},
                               {0.625, -1, 0, 5, 1},
                               {0.25, 0, 0.9375, 0, 1},
                               {0.21875, 1, 0.625, 3, -1},
                               {0.1875, 2, 0.5, 2, 1}}};

/* The first pair of "pairs" alone: profile 1, 1/4, κ 7.635, so between τ = 4
 * and 7.635 the loop takes the layer down to its first neuron. */
static const Profile pair = {"pair", 2, {{1.0, -1, 0, 1, 1}, {0.25, 0, 0.9375, 0, -1}}};

/* Four orthogonal columns of scales 1, 1/2, 1/4, 1/8 (κ 8), for the second
 * hidden layer of two_layers(): their rows are those of neurons 1, 4 and 5 of
 * layer 1 (x₂, x₁, x₃ of "pairs", which every squeeze of it keeps at τ ≥ 1.6)
 * and the bias (SCALES4_ROWS), so layer 1's squeeze leaves this profile as it
 * is. */
static const Profile scales4 = {
    "scales4",
    4,
    {{1.0, -1, 0, 2, 1}, {0.5, -1, 0, 0, -1}, {0.25, -1, 0, 3, 1}, {0.125, -1, 0, 1, 1}}};
static const int SCALES4_ROWS[4] = {1, 6, 4, 5};

/* Writes the profile into Ŵ⁽ˡᵃʸᵉʳ⁾ of net (zero elsewhere): pivot j's own
 * entry in row rows[j] (j when rows is NULL); the last row is the bias. */
static void profile_fill(Net *net, int layer, const Profile *pr, const int *rows)
{
	int nin = net->n[layer - 1], nout = net->n[layer];
	ck_assert_int_eq(nout, pr->n);
	for (int j = 0; j < pr->n; j++) {
		const Pivot *c = &pr->p[j];
		int at[2] = {rows ? rows[j] : j, c->partner < 0 ? -1
		                                 : rows         ? rows[c->partner]
		                                                : c->partner};
		double v[2] = {c->r, c->alpha};
		for (int k = 0; k < 2; k++) {
			if (at[k] < 0)
				continue;
			float x = (float)(c->sign * v[k]);
			ck_assert_msg((double)x == c->sign * v[k], "%s: %g is not exact in float",
			              pr->name, v[k]);
			ck_assert_int_le(at[k], nin);
			if (at[k] < nin)
				net->W[layer - 1][at[k] * nout + c->neuron] = x;
			else
				net->b[layer - 1][c->neuron] = x;
		}
	}
}

/* A one-hidden-layer network n-1 → n → 2 whose Ŵ⁽¹⁾ (n×n) has the profile. */
static Net *profile_net(const Profile *pr)
{
	int w[3] = {pr->n - 1, pr->n, 2};
	Err e;
	Net *net = net_new(2, w, ACT_TANH, 1.0f, &e);
	ck_assert_msg(net != NULL, "%s", e.msg);
	profile_fill(net, 1, pr, NULL);
	for (int i = 0; i < pr->n * 2; i++)
		net->W[1][i] = (float)((i % 3) - 1);
	return net;
}

/* 5 → 6 → 4 → 2: "pairs" in Ŵ⁽¹⁾, "scales4" in Ŵ⁽²⁾. */
static Net *two_layers(void)
{
	int w[4] = {5, 6, 4, 2};
	Err e;
	Net *net = net_new(3, w, ACT_TANH, 1.0f, &e);
	ck_assert_msg(net != NULL, "%s", e.msg);
	profile_fill(net, 1, &pairs, NULL);
	profile_fill(net, 2, &scales4, SCALES4_ROWS);
	for (int i = 0; i < 4 * 2; i++)
		net->W[2][i] = (float)((i % 3) - 1);
	return net;
}

/* The singular values of a pair [[a, α], [0, β]]. */
static void pair_sv(double a, double alpha, double beta, double *hi, double *lo)
{
	double s = a * a + alpha * alpha + beta * beta, d = a * beta;
	double root = sqrt(s * s - 4 * d * d);
	*hi = sqrt((s + root) / 2);
	*lo = d / *hi;
}

/* κ of the leading k pivots, from the blocks. */
static double kappa_cf(const Profile *pr, int k)
{
	double hi = 0, lo = INFINITY;
	int paired[8] = {0};
	for (int j = 0; j < k; j++)
		if (pr->p[j].partner >= 0)
			paired[pr->p[j].partner] = j;
	for (int j = 0; j < k; j++) {
		const Pivot *c = &pr->p[j];
		double a, b;
		if (c->partner >= 0)
			continue; /* counted with its partner */
		if (paired[j])
			pair_sv(c->r, pr->p[paired[j]].alpha, pr->p[paired[j]].r, &a, &b);
		else
			a = b = c->r;
		hi = fmax(hi, a);
		lo = fmin(lo, b);
	}
	return hi / lo;
}

/* The rule of lines 2-9 on the closed-form profile: p = #{|r_jj| ≥ |r_11|/τ},
 * then while κ(p) > τ, p − 1. Every κ it compares with τ must lie clearly on
 * one side or be exact (the profile "scales"), so that the rounding of the
 * code's κ cannot decide. */
static void reference(const Profile *pr, double tau, int loop, int *p_qr, int *nkeep)
{
	double k_all = kappa_cf(pr, pr->n);
	int exact = pr == &scales;
	ck_assert_msg(exact || fabs(k_all / tau - 1) > 1e-3, "%s: κ %.17g too close to τ %.17g",
	              pr->name, k_all, tau);
	if (!(k_all > tau)) {
		*p_qr = *nkeep = pr->n;
		return;
	}
	int p = 0;
	while (p < pr->n && pr->p[p].r / pr->p[0].r >= 1.0 / tau)
		p++;
	*p_qr = p;
	for (;;) {
		double k = kappa_cf(pr, p);
		ck_assert_msg(exact || fabs(k / tau - 1) > 1e-3, "%s: κ(%d) %.17g too close to τ",
		              pr->name, p, k);
		if (!loop || p <= 1 || !(k > tau))
			break;
		p--;
	}
	*nkeep = p;
}

typedef struct Case {
	double tau;
	int loop;
	int p_qr, nkeep; /* what lines 4 and 6-9 keep */
} Case;

/* alg3_propose on the profile's layer at τ keeps what the table says
 * (and the closed form agrees): the pivots in order, p_qr by the threshold,
 * nkeep after the loop, with κ of the kept columns. */
static void check_case(const Profile *pr, const Case *c)
{
	int ref_qr, ref_keep;
	reference(pr, c->tau, c->loop, &ref_qr, &ref_keep);
	ck_assert_msg(ref_qr == c->p_qr && ref_keep == c->nkeep,
	              "%s at τ %.17g, loop %d: the table says %d/%d, the closed form %d/%d",
	              pr->name, c->tau, c->loop, c->p_qr, c->nkeep, ref_qr, ref_keep);
	Net *net = profile_net(pr);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = c->tau;
	o.while_loop = c->loop;
	Alg3Proposal sp;
	Err e;
	ck_assert_msg(alg3_propose(net, 1, &o, &sp, &e) == 0, "%s", e.msg);
	ck_assert_msg(sp.p_qr == c->p_qr && sp.nkeep == c->nkeep,
	              "%s at τ %.17g, loop %s: the threshold kept %d (expected %d), the κ loop "
	              "left %d (expected %d)",
	              pr->name, c->tau, c->loop ? "on" : "off", sp.p_qr, c->p_qr, sp.nkeep,
	              c->nkeep);
	for (int j = 0; j < pr->n; j++)
		ck_assert_int_eq(sp.perm[j], pr->p[j].neuron);
	double k = kappa_cf(pr, c->nkeep);
	ck_assert_msg(fabs(sp.kappa_after - k) <= 1e-12 * k, "%s at τ %g: κ after %.17g, not %.17g",
	              pr->name, c->tau, sp.kappa_after, k);
	alg3_proposal_free(&sp);
	net_free(net);
}

/* A step of the pass: what it left waiting, a proposal or nothing more. */
static Alg3Status step(Alg3 *a)
{
	Err e;
	ck_assert_msg(alg3_step(a, &e) == 0, "%s", e.msg);
	return a->status;
}

static double below(double x)
{
	return nextafter(x, 0);
}

static double above(double x)
{
	return nextafter(x, INFINITY);
}

/* The layers are what the closed form says: the pivots in the order built,
 * the profile exact, κ of the whole Ŵ as computed. */
START_TEST(profiles_are_as_built)
{
	const Profile *all[3] = {&scales, &pairs, &pair};
	for (int t = 0; t < 3; t++) {
		const Profile *pr = all[t];
		Net *net = profile_net(pr);
		LayerCond lc;
		Err e;
		ck_assert_msg(cond_layer(net, 1, 25, &lc, &e) == 0, "%s", e.msg);
		ck_assert_int_eq(lc.nsv, pr->n);
		for (int j = 0; j < pr->n; j++) {
			ck_assert_int_eq(lc.perm[j], pr->p[j].neuron);
			ck_assert_msg(lc.rdiag[j] == pr->p[j].r / pr->p[0].r,
			              "%s: |r_%d%d|/|r_11| = %.17g, expected %.17g", pr->name,
			              j + 1, j + 1, lc.rdiag[j], pr->p[j].r / pr->p[0].r);
		}
		double k = kappa_cf(pr, pr->n);
		ck_assert_msg(fabs(lc.kappa - k) <= 1e-12 * k, "%s: κ %.17g, expected %.17g",
		              pr->name, lc.kappa, k);
		cond_layer_free(&lc);
		net_free(net);
	}
	/* the numbers the comments above give */
	ck_assert(kappa_cf(&scales, 6) == 32);
	ck_assert_double_eq_tol(kappa_cf(&pairs, 3), 1.6, 1e-12);
	ck_assert_double_eq_tol(kappa_cf(&pairs, 4), 7.635, 1e-3);
	ck_assert_double_eq_tol(kappa_cf(&pairs, 5), 8.308, 1e-3);
	ck_assert_double_eq_tol(kappa_cf(&pairs, 6), 9.540, 1e-3);
}
END_TEST

/* Line 4: the threshold keeps the pivots with |r_jj| ≥ |r_11|/τ, down to
 * |r_11|/τ and no further. On "scales", at τ = 2ᵏ exactly the pivot with
 * |r_jj|/|r_11| = 2⁻ᵏ is on the threshold and kept (the ≥); one ulp below τ
 * it goes; at τ = 6 the pivot with 1/8, between 1/(2τ) and 1/τ, goes too. The
 * loop has nothing to add on this layer: κ of what the threshold keeps is at
 * most τ (at τ = 2ᵏ it is τ exactly, and the loop removes only above τ). */
START_TEST(threshold_keeps_down_to_r11_over_tau)
{
	static const Case cases[] = {
	    {2, 0, 2, 2}, {2, 1, 2, 2},  {4, 0, 3, 3},  {4, 1, 3, 3}, {8, 0, 4, 4},
	    {8, 1, 4, 4}, {16, 0, 5, 5}, {16, 1, 5, 5}, {6, 0, 3, 3}, {6, 1, 3, 3},
	    {3, 1, 2, 2}, {12, 1, 4, 4}, {24, 0, 5, 5}, {1, 1, 1, 1}, {1.5, 1, 1, 1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		check_case(&scales, &cases[i]);
	for (int k = 1; k <= 4; k++) {
		double t = ldexp(1, k);
		for (int loop = 0; loop < 2; loop++) {
			Case at = {t, loop, k + 1, k + 1}, lo = {below(t), loop, k, k},
			     hi = {above(t), loop, k + 1, k + 1};
			check_case(&scales, &at);
			check_case(&scales, &lo);
			check_case(&scales, &hi);
		}
	}
}
END_TEST

/* Line 2: a layer with κ(Ŵ) ≤ τ is left alone. κ of "scales" is 32 exactly:
 * at τ = 32 it keeps all six; one ulp below, the threshold removes the pivot
 * with 1/32. "pairs" has κ 9.54: within τ = 10, beyond τ = 9.5. */
START_TEST(layer_within_tau_is_left_alone)
{
	Case at = {32, 1, 6, 6}, lo = {below(32), 1, 5, 5}, hi = {above(32), 1, 6, 6};
	check_case(&scales, &at);
	check_case(&scales, &lo);
	check_case(&scales, &hi);
	Case p10 = {10, 1, 6, 6}, p95 = {9.5, 1, 6, 5};
	check_case(&pairs, &p10);
	check_case(&pairs, &p95);
	/* the stepped algorithm passes over a layer within τ */
	Net *net = profile_net(&scales);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 32;
	Err e;
	Alg3 *a = alg3_new(net, &o, NULL, &e);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(step(a), ALG3_DONE);
	ck_assert_int_eq(a->total, 0);
	alg3_free(a);
	o.tau = below(32);
	a = alg3_new(net, &o, NULL, &e);
	ck_assert_int_eq(step(a), ALG3_PROPOSED);
	ck_assert_int_eq(a->prop.nkeep, 5);
	alg3_free(a);
	net_free(net);
}
END_TEST

/* Line 2 matters most for a wide Ŵ (more neurons than rows): its pivoted QR
 * has only as many |r_jj| as rows, so a squeeze of it keeps at most that many
 * neurons, and only κ(Ŵ) ≤ τ keeps the others. Ŵ = [[1, 0, 3/4], [0, 5/8, 0]]
 * has orthogonal rows of norms 5/4 and 5/8: κ = 2 exactly. (On a tall or
 * square Ŵ, κ ≤ τ implies every |r_jj|/|r_11| ≥ 1/κ ≥ 1/τ and κ of all the
 * columns ≤ τ, so line 2 changes nothing there.) */
START_TEST(wide_layer_within_tau_keeps_every_neuron)
{
	int w[3] = {1, 3, 2};
	Err e;
	Net *net = net_new(2, w, ACT_TANH, 1.0f, &e);
	ck_assert_ptr_nonnull(net);
	net->W[0][0] = 1;
	net->W[0][2] = 0.75f;
	net->b[0][1] = 0.625f;
	Alg3Opts o;
	alg3_opts_default(&o);
	Alg3Proposal sp;
	double taus[3] = {2, above(2), below(2)};
	int keep[3] = {3, 3, 2};
	for (int t = 0; t < 3; t++) {
		o.tau = taus[t];
		ck_assert_msg(alg3_propose(net, 1, &o, &sp, &e) == 0, "%s", e.msg);
		ck_assert(sp.kappa_before == 2);
		ck_assert_int_eq(sp.nrdiag, 2);
		/* p_qr is the threshold's count, and all of them when line 2 skips */
		ck_assert_msg(sp.p_qr == keep[t] && sp.nkeep == keep[t],
		              "τ %.17g: %d and %d neurons kept, expected %d", taus[t], sp.p_qr,
		              sp.nkeep, keep[t]);
		if (keep[t] == 2) {
			/* the threshold keeps both pivots (1 and 5/8), κ of them is 1.6 */
			ck_assert_int_eq(sp.perm[0], 0);
			ck_assert_int_eq(sp.perm[1], 1);
			ck_assert_double_eq_tol(sp.kappa_after, 1.6, 1e-14);
		}
		alg3_proposal_free(&sp);
	}
	net_free(net);
}
END_TEST

/* Line 2 on layers of no special form: at τ = κ(Ŵ) as computed, every neuron
 * stays and the threshold's count is all of them, even where κ of the same
 * columns in pivot order computes an ulp or so above κ(Ŵ) (the order changes
 * the rounding). Random 9 → 6, 6 → 6 and 4 → 7 layers. */
START_TEST(layers_at_kappa_equal_tau_keep_every_neuron)
{
	static const int shapes[3][2] = {{9, 6}, {5, 6}, {4, 7}};
	int above = 0;
	for (int s = 0; s < 3; s++) {
		for (uint64_t seed = 1; seed <= 20; seed++) {
			int w[3] = {shapes[s][0], shapes[s][1], 2};
			Err e;
			Net *net = net_fresh(2, w, ACT_TANH, 1.0f, seed, &e);
			ck_assert_msg(net != NULL, "%s", e.msg);
			Rng r;
			rng_seed(&r, seed);
			for (int j = 0; j < w[1]; j++)
				net->b[0][j] = (float)(0.3 * rng_normal(&r));
			Alg3Opts o;
			alg3_opts_default(&o);
			LayerCond lc;
			ck_assert_int_eq(cond_layer(net, 1, 25, &lc, &e), 0);
			o.tau = lc.kappa;
			ck_assert(o.tau >= 1 && isfinite(o.tau));
			Alg3Proposal sp;
			ck_assert_msg(alg3_propose(net, 1, &o, &sp, &e) == 0, "%s", e.msg);
			ck_assert(sp.kappa_before == o.tau);
			ck_assert_msg(sp.nkeep == w[1] && sp.p_qr == w[1],
			              "%d → %d, seed %d: κ = τ = %.17g, kept %d and %d", w[0], w[1],
			              (int)seed, o.tau, sp.p_qr, sp.nkeep);
			double k;
			ck_assert_int_eq(cond_kappa_columns(net, 1, lc.perm, w[1], &k, &e), 0);
			above += k > o.tau;
			alg3_proposal_free(&sp);
			cond_layer_free(&lc);
			net_free(net);
		}
	}
	/* the case that matters: here 31 of the 60 */
	ck_assert_msg(above > 0, "no layer whose κ in pivot order computes above κ(Ŵ)");
}
END_TEST

/* Lines 6-9: while κ of the kept pivots exceeds τ, the last one goes, and p
 * is the count whose κ was found within τ. On "pairs" the threshold keeps
 * 3, 4, 5 or 6 pivots (at τ ≥ 1.6, 4, 32/7, 16/3) and the loop removes
 * none, one, two or three of them; on "pair" it removes the second neuron,
 * leaving one. With the loop off the threshold's count stands. */
START_TEST(kappa_loop_counts_the_columns_it_evaluates)
{
	static const Case cases[] = {
	    /* threshold 6: κ(6) 9.54, κ(5) 8.31, κ(4) 7.64, κ(3) 1.6 */
	    {9, 1, 6, 5}, /* loop removes one */
	    {8.5, 1, 6, 5},
	    {8, 1, 6, 4}, /* two */
	    {6, 1, 6, 3}, /* three */
	    {6, 0, 6, 6},
	    {8, 0, 6, 6},
	    /* threshold 5 (7/32 ≥ 1/τ > 3/16) */
	    {5, 1, 5, 3},
	    {5, 0, 5, 5},
	    /* threshold 4: at τ = 4 exactly the pivot with 1/4 stays, then the
	     * loop removes it */
	    {4, 1, 4, 3},
	    {4, 0, 4, 4},
	    {4.25, 0, 4, 4},
	    /* threshold 3 */
	    {3.5, 1, 3, 3},
	    {3.5, 0, 3, 3},
	    {2, 1, 3, 3},
	    /* threshold 2: 3/4 ≥ 1/τ > 5/8 */
	    {1.5, 1, 2, 2},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		check_case(&pairs, &cases[i]);
	Case lo = {below(4), 1, 3, 3}, lo0 = {below(4), 0, 3, 3};
	check_case(&pairs, &lo);
	check_case(&pairs, &lo0);
	/* down to one neuron, and no further */
	static const Case one[] = {
	    {5, 1, 2, 1}, {5, 0, 2, 2}, {7.5, 1, 2, 1}, {4, 1, 2, 1},
	    {4, 0, 2, 2}, {3, 1, 1, 1}, {8, 1, 2, 2},
	};
	for (size_t i = 0; i < sizeof one / sizeof *one; i++)
		check_case(&pair, &one[i]);
	Case lo1 = {below(4), 1, 1, 1};
	check_case(&pair, &lo1);
}
END_TEST

/* The steps a hook received. */
static struct {
	int n;
	char text[8][512];
} heard;

static void on_step(const HookStep *st, void *ud)
{
	(void)ud;
	if (st->kind == HOOK_ALG3_LAYER && heard.n < 8)
		snprintf(heard.text[heard.n++], sizeof heard.text[0], "%s", st->text);
}

static void assert_has(const char *s, const char *part)
{
	ck_assert_msg(strstr(s, part) != NULL, "'%s' does not say '%s'", s, part);
}

/* The whole pass on two_layers(): each layer decided on the network as the
 * earlier one left it, and what each stage removed counted apart (removed_qr
 * is the threshold's share, the rest the loop's), as the hook tells it. */
START_TEST(two_layers_counted_by_stage)
{
	static const struct {
		double tau;
		int p1, k1; /* layer 1: threshold, loop */
		int p2, k2; /* layer 2 (of 4; 0: within τ, passed over) */
	} cases[] = {
	    {6, 6, 3, 3, 3},                  /* the loop removes three, the threshold one */
	    {5, 5, 3, 3, 3}, {9, 6, 5, 0, 0}, /* κ(Ŵ⁽²⁾) = 8 ≤ 9 */
	    {8, 6, 4, 0, 0},                  /* κ(Ŵ⁽²⁾) = 8 = τ */
	    {4, 4, 3, 3, 3}, /* both on their thresholds; layer 2's κ loop finds κ = τ */
	};
	static const int keep1[3] = {4, 1, 5}, keep2[3] = {2, 0, 3};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		double tau = cases[c].tau;
		Net *net = two_layers();
		Alg3Opts o;
		alg3_opts_default(&o);
		o.tau = tau;
		Err e;
		Alg3 *a = alg3_new(net, &o, NULL, &e);
		ck_assert_msg(a != NULL, "%s", e.msg);
		Hook h = {.step = on_step};
		memset(&heard, 0, sizeof heard);
		ck_assert_int_eq(step(a), ALG3_PROPOSED);
		const Alg3Proposal *sp = &a->prop;
		ck_assert_int_eq(sp->layer, 1);
		ck_assert_msg(sp->p_qr == cases[c].p1 && sp->nkeep == cases[c].k1,
		              "τ %g, layer 1: %d and %d kept, expected %d and %d", tau, sp->p_qr,
		              sp->nkeep, cases[c].p1, cases[c].k1);
		if (sp->nkeep == 3)
			ck_assert_mem_eq(sp->keep, keep1, sizeof keep1);
		ck_assert_int_eq(alg3_apply(a, 0, &h, &e), 0);
		char want[128];
		snprintf(want, sizeof want, "pivoted QR keeps %d of 6 (|r_jj| ≥ |r_11|/τ)",
		         cases[c].p1);
		assert_has(heard.text[0], want);
		snprintf(want, sizeof want, ": 6 → %d neurons", cases[c].k1);
		assert_has(heard.text[0], want);
		ck_assert_int_eq(a->removed[0], 6 - cases[c].k1);
		ck_assert_int_eq(a->removed_qr[0], 6 - cases[c].p1);
		int st = step(a);
		if (cases[c].p2 == 0) {
			ck_assert_int_eq(st, ALG3_DONE);
			ck_assert(a->kappa_dec[1] == 8);
			ck_assert_int_eq(a->removed[1], 0);
		} else {
			ck_assert_int_eq(st, ALG3_PROPOSED);
			ck_assert_int_eq(sp->layer, 2);
			ck_assert_int_eq(sp->n_before, 4);
			ck_assert(sp->kappa_before == 8);
			ck_assert_msg(sp->p_qr == cases[c].p2 && sp->nkeep == cases[c].k2,
			              "τ %g, layer 2: %d and %d kept, expected %d and %d", tau,
			              sp->p_qr, sp->nkeep, cases[c].p2, cases[c].k2);
			ck_assert_mem_eq(sp->keep, keep2, sizeof keep2);
			ck_assert_int_eq(alg3_apply(a, 0, &h, &e), 0);
			snprintf(want, sizeof want, "pivoted QR keeps %d of 4", cases[c].p2);
			assert_has(heard.text[1], want);
			ck_assert_int_eq(a->removed[1], 4 - cases[c].k2);
			ck_assert_int_eq(a->removed_qr[1], 4 - cases[c].p2);
			ck_assert_int_eq(step(a), ALG3_DONE);
		}
		int k2 = cases[c].p2 ? cases[c].k2 : 4;
		ck_assert_int_eq(a->total, 6 - cases[c].k1 + 4 - k2);
		ck_assert_int_eq(net->n[1], cases[c].k1);
		ck_assert_int_eq(net->n[2], k2);
		/* alg3_squeeze_net, the whole algorithm in one call, counts the same */
		Net *again = two_layers();
		int removed[3], total = -1;
		ck_assert_msg(alg3_squeeze_net(again, &o, NULL, removed, &total, &e) == 0, "%s",
		              e.msg);
		ck_assert_int_eq(total, a->total);
		ck_assert_int_eq(removed[0], a->removed[0]);
		ck_assert_int_eq(removed[1], a->removed[1]);
		ck_assert_int_eq(removed[2], 0);
		net_free(again);
		alg3_free(a);
		net_free(net);
	}
}
END_TEST

/* Squeeze until nothing is removed (the paper's Table 13), without
 * retraining: a round that removes a single neuron is a round, and the next,
 * which removes nothing, ends the rounds. At τ = 9 two_layers() loses one
 * neuron of layer 1 (to the κ loop) and then nothing. */
START_TEST(rounds_count_a_round_of_one_neuron)
{
	Net *net = two_layers();
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 9;
	Alg3Round rounds[4];
	int nr = -1, stable = -1;
	Err e;
	ck_assert_msg(alg3_until_stable(net, &o, NULL, NULL, NULL, NULL, 3, NULL, rounds, &nr,
	                                &stable, &e) == 0,
	              "%s", e.msg);
	ck_assert_int_eq(nr, 2);
	ck_assert_int_eq(stable, 1);
	ck_assert_int_eq(rounds[0].removed, 0);
	ck_assert_int_eq(rounds[1].removed, 1);
	ck_assert_int_eq(rounds[1].removed_per_layer[0], 1);
	ck_assert_int_eq(rounds[1].n[1], 5);
	ck_assert_int_eq(net->n[1], 5);
	for (int k = 0; k < nr; k++)
		alg3_round_free(&rounds[k]);
	net_free(net);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("alg3_counts");
	TCase *t = tcase_create("counts");
	tcase_add_test(t, profiles_are_as_built);
	tcase_add_test(t, threshold_keeps_down_to_r11_over_tau);
	tcase_add_test(t, layer_within_tau_is_left_alone);
	tcase_add_test(t, wide_layer_within_tau_keeps_every_neuron);
	tcase_add_test(t, layers_at_kappa_equal_tau_keep_every_neuron);
	tcase_add_test(t, kappa_loop_counts_the_columns_it_evaluates);
	tcase_add_test(t, two_layers_counted_by_stage);
	tcase_add_test(t, rounds_count_a_round_of_one_neuron);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
