/* tui/lesson.h - a lesson: a session log played on the screen one action
 * at a time, with the captions ("#: TEXT" lines) between its actions. */
#ifndef CONDNET_TUI_LESSON_H
#define CONDNET_TUI_LESSON_H

#include <stddef.h>

#include "base/err.h"
#include "session/session.h"

typedef struct Lesson {
	char path[1024];
	SessAction *a; /* n actions, in order */
	int n;
	char **caption; /* n + 1 entries: the captions before action k (lines
	                 * joined by '\n'), NULL when none; [n]: after the last */
	int setup;      /* actions up to the first net or load and the settings
	                 * (opts, tau, eta) right after it: applied before the
	                 * screen opens, never stepped back over */
	int *view;      /* n entries: the view action k shows, named by a line
	                 * "#view: NAME [ARG]" before it; -1: the view of its kind */
	int *view_arg;  /* n entries: the history view's chart (0 iterations, 1 κ
	                 * against epochs, 2 the validation curve) or the layer of the
	                 * layers, spectrum and plane views; -1: none */
	char **claims;  /* n + 1: the "#= KEY=VALUE …" lines with caption k, or NULL
	                 * (tui/lesson_claims.h) */
	char **plain;   /* n + 1: the "#~ …" lines: its numbers that are not the state */
	/* n + 1: a squeeze action's proposal screen's own caption ("#proposal:
	 * TEXT" lines before it, and the "#=" and "#~" lines after them), NULL
	 * when the proposal shows the caption before the action */
	char **pcaption, **pclaims, **pplain;
	int open_view; /* the view the screen opens in, named for an action of the
	                * setup (and open_arg its chart or layer); -1: the layer table */
	int open_arg;
} Lesson;

/* A lesson's screens in the order → shows them: the screen after pos
 * actions, and, before a squeeze action pos, its proposal (proposal 1)
 * between that screen and the one after the squeeze. */
typedef struct LessonScreen {
	int pos, proposal;
} LessonScreen;

/* The screen before s, which ← shows: the one before it in the order of
 * →; 0, or -1 at the first (pos at the setup, no proposal). */
int lesson_screen_back(const Lesson *l, LessonScreen s, LessonScreen *prev);
/* The caption of screen s: a proposal's own, else lesson_caption_at. */
const char *lesson_screen_caption(const Lesson *l, LessonScreen s);
/* The view screen s shows and in *arg its chart or layer: a proposal, the
 * view of its squeeze; else the view of the last action before pos that
 * has one (lesson_view), or the one the lesson opens in (VIEW_LAYERS when
 * it names none). The same screen shows the same view, however it was
 * reached. */
int lesson_screen_view(const Lesson *l, LessonScreen s, int *arg);

/* The caption in force at position pos (pos actions applied): the one
 * before action pos or, when it has none, the last one before it (a
 * squeeze's proposal and its decision share one); NULL when none. */
const char *lesson_caption_at(const Lesson *l, int pos);

/* The view (a ViewId) action pos is about, and in *arg the chart or layer
 * it shows (-1: as it is): named in the lesson, else chosen from its kind
 * (a squeeze: the squeeze view, a sweep: the sweep view, Algorithm 1: its
 * history, a training: κ against epochs, τ or a network: the layer table).
 * -1: the action changes no view (η, a schedule, a save). */
int lesson_view(const Lesson *l, int pos, int *arg);

/* Parses the NAME [ARG] of a "#view:" line (NAME: layers, algorithm1, sweep,
 * squeeze, spectrum, history, plane) into a ViewId and its argument;
 * -1 with a message naming the views. */
int lesson_parse_view(const char *text, int *view, int *arg, Err *e);

/* The file of a lesson name: name itself when it is a file, else
 * NAME or NAME.lesson in the installed lessons ($(datadir)/condnet/lessons)
 * or, for a program run from its build tree, the source tree's
 * data/lessons. 0, or -1 with a message listing where it looked. */
int lesson_find(const char *name, char *path, size_t len, Err *e);
/* Reads and parses a lesson; errors read "FILE:LINE: …". */
int lesson_load(const char *name, Lesson *l, Err *e);
void lesson_free(Lesson *l);

#endif
