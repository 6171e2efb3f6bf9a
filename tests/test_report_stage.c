/* test_report_stage.c - the parts of the paper's stage files: a result
 * written with its mode and seconds (rewritten, never repeated, when it is
 * written again), its settings and data (replaced, never repeated), a
 * partial result taken over, rows, squeeze rounds, a
 * fully trained network and the η rows. */
#include <cjson/cJSON.h>
#include <math.h>

#include "report/report_stage.h"
#include "report_test.h"

static cJSON *read_back(const char *path)
{
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	char buf[8192];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	cJSON *o = cJSON_Parse(buf);
	ck_assert_ptr_nonnull(o);
	return o;
}

START_TEST(written_with_its_mode)
{
	Err e;
	char path[1024];
	snprintf(path, sizeof path, "%s/s.json", tu_tmpdir());
	cJSON *out = report_stage_new(&e);
	ReproRecord mode = {.on = 1, .threads = 2, .parts = 2};
	snprintf(mode.kernels, sizeof mode.kernels, "Haswell");
	ck_assert_int_eq(report_stage_acc(out, 97.5, &e), 0);
	ck_assert_int_eq(report_stage_write(out, &mode, 12.5, path, &e), 0);
	mode.threads = 3;
	ck_assert_int_eq(report_stage_write(out, &mode, 20, path, &e), 0);
	cJSON *back = read_back(path);
	ck_assert(num(back, "acc") == 97.5);
	ck_assert(num(back, "seconds") == 20);
	ck_assert(num(back, "threads") == 3);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(back, "reproducible")));
	ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(back, "kernels")->valuestring, "Haswell");
	ck_assert_int_eq(cJSON_GetArraySize(back), 6); /* acc, the mode's four, seconds */
	/* what a partial result holds but its run goes over */
	cJSON *done = report_stage_new(&e);
	ck_assert_int_eq(report_stage_take(done, back, NULL), 0);
	ck_assert_int_eq(cJSON_GetArraySize(done), 1);
	ck_assert(num(done, "acc") == 97.5);
	cJSON_Delete(back);
	cJSON_Delete(done);
	cJSON_Delete(out);
}
END_TEST

START_TEST(settings_replaced)
{
	Err e;
	cJSON *out = report_stage_new(&e);
	const char *keys[] = {"experiment", "seed"}, *v1[] = {"adult", "1"}, *v2[] = {"adult", "7"};
	ck_assert_int_eq(report_stage_settings(out, keys, v1, 2, "train 3 rows", &e), 0);
	ck_assert_int_eq(report_stage_settings(out, keys, v2, 2, NULL, &e), 0);
	const cJSON *set = cJSON_GetObjectItemCaseSensitive(out, "settings");
	ck_assert_int_eq(cJSON_GetArraySize(set), 2);
	ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(set, "seed")), "7");
	/* no data given: the record of it stays */
	ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(out, "data")),
	                 "train 3 rows");
	ck_assert_int_eq(report_stage_settings(out, keys, v1, 2, "train 4 rows", &e), 0);
	ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(out, "data")),
	                 "train 4 rows");
	ck_assert_int_eq(cJSON_GetArraySize(out), 2); /* one of each */
	cJSON_Delete(out);
}
END_TEST

START_TEST(rows_and_records)
{
	Err e;
	cJSON *out = report_stage_new(&e);
	cJSON *rows = report_stage_rows(out, "rows", &e);
	ck_assert_ptr_eq(report_stage_rows(out, "rows", &e), rows); /* made once */
	int n[3] = {3, 4, 2}, rm[2] = {1, 0}, p[2] = {1, 0};
	double k[2] = {30, 2};
	Alg3Round r = {.m = 2,
	               .n = n,
	               .removed = 1,
	               .removed_per_layer = rm,
	               .kappa = k,
	               .p = p,
	               .acc_squeezed = 70,
	               .acc_retrained = 75,
	               .trained = {.epochs = 3, .val_acc = NAN}};
	ck_assert_int_eq(report_stage_rounds(rows, &r, 1, 25, &e), 0);
	ck_assert_int_eq(report_stage_rounds(rows, &r, 1, 20, &e), 0);
	ck_assert_int_eq(cJSON_GetArraySize(rows), 2);
	const cJSON *row = cJSON_GetArrayItem(rows, 1);
	ck_assert(num(row, "tau") == 20);
	ck_assert(num(row, "epochs") == 3);
	ck_assert_ptr_nonnull(cJSON_GetObjectItemCaseSensitive(row, "net"));
	/* a fully trained network: what it did, its accuracies and its κ */
	Net *net = net_fresh(2, n, ACT_ERF, 1.0f, 4, &e);
	cJSON *fit = report_stage_row(report_stage_rows(out, "betas", &e), &e);
	ck_assert_int_eq(report_stage_beta(fit, 1.2, &e), 0);
	TrainResult tr = {.epochs = 30, .best_epoch = 26, .val_acc = 0.5};
	LayerCond *lc;
	ck_assert_int_eq(cond_net_new(net, 25, 0, &lc, &e), 0);
	ck_assert_int_eq(report_stage_fit(fit, net, lc, &tr, 99, 98, &e), 0);
	ck_assert(num(fit, "beta") == 1.2);
	ck_assert(num(fit, "best_epoch") == 26 && num(fit, "val_acc") == 50);
	ck_assert(num(fit, "train_acc") == 99 && num(fit, "test_acc") == 98);
	const cJSON *netj = cJSON_GetObjectItemCaseSensitive(fit, "net");
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(netj, "kappa")), 2);
	/* an η row: the network's κ and η */
	cJSON *etas = report_stage_rows(out, "600", &e);
	cond_net_free(lc, net->m);
	ck_assert_int_eq(cond_net_new(net, 30, 0, &lc, &e), 0);
	ck_assert_int_eq(report_stage_eta_row(etas, net, lc, 0.5, &e), 0);
	cond_net_free(lc, net->m);
	ck_assert(num(cJSON_GetArrayItem(etas, 0), "eta") == 0.5);
	ck_assert_ptr_nonnull(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(etas, 0), "p"));
	/* a part of its own */
	cJSON *part = report_stage_part(out, "tapered", &e);
	ck_assert_ptr_eq(report_stage_part(out, "tapered", &e), part);
	ck_assert_int_eq(report_stage_seconds_note(out, "without 2 rows", &e), 0);
	ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(out, "seconds_note")->valuestring,
	                 "without 2 rows");
	net_free(net);
	cJSON_Delete(out);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report_stage");
	TCase *t = tcase_create("report_stage");
	tcase_add_test(t, written_with_its_mode);
	tcase_add_test(t, settings_replaced);
	tcase_add_test(t, rows_and_records);
	suite_add_tcase(s, t);
	return tu_run(s);
}
