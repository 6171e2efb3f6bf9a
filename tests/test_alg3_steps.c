/* test_alg3_steps.c - Algorithm 3 stepped, on a network with planted
 * duplicates in two layers: proposals in order, applied or refused, what
 * the hook hears, a layer proposed on its own, the options checked, layers
 * with nothing to remove passed over, and what the |r_jj| threshold and
 * the κ loop each remove. */
#include "alg3_test.h"

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
	Dataset *sample = fx_random_inputs(300, 10, 5);
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
	Dataset *sample = fx_random_inputs(20, 10, 1);
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
	Net *net = fx_wide_net();
	Alg3Opts o = opts3();
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
		ck_assert_int_eq(net->n[i + 1], fx_wide_widths[i + 1] - all[i]);
	alg3_free(a);
	net_free(net);
}
END_TEST

/* ---- squeeze, then retrain ---- */
static Suite *suite(void)
{
	Suite *s = suite_create("alg3_steps");
	TCase *st = tcase_create("stepped");
	tcase_add_test(st, planted2_is_as_described);
	tcase_add_test(st, step_and_apply);
	tcase_add_test(st, refuse_moves_on);
	tcase_add_test(st, run_is_every_layer_in_order);
	tcase_add_test(st, propose_a_layer_within_tau);
	tcase_add_test(st, new_checks_its_options);
	tcase_add_test(st, step_passes_over_nothing_to_remove);
	tcase_add_test(st, removed_by_qr_and_by_the_loop);
	suite_add_tcase(s, st);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
