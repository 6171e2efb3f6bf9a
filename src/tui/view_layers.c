/* tui/view_layers.c - the layer table: n_i, κ(Ŵ⁽ⁱ⁾), p_i, the ranks, the
 * flags that teach and a spectrum sparkline per layer. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui/screen.h"
#include "tui/views_int.h"

/* The bottom of the sparklines' shared log scale: a decade at or below the
 * smallest positive σ_j/σ₁ of any layer and half of 1/τ. */
static double spark_floor(const Shown *p)
{
	double lo = 0.5 / p->tau;
	for (int i = 0; i < p->m; i++) {
		const LayerCond *l = &p->lc[i];
		for (int j = 0; l->sv && l->sv[0] > 0 && j < l->nsv; j++)
			if (l->sv[j] > 0 && l->sv[j] / l->sv[0] < lo)
				lo = l->sv[j] / l->sv[0];
	}
	lo = fmax(lo, 1e-9);
	return pow(10, floor(log10(lo)));
}

/* A graph network's column of each layer's shape and node: the rest of
 * the row on a narrow screen, 48 columns before the sparklines on a wide
 * one. */
static int graph_label_width(void)
{
	return COLS - 43 < 80 ? COLS - 43 : 48;
}

static void legend(const Shown *p, int bot, long sum, double maxk);

/* A layer's row; a convolution's n_i is its channels (the columns of its
 * Ŵ), marked c. */
static void layer_row(const Shown *p, const UiState *u, int i, int y, int sx, double lo)
{
	const LayerCond *lc = &p->lc[i];
	char kb[48], flags[4] = "", qr[16];
	int units = lc->conv ? lc->cols : p->n[i + 1];
	int over = cond_over(lc->kappa, p->tau), deficient = lc->rank_svd < units;
	snprintf(flags, sizeof flags, "%s%s", over ? "!" : "", deficient ? "r" : "");
	views_kappa(lc->kappa, p->tau, kb, sizeof kb);
	if (isinf(lc->kappa) && p->bias0 && p->bias0[i])
		snprintf(kb + strlen(kb), sizeof kb - strlen(kb), " b=0");
	snprintf(qr, sizeof qr, lc->rank_qr >= 0 ? "%d" : "-", lc->rank_qr);
	/* padded by display columns: ∞ is one column of three bytes */
	for (int w = screen_width(kb); w < 11 && strlen(kb) + 1 < sizeof kb; w++)
		strcat(kb, " ");
	screen_put(y, 0, 2, C_WARN, 1, "%s", flags);
	screen_put(y, 2, 3, i + 1 == u->layer ? C_SEL : C_NORMAL, i + 1 == u->layer, "%3d", i + 1);
	screen_put(y, 5, 0, over ? C_WARN : C_NORMAL, over, "%s %5d  %s %4d %5d %4s",
	           i == p->m - 1 ? "*"
	           : lc->conv    ? "c"
	                         : " ",
	           units, kb, lc->p, lc->rank_svd, qr);
	if (p->graph) { /* its shape whole, then its node's name as far as it fits */
		char nb[GRAPH_NAME + 8];
		int lw = graph_label_width(),
		    x = screen_put(y, sx, lw, C_NORMAL, 0, "%s ", p->kind[i]);
		screen_put(y, sx + x, lw - x, C_DIM, 0, "%s",
		           views_fit_name(p->lname[i], lw - x, nb, sizeof nb));
		sx += lw + 1;
		if (COLS - sx < 8)
			return;
	}
	double v[1024];
	int nv = lc->nsv < 1024 ? lc->nsv : 1024;
	for (int j = 0; j < nv; j++)
		v[j] = lc->sv[0] > 0 ? lc->sv[(long)j * lc->nsv / nv] / lc->sv[0] : 0;
	screen_spark(y, sx, COLS - sx, v, nv, lo, 1.0 / p->tau);
}

/* Under the table on a tall screen: the selected layer's singular values
 * and κ's history (per Algorithm-1 iteration, or against the last
 * training's epochs). */
static void below(const Shown *p, const UiState *u, int top, int bot)
{
	const LayerCond *lc = &p->lc[u->layer - 1];
	char t[160];
	double v[4096];
	int nv = lc->nsv < 4096 ? lc->nsv : 4096, half = p->nrec || p->ks.n ? COLS / 2 : COLS;
	for (int j = 0; j < nv; j++)
		v[j] = lc->sv[0] > 0 ? lc->sv[j] / lc->sv[0] : 0;
	snprintf(t, sizeof t, "layer %d%s%s: %s_j/%s%s (log), × the p_i = %d below 1/%s", u->layer,
	         lc->conv ? ", " : "", lc->conv && p->kind ? p->kind[u->layer - 1] : "", S(SIGMA),
	         S(SIGMA), screen_ascii() ? "_1" : "₁", lc->p, S(TAU));
	if (screen_width(t) > half - 1) /* the note under the table says what × is */
		snprintf(t, sizeof t, "layer %d: %s_j/%s%s (log), × p_i = %d", u->layer, S(SIGMA),
		         S(SIGMA), screen_ascii() ? "_1" : "₁", lc->p);
	views_profile(top, 0, bot - top + 1, half - 1, t, v, nv, nv, p->tau, lc->rank_svd);
	if (half < COLS)
		views_kappa_recent(p, u, top, half + 1, bot - top + 1, COLS - half - 1);
}

void view_layers(const Shown *p, UiState *u, int top, int bot)
{
	int sx = 43, y = top, full_bot = bot;
	char kb[48];
	if (!p->lc || !p->n) {
		screen_put(y, 0, 0, C_DIM, 0, "computing...");
		return;
	}
	if (u->layer < 1)
		u->layer = 1;
	if (u->layer > p->m)
		u->layer = p->m;
	if (!views_data_in_header(p, u))
		screen_put_cut(y++, 0, 0, C_NORMAL, 0, "%s", p->data);
	double lo = spark_floor(p);
	char lob[16];
	snprintf(lob, sizeof lob, lo >= 1e-3 ? "%g" : "1e%.0f", lo >= 1e-3 ? lo : log10(lo));
	screen_put(y, 0, 0, C_TITLE, 1, "    i   n_i  %s(%s)%*s p_i  rank   QR", S(KAPPA), S(WHAT),
	           screen_ascii() ? 0 : 5, "");
	int tx = sx; /* the sparklines' title */
	if (p->graph) {
		screen_put(y, sx, 0, C_TITLE, 1, "shape (C_out×C_in/g×k×k), node");
		tx += graph_label_width() + 1;
	}
	int x =
	    tx >= COLS - 8
	        ? 0
	        : screen_put(y, tx, 0, C_TITLE, 1, "%s_j/%s%s (log %s%s%s%s1, | at 1/%s)", S(SIGMA),
	                     S(SIGMA), screen_ascii() ? "_1" : "₁", screen_ascii() ? "_" : "▁", lob,
	                     S(ELLIPSIS), screen_ascii() ? "#" : "█", S(TAU));
	if (p->live && tx + x + 6 <= COLS)
		screen_put(y, tx + x + 1, 0, C_KEY, 1, "live");
	else if (p->live)
		screen_put(y, COLS - 5, 5, C_KEY, 1, " live");
	y++;
	/* a tall screen: the table, its key, then the selected layer's spectrum
	 * beside κ's history below */
	int charts = bot - (y + p->m + 2) >= (u->present ? 6 : 9);
	if (charts)
		bot = y + p->m + 1;
	int rows = bot - 2 - y + 1, first = 0;
	if (p->m > rows) {
		first = u->layer - 1 - rows / 2;
		first = first < 0 ? 0 : first > p->m - rows ? p->m - rows : first;
	}
	for (int i = first; i < p->m && y <= bot - 2; i++, y++)
		layer_row(p, u, i, y, sx, lo);
	if (p->m > rows && !views_data_in_header(p, u)) { /* the data line gives way */
		screen_put(top, 0, COLS, C_NORMAL, 0, "%*s", COLS, "");
		screen_put_cut(top, 0, COLS - 15, C_NORMAL, 0, "%s", p->data);
	}
	if (p->m > rows)
		screen_put(top, COLS - 14, 14, C_KEY, 0, "%s%s %d of %d", first ? "▲" : " ",
		           first + rows < p->m ? "▼" : " ", rows, p->m);
	double maxk = 0;
	long sum = 0;
	for (int i = 0; i < p->m; i++) {
		maxk = fmax(maxk, p->lc[i].kappa);
		sum += p->lc[i].conv ? p->lc[i].cols : p->n[i + 1];
	}
	if (p->graph) {
		screen_put_items(
		    bot - 1, 0, 0, C_DIM, 0,
		    "%s n_i %ld (the Conv and Gemm nodes)   max %s %s   * the logits' layer"
		    "   ↑↓ layer, Enter: its spectrum",
		    S(SUM), sum, S(KAPPA), views_kappa(maxk, p->tau, kb, sizeof kb));
		screen_put_items(bot, 0, 0, C_DIM, 0,
		                 "! %s > %s   r rank < n_i   c Conv, n_i its output channels   /s "
		                 "stride s   g groups   Gk channel group k (removed together)   x "
		                 "explains",
		                 S(KAPPA), S(TAU));
	} else {
		legend(p, bot, sum, maxk);
	}
	if (charts)
		below(p, u, bot + 2, full_bot);
}

/* The chain's key under the table: sums, flags and what they mean. */
static void legend(const Shown *p, int bot, long sum, double maxk)
{
	char kb[48];
	screen_put_items(bot - 1, 0, 0, C_DIM, 0,
	                 "%s n_i %ld (layers 1..m)   max %s %s   * output layer (never reduced)   "
	                 "↑↓ layer, Enter: its spectrum",
	                 S(SUM), sum, S(KAPPA), views_kappa(maxk, p->tau, kb, sizeof kb));
	screen_put_items(
	    bot, 0, 0, C_DIM, 0,
	    "! %s > %s: p_i %s below %s%s/%s go next   r rank < n_i   %s b=0: zero bias row"
	    "   %sx explains",
	    S(KAPPA), S(TAU), S(SIGMA), S(SIGMA), screen_ascii() ? "_1" : "₁", S(TAU), S(INF),
	    p->kind ? "c convolution, n_i its channels   " : "");
}
