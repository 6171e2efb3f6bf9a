/* tui/lesson_caption.h - what a lesson's caption says, apart from the
 * state it speaks of (tui/lesson_claims.h holds it to that): the numbers
 * of its text, and what the view it is shown with can show. A claim is
 * read on the views that show it (the test accuracy, τ, η and the widths
 * on every one, in the title or the header; κ and a layer's rank on the
 * layer table and the spectrum; a what-if line on the squeeze view; the
 * regions, maps and their fits on the plane view…), and so is what a
 * caption names: a view ("view 4"), the flag r, the marks !, the what-if
 * line, a chart, the sweep's bars, the regions, maps or panels, a
 * spectrum, a combination (with its residuals: a fit.L or refit.L claim).
 * A command's answer (compare.T) is on no view. */
#ifndef CONDNET_TUI_LESSON_CAPTION_H
#define CONDNET_TUI_LESSON_CAPTION_H

#include "base/err.h"

/* The numbers text states, as tokens ("1,200" as 1200, "10-32-3" and
 * "12x300" whole):
 * calls fn for each; returns how many. A digit run that a letter follows
 * ("2ε_v", "12x") is part of a formula, not a number. */
int lesson_numbers(const char *text, void (*fn)(const char *tok, void *ud), void *ud);

/* 0 when every claim (KEY=VALUE lines, claims may be NULL) and everything
 * caption names can be read on view (a ViewId); else -1 with a message
 * naming the first that cannot, and the caption by the action it is
 * written before (at, from 0). */
int lesson_caption_shown(const char *caption, const char *claims, int at, int view, Err *e);

#endif
