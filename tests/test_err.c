/* test_err.c - base/err.c and base/list.c: a message is printable whatever
 * it quotes (control bytes, C1 controls, bytes that are not UTF-8 written
 * out; UTF-8 kept); one too long for its 1,023 bytes keeps its reason, the
 * texts it quotes shortened with "…" (and so does a prefix added to it);
 * and a list's empty element is refused. */
#include <stdlib.h>
#include <string.h>

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

/* A text of n bytes: c repeated, its first and last bytes marked. */
static char *text_of(size_t n, char c)
{
	char *t = malloc(n + 1);
	ck_assert_ptr_nonnull(t);
	memset(t, c, n);
	t[0] = '<';
	t[n - 1] = '>';
	t[n] = '\0';
	return t;
}

/* 1 when s ends with end. */
static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), k = strlen(end);
	return n >= k && !strcmp(s + n - k, end);
}

START_TEST(test_a_long_message_keeps_its_reason)
{
	Err e;
	char *spec = text_of(3000, '8'), *path = text_of(900, 'p');
	const char *reason = ": expected a width at column 2999, found 'x'";
	err_set(&e, "layers \"%s\"%s", spec, reason);
	ck_assert_uint_le(strlen(e.msg), 1023);
	ck_assert(ends_with(e.msg, reason));
	ck_assert(!strncmp(e.msg, "layers \"<888", 12)); /* the quote's start and end kept */
	ck_assert_ptr_nonnull(strstr(e.msg, "8…8"));
	ck_assert_ptr_nonnull(strstr(e.msg, "88>\""));
	/* a prefix shortens the quote again, not the reason */
	err_prefix(&e, "--layers");
	ck_assert_uint_le(strlen(e.msg), 1023);
	ck_assert(!strncmp(e.msg, "--layers: layers \"<", 19));
	ck_assert(ends_with(e.msg, reason));
	/* a long prefix's own quote goes first */
	err_prefix(&e, "%s:%d", path, 12);
	ck_assert_uint_le(strlen(e.msg), 1023);
	ck_assert(ends_with(e.msg, reason));
	ck_assert_ptr_nonnull(strstr(e.msg, ">:12: --layers: layers \"<"));
	/* two quotes: the longest is shortened, the short one kept whole */
	err_set(&e, "%s: '%s': %d is not %.2f", "short.csv", spec, 7, 2.5);
	ck_assert_uint_le(strlen(e.msg), 1023);
	ck_assert(!strncmp(e.msg, "short.csv: '<", 13));
	ck_assert(ends_with(e.msg, "88>': 7 is not 2.50"));
	/* a message copied into another Err and prefixed: its middle goes */
	Err copy = e;
	err_prefix(&copy, "%s", path);
	ck_assert_uint_le(strlen(copy.msg), 1023);
	ck_assert(ends_with(copy.msg, "88>': 7 is not 2.50"));
	/* what err_printable writes out is not cut inside an escape */
	char *ctl = text_of(2000, '\033');
	err_set(&e, "'%s': the reason", ctl);
	ck_assert(ends_with(e.msg, "': the reason"));
	const char *cut = strstr(e.msg, "…");
	ck_assert_ptr_nonnull(cut);
	ck_assert(!strncmp(cut - 4, "\\x1b…\\x1b", 11));
	/* UTF-8 stays whole */
	char *utf = malloc(3001);
	for (int i = 0; i < 1500; i++)
		memcpy(utf + 2 * i, "κ", 2);
	utf[3000] = '\0';
	err_set(&e, "'%s' is too long", utf);
	ck_assert(ends_with(e.msg, "κ' is too long"));
	ck_assert_ptr_nonnull(strstr(e.msg, "κ…κ"));
	/* a message that fits is as formatted */
	err_set(&e, "%s %5.1f%% %ld %zu %c %x", "ok", 12.25, -3L, (size_t)9, 'y', 255u);
	ck_assert_str_eq(e.msg, "ok  12.2% -3 9 y ff");
	free(spec);
	free(path);
	free(ctl);
	free(utf);
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
	tcase_add_test(tc, test_a_long_message_keeps_its_reason);
	tcase_add_test(tc, test_lists_refuse_an_empty_element);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
