/* test_alg3_criteria.c - the squeeze's criteria on networks whose answer is
 * known: planted duplicates are found by pivoted QR and by the norm rule
 * when the copy's outgoing weights are split, a neuron with zero outgoing
 * weights is the norm rule's first to go, random orders come back from
 * their seed, given counts are kept exactly; the comparisons at equal
 * counts, the κ each layer was decided on, and what a network costs. */
#include <math.h>
#include <sys/stat.h>

#include "alg/alg3_compare.h"
#include "alg/alg3_squeeze.h"
#include "base/blas.h"
#include "base/rng.h"
#include "data/dataset.h"
#include "engine/cond.h"
#include "engine/net.h"
#include "engine/train.h"
#include "engine/train_plan.h"
#include "fixtures.h"
#include "model/model_io.h"
#include "model/net_cost.h"
#include "testutil.h"

/* 10-8-7-3, tanh: the copies of neurons 1 and 3 take 0.1 and 0.2 of the
 * outgoing rows (fixtures.h), so they have the two smallest outgoing norms
 * and the network computes what 10-8-5-3 with the unsplit rows computes. */
static Net *planted(uint64_t seed)
{
	return fx_planted(seed, 0.9f, 0.1f, 0.8f, 0.2f);
}

static double largest_change(const Net *a, const Net *b, const Dataset *ds)
{
	float *pa = fx_outputs(a, ds), *pb = fx_outputs(b, ds);
	double worst = 0;
	for (int i = 0; i < ds->n * a->n[a->m]; i++)
		worst = fmax(worst, fabs(pa[i] - pb[i]));
	free(pa);
	free(pb);
	return worst;
}

/* Labels: the network's own predictions, so its accuracy is 100 %. */
static void label_by(const Net *net, Dataset *ds)
{
	float *p = fx_outputs(net, ds);
	int k = net->n[net->m];
	for (int i = 0; i < ds->n; i++) {
		int best = 0;
		for (int c = 1; c < k; c++)
			if (p[i * k + c] > p[i * k + best])
				best = c;
		ds->y[i] = best;
	}
	free(p);
}

static int in(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

/* The accuracy (percent) of net on d, which must fit it. */
static double accuracy(const Net *net, const Dataset *d)
{
	double acc;
	Err e;
	ck_assert_msg(net_accuracy(net, d, NULL, &acc, &e) == 0, "%s", e.msg);
	return acc;
}

START_TEST(names_parse_back)
{
	Alg3Criterion got;
	Err e;
	for (int c = 0; c < ALG3_NCRITERIA; c++) {
		ck_assert_int_eq(alg3_criterion_parse(alg3_criterion_name(c), &got, &e), 0);
		ck_assert_int_eq(got, c);
	}
	ck_assert_str_eq(alg3_criterion_name(ALG3_NORM), "norm");
	ck_assert_int_eq(alg3_criterion_parse("magnitude", &got, &e), -1);
	ck_assert_str_eq(e.msg, "unknown criterion 'magnitude' (expected qr, norm or random)");
	ck_assert_int_eq(alg3_criterion_parse(NULL, &got, NULL), -1);
}
END_TEST

START_TEST(qr_and_norm_find_split_duplicates)
{
	Net *net = planted(3);
	Dataset *sample = fx_random_inputs(300, 10, 1), *test = fx_random_inputs(200, 10, 2);
	Err e;
	int order[7];
	/* the norm rule ranks the copies last, the smaller share first to go */
	ck_assert_int_eq(alg3_order(net, 2, ALG3_NORM, 0, order, &e), 0);
	ck_assert_int_eq(order[6], 5);
	ck_assert_int_eq(order[5], 6);
	/* pivoted QR leaves one of each identical pair at the end */
	ck_assert_int_eq(alg3_order(net, 2, ALG3_QR, 0, order, &e), 0);
	ck_assert(in(order, 5, 0) && in(order, 5, 2) && in(order, 5, 4));
	ck_assert_int_eq(in(order, 5, 1) + in(order, 5, 5), 1);
	ck_assert_int_eq(in(order, 5, 3) + in(order, 5, 6), 1);

	/* at τ the count is pivoted QR's (5) whatever the criterion; both
	 * criteria, compensated, give back the network's function */
	for (int c = ALG3_QR; c <= ALG3_NORM; c++) {
		Net *sq = net_clone(net, NULL);
		Alg3Opts o;
		alg3_opts_default(&o);
		o.tau = 100;
		o.criterion = (Alg3Criterion)c;
		o.compensate = 1;
		int removed[3];
		int total = 0;
		ck_assert_msg(alg3_squeeze_net(sq, &o, sample, removed, &total, &e) == 0, "%s",
		              e.msg);
		ck_assert_int_eq(total, 2);
		ck_assert_int_eq(removed[1], 2);
		ck_assert_int_eq(sq->n[2], 5);
		double worst = largest_change(net, sq, test);
		ck_assert_msg(worst < 1e-5, "%s: largest change of a probability %g",
		              alg3_criterion_name(c), worst);
		net_free(sq);
	}
	/* the norm proposal removes exactly the copies */
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 100;
	o.criterion = ALG3_NORM;
	Alg3Proposal sp;
	ck_assert_int_eq(alg3_propose(net, 2, &o, &sp, &e), 0);
	ck_assert_int_eq(sp.nkeep, 5);
	ck_assert_int_eq(sp.p_qr, 5);
	ck_assert_int_eq(sp.counted, 0);
	ck_assert_int_eq(sp.criterion, ALG3_NORM);
	ck_assert(!in(sp.keep, 5, 5) && !in(sp.keep, 5, 6));
	ck_assert(sp.kappa_after <= o.tau);
	alg3_proposal_free(&sp);
	dataset_free(sample);
	dataset_free(test);
	net_free(net);
}
END_TEST

START_TEST(zero_outgoing_goes_first_by_norm)
{
	int w[4] = {6, 12, 9, 4};
	Net *net = net_new(3, w, ACT_ERF, 1.0f, NULL);
	Rng r;
	rng_seed(&r, 9);
	net_init_glorot(net, &r);
	for (int k = 0; k < 9; k++)
		net->W[1][7 * 9 + k] = 0; /* neuron 7 of layer 1 feeds nothing */
	Err e;
	int order[12];
	ck_assert_int_eq(alg3_order(net, 1, ALG3_NORM, 0, order, &e), 0);
	ck_assert_int_eq(order[11], 7);
	/* keeping 11 of 12 by norm removes it, and the outputs do not move
	 * (beyond the rounding of products of another size) */
	int counts[2] = {11, 9};
	Alg3Opts o;
	alg3_opts_default(&o);
	o.criterion = ALG3_NORM;
	o.keep_counts = counts;
	Net *sq = net_clone(net, NULL);
	int total = 0;
	ck_assert_int_eq(alg3_squeeze_net(sq, &o, NULL, NULL, &total, &e), 0);
	ck_assert_int_eq(total, 1);
	Dataset *test = fx_random_inputs(100, 6, 4);
	ck_assert_double_le(largest_change(net, sq, test), 1e-6);
	ck_assert_int_eq(sq->n[1], 11);
	dataset_free(test);
	net_free(sq);
	net_free(net);
}
END_TEST

START_TEST(random_comes_back_from_its_seed)
{
	int w[4] = {5, 30, 20, 3};
	Net *net = net_new(3, w, ACT_TANH, 1.0f, NULL);
	Rng r;
	rng_seed(&r, 2);
	net_init_glorot(net, &r);
	Err e;
	int a[30], b[30], c[30], seen[30] = {0};
	ck_assert_int_eq(alg3_order(net, 1, ALG3_RANDOM, 42, a, &e), 0);
	ck_assert_int_eq(alg3_order(net, 1, ALG3_RANDOM, 42, b, &e), 0);
	ck_assert_int_eq(alg3_order(net, 1, ALG3_RANDOM, 43, c, &e), 0);
	ck_assert_int_eq(memcmp(a, b, sizeof a), 0);
	ck_assert_int_ne(memcmp(a, c, sizeof a), 0);
	for (int j = 0; j < 30; j++)
		seen[a[j]]++;
	for (int j = 0; j < 30; j++)
		ck_assert_int_eq(seen[j], 1);
	/* whole squeezes: the same seed, the same network; another seed, another */
	int counts[2] = {12, 7};
	Alg3Opts o;
	alg3_opts_default(&o);
	o.criterion = ALG3_RANDOM;
	o.keep_counts = counts;
	o.seed = 42;
	Net *x = net_clone(net, NULL), *y = net_clone(net, NULL), *z = net_clone(net, NULL);
	int tx = 0, ty = 0, tz = 0;
	ck_assert_int_eq(alg3_squeeze_net(x, &o, NULL, NULL, &tx, &e), 0);
	ck_assert_int_eq(alg3_squeeze_net(y, &o, NULL, NULL, &ty, &e), 0);
	o.seed = 43;
	ck_assert_int_eq(alg3_squeeze_net(z, &o, NULL, NULL, &tz, &e), 0);
	ck_assert_int_eq(tx, 31);
	ck_assert_int_eq(ty, 31);
	ck_assert_int_eq(tz, 31);
	ck_assert_int_eq(memcmp(x->param, y->param, sizeof(float) * x->nparam), 0);
	ck_assert_int_ne(memcmp(x->param, z->param, sizeof(float) * x->nparam), 0);
	net_free(x);
	net_free(y);
	net_free(z);
	net_free(net);
}
END_TEST

START_TEST(given_counts_are_kept_exactly)
{
	int w[5] = {8, 40, 30, 25, 4};
	Net *net = net_new(4, w, ACT_ERF, 1.0f, NULL);
	Rng r;
	rng_seed(&r, 6);
	net_init_glorot(net, &r);
	Dataset *sample = fx_random_inputs(200, 8, 5);
	int counts[3] = {17, 30, 9};
	Err e;
	for (int c = 0; c < ALG3_NCRITERIA; c++)
		for (int comp = 0; comp <= 1; comp++) {
			Net *sq = net_clone(net, NULL);
			Alg3Opts o;
			alg3_opts_default(&o);
			o.criterion = (Alg3Criterion)c;
			o.keep_counts = counts;
			o.compensate = comp;
			o.tau = 1e6; /* τ decides nothing when counts are given */
			Alg3 *a = alg3_new(sq, &o, sample, &e);
			ck_assert_ptr_nonnull(a);
			ck_assert_msg(alg3_run(a, NULL, &e) == 0, "%s", e.msg);
			ck_assert_int_eq(a->total, 23 + 16);
			for (int i = 1; i <= 3; i++) {
				ck_assert_int_eq(sq->n[i], counts[i - 1]);
				ck_assert_int_eq(a->removed[i - 1], w[i] - counts[i - 1]);
				ck_assert_int_eq(a->removed_qr[i - 1], 0);
			}
			ck_assert_int_eq(a->applied, 2); /* layer 2 keeps all: not proposed */
			alg3_free(a);
			net_free(sq);
		}
	/* counts that do not fit are refused, naming the layer */
	Alg3Opts o;
	alg3_opts_default(&o);
	int bad[3] = {17, 31, 9};
	o.keep_counts = bad;
	ck_assert_ptr_null(alg3_new(net, &o, NULL, &e));
	ck_assert_str_eq(e.msg, "Algorithm 3: layer 2: keep 31 of 30 neurons, expected 1..30");
	ck_assert_int_eq(alg3_check_counts(net, counts, 2, &e), -1);
	ck_assert_str_eq(e.msg, "2 keep counts for a network of 3 hidden layers");
	dataset_free(sample);
	net_free(net);
}
END_TEST

START_TEST(kappa_at_decision_is_after_the_cascade)
{
	Net *net = fx_wide_net();
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 3;
	Err e;
	Net *sq = net_clone(net, NULL);
	Alg3 *a = alg3_new(sq, &o, NULL, &e);
	ck_assert_int_eq(alg3_step(a, &e), 0);
	ck_assert_int_eq(a->status, ALG3_PROPOSED);
	ck_assert_int_eq(a->prop.layer, 1);
	ck_assert_int_eq(alg3_apply(a, 0, NULL, &e), 0);
	/* layer 2's κ now, after layer 1 lost neurons, is the one it is decided on */
	LayerCond now, orig;
	ck_assert_int_eq(cond_layer(sq, 2, o.tau, &now, &e), 0);
	ck_assert_int_eq(cond_layer(net, 2, o.tau, &orig, &e), 0);
	ck_assert_int_eq(alg3_run(a, NULL, &e), 0);
	ck_assert_int_gt(a->total, 0);
	ck_assert_double_eq(a->kappa_dec[1], now.kappa);
	ck_assert(a->kappa_dec[1] != orig.kappa);
	ck_assert(isnan(a->kappa_dec[3])); /* the output layer is never decided */
	int sum = 0;
	for (int i = 0; i < 3; i++)
		sum += a->removed[i];
	ck_assert_int_eq(sum, a->total);
	cond_layer_free(&now);
	cond_layer_free(&orig);
	alg3_free(a);
	net_free(sq);
	net_free(net);
}
END_TEST

START_TEST(compare_at_equal_counts)
{
	int w[5] = {10, 24, 24, 24, 3};
	Net *net = net_new(4, w, ACT_TANH, 1.0f, NULL);
	Rng r;
	rng_seed(&r, 8);
	net_init_glorot(net, &r);
	Dataset *train = fx_random_inputs(300, 10, 6), *eval = fx_random_inputs(200, 10, 7);
	label_by(net, train);
	label_by(net, eval);
	Alg3CompareOpts o;
	alg3_compare_opts_default(&o);
	o.tau = 4;
	o.draws = 4;
	o.cost_repeats = 0;
	TrainPlan plan;
	TrainOpts to;
	train_opts_default(&to);
	train_plan_default(&plan, &to, 0.5);
	o.retrain = &plan;
	o.retrain_draws = 2;
	Alg3Compare c;
	Err e;
	ck_assert_msg(alg3_compare(net, &o, train, eval, NULL, &c, &e) == 0, "%s", e.msg);
	/* the counts are those of Algorithm 3 at τ, and what its stages removed */
	Net *qr = net_clone(net, NULL);
	Alg3Opts so;
	alg3_opts_default(&so);
	so.tau = 4;
	int removed[4];
	int total = -1;
	ck_assert_int_eq(alg3_squeeze_net(qr, &so, NULL, removed, &total, &e), 0);
	ck_assert_int_eq(total, c.removed);
	ck_assert(c.removed > 0);
	for (int i = 1; i <= 3; i++) {
		ck_assert_int_eq(c.keep[i - 1], qr->n[i]);
		ck_assert_int_eq(c.removed_thresh[i - 1] + c.removed_loop[i - 1], removed[i - 1]);
	}
	ck_assert_double_eq(c.acc_before, 100);
	ck_assert_double_eq_tol(c.acc[CMP_SQUEEZED][ALG3_QR].acc, accuracy(qr, eval), 1e-9);
	for (int s = 0; s < CMP_NSTAGES; s++) {
		ck_assert_int_eq(c.acc[s][ALG3_QR].n, 1);
		ck_assert_int_eq(c.acc[s][ALG3_NORM].n, 1);
		int want = s >= CMP_RETRAINED ? 2 : 4;
		ck_assert_int_eq(c.acc[s][ALG3_RANDOM].n, want);
		ck_assert(c.share_ge[s] >= 0 && c.share_ge[s] <= 1);
		for (int d = 0; d < 4; d++)
			ck_assert_int_eq(isnan(c.draw_acc[s][d]), d >= want);
	}
	ck_assert_uint_eq(c.cost_after.params, qr->nparam);
	ck_assert(isnan(c.cost_after.sec_b1));
	alg3_compare_free(&c);
	net_free(qr);
	dataset_free(train);
	dataset_free(eval);
	net_free(net);
}
END_TEST

START_TEST(layer_compare_matches_the_preview)
{
	Net *net = planted(11);
	Dataset *sample = fx_random_inputs(300, 10, 8), *eval = fx_random_inputs(400, 10, 9);
	label_by(net, eval);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 100;
	Alg3Proposal sp;
	Err e;
	ck_assert_int_eq(alg3_propose(net, 2, &o, &sp, &e), 0);
	double acc, accc;
	ck_assert_int_eq(alg3_preview(net, &sp, eval, sample, &acc, &accc, &e), 0);
	Alg3LayerCompare lc;
	ck_assert_msg(alg3_compare_layer(net, &sp, eval, sample, 5, 1, 1, 0, &lc, &e) == 0, "%s",
	              e.msg);
	ck_assert_int_eq(lc.rows, 400);
	ck_assert_int_eq(lc.nkeep, 5);
	ck_assert_double_eq_tol(lc.acc[ALG3_QR], acc, 1e-9);
	ck_assert_double_eq_tol(lc.acc_comp[ALG3_QR], accc, 1e-9);
	/* compensation restores the function when only the copies go */
	ck_assert_double_eq(lc.acc_comp[ALG3_QR], 100);
	ck_assert_double_eq(lc.acc_comp[ALG3_NORM], 100);
	ck_assert(lc.share_ge >= 0 && lc.share_ge <= 1 && !isnan(lc.sd));
	/* fewer rows, no compensation: the compensated figures are absent */
	ck_assert_int_eq(alg3_compare_layer(net, &sp, eval, NULL, 2, 1, 0, 100, &lc, &e), 0);
	ck_assert_int_eq(lc.rows, 100);
	ck_assert(isnan(lc.acc_comp[ALG3_NORM]));
	alg3_proposal_free(&sp);
	dataset_free(sample);
	dataset_free(eval);
	net_free(net);
}
END_TEST

START_TEST(costs_count_and_time)
{
	int w[4] = {20, 30, 10, 5};
	Net *net = net_new(3, w, ACT_ERF, 1.0f, NULL);
	NetCost c;
	Err e;
	ck_assert_int_eq(net_cost_measure(net, 3, 1, &c, &e), 0);
	ck_assert_uint_eq(c.params, 21 * 30 + 31 * 10 + 11 * 5);
	ck_assert_double_eq(c.madds, 20 * 30 + 30 * 10 + 10 * 5);
	ck_assert(c.sec_b1 > 0 && isfinite(c.sec_b1) && c.sec_b256 > 0 && isfinite(c.sec_b256));
	ck_assert_int_eq(c.repeats, 3);
	ck_assert_int_eq(c.threads, 1);
	/* timed on the threads asked for, whatever an evaluation or a training
	 * left OpenBLAS at; one again afterwards */
	blas_set_threads(1);
	ck_assert_int_eq(net_cost_measure(net, 1, 2, &c, &e), 0);
	ck_assert_int_eq(c.threads, 2);
	ck_assert_int_eq(blas_get_threads(), 1);
	/* the file size is what model_save writes, with and without Adam state */
	char path[600];
	snprintf(path, sizeof path, "%s/m.model", tu_tmpdir());
	for (int adam = 0; adam <= 1; adam++) {
		net->adam_t = adam;
		net_cost_count(net, &c);
		ck_assert_int_eq(model_save(net, path, &e), 0);
		struct stat st;
		ck_assert_int_eq(stat(path, &st), 0);
		ck_assert_uint_eq(c.file_bytes, (size_t)st.st_size);
	}
	ck_assert_int_eq(net_cost_measure(net, 0, 1, &c, &e), -1);
	net_free(net);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("alg3_criteria");
	TCase *t = tcase_create("criteria");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, names_parse_back);
	tcase_add_test(t, qr_and_norm_find_split_duplicates);
	tcase_add_test(t, zero_outgoing_goes_first_by_norm);
	tcase_add_test(t, random_comes_back_from_its_seed);
	tcase_add_test(t, given_counts_are_kept_exactly);
	tcase_add_test(t, kappa_at_decision_is_after_the_cascade);
	tcase_add_test(t, compare_at_equal_counts);
	tcase_add_test(t, layer_compare_matches_the_preview);
	tcase_add_test(t, costs_count_and_time);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
