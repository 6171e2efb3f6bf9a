/* tui/views.h - the panels: header, the four views (layers, Algorithm-1
 * history, β sweep, squeeze), progress, status line, footer and help. */
#ifndef CONDNET_TUI_VIEWS_H
#define CONDNET_TUI_VIEWS_H

#include "tui/worker.h"

typedef enum ViewId { VIEW_LAYERS = 0, VIEW_ALG1, VIEW_SWEEP, VIEW_SQUEEZE, VIEW_COUNT } ViewId;

/* What the screen itself holds (the rest comes from the worker's Pub). */
typedef struct UiState {
	ViewId view;
	int help;            /* the help screen is shown */
	const char *prompt;  /* the question of an open prompt, or NULL */
	const char *input;   /* what was typed so far */
	const char *message; /* a note of the screen's own, shown instead of the status, or NULL */
	double tau, eta;     /* as they will be once queued changes apply */
} UiState;

/* Draws the whole screen (the caller checks the minimum size first). */
void views_draw(const Pub *p, const UiState *u);

#endif
