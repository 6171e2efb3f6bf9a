/* test_tui_status.c - the status line and the header's state as functions
 * of the state: a message is shown only while the state it spoke of is the
 * current one, and otherwise the line says what the state is (the stale
 * figures once seen in front of a class: a finished sweep's pick while a new
 * one runs, Algorithm 1's line after a squeeze, "idle" while a squeeze
 * decision waits, the last training beside a network it did not make, a
 * queue of settings that cancelled out, a lesson's spent message). */
#include <math.h>

#include "session/session_setting.h"
#include "testutil.h"
#include "tui/status.h"

static Shown shown(void)
{
	static int n[] = {10, 32, 3};
	Shown p;
	memset(&p, 0, sizeof p);
	p.m = 2;
	p.n = n;
	p.tau = p.set[SET_TAU] = p.set_next[SET_TAU] = 25;
	p.set[SET_ETA] = p.set_next[SET_ETA] = 10;
	p.gen = 1;
	p.crc = 0xabcdef01;
	return p;
}

static void say(Shown *p, int err, const char *msg)
{
	snprintf(p->status, sizeof p->status, "%s", msg);
	p->status_err = err;
	p->status_gen = p->gen;
}

static const char *line(const Shown *p, const UiState *u, int *err)
{
	static char buf[600];
	return status_line(p, u, buf, sizeof buf, err);
}

START_TEST(message_lives_with_its_state)
{
	Shown p = shown();
	UiState u = {0};
	int err;
	say(&p, 0, "beta sweep finished: pick beta = 1");
	ck_assert_str_eq(line(&p, &u, &err), "beta sweep finished: pick beta = 1");
	ck_assert_int_eq(err, 0);
	/* a new sweep starts: the state moves on, the pick is history */
	p.gen++;
	p.busy = 1;
	snprintf(p.activity, sizeof p.activity, "β sweep: β 1.20 trial 1 done");
	ck_assert_str_eq(line(&p, &u, &err),
	                 "β sweep: β 1.20 trial 1 done: Esc stops, space pauses");
	p.paused = 1;
	snprintf(p.running, sizeof p.running, "beta sweep 1.2:1.4:0.2, q = 1");
	ck_assert_str_eq(line(&p, &u, &err),
	                 "paused: beta sweep 1.2:1.4:0.2, q = 1; space resumes, Esc stops");
	/* idle with nothing said about the state: nothing to say */
	p.busy = p.paused = 0;
	ck_assert_str_eq(line(&p, &u, &err), "");
	/* a refusal said now shows, in the warning colour */
	say(&p, 1, "busy: training 10 epochs");
	ck_assert_str_eq(line(&p, &u, &err), "busy: training 10 epochs");
	ck_assert_int_eq(err, 1);
}
END_TEST

START_TEST(the_opening_note_holds_until_something_is_done)
{
	Shown p = shown();
	UiState u = {0};
	int err;
	say(&p, 0, "data: the built-in synthetic set (MNIST is not fetched)");
	p.status_opening = 1;
	/* the start's measurements publish the state again: the note stays */
	p.gen++;
	ck_assert_str_eq(line(&p, &u, &err),
	                 "data: the built-in synthetic set (MNIST is not fetched)");
	/* an operation runs: the line says so, and after it the note is gone */
	p.busy = 1;
	snprintf(p.running, sizeof p.running, "training 10 epochs");
	ck_assert_str_eq(line(&p, &u, &err), "training 10 epochs: Esc stops, space pauses");
	p.busy = 0;
	p.nundo = 1;
	p.gen++;
	ck_assert_str_eq(line(&p, &u, &err), "");
	/* a message that is not the opening note lives with its state only */
	say(&p, 0, "saved");
	p.gen++;
	ck_assert_str_eq(line(&p, &u, &err), "");
}
END_TEST

START_TEST(a_waiting_decision_is_not_idle)
{
	Shown p = shown();
	UiState u = {0};
	char st[200];
	int err;
	say(&p, 0, "Algorithm 1, iteration 2: 10-29-3 (more to do)");
	p.gen++; /* the squeeze began */
	p.sq.waiting = 1;
	p.sq.layer = 1;
	p.sq.comp = 1;
	ck_assert_str_eq(line(&p, &u, &err),
	                 "layer 1's proposal waits: y applies, n refuses, a applies it and the "
	                 "rest, c compensation (on), Esc ends the pass");
	ck_assert_str_eq(status_state(&p, &u, st, sizeof st), "waiting: y / n for layer 1");
	p.sq.waiting = 0;
	ck_assert_str_eq(status_state(&p, &u, st, sizeof st), "idle");
	/* an operation asked for and not begun yet is not idle either */
	p.ops = 1;
	ck_assert_str_eq(status_state(&p, &u, st, sizeof st), "starting");
	ck_assert_str_eq(line(&p, &u, &err), "starting: Esc stops, space pauses");
}
END_TEST

/* A lesson of a data, a net, then a training and a squeeze decision. */
static void lesson(Lesson *l, SessAction *a)
{
	memset(l, 0, sizeof *l);
	memset(a, 0, 4 * sizeof *a);
	a[0].kind = SESS_DATA;
	a[1].kind = SESS_NET;
	a[2].kind = SESS_TRAIN;
	a[2].train.epochs = 20;
	a[3].kind = SESS_SQUEEZE;
	a[3].squeeze = (SessSqueezeArgs){.layer = 1, .apply = 1, .comp = 1};
	l->a = a;
	l->n = 4;
	l->setup = 2;
}

START_TEST(a_lesson_says_where_it_is)
{
	Shown p = shown();
	UiState u = {0};
	Lesson l;
	SessAction a[4];
	char st[200];
	int err;
	lesson(&l, a);
	u.lesson = &l;
	p.play_pos = 2;
	ck_assert_str_eq(line(&p, &u, &err), "lesson: action 1 of 2, next training 20 epochs: "
	                                     "right arrow plays it, left steps back");
	ck_assert_str_eq(status_state(&p, &u, st, sizeof st), "lesson: action 0 of 2");
	/* the training's own words are the narration's: the line says what is next */
	p.play_pos = 3;
	p.gen++;
	say(&p, 0, "trained 20 epochs: test accuracy 99.83%");
	ck_assert_str_eq(line(&p, &u, &err), "lesson: action 2 of 2, next squeeze layer 1: apply "
	                                     "with compensation: right arrow plays it, left steps "
	                                     "back");
	/* the proposal shown: what the lesson will decide, not y and n */
	p.sq.waiting = 1;
	p.sq.layer = 1;
	ck_assert_str_eq(line(&p, &u, &err),
	                 "the lesson will apply layer 1's proposal with compensation: right arrow");
	/* the header counts the squeeze, whose proposal it is, as its caption does */
	ck_assert_str_eq(status_state(&p, &u, st, sizeof st),
	                 "lesson: action 2 of 2, its proposal");
	/* and briefly, for the Plane view's title */
	ck_assert_str_eq(status_lesson_decides(&p, &u, st, sizeof st),
	                 "the lesson applies it with compensation");
	a[3].squeeze.apply = 0;
	ck_assert_str_eq(status_lesson_decides(&p, &u, st, sizeof st), "the lesson refuses it");
	a[3].squeeze.apply = 1;
	p.sq.layer = 2; /* a proposal the next action does not decide */
	ck_assert_str_eq(status_lesson_decides(&p, &u, st, sizeof st),
	                 "right arrow plays the lesson on");
	p.sq.layer = 1;
	/* the end, with the CRC-32 condnet replay prints */
	p.sq.waiting = 0;
	p.play_pos = 4;
	ck_assert_str_eq(
	    line(&p, &u, &err),
	    "end of the lesson: parameters' CRC-32 abcdef01 (as condnet replay prints) of "
	    "10-32-3; left steps back, q leaves");
	/* a long network's widths come after the CRC-32: it stays on an 80-column row */
	static int wide[14] = {200, 169, 246, 222, 207, 203, 203, 209, 213, 211, 212, 212, 209, 10};
	Shown w = p;
	w.n = wide;
	w.m = 13;
	const char *end = line(&w, &u, &err), *crc = strstr(end, "CRC-32 abcdef01");
	ck_assert_msg(crc && crc - end + 15 <= 80, "%s", end);
	/* a refusal still takes the line */
	say(&p, 1, "a lesson plays: right arrow next");
	ck_assert_str_eq(line(&p, &u, &err), "a lesson plays: right arrow next");
	/* and so does what an export wrote, until the lesson moves on */
	say(&p, 0, "exported the tables to x.md (Markdown) and 3 plots' data");
	ck_assert_str_ne(line(&p, &u, &err),
	                 "exported the tables to x.md (Markdown) and 3 plots' data");
	p.status_lesson = 1;
	ck_assert_str_eq(line(&p, &u, &err),
	                 "exported the tables to x.md (Markdown) and 3 plots' data");
	ck_assert_int_eq(err, 0);
	p.gen++;
	ck_assert_str_ne(line(&p, &u, &err),
	                 "exported the tables to x.md (Markdown) and 3 plots' data");
	p.status_lesson = 0;
	/* played with a delay and paused */
	p.status[0] = '\0';
	p.play_pos = 3;
	u.delay = 1;
	u.play_paused = 1;
	ck_assert_str_eq(line(&p, &u, &err), "the lesson is paused: space plays on");
}
END_TEST

START_TEST(last_training_belongs_to_its_network)
{
	Shown p = shown();
	snprintf(p.last_train, sizeof p.last_train, "last training: 20.00 epochs in 1 s");
	p.last_train_crc = p.crc;
	ck_assert_str_eq(status_last_train(&p), "last training: 20.00 epochs in 1 s");
	p.crc ^= 1; /* undone, or the lesson stepped back before it */
	ck_assert_ptr_null(status_last_train(&p));
}
END_TEST

START_TEST(the_queue_says_what_waits)
{
	Shown p = shown();
	char b[200];
	ck_assert_str_eq(status_queue(&p, b, sizeof b), "queued 0");
	p.set_next[SET_TAU] = 25;
	p.set_next[SET_ETA] = 10; /* ] then [: back where it was, nothing waits */
	ck_assert_str_eq(status_queue(&p, b, sizeof b), "queued 0");
	p.queued_ops = 1;
	p.set_next[SET_TAU] = 20;
	ck_assert_str_eq(status_queue(&p, b, sizeof b), "queued 1, τ 25→20 waits");
}
END_TEST

START_TEST(actions_in_words)
{
	char b[200];
	SessAction a;
	memset(&a, 0, sizeof a);
	a.kind = SESS_ALG1_RUN;
	/* in the screen's symbols (screen_put spells them in ASCII with --ascii) */
	ck_assert_str_eq(status_action(&a, b, sizeof b), "Algorithm 1 (until every κ ≤ τ)");
	a.run.steps = 4;
	ck_assert_str_eq(status_action(&a, b, sizeof b), "Algorithm 1 (4 iterations)");
	a.kind = SESS_SWEEP;
	snprintf(a.sweep.betas, sizeof a.sweep.betas, "0.2:1.4:0.2");
	a.sweep.q = 5;
	ck_assert_str_eq(status_action(&a, b, sizeof b), "β sweep 0.2:1.4:0.2, q = 5");
	a = session_setting_action(SET_TAU, 10);
	ck_assert_str_eq(status_action(&a, b, sizeof b), "τ = 10");
	a.set.id = SET_ETA;
	ck_assert_str_eq(status_action(&a, b, sizeof b), "η = 10 epochs");
	a.set.id = SET_SCHED;
	ck_assert_str_eq(status_action(&a, b, sizeof b), "sched");
	memset(&a, 0, sizeof a);
	a.kind = SESS_SQUEEZE;
	a.squeeze.layer = 3;
	ck_assert_str_eq(status_action(&a, b, sizeof b), "squeeze layer 3: refuse");
}
END_TEST

/* The engine's words in the screen's symbols: ≤ and ≥ for <= and >=. */
START_TEST(symbols_of_the_screen)
{
	char b[200];
	ck_assert_str_eq(status_symbols("every κ <= τ = 25 after 7 iterations", b, sizeof b),
	                 "every κ ≤ τ = 25 after 7 iterations");
	ck_assert_str_eq(status_symbols("a >= b, a < b", b, sizeof b), "a ≥ b, a < b");
	/* cut short, still a string */
	ck_assert_int_lt(strlen(status_symbols("x <= y <= z", b, 6)), 6);
}
END_TEST

/* κ against epochs is sampled by the epochs a training reaches, never by
 * the clock: every epoch of a training of 16 to 64, else 16 or 64 points. */
START_TEST(history_sampled_by_epochs)
{
	ck_assert_int_eq(worker_series_samples(20), 20);
	ck_assert_int_eq(worker_series_samples(16), 16);
	ck_assert_int_eq(worker_series_samples(64), 64);
	ck_assert_int_eq(worker_series_samples(10), 16);
	ck_assert_int_eq(worker_series_samples(1), 16);
	ck_assert_int_eq(worker_series_samples(0.5), 16);
	ck_assert_int_eq(worker_series_samples(300), 64);
	ck_assert_int_eq(worker_series_samples(20.5), 64);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tui_status");
	TCase *tc = tcase_create("status");
	tcase_add_test(tc, message_lives_with_its_state);
	tcase_add_test(tc, the_opening_note_holds_until_something_is_done);
	tcase_add_test(tc, a_waiting_decision_is_not_idle);
	tcase_add_test(tc, a_lesson_says_where_it_is);
	tcase_add_test(tc, last_training_belongs_to_its_network);
	tcase_add_test(tc, the_queue_says_what_waits);
	tcase_add_test(tc, actions_in_words);
	tcase_add_test(tc, symbols_of_the_screen);
	tcase_add_test(tc, history_sampled_by_epochs);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
