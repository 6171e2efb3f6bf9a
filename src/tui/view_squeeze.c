/* tui/view_squeeze.c - Algorithm 3, one layer at a time: the decision κ,
 * what the QR threshold and the κ loop keep, the what-if accuracies, and the
 * layer's singular values beside its pivoted-QR profile. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui/plot.h"
#include "tui/screen.h"
#include "tui/status.h"
#include "tui/views_int.h"

static void intro(const Shown *p, int y)
{
	screen_put(y++, 0, 0, C_TITLE, 1, "Algorithm 3: squeeze the trained network");
	if (p->graph) {
		screen_put_cut(
		    y++, 0, 0, C_NORMAL, 0,
		    "z: for each channel group with %s of its producers' stacked %s > %s,",
		    S(KAPPA), S(WHAT), S(TAU));
		screen_put_cut(y++, 0, 0, C_NORMAL, 0,
		               "   pivoted QR of the stack proposes which of its channels go,");
		screen_put_cut(
		    y++, 0, 0, C_NORMAL, 0,
		    "   from every layer of the group at once (1: the groups, G column).");
		screen_put_cut(
		    y++, 0, 0, C_NORMAL, 0,
		    "   y applies, n refuses, a applies it and all the rest, Esc stops, c "
		    "toggles");
		screen_put_cut(y++, 0, 0, C_NORMAL, 0,
		               "   compensation (the layers that read the group refitted).");
		return;
	}
	screen_put_cut(
	    y++, 0, 0, C_NORMAL, 0,
	    "z: for each hidden layer with %s > %s, pivoted QR of %s proposes which neurons "
	    "go;",
	    S(KAPPA), S(TAU), S(WHAT));
	screen_put_cut(
	    y++, 0, 0, C_NORMAL, 0,
	    "   y applies, n refuses, a applies it and all the rest, Esc stops, c toggles "
	    "compensation.");
}

/* What the proposal's layer holds: "channels" for a convolution. */
static const char *units_of(const Shown *p, int layer)
{
	return p->lc && layer >= 1 && layer <= p->m && p->lc[layer - 1].conv ? "channels"
	                                                                     : "neurons";
}

/* How many bytes of the numbers in s, whole, fit in w columns. */
static int whole_numbers(const char *s, int w)
{
	int k = 0;
	for (;;) {
		int e = k;
		while (s[e] == ' ')
			e++;
		while (s[e] && s[e] != ' ')
			e++;
		if (e == k || e > w)
			return k;
		k = e;
	}
}

/* The pivot order on up to two rows; what they cannot hold is counted
 * ("+k more") beside the key that shows it all. */
static int order(const ShownSqueeze *q, const char *units, int y)
{
	char ord[4096];
	size_t n = 0;
	for (int j = 0; j < q->n_before && n + 16 < sizeof ord; j++)
		n += (size_t)snprintf(ord + n, sizeof ord - n, j ? " %d" : "%d", q->perm[j]);
	int x = screen_put(y, 0, 0, C_NORMAL, 0, "pivoted-QR order (%s from 1): ", units);
	if (screen_width(ord) <= COLS - x) {
		screen_put(y, x, 0, C_NORMAL, 0, "%s", ord);
		return y + 1;
	}
	int w = COLS - x, k = whole_numbers(ord, w);
	screen_put(y, x, w, C_NORMAL, 0, "%.*s", k, ord);
	const char *rest = ord + k + (ord[k] == ' ');
	if (screen_width(rest) <= w) {
		screen_put(y + 1, x, w, C_NORMAL, 0, "%s", rest);
		return y + 2;
	}
	char key[48];
	int keyw = snprintf(key, sizeof key, " p: all %d", q->n_before) + 1;
	int k2 = whole_numbers(rest, w - keyw - 10), left = 0;
	for (const char *c = rest + k2; *c; c++)
		left += *c != ' ' && (c[1] == ' ' || !c[1]);
	screen_put(y + 1, x, w - keyw, C_NORMAL, 0, "%.*s +%d more", k2, rest, left);
	screen_put(y + 1, COLS - keyw, keyw, C_KEY, 1, "%s", key);
	return y + 2;
}

/* The what-if lines: the test accuracy now, after the proposal without and
 * with compensation (in brackets the share answered as now), and as many
 * units kept by the norm rule and at random. The row after them. */
static int what_if(const ShownSqueeze *q, int y)
{
	const char *pm = screen_ascii() ? "+-" : "±";
	if (isnan(q->cmp[0])) {
		screen_put_cut(y, 0, 0, C_NORMAL, 0,
		               "what-if on the test set: now %.2f%%; measuring the choice against "
		               "the norm rule and %d random orders…",
		               q->acc_now, q->draws);
		return y + 3;
	}
	screen_put_cut(y++, 0, 0, C_NORMAL, 0,
	               "what-if: now %.2f%%, after %.2f%% (%.1f%% as now), compensated "
	               "%.2f%% (%.1f%%)",
	               q->acc_now, q->acc_after, q->agree_after, q->acc_comp, q->agree_comp);
	screen_put_cut(y++, 0, 0, C_NORMAL, 0,
	               "keeping %d chosen by QR %.2f%%, by norm %.2f%%, at random %.2f%%%s%.2f "
	               "(%d draws)",
	               q->nkeep, q->cmp[0], q->cmp[1], q->cmp[2], pm, q->cmp_sd, q->draws);
	screen_put_cut(y++, 0, 0, C_NORMAL, 0,
	               "  and compensated: by QR %.2f%%, by norm %.2f%%, at random %.2f%%%s%.2f",
	               q->cmp_comp[0], q->cmp_comp[1], q->cmp_comp[2], pm, q->cmp_sd_comp);
	return y;
}

/* The layer's singular values, and its |r_jj| in pivot order with the
 * units removed marked, side by side. */
static void profiles(const Shown *p, const char *units, int y, int bot)
{
	const ShownSqueeze *q = &p->sq;
	int l = q->layer, rows = bot - y + 1, half = COLS / 2;
	if (rows < 6 || !p->lc || l < 1 || l > p->m)
		return;
	const LayerCond *lc = &p->lc[l - 1];
	double v[4096];
	int nv = lc->nsv < 4096 ? lc->nsv : 4096;
	for (int j = 0; j < nv; j++)
		v[j] = lc->sv[0] > 0 ? lc->sv[j] / lc->sv[0] : 0;
	char t1[128], t2[200];
	snprintf(t1, sizeof t1, "%s_j/%s%s of layer %d (log; × below 1/%s)", S(SIGMA), S(SIGMA),
	         screen_ascii() ? "_1" : "₁", l, S(TAU));
	/* every unit in pivot order: those beyond the rank have no r_jj */
	for (int k = 0; k < 3; k++) {
		if (q->nrdiag >= q->n_before)
			snprintf(t2, sizeof t2,
			         k ? "|r_jj|/|r_11|, %d %s, × removed"
			           : "|r_jj|/|r_11| of %d %s in pivot order (× removed)",
			         q->n_before, units);
		else if (k == 0)
			snprintf(t2, sizeof t2,
			         "|r_jj|/|r_11| of %d %s in pivot order: × removed (%d beyond "
			         "the rank %d, at the bottom)",
			         q->n_before, units, q->n_before - q->nrdiag, q->nrdiag);
		else if (k == 1)
			snprintf(t2, sizeof t2, "|r_jj|/|r_11|, %d %s: × removed, %d beyond rank",
			         q->n_before, units, q->n_before - q->nrdiag);
		else
			snprintf(t2, sizeof t2, "|r_jj|, %d %s: × removed", q->n_before, units);
		if (screen_width(t2) <= COLS - half)
			break;
	}
	views_profile(y, 0, rows, half - 1, t1, v, nv, nv, p->tau, lc->rank_svd);
	views_profile(y, half, rows, COLS - half, t2, q->rdiag, q->nrdiag, q->n_before, p->tau,
	              q->nkeep);
}

static void proposal(const Shown *p, const UiState *u, int y, int bot)
{
	const ShownSqueeze *q = &p->sq;
	char kb[48], kb2[48];
	int l = q->layer;
	const char *units = units_of(p, l);
	char head[300];
	for (int k = 0; k < 2; k++) {
		snprintf(head, sizeof head, "Layer %d: %d %s, decision %s(%s) %s > %s %g%s", l,
		         q->n_before, units, S(KAPPA), S(WHAT),
		         views_kappa(q->kappa_before, p->tau, kb, sizeof kb), S(TAU), p->tau,
		         k ? "" : " (after the earlier layers' removals)");
		if (screen_width(head) <= COLS)
			break;
	}
	screen_put_cut(y++, 0, 0, C_WARN, 1, "%s", head);
	y = order(q, units, y);
	screen_put_cut(
	    y++, 0, 0, C_NORMAL, 0,
	    "QR keeps %d (|r_jj| %s |r_11|/%s), the %s loop keeps %d: remove %d, %s after %s",
	    q->p_qr, screen_ascii() ? ">=" : "≥", S(TAU), S(KAPPA), q->nkeep,
	    q->n_before - q->nkeep, S(KAPPA), views_kappa(q->kappa_after, p->tau, kb2, sizeof kb2));
	y = what_if(q, y);
	char keys[300];
	if (units[0] == 'c') /* the channels' maps are the Plane view's */
		screen_put_cut(y++, 0, 0, C_NORMAL, 0,
		               "7 Plane: the channels' maps on an example image, kept and dropped, "
		               "each dropped one beside the combination that replaces it");
	if (u->lesson) /* what the lesson will do; its keys are right arrow and p */
		screen_put_cut(y++, 0, 0, C_KEY, 1, "%s", status_proposal(p, u, keys, sizeof keys));
	else
		screen_put_cut(y++, 0, 0, C_KEY, 1,
		               "y apply  n refuse  a apply all remaining  c compensation: %s  p "
		               "order  Esc stop",
		               q->comp ? "on" : "off");
	profiles(p, units, y, bot);
}

/* The rows of the chart of κ now: its title, the rows of its plot, the
 * axis and the layers' numbers. */
#define KAPPA_NOW_ROWS (3 + PLOT_MIN_THR_ROWS)

/* κ of every layer now against τ, one column per layer (log; ^ for ∞):
 * those above the line are what a squeeze would take next. */
static void kappa_now(const Shown *p, int top, int rows)
{
	if (!p->lc || p->m < 1)
		return;
	double lo = p->tau, hi = p->tau;
	for (int i = 0; i < p->m; i++)
		if (isfinite(p->lc[i].kappa) && p->lc[i].kappa > 0) {
			lo = fmin(lo, p->lc[i].kappa);
			hi = fmax(hi, p->lc[i].kappa);
		}
	plot_range(&lo, &hi, 1);
	screen_put_cut(top, 0, 0, C_TITLE, 1,
	               "%s(%s) of every layer now (log): above %s, a squeeze takes "
	               "neurons next",
	               S(KAPPA), S(WHAT), S(TAU));
	Plot pl;
	if (rows < KAPPA_NOW_ROWS ||
	    plot_begin(&pl, top + 1, 0, rows - 1, COLS, 5, 1, 0.5, p->m + 0.5, lo, hi, 1) < 0) {
		plot_too_short(top + 1, 0, COLS, "the chart",
		               KAPPA_NOW_ROWS - rows > 0 ? KAPPA_NOW_ROWS - rows : 1);
		return;
	}
	plot_threshold(&pl, p->tau);
	plot_axes(&pl, 0, NULL, 1);
	plot_hline(&pl, p->tau, C_MARK, NULL);
	for (int i = 0; i < p->m; i++) {
		double k = p->lc[i].kappa;
		/* the layer's glyph: 1-9, then a, b, … */
		char g[2] = {!isfinite(k) ? '^'
		             : i < 9      ? (char)('1' + i)
		                          : (char)('a' + (i - 9) % 26),
		             0};
		plot_mark(&pl, i + 1, isfinite(k) ? k : hi, cond_over(k, p->tau) ? C_WARN : C_GOOD,
		          1, g);
	}
	plot_hlabel(&pl, p->tau, C_MARK, screen_ascii() ? "tau" : "τ");
	plot_xticks(&pl, 1, p->m, "layer");
	plot_end(&pl);
}

/* The decisions in rows y..bot, then where the pass leaves every layer:
 * the chart takes its rows first, the list the rest (its newest
 * decisions; its title and the blank rows around it when they fit). */
static void decisions(const Shown *p, int y, int bot)
{
	const ShownSqueeze *q = &p->sq;
	int avail = bot - y + 1, list = avail - KAPPA_NOW_ROWS;
	if (list < 1 || p->graph) /* no chart (a graph's are its groups'): the list alone */
		list = avail;
	int title = list >= 3 || list >= 1 + q->ndone, blanks = list - (title + q->ndone);
	if (blanks > 0)
		y++;
	int shown = list - title - (blanks > 0) - (blanks > 1);
	if (shown > q->ndone)
		shown = q->ndone;
	if (title && shown < q->ndone)
		screen_put(y++, 0, 0, C_TITLE, 1, "decisions, the last %d of %d:", shown, q->ndone);
	else if (title)
		screen_put(y++, 0, 0, C_TITLE, 1, "decisions:");
	for (int i = q->ndone - shown; i < q->ndone && y <= bot; i++)
		screen_put_cut(y++, title ? 2 : 0, 0, C_NORMAL, 0, "%s", q->done[i]);
	if (blanks > 1)
		y++;
	if (list < avail)
		kappa_now(p, y, bot - y + 1);
}

/* A graph network's group proposed: its number and producer layers, its
 * channels before and kept, κ of its stack, the what-if accuracies. */
static void group_proposal(const Shown *p, int y, int bot)
{
	const ShownSqueeze *q = &p->sq;
	char kb[48], t[1200];
	screen_put_cut(y++, 0, 0, C_WARN, 1, "Group %d: %d channels, %s of its stack %s > %s %g",
	               q->group, q->n_before, S(KAPPA),
	               views_kappa(q->kappa_before, p->tau, kb, sizeof kb), S(TAU), p->tau);
	snprintf(t, sizeof t, "produced by layers %s", q->producers);
	y = screen_put_wrapped(y, y + 3, 0, COLS - 1, C_NORMAL, 0, t);
	screen_put_cut(y++, 0, 0, C_NORMAL, 0,
	               "QR of the stack keeps %d (|r_jj| %s |r_11|/%s): %d %s %d, from each "
	               "layer",
	               q->nkeep, screen_ascii() ? ">=" : "≥", S(TAU), q->n_before, S(ARROW),
	               q->nkeep);
	if (isnan(q->acc_after) && q->measuring)
		screen_put_cut(y++, 0, 0, C_NORMAL, 0,
		               "what-if on the test set: now %.2f%%; measuring the proposal…",
		               q->acc_now);
	else
		screen_put_cut(
		    y++, 0, 0, C_NORMAL, 0,
		    "what-if on the test set: now %.2f%%, after %.2f%%, compensated %.2f%%",
		    q->acc_now, q->acc_after, q->acc_comp);
	screen_put_cut(y++, 0, 0, C_KEY, 1,
	               "y apply  n refuse  a apply all remaining  c compensation: %s  Esc stop",
	               q->comp ? "on" : "off");
	decisions(p, y + 1, bot);
}

void view_squeeze(const Shown *p, UiState *u, int top, int bot)
{
	const ShownSqueeze *q = &p->sq;
	int y = top;
	if (!q->active && !q->ndone && isnan(q->acc_end)) {
		intro(p, y);
		return;
	}
	screen_put_cut(y++, 0, 0, C_TITLE, 1,
	               "Algorithm 3 at %s %g: test accuracy at the start %.2f%%", S(TAU), p->tau,
	               q->acc_start);
	if (q->waiting && q->group) {
		group_proposal(p, y, bot);
		return;
	}
	if (q->waiting) {
		proposal(p, u, y, bot);
		return;
	}
	if (q->active && u->lesson && !p->busy) {
		/* a lesson's pass between two of its squeezes */
		screen_put_cut(y++, 0, 0, C_GOOD, 1,
		               "So far: %d neuron(s) removed; test accuracy %.2f%% %s %.2f%%",
		               q->removed, q->acc_start, S(ARROW), p->test_acc);
		screen_put_cut(y++, 0, 0, C_KEY, 0,
		               "the pass goes on: right arrow shows the next "
		               "proposal");
	} else if (q->active) {
		screen_put(y++, 0, 0, C_DIM, 0, "working...");
	} else {
		screen_put_cut(y++, 0, 0, C_GOOD, 1,
		               "Done: %d %s removed; test accuracy %.2f%% %s %.2f%%", q->removed,
		               p->graph  ? "channel(s)"
		               : p->kind ? "channel(s) and neuron(s)"
		                         : "neuron(s)",
		               q->acc_start, S(ARROW), q->acc_end);
		if (q->undone)
			screen_put_cut(
			    y++, 0, 0, C_WARN, 0,
			    "an undo (u) has since reverted a change; the numbers above are "
			    "history");
		else if (isnan(q->acc_retrained) && !u->lesson)
			screen_put(y++, 0, 0, C_NORMAL, 0,
			           "t retrains; the accuracy after retraining shows here");
		else if (!isnan(q->acc_retrained))
			screen_put(y++, 0, 0, C_NORMAL, 0, "after retraining: %.2f%%",
			           q->acc_retrained);
	}
	decisions(p, y, bot);
}
