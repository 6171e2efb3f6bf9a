/* test_report.c - the paper's table layouts (text, Markdown, CSV) from
 * hand-made results, numbers with thousands separators, and the files
 * records are written to. */
#include "report/report.h"
#include "report/report_int.h"
#include "report/report_rec.h"
#include "report_test.h"

START_TEST(cond_table)
{
	LayerCond lc[3];
	Net *net = cond_net_2652(lc);
	assert_text(TU_WRITTEN(report_cond(f, net, lc, REPORT_TEXT, NULL)),
	            "Layer    n_i    κ(Ŵ)  p (τ=25)  rank (SVD)  rank (QR)\n"
	            "1      2,652  12,346         2           3          4\n"
	            "2          3     inf         1           2          -\n"
	            "3          2     1.5         0           2          2\n");
	assert_text(TU_WRITTEN(report_cond(f, net, lc, REPORT_MARKDOWN, NULL)),
	            "| Layer |   n_i |   κ(Ŵ) | p (τ=25) | rank (SVD) | rank (QR) |\n"
	            "| ----- | ----: | -----: | -------: | ---------: | --------: |\n"
	            "| 1     | 2,652 | 12,346 |        2 |          3 |         4 |\n"
	            "| 2     |     3 |    inf |        1 |          2 |         - |\n"
	            "| 3     |     2 |    1.5 |        0 |          2 |         2 |\n");
	assert_text(TU_WRITTEN(report_cond(f, net, lc, REPORT_CSV, NULL)),
	            "layer,n,kappa,p,rank_svd,rank_qr\n"
	            "1,2652,12345.678,2,3,4\n"
	            "2,3,inf,1,2,-\n"
	            "3,2,1.5,0,2,2\n");
	/* κ just under τ keeps the digits that say so: 9.68 at τ 10, never "10" */
	for (int i = 0; i < 3; i++)
		lc[i].tau = 10;
	lc[2].kappa = 9.68;
	lc[0].kappa = 10000.4;
	char *md = TU_WRITTEN(report_cond(f, net, lc, REPORT_MARKDOWN, NULL));
	ck_assert_msg(strstr(md, "|   9.68 |"), "%s", md);
	ck_assert_msg(strstr(md, "| 10,000 |"), "%s", md);
	free(md);
	net_free(net);
}
END_TEST

START_TEST(alg1_tables)
{
	Alg1 a;
	Alg1Record rec[3];
	hand_alg1(&a, rec);
	/* Table 1: the first and the last record */
	assert_text(TU_WRITTEN(report_alg1_summary(f, &a, REPORT_TEXT, NULL)),
	            "Layer  initial n_i  initial κ(Ŵ)  final n_i  final κ(Ŵ)\n"
	            "1               50            12         45           9\n"
	            "2               40         2,652         21          21\n"
	            "3                3             3          3           2\n");
	assert_text(TU_WRITTEN(report_alg1_summary(f, &a, REPORT_CSV, NULL)),
	            "layer,n_initial,kappa_initial,n_final,kappa_final\n"
	            "1,50,12.4,45,9.25\n"
	            "2,40,2652.4,21,20.6\n"
	            "3,3,3,3,2\n");
	/* Table 16: one column per iteration */
	assert_text(TU_WRITTEN(report_alg1_history(f, &a, REPORT_TEXT, NULL)),
	            "Layer / iteration       0    1     2\n"
	            "1                      50   45    45\n"
	            "2                      40   30    21\n"
	            "3                       3    3     3\n"
	            "max(κ_i)           2652.4  inf  20.6\n"
	            "Σ(n_i)                 93   78    69\n");
	assert_text(TU_WRITTEN(report_alg1_history(f, &a, REPORT_MARKDOWN, NULL)),
	            "| Layer / iteration |      0 |   1 |    2 |\n"
	            "| ----------------- | -----: | --: | ---: |\n"
	            "| 1                 |     50 |  45 |   45 |\n"
	            "| 2                 |     40 |  30 |   21 |\n"
	            "| 3                 |      3 |   3 |    3 |\n"
	            "| max(κ_i)          | 2652.4 | inf | 20.6 |\n"
	            "| Σ(n_i)            |     93 |  78 |   69 |\n");
	assert_text(TU_WRITTEN(report_alg1_history(f, &a, REPORT_CSV, NULL)),
	            "row,0,1,2\n"
	            "1,50,45,45\n"
	            "2,40,30,21\n"
	            "3,3,3,3\n"
	            "max_kappa,2652.4,inf,20.6\n"
	            "sum_n,93,78,69\n");
	/* no records, no table */
	a.nrec = 0;
	assert_text(TU_WRITTEN(report_alg1_summary(f, &a, REPORT_TEXT, NULL)), "");
	assert_text(TU_WRITTEN(report_alg1_history(f, &a, REPORT_TEXT, NULL)), "");
	/* ... but a CSV (a run stopped before its first iteration) keeps its row names */
	int w[4] = {4, 50, 40, 3};
	Net shape = {.m = 3, .n = w};
	a.net = &shape;
	assert_text(TU_WRITTEN(report_alg1_history(f, &a, REPORT_CSV, NULL)),
	            "row\n1\n2\n3\nmax_kappa\nsum_n\n");
	assert_text(TU_WRITTEN(report_alg1_history(f, &a, REPORT_TEXT, NULL)), "");
}
END_TEST

START_TEST(alg2_table)
{
	Net *base = net_new(2, hand_w10, ACT_ERF, 1.0f, NULL);
	Alg2 a;
	Alg2Beta b[4];
	hand_alg2(&a, b, base);
	ck_assert_int_eq(alg2_pick(&a), 1);
	assert_text(TU_WRITTEN(report_alg2(f, &a, REPORT_TEXT, NULL)),
	            "β    ε_tr (%)  ε_v (%)  2ε_v − ε_tr (%)  trials\n"
	            "0.6     10.00    15.00            20.00     3/3\n"
	            "1.0      5.00    10.00            15.00     3/3  pick\n"
	            "1.8      1.00     5.00             9.00     1/3\n");
	assert_text(TU_WRITTEN(report_alg2(f, &a, REPORT_MARKDOWN, NULL)),
	            "| β   | ε_tr (%) | ε_v (%) | 2ε_v − ε_tr (%) | trials |      |\n"
	            "| --- | -------: | ------: | --------------: | -----: | ---: |\n"
	            "| 0.6 |    10.00 |   15.00 |           20.00 |    3/3 |      |\n"
	            "| 1.0 |     5.00 |   10.00 |       **15.00** |    3/3 | pick |\n"
	            "| 1.8 |     1.00 |    5.00 |            9.00 |    1/3 |      |\n");
	assert_text(TU_WRITTEN(report_alg2(f, &a, REPORT_CSV, NULL)),
	            "beta,err_tr,err_v,score,trials,pick\n"
	            "0.6,10,15,20,3,0\n"
	            "1,5,10,15,3,1\n"
	            "1.8,1,5,9,1,0\n");
	net_free(base);
}
END_TEST

/* ---- Algorithm 3 ---- */

START_TEST(squeeze_tables)
{
	/* CSV's one quoting rule: a cell with a comma, a double quote or a line
	 * break goes between double quotes, each double quote doubled */
	assert_text(TU_WRITTEN(csv_cell(f, "plain")), "plain");
	assert_text(TU_WRITTEN(csv_cell(f, "a,b")), "\"a,b\"");
	assert_text(TU_WRITTEN(csv_cell(f, "say \"hi\"")), "\"say \"\"hi\"\"\"");
	assert_text(TU_WRITTEN(csv_cell(f, "two\nlines")), "\"two\nlines\"");
	assert_text(TU_WRITTEN(csv_cell(f, "cr\r")), "\"cr\r\"");

	int a[4] = {4, 50, 40, 3}, b[4] = {4, 45, 30, 3}, c[4] = {4, 45, 28, 3};
	Alg3Round r[3] = {{.m = 3, .n = a, .removed = 0, .acc_retrained = 90.5},
	                  {.m = 3, .n = b, .removed = 15, .acc_retrained = 91.25},
	                  {.m = 3, .n = c, .removed = 2, .acc_retrained = NAN}};
	assert_text(TU_WRITTEN(report_squeeze_rounds(f, r, 3, 3, REPORT_TEXT, NULL)),
	            "Layer / round      0      1   2\n"
	            "1                 50     45  45\n"
	            "2                 40     30  28\n"
	            "removed            0     15   2\n"
	            "Accuracy (%)   90.50  91.25   -\n");
	assert_text(TU_WRITTEN(report_squeeze_rounds(f, r, 3, 3, REPORT_MARKDOWN, NULL)),
	            "| Layer / round |     0 |     1 |   2 |\n"
	            "| ------------- | ----: | ----: | --: |\n"
	            "| 1             |    50 |    45 |  45 |\n"
	            "| 2             |    40 |    30 |  28 |\n"
	            "| removed       |     0 |    15 |   2 |\n"
	            "| Accuracy (%)  | 90.50 | 91.25 |   - |\n");
	assert_text(TU_WRITTEN(report_squeeze_rounds(f, r, 3, 3, REPORT_CSV, NULL)),
	            "row,0,1,2\n"
	            "1,50,45,45\n"
	            "2,40,30,28\n"
	            "removed,0,15,2\n"
	            "accuracy,90.5,91.25,\n");
	assert_text(TU_WRITTEN(report_squeeze_rounds(f, r, 0, 3, REPORT_TEXT, NULL)), "");
}
END_TEST

START_TEST(thousands)
{
	char b[32];
	ck_assert_str_eq(report_thousands(2652, b, sizeof b), "2,652");
	ck_assert_str_eq(report_thousands(1234567.4, b, sizeof b), "1,234,567");
	ck_assert_str_eq(report_thousands(999, b, sizeof b), "999");
	ck_assert_str_eq(report_thousands(999.7, b, sizeof b), "1,000");
	ck_assert_str_eq(report_thousands(100000, b, sizeof b), "100,000");
	ck_assert_str_eq(report_thousands(0, b, sizeof b), "0");
	ck_assert_str_eq(report_thousands(-2652, b, sizeof b), "-2,652");
	ck_assert_str_eq(report_thousands(-1234567, b, sizeof b), "-1,234,567");
	ck_assert_str_eq(report_thousands(-12, b, sizeof b), "-12");
	ck_assert_str_eq(report_thousands(-0.3, b, sizeof b), "0");
	ck_assert_str_eq(report_thousands(INFINITY, b, sizeof b), "inf");
	ck_assert_str_eq(report_thousands(-INFINITY, b, sizeof b), "-inf");
	ck_assert_str_eq(report_thousands(NAN, b, sizeof b), "-");
	ck_assert_str_eq(report_thousands(1e20, b, sizeof b), "100,000,000,000,000,000,000");
	/* a short buffer holds what fits */
	ck_assert_ptr_eq(report_thousands(2652, b, 4), b);
	ck_assert_str_eq(b, "2,6");
}
END_TEST

/* ---- files ---- */

static int render_cond_csv(FILE *f, const void *ud, Err *e)
{
	const LayerCond *lc = ud;
	Net *net = net_new(3, (int[]){4, 2652, 3, 2}, ACT_ERF, 1.0f, NULL);
	int rc = report_cond(f, net, lc, REPORT_CSV, e);
	net_free(net);
	return rc;
}

START_TEST(files)
{
	const char *dir = tu_tmpdir();
	char path[600];
	Err e;
	LayerCond lc[3];
	Net *net = cond_net_2652(lc);

	/* JSON: cJSON's indented text and a final newline */
	cJSON *j = report_cond_json(net, lc, &e);
	snprintf(path, sizeof path, "%s/cond.json", dir);
	ck_assert_msg(report_write_json(path, j, &e) == 0, "%s", e.msg);
	char *want = cJSON_Print(j);
	size_t len;
	char *got = (char *)tu_read(path, &len);
	ck_assert_uint_eq(len, strlen(want) + 1);
	ck_assert_int_eq(memcmp(got, want, len - 1), 0);
	ck_assert_int_eq(got[len - 1], '\n');
	ck_assert_int_ne(got[len - 2], '\n');
	free(got);
	cJSON_free(want);
	cJSON_Delete(j);

	/* text: exactly what the function rendered */
	snprintf(path, sizeof path, "%s/cond.csv", dir);
	ck_assert_msg(report_write_file(path, render_cond_csv, lc, &e) == 0, "%s", e.msg);
	want = TU_WRITTEN(render_cond_csv(f, lc, NULL));
	got = (char *)tu_read(path, &len);
	ck_assert_uint_eq(len, strlen(want));
	ck_assert_int_eq(memcmp(got, want, len), 0);
	free(got);
	free(want);

	/* a directory that is not there */
	snprintf(path, sizeof path, "%s/none/cond.csv", dir);
	ck_assert_int_eq(report_write_file(path, render_cond_csv, lc, &e), -1);
	ck_assert_msg(strstr(e.msg, path) != NULL, "message '%s' does not name %s", e.msg, path);
	ck_assert_int_eq(report_write_json(path, NULL, &e), -1);
	ck_assert_msg(strstr(e.msg, path) != NULL, "message '%s' does not name %s", e.msg, path);
	net_free(net);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report");
	TCase *t = tcase_create("report");
	tcase_add_test(t, cond_table);
	tcase_add_test(t, alg1_tables);
	tcase_add_test(t, alg2_table);
	tcase_add_test(t, squeeze_tables);
	tcase_add_test(t, thousands);
	tcase_add_test(t, files);
	suite_add_tcase(s, t);
	return tu_run(s);
}
