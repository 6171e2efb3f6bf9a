/* test_err.c - base/err.c and base/list.c: a message is printable whatever
 * it quotes (control bytes, C1 controls, bytes that are not UTF-8 written
 * out; UTF-8 kept), and a list's empty element is refused. */
#include "base/err.h"
#include "base/list.h"
#include "testutil.h"

START_TEST(test_messages_are_printable)
{
	Err e;
	err_set(&e, "f.csv:2: '%s' is not a number", "a\033]0;x\007b\r\n\tc");
	ck_assert_str_eq(e.msg, "f.csv:2: 'a\\x1b]0;x\\x07b\\r\\n\tc' is not a number");
	/* C1 controls as UTF-8, bytes that are not UTF-8, overlong forms; UTF-8 kept */
	err_set(&e, "'%s'",
	        "\xc2\x9b"
	        "\xff"
	        "\xc0\xaf"
	        "κ→β");
	ck_assert_str_eq(e.msg, "'\\xc2\\x9b\\xff\\xc0\\xafκ→β'");
	/* a prefix is held to the same rule */
	err_set(&e, "bad");
	err_prefix(&e, "log\x1b:%d", 3);
	ck_assert_str_eq(e.msg, "log\\x1b:3: bad");
	/* cut at a whole character */
	char out[8];
	err_printable("ab\033cd", out, sizeof out);
	ck_assert_str_eq(out, "ab\\x1bc");
	err_printable("aκκκ", out, 6);
	ck_assert_str_eq(out, "aκκ");
}
END_TEST

START_TEST(test_lists_refuse_an_empty_element)
{
	const char *bad[] = {"30,,10", ",30", "30,", "", ","};
	const int nth[] = {2, 1, 2, 1, 1};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		const char *p = bad[i], *item;
		size_t len;
		int n = 0, r;
		Err e = {{0}};
		while ((r = list_next(&p, &item, &len, &n, "--tau", bad[i], &e)) > 0)
			;
		ck_assert_int_eq(r, -1);
		ck_assert_int_eq(n, nth[i]);
		ck_assert_ptr_nonnull(strstr(e.msg, "has an empty element"));
	}
	const char *p = "3,5,10", *item;
	size_t len;
	int n = 0;
	Err e;
	ck_assert_int_eq(list_next(&p, &item, &len, &n, "--tau", "3,5,10", &e), 1);
	ck_assert_int_eq(len, 1);
	ck_assert_int_eq(list_next(&p, &item, &len, &n, "--tau", "3,5,10", &e), 1);
	ck_assert_int_eq(list_next(&p, &item, &len, &n, "--tau", "3,5,10", &e), 1);
	ck_assert_int_eq(len, 2);
	ck_assert_int_eq(strncmp(item, "10", 2), 0);
	ck_assert_int_eq(list_next(&p, &item, &len, &n, "--tau", "3,5,10", &e), 0);
	ck_assert_int_eq(n, 3);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("err");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_messages_are_printable);
	tcase_add_test(tc, test_lists_refuse_an_empty_element);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
