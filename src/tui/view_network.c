/* tui/view_network.c - the network as a picture (view 8): a column per
 * layer, the inputs on the left and the classes on the right, every neuron
 * its map over the plane on data of two features (the Plane view's colours:
 * palette.h) or, otherwise, a bar of its |r_jj|/|r_11| in the pivoted QR of
 * its layer's Ŵ; between the columns the strongest weights as lines in the
 * colour of their sign, heavier as |w| is larger (braille dots, or letters
 * in ASCII); the neurons the squeeze drops marked ×, and for a dropped one
 * chosen with the arrows the kept neurons of its combination lit with all
 * their coefficients. A column longer than the rows fold shows a count of the
 * rest; layers that do not fit across scroll. What is drawn was computed by
 * the worker (worker_diagram.c, worker_plane.c). */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/plane_inputs.h"
#include "tui/canvas.h"
#include "tui/palette.h"
#include "tui/screen.h"
#include "tui/view_plane.h"
#include "tui/views_int.h"

/* The most columns of layers and rows of neurons drawn. */
#define COLS_MAX 64
#define SLOTS_MAX 128

/* One column: a layer's neurons as drawn. */
typedef struct Col {
	int layer;            /* 0 the inputs .. m the outputs */
	int x, lw, cw;        /* its first cell, its labels' width, its width */
	int nshow, off, more; /* neurons drawn (from off), and those folded away */
	int y[SLOTS_MAX + 1]; /* each drawn neuron's first row, then the count's row */
} Col;

/* How the diagram is laid out. */
typedef struct Layout {
	int h, gap, mw;  /* a neuron's rows, the rows between two, its map's width */
	int ncol, first; /* columns drawn, from layer `first` */
	int top, rows;   /* the neurons' rows */
	Col col[COLS_MAX];
} Lay;

/* ---- what a neuron is ---- */

/* The label of neuron j of layer l. */
static const char *label(const ShownNet *d, int l, int j, char *buf, size_t len)
{
	if (l == 0 && d->plane)
		snprintf(buf, len, "%s", plane_inputs_name(d->inputs, j, screen_ascii()));
	else if (l == 0)
		snprintf(buf, len, "i%d", j + 1);
	else if (l == d->m)
		snprintf(buf, len, "%s%d", palette_point_glyph(j), j + 1);
	else
		snprintf(buf, len, "n%d", j + 1);
	return buf;
}

/* The maps of hidden layer l when the Plane view's are of this network. */
static const ShownMaps *maps_of(const Shown *p, int l)
{
	const ShownPlane *pl = &p->pl;
	if (!p->net.plane || !pl->maps || pl->step || pl->m != p->net.m || l < 1 || l >= pl->m)
		return NULL;
	const ShownMaps *m = &pl->maps[l - 1];
	return m->c.n == p->net.n[l] ? m : NULL;
}

/* The combinations whose marks the diagram shows for hidden layer l: the
 * squeeze proposal's while it waits, else the squeeze's at τ on data in the
 * plane (not while the network trains); NULL for none. */
static const Alg3Combinations *marks_of(const Shown *p, int l)
{
	const ShownNet *d = &p->net;
	if (p->sq.waiting && d->c.layer == l && d->c.n == d->n[l])
		return &d->c;
	if (p->sq.waiting || p->pl.live)
		return NULL;
	const ShownMaps *m = maps_of(p, l);
	return m ? &m->c : NULL;
}

/* The coefficients of dropped neuron r's combination of the kept ones:
 * in activations where the fit was made (what the refit works with, and
 * the Plane view shows), else of Ŵ's columns; their largest first into
 * order[0..nkeep). */
static const double *coefficients_of(const Alg3Combinations *c, int r, int *order)
{
	const double *v =
	    c->act_coef ? c->act_coef + (size_t)r * (c->nkeep + 1) : c->coef + (size_t)r * c->nkeep;
	for (int k = 0; k < c->nkeep; k++)
		order[k] = k;
	for (int a = 1; a < c->nkeep; a++) /* few terms: an insertion sort */
		for (int b = a; b > 0 && fabs(v[order[b]]) > fabs(v[order[b - 1]]); b--) {
			int x = order[b];
			order[b] = order[b - 1];
			order[b - 1] = x;
		}
	return v;
}

/* Dropped neuron r's combination as text, at most terms of them. */
static const char *combination_text(const Alg3Combinations *c, int r, int terms, char *buf,
                                    size_t len)
{
	return c->act_coef ? alg3_combination_act_str(c, r, terms, screen_ascii(), buf, len)
	                   : alg3_combination_str(c, r, terms, screen_ascii(), buf, len);
}

/* Where neuron j stands in c's pivot order, -1 when it is not there. */
static int pivot_of(const Alg3Combinations *c, int j)
{
	for (int t = 0; c && t < c->n; t++)
		if (c->perm[t] == j)
			return t;
	return -1;
}

/* ---- the layout ---- */

/* The columns from layer `first` that fit across, each as wide as its
 * labels and maps, and the gaps between them; returns how many. */
static int fit(const Shown *p, Lay *L, int first, int room)
{
	const ShownNet *d = &p->net;
	char b[32];
	int total = 0, n = 0;
	for (int l = first; l <= d->m && n < COLS_MAX; l++) {
		Col *c = &L->col[n];
		c->layer = l;
		c->lw = 0;
		int shown = d->n[l] < SLOTS_MAX ? d->n[l] : SLOTS_MAX;
		for (int j = 0; j < shown; j++)
			c->lw = (int)fmax(c->lw, screen_width(label(d, l, j, b, sizeof b)));
		c->lw = (int)fmax(c->lw, screen_width(label(d, l, d->n[l] - 1, b, sizeof b)));
		c->cw = c->lw + 1 + L->mw + 1; /* label, map, the drop mark */
		/* at least 6 cells between two columns for the weights */
		if (n > 0 && total + 6 + c->cw > room)
			break;
		total += (n > 0 ? 6 : 0) + c->cw;
		n++;
	}
	if (n < 1)
		return 0;
	int spare = room - total, gap = n > 1 ? 6 + spare / (n - 1) : 0;
	gap = gap > 40 ? 40 : gap; /* not so far apart that the lines say little */
	int width = total - 6 * (n - 1) + gap * (n - 1), x = (COLS - width) / 2;
	for (int k = 0; k < n; k++) {
		L->col[k].x = x;
		x += L->col[k].cw + gap;
	}
	return n;
}

/* The columns from layer `first` that fit across; when some do not, a
 * cell is kept free at each edge for the arrows that say so. */
static int columns(const Shown *p, Lay *L, int first)
{
	int n = fit(p, L, first, COLS);
	if (n > 0 && (first > 0 || first + n <= p->net.m))
		n = fit(p, L, first, COLS - 4);
	return n;
}

/* The rows of each column's neurons: as tall as the longest column allows
 * (4 rows, then 3, 2, 1 with a row between, then none between); a longer
 * column folds, the selected neuron in sight. */
static void rows_of(const Shown *p, const UiState *u, Lay *L)
{
	const ShownNet *d = &p->net;
	int longest = 0;
	for (int k = 0; k < L->ncol; k++)
		longest = (int)fmax(longest, d->n[L->col[k].layer]);
	static const int hs[][2] = {{4, 1}, {3, 1}, {2, 1}, {1, 1}, {1, 0}};
	int pick = 4;
	for (int i = 0; i < 5; i++)
		if (longest * (hs[i][0] + hs[i][1]) - hs[i][1] <= L->rows) {
			pick = i;
			break;
		}
	L->h = hs[pick][0];
	L->gap = hs[pick][1];
	int slots = (L->rows + L->gap) / (L->h + L->gap);
	slots = slots > SLOTS_MAX ? SLOTS_MAX : slots < 2 ? 2 : slots;
	int most = 1;
	for (int k = 0; k < L->ncol; k++) {
		Col *c = &L->col[k];
		int n = d->n[c->layer];
		c->off = 0;
		c->nshow = n;
		c->more = 0;
		if (n > slots) { /* the last slot says how many more */
			c->nshow = slots - 1;
			if (c->layer == u->net_col && u->net_row >= c->nshow)
				c->off = u->net_row - c->nshow + 1;
			c->more = n - c->nshow;
		}
		most = (int)fmax(most, c->nshow + (c->more > 0));
	}
	/* the longest column over the whole height (the weights' lines fill the
	 * rows between), every column centred at the same step */
	double step = most > 1 ? fmax(L->h + L->gap, (double)(L->rows - L->h) / (most - 1)) : 0;
	for (int k = 0; k < L->ncol; k++) {
		Col *c = &L->col[k];
		int cnt = c->nshow + (c->more > 0);
		double y0 = L->top + (L->rows - ((cnt - 1) * step + L->h)) / 2;
		for (int i = 0; i <= c->nshow && i <= SLOTS_MAX; i++)
			c->y[i] = (int)lround(y0 + i * step);
	}
}

/* ---- the neurons ---- */

/* A map of PLANE_MAP_PX² values v (scaled by 1/scale to [−1, 1]) in
 * L->h rows of L->mw cells at (y, x); cls ≥ 0: a class's probabilities,
 * drawn in its shades. */
static void draw_map(const float *v, double scale, int cls, int k, const Lay *L, int y, int x)
{
	int n = PLANE_MAP_PX, color = screen_color();
	for (int r = 0; r < L->h; r++)
		for (int c = 0; c < L->mw; c++) {
			int gc = c * n / L->mw, gt = 2 * r * n / (2 * L->h),
			    gb = (2 * r + 1) * n / (2 * L->h);
			double top = v[gt * n + gc], bot = v[gb * n + gc];
			if (cls >= 0 && color)
				palette_cell2(y + r, x + c, palette_region(cls, (float)top, k),
				              palette_region(cls, (float)bot, k));
			else if (cls >= 0)
				mvaddch(y + r, x + c,
				        (chtype)(top > 0.5 ? palette_region_ascii(cls) : ' '));
			else if (color)
				palette_cell2(y + r, x + c, palette_map(top / scale),
				              palette_map(bot / scale));
			else
				mvaddch(y + r, x + c, (chtype)palette_map_ascii(top / scale));
		}
}

/* The largest |value| of n maps (1 at least when bounded is set). */
static double scale_of(const float *v, int n, int bounded)
{
	double s = bounded ? 1 : 0;
	for (size_t i = 0; i < (size_t)n * PLANE_MAP_PX * PLANE_MAP_PX; i++)
		s = fmax(s, fabs(v[i]));
	return s > 0 ? s : 1;
}

/* A bar of v = |r_jj|/|r_11| over three decades (1/τ halfway when τ is
 * 1000), or a dot for a neuron beyond the rank. */
static void draw_bar(double v, double tau, const Lay *L, int y, int x)
{
	if (!(v > 0)) {
		screen_put(y, x, L->mw, C_DIM, 0, "%s", screen_ascii() ? "." : "·");
		return;
	}
	int len = (int)lround(L->mw * (1 + log10(v) / 3));
	len = len < 1 ? 1 : len > L->mw ? L->mw : len;
	for (int c = 0; c < L->mw; c++)
		screen_put(y, x + c, 1, c < len ? (v >= 1 / tau ? C_GOOD : C_WARN) : C_DIM, 0, "%s",
		           c < len ? (screen_ascii() ? "#" : "█") : (screen_ascii() ? "-" : "░"));
}

/* |r_jj|/|r_11| of neuron j of layer l (its layer table's pivoted QR), 0
 * when it has none. */
static double rdiag_of(const Shown *p, int l, int j)
{
	if (!p->lc || l < 1 || l > p->m || p->live || !p->lc[l - 1].perm)
		return 0;
	const LayerCond *lc = &p->lc[l - 1];
	for (int t = 0; t < lc->cols && t < lc->nsv; t++)
		if (lc->perm[t] == j)
			return lc->rdiag[t];
	return 0;
}

static void draw_neuron(const Shown *p, const UiState *u, const Lay *L, const Col *c, int i,
                        const float *maps, double scale)
{
	const ShownNet *d = &p->net;
	int l = c->layer, j = c->off + i, y = c->y[i], x = c->x;
	size_t np = (size_t)PLANE_MAP_PX * PLANE_MAP_PX;
	const Alg3Combinations *mk = marks_of(p, l);
	int t = pivot_of(mk, j), drop = mk && t >= mk->nkeep;
	char b[32];
	ScrColor lc = l == u->net_col && j == u->net_row ? C_SEL
	              : drop                             ? C_WARN
	              : mk                               ? C_GOOD
	                                                 : C_NORMAL;
	label(d, l, j, b, sizeof b);
	screen_put(y + (L->h - 1) / 2, x + c->lw - screen_width(b), c->lw, lc, drop, "%s", b);
	int mx = x + c->lw + 1;
	if (l == 0 && d->plane && j < DIAG_MAX)
		draw_map(d->in_maps + (size_t)j * np, scale, -1, 0, L, y, mx);
	else if (l == d->m && d->plane)
		draw_map(d->out_maps + (size_t)j * np, 1, j, d->n[d->m], L, y, mx);
	else if (maps && j < DIAG_MAX)
		draw_map(maps + (size_t)j * np, scale, -1, 0, L, y, mx);
	else if (l > 0)
		draw_bar(rdiag_of(p, l, j), p->tau, L, y + (L->h - 1) / 2, mx);
	if (drop)
		screen_put(y + (L->h - 1) / 2, mx + L->mw, 1, C_WARN, 1, "%s", S(TIMES));
}

/* ---- the weights ---- */

/* One weight to draw: between drawn neurons a (left column) and b. */
typedef struct Edge {
	int a, b;
	float w;
} Edge;

static int by_weight(const void *x, const void *y)
{
	double a = fabs(((const Edge *)x)->w), b = fabs(((const Edge *)y)->w);
	return (a < b) - (a > b);
}

/* The weights between columns c and c + 1: the strongest of those between
 * drawn neurons, and every one of the selected neuron's; returns how many
 * there were and how many are drawn. */
static void weights(const Shown *p, const UiState *u, const Lay *L, const Col *c, const Col *next,
                    int *shown, int *of)
{
	const ShownNet *d = &p->net;
	int l = c->layer, rows = d->n[l] < DIAG_MAX ? d->n[l] : DIAG_MAX;
	int cols = d->n[l + 1] < DIAG_MAX ? d->n[l + 1] : DIAG_MAX;
	int na = c->nshow, nb = next->nshow, n = 0;
	Edge *e = malloc((size_t)(na * nb > 0 ? na * nb : 1) * sizeof *e);
	Canvas cv = {0};
	*shown = *of = 0;
	if (!e || !d->w[l] || next->x - 1 - (c->x + c->cw) < 2) {
		free(e);
		return;
	}
	for (int i = 0; i < na; i++)
		for (int k = 0; k < nb; k++) {
			int ja = c->off + i, jb = next->off + k;
			if (ja < rows && jb < cols)
				e[n++] = (Edge){i, k, d->w[l][(size_t)ja * cols + jb]};
		}
	qsort(e, (size_t)n, sizeof *e, by_weight);
	int keep = 3 * (na > nb ? na : nb) / 2;
	keep = keep < n ? keep : n;
	double top = n ? fabs(e[0].w) : 0;
	if (canvas_new(&cv, L->top, c->x + c->cw, L->rows, next->x - 1 - (c->x + c->cw)) < 0 ||
	    !(top > 0))
		goto out;
	/* the faintest first: a heavier line through a cell takes it */
	for (int q = n - 1; q >= 0; q--) {
		int sel = (l == u->net_col && c->off + e[q].a == u->net_row) ||
		          (l + 1 == u->net_col && next->off + e[q].b == u->net_row);
		if (q >= keep && !sel)
			continue;
		double f = fabs(e[q].w) / top;
		int tier = sel ? 3 : f >= 0.6 ? 3 : f >= 0.3 ? 2 : 1;
		int ya = c->y[e[q].a] + (L->h - 1) / 2, yb = next->y[e[q].b] + (L->h - 1) / 2;
		int dy = yb - ya, slope = abs(dy) * 2 < cv.w / 2 ? 0 : dy > 0 ? 1 : 2;
		canvas_line(&cv, 0, 4 * (ya - cv.y0) + 1, 2 * cv.w - 1, 4 * (yb - cv.y0) + 1, tier,
		            e[q].w < 0, slope);
		(*shown)++;
	}
	*of = n;
	canvas_draw(&cv);
out:
	canvas_free(&cv);
	free(e);
}

/* ---- the text ---- */

/* What the selected neuron is, in one line that fits; hidden: the terms
 * of a dropped one's combination on neurons folded away. */
static void about(const Shown *p, const UiState *u, int y, int hidden)
{
	const ShownNet *d = &p->net;
	int l = u->net_col, j = u->net_row;
	char b[32], line[600];
	label(d, l, j, b, sizeof b);
	const Alg3Combinations *mk = marks_of(p, l);
	int t = pivot_of(mk, j);
	/* no removing by hand in a lesson: its keys only look */
	const char *hint = u->lesson ? "" : " (d removes it by hand)";
	if (l == 0)
		snprintf(line, sizeof line, "input %s%s", b,
		         d->plane ? ": what the network reads over the plane" : "");
	else if (l == d->m)
		snprintf(line, sizeof line, "class %d: its probability%s", j + 1,
		         d->plane ? " over the plane, in its colour" : "");
	else if (mk && t >= mk->nkeep) {
		char comb[512], more[96] = "";
		snprintf(more, sizeof more,
		         hidden ? "; +%d more coefficients, their neurons folded" : "", hidden);
		combination_text(mk, t - mk->nkeep, 4, comb, sizeof comb);
		snprintf(line, sizeof line, "layer %d: dropped by the squeeze%s, %s%s", l,
		         p->sq.waiting ? "'s proposal" : " at τ", comb, more);
		for (int terms = 3; terms >= 1 && screen_width(line) > COLS; terms--) {
			snprintf(more, sizeof more, hidden ? "; +%d more folded" : "", hidden);
			combination_text(mk, t - mk->nkeep, terms, comb, sizeof comb);
			snprintf(line, sizeof line, "layer %d: dropped, %s%s", l, comb, more);
		}
	} else if (mk)
		snprintf(line, sizeof line, "layer %d %s: kept, pivot %d of %d%s", l, b, t + 1,
		         mk->n, p->sq.waiting ? "" : hint);
	else {
		double r = rdiag_of(p, l, j);
		if (r > 0)
			snprintf(line, sizeof line,
			         "layer %d %s: |r_jj|/|r_11| %.3g in its layer's pivoted QR%s", l,
			         b, r, hint);
		else
			snprintf(line, sizeof line, "layer %d %s%s", l, b, hint);
	}
	screen_put_cut(y, 0, 0, C_NORMAL, 0, "%s", line);
}

/* The coefficients of the selected dropped neuron's combination, beside
 * the kept neurons they weigh, every one of them in sight; returns how
 * many weigh neurons folded away (the text under the diagram says so). */
static int coefficients(const Shown *p, const UiState *u, const Lay *L)
{
	int l = u->net_col, hidden = 0;
	const Alg3Combinations *mk = marks_of(p, l);
	int t = pivot_of(mk, u->net_row);
	const Col *c = NULL;
	for (int k = 0; mk && t >= mk->nkeep && k < L->ncol; k++)
		if (L->col[k].layer == l)
			c = &L->col[k];
	int *order = c ? malloc((size_t)mk->nkeep * sizeof *order) : NULL;
	if (!order)
		return 0;
	const double *coef = coefficients_of(mk, t - mk->nkeep, order);
	for (int q = 0; q < mk->nkeep; q++) {
		int j = mk->perm[order[q]], i = j - c->off;
		if (i < 0 || i >= c->nshow) {
			hidden++;
			continue;
		}
		char b[32];
		label(&p->net, l, j, b, sizeof b);
		int y = c->y[i] + (L->h - 1) / 2;
		screen_put(y, c->x + c->lw - screen_width(b), c->lw, C_MARK, 1, "%s", b);
		screen_put(y, c->x + c->cw, 7, C_MARK, 1, "%+.2f ", coef[order[q]]);
	}
	free(order);
	return hidden;
}

/* The foot of a folded column: how many more, and how many of them the
 * squeeze drops, in the first form that fits room columns. */
static void foot(const Col *c, int gone, int y, int room)
{
	char more[64];
	for (int k = 0; k < 3; k++) {
		int n = snprintf(more, sizeof more, "+%d%s", c->more, c->off || k ? "" : " more");
		if (gone)
			snprintf(more + n, sizeof more - (size_t)n, k < 2 ? ", %d %s" : " %d%s",
			         gone, S(TIMES));
		if (screen_width(more) <= room)
			break;
	}
	screen_put_cut(y, c->x, room, gone ? C_WARN : C_DIM, 0, "%s", more);
}

/* The title: the network, what the marks are, the keys of the view. */
static void title(const Shown *p, const UiState *u, int y)
{
	char shape[128], line[400];
	views_shape(p->n, p->m, shape, sizeof shape);
	/* the marks the Plane view's maps carry are of this network unless it
	 * trains or they show the one before a step */
	const char *marks = p->sq.waiting              ? "the squeeze proposal's drops marked ×"
	                    : !p->net.plane            ? "bars: |r_jj|/|r_11|"
	                    : p->pl.live || p->pl.step ? "each neuron its activation over the plane"
	                                               : "the squeeze at τ drops those marked ×";
	for (int k = 0; k < 3; k++) {
		if (k == 0)
			snprintf(line, sizeof line, "Network %s%s: %s; %s", shape,
			         p->net.live ? ", live" : "", marks,
			         u->lesson ? "←→↑↓ choose"
			                   : "←→↑↓ choose, d remove, i add, D I a layer, f inputs");
		else if (k == 1)
			snprintf(line, sizeof line, "Network %s%s: %s", shape,
			         p->net.live ? ", live" : "", marks);
		else
			snprintf(line, sizeof line, "Network %s", shape);
		if (screen_width(line) <= COLS)
			break;
	}
	screen_put_cut(y, 0, 0, C_TITLE, 1, "%s", line);
}

/* The neuron chosen: a new proposal's first dropped one (its combination
 * lit), or the one a lesson's next action removes (once); kept in the
 * network (not on a state about to change: a lesson stepped back shows the
 * old one until the replay). */
static void choose(const Shown *p, UiState *u)
{
	const ShownNet *d = &p->net;
	int settled = !p->busy && !p->queued;
	unsigned seen = settled && p->sq.waiting && d->c.layer == p->sq.layer && d->c.nkeep < d->c.n
	                    ? d->crc ^ (unsigned)p->sq.layer
	                    : 0;
	if (seen && seen != u->net_seen) {
		u->net_col = d->c.layer;
		u->net_row = d->c.perm[d->c.nkeep];
	}
	u->net_seen = seen ? seen : u->net_seen;
	const SessAction *next =
	    u->lesson && p->play_pos < u->lesson->n ? &u->lesson->a[p->play_pos] : NULL;
	if (settled && next && next->kind == SESS_NEURON && !next->neuron.add &&
	    u->net_lesson != p->play_pos + 1) {
		u->net_col = next->neuron.layer;
		u->net_row = next->neuron.neuron - 1;
		u->net_lesson = p->play_pos + 1;
	}
	u->net_col = u->net_col < 0 ? 0 : u->net_col > d->m ? d->m : u->net_col;
	int nn = d->n[u->net_col];
	u->net_row = u->net_row < 0 ? 0 : u->net_row >= nn ? nn - 1 : u->net_row;
}

/* The columns' heads (κ, red over τ), and the arrows to those out of sight. */
static void heads(const Shown *p, const Lay *L, int y)
{
	const ShownNet *d = &p->net;
	for (int k = 0; k < L->ncol; k++) {
		const Col *c = &L->col[k];
		char head[64], kb[32];
		int l = c->layer;
		if (l == 0)
			snprintf(head, sizeof head, "inputs");
		else if (l == d->m)
			snprintf(head, sizeof head, "classes");
		else if (p->lc && l <= p->m)
			snprintf(head, sizeof head, "%d %s %s", l, S(KAPPA),
			         views_kappa(p->lc[l - 1].kappa, p->tau, kb, sizeof kb));
		else
			snprintf(head, sizeof head, "layer %d", l);
		int over = l > 0 && l < d->m && p->lc && cond_over(p->lc[l - 1].kappa, p->tau);
		int wdt = screen_width(head), room = c->cw + (k + 1 < L->ncol ? 4 : 0);
		if (wdt > room)
			snprintf(head, sizeof head, "%d", l), wdt = screen_width(head);
		screen_put(y, c->x, room, over ? C_WARN : C_TITLE, 1, "%s", head);
	}
	if (L->first > 0)
		screen_put(y, 0, 1, C_KEY, 1, "%s", screen_ascii() ? "<" : "‹");
	if (L->first + L->ncol <= d->m)
		screen_put(y, COLS - 1, 1, C_KEY, 1, "%s", screen_ascii() ? ">" : "›");
}

/* A column's neurons, and how many more (and how many of them the squeeze
 * drops). */
static void column(const Shown *p, UiState *u, const Lay *L, const Col *c)
{
	const ShownNet *d = &p->net;
	int l = c->layer;
	const float *maps = NULL;
	double scale = 1;
	if (d->plane && d->hid_maps && l >= 1 && l < d->m && d->hid_maps[l - 1]) {
		/* a layer's maps on one scale, as the Plane view draws them */
		maps = d->hid_maps[l - 1];
		scale = scale_of(maps, d->n[l] < DIAG_MAX ? d->n[l] : DIAG_MAX, 1);
	}
	for (int i = 0; i < c->nshow; i++) {
		double s = scale;
		if (l == 0 && d->plane && c->off + i < DIAG_MAX) /* each input its own scale */
			s = scale_of(
			    d->in_maps + (size_t)(c->off + i) * PLANE_MAP_PX * PLANE_MAP_PX, 1, 0);
		draw_neuron(p, u, L, c, i, maps, s);
	}
	if (!c->more)
		return;
	/* how many more, and how many of them the squeeze drops */
	const Alg3Combinations *mk = marks_of(p, l);
	int gone = 0;
	for (int j = 0; mk && j < d->n[l]; j++)
		gone += (j < c->off || j >= c->off + c->nshow) && pivot_of(mk, j) >= mk->nkeep;
	foot(c, gone, c->y[c->nshow], c->cw + 4);
}

void view_network(const Shown *p, UiState *u, int top, int bot)
{
	const ShownNet *d = &p->net;
	if (d->graph) {
		view_graph(p, u, top, bot);
		return;
	}
	if (!d->m || !d->n) {
		screen_put(top, 0, 0, C_DIM, 0, "no network yet");
		return;
	}
	choose(p, u);
	Lay L;
	memset(&L, 0, sizeof L);
	title(p, u, top);
	int info = bot - top >= 8 ? 2 : 1;
	L.top = top + 2;
	L.rows = bot - info - L.top + 1;
	if (L.rows < 2)
		return;
	/* the columns: the selected one in sight */
	int h0 = L.rows >= 4 ? 2 : 1;
	L.mw = d->plane ? 2 * h0 : 5;
	u->net_first = u->net_first < 0 ? 0 : u->net_first > u->net_col ? u->net_col : u->net_first;
	for (;;) {
		L.ncol = columns(p, &L, u->net_first);
		if (L.ncol < 1 || u->net_first + L.ncol - 1 >= u->net_col)
			break;
		u->net_first++;
	}
	L.first = u->net_first;
	rows_of(p, u, &L);
	/* the maps as wide as their rows make them square, when they fit */
	if (d->plane && L.mw != 2 * L.h) {
		L.mw = 2 * L.h < 4 ? 4 : 2 * L.h;
		L.ncol = columns(p, &L, L.first);
		rows_of(p, u, &L);
	}
	heads(p, &L, top + 1);
	/* the weights under the neurons, then the neurons */
	int shown = 0, of = 0;
	for (int k = 0; k + 1 < L.ncol; k++) {
		int s, o;
		weights(p, u, &L, &L.col[k], &L.col[k + 1], &s, &o);
		shown += s;
		of += o;
	}
	for (int k = 0; k < L.ncol; k++)
		column(p, u, &L, &L.col[k]);
	about(p, u, bot - info + 1, coefficients(p, u, &L));
	if (info > 1)
		view_network_key(p, bot, shown, of);
}
