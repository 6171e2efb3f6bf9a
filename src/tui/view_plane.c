/* tui/view_plane.c - the Plane view: the decision regions of the network
 * over the input plane with the training points on top (drawn by
 * view_plane_draw.c, the keys of their colours beside them); for the
 * selected hidden layer, a map per neuron in pivoted-QR order, each kept or
 * dropped by the squeeze at τ (or by the removal that made the network), a
 * dropped neuron's map beside the map of its fit by the kept ones, with what
 * the fits say; a squeeze's proposal and Algorithm 1's step as panels.
 * Everything drawn here was computed by the worker (worker_plane.c). */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/screen.h"
#include "tui/status.h"
#include "tui/view_plane.h"
#include "tui/views_int.h"

/* The regions with their axes: the y range left of them, the x range under
 * them; returns the columns taken. */
static int regions_block(const Shown *p, int top, int bot, int maxw)
{
	const ShownPlane *pl = &p->pl;
	const PlaneBox *b = &pl->box;
	int lw = 7, rows = bot - top - 1, cols; /* the x range and the key below */
	double aspect = (b->x1 - b->x0) / (b->y1 - b->y0);
	cols = (int)lround(2 * rows * aspect);
	if (cols > maxw - lw) {
		cols = maxw - lw;
		rows = (int)lround(cols / (2 * aspect));
	}
	if (rows < 3 || cols < 6)
		return 0;
	Area a = {top, lw, rows, cols, *b};
	plane_draw_regions(&pl->reg, &a);
	plane_draw_points(pl, &pl->reg, &a);
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
	/* the key within the regions' columns and the gap after them, or as wide
	 * as its classes need: what the view puts beside starts after it */
	int kw = plane_key_classes_width(pl->k);
	plane_key_classes(top + rows + 1, lw, kw > cols + 1 ? kw : cols + 1, pl->k);
	return lw + (kw - 1 > cols ? kw - 1 : cols);
}

/* ---- the maps ---- */

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

/* The combination of removed neuron r as text, with as many terms as fit
 * in width columns: of the activations where they were fitted (where the
 * refit works), else in Ŵ; the residual in Ŵ goes before a term would be
 * cut. */
static void combination_line(const ShownMaps *m, int r, int y, int x, int width)
{
	char buf[1024];
	/* the largest terms, at most four, so that the residual stays in sight */
	for (int terms = m->c.nkeep < 4 ? m->c.nkeep : 4; terms >= 1; terms--) {
		if (m->c.act_residual)
			alg3_combination_act_str(&m->c, r, terms, screen_ascii(), buf, sizeof buf);
		else
			alg3_combination_str(&m->c, r, terms, screen_ascii(), buf, sizeof buf);
		if (screen_width(buf) <= width || terms == 1)
			break;
	}
	char *w = strstr(buf, screen_ascii() ? "; W^" : "; Ŵ");
	if (screen_width(buf) > width && w)
		strcpy(w, ")");
	screen_put_cut(y, x, width, C_NORMAL, 0, "%s", buf);
}

typedef struct Lines {
	int y, last, x, width;
} Lines;

/* The pieces of a text (none cut between its words) in rows l->y..
 * l->last, as many to a row as fit, a space between two. */
static void put_pieces(const char *const *piece, int n, Lines *l)
{
	char row[512] = "";
	for (int k = 0; k <= n; k++) {
		size_t len = strlen(row);
		if (k < n && (!len || screen_width(row) + 1 + screen_width(piece[k]) <= l->width)) {
			snprintf(row + len, sizeof row - len, "%s%s", len ? " " : "", piece[k]);
			continue;
		}
		if (l->y <= l->last && len)
			screen_put_cut(l->y++, l->x, l->width, C_TITLE, 0, "%s", row);
		if (k < n)
			snprintf(row, sizeof row, "%s", piece[k]);
	}
}

/* What the fits of the dropped neurons say together, in rows y..last
 * from column x: their residuals' spread (one residual said as one), and
 * what the next layer's refit leaves of what they send it; each number
 * stays beside its unit. Returns the next row. */
static int fit_summary(const ShownMaps *m, int next, int y, int last, int x, int width)
{
	double lo, med, hi;
	if (alg3_combinations_spread(&m->c, &lo, &med, &hi) < 0)
		return y;
	char p[6][200];
	int gone = m->c.n - m->c.nkeep, n = 0;
	const char *approx = screen_ascii() ? "~" : "≈";
	if (width >= 100)
		snprintf(p[n++], 200,
		         "%s: the %d dropped fitted by the %d kept on %d training points,", approx,
		         gone, m->c.nkeep, m->c.rows);
	else
		snprintf(p[n++], 200, "%s fit%s:", approx, gone == 1 ? "" : "s");
	if (gone == 1) {
		snprintf(p[n++], 200, "residual %.1f %%;", 100 * lo);
	} else {
		snprintf(p[n++], 200, "residual %.1f%s%.1f %%", 100 * lo,
		         screen_ascii() ? "-" : "–", 100 * hi);
		snprintf(p[n++], 200, "(median %.1f %%);", 100 * med);
	}
	snprintf(p[n++], 200, "layer %d's refit", next);
	snprintf(p[n++], 200, "leaves %.1f %%%s", 100 * m->c.refit,
	         width >= 100 ? (gone == 1 ? " of what it sends it" : " of what they send it")
	                      : "");
	const char *piece[6];
	for (int k = 0; k < n; k++)
		piece[k] = p[k];
	Lines l = {y, last, x, width};
	put_pieces(piece, n, &l);
	return l.y;
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

/* The maps' title in the first of its forms, longest first, that fits. */
static void maps_title(const ShownPlane *pl, int layer, int n, int nkeep, int top, int left,
                       int width)
{
	int gone = n - nkeep;
	char t[4][200];
	const char *arrows = screen_ascii() ? "Up Down" : "↑↓";
	if (pl->live) {
		snprintf(t[0], sizeof t[0],
		         "Layer %d (%s) in pivoted-QR order, live: the squeeze's marks when the "
		         "training ends",
		         layer, arrows);
		snprintf(t[1], sizeof t[1], "Layer %d (%s), live: marks at the end", layer, arrows);
		snprintf(t[2], sizeof t[2], "Layer %d, live: marks at the end", layer);
		snprintf(t[3], sizeof t[3], "Layer %d, live", layer);
	} else if (pl->step) {
		const char *by = pl->step == 2 ? "the squeeze" : "Algorithm 1's step";
		snprintf(t[0], sizeof t[0],
		         "Layer %d (%s) before %s, which dropped %d of %d: the last in pivoted-QR "
		         "order",
		         layer, arrows, by, gone, n);
		snprintf(t[1], sizeof t[1], "Layer %d (%s) before %s: %d of %d dropped", layer,
		         arrows, by, gone, n);
		snprintf(t[2], sizeof t[2], "Layer %d (%s) before %s: %d gone", layer, arrows, by,
		         gone);
		snprintf(t[3], sizeof t[3], "Layer %d: %d of %d dropped", layer, gone, n);
	} else {
		snprintf(t[0], sizeof t[0],
		         "Layer %d (%s) in pivoted-QR order: the squeeze at %s %g keeps %d of %d",
		         layer, arrows, S(TAU), pl->tau, nkeep, n);
		snprintf(t[1], sizeof t[1],
		         "Layer %d (%s) in pivoted-QR order: %s %g keeps %d of %d", layer, arrows,
		         S(TAU), pl->tau, nkeep, n);
		snprintf(t[2], sizeof t[2], "Layer %d (%s), QR order: %s %g keeps %d of %d", layer,
		         arrows, S(TAU), pl->tau, nkeep, n);
		snprintf(t[3], sizeof t[3], "Layer %d, QR order: %s %g keeps %d of %d", layer,
		         S(TAU), pl->tau, nkeep, n);
	}
	int f = 0;
	while (f < 3 && screen_width(t[f]) > width)
		f++;
	screen_put_cut(top, left, width, C_TITLE, 1, "%s", t[f]);
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
	maps_title(pl, layer, n, nkeep, top, left, width);
	/* other maps (another layer, another network's, other marks) are shown
	 * from their start: the last two kept, then the dropped */
	unsigned key = pl->crc ^ (unsigned)layer * 2654435761u ^ (unsigned)nkeep * 40503u;
	if (key != u->plane_key)
		u->plane_first = -1;
	u->plane_key = key;
	if (u->plane_first < 0)
		u->plane_first = nkeep > 2 && gone ? nkeep - 2 : 0;
	double scale = maps_scale(m);
	/* text lines of the dropped neurons at the bottom: a third of the rows,
	 * two more for what their fits say together */
	int text = gone ? (bot - top) / 3 : 0;
	if (text > gone + 2)
		text = gone + 2;
	/* a row of maps at least, under the title and the key, when the fits'
	 * two rows leave room for one */
	if (text > 2 && bot - text - (top + 2) < MAP_H + 1)
		text = bot - (top + 2) - MAP_H - 1 > 2 ? bot - (top + 2) - MAP_H - 1 : 2;
	/* the maps' colours on the row under the title */
	plane_key_maps(top + 1, left, width, scale);
	int last = bot - text;
	MapTiles tiles = {&m->c, m->act, m->comb, PLANE_MAP_PX, PLANE_MAP_PX,
	                  MAP_H, MAP_W,  scale,   pl->live};
	plane_draw_tiles(&tiles, u, top + 2, left, last);
	/* what the fits say together, then the combinations of the dropped
	 * neurons from the first shown on */
	int y2 = fit_summary(m, layer + 1, last + 1, bot, left, width);
	int r = u->plane_first > nkeep ? u->plane_first - nkeep : 0;
	for (; y2 <= bot && r < gone; y2++, r++)
		combination_line(m, r, y2, left, width);
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
	/* (narrow: "QR, refitted", compensation's other name) */
	else if (k == REGION_RANDOM)
		snprintf(what, len, "%d at random", pn->removed);
	else
		snprintf(what, len, "after the step");
	snprintf(acc, acclen, "%.2f%%", pn->acc[k]);
}

/* The random draws under the panels, whole: the panel is one of them. */
static void draws_line(const ShownPanels *pn, int y)
{
	const char *pm = screen_ascii() ? "+-" : "±";
	char line[300];
	for (int brief = 0; brief < 2; brief++) {
		snprintf(line, sizeof line,
		         brief ? "%d at random, %d draws: median %.2f%%, mean %.1f%s%.1f %%, "
		                 "compensated %.1f%s%.1f %%"
		               : "%d removed at random, %d draws: the panel is the median, "
		                 "%.2f%%; their mean %.1f%s%.1f %%, compensated %.1f%s%.1f %%",
		         pn->removed, pn->draws, pn->acc[REGION_RANDOM], pn->mean, pm, pn->sd,
		         pn->mean_comp, pm, pn->sd_comp);
		if (screen_width(line) <= COLS)
			break;
	}
	screen_put_cut(y, 0, 0, C_NORMAL, 0, "%s", line);
}

/* One panel at (top, left), cols wide: its labels over and under its
 * regions, rows of them; the points over them when there is room. */
static void panel(const Shown *p, const ShownPanels *pn, int k, int top, int left, int rows,
                  int cols)
{
	char what[64], acc[128];
	panel_labels(pn, k, what, acc, sizeof what, sizeof acc);
	/* narrower: the shorter names, never a cut one */
	if (k == REGION_QR_COMP && screen_width(what) > cols)
		snprintf(what, sizeof what, "QR, refitted");
	if (screen_width(what) > cols && k == REGION_NOW && pn->n > REGION_NPANELS)
		snprintf(what, sizeof what, "before");
	else if (screen_width(what) > cols && k == REGION_NPANELS)
		snprintf(what, sizeof what, "after");
	else if (screen_width(what) > cols && k == REGION_QR)
		snprintf(what, sizeof what, "QR %s%d", S(MINUS), pn->removed);
	else if (screen_width(what) > cols && k == REGION_RANDOM)
		snprintf(what, sizeof what, "random");
	if (screen_width(what) <= cols)
		screen_put(top, left, cols, k == REGION_QR_COMP ? C_GOOD : C_TITLE, 1, "%s", what);
	Area a = {top + 1, left, rows, cols, p->pl.box};
	plane_draw_regions(&pn->reg[k], &a);
	if (cols >= 40)
		plane_draw_points(&p->pl, &pn->reg[k], &a);
	screen_put_cut(top + 1 + rows, left, cols, C_NORMAL, 0, "%s", acc);
}

/* The panels' size side by side in rows top..bot: 1 when they fit there
 * (each a title, the regions, its accuracy; under them the random draws
 * and the classes' key). */
static int side_by_side(const Shown *p, const ShownPanels *pn, int top, int bot, int *pw, int *ph)
{
	const PlaneBox *b = &p->pl.box;
	double aspect = (b->x1 - b->x0) / (b->y1 - b->y0);
	int n = pn->n, avail = bot - top + 1 - 2;
	*pw = (COLS - (n - 1)) / n;
	*ph = (int)lround(*pw / (2 * aspect));
	if (*ph + 2 > avail) {
		*ph = avail - 2;
		*pw = (int)fmin(*pw, lround(2 * *ph * aspect));
	}
	return *pw >= 14 && *ph >= 4;
}

/* The panels side by side when each gets 14 columns and 4 rows, else the
 * one u->plane_panel names (< > choose); returns the first row below.
 * *fits: 1 when what the fits of hidden layer `layer`'s dropped say went
 * beside a panel shown alone. */
static int panels_block(const Shown *p, UiState *u, const ShownPanels *pn, int layer, int top,
                        int bot, int *fits)
{
	*fits = 0;
	const PlaneBox *b = &p->pl.box;
	double aspect = (b->x1 - b->x0) / (b->y1 - b->y0);
	int n = pn->n, avail = bot - top + 1 - 2, pw, ph;
	if (side_by_side(p, pn, top, bot, &pw, &ph)) {
		for (int k = 0; k < n; k++)
			panel(p, pn, k, top, k * (pw + 1), ph, pw);
		draws_line(pn, top + ph + 2);
		plane_key_classes(top + ph + 3, 0, COLS, p->pl.k);
		return top + ph + 4;
	}
	/* one panel: under it the random draws (their median is in the list
	 * beside it too) unless the regions would be too short for them */
	int draws = avail - 2 >= 6;
	ph = avail - 1 - draws;
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
	/* beside it, every panel's accuracy: the one shown marked */
	for (int i = 0; i < n && 1 + i <= ph; i++) {
		char what[64], acc[128];
		panel_labels(pn, i, what, acc, sizeof what, sizeof acc);
		screen_put_cut(top + 1 + i, pw + 2, COLS - pw - 2, i == k ? C_KEY : C_NORMAL,
		               i == k, "%s %-16s %s", i == k ? S(ARROW) : " ", what, acc);
	}
	/* under that list, down to the panel's accuracy, what the fits of the
	 * dropped say (two rows), where they fit */
	if (p->pl.maps && layer >= 1 && layer <= p->pl.m - 1 && ph - n >= 1 &&
	    COLS - pw - 2 >= 45) {
		fit_summary(&p->pl.maps[layer - 1], layer + 1, top + 1 + n, top + ph + 1, pw + 2,
		            COLS - pw - 2);
		*fits = 1;
	}
	if (draws)
		draws_line(pn, top + ph + 2);
	plane_key_classes(top + ph + 2 + draws, 0, COLS, p->pl.k);
	return top + ph + 3 + draws;
}

/* What the fits of layer's dropped neurons say (unless fits: said beside
 * the panel), and their combinations as text, rows y..bot. */
static void combination_lines(const ShownPlane *pl, int layer, int y, int bot, int fits)
{
	if (!pl->maps || layer < 1 || layer > pl->m - 1)
		return;
	const ShownMaps *m = &pl->maps[layer - 1];
	if (!fits)
		y = fit_summary(m, layer + 1, y, bot, 0, COLS);
	for (int r = 0; r < m->c.n - m->c.nkeep && y <= bot; r++)
		combination_line(m, r, y++, 0, COLS);
}

/* A squeeze proposal or Algorithm 1's step as panels, then as much of the
 * layer's maps (or its combinations as text) as the rows below hold. */
static void panel_view(const Shown *p, UiState *u, const ShownPanels *pn, int top, int bot)
{
	const ShownSqueeze *q = &p->sq;
	if (pn && pn->crc != u->plane_seen) {
		/* new panels: the maps of the layer they are about (a squeeze's: the
		 * layer the view stays on once it is decided) */
		u->plane_seen = pn->crc;
		u->plane_layer = pn->layer;
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
		char t[160];
		snprintf(t, sizeof t,
		         "Algorithm 1's step removed %d neurons: the network before it, without "
		         "them, and after it",
		         pn->removed);
		if (screen_width(t) > COLS) /* the panels' titles name them */
			snprintf(t, sizeof t,
			         "Algorithm 1's step removed %d neurons: before, after",
			         pn->removed);
		screen_put_cut(top, 0, 0, C_TITLE, 1, "%s", t);
	}
	if (!pn) {
		screen_put(top + 1, 0, 0, C_DIM, 0, "measuring the regions%s", S(ELLIPSIS));
		return;
	}
	/* two rows kept under the panels for what the fits of the dropped say
	 * when the panels still stand side by side; one panel alone takes them */
	int pw, ph;
	int keep = side_by_side(p, pn, top + 1, bot - 2, &pw, &ph) ? 2 : 0;
	int fits, layer = shown_layer(p, u);
	int y = panels_block(p, u, pn, layer, top + 1, bot - keep, &fits);
	if (bot - y + 1 >= MAP_H + 3)
		maps_block(p, u, y + 1, bot, 0);
	else
		combination_lines(&p->pl, layer, y, bot, fits);
}

/* While it trains: the epoch the regions and maps are of, and the speed
 * (its keys where they fit). */
static void live_title(const Shown *p, const char *shape, int top)
{
	const ShownPlane *pl = &p->pl;
	char ep[32], of[32] = "", speed[32], line[300];
	if (pl->epoch == floor(pl->epoch))
		snprintf(ep, sizeof ep, "%.0f", pl->epoch);
	else
		snprintf(ep, sizeof ep, "%.1f", pl->epoch);
	if (p->ks.epochs > 0)
		snprintf(of, sizeof of, " of %g", p->ks.epochs);
	views_speed(p->speed, speed, sizeof speed);
	for (int k = 0; k < 3; k++) {
		snprintf(line, sizeof line, "Decision regions of %s at epoch %s%s, live: %s%s",
		         shape, ep, k < 2 ? of : "", speed,
		         k == 0 ? "; { } speed, . one epoch, space pause" : "");
		if (screen_width(line) <= COLS)
			break;
	}
	screen_put_cut(top, 0, 0, C_TITLE, 1, "%s", line);
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
	char shape[128], title[600];
	views_shape(p->n, p->m, shape, sizeof shape);
	if (pl->live) {
		live_title(p, shape, top);
	} else {
		/* and the data set, as much of it as fits */
		for (int k = 0; k < 2; k++) {
			snprintf(title, sizeof title,
			         "Decision regions of %s: test accuracy %.2f%%%s%s", shape,
			         p->test_acc, k ? "" : "; ", k ? "" : p->data);
			if (screen_width(title) <= COLS)
				break;
		}
		screen_put_cut(top, 0, 0, C_TITLE, 1, "%s", title);
	}
	int used = regions_block(p, top + 1, bot, COLS / 2);
	maps_block(p, u, top + 1, bot, used + 2);
}
