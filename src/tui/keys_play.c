/* tui/keys_play.c - a lesson's screens as the keys reach them: the view
 * and chart each shows, whichever way it was reached, and the next step
 * played at the speed the lesson names. */
#include <math.h>

#include "tui/tui_int.h"

void tui_show_view(Tui *t, int view, int arg)
{
	t->u.view = (ViewId)view;
	if (view == VIEW_HISTORY && arg >= 0)
		t->u.hist_page = arg;
	else if (view == VIEW_PLANE && arg > 0)
		t->u.plane_layer = arg;
	else if (view == VIEW_NETWORK && arg > 0)
		t->u.net_col = arg, t->u.net_row = 0;
	else if (arg > 0)
		t->u.layer = arg;
}

void tui_show_screen(Tui *t, LessonScreen sc)
{
	UiState *u = &t->u;
	int arg, v = lesson_screen_view(t->lesson, sc, &arg);
	/* the view as the screen shows it, whichever way it was reached: its
	 * scrolling from the start, its chart or layer the lesson's */
	u->panel = PANEL_NONE;
	u->it_first = -1;
	u->row_first = 0;
	u->plane_panel = 0;
	u->plane_layer = 0;
	u->plane_seen = 0;
	u->plane_key = 0;
	u->hist_page = 0;
	u->layer = 1;
	u->net_col = u->net_row = u->net_first = 0;
	u->net_seen = 0;
	u->net_lesson = 0;
	tui_show_view(t, v, arg);
}

void tui_play_next(Tui *t)
{
	const Shown *p = worker_lock(t->w);
	LessonScreen sc = {p->play_pos, p->sq.waiting};
	worker_unlock(t->w);
	/* the screen after this step: a squeeze's proposal, or the next position */
	int squeeze = sc.pos < t->lesson->n && t->lesson->a[sc.pos].kind == SESS_SQUEEZE;
	LessonScreen to =
	    squeeze && !sc.proposal ? (LessonScreen){sc.pos, 1} : (LessonScreen){sc.pos + 1, 0};
	if (sc.pos < t->lesson->n)
		tui_show_screen(t, to);
	/* the speed the lesson names for this action, unless --speed said one */
	Err e = {{0}};
	if (sc.pos < t->lesson->n && !t->speed_given && !isnan(t->lesson->speed[sc.pos]) &&
	    worker_set_speed(t->w, t->lesson->speed[sc.pos], &e) < 0)
		worker_status(t->w, 1, "the lesson's speed: %s", e.msg);
	Job j = {.kind = JOB_PLAY_NEXT};
	tui_submit(t, &j);
}
