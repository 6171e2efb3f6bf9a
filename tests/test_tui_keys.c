/* test_tui_keys.c - the key tables (what a key does in each view, in a
 * lesson, and what a lesson refuses), the keys of a terminal too small for
 * the screen (only q acts, and asks before losing work), and the editing of
 * a prompt's text. */
#include <curses.h>

#include "testutil.h"
#include "tui/tui_int.h"

static const char *look(ViewId v, int lesson, int ch, int *refused)
{
	return keys_lookup(v, lesson, ch, refused);
}

START_TEST(tables)
{
	int r;
	for (int v = 0; v < VIEW_COUNT; v++)
		for (int lesson = 0; lesson < 2; lesson++) {
			ck_assert_str_eq(look((ViewId)v, lesson, 'P', &r), "present");
			ck_assert_int_eq(r, 0);
			ck_assert_str_eq(look((ViewId)v, lesson, '1' + v, &r), "view");
			ck_assert_str_eq(look((ViewId)v, lesson, 27, &r), "escape");
		}
	/* a lesson: the arrows play it, the keys that change the network are refused */
	ck_assert_str_eq(look(VIEW_ALG1, 1, KEY_LEFT, &r), "play");
	ck_assert_str_eq(look(VIEW_ALG1, 0, KEY_LEFT, &r), "alg1");
	ck_assert_str_eq(look(VIEW_LAYERS, 1, 's', &r), "operation");
	ck_assert_int_eq(r, 1);
	ck_assert_str_eq(look(VIEW_LAYERS, 0, 's', &r), "operation");
	ck_assert_int_eq(r, 0);
	ck_assert_str_eq(look(VIEW_SQUEEZE, 1, 'y', &r), "squeeze");
	ck_assert_int_eq(r, 1);
	ck_assert_str_eq(look(VIEW_SQUEEZE, 1, 'p', &r), "squeeze");
	ck_assert_int_eq(r, 0);
	/* the history view: < > turn its charts, ↑↓ choose the layer highlighted */
	ck_assert_str_eq(look(VIEW_HISTORY, 1, '<', &r), "history");
	ck_assert_str_eq(look(VIEW_HISTORY, 0, KEY_UP, &r), "layer");
	ck_assert_ptr_null(look(VIEW_LAYERS, 0, 'Z', &r));
}
END_TEST

START_TEST(too_small)
{
	ck_assert_int_eq(keys_small('s', 0, 1), SMALL_NONE);
	ck_assert_int_eq(keys_small('y', 0, 0), SMALL_NONE);
	ck_assert_int_eq(keys_small('q', 0, 1), SMALL_QUIT);
	ck_assert_int_eq(keys_small('q', 0, 0), SMALL_ASK);
	ck_assert_int_eq(keys_small('y', 1, 0), SMALL_QUIT);
	ck_assert_int_eq(keys_small('w', 1, 0), SMALL_UNASK);
}
END_TEST

START_TEST(prompt_editing)
{
	char in[8] = "";
	size_t n = 0;
	const char *typed = "τ=2";
	for (const char *c = typed; *c; c++)
		ck_assert_int_eq(prompt_edit(in, &n, sizeof in, (unsigned char)*c, 0),
		                 PROMPT_EDITED);
	ck_assert_str_eq(in, "τ=2");
	/* backspace takes whole characters back, τ's two bytes at once */
	prompt_edit(in, &n, sizeof in, KEY_BACKSPACE, 0);
	prompt_edit(in, &n, sizeof in, 127, 0);
	ck_assert_str_eq(in, "τ");
	prompt_edit(in, &n, sizeof in, 8, 0);
	ck_assert_str_eq(in, "");
	ck_assert_uint_eq(n, 0);
	/* the buffer's end holds */
	for (int i = 0; i < 20; i++)
		prompt_edit(in, &n, sizeof in, 'x', 0);
	ck_assert_str_eq(in, "xxxxxxx");
	prompt_edit(in, &n, sizeof in, 21, 0); /* Ctrl-U */
	ck_assert_str_eq(in, "");
	ck_assert_int_eq(prompt_edit(in, &n, sizeof in, '\r', 0), PROMPT_ANSWER);
	ck_assert_int_eq(prompt_edit(in, &n, sizeof in, 27, 0), PROMPT_CANCEL);
	/* a y/n question: the key is the answer */
	ck_assert_int_eq(prompt_edit(in, &n, sizeof in, 'n', 1), PROMPT_ANSWER);
	ck_assert_str_eq(in, "n");
	ck_assert_int_eq(prompt_edit(in, &n, sizeof in, 27, 1), PROMPT_CANCEL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tui_keys");
	TCase *tc = tcase_create("keys");
	tcase_add_test(tc, tables);
	tcase_add_test(tc, too_small);
	tcase_add_test(tc, prompt_editing);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
