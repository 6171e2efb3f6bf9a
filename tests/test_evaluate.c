/* test_evaluate.c - a network's evaluation on a labelled set: its accuracy
 * and loss are net_error's to the bit, the confusion matrix sums to the rows
 * and gives the precision and recall worked out by hand; the agreement of
 * two networks counts the rows that differ per class, is 100 % for a network
 * and itself and for a compensated squeeze of a network with planted
 * duplicate neurons (and less without compensation). */
#include <math.h>

#include "alg/alg3_squeeze.h"
#include "base/rng.h"
#include "engine/evaluate.h"
#include "fixtures.h"
#include "testutil.h"

/* net_error's value, NaN when it fails. */
static double error_of(const Net *net, const Dataset *d, double *loss)
{
	double err;
	return net_error(net, d, &err, loss, NULL) ? NAN : err;
}

static Dataset *random_set(int n, int d, int k, uint64_t seed)
{
	Dataset *ds = dataset_new(n, d, k, NULL);
	ck_assert_ptr_nonnull(ds);
	Rng r;
	rng_seed(&r, seed);
	for (long i = 0; i < (long)n * d; i++)
		ds->x[i] = (float)(2 * rng_normal(&r));
	for (int i = 0; i < n; i++)
		ds->y[i] = (int)(rng_uniform(&r) * k);
	snprintf(ds->name, sizeof ds->name, "random");
	return ds;
}

static long sum(const long *v, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += v[i];
	return s;
}

START_TEST(accuracy_and_loss_are_net_errors)
{
	int w[4] = {10, 8, 5, 3};
	Net *net = net_fresh(3, w, ACT_ERF, 1.0f, 4, NULL);
	/* more than two slices of evaluation chunks */
	Dataset *d = random_set(40000, 10, 3, 9);
	Evaluation ev;
	Err e;
	ck_assert_msg(net_evaluate(net, d, 1, NULL, NULL, &ev, &e) == 0, "%s", e.msg);
	double loss, err = error_of(net, d, &loss);
	ck_assert_mem_eq(&ev.error, &err, sizeof err);
	ck_assert_mem_eq(&ev.loss, &loss, sizeof loss);
	long right = 0, conf = 0;
	for (int r = 0; r < d->n; r++)
		right += ev.cls[r] == d->y[r];
	ck_assert_int_eq(right, ev.correct);
	for (int i = 0; i < 9; i++)
		conf += ev.confusion[i];
	ck_assert_int_eq(conf, d->n);
	ck_assert_int_eq(sum(ev.rows, 3), d->n);
	ck_assert_int_eq(sum(ev.answered, 3), d->n);
	ck_assert_int_eq(sum(ev.hits, 3), ev.correct);
	/* the probabilities are net_forward's, and the class their largest */
	float *p = malloc(sizeof *p * (size_t)d->n * 3);
	ck_assert_int_eq(net_forward(net, d->x, d->n, 3, p, &e), 0);
	ck_assert_mem_eq(ev.prob, p, sizeof *p * (size_t)d->n * 3);
	for (int r = 0; r < d->n; r++)
		for (int c = 0; c < 3; c++)
			ck_assert(p[r * 3 + c] <= p[r * 3 + ev.cls[r]]);
	free(p);
	evaluation_free(&ev);
	dataset_free(d);
	net_free(net);
}
END_TEST

/* A one-layer network whose answer is the largest input (W = I), on rows
 * whose answers and classes are chosen: the confusion matrix, precision and
 * recall as worked out by hand. */
START_TEST(precision_and_recall_by_hand)
{
	int w[2] = {4, 4};
	Net *net = net_new(1, w, ACT_ERF, 1.0f, NULL);
	for (int i = 0; i < 4; i++)
		net->W[0][i * 4 + i] = 1;
	/* (class, answer): class 3 has no row and is never answered */
	static const int pair[7][2] = {{0, 0}, {0, 0}, {0, 1}, {1, 1}, {2, 0}, {2, 2}, {2, 2}};
	Dataset *d = dataset_new(7, 4, 4, NULL);
	snprintf(d->name, sizeof d->name, "random");
	for (int r = 0; r < 7; r++) {
		d->y[r] = pair[r][0];
		d->x[r * 4 + pair[r][1]] = 1;
	}
	Evaluation ev;
	Err e;
	ck_assert_int_eq(net_evaluate(net, d, 0, NULL, NULL, &ev, &e), 0);
	static const long want[16] = {2, 1, 0, 0, 0, 1, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0};
	ck_assert_mem_eq(ev.confusion, want, sizeof want);
	ck_assert_int_eq(ev.correct, 5);
	ck_assert_double_eq_tol(evaluation_precision(&ev, 0), 2.0 / 3, 1e-15);
	ck_assert_double_eq_tol(evaluation_precision(&ev, 1), 1.0 / 2, 1e-15);
	ck_assert_double_eq_tol(evaluation_precision(&ev, 2), 1.0, 1e-15);
	ck_assert_double_eq_tol(evaluation_recall(&ev, 0), 2.0 / 3, 1e-15);
	ck_assert_double_eq_tol(evaluation_recall(&ev, 1), 1.0, 1e-15);
	ck_assert_double_eq_tol(evaluation_recall(&ev, 2), 2.0 / 3, 1e-15);
	ck_assert(isnan(evaluation_precision(&ev, 3)));
	ck_assert(isnan(evaluation_recall(&ev, 3)));
	evaluation_free(&ev);

	/* a class beyond the outputs is refused, naming the row */
	d->y[5] = 4;
	ck_assert_int_eq(net_evaluate(net, d, 0, NULL, NULL, &ev, &e), -1);
	ck_assert_str_eq(e.msg, "random: row 6 has class 4, but the network has 4 outputs (0..3)");
	dataset_free(d);
	net_free(net);
}
END_TEST

/* Finite inputs the network overflows on: those rows answer no class (their
 * outputs are not finite), count as wrong and in no class's answers or
 * confusion column, and the loss is not finite; the other rows as before.
 * Such a row used to be answered class 0. */
START_TEST(rows_without_a_finite_answer)
{
	int w[2] = {2, 3};
	Net *net = net_new(1, w, ACT_ERF, 1.0f, NULL);
	for (int i = 0; i < 6; i++)
		net->W[0][i] = 1e30f * (float)(i % 3 - 1);
	Dataset *d = dataset_new(4, 2, 3, NULL);
	snprintf(d->name, sizeof d->name, "huge");
	const float x[8] = {1e-29f, 0, 3e38f, -3e38f, -1e-29f, 0, 3e38f, 3e38f};
	const int y[4] = {2, 0, 0, 1};
	memcpy(d->x, x, sizeof x);
	memcpy(d->y, y, sizeof y);
	Evaluation ev;
	Err e;
	ck_assert_int_eq(net_evaluate(net, d, 1, NULL, NULL, &ev, &e), 0);
	ck_assert_int_eq(ev.cls[0], 2);
	ck_assert_int_eq(ev.cls[1], NET_NO_ANSWER);
	ck_assert_int_eq(ev.cls[2], 0);
	ck_assert_int_eq(ev.cls[3], NET_NO_ANSWER);
	ck_assert_int_eq(ev.no_answer, 2);
	ck_assert_int_eq(ev.correct, 2);
	ck_assert(!isfinite(ev.loss));
	long answered = 0, confused = 0;
	for (int c = 0; c < 3; c++) {
		answered += ev.answered[c];
		for (int a = 0; a < 3; a++)
			confused += ev.confusion[c * 3 + a];
	}
	ck_assert_int_eq(answered, 2);
	ck_assert_int_eq(confused, 2);
	ck_assert(isnan(ev.prob[3]) && isnan(ev.prob[9]));
	/* two networks do not agree on a row neither answers */
	Agreement ag;
	ck_assert_int_eq(evaluation_agreement(&ev, &ev, d->y, &ag, &e), 0);
	ck_assert_int_eq(ag.same, 2);
	agreement_free(&ag);
	evaluation_free(&ev);
	/* the rule itself */
	const float ok[3] = {0, 2, 1}, inf[3] = {0, INFINITY, 1}, nan3[3] = {NAN, 0, 0};
	ck_assert_int_eq(net_answer(ok, 3), 1);
	ck_assert_int_eq(net_answer(inf, 3), NET_NO_ANSWER);
	ck_assert_int_eq(net_answer(nan3, 3), NET_NO_ANSWER);
	dataset_free(d);
	net_free(net);
}
END_TEST

START_TEST(agreement_counts_per_class)
{
	int a[5] = {1, 1, 2, 2, 1}, b[5] = {0, 2, 2, 1, 1}, y[5] = {0, 1, 2, 2, 0};
	Agreement ag;
	Err e;
	ck_assert_int_eq(agreement_of(a, b, y, 5, 3, &ag, &e), 0);
	ck_assert_int_eq(ag.n, 5);
	ck_assert_int_eq(ag.same, 2);
	ck_assert_double_eq_tol(ag.share, 0.4, 1e-15);
	static const long differ[3] = {1, 1, 1};
	ck_assert_mem_eq(ag.differ, differ, sizeof differ);
	agreement_free(&ag);
	y[4] = 3;
	ck_assert_int_eq(agreement_of(a, b, y, 5, 3, &ag, &e), -1);
	ck_assert_str_eq(e.msg, "row 5 has class 3, outside 0..2");
}
END_TEST

START_TEST(agreement_with_itself)
{
	int w[3] = {10, 6, 3};
	Net *net = net_fresh(2, w, ACT_TANH, 1.0f, 2, NULL), *copy = net_clone(net, NULL);
	Dataset *d = random_set(700, 10, 3, 5);
	Agreement ag;
	Err e;
	ck_assert_int_eq(net_agreement(net, net, d, &ag, &e), 0);
	ck_assert_int_eq(ag.same, 700);
	ck_assert_double_eq(ag.share, 1.0);
	ck_assert_int_eq(sum(ag.differ, 3), 0);
	agreement_free(&ag);
	/* a change of one output weight changes some answers */
	copy->W[1][0] += 2.0f;
	ck_assert_int_eq(net_agreement(net, copy, d, &ag, &e), 0);
	ck_assert(ag.same < 700);
	ck_assert_int_eq(sum(ag.differ, 3), 700 - ag.same);
	agreement_free(&ag);
	dataset_free(d);
	net_free(net);
	net_free(copy);
}
END_TEST

START_TEST(compensated_squeeze_of_planted_duplicates_agrees)
{
	Dataset *sample = random_set(300, 10, 3, 1), *test = random_set(1000, 10, 3, 2);
	Err e;
	for (int comp = 1; comp >= 0; comp--) {
		Net *net = fx_planted(11, 0.3f, 0.7f, 0.5f, 0.5f), *sq = net_clone(net, NULL);
		Alg3Opts o;
		alg3_opts_default(&o);
		o.tau = 100;
		o.compensate = comp;
		int removed[3];
		int total = 0;
		ck_assert_int_eq(
		    alg3_squeeze_net(sq, &o, comp ? sample : NULL, removed, &total, &e), 0);
		ck_assert_int_eq(total, 2);
		ck_assert_int_eq(sq->n[2], 5);
		Agreement ag;
		ck_assert_int_eq(net_agreement(net, sq, test, &ag, &e), 0);
		if (comp)
			ck_assert_msg(ag.same == 1000, "compensated: %ld of 1000 alike", ag.same);
		else
			ck_assert_msg(ag.same < 1000, "uncompensated: all alike");
		agreement_free(&ag);
		net_free(net);
		net_free(sq);
	}
	dataset_free(sample);
	dataset_free(test);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("evaluate");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, accuracy_and_loss_are_net_errors);
	tcase_add_test(tc, precision_and_recall_by_hand);
	tcase_add_test(tc, agreement_counts_per_class);
	tcase_add_test(tc, rows_without_a_finite_answer);
	tcase_add_test(tc, agreement_with_itself);
	tcase_add_test(tc, compensated_squeeze_of_planted_duplicates_agrees);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
