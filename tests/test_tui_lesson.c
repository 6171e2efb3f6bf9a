/* test_tui_lesson.c - lessons: the view each action shows (named by a
 * "#view:" line or chosen from its kind), the caption in force at every
 * place, the numbers of a caption, and the shipped lessons' captions held
 * to the state at their actions: every number a caption states is a claim
 * that holds, or is declared not to be the state (the plane lesson's
 * regions included). The MNIST lesson is
 * checked too when CONDNET_LESSON_MNIST=1 and MNIST is fetched (minutes). */
#include <math.h>

#include "data/datasets.h"
#include "testutil.h"
#include "tui/lesson.h"
#include "tui/lesson_claims.h"
#include "tui/views.h"

static const char head[] =
    "data spec=synthetic features=200 label_col=-1 seed=1 limit=0 val_frac=0.1 "
    "val_per_class=0\n"
    "opts batch=50 lr=0.001 threads=1\n"
    "net layers=6,5 act=erf act_a=1 seed=1\n";

/* A lesson file from head and the lines after it; loaded into l. */
static int load(const char *body, Lesson *l, Err *e)
{
	char text[8192];
	snprintf(text, sizeof text, "%s%s", head, body);
	const char *dir = tu_tmpdir();
	char path[1024];
	snprintf(path, sizeof path, "%s", tu_write(dir, "t.lesson", text, strlen(text)));
	return lesson_load(path, l, e);
}

/* A lesson file of head and body (any length), loaded into l. */
static int load_long(const char *body, Lesson *l, Err *e)
{
	size_t n = strlen(head) + strlen(body);
	char *text = malloc(n + 1);
	ck_assert_ptr_nonnull(text);
	snprintf(text, n + 1, "%s%s", head, body);
	char path[1024];
	snprintf(path, sizeof path, "%s", tu_write(tu_tmpdir(), "long.lesson", text, n));
	free(text);
	return lesson_load(path, l, e);
}

/* A caption padded so that "tau 3" falls past the 4,096th byte of its
 * line: the line is refused as a whole (the reader used to take it in
 * pieces, the last one an action no line of the file starts with), by its
 * number, in a message of one short line; so is a longer caption. */
START_TEST(long_line_is_refused_whole)
{
	static const size_t pads[] = {4095 - 3, 6000};
	for (size_t k = 0; k < sizeof pads / sizeof *pads; k++) {
		size_t pad = pads[k];
		char *body = malloc(pad + 64);
		ck_assert_ptr_nonnull(body);
		memcpy(body, "#: ", 3);
		memset(body + 3, 'x', pad);
		snprintf(body + 3 + pad, 64, "%s\ntau 5\n", k == 0 ? "tau 3" : "");
		Lesson l;
		Err e = {{0}};
		ck_assert_int_eq(load_long(body, &l, &e), -1);
		free(body);
		ck_assert_msg(strstr(e.msg, "long.lesson:4: line longer than 4094 bytes"), "%s",
		              e.msg);
		ck_assert_uint_lt(strlen(e.msg), 200);
	}
}
END_TEST

START_TEST(view_names)
{
	Err e = {{0}};
	int v, arg;
	ck_assert_int_eq(lesson_parse_view(" squeeze", &v, &arg, &e), 0);
	ck_assert_int_eq(v, VIEW_SQUEEZE);
	ck_assert_int_eq(arg, -1);
	ck_assert_int_eq(lesson_parse_view(" plane 2", &v, &arg, &e), 0);
	ck_assert_int_eq(v, VIEW_PLANE);
	ck_assert_int_eq(arg, 2);
	/* one way to name a view: by its name, not its number */
	ck_assert_int_eq(lesson_parse_view(" 3", &v, &arg, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "'3' is not a view"));
	ck_assert_int_eq(lesson_parse_view(" spectrum 2 3", &v, &arg, &e), -1);
	ck_assert_int_eq(lesson_parse_view(" history epochs", &v, &arg, &e), 0);
	ck_assert_int_eq(v, VIEW_HISTORY);
	ck_assert_int_eq(arg, 1);
	ck_assert_int_eq(lesson_parse_view(" spectrum 3", &v, &arg, &e), 0);
	ck_assert_int_eq(v, VIEW_SPECTRUM);
	ck_assert_int_eq(arg, 3);
	ck_assert_int_eq(lesson_parse_view(" plot", &v, &arg, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "'plot' is not a view"));
	ck_assert_int_eq(lesson_parse_view(" history weeks", &v, &arg, &e), -1);
	ck_assert_int_eq(lesson_parse_view(" sweep 2", &v, &arg, &e), -1);
}
END_TEST

START_TEST(views_by_kind_and_by_name)
{
	Lesson l;
	Err e = {{0}};
	int arg;
	ck_assert_int_eq(load("#: Train.\n"
	                      "train 1\n"
	                      "eta 2\n"
	                      "alg1-step\n"
	                      "sweep betas=0.8:1.2:0.2 q=1\n"
	                      "squeeze layer=1 apply comp=0\n"
	                      "#view: spectrum 2\n"
	                      "tau 3\n"
	                      "#view: history curve\n"
	                      "train 1 patience=2\n",
	                      &l, &e),
	                 0);
	int s = l.setup;
	ck_assert_int_eq(lesson_view(&l, s, &arg), VIEW_HISTORY);
	ck_assert_int_eq(arg, 1); /* κ against epochs */
	ck_assert_int_eq(lesson_view(&l, s + 1, &arg), -1);
	ck_assert_int_eq(lesson_view(&l, s + 2, &arg), VIEW_ALG1);
	ck_assert_int_eq(lesson_view(&l, s + 3, &arg), VIEW_SWEEP);
	ck_assert_int_eq(lesson_view(&l, s + 4, &arg), VIEW_SQUEEZE);
	ck_assert_int_eq(lesson_view(&l, s + 5, &arg), VIEW_SPECTRUM);
	ck_assert_int_eq(arg, 2);
	ck_assert_int_eq(lesson_view(&l, s + 6, &arg), VIEW_HISTORY);
	ck_assert_int_eq(arg, 2);
	ck_assert_int_eq(lesson_view(&l, l.n, &arg), -1);
	ck_assert_int_eq(l.open_view, -1); /* no view named for the setup: the layer table */
	lesson_free(&l);
	ck_assert_int_eq(load("#view: nothing\ntrain 1\n", &l, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "t.lesson:4: #view: 'nothing' is not a view"));
}
END_TEST

/* A view named for an action of the setup is the one the screen opens in. */
START_TEST(opens_in_the_named_view)
{
	Lesson l;
	Err e = {{0}};
	const char text[] = "data spec=spiral features=0 label_col=-1 seed=1 limit=0 val_frac=0.1 "
	                    "val_per_class=0 points=30 noise=0.05\n"
	                    "#view: plane 1\n"
	                    "net layers=4 act=erf act_a=1 seed=1\n"
	                    "eta 5\n"
	                    "#view: plane\n"
	                    "alg1-step\n";
	char path[1024];
	snprintf(path, sizeof path, "%s", tu_write(tu_tmpdir(), "o.lesson", text, strlen(text)));
	ck_assert_int_eq(lesson_load(path, &l, &e), 0);
	ck_assert_int_eq(l.setup, 3);
	ck_assert_int_eq(l.open_view, VIEW_PLANE);
	ck_assert_int_eq(l.open_arg, 1);
	int arg;
	ck_assert_int_eq(lesson_view(&l, 3, &arg), VIEW_PLANE);
	ck_assert_int_eq(arg, -1);
	lesson_free(&l);
}
END_TEST

START_TEST(caption_in_force)
{
	Lesson l;
	Err e = {{0}};
	ck_assert_int_eq(load("#: First.\n"
	                      "train 1\n"
	                      "#: Now squeeze.\n"
	                      "tau 3\n"
	                      "squeeze layer=1 apply comp=0\n"
	                      "#: The end.\n",
	                      &l, &e),
	                 0);
	int s = l.setup;
	ck_assert_str_eq(lesson_caption_at(&l, s), "First.");
	ck_assert_str_eq(lesson_caption_at(&l, s + 1), "Now squeeze.");
	/* the squeeze has no caption of its own: the one before still holds */
	ck_assert_str_eq(lesson_caption_at(&l, s + 2), "Now squeeze.");
	ck_assert_str_eq(lesson_caption_at(&l, l.n), "The end.");
	lesson_free(&l);
}
END_TEST

/* A squeeze is two screens, its proposal and its result; ← goes back
 * through them in turn; a proposal's own caption shows on it, the
 * caption before the action on the screen before it; a screen's view is
 * the same however it is reached. */
START_TEST(screens_of_a_squeeze)
{
	Lesson l;
	Err e = {{0}};
	ck_assert_int_eq(load("#: First.\n"
	                      "train 1\n"
	                      "#: Now τ = 3.\n"
	                      "#view: spectrum 2\n"
	                      "tau 3\n"
	                      "#: The layers at τ = 3.\n"
	                      "#proposal: Its proposal.\n"
	                      "squeeze layer=1 apply comp=0\n"
	                      "#: The end.\n",
	                      &l, &e),
	                 0);
	int s = l.setup, arg;
	LessonScreen sc = {s + 2, 0}, p = {s + 2, 1}, end = {s + 3, 0}, b;
	ck_assert_str_eq(lesson_screen_caption(&l, sc), "The layers at τ = 3.");
	ck_assert_str_eq(lesson_screen_caption(&l, p), "Its proposal.");
	ck_assert_str_eq(lesson_screen_caption(&l, end), "The end.");
	ck_assert_int_eq(lesson_screen_back(&l, end, &b), 0);
	ck_assert(b.pos == s + 2 && b.proposal == 1);
	ck_assert_int_eq(lesson_screen_back(&l, b, &b), 0);
	ck_assert(b.pos == s + 2 && b.proposal == 0);
	ck_assert_int_eq(lesson_screen_back(&l, b, &b), 0);
	ck_assert(b.pos == s + 1 && b.proposal == 0);
	/* the views: the action's own, or the last one named before */
	ck_assert_int_eq(lesson_screen_view(&l, b, &arg), VIEW_HISTORY);
	ck_assert_int_eq(arg, 1);
	ck_assert_int_eq(lesson_screen_view(&l, sc, &arg), VIEW_SPECTRUM);
	ck_assert_int_eq(arg, 2);
	ck_assert_int_eq(lesson_screen_view(&l, p, &arg), VIEW_SQUEEZE);
	ck_assert_int_eq(lesson_screen_view(&l, end, &arg), VIEW_SQUEEZE);
	b = (LessonScreen){s, 0};
	ck_assert_int_eq(lesson_screen_view(&l, b, &arg), VIEW_LAYERS);
	ck_assert_int_eq(lesson_screen_back(&l, b, &b), -1);
	lesson_free(&l);
	/* a proposal's caption goes before a squeeze, nowhere else */
	ck_assert_int_eq(load("#proposal: Not a squeeze.\ntrain 1\n", &l, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "a #proposal: caption goes before a squeeze action"));
}
END_TEST

/* A caption is held to what the view it shows with can show: a view it
 * names, a claim, a word for something drawn; a combination with its
 * residuals. */
START_TEST(captions_point_at_what_is_shown)
{
	Lesson l;
	Err e = {{0}};
	Session *s = session_new(&e);
	static const struct {
		const char *text, *msg;
	} bad[] = {
	    {"#: κ > τ in layer 1 (view 1).\n#= over=1\n#view: history\ntrain 1\n",
	     "names view 1 over view 6 (History)"},
	    {"#: Layer 1 has rank 5 (flag r).\n#= rank.1=5\n#view: sweep\ntrain 1\n",
	     "speaks of the flag r of the layer table over view 3"},
	    {"#: The what-if line.\n#view: layers\ntrain 1\n",
	     "speaks of the squeeze view's what-if line over view 1"},
	    {"#: Iteration 3.\n#= iter=3\n#view: layers\ntrain 1\n",
	     "claims iter over view 1 (Layers), which does not show it"},
	    {"#: A combination of the others.\n#view: plane\ntrain 1\n",
	     "speaks of combinations without their residuals"},
	    {"#: Squeezed: 98.17 %.\n#= compare.10=98.17,98.17,98.17\n#view: squeeze\ntrain 1\n",
	     "claims compare.10 over view 4 (Squeeze)"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		ck_assert_int_eq(load(bad[i].text, &l, &e), 0);
		for (int k = 0; k < l.setup; k++)
			ck_assert_int_eq(session_apply(s, &l.a[k], NULL, &e), 0);
		/* the caption before the setup's end shows on the screen it opens
		 * in: the view of its last "#view:" */
		l.open_view = l.view[l.setup];
		ck_assert_int_eq(lesson_check_at(&l, l.setup, s, &e), -1);
		ck_assert_msg(strstr(e.msg, bad[i].msg), "%s", e.msg);
		lesson_free(&l);
	}
	session_free(s);
}
END_TEST

static void join(const char *tok, void *ud)
{
	char *b = ud;
	strcat(b, "[");
	strcat(b, tok);
	strcat(b, "]");
}

START_TEST(numbers_of_a_caption)
{
	char b[512] = "";
	ck_assert_int_eq(lesson_numbers("1,200 points, a 10-32-3 net; 2ε_v − ε_tr, "
	                                "12x300 and 99.5 %. Layers 2, 3 and 4; β 0.2:1.4:0.2.",
	                                join, b),
	                 8);
	ck_assert_str_eq(b, "[1200][10-32-3][12x300][99.5][2][3][4][0.2:1.4:0.2]");
}
END_TEST

/* The lesson's actions applied in order, its captions checked at each. */
static void check_lesson(Lesson *l, const char *dir)
{
	Err e = {{0}};
	Session *s = session_new(&e);
	ck_assert_ptr_nonnull(s);
	s->replay = 1;
	for (int k = 0; k <= l->n; k++) {
		LessonScreen sc = {k, 0}, sp = {k, 1};
		if (k >= l->setup && lesson_check_screen(l, sc, s, &e) < 0)
			ck_abort_msg("%s: %s", l->path, e.msg);
		if (k >= l->setup && k < l->n && l->a[k].kind == SESS_SQUEEZE &&
		    lesson_check_screen(l, sp, s, &e) < 0)
			ck_abort_msg("%s: with the proposal: %s", l->path, e.msg);
		if (k == l->n)
			break;
		SessAction a = l->a[k];
		if (a.kind == SESS_DATA && dir)
			snprintf(a.data.dir, sizeof a.data.dir, "%s", dir);
		if (session_apply(s, &a, NULL, &e) != 0)
			ck_abort_msg("%s: action %d: %s", l->path, k + 1, e.msg);
	}
	session_free(s);
}

START_TEST(claims_are_checked)
{
	Lesson l;
	Err e = {{0}};
	Session *s = NULL;
	/* a true claim, a false one, and a number no claim accounts for */
	ck_assert_int_eq(load("#: Six and five neurons, at τ = 25.\n"
	                      "#= n.1=6 n.2=5 tau=25\n"
	                      "train 1\n"
	                      "#: Now 7 in layer 1.\n"
	                      "#= n.1=7\n"
	                      "tau 3\n"
	                      "#: Layer 1 has 6 neurons at τ = 3.\n"
	                      "#= n.1=6\n"
	                      "#~ 1\n",
	                      &l, &e),
	                 0);
	s = session_new(&e);
	for (int k = 0; k < l.setup; k++)
		ck_assert_int_eq(session_apply(s, &l.a[k], NULL, &e), 0);
	ck_assert_int_eq(lesson_check_at(&l, l.setup, s, &e), 0);
	ck_assert_int_eq(session_apply(s, &l.a[l.setup], NULL, &e), 0);
	ck_assert_int_eq(lesson_check_at(&l, l.setup + 1, s, &e), -1);
	ck_assert_msg(strstr(e.msg, "claims n.1=7, the state says 6"), "%s", e.msg);
	ck_assert_int_eq(session_apply(s, &l.a[l.setup + 1], NULL, &e), 0);
	ck_assert_int_eq(lesson_check_at(&l, l.n, s, &e), -1);
	ck_assert_msg(strstr(e.msg, "states 3, which no claim"), "%s", e.msg);
	session_free(s);
	lesson_free(&l);
}
END_TEST

static void shipped(const char *name, const char *dir)
{
	char path[1024];
	Lesson l;
	Err e = {{0}};
	const char *src = getenv("top_srcdir");
	snprintf(path, sizeof path, "%s/data/lessons/%s.lesson", src ? src : "..", name);
	if (lesson_load(path, &l, &e) < 0)
		ck_abort_msg("%s", e.msg);
	check_lesson(&l, dir);
	lesson_free(&l);
}

START_TEST(algorithm1_tells_the_truth)
{
	shipped("algorithm1", NULL);
}
END_TEST

START_TEST(squeeze_tells_the_truth)
{
	shipped("squeeze", NULL);
}
END_TEST

START_TEST(plane_tells_the_truth)
{
	shipped("plane", NULL);
}
END_TEST

START_TEST(network_tells_the_truth)
{
	shipped("network", NULL);
}
END_TEST

/* A "#speed:" line names the speed of the trainings from its action on. */
START_TEST(speed_lines)
{
	const char *dir = tu_tmpdir();
	Lesson l;
	Err e = {{0}};
	const char *text = "data spec=spiral features=0 label_col=-1 seed=1 limit=0 val_frac=0 "
	                   "val_per_class=0\n"
	                   "net layers=4 act=erf act_a=1 seed=1\n"
	                   "#speed: 2.5\n"
	                   "train 3\n"
	                   "train 2\n"
	                   "#speed: full\n"
	                   "train 1\n";
	ck_assert_int_eq(lesson_load(tu_write(dir, "s.lesson", text, strlen(text)), &l, &e), 0);
	ck_assert(l.speed[2] == 2.5);
	ck_assert(isnan(l.speed[3]));
	ck_assert(l.speed[4] == 0);
	lesson_free(&l);
	const char *bad = "data spec=spiral features=0 label_col=-1 seed=1 limit=0 val_frac=0 "
	                  "val_per_class=0\n"
	                  "net layers=4 act=erf act_a=1 seed=1\n"
	                  "#speed: fast\n"
	                  "train 3\n";
	ck_assert_int_eq(lesson_load(tu_write(dir, "b.lesson", bad, strlen(bad)), &l, &e), -1);
	ck_assert_msg(strstr(e.msg, "b.lesson:3: #speed: 'fast' is not a speed: expected epochs a "
	                            "second, from one a day (1/86400) to 100000, or full"),
	              "%s", e.msg);
	/* held to the table of limits as --speed is: below one epoch a day (a wait
	 * whose deadline left time_t), above 100000, not finite */
	const char *speeds[] = {"1e-30", "0.00001", "0", "-1", "1e6", "inf", "nan", "2 3"};
	for (size_t i = 0; i < sizeof speeds / sizeof *speeds; i++) {
		char line[256];
		snprintf(line, sizeof line,
		         "data spec=spiral features=0 label_col=-1 seed=1 limit=0 val_frac=0 "
		         "val_per_class=0\n"
		         "net layers=4 act=erf act_a=1 seed=1\n"
		         "#speed: %s\n"
		         "train 3\n",
		         speeds[i]);
		ck_assert_int_eq(lesson_load(tu_write(dir, "c.lesson", line, strlen(line)), &l, &e),
		                 -1);
		ck_assert_msg(strstr(e.msg, "c.lesson:3: #speed: '") &&
		                  strstr(e.msg, "is not a speed"),
		              "%s: %s", speeds[i], e.msg);
	}
	/* one a day is the slowest */
	char slow[256];
	snprintf(slow, sizeof slow,
	         "data spec=spiral features=0 label_col=-1 seed=1 limit=0 val_frac=0 "
	         "val_per_class=0\n"
	         "net layers=4 act=erf act_a=1 seed=1\n"
	         "#speed: %.17g\n"
	         "train 3\n",
	         1.0 / 86400);
	ck_assert_int_eq(lesson_load(tu_write(dir, "d.lesson", slow, strlen(slow)), &l, &e), 0);
	ck_assert(l.speed[2] == 1.0 / 86400);
	lesson_free(&l);
}
END_TEST

START_TEST(mnist_tells_the_truth)
{
	const char *on = getenv("CONDNET_LESSON_MNIST");
	if (!on || strcmp(on, "1") || !datasets_available("mnist", NULL)) {
		fprintf(stderr, "test_tui_lesson: the MNIST lesson's claims are not checked "
		                "(CONDNET_LESSON_MNIST=1 with MNIST fetched checks them)\n");
		return;
	}
	shipped("mnist", NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tui_lesson");
	TCase *tc = tcase_create("lesson");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, view_names);
	tcase_add_test(tc, long_line_is_refused_whole);
	tcase_add_test(tc, views_by_kind_and_by_name);
	tcase_add_test(tc, opens_in_the_named_view);
	tcase_add_test(tc, caption_in_force);
	tcase_add_test(tc, screens_of_a_squeeze);
	tcase_add_test(tc, captions_point_at_what_is_shown);
	tcase_add_test(tc, numbers_of_a_caption);
	tcase_add_test(tc, claims_are_checked);
	tcase_add_test(tc, algorithm1_tells_the_truth);
	tcase_add_test(tc, squeeze_tells_the_truth);
	tcase_add_test(tc, plane_tells_the_truth);
	tcase_add_test(tc, network_tells_the_truth);
	tcase_add_test(tc, speed_lines);
	suite_add_tcase(s, tc);
	TCase *slow = tcase_create("mnist");
	tcase_set_timeout(slow, 3600);
	tcase_add_test(slow, mnist_tells_the_truth);
	suite_add_tcase(s, slow);
	return tu_run(s);
}
