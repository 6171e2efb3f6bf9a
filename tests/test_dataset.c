/* test_dataset.c - subsets, stratified splits, validation, the synthetic set
 * and standardization (the --data front end is in test_datasets.c). */
#include <math.h>
#include <stdlib.h>

#include "data/dataset.h"
#include "testutil.h"

/* n rows, 2 features: x = (i, -i); label pattern 0,1,2 repeated except every
 * row i % 5 == 4 gets class 0, so classes are unbalanced. */
static Dataset *make_set(int n, int k)
{
	Dataset *ds = dataset_new(n, 2, k, NULL);
	ck_assert_ptr_nonnull(ds);
	for (int i = 0; i < n; i++) {
		ds->x[2 * i] = (float)i;
		ds->x[2 * i + 1] = (float)-i;
		ds->y[i] = i % 5 == 4 ? 0 : i % k;
	}
	snprintf(ds->name, sizeof ds->name, "toy");
	return ds;
}

/* Every row of part appears in all with its features, in increasing order. */
static void check_ordered_part(const Dataset *part)
{
	for (int i = 0; i < part->n; i++) {
		ck_assert_float_eq(part->x[2 * i + 1], -part->x[2 * i]);
		if (i > 0)
			ck_assert_float_gt(part->x[2 * i], part->x[2 * (i - 1)]);
	}
}

START_TEST(test_new_clone_counts)
{
	Dataset *ds = make_set(20, 3);
	int c[3];
	dataset_class_counts(ds, c);
	/* Rows 4,9,14,19 → 0; the others by i mod 3. */
	ck_assert_int_eq(c[0], 10);
	ck_assert_int_eq(c[1], 5);
	ck_assert_int_eq(c[2], 5);
	Dataset *cl = dataset_clone(ds, NULL);
	ck_assert_int_eq(cl->n, 20);
	ck_assert_str_eq(cl->name, "toy");
	ck_assert_float_eq(cl->x[2 * 7], 7.0f);
	ck_assert_int_eq(cl->y[14], 0);
	dataset_free(cl);
	dataset_free(ds);
	dataset_free(NULL);
	ck_assert_ptr_null(dataset_new(-1, 2, 2, NULL));
	ck_assert_ptr_null(dataset_new(3, 0, 2, NULL));
}
END_TEST

START_TEST(test_subset_head)
{
	Dataset *ds = make_set(20, 3);
	int idx[3] = {5, 0, 19};
	Dataset *s = dataset_subset(ds, idx, 3, NULL);
	ck_assert_int_eq(s->n, 3);
	ck_assert_float_eq(s->x[0], 5.0f);
	ck_assert_float_eq(s->x[2], 0.0f);
	ck_assert_float_eq(s->x[5], -19.0f);
	ck_assert_int_eq(s->y[0], 2);
	ck_assert_int_eq(s->y[2], 0);
	dataset_free(s);
	int bad[1] = {20};
	ck_assert_ptr_null(dataset_subset(ds, bad, 1, NULL));

	Dataset *h = dataset_head(ds, 2, NULL);
	/* Class 0 first rows 0,3; class 1: 1,7; class 2: 2,5 → in order 0,1,2,3,5,7. */
	ck_assert_int_eq(h->n, 6);
	const float want[6] = {0, 1, 2, 3, 5, 7};
	for (int i = 0; i < 6; i++)
		ck_assert_float_eq(h->x[2 * i], want[i]);
	dataset_free(h);
	dataset_free(ds);
}
END_TEST

START_TEST(test_split_per_class)
{
	Dataset *ds = make_set(300, 3);
	int call[3], ct[3], cv[3];
	dataset_class_counts(ds, call);
	Dataset *tr, *va;
	Err e;
	ck_assert_int_eq(dataset_split(ds, 0, 10, 42, &tr, &va, &e), 0);
	dataset_class_counts(tr, ct);
	dataset_class_counts(va, cv);
	for (int c = 0; c < 3; c++) {
		ck_assert_int_eq(cv[c], 10);
		ck_assert_int_eq(ct[c], call[c] - 10);
	}
	ck_assert_int_eq(tr->n + va->n, 300);
	check_ordered_part(tr);
	check_ordered_part(va);
	ck_assert_ptr_nonnull(strstr(va->name, "toy"));

	/* Same seed, same split; another seed, another split. */
	Dataset *tr2, *va2, *tr3, *va3;
	ck_assert_int_eq(dataset_split(ds, 0, 10, 42, &tr2, &va2, &e), 0);
	ck_assert_int_eq(va2->n, va->n);
	ck_assert_mem_eq(va2->x, va->x, sizeof(float) * 2 * (size_t)va->n);
	ck_assert_int_eq(dataset_split(ds, 0, 10, 43, &tr3, &va3, &e), 0);
	ck_assert_int_eq(va3->n, va->n);
	ck_assert_int_ne(memcmp(va3->x, va->x, sizeof(float) * 2 * (size_t)va->n), 0);
	dataset_free(tr);
	dataset_free(va);
	dataset_free(tr2);
	dataset_free(va2);
	dataset_free(tr3);
	dataset_free(va3);
	dataset_free(ds);
}
END_TEST

START_TEST(test_split_fraction)
{
	Dataset *ds = make_set(300, 3);
	int call[3], cv[3];
	dataset_class_counts(ds, call);
	Dataset *tr, *va;
	Err e;
	ck_assert_int_eq(dataset_split(ds, 0.1, 0, 7, &tr, &va, &e), 0);
	dataset_class_counts(va, cv);
	for (int c = 0; c < 3; c++)
		ck_assert_int_eq(cv[c], (int)lround(0.1 * call[c]));
	ck_assert_int_eq(tr->n + va->n, 300);
	check_ordered_part(tr);
	check_ordered_part(va);
	/* No row in both parts: the sums of the first feature add up. */
	double st = 0, sv = 0;
	for (int i = 0; i < tr->n; i++)
		st += tr->x[2 * i];
	for (int i = 0; i < va->n; i++)
		sv += va->x[2 * i];
	ck_assert_double_eq(st + sv, 299.0 * 300 / 2);
	dataset_free(tr);
	dataset_free(va);
	dataset_free(ds);
}
END_TEST

START_TEST(test_split_errors)
{
	Dataset *ds = make_set(30, 3);
	Dataset *tr = (Dataset *)1, *va = (Dataset *)1;
	Err e;
	/* Class 1 has 8 rows: 8 validation rows leave none for training. */
	ck_assert_int_eq(dataset_split(ds, 0, 8, 1, &tr, &va, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "class 1 has 8 rows"));
	ck_assert_ptr_nonnull(strstr(e.msg, "at least 9"));
	ck_assert_ptr_null(tr);
	ck_assert_ptr_null(va);
	ck_assert_int_eq(dataset_split(ds, 1.5, 0, 1, &tr, &va, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "fraction"));
	dataset_free(ds);

	/* A class with a single row cannot lose a row to validation. */
	Dataset *one = make_set(6, 3);
	/* Labels 0,1,0,1,0,2. */
	one->y[2] = 0;
	one->y[3] = 1;
	ck_assert_int_eq(dataset_split(one, 0.5, 0, 1, &tr, &va, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "class 2 has 1 rows"));
	dataset_free(one);
}
END_TEST

START_TEST(test_validate)
{
	Dataset *ds = make_set(10, 3);
	Err e;
	ck_assert_int_eq(dataset_validate(ds, "toy", &e), 0);
	ds->x[2 * 6 + 1] = NAN;
	ck_assert_int_eq(dataset_validate(ds, "toy", &e), -1);
	ck_assert_str_eq(e.msg, "toy: row 6, feature 1 (counting from 0) is NaN");
	ds->x[2 * 6 + 1] = 0;
	ds->x[2 * 3] = -INFINITY;
	ck_assert_int_eq(dataset_validate(ds, "toy", &e), -1);
	ck_assert_str_eq(e.msg, "toy: row 3, feature 0 (counting from 0) is infinite");
	ds->x[2 * 3] = 0;
	ds->y[8] = 3;
	ck_assert_int_eq(dataset_validate(ds, "toy", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "row 8 (counting from 0) has label 3, expected 0..2"));
	dataset_free(ds);
}
END_TEST

START_TEST(test_synthetic)
{
	Dataset *a = dataset_synthetic(50, 3, 10, 5, NULL);
	Dataset *b = dataset_synthetic(50, 3, 10, 5, NULL);
	Dataset *c = dataset_synthetic(50, 3, 10, 6, NULL);
	ck_assert_int_eq(a->n, 150);
	ck_assert_int_eq(a->d, 10);
	ck_assert_int_eq(a->k, 3);
	ck_assert_mem_eq(a->x, b->x, sizeof(float) * 1500);
	ck_assert_mem_eq(a->y, b->y, sizeof(int) * 150);
	ck_assert_int_ne(memcmp(a->x, c->x, sizeof(float) * 1500), 0);
	int counts[3];
	dataset_class_counts(a, counts);
	for (int k = 0; k < 3; k++)
		ck_assert_int_eq(counts[k], 50);
	/* Interleaved: row i is class i mod 3. */
	for (int i = 0; i < 9; i++)
		ck_assert_int_eq(a->y[i], i % 3);
	Err e;
	ck_assert_int_eq(dataset_validate(a, "synthetic", &e), 0);
	ck_assert_ptr_nonnull(strstr(a->name, "synthetic"));
	/* The class means differ: arms are at different angles. */
	double m[3][10] = {{0}};
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < 10; j++)
			m[a->y[i]][j] += a->x[10 * i + j] / 50.0;
	double dist = 0;
	for (int j = 0; j < 10; j++)
		dist += (m[0][j] - m[1][j]) * (m[0][j] - m[1][j]);
	ck_assert_double_gt(dist, 0.01);
	ck_assert_ptr_null(dataset_synthetic(10, 3, 1, 5, &e));
	dataset_free(a);
	dataset_free(b);
	dataset_free(c);
}
END_TEST

START_TEST(test_standardize)
{
	/* Feature 0: 1, 2, 3, 6 (mean 3, sd √3.5); feature 1 constant 5. */
	Dataset *tr = dataset_new(4, 2, 2, NULL), *te = dataset_new(1, 2, 2, NULL);
	const float x[] = {1, 5, 2, 5, 3, 5, 6, 5};
	memcpy(tr->x, x, sizeof x);
	te->x[0] = 10;
	te->x[1] = 7;
	dataset_standardize(tr, te, 1);
	double sd = sqrt(3.5);
	ck_assert_double_eq_tol(tr->x[0], -2 / sd, 1e-6);
	ck_assert_double_eq_tol(tr->x[6], 3 / sd, 1e-6);
	ck_assert_double_eq_tol(tr->x[1], 0, 1e-6);      /* constant: centred only */
	ck_assert_double_eq_tol(te->x[0], 7 / sd, 1e-6); /* train's mean and sd */
	ck_assert_double_eq_tol(te->x[1], 2, 1e-6);
	memcpy(tr->x, x, sizeof x);
	te->x[0] = 10;
	dataset_standardize(tr, te, 0);
	ck_assert_double_eq_tol(tr->x[0], -2, 1e-6);
	ck_assert_double_eq_tol(te->x[0], 7, 1e-6);
	dataset_free(tr);
	dataset_free(te);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("dataset");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_new_clone_counts);
	tcase_add_test(tc, test_subset_head);
	tcase_add_test(tc, test_split_per_class);
	tcase_add_test(tc, test_split_fraction);
	tcase_add_test(tc, test_split_errors);
	tcase_add_test(tc, test_validate);
	tcase_add_test(tc, test_synthetic);
	tcase_add_test(tc, test_standardize);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
