/* test_alg3_rounds.c - the squeeze-then-retrain rounds of Algorithm 3:
 * one round, and rounds repeated until nothing is removed, each recorded
 * with the network it leaves. */
#include "alg3_test.h"
#include "engine/train.h"
#include "engine/train_plan.h"

/* Inputs labelled by the network's own predictions. */
static Dataset *labelled(const Net *net, int n, uint64_t seed)
{
	Dataset *d = fx_random_inputs(n, 10, seed);
	float *p = fx_outputs(net, d);
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

static Suite *suite(void)
{
	Suite *s = suite_create("alg3_rounds");
	TCase *st = tcase_create("rounds");
	tcase_add_test(st, squeeze_retrain_once);
	tcase_add_test(st, until_stable_rounds);
	suite_add_tcase(s, st);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
