/* tui/layout.h - where the screen's parts go, as a function of the
 * terminal's size and what there is to show: the header, the tabs, a
 * lesson's caption (whole: the panel grows with it, or it takes the view's
 * place when it cannot fit beside one), the narration, the view, and the
 * progress, settings, status and key rows. In presentation mode the view
 * gets everything but one title row, the caption and the narration; the
 * progress row shows only while an operation runs and the bottom row only
 * for a prompt or a refusal; a caption longer than a quarter of the rows
 * folds to one row, the rest on a key (c), so that the view keeps the
 * screen. No curses here (tests/test_tui_layout.c). */
#ifndef CONDNET_TUI_LAYOUT_H
#define CONDNET_TUI_LAYOUT_H

/* The fewest rows a view gets beside a caption. */
#define LAYOUT_MIN_BODY 8

typedef struct LayoutIn {
	int cols, lines;
	int present;      /* presentation mode */
	int caption;      /* the caption's lines as wrapped to the width, 0: none */
	int narration;    /* presentation mode: the narration's lines, 0: none */
	int busy;         /* presentation mode: an operation runs (a progress row) */
	int bottom;       /* presentation mode: a prompt or a refusal to show */
	int caption_open; /* presentation mode: the caption whole however long (c) */
} LayoutIn;

typedef struct Layout {
	int header_rows;       /* rows 0.. of the header: 2, or 1 (presentation) */
	int tabs;              /* the tabs' row, -1: none */
	int cap_top, cap_rows; /* the caption's rows (0: none) */
	int caption_page;      /* 1: the caption takes the view's place */
	int caption_folded;    /* 1: one row of it, the rest on a key (presentation mode) */
	int narr_top, narr_rows;
	int body_top, body_bot; /* the view's rows, inclusive */
	int prog_row;           /* progress, -1: none */
	int set_row;            /* test accuracy and settings, -1: none */
	int status_row;         /* status or prompt, -1: none */
	int footer_row;         /* the keys, -1: none */
} Layout;

void layout_compute(const LayoutIn *in, Layout *out);

/* The caption rows the layout gives at most, in the mode and size of in
 * (more: a page of its own). */
int layout_caption_max(const LayoutIn *in);

#endif
