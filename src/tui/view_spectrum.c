/* tui/view_spectrum.c - the whole singular-value spectrum of one layer on a
 * log scale, the line σ₁/τ and the p_i smallest marked, beside its
 * pivoted-QR profile. */
#include <curses.h>
#include <math.h>
#include <stdio.h>

#include "tui/screen.h"
#include "tui/views_int.h"

void view_spectrum(const Shown *p, UiState *u, int top, int bot)
{
	char kb[48];
	if (!p->lc || !p->n) {
		screen_put(top, 0, 0, C_DIM, 0, "computing...");
		return;
	}
	if (u->layer < 1)
		u->layer = 1;
	if (u->layer > p->m)
		u->layer = p->m;
	const LayerCond *lc = &p->lc[u->layer - 1];
	int l = u->layer, y = top;
	char qr[16];
	snprintf(qr, sizeof qr, lc->rank_qr >= 0 ? "%d" : "-", lc->rank_qr);
	/* a convolution: what it is, and its channels (a column of Ŵ each) */
	char units[96];
	if (p->graph)
		snprintf(units, sizeof units, "%s %s: %d %s", p->lname[l - 1], p->kind[l - 1],
		         lc->cols, lc->conv ? "channels" : "outputs");
	else if (lc->conv)
		snprintf(units, sizeof units, "%s: %d channels", p->kind ? p->kind[l - 1] : "conv",
		         lc->cols);
	else
		snprintf(units, sizeof units, "%d neurons", p->n[l]);
	char head[512], tail[256];
	snprintf(tail, sizeof tail, "%s %d%s%d, %s %s, p_i %d, rank %d SVD, %s QR%s", S(WHAT),
	         lc->rows, S(TIMES), lc->cols, S(KAPPA),
	         views_kappa(lc->kappa, p->tau, kb, sizeof kb), lc->p, lc->rank_svd, qr,
	         p->live ? "  live" : "");
	snprintf(head, sizeof head, "Layer %d of %d%s (%s): %s, %s", l, p->m,
	         l == p->m ? ", output" : "", screen_ascii() ? "Up Down" : "↑↓", units, tail);
	if (p->graph && screen_width(head) > COLS) /* the numbers whole, the name gives way */
		snprintf(head, sizeof head, "Layer %d of %d: %s, %s", l, p->m, p->kind[l - 1],
		         tail);
	screen_put_cut(y++, 0, 0, C_TITLE, 1, "%s", head);
	int units_n = lc->conv ? lc->cols : p->n[l];
	if (lc->rank_svd < units_n) { /* the flag r, with its number */
		char r[240];
		int n = snprintf(r, sizeof r, "r: rank %d < %d %s: %d of them depend on the others",
		                 lc->rank_svd, units_n, lc->conv ? "channels" : "neurons",
		                 units_n - lc->rank_svd);
		if (!p->graph)
			snprintf(r + n, sizeof r - (size_t)n,
			         " (Algorithm 3 can remove them where %s > %s)", S(KAPPA), S(TAU));
		if (screen_width(r) > COLS)
			r[n] = '\0'; /* what Algorithm 3 does is the squeeze view's */
		screen_put_cut(y++, 0, 0, C_NORMAL, 0, "%s", r);
	}
	double v[4096];
	int nv = lc->nsv < 4096 ? lc->nsv : 4096;
	for (int j = 0; j < nv; j++)
		v[j] = lc->sv[0] > 0 ? lc->sv[j] / lc->sv[0] : 0;
	char t1[160], t2[160];
	snprintf(t1, sizeof t1, "%s_j/%s%s (log): × the p_i = %d below 1/%s", S(SIGMA), S(SIGMA),
	         screen_ascii() ? "_1" : "₁", lc->p, S(TAU));
	int rows = bot - y, half = lc->rdiag ? COLS / 2 : COLS;
	views_profile(y, 0, rows, half - (lc->rdiag ? 1 : 0), t1, v, nv, nv, p->tau, lc->rank_svd);
	if (lc->rdiag) {
		snprintf(t2, sizeof t2, "|r_jj|/|r_11|, pivot order: rank (QR) %d", lc->rank_qr);
		views_profile(y, half, rows, COLS - half, t2, lc->rdiag, lc->nsv, lc->nsv, p->tau,
		              lc->rank_qr);
	}
	char key[300];
	const char *one = screen_ascii() ? "_1" : "₁";
	snprintf(key, sizeof key,
	         "%s_j/%s%s is one singular value of %s relative to the largest; those under the "
	         "line 1/%s make %s > %s (x explains)",
	         S(SIGMA), S(SIGMA), one, S(WHAT), S(TAU), S(KAPPA), S(TAU));
	if (screen_width(key) > COLS) /* the same, said in items */
		snprintf(
		    key, sizeof key,
		    "%s_j/%s%s: a singular value of %s over the largest   under 1/%s: %s > %s   "
		    "x explains",
		    S(SIGMA), S(SIGMA), one, S(WHAT), S(TAU), S(KAPPA), S(TAU));
	screen_put_items(bot, 0, 0, C_DIM, 0, "%s", key);
}
