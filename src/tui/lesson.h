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
	int *view;      /* n + 1 entries: the view (a ViewId) the screen switches to when
	                 * the lesson reaches action k (its caption shows), named by a
	                 * line "#view: N" (1..7) before it; -1: the view stays */
} Lesson;

/* The file of a lesson name: name itself when it is a file, else
 * NAME or NAME.lesson in the installed lessons ($(datadir)/condnet/lessons)
 * or, for a program run from its build tree, the source tree's
 * data/lessons. 0, or -1 with a message listing where it looked. */
int lesson_find(const char *name, char *path, size_t len, Err *e);
/* Reads and parses a lesson; errors read "FILE:LINE: …". */
int lesson_load(const char *name, Lesson *l, Err *e);
void lesson_free(Lesson *l);

#endif
