/* tui/view_plane.c - the Plane view: the decision regions of the network
 * over the input plane, two pixels to a cell (the half block ▀ in the top
 * pixel's colour over the bottom one's), a class colour shaded by how sure
 * the network is where the terminal has 256 colours, 8 colours otherwise,
 * letters without colour; the training points on top; and, for the selected
 * hidden layer, a map per neuron in pivoted-QR order, each kept or dropped
 * by the squeeze at τ, a dropped neuron's map beside the map of the
 * combination of kept neurons that replaces it. Everything drawn here was
 * computed by the worker (worker_plane.c). */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/screen.h"
#include "tui/status.h"
#include "tui/views_int.h"

/* ---- colours ---- */

/* The colour-pair numbers this view takes, from the first past those the
 * screen and the other views may use. */
#define PAIRS_MAX 512

static struct {
	short fg, bg;
} pairs[PAIRS_MAX];
static int npairs;

static short cube(int r, int g, int b)
{
	return (short)(16 + 36 * r + 6 * g + b);
}

/* The 256-colour palette: per class, four shades from unsure to sure, and
 * the dark shade its points are drawn in; the maps from −1 (blue) through
 * 0 (white) to 1 (orange). */
static short shade256(int cls, int level)
{
	static const unsigned char rgb[6][3] = {{5, 1, 1}, {1, 2, 5}, {1, 4, 1},
	                                        {5, 5, 1}, {5, 1, 5}, {1, 5, 5}};
	const unsigned char *c = rgb[cls % 6];
	/* level 3: the class colour; lower levels mix it with white */
	int mix = 3 - level;
	return cube(c[0] + ((5 - c[0]) * mix + 2) / 4, c[1] + ((5 - c[1]) * mix + 2) / 4,
	            c[2] + ((5 - c[2]) * mix + 2) / 4);
}

static short dot256(int cls)
{
	static const unsigned char rgb[6][3] = {{2, 0, 0}, {0, 0, 2}, {0, 1, 0},
	                                        {1, 1, 0}, {1, 0, 1}, {0, 1, 1}};
	const unsigned char *c = rgb[cls % 6];
	return cube(c[0], c[1], c[2]);
}

static short base8(int cls)
{
	static const short c[6] = {COLOR_RED,    COLOR_BLUE,    COLOR_GREEN,
	                           COLOR_YELLOW, COLOR_MAGENTA, COLOR_CYAN};
	return c[cls % 6];
}

static int rich(void)
{
	return screen_color() && COLORS >= 256;
}

/* The pair of fg on bg, made on first use; 0 (the terminal's own) when
 * none is left. */
static int pair_of(short fg, short bg)
{
	int first = COLOR_PAIRS >= 2 * PAIRS_MAX ? PAIRS_MAX : 16;
	for (int i = 0; i < npairs; i++)
		if (pairs[i].fg == fg && pairs[i].bg == bg)
			return first + i;
	if (npairs == PAIRS_MAX || first + npairs >= COLOR_PAIRS ||
	    init_pair((short)(first + npairs), fg, bg) == ERR)
		return 0;
	pairs[npairs].fg = fg;
	pairs[npairs].bg = bg;
	return first + npairs++;
}

/* The colour of a region pixel: its class, shaded by the probability
 * (1/k: unsure … 1: sure). */
static short region_colour(int cls, float conf, int k)
{
	if (!rich())
		return base8(cls);
	double lo = 1.0 / k, f = (conf - lo) / (1 - lo);
	int level = f < 0.25 ? 0 : f < 0.5 ? 1 : f < 0.75 ? 2 : 3;
	return shade256(cls, level);
}

/* The colour of a map pixel: v scaled to [−1, 1]. */
static short map_colour(double v)
{
	int level = (int)fmin(4, floor(fabs(v) * 4.5));
	if (!rich())
		return level < 2 ? COLOR_WHITE : v < 0 ? COLOR_BLUE : COLOR_RED;
	static const short neg[5] = {231, 189, 111, 68, 25}, pos[5] = {231, 223, 215, 208, 166};
	return v < 0 ? neg[level] : pos[level];
}

/* Letters for a screen without colour. */
static const char region_ascii[] = ".:-~'`";
static const char point_ascii[] = "OX+#@%";

static char map_ascii(double v)
{
	return v <= -0.6 ? '=' : v <= -0.2 ? '-' : v < 0.2 ? ' ' : v < 0.6 ? '+' : '#';
}

/* One cell of two pixels, top over bottom: the upper half block in the top
 * pixel's colour on the bottom one's (a wide character made once per pair,
 * not a string converted for every cell). */
static void cell2(int y, int x, short top, short bottom)
{
	static const wchar_t half[] = {0x2580, 0};
	cchar_t cc;
	setcchar(&cc, half, A_NORMAL, (short)pair_of(top, bottom), NULL);
	mvadd_wch(y, x, &cc);
}

/* ---- the regions ---- */

/* Where the regions are drawn: rows × cols cells at (top, left) over box. */
typedef struct Area {
	int top, left, rows, cols;
	PlaneBox box;
} Area;

/* The region pixel of area pixel (c, r) (2·rows pixels down). */
static int region_px(const PlaneRegions *g, const Area *a, int c, int r)
{
	int gc = c * g->w / a->cols, gr = r * g->h / (2 * a->rows);
	return gr * g->w + gc;
}

static void draw_regions(const PlaneRegions *g, const Area *a)
{
	int color = screen_color();
	for (int y = 0; y < a->rows; y++)
		for (int x = 0; x < a->cols; x++) {
			int t = region_px(g, a, x, 2 * y), b = region_px(g, a, x, 2 * y + 1);
			if (color) {
				cell2(a->top + y, a->left + x,
				      region_colour(g->cls[t], g->conf[t], g->k),
				      region_colour(g->cls[b], g->conf[b], g->k));
			} else {
				/* a letter where the network is sure, a blank where it is not */
				double lo = 1.0 / g->k, f = (g->conf[t] - lo) / (1 - lo);
				char ch = f < 0.5 ? ' ' : region_ascii[g->cls[t] % 6];
				mvaddch(a->top + y, a->left + x, (chtype)ch);
			}
		}
}

static void draw_points(const ShownPlane *pl, const PlaneRegions *g, const Area *a)
{
	int color = screen_color();
	static const char *const glyph[] = {"o", "x", "+", "*", "#", "%"};
	for (int i = 0; i < pl->npts; i++) {
		int c, r, cls = pl->lab[i];
		plane_pixel(&a->box, a->cols, 2 * a->rows, pl->pts[2 * i], pl->pts[2 * i + 1], &c,
		            &r);
		int y = a->top + r / 2, x = a->left + c;
		if (!color) {
			mvaddch(y, x, (chtype)point_ascii[cls % 6]);
			continue;
		}
		int px = region_px(g, a, c, r);
		short bg = region_colour(g->cls[px], g->conf[px], g->k);
		short fg = rich() ? dot256(cls) : COLOR_WHITE;
		attr_set(rich() ? A_BOLD : A_BOLD, (short)pair_of(fg, bg), NULL);
		mvaddstr(y, x, glyph[cls % 6]);
		attr_set(A_NORMAL, 0, NULL);
	}
}

/* The regions with their axes: the y range left of them, the x range under
 * them; returns the columns taken. */
static int regions_block(const Shown *p, int top, int bot, int maxw)
{
	const ShownPlane *pl = &p->pl;
	const PlaneBox *b = &pl->box;
	int lw = 7, rows = bot - top, cols;
	double aspect = (b->x1 - b->x0) / (b->y1 - b->y0);
	cols = (int)lround(2 * rows * aspect);
	if (cols > maxw - lw) {
		cols = maxw - lw;
		rows = (int)lround(cols / (2 * aspect));
	}
	if (rows < 3 || cols < 6)
		return 0;
	Area a = {top, lw, rows, cols, *b};
	draw_regions(&pl->reg, &a);
	draw_points(pl, &pl->reg, &a);
	char lab[32];
	snprintf(lab, sizeof lab, "%.2f", b->y1);
	screen_put(top, 0, lw - 1, C_DIM, 0, "%*s", lw - 1, lab);
	snprintf(lab, sizeof lab, "%.2f", b->y0);
	screen_put(top + rows - 1, 0, lw - 1, C_DIM, 0, "%*s", lw - 1, lab);
	screen_put(top + rows / 2, 0, lw - 1, C_DIM, 0, "%*s", lw - 1, "y");
	snprintf(lab, sizeof lab, "%.2f", b->x0);
	screen_put(top + rows, lw, 0, C_DIM, 0, "%s", lab);
	snprintf(lab, sizeof lab, "%.2f", b->x1);
	screen_put(top + rows, lw + cols - (int)strlen(lab), 0, C_DIM, 0, "%s", lab);
	screen_put(top + rows, lw + cols / 2, 0, C_DIM, 0, "x");
	return lw + cols;
}

/* ---- the maps ---- */

#define MAP_W 10 /* a map's cells across; 5 rows of two pixels: 10 × 10 pixels */
#define MAP_H 5

void views_map(const float *v, int h, int w, double scale, int y, int x, int rows, int cols)
{
	int color = screen_color();
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++) {
			int gc = c * w / cols, gt = 2 * r * h / (2 * rows),
			    gb = (2 * r + 1) * h / (2 * rows);
			double top = v[gt * w + gc] / scale, bot = v[gb * w + gc] / scale;
			if (color)
				cell2(y + r, x + c, map_colour(top), map_colour(bot));
			else
				mvaddch(y + r, x + c, (chtype)map_ascii(top));
		}
}

/* The largest |value| of a layer's maps and combinations (1 at least for
 * the bounded activations, so that their maps share one scale). */
static double maps_scale(const ShownMaps *m)
{
	size_t np = (size_t)PLANE_MAP_PX * PLANE_MAP_PX;
	double s = 0;
	for (size_t i = 0; i < (size_t)m->c.n * np; i++)
		s = fmax(s, fabs(m->act[i]));
	for (size_t i = 0; i < (size_t)(m->c.n - m->c.nkeep) * np; i++)
		s = fmax(s, fabs(m->comb[i]));
	return s > 0 ? s : 1;
}

void views_combination_line(const Alg3Combinations *c, int r, int y, int x, int width)
{
	char buf[1024];
	/* the largest terms, at most four, so that the residual stays in sight */
	for (int terms = c->nkeep < 4 ? c->nkeep : 4; terms >= 1; terms--) {
		alg3_combination_str(c, r, terms, screen_ascii(), buf, sizeof buf);
		if (screen_width(buf) <= width || terms == 1)
			break;
	}
	screen_put_cut(y, x, width, C_NORMAL, 0, "%s", buf);
}

/* The hidden layer whose maps show: the squeeze proposal's while it waits;
 * else the one chosen with Up and Down; else (plane_layer 0) the first the
 * marks drop neurons from, or layer 1. Written back to u->plane_shown for
 * the keys to step from. */
static int shown_layer(const Shown *p, UiState *u)
{
	const ShownPlane *pl = &p->pl;
	int nh = pl->maps ? pl->m - 1 : 0, layer = 1;
	if (p->sq.waiting && p->sq.layer >= 1 && p->sq.layer <= nh) {
		layer = p->sq.layer;
	} else if (u->plane_layer > 0) {
		layer = u->plane_layer < nh ? u->plane_layer : nh;
	} else {
		for (int i = nh; i >= 1; i--)
			if (pl->maps[i - 1].c.nkeep < pl->maps[i - 1].c.n)
				layer = i;
	}
	u->plane_shown = layer;
	return layer;
}

/* The tiles in pivot order from the first shown: a kept neuron's map, or a
 * dropped one's beside its combination's; then the combinations of the
 * dropped ones shown as text. */
static void maps_block(const Shown *p, UiState *u, int top, int bot, int left)
{
	const ShownPlane *pl = &p->pl;
	int width = COLS - left;
	if (!pl->maps || pl->m < 2) {
		screen_put_cut(top, left, width, C_DIM, 0, "no hidden layer: no neuron maps");
		return;
	}
	int layer = shown_layer(p, u);
	const ShownMaps *m = &pl->maps[layer - 1];
	int n = m->c.n, nkeep = m->c.nkeep, gone = n - nkeep;
	if (pl->live)
		screen_put_cut(top, left, width, C_TITLE, 1,
		               width >= 64
		                   ? "Layer %d (%s) in pivoted-QR order, live: the squeeze's "
		                     "marks when the training ends"
		                   : "Layer %d (%s), live: marks at the end",
		               layer, screen_ascii() ? "Up Down" : "↑↓");
	else if (pl->step)
		screen_put_cut(top, left, width, C_TITLE, 1,
		               width >= 64
		                   ? "Layer %d (%s) before Algorithm 1's step, which dropped "
		                     "%d of %d: the last in pivoted-QR order"
		                   : "Layer %d (%s) before Algorithm 1's step: %d of %d dropped",
		               layer, screen_ascii() ? "Up Down" : "↑↓", gone, n);
	else
		screen_put_cut(top, left, width, C_TITLE, 1,
		               width >= 64
		                   ? "Layer %d (%s) in pivoted-QR order: the squeeze at %s %g "
		                     "keeps %d of %d"
		                   : "Layer %d (%s): %s %g keeps %d of %d",
		               layer, screen_ascii() ? "Up Down" : "↑↓", S(TAU), pl->tau, nkeep, n);
	/* text lines of the dropped neurons at the bottom: a third of the rows */
	int text = gone ? (bot - top) / 3 : 0;
	if (text > gone)
		text = gone;
	MapTiles t = {&m->c, m->act, m->comb,       PLANE_MAP_PX, PLANE_MAP_PX,
	              MAP_H, MAP_W,  maps_scale(m), pl->live};
	views_map_tiles(&t, u, top + 1, left, bot - text, bot, left);
}

void views_map_tiles(const MapTiles *m, UiState *u, int y, int left, int last, int bot, int tleft)
{
	int n = m->c->n, nkeep = m->c->nkeep, gone = n - nkeep, rows = m->rows, cols = m->cols;
	char unit = m->c->unit ? m->c->unit : 'n';
	if (u->plane_first < 0) /* new panels: from the last two kept on, the dropped in sight */
		u->plane_first = nkeep > 2 && gone ? nkeep - 2 : 0;
	if (u->plane_first >= n)
		u->plane_first = n - 1;
	size_t np = (size_t)m->h * m->w;
	int x = left, t = u->plane_first, shown = 0;
	for (; t < n; t++) {
		int drop = t >= nkeep, tw = drop ? 2 * cols + 2 : cols + 1;
		if (x + tw - 1 > COLS) {
			x = left;
			y += rows + 1;
		}
		if (y + rows > last)
			break;
		views_map(m->act + (size_t)t * np, m->h, m->w, m->scale, y, x, rows, cols);
		int j = m->c->perm[t] + 1;
		if (m->live)
			screen_put(y + rows, x, cols, C_DIM, 0, "%c%d", unit, j);
		else
			screen_put(y + rows, x, cols, drop ? C_WARN : C_GOOD, drop, "%c%d %s", unit,
			           j, drop ? "drop" : "keep");
		if (drop) {
			views_map(m->comb + (size_t)(t - nkeep) * np, m->h, m->w, m->scale, y,
			          x + cols + 1, rows, cols);
			screen_put(y + rows, x + cols + 1, cols, C_NORMAL, 0, "%s comb.",
			           screen_ascii() ? "~" : "≈");
		}
		x += tw;
		shown++;
	}
	if (t < n || u->plane_first > 0) {
		char more[64];
		snprintf(more, sizeof more, " %s %s %d-%d of %d", screen_ascii() ? "<- ->" : "←→",
		         unit == 'c' ? "channels" : "neurons", u->plane_first + 1,
		         u->plane_first + shown, n);
		int mw = screen_width(more);
		screen_put(last, COLS - mw, mw, C_KEY, 0, "%s", more);
	}
	/* the combinations: of the dropped units from the first shown on */
	int r = u->plane_first > nkeep ? u->plane_first - nkeep : 0;
	for (int k = 0; last + 1 + k <= bot && r < gone; k++, r++)
		views_combination_line(m->c, r, last + 1 + k, tleft, COLS - tleft);
}

/* ---- the panels: a squeeze, or Algorithm 1's step, seen as regions ---- */

/* The panels the view shows: the squeeze proposal's while it waits, those
 * of Algorithm 1's step while its maps are shown; NULL when none. */
static const ShownPanels *panels_shown(const Shown *p)
{
	const ShownPanels *pn = &p->pl.pn;
	if (pn->n == REGION_NPANELS && p->sq.waiting && pn->layer == p->sq.layer)
		return pn;
	if (pn->n == REGION_NPANELS + 1 && p->pl.step)
		return pn;
	return NULL;
}

/* Panel k's two label lines: what it is, and its test accuracy. */
static void panel_labels(const ShownPanels *pn, int k, char *what, char *acc, size_t len,
                         size_t acclen)
{
	if (k == REGION_NOW)
		snprintf(what, len, "%s", pn->n > REGION_NPANELS ? "before the step" : "now");
	else if (k == REGION_QR)
		snprintf(what, len, "QR removes %d", pn->removed);
	else if (k == REGION_QR_COMP)
		snprintf(what, len, "QR, compensated");
	else if (k == REGION_RANDOM)
		snprintf(what, len, "%d at random", pn->removed);
	else
		snprintf(what, len, "after the step");
	const char *pm = screen_ascii() ? "+-" : "±";
	if (k == REGION_RANDOM)
		snprintf(acc, acclen, "%.2f%%, mean %.1f%s%.1f; compensated %.1f%s%.1f", pn->acc[k],
		         pn->mean, pm, pn->sd, pn->mean_comp, pm, pn->sd_comp);
	else
		snprintf(acc, acclen, "%.2f%%", pn->acc[k]);
}

/* One panel at (top, left), cols wide: its labels over and under its
 * regions, rows of them; the points over them when there is room. */
static void panel(const Shown *p, const ShownPanels *pn, int k, int top, int left, int rows,
                  int cols)
{
	char what[64], acc[128];
	panel_labels(pn, k, what, acc, sizeof what, sizeof acc);
	screen_put_cut(top, left, cols, k == REGION_QR_COMP ? C_GOOD : C_TITLE, 1, "%s", what);
	Area a = {top + 1, left, rows, cols, p->pl.box};
	draw_regions(&pn->reg[k], &a);
	if (cols >= 40)
		draw_points(&p->pl, &pn->reg[k], &a);
	screen_put_cut(top + 1 + rows, left, cols, C_NORMAL, 0, "%s", acc);
}

/* The panels side by side when each gets 14 columns and 4 rows, else the
 * one u->plane_panel names (< > choose); returns the first row below. */
static int panels_block(const Shown *p, UiState *u, const ShownPanels *pn, int top, int bot)
{
	const PlaneBox *b = &p->pl.box;
	double aspect = (b->x1 - b->x0) / (b->y1 - b->y0);
	int n = pn->n, avail = bot - top + 1;
	int pw = (COLS - (n - 1)) / n, ph = (int)lround(pw / (2 * aspect));
	if (ph + 2 > avail) {
		ph = avail - 2;
		pw = (int)fmin(pw, lround(2 * ph * aspect));
	}
	if (pw >= 14 && ph >= 4) {
		for (int k = 0; k < n; k++)
			panel(p, pn, k, top, k * (pw + 1), ph, pw);
		return top + ph + 2;
	}
	ph = avail - 2;
	pw = (int)fmin(COLS, lround(2 * ph * aspect));
	ph = (int)fmin(ph, lround(pw / (2 * aspect)));
	if (ph < 2)
		return top;
	int k = ((u->plane_panel % n) + n) % n;
	u->plane_panel = k;
	panel(p, pn, k, top, 0, ph, pw);
	char more[64];
	snprintf(more, sizeof more, "%s panel %d of %d", screen_ascii() ? "< >" : "< >", k + 1, n);
	screen_put(top, COLS - screen_width(more), 0, C_KEY, 0, "%s", more);
	return top + ph + 2;
}

/* The combinations of layer's dropped neurons as text, rows y..bot. */
static void combination_lines(const ShownPlane *pl, int layer, int y, int bot)
{
	if (!pl->maps || layer < 1 || layer > pl->m - 1)
		return;
	const ShownMaps *m = &pl->maps[layer - 1];
	for (int r = 0; r < m->c.n - m->c.nkeep && y <= bot; r++)
		views_combination_line(&m->c, r, y++, 0, COLS);
}

/* A squeeze proposal or Algorithm 1's step as panels, then as much of the
 * layer's maps (or its combinations as text) as the rows below hold. */
static void panel_view(const Shown *p, UiState *u, const ShownPanels *pn, int top, int bot)
{
	const ShownSqueeze *q = &p->sq;
	if (pn && pn->crc != u->plane_seen) {
		/* new panels: the maps of the layer they are about, from the first */
		u->plane_seen = pn->crc;
		u->plane_first = -1;
		u->plane_layer = 0;
	}
	char what[300];
	if (q->waiting && u->lesson) {
		/* what the lesson will do: its keys are the arrows, not y and n */
		screen_put_cut(top, 0, 0, C_TITLE, 1, "Layer %d's squeeze: remove %d of %d; %s",
		               q->layer, q->n_before - q->nkeep, q->n_before,
		               status_lesson_decides(p, u, what, sizeof what));
	} else if (q->waiting) {
		screen_put_cut(
		    top, 0, 0, C_TITLE, 1,
		    "Squeeze, layer %d: remove %d of %d? y apply, n refuse, c compensation "
		    "%s, a all, 4 the numbers",
		    q->layer, q->n_before - q->nkeep, q->n_before, q->comp ? "on" : "off");
	} else {
		screen_put_cut(
		    top, 0, 0, C_TITLE, 1,
		    "Algorithm 1's step removed %d neurons: the network before it, without "
		    "them, and after it",
		    pn->removed);
	}
	if (!pn) {
		screen_put(top + 1, 0, 0, C_DIM, 0, "measuring the regions%s", S(ELLIPSIS));
		return;
	}
	int y = panels_block(p, u, pn, top + 1, bot);
	if (bot - y + 1 >= MAP_H + 3)
		maps_block(p, u, y + 1, bot, 0);
	else
		combination_lines(&p->pl, shown_layer(p, u), y, bot);
}

void view_plane(const Shown *p, UiState *u, int top, int bot)
{
	const ShownPlane *pl = &p->pl;
	if (!pl->on) {
		screen_put(top, 0, 0, C_TITLE, 1, "The Plane view draws data sets of two features");
		screen_put_cut(top + 1, 0, 0, C_WARN, 0, "not these: %s", pl->why);
		screen_put_cut(top + 2, 0, 0, C_NORMAL, 0,
		               "--data spiral, circles, xor, gauss or moons (or a csv: file of two "
		               "feature columns) draws its regions and its neurons' maps.");
		return;
	}
	if (!pl->reg.cls) {
		screen_put(top, 0, 0, C_DIM, 0, "computing...");
		return;
	}
	const ShownPanels *pn = panels_shown(p);
	if (pn || p->sq.waiting) {
		panel_view(p, u, pn, top, bot);
		return;
	}
	char shape[128];
	views_shape(p->n, p->m, shape, sizeof shape);
	screen_put_cut(top, 0, 0, C_TITLE, 1, "Decision regions of %s: test accuracy %.2f%%%s",
	               shape, p->test_acc, pl->live ? " (before), live" : "");
	int used = regions_block(p, top + 1, bot, COLS / 2);
	maps_block(p, u, top + 1, bot, used + 2);
}
