/* tui/view_sweep.c - Algorithm 2's β sweep: ε_tr, ε_v and 2ε_v − ε_tr
 * against β on an axis fitted to the values near the least criterion and
 * broken above them for the far ones (every point on the chart), the q
 * trials' spread, the pick, and the table beside. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui/plot.h"
#include "tui/screen.h"
#include "tui/status.h"
#include "tui/views_int.h"

#define TW 37 /* the table */

static void intro(const Shown *p, int y)
{
	screen_put(y++, 0, 0, C_TITLE, 1, "Algorithm 2: no %s sweep yet%s", S(BETA),
	           p->sweep_state == 1 ? " (starting)" : "");
	screen_put_cut(
	    y++, 0, 0, C_NORMAL, 0,
	    "b: scale every hidden width by each %s, train q times for %s epochs, pick the "
	    "least 2%s_v %s %s_tr",
	    S(BETA), S(ETA), S(EPS), S(MINUS), S(EPS));
	screen_put_cut(y++, 0, 0, C_DIM, 0,
	               "2%s_v %s %s_tr is the validation error plus the generalisation gap (x "
	               "explains).",
	               S(EPS), S(MINUS), S(EPS));
}

static void table(const Shown *p, int top, int bot, int x)
{
	char h[4][32];
	screen_put(top, x, TW, C_TITLE, 1, "%s %s %s %s %2s", screen_pad(S(BETA), 6, 1, h[0], 32),
	           screen_pad("ε_tr%", 6, 1, h[1], 32), screen_pad("ε_v%", 6, 1, h[2], 32),
	           screen_pad("2ε_v−ε_tr", 9, 1, h[3], 32), "n");
	for (int i = 0; i < p->nbeta && top + 1 + i <= bot; i++) {
		const ReportBeta *b = &p->beta[i];
		ScrColor c = i == p->pick ? C_MARK : b->done ? C_NORMAL : C_DIM;
		if (b->done)
			screen_put(top + 1 + i, x, TW, c, i == p->pick,
			           "%6.2f %6.2f %6.2f %9.2f %2d%s", b->beta, 100 * b->err_tr,
			           100 * b->err_v, 100 * b->score, b->done,
			           i == p->pick ? " <" : "");
		else
			screen_put(top + 1 + i, x, TW, c, 0, "%6.2f %6s %6s %9s %2d", b->beta, "-",
			           "-", "-", 0);
	}
	if (top + 1 + p->nbeta > bot + 1)
		screen_put(bot, x, TW, C_KEY, 0, "%s %d more (e exports all)", S(ELLIPSIS),
		           top + 1 + p->nbeta - bot - 1);
}

/* The y range, in percent: from the least value up to the means near the
 * least criterion, so that the curves around the pick stand apart; *top
 * the largest value of all (a far worse β, an underfit network, or a
 * spread), which the chart holds too, above a break of its axis when it
 * lies far above the rest. Returns 1 for a broken axis. */
static int y_range(const Shown *p, double *lo, double *hi, double *top)
{
	double best = INFINITY, most = -INFINITY;
	*lo = INFINITY;
	for (int i = 0; i < p->nbeta; i++) {
		const ReportBeta *b = &p->beta[i];
		if (!b->done)
			continue;
		best = fmin(best, 100 * b->score);
		double v[] = {b->err_tr, b->err_v, b->score, b->smin, b->smax};
		for (size_t k = 0; k < sizeof v / sizeof *v; k++)
			if (!isnan(v[k])) {
				*lo = fmin(*lo, 100 * v[k]);
				most = fmax(most, 100 * v[k]);
			}
	}
	if (!isfinite(*lo)) {
		*lo = 0, *hi = *top = 1;
		return 0;
	}
	/* near the minimum: within twice its height above the floor (at least
	 * half a percentage point), the means only */
	double near = best + 2 * fmax(best - *lo, 0.5);
	*hi = best;
	for (int i = 0; i < p->nbeta; i++) {
		const ReportBeta *b = &p->beta[i];
		double v[] = {b->err_tr, b->err_v, b->score};
		for (size_t k = 0; b->done && k < sizeof v / sizeof *v; k++)
			if (!isnan(v[k]) && 100 * v[k] <= near)
				*hi = fmax(*hi, 100 * v[k]);
	}
	*top = most;
	return most > 1.5 * *hi && most - *hi > 1;
}

/* [lo, hi] widened to round values, never below 0 when lo is not. */
static void framed(double *lo, double *hi)
{
	int nonneg = *lo >= 0;
	plot_range(lo, hi, 0);
	if (nonneg && *lo < 0)
		*lo = 0;
}

static int plot(const Shown *p, int top, int rows, int cols)
{
	double lo, hi, most, b0 = p->beta[0].beta, b1 = p->beta[p->nbeta - 1].beta;
	double pad = b1 > b0 ? (b1 - b0) * 0.04 : 0.5;
	int brk = y_range(p, &lo, &hi, &most);
	double flo = lo, fhi = brk ? hi : most;
	framed(&flo, &fhi);
	Plot pl;
	if (plot_begin(&pl, top, 0, rows, cols, 7, 2, b0 - pad, b1 + pad, flo, fhi, 0) < 0)
		return 0;
	/* what lies far above: a third of the rows over the break */
	if (brk && (most <= fhi || plot_break(&pl, most, pl.rows / 3 > 2 ? pl.rows / 3 : 2) < 0)) {
		/* too few rows to break the axis: one scale holds all */
		brk = 0;
		plot_end(&pl);
		flo = lo, fhi = most;
		framed(&flo, &fhi);
		if (plot_begin(&pl, top, 0, rows, cols, 7, 2, b0 - pad, b1 + pad, flo, fhi, 0) < 0)
			return 0;
	}
	double span = fhi - flo;
	/* a marker whose cell is taken moves along its row, a blank column
	 * short of the next β's */
	int gap = pl.cols;
	for (int i = 1; i < p->nbeta; i++) {
		int g = plot_x(&pl, p->beta[i].beta) - plot_x(&pl, p->beta[i - 1].beta);
		gap = g < gap ? g : gap;
	}
	pl.xslack = gap > 2 ? (gap - 2) / 2 : 0;
	plot_axes(&pl, span >= 10 ? 0 : span >= 1 ? 1 : 2, "%", 1);
	for (int i = 0; i < p->nbeta; i++) {
		const ReportBeta *b = &p->beta[i];
		if (b->done && !isnan(b->smin) && b->smax > b->smin)
			plot_vbar(&pl, b->beta, 100 * b->smin, 100 * b->smax, C_DIM);
	}
	for (int i = 0, last = -1; i < p->nbeta; i++) {
		const ReportBeta *b = &p->beta[i], *a = last >= 0 ? &p->beta[last] : NULL;
		if (!b->done)
			continue;
		if (a) {
			plot_line(&pl, a->beta, 100 * a->err_tr, b->beta, 100 * b->err_tr, C_GOOD);
			plot_line(&pl, a->beta, 100 * a->err_v, b->beta, 100 * b->err_v, C_TITLE);
			plot_line(&pl, a->beta, 100 * a->score, b->beta, 100 * b->score, C_KEY);
		}
		last = i;
	}
	for (int i = 0; i < p->nbeta; i++) {
		const ReportBeta *b = &p->beta[i];
		char lab[16];
		snprintf(lab, sizeof lab, "%g", b->beta);
		plot_xlabel(&pl, b->beta, i == p->pick ? C_MARK : C_DIM, i == p->pick, lab);
		if (!b->done)
			continue;
		plot_mark(&pl, b->beta, 100 * b->score, i == p->pick ? C_MARK : C_KEY, 1,
		          i == p->pick ? "*" : "s");
		plot_mark(&pl, b->beta, 100 * b->err_v, C_TITLE, 1, "v");
		plot_mark(&pl, b->beta, 100 * b->err_tr, C_GOOD, 1, "t");
	}
	int shared = pl.nshared > 0;
	plot_end(&pl);
	return brk | shared << 1;
}

static const char *state(const Shown *p, char *buf, size_t len)
{
	int done = 0, total = 0;
	for (int i = 0; i < p->nbeta; i++)
		done += p->beta[i].done, total += p->q;
	if (p->sweep_state == 1)
		snprintf(buf, len, "running, trial %d of %d", done + 1, total);
	else if (p->sweep_state == 2 && p->pick >= 0)
		snprintf(buf, len, "finished, pick %s = %g (the least 2%s_v %s %s_tr)", S(BETA),
		         p->beta[p->pick].beta, S(EPS), S(MINUS), S(EPS));
	else if (p->sweep_state == 3)
		snprintf(buf, len, "cancelled after %d of %d trials", done, total);
	else
		snprintf(buf, len, "%d of %d trials", done, total);
	return buf;
}

/* What there is to do with the pick: adopt it, or nothing more once the
 * network has its widths (adopted; a hint then would be spent). */
static void pick_hint(const Shown *p, const UiState *u, int y)
{
	char cur[256];
	double beta = p->beta[p->pick].beta;
	if (!strcmp(status_shape(p, cur, sizeof cur), p->pick_shape))
		screen_put_cut(y, 0, 0, C_GOOD, 0, "the network has the pick's widths %s (%s %g)",
		               p->pick_shape, S(BETA), beta);
	else if (u->lesson)
		screen_put_cut(y, 0, 0, C_KEY, 0, "the pick: %s (%s %g)", p->pick_shape, S(BETA),
		               beta);
	else
		screen_put_cut(y, 0, 0, C_KEY, 0,
		               "A adopts the pick: a fresh network %s (%s %g), u undoes it",
		               p->pick_shape, S(BETA), beta);
}

void view_sweep(const Shown *p, UiState *u, int top, int bot)
{
	char st[200];
	if (!p->nbeta) {
		intro(p, top);
		return;
	}
	screen_put_cut(top, 0, 0, C_TITLE, 1, "Algorithm 2, q = %d, %s = %g: %s", p->q, S(ETA),
	               p->sweep_eta, state(p, st, sizeof st));
	int tx = COLS - TW, rows = bot - 2 - top;
	table(p, top + 1, bot - 2, tx);
	int drew = plot(p, top + 1, rows, tx - 1), brk = drew & 1;
	char key[300];
	for (int k = 0; k < 3; k++) {
		snprintf(key, sizeof key,
		         "t %s_tr  v %s_v  s 2%s_v%s%s_tr  | min%smax of s%s  * pick%s%s%s", S(EPS),
		         S(EPS), S(EPS), S(MINUS), S(EPS), screen_ascii() ? "-" : "–",
		         k ? "" : " (q trials)",
		         brk ? (screen_ascii() ? "  ~ log above" : "  ≈ log above") : "",
		         drew & 2 ? "  " : "", drew & 2 ? plot_shared_key(k == 2) : "");
		if (screen_width(key) <= COLS)
			break;
	}
	screen_put_cut(bot - 1, 0, 0, C_DIM, 0, "%s", key);
	if (p->sweep_state == 2 && p->pick >= 0 && p->pick < p->nbeta)
		pick_hint(p, u, bot);
}
