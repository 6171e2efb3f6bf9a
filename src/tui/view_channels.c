/* tui/view_channels.c - the Plane view of a network with convolutions: on
 * an example image of the test set (< > step through the first of each
 * class), the maps the selected convolution layer (↑↓) gives, a map per
 * channel in pivoted-QR order, each kept or dropped by the squeeze at τ
 * (the proposal's while one waits), a dropped channel's map beside the map
 * of the combination of kept channels that replaces it, and those
 * combinations as text; ←→ scroll the maps. The counterpart of the neuron
 * maps of a network on the plane. Everything drawn here was computed by the
 * worker (worker_channels.c). */
#include <curses.h>
#include <math.h>
#include <stdio.h>

#include "tui/screen.h"
#include "tui/view_plane.h"
#include "tui/views_int.h"

/* The convolution layer whose maps show: the squeeze proposal's while it
 * waits on one; else the one chosen with Up and Down; else the first the
 * marks drop channels from, or layer 1. Written back to u->plane_shown. */
static int shown_layer(const Shown *p, UiState *u)
{
	const ShownChannels *ch = &p->ch;
	int nc = ch->nconv, layer = 1;
	if (p->sq.waiting && p->sq.layer >= 1 && p->sq.layer <= nc) {
		layer = p->sq.layer;
	} else if (u->plane_layer > 0) {
		layer = u->plane_layer < nc ? u->plane_layer : nc;
	} else {
		for (int i = nc; i >= 1; i--)
			if (ch->layers[i - 1].c.nkeep < ch->layers[i - 1].c.n)
				layer = i;
	}
	u->plane_shown = layer;
	return layer;
}

/* A tile for maps of h×w values: at least 8 cells across (whole multiples
 * of the map), at most 16, two pixels to a row. */
static void tile_size(int h, int w, int *rows, int *cols)
{
	int c = w;
	while (c < 8)
		c += w;
	if (c > 16)
		c = 16;
	*cols = c;
	*rows = (int)lround((double)c * h / w / 2);
	if (*rows < 1)
		*rows = 1;
}

static double largest(const float *v, size_t n, double s)
{
	for (size_t i = 0; i < n; i++)
		s = fmax(s, fabs(v[i]));
	return s;
}

/* The title: the squeeze's question while it waits on this layer, else
 * what is shown. */
static void title(const Shown *p, const ShownChanLayer *L, int layer, int ex, int y)
{
	const ShownChannels *ch = &p->ch;
	const ShownSqueeze *q = &p->sq;
	int n = L->c.n, nkeep = L->c.nkeep;
	const char *ud = screen_ascii() ? "Up Down" : "↑↓";
	char t[400];
	if (q->waiting && q->layer == layer) {
		snprintf(t, sizeof t,
		         "Squeeze, layer %d: remove %d of %d channels? y apply, n refuse, c "
		         "compensation %s, a all; test image %d of %d (< >)",
		         layer, q->n_before - q->nkeep, q->n_before, q->comp ? "on" : "off", ex + 1,
		         ch->nex);
		screen_put_cut(y, 0, 0, C_TITLE, 1, "%s", t);
		return;
	}
	for (int k = 0; k < 2; k++) {
		if (k == 0)
			snprintf(
			    t, sizeof t,
			    "Layer %d (%s) of %d convolutions, channels in pivoted-QR order on "
			    "test image %d of %d (< >, class %d): the squeeze at %s %g keeps %d "
			    "of %d",
			    layer, ud, ch->nconv, ex + 1, ch->nex, ch->label[ex], S(TAU), ch->tau,
			    nkeep, n);
		else
			snprintf(t, sizeof t, "Layer %d (%s): %s %g keeps %d of %d; image %d (< >)",
			         layer, ud, S(TAU), ch->tau, nkeep, n, ex + 1);
		if (screen_width(t) <= COLS)
			break;
	}
	screen_put_cut(y, 0, 0, C_TITLE, 1, "%s", t);
}

void view_channels(const Shown *p, UiState *u, int top, int bot)
{
	const ShownChannels *ch = &p->ch;
	if (!ch->layers || ch->nconv < 1 || ch->nex < 1) {
		screen_put(top, 0, 0, C_TITLE, 1, "The channels' maps on an example image");
		screen_put_cut(top + 1, 0, 0, ch->why[0] ? C_WARN : C_DIM, 0, "%s",
		               ch->why[0] ? ch->why : "computing...");
		return;
	}
	int layer = shown_layer(p, u);
	const ShownChanLayer *L = &ch->layers[layer - 1];
	int n = L->c.n, nkeep = L->c.nkeep, gone = n - nkeep;
	int ex = ((u->plane_panel % ch->nex) + ch->nex) % ch->nex;
	u->plane_panel = ex;
	title(p, L, layer, ex, top);
	size_t per = (size_t)L->h * L->w, img = (size_t)ch->c * ch->h * ch->w;
	const float *act = L->act + (size_t)ex * n * per, *comb = L->comb + (size_t)ex * gone * per;
	/* one scale for the layer's maps and combinations on this image */
	double scale = largest(comb, (size_t)gone * per, largest(act, (size_t)n * per, 1e-12));
	int rows, cols, irows, icols;
	tile_size(L->h, L->w, &rows, &cols);
	tile_size(ch->h, ch->w, &irows, &icols);
	/* the maps of another layer, image or network start from their start:
	 * the last two kept, then the dropped */
	unsigned key =
	    p->crc ^ (unsigned)layer * 2654435761u ^ (unsigned)nkeep * 40503u ^ (unsigned)ex * 97u;
	if (key != u->plane_key)
		u->plane_first = -1;
	u->plane_key = key;
	if (u->plane_first < 0)
		u->plane_first = nkeep > 2 && gone ? nkeep - 2 : 0;
	/* the combinations as text at the bottom: a third of the rows */
	int text = gone ? (bot - top) / 3 : 0;
	if (text > gone)
		text = gone;
	int last = bot - text, y = top + 2;
	if (y + irows > last) {
		screen_put_cut(y, 0, 0, C_DIM, 0, "too few rows for the maps");
		return;
	}
	/* the maps' colours under the title; the image (its first channel),
	 * then the maps to its right */
	plane_key_maps(top + 1, 0, COLS, scale);
	plane_draw_map_sized(ch->img + (size_t)ex * img, ch->h, ch->w,
	                     largest(ch->img + (size_t)ex * img, (size_t)ch->h * ch->w, 1e-12), y,
	                     0, irows, icols);
	screen_put(y + irows, 0, icols, C_DIM, 0, "class %d", ch->label[ex]);
	MapTiles t = {&L->c, act, comb, L->h, L->w, rows, cols, scale, 0};
	plane_draw_tiles(&t, u, y, icols + 2, last);
	/* each dropped channel as its combination of the kept ones in Ŵ, from
	 * the first shown on, with as many terms as fit */
	char buf[1024];
	for (int r = u->plane_first > nkeep ? u->plane_first - nkeep : 0, k = 0;
	     k < text && r < gone; k++, r++) {
		for (int terms = nkeep < 4 ? nkeep : 4; terms >= 1; terms--) {
			alg3_combination_str(&L->c, r, terms, screen_ascii(), buf, sizeof buf);
			if (screen_width(buf) <= COLS || terms == 1)
				break;
		}
		screen_put_cut(last + 1 + k, 0, COLS, C_NORMAL, 0, "%s", buf);
	}
}
