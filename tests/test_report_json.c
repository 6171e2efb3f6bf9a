/* test_report_json.c - the JSON records of the conditioning, Algorithm 1,
 * a β sweep and a squeeze round, from hand-made results, read back with
 * cJSON. */
#include "report/report.h"
#include "report/report_int.h"
#include "report_test.h"

START_TEST(cond_json)
{
	Err e;
	LayerCond lc[3];
	Net *net = cond_net_2652(lc);
	cJSON *j = reparse(report_cond_json(net, lc, &e));
	ck_assert_str_eq(cJSON_GetStringValue(item(j, "shape")), "4-2652-3-2");
	ck_assert_int_eq((int)num(j, "m"), 3);
	assert_ints(item(j, "n"), (int[]){4, 2652, 3, 2}, 4);
	/* the network's κ as every record holds it: n, kappa, p */
	double k3[3] = {lc[0].kappa, lc[1].kappa, lc[2].kappa};
	assert_nums(item(j, "kappa"), k3, 3);
	assert_ints(item(j, "p"), (int[]){lc[0].p, lc[1].p, lc[2].p}, 3);
	ck_assert(num(j, "tau") == 25);
	ck_assert(cJSON_IsNull(item(j, "max_kappa")));
	const cJSON *layers = item(j, "layers");
	ck_assert_int_eq(cJSON_GetArraySize(layers), 3);
	for (int i = 0; i < 3; i++) {
		const cJSON *l = cJSON_GetArrayItem(layers, i);
		ck_assert_int_eq((int)num(l, "layer"), i + 1);
		ck_assert_int_eq((int)num(l, "n"), lc[i].cols);
		ck_assert_int_eq((int)num(l, "rows"), lc[i].rows);
		ck_assert_int_eq((int)num(l, "cols"), lc[i].cols);
		ck_assert_int_eq((int)num(l, "p"), lc[i].p);
		ck_assert_int_eq((int)num(l, "rank_svd"), lc[i].rank_svd);
		if (isinf(lc[i].kappa))
			ck_assert(cJSON_IsNull(item(l, "kappa")));
		else
			ck_assert(num(l, "kappa") == lc[i].kappa);
		assert_nums(item(l, "sv"), lc[i].sv, lc[i].nsv);
		if (lc[i].rdiag) {
			ck_assert_int_eq((int)num(l, "rank_qr"), lc[i].rank_qr);
			assert_nums(item(l, "rdiag"), lc[i].rdiag, lc[i].nsv);
		} else {
			ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(l, "rank_qr"));
			ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(l, "rdiag"));
		}
	}
	ck_assert(cJSON_IsNull(item(cJSON_GetArrayItem(layers, 1), "kappa")));
	cJSON_Delete(j);
	/* a NaN in a middle layer: the maximum is unknown, not the last layer's */
	lc[1].kappa = NAN;
	j = reparse(report_cond_json(net, lc, &e));
	ck_assert(cJSON_IsNull(item(j, "max_kappa")));
	cJSON_Delete(j);
	/* all finite: the largest, not the last */
	lc[1].kappa = 2;
	j = reparse(report_cond_json(net, lc, &e));
	ck_assert(num(j, "max_kappa") == 12345.678);
	cJSON_Delete(j);

	/* a real network: every number is the decomposition's; max_kappa the
	 * largest κ (every Ŵ has more rows than columns: the zero bias row of
	 * fresh weights does not make κ infinite) */
	Net *small = net_fresh(3, (int[]){5, 4, 3, 2}, ACT_ERF, 1.0f, 3, &e);
	LayerCond real[3];
	ck_assert_int_eq(cond_net(small, 10, real, &e), 0);
	j = reparse(report_cond_json(small, real, &e));
	double maxk = 0;
	for (int i = 0; i < 3; i++) {
		const cJSON *l = cJSON_GetArrayItem(item(j, "layers"), i);
		ck_assert(near(num(l, "kappa"), real[i].kappa));
		assert_nums(item(l, "sv"), real[i].sv, real[i].nsv);
		assert_nums(item(l, "rdiag"), real[i].rdiag, real[i].nsv);
		ck_assert_int_eq((int)num(l, "rank_qr"), real[i].rank_qr);
		maxk = fmax(maxk, real[i].kappa);
		cond_layer_free(&real[i]);
	}
	ck_assert(near(num(j, "max_kappa"), maxk));
	ck_assert(num(j, "tau") == 10);
	cJSON_Delete(j);
	net_free(small);
	net_free(net);
}
END_TEST

START_TEST(alg1_json)
{
	Err e;
	Alg1 a;
	Alg1Record rec[3];
	hand_alg1(&a, rec);
	cJSON *j = reparse(report_alg1_json(&a, &e));
	ck_assert(num(j, "tau") == 25);
	ck_assert(num(j, "eta") == 1);
	ck_assert_int_eq((int)num(j, "round"), 0);
	ck_assert_int_eq((int)num(j, "max_iter"), 7);
	ck_assert(cJSON_IsTrue(item(j, "warm")));
	ck_assert(num(j, "seed") == 42);
	ck_assert_str_eq(cJSON_GetStringValue(item(j, "status")), "done");
	ck_assert_str_eq(cJSON_GetStringValue(item(j, "reason")), "every κ ≤ τ");
	const cJSON *h = item(j, "history");
	ck_assert_int_eq(cJSON_GetArraySize(h), 3);
	for (int k = 0; k < 3; k++) {
		const cJSON *r = cJSON_GetArrayItem(h, k);
		ck_assert_int_eq((int)num(r, "iter"), k);
		assert_ints(item(r, "n"), rec[k].n, 4); /* n_0 included */
		assert_nums(item(r, "kappa"), rec[k].kappa, 3);
		assert_ints(item(r, "p"), rec[k].p, 3);
		ck_assert(num(r, "sum_n") == rec[k].sum_n);
		ck_assert(num(r, "train_error") == rec[k].train_error);
		ck_assert(num(r, "seconds") == rec[k].seconds);
		ck_assert(num(r, "tau") == rec[k].tau);
		ck_assert(num(r, "eta") == rec[k].eta);
	}
	ck_assert(num(cJSON_GetArrayItem(h, 0), "max_kappa") == 2652.4);
	ck_assert(cJSON_IsNull(item(cJSON_GetArrayItem(h, 1), "max_kappa")));
	ck_assert(num(cJSON_GetArrayItem(h, 2), "tau") == 30);
	ck_assert(num(cJSON_GetArrayItem(h, 2), "eta") == 0.5);
	assert_ints(item(j, "final_n"), hand_n2, 4);
	assert_nums(item(j, "final_kappa"), hand_k2, 3);
	ck_assert(num(j, "final_max_kappa") == 20.6);
	cJSON_Delete(j);

	/* a real run stopped by max_iter: the record says the limit it ran with */
	Dataset *d = dataset_synthetic(30, 3, 4, 5, &e);
	ck_assert_ptr_nonnull(d);
	Net *shape = net_new(3, (int[]){4, 12, 10, 3}, ACT_ERF, 1.0f, &e);
	Alg1Opts o;
	alg1_opts_default(&o);
	o.tau = 1.5;
	o.eta = 0.2;
	o.max_iter = 1;
	o.seed = 4;
	Alg1 *run = alg1_new(shape, d, &o, &e);
	ck_assert_ptr_nonnull(run);
	ck_assert_msg(alg1_run(run, NULL, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(run->status, ALG1_MAX_ITER);
	j = reparse(report_alg1_json(run, &e));
	ck_assert_int_eq((int)num(j, "max_iter"), 1);
	ck_assert_str_eq(cJSON_GetStringValue(item(j, "status")), "max-iter");
	ck_assert_str_eq(cJSON_GetStringValue(item(j, "reason")), run->reason);
	h = item(j, "history");
	ck_assert_int_eq(cJSON_GetArraySize(h), run->nrec);
	ck_assert_int_eq(run->nrec, 2);
	for (int k = 0; k < run->nrec; k++) {
		const cJSON *r = cJSON_GetArrayItem(h, k);
		assert_ints(item(r, "n"), run->rec[k].n, 4);
		ck_assert_int_eq(cJSON_GetArrayItem(item(r, "n"), 0)->valueint, 4);
		assert_nums(item(r, "kappa"), run->rec[k].kappa, 3);
		ck_assert(num(r, "tau") == 1.5);
		ck_assert(num(r, "eta") == 0.2);
	}
	assert_ints(item(j, "final_n"), run->net->n, 4);
	cJSON_Delete(j);
	alg1_free(run);
	net_free(shape);
	dataset_free(d);
}
END_TEST

START_TEST(alg2_json)
{
	Err e;
	Net *base = net_new(2, hand_w10, ACT_ERF, 1.0f, NULL);
	Alg2 a;
	Alg2Beta b[4];
	hand_alg2(&a, b, base);
	cJSON *j = reparse(report_alg2_json(&a, &e));
	ck_assert_int_eq((int)num(j, "q"), 3);
	ck_assert(num(j, "eta") == 0.5);
	ck_assert(num(j, "seed") == 9);
	ck_assert(num(j, "pick") == 1.0);
	assert_ints(item(j, "pick_n"), hand_w10, 3);
	const cJSON *bs = item(j, "betas");
	ck_assert_int_eq(cJSON_GetArraySize(bs), 4);
	for (int i = 0; i < 4; i++) {
		const cJSON *o = cJSON_GetArrayItem(bs, i);
		ck_assert(num(o, "beta") == b[i].beta);
		assert_ints(item(o, "n"), b[i].widths, 3);
		ck_assert_int_eq((int)num(o, "trials"), b[i].done);
		if (b[i].done) { /* in percent, as every record's */
			ck_assert(num(o, "err_tr") == 100 * b[i].err_tr);
			ck_assert(num(o, "err_v") == 100 * b[i].err_v);
			ck_assert(num(o, "score") == 100 * b[i].score);
		} else {
			ck_assert(cJSON_IsNull(item(o, "err_tr")));
			ck_assert(cJSON_IsNull(item(o, "err_v")));
			ck_assert(cJSON_IsNull(item(o, "score")));
		}
	}
	cJSON_Delete(j);
	/* no β with all its trials: no pick */
	b[0].done = b[1].done = b[3].done = 2;
	j = reparse(report_alg2_json(&a, &e));
	ck_assert(cJSON_IsNull(item(j, "pick")));
	ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(j, "pick_n"));
	cJSON_Delete(j);
	net_free(base);
}
END_TEST

/* A squeeze round: the row the paper's stages and condnet squeeze
 * --until-stable both write, with the network's κ under "net"; what the
 * retraining did, with its kept epoch only under a validation set. */
START_TEST(squeeze_round_json)
{
	Err e;
	int rn0[4] = {4, 50, 40, 3}, rn1[4] = {4, 45, 30, 3}, none[3] = {0}, rm[3] = {5, 10, 0};
	double rk0[3] = {12, INFINITY, 3}, rk1[3] = {9, 20, 2.5};
	int rp0[3] = {0, 9, 0}, rp1[3] = {0, 0, 0};
	Alg3Round r[2] = {{.m = 3,
	                   .n = rn0,
	                   .removed_per_layer = none,
	                   .kappa = rk0,
	                   .p = rp0,
	                   .acc_squeezed = NAN,
	                   .acc_retrained = 90.5,
	                   .trained = {.val_acc = NAN}},
	                  {.m = 3,
	                   .n = rn1,
	                   .removed = 15,
	                   .removed_per_layer = rm,
	                   .kappa = rk1,
	                   .p = rp1,
	                   .acc_squeezed = 80,
	                   .acc_retrained = 91.25,
	                   .trained = {.epochs = 7, .best_epoch = 5, .val_acc = 0.875}}};
	cJSON *a = reparse(report_squeeze_rounds_json(r, 2, 35, &e));
	ck_assert_int_eq(cJSON_GetArraySize(a), 2);
	const cJSON *first = cJSON_GetArrayItem(a, 0), *second = cJSON_GetArrayItem(a, 1);
	ck_assert(num(first, "tau") == 35);
	ck_assert(num(first, "removed") == 0);
	ck_assert(cJSON_IsNull(item(first, "acc_before")));
	ck_assert(num(first, "acc_after") == 90.5);
	ck_assert(num(first, "epochs") == 0);
	ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(first, "best_epoch"));
	assert_ints(item(item(first, "net"), "n"), rn0, 4);
	assert_nums(item(item(first, "net"), "kappa"), rk0, 3);
	assert_ints(item(item(first, "net"), "p"), rp0, 3);
	assert_ints(item(second, "removed_per_layer"), rm, 3);
	ck_assert(num(second, "acc_before") == 80);
	ck_assert(num(second, "epochs") == 7);
	ck_assert(num(second, "best_epoch") == 5);
	ck_assert(num(second, "val_acc") == 87.5);
	cJSON_Delete(a);
	/* a network's κ at τ, as the cond record has it too */
	Net *net = net_fresh(2, (int[]){3, 5, 2}, ACT_ERF, 1.0f, 3, &e);
	LayerCond lc[2];
	ck_assert_int_eq(cond_net_values(net, 2, lc, &e), 0);
	cJSON *j = reparse(report_net_json(net, lc, &e));
	assert_ints(item(j, "n"), net->n, 3);
	assert_nums(item(j, "kappa"), (double[]){lc[0].kappa, lc[1].kappa}, 2);
	assert_ints(item(j, "p"), (int[]){lc[0].p, lc[1].p}, 2);
	ck_assert_int_eq(cJSON_GetArraySize(j), 3);
	cJSON_Delete(j);
	cond_layer_free(&lc[0]);
	cond_layer_free(&lc[1]);
	net_free(net);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report_json");
	TCase *t = tcase_create("json");
	tcase_add_test(t, cond_json);
	tcase_add_test(t, alg1_json);
	tcase_add_test(t, alg2_json);
	tcase_add_test(t, squeeze_round_json);
	suite_add_tcase(s, t);
	return tu_run(s);
}
