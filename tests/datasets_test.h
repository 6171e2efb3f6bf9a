/* datasets_test.h - what the tests of --data share (test_datasets.c,
 * test_datasets_csv.c): one scratch directory for a whole run, CSV files of
 * classes chosen, and the rows, classes and features of a set. */
#ifndef CONDNET_DATASETS_TEST_H
#define CONDNET_DATASETS_TEST_H

#include <math.h>

#include "data/dataset.h"
#include "data/datasets.h"
#include "data/mnist.h"
#include "testutil.h"

/* One scratch directory for the whole run, removed when the tests end. */
__attribute__((unused)) static char dir[512];

static inline void dir_make(void)
{
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
}

static inline void dir_remove(void)
{
	tu_rmtree(dir);
}

/* Writes dir/name as a CSV with a header, features (row, 0.5·row, class) and
 * the label last: counts[c] rows of class c, the classes interleaved. The
 * first feature numbers the rows from first. Returns the path (static). */
static inline const char *write_csv(const char *name, const int *counts, int k, int first)
{
	static char path[1024];
	size_t cap = 1 << 16, len = 0;
	char *text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	len += (size_t)snprintf(text, cap, "row,half,cls,label\n");
	int left[16], row = first;
	memcpy(left, counts, (size_t)k * sizeof *counts);
	for (int more = 1; more;) {
		more = 0;
		for (int c = 0; c < k; c++)
			if (left[c] > 0) {
				left[c]--;
				more = 1;
				len += (size_t)snprintf(text + len, cap - len, "%d,%g,%d,%d\n", row,
				                        0.5 * row, c, c);
				row++;
				ck_assert_uint_lt(len, cap - 64);
			}
	}
	snprintf(path, sizeof path, "%s", tu_write(dir, name, text, len));
	free(text);
	return path;
}

/* Every row of ds is (i, 0.5·i, c) with label c for some i in [lo, hi), and no
 * i appears twice; marks[i - lo] counts the rows seen. */
static inline void check_rows(const Dataset *ds, int lo, int hi, int *marks)
{
	ck_assert_int_eq(ds->d, 3);
	for (int r = 0; r < ds->n; r++) {
		const float *x = ds->x + (size_t)r * 3;
		int i = (int)x[0];
		ck_assert_float_eq(x[0], (float)i);
		ck_assert_int_ge(i, lo);
		ck_assert_int_lt(i, hi);
		ck_assert_float_eq(x[1], 0.5f * (float)i);
		ck_assert_float_eq(x[2], (float)ds->y[r]);
		marks[i - lo]++;
	}
}

/* Mean and population standard deviation of feature j over ds. */
static inline void feature_stats(const Dataset *ds, int j, double *mean, double *sd)
{
	double m = 0, v = 0;
	for (int i = 0; i < ds->n; i++)
		m += ds->x[(size_t)i * ds->d + j];
	m /= ds->n;
	for (int i = 0; i < ds->n; i++) {
		double t = ds->x[(size_t)i * ds->d + j] - m;
		v += t * t;
	}
	*mean = m;
	*sd = sqrt(v / ds->n);
}

static inline int count_class(const Dataset *ds, int c)
{
	int n = 0;
	for (int i = 0; i < ds->n; i++)
		n += ds->y[i] == c;
	return n;
}

/* The synthetic set: 400 training and 200 test rows of each of 3 classes, 10
 * features; the same seed gives the same sets, and the test set comes from
 * another seed than the training set (with the same seed its rows would
 * repeat the training set's first rows). */
#endif
