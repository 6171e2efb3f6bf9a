/* test_cli.c - the options every command shares: strict numbers
 * (opts_int, opts_double), the common options parsed into CommonOpts
 * (opts_handle), a command line taken apart by opts_parse (its exit
 * codes and messages), and the defaults that depend on the data set. */
#include <math.h>

#include "cli/cli.h"
#include "testutil.h"

START_TEST(ints)
{
	Err e;
	int v = -7;
	ck_assert_int_eq(opts_int("--n", "42", 1, 100, &v, &e), 0);
	ck_assert_int_eq(v, 42);
	ck_assert_int_eq(opts_int("--n", "1", 1, 100, &v, &e), 0);
	ck_assert_int_eq(opts_int("--n", "100", 1, 100, &v, &e), 0);
	ck_assert_int_eq(v, 100);
	ck_assert_int_eq(opts_int("--n", "101", 1, 100, &v, &e), -1);
	ck_assert_str_eq(e.msg, "--n: '101' is out of range (1..100)");
	ck_assert_int_eq(v, 100); /* unchanged on failure */
	ck_assert_int_eq(opts_int("--n", "0", 1, 100, &v, &e), -1);
	ck_assert_str_eq(e.msg, "--n: '0' is not a positive integer");
	ck_assert_int_eq(opts_int("--n", "-1", 0, 9, &v, &e), -1);
	ck_assert_str_eq(e.msg, "--n: '-1' is not a non-negative integer");
	/* no trailing text, no fraction, no empty value */
	const char *bad[] = {"4x", "2.5", "", " ", "1e3", "99999999999999999999"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		ck_assert_msg(opts_int("--n", bad[i], -5, 5, &v, &e) == -1, "'%s' taken", bad[i]);
		ck_assert_msg(strstr(e.msg, "--n: '") == e.msg, "%s", e.msg);
	}
	ck_assert_int_eq(opts_int("--n", "-5", -5, 5, &v, &e), 0);
	ck_assert_int_eq(v, -5);
}
END_TEST

START_TEST(doubles)
{
	Err e;
	double x = -1;
	ck_assert_int_eq(opts_double("--x", "0.25", 0, 1, 1, &x, &e), 0);
	ck_assert(x == 0.25);
	ck_assert_int_eq(opts_double("--x", "1e-3", 0, 1, 1, &x, &e), 0);
	ck_assert(x == 1e-3);
	/* an open lower end refuses the end itself */
	ck_assert_int_eq(opts_double("--x", "0", 0, 1, 1, &x, &e), -1);
	ck_assert_str_eq(e.msg, "--x: '0' is not a positive number");
	ck_assert_int_eq(opts_double("--x", "1", 1, 1, 10, &x, &e), -1);
	ck_assert_str_eq(e.msg, "--x: '1' must be greater than 1");
	/* a closed one takes it */
	ck_assert_int_eq(opts_double("--x", "1", 1, 0, 10, &x, &e), 0);
	ck_assert(x == 1);
	ck_assert_int_eq(opts_double("--x", "0.5", 1, 0, 10, &x, &e), -1);
	ck_assert_str_eq(e.msg, "--x: '0.5' must be at least 1");
	ck_assert_int_eq(opts_double("--x", "10.5", 1, 0, 10, &x, &e), -1);
	ck_assert_str_eq(e.msg, "--x: '10.5' must be at most 10");
	ck_assert(x == 1);
	const char *bad[] = {"", "abc", "1.5x", "nan", "inf", "-inf", "1e999"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		ck_assert_msg(opts_double("--x", bad[i], -INFINITY, 0, INFINITY, &x, &e) == -1,
		              "'%s' taken", bad[i]);
		char want[64];
		snprintf(want, sizeof want, "--x: '%s' is not a number", bad[i]);
		ck_assert_str_eq(e.msg, want);
	}
}
END_TEST

START_TEST(common_options)
{
	Err e;
	CommonOpts c;
	opts_default(&c);
	ck_assert_int_eq(c.train.batch, 50);
	ck_assert(c.val_frac == 0.1);
	/* not a common option: left to the command */
	ck_assert_int_eq(opts_handle(&c, OPTS_OWN, "x", &e), 0);
	ck_assert_int_eq(opts_handle(&c, OPTS_BATCH, "64", &e), 1);
	ck_assert_int_eq(c.train.batch, 64);
	ck_assert_int_eq(opts_handle(&c, OPTS_SEED, "7", &e), 1);
	ck_assert(c.seed == 7 && c.train.seed == 7);
	ck_assert_int_eq(opts_handle(&c, OPTS_SEED, "-7", &e), -1);
	ck_assert_str_eq(e.msg, "--seed: '-7' is not a non-negative integer");
	ck_assert(c.seed == 7);
	ck_assert_int_eq(opts_handle(&c, OPTS_LR, "0.01", &e), 1);
	ck_assert(c.train.adam.lr == 0.01);
	ck_assert_int_eq(opts_handle(&c, OPTS_LR, "0", &e), -1);
	ck_assert(strstr(e.msg, "--lr") == e.msg);
	ck_assert_int_eq(opts_handle(&c, OPTS_LAYERS, "3x16", &e), 1);
	ck_assert_str_eq(c.layers, "3x16");
	ck_assert_int_eq(opts_handle(&c, OPTS_LAYERS, "3y16", &e), -1);
	ck_assert(strstr(e.msg, "--layers: ") == e.msg);
	ck_assert_str_eq(c.layers, "3x16");
	ck_assert_int_eq(opts_handle(&c, OPTS_ACT, "swish", &e), -1);
	ck_assert(strstr(e.msg, "--act: ") == e.msg);
	ck_assert_int_eq(opts_handle(&c, OPTS_DATA, "mnist", &e), 1);
	ck_assert_str_eq(c.data.spec, "mnist");
	ck_assert_int_eq(opts_handle(&c, OPTS_DATA, "iris", &e), -1);
	ck_assert(strstr(e.msg, "--data: unknown data set 'iris'") == e.msg);
	ck_assert_int_eq(opts_handle(&c, OPTS_CENTER, NULL, &e), 1);
	ck_assert_int_eq(c.data.scale, DATA_CENTER);
	ck_assert_int_eq(opts_handle(&c, OPTS_STANDARDIZE, NULL, &e), 1);
	ck_assert_int_eq(c.data.scale, DATA_STANDARDIZE);
	/* the last of --val-per-class and --val-frac holds */
	ck_assert_int_eq(opts_handle(&c, OPTS_VAL_PER_CLASS, "30", &e), 1);
	ck_assert_int_eq(c.val_per_class, 30);
	ck_assert_int_eq(opts_handle(&c, OPTS_VAL_FRAC, "0.2", &e), 1);
	ck_assert(c.val_frac == 0.2);
	ck_assert_int_eq(c.val_per_class, 0);
	/* a schedule or a warm-up given is remembered */
	ck_assert_int_eq(c.sched_given, 0);
	ck_assert_int_eq(opts_handle(&c, OPTS_SCHEDULE, "bogus", &e), -1);
	ck_assert(strstr(e.msg, "--schedule: ") == e.msg);
	ck_assert_int_eq(c.sched_given, 0);
	ck_assert_int_eq(opts_handle(&c, OPTS_WARMUP, "2", &e), 1);
	ck_assert(c.train.sched.warmup == 2);
	ck_assert_int_eq(c.sched_given, 1);
	ck_assert_int_eq(opts_handle(&c, OPTS_QUIET, NULL, &e), 1);
	ck_assert_int_eq(c.quiet, 1);
}
END_TEST

/* ---- opts_parse ---- */

enum { OPT_N = OPTS_OWN, OPT_FLAG };

static const struct option own[] = {
    {"n", required_argument, NULL, OPT_N}, {"flag", no_argument, NULL, OPT_FLAG}, {0}};

typedef struct Own {
	int n, flag;
} Own;

static int own_fn(int opt, const char *arg, void *ud, Err *e)
{
	Own *o = ud;
	if (opt == OPT_N)
		return opts_int("--n", arg, 1, 9, &o->n, e);
	if (opt == OPT_FLAG)
		o->flag = 1;
	return 0;
}

/* opts_parse of the words (a NULL-terminated list, the command first), with
 * what it printed to standard error in err. */
static int parse(CommonOpts *c, Own *o, int *first, char *err, size_t len, char **words)
{
	int argc = 0;
	while (words[argc])
		argc++;
	fflush(stderr);
	FILE *tmp = tmpfile();
	ck_assert_ptr_nonnull(tmp);
	int saved = dup(2);
	dup2(fileno(tmp), 2);
	int rc = opts_parse(argc, words, c, NULL, own, own_fn, o, "usage: condnet test\n", first);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	size_t n = fread(err, 1, len - 1, tmp);
	err[n] = '\0';
	fclose(tmp);
	return rc;
}

START_TEST(parse_command_lines)
{
	CommonOpts c;
	Own o = {0};
	char err[512];
	int first = -1;
	opts_default(&c);
	char *ok[] = {"test",           "--batch", "10",     "--n", "3", "--flag",
	              "--reproducible", "a",       "--seed", "5",   "b", NULL};
	ck_assert_int_eq(parse(&c, &o, &first, err, sizeof err, ok), 0);
	ck_assert_str_eq(err, "");
	ck_assert_int_eq(c.train.batch, 10);
	ck_assert(c.seed == 5);
	ck_assert(o.n == 3 && o.flag == 1);
	/* getopt moves the words that are not options to the end */
	ck_assert_int_eq(first, 9);
	ck_assert_str_eq(ok[first], "a");
	ck_assert_str_eq(ok[first + 1], "b");

	/* a usage error names the command and the option, and says where help is */
	char *bad_value[] = {"test", "--n", "10", NULL};
	ck_assert_int_eq(parse(&c, &o, &first, err, sizeof err, bad_value), 2);
	ck_assert_str_eq(err, "condnet test: --n: '10' is out of range (1..9)\n");
	char *bad_common[] = {"test", "--batch", "x", NULL};
	ck_assert_int_eq(parse(&c, &o, &first, err, sizeof err, bad_common), 2);
	ck_assert(strstr(err, "condnet test: --batch: 'x'") == err);
	char *unknown[] = {"test", "--nope", NULL};
	ck_assert_int_eq(parse(&c, &o, &first, err, sizeof err, unknown), 2);
	ck_assert_str_eq(err, "condnet test: unknown option '--nope'\n"
	                      "Try 'condnet test --help'.\n");
	char *needs[] = {"test", "--n", NULL};
	ck_assert_int_eq(parse(&c, &o, &first, err, sizeof err, needs), 2);
	ck_assert_str_eq(err, "condnet test: --n needs a value\n"
	                      "Try 'condnet test --help'.\n");
	char *takes_none[] = {"test", "--flag=1", NULL};
	ck_assert_int_eq(parse(&c, &o, &first, err, sizeof err, takes_none), 2);
	ck_assert(strstr(err, "condnet test: --flag=1 takes no value\n") == err);
	/* without room for words, a word is an error */
	char *extra[] = {"test", "--flag", "extra", NULL};
	ck_assert_int_eq(parse(&c, &o, NULL, err, sizeof err, extra), 2);
	ck_assert_str_eq(err, "condnet test: unexpected argument 'extra'\n");
	/* without common options, --batch is unknown to the command */
	char *own_only[] = {"test", "--batch", "3", NULL};
	ck_assert_int_eq(parse(NULL, &o, NULL, err, sizeof err, own_only), 2);
	ck_assert(strstr(err, "condnet test: unknown option '--batch'\n") == err);
}
END_TEST

START_TEST(help)
{
	CommonOpts c;
	Own o = {0};
	char err[64];
	opts_default(&c);
	fflush(stdout);
	FILE *tmp = tmpfile();
	int saved = dup(1);
	dup2(fileno(tmp), 1);
	char *words[] = {"test", "--n", "2", "--help", "--n", "bad", NULL};
	int rc = parse(&c, &o, NULL, err, sizeof err, words);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	ck_assert_int_eq(rc, 1);
	char out[8192];
	rewind(tmp);
	size_t n = fread(out, 1, sizeof out - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
	/* the command's own text first, then the common options' */
	ck_assert(strstr(out, "usage: condnet test\n") == out);
	ck_assert_ptr_nonnull(strstr(out, "--data SPEC"));
	ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(defaults_by_data)
{
	CommonOpts c;
	opts_default(&c);
	ck_assert_str_eq(opts_data_name(&c), "synthetic");
	ck_assert_str_eq(opts_default_layers(NULL), "4x32");
	ck_assert_str_eq(opts_default_layers("mnist"), "12x300");
	ck_assert_str_eq(opts_default_layers("fashion"), "12x300");
	ck_assert_str_eq(opts_default_layers("adult"), "12x50");
	ck_assert_str_eq(opts_default_layers("csv:a.csv,b.csv"), "3x32");
	/* a name is matched whole, not as a prefix */
	ck_assert_str_eq(opts_default_layers("mnistx"), "4x32");
	c.data.spec = "adult";
	ck_assert_str_eq(opts_data_name(&c), "adult");
}
END_TEST

/* A table of options holds every option asked for, however many a command
 * has of its own: sized by opts_table_len, never cut; a table too short is
 * refused whole (it takes no option), never filled in part. */
START_TEST(option_tables)
{
	static char names[40][16];
	struct option many[41];
	for (int i = 0; i < 40; i++) {
		snprintf(names[i], sizeof names[i], "own-%d", i);
		many[i] = (struct option){names[i], no_argument, NULL, OPTS_OWN + i};
	}
	many[40] = (struct option){0};
	int len = opts_table_len(many);
	struct option t[len];
	int n = opts_table(t, len, OPTS_ALL, many);
	ck_assert_int_eq(n, 2 + OPTS_MODE_NOPTIONS + opts_ncommon + 40);
	ck_assert_str_eq(t[n - 1].name, "own-39");
	ck_assert_ptr_null(t[n].name);
	ck_assert_int_eq(opts_table(t, len - 1, OPTS_ALL, many), -1);
	ck_assert_ptr_null(t[0].name);
	/* an own option that names a common one stands for it, once */
	struct option mine[] = {{"seed", required_argument, NULL, OPTS_OWN}, {0}};
	n = opts_table(t, opts_table_len(mine), OPTS_ALL, mine);
	int seeds = 0;
	for (int i = 0; i < n; i++)
		seeds += !strcmp(t[i].name, "seed");
	ck_assert_int_eq(seeds, 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cli");
	TCase *t = tcase_create("cli");
	tcase_add_test(t, ints);
	tcase_add_test(t, doubles);
	tcase_add_test(t, common_options);
	tcase_add_test(t, parse_command_lines);
	tcase_add_test(t, help);
	tcase_add_test(t, defaults_by_data);
	tcase_add_test(t, option_tables);
	suite_add_tcase(s, t);
	return tu_run(s);
}
