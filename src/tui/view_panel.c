/* tui/view_panel.c - the text panels over the views: the keys and the
 * explanations (the two pages of ?), the narration log and a squeeze's
 * whole pivot order. Long text wraps, and every panel scrolls. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "session/session_setting.h"
#include "tui/explain.h"
#include "tui/screen.h"
#include "tui/views_int.h"

/* Lines are counted on every draw; those in the window are drawn. */
typedef struct Win {
	int line, top, rows, y0;
	int x;
	ScrColor c;
	int bold;
} Win;

static void emit(const char *text, void *ud)
{
	Win *w = ud;
	if (w->line >= w->top && w->line < w->top + w->rows)
		screen_put(w->y0 + w->line - w->top, w->x, 0, w->c, w->bold, "%s", text);
	w->line++;
}

/* text at column x, wrapped to the screen's width. */
static void para(Win *w, int x, ScrColor c, int bold, const char *text)
{
	w->x = x;
	w->c = c;
	w->bold = bold;
	screen_wrap(text, COLS - x, 0, emit, w);
}

/* A key or term at x=2 and its text beside it from column tx (or below,
 * indented by 4, when tx is 0). */
static void entry(Win *w, const char *key, const char *text, int tx)
{
	if (!tx) {
		para(w, 2, C_TITLE, 1, key);
		para(w, 4, C_NORMAL, 0, text);
		return;
	}
	if (w->line >= w->top && w->line < w->top + w->rows)
		screen_put(w->y0 + w->line - w->top, 2, tx - 3, C_KEY, 1, "%s", key);
	w->x = tx;
	w->c = C_NORMAL;
	w->bold = 0;
	screen_wrap(text, COLS - tx, 0, emit, w);
}

static void keys_page(Win *w)
{
	for (int i = 0; i < session_nsettings; i++)
		entry(w, session_settings[i].help_keys, session_settings[i].help, 17);
	for (int i = 0; i < explain_nkeys; i++)
		entry(w, explain_keys[i].term, explain_keys[i].text, 17);
	w->line++;
	para(w, 2, C_DIM, 0,
	     "While an operation runs, the keys that start another are refused; τ and η changes "
	     "wait for it. Every action is written to the session log, and `condnet replay LOG` "
	     "repeats it; `condnet tui --play LOG` plays it as a lesson. The manual (man condnet) "
	     "explains every option and term.");
}

static void explain_page(Win *w)
{
	for (int i = 0; i < explain_nterms; i++)
		entry(w, explain_terms[i].term, explain_terms[i].text, 0);
}

static void log_page(const Shown *p, Win *w)
{
	int n = worker_narr_count(p);
	if (!n)
		para(w, 2, C_DIM, 0,
		     "Nothing has happened yet: every action says here what it did.");
	for (int k = 0; k < n; k++) {
		if (w->line >= w->top && w->line < w->top + w->rows)
			screen_put(w->y0 + w->line - w->top, 0, 2, C_KEY, 1, "%s",
			           screen_ascii() ? ">" : "▸");
		para(w, 2, C_NORMAL, 0, worker_narr(p, k));
	}
}

static void order_page(const Shown *p, Win *w)
{
	const ShownSqueeze *q = &p->sq;
	char buf[8192];
	if (!q->waiting) {
		para(w, 2, C_DIM, 0, "No squeeze proposal is waiting (z starts a squeeze).");
		return;
	}
	for (int part = 0; part < 2; part++) {
		size_t n = 0;
		int from = part ? q->nkeep : 0, to = part ? q->n_before : q->nkeep;
		n += (size_t)snprintf(buf, sizeof buf, "%s (%d):", part ? "removed" : "kept",
		                      to - from);
		for (int j = from; j < to && n + 12 < sizeof buf; j++)
			n += (size_t)snprintf(buf + n, sizeof buf - n, " %d", q->perm[j]);
		para(w, 2, part ? C_WARN : C_GOOD, 0, buf);
	}
}

static const char *title(const Shown *p, PanelId id, char *buf, size_t len)
{
	switch (id) {
	case PANEL_KEYS:
		return "Keys (page 1 of 2; ← → turn pages, ↑↓ scroll, Esc closes)";
	case PANEL_EXPLAIN:
		return "What the numbers mean (page 2 of 2; the manual says the same)";
	case PANEL_LOG:
		return "Narration: what every action did and why (newest last)";
	default:
		snprintf(buf, len,
		         "Pivoted-QR order of layer %d, neurons from 1, most independent first",
		         p->sq.layer);
		return buf;
	}
}

void view_panel(const Shown *p, UiState *u, int top, int bot)
{
	char tb[160];
	screen_put_cut(top, 0, COLS - 12, C_TITLE, 1, "%s", title(p, u->panel, tb, sizeof tb));
	Win w = {0, 0, bot - top, top + 1, 2, C_NORMAL, 0};
	/* count, then draw the window */
	Win count = {0, 1 << 30, 0, 0, 2, C_NORMAL, 0};
	for (int pass = 0; pass < 2; pass++) {
		Win *x = pass ? &w : &count;
		if (u->panel == PANEL_KEYS)
			keys_page(x);
		else if (u->panel == PANEL_EXPLAIN)
			explain_page(x);
		else if (u->panel == PANEL_LOG)
			log_page(p, x);
		else
			order_page(p, x);
		if (!pass) {
			u->lines = count.line;
			u->rows = w.rows;
			int max = u->lines > u->rows ? u->lines - u->rows : 0;
			if (u->top < 0 || u->top > max)
				u->top = max; /* -1 opens at the end */
			w.top = u->top;
		}
	}
	if (u->lines > u->rows)
		screen_put(top, COLS - 11, 11, C_KEY, 1, " %s %d/%d", u->top ? "▲" : " ",
		           u->top + u->rows < u->lines ? u->top + u->rows : u->lines, u->lines);
}
