/* test_paper.c - the paper runner without any data set: stage names and
 * option checks, a report made from stage results written by hand, reading
 * numbers back from stage JSON, the Markdown helpers and their list of
 * differences, partial results and a stage run by hand. */
#include <math.h>
#include <sys/stat.h>

#include "base/clock.h"
#include "engine/cond_matrix.h"
#include "paper/paper.h"
#include "paper/paper_stage.h"
#include "report/report.h"
#include "report/report_int.h"
#include "testutil.h"

/* The notes the runner sent to its hook, one line each, and the
 * decomposition path the engine was on at each. */
static char notes[8192];
static int off_gsl;

static void on_step(const HookStep *s, void *ud)
{
	(void)ud;
	ck_assert_int_eq(s->kind, HOOK_NOTE);
	size_t n = strlen(notes);
	snprintf(notes + n, sizeof notes - n, "%s\n", s->text);
	off_gsl += cond_get_path() != COND_PATH_GSL;
}

static const Hook note_hook = {.step = on_step};

/* No data set anywhere: CONDNET_DATA names an empty directory. */
static void no_data(void)
{
	char dir[600];
	snprintf(dir, sizeof dir, "%s/data", tu_tmpdir());
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	setenv("CONDNET_DATA", dir, 1);
	unsetenv("XDG_CACHE_HOME");
}

static char *slurp(const char *path)
{
	size_t len;
	char *s = (char *)tu_read(path, &len);
	char *z = realloc(s, len + 1);
	ck_assert_ptr_nonnull(z);
	z[len] = '\0';
	return z;
}

static void assert_has(const char *text, const char *want)
{
	ck_assert_msg(strstr(text, want) != NULL, "no \"%s\" in:\n%s", want, text);
}

START_TEST(stage_names)
{
	const char *const *m = paper_stage_names("mnist"), *const *a = paper_stage_names("adult");
	const char *want_m[] = {"alg1",  "alg2", "final", "verify", "squeeze",
	                        "add20", "eta",  "tau",   "over"};
	const char *want_a[] = {"alg1", "alg2", "final", "verify", "squeeze", "over"};
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(a);
	for (int i = 0; i < 9; i++)
		ck_assert_str_eq(m[i], want_m[i]);
	ck_assert_ptr_null(m[9]);
	for (int i = 0; i < 6; i++)
		ck_assert_str_eq(a[i], want_a[i]);
	ck_assert_ptr_null(a[6]);
	/* the names are those of the stages that run */
	for (int i = 0; m[i]; i++)
		ck_assert_str_eq(paper_mnist_stages[i].name, m[i]);
	for (int i = 0; a[i]; i++)
		ck_assert_str_eq(paper_adult_stages[i].name, a[i]);
	ck_assert_ptr_null(paper_stage_names("cifar"));
}
END_TEST

START_TEST(unknown_experiment_or_stage)
{
	no_data();
	char out[600], report[600];
	const char *dir = tu_tmpdir();
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(report, sizeof report, "%s/report.md", dir);
	PaperOpts o = {.which = "cifar", .out = out, .report = report, .seed = 1, .threads = 1};
	Err e;
	ck_assert_int_eq(paper_run(&o, &e), -1);
	ck_assert_str_eq(e.msg, "unknown experiment 'cifar' (mnist or adult)");
	o.which = "adult";
	o.stages = "alg1,alg9";
	ck_assert_int_eq(paper_run(&o, &e), -1);
	ck_assert_str_eq(e.msg, "unknown stage 'alg9' for adult");
	o.stages = "alg";
	ck_assert_int_eq(paper_run(&o, &e), -1);
	ck_assert_str_eq(e.msg, "unknown stage 'alg' for adult");
	o.stages = "alg1,add20"; /* an MNIST stage */
	ck_assert_int_eq(paper_run(&o, &e), -1);
	ck_assert_str_eq(e.msg, "unknown stage 'add20' for adult");
	o.which = "mnist";
	o.stages = "alg1,add20,over,verify,squeeze2";
	ck_assert_int_eq(paper_run(&o, &e), -1);
	ck_assert_str_eq(e.msg, "unknown stage 'squeeze2' for mnist");
	/* an empty name, inside the list or after a trailing comma */
	o.stages = "alg1,,alg2";
	ck_assert_int_eq(paper_run(&o, &e), -1);
	ck_assert_str_eq(e.msg, "--stages \"alg1,,alg2\": an empty stage name");
	o.stages = "alg1,";
	ck_assert_int_eq(paper_run(&o, &e), -1);
	ck_assert_str_eq(e.msg, "--stages \"alg1,\": an empty stage name");
	/* nothing was made */
	struct stat st;
	ck_assert_int_eq(stat(out, &st), -1);
	ck_assert_int_eq(stat(report, &st), -1);
}
END_TEST

static const char alg1_json[] =
    "{\"tau\": 40, \"eta\": 3, \"round\": 1, \"max_iter\": 100, \"warm\": false, \"seed\": 1,\n"
    " \"status\": \"done\", \"reason\": \"every κ <= τ\",\n"
    " \"history\": [\n"
    "  {\"iter\": 0, \"n\": [105, 50, 40, 2], \"kappa\": [1234.4, null, 3], \"p\": [3, 9, 0],\n"
    "   \"max_kappa\": null, \"sum_n\": 92, \"train_error\": 0.2, \"seconds\": 1, \"tau\": 40,"
    " \"eta\": 3},\n"
    "  {\"iter\": 1, \"n\": [105, 44, 30, 2], \"kappa\": [7.2, 41, 2.4], \"p\": [0, 1, 0],\n"
    "   \"max_kappa\": 41, \"sum_n\": 76, \"train_error\": 0.1, \"seconds\": 1, \"tau\": 40,"
    " \"eta\": 3}],\n"
    " \"final_n\": [105, 44, 30, 2], \"final_kappa\": [7.2, 41, 2.4], \"final_max_kappa\": 41,\n"
    " \"seconds\": 12.5, \"threads\": 2}\n";

static const char alg2_json[] =
    "{\"betas\": [\n"
    "  {\"beta\": 0.6, \"n\": [105, 26, 18, 2], \"err_tr\": 14.62, \"err_v\": 15.14,"
    " \"score\": 15.66},\n"
    "  {\"beta\": 1.4, \"n\": [105, 62, 42, 2], \"err_tr\": 14, \"err_v\": 14.5,"
    " \"score\": 15}],\n"
    " \"pick\": 1.4, \"q\": 5, \"eta\": 3, \"seconds\": 40.25, \"threads\": 1}\n";

static const char final_json[] =
    "{\"beta\": 1.4, \"epochs\": 10, \"train_acc\": 86.5, \"test_acc\": 85.5,"
    " \"net\": {\"n\": [105, 62, 42, 2], \"kappa\": [5, 6, 7], \"p\": [0, 0, 0]},"
    " \"seconds\": 3.75, \"seconds_note\": \"resumed once\", \"threads\": 2}\n";

/* An adult report from alg1, alg2 and final results alone. */
START_TEST(report_from_stage_files)
{
	no_data();
	const char *dir = tu_tmpdir();
	char out[600], report[600];
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(report, sizeof report, "%s/report.md", dir);
	ck_assert_int_eq(mkdir(out, 0700), 0);
	tu_write(out, "alg1.json", alg1_json, strlen(alg1_json));
	tu_write(out, "alg2.json", alg2_json, strlen(alg2_json));
	tu_write(out, "final.json", final_json, strlen(final_json));
	notes[0] = '\0';
	/* only alg1 asked for: the others contribute what is on disk */
	PaperOpts o = {.which = "adult",
	               .out = out,
	               .report = report,
	               .stages = "alg1",
	               .seed = 7,
	               .threads = 1,
	               .hook = &note_hook};
	Err e;
	/* every stage on GSL's path, whatever the process was set to */
	cond_set_path(COND_PATH_LAPACK);
	off_gsl = 0;
	ck_assert_msg(paper_run(&o, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(off_gsl, 0);
	ck_assert_int_eq(cond_get_path(), COND_PATH_LAPACK);
	cond_set_path(COND_PATH_AUTO);
	char *md = slurp(report);
	assert_has(md, "# Adult Income: condnet beside the paper\n");
	assert_has(md, "`condnet paper adult --seed 7` (stage results in `");
	/* the stages' times, notes and thread counts */
	assert_has(md, "| alg1 | Table 4 | 12.5 |\n");
	assert_has(md, "| alg2 | Figure 4 | 40.2 |\n");
	assert_has(md, "| final | full training of the pick | 3.8 (resumed once) |\n");
	assert_has(md, ", 1 to 2 threads (stages differ).");
	/* the files written above record no kernels */
	assert_has(md, "The stage results do not record the kernels they were computed with");
	/* Table 4: initial κ, final n and κ beside the paper's */
	assert_has(md, "1 iterations, done.\n");
	assert_has(md, "| 1 | 1,234 | 9 | 44 | 44 | 7 | 7 |\n"
	               "| 2 | ∞ | 654 | 30 | 39 | 41 | 37 |\n"
	               "| 3 | 3 | 658 | 2 | 32 | 2 | 31 |\n\n");
	/* Figure 4, the pick marked */
	assert_has(md, "(q = 5, η = 3, 10 % validation; errors in %)");
	assert_has(md, "| 0.6 | 14.62 | 15.14 | 15.66 |\n| 1.4 ◀ | 14.00 | 14.50 | 15.00 |\n");
	assert_has(md, "Pick: β = 1.4 here, β = 1.4 in the paper.");
	/* the full training, and its difference from the paper listed */
	assert_has(md, "## Full training of the pick (β = 1.4, 10 epochs)");
	assert_has(md, "| test accuracy (%) | 85.50 | 86.05 |");
	assert_has(md,
	           "## Differences of more than 0.3 percentage points\n\n"
	           "- test accuracy of the pick: 85.50 here, 86.05 in the paper (-0.55 points)\n");
	ck_assert_ptr_null(strstr(md, "Table 5"));
	ck_assert_ptr_null(strstr(md, "Table 10"));
	free(md);
	assert_has(notes, "alg1 (Table 4): reusing ");
	assert_has(notes, "final (full training of the pick): reusing ");

	/* a stage file that is not a JSON object is not used, and a stage not
	 * asked for is not run */
	const char *broken[] = {"{\"betas\": [", "[1, 2]"};
	for (int i = 0; i < 2; i++) {
		tu_write(out, "alg2.json", broken[i], strlen(broken[i]));
		notes[0] = '\0';
		/* the report of three stages is not replaced by one of two */
		if (i == 0) {
			ck_assert_int_eq(paper_run(&o, &e), -1);
			assert_has(e.msg,
			           "report.md: holds a report of 3 stages, and this run's has 2: "
			           "not replaced, it would lose stage alg2");
			md = slurp(report);
			assert_has(md, "| alg2 | Figure 4 | 40.2 |\n");
			free(md);
		}
		unlink(report);
		ck_assert_msg(paper_run(&o, &e) == 0, "%s", e.msg);
		md = slurp(report);
		ck_assert_ptr_null(strstr(md, "Figure 4"));
		ck_assert_ptr_null(strstr(md, "| alg2 |"));
		assert_has(md, "| 1 | 1,234 | 9 |");
		free(md);
		assert_has(notes, "alg2: ");
		assert_has(notes, "alg2.json is not a valid result; recomputing\n");
	}
	/* asked for, it would run: without data it fails, and names the stage */
	o.stages = "alg2";
	ck_assert_int_eq(paper_run(&o, &e), -1);
	ck_assert_msg(e.msg[0] != '\0', "no message");
}
END_TEST

START_TEST(json_numbers)
{
	cJSON *o = cJSON_Parse("{\"kappa\": [1.5, null, \"x\"], \"n\": [105, 44, 30, 2],"
	                       " \"x\": 3.25, \"s\": \"3\"}");
	ck_assert_ptr_nonnull(o);
	ck_assert(paper_json_at(o, "kappa", 0) == 1.5);
	ck_assert(isinf(paper_json_at(o, "kappa", 1)) && paper_json_at(o, "kappa", 1) > 0);
	ck_assert(isnan(paper_json_at(o, "kappa", 2))); /* not a number */
	ck_assert(isnan(paper_json_at(o, "kappa", 3))); /* past the end */
	ck_assert(isnan(paper_json_at(o, "kappa", -1)));
	ck_assert(isnan(paper_json_at(o, "sigma", 0))); /* no such key */
	ck_assert(paper_json_num(o, "x") == 3.25);
	ck_assert(isnan(paper_json_num(o, "s")));
	ck_assert(isnan(paper_json_num(o, "y")));
	ck_assert_int_eq(paper_json_layers(o), 3);
	ck_assert(paper_json_width(o, 0) == 44);
	ck_assert(paper_json_width(o, 2) == 2);
	ck_assert(isnan(paper_json_width(o, 3)));
	int w[8];
	ck_assert_int_eq(paper_json_ints(o, "n", w, 8, NULL), 4);
	ck_assert_int_eq(w[0], 105);
	ck_assert_int_eq(w[3], 2);
	Err je;
	ck_assert_int_eq(paper_json_ints(o, "n", w, 3, &je), -1); /* too many */
	ck_assert_str_eq(je.msg,
	                 "field \"n\": expected an array of at most 3 widths from 1 to 10000000");
	ck_assert_int_eq(paper_json_ints(o, "kappa", w, 8, NULL), -1); /* a null in it */
	ck_assert_int_eq(paper_json_ints(o, "x", w, 8, NULL), -1);     /* not an array */
	/* widths are checked before they are converted: none is past the table
	 * of limits, below 1 or fractional (1e12 used to become -2147483648) */
	static const char *const bad[] = {"[1e12]", "[10000001]", "[0]",
	                                  "[-3]",   "[2.5]",      "[1e308]"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char text[64];
		snprintf(text, sizeof text, "{\"n\": %s}", bad[i]);
		cJSON *b = cJSON_Parse(text);
		ck_assert_msg(paper_json_ints(b, "n", w, 8, NULL) == -1, "%s was taken", bad[i]);
		cJSON_Delete(b);
	}
	cJSON *top = cJSON_Parse("{\"n\": [10000000, 1]}");
	ck_assert_int_eq(paper_json_ints(top, "n", w, 8, NULL), 2);
	ck_assert_int_eq(w[0], 10000000);
	cJSON_Delete(top);
	cJSON *empty = cJSON_CreateObject();
	ck_assert_int_eq(paper_json_layers(empty), -1);
	ck_assert(isnan(paper_json_width(empty, 0)));
	cJSON_Delete(empty);
	cJSON_Delete(o);

	/* a network as a stage writes it, read back */
	Err e;
	Net *net = net_fresh(3, (int[]){6, 9, 4, 3}, ACT_ERF, 1.0f, 2, &e);
	LayerCond *lc = paper_cond(net, 25, &e);
	ck_assert_ptr_nonnull(lc);
	cJSON *j = report_net_json(net, lc, &e);
	cond_net_free(lc, net->m);
	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(paper_json_layers(j), 3);
	ck_assert(paper_json_width(j, 0) == 9);
	ck_assert(paper_json_at(j, "n", 0) == 6);
	/* Ŵ⁽¹⁾ is 7 × 9 with a zero bias row: rank 6, κ = ∞, written null */
	ck_assert(cJSON_IsNull(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "kappa"), 0)));
	ck_assert(isinf(paper_json_at(j, "kappa", 0)));
	ck_assert(isfinite(paper_json_at(j, "kappa", 1)) && paper_json_at(j, "kappa", 1) >= 1);
	cJSON_Delete(j);
	net_free(net);
}
END_TEST

/* What the stream has received since *mark, and the mark moved past it. */
static const char *since(FILE *f, char **buf, size_t *len, size_t *mark)
{
	fflush(f);
	const char *s = *buf + *mark;
	*mark = *len;
	return s;
}

/* A difference is noted when a percentage differs from the paper's by
 * more than 0.3 points (not when either is unknown), listed at the end in
 * order and the list emptied; none is "None.". */
START_TEST(markdown_flags)
{
	char *buf = NULL;
	size_t len = 0, mark = 0;
	Err e = {{0}};
	Md md = {.f = open_memstream(&buf, &len)};
	ck_assert_ptr_nonnull(md.f);
	ck_assert_int_eq(md_flag(&md, "within", 85.0, 85.3, &e), 0); /* 0.3 apart: not listed */
	md_flag(&md, "beyond", 85.0, 85.31, &e);
	md_flag(&md, "missing", NAN, 90, &e);   /* nothing measured */
	md_flag(&md, "unknown", 91.5, NAN, &e); /* not in the paper */
	md_flag(&md, "lower", 84.5, 86.05, &e);
	md_flag(&md, "close", 86.3, 86.05, &e);
	md_flag(&md, "edge", 0.5, 0.2, &e); /* 0.3 to the last bit */
	md_flag(&md, "just over", 10.305, 10, &e);
	md_flag(&md, "whole points", 12, 10, &e);
	ck_assert_int_eq(md.ndiff, 4);
	ck_assert_int_eq(md_flags(&md, &e), 0);
	ck_assert_str_eq(since(md.f, &buf, &len, &mark),
	                 "\n## Differences of more than 0.3 percentage points\n\n"
	                 "- beyond: 85.00 here, 85.31 in the paper (-0.31 points)\n"
	                 "- lower: 84.50 here, 86.05 in the paper (-1.55 points)\n"
	                 "- just over: 10.30 here, 10.00 in the paper (+0.30 points)\n"
	                 "- whole points: 12.00 here, 10.00 in the paper (+2.00 points)\n\n");
	/* the list is emptied */
	ck_assert_ptr_null(md.diff);
	ck_assert_int_eq(md.ndiff, 0);
	md_flags(&md, &e);
	ck_assert_str_eq(since(md.f, &buf, &len, &mark),
	                 "\n## Differences of more than 0.3 percentage points\n\nNone.\n\n");
	fclose(md.f);
	free(buf);
	/* the rows of the paper's β tables, from beta0 by 0.2 */
	ck_assert_int_eq(md_beta_row(1.0, 1.0), 0);
	ck_assert_int_eq(md_beta_row(2.4, 1.0), 7);
	ck_assert_int_eq(md_beta_row(2.6, 1.0), -1);
	ck_assert_int_eq(md_beta_row(1.1, 1.0), -1);
	ck_assert_int_eq(md_beta_row(0.6, 0.6), 0);
	ck_assert_int_eq(md_beta_row(-1e300, 0.6), -1);
}
END_TEST

/* The link to the notes is relative to the report: beside it in docs/, one
 * ../ for every folder below docs/, none outside a docs/ folder; every
 * flagged line carries it. */
START_TEST(markdown_why_links)
{
	Md md = {0};
	md_why(&md, "docs/results-mnist.md", "gap");
	ck_assert_str_eq(md.why, "reproduction-notes.md#gap");
	md_why(&md, "/src/condnet/docs/results-mnist-converge.md", "gap");
	ck_assert_str_eq(md.why, "reproduction-notes.md#gap");
	md_why(&md, "docs/runs/mnist-center/results-mnist-center.md", "gap");
	ck_assert_str_eq(md.why, "../../reproduction-notes.md#gap");
	md_why(&md, "mydocs/results-mnist.md", "gap");
	ck_assert_str_eq(md.why, "");
	md_why(&md, "/tmp/report.md", "gap");
	ck_assert_str_eq(md.why, "");

	char *buf = NULL;
	size_t len = 0, mark = 0;
	md.f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(md.f);
	md_why(&md, "docs/runs/x/r.md", "where");
	md_flag(&md, "lower", 84.5, 86.05, NULL);
	md_flag(&md, "close", 86.3, 86.05, NULL);
	md_flags(&md, NULL);
	ck_assert_str_eq(since(md.f, &buf, &len, &mark),
	                 "\n## Differences of more than 0.3 percentage points\n\n"
	                 "- lower: 84.50 here, 86.05 in the paper (-1.55 points; [where it comes "
	                 "from](../../reproduction-notes.md#where))\n\n");
	fclose(md.f);
	free(buf);
}
END_TEST

START_TEST(partial_round_trip)
{
	const char *dir = tu_tmpdir();
	char path[600];
	Err e;
	Paper p = {.o = {.which = "adult", .out = dir, .hook = &note_hook}};
	p.t0 = clock_seconds() - 2;
	p.before = 100;
	/* nothing saved yet: an empty object, and no time carried */
	cJSON *part = paper_partial_load(&p, "verify", NULL);
	ck_assert(cJSON_IsObject(part));
	ck_assert_int_eq(cJSON_GetArraySize(part), 0);
	ck_assert(p.before == 100);
	cJSON_AddItemToObject(part, "done", cJSON_CreateIntArray((int[]){3, 1, 4}, 3));
	ck_assert_msg(paper_partial_save(&p, "verify", part, &e) == 0, "%s", e.msg);
	ck_assert_msg(paper_partial_save(&p, "verify", part, &e) == 0, "%s", e.msg);
	cJSON_Delete(part);
	snprintf(path, sizeof path, "%s/verify.partial.json", dir);
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);

	Paper q = {.o = {.which = "adult", .out = dir, .hook = &note_hook}};
	notes[0] = '\0';
	cJSON *back = paper_partial_load(&q, "verify", NULL);
	/* done, one seconds, the record (reproducible, kernels, threads, parts)
	 * and the settings */
	ck_assert_int_eq(cJSON_GetArraySize(back), 7);
	ck_assert(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(back, "kernels")));
	const cJSON *set = cJSON_GetObjectItemCaseSensitive(back, "settings");
	ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(set, "experiment")),
	                 "adult");
	ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(set, "act_scale")),
	                 "1");
	int w[4];
	ck_assert_int_eq(paper_json_ints(back, "done", w, 4, NULL), 3);
	ck_assert_int_eq(w[0] * 100 + w[1] * 10 + w[2], 314);
	double s = paper_json_num(back, "seconds");
	ck_assert_msg(s >= 102 && s < 160, "seconds %g", s);
	ck_assert(q.before == s);
	char want[700];
	snprintf(want, sizeof want, "verify: resuming from %s\n", path);
	ck_assert_str_eq(notes, want);
	cJSON_Delete(back);
	/* another stage's partial file is not this one's */
	Paper r = {.o = {.out = dir}};
	back = paper_partial_load(&r, "squeeze", NULL);
	ck_assert_int_eq(cJSON_GetArraySize(back), 0);
	ck_assert(r.before == 0);
	cJSON_Delete(back);
	/* a file that is not a JSON object starts afresh */
	tu_write(dir, "verify.partial.json", "[1, 2]", 6);
	back = paper_partial_load(&r, "verify", NULL);
	ck_assert(cJSON_IsObject(back));
	ck_assert_int_eq(cJSON_GetArraySize(back), 0);
	ck_assert(r.before == 0);
	cJSON_Delete(back);
}
END_TEST

/* A stage run by hand: it resumes from its partial file, and the runner
 * writes its result with the seconds of both runs, then removes the partial
 * file; run again, the result is read back, not recomputed. */
static int runs;

static int st_custom(Paper *p, cJSON *out, Err *e)
{
	runs++;
	cJSON *part = paper_partial_load(p, "custom", NULL);
	double got = paper_json_num(part, "value");
	cJSON_Delete(part);
	if (isnan(got))
		return err_set(e, "no saved value");
	cJSON_AddNumberToObject(out, "value", got + 1);
	return 0;
}

START_TEST(stage_by_hand)
{
	const char *dir = tu_tmpdir();
	char path[600];
	Err e;
	Dataset *dummy = dataset_new(1, 1, 1, &e);
	Paper p = {.o = {.which = "adult", .out = dir, .threads = 3}, .train = dummy};
	Stage s = {"custom", "a test", st_custom, ""};
	runs = 0;
	/* a failing stage: its message names it, nothing is written */
	ck_assert_int_eq(paper_stage(&p, &s, 1, &e), -1);
	ck_assert_str_eq(e.msg, "stage custom: no saved value");
	snprintf(path, sizeof path, "%s/custom.json", dir);
	struct stat st;
	ck_assert_int_eq(stat(path, &st), -1);
	ck_assert_ptr_null(paper_result(&p, "custom"));
	ck_assert_ptr_null(paper_need(&p, "custom", &e));
	ck_assert_str_eq(e.msg,
	                 "needs the result of stage 'custom' (run it first: --stages custom)");

	/* an earlier run saved 41 after 30 seconds */
	const char *saved = "{\"value\": 41, \"seconds\": 30}";
	tu_write(dir, "custom.partial.json", saved, strlen(saved));
	ck_assert_msg(paper_stage(&p, &s, 1, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(runs, 2);
	cJSON *r = paper_need(&p, "custom", &e);
	ck_assert_ptr_nonnull(r);
	ck_assert(paper_json_num(r, "value") == 42);
	ck_assert(paper_json_num(r, "threads") == 3);
	double sec = paper_json_num(r, "seconds");
	ck_assert_msg(sec >= 30 && sec < 60, "seconds %g", sec);
	snprintf(path, sizeof path, "%s/custom.partial.json", dir);
	ck_assert_int_eq(stat(path, &st), -1);
	snprintf(path, sizeof path, "%s/custom.json", dir);
	char *text = slurp(path);
	cJSON *file = cJSON_Parse(text);
	free(text);
	ck_assert(paper_json_num(file, "value") == 42);
	/* (cJSON writes 15 digits when they read back within an ulp) */
	ck_assert(fabs(paper_json_num(file, "seconds") - sec) <= 1e-12 * sec);
	cJSON_Delete(file);
	ck_assert_int_eq(p.nres, 1);
	cJSON_Delete(p.res[0].r);

	/* the next run reads it back */
	p.nres = 0;
	ck_assert_int_eq(paper_stage(&p, &s, 1, &e), 0);
	ck_assert_int_eq(runs, 2);
	ck_assert(paper_json_num(paper_result(&p, "custom"), "value") == 42);
	/* not asked for and not on disk: nothing */
	Stage other = {"other", "another test", st_custom, ""};
	ck_assert_int_eq(paper_stage(&p, &other, 0, &e), 0);
	ck_assert_int_eq(runs, 2);
	ck_assert_ptr_null(paper_result(&p, "other"));
	ck_assert_int_eq(p.nres, 1);
	cJSON_Delete(p.res[0].r);
	dataset_free(dummy);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("paper");
	TCase *t = tcase_create("paper");
	tcase_add_test(t, stage_names);
	tcase_add_test(t, unknown_experiment_or_stage);
	tcase_add_test(t, report_from_stage_files);
	tcase_add_test(t, json_numbers);
	tcase_add_test(t, markdown_flags);
	tcase_add_test(t, markdown_why_links);
	tcase_add_test(t, partial_round_trip);
	tcase_add_test(t, stage_by_hand);
	suite_add_tcase(s, t);
	return tu_run(s);
}
