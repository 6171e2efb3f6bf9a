/* tui/tui.h - the interactive screen: `condnet` and `condnet tui`
 * (cmd_tui() is declared in cli.h with the other commands).
 *
 * The screen holds the key handling, the prompts and the main loop; the
 * session (src/session.h) holds the state and the worker (tui/worker.h)
 * runs every engine operation on it. */
#ifndef CONDNET_TUI_TUI_H
#define CONDNET_TUI_TUI_H

#include "engine/session.h"

/* Runs the screen on a session that has its data and network; returns the
 * process exit status. The session is freed. */
int tui_run(Session *s, int ascii, const char *note);

#endif
