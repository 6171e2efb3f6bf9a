/* tui/view_plane_draw.c - the Plane view's pixels (see view_plane.h):
 * regions, points and neuron maps two pixels to a cell, the half block ▀
 * in the top pixel's colour over the bottom one's, a class colour shaded
 * by how sure the network is where the terminal has 256 colours, 8 colours
 * otherwise, letters without colour (the colours are palette.h's); and the
 * keys of those colours. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tui/palette.h"
#include "tui/screen.h"
#include "tui/view_plane.h"
#include "tui/views_int.h"

/* ---- the regions ---- */

/* The region pixel of area pixel (c, r) (2·rows pixels down). */
static int region_px(const PlaneRegions *g, const Area *a, int c, int r)
{
	int gc = c * g->w / a->cols, gr = r * g->h / (2 * a->rows);
	return gr * g->w + gc;
}

void plane_draw_regions(const PlaneRegions *g, const Area *a)
{
	int color = screen_color();
	for (int y = 0; y < a->rows; y++)
		for (int x = 0; x < a->cols; x++) {
			int t = region_px(g, a, x, 2 * y), b = region_px(g, a, x, 2 * y + 1);
			if (color) {
				palette_cell2(a->top + y, a->left + x,
				              palette_region(g->cls[t], g->conf[t], g->k),
				              palette_region(g->cls[b], g->conf[b], g->k));
			} else {
				/* a letter where the network is sure, a blank where it is not */
				double lo = 1.0 / g->k, f = (g->conf[t] - lo) / (1 - lo);
				char ch = f < 0.5 ? ' ' : palette_region_ascii(g->cls[t]);
				mvaddch(a->top + y, a->left + x, (chtype)ch);
			}
		}
}

void plane_draw_points(const ShownPlane *pl, const PlaneRegions *g, const Area *a)
{
	int color = screen_color();
	for (int i = 0; i < pl->npts; i++) {
		int c, r, cls = pl->lab[i];
		plane_pixel(&a->box, a->cols, 2 * a->rows, pl->pts[2 * i], pl->pts[2 * i + 1], &c,
		            &r);
		int y = a->top + r / 2, x = a->left + c;
		if (!color) {
			mvaddch(y, x, (chtype)palette_point_ascii(cls));
			continue;
		}
		int px = region_px(g, a, c, r);
		short bg = palette_region(g->cls[px], g->conf[px], g->k);
		attr_set(A_BOLD, (short)palette_pair(palette_point(cls), bg), NULL);
		mvaddstr(y, x, palette_point_glyph(cls));
		attr_set(A_NORMAL, 0, NULL);
	}
}

/* ---- the keys of the colours ---- */

/* A class's number in the key, and in ASCII the letter of its region. */
static void key_num(int c, int color, char *num, size_t len)
{
	if (color)
		snprintf(num, len, " %d", c + 1);
	else
		snprintf(num, len, " %d (%c)", c + 1, palette_region_ascii(c));
}

int plane_key_classes_width(int k)
{
	int w = screen_width("class ") - 1;
	for (int c = 0; c < k; c++) {
		char num[16];
		key_num(c, screen_color(), num, sizeof num);
		w += 1 + screen_width(num) + 1;
	}
	return w;
}

/* The classes' key at (y, x) in at most w columns: each class's sure
 * region colour with its points' marker on it, and its number; pale
 * shades are where the network is unsure. Returns the columns used. */
int plane_key_classes(int y, int x, int w, int k)
{
	int x0 = x, color = screen_color();
	x += screen_put(y, x, w, C_DIM, 0, "class ");
	for (int c = 0; c < k; c++) {
		char num[16];
		key_num(c, color, num, sizeof num);
		if (x + 1 + screen_width(num) > x0 + w) /* the marker and its number, whole */
			break;
		if (color) {
			attr_set(A_BOLD,
			         (short)palette_pair(palette_point(c), palette_region(c, 1.0f, k)),
			         NULL);
			mvaddstr(y, x, palette_point_glyph(c));
			attr_set(A_NORMAL, 0, NULL);
		} else {
			mvaddch(y, x, (chtype)palette_point_ascii(c));
		}
		x += 1 + screen_put(y, x + 1, 0, C_NORMAL, 0, "%s", num) + 1;
	}
	/* what pale (or blank) cells mean, shortened where the whole does not fit */
	const char *note = color ? "(pale: the network unsure)" : "(blank: the network unsure)";
	const char *brief = color ? "(pale: unsure)" : "(blank: unsure)";
	if (x + screen_width(note) <= x0 + w)
		x += screen_put(y, x, 0, C_DIM, 0, "%s", note);
	else if (x + screen_width(brief) <= x0 + w)
		x += screen_put(y, x, 0, C_DIM, 0, "%s", brief);
	return x - x0;
}

/* The maps' key at (y, x): their colours from −scale through 0 to scale. */
int plane_key_maps(int y, int x, int w, double scale)
{
	int x0 = x;
	char lab[32];
	snprintf(lab, sizeof lab, "%s%.2g ", screen_ascii() ? "-" : "−", scale);
	if (x + 24 > x0 + w)
		return 0;
	x += screen_put(y, x, 0, C_DIM, 0, "maps %s", lab);
	for (int i = -4; i <= 4; i++) {
		double v = i / 4.0;
		if (screen_color())
			palette_cell2(y, x, palette_map(v), palette_map(v));
		else
			mvaddch(y, x,
			        (chtype)(palette_map_ascii(v) == ' ' ? '.' : palette_map_ascii(v)));
		x++;
	}
	snprintf(lab, sizeof lab, " %.2g", scale);
	x += screen_put(y, x, 0, C_DIM, 0, "%s", lab);
	return x - x0;
}

void plane_draw_map_sized(const float *v, int h, int w, double scale, int y, int x, int rows,
                          int cols)
{
	int color = screen_color();
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++) {
			int gc = c * w / cols, gt = 2 * r * h / (2 * rows),
			    gb = (2 * r + 1) * h / (2 * rows);
			double top = v[gt * w + gc] / scale, bot = v[gb * w + gc] / scale;
			if (color)
				palette_cell2(y + r, x + c, palette_map(top), palette_map(bot));
			else
				mvaddch(y + r, x + c, (chtype)palette_map_ascii(top));
		}
}

/* One map (PLANE_MAP_PX² values, scaled by 1/scale) at (y, x). */
void plane_draw_map(const float *v, double scale, int y, int x)
{
	plane_draw_map_sized(v, PLANE_MAP_PX, PLANE_MAP_PX, scale, y, x, MAP_H, MAP_W);
}

int plane_draw_tiles(const MapTiles *m, UiState *u, int y, int left, int last)
{
	int n = m->c->n, nkeep = m->c->nkeep, rows = m->rows, cols = m->cols;
	char unit = m->c->unit ? m->c->unit : 'n';
	if (u->plane_first >= n)
		u->plane_first = n - 1;
	size_t np = (size_t)m->h * m->w;
	int x = left, t = u->plane_first, shown = 0, lab = -1, labx = left;
	for (; t < n; t++) {
		int drop = t >= nkeep, tw = drop ? 2 * cols + 2 : cols + 1;
		if (x + tw - 1 > COLS) {
			x = left;
			y += rows + 1;
		}
		if (y + rows > last)
			break;
		plane_draw_map_sized(m->act + (size_t)t * np, m->h, m->w, m->scale, y, x, rows,
		                     cols);
		int j = m->c->perm[t] + 1;
		if (m->live)
			screen_put(y + rows, x, cols, C_DIM, 0, "%c%d", unit, j);
		else
			screen_put(y + rows, x, cols, drop ? C_WARN : C_GOOD, drop, "%c%d %s", unit,
			           j, drop ? "drop" : "keep");
		if (drop) {
			plane_draw_map_sized(m->comb + (size_t)(t - nkeep) * np, m->h, m->w,
			                     m->scale, y, x + cols + 1, rows, cols);
			screen_put(y + rows, x + cols + 1, cols, C_NORMAL, 0, "%s comb.",
			           screen_ascii() ? "~" : "≈");
		}
		x += tw;
		shown++;
		lab = y + rows;
		labx = x;
	}
	if (shown && (t < n || u->plane_first > 0)) {
		char more[64];
		snprintf(more, sizeof more, " %s %s %d-%d of %d", screen_ascii() ? "<- ->" : "←→",
		         unit == 'c' ? "channels" : "neurons", u->plane_first + 1,
		         u->plane_first + shown, n);
		int mw = screen_width(more);
		/* on the last row, right of the tiles' labels when they are there */
		if (lab == last && labx + mw > COLS) {
			snprintf(more, sizeof more, " %s %d-%d/%d", screen_ascii() ? "<- ->" : "←→",
			         u->plane_first + 1, u->plane_first + shown, n);
			mw = screen_width(more);
		}
		if (lab != last || labx + mw <= COLS)
			screen_put(last, COLS - mw, mw, C_KEY, 0, "%s", more);
	}
	return shown;
}
