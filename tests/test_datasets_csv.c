/* test_datasets_csv.c - CSV data sets through --data: a file missing, a
 * test part held out of one file or read from a second, --limit, and the
 * scaling of features (standardized, centred). */
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "datasets_test.h"

START_TEST(test_datasets_csv_and_missing)
{
	char csv[2048] = "a,b,label\n";
	for (int i = 0; i < 50; i++) {
		char row[64];
		snprintf(row, sizeof row, "%d,%d,%d\n", i, 2 * i, i % 2);
		strcat(csv, row);
	}
	char path[1100];
	snprintf(path, sizeof path, "csv:%s", tu_write(dir, "t.csv", csv, strlen(csv)));
	DataSpec s;
	dataspec_default(&s);
	s.spec = path;
	s.dir = dir;
	ck_assert_int_eq(datasets_available(path, dir), 1);
	Dataset *tr, *te;
	Err e;
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), 0);
	ck_assert_int_eq(tr->n, 40);
	ck_assert_int_eq(te->n, 10);
	ck_assert_int_eq(te->d, 2);
	int c[2];
	dataset_class_counts(te, c);
	ck_assert_int_eq(c[0], 5);
	ck_assert_int_eq(c[1], 5);
	dataset_free(tr);
	dataset_free(te);

	s.spec = "mnist";
	ck_assert_int_eq(datasets_available("mnist", dir), 0);
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), -1);
	char want[1200];
	snprintf(want, sizeof want, "mnist is not in %s/mnist: run 'data/fetch mnist' first", dir);
	ck_assert_str_eq(e.msg, want);
	s.spec = "adult";
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "run 'data/fetch adult' first"));
	s.spec = "cifar";
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "unknown data set 'cifar'"));
}
END_TEST

/* "csv:TRAIN" holds out round(20 %) of every class, the rows divided between
 * the two sets with none lost or repeated; the seed picks which. */
START_TEST(test_datasets_csv_holdout)
{
	const int counts[3] = {50, 30, 12}, held[3] = {10, 6, 2};
	char spec[1100];
	snprintf(spec, sizeof spec, "csv:%s", write_csv("holdout.csv", counts, 3, 0));
	DataSpec s;
	dataspec_default(&s);
	s.spec = spec;
	s.dir = dir;
	Dataset *tr, *te, *tr2, *te2;
	Err e;
	ck_assert_msg(datasets_load(&s, &tr, &te, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(tr->k, 3);
	ck_assert_int_eq(te->k, 3);
	for (int c = 0; c < 3; c++) {
		ck_assert_int_eq(count_class(te, c), held[c]);
		ck_assert_int_eq(count_class(tr, c), counts[c] - held[c]);
	}
	int marks[92] = {0};
	check_rows(tr, 0, 92, marks);
	check_rows(te, 0, 92, marks);
	for (int i = 0; i < 92; i++)
		ck_assert_int_eq(marks[i], 1);
	ck_assert_ptr_nonnull(strstr(te->name, "20% held out"));
	/* The same seed holds out the same rows; another seed other rows. */
	ck_assert_int_eq(datasets_load(&s, &tr2, &te2, &e), 0);
	ck_assert_int_eq(te2->n, te->n);
	ck_assert_mem_eq(te2->x, te->x, sizeof(float) * 3 * (size_t)te->n);
	dataset_free(tr2);
	dataset_free(te2);
	s.seed = 2;
	ck_assert_int_eq(datasets_load(&s, &tr2, &te2, &e), 0);
	ck_assert_int_eq(te2->n, te->n);
	ck_assert_int_ne(memcmp(te2->x, te->x, sizeof(float) * 3 * (size_t)te->n), 0);
	dataset_free(tr2);
	dataset_free(te2);
	dataset_free(tr);
	dataset_free(te);
}
END_TEST

/* "csv:TRAIN,TEST" reads both files whole; both count the classes either one
 * holds; the files must agree on the features. */
START_TEST(test_datasets_csv_two_files)
{
	char spec[2200], trainp[1024], testp[1024];
	snprintf(trainp, sizeof trainp, "%s", write_csv("tr.csv", (int[]){7, 5}, 2, 0));
	snprintf(testp, sizeof testp, "%s", write_csv("te.csv", (int[]){2, 3, 4}, 3, 100));
	snprintf(spec, sizeof spec, "csv:%s,%s", trainp, testp);
	DataSpec s;
	dataspec_default(&s);
	s.spec = spec;
	s.dir = dir;
	Dataset *tr, *te;
	Err e;
	ck_assert_msg(datasets_load(&s, &tr, &te, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(tr->n, 12);
	ck_assert_int_eq(te->n, 9);
	ck_assert_int_eq(tr->k, 3);
	ck_assert_int_eq(te->k, 3);
	int trmarks[12] = {0}, temarks[9] = {0};
	check_rows(tr, 0, 12, trmarks);
	check_rows(te, 100, 109, temarks);
	for (int i = 0; i < 12; i++)
		ck_assert_int_eq(trmarks[i], 1);
	for (int i = 0; i < 9; i++)
		ck_assert_int_eq(temarks[i], 1);
	ck_assert_int_eq(count_class(te, 2), 4);
	dataset_free(tr);
	dataset_free(te);

	/* Two features against three. */
	const char *two = "a,b,label\n1,2,0\n3,4,1\n";
	char twop[1024];
	snprintf(twop, sizeof twop, "%s", tu_write(dir, "two.csv", two, strlen(two)));
	snprintf(spec, sizeof spec, "csv:%s,%s", trainp, twop);
	tr = te = (Dataset *)1;
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), -1);
	ck_assert_ptr_null(tr);
	ck_assert_ptr_null(te);
	ck_assert_ptr_nonnull(strstr(e.msg, twop));
	ck_assert_ptr_nonnull(strstr(e.msg, trainp));
	/* A missing test file is named. */
	snprintf(spec, sizeof spec, "csv:%s,%s/none.csv", trainp, dir);
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "none.csv"));
	ck_assert_ptr_null(tr);
	s.spec = "csv:";
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "csv:TRAIN[,TEST]"));
}
END_TEST

/* --limit N keeps min(N, rows) of every class, in both sets. */
START_TEST(test_datasets_limit)
{
	char spec[2200], trainp[1024];
	snprintf(trainp, sizeof trainp, "%s", write_csv("lim.csv", (int[]){30, 8, 20}, 3, 0));
	snprintf(spec, sizeof spec, "csv:%s,%s", trainp,
	         write_csv("limt.csv", (int[]){3, 12, 15}, 3, 200));
	DataSpec s;
	dataspec_default(&s);
	s.spec = spec;
	s.limit = 10;
	Dataset *tr, *te;
	Err e;
	ck_assert_msg(datasets_load(&s, &tr, &te, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(count_class(tr, 0), 10);
	ck_assert_int_eq(count_class(tr, 1), 8);
	ck_assert_int_eq(count_class(tr, 2), 10);
	ck_assert_int_eq(count_class(te, 0), 3);
	ck_assert_int_eq(count_class(te, 1), 10);
	ck_assert_int_eq(count_class(te, 2), 10);
	int marks[230] = {0};
	check_rows(tr, 0, 230, marks);
	check_rows(te, 0, 230, marks);
	for (int i = 0; i < 230; i++)
		ck_assert_int_le(marks[i], 1);
	dataset_free(tr);
	dataset_free(te);

	s.spec = "synthetic";
	for (int lim = 1; lim <= 1000; lim *= 10) {
		s.limit = lim;
		ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), 0);
		for (int c = 0; c < 3; c++) {
			ck_assert_int_eq(count_class(tr, c), lim < 400 ? lim : 400);
			ck_assert_int_eq(count_class(te, c), lim < 200 ? lim : 200);
		}
		dataset_free(tr);
		dataset_free(te);
	}
}
END_TEST

START_TEST(test_datasets_standardize)
{
	Dataset *tr, *te;
	DataSpec s;
	dataspec_default(&s);
	s.scale = DATA_STANDARDIZE;
	Err e;
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), 0);
	for (int j = 0; j < tr->d; j++) {
		double m = 0, v = 0;
		for (int i = 0; i < tr->n; i++)
			m += tr->x[i * tr->d + j];
		m /= tr->n;
		for (int i = 0; i < tr->n; i++)
			v += (tr->x[i * tr->d + j] - m) * (tr->x[i * tr->d + j] - m);
		ck_assert_double_eq_tol(m, 0, 1e-5);
		ck_assert_double_eq_tol(v / tr->n, 1, 1e-4);
	}
	ck_assert_ptr_nonnull(strstr(tr->name, "standardized"));
	dataset_free(tr);
	dataset_free(te);
}
END_TEST

/* DATA_CENTER subtracts the training set's means (each training feature then
 * has mean 0, its spread unchanged); DATA_STANDARDIZE also divides by the
 * training set's standard deviation. The test set is moved by the training
 * set's statistics. */
START_TEST(test_datasets_center_and_standardize)
{
	DataSpec s;
	dataspec_default(&s);
	s.seed = 3;
	Dataset *tr, *te, *ctr, *cte, *str, *ste;
	Err e;
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), 0);
	s.scale = DATA_CENTER;
	ck_assert_int_eq(datasets_load(&s, &ctr, &cte, &e), 0);
	s.scale = DATA_STANDARDIZE;
	ck_assert_int_eq(datasets_load(&s, &str, &ste, &e), 0);
	ck_assert_ptr_nonnull(strstr(ctr->name, "centred"));
	ck_assert_ptr_nonnull(strstr(cte->name, "centred"));
	ck_assert_ptr_nonnull(strstr(ste->name, "standardized"));
	for (int j = 0; j < tr->d; j++) {
		double m, sd, cm, csd, sm, ssd;
		feature_stats(tr, j, &m, &sd);
		feature_stats(ctr, j, &cm, &csd);
		feature_stats(str, j, &sm, &ssd);
		ck_assert_double_gt(fabs(m), 1e-3); /* the raw features are not centred */
		ck_assert_double_eq_tol(cm, 0, 1e-5);
		ck_assert_double_eq_tol(csd, sd, 1e-5 * sd);
		ck_assert_double_eq_tol(sm, 0, 1e-5);
		ck_assert_double_eq_tol(ssd, 1, 1e-5);
		for (int i = 0; i < te->n; i++) {
			double raw = te->x[(size_t)i * te->d + j];
			ck_assert_double_eq_tol(cte->x[(size_t)i * te->d + j], raw - m, 1e-5);
			ck_assert_double_eq_tol(ste->x[(size_t)i * te->d + j], (raw - m) / sd,
			                        1e-5);
		}
	}
	dataset_free(tr);
	dataset_free(te);
	dataset_free(ctr);
	dataset_free(cte);
	dataset_free(str);
	dataset_free(ste);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("datasets_csv");
	TCase *tc = tcase_create("csv");
	tcase_add_test(tc, test_datasets_csv_and_missing);
	tcase_add_test(tc, test_datasets_csv_holdout);
	tcase_add_test(tc, test_datasets_csv_two_files);
	tcase_add_test(tc, test_datasets_limit);
	tcase_add_test(tc, test_datasets_standardize);
	tcase_add_test(tc, test_datasets_center_and_standardize);
	tcase_add_unchecked_fixture(tc, dir_make, dir_remove);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
