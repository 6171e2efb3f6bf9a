/* tui/view_history.c - charts of what happened: κ of every layer across
 * Algorithm-1 iterations, Σ n_i and the test accuracy per iteration, κ of
 * every layer against epochs while the last training ran (the paper's
 * Tables 14-15: κ settles within an epoch), and the last t training's
 * validation curve, the epoch early stopping keeps marked. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui/plot.h"
#include "tui/screen.h"
#include "tui/views_int.h"

static const ScrColor layer_color[] = {C_GOOD, C_TITLE, C_KEY, C_MARK, C_WARN, C_NORMAL};

/* The glyph of layer i (from 1): 1-9, then a, b, … */
static const char *glyph(int i, char *buf)
{
	buf[0] = (char)(i < 10 ? '0' + i : 'a' + (i - 10) % 26);
	buf[1] = '\0';
	return buf;
}

/* A log-scale κ chart of m series over x[0..n): kappa(r, i) gives κ of layer
 * i at point r. */
typedef double (*KappaAt)(const Shown *p, int r, int i);

static double rec_kappa(const Shown *p, int r, int i)
{
	return p->rec[r].kappa[i];
}

static double rec_x(const Shown *p, int r)
{
	return p->rec[r].iter;
}

static double ser_kappa(const Shown *p, int r, int i)
{
	return p->ks.kappa[(size_t)r * (size_t)p->ks.m + (size_t)i];
}

static double ser_x(const Shown *p, int r)
{
	return p->ks.epoch[r];
}

static void kappa_chart(const Shown *p, int top, int left, int rows, int cols, int n, int m,
                        double x0, double x1, double (*xat)(const Shown *, int), KappaAt kat,
                        int every)
{
	double lo = p->tau, hi = p->tau;
	for (int r = 0; r < n; r++)
		for (int i = 0; i < m; i++) {
			double k = kat(p, r, i);
			if (isfinite(k) && k > 0) {
				lo = fmin(lo, k);
				hi = fmax(hi, k);
			}
		}
	plot_range(&lo, &hi, 1);
	Plot pl;
	if (plot_begin(&pl, top, left, rows, cols, 5, 1, x0, x1, lo, hi, 1) < 0)
		return;
	pl.vfirst = 1;
	plot_axes(&pl, 0, NULL, 1);
	plot_hline(&pl, p->tau, C_MARK, NULL);
	for (int i = 0; i < m; i++)
		for (int r = 1; r < n; r++) {
			double a = kat(p, r - 1, i), b = kat(p, r, i);
			plot_line(&pl, xat(p, r - 1), isfinite(a) ? a : hi, xat(p, r),
			          isfinite(b) ? b : hi, layer_color[i % 6]);
		}
	char g[4], lab[24];
	for (int r = 0; r < n; r++)
		for (int i = 0; i < m; i++)
			if (r % every == 0 || r == n - 1) {
				double k = kat(p, r, i);
				plot_mark(&pl, xat(p, r), isfinite(k) ? k : hi, layer_color[i % 6],
				          1, isfinite(k) ? glyph(i + 1, g) : "^");
			}
	plot_hlabel(&pl, p->tau, C_MARK, screen_ascii() ? "tau" : "τ");
	snprintf(lab, sizeof lab, "%g", x0);
	plot_xlabel(&pl, x0, C_DIM, 0, lab);
	snprintf(lab, sizeof lab, x1 == floor(x1) ? "%.0f" : "%.3g", x1);
	plot_xlabel(&pl, x1, C_DIM, 0, lab);
	plot_end(&pl);
}

static double small_value(const Shown *p, int which, int r)
{
	return which ? 100 * (1 - p->rec[r].eval_error) : (double)p->rec[r].sum_n;
}

/* Too few rows for a plot: the first and last values and a one-row chart. */
static void small_spark(const Shown *p, int which, int y, int left, int cols, double lo, double hi)
{
	static const char *const lv[8] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
	static const char la[8] = {'_', '.', '-', ':', '=', '+', '*', '#'};
	int n = p->nrec < cols - 1 ? p->nrec : cols - 1;
	for (int k = 0; k < n; k++) {
		int r = (int)((long)k * p->nrec / n);
		double v = small_value(p, which, r), t = hi > lo ? (v - lo) / (hi - lo) : 1;
		int l = isnan(v) ? 0 : (int)(t * 7.999);
		l = l < 0 ? 0 : l > 7 ? 7 : l;
		if (screen_ascii())
			screen_put(y, left + k, 1, which ? C_GOOD : C_TITLE, 0, "%c", la[l]);
		else
			screen_put(y, left + k, 1, which ? C_GOOD : C_TITLE, 0, "%s", lv[l]);
	}
}

/* Σ n_i (which 0) or the test accuracy (1) per iteration: a plot, or a
 * one-row chart when rows are few. */
static void small_chart(const Shown *p, int which, int top, int left, int rows, int cols)
{
	double lo = INFINITY, hi = -INFINITY;
	for (int r = 0; r < p->nrec; r++) {
		double v = small_value(p, which, r);
		if (!isnan(v))
			lo = fmin(lo, v), hi = fmax(hi, v);
	}
	double first = small_value(p, which, 0), last = small_value(p, which, p->nrec - 1);
	if (!which)
		screen_put_cut(top, left, cols, C_TITLE, 1, "%s n_i %.0f%s%.0f per iteration",
		               S(SUM), first, S(ARROW), last);
	else
		screen_put_cut(top, left, cols, C_TITLE, 1, "test accuracy %.2f%s%.2f %%", first,
		               S(ARROW), last);
	if (!isfinite(lo))
		return;
	if (rows < 6) {
		small_spark(p, which, top + 1, left, cols, lo, hi);
		return;
	}
	plot_range(&lo, &hi, 0);
	if (which && hi > 100 && lo < 100)
		hi = 100; /* an accuracy */
	Plot pl;
	double x1 = p->rec[p->nrec - 1].iter;
	if (plot_begin(&pl, top + 1, left, rows - 1, cols, 6, 1, 0, x1 > 0 ? x1 : 1, lo, hi, 0) < 0)
		return;
	plot_axes(&pl, which && hi - lo < 10 ? 1 : 0, NULL, 1);
	for (int r = 0; r < p->nrec; r++) {
		double v = small_value(p, which, r);
		if (r > 0)
			plot_line(&pl, p->rec[r - 1].iter, small_value(p, which, r - 1),
			          p->rec[r].iter, v, C_DIM);
		plot_mark(&pl, p->rec[r].iter, v, which ? C_GOOD : C_TITLE, 1,
		          screen_ascii() ? "o" : "•");
	}
	plot_end(&pl);
}

/* The layers' glyphs in their colours, from x up to xmax. */
static void legend(int y, int x, int xmax, int m)
{
	char g[4];
	if (x + 8 + 2 * m > xmax)
		return;
	x += screen_put(y, x, 0, C_DIM, 0, " layers ");
	for (int i = 0; i < m && x < xmax - 1; i++)
		x += 1 + screen_put(y, x, 2, layer_color[i % 6], 1, "%s", glyph(i + 1, g));
}

/* κ, Σ n_i and the test accuracy per Algorithm-1 iteration in rows top..bot. */
static void iterations(const Shown *p, int top, int bot)
{
	int h = bot - top + 1, lw = COLS * 3 / 5;
	if (!p->nrec) {
		screen_put_cut(top, 0, 0, C_DIM, 0,
		               "Algorithm 1 has not run: s steps it, and %s, %s n_i and the test "
		               "accuracy of every iteration are charted here.",
		               S(KAPPA), S(SUM));
		return;
	}
	int m = p->rec[0].m, n = p->nrec;
	int x = screen_put(top, 0, lw, C_TITLE, 1, "%s(%s) per Algorithm-1 iteration (log)",
	                   S(KAPPA), S(WHAT));
	legend(top, x, lw - 1, m);
	kappa_chart(p, top + 1, 0, h - 1, lw - 1, n, m, 0,
	            p->rec[n - 1].iter > 0 ? p->rec[n - 1].iter : 1, rec_x, rec_kappa,
	            n > (lw - 8) / 2 ? n / ((lw - 8) / 2) + 1 : 1);
	small_chart(p, 0, top, lw, h / 2, COLS - lw);
	small_chart(p, 1, top + h / 2, lw, h - h / 2, COLS - lw);
}

/* κ of every layer against epochs of the last training in rows top..bot,
 * columns left to left + cols - 1. */
static void epochs(const Shown *p, int top, int bot, int left, int cols)
{
	const ShownSeries *k = &p->ks;
	if (!k->n) {
		screen_put_cut(top, left, cols, C_DIM, 0,
		               "No training yet: t trains, s steps Algorithm 1; %s of every layer "
		               "against epochs shows here.",
		               S(KAPPA));
		return;
	}
	char title[200];
	snprintf(title, sizeof title, "%s(%s) against epochs: %s", S(KAPPA), S(WHAT), k->what);
	if (screen_width(title) < cols)
		legend(top, left + screen_put(top, left, cols, C_TITLE, 1, "%s", title),
		       left + cols, k->m);
	else
		screen_put_cut(top, left, cols, C_TITLE, 1, "%s", title);
	/* the training's length while it runs, the epochs it ran once it ended
	 * (early stopping ends before the cap) */
	double x1 = p->busy && k->epochs > 0 ? k->epochs : k->epoch[k->n - 1];
	kappa_chart(p, top + 1, left, bot - top, cols, k->n, k->m, 0, x1 > 0 ? x1 : 1, ser_x,
	            ser_kappa, k->n > 12 ? k->n / 12 : 1);
}

/* The title of the validation curve: what trained, and what early
 * stopping did or does. */
static void curve_title(const ShownEpochs *k, int top, int left, int cols)
{
	char what[320];
	int best = k->best;
	if (!k->val)
		snprintf(what, sizeof what, "no validation split (S sets early stopping)");
	else if (k->done)
		snprintf(what, sizeof what, "%d of %d epochs%s, kept %d (%.2f%%)", k->n, k->epochs,
		         k->stopped_early ? ", early stop" : "", best,
		         best > 0 && best <= k->n ? 100 * k->val_acc[best - 1] : NAN);
	else
		snprintf(what, sizeof what, "epoch %d of %d, best %d (%.2f%%)", k->n, k->epochs,
		         best, best > 0 && best <= k->n ? 100 * k->val_acc[best - 1] : NAN);
	int x = screen_put(top, left, cols, C_TITLE, 1, "%s: ",
	                   k->val ? (screen_ascii() ? "o validation . training accuracy"
	                                            : "• validation · training accuracy")
	                          : "training accuracy per epoch");
	/* the last epoch's rate and what trained only where they fit: never cut */
	size_t n = strlen(what);
	snprintf(what + n, sizeof what - n, ", lr %.3g", k->lr[k->n - 1]);
	if (x + screen_width(what) > cols)
		what[n] = '\0';
	n = strlen(what);
	snprintf(what + n, sizeof what - n, ", %s", k->what);
	if (x + screen_width(what) > cols)
		what[n] = '\0';
	screen_put_cut(top, left + x, cols - x, C_NORMAL, 0, "%s", what);
}

/* The accuracy per epoch of the last t training: validation (•, drawn
 * over) and training (·), and the kept (or best so far) epoch marked with a
 * bar and a *. */
static void curve(const Shown *p, int top, int left, int rows, int cols)
{
	const ShownEpochs *k = &p->ep;
	if (!k->n) {
		screen_put_cut(top, left, cols, C_DIM, 0,
		               "No t training yet: its validation accuracy per epoch shows here.");
		return;
	}
	curve_title(k, top, left, cols);
	double lo = INFINITY, hi = -INFINITY;
	for (int r = 0; r < k->n; r++) {
		lo = fmin(lo, 100 * k->acc[r]), hi = fmax(hi, 100 * k->acc[r]);
		if (k->val)
			lo = fmin(lo, 100 * k->val_acc[r]), hi = fmax(hi, 100 * k->val_acc[r]);
	}
	plot_range(&lo, &hi, 0);
	if (hi > 100 && lo < 100)
		hi = 100;
	Plot pl;
	/* the epochs run when done; while early stopping runs, room to grow
	 * (the cap may never come); else the cap */
	int x1 = k->done ? k->n : k->val ? (k->n < 5 ? 10 : 2 * k->n) : k->epochs;
	x1 = x1 < k->n ? k->n : k->epochs > 0 && x1 > k->epochs ? k->epochs : x1;
	/* half an epoch of margin: the first epoch's bar stays off the axis */
	if (plot_begin(&pl, top + 1, left, rows - 1, cols, 6, 1, 0.5, x1 + 0.5, lo, hi, 0) < 0)
		return;
	plot_axes(&pl, hi - lo < 10 ? 1 : 0, "%", 1);
	int best = k->val && k->best > 0 && k->best <= k->n ? k->best : 0;
	if (best)
		plot_vbar(&pl, best, lo, hi, C_MARK);
	const char *dot = screen_ascii() ? "o" : "•", *small = screen_ascii() ? "." : "·";
	for (int r = 0; r < k->n; r++)
		plot_dot(&pl, r + 1, 100 * k->acc[r], C_DIM, small);
	/* dots, not markers: a marker moved off a full column would misstate a value */
	for (int r = 0; r < k->n; r++)
		plot_dot(&pl, r + 1, 100 * (k->val ? k->val_acc[r] : k->acc[r]), C_GOOD, dot);
	if (best)
		plot_dot(&pl, best, 100 * k->val_acc[best - 1], C_MARK, "*");
	char lab[32];
	if (best) {
		snprintf(lab, sizeof lab, "%s %d", k->done ? "kept" : "best", best);
		plot_xlabel(&pl, best, C_MARK, 1, lab);
	}
	plot_xlabel(&pl, 1, C_DIM, 0, "1");
	snprintf(lab, sizeof lab, "%d", x1);
	plot_xlabel(&pl, x1, C_DIM, 0, lab);
	plot_end(&pl);
}

void view_history(const Shown *p, UiState *u, int top, int bot)
{
	int h = bot - top + 1;
	if (h >= 22) {
		int lw = COLS * 3 / 5;
		iterations(p, top, top + h / 2 - 1);
		epochs(p, top + h / 2, bot, 0, lw - 1);
		curve(p, top + h / 2, lw, h - h / 2, COLS - lw);
		return;
	}
	/* a short screen: one chart at a time */
	static const char *const next[] = {"κ against epochs of the last training",
	                                   "the accuracy per epoch of the last t training",
	                                   "the Algorithm-1 iterations"};
	int pg = u->hist_page % 3;
	if (pg == 1)
		epochs(p, top, bot - 1, 0, COLS);
	else if (pg == 2)
		curve(p, top, 0, bot - top, COLS);
	else
		iterations(p, top, bot - 1);
	screen_put_cut(bot, 0, 0, C_KEY, 0, "%s shows %s", u->lesson ? "< >" : "← →", next[pg]);
}
