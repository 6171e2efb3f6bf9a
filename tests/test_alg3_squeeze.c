/* test_alg3_squeeze.c - Algorithm 3 on networks with planted duplicate
 * neurons: exactly the duplicates go, compensation restores the outputs, a
 * preview leaves the network alone, the while loop leaves κ ≤ τ; a stop in
 * a proposal is a stop, the network as it was. */
#include "alg3_test.h"
#include "engine/cond_matrix.h"

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
	Dataset *sample = fx_random_inputs(300, 10, 1), *test = fx_random_inputs(200, 10, 2);
	float *before = fx_outputs(net, test);
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
	float *after = fx_outputs(net, test);
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
	Dataset *sample = fx_random_inputs(300, 10, 3), *eval = fx_random_inputs(400, 10, 4);
	/* labels: the network's own predictions, so its accuracy is 1 */
	float *p = fx_outputs(net, eval);
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
	Net *net = fx_wide_net();
	Alg3Opts o = opts3();
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
		ck_assert_int_eq(net->n[layer], fx_wide_widths[layer] - removed[layer - 1]);
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
	tcase_add_test(t, stopped_in_a_proposal);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
