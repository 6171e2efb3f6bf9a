/* test_report_squeeze.c - what a squeeze reports beyond the paper's
 * layouts: the per-layer rows made from a pass, condnet squeeze's record of
 * one squeeze and of squeezes repeated until stable, and the screen's table
 * of a squeeze pass's decisions. */
#include <cjson/cJSON.h>
#include <math.h>

#include "report/report_int.h"
#include "report/report_squeeze.h"
#include "report_test.h"

static int has(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key) != NULL;
}

/* A squeeze's rows: widths and κ from the networks and their conditioning,
 * κ at decision and what each stage removed from the pass; counts given
 * leave the stages unknown (-1). */
START_TEST(squeeze_layer_rows)
{
	int wb[4] = {4, 50, 40, 3}, wa[4] = {4, 45, 30, 3};
	Net *before = net_new(3, wb, ACT_ERF, 1, NULL), *after = net_new(3, wa, ACT_ERF, 1, NULL);
	LayerCond cb[3] = {{.kappa = 12.5}, {.kappa = INFINITY}, {.kappa = 3}};
	LayerCond ca[3] = {{.kappa = 9}, {.kappa = 20}, {.kappa = 2.5}};
	int removed[3] = {5, 10, 0}, by_qr[3] = {4, 10, 0};
	double dec[3] = {12.5, 30, NAN};
	Alg3 pass = {.removed = removed, .removed_qr = by_qr, .kappa_dec = dec};
	Err e;
	SqueezeLayerRow *r = report_squeeze_layer_rows(before, cb, after, ca, &pass, &e);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r[0].layer, 1);
	ck_assert_int_eq(r[1].n_before, 40);
	ck_assert_int_eq(r[1].n_after, 30);
	ck_assert(isinf(r[1].kappa) && r[1].kappa_dec == 30 && r[1].kappa_after == 20);
	ck_assert(isnan(r[1].kappa_retrained));
	ck_assert_int_eq(r[0].by_threshold, 4);
	ck_assert_int_eq(r[0].by_loop, 1);
	ck_assert_int_eq(r[1].by_loop, 0);
	/* the output layer is never decided */
	ck_assert(isnan(r[2].kappa_dec));
	ck_assert_int_eq(r[2].by_threshold, -1);
	ck_assert_int_eq(r[2].by_loop, -1);
	free(r);
	int counts[2] = {45, 30};
	pass.o.keep_counts = counts;
	r = report_squeeze_layer_rows(before, cb, after, ca, &pass, &e);
	ck_assert_int_eq(r[0].by_threshold, -1);
	ck_assert_int_eq(r[1].by_loop, -1);
	ck_assert(r[0].kappa_dec == 12.5);
	free(r);
	net_free(before);
	net_free(after);
}
END_TEST

/* One squeeze: the kept network's removals split by stage (not when the
 * counts were given), the other network beside it, the accuracies only
 * when measured, the agreements and the retraining when there were. */
START_TEST(squeeze_once_record)
{
	Err e;
	SqueezeLayerRow rows[2] = {{.layer = 1,
	                            .n_before = 6,
	                            .n_after = 4,
	                            .kappa = 40,
	                            .kappa_dec = 40,
	                            .kappa_after = 9},
	                           {.layer = 2,
	                            .n_before = 3,
	                            .n_after = 3,
	                            .kappa = 2,
	                            .kappa_dec = NAN,
	                            .kappa_after = 2,
	                            .by_threshold = -1,
	                            .by_loop = -1}};
	SqueezeNetRow nr[2] = {
	    {.kept = 1,
	     .tau = 25,
	     .compensated = 1,
	     .removed = 2,
	     .acc_squeezed = 80,
	     .acc_retrained = 90},
	    {.kept = 0, .tau = 25, .compensated = 0, .removed = 3, .acc_squeezed = 70}};
	long differ[2] = {1, 2};
	Agreement ag[3] = {{.n = 10, .same = 9, .share = 0.9, .k = 2, .differ = differ},
	                   {.n = 10, .same = 7, .share = 0.7, .k = 2, .differ = differ},
	                   {.n = 10, .same = 8, .share = 0.8, .k = 2, .differ = differ}};
	TrainResult tr = {.epochs = 6, .best_epoch = 4, .val_acc = 0.75};
	cJSON *r = cJSON_CreateObject();
	report_squeeze_once_json(r, nr, rows, 2, 95, 1, ag, &tr, &e);
	ck_assert_int_eq(cJSON_GetArraySize(item(r, "layers")), 2);
	ck_assert(item(r, "removed")->valuedouble == 2);
	ck_assert(item(r, "removed_threshold")->valuedouble == 1);
	ck_assert(item(r, "removed_loop")->valuedouble == 1);
	ck_assert(item(r, "removed_with_compensation")->valuedouble == 2);
	ck_assert(item(r, "removed_without_compensation")->valuedouble == 3);
	ck_assert(item(r, "acc_before_squeeze")->valuedouble == 95);
	ck_assert(item(r, "acc_squeezed")->valuedouble == 80);
	ck_assert(item(r, "acc_retrained")->valuedouble == 90);
	const cJSON *o = item(r, "other_network");
	ck_assert(cJSON_IsFalse(item(o, "compensate")));
	ck_assert(item(o, "removed")->valuedouble == 3);
	ck_assert(item(o, "acc_squeezed")->valuedouble == 70);
	ck_assert(item(item(o, "agreement"), "same")->valuedouble == 7);
	ck_assert(item(item(r, "agreement_squeezed"), "same")->valuedouble == 9);
	ck_assert(item(item(r, "agreement_retrained"), "same")->valuedouble == 8);
	ck_assert(item(r, "retrain_epochs_run")->valuedouble == 6);
	ck_assert(item(r, "retrain_best_epoch")->valuedouble == 4);
	ck_assert(item(r, "retrain_val_accuracy")->valuedouble == 75);
	cJSON_Delete(r);

	/* counts given, nothing measured, no retraining */
	nr[0].counted = 1;
	r = cJSON_CreateObject();
	report_squeeze_once_json(r, nr, rows, 2, NAN, 0, NULL, NULL, &e);
	ck_assert(item(r, "removed")->valuedouble == 2);
	ck_assert(!has(r, "removed_threshold") && !has(r, "removed_loop"));
	ck_assert(!has(r, "acc_before_squeeze") && !has(r, "acc_squeezed"));
	ck_assert(!has(item(r, "other_network"), "acc_squeezed"));
	ck_assert(!has(r, "agreement_squeezed") && !has(r, "retrain_epochs_run"));
	cJSON_Delete(r);

	/* the other squeeze failed: the reason, none of its figures */
	nr[1].failed = "compensation overflows";
	r = cJSON_CreateObject();
	report_squeeze_once_json(r, nr, rows, 2, 95, 1, ag, NULL, &e);
	o = item(r, "other_network");
	ck_assert_str_eq(cJSON_GetStringValue(item(o, "failed")), "compensation overflows");
	ck_assert(!has(o, "removed") && !has(o, "acc_squeezed") && !has(o, "agreement"));
	ck_assert(item(r, "removed_with_compensation")->valuedouble == 2);
	ck_assert(!has(r, "removed_without_compensation"));
	ck_assert(item(item(r, "agreement_squeezed"), "same")->valuedouble == 9);
	cJSON_Delete(r);
}
END_TEST

/* Squeezes until stable: the rounds, the agreement when measured, and
 * "stable" only when the run got that far. */
START_TEST(rounds_record)
{
	Err e;
	int n0[3] = {2, 5, 2}, n1[3] = {2, 4, 2}, none[2] = {0}, rm[2] = {1, 0};
	double k0[2] = {50, 2}, k1[2] = {9, 2};
	int p0[2] = {4, 0}, p1[2] = {0, 0};
	Alg3Round rr[2] = {{.m = 2,
	                    .n = n0,
	                    .removed_per_layer = none,
	                    .kappa = k0,
	                    .p = p0,
	                    .acc_squeezed = NAN,
	                    .acc_retrained = NAN,
	                    .trained = {.val_acc = NAN}},
	                   {.m = 2,
	                    .n = n1,
	                    .removed = 1,
	                    .removed_per_layer = rm,
	                    .kappa = k1,
	                    .p = p1,
	                    .acc_squeezed = NAN,
	                    .acc_retrained = NAN,
	                    .trained = {.val_acc = NAN}}};
	long differ[2] = {0, 1};
	Agreement ag = {.n = 4, .same = 3, .share = 0.75, .k = 2, .differ = differ};
	cJSON *r = cJSON_CreateObject();
	report_squeeze_rounds_run_json(r, rr, 2, 10, 1, &ag, &e);
	ck_assert_int_eq(cJSON_GetArraySize(item(r, "rounds")), 2);
	ck_assert(item(cJSON_GetArrayItem(item(r, "rounds"), 1), "removed")->valuedouble == 1);
	ck_assert(item(item(r, "agreement"), "share")->valuedouble == 75);
	ck_assert(cJSON_IsTrue(item(r, "stable")));
	cJSON_Delete(r);
	r = cJSON_CreateObject();
	report_squeeze_rounds_run_json(r, rr, 1, 10, -1, NULL, &e);
	ck_assert(!has(r, "stable") && !has(r, "agreement"));
	ck_assert_int_eq(cJSON_GetArraySize(item(r, "rounds")), 1);
	cJSON_Delete(r);
}
END_TEST

/* ---- a squeeze pass's decisions ---- */

START_TEST(squeeze_decisions_say_compensated)
{
	SqueezeDecisionRow r[] = {
	    {2, 32, 26, 1, 0, 10, 45.14, 9.263, 99.83},
	    {3, 32, 32, 0, 0, 10, 62.98, 62.98, 99.83},
	    {4, 32, 21, 1, 1, 10, 29.3, 9.996, 98.83},
	};
	assert_text(TU_WRITTEN(report_squeeze_decisions(f, r, 3, REPORT_MARKDOWN, NULL)),
	            "| layer | n before | n after |   τ | κ at decision | κ after | decision | "
	            "compensated | test acc. after (%) |\n"
	            "| ----- | -------: | ------: | --: | ------------: | ------: | -------: | "
	            "----------: | ------------------: |\n"
	            "| 2     |       32 |      26 |  10 |         45.14 |   9.263 |  applied | "
	            "         no |               99.83 |\n"
	            "| 3     |       32 |      32 |  10 |         62.98 |   62.98 |  refused | "
	            "         no |               99.83 |\n"
	            "| 4     |       32 |      21 |  10 |          29.3 |   9.996 |  applied | "
	            "        yes |               98.83 |\n");
	assert_text(TU_WRITTEN(report_squeeze_decisions(f, r, 1, REPORT_CSV, NULL)),
	            "layer,n_before,n_after,tau,kappa_decision,kappa_after,decision,compensated,"
	            "test_acc_after\n"
	            "2,32,26,10,45.14,9.263,applied,no,99.83\n");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report_squeeze");
	TCase *t = tcase_create("report_squeeze");
	tcase_add_test(t, squeeze_layer_rows);
	tcase_add_test(t, squeeze_once_record);
	tcase_add_test(t, rounds_record);
	tcase_add_test(t, squeeze_decisions_say_compensated);
	suite_add_tcase(s, t);
	return tu_run(s);
}
