/* test_tui_layout.c - the screen's rows: the frame at 80x24 and 200x60, a
 * caption that grows its panel (and takes the view's place when it cannot
 * fit beside one), and presentation mode, which gives the view everything
 * but a title row, the caption and the narration. */
#include "testutil.h"
#include "tui/layout.h"

static Layout lay(int cols, int lines, int present, int caption, int narration, int busy,
                  int bottom)
{
	LayoutIn in = {cols, lines, present, caption, narration, busy, bottom, 0};
	Layout o;
	layout_compute(&in, &o);
	return o;
}

START_TEST(frame_at_80x24)
{
	Layout o = lay(80, 24, 0, 0, 0, 0, 0);
	ck_assert_int_eq(o.header_rows, 2);
	ck_assert_int_eq(o.tabs, 2);
	ck_assert_int_eq(o.cap_rows, 0);
	ck_assert_int_eq(o.body_top, 3);
	ck_assert_int_eq(o.body_bot, 18);
	ck_assert_int_eq(o.narr_top, 19);
	ck_assert_int_eq(o.prog_row, 20);
	ck_assert_int_eq(o.set_row, 21);
	ck_assert_int_eq(o.status_row, 22);
	ck_assert_int_eq(o.footer_row, 23);
}
END_TEST

START_TEST(caption_grows_its_panel)
{
	Layout o = lay(80, 24, 0, 4, 0, 0, 0);
	ck_assert_int_eq(o.cap_top, 3);
	ck_assert_int_eq(o.cap_rows, 4);
	ck_assert_int_eq(o.caption_page, 0);
	ck_assert_int_eq(o.body_top, 8); /* a blank row after it */
	ck_assert_int_eq(o.body_bot, 18);
	LayoutIn in = {80, 24, 0, 1, 0, 0, 0, 0};
	ck_assert_int_eq(layout_caption_max(&in), 7);
	/* longer than that: the caption has the view's place, whole */
	o = lay(80, 24, 0, 8, 0, 0, 0);
	ck_assert_int_eq(o.caption_page, 1);
	ck_assert_int_eq(o.cap_rows, 16);
	ck_assert_int_gt(o.body_top, o.body_bot);
	/* on a tall screen it stays beside the view */
	o = lay(200, 60, 0, 8, 0, 0, 0);
	ck_assert_int_eq(o.caption_page, 0);
	ck_assert_int_eq(o.body_top, 12);
}
END_TEST

START_TEST(presentation_gives_the_view_the_screen)
{
	Layout o = lay(80, 24, 1, 0, 2, 0, 0);
	ck_assert_int_eq(o.header_rows, 1);
	ck_assert_int_eq(o.tabs, -1);
	ck_assert_int_eq(o.footer_row, -1);
	ck_assert_int_eq(o.status_row, -1);
	ck_assert_int_eq(o.set_row, -1);
	ck_assert_int_eq(o.prog_row, -1);
	ck_assert_int_eq(o.narr_top, 1);
	ck_assert_int_eq(o.narr_rows, 2);
	ck_assert_int_eq(o.body_top, 4);
	ck_assert_int_eq(o.body_bot, 23); /* to the last row */
	/* a lesson: the caption, then its action's narration, then the view */
	o = lay(80, 24, 1, 5, 2, 0, 0);
	ck_assert_int_eq(o.cap_top, 1);
	ck_assert_int_eq(o.cap_rows, 5);
	ck_assert_int_eq(o.narr_top, 6);
	ck_assert_int_eq(o.body_top, 9);
	/* an operation runs and a prompt is open: one row each at the bottom */
	o = lay(80, 24, 1, 0, 0, 1, 1);
	ck_assert_int_eq(o.status_row, 23);
	ck_assert_int_eq(o.prog_row, 22);
	ck_assert_int_eq(o.body_top, 1);
	ck_assert_int_eq(o.body_bot, 21);
	/* more view than outside presentation mode, at either size */
	Layout n = lay(80, 24, 0, 5, 0, 0, 0);
	o = lay(80, 24, 1, 5, 2, 0, 0);
	ck_assert_int_ge(o.body_bot - o.body_top, n.body_bot - n.body_top + 3);
	n = lay(200, 60, 0, 3, 0, 0, 0);
	o = lay(200, 60, 1, 3, 3, 0, 0);
	ck_assert_int_ge(o.body_bot - o.body_top, n.body_bot - n.body_top + 3);
}
END_TEST

/* Presentation mode: a caption longer than a quarter of the rows folds to
 * one, the view keeping the rest; c opens it whole; at 200x60 a caption of
 * that length stays whole. */
START_TEST(a_long_caption_folds)
{
	Layout o = lay(80, 24, 1, 6, 2, 0, 0);
	ck_assert_int_eq(o.caption_folded, 1);
	ck_assert_int_eq(o.cap_rows, 1);
	ck_assert_int_eq(o.narr_top, 2);
	ck_assert_int_eq(o.body_top, 5);
	ck_assert_int_eq(o.body_bot, 23);
	/* at most a quarter of the rows: whole */
	o = lay(80, 24, 1, 5, 2, 0, 0);
	ck_assert_int_eq(o.caption_folded, 0);
	ck_assert_int_eq(o.cap_rows, 5);
	LayoutIn in = {80, 24, 1, 6, 2, 0, 0, 1};
	layout_compute(&in, &o);
	ck_assert_int_eq(o.caption_folded, 0);
	ck_assert_int_eq(o.cap_rows, 6);
	o = lay(200, 60, 1, 6, 3, 0, 0);
	ck_assert_int_eq(o.caption_folded, 0);
	ck_assert_int_ge(o.body_bot - o.body_top + 1, 48); /* the view has 80 % of 60 */
	/* outside presentation mode nothing folds */
	o = lay(80, 24, 0, 6, 0, 0, 0);
	ck_assert_int_eq(o.caption_folded, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tui_layout");
	TCase *tc = tcase_create("layout");
	tcase_add_test(tc, frame_at_80x24);
	tcase_add_test(tc, caption_grows_its_panel);
	tcase_add_test(tc, presentation_gives_the_view_the_screen);
	tcase_add_test(tc, a_long_caption_folds);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
