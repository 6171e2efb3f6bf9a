/* tui/views.c - the frame around the views: header, tabs, a lesson's
 * caption, the narration line, progress, status line and footer; and the
 * number formats the views share. */
#include "tui/views.h"
#include "tui/views_int.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/blas.h"
#include "base/repro.h"
#include "engine/schedule.h"
#include "report/report.h"
#include "tui/plot.h"
#include "tui/screen.h"

const char *views_kappa(double k, double tau, char *buf, size_t len)
{
	if (isinf(k))
		snprintf(buf, len, "%s", S(INF));
	else if (isnan(k))
		snprintf(buf, len, "-");
	else
		cond_kappa_str(k, tau, buf, len);
	return buf;
}

const char *views_shape(const int *n, int m, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; n && i <= m && k + 16 < len;) {
		int run = 1;
		while (i > 0 && i + run < m && n[i + run] == n[i])
			run++;
		if (run > 2 && i < m)
			k += (size_t)snprintf(buf + k, len - k, "%s%d%s%d", i ? "-" : "", n[i],
			                      S(TIMES), run);
		else
			run = 1,
			k += (size_t)snprintf(buf + k, len - k, "%s%d", i ? "-" : "", n[i]);
		i += run;
	}
	return buf;
}

void views_profile(int top, int left, int rows, int cols, const char *title, const double *v, int n,
                   double tau, int keep)
{
	screen_put_cut(top, left, cols, C_TITLE, 1, "%s", title);
	if (n <= 0)
		return;
	double lo = 1 / tau, hi = 1;
	for (int j = 0; j < n; j++)
		if (v[j] > 0 && v[j] < lo)
			lo = v[j];
	lo = fmax(lo, 1e-12);
	plot_range(&lo, &hi, 1);
	Plot pl;
	if (plot_begin(&pl, top + 1, left, rows - 1, cols, 5, 1, 0.5, n + 0.5, lo, hi, 1) < 0)
		return;
	plot_axes(&pl, 0, NULL, 1);
	plot_hline(&pl, 1 / tau, C_MARK, NULL);
	for (int j = 0; j < n; j++) {
		int below = j >= keep;
		double y = v[j] > 0 ? v[j] : lo;
		plot_dot(&pl, j + 1, y, below ? C_WARN : C_GOOD,
		         v[j] > 0
		             ? (below ? (screen_ascii() ? "x" : "×") : (screen_ascii() ? "o" : "•"))
		             : "0");
	}
	char lab[16];
	plot_hlabel(&pl, 1 / tau, C_MARK, screen_ascii() ? "1/tau" : "1/τ");
	plot_xlabel(&pl, 1, C_DIM, 0, "1");
	snprintf(lab, sizeof lab, "%d", n);
	plot_xlabel(&pl, n, C_DIM, 0, lab);
	plot_end(&pl);
}

/* The header's right end: what the worker does, or the lesson's place. */
static const char *state_text(const Shown *p, const UiState *u, char *buf, size_t len)
{
	if (p->paused)
		snprintf(buf, len, "paused");
	else if (p->busy)
		snprintf(buf, len, "%s", p->activity[0] ? p->activity : p->running);
	else if (u->lesson)
		snprintf(buf, len, "lesson: action %d of %d%s", p->play_pos - u->lesson->setup,
		         u->lesson->n - u->lesson->setup,
		         u->play_paused ? ", paused"
		         : u->delay > 0 ? ", playing"
		                        : "");
	else
		snprintf(buf, len, "idle");
	return buf;
}

static void draw_header(const Shown *p, const UiState *u)
{
	char shape[256], tb[64], eb[64], st[200];
	state_text(p, u, st, sizeof st);
	int sw = screen_width(st) + 1;
	if (sw > COLS / 2)
		sw = COLS / 2;
	screen_put(0, 0, 0, C_TITLE, 1, "condnet");
	screen_put_cut(0, 8, COLS - 8 - sw - 1, C_NORMAL, 0, " %s", p->data);
	screen_put_cut(0, COLS - sw, sw,
	               p->paused ? C_WARN
	               : p->busy ? C_KEY
	                         : C_DIM,
	               1, " %s", st);
	/* τ and η first: they never go; then [unsaved] at the right end */
	snprintf(tb, sizeof tb, "%g", p->tau);
	if (p->tau_next != p->tau)
		snprintf(tb, sizeof tb, "%g%s%g", p->tau, S(ARROW), p->tau_next);
	snprintf(eb, sizeof eb, "%g", p->eta);
	if (p->eta_next != p->eta)
		snprintf(eb, sizeof eb, "%g%s%g", p->eta, S(ARROW), p->eta_next);
	long sum = 0;
	for (int i = 1; p->n && i <= p->m; i++)
		sum += p->n[i];
	views_shape(p->n, p->m, shape, sizeof shape);
	int uw = p->dirty ? 10 : 0;
	char sb[32], pb[32];
	report_thousands((double)sum, sb, sizeof sb);
	report_thousands((double)p->nparam, pb, sizeof pb);
	/* the reproducible mode is fixed when the program starts (base/repro.h) */
	char mode[64];
	if (repro_on())
		snprintf(mode, sizeof mode, "reproducible");
	else
		snprintf(mode, sizeof mode, "kernels %s", blas_corename());
	/* on a narrow screen the parameter count gives way, not the mode */
	char line[1024], params[48];
	snprintf(params, sizeof params, "  params %s", pb);
	for (int k = 0; k < 2; k++) {
		snprintf(line, sizeof line, "%s %s  %s %s  net %s  %s n_i %s%s  seed %llu  %s",
		         S(TAU), tb, S(ETA), eb, shape, S(SUM), sb, k ? "" : params,
		         (unsigned long long)p->seed, mode);
		if (screen_width(line) <= COLS - uw)
			break;
	}
	screen_put_cut(1, 0, COLS - uw, C_NORMAL, 0, "%s", line);
	if (p->dirty)
		screen_put(1, COLS - uw + 1, uw - 1, C_WARN, 0, "[unsaved]");
}

static void draw_tabs(ViewId v)
{
	static const char *const names[VIEW_COUNT] = {"Layers",   "Algorithm 1", "Sweep", "Squeeze",
	                                              "Spectrum", "History",     "Plane"};
	/* a space between the tabs where they fit with it */
	int x = 0, gap = 1, total = 0;
	for (int i = 0; i < VIEW_COUNT; i++)
		total += (int)strlen(names[i]) + 5;
	if (total - 1 > COLS)
		gap = 0;
	for (int i = 0; i < VIEW_COUNT; i++) {
		char t[64];
		snprintf(t, sizeof t, (int)v == i ? "[%d %s]" : " %d %s ", i + 1, names[i]);
		screen_put(2, x, 0, (int)v == i ? C_SEL : C_DIM, (int)v == i, "%s", t);
		x += (int)strlen(t) + gap;
	}
}

typedef struct Rows {
	int y, last, cut;
	ScrColor c;
} Rows;

static void caption_line(const char *line, void *ud)
{
	Rows *r = ud;
	if (r->y > r->last) {
		r->cut = 1;
		return;
	}
	screen_put(r->y++, 2, COLS - 2, r->c, 1, "%s", line);
}

/* A lesson's caption under the tabs; returns the first free row. */
static int draw_caption(const Shown *p, const UiState *u, int top)
{
	const char *cap =
	    u->lesson && p->play_pos <= u->lesson->n ? u->lesson->caption[p->play_pos] : NULL;
	if (!cap)
		return top;
	Rows r = {top, top + (LINES >= 40 ? 5 : LINES >= 30 ? 2 : 1), 0, C_MARK};
	char line[2048];
	for (const char *c = cap; *c && !r.cut;) {
		size_t n = strcspn(c, "\n");
		snprintf(line, sizeof line, "%.*s", (int)n, c);
		screen_wrap(line, COLS - 2, 0, caption_line, &r);
		c += n + (c[n] == '\n');
	}
	screen_put(top, 0, 2, C_MARK, 1, "%s", screen_ascii() ? ">" : "▸");
	if (r.cut)
		screen_put(r.last, COLS - 9, 9, C_DIM, 0, "%s L: log", S(ELLIPSIS));
	return r.y + 1;
}

static void draw_narration(const Shown *p, int y)
{
	int n = worker_narr_count(p);
	if (!n)
		return;
	const char *t = worker_narr(p, n - 1);
	screen_put(y, 0, 2, C_KEY, 1, "%s", screen_ascii() ? ">" : "▸");
	if (screen_width(t) <= COLS - 2) {
		screen_put(y, 2, 0, C_NORMAL, 0, "%s", t);
		return;
	}
	screen_put_cut(y, 2, COLS - 10, C_NORMAL, 0, "%s", t);
	screen_put(y, COLS - 7, 7, C_KEY, 1, " L: log");
}

static void draw_progress(const Shown *p, const UiState *u)
{
	int y = LINES - 4, x = 0;
	if (p->busy && p->sweep_state == 1 && p->nbeta) {
		int done = 0, total = 0;
		for (int i = 0; i < p->nbeta; i++)
			done += p->beta[i].done, total += p->q;
		double eta = done ? p->sweep_secs / done * (total - done) : NAN;
		x = screen_put(y, 0, 0, C_KEY, 0, "trial %d of %d, ETA %s%.0f s  ", done + 1, total,
		               isnan(eta) ? "~" : "", isnan(eta) ? 0 : ceil(eta));
	}
	if (p->have_work && p->busy) {
		/* the conditioning of large layers, which the engine reports */
		int n = screen_width(p->work);
		int bw = COLS - n - 8;
		bw = bw > 22 ? 22 : bw;
		if (bw >= 6) {
			screen_bar(y, x, bw, p->work_frac);
			x += bw + 1;
		}
		x += screen_put(y, x, 0, C_NORMAL, 0, "%3.0f%%  ", 100 * p->work_frac);
		screen_put_cut(y, x, COLS - x, C_NORMAL, 0, "%s", p->work);
	} else if (p->have_prog && p->busy) {
		const TrainProgress *t = &p->prog;
		double frac = t->batches > 0 ? (double)t->batch / t->batches : 0;
		char rest[160];
		int n = snprintf(rest, sizeof rest,
		                 "batch %ld/%ld  loss %.4f  train acc %.2f%%  lr %.3g", t->batch,
		                 t->batches, t->loss, 100 * t->acc, t->lr);
		x += screen_put(y, x, 0, C_NORMAL, 0, "epoch %.2f ", t->epoch);
		/* the bar takes what the numbers leave, 6 to 22 cells, or none */
		int bw = COLS - x - n - 1;
		bw = bw > 22 ? 22 : bw;
		if (bw >= 6) {
			screen_bar(y, x, bw, frac);
			x += bw + 1;
		}
		screen_put_cut(y, x, COLS - x, C_NORMAL, 0, "%s", rest);
	} else if (p->busy) {
		screen_put_cut(y, x, 0, C_DIM, 0, "%s", p->activity[0] ? p->activity : p->running);
	} else {
		screen_put_cut(y, 0, 0, C_DIM, 0, "%s",
		               p->last_train[0] ? p->last_train : "no training running");
	}
	char acc[64], set[160], line[512];
	sched_settings(p->lr, &p->sched, u->lesson ? 0 : u->patience, set, sizeof set);
	for (int brief = 0; brief < 2; brief++) {
		/* "(before)" when the long form would push the counts off a narrow screen */
		if (p->busy && p->live)
			snprintf(acc, sizeof acc, "%.2f%% (before%s)", p->test_acc,
			         brief ? "" : " this operation");
		else if (isnan(p->test_acc))
			snprintf(acc, sizeof acc, "%s", p->busy ? "(measuring)" : "-");
		else
			snprintf(acc, sizeof acc, "%.2f%%", p->test_acc);
		snprintf(line, sizeof line, "test acc %s   %s   queued %d   undo %d", acc, set,
		         p->queued, p->nundo);
		if (screen_width(line) <= COLS - 8)
			break;
	}
	screen_put_cut(y + 1, 0, 0, C_NORMAL, 0, "%s   log %s", line,
	               p->log_path[0] ? p->log_path : "none");
}

/* The keys that fit: those of the view (or the lesson) first. */
static void draw_footer(const Shown *p, const UiState *u)
{
	static const char *const common[][2] = {
	    {"?", "help"}, {"x", "explain"}, {"q", "quit"},  {"s", "step"},
	    {"r", "run"},  {"t", "train"},   {"b", "sweep"}, {"z", "squeeze"},
	    {"u", "undo"}, {"w", "save"},    {"o", "open"},  {"e", "export"},
	    {"L", "log"},  {"+-", "τ"},      {"[]", "η"},    {"S", "lr"},
	};
	const char *extra[8][2];
	int ne = 0, x = 0, y = LINES - 1;
	if (u->panel) {
		extra[ne][0] = "↑↓", extra[ne++][1] = "scroll";
		extra[ne][0] = "Esc", extra[ne++][1] = "close";
		if (u->panel == PANEL_KEYS || u->panel == PANEL_EXPLAIN)
			extra[ne][0] = "←→", extra[ne++][1] = "page";
	} else if (u->lesson) {
		extra[ne][0] = "→", extra[ne++][1] = "next";
		extra[ne][0] = "←", extra[ne++][1] = "back";
		extra[ne][0] = "space", extra[ne++][1] = u->play_paused ? "play" : "pause";
		extra[ne][0] = "q", extra[ne++][1] = "leave";
	} else if ((u->view == VIEW_SQUEEZE || u->view == VIEW_PLANE) && p->sq.waiting) {
		extra[ne][0] = "y", extra[ne++][1] = "apply";
		extra[ne][0] = "n", extra[ne++][1] = "refuse";
		extra[ne][0] = "a", extra[ne++][1] = "all";
		extra[ne][0] = "c", extra[ne++][1] = "comp";
		extra[ne][0] = "p", extra[ne++][1] = "order";
	} else if (u->view == VIEW_SWEEP && p->sweep_state == 2 && p->pick >= 0) {
		extra[ne][0] = "A", extra[ne++][1] = "adopt";
	} else if (u->view == VIEW_ALG1) {
		extra[ne][0] = "←→", extra[ne++][1] = "scroll";
	}
	for (size_t i = 0; i < (size_t)ne + sizeof common / sizeof *common; i++) {
		const char *k = i < (size_t)ne ? extra[i][0] : common[i - (size_t)ne][0];
		const char *d = i < (size_t)ne ? extra[i][1] : common[i - (size_t)ne][1];
		if (u->lesson && i >= (size_t)ne && strchr("qstrbzuwo+[S", k[0]))
			continue;
		int kw = screen_width(k), w = kw + 1 + screen_width(d);
		if (x + w > COLS)
			break;
		screen_put(y, x, 0, C_KEY, 1, "%s", k);
		screen_put(y, x + kw, 0, C_NORMAL, 0, ":%s", d);
		x += w + 1;
	}
}

void views_draw(const Shown *p, UiState *u)
{
	erase();
	draw_header(p, u);
	draw_tabs(u->view);
	int top = draw_caption(p, u, 3), bot = LINES - 6;
	if (u->panel)
		view_panel(p, u, top, bot);
	else if (u->view == VIEW_LAYERS)
		view_layers(p, u, top, bot);
	else if (u->view == VIEW_ALG1)
		view_alg1(p, u, top, bot);
	else if (u->view == VIEW_SWEEP)
		view_sweep(p, u, top, bot);
	else if (u->view == VIEW_SQUEEZE)
		view_squeeze(p, u, top, bot);
	else if (u->view == VIEW_SPECTRUM)
		view_spectrum(p, u, top, bot);
	else if (u->view == VIEW_PLANE)
		view_plane(p, u, top, bot);
	else
		view_history(p, u, top, bot);
	draw_narration(p, LINES - 5);
	draw_progress(p, u);
	int y = LINES - 2;
	if (u->prompt) {
		int x = screen_put(y, 0, 0, C_KEY, 1, "%s ", u->prompt);
		screen_put(y, x, 0, C_NORMAL, 0, "%s_", u->input);
	} else {
		screen_put_cut(y, 0, 0, p->status_err ? C_WARN : C_NORMAL, p->status_err, "%s",
		               p->status);
	}
	draw_footer(p, u);
}
