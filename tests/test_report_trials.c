/* test_report_trials.c - Algorithm 2's trials as files: a trial written
 * and read back to the same bits, every malformed field named with its
 * file, and a set of files read for the gather. */
#include <math.h>

#include "report/report_trials.h"
#include "testutil.h"

/* One trial file read back (report_trials_read of one path). */
static int trial_read(const char *path, Alg2Trial *t, int **widths, int *m, Alg2Settings *st,
                      Err *e)
{
	char *p = (char *)path;
	Alg2TrialFile *f = report_trials_read(&p, 1, e);
	if (!f)
		return -1;
	*t = f->t;
	*m = f->m;
	if (st)
		*st = f->st;
	*widths = f->widths;
	f->widths = NULL;
	alg2_trial_files_free(f, 1);
	return 0;
}

START_TEST(json_round_trip_and_rejects)
{
	const char *dir = tu_tmpdir();
	char path[1024];
	Err e;
	snprintf(path, sizeof path, "%s/t.json", dir);
	Alg2Trial t = {.beta = 1.2,
	               .trial = 4,
	               .err_tr = 1.0 / 3.0,
	               .err_v = 0.1,
	               .max_kappa = INFINITY,
	               .seconds = 2.25};
	int w[] = {200, 60, 45, 10};
	Alg2Settings st = {.n = 2}, back;
	snprintf(st.f[0].key, sizeof st.f[0].key, "seed");
	snprintf(st.f[0].value, sizeof st.f[0].value, "7");
	snprintf(st.f[1].key, sizeof st.f[1].key, "data");
	snprintf(st.f[1].value, sizeof st.f[1].value, "csv:a.csv limit=3");
	ck_assert_int_eq(report_trial_write(path, &t, w, 3, &st, &e), 0);
	Alg2Trial r;
	int *rw, m;
	ck_assert_msg(trial_read(path, &r, &rw, &m, &back, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(back.n, 2);
	ck_assert_str_eq(back.f[0].key, "seed");
	ck_assert_str_eq(back.f[0].value, "7");
	ck_assert_str_eq(back.f[1].value, "csv:a.csv limit=3");
	ck_assert_double_eq(r.beta, 1.2);
	ck_assert_int_eq(r.trial, 4);
	ck_assert_double_eq(r.err_tr, 1.0 / 3.0); /* exact round trip */
	ck_assert_double_eq(r.err_v, 0.1);
	ck_assert(isinf(r.max_kappa));
	ck_assert_int_eq(m, 3);
	ck_assert_mem_eq(rw, w, sizeof w);
	free(rw);

	struct {
		const char *text, *expect;
	} bad[] = {
	    {"{ \"beta\": 1.2, ", ": line 1, column 15: malformed JSON"},
	    {"[1, 2]", ": expected a JSON object with the fields of a trial"},
	    {"{\"beta\": 1.2, \"trial\": 0, \"err_tr\": 0.1, \"max_kappa\": 3, \"seconds\": 1,"
	     " \"widths\": [2, 3, 2]}",
	     ": missing field \"err_v\""},
	    {"{\"beta\": \"1.2\", \"trial\": 0}", ": field \"beta\": expected a number"},
	    {"{\"beta\": -1, \"trial\": 0}", ": field \"beta\" = -1, expected a number in"},
	    {"{\"beta\": 1, \"trial\": 0.5}",
	     ": field \"trial\" = 0.5, expected an integer in [0, 1e+06]"},
	    {"{\"beta\": 1, \"trial\": 0, \"err_tr\": 1.5}",
	     ": field \"err_tr\" = 1.5, expected a number in [0, 1]"},
	    {"{\"beta\": 1, \"trial\": 0, \"err_tr\": 0.1, \"err_v\": 0.2, \"max_kappa\": 3,"
	     " \"seconds\": 1, \"widths\": [2, 0, 2]}",
	     ": field \"widths\", entry 1: expected a positive integer"},
	    {"{\"beta\": 1, \"trial\": 0, \"err_tr\": 0.1, \"err_v\": 0.2, \"max_kappa\": 3,"
	     " \"seconds\": 1, \"widths\": 5}",
	     ": field \"widths\": expected an array of layer widths"},
	    {"{\"beta\": 1, \"trial\": 0, \"err_tr\": 0.1, \"err_v\": 0.2, \"max_kappa\": 3,"
	     " \"seconds\": 1, \"widths\": [2, 2]} x",
	     ": unexpected text after the JSON object"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char name[32];
		snprintf(name, sizeof name, "bad%zu.json", i);
		const char *p = tu_write(dir, name, bad[i].text, strlen(bad[i].text));
		char full[1024];
		snprintf(full, sizeof full, "%s", p);
		rw = NULL;
		ck_assert_int_eq(trial_read(full, &r, &rw, &m, NULL, &e), -1);
		ck_assert_ptr_null(rw);
		ck_assert_msg(strncmp(e.msg, full, strlen(full)) == 0, "case %zu: %s", i, e.msg);
		ck_assert_msg(strstr(e.msg, bad[i].expect) != NULL, "case %zu: %s", i, e.msg);
	}
	snprintf(path, sizeof path, "%s/missing.json", dir);
	ck_assert_int_eq(trial_read(path, &r, &rw, &m, NULL, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "missing.json: cannot open"));
}
END_TEST

/* The files of a sweep, read back in one call for alg2_gather: each named
 * by its path; the first that cannot be read is named and nothing is kept. */
START_TEST(files_read_for_the_gather)
{
	const char *dir = tu_tmpdir();
	char p0[1024], p1[1024], p2[1024];
	Err e;
	int w[] = {6, 12, 3};
	Alg2Trial t0 = {.beta = 1.5,
	                .trial = 0,
	                .err_tr = 0.125,
	                .err_v = 0.25,
	                .max_kappa = 7,
	                .seconds = 1},
	          t1 = t0;
	t1.trial = 1;
	t1.err_v = 1.0 / 7.0;
	snprintf(p0, sizeof p0, "%s/b1.5-t0.json", dir);
	snprintf(p1, sizeof p1, "%s/b1.5-t1.json", dir);
	snprintf(p2, sizeof p2, "%s/missing.json", dir);
	Alg2Settings st = {.n = 1};
	snprintf(st.f[0].key, sizeof st.f[0].key, "seed");
	snprintf(st.f[0].value, sizeof st.f[0].value, "1");
	ck_assert_int_eq(report_trial_write(p0, &t0, w, 2, &st, &e), 0);
	ck_assert_int_eq(report_trial_write(p1, &t1, w, 2, &st, &e), 0);
	char *paths[3] = {p0, p1, p2};
	Alg2TrialFile *f = report_trials_read(paths, 2, &e);
	ck_assert_msg(f != NULL, "%s", e.msg);
	ck_assert_str_eq(f[1].name, p1);
	ck_assert_int_eq(f[1].t.trial, 1);
	ck_assert_mem_eq(&f[1].t.err_v, &t1.err_v, sizeof(double));
	ck_assert_int_eq(f[0].m, 2);
	ck_assert_mem_eq(f[0].widths, w, sizeof w);
	ck_assert_int_eq(f[1].st.n, 1);
	ck_assert_str_eq(f[1].st.f[0].value, "1");
	alg2_trial_files_free(f, 2);
	ck_assert_ptr_null(report_trials_read(paths, 3, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "missing.json: cannot open"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report_trials");
	TCase *t = tcase_create("report_trials");
	tcase_add_test(t, json_round_trip_and_rejects);
	tcase_add_test(t, files_read_for_the_gather);
	suite_add_tcase(s, t);
	return tu_run(s);
}
