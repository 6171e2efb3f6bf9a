/* tui/status.h - what the status line and the header's state say, as one
 * function of the state: the published state (Shown) and the screen's own
 * (UiState). A message said about the state (worker_status) is shown only
 * while the state is the one it was said about (its generation); otherwise
 * the line says what the state is: an operation running, a squeeze
 * proposal waiting, the lesson's next action. So nothing said about an
 * earlier state stays on the screen. No curses here: the functions are
 * pure, and tests/test_tui_status.c holds them to that. */
#ifndef CONDNET_TUI_STATUS_H
#define CONDNET_TUI_STATUS_H

#include <stddef.h>

#include "tui/views.h"

/* An action in a few words ("training 20 epochs", "beta sweep 0.2:1.4:0.2,
 * q = 5"); returns buf. */
const char *status_action(const SessAction *a, char *buf, size_t len);

/* text in the screen's symbols: "<=" and ">=" as ≤ and ≥ (the engine's
 * words, as a record keeps them, shown as the screen speaks); returns buf. */
const char *status_symbols(const char *text, char *buf, size_t len);

/* The widths of the shown network, n_0-…-n_m; returns buf. */
const char *status_shape(const Shown *p, char *buf, size_t len);

/* The status line; *err is set to 1 when it reports a failure or a
 * refusal. Returns buf. */
const char *status_line(const Shown *p, const UiState *u, char *buf, size_t len, int *err);

/* A squeeze proposal waits: what the keys do with it, or (in a lesson)
 * what the lesson's next action will do. Returns buf. */
const char *status_proposal(const Shown *p, const UiState *u, char *buf, size_t len);
/* The same in a lesson, briefly, for a title that names the layer: "the
 * lesson applies it with compensation", "the lesson refuses it", or "right
 * arrow plays the lesson on" when its next action decides another. */
const char *status_lesson_decides(const Shown *p, const UiState *u, char *buf, size_t len);

/* The header's state, at its right end: "paused", what runs, "waiting:
 * y / n", the lesson's place, or "idle". Returns buf. */
const char *status_state(const Shown *p, const UiState *u, char *buf, size_t len);

/* The last training or sweep for the progress row, or NULL when it does
 * not belong to the network shown (an undo, a lesson stepped back). */
const char *status_last_train(const Shown *p);

/* Operations waiting behind the running one ("queued 0" when none), and
 * the settings that wait with them ("τ 25→20 waits"), for the settings
 * row; returns buf. */
const char *status_queue(const Shown *p, char *buf, size_t len);

#endif
