/* test_report.c - the paper's table layouts (text, Markdown, CSV) from
 * hand-made results, numbers with thousands separators, the JSON records
 * read back with cJSON, and the files they are written to. */
#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>

#include "engine/cond.h"
#include "report/report.h"
#include "report/report_int.h"
#include "report/report_rec.h"
#include "testutil.h"

static void assert_text(char *got, const char *want)
{
	ck_assert_msg(!strcmp(got, want), "got:\n%s\nwanted:\n%s", got, want);
	free(got);
}

/* ---- per-layer conditioning ---- */

/* A network 4-2652-3-2 and a hand-made table of its layers: κ of layer 2
 * infinite, layer 2 computed without the pivoted QR. */
static Net *cond_net_2652(LayerCond *lc)
{
	Net *net = net_new(3, (int[]){4, 2652, 3, 2}, ACT_ERF, 1.0f, NULL);
	ck_assert_ptr_nonnull(net);
	static double sv0[5] = {9, 8, 7, 6, 9.0 / 12345.678};
	static double sv1[3] = {4, 2, 0};
	static double sv2[2] = {3, 2};
	static double rd0[5] = {1, 0.5, 0.25, 0.125, 0.01};
	static double rd2[2] = {1, 0.75};
	memset(lc, 0, 3 * sizeof *lc);
	lc[0] = (LayerCond){.layer = 1,
	                    .rows = 5,
	                    .cols = 2652,
	                    .nsv = 5,
	                    .sv = sv0,
	                    .kappa = 12345.678,
	                    .tau = 25,
	                    .p = 2,
	                    .rank_svd = 3,
	                    .rdiag = rd0,
	                    .rank_qr = 4};
	lc[1] = (LayerCond){.layer = 2,
	                    .rows = 2653,
	                    .cols = 3,
	                    .nsv = 3,
	                    .sv = sv1,
	                    .kappa = INFINITY,
	                    .tau = 25,
	                    .p = 1,
	                    .rank_svd = 2,
	                    .rank_qr = -1};
	lc[2] = (LayerCond){.layer = 3,
	                    .rows = 4,
	                    .cols = 2,
	                    .nsv = 2,
	                    .sv = sv2,
	                    .kappa = 1.5,
	                    .tau = 25,
	                    .p = 0,
	                    .rank_svd = 2,
	                    .rdiag = rd2,
	                    .rank_qr = 2};
	return net;
}

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

/* ---- Algorithm 1 ---- */

static int n0[4] = {4, 50, 40, 3}, n1[4] = {4, 45, 30, 3}, n2[4] = {4, 45, 21, 3};
static double k0[3] = {12.4, 2652.4, 3}, k1[3] = {10, INFINITY, 2}, k2[3] = {9.25, 20.6, 2};
static int p0[3] = {0, 5, 0}, p1[3] = {0, 9, 0}, p2[3] = {0, 0, 0};

/* Three iterations of a 4-50-40-3 network; the last ran at another τ and η. */
static void hand_alg1(Alg1 *a, Alg1Record *rec)
{
	memset(a, 0, sizeof *a);
	alg1_opts_default(&a->o);
	a->o.tau = 25;
	a->o.eta = 1;
	a->o.round = 0;
	a->o.max_iter = 7;
	a->o.warm = 1;
	a->o.seed = 42;
	rec[0] = (Alg1Record){.iter = 0,
	                      .m = 3,
	                      .n = n0,
	                      .kappa = k0,
	                      .p = p0,
	                      .max_kappa = 2652.4,
	                      .sum_n = 93,
	                      .train_error = 0.125,
	                      .eval_error = NAN,
	                      .seconds = 1.5,
	                      .tau = 25,
	                      .eta = 1};
	rec[1] = (Alg1Record){.iter = 1,
	                      .m = 3,
	                      .n = n1,
	                      .kappa = k1,
	                      .p = p1,
	                      .max_kappa = INFINITY,
	                      .sum_n = 78,
	                      .train_error = 0.25,
	                      .eval_error = NAN,
	                      .seconds = 2.5,
	                      .tau = 25,
	                      .eta = 1};
	rec[2] = (Alg1Record){.iter = 2,
	                      .m = 3,
	                      .n = n2,
	                      .kappa = k2,
	                      .p = p2,
	                      .max_kappa = 20.6,
	                      .sum_n = 69,
	                      .train_error = 0.0625,
	                      .eval_error = NAN,
	                      .seconds = 0.75,
	                      .tau = 30,
	                      .eta = 0.5};
	a->rec = rec;
	a->nrec = 3;
	a->status = ALG1_DONE;
	snprintf(a->reason, sizeof a->reason, "every κ ≤ τ");
}

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

/* ---- Algorithm 2 ---- */

static int w06[3] = {4, 6, 3}, w10[3] = {4, 10, 3}, w14[3] = {4, 14, 3}, w18[3] = {4, 18, 3};

/* β = 1.0 has the least score of the β with all q = 3 trials; β = 1.4 no
 * trial yet; β = 1.8 a lower score after a single trial. */
static void hand_alg2(Alg2 *a, Alg2Beta *b, Net *base)
{
	memset(a, 0, sizeof *a);
	alg2_opts_default(&a->o);
	a->o.q = 3;
	a->o.eta = 0.5;
	a->o.seed = 9;
	a->base = base;
	b[0] = (Alg2Beta){0.6, w06, 3, 0.1, 0.15, 0.2};
	b[1] = (Alg2Beta){1.0, w10, 3, 0.05, 0.1, 0.15};
	b[2] = (Alg2Beta){1.4, w14, 0, 0, 0, 0};
	b[3] = (Alg2Beta){1.8, w18, 1, 0.01, 0.05, 0.09};
	a->b = b;
	a->nb = 4;
}

START_TEST(alg2_table)
{
	Net *base = net_new(2, w10, ACT_ERF, 1.0f, NULL);
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

/* ---- JSON records ---- */

/* a == b but for the last bit: cJSON prints 15 significant digits when they
 * read back within an ulp. */
static int near(double a, double b)
{
	return fabs(a - b) <= 2 * DBL_EPSILON * fmax(fabs(a), fabs(b));
}

/* root printed by cJSON and parsed back. */
static cJSON *reparse(cJSON *root)
{
	ck_assert_ptr_nonnull(root);
	char *s = cJSON_Print(root);
	ck_assert_ptr_nonnull(s);
	cJSON *back = cJSON_Parse(s);
	ck_assert_ptr_nonnull(back);
	cJSON_free(s);
	cJSON_Delete(root);
	return back;
}

static const cJSON *item(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	ck_assert_msg(v != NULL, "no \"%s\"", key);
	return v;
}

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = item(o, key);
	ck_assert_msg(cJSON_IsNumber(v), "\"%s\" is not a number", key);
	return v->valuedouble;
}

/* An array of n numbers equal to want (∞ and NaN as null). */
static void assert_nums(const cJSON *a, const double *want, int n)
{
	ck_assert(cJSON_IsArray(a));
	ck_assert_int_eq(cJSON_GetArraySize(a), n);
	for (int i = 0; i < n; i++) {
		const cJSON *v = cJSON_GetArrayItem(a, i);
		if (isfinite(want[i])) {
			ck_assert_msg(cJSON_IsNumber(v), "entry %d is not a number", i);
			ck_assert_msg(near(v->valuedouble, want[i]), "entry %d: %.17g, not %.17g",
			              i, v->valuedouble, want[i]);
		} else
			ck_assert_msg(cJSON_IsNull(v), "entry %d: %g is not null", i, want[i]);
	}
}

static void assert_ints(const cJSON *a, const int *want, int n)
{
	ck_assert(cJSON_IsArray(a));
	ck_assert_int_eq(cJSON_GetArraySize(a), n);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(cJSON_GetArrayItem(a, i)->valueint, want[i]);
}

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
	assert_ints(item(j, "final_n"), n2, 4);
	assert_nums(item(j, "final_kappa"), k2, 3);
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
	Net *base = net_new(2, w10, ACT_ERF, 1.0f, NULL);
	Alg2 a;
	Alg2Beta b[4];
	hand_alg2(&a, b, base);
	cJSON *j = reparse(report_alg2_json(&a, &e));
	ck_assert_int_eq((int)num(j, "q"), 3);
	ck_assert(num(j, "eta") == 0.5);
	ck_assert(num(j, "seed") == 9);
	ck_assert(num(j, "pick") == 1.0);
	assert_ints(item(j, "pick_n"), w10, 3);
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
	tcase_add_test(t, cond_json);
	tcase_add_test(t, alg1_json);
	tcase_add_test(t, alg2_json);
	tcase_add_test(t, squeeze_round_json);
	tcase_add_test(t, files);
	suite_add_tcase(s, t);
	return tu_run(s);
}
