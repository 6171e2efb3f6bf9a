/* tui/views.c - the panels of the screen, drawn from the published state. */
#include "tui/views.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/screen.h"

#define BODY_TOP 3
#define S(x) screen_sym(SYM_##x)

static int body_bottom(void)
{
	return LINES - 5;
}

static const char *kfmt(double k, char *buf, size_t len)
{
	if (isinf(k))
		snprintf(buf, len, "inf");
	else if (isnan(k))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.4g", k);
	return buf;
}

/* "25", or "25→20" while a change waits for the running operation. */
static const char *pending(double now, double next, char *buf, size_t len)
{
	if (next > 0 && next != now)
		snprintf(buf, len, "%g%s%g", now, S(ARROW), next);
	else
		snprintf(buf, len, "%g", now);
	return buf;
}

static void draw_header(const Pub *p, const UiState *u)
{
	char shape[256] = "", tb[64], eb[64];
	size_t n = 0;
	for (int i = 0; p->n && i <= p->m && n < sizeof shape - 12; i++)
		n += (size_t)snprintf(shape + n, sizeof shape - n, i ? "-%d" : "%d", p->n[i]);
	screen_clear_row(0, 0, C_NORMAL);
	screen_clear_row(1, 0, C_NORMAL);
	screen_put(0, 0, 0, C_TITLE, 1, "condnet");
	screen_put(0, 8, 0, C_NORMAL, 0, " data: %s", p->data);
	screen_put(1, 0, 0, C_NORMAL, 0, "net %s  params %zu  %s %s  %s %s  seed %llu%s", shape,
	           p->nparam, S(TAU), pending(p->tau, u->tau, tb, sizeof tb), S(ETA),
	           pending(p->eta, u->eta, eb, sizeof eb), (unsigned long long)p->seed,
	           p->dirty ? "  [unsaved]" : "");
	const char *act = p->paused ? "paused" : p->busy ? p->activity : "idle";
	int len = (int)strlen(act) + 2;
	if (len > COLS / 3)
		len = COLS / 3;
	screen_put(1, COLS - len, len, p->paused ? C_WARN : p->busy ? C_KEY : C_DIM, 1, " %s", act);
}

static void draw_tabs(ViewId v)
{
	static const char *const names[VIEW_COUNT] = {"Layers", "Algorithm 1", "Sweep", "Squeeze"};
	int x = 0;
	screen_clear_row(2, 0, C_NORMAL);
	for (int i = 0; i < VIEW_COUNT; i++) {
		char t[64];
		snprintf(t, sizeof t, (int)v == i ? "[%d %s]" : " %d %s ", i + 1, names[i]);
		screen_put(2, x, 0, (int)v == i ? C_SEL : C_DIM, (int)v == i, "%s", t);
		x += (int)strlen(t) + 1;
	}
}

static void view_layers(const Pub *p)
{
	int y = BODY_TOP, bot = body_bottom(), sx = 40;
	int sw = COLS - sx - 1 > 64 ? 64 : COLS - sx - 1;
	char kb[32];
	screen_put(y, 3, 0, C_TITLE, 1, "i");
	screen_put(y, 9, 0, C_TITLE, 1, "n_i");
	screen_put(y, 14, 0, C_TITLE, 1, "%s(%s)", S(KAPPA), screen_ascii() ? "W^" : "\u0174");
	screen_put(y, 28, 0, C_TITLE, 1, "p_i");
	screen_put(y, 33, 0, C_TITLE, 1, "rank");
	screen_put(y++, sx, 0, C_TITLE, 1, "%s_j/%s_1, log scale (| = 1/%s)%s", S(SIGMA), S(SIGMA),
	           S(TAU), p->live ? "  live" : "");
	if (!p->lc) {
		screen_put(y, 0, 0, C_DIM, 0, "computing...");
		return;
	}
	int rows = bot - y - 1, first = p->m > rows ? p->m - rows : 0;
	double maxk = 0;
	long sum = 0;
	for (int i = 0; i < p->m; i++) {
		const LayerCond *lc = &p->lc[i];
		maxk = fmax(maxk, lc->kappa);
		sum += i < p->m - 1 ? p->n[i + 1] : 0;
		if (i < first)
			continue;
		int over = !(lc->kappa <= p->tau);
		ScrColor c = over ? C_WARN : C_NORMAL;
		screen_put(y, 0, 1, C_WARN, 1, "%s", over ? "!" : " ");
		screen_put(y, 1, 0, c, over, "%3d%s %6d  %-10s  %5d  %5d", i + 1,
		           i == p->m - 1 ? "*" : " ", p->n[i + 1], kfmt(lc->kappa, kb, sizeof kb),
		           lc->p, lc->rank_svd);
		double v[512];
		int nv = lc->nsv < 512 ? lc->nsv : 512;
		double lo = 1.0 / p->tau;
		for (int j = 0; j < nv; j++) {
			v[j] = lc->sv[0] > 0 ? lc->sv[j * lc->nsv / nv] / lc->sv[0] : 0;
			if (v[j] > 0 && v[j] < lo)
				lo = v[j];
		}
		screen_spark(y++, sx, sw, v, nv, fmax(lo / 2, 1e-12), 1.0 / p->tau);
	}
	screen_put(bot - 1, 0, 0, C_DIM, 0,
	           "%s n_i (hidden) %ld   max %s %s   * output layer (never reduced)", S(SUM), sum,
	           S(KAPPA), kfmt(maxk, kb, sizeof kb));
	screen_put(bot, 0, 0, C_DIM, 0, "! marks %s > %s: p_i singular values lie below %s_1/%s",
	           S(KAPPA), S(TAU), S(SIGMA), S(TAU));
}

static void view_alg1(const Pub *p)
{
	int y = BODY_TOP, bot = body_bottom();
	if (!p->nrec) {
		screen_put(y++, 0, 0, C_TITLE, 1, "Algorithm 1: no iterations yet");
		screen_put(y++, 0, 0, C_NORMAL, 0,
		           "s: one iteration (the first trains the network from fresh "
		           "weights for %s epochs)",
		           S(ETA));
		screen_put(y++, 0, 0, C_NORMAL, 0, "r: iterate until every %s <= %s", S(KAPPA),
		           S(TAU));
		return;
	}
	screen_put(y++, 0, 0, C_TITLE, 1, "Algorithm 1 (%s %g, %s %g): %s", S(TAU), p->tau, S(ETA),
	           p->eta, p->alg1_state);
	int m = p->rec[0].m, cw = 9, lw = 10;
	int fit = (COLS - lw) / cw, first = p->nrec > fit ? p->nrec - fit : 0;
	screen_put(y, 0, lw, C_TITLE, 1, "layer");
	for (int r = first; r < p->nrec; r++) {
		char h[16];
		snprintf(h, sizeof h, "it %d", p->rec[r].iter);
		screen_put(y, lw + (r - first) * cw, cw, C_TITLE, 1, "%8s", h);
	}
	y++;
	for (int i = 1; i <= m && y < bot - 2; i++, y++) {
		screen_put(y, 0, lw, C_NORMAL, 0, "%5d%s", i, i == m ? " out" : "");
		for (int r = first; r < p->nrec; r++) {
			const Alg1Record *rc = &p->rec[r];
			int over = i < m && rc->kappa[i - 1] > p->tau;
			char v[16];
			snprintf(v, sizeof v, "%d%s", rc->n[i], over ? "!" : "");
			screen_put(y, lw + (r - first) * cw, cw, over ? C_WARN : C_NORMAL, 0, "%8s",
			           v);
		}
	}
	for (int k = 0; k < 3; k++, y++) {
		if (k == 0)
			screen_put(y, 0, lw, C_TITLE, 1, "max %s", S(KAPPA));
		else if (k == 1)
			screen_put(y, 0, lw, C_TITLE, 1, "%s n_i", S(SUM));
		else
			screen_put(y, 0, lw, C_TITLE, 1, "err tr %%");
		for (int r = first; r < p->nrec; r++) {
			const Alg1Record *rc = &p->rec[r];
			char v[32];
			if (k == 0)
				kfmt(rc->max_kappa, v, sizeof v);
			else if (k == 1)
				snprintf(v, sizeof v, "%ld", rc->sum_n);
			else
				snprintf(v, sizeof v, "%.2f", 100 * rc->train_error);
			screen_put(y, lw + (r - first) * cw, cw, C_NORMAL, 0, "%8s", v);
		}
	}
	screen_put(bot, 0, 0, C_DIM, 0, "n_i per iteration; ! marks %s > %s (p_i neurons go next)",
	           S(KAPPA), S(TAU));
}

static void plot_point(int y0, int h, int x, double v, double ymax, char ch, ScrColor c)
{
	if (isnan(v))
		return;
	int y = y0 + h - 1 - (int)lround(v / ymax * (h - 1));
	screen_put(y < y0 ? y0 : y, x, 1, c, 1, "%c", ch);
}

static void view_sweep(const Pub *p)
{
	int y = BODY_TOP, bot = body_bottom();
	static const char *const st[] = {"", "running", "finished", "cancelled"};
	if (!p->nbeta) {
		screen_put(y++, 0, 0, C_TITLE, 1, "Algorithm 2: no %s sweep yet%s", S(BETA),
		           p->sweep_state == 1 ? " (starting)" : "");
		screen_put(y, 0, 0, C_NORMAL, 0,
		           "b: scale every hidden width by each %s, train q times for %s "
		           "epochs, pick the least 2%s_v %s %s_tr",
		           S(BETA), S(ETA), S(EPS), S(MINUS), S(EPS));
		return;
	}
	screen_put(y++, 0, 0, C_TITLE, 1,
	           "Algorithm 2, q = %d, %s: t = %s_tr, v = %s_v, s = 2%s_v %s %s_tr, "
	           "* = pick",
	           p->q, st[p->sweep_state & 3], S(EPS), S(EPS), S(EPS), S(MINUS), S(EPS));
	int tx = COLS - 38, pw = tx - 9, h = bot - y - 1;
	double ymax = 1e-3, bmin = p->beta[0].beta, bmax = p->beta[p->nbeta - 1].beta;
	for (int i = 0; i < p->nbeta; i++)
		if (p->beta[i].done)
			ymax = fmax(ymax, fmax(p->beta[i].score,
			                       fmax(p->beta[i].err_tr, p->beta[i].err_v)));
	ymax *= 1.1;
	for (int r = 0; r < h; r++) {
		double v = ymax * (h - 1 - r) / (h - 1);
		screen_put(y + r, 0, 8, C_DIM, 0,
		           r % 3 == 0 || r == h - 1 ? "%6.1f%% " : "        ", 100 * v);
		screen_put(y + r, 7, 1, C_DIM, 0, "|");
	}
	for (int i = 0; i < p->nbeta; i++) {
		const PubBeta *b = &p->beta[i];
		int x = 9 + (bmax > bmin ? (int)lround((b->beta - bmin) / (bmax - bmin) * (pw - 2))
		                         : pw / 2);
		char lab[16];
		snprintf(lab, sizeof lab, "%.2g", b->beta);
		if (i == 0 || i == p->nbeta - 1 || i == p->pick)
			screen_put(y + h, x, 6, i == p->pick ? C_MARK : C_DIM, i == p->pick, "%s",
			           lab);
		if (!b->done)
			continue;
		plot_point(y, h, x, b->err_tr, ymax, 't', C_GOOD);
		plot_point(y, h, x, b->err_v, ymax, 'v', C_TITLE);
		plot_point(y, h, x, b->score, ymax, i == p->pick ? '*' : 's',
		           i == p->pick ? C_MARK : C_KEY);
	}
	screen_put(y - 1 + 1, tx, 0, C_TITLE, 1, "%6s %7s %7s %9s %3s", S(BETA), "e_tr%", "e_v%",
	           "2e_v-e_tr", "n");
	for (int i = 0; i < p->nbeta && y + 1 + i < bot; i++) {
		const PubBeta *b = &p->beta[i];
		ScrColor c = i == p->pick ? C_MARK : b->done ? C_NORMAL : C_DIM;
		if (b->done)
			screen_put(y + 1 + i, tx, 0, c, i == p->pick,
			           "%6.2f %7.2f %7.2f %9.2f %3d%s", b->beta, 100 * b->err_tr,
			           100 * b->err_v, 100 * b->score, b->done,
			           i == p->pick ? " <" : "");
		else
			screen_put(y + 1 + i, tx, 0, c, 0, "%6.2f %7s %7s %9s %3d", b->beta, "-",
			           "-", "-", 0);
	}
	if (p->sweep_state == 2 && p->pick >= 0 && p->pick < p->nbeta)
		screen_put(bot, 0, 0, C_KEY, 0,
		           "A adopts the pick: a fresh network %s (%s %g), u undoes it",
		           p->pick_shape, S(BETA), p->beta[p->pick].beta);
}

static void view_squeeze(const Pub *p)
{
	const PubSqueeze *q = &p->sq;
	int y = BODY_TOP, bot = body_bottom();
	char kb[32], kb2[32];
	if (!q->active && !q->ndone && isnan(q->acc_end)) {
		screen_put(y++, 0, 0, C_TITLE, 1, "Algorithm 3: squeeze the trained network");
		screen_put(y++, 0, 0, C_NORMAL, 0,
		           "z: for each hidden layer with %s > %s, pivoted QR of W^ "
		           "proposes which neurons go;",
		           S(KAPPA), S(TAU));
		screen_put(y++, 0, 0, C_NORMAL, 0,
		           "   y applies, n refuses, a applies it and all the rest, "
		           "Esc stops, c toggles compensation.");
		return;
	}
	screen_put(y++, 0, 0, C_TITLE, 1, "Algorithm 3 at %s %g: test accuracy at the start %.2f%%",
	           S(TAU), p->tau, q->acc_start);
	if (q->waiting) {
		int l = q->layer;
		screen_put(y++, 0, 0, C_WARN, 1, "Layer %d: %d neurons, %s(%s) %s > %s %g", l,
		           q->n_before, S(KAPPA), screen_ascii() ? "W^" : "\u0174",
		           kfmt(q->kappa_before, kb, sizeof kb), S(TAU), p->tau);
		char ord[512];
		size_t n = 0;
		for (int j = 0; j < q->n_before && n < sizeof ord - 16; j++)
			n +=
			    (size_t)snprintf(ord + n, sizeof ord - n, j ? " %d" : "%d", q->perm[j]);
		screen_put(y++, 0, 0, C_NORMAL, 0, "pivoted-QR order: %s", ord);
		screen_put(y, 0, 0, C_NORMAL, 0, "|r_jj|/|r_11|:");
		double lo = 1.0 / p->tau;
		for (int j = 0; j < q->nrdiag; j++)
			if (q->rdiag[j] > 0 && q->rdiag[j] < lo)
				lo = q->rdiag[j];
		screen_spark(y++, 15, COLS - 16 > 64 ? 64 : COLS - 16, q->rdiag, q->nrdiag,
		             fmax(lo / 2, 1e-12), 1.0 / p->tau);
		screen_put(y++, 0, 0, C_NORMAL, 0,
		           "QR keeps %d (|r_jj| >= |r_11|/%s), %s loop keeps %d: "
		           "remove %d, %s after %s",
		           q->p_qr, S(TAU), S(KAPPA), q->nkeep, q->n_before - q->nkeep, S(KAPPA),
		           kfmt(q->kappa_after, kb2, sizeof kb2));
		screen_put(y++, 0, 0, C_NORMAL, 0,
		           "what-if on the test set: now %.2f%%, after %.2f%%, with "
		           "compensation %.2f%%",
		           q->acc_now, q->acc_after, q->acc_comp);
		screen_put(y++, 0, 0, C_KEY, 1,
		           "y apply  n refuse  a apply all remaining  c compensation: %s  "
		           "Esc stop",
		           q->comp ? "on" : "off");
	} else if (q->active) {
		screen_put(y++, 0, 0, C_DIM, 0, "working...");
	} else {
		screen_put(y++, 0, 0, C_GOOD, 1,
		           "Done: %d neuron(s) removed; test accuracy %.2f%% %s %.2f%%", q->removed,
		           q->acc_start, S(ARROW), q->acc_end);
		if (q->undone)
			screen_put(y++, 0, 0, C_WARN, 0,
			           "an undo (u) has since reverted a change; the numbers above are "
			           "history");
		else if (isnan(q->acc_retrained))
			screen_put(y++, 0, 0, C_NORMAL, 0,
			           "t retrains; the accuracy after retraining shows here");
		else
			screen_put(y++, 0, 0, C_NORMAL, 0, "after retraining: %.2f%%",
			           q->acc_retrained);
	}
	y++;
	screen_put(y++, 0, 0, C_TITLE, 1, "decisions:");
	for (int i = q->ndone > bot - y + 1 ? q->ndone - (bot - y + 1) : 0;
	     i < q->ndone && y <= bot; i++)
		screen_put(y++, 2, 0, C_NORMAL, 0, "%s", q->done[i]);
}

static void draw_progress(const Pub *p)
{
	int y = LINES - 4;
	screen_clear_row(y, 0, C_NORMAL);
	screen_clear_row(y + 1, 0, C_NORMAL);
	if (p->have_prog) {
		const TrainProgress *t = &p->prog;
		double frac = t->batches > 0 ? (double)t->batch / t->batches : 0;
		screen_put(y, 0, 0, C_NORMAL, 0, "epoch %8.2f", t->epoch);
		screen_bar(y, 15, 22, frac);
		screen_put(y, 38, 0, C_NORMAL, 0, "batch %ld/%ld  loss %.4f  train acc %.2f%%",
		           t->batch, t->batches, t->loss, 100 * t->acc);
	} else {
		screen_put(y, 0, 0, C_DIM, 0, "no training running");
	}
	screen_put(y + 1, 0, 0, C_NORMAL, 0, "test acc %.2f%%   %.3g s/epoch   queued %d   log %s",
	           p->test_acc, p->sec_per_epoch, p->queued, p->log_path);
}

static void draw_help(void)
{
	static const char *const lines[] = {
	    "+ / -    tau up / down (x1.25, /1.25)       T   type tau",
	    "] / [    eta up / down (x1.25, /1.25)       E   type eta",
	    "s        one Algorithm-1 iteration          r   Algorithm 1 until every kappa <= tau",
	    "t        train N epochs                     b   beta sweep (Algorithm 2)",
	    "z        squeeze (Algorithm 3): y apply, n refuse, a all, c compensation, Esc stop",
	    "A        (sweep view) adopt the pick: a fresh network of its widths",
	    "u        undo the last structural change    space  pause / resume a run",
	    "Esc      cancel the running operation (its effect is rolled back)",
	    "w        save the network                   o   open a saved network",
	    "e        export the tables (.csv: CSV, else Markdown)",
	    "Tab 1-4  switch views                       q   quit",
	    "",
	    "While an operation runs, others are refused; tau and eta changes wait for it.",
	    "Every action is written to the session log; `condnet replay LOG` repeats it.",
	    "Any key closes this help.",
	};
	int y = BODY_TOP;
	for (int r = BODY_TOP; r <= body_bottom(); r++)
		screen_clear_row(r, 0, C_NORMAL);
	screen_put(y++, 0, 0, C_TITLE, 1, "Keys");
	for (size_t i = 0; i < sizeof lines / sizeof *lines && y <= body_bottom(); i++)
		screen_put(y++, 2, 0, C_NORMAL, 0, "%s", lines[i]);
}

/* The keys that fit; the sweep view adds A (also named in its last row). */
static void draw_footer(ViewId v)
{
	const char *const keys[][2] = {
	    {"?", "help"},  {"s", "step"},
	    {"r", "run"},   {"t", "train"},
	    {"b", "sweep"}, {"z", "squeeze"},
	    {"u", "undo"},  {"w", "save"},
	    {"o", "open"},  {"e", COLS < 100 ? "exp" : "export"},
	    {"q", "quit"},  {"A", "adopt"},
	    {"+-", S(TAU)}, {"[]", S(ETA)},
	};
	int x = 0, y = LINES - 1;
	screen_clear_row(y, 0, C_NORMAL);
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		if (keys[i][0][0] == 'A' && v != VIEW_SWEEP)
			continue;
		int kw = (int)strlen(keys[i][0]), w = kw + 1 + (int)mbstowcs(NULL, keys[i][1], 0);
		if (x + w > COLS)
			break;
		screen_put(y, x, 0, C_KEY, 1, "%s", keys[i][0]);
		screen_put(y, x + kw, 0, C_NORMAL, 0, ":%s", keys[i][1]);
		x += w + 1;
	}
}

void views_draw(const Pub *p, const UiState *u)
{
	erase();
	draw_header(p, u);
	draw_tabs(u->view);
	if (u->help)
		draw_help();
	else if (u->view == VIEW_LAYERS)
		view_layers(p);
	else if (u->view == VIEW_ALG1)
		view_alg1(p);
	else if (u->view == VIEW_SWEEP)
		view_sweep(p);
	else
		view_squeeze(p);
	draw_progress(p);
	int y = LINES - 2;
	screen_clear_row(y, 0, C_NORMAL);
	if (u->prompt) {
		screen_put(y, 0, 0, C_KEY, 1, "%s ", u->prompt);
		int x = (int)mbstowcs(NULL, u->prompt, 0) + 1;
		screen_put(y, x, 0, C_NORMAL, 0, "%s_", u->input);
	} else if (u->message) {
		screen_put(y, 0, 0, C_KEY, 1, "%s", u->message);
	} else {
		screen_put(y, 0, 0, p->status_err ? C_WARN : C_NORMAL, p->status_err, "%s",
		           p->status);
	}
	draw_footer(u->help ? VIEW_COUNT : u->view);
}
