/* test_alg3.c - Algorithm 3 on networks with planted duplicate neurons:
 * exactly the duplicates go, compensation restores the outputs, the while
 * loop leaves κ ≤ τ, layers already within τ stay as they are. */
#include <math.h>

#include "engine/alg3_squeeze.h"
#include "engine/cond.h"
#include "data/dataset.h"
#include "engine/net.h"
#include "base/rng.h"
#include "testutil.h"
#include "engine/train.h"

/* Layer 2 duplicates: neuron 5 copies neuron 1, neuron 6 copies neuron 3. */
static const int dup_of[2][2] = {{1, 5}, {3, 6}};

/* 10-8-7-3: a random 10-8-5-3 network whose second hidden layer gets two
 * copies (same incoming weights and bias) with the outgoing weights split
 * 0.3/0.7 and 0.5/0.5, so its function is unchanged. */
static Net *planted(uint64_t seed)
{
	int wb[4] = {10, 8, 5, 3}, wp[4] = {10, 8, 7, 3};
	Net *base = net_new(3, wb, ACT_TANH, 1.0f, NULL), *net = net_new(3, wp, ACT_TANH, 1.0f, NULL);
	ck_assert_ptr_nonnull(base);
	ck_assert_ptr_nonnull(net);
	Rng r;
	rng_seed(&r, seed);
	net_init_glorot(base, &r);
	for (size_t i = 0; i < base->nparam; i++)
		base->param[i] += (float)(0.1 * rng_normal(&r));
	memcpy(net->W[0], base->W[0], sizeof(float) * 10 * 8);
	memcpy(net->b[0], base->b[0], sizeof(float) * 8);
	int src[7] = {0, 1, 2, 3, 4, 1, 3};
	float share[7] = {1, 0.3f, 1, 0.5f, 1, 0.7f, 0.5f};
	for (int j = 0; j < 7; j++) {
		for (int i = 0; i < 8; i++)
			net->W[1][i * 7 + j] = base->W[1][i * 5 + src[j]];
		net->b[1][j] = base->b[1][src[j]];
		for (int k = 0; k < 3; k++)
			net->W[2][j * 3 + k] = share[j] * base->W[2][src[j] * 3 + k];
	}
	memcpy(net->b[2], base->b[2], sizeof(float) * 3);
	net_free(base);
	return net;
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

START_TEST(propose_finds_duplicates)
{
	Net *net = planted(7);
	SqueezeOpts o;
	squeeze_opts_default(&o);
	o.tau = 100;
	SqueezeProposal sp;
	Err e;
	ck_assert_int_eq(squeeze_propose(net, 2, &o, &sp, &e), 0);
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
	squeeze_proposal_free(&sp);

	/* layer 1 is within τ: the proposal keeps everyone */
	ck_assert_int_eq(squeeze_propose(net, 1, &o, &sp, &e), 0);
	ck_assert(sp.kappa_before <= o.tau);
	ck_assert_int_eq(sp.nkeep, 8);
	squeeze_proposal_free(&sp);

	ck_assert_int_eq(squeeze_propose(net, 3, &o, &sp, &e), -1);
	ck_assert_str_eq(e.msg, "layer 3 is not a hidden layer (expected 1..2)");
	o.tau = 0.5;
	ck_assert_int_eq(squeeze_propose(net, 1, &o, &sp, &e), -1);
	ck_assert_str_eq(e.msg, "τ = 0.5, expected a finite number ≥ 1");
	net_free(net);
}
END_TEST

START_TEST(apply_without_compensation)
{
	Net *net = planted(7), *orig = net_clone(net, NULL);
	SqueezeOpts o;
	squeeze_opts_default(&o);
	o.tau = 100;
	int removed[3];
	Err e;
	ck_assert_int_eq(squeeze_net(net, &o, NULL, removed, &e), 2);
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
	SqueezeOpts o;
	squeeze_opts_default(&o);
	o.tau = 100;
	o.compensate = 1;
	int removed[3];
	Err e;
	ck_assert_msg(squeeze_net(net, &o, sample, removed, &e) == 2, "%s", e.msg);
	ck_assert_int_eq(net->n[2], 5);
	float *after = outputs(net, test);
	double worst = 0;
	for (int i = 0; i < test->n * 3; i++)
		worst = fmax(worst, fabs(after[i] - before[i]));
	ck_assert_msg(worst < 1e-5, "largest change of a probability: %g", worst);
	free(before);
	free(after);

	o.compensate = 1;
	ck_assert_int_eq(squeeze_net(net, &o, NULL, NULL, &e), -1);
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
	SqueezeOpts o;
	squeeze_opts_default(&o);
	o.tau = 100;
	SqueezeProposal sp;
	Err e;
	ck_assert_int_eq(squeeze_propose(net, 2, &o, &sp, &e), 0);
	double acc = -1, acc_comp = -1;
	ck_assert_msg(squeeze_preview(net, &sp, eval, sample, &acc, &acc_comp, &e) == 0, "%s",
		      e.msg);
	ck_assert(acc >= 0 && acc <= 1);
	ck_assert(acc < 1);
	ck_assert_double_eq(acc_comp, 1.0);
	ck_assert_int_eq(net->n[2], 7);
	ck_assert_int_eq(memcmp(net->param, orig->param, sizeof(float) * net->nparam), 0);

	/* applying it for real gives the previewed accuracy */
	ck_assert_int_eq(squeeze_apply(net, &sp, 0, NULL, &e), 0);
	ck_assert_double_eq_tol(1 - net_error(net, eval, NULL), acc, 1e-12);
	/* the proposal no longer fits the layer */
	ck_assert_int_eq(squeeze_apply(net, &sp, 0, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "layer 2 has 5 neurons, but the proposal was made for 7");
	squeeze_proposal_free(&sp);
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
	SqueezeOpts o;
	squeeze_opts_default(&o);
	o.tau = 3;
	Err e;
	/* without the loop, the QR threshold alone decides */
	o.while_loop = 0;
	SqueezeProposal sp;
	ck_assert_int_eq(squeeze_propose(net, 2, &o, &sp, &e), 0);
	ck_assert(sp.kappa_before > o.tau);
	ck_assert_int_eq(sp.nkeep, sp.p_qr);
	squeeze_proposal_free(&sp);
	o.while_loop = 1;
	int removed[4];
	int total = squeeze_net(net, &o, NULL, removed, &e);
	ck_assert_msg(total > 0, "%s", e.msg);
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
	ck_assert_int_eq(squeeze_net(again, &o, NULL, removed, &e), 0);
	ck_assert_int_eq(memcmp(again->param, net->param, sizeof(float) * net->nparam), 0);
	net_free(again);
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
	return s;
}

int main(void)
{
	return tu_run(suite());
}
