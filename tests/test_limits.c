/* test_limits.c - the table of limits (engine/limits.c): its messages for
 * text and for values, subnormals "too small", integers, and the widths and
 * parameter count of a network. */
#include <float.h>
#include <math.h>

#include "engine/limits.h"
#include "testutil.h"

static void refused(LimitId id, const char *name, const char *s, const char *want)
{
	Err e = {{0}};
	double v;
	ck_assert_msg(limit_parse(id, name, s, &v, &e) == -1, "%s accepted '%s'", name, s);
	ck_assert_str_eq(e.msg, want);
}

START_TEST(test_parse)
{
	refused(LIM_LR, "--lr", "1e-320", "--lr: '1e-320' is too small (the least is 1.17549e-38)");
	refused(LIM_LR, "--lr", "1e-39", "--lr: '1e-39' is too small (the least is 1.17549e-38)");
	refused(LIM_LR, "--lr", "1e-400", "--lr: '1e-400' is too small (the least is 1.17549e-38)");
	refused(LIM_LR, "--lr", "1e300", "--lr: '1e300' must be at most 10");
	refused(LIM_LR, "--lr", "1e400", "--lr: '1e400' must be at most 10");
	refused(LIM_LR, "--lr", "inf", "--lr: 'inf' must be at most 10");
	refused(LIM_LR, "--lr", "nan", "--lr: 'nan' is not a number");
	refused(LIM_LR, "--lr", "0", "--lr: '0' is not a positive number");
	refused(LIM_LR, "--lr", "0.1x", "--lr: '0.1x' is not a number");
	refused(LIM_LR, "--lr", "", "--lr: '' is not a number");
	refused(LIM_TAU, "tau", "1", "tau: '1' must be greater than 1");
	refused(LIM_VAL_FRAC, "--val-frac", "1", "--val-frac: '1' must be less than 1");
	refused(LIM_WARMUP, "--warmup", "-1", "--warmup: '-1' must be at least 0");
	refused(LIM_ACT_SCALE, "act_a", "1e300", "act_a: '1e300' must be at most 1e+06");
	refused(LIM_BETA, "β", "1e-12", "β: '1e-12' is too small (the least is 1e-09)");
	refused(LIM_Q, "--q", "0", "--q: '0' is not a positive integer");
	refused(LIM_Q, "--q", "1001", "--q: '1001' is out of range (1..1000)");
	refused(LIM_THREADS, "--threads", "2.5", "--threads: '2.5' is not a positive integer");
	Err e = {{0}};
	double v;
	ck_assert_int_eq(limit_parse(LIM_LR, "--lr", "1.2e-38", &v, &e), 0);
	ck_assert(v == 1.2e-38);
	ck_assert_int_eq(limit_parse(LIM_WARMUP, "--warmup", "0", &v, &e), 0);
	ck_assert_int_eq(limit_parse(LIM_TAU, "--tau", "1e12", &v, &e), 0);
	int q;
	ck_assert_int_eq(limit_parse_int(LIM_Q, "--q", "1000", &q, &e), 0);
	ck_assert_int_eq(q, 1000);
}
END_TEST

START_TEST(test_check_values)
{
	Err e = {{0}};
	ck_assert_int_eq(limit_check(LIM_ACT_SCALE, 1e30, "m: scale", NULL, &e), -1);
	ck_assert_str_eq(e.msg, "m: scale: 1e+30 must be at most 1e+06");
	ck_assert_int_eq(limit_check(LIM_ADAM_STEPS, 9223372036854775807.0, "steps", NULL, &e), -1);
	ck_assert_str_eq(e.msg, "steps: 9.22337204e+18 must be at most 9.0072e+15");
	ck_assert_int_eq(limit_check(LIM_ADAM_STEPS, (double)LIMIT_MAX_STEPS, "s", NULL, &e), 0);
	ck_assert_int_eq(limit_check(LIM_BATCH, 2.5, "batch", NULL, &e), -1);
	ck_assert_str_eq(e.msg, "batch: 2.5 is not a whole number");
	ck_assert_int_eq(limit_check(LIM_LR, NAN, "lr", NULL, &e), -1);
	ck_assert_str_eq(e.msg, "lr: nan is not a number");
	ck_assert_int_eq(limit_check(LIM_LR, 1e-3, "lr", NULL, NULL), 0);
	ck_assert_int_eq(limit_check(LIM_COUNT, 1, "x", NULL, &e), -1);
}
END_TEST

START_TEST(test_widths)
{
	Err e = {{0}};
	uint64_t np;
	int w[] = {200, 600, 600, 10};
	ck_assert_int_eq(limit_check_widths(3, w, "a net", &np, &e), 0);
	ck_assert_uint_eq(np, 201 * 600 + 601 * 600 + 601 * 10);
	int big[] = {10, 100000, 100000, 3};
	ck_assert_int_eq(limit_check_widths(3, big, "a 2x100000 network", &np, &e), -1);
	ck_assert_str_eq(e.msg, "a 2x100000 network has 10001500003 parameters, more than condnet "
	                        "trains (1073741824)");
	int wide[] = {10, 20000000, 3};
	ck_assert_int_eq(limit_check_widths(2, wide, "a net", &np, &e), -1);
	ck_assert_str_eq(e.msg, "a net: width n[1]: 20000000 must be at most 1e+07");
	int zero[] = {10, 0, 3};
	ck_assert_int_eq(limit_check_widths(2, zero, "a net", &np, &e), -1);
	ck_assert_str_eq(e.msg, "a net: width n[1]: 0 must be at least 1");
	ck_assert_int_eq(limit_check_widths(0, zero, "a net", &np, &e), -1);
	ck_assert_str_eq(e.msg, "a net: its layers: 0 must be at least 1");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("limits");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_check_values);
	tcase_add_test(tc, test_widths);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
