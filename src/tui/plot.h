/* tui/plot.h - plots drawn with the terminal's cells: axes with labelled
 * ticks (linear or log), labelled horizontal lines, spread bars, lines
 * between points, and markers that never overwrite each other. Every row
 * holds a range of values, and a marker is drawn only on the row whose
 * range holds its value: a marker whose cell is taken moves sideways on
 * that row (as far as xslack allows), never up or down; markers of
 * different series that still meet share the cell, drawn as one glyph
 * (plot_shared_glyph) that the chart's key names.
 *
 * Draw in this order: plot_begin, the axes, horizontal lines, bars, lines,
 * then markers, and plot_end. */
#ifndef CONDNET_TUI_PLOT_H
#define CONDNET_TUI_PLOT_H

#include "tui/screen.h"

typedef struct Plot {
	int top, left, rows, cols; /* the data area, inside the axes */
	int ylabw, xlabr;          /* columns of y labels, rows of x labels */
	double x0, x1, y0, y1;     /* the data ranges (ylog: y0, y1 > 0) */
	int ylog;
	int xslack;  /* columns a marker whose cell is taken may move sideways
	              * (0: none; less than half the columns between two x) */
	int nshared; /* cells that markers of different series share */
	int has_thr; /* a threshold line whose sides plot_y keeps (plot_threshold) */
	double thr;
	int brk_rows; /* a broken axis (plot_break): the top rows hold (y1, brk_top] */
	double brk_top;
	unsigned char *occ;  /* rows × cols: the series of the marker there (its
	                      * index in ser + 1), PLOT_MANY when several */
	unsigned char *xocc; /* xlabr × cols: 1 where an x label is */
	int nser;            /* the series (glyph and colour) markers were drawn with */
	struct {
		char glyph[8];
		ScrColor c;
	} ser[64];
} Plot;

#define PLOT_MANY 255

/* The fewest data rows of a chart whose values fall on both sides of a
 * threshold: the line, a row beside it on each side and a labelled row
 * beyond each (plot_axes labels no row beside the line). */
#define PLOT_MIN_THR_ROWS 5

/* Widens [*lo, *hi] to a range that shows the data with a margin and ends
 * on round values (linear), or on the nearest 1, 2 or 5 × 10^k (log;
 * *lo > 0). */
void plot_range(double *lo, double *hi, int ylog);

/* Lays a plot out in the rectangle at (top, left) of rows × cols cells:
 * ylabw columns of y labels and the axis on the left, the axis and xlabr
 * rows of x labels below. 0, or -1 when the rectangle is too small for a
 * plot (nothing is drawn then). */
int plot_begin(Plot *p, int top, int left, int rows, int cols, int ylabw, int xlabr, double x0,
               double x1, double y0, double y1, int ylog);
void plot_end(Plot *p);
/* Breaks a linear y axis: the top `rows` rows hold the values above y1 up
 * to top on a log scale, the axis marked ≈ where they end, and [y0, y1]
 * keeps the rows below: a chart that must show far points without
 * flattening the near ones. 0, or -1 (nothing changed) when the rows or
 * the values do not allow it. */
int plot_break(Plot *p, double top, int rows);
/* A threshold (τ) drawn as a line at y: from now on plot_y puts no value
 * above it on the line's row or below, none below it on the row or above
 * (when the rows allow), so that a point's side of the line is the side
 * it is drawn on. The rows beside the line then hold the values between
 * it and their own range, and plot_axes labels neither of them. The line
 * is kept off the edge rows (the axis reaches further there). Call it
 * before plot_axes. */
void plot_threshold(Plot *p, double y);
/* The column and row of a data value, clamped into the data area. */
int plot_x(const Plot *p, double x);
int plot_y(const Plot *p, double y);
/* The axes: y labels about every third row (value × scale with the given
 * decimals and unit, e.g. 1 and "%" for "12.5%"; a log axis labels decades,
 * with the unit, and ignores the others), and the x axis. */
void plot_axes(Plot *p, int decimals, const char *unit, double scale);
/* A label centred under x on the first x-label row with room; -1 when
 * none had room. */
int plot_xlabel(Plot *p, double x, ScrColor c, int bold, const char *text);
/* A horizontal line at y across the plot, labelled (label may be NULL). */
void plot_hline(Plot *p, double y, ScrColor c, const char *label);
/* A piece of one, from xa to xb (a threshold that changed along x). */
void plot_hseg(Plot *p, double xa, double xb, double y, ScrColor c);
/* The label of the line at y, in the margin of the y labels (over the
 * label of that row, if any): never over a point. */
void plot_hlabel(Plot *p, double y, ScrColor c, const char *label);
/* Labels the whole numbers from x0 to x1 under the x axis, as many as fit
 * (every 1, 2, 5, 10, … th, and x1), and names what they count (unit,
 * "it" or "epoch") under the y labels. */
void plot_xticks(Plot *p, double x0, double x1, const char *unit);
/* A vertical bar from ylo to yhi at x (a spread). */
void plot_vbar(Plot *p, double x, double ylo, double yhi, ScrColor c);
/* A dotted line between two points, around markers already drawn. */
void plot_line(Plot *p, double xa, double ya, double xb, double yb, ScrColor c);
/* A glyph at (x, y), drawn over whatever is there (points of one dense
 * series). */
void plot_dot(Plot *p, double x, double y, ScrColor c, const char *glyph);
/* A marker at (x, y), on the row of y (plot_y) always: in its cell, or
 * when that holds a marker of another series, in the nearest free cell of
 * the row within xslack columns, else in its cell shared with the marker
 * there, drawn as plot_shared_glyph. Returns 0 in place (or where the same
 * series already is), 1 moved sideways, 2 shared. */
int plot_mark(Plot *p, double x, double y, ScrColor c, int bold, const char *glyph);
/* The glyph of a cell that markers of several series share ("≡", ASCII
 * "#"), and its key: "≡ several in one cell", brief "≡ several". */
const char *plot_shared_glyph(void);
const char *plot_shared_key(int brief);
/* The lowest and highest values plot_y puts on row r (a row beside a
 * threshold reaches to it): what a marker on r may be. */
void plot_row_range(const Plot *p, int r, double *lo, double *hi);
/* In place of a chart too short to show its values apart: what it would
 * show, how many more rows it needs and "enlarge the window", on one row. */
void plot_too_short(int y, int x, int cols, const char *what, int more);

#endif
