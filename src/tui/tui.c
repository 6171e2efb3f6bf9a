/* tui.c - the interactive screen: its options, the session it starts on,
 * and the main loop. */
#include "tui/tui.h"

#include <curses.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/file.h"
#include "base/signals.h"
#include "engine/hook.h"
#include "tui/screen.h"
#include "tui/tui_int.h"

/* The stop of the work this thread does (the first publication). */
static int signalled(void *ud)
{
	(void)ud;
	return signals_stop() != 0;
}

/* A key: an escape sequence curses does not know (a key of another
 * terminal) is read whole and dropped, so that its bytes are not taken for
 * keys ('[' lowers η); Home and End as some terminals send them (Find,
 * Select) are Home and End. */
static int read_key(void)
{
	int ch = getch();
	if (ch == KEY_FIND)
		return KEY_HOME;
	if (ch == KEY_SELECT)
		return KEY_END;
	if (ch != 27)
		return ch;
	timeout(0);
	int next = getch();
	if (next == '[' || next == 'O') {
		char seq[16];
		int c, n = 0;
		do
			if ((c = getch()) != ERR && n < 15)
				seq[n++] = (char)c;
		while (c != ERR && !(c >= 0x40 && c <= 0x7e));
		seq[n] = '\0';
		ch = !strcmp(seq, "1~") || !strcmp(seq, "7~") || !strcmp(seq, "H")   ? KEY_HOME
		     : !strcmp(seq, "4~") || !strcmp(seq, "8~") || !strcmp(seq, "F") ? KEY_END
		                                                                     : ERR;
	} else if (next != ERR) {
		ungetch(next);
	}
	timeout(30);
	return ch;
}

/* 1 when the terminal's input has ended (it hung up, or was closed while
 * SIGHUP is ignored): getch then answers at once, for ever, with nothing,
 * and the loop would spin. Asked after getch found no key: input that is
 * readable but holds no byte is its end. */
static int input_ended(void)
{
	struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
	if (poll(&p, 1, 0) <= 0)
		return 0;
	if (p.revents & (POLLHUP | POLLERR | POLLNVAL))
		return 1;
	int n = 0;
	return (p.revents & POLLIN) && ioctl(STDIN_FILENO, FIONREAD, &n) == 0 && n == 0;
}

/* An export that would write over existing files: its question, put
 * when no other prompt is open (the export waits for the answer). */
static void export_question(Tui *t)
{
	char q[1200];
	Shown *p = (Shown *)worker_lock(t->w);
	int ask = p->ask_path[0] && !t->pk;
	if (ask) {
		snprintf(t->overwrite, sizeof t->overwrite, "%s", p->ask_path);
		snprintf(q, sizeof q, "%s", p->ask_q);
		t->export_target = p->ask_target;
		p->ask_path[0] = '\0';
	}
	worker_unlock(t->w);
	if (ask)
		tui_ask(t, P_EXPORT_OVERWRITE, q, "");
}

/* What a lesson played with a delay and a save on the way out wait for. */
static void between_keys(Tui *t)
{
	export_question(t);
	const Shown *p = worker_lock(t->w);
	int idle = !p->busy && !p->ops, dirty = p->dirty, pos = p->play_pos;
	worker_unlock(t->w);
	double now = clock_seconds();
	if (idle && t->was_busy)
		t->next_at = now + t->u.delay;
	if (idle && t->u.back_to >= 0) {
		t->u.back_to = -1;
		worker_play_retarget(t->w, -1);
	}
	t->was_busy = !idle;
	if (t->quit_after_save == 2 && idle) {
		t->quit = !dirty;
		t->quit_after_save = 0;
	}
	if (t->lesson && t->u.delay > 0 && !t->u.play_paused && idle && !t->pk &&
	    pos < t->lesson->n && now >= t->next_at) {
		tui_play_next(t);
		t->was_busy = 1;
	}
}

/* 1 when quitting now loses nothing: no operation runs, nothing unsaved. */
static int clean(Tui *t)
{
	const Shown *p = worker_lock(t->w);
	int c = !p->busy && !p->ops && !p->dirty;
	worker_unlock(t->w);
	return c;
}

/* What the too-small screen says under its request. */
static const char *small_note(Tui *t)
{
	return t->small_asked ? "unsaved work or an operation running: y quits anyway, "
	                        "any other key stays (enlarge the terminal to save)"
	                      : "q quits";
}

static void small_key(Tui *t, int ch)
{
	switch (keys_small(ch, t->small_asked, clean(t))) {
	case SMALL_QUIT:
		t->quit = 1;
		break;
	case SMALL_ASK:
		t->small_asked = 1;
		break;
	case SMALL_UNASK:
		t->small_asked = 0;
		break;
	default:
		break;
	}
}

/* Long on purpose: the screen's main loop, from the terminal taken to the
 * terminal given back, every exit of it restoring the terminal. */
int tui_run(Session *s, const TuiSetup *su)
{
	Tui t = {0};
	Err e = {{0}};
	char log[1024];
	t.patience = su->patience;
	t.epochs_def = su->epochs;
	t.speed_given = su->speed_given;
	t.u.view = (ViewId)su->view;
	t.lesson = su->lesson;
	t.u.lesson = su->lesson;
	t.u.delay = su->delay;
	t.u.it_first = -1;
	t.u.layer = 1;
	if (su->lesson)
		tui_show_screen(&t, (LessonScreen){su->lesson->setup, 0});
	t.u.present = su->present;
	t.u.back_to = -1;
	t.q_def = su->q;
	snprintf(t.beta_def, sizeof t.beta_def, "%s", su->betas);
	snprintf(t.data_name, sizeof t.data_name, "%.63s", s->data_spec);
	for (char *c = t.data_name; *c; c++)
		if (*c == '/' || *c == ':' || *c == ',' || *c == ' ')
			*c = '-';
	snprintf(log, sizeof log, "%s", s->log_path);
	if (screen_init(su->ascii, &e) < 0) {
		fprintf(stderr, "condnet: %s\n", e.msg);
		session_free(s);
		return 1;
	}
	/* no save or export may take the screen's place or wait on a FIFO */
	file_screen_outputs();
	/* SIGHUP, SIGINT, SIGQUIT, SIGTERM end the loop: the worker stops, the
	 * terminal is restored */
	signals_trap_stop(1);
	/* what the screen shows first (κ, accuracy) is measured on this thread */
	hook_set_thread_stop(signalled, NULL);
	if (!(t.w = worker_start(s, su->lesson, su->lesson ? su->lesson->setup : 0, &e))) {
		screen_end();
		fprintf(stderr, "condnet: %s\n", e.msg);
		session_free(s);
		return 1;
	}
	/* (--speed was held to the same rule: this refuses nothing) */
	worker_set_speed(t.w, su->speed, NULL);
	/* a lesson's line says where it is: its note goes to the narration */
	if (su->lesson)
		worker_play_note(t.w, su->note);
	else
		worker_status_opening(t.w, su->note);
	worker_status_log_lost(t.w); /* a log lost while the session was set up */
	t.next_at = clock_seconds() + su->delay;
	while (!t.quit && !signals_stop()) {
		int small = screen_too_small(small_note(&t));
		if (!small) {
			const Shown *p = worker_lock(t.w);
			t.u.prompt = t.pk ? t.prompt : NULL;
			t.u.input = t.input;
			t.u.patience = t.patience;
			views_draw(p, &t.u);
			worker_unlock(t.w);
		}
		refresh();
		int ch = read_key();
		between_keys(&t);
		if (ch == ERR && input_ended())
			break; /* the end of input quits */
		if (ch == ERR || ch == KEY_RESIZE)
			continue;
		if (small)
			small_key(&t, ch); /* nothing acts unseen: only q */
		else
			tui_key(&t, ch);
	}
	char busy[160];
	const Shown *p = worker_lock(t.w);
	snprintf(busy, sizeof busy, "%s", p->running[0] ? p->running : "its work");
	worker_unlock(t.w);
	int log_err = worker_stop(t.w);
	screen_end();
	if (log_err < 0)
		fprintf(
		    stderr,
		    "condnet: the worker did not stop within %d s (%s): the screen ended without "
		    "it\n",
		    WORKER_STOP_SECONDS, busy);
	if (log[0])
		printf("session log: %s\n", log);
	if (signals_stop())
		return 128 + signals_stop();
	if (log_err < 0)
		return 1;
	if (log_err) {
		fprintf(stderr,
		        "condnet: the session log %s could not be written (%s): it ends before the "
		        "first line lost and does not replay this session\n",
		        log, strerror(log_err));
		return 1;
	}
	return 0;
}
