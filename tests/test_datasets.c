/* test_datasets.c - the --data front end: the defaults, the data directory
 * from the environment and its order, the synthetic set and its seeds,
 * MNIST's inputs, missing and unknown sets, and the record of a set. */
#include <math.h>
#include <pwd.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "datasets_test.h"

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

int main(void)
{
	Suite *s = suite_create("datasets");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_datasets_synthetic);
	tcase_add_test(tc, test_datasets_dir);
	tcase_add_test(tc, test_dataspec_default);
	tcase_add_test(tc, test_datasets_inputs);
	tcase_add_test(tc, test_datasets_dir_order);
	tcase_add_test(tc, test_datasets_default_dir);
	tcase_add_test(tc, test_datasets_synthetic_seeds);
	tcase_add_test(tc, test_datasets_unknown_and_missing);
	tcase_add_test(tc, test_datasets_record);
	tcase_add_unchecked_fixture(tc, dir_make, dir_remove);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
