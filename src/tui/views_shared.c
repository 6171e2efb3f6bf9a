/* tui/views_shared.c - what the views and their frame share: the number
 * formats of κ and of a network's widths, the plot of a decreasing profile
 * against 1/τ, and what the header shows of the data set. */
#include <curses.h>
#include <math.h>
#include <stdio.h>

#include "engine/cond.h"
#include "tui/plot.h"
#include "tui/screen.h"
#include "tui/status.h"
#include "tui/views_int.h"

const char *views_kappa(double k, double tau, char *buf, size_t len)
{
	if (isinf(k))
		snprintf(buf, len, "%s", S(INF));
	else if (isnan(k))
		snprintf(buf, len, "-");
	else
		cond_kappa_str(k, tau, buf, len);
	return buf;
}

const char *views_shape(const int *n, int m, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; n && i <= m && k + 16 < len;) {
		int run = 1;
		while (i > 0 && i + run < m && n[i + run] == n[i])
			run++;
		if (run > 2 && i < m)
			k += (size_t)snprintf(buf + k, len - k, "%s%d%s%d", i ? "-" : "", n[i],
			                      S(TIMES), run);
		else
			run = 1,
			k += (size_t)snprintf(buf + k, len - k, "%s%d", i ? "-" : "", n[i]);
		i += run;
	}
	return buf;
}

void views_profile(int top, int left, int rows, int cols, const char *title, const double *v, int n,
                   int total, double tau, int keep)
{
	screen_put_cut(top, left, cols, C_TITLE, 1, "%s", title);
	total = total > n ? total : n;
	if (total <= 0)
		return;
	double lo = 1 / tau, hi = 1;
	int none = total > n; /* points without a value */
	for (int j = 0; j < n; j++) {
		if (v[j] > 0 && v[j] < lo)
			lo = v[j];
		none |= !(v[j] > 0);
	}
	lo = fmax(lo, 1e-12);
	if (none)
		lo /= 10; /* their row, the bottom, apart from every value and 1/τ */
	plot_range(&lo, &hi, 1);
	Plot pl;
	if (plot_begin(&pl, top + 1, left, rows - 1, cols, 5, 1, 0.5, total + 0.5, lo, hi, 1) < 0)
		return;
	plot_axes(&pl, 0, NULL, 1);
	/* the line first: every point is drawn over it */
	plot_hline(&pl, 1 / tau, C_MARK, NULL);
	const char *x = screen_ascii() ? "x" : "×", *o = screen_ascii() ? "o" : "•";
	for (int j = 0; j < total; j++) {
		int has = j < n && v[j] > 0, below = j >= keep;
		/* no value (beyond the rank) or exactly 0: on the bottom row */
		plot_dot(&pl, j + 1, has ? v[j] : lo, below ? C_WARN : C_GOOD, below ? x : o);
	}
	char lab[16];
	plot_hlabel(&pl, 1 / tau, C_MARK, screen_ascii() ? "1/tau" : "1/τ");
	plot_xlabel(&pl, 1, C_DIM, 0, "1");
	if (n < total && n > 1) {
		snprintf(lab, sizeof lab, "%d", n);
		plot_xlabel(&pl, n, C_DIM, 0, lab);
	}
	snprintf(lab, sizeof lab, "%d", total);
	plot_xlabel(&pl, total, C_DIM, 0, lab);
	plot_end(&pl);
}

int views_state_width(const Shown *p, const UiState *u)
{
	char st[200];
	status_state(p, u, st, sizeof st);
	int sw = screen_width(st) + 1;
	return sw > COLS / 2 ? COLS / 2 : sw;
}

int views_data_in_header(const Shown *p, const UiState *u)
{
	return !u->present && 1 + screen_width(p->data) <= COLS - 8 - views_state_width(p, u) - 1;
}
