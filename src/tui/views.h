/* tui/views.h - what the screen draws: the header, the views (layers,
 * Algorithm-1 history, β sweep, squeeze, spectrum, history charts, the
 * plane, the network diagram), the
 * text panels (keys, explain, narration log, pivot order), the narration
 * line, progress, status line and footer. */
#ifndef CONDNET_TUI_VIEWS_H
#define CONDNET_TUI_VIEWS_H

#include "tui/lesson.h"
#include "tui/worker.h"

typedef enum ViewId {
	VIEW_LAYERS = 0,
	VIEW_ALG1,
	VIEW_SWEEP,
	VIEW_SQUEEZE,
	VIEW_SPECTRUM,
	VIEW_HISTORY,
	VIEW_PLANE,
	VIEW_NETWORK,
	VIEW_COUNT
} ViewId;

/* A text panel drawn over the views. */
typedef enum PanelId { PANEL_NONE = 0, PANEL_KEYS, PANEL_EXPLAIN, PANEL_LOG, PANEL_ORDER } PanelId;

/* What the screen itself holds (the rest comes from the worker's Shown). The
 * drawing clamps the scroll positions and the selected layer. */
typedef struct UiState {
	ViewId view;
	PanelId panel;
	int top;   /* the panel's first line shown; -1: its end */
	int lines; /* the panel's lines and rows, as last drawn */
	int rows;
	int layer;       /* the selected layer, from 1 */
	int it_first;    /* Algorithm-1 view: the first iteration shown, -1: the newest that fit */
	int row_first;   /* Algorithm-1 view: the first layer row shown */
	int it_fit;      /* iterations that fitted, as last drawn */
	int it_shown;    /* the first iteration shown, as last drawn */
	int hist_page;   /* history view on a short screen: 0 iterations (2 before
	                  * Algorithm 1 has run), 1 κ against epochs, 2 accuracy per epoch */
	int plane_first; /* Plane view: the first neuron map shown, in pivot order */
	int plane_panel; /* Plane view: the panel shown when they are shown one at a time */
	unsigned plane_seen;  /* Plane view: the CRC-32 of the panels last shown (new ones show
	                       * the maps of the first layer they drop neurons from) */
	int plane_layer;      /* Plane view: the hidden layer chosen with Up and Down, 0: the
	                       * first the marks drop neurons from */
	int plane_shown;      /* Plane view: the hidden layer shown, as last drawn */
	unsigned plane_key;   /* Plane view: the layer and network of the maps last drawn (others
	                       * are shown from their start) */
	int net_col, net_row; /* network view: the layer (0 inputs .. m outputs) and the neuron
	                       * (from 0) chosen with the arrows */
	int net_first;        /* network view: the first layer drawn when they do not all fit */
	unsigned net_seen;    /* network view: the squeeze proposal last shown (a new one
	                       * chooses its first dropped neuron) */
	int net_lesson;       /* network view: 1 + the lesson position whose next removal
	                       * was chosen (once), 0: none */
	const char *prompt;   /* the question of an open prompt, or NULL */
	const char *input;    /* what was typed so far */
	int patience;         /* early stopping of the next t training, 0: none */
	const Lesson *lesson; /* the lesson played, or NULL */
	int play_paused;
	double delay;     /* seconds between a lesson's actions, 0: on keys */
	int present;      /* presentation mode: the view has the screen (P, --present) */
	int caption_open; /* a lesson's long caption whole in presentation mode (c) */
	int back_to;      /* the lesson screen a step back on its way goes to (2 × its
	                   * position, + 1 with a proposal), -1: none */
} UiState;

/* A view's name on its tab, long or brief (for a narrow screen). */
const char *views_name(ViewId v, int brief);

/* Draws the whole screen (the caller checks the minimum size first). */
void views_draw(const Shown *p, UiState *u);

#endif
