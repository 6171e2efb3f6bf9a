/* tui/view_alg1.c - Algorithm 1's history: the widths of every iteration
 * with the marks its own τ decided, and the τ, η, max κ, Σ n_i and
 * accuracies each ran with or reached; it scrolls both ways. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "session/session_setting.h"
#include "tui/plot.h"
#include "tui/screen.h"
#include "tui/status.h"
#include "tui/views_int.h"

#define LW 10 /* the row labels */
#define CW 9  /* one iteration */

static void intro(int y)
{
	screen_put(y++, 0, 0, C_TITLE, 1, "Algorithm 1: no iterations yet");
	screen_put_cut(y++, 0, 0, C_NORMAL, 0,
	               "s: one iteration (the first trains the network from fresh weights for %s "
	               "epochs)",
	               S(ETA));
	screen_put_cut(y++, 0, 0, C_NORMAL, 0, "r: iterate until every %s %s %s", S(KAPPA),
	               screen_ascii() ? "<=" : "≤", S(TAU));
	screen_put_cut(y++, 0, 0, C_DIM, 0,
	               "Each iteration removes, from every hidden layer with %s > %s, as many "
	               "neurons as %s has singular values below %s%s/%s, and trains again.",
	               S(KAPPA), S(TAU), S(WHAT), S(SIGMA), screen_ascii() ? "_1" : "₁", S(TAU));
}

/* A key drawn large, in a box of three rows at (y, x); the columns taken. */
static int big_key(int y, int x, const char *key)
{
	int w = screen_width(key) + 2;
	const char *h = screen_ascii() ? "-" : "─";
	char line[128] = "";
	for (int k = 0; k < w && strlen(line) + 4 < sizeof line; k++)
		strcat(line, h);
	screen_put(y, x, 0, C_KEY, 1, "%s%s%s", screen_ascii() ? "+" : "┌", line,
	           screen_ascii() ? "+" : "┐");
	screen_put(y + 1, x, 0, C_KEY, 1, "%s %s %s", screen_ascii() ? "|" : "│", key,
	           screen_ascii() ? "|" : "│");
	screen_put(y + 2, x, 0, C_KEY, 1, "%s%s%s", screen_ascii() ? "+" : "└", line,
	           screen_ascii() ? "+" : "┘");
	return w + 2;
}

/* An empty chart frame at (top, left): its title, axes over [lo, hi] and
 * the iterations to come, and what it will hold. */
static void empty_chart(int top, int left, int rows, int cols, const char *title, double lo,
                        double hi, int ylog, double tau)
{
	screen_put_cut(top, left, cols, C_TITLE, 1, "%s", title);
	Plot pl;
	plot_range(&lo, &hi, ylog);
	if (plot_begin(&pl, top + 1, left, rows - 1, cols, 5, 1, 0, 1, ylog || lo > 0 ? lo : 0, hi,
	               ylog) < 0)
		return;
	if (tau > 0)
		plot_threshold(&pl, tau);
	plot_axes(&pl, 0, NULL, 1);
	if (tau > 0) {
		plot_hline(&pl, tau, C_MARK, NULL);
		plot_hlabel(&pl, tau, C_MARK, screen_ascii() ? "tau" : "τ");
	}
	plot_xticks(&pl, 0, 1, "it");
	screen_put_cut(pl.top + pl.rows / 2, pl.left + 2, pl.cols - 2, C_DIM, 0,
	               "drawn here from iteration 0 on");
	plot_end(&pl);
}

typedef struct Para {
	int y, bot, x;
	ScrColor c;
	int bold;
} Para;

static void para_line(const char *line, void *ud)
{
	Para *pa = ud;
	if (pa->y <= pa->bot)
		screen_put(pa->y++, pa->x, 0, pa->c, pa->bold, "%s", line);
}

/* Before any iteration, on a screen with rows to spare (presentation
 * mode): what the view will show, and the keys that start it, large. */
static void intro_large(const Shown *p, const UiState *u, int top, int bot)
{
	char text[600];
	snprintf(text, sizeof text,
	         "Algorithm 1 (proportions): no iteration yet. It trains %s = %g epochs, then "
	         "removes from every hidden layer with %s > %s = %g as many neurons as %s has "
	         "singular values below %s%s/%s, and trains again.",
	         S(ETA), p->set[SET_ETA], S(KAPPA), S(TAU), p->tau, S(WHAT), S(SIGMA),
	         screen_ascii() ? "_1" : "₁", S(TAU));
	Para pa = {top, bot, 0, C_TITLE, 1};
	screen_wrap(text, COLS, 0, para_line, &pa);
	int y = pa.y + 1, x = 2;
	int w = big_key(y, x, "s");
	screen_put_cut(y + 1, x + w + 1, COLS - x - w - 1, C_NORMAL, 1, "%s",
	               "one iteration: the first trains the network from fresh weights");
	y += 3;
	w = big_key(y, x, "r");
	screen_put_cut(y + 1, x + w + 1, COLS - x - w - 1, C_NORMAL, 1,
	               "iterations until every %s %s %s", S(KAPPA), screen_ascii() ? "<=" : "≤",
	               S(TAU));
	y += 3;
	if (u->lesson)
		screen_put_cut(y++, x, COLS - x, C_KEY, 0,
		               "(in a lesson, %s plays its next action, Algorithm 1 among them)",
		               S(ARROW));
	char shape[256];
	snprintf(text, sizeof text,
	         "This view will show, for every iteration: the width n_i of every layer, marked "
	         "! where %s > %s (p_i neurons go next); %s, %s, the largest %s, %s n_i and the "
	         "test accuracy; and, below, %s and the widths charted per iteration. Iteration "
	         "0 starts from the widths now: %s.",
	         S(KAPPA), S(TAU), S(TAU), S(ETA), S(KAPPA), S(SUM), S(KAPPA),
	         views_shape(p->n, p->m, shape, sizeof shape));
	pa = (Para){y + 1, bot, x, C_NORMAL, 0};
	screen_wrap(text, COLS - x, 0, para_line, &pa);
	y = pa.y + 1;
	/* the charts to come, in the rows left */
	int rows = bot - y + 1, half = COLS / 2;
	if (rows < 6 || p->m < 1)
		return;
	char t1[96], t2[96];
	snprintf(t1, sizeof t1, "%s per iteration (log), the line %s", S(KAPPA), S(TAU));
	snprintf(t2, sizeof t2, "n_i per iteration");
	empty_chart(y, 0, rows, half - 1, t1, 1, 10 * p->tau, 1, p->tau);
	int most = 1;
	for (int i = 1; i < p->m; i++)
		most = p->n[i] > most ? p->n[i] : most;
	empty_chart(y, half + 1, rows, COLS - half - 1, t2, 0, most, 0, 0);
}

/* Where Algorithm 1 stands; brief: without the why (the narration says
 * it whole). */
static const char *state(const Shown *p, int brief, char *buf, size_t len)
{
	if (p->alg1_status == ALG1_RUNNING && p->alg1_live)
		snprintf(buf, len, "more to do (s steps, r runs)");
	else if (p->alg1_status == ALG1_RUNNING)
		snprintf(buf, len,
		         brief ? "the network has changed since"
		               : "the network has changed since: the next s starts "
		                 "afresh from it");
	else if (brief)
		snprintf(buf, len, "%s", alg1_status_name((Alg1Status)p->alg1_status));
	else {
		char why[sizeof p->alg1_reason * 2];
		snprintf(buf, len, "%s: %s", alg1_status_name((Alg1Status)p->alg1_status),
		         status_symbols(p->alg1_reason, why, sizeof why));
	}
	return buf;
}

/* One summary row: k 0 τ, 1 η, 2 max κ, 3 Σ n_i, 4 test accuracy, 5 training error. */
static void summary_row(const Shown *p, int k, int y, int first, int fit)
{
	static const char *const name[] = {"τ", "η", "max κ", "Σ n_i", "test acc %", "err tr %"};
	screen_put(y, 0, LW, C_TITLE, 1, "%s", name[k]);
	for (int r = first; r < p->nrec && r < first + fit; r++) {
		const Alg1Record *rc = &p->rec[r];
		char v[48];
		if (k == 0)
			snprintf(v, sizeof v, "%g", rc->tau);
		else if (k == 1)
			snprintf(v, sizeof v, "%g", rc->eta);
		else if (k == 2)
			views_kappa(rc->max_kappa, rc->tau, v, sizeof v);
		else if (k == 3)
			snprintf(v, sizeof v, "%ld", rc->sum_n);
		else if (k == 4)
			snprintf(v, sizeof v, isnan(rc->eval_error) ? "-" : "%.2f",
			         100 * (1 - rc->eval_error));
		else
			snprintf(v, sizeof v, "%.2f", 100 * rc->train_error);
		screen_put(y, LW + (r - first) * CW, CW, C_NORMAL, 0, "%8s", v);
	}
}

/* The title, where the iterations shown are among all, and their heads;
 * the row after them. */
static int heads(const Shown *p, int y, int first, int last)
{
	char st[400], ind[64] = "";
	if (first > 0 || last < p->nrec)
		snprintf(ind, sizeof ind, " %s it %d-%d of 0-%d %s", first ? "◀" : " ",
		         p->rec[first].iter, p->rec[last - 1].iter, p->rec[p->nrec - 1].iter,
		         last < p->nrec ? "▶" : " ");
	int iw = screen_width(ind);
	/* the state whole where it fits, else without its why */
	char head[sizeof st + 40];
	for (int brief = 0; brief < 2; brief++) {
		snprintf(head, sizeof head, "Algorithm 1, iterations 0-%d: %s", p->nrec - 1,
		         state(p, brief, st, sizeof st));
		if (screen_width(head) <= COLS - iw)
			break;
	}
	screen_put_cut(y, 0, COLS - iw, C_TITLE, 1, "%s", head);
	screen_put(y++, COLS - iw, iw, C_KEY, 1, "%s", ind);
	screen_put(y, 0, LW, C_TITLE, 1, "layer");
	for (int r = first; r < last; r++) {
		char h[16];
		snprintf(h, sizeof h, "it %d", p->rec[r].iter);
		screen_put(y, LW + (r - first) * CW, CW, C_TITLE, 1, "%8s", h);
	}
	return y + 1;
}

/* rows of the layers' widths from u->row_first on, each marked where κ > τ
 * as decided then (at the τ its iteration ran with), and the scroll marks;
 * the row after them. */
static int layer_rows(const Shown *p, const UiState *u, int y, int rows, int first, int last)
{
	int m = p->rec[0].m, mr = rows < m ? m - 1 : m; /* the output's row first */
	for (int i = u->row_first + 1; i <= mr && i <= u->row_first + rows; i++, y++) {
		screen_put(y, 0, LW, C_NORMAL, 0, "%5d%s", i, i == m ? " out" : "");
		for (int r = first; r < last; r++) {
			const Alg1Record *rc = &p->rec[r];
			int over = i < m && cond_over(rc->kappa[i - 1], rc->tau);
			char v[16];
			snprintf(v, sizeof v, "%d%s", rc->n[i], over ? "!" : " ");
			screen_put(y, LW + (r - first) * CW, CW, over ? C_WARN : C_NORMAL, 0, "%9s",
			           v);
		}
	}
	if (mr > rows)
		screen_put(y - 1, 6 + (m > 9), 3, C_KEY, 1, "%s%s", u->row_first ? "▲" : "",
		           u->row_first + rows < mr ? "▼" : "");
	return y;
}

void view_alg1(const Shown *p, UiState *u, int top, int bot)
{
	int y = top;
	if (!p->nrec) {
		if (bot - top + 1 >= 16)
			intro_large(p, u, top, bot);
		else
			intro(y);
		return;
	}
	int m = p->rec[0].m, fit = (COLS - LW) / CW;
	/* the table whole, then κ and the widths per iteration in the rows it
	 * leaves, when they are enough for the charts; in presentation mode the
	 * table gives the charts its rows, down to the title, the head, the
	 * hidden layers, two summary rows (the test accuracy, Σ n_i) and its
	 * key, and the blank row between them goes too */
	int whole = 2 + m + 6 + 1, charts_top = -1, full_bot = bot;
	int crows = views_iterations_rows(u, m, COLS / 2 - 1), height = bot - top + 1;
	if (height - whole >= crows + 1) {
		bot = top + whole - 1;
		charts_top = bot + 2;
	} else if (u->present && height - crows >= 2 + (m - 1) + 2 + 1) {
		bot = top + height - crows - 1;
		charts_top = bot + 1;
	}
	int newest = p->nrec > fit ? p->nrec - fit : 0, first = u->it_first;
	if (first < 0 || first > newest)
		first = newest; /* -1 follows the newest iterations */
	u->it_fit = fit;
	u->it_shown = first;
	int last = first + fit < p->nrec ? first + fit : p->nrec;
	y = heads(p, y, first, last);
	/* the layers' rows first; the summary rows take what is left, the least
	 * needed giving way first */
	int avail = bot - y, nsum = avail - m;
	if (nsum < 2)
		nsum = avail - 1 < 2 ? (avail - 1 > 0 ? avail - 1 : 0) : 2;
	nsum = nsum > 6 ? 6 : nsum;
	int rows = avail - nsum;
	if (rows < 1)
		rows = 1;
	if (u->row_first > m - rows)
		u->row_first = m - rows;
	if (u->row_first < 0)
		u->row_first = 0;
	/* the output layer's row (never reduced) goes first when rows are few */
	int mr = rows < m ? m - 1 : m;
	if (u->row_first > mr - rows)
		u->row_first = mr - rows > 0 ? mr - rows : 0;
	y = layer_rows(p, u, y, rows, first, last);
	/* the summary rows kept, by need: test accuracy, Σ n_i, τ, max κ, η,
	 * the training error; drawn in their own order */
	static const int need[6] = {4, 3, 0, 2, 1, 5};
	int shown[6] = {0};
	for (int k = 0; k < nsum; k++)
		shown[need[k]] = 1;
	for (int k = 0; k < 6 && y <= bot - 1; k++)
		if (shown[k])
			summary_row(p, k, y++, first, fit);
	screen_put_items(
	    bot, 0, 0, C_DIM, 0,
	    "n_i per iteration; ! %s > %s at that iteration's %s: p_i neurons went next   "
	    "%s Home End scroll, %s layers",
	    S(KAPPA), S(TAU), S(TAU), screen_ascii() ? "<- ->" : "← →",
	    screen_ascii() ? "Up Down" : "↑↓");
	if (charts_top >= 0) {
		int half = COLS / 2, ch = full_bot - charts_top + 1;
		views_kappa_iterations(p, u, charts_top, 0, ch, half - 1);
		views_widths_iterations(p, u, charts_top, half + 1, ch, COLS - half - 1);
	}
}
