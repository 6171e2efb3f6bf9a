/* tui/views.c - the frame around the views: header, tabs, a lesson's
 * caption, the narration line, progress, status line and footer (the
 * number formats and the plot the views share: views_shared.c). */
#include "tui/views.h"
#include "tui/views_int.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/kernels.h"
#include "base/repro.h"
#include "engine/schedule.h"
#include "report/report.h"
#include "session/session_setting.h"
#include "tui/layout.h"
#include "tui/lesson.h"
#include "tui/plot.h"
#include "tui/screen.h"
#include "tui/status.h"

/* The settings the header shows (at most `most` of them, -1: all), each
 * "τ 25  ", with what it becomes ("τ 25→20  ") when next is set. */
static void settings_shown(const Shown *p, int next, int most, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; i < session_nsettings && most && k < len; i++) {
		const SessSetting *st = &session_settings[i];
		if (!st->header || st->type != SET_NUMBER)
			continue;
		const char *sym = screen_pick(st->sym, st->ascii);
		if (next && p->set_next[i] != p->set[i])
			k += (size_t)snprintf(buf + k, len - k, "%s %g%s%g  ", sym, p->set[i],
			                      S(ARROW), p->set_next[i]);
		else
			k += (size_t)snprintf(buf + k, len - k, "%s %g  ", sym, p->set[i]);
		most--;
	}
}

/* The data set's description in room columns: whole items (", 10
 * classes") left off from the right, an ellipsis in their place, rather
 * than a number cut short ("test 1000…" for 10000). */
static void data_items(const char *desc, int room, char *out, size_t len)
{
	snprintf(out, len, " %s", desc);
	char *c;
	while (screen_width(out) > room && (c = strrchr(out, ',')) != NULL)
		snprintf(c, len - (size_t)(c - out), "%s", S(ELLIPSIS));
}

static void draw_header(const Shown *p, const UiState *u)
{
	char shape[256], set[256], st[200];
	status_state(p, u, st, sizeof st);
	int sw = views_state_width(p, u);
	screen_put(0, 0, 0, C_TITLE, 1, "condnet");
	char data[sizeof p->data + 8];
	data_items(p->data, COLS - 8 - sw - 1, data, sizeof data);
	screen_put_cut(0, 8, COLS - 8 - sw - 1, C_NORMAL, 0, "%s", data);
	screen_put_cut(0, COLS - sw, sw,
	               p->paused ? C_WARN
	               : p->busy ? C_KEY
	                         : C_DIM,
	               1, " %s", st);
	/* the settings first (τ and η): they never go; then [unsaved] at the right end */
	settings_shown(p, 1, -1, set, sizeof set);
	long sum = 0;
	for (int i = 1; p->n && i <= p->m; i++) /* a convolution counts its channels */
		sum += p->lc && p->lc[i - 1].conv ? p->lc[i - 1].cols : p->n[i];
	views_shape(p->n, p->m, shape, sizeof shape);
	if (p->conv_shape[0])
		snprintf(shape, sizeof shape, "%s", p->conv_shape);
	/* a lesson has nothing to save: its file holds every step */
	int dirty = p->dirty && !u->lesson, uw = dirty ? 10 : 0;
	char sb[32], pb[32];
	report_thousands((double)sum, sb, sizeof sb);
	report_thousands((double)p->nparam, pb, sizeof pb);
	/* the reproducible mode and the kernels are fixed when the program
	 * starts (base/repro.h, base/kernels.h) */
	char mode[160], kb[128];
	if (repro_on())
		snprintf(mode, sizeof mode, "reproducible");
	else
		snprintf(mode, sizeof mode, "kernels %s", kernels_describe(1, kb, sizeof kb));
	/* on a narrow screen the parameter count, then the seed, then Σ n_i
	 * give way whole, not the mode (the layer table's foot has Σ n_i) */
	char line[1024], params[48], seed[48], sum_n[64];
	snprintf(params, sizeof params, "  params %s", pb);
	if (p->graph) /* its shape says them */
		params[0] = '\0';
	snprintf(seed, sizeof seed, "  seed %llu", (unsigned long long)p->seed);
	snprintf(sum_n, sizeof sum_n, "  %s n_i %s", S(SUM), sb);
	for (int k = 0; k < 4; k++) {
		snprintf(line, sizeof line, "%snet %s%s%s%s  %s", set, shape, k < 3 ? sum_n : "",
		         k < 1 ? params : "", k < 2 ? seed : "", mode);
		if (screen_width(line) <= COLS - uw)
			break;
	}
	screen_put_cut(1, 0, COLS - uw, C_NORMAL, 0, "%s", line);
	if (dirty)
		screen_put(1, COLS - uw + 1, uw - 1, C_WARN, 0, "[unsaved]");
}

/* The views' names on their tabs, long and brief, and what draws each. */
static const char *const view_names[VIEW_COUNT][2] = {
    [VIEW_LAYERS] = {"Layers", "Layers"},     [VIEW_ALG1] = {"Algorithm 1", "Alg 1"},
    [VIEW_SWEEP] = {"Sweep", "Sweep"},        [VIEW_SQUEEZE] = {"Squeeze", "Squeeze"},
    [VIEW_SPECTRUM] = {"Spectrum", "Spectr"}, [VIEW_HISTORY] = {"History", "Hist"},
    [VIEW_PLANE] = {"Plane", "Plane"},        [VIEW_NETWORK] = {"Network", "Net"},
};

typedef void (*ViewFn)(const Shown *p, UiState *u, int top, int bot);
static const ViewFn view_fns[VIEW_COUNT] = {
    [VIEW_LAYERS] = view_layers,   [VIEW_ALG1] = view_alg1,         [VIEW_SWEEP] = view_sweep,
    [VIEW_SQUEEZE] = view_squeeze, [VIEW_SPECTRUM] = view_spectrum, [VIEW_HISTORY] = view_history,
    [VIEW_PLANE] = view_plane,     [VIEW_NETWORK] = view_network,
};

const char *views_name(ViewId v, int brief)
{
	return v < VIEW_COUNT && view_names[v][brief] ? view_names[v][brief] : "";
}

/* The tabs: long names with a space between them, without it when they
 * do not fit, brief names when those do not either, and at last only the
 * numbers of the others. */
static void draw_tabs(ViewId v, int y)
{
	static const int style_brief[] = {0, 0, 1, 1}, style_gap[] = {1, 0, 1, 1};
	for (int style = 0; style < 4; style++) {
		int w = 0, brief = style_brief[style], gap = style_gap[style];
		for (int i = 0; i < VIEW_COUNT; i++)
			w += (style == 3 && (int)v != i
			          ? 3
			          : screen_width(views_name((ViewId)i, brief)) + 4) +
			     gap;
		if (w - gap > COLS && style < 3)
			continue;
		int x = 0;
		for (int i = 0; i < VIEW_COUNT; i++) {
			char t[64];
			const char *name = views_name((ViewId)i, brief);
			if (style == 3 && (int)v != i)
				snprintf(t, sizeof t, " %d ", i + 1);
			else
				snprintf(t, sizeof t, (int)v == i ? "[%d %s]" : " %d %s ", i + 1,
				         name);
			screen_put(y, x, 0, (int)v == i ? C_SEL : C_DIM, (int)v == i, "%s", t);
			x += screen_width(t) + gap;
		}
		return;
	}
}

typedef struct Rows {
	int y, last, cut, x, first;
	ScrColor c;
	int bold;
	const char *mark; /* before the first line */
} Rows;

static void row_line(const char *line, void *ud)
{
	Rows *r = ud;
	if (r->y > r->last) {
		r->cut = 1;
		return;
	}
	if (r->first)
		screen_put(r->y, r->x - 2, 2, r->c, 1, "%s", r->mark);
	r->first = 0;
	screen_put(r->y++, r->x, COLS - r->x, r->c, r->bold, "%s", line);
}

/* text's paragraphs ('\n') wrapped to the width from column x: the lines
 * counted (draw 0), or drawn into rows y..last, the first marked. */
static int paragraphs(const char *text, int x, int draw, Rows *r)
{
	char line[NARR_LEN];
	int n = 0;
	for (const char *c = text; c && *c;) {
		size_t k = strcspn(c, "\n");
		snprintf(line, sizeof line, "%.*s", (int)k, c);
		n += screen_wrap(line, COLS - x, 0, draw ? row_line : NULL, r);
		c += k + (c[k] == '\n');
	}
	return n;
}

/* The end of a row cut short: where the rest is. */
static void cut_note(int y)
{
	screen_clear_row(y, COLS - 10, C_NORMAL);
	screen_put(y, COLS - 9, 9, C_DIM, 0, "%s L: log", S(ELLIPSIS));
}

/* The caption in force, whole, in its rows (the layout made room); folded,
 * its first row and the key to the rest. */
static void draw_caption(const char *cap, const Layout *lo)
{
	Rows r = {lo->cap_top, lo->cap_top + lo->cap_rows - 1, 0, 2, 1, C_MARK, 1, "▸"};
	if (lo->caption_folded) {
		const char *more = " … c: the whole caption";
		int mw = screen_width(more);
		char line[NARR_LEN];
		snprintf(line, sizeof line, "%.*s", (int)strcspn(cap, "\n"), cap);
		screen_put(r.y, 0, 2, C_MARK, 1, "%s", r.mark);
		screen_put_cut(r.y, 2, COLS - 2 - mw, C_MARK, 1, "%s", line);
		screen_put(r.y, COLS - mw, mw, C_KEY, 1, "%s", more);
		return;
	}
	paragraphs(cap, 2, 1, &r);
	if (r.cut) /* longer than the whole screen: the log holds it all */
		cut_note(r.last);
}

/* The last operation's narration: one row, or (presentation mode) rows
 * wrapped under the caption. */
static void draw_narration(const char *t, const Layout *lo, int present)
{
	if (!t || lo->narr_rows < 1)
		return;
	int y = lo->narr_top;
	if (present) {
		Rows r = {y, y + lo->narr_rows - 1, 0, 2, 1, C_KEY, 0, "↳"};
		paragraphs(t, 2, 1, &r);
		if (r.cut)
			cut_note(r.last);
		return;
	}
	screen_put(y, 0, 2, C_KEY, 1, "%s", screen_ascii() ? ">" : "▸");
	if (screen_width(t) <= COLS - 2) {
		screen_put(y, 2, 0, C_NORMAL, 0, "%s", t);
		return;
	}
	screen_put_cut(y, 2, COLS - 10, C_NORMAL, 0, "%s", t);
	screen_put(y, COLS - 7, 7, C_KEY, 1, " L: log");
}

static void draw_progress(const Shown *p, int y)
{
	int x = 0;
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
		const char *lt = status_last_train(p);
		screen_put_cut(y, 0, 0, C_DIM, 0, "%s", lt ? lt : "no training running");
	}
}

static void draw_settings(const Shown *p, const UiState *u, int y)
{
	char acc[64], set[160], line[512], queue[160];
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
		snprintf(line, sizeof line, "test acc %s   %s   %s   undo %d", acc, set,
		         status_queue(p, queue, sizeof queue), p->nundo);
		if (screen_width(line) <= COLS - 8)
			break;
	}
	screen_put_cut(y, 0, 0, C_NORMAL, 0, "%s   log %s", line,
	               p->log_path[0] ? p->log_path : "none");
}

/* The keys that fit: those of the view (or the lesson) first. */
static void draw_footer(const Shown *p, const UiState *u, int y)
{
	static const char *const common[][2] = {
	    {"?", "help"}, {"x", "explain"}, {"P", "present"}, {"q", "quit"},    {"s", "step"},
	    {"r", "run"},  {"t", "train"},   {"b", "sweep"},   {"z", "squeeze"}, {"u", "undo"},
	    {"w", "save"}, {"o", "open"},    {"e", "export"},  {"L", "log"},
	};
	const char *extra[8][2];
	int ne = 0, x = 0;
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
	} else if ((u->view == VIEW_SQUEEZE || u->view == VIEW_PLANE || u->view == VIEW_NETWORK) &&
	           p->sq.waiting) {
		extra[ne][0] = "y", extra[ne++][1] = "apply";
		extra[ne][0] = "n", extra[ne++][1] = "refuse";
		extra[ne][0] = "a", extra[ne++][1] = "all";
		extra[ne][0] = "c", extra[ne++][1] = "comp";
		if (!p->sq.group) /* a layer's pivot order */
			extra[ne][0] = "p", extra[ne++][1] = "order";
	} else if (u->view == VIEW_SWEEP && p->sweep_state == 2 && p->pick >= 0) {
		extra[ne][0] = "A", extra[ne++][1] = "adopt";
	} else if (u->view == VIEW_ALG1) {
		extra[ne][0] = "←→", extra[ne++][1] = "scroll";
	} else if (u->view == VIEW_PLANE || u->view == VIEW_HISTORY) {
		extra[ne][0] = "{}", extra[ne++][1] = "speed";
		extra[ne][0] = ".", extra[ne++][1] = "1 epoch";
	} else if (u->view == VIEW_NETWORK && p->net.graph) {
		extra[ne][0] = "↑↓", extra[ne++][1] = "scroll";
	} else if (u->view == VIEW_NETWORK) {
		extra[ne][0] = "d", extra[ne++][1] = "remove";
		extra[ne][0] = "i", extra[ne++][1] = "add";
		extra[ne][0] = "DI", extra[ne++][1] = "layer";
		extra[ne][0] = "f", extra[ne++][1] = "inputs";
	}
	/* then the common keys, and the settings' (a lesson refuses those that
	 * change the network) */
	size_t nc = sizeof common / sizeof *common;
	for (size_t i = 0; i < (size_t)ne + nc + (size_t)session_nsettings; i++) {
		const SessSetting *st =
		    i >= (size_t)ne + nc ? &session_settings[i - (size_t)ne - nc] : NULL;
		const char *k = i < (size_t)ne ? extra[i][0]
		                : st           ? st->hint_keys
		                               : common[i - (size_t)ne][0];
		const char *d = i < (size_t)ne ? extra[i][1]
		                : st           ? st->hint
		                               : common[i - (size_t)ne][1];
		if (u->lesson && i >= (size_t)ne && (st || strchr("qstrbzuwo", k[0])))
			continue;
		if (p->graph && i >= (size_t)ne && !st && strchr("srb", k[0]))
			continue; /* what a graph network does not take */
		int kw = screen_width(k), w = kw + 1 + screen_width(d);
		if (x + w > COLS)
			break;
		screen_put(y, x, 0, C_KEY, 1, "%s", k);
		screen_put(y, x + kw, 0, C_NORMAL, 0, ":%s", d);
		x += w + 1;
	}
}

/* Presentation mode's one row: the view, the network and the state. */
static void draw_title(const Shown *p, const UiState *u)
{
	char st[200], shape[256], left[640];
	status_state(p, u, st, sizeof st);
	views_shape(p->n, p->m, shape, sizeof shape);
	if (p->conv_shape[0])
		snprintf(shape, sizeof shape, "%s", p->conv_shape);
	int sw = screen_width(st) + 1;
	if (sw > COLS / 2)
		sw = COLS / 2;
	int x = screen_put(0, 0, 0, C_SEL, 1, " %d %s ", u->view + 1,
	                   u->panel ? "Help" : views_name(u->view, 0));
	/* the test accuracy gives way first, then the settings but the first (η):
	 * τ and the widths stay */
	for (int k = 0; k < 3; k++) {
		char set[128];
		settings_shown(p, 0, k < 2 ? -1 : 1, set, sizeof set);
		int n = snprintf(left, sizeof left, " %snet %s", set, shape);
		if (k < 1 && !isnan(p->test_acc)) /* NaN: still measured as the screen opens */
			snprintf(left + n, sizeof left - (size_t)n, "  test acc %.2f%%",
			         p->test_acc);
		if (screen_width(left) <= COLS - x - sw - 1)
			break;
	}
	screen_put_cut(0, x, COLS - x - sw - 1, C_TITLE, 1, "%s", left);
	screen_put_cut(0, COLS - sw, sw,
	               p->paused ? C_WARN
	               : p->busy ? C_KEY
	                         : C_DIM,
	               1, " %s", st);
}

/* The bottom row: a prompt, or the status line. */
static void draw_status(const Shown *p, const UiState *u, int y)
{
	char st[600];
	int err;
	if (u->prompt) {
		int x = screen_put(y, 0, 0, C_KEY, 1, "%s ", u->prompt);
		screen_put(y, x, 0, C_NORMAL, 0, "%s_", u->input);
		return;
	}
	status_line(p, u, st, sizeof st, &err);
	screen_put_cut(y, 0, 0, err ? C_WARN : C_NORMAL, err, "%s", st);
}

/* The narration a lesson's screen shows: the last operation's account. */
static const char *narration(const Shown *p)
{
	return worker_narr_last_op(p);
}

/* While a step back replays the lesson: where it goes, and how far the
 * replay is (the screens it passes through are not the one shown). */
static void going_back(const Shown *p, const UiState *u, int top, int bot)
{
	const Lesson *l = u->lesson;
	if (l && u->back_to >= 0)
		screen_put_cut(
		    top, 0, 0, C_KEY, 1,
		    "going back to action %d of %d%s: the lesson replayed from its start",
		    u->back_to / 2 - l->setup, l->n - l->setup,
		    u->back_to % 2 ? ", its proposal" : "");
	else
		screen_put_cut(top, 0, 0, C_KEY, 1,
		               "going back: the lesson replayed from its start");
	if (top + 1 <= bot && p->activity[0])
		screen_put_cut(top + 1, 0, 0, C_DIM, 0, "%s", p->activity);
}

void views_draw(const Shown *p, UiState *u)
{
	LessonScreen sc = {p->play_pos, p->sq.waiting};
	/* a step back on its way shows the caption of the screen it goes to */
	if (p->replaying && u->back_to >= 0)
		sc = (LessonScreen){u->back_to / 2, u->back_to % 2};
	const char *cap = u->lesson ? lesson_screen_caption(u->lesson, sc) : NULL;
	const char *narr = narration(p);
	char st[600];
	int err;
	status_line(p, u, st, sizeof st, &err);
	LayoutIn in = {COLS, LINES, u->present, 0, 0, 0, 0, u->caption_open};
	in.busy = p->busy;
	in.bottom = u->prompt || err;
	if (u->present && narr) {
		int max = LINES >= 40 ? 3 : 2;
		int n = paragraphs(narr, 2, 0, NULL);
		in.narration = n < max ? n : max;
	}
	in.caption = cap ? paragraphs(cap, 2, 0, NULL) : 0;
	Layout lo;
	layout_compute(&in, &lo);
	erase();
	if (u->present) {
		draw_title(p, u);
	} else {
		draw_header(p, u);
		draw_tabs(u->view, lo.tabs);
	}
	if (cap)
		draw_caption(cap, &lo);
	if (lo.body_top <= lo.body_bot) {
		if (p->replaying) /* the screens it passes through are not the one shown */
			going_back(p, u, lo.body_top, lo.body_bot);
		else if (u->panel)
			view_panel(p, u, lo.body_top, lo.body_bot);
		else if (view_graph_note(p, u, lo.body_top, lo.body_bot))
			;                                   /* a view a graph network has not */
		else if (u->view == VIEW_PLANE && p->ch.on) /* a network of convolutions */
			view_channels(p, u, lo.body_top, lo.body_bot);
		else if (view_fns[u->view])
			view_fns[u->view](p, u, lo.body_top, lo.body_bot);
	}
	draw_narration(narr, &lo, u->present);
	if (lo.prog_row >= 0)
		draw_progress(p, lo.prog_row);
	if (lo.set_row >= 0)
		draw_settings(p, u, lo.set_row);
	if (lo.status_row >= 0)
		draw_status(p, u, lo.status_row);
	if (lo.footer_row >= 0)
		draw_footer(p, u, lo.footer_row);
}
