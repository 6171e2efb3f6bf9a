/* test_report_run.c - the records of the batch commands: condnet train's
 * with its epochs (and the same epochs as CSV), and what condnet alg1,
 * sweep and cond add to their algorithm's record. */
#include <cjson/cJSON.h>
#include <math.h>

#include "report/report.h"
#include "report/report_run.h"
#include "report_test.h"

START_TEST(train_record_and_csv)
{
	Err e;
	Net *net = net_new(2, (int[]){3, 5, 2}, ACT_ERF, 1.0f, &e);
	EpochRow h[2] = {{.te = {.at = 1,
	                         .loss = 0.5,
	                         .acc = 0.75,
	                         .seconds = 1.5,
	                         .lr = 0.01,
	                         .val_acc = NAN,
	                         .val_loss = NAN},
	                  .test_acc = 70},
	                 {.te = {.at = 2,
	                         .loss = 0.25,
	                         .acc = 0.875,
	                         .seconds = 3,
	                         .lr = 0.005,
	                         .val_acc = 0.5,
	                         .val_loss = 0.7},
	                  .test_acc = NAN}};
	TrainRun t = {.data = "synthetic",
	              .net = net,
	              .epochs = 2,
	              .epochs_done = 2,
	              .batch = 32,
	              .lr = 0.01,
	              .result = {.epochs = 2, .best_epoch = 2, .val_acc = 0.5},
	              .validation_rows = 40,
	              .seed = 7,
	              .hist = h,
	              .nhist = 2,
	              .train_acc = 87.5,
	              .test_acc = NAN};
	cJSON *r = report_train_run_json(&t, &e);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(item(r, "command")->valuestring, "train");
	ck_assert_str_eq(item(r, "shape")->valuestring, "3-5-2");
	ck_assert(item(r, "val_accuracy")->valuedouble == 50);
	ck_assert(item(r, "validation_rows")->valuedouble == 40);
	ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(r, "test_accuracy"));
	const cJSON *hist = item(r, "history");
	ck_assert_int_eq(cJSON_GetArraySize(hist), 2);
	const cJSON *h0 = cJSON_GetArrayItem(hist, 0), *h1 = cJSON_GetArrayItem(hist, 1);
	ck_assert(item(h0, "train_acc")->valuedouble == 75);
	ck_assert(item(h0, "test_acc")->valuedouble == 70);
	ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(h0, "val_acc"));
	ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(h1, "test_acc"));
	ck_assert(item(h1, "val_acc")->valuedouble == 50);
	report_free(r);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	report_train_history_csv(f, h, 2, NULL);
	fclose(f);
	ck_assert_str_eq(buf, "epoch,loss,train_acc,test_acc,seconds,lr,val_loss,val_acc\n"
	                      "1,0.5,75,70,1.5,0.01,,\n"
	                      "2,0.25,87.5,,3,0.005,0.7,50\n");
	free(buf);
	net_free(net);
}
END_TEST

START_TEST(what_commands_add)
{
	Err e;
	int w[3] = {3, 5, 2};
	Net *net = net_new(2, w, ACT_ERF, 1.0f, &e);
	LayerCond lc[2];
	ck_assert_int_eq(cond_net(net, 25, lc, &e), 0);
	SqueezeLayerRow rows[2] = {{.layer = 1, .n_before = 5, .n_after = 4}, {.layer = 2}};
	cJSON *r = report_cond_run_json(net, lc, rows, 1, "m.model", 93.5, &e);
	ck_assert(item(item(r, "squeeze"), "removed")->valuedouble == 1);
	ck_assert_int_eq(cJSON_GetArraySize(item(item(r, "squeeze"), "layers")), 2);
	ck_assert_str_eq(item(r, "model")->valuestring, "m.model");
	ck_assert(item(r, "test_accuracy")->valuedouble == 93.5);
	report_free(r);
	r = report_cond_run_json(net, lc, NULL, 0, NULL, NAN, &e);
	ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(r, "squeeze"));
	ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(r, "model"));
	ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(r, "test_accuracy"));
	report_free(r);
	cond_layer_free(&lc[0]);
	cond_layer_free(&lc[1]);

	/* a sweep of one β with its trials, and its final training */
	Alg2Opts o;
	alg2_opts_default(&o);
	o.nbeta = 1;
	o.betas[0] = 1;
	o.q = 1;
	Alg2 *a = alg2_new(net, NULL, NULL, &o, &e);
	Alg2Trial t = {.beta = 1, .trial = 0, .err_tr = 0.25, .err_v = 0.5};
	ck_assert_int_eq(alg2_add_trial(a, &t, &e), 0);
	SweepRun s = {.data = "synthetic",
	              .final = 1,
	              .final_epochs = 20,
	              .final_test_acc = 91,
	              .final_schedule = "constant",
	              .final_result = {.epochs = 12, .best_epoch = 9, .val_acc = 0.75}};
	r = report_sweep_run_json(a, &s, &e);
	ck_assert(item(r, "pick")->valuedouble == 1);
	ck_assert(item(cJSON_GetArrayItem(item(r, "betas"), 0), "err_v")->valuedouble == 50);
	ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(r, "interrupted"));
	ck_assert(item(r, "final_epochs_run")->valuedouble == 12);
	ck_assert(item(r, "final_val_accuracy")->valuedouble == 75);
	report_free(r);
	s.final = 0;
	s.interrupted = 1;
	r = report_sweep_run_json(a, &s, &e);
	ck_assert(cJSON_IsTrue(item(r, "interrupted")));
	ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(r, "final_epochs"));
	report_free(r);
	alg2_free(a);
	net_free(net);
}
END_TEST

/* An interrupted Algorithm 1 records it, and a stop inside an iteration
 * (alg1_step returned 1) is its status, as the screen and the paper never
 * keep it. */
START_TEST(alg1_interrupted)
{
	Err e;
	Alg1 a = {.status = ALG1_RUNNING};
	alg1_opts_default(&a.o);
	cJSON *r = report_alg1_run_json(&a, "synthetic", 0, 0, &e);
	ck_assert_str_eq(item(r, "status")->valuestring, "running");
	ck_assert(cJSON_IsFalse(item(r, "interrupted")));
	ck_assert_str_eq(item(r, "data")->valuestring, "synthetic");
	report_free(r);
	r = report_alg1_run_json(&a, "synthetic", 1, 1, &e);
	ck_assert_str_eq(item(r, "status")->valuestring, "stopped");
	ck_assert(cJSON_IsTrue(item(r, "interrupted")));
	report_free(r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report_run");
	TCase *t = tcase_create("report_run");
	tcase_add_test(t, train_record_and_csv);
	tcase_add_test(t, what_commands_add);
	tcase_add_test(t, alg1_interrupted);
	suite_add_tcase(s, t);
	return tu_run(s);
}
