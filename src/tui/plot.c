/* tui/plot.c - plots in terminal cells (see plot.h). */
#include "tui/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A round step (1, 2 or 5 × 10^k) that cuts span into about n parts. */
static double nice_step(double span, int n)
{
	double raw = span / (n > 0 ? n : 1), mag = pow(10, floor(log10(raw)));
	double f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

void plot_range(double *lo, double *hi, int ylog)
{
	if (ylog) {
		/* the nearest 1, 2 or 5 × 10^k around the data: no decade of air */
		static const double m[] = {1, 2, 5, 10};
		double a = *lo > 0 ? *lo : 1e-12, b = *hi > a ? *hi : a * 10;
		double da = pow(10, floor(log10(a) + 1e-9)), db = pow(10, floor(log10(b) - 1e-9));
		*lo = da;
		for (int k = 3; k >= 0; k--)
			if (m[k] * da <= a * (1 + 1e-9)) {
				*lo = m[k] * da;
				break;
			}
		*hi = 10 * db;
		for (int k = 0; k < 4; k++)
			if (m[k] * db >= b * (1 - 1e-9)) {
				*hi = m[k] * db;
				break;
			}
		if (*hi <= *lo)
			*hi = *lo * 10;
		return;
	}
	double a = *lo, b = *hi;
	if (!(b > a)) {
		double pad = fmax(fabs(a) * 0.05, 0.005);
		a -= pad;
		b += pad;
	} else {
		double pad = (b - a) * 0.08;
		a -= pad;
		b += pad;
	}
	double step = nice_step(b - a, 5);
	*lo = floor(a / step) * step;
	*hi = ceil(b / step) * step;
}

int plot_begin(Plot *p, int top, int left, int rows, int cols, int ylabw, int xlabr, double x0,
               double x1, double y0, double y1, int ylog)
{
	memset(p, 0, sizeof *p);
	p->rows = rows - 1 - xlabr;
	p->cols = cols - ylabw - 1;
	if (p->rows < 2 || p->cols < 8)
		return -1;
	p->top = top;
	p->left = left + ylabw + 1;
	p->ylabw = ylabw;
	p->xlabr = xlabr;
	p->x0 = x0;
	p->x1 = x1 > x0 ? x1 : x0 + 1;
	p->ylog = ylog;
	p->y0 = ylog ? log10(y0 > 0 ? y0 : 1e-12) : y0;
	p->y1 = ylog ? log10(y1 > 0 ? y1 : 1) : y1;
	if (!(p->y1 > p->y0))
		p->y1 = p->y0 + 1;
	p->occ = calloc((size_t)p->rows * (size_t)p->cols, 1);
	p->xocc = calloc((size_t)(xlabr > 0 ? xlabr : 1) * (size_t)p->cols, 1);
	if (!p->occ || !p->xocc) {
		plot_end(p);
		return -1;
	}
	return 0;
}

void plot_end(Plot *p)
{
	free(p->occ);
	free(p->xocc);
	p->occ = p->xocc = NULL;
}

int plot_x(const Plot *p, double x)
{
	double t = (x - p->x0) / (p->x1 - p->x0);
	int c = (int)lround(t * (p->cols - 1));
	return c < 0 ? 0 : c >= p->cols ? p->cols - 1 : c;
}

static int series_of(Plot *p, ScrColor c, const char *glyph);

static int row_of(const Plot *p, double y)
{
	if (p->brk_rows > 0 && y > p->y1) {
		/* above the break: its rows, on a log scale up to brk_top */
		double t = log(y / p->y1) / log(p->brk_top / p->y1);
		int r = p->brk_rows - 1 - (int)lround(fmin(t, 1) * (p->brk_rows - 1));
		return r < 0 ? 0 : r;
	}
	int below = p->rows - p->brk_rows; /* the rows of [y0, y1] */
	double v = p->ylog ? log10(y > 0 ? y : 1e-300) : y;
	double t = (v - p->y0) / (p->y1 - p->y0);
	int r = p->brk_rows + below - 1 - (int)lround(fmin(t, 1) * (below - 1));
	return r < p->brk_rows ? p->brk_rows : r >= p->rows ? p->rows - 1 : r;
}

int plot_break(Plot *p, double top, int rows)
{
	if (p->ylog || !(top > p->y1) || p->y1 <= 0 || rows < 2 || p->rows - rows < 3)
		return -1;
	p->brk_top = top;
	p->brk_rows = rows;
	return 0;
}

void plot_threshold(Plot *p, double y)
{
	/* the line on neither edge row, so that a value on either side of it
	 * has a row there: the far end of the axis moves out */
	int t = row_of(p, y), n = p->rows - 1;
	double v = p->ylog ? log10(y > 0 ? y : 1e-300) : y;
	if (!p->brk_rows && n >= 2 && isfinite(v) && v > p->y0 && v < p->y1) {
		if (t == n)
			p->y0 = (n * v - p->y1) / (n - 1); /* the line on row n - 1 */
		else if (t == 0)
			p->y1 = (n * v - p->y0) / (n - 1); /* on row 1 */
	}
	p->has_thr = 1;
	p->thr = y;
}

int plot_y(const Plot *p, double y)
{
	int r = row_of(p, y);
	if (!p->has_thr || y == p->thr)
		return r;
	int t = row_of(p, p->thr);
	if (y > p->thr && r >= t && t > 0)
		return t - 1; /* above the line, on the row above it */
	if (y < p->thr && r <= t && t < p->rows - 1)
		return t + 1;
	return r;
}

/* The threshold line's row, -1 when none moves values off it. */
static int thr_row(const Plot *p)
{
	return p->has_thr ? row_of(p, p->thr) : -1;
}

/* 1 for a row beside the threshold's line: it holds values from its own
 * range to the line, so that no label says what it holds. */
static int beside_thr(const Plot *p, int r)
{
	int t = thr_row(p);
	return t >= 0 && (r == t - 1 || r == t + 1);
}

static void ylabel(Plot *p, int r, const char *text)
{
	screen_put(p->top + r, p->left - 1 - p->ylabw, p->ylabw, C_DIM, 0, "%*s", p->ylabw, text);
	screen_put(p->top + r, p->left - 1, 1, C_DIM, 0, "%s", screen_ascii() ? "+" : "┤");
}

static void decade_label(int k, char *buf, size_t len)
{
	if (k >= -2 && k <= 3)
		snprintf(buf, len, "%g", pow(10, k));
	else
		snprintf(buf, len, "1e%d", k);
}

void plot_axes(Plot *p, int decimals, const char *unit, double scale)
{
	const char *v = screen_ascii() ? "|" : "│";
	for (int r = 0; r < p->rows; r++)
		screen_put(p->top + r, p->left - 1, 1, C_DIM, 0, "%s", v);
	char lab[32];
	int last = -9;
	if (p->ylog) {
		int k0 = (int)ceil(p->y0 - 1e-9), k1 = (int)floor(p->y1 + 1e-9);
		int every =
		    (k1 - k0 + 1) > p->rows / 2 ? (k1 - k0 + p->rows / 2) / (p->rows / 2) : 1;
		/* the top when it is no decade (2 or 5 × 10^k), then the decades */
		int top_dec = fabs(p->y1 - k1) < 1e-9;
		int rk1 = plot_y(p, pow(10, k1));
		if (!top_dec && (rk1 >= 2 || beside_thr(p, rk1)) && !beside_thr(p, 0)) {
			snprintf(lab, sizeof lab, "%g%s", pow(10, p->y1), unit ? unit : "");
			ylabel(p, 0, lab);
			last = 0;
		}
		for (int k = k1; k >= k0; k--) {
			int r = plot_y(p, pow(10, k));
			if ((k1 - k) % every || r - last < 2 || beside_thr(p, r))
				continue;
			decade_label(k, lab, sizeof lab);
			if (unit && strlen(lab) + strlen(unit) < sizeof lab)
				strcat(lab, unit);
			ylabel(p, r, lab);
			last = r;
		}
	} else {
		int below = p->rows - p->brk_rows;
		double step = nice_step(p->y1 - p->y0, below / 3 > 1 ? below / 3 : 2);
		/* no finer than the labels' decimals show: no label twice */
		if (step < pow(10, -decimals) / scale)
			step = pow(10, -decimals) / scale;
		if (p->brk_rows) {
			/* the part above the break: its top, and the break on the axis */
			snprintf(lab, sizeof lab, "%.*f%s", decimals, p->brk_top * scale,
			         unit ? unit : "");
			ylabel(p, 0, lab);
			screen_put(p->top + p->brk_rows - 1, p->left - 1, 1, C_DIM, 0, "%s",
			           screen_ascii() ? "~" : "≈");
			last = p->brk_rows - 2; /* a label may stand under the break */
		}
		/* the round values inside the range, from the top */
		for (double y = floor(p->y1 / step + 1e-9) * step; y >= p->y0 - step * 1e-9;
		     y -= step) {
			int r = plot_y(p, y);
			if ((r - last < 2 && last >= 0) || beside_thr(p, r))
				continue;
			snprintf(lab, sizeof lab, "%.*f%s", decimals,
			         (fabs(y) < step * 1e-9 ? 0 : y) * scale, unit ? unit : "");
			ylabel(p, r, lab);
			last = r;
		}
	}
	int y = p->top + p->rows;
	screen_put(y, p->left - 1, 1, C_DIM, 0, "%s", screen_ascii() ? "+" : "└");
	for (int c = 0; c < p->cols; c++)
		screen_put(y, p->left + c, 1, C_DIM, 0, "%s", screen_ascii() ? "-" : "─");
}

int plot_xlabel(Plot *p, double x, ScrColor c, int bold, const char *text)
{
	int w = screen_width(text), at = plot_x(p, x) - (w - 1) / 2;
	if (at < 0)
		at = 0;
	if (at + w > p->cols)
		at = p->cols - w;
	if (at < -(p->ylabw))
		return -1;
	for (int r = 0; r < p->xlabr; r++) {
		unsigned char *row = p->xocc + (size_t)r * (size_t)p->cols;
		int free = 1;
		/* one blank column on each side keeps neighbours apart */
		for (int k = at - 1; k <= at + w && free; k++)
			if (k >= 0 && k < p->cols && row[k])
				free = 0;
		if (!free)
			continue;
		for (int k = at; k < at + w; k++)
			if (k >= 0 && k < p->cols)
				row[k] = 1;
		screen_put(p->top + p->rows + 1 + r, p->left + at, w, c, bold, "%s", text);
		return 0;
	}
	return -1;
}

void plot_hline(Plot *p, double y, ScrColor c, const char *label)
{
	plot_hseg(p, p->x0, p->x1, y, c);
	if (label)
		plot_hlabel(p, y, c, label);
}

void plot_hseg(Plot *p, double xa, double xb, double y, ScrColor c)
{
	int r = plot_y(p, y), c0 = plot_x(p, xa), c1 = plot_x(p, xb);
	for (int k = c0; k <= c1; k++)
		if (!p->occ[(size_t)r * (size_t)p->cols + (size_t)k])
			screen_put(p->top + r, p->left + k, 1, c, 0, "%s",
			           screen_ascii() ? "-" : "┄");
}

void plot_hlabel(Plot *p, double y, ScrColor c, const char *label)
{
	/* in the margin of the y labels, where it hides no point */
	int r = plot_y(p, y), lw = screen_width(label);
	if (lw > p->ylabw)
		lw = p->ylabw;
	screen_put(p->top + r, p->left - 1 - p->ylabw, p->ylabw, c, 1, "%*s", p->ylabw, "");
	screen_put(p->top + r, p->left - 1 - lw, lw, c, 1, "%s", label);
	screen_put(p->top + r, p->left - 1, 1, c, 1, "%s", screen_ascii() ? "+" : "┤");
}

void plot_xticks(Plot *p, double x0, double x1, const char *unit)
{
	char lab[32];
	snprintf(lab, sizeof lab, "%.0f", x1);
	int w = screen_width(lab) + 2, n = (int)(x1 - x0) + 1;
	/* whole numbers, every step-th so that their labels fit */
	int step = 1;
	while ((n / step + 1) * w > p->cols && step < 100000000) {
		int m = 1;
		while (step >= 10 * m)
			m *= 10;
		step = (step / m == 1 ? 2 : step / m == 2 ? 5 : 10) * m; /* 1, 2, 5, 10, 20, … */
	}
	for (double x = ceil(x0); x <= x1 + 1e-9; x += 1) {
		long k = lround(x);
		if (k % step && x != x1)
			continue;
		snprintf(lab, sizeof lab, "%ld", k);
		plot_xlabel(p, x, C_DIM, 0, lab);
	}
	/* what the numbers count, under the y labels */
	if (unit && p->xlabr > 0)
		screen_put(p->top + p->rows + 1, p->left - 1 - p->ylabw, p->ylabw, C_DIM, 0, "%*s",
		           p->ylabw, unit);
}

void plot_vbar(Plot *p, double x, double ylo, double yhi, ScrColor c)
{
	int col = plot_x(p, x), r0 = plot_y(p, yhi), r1 = plot_y(p, ylo);
	for (int r = r0; r <= r1; r++)
		screen_put(p->top + r, p->left + col, 1, c, 0, "%s", screen_ascii() ? "|" : "│");
}

void plot_line(Plot *p, double xa, double ya, double xb, double yb, ScrColor c)
{
	int c0 = plot_x(p, xa), r0 = plot_y(p, ya), c1 = plot_x(p, xb), r1 = plot_y(p, yb);
	int dc = abs(c1 - c0), dr = abs(r1 - r0), n = dc > dr ? dc : dr;
	for (int k = 1; k < n; k++) {
		int cc = c0 + (int)lround((double)(c1 - c0) * k / n);
		int rr = r0 + (int)lround((double)(r1 - r0) * k / n);
		if (!p->occ[(size_t)rr * (size_t)p->cols + (size_t)cc])
			screen_put(p->top + rr, p->left + cc, 1, c, 0, "%s",
			           screen_ascii() ? "." : "·");
	}
}

void plot_dot(Plot *p, double x, double y, ScrColor c, const char *glyph)
{
	int r = plot_y(p, y), cc = plot_x(p, x);
	p->occ[(size_t)r * (size_t)p->cols + (size_t)cc] = (unsigned char)series_of(p, c, glyph);
	screen_put(p->top + r, p->left + cc, 1, c, 0, "%s", glyph);
}

/* The series of a glyph in a colour: its index in p->ser + 1 (PLOT_MANY
 * - 1 series at most; the rest share the last). */
static int series_of(Plot *p, ScrColor c, const char *glyph)
{
	for (int i = 0; i < p->nser; i++)
		if (p->ser[i].c == c && !strcmp(p->ser[i].glyph, glyph))
			return i + 1;
	int n = (int)(sizeof p->ser / sizeof *p->ser);
	if (p->nser == n)
		return n;
	snprintf(p->ser[p->nser].glyph, sizeof p->ser[p->nser].glyph, "%s", glyph);
	p->ser[p->nser].c = c;
	return ++p->nser;
}

const char *plot_shared_glyph(void)
{
	return screen_ascii() ? "#" : "≡";
}

const char *plot_shared_key(int brief)
{
	if (brief)
		return screen_ascii() ? "# several" : "≡ several";
	return screen_ascii() ? "# several in one cell" : "≡ several in one cell";
}

int plot_mark(Plot *p, double x, double y, ScrColor c, int bold, const char *glyph)
{
	int c0 = plot_x(p, x), r = plot_y(p, y), id = series_of(p, c, glyph);
	unsigned char *row = p->occ + (size_t)r * (size_t)p->cols;
	if (row[c0] == 0 || row[c0] == id) {
		row[c0] = (unsigned char)id;
		screen_put(p->top + r, p->left + c0, 1, c, bold, "%s", glyph);
		return 0;
	}
	/* sideways on its row, nearest first (left, then right) */
	for (int d = 1; d <= p->xslack; d++)
		for (int s = -1; s <= 1; s += 2) {
			int cc = c0 + s * d;
			if (cc < 0 || cc >= p->cols || (row[cc] && row[cc] != id))
				continue;
			row[cc] = (unsigned char)id;
			screen_put(p->top + r, p->left + cc, 1, c, bold, "%s", glyph);
			return 1;
		}
	if (row[c0] != PLOT_MANY) {
		row[c0] = PLOT_MANY;
		p->nshared++;
		screen_put(p->top + r, p->left + c0, 1, C_NORMAL, 1, "%s", plot_shared_glyph());
	}
	return 2;
}

/* The values of row r of the part of the axis r is in, before the
 * threshold moves any: [*lo, *hi]. */
static void natural_range(const Plot *p, int r, double *lo, double *hi)
{
	if (r < p->brk_rows) { /* above the break, log up to brk_top */
		int k = p->brk_rows - 1 - r, n = p->brk_rows - 1;
		double a = (k - 0.5) / n, b = (k + 0.5) / n;
		*lo = k == 0 ? nextafter(p->y1, INFINITY) : p->y1 * pow(p->brk_top / p->y1, a);
		*hi = k == n ? INFINITY : p->y1 * pow(p->brk_top / p->y1, b);
		return;
	}
	int below = p->rows - p->brk_rows, k = p->brk_rows + below - 1 - r;
	double a = p->y0 + (k - 0.5) / (below - 1) * (p->y1 - p->y0);
	double b = p->y0 + (k + 0.5) / (below - 1) * (p->y1 - p->y0);
	*lo = k == 0 ? -INFINITY : p->ylog ? pow(10, a) : a;
	*hi = k == below - 1 && !p->brk_rows ? INFINITY : p->ylog ? pow(10, b) : b;
	if (k == below - 1 && p->brk_rows)
		*hi = p->y1;
	if (p->ylog && k == 0)
		*lo = 0;
}

void plot_row_range(const Plot *p, int r, double *lo, double *hi)
{
	natural_range(p, r, lo, hi);
	int t = thr_row(p);
	if (t < 0)
		return;
	if (r == t && t > 0 && t < p->rows - 1)
		*lo = *hi = p->thr; /* only the threshold itself */
	else if (r == t && t == 0)
		*lo = p->thr;
	else if (r == t && t == p->rows - 1)
		*hi = p->thr;
	else if (r == t - 1)
		*lo = nextafter(p->thr, INFINITY);
	else if (r == t + 1)
		*hi = nextafter(p->thr, -INFINITY);
}

void plot_too_short(int y, int x, int cols, const char *what, int more)
{
	char line[200];
	const char *s = more == 1 ? "" : "s";
	snprintf(line, sizeof line,
	         "%s: %d more row%s to show its values apart; enlarge the window", what, more, s);
	if (screen_width(line) > cols)
		snprintf(line, sizeof line, "%s: enlarge the window (%d row%s more)", what, more,
		         s);
	if (screen_width(line) > cols)
		snprintf(line, sizeof line, "enlarge the window");
	screen_put_cut(y, x, cols, C_DIM, 0, "%s", line);
}
