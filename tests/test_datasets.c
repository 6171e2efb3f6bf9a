/* test_datasets.c - the --data front end: the defaults, the data directory
 * from the environment, the synthetic set, CSV files with and without a test
 * file, missing and unknown sets, --limit and the scaling of features. */
#include <math.h>
#include <pwd.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "data/dataset.h"
#include "data/datasets.h"
#include "data/mnist.h"
#include "testutil.h"

/* One scratch directory for the whole run, removed when the tests end. */
static char dir[512];

static void dir_make(void)
{
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
}

static void dir_remove(void)
{
	tu_rmtree(dir);
}

/* Writes dir/name as a CSV with a header, features (row, 0.5·row, class) and
 * the label last: counts[c] rows of class c, the classes interleaved. The
 * first feature numbers the rows from first. Returns the path (static). */
static const char *write_csv(const char *name, const int *counts, int k, int first)
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
static void check_rows(const Dataset *ds, int lo, int hi, int *marks)
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

START_TEST(test_datasets_synthetic)
{
	DataSpec s;
	dataspec_default(&s);
	ck_assert_int_eq(s.features, 200);
	ck_assert_int_eq(s.label_col, -1);
	Dataset *tr, *te;
	Err e;
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), 0);
	ck_assert_int_eq(tr->n, 1200);
	ck_assert_int_eq(te->n, 600);
	ck_assert_int_eq(tr->d, 10);
	ck_assert_int_eq(te->k, 3);
	ck_assert_int_ne(memcmp(tr->x, te->x, sizeof(float) * 600), 0);
	dataset_free(tr);
	dataset_free(te);
	s.spec = "synthetic";
	s.limit = 7;
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), 0);
	ck_assert_int_eq(tr->n, 21);
	ck_assert_int_eq(te->n, 21);
	dataset_free(tr);
	dataset_free(te);
}
END_TEST

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

START_TEST(test_datasets_dir)
{
	char buf[512];
	setenv("CONDNET_DATA", "/d1", 1);
	setenv("XDG_CACHE_HOME", "/x", 1);
	setenv("HOME", "/h", 1);
	ck_assert_str_eq(datasets_dir(buf, sizeof buf), "/d1");
	unsetenv("CONDNET_DATA");
	ck_assert_str_eq(datasets_dir(buf, sizeof buf), "/x/condnet");
	setenv("XDG_CACHE_HOME", "", 1);
	ck_assert_str_eq(datasets_dir(buf, sizeof buf), "/h/.cache/condnet");
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

/* Both sets carry the record of their preprocessing; loading with a record
 * given makes the same features as loading with it fitted, and a record of
 * another width is refused naming both. */
START_TEST(test_datasets_record)
{
	Dataset *tr, *te, *tr2, *te2;
	DataSpec s;
	dataspec_default(&s);
	s.scale = DATA_STANDARDIZE;
	Err e;
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), 0);
	ck_assert_ptr_nonnull(tr->prep);
	ck_assert_ptr_nonnull(te->prep);
	ck_assert_int_eq(tr->prep->kind, PREP_FEATURES);
	ck_assert_int_eq(tr->prep->scale, DATA_STANDARDIZE);
	ck_assert_mem_eq(tr->prep->mean, te->prep->mean, sizeof(double) * (size_t)tr->d);
	Prep *rec = prep_clone(tr->prep, &e);
	s.scale = DATA_RAW; /* ignored: the record's step applies */
	ck_assert_msg(datasets_load_as(&s, rec, "m.model", &tr2, &te2, &e) == 0, "%s", e.msg);
	ck_assert_mem_eq(tr->x, tr2->x, sizeof(float) * (size_t)tr->n * (size_t)tr->d);
	ck_assert_mem_eq(te->x, te2->x, sizeof(float) * (size_t)te->n * (size_t)te->d);
	ck_assert_int_eq(te2->prep->scale, DATA_STANDARDIZE);
	/* a subset keeps the record */
	int idx[2] = {3, 1};
	Dataset *sub = dataset_subset(te2, idx, 2, &e);
	ck_assert_int_eq(sub->prep->scale, DATA_STANDARDIZE);
	dataset_free(sub);
	dataset_free(tr2);
	dataset_free(te2);
	Prep *wide = prep_new(PREP_FEATURES, tr->d + 1, &e);
	ck_assert_int_eq(datasets_load_as(&s, wide, "w.model", &tr2, &te2, &e), -1);
	ck_assert_msg(strstr(e.msg, "w.model has 11 inputs, but synthetic train"), "%s", e.msg);
	prep_free(wide);
	prep_free(rec);
	dataset_free(tr);
	dataset_free(te);
}
END_TEST

START_TEST(test_dataspec_default)
{
	DataSpec s;
	memset(&s, 0xa5, sizeof s);
	dataspec_default(&s);
	ck_assert_ptr_null(s.spec);
	ck_assert_ptr_null(s.dir);
	ck_assert_int_eq(s.features, 200);
	ck_assert_int_eq(s.label_col, -1);
	ck_assert_uint_eq(s.seed, 1);
	ck_assert_int_eq(s.limit, 0);
	ck_assert_int_eq(s.scale, DATA_RAW);
	ck_assert_int_eq(s.inputs, MNIST_QR);
}
END_TEST

/* A choice of inputs other than the paper's is MNIST's and Fashion's only:
 * any other set refuses it by name, MNIST goes on to look for its files. */
START_TEST(test_datasets_inputs)
{
	char own[512], want[1200];
	snprintf(own, sizeof own, "%s", tu_tmpdir());
	DataSpec s;
	dataspec_default(&s);
	s.dir = own;
	Dataset *tr = (Dataset *)1, *te = (Dataset *)1;
	Err e;
	static const char *const other[] = {"synthetic", "adult", "csv:x.csv", "spiral"};
	for (int i = 0; i < 4; i++) {
		s.spec = other[i];
		s.inputs = MNIST_PIXELS - i;
		ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), -1);
		ck_assert_ptr_null(tr);
		ck_assert_ptr_null(te);
		snprintf(want, sizeof want,
		         "%s: the inputs '%s' are a choice of mnist and fashion only", other[i],
		         mnist_inputs_name(s.inputs));
		ck_assert_str_eq(e.msg, want);
	}
	s.spec = "mnist";
	s.inputs = MNIST_VARIANCE;
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), -1);
	snprintf(want, sizeof want, "mnist is not in %s/mnist: run 'data/fetch mnist' first", own);
	ck_assert_str_eq(e.msg, want);
	s.spec = "synthetic";
	s.inputs = MNIST_QR;
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), 0);
	dataset_free(tr);
	dataset_free(te);
}
END_TEST

/* $CONDNET_DATA, else $XDG_CACHE_HOME/condnet, else $HOME/.cache/condnet, else
 * the password database's home; an empty variable counts as unset. */
START_TEST(test_datasets_dir_order)
{
	char buf[512], want[600];
	setenv("CONDNET_DATA", "/data/here", 1);
	setenv("XDG_CACHE_HOME", "/xdg", 1);
	setenv("HOME", "/home/u", 1);
	ck_assert_ptr_eq(datasets_dir(buf, sizeof buf), buf);
	ck_assert_str_eq(buf, "/data/here");
	setenv("CONDNET_DATA", "", 1);
	ck_assert_str_eq(datasets_dir(buf, sizeof buf), "/xdg/condnet");
	unsetenv("CONDNET_DATA");
	ck_assert_str_eq(datasets_dir(buf, sizeof buf), "/xdg/condnet");
	unsetenv("XDG_CACHE_HOME");
	ck_assert_str_eq(datasets_dir(buf, sizeof buf), "/home/u/.cache/condnet");
	setenv("CONDNET_DATA", "relative/dir", 1);
	ck_assert_str_eq(datasets_dir(buf, sizeof buf), "relative/dir");
	unsetenv("CONDNET_DATA");
	unsetenv("HOME");
	struct passwd *pw = getpwuid(getuid());
	ck_assert_ptr_nonnull(pw);
	snprintf(want, sizeof want, "%s/.cache/condnet", pw->pw_dir);
	ck_assert_str_eq(datasets_dir(buf, sizeof buf), want);
	/* A short buffer holds the start of the name, terminated. */
	setenv("CONDNET_DATA", "/a/long/data/directory", 1);
	char small[8];
	ck_assert_str_eq(datasets_dir(small, sizeof small), "/a/long");
}
END_TEST

/* With no directory in the DataSpec, datasets_load looks where datasets_dir
 * says, and its message names that directory. */
START_TEST(test_datasets_default_dir)
{
	DataSpec s;
	dataspec_default(&s);
	s.spec = "fashion";
	Dataset *tr = (Dataset *)1, *te = (Dataset *)1;
	Err e;
	char want[1200], own[512];
	snprintf(own, sizeof own, "%s", tu_tmpdir());
	setenv("CONDNET_DATA", own, 1);
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), -1);
	ck_assert_ptr_null(tr);
	ck_assert_ptr_null(te);
	snprintf(want, sizeof want, "fashion is not in %s/fashion: run 'data/fetch fashion' first",
	         own);
	ck_assert_str_eq(e.msg, want);
	unsetenv("CONDNET_DATA");
	setenv("XDG_CACHE_HOME", own, 1);
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), -1);
	snprintf(want, sizeof want,
	         "fashion is not in %s/condnet/fashion: run 'data/fetch fashion' first", own);
	ck_assert_str_eq(e.msg, want);
}
END_TEST

/* Mean and population standard deviation of feature j over ds. */
static void feature_stats(const Dataset *ds, int j, double *mean, double *sd)
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

static int count_class(const Dataset *ds, int c)
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
START_TEST(test_datasets_synthetic_seeds)
{
	DataSpec s;
	dataspec_default(&s);
	s.seed = 5;
	Dataset *tr, *te, *tr2, *te2, *tr3, *te3;
	Err e;
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), 0);
	s.spec = "synthetic";
	ck_assert_int_eq(datasets_load(&s, &tr2, &te2, &e), 0);
	s.seed = 6;
	ck_assert_int_eq(datasets_load(&s, &tr3, &te3, &e), 0);
	ck_assert_int_eq(tr->k, 3);
	ck_assert_int_eq(te->d, 10);
	for (int c = 0; c < 3; c++) {
		ck_assert_int_eq(count_class(tr, c), 400);
		ck_assert_int_eq(count_class(te, c), 200);
	}
	ck_assert_mem_eq(tr->x, tr2->x, sizeof(float) * 1200 * 10);
	ck_assert_mem_eq(te->x, te2->x, sizeof(float) * 600 * 10);
	ck_assert_mem_eq(te->y, te2->y, sizeof(int) * 600);
	for (int i = 0; i < 600; i++) {
		ck_assert_int_eq(te->y[i], tr->y[i]);
		ck_assert_msg(memcmp(te->x + 10 * i, tr->x + 10 * i, sizeof(float) * 10) != 0,
		              "test row %d repeats training row %d", i, i);
	}
	ck_assert_int_ne(memcmp(tr->x, tr3->x, sizeof(float) * 1200 * 10), 0);
	ck_assert_int_ne(memcmp(te->x, te3->x, sizeof(float) * 600 * 10), 0);
	ck_assert_ptr_nonnull(strstr(tr->name, "synthetic"));
	dataset_free(tr);
	dataset_free(te);
	dataset_free(tr2);
	dataset_free(te2);
	dataset_free(tr3);
	dataset_free(te3);
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

/* An unknown name fails listing the known ones; a fetched set that is not in
 * the data directory (empty, or with part of the files) fails naming the
 * `data/fetch` command that provides it, and the missing file when others
 * are there; something other than a file at a file's path is named. */
START_TEST(test_datasets_unknown_and_missing)
{
	char own[512];
	snprintf(own, sizeof own, "%s", tu_tmpdir());
	DataSpec s;
	dataspec_default(&s);
	s.dir = own;
	Dataset *tr = (Dataset *)1, *te = (Dataset *)1;
	Err e;
	char want[1200];
	static const char *const unknown[] = {"cifar", "MNIST", "", "mnist ", "csv"};
	for (int i = 0; i < 5; i++) {
		s.spec = unknown[i];
		ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), -1);
		ck_assert_ptr_null(tr);
		ck_assert_ptr_null(te);
		snprintf(want, sizeof want,
		         "unknown data set '%s': expected mnist, fashion, adult, synthetic, "
		         "spiral, circles, xor, gauss, moons or csv:TRAIN[,TEST]",
		         unknown[i]);
		ck_assert_str_eq(e.msg, want);
		ck_assert_int_eq(datasets_available(unknown[i], own), 0);
	}
	static const char *const fetched[] = {"mnist", "fashion", "adult"};
	for (int i = 0; i < 3; i++) {
		s.spec = fetched[i];
		tr = te = (Dataset *)1;
		ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), -1);
		ck_assert_ptr_null(tr);
		ck_assert_ptr_null(te);
		snprintf(want, sizeof want, "%s is not in %s/%s: run 'data/fetch %s' first",
		         fetched[i], own, fetched[i], fetched[i]);
		ck_assert_str_eq(e.msg, want);
	}
	/* Three of MNIST's four files, and one of Adult's two, are not enough. */
	char sub[1024];
	snprintf(sub, sizeof sub, "%s/mnist", own);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	tu_write(sub, "train-images-idx3-ubyte", "", 0);
	tu_write(sub, "train-labels-idx1-ubyte.gz", "", 0);
	tu_write(sub, "t10k-images-idx3-ubyte", "", 0);
	ck_assert_int_eq(datasets_available("mnist", own), 0);
	s.spec = "mnist";
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), -1);
	snprintf(want, sizeof want,
	         "%s/mnist/t10k-labels-idx1-ubyte (or .gz) is missing, though other files of "
	         "mnist are there: run 'data/fetch mnist'",
	         own);
	ck_assert_str_eq(e.msg, want);
	/* a directory where a file should be is named, not taken for a set
	 * that was never fetched */
	char lab[1100];
	snprintf(lab, sizeof lab, "%s/t10k-labels-idx1-ubyte", sub);
	ck_assert_int_eq(mkdir(lab, 0755), 0);
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), -1);
	snprintf(want, sizeof want, "%s: a directory, expected a regular file", lab);
	ck_assert_str_eq(e.msg, want);
	ck_assert_int_eq(datasets_available("mnist", own), 0);
	ck_assert_int_eq(rmdir(lab), 0);
	tu_write(sub, "t10k-labels-idx1-ubyte.gz", "", 0);
	ck_assert_int_eq(datasets_available("mnist", own), 1);
	snprintf(sub, sizeof sub, "%s/adult", own);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	tu_write(sub, "adult.data", "", 0);
	ck_assert_int_eq(datasets_available("adult", own), 0);
	s.spec = "adult";
	ck_assert_int_eq(datasets_load(&s, &tr, &te, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "adult/adult.test is missing, though other files of "
	                                    "adult are there: run 'data/fetch adult'"));
	tu_write(sub, "adult.test", "", 0);
	ck_assert_int_eq(datasets_available("adult", own), 1);
	ck_assert_int_eq(datasets_available("synthetic", own), 1);
	ck_assert_int_eq(datasets_available(NULL, own), 1);
	ck_assert_int_eq(datasets_available("fashion", own), 0);
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
	Suite *s = suite_create("datasets");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_datasets_synthetic);
	tcase_add_test(tc, test_datasets_standardize);
	tcase_add_test(tc, test_datasets_csv_and_missing);
	tcase_add_test(tc, test_datasets_dir);
	tcase_add_test(tc, test_dataspec_default);
	tcase_add_test(tc, test_datasets_inputs);
	tcase_add_test(tc, test_datasets_dir_order);
	tcase_add_test(tc, test_datasets_default_dir);
	tcase_add_test(tc, test_datasets_synthetic_seeds);
	tcase_add_test(tc, test_datasets_csv_holdout);
	tcase_add_test(tc, test_datasets_csv_two_files);
	tcase_add_test(tc, test_datasets_unknown_and_missing);
	tcase_add_test(tc, test_datasets_limit);
	tcase_add_test(tc, test_datasets_center_and_standardize);
	tcase_add_test(tc, test_datasets_record);
	tcase_add_unchecked_fixture(tc, dir_make, dir_remove);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
