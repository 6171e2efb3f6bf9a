/* test_alg3.c - Algorithm 3 on networks with planted duplicate neurons:
 * exactly the duplicates go, compensation restores the outputs, the while
 * loop leaves κ ≤ τ, layers already within τ stay as they are; the stepped
 * algorithm (proposals in order, refusals, what the hook hears, a stop in
 * a proposal) and the squeeze-then-retrain rounds. */
#include <math.h>

#include "alg/alg3_squeeze.h"
#include "base/rng.h"
#include "data/dataset.h"
#include "engine/cond.h"
#include "engine/cond_matrix.h"
#include "engine/hook.h"
#include "engine/net.h"
#include "engine/train.h"
#include "engine/train_plan.h"
#include "fixtures.h"
#include "testutil.h"

/* Layer 2 duplicates: neuron 5 copies neuron 1, neuron 6 copies neuron 3. */
static const int dup_of[2][2] = {{1, 5}, {3, 6}};

/* 10-8-7-3: the copies of neurons 1 and 3 with the outgoing rows split
 * 0.3/0.7 and 0.5/0.5 (fixtures.h), so its function is unchanged. */
static Net *planted(uint64_t seed)
{
	return fx_planted(seed, 0.3f, 0.7f, 0.5f, 0.5f);
}

static Dataset *random_inputs(int n, uint64_t seed)
{
	Dataset *ds = dataset_new(n, 10, 3, NULL);
	ck_assert_ptr_nonnull(ds);
	Rng r;
	rng_seed(&r, seed);
	for (int i = 0; i < n * 10; i++)
		ds->x[i] = (float)(2 * rng_normal(&r));
	snprintf(ds->name, sizeof ds->name, "random");
	return ds;
}

static float *outputs(const Net *net, const Dataset *ds)
{
	float *p = malloc(sizeof *p * ds->n * net->n[net->m]);
	Err e;
	ck_assert_int_eq(net_forward(net, ds->x, ds->n, net->m, p, &e), 0);
	return p;
}

/* The kept set of layer 2 is {0, 2, 4} plus one neuron of each pair. */
static void assert_planted_kept(const int *keep, int nkeep)
{
	ck_assert_int_eq(nkeep, 5);
	int seen[7] = {0};
	for (int j = 0; j < nkeep; j++)
		seen[keep[j]]++;
	ck_assert(seen[0] && seen[2] && seen[4]);
	for (int d = 0; d < 2; d++)
		ck_assert_int_eq(seen[dup_of[d][0]] + seen[dup_of[d][1]], 1);
}

/* The accuracy (percent) of net on d, which must fit it. */
static double acc(const Net *net, const Dataset *d)
{
	double a;
	Err e;
	ck_assert_msg(net_accuracy(net, d, NULL, &a, &e) == 0, "%s", e.msg);
	return a;
}

START_TEST(propose_finds_duplicates)
{
	Net *net = planted(7);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 100;
	Alg3Proposal sp;
	Err e;
	ck_assert_int_eq(alg3_propose(net, 2, &o, &sp, &e), 0);
	ck_assert_int_eq(sp.layer, 2);
	ck_assert_int_eq(sp.n_before, 7);
	ck_assert_int_eq(sp.nrdiag, 7);
	ck_assert(isinf(sp.kappa_before));
	ck_assert_int_eq(sp.p_qr, 5);
	assert_planted_kept(sp.keep, sp.nkeep);
	ck_assert(sp.rdiag[4] >= 1.0 / o.tau);
	ck_assert(sp.rdiag[5] < 1e-6);
	ck_assert(sp.kappa_after <= o.tau);
	for (int j = 0; j < sp.nkeep; j++)
		ck_assert_int_eq(sp.keep[j], sp.perm[j]);
	alg3_proposal_free(&sp);

	/* layer 1 is within τ: the proposal keeps everyone */
	ck_assert_int_eq(alg3_propose(net, 1, &o, &sp, &e), 0);
	ck_assert(sp.kappa_before <= o.tau);
	ck_assert_int_eq(sp.nkeep, 8);
	alg3_proposal_free(&sp);

	ck_assert_int_eq(alg3_propose(net, 3, &o, &sp, &e), -1);
	ck_assert_str_eq(e.msg, "layer 3 is not a hidden layer (expected 1..2)");
	o.tau = 0.5;
	ck_assert_int_eq(alg3_propose(net, 1, &o, &sp, &e), -1);
	ck_assert_str_eq(e.msg, "τ = 0.5, expected a finite number ≥ 1");
	net_free(net);
}
END_TEST

START_TEST(apply_without_compensation)
{
	Net *net = planted(7), *orig = net_clone(net, NULL);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 100;
	int removed[3];
	Err e;
	int total = 0;
	ck_assert_int_eq(alg3_squeeze_net(net, &o, NULL, removed, &total, &e), 0);
	ck_assert_int_eq(total, 2);
	ck_assert_int_eq(removed[0], 0);
	ck_assert_int_eq(removed[1], 2);
	ck_assert_int_eq(removed[2], 0);
	ck_assert_int_eq(net->n[1], 8);
	ck_assert_int_eq(net->n[2], 5);
	ck_assert_int_eq(net->n[3], 3);
	/* layer 1 untouched; the kept neurons keep their outgoing weights */
	ck_assert_int_eq(memcmp(net->W[0], orig->W[0], sizeof(float) * 80), 0);
	ck_assert_int_eq(memcmp(net->b[0], orig->b[0], sizeof(float) * 8), 0);
	ck_assert_int_eq(memcmp(net->b[2], orig->b[2], sizeof(float) * 3), 0);
	for (int j = 0; j < 5; j++) {
		/* find the original neuron with the same incoming weights and outgoing row */
		int found = 0;
		for (int c = 0; c < 7 && !found; c++) {
			int same = net->b[1][j] == orig->b[1][c];
			for (int i = 0; i < 8; i++)
				same &= net->W[1][i * 5 + j] == orig->W[1][i * 7 + c];
			for (int k = 0; k < 3; k++)
				same &= net->W[2][j * 3 + k] == orig->W[2][c * 3 + k];
			found = same;
		}
		ck_assert_msg(found, "kept neuron %d is not an original one", j);
	}
	net_free(net);
	net_free(orig);
}
END_TEST

START_TEST(compensation_restores_outputs)
{
	Net *net = planted(11);
	Dataset *sample = random_inputs(300, 1), *test = random_inputs(200, 2);
	float *before = outputs(net, test);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 100;
	o.compensate = 1;
	int removed[3];
	Err e;
	int total = 0;
	ck_assert_msg(alg3_squeeze_net(net, &o, sample, removed, &total, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(total, 2);
	ck_assert_int_eq(net->n[2], 5);
	float *after = outputs(net, test);
	double worst = 0;
	for (int i = 0; i < test->n * 3; i++)
		worst = fmax(worst, fabs(after[i] - before[i]));
	ck_assert_msg(worst < 1e-5, "largest change of a probability: %g", worst);
	free(before);
	free(after);

	o.compensate = 1;
	ck_assert_int_eq(alg3_squeeze_net(net, &o, NULL, NULL, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "compensation needs a sample of training inputs (none given)");
	dataset_free(sample);
	dataset_free(test);
	net_free(net);
}
END_TEST

START_TEST(preview_leaves_net_alone)
{
	Net *net = planted(13), *orig = net_clone(net, NULL);
	Dataset *sample = random_inputs(300, 3), *eval = random_inputs(400, 4);
	/* labels: the network's own predictions, so its accuracy is 1 */
	float *p = outputs(net, eval);
	for (int i = 0; i < eval->n; i++) {
		int best = 0;
		for (int k = 1; k < 3; k++)
			if (p[i * 3 + k] > p[i * 3 + best])
				best = k;
		eval->y[i] = best;
	}
	free(p);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 100;
	Alg3Proposal sp;
	Err e;
	ck_assert_int_eq(alg3_propose(net, 2, &o, &sp, &e), 0);
	double acc_pre = -1, acc_comp = -1;
	ck_assert_msg(alg3_preview(net, &sp, eval, sample, &acc_pre, &acc_comp, &e) == 0, "%s",
	              e.msg);
	ck_assert(acc_pre >= 0 && acc_pre <= 100);
	ck_assert(acc_pre < 100);
	ck_assert_double_eq(acc_comp, 100);
	ck_assert_int_eq(net->n[2], 7);
	ck_assert_int_eq(memcmp(net->param, orig->param, sizeof(float) * net->nparam), 0);

	/* applying it for real gives the previewed accuracy */
	ck_assert_int_eq(alg3_apply_proposal(net, &sp, 0, NULL, &e), 0);
	ck_assert_double_eq_tol(acc(net, eval), acc_pre, 1e-12);
	/* the proposal no longer fits the layer */
	ck_assert_int_eq(alg3_apply_proposal(net, &sp, 0, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "layer 2 has 5 neurons, but the proposal was made for 7");
	alg3_proposal_free(&sp);
	dataset_free(sample);
	dataset_free(eval);
	net_free(net);
	net_free(orig);
}
END_TEST

START_TEST(while_loop_bounds_kappa)
{
	int widths[5] = {12, 30, 25, 20, 4};
	Net *net = net_new(4, widths, ACT_TANH, 1.0f, NULL);
	Rng r;
	rng_seed(&r, 5);
	net_init_glorot(net, &r);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 3;
	Err e;
	/* without the loop, the QR threshold alone decides */
	o.while_loop = 0;
	Alg3Proposal sp;
	ck_assert_int_eq(alg3_propose(net, 2, &o, &sp, &e), 0);
	ck_assert(sp.kappa_before > o.tau);
	ck_assert_int_eq(sp.nkeep, sp.p_qr);
	alg3_proposal_free(&sp);
	o.while_loop = 1;
	int removed[4];
	int total = 0;
	ck_assert_msg(alg3_squeeze_net(net, &o, NULL, removed, &total, &e) == 0, "%s", e.msg);
	ck_assert_int_gt(total, 0);
	ck_assert_int_eq(removed[0] + removed[1] + removed[2], total);
	ck_assert_int_eq(removed[3], 0);
	ck_assert_int_eq(net->n[4], 4);
	for (int layer = 1; layer <= 3; layer++) {
		ck_assert_int_eq(net->n[layer], widths[layer] - removed[layer - 1]);
		LayerCond lc;
		ck_assert_int_eq(cond_layer(net, layer, o.tau, &lc, &e), 0);
		ck_assert_msg(lc.kappa <= o.tau, "layer %d: κ = %g", layer, lc.kappa);
		cond_layer_free(&lc);
	}
	/* a second pass finds nothing to do */
	Net *again = net_clone(net, &e);
	ck_assert_int_eq(alg3_squeeze_net(again, &o, NULL, removed, &total, &e), 0);
	ck_assert_int_eq(total, 0);
	ck_assert_int_eq(memcmp(again->param, net->param, sizeof(float) * net->nparam), 0);
	net_free(again);
	net_free(net);
}
END_TEST

/* ---- the stepped algorithm ---- */

/* 10-8-7-6-5-3: a random 10-8-5-4-5-3 network with redundancy planted in two
 * hidden layers: layer 2 gets exact copies of neurons 1 and 3 (outgoing
 * weights split, as in planted()), layer 3 near-copies of its neurons 0 and
 * 2 (incoming weights plus noise of 1e-4, outgoing weights halved). Layers
 * 1 and 4 are left random, with κ well within τ = 100. */
static Net *planted2(uint64_t seed)
{
	int wb[6] = {10, 8, 5, 4, 5, 3}, wp[6] = {10, 8, 7, 6, 5, 3};
	Net *base = net_new(5, wb, ACT_TANH, 1.0f, NULL),
	    *net = net_new(5, wp, ACT_TANH, 1.0f, NULL);
	ck_assert_ptr_nonnull(base);
	ck_assert_ptr_nonnull(net);
	Rng r;
	rng_seed(&r, seed);
	net_init_glorot(base, &r);
	for (size_t i = 0; i < base->nparam; i++)
		base->param[i] += (float)(0.1 * rng_normal(&r));
	static const int src2[7] = {0, 1, 2, 3, 4, 1, 3}, src3[6] = {0, 1, 2, 3, 0, 2};
	static const float share2[7] = {1, 0.3f, 1, 0.5f, 1, 0.7f, 0.5f};
	static const float share3[6] = {0.5f, 1, 0.5f, 1, 0.5f, 0.5f};
	memcpy(net->W[0], base->W[0], sizeof(float) * 10 * 8);
	memcpy(net->b[0], base->b[0], sizeof(float) * 8);
	for (int j = 0; j < 7; j++) {
		for (int i = 0; i < 8; i++)
			net->W[1][i * 7 + j] = base->W[1][i * 5 + src2[j]];
		net->b[1][j] = base->b[1][src2[j]];
	}
	for (int c = 0; c < 6; c++) {
		float noise = c >= 4 ? 1e-4f : 0.0f;
		for (int j = 0; j < 7; j++)
			net->W[2][j * 6 + c] = share2[j] * base->W[2][src2[j] * 4 + src3[c]] +
			                       noise * (float)rng_normal(&r);
		net->b[2][c] = base->b[2][src3[c]] + noise * (float)rng_normal(&r);
		for (int k = 0; k < 5; k++)
			net->W[3][c * 5 + k] = share3[c] * base->W[3][src3[c] * 5 + k];
	}
	memcpy(net->b[3], base->b[3], sizeof(float) * 5);
	memcpy(net->W[4], base->W[4], sizeof(float) * 5 * 3);
	memcpy(net->b[4], base->b[4], sizeof(float) * 3);
	net_free(base);
	return net;
}

static double kappa_of(const Net *net, int layer)
{
	LayerCond lc;
	Err e;
	ck_assert_msg(cond_layer(net, layer, 100, &lc, &e) == 0, "%s", e.msg);
	double k = lc.kappa;
	cond_layer_free(&lc);
	return k;
}

static int same_net(const Net *a, const Net *b)
{
	return a->m == b->m && !memcmp(a->n, b->n, sizeof(int) * (size_t)(a->m + 1)) &&
	       a->nparam == b->nparam && !memcmp(a->param, b->param, sizeof(float) * a->nparam) &&
	       !memcmp(a->adam_m, b->adam_m, sizeof(float) * a->nparam) &&
	       !memcmp(a->adam_v, b->adam_v, sizeof(float) * a->nparam);
}

/* The steps a hook received. */
static struct {
	int n, kinds[32];
	char text[32][512];
	const Alg3 *alg3[32];
} steps;

static void on_step(const HookStep *s, void *ud)
{
	(void)ud;
	if (steps.n < 32) {
		steps.kinds[steps.n] = s->kind;
		steps.alg3[steps.n] = s->alg3;
		snprintf(steps.text[steps.n], sizeof steps.text[0], "%s", s->text);
	}
	steps.n++;
}

static int count_steps(HookKind k)
{
	int c = 0;
	for (int i = 0; i < steps.n && i < 32; i++)
		c += steps.kinds[i] == (int)k;
	return c;
}

static const Hook step_hook = {.step = on_step};

static void assert_prefix(const char *s, const char *prefix)
{
	ck_assert_msg(!strncmp(s, prefix, strlen(prefix)), "'%s' does not start with '%s'", s,
	              prefix);
}

static Alg3Opts opts100(void)
{
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 100;
	return o;
}

/* The planted network is what the tests below need: layers 1 and 4 within
 * τ, layers 2 and 3 beyond it. */
START_TEST(planted2_is_as_described)
{
	Net *net = planted2(21);
	ck_assert(kappa_of(net, 1) <= 100);
	ck_assert(kappa_of(net, 2) > 100);
	ck_assert(kappa_of(net, 3) > 100);
	ck_assert(isfinite(kappa_of(net, 3)));
	ck_assert(kappa_of(net, 4) <= 100);
	net_free(net);
}
END_TEST

START_TEST(step_and_apply)
{
	Net *net = planted2(21), *orig = net_clone(net, NULL), *direct = net_clone(net, NULL);
	Alg3Opts o = opts100();
	Err e;
	Alg3 *a = alg3_new(net, &o, NULL, &e);
	ck_assert_msg(a != NULL, "%s", e.msg);
	ck_assert_int_eq(a->status, ALG3_DONE);
	ck_assert_int_eq(a->next, 1);
	memset(&steps, 0, sizeof steps);

	/* layer 1 is within τ and passed over: layer 2 is proposed */
	ck_assert_int_eq(alg3_step(a, &e), 0);
	ck_assert_int_eq(a->status, ALG3_PROPOSED);
	ck_assert_int_eq(a->status, ALG3_PROPOSED);
	Alg3Proposal *sp = &a->prop;
	ck_assert_int_eq(sp->layer, 2);
	ck_assert_int_eq(sp->n_before, 7);
	ck_assert(sp->kappa_before > o.tau);
	ck_assert(sp->kappa_before == kappa_of(net, 2));
	assert_planted_kept(sp->keep, sp->nkeep);
	/* asked again, the same proposal */
	ck_assert_int_eq(alg3_step(a, &e), 0);
	ck_assert_int_eq(a->status, ALG3_PROPOSED);
	ck_assert_int_eq(a->prop.layer, 2);
	ck_assert_int_eq(steps.n, 0);
	int gone = sp->n_before - sp->nkeep, by_qr = sp->n_before - sp->p_qr;
	ck_assert_int_eq(gone, 2);

	ck_assert_msg(alg3_apply(a, 0, &step_hook, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(net->n[2], 7 - gone);
	ck_assert_int_eq(net->n[1], 8);
	ck_assert_int_eq(net->n[3], 6);
	ck_assert_int_eq(a->removed[1], gone);
	ck_assert_int_eq(a->removed_qr[1], by_qr);
	ck_assert_int_eq(a->total, gone);
	ck_assert_int_eq(a->applied, 1);
	ck_assert_int_eq(a->refused, 0);
	ck_assert_int_eq(a->status, ALG3_DONE);
	ck_assert_int_eq(a->next, 3);
	ck_assert_int_eq(steps.n, 1);
	ck_assert_int_eq(steps.kinds[0], HOOK_ALG3_LAYER);
	ck_assert_ptr_eq(steps.alg3[0], a);
	assert_prefix(steps.text[0], "Algorithm 3, layer 2: κ inf > τ = 100");
	/* the same as the one-layer primitives */
	Alg3Proposal p2;
	ck_assert_int_eq(alg3_propose(direct, 2, &o, &p2, &e), 0);
	ck_assert_int_eq(alg3_apply_proposal(direct, &p2, 0, NULL, &e), 0);
	alg3_proposal_free(&p2);
	ck_assert(same_net(net, direct));

	/* layer 3 next, decided on the network as layer 2's removal left it */
	ck_assert_int_eq(alg3_step(a, &e), 0);
	ck_assert_int_eq(a->status, ALG3_PROPOSED);
	sp = &a->prop;
	ck_assert_int_eq(sp->layer, 3);
	ck_assert_int_eq(sp->n_before, 6);
	ck_assert_int_eq(sp->nrdiag, 6); /* Ŵ⁽³⁾ has 5 + 1 rows now, 8 before */
	ck_assert(sp->kappa_before > o.tau);
	ck_assert(sp->kappa_before == kappa_of(net, 3));
	ck_assert(sp->kappa_before != kappa_of(orig, 3));
	ck_assert_int_lt(sp->nkeep, sp->n_before);
	int gone3 = sp->n_before - sp->nkeep, by_qr3 = sp->n_before - sp->p_qr;
	ck_assert_msg(alg3_apply(a, 0, &step_hook, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(net->n[3], 6 - gone3);
	ck_assert_int_eq(a->removed[2], gone3);
	ck_assert_int_eq(a->removed_qr[2], by_qr3);
	ck_assert_int_eq(a->total, gone + gone3);
	ck_assert_int_eq(steps.n, 2);
	assert_prefix(steps.text[1], "Algorithm 3, layer 3: κ ");

	/* layer 4 is within τ: nothing more */
	ck_assert(kappa_of(net, 4) <= o.tau);
	ck_assert_int_eq(alg3_step(a, &e), 0);
	ck_assert_int_eq(a->status, ALG3_DONE);
	ck_assert_int_eq(a->status, ALG3_DONE);
	ck_assert_int_eq(a->removed[0], 0);
	ck_assert_int_eq(a->removed[3], 0);
	ck_assert_int_eq(a->removed[4], 0);
	ck_assert_int_eq(a->applied, 2);
	ck_assert_int_eq(steps.n, 2);
	ck_assert_int_eq(net->n[1], 8);
	ck_assert_int_eq(net->n[4], 5);
	ck_assert_int_eq(alg3_apply(a, 0, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "Algorithm 3: no proposal to apply");
	ck_assert_int_eq(alg3_refuse(a, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "Algorithm 3: no proposal to refuse");
	alg3_free(a);
	net_free(net);
	net_free(orig);
	net_free(direct);
}
END_TEST

START_TEST(refuse_moves_on)
{
	Net *net = planted2(21), *orig = net_clone(net, NULL);
	Alg3Opts o = opts100();
	Err e;
	Alg3 *a = alg3_new(net, &o, NULL, &e);
	memset(&steps, 0, sizeof steps);
	ck_assert_int_eq(alg3_step(a, &e), 0);
	ck_assert_int_eq(a->status, ALG3_PROPOSED);
	ck_assert_int_eq(a->prop.layer, 2);
	ck_assert_int_eq(alg3_refuse(a, &step_hook, &e), 0);
	ck_assert(same_net(net, orig));
	ck_assert_int_eq(a->refused, 1);
	ck_assert_int_eq(a->total, 0);
	ck_assert_int_eq(a->removed[1], 0);
	ck_assert_int_eq(a->next, 3);
	ck_assert_int_eq(steps.n, 1);
	ck_assert_int_eq(steps.kinds[0], HOOK_ALG3_LAYER);
	ck_assert_str_eq(steps.text[0], "Algorithm 3, layer 2: refused; κ inf, all 7 neurons kept");

	ck_assert_int_eq(alg3_step(a, &e), 0);
	ck_assert_int_eq(a->status, ALG3_PROPOSED);
	ck_assert_int_eq(a->prop.layer, 3);
	ck_assert_int_eq(a->prop.nrdiag, 6);
	ck_assert(a->prop.kappa_before == kappa_of(orig, 3));
	ck_assert_int_eq(alg3_refuse(a, &step_hook, &e), 0);
	assert_prefix(steps.text[1], "Algorithm 3, layer 3: refused; κ ");
	ck_assert_int_eq(alg3_step(a, &e), 0);
	ck_assert_int_eq(a->status, ALG3_DONE);
	ck_assert(same_net(net, orig));
	ck_assert_int_eq(a->refused, 2);
	ck_assert_int_eq(a->applied, 0);
	ck_assert_int_eq(steps.n, 2);
	alg3_free(a);
	net_free(net);
	net_free(orig);
}
END_TEST

/* Algorithm 3 by hand: every hidden layer in order, each decided on the
 * network as squeezed so far, applied when κ > τ. */
static int squeeze_by_hand(Net *net, const Alg3Opts *o, const Dataset *sample)
{
	int total = 0;
	Err e;
	for (int layer = 1; layer < net->m; layer++) {
		Alg3Proposal sp;
		ck_assert_int_eq(alg3_propose(net, layer, o, &sp, &e), 0);
		if (sp.kappa_before > o->tau) {
			ck_assert_msg(alg3_apply_proposal(net, &sp, o->compensate, sample, &e) == 0,
			              "%s", e.msg);
			total += sp.n_before - sp.nkeep;
		}
		alg3_proposal_free(&sp);
	}
	return total;
}

START_TEST(run_is_every_layer_in_order)
{
	Dataset *sample = random_inputs(300, 5);
	for (int comp = 0; comp <= 1; comp++) {
		Net *a_net = planted2(21), *b_net = net_clone(a_net, NULL);
		Net *c_net = net_clone(a_net, NULL);
		Alg3Opts o = opts100();
		o.compensate = comp;
		Err e;
		Alg3 *a = alg3_new(a_net, &o, sample, &e);
		memset(&steps, 0, sizeof steps);
		ck_assert_msg(alg3_run(a, &step_hook, &e) == 0, "%s", e.msg);
		int total = a->total, total_b = -1;
		ck_assert_int_eq(total, 4);
		ck_assert_int_eq(steps.n, 2);
		ck_assert_int_eq(count_steps(HOOK_ALG3_LAYER), 2);
		assert_prefix(steps.text[0], "Algorithm 3, layer 2: ");
		assert_prefix(steps.text[1], "Algorithm 3, layer 3: ");
		ck_assert_int_eq(comp, strstr(steps.text[0], "next layer refitted") != NULL);
		int removed[5];
		ck_assert_int_eq(alg3_squeeze_net(b_net, &o, sample, removed, &total_b, &e), 0);
		ck_assert_int_eq(total_b, total);
		ck_assert_mem_eq(removed, a->removed, sizeof removed);
		ck_assert(same_net(a_net, b_net));
		ck_assert_int_eq(squeeze_by_hand(c_net, &o, sample), total);
		ck_assert(same_net(a_net, c_net));
		alg3_free(a);
		net_free(a_net);
		net_free(b_net);
		net_free(c_net);
	}
	dataset_free(sample);
}
END_TEST

START_TEST(propose_a_layer_within_tau)
{
	Net *net = planted2(21), *orig = net_clone(net, NULL);
	Alg3Opts o = opts100();
	Err e;
	Alg3 *a = alg3_new(net, &o, NULL, &e);
	memset(&steps, 0, sizeof steps);
	ck_assert_int_eq(alg3_propose_layer(a, 1, &e), 0);
	ck_assert_int_eq(a->status, ALG3_PROPOSED);
	ck_assert_int_eq(a->prop.layer, 1);
	ck_assert(a->prop.kappa_before <= o.tau);
	ck_assert_int_eq(a->prop.nkeep, 8);
	ck_assert_int_eq(a->prop.n_before, 8);
	ck_assert_int_eq(a->prop.p_qr, 8);
	/* a step does not pass over a proposal waiting for its decision */
	ck_assert_int_eq(alg3_step(a, &e), 0);
	ck_assert_int_eq(a->status, ALG3_PROPOSED);
	ck_assert_int_eq(a->prop.layer, 1);
	ck_assert_int_eq(alg3_apply(a, 0, &step_hook, &e), 0);
	ck_assert(same_net(net, orig));
	ck_assert_int_eq(a->removed[0], 0);
	ck_assert_int_eq(a->total, 0);
	ck_assert_int_eq(a->applied, 1);
	ck_assert_int_eq(a->next, 2);
	ck_assert_int_eq(steps.n, 1);
	assert_prefix(steps.text[0], "Algorithm 3, layer 1: κ ");
	ck_assert_ptr_nonnull(strstr(steps.text[0], " ≤ τ = 100"));
	/* a layer beyond the proposal's: proposed even so, when asked for */
	ck_assert_int_eq(alg3_propose_layer(a, 4, &e), 0);
	ck_assert_int_eq(a->status, ALG3_PROPOSED);
	ck_assert_int_eq(a->prop.nkeep, a->prop.n_before);
	ck_assert_int_eq(alg3_propose_layer(a, 5, &e), -1);
	ck_assert_str_eq(e.msg, "layer 5 is not a hidden layer (expected 1..4)");
	ck_assert_int_eq(a->status, ALG3_DONE);
	alg3_free(a);
	net_free(net);
	net_free(orig);
}
END_TEST

START_TEST(new_checks_its_options)
{
	Net *net = planted2(21);
	Dataset *sample = random_inputs(20, 1);
	Alg3Opts o = opts100();
	Err e;
	double bad[] = {0.5, 0.999, -3, INFINITY, NAN};
	for (int i = 0; i < 5; i++) {
		o.tau = bad[i];
		ck_assert_ptr_null(alg3_new(net, &o, NULL, &e));
		ck_assert_ptr_nonnull(strstr(e.msg, "expected a finite number ≥ 1"));
	}
	o.tau = 0.5;
	ck_assert_ptr_null(alg3_new(net, &o, NULL, &e));
	ck_assert_str_eq(e.msg, "Algorithm 3: τ = 0.5, expected a finite number ≥ 1");
	o.tau = 1;
	Alg3 *a = alg3_new(net, &o, NULL, &e);
	ck_assert_ptr_nonnull(a);
	alg3_free(a);
	o.compensate = 1;
	ck_assert_ptr_null(alg3_new(net, &o, NULL, &e));
	ck_assert_str_eq(e.msg, "compensation needs a sample of training inputs (none given)");
	o.sample_rows = 0;
	ck_assert_ptr_null(alg3_new(net, &o, sample, &e));
	ck_assert_str_eq(e.msg, "sample_rows = 0, expected at least 1");
	o.sample_rows = 10;
	a = alg3_new(net, &o, sample, &e);
	ck_assert_ptr_nonnull(a);
	alg3_free(a);
	ck_assert_ptr_null(alg3_new(NULL, &o, sample, &e));
	ck_assert_str_eq(e.msg, "Algorithm 3: expected a network and options");
	ck_assert_int_eq(alg3_step(NULL, &e), -1);
	alg3_free(NULL);
	dataset_free(sample);
	net_free(net);
}
END_TEST

/* A layer with κ > τ whose pivoted QR keeps every neuron (no |r_jj| below
 * |r_11|/τ, and no κ loop) has nothing to remove: a step passes over it. */
START_TEST(step_passes_over_nothing_to_remove)
{
	int widths[4] = {12, 6, 5, 4};
	Net *net = net_fresh(3, widths, ACT_TANH, 1.0f, 8, NULL);
	for (size_t i = 0; i < net->nparam; i++)
		net->param[i] += 0.05f * (float)(i % 7) - 0.15f;
	LayerCond lc;
	Err e;
	ck_assert_int_eq(cond_layer(net, 1, 10, &lc, &e), 0);
	double kappa = lc.kappa, rmin = lc.rdiag[lc.nsv - 1];
	cond_layer_free(&lc);
	/* κ ≥ |r_11|/|r_nn| never holds for every matrix: this one has room */
	ck_assert_msg(1.0 / rmin < kappa, "κ %g, |r_11|/|r_nn| %g", kappa, 1.0 / rmin);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = sqrt(kappa / rmin);
	o.while_loop = 0;
	Alg3Proposal sp;
	ck_assert_int_eq(alg3_propose(net, 1, &o, &sp, &e), 0);
	ck_assert(sp.kappa_before > o.tau);
	ck_assert_int_eq(sp.nkeep, sp.n_before);
	alg3_proposal_free(&sp);
	Alg3 *a = alg3_new(net, &o, NULL, &e);
	ck_assert_int_eq(alg3_step(a, &e), 0);
	ck_assert(a->status == ALG3_DONE || (a->status == ALG3_PROPOSED && a->prop.layer == 2));
	alg3_free(a);
	net_free(net);
}
END_TEST

/* removed_qr counts what the |r_jj| threshold removed, removed all that went
 * (the κ loop the rest). */
START_TEST(removed_by_qr_and_by_the_loop)
{
	int widths[5] = {12, 30, 25, 20, 4};
	Net *net = net_new(4, widths, ACT_TANH, 1.0f, NULL);
	Rng r;
	rng_seed(&r, 5);
	net_init_glorot(net, &r);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 3;
	Err e;
	Alg3 *a = alg3_new(net, &o, NULL, &e);
	int qr[4] = {0}, all[4] = {0}, by_loop = 0;
	while (alg3_step(a, &e) == 0 && a->status == ALG3_PROPOSED) {
		const Alg3Proposal *sp = &a->prop;
		qr[sp->layer - 1] += sp->n_before - sp->p_qr;
		all[sp->layer - 1] += sp->n_before - sp->nkeep;
		by_loop += sp->p_qr - sp->nkeep;
		ck_assert_int_eq(alg3_apply(a, 0, NULL, &e), 0);
	}
	ck_assert_int_gt(by_loop, 0);
	ck_assert_mem_eq(a->removed_qr, qr, sizeof qr);
	ck_assert_mem_eq(a->removed, all, sizeof all);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(net->n[i + 1], widths[i + 1] - all[i]);
	alg3_free(a);
	net_free(net);
}
END_TEST

/* ---- squeeze, then retrain ---- */

/* Inputs labelled by the network's own predictions. */
static Dataset *labelled(const Net *net, int n, uint64_t seed)
{
	Dataset *d = random_inputs(n, seed);
	float *p = outputs(net, d);
	for (int i = 0; i < n; i++) {
		int best = 0;
		for (int k = 1; k < 3; k++)
			if (p[i * 3 + k] > p[i * 3 + best])
				best = k;
		d->y[i] = best;
	}
	free(p);
	return d;
}

static TrainPlan retrain_plan(void)
{
	TrainOpts t;
	train_opts_default(&t);
	t.batch = 50;
	t.seed = 4;
	TrainPlan p;
	train_plan_default(&p, &t, 2);
	return p;
}

/* A round's κ and p are those of net, its widths net's. */
static void assert_round_is(const Alg3Round *r, const Net *net, double tau)
{
	ck_assert_int_eq(r->m, net->m);
	ck_assert_mem_eq(r->n, net->n, sizeof(int) * (size_t)(net->m + 1));
	LayerCond lc[8];
	Err e;
	ck_assert_int_eq(cond_net_values(net, tau, lc, &e), 0);
	for (int i = 0; i < net->m; i++) {
		ck_assert_msg(r->kappa[i] == lc[i].kappa, "layer %d: κ %g, not %g", i + 1,
		              r->kappa[i], lc[i].kappa);
		ck_assert_int_eq(r->p[i], lc[i].p);
		cond_layer_free(&lc[i]);
	}
}

START_TEST(squeeze_retrain_once)
{
	Net *net = planted2(21), *ref = net_clone(net, NULL);
	Dataset *train = labelled(net, 300, 6), *eval = labelled(net, 200, 7);
	Alg3Opts o = opts100();
	TrainPlan plan = retrain_plan();
	Err e;
	Alg3Round r;
	memset(&steps, 0, sizeof steps);
	ck_assert_msg(alg3_squeeze_retrain(net, &o, NULL, &plan, train, eval, &step_hook, &r, &e) ==
	                  0,
	              "%s", e.msg);
	/* the same by hand */
	int removed[5];
	int total = 0;
	ck_assert_int_eq(alg3_squeeze_net(ref, &o, NULL, removed, &total, &e), 0);
	ck_assert_int_eq(total, 4);
	double acc_sq = acc(ref, eval);
	ck_assert_int_eq(train_plan_run(ref, train, &plan, NULL, NULL, &e), 0);
	ck_assert(same_net(net, ref));
	ck_assert_int_eq(r.removed, 4);
	ck_assert_mem_eq(r.removed_per_layer, removed, sizeof removed);
	ck_assert(r.acc_squeezed == acc_sq);
	ck_assert(r.acc_squeezed < 100);
	ck_assert(r.acc_retrained == acc(net, eval));
	ck_assert_int_eq(r.trained.epochs, 2);
	ck_assert(isnan(r.trained.val_acc)); /* no validation set */
	assert_round_is(&r, net, o.tau);
	ck_assert_int_eq(count_steps(HOOK_ALG3_LAYER), 2);
	ck_assert_int_eq(count_steps(HOOK_TRAINED), 1);
	alg3_round_free(&r);

	/* without a plan: squeezed only, measured as squeezed */
	Net *bare = planted2(21);
	ck_assert_int_eq(alg3_squeeze_retrain(bare, &o, NULL, NULL, train, eval, NULL, &r, &e), 0);
	ck_assert_int_eq(r.removed, 4);
	ck_assert(isnan(r.acc_retrained));
	ck_assert(r.acc_squeezed == acc_sq);
	ck_assert_int_eq(r.trained.epochs, 0);
	assert_round_is(&r, bare, o.tau);
	alg3_round_free(&r);
	/* no evaluation set: no accuracies */
	net_free(bare);
	bare = planted2(21);
	ck_assert_int_eq(alg3_squeeze_retrain(bare, &o, NULL, NULL, train, NULL, NULL, &r, &e), 0);
	ck_assert(isnan(r.acc_squeezed));
	alg3_round_free(&r);
	net_free(bare);
	net_free(net);
	net_free(ref);
	dataset_free(train);
	dataset_free(eval);
}
END_TEST

START_TEST(until_stable_rounds)
{
	Net *net = planted2(21), *orig = net_clone(net, NULL), *ref = net_clone(net, NULL);
	Dataset *train = labelled(net, 300, 6), *eval = labelled(net, 200, 7);
	Alg3Opts o = opts100();
	TrainPlan plan = retrain_plan();
	Err e;
	Alg3Round rounds[6];
	int nr = -1, stable = -1;
	memset(&steps, 0, sizeof steps);
	ck_assert_msg(alg3_until_stable(net, &o, NULL, &plan, train, eval, 5, &step_hook, rounds,
	                                &nr, &stable, &e) == 0,
	              "%s", e.msg);
	/* round 0: the network as given */
	assert_round_is(&rounds[0], orig, o.tau);
	ck_assert_int_eq(rounds[0].removed, 0);
	ck_assert(rounds[0].acc_retrained == acc(orig, eval));
	ck_assert(rounds[0].acc_retrained == 100);
	/* one round removed the planted neurons; the next found nothing, and
	 * was neither kept nor retrained */
	ck_assert_int_eq(stable, 1);
	ck_assert_int_eq(nr, 2);
	ck_assert_int_eq(count_steps(HOOK_TRAINED), 1);
	int removed[5];
	int total = 0;
	ck_assert_int_eq(alg3_squeeze_net(ref, &o, NULL, removed, &total, &e), 0);
	ck_assert_int_eq(total, 4);
	ck_assert_int_eq(train_plan_run(ref, train, &plan, NULL, NULL, &e), 0);
	ck_assert(same_net(net, ref));
	ck_assert_int_eq(alg3_squeeze_net(ref, &o, NULL, NULL, &total, &e), 0);
	ck_assert_int_eq(total, 0);
	/* the counts add up to the widths, the last round is the final network */
	for (int k = 1; k < nr; k++) {
		int sum = 0;
		for (int i = 0; i < net->m; i++) {
			sum += rounds[k].removed_per_layer[i];
			ck_assert_int_eq(rounds[k].n[i + 1],
			                 rounds[k - 1].n[i + 1] - rounds[k].removed_per_layer[i]);
		}
		ck_assert_int_eq(rounds[k].removed, sum);
		total += sum;
	}
	ck_assert_int_eq(total, net_hidden_total(orig) - net_hidden_total(net));
	ck_assert_mem_eq(rounds[1].removed_per_layer, removed, sizeof removed);
	assert_round_is(&rounds[nr - 1], net, o.tau);
	ck_assert(rounds[1].acc_retrained == acc(net, eval));
	ck_assert_int_eq(rounds[1].trained.epochs, 2);
	ck_assert_str_eq(steps.text[steps.n - 1], "round 2: nothing to remove");
	for (int k = 0; k < nr; k++)
		alg3_round_free(&rounds[k]);

	/* without retraining: the squeeze alone, then a squeeze that finds nothing */
	Net *bare = planted2(21), *sq = planted2(21);
	memset(&steps, 0, sizeof steps);
	ck_assert_int_eq(alg3_until_stable(bare, &o, NULL, NULL, train, eval, 5, &step_hook, rounds,
	                                   &nr, &stable, &e),
	                 0);
	ck_assert_int_eq(nr, 2);
	ck_assert_int_eq(stable, 1);
	ck_assert_int_eq(count_steps(HOOK_TRAINED), 0);
	total = 0;
	ck_assert_int_eq(alg3_squeeze_net(sq, &o, NULL, NULL, &total, &e), 0);
	ck_assert_int_eq(total, 4);
	ck_assert(same_net(bare, sq));
	ck_assert_int_eq(rounds[1].removed, 4);
	ck_assert_int_eq(rounds[1].trained.epochs, 0);
	ck_assert(isnan(rounds[1].acc_retrained));
	assert_round_is(&rounds[1], bare, o.tau);
	for (int k = 0; k < nr; k++)
		alg3_round_free(&rounds[k]);
	net_free(bare);
	net_free(sq);

	/* at most max_rounds: one round, and not known to be stable */
	Net *once = planted2(21);
	ck_assert_int_eq(alg3_until_stable(once, &o, NULL, &plan, train, eval, 1, NULL, rounds, &nr,
	                                   &stable, &e),
	                 0);
	ck_assert_int_eq(nr, 2);
	ck_assert_int_eq(stable, 0);
	ck_assert(same_net(once, net));
	for (int k = 0; k < nr; k++)
		alg3_round_free(&rounds[k]);
	net_free(once);
	net_free(net);
	net_free(orig);
	net_free(ref);
	dataset_free(train);
	dataset_free(eval);
}
END_TEST

static int stop_always(void *ud)
{
	(void)ud;
	return 1;
}

/* On LAPACK's path a proposal asks the calling thread's stop between the
 * blocks of its decompositions (a 41×10 Ŵ: after its first QR). Stopped is
 * 1 and says where, not a failure; the network is as it was, the
 * pass where it was, and it goes on from there. */
START_TEST(stopped_in_a_proposal)
{
	int w[3] = {40, 10, 3};
	Net *net = net_new(2, w, ACT_TANH, 1.0f, NULL);
	ck_assert_ptr_nonnull(net);
	Rng r;
	rng_seed(&r, 4);
	net_init_glorot(net, &r);
	Net *orig = net_clone(net, NULL);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 1.01;
	Err e;
	cond_set_path(COND_PATH_LAPACK);
	hook_set_thread_stop(stop_always, NULL);
	Alg3Proposal sp;
	ck_assert_int_eq(alg3_propose(net, 1, &o, &sp, &e), 1);
	ck_assert_str_eq(e.msg, "layer 1: Ŵ: stopped during the decomposition of a 41×10 matrix");
	ck_assert_ptr_null(sp.perm);
	Alg3 *a = alg3_new(net, &o, NULL, &e);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(alg3_step(a, &e), 1);
	ck_assert_str_eq(e.msg, "layer 1: Ŵ: stopped during the decomposition of a 41×10 matrix");
	ck_assert_int_eq(a->status, ALG3_DONE);
	ck_assert_int_eq(a->next, 1);
	ck_assert_int_eq(alg3_run(a, NULL, &e), 1);
	ck_assert_int_eq(a->total, 0);
	int total = -1, removed[2] = {-1, -1};
	ck_assert_int_eq(alg3_squeeze_net(net, &o, NULL, removed, &total, &e), 1);
	ck_assert_int_eq(total, -1);
	ck_assert_int_eq(removed[0], -1);
	ck_assert(same_net(net, orig));
	hook_set_thread_stop(NULL, NULL);
	ck_assert_msg(alg3_step(a, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(a->status, ALG3_PROPOSED);
	ck_assert_int_eq(a->prop.layer, 1);
	ck_assert_int_lt(a->prop.nkeep, 10);
	alg3_free(a);
	cond_set_path(COND_PATH_AUTO);
	net_free(orig);
	net_free(net);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("alg3");
	TCase *t = tcase_create("alg3");
	tcase_add_test(t, propose_finds_duplicates);
	tcase_add_test(t, apply_without_compensation);
	tcase_add_test(t, compensation_restores_outputs);
	tcase_add_test(t, preview_leaves_net_alone);
	tcase_add_test(t, while_loop_bounds_kappa);
	suite_add_tcase(s, t);
	TCase *st = tcase_create("stepped");
	tcase_add_test(st, planted2_is_as_described);
	tcase_add_test(st, step_and_apply);
	tcase_add_test(st, refuse_moves_on);
	tcase_add_test(st, run_is_every_layer_in_order);
	tcase_add_test(st, propose_a_layer_within_tau);
	tcase_add_test(st, new_checks_its_options);
	tcase_add_test(st, step_passes_over_nothing_to_remove);
	tcase_add_test(st, removed_by_qr_and_by_the_loop);
	tcase_add_test(st, squeeze_retrain_once);
	tcase_add_test(st, until_stable_rounds);
	tcase_add_test(st, stopped_in_a_proposal);
	suite_add_tcase(s, st);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
