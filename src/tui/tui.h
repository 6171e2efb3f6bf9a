/* tui/tui.h - the interactive screen: `condnet` and `condnet tui`.
 *
 * The screen holds the key handling, the prompts and the main loop; the
 * session (session/session.h) holds the state and the worker (tui/worker.h)
 * runs every engine operation on it. */
#ifndef CONDNET_TUI_TUI_H
#define CONDNET_TUI_TUI_H

#include "session/session.h"
#include "tui/lesson.h"

/* How the screen starts. */
typedef struct TuiSetup {
	int ascii;
	const char *note;     /* the first status line */
	const Lesson *lesson; /* a lesson to play (its setup applied), or NULL */
	double delay;         /* a lesson's seconds between actions, 0: on keys */
	const char *betas;    /* the β list and q that b proposes */
	int q;
	int patience; /* early stopping of every t training, 0: none */
	int present;  /* start in presentation mode */
} TuiSetup;

/* `condnet tui`: parses argv[1..argc) (argv[0] is the command's name) and
 * runs the screen; returns the process exit status (tui_cmd.c). */
int tui_cmd(int argc, char **argv);

/* Runs the screen on a session that has its data and network; returns the
 * process exit status. The session is freed. */
int tui_run(Session *s, const TuiSetup *su);

#endif
