/* test_adult.c - Adult preparation: scaling, one-hot columns, both file
 * styles, missing values and malformed records. */
#include "data/adult.h"
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

/* First column of each one-hot group. */
enum {
	WORKCLASS = 6,
	EDUCATION = 14,
	MARITAL = 30,
	OCCUPATION = 37,
	RELATIONSHIP = 51,
	RACE = 57,
	SEX = 62,
	COUNTRY = 64,
	FEATURES = 105
};

static char path[1024];

static const char *put(const char *name, const char *text)
{
	snprintf(path, sizeof path, "%s", tu_write(dir, name, text, strlen(text)));
	return path;
}

static void fails_with(const char *text, const char *want)
{
	Dataset *ds = (Dataset *)1;
	Err e;
	ck_assert_int_eq(adult_load(put("adult.data", text), &ds, &e), -1);
	ck_assert_ptr_null(ds);
	ck_assert_msg(strstr(e.msg, want) != NULL, "message '%s' lacks '%s'", e.msg, want);
}

/* Exactly the columns on[0..non) are 1 among the one-hot features of row. */
static void check_onehot(const float *row, const int *on, int non)
{
	int ones = 0;
	char name[96];
	for (int j = 6; j < FEATURES; j++) {
		if (row[j] == 0.0f)
			continue;
		ck_assert_float_eq(row[j], 1.0f);
		int found = 0;
		for (int i = 0; i < non; i++)
			found |= on[i] == j;
		ck_assert_msg(found, "column %d (%s) set", j,
		              adult_feature_name(j, name, sizeof name));
		ones++;
	}
	ck_assert_int_eq(ones, non);
}

START_TEST(test_features)
{
	char name[96];
	ck_assert_int_eq(adult_feature_count(), FEATURES);
	ck_assert_str_eq(adult_feature_name(0, name, sizeof name), "age");
	ck_assert_str_eq(adult_feature_name(1, name, sizeof name), "fnlwgt");
	ck_assert_str_eq(adult_feature_name(5, name, sizeof name), "hours-per-week");
	ck_assert_str_eq(adult_feature_name(WORKCLASS, name, sizeof name), "workclass=Private");
	ck_assert_str_eq(adult_feature_name(EDUCATION + 3, name, sizeof name), "education=HS-grad");
	ck_assert_str_eq(adult_feature_name(SEX + 1, name, sizeof name), "sex=Male");
	ck_assert_str_eq(adult_feature_name(COUNTRY, name, sizeof name),
	                 "native-country=United-States");
	ck_assert_str_eq(adult_feature_name(FEATURES - 1, name, sizeof name),
	                 "native-country=Holand-Netherlands");
	ck_assert_ptr_null(adult_feature_name(FEATURES, name, sizeof name));
	ck_assert_ptr_null(adult_feature_name(-1, name, sizeof name));
}
END_TEST

START_TEST(test_training_style)
{
	const char *text =
	    "50, Private, 1000000, HS-grad, 10, Divorced, Sales, Unmarried, White, Female, "
	    "20000, 500, 60, Mexico, >50K\n"
	    "\n"
	    "39, ?, 200000, Doctorate, 25, Never-married, ?, Own-child, Black, Male, 0, 0, 40, "
	    "?, <=50K\n";
	Dataset *ds;
	Err e;
	ck_assert_msg(adult_load(put("adult.data", text), &ds, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(ds->n, 2);
	ck_assert_int_eq(ds->d, FEATURES);
	ck_assert_int_eq(ds->k, 2);
	const float *r = ds->x;
	ck_assert_float_eq_tol(r[0], 50.0f, 1e-5);
	ck_assert_float_eq_tol(r[1], 50.0f, 1e-5);
	ck_assert_float_eq_tol(r[2], 40.0f, 1e-5);
	ck_assert_float_eq_tol(r[3], 10.0f, 1e-5);
	ck_assert_float_eq_tol(r[4], 5.0f, 1e-5);
	ck_assert_float_eq_tol(r[5], 50.0f, 1e-5);
	int on0[] = {WORKCLASS + 0,    EDUCATION + 3, MARITAL + 1, OCCUPATION + 3,
	             RELATIONSHIP + 5, RACE + 0,      SEX + 0,     COUNTRY + 20};
	check_onehot(r, on0, 8);
	ck_assert_int_eq(ds->y[0], 1);
	/* '?' in workclass, occupation and native-country: those groups stay zero. */
	r = ds->x + FEATURES;
	ck_assert_float_eq_tol(r[0], 39.0f, 1e-5);
	ck_assert_float_eq_tol(r[2], 100.0f, 1e-5);
	int on1[] = {EDUCATION + 13, MARITAL + 2, RELATIONSHIP + 1, RACE + 4, SEX + 1};
	check_onehot(r, on1, 5);
	ck_assert_int_eq(ds->y[1], 0);
	dataset_free(ds);
}
END_TEST

START_TEST(test_test_style)
{
	const char *text =
	    "|1x3 Cross validator\n"
	    "25, Private, 226802, 11th, 7, Never-married, Machine-op-inspct, Own-child, Black, "
	    "Male, 0, 0, 40, United-States, <=50K.\n"
	    "44, Self-emp-inc, 160323, Some-college, 10, Married-civ-spouse, Exec-managerial, "
	    "Husband, Asian-Pac-Islander, Male, 7688, 0, 40, Outlying-US(Guam-USVI-etc), >50K.\n"
	    "\n";
	Dataset *ds;
	Err e;
	ck_assert_msg(adult_load(put("adult.test", text), &ds, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(ds->n, 2);
	ck_assert_int_eq(ds->y[0], 0);
	ck_assert_int_eq(ds->y[1], 1);
	int on[] = {WORKCLASS + 2,    EDUCATION + 1, MARITAL + 0, OCCUPATION + 4,
	            RELATIONSHIP + 2, RACE + 1,      SEX + 1,     COUNTRY + 6};
	check_onehot(ds->x + FEATURES, on, 8);
	ck_assert_float_eq_tol(ds->x[FEATURES + 3], 3.844f, 1e-4);
	ck_assert_ptr_nonnull(strstr(ds->name, "adult.test"));
	dataset_free(ds);
}
END_TEST

#define OK_HEAD "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, "

START_TEST(test_errors)
{
	const char *good = OK_HEAD "White, Male, 2174, 0, 40, United-States, <=50K\n";
	char text[1024];
	snprintf(text, sizeof text, "%s%s", good,
	         OK_HEAD "White, Male, 2174, 0, 40, United-States\n");
	fails_with(text, "adult.data:2: 14 fields, expected 15: field 15 (income) is missing");
	snprintf(text, sizeof text, "%s\n%s", good,
	         OK_HEAD "White, Male, 2174, 0, 40, United-States, <=50K, 7\n");
	fails_with(text, "adult.data:3: more than 15 fields: unexpected '7' after income");
	fails_with(OK_HEAD "White, Male, 2174, 0, 40, Atlantis, <=50K\n",
	           "adult.data:1: field 14 (native-country): unknown category 'Atlantis'");
	fails_with(
	    "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, "
	    "White, Male, 21x4, 0, 40, United-States, <=50K\n",
	    "adult.data:1: field 11 (capital-gain): '21x4' is not a number");
	fails_with(
	    "-3, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, "
	    "White, Male, 0, 0, 40, United-States, <=50K\n",
	    "adult.data:1: field 1 (age): -3 is negative");
	fails_with(OK_HEAD "White, Male, 2174, 0, 40, United-States, 50K\n",
	           "adult.data:1: field 15 (income): expected '>50K' or '<=50K', found '50K'");
	fails_with(OK_HEAD "White, Male, , 0, 40, United-States, <=50K\n",
	           "field 11 (capital-gain): '' is not a number");
	fails_with("|only a comment\n\n", "adult.data: no records");
	Dataset *ds;
	Err e;
	ck_assert_int_eq(adult_load("/nonexistent/adult.data", &ds, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent/adult.data: cannot open"));
	ck_assert_int_eq(adult_load("/dev/zero", &ds, &e), -1);
	ck_assert_str_eq(e.msg, "/dev/zero: not a regular file");
	ck_assert_int_eq(adult_load(dir, &ds, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, ": not a regular file"));
}
END_TEST

/* A number finite as a double but beyond a float once scaled (100·v/bound)
 * is refused with its line and field, not loaded as +Inf. */
/* The text rules of the CSV loader (data/text.h): a NUL byte is an error
 * naming its line (it used to end the line silently, dropping the fields
 * after it), CR and CRLF line ends and a UTF-8 byte-order mark load the same
 * rows, UTF-16 is named. */
START_TEST(test_text_rules)
{
	const char *row = "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, "
	                  "Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K";
	char text[1024];
	Dataset *ds = (Dataset *)1;
	Err e;
	/* a NUL after the income: before, the line loaded as if it ended there */
	int n = snprintf(text, sizeof text, "%s\n%s", row, row);
	text[n] = '\0';
	memcpy(text + n + 1, ", junk\n", 8);
	const char *p = tu_write(dir, "adult.data", text, (size_t)n + 9);
	ck_assert_int_eq(adult_load(p, &ds, &e), -1);
	ck_assert_ptr_null(ds);
	char want[128];
	snprintf(want, sizeof want, "adult.data:2: NUL byte at character %zu, expected text",
	         strlen(row) + 1);
	ck_assert_msg(strstr(e.msg, want), "%s", e.msg);
	for (int f = 0; f < 3; f++) {
		if (f == 0)
			snprintf(text, sizeof text, "%s\r%s\r", row, row);
		else if (f == 1)
			snprintf(text, sizeof text, "%s\r\n%s", row, row);
		else
			snprintf(text, sizeof text, "\xef\xbb\xbf%s\n%s\n", row, row);
		ck_assert_msg(adult_load(put("adult.data", text), &ds, &e) == 0, "%d: %s", f,
		              e.msg);
		ck_assert_int_eq(ds->n, 2);
		ck_assert_float_eq_tol(ds->x[FEATURES], 39.0f, 1e-5);
		dataset_free(ds);
	}
	p = tu_write(dir, "adult.data",
	             "\xff\xfe"
	             "3\0"
	             "9\0",
	             6);
	ck_assert_int_eq(adult_load(p, &ds, &e), -1);
	ck_assert_msg(strstr(e.msg, "byte-order mark (FF FE)"), "%s", e.msg);
}
END_TEST

START_TEST(test_beyond_float)
{
	char text[1024];
	snprintf(text, sizeof text, "%s\n%s",
	         OK_HEAD "White, Male, 2174, 0, 40, United-States, <=50K",
	         "39, State-gov, 77516, Bachelors, 1e38, Never-married, Adm-clerical, "
	         "Not-in-family, White, Male, 0, 0, 40, United-States, <=50K\n");
	fails_with(text, "adult.data:2: field 5 (education-num): '1e38' is too large, expected at "
	                 "most 8.50706e+37");
	fails_with("3.5e38, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, "
	           "Not-in-family, White, Male, 0, 0, 40, United-States, <=50K\n",
	           "adult.data:1: field 1 (age): '3.5e38' is too large, expected at most "
	           "3.40282e+38");
	/* the largest age that fits (bound 100: scaled by 1) loads */
	Dataset *ds;
	Err e;
	ck_assert_int_eq(
	    adult_load(put("adult.data",
	                   "3.4e38, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, "
	                   "Not-in-family, White, Male, 0, 0, 40, United-States, <=50K\n"),
	               &ds, &e),
	    0);
	ck_assert_float_eq(ds->x[0], 3.4e38f);
	dataset_free(ds);
}
END_TEST

/* Records without the income field encode as the labelled ones do; a
 * record with the income field is one field too many there. */
START_TEST(test_unlabelled)
{
	const char *rec = "50, Private, 1000000, HS-grad, 10, Divorced, Sales, Unmarried, White, "
	                  "Female, 20000, 500, 60, Mexico";
	char text[512];
	snprintf(text, sizeof text, "%s, >50K\n", rec);
	Dataset *a, *b;
	Err e;
	ck_assert_int_eq(adult_load(put("adult.data", text), &a, &e), 0);
	snprintf(text, sizeof text, "%s\n", rec);
	ck_assert_msg(adult_load_unlabelled(put("new.csv", text), &b, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(b->n, 1);
	ck_assert_int_eq(b->d, FEATURES);
	ck_assert_mem_eq(a->x, b->x, sizeof(float) * FEATURES);
	dataset_free(a);
	dataset_free(b);
	snprintf(text, sizeof text, "%s, >50K\n", rec);
	ck_assert_int_eq(adult_load_unlabelled(put("new.csv", text), &b, &e), -1);
	ck_assert_msg(strstr(e.msg, "new.csv:1: more than 14 fields: unexpected '>50K' after "
	                            "native-country"),
	              "%s", e.msg);
	ck_assert_int_eq(adult_load_unlabelled(put("new.csv", "\n"), &b, &e), -1);
	ck_assert_msg(strstr(e.msg, "new.csv: no records, expected lines of 14 comma-separated "
	                            "fields"),
	              "%s", e.msg);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("adult");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_features);
	tcase_add_test(tc, test_training_style);
	tcase_add_test(tc, test_test_style);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_beyond_float);
	tcase_add_test(tc, test_text_rules);
	tcase_add_test(tc, test_unlabelled);
	tcase_add_unchecked_fixture(tc, dir_make, dir_remove);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
