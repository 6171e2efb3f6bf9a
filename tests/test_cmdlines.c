/* test_cmdlines.c - the command lines of a plan: every word quoted so
 * that a POSIX shell reads it back as it was (checked by running /bin/sh),
 * words that cannot stand on one line refused, paths made absolute,
 * numbers that read back to the same bits, and the options a command
 * passes on to its parts (plan_command). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/cmdlines.h"
#include "testutil.h"

/* The words /bin/sh reads in line, each as "[word]\n". */
static char *shell_words(const char *line)
{
	char *cmd = NULL;
	ck_assert_int_ge(asprintf(&cmd, "set -- %s; for a do printf '[%%s]\\n' \"$a\"; done", line),
	                 0);
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	char *out = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&out, &len);
	int c;
	while ((c = fgetc(p)) != EOF)
		fputc(c, o);
	fclose(o);
	ck_assert_int_eq(pclose(p), 0);
	free(cmd);
	return out;
}

START_TEST(quoting_reads_back)
{
	static const char *words[] = {"plain", "a b",  "it's",   "$HOME",      "`id`",      "",
	                              "=x",    "a\\b", "*.json", "semi;colon", "tab\there", "\"q\"",
	                              "x=1",   "élan", "--lr",   "a'b'c",      "!",         "~"};
	int n = (int)(sizeof words / sizeof *words);
	Err e;
	char *line = TU_WRITTEN(for (int i = 0; i < n; i++)
	                            ck_assert_int_eq(plan_word(f, "--x", words[i], i == 0, &e), 0));
	char *want = NULL;
	size_t wlen = 0;
	FILE *w = open_memstream(&want, &wlen);
	for (int i = 0; i < n; i++)
		fprintf(w, "[%s]\n", words[i]);
	fclose(w);
	char *got = shell_words(line);
	ck_assert_msg(!strcmp(got, want), "line: %s\ngot:\n%s\nwanted:\n%s", line, got, want);
	free(got);
	free(want);
	free(line);
}
END_TEST

START_TEST(quoting_only_when_needed)
{
	Err e;
	char *s = TU_WRITTEN(plan_word(f, "--x", "/a/b-c_d.e:f,g@h%i+j=k", 1, &e));
	ck_assert_str_eq(s, "/a/b-c_d.e:f,g@h%i+j=k");
	free(s);
	/* after a space unless first; an empty word and a leading = are quoted */
	s = TU_WRITTEN(plan_word(f, "--x", "a", 0, &e); plan_word(f, "--x", "", 0, &e);
	               plan_word(f, "--x", "=a", 0, &e); plan_word(f, "--x", "it's", 0, &e));
	ck_assert_str_eq(s, " a '' '=a' 'it'\\''s'");
	free(s);
}
END_TEST

START_TEST(one_line_words)
{
	Err e;
	static const char *bad[] = {"a\nb", "a\rb", "a\x1b[31m", "a\x7f"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char *s = TU_WRITTEN(ck_assert_int_eq(plan_word(f, "--json", bad[i], 0, &e), -1));
		ck_assert_str_eq(s, ""); /* nothing written */
		free(s);
		ck_assert_msg(strstr(e.msg, "--json: '") == e.msg, "%s", e.msg);
		ck_assert_ptr_nonnull(strstr(e.msg, "and a plan holds one command a line"));
	}
	ck_assert_int_eq(plan_word(stdout, "--json", "a\nb", 0, &e), -1);
	ck_assert_str_eq(e.msg, "--json: 'a\\nb' holds a line feed (byte 2), and a plan holds one "
	                        "command a line");
	ck_assert_int_eq(plan_check_path("--load", "m\r.model", &e), -1);
	/* the path as it would be written: absolute */
	ck_assert(strstr(e.msg, "--load: '/") == e.msg);
	ck_assert_ptr_nonnull(strstr(e.msg, "/m\\r.model' holds a carriage return (byte "));
	ck_assert_int_eq(plan_check_path("--load", "m.model", &e), 0);
}
END_TEST

START_TEST(paths_made_absolute)
{
	Err e;
	ck_assert_int_eq(chdir(tu_tmpdir()), 0);
	char cwd[PATH_MAX], want[PATH_MAX + 64];
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
	char *s = TU_WRITTEN(plan_path(f, "--load", "x/m.model", &e));
	snprintf(want, sizeof want, " %s/x/m.model", cwd);
	ck_assert_str_eq(s, want);
	free(s);
	s = TU_WRITTEN(plan_path(f, "--load", "./m.model", &e));
	snprintf(want, sizeof want, " %s/m.model", cwd);
	ck_assert_str_eq(s, want);
	free(s);
	s = TU_WRITTEN(plan_path(f, "--load", "/abs/m.model", &e));
	ck_assert_str_eq(s, " /abs/m.model");
	free(s);
	/* made absolute, then quoted as a whole */
	s = TU_WRITTEN(plan_path(f, "--load", "my model", &e));
	snprintf(want, sizeof want, "[%s/my model]\n", cwd);
	char *got = shell_words(s);
	ck_assert_str_eq(got, want);
	free(got);
	free(s);
}
END_TEST

START_TEST(numbers_read_back)
{
	char buf[64];
	ck_assert_str_eq(plan_num(0.1, buf, sizeof buf), "0.1");
	ck_assert_str_eq(plan_num(25, buf, sizeof buf), "25");
	ck_assert_str_eq(plan_num(1e-300, buf, sizeof buf), "1e-300");
	const double v[] = {1.0 / 3, 0.1 + 0.2, 2.0 / 3 * 1e-7, 123456.789012345678,
	                    nextafter(1, 2)};
	for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
		plan_num(v[i], buf, sizeof buf);
		ck_assert_msg(strtod(buf, NULL) == v[i], "%s does not read back as %.17g", buf,
		              v[i]);
	}
	/* 15 digits when they are enough, 17 only when not */
	ck_assert_str_eq(plan_num(0.1 + 0.2, buf, sizeof buf), "0.30000000000000004");
}
END_TEST

/* The start of every line of a plan: condnet itself, the command, and the
 * options given that go on to every part, the files among them absolute
 * and the data directory added for a fetched data set. */
START_TEST(command_passes_options_on)
{
	Err e;
	const char *dir = tu_tmpdir();
	ck_assert_int_eq(chdir(dir), 0);
	char cwd[PATH_MAX];
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
	setenv("CONDNET_DATA", "/data dir", 1);
	enum { OPT_N = OPTS_OWN, OPT_OUT };
	static const struct option own[] = {
	    {"n", required_argument, NULL, OPT_N}, {"out", required_argument, NULL, OPT_OUT}, {0}};
	static const char *const skip[] = {"out", "json", NULL};
	char *argv[] = {"sweep",          "--lr",    "0.01", "--json", "r.json",
	                "--load",         "m.model", "word", "--data", "mnist",
	                "--reproducible", "--n",     "3",    "--out",  "plan",
	                "--quiet",        NULL};
	int argc = (int)(sizeof argv / sizeof *argv) - 1;
	char *line = plan_command("sweep", argc, argv, OPTS_ALL, own, skip, "mnist", &e);
	ck_assert_msg(line != NULL, "%s", e.msg);
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	ck_assert_int_gt(n, 0);
	exe[n] = '\0';
	char want[4 * PATH_MAX];
	snprintf(want, sizeof want,
	         "[%s]\n[sweep]\n[--lr]\n[0.01]\n[--load]\n[%s/m.model]\n[--data]\n[mnist]\n"
	         "[--reproducible]\n[--n]\n[3]\n[--quiet]\n[--data-dir]\n[/data dir]\n",
	         exe, cwd);
	char *got = shell_words(line);
	ck_assert_msg(!strcmp(got, want), "line: %s\ngot:\n%s\nwanted:\n%s", line, got, want);
	free(got);
	free(line);

	/* a --data-dir given is passed on (absolute), not added; csv files are
	 * made absolute inside their spec; no data directory for them */
	char *argv2[] = {"sweep", "--data-dir", "d", "--data", "csv:a.csv,/t/b.csv", NULL};
	line = plan_command("sweep", 5, argv2, OPTS_ALL, NULL, NULL, "mnist", &e);
	ck_assert_ptr_nonnull(line);
	snprintf(want, sizeof want,
	         "[%s]\n[sweep]\n[--data-dir]\n[%s/d]\n[--data]\n[csv:%s/a.csv,/t/b.csv]\n", exe,
	         cwd, cwd);
	got = shell_words(line);
	ck_assert_msg(!strcmp(got, want), "line: %s\ngot:\n%s\nwanted:\n%s", line, got, want);
	free(got);
	free(line);

	/* a value that cannot stand on one line is refused, naming its option */
	char *argv3[] = {"sweep", "--lr", "0.01", "--load", "m\n.model", NULL};
	ck_assert_ptr_null(plan_command("sweep", 5, argv3, OPTS_ALL, NULL, NULL, NULL, &e));
	ck_assert(strstr(e.msg, "--load: '") == e.msg);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cmdlines");
	TCase *t = tcase_create("cmdlines");
	tcase_add_test(t, quoting_reads_back);
	tcase_add_test(t, quoting_only_when_needed);
	tcase_add_test(t, one_line_words);
	tcase_add_test(t, paths_made_absolute);
	tcase_add_test(t, numbers_read_back);
	tcase_add_test(t, command_passes_options_on);
	suite_add_tcase(s, t);
	return tu_run(s);
}
