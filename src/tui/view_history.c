/* tui/view_history.c - charts of what happened: κ of every layer across
 * Algorithm-1 iterations, Σ n_i and the test accuracy per iteration, κ of
 * every layer against epochs while the last training ran (the paper's
 * Tables 14-15: κ settles within an epoch), and the last t training's
 * validation curve, the epoch early stopping keeps marked. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui/plot.h"
#include "tui/screen.h"
#include "tui/views_int.h"

static const ScrColor layer_color[] = {C_GOOD, C_TITLE, C_KEY, C_MARK, C_WARN, C_NORMAL};

/* The glyph of layer i (from 1): 1-9, then a, b, … */
static const char *glyph_of(int i, char *buf)
{
	buf[0] = (char)(i < 10 ? '0' + i : 'a' + (i - 10) % 26);
	buf[1] = '\0';
	return buf;
}

/* A log-scale κ chart: m series of n points, x(p, r) the abscissa of point
 * r, k(p, r, i) κ of layer i there and tau(p, r) the τ it was measured
 * against (drawn as a line that steps where τ changed). */
typedef struct KappaSeries {
	int n, m;
	double (*x)(const Shown *p, int r);
	double (*k)(const Shown *p, int r, int i);
	double (*tau)(const Shown *p, int r);
	const char *unit; /* what x counts */
	int linear;       /* a linear axis without τ (the widths), else log with τ */
} KappaSeries;

static double rec_kappa(const Shown *p, int r, int i)
{
	return p->rec[r].kappa[i];
}

static double rec_x(const Shown *p, int r)
{
	return p->rec[r].iter;
}

/* The τ iteration r ran with: its marks were decided on it. */
static double rec_tau(const Shown *p, int r)
{
	return p->rec[r].tau;
}

/* The width of hidden layer i + 1 at iteration r (the output layer's
 * never changes: not drawn). */
static double rec_width(const Shown *p, int r, int i)
{
	return p->rec[r].n[i + 1];
}

static double ser_kappa(const Shown *p, int r, int i)
{
	return p->ks.kappa[(size_t)r * (size_t)p->ks.m + (size_t)i];
}

static double ser_x(const Shown *p, int r)
{
	return p->ks.epoch[r];
}

static double now_tau(const Shown *p, int r)
{
	(void)r;
	return p->tau;
}

/* The layer drawn over the others when there are too many to tell apart
 * (more than nine): the selected one; -1 for none. */
static int highlighted(const UiState *u, int m)
{
	if (m <= 9)
		return -1;
	return u->layer < 1 ? 0 : u->layer > m ? m - 1 : u->layer - 1;
}

/* The points of a series drawn: one per column, the first that falls in
 * it (the last point in the last column, the newest). */
static int drawn(const Plot *pl, const Shown *p, const KappaSeries *ks, int r)
{
	int c = plot_x(pl, ks->x(p, r)), last = plot_x(pl, ks->x(p, ks->n - 1));
	if (r == ks->n - 1)
		return 1;
	return c != last && (r == 0 || c != plot_x(pl, ks->x(p, r - 1)));
}

/* The columns a marker may move sideways on its row: so that the markers
 * of two points drawn keep a blank column between them, each nearer its
 * own x than any other's. */
static int slack(const Plot *pl, const Shown *p, const KappaSeries *ks)
{
	int gap = pl->cols, prev = -1;
	for (int r = 0; r < ks->n; r++) {
		if (!drawn(pl, p, ks, r))
			continue;
		int c = plot_x(pl, ks->x(p, r));
		if (prev >= 0 && c - prev < gap)
			gap = c - prev;
		prev = c;
	}
	int s = (gap - 2) / 2;
	return s > 3 ? 3 : s < 0 ? 0 : s;
}

/* The chart's range: every finite value (κ > 0 on a log axis) and τ. */
static void value_range(const Shown *p, const KappaSeries *ks, double *lo, double *hi)
{
	*lo = INFINITY, *hi = -INFINITY;
	for (int r = 0; r < ks->n; r++) {
		if (!ks->linear) {
			*lo = fmin(*lo, ks->tau(p, r));
			*hi = fmax(*hi, ks->tau(p, r));
		}
		for (int i = 0; i < ks->m; i++) {
			double k = ks->k(p, r, i);
			if (isfinite(k) && (k > 0 || ks->linear)) {
				*lo = fmin(*lo, k);
				*hi = fmax(*hi, k);
			}
		}
	}
	if (ks->linear && *lo >= 0 && *lo < *hi)
		*lo = fmax(0, *lo - (*hi - *lo) * 0.1); /* the widths from near their least */
	plot_range(lo, hi, !ks->linear);
	if (ks->linear && *lo < 0)
		*lo = 0;
}

/* The markers: every layer at every point drawn, the highlighted layer's
 * alone when there are too many layers to tell apart. */
static void kappa_marks(Plot *pl, const Shown *p, const UiState *u, const KappaSeries *ks,
                        double hi)
{
	int hl = highlighted(u, ks->m);
	char g[4];
	for (int r = 0; r < ks->n; r++) {
		if (!drawn(pl, p, ks, r))
			continue;
		for (int i = 0; i < ks->m; i++) {
			if (hl >= 0 && i != hl)
				continue;
			double k = ks->k(p, r, i);
			const char *glyph = !isfinite(k) ? "^"
			                    : hl >= 0    ? (screen_ascii() ? "@" : "●")
			                                 : glyph_of(i + 1, g);
			plot_mark(pl, ks->x(p, r), isfinite(k) ? k : hi,
			          hl >= 0 ? C_MARK : layer_color[i % 6], 1, glyph);
		}
	}
}

/* Draws the chart; the cells markers share (plot_mark), or -1 when the
 * rows are too few to show its values apart (said in its place). */
static int kappa_chart(const Shown *p, const UiState *u, const KappaSeries *ks, int top, int left,
                       int rows, int cols, double x0, double x1)
{
	double lo, hi;
	value_range(p, ks, &lo, &hi);
	Plot pl;
	if (plot_begin(&pl, top, left, rows, cols, 5, 1, x0, x1, lo, hi, !ks->linear) < 0) {
		plot_too_short(top, left, cols, S(KAPPA), 1);
		return -1;
	}
	int need = ks->linear ? 3 : PLOT_MIN_THR_ROWS;
	if (pl.rows < need) {
		plot_end(&pl);
		plot_too_short(top, left, cols, ks->linear ? "n_i" : S(KAPPA), need - pl.rows);
		return -1;
	}
	/* a value's side of τ is kept: when every point has one τ, none above it
	 * is drawn on its row or below, none below it on it or above */
	int one_tau = !ks->linear;
	for (int r = 1; one_tau && r < ks->n; r++)
		one_tau = ks->tau(p, r) == ks->tau(p, 0);
	if (one_tau && ks->n)
		plot_threshold(&pl, ks->tau(p, 0));
	plot_axes(&pl, 0, NULL, 1);
	/* τ as each point had it, over half the way to its neighbours */
	for (int r = 0; !ks->linear && r < ks->n; r++) {
		double a = r ? (ks->x(p, r - 1) + ks->x(p, r)) / 2 : x0;
		double b = r + 1 < ks->n ? (ks->x(p, r) + ks->x(p, r + 1)) / 2 : x1;
		plot_hseg(&pl, a, b, ks->tau(p, r), C_MARK);
	}
	int hl = highlighted(u, ks->m);
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < ks->m; i++) {
			if ((i == hl) != (pass == 1))
				continue; /* the highlighted layer last, over the others */
			ScrColor c = hl < 0 ? layer_color[i % 6] : i == hl ? C_MARK : C_DIM;
			for (int r = 0, prev = -1; r < ks->n; r++) {
				if (!drawn(&pl, p, ks, r))
					continue;
				if (prev >= 0) {
					double a = ks->k(p, prev, i), b = ks->k(p, r, i);
					plot_line(&pl, ks->x(p, prev), isfinite(a) ? a : hi,
					          ks->x(p, r), isfinite(b) ? b : hi, c);
				}
				prev = r;
			}
		}
	pl.xslack = slack(&pl, p, ks);
	kappa_marks(&pl, p, u, ks, hi);
	if (!ks->linear)
		plot_hlabel(&pl, ks->tau(p, ks->n - 1), C_MARK, screen_ascii() ? "tau" : "τ");
	plot_xticks(&pl, x0, x1, ks->unit);
	int shared = pl.nshared;
	plot_end(&pl);
	return shared;
}

static double small_value(const Shown *p, int which, int r)
{
	return which ? 100 * (1 - p->rec[r].eval_error) : (double)p->rec[r].sum_n;
}

/* Too few rows for a plot: the first and last values and a one-row chart. */
static void small_spark(const Shown *p, int which, int y, int left, int cols, double lo, double hi)
{
	static const char *const lv[8] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
	static const char la[8] = {'_', '.', '-', ':', '=', '+', '*', '#'};
	int n = p->nrec < cols - 1 ? p->nrec : cols - 1;
	for (int k = 0; k < n; k++) {
		int r = (int)((long)k * p->nrec / n);
		double v = small_value(p, which, r), t = hi > lo ? (v - lo) / (hi - lo) : 1;
		int l = isnan(v) ? 0 : (int)(t * 7.999);
		l = l < 0 ? 0 : l > 7 ? 7 : l;
		if (screen_ascii())
			screen_put(y, left + k, 1, which ? C_GOOD : C_TITLE, 0, "%c", la[l]);
		else
			screen_put(y, left + k, 1, which ? C_GOOD : C_TITLE, 0, "%s", lv[l]);
	}
}

/* Σ n_i (which 0) or the test accuracy (1) per iteration: a plot, or a
 * one-row chart when rows are few. */
static void small_chart(const Shown *p, int which, int top, int left, int rows, int cols)
{
	double lo = INFINITY, hi = -INFINITY;
	for (int r = 0; r < p->nrec; r++) {
		double v = small_value(p, which, r);
		if (!isnan(v))
			lo = fmin(lo, v), hi = fmax(hi, v);
	}
	double first = small_value(p, which, 0), last = small_value(p, which, p->nrec - 1);
	if (!which)
		screen_put_cut(top, left, cols, C_TITLE, 1, "%s n_i %.0f%s%.0f per iteration",
		               S(SUM), first, S(ARROW), last);
	else
		screen_put_cut(top, left, cols, C_TITLE, 1, "test accuracy %.2f%s%.2f %%", first,
		               S(ARROW), last);
	if (!isfinite(lo))
		return;
	if (rows < 6) {
		small_spark(p, which, top + 1, left, cols, lo, hi);
		return;
	}
	plot_range(&lo, &hi, 0);
	if (which && hi > 100 && lo < 100)
		hi = 100; /* an accuracy */
	Plot pl;
	double x1 = p->rec[p->nrec - 1].iter;
	if (plot_begin(&pl, top + 1, left, rows - 1, cols, 6, 1, 0, x1 > 0 ? x1 : 1, lo, hi, 0) < 0)
		return;
	plot_axes(&pl, which && hi - lo < 10 ? 1 : 0, NULL, 1);
	for (int r = 0; r < p->nrec; r++) {
		double v = small_value(p, which, r);
		if (r > 0)
			plot_line(&pl, p->rec[r - 1].iter, small_value(p, which, r - 1),
			          p->rec[r].iter, v, C_DIM);
		plot_mark(&pl, p->rec[r].iter, v, which ? C_GOOD : C_TITLE, 1,
		          screen_ascii() ? "o" : "•");
	}
	plot_xticks(&pl, 0, x1 > 0 ? x1 : 1, "it");
	plot_end(&pl);
}

/* Where a κ chart's key ends: the key of the cells markers share goes
 * there when the chart has any. */
typedef struct KeyEnd {
	int y, x, xmax;
} KeyEnd;

/* The key of the highlighted layer hl of m, whole or brief. */
static void hl_key(char *key, size_t len, int hl, int m, int brief)
{
	snprintf(key, len,
	         brief ? " %s layer %d of %d (%s)"
	               : " %s layer %d of %d (%s another), the others dim",
	         screen_ascii() ? "@" : "●", hl + 1, m, screen_ascii() ? "Up Down" : "↑↓");
}

/* The columns of the key and a space after it: the layers' glyphs and the
 * shared cells' key (" ≡ several"), or the highlighted layer's. */
static int key_width(const UiState *u, int m)
{
	char key[96];
	int hl = highlighted(u, m);
	if (hl < 0)
		return 8 + 2 * m + (m > 1 ? 10 : 0);
	hl_key(key, sizeof key, hl, m, 0);
	return screen_width(key) + 1;
}

/* The key of a κ chart at (y, x) up to xmax: the layers' glyphs in their
 * colours or, with more than nine layers, the one highlighted. Returns 0,
 * or 1 when it went on the next row (from column left). */
static int legend(const UiState *u, int y, int x, int left, int xmax, int m, KeyEnd *ke)
{
	char g[4], key[96];
	int hl = highlighted(u, m);
	if (hl >= 0)
		hl_key(key, sizeof key, hl, m, 0);
	/* w counts a space after the last glyph: the key fits when that glyph
	 * is at xmax at the latest */
	int w = key_width(u, m), below = 0;
	if (x + w > xmax + 1) {
		y++, x = left, below = 1; /* its own row */
		if (x + w > xmax + 1 && hl >= 0)
			hl_key(key, sizeof key, hl, m, 1);
	}
	*ke = (KeyEnd){y, xmax + 1, xmax};
	if (hl >= 0) {
		screen_put_cut(y, x, xmax - x, C_MARK, 1, "%s", key);
		return below;
	}
	x += screen_put(y, x, 0, C_DIM, 0, " layers ");
	for (int i = 0; i < m && x <= xmax; i++)
		x += 1 + screen_put(y, x, 2, layer_color[i % 6], 1, "%s", glyph_of(i + 1, g));
	ke->x = x;
	return below;
}

/* After the chart: the key of the cells its markers share, where the
 * layers' key ends. */
static void shared_key(const KeyEnd *ke, int shared)
{
	if (shared <= 0 || ke->x > ke->xmax)
		return;
	const char *k = plot_shared_key(screen_width(plot_shared_key(0)) > ke->xmax - ke->x);
	screen_put_cut(ke->y, ke->x, ke->xmax - ke->x + 1, C_NORMAL, 0, "%s", k);
}

/* A chart's title at (top, left): the longest of titles (NULL-ended,
 * longest first) that leaves its key room beside it, else the longest
 * that fits alone, the key under it; the row of the chart's top (under
 * the key when it went on a row of its own). */
static int titled(const UiState *u, int top, int left, int cols, int m, const char *const *titles,
                  KeyEnd *ke)
{
	int kw = key_width(u, m), k = 0;
	while (titles[k + 1] && screen_width(titles[k]) + kw > cols)
		k++;
	if (screen_width(titles[k]) + kw > cols)
		for (k = 0; titles[k + 1] && screen_width(titles[k]) > cols;)
			k++;
	const char *t = titles[k];
	int x = screen_put_cut(top, left, cols, C_TITLE, 1, "%s", t) ? cols : screen_width(t);
	return top + 1 + legend(u, top, left + x, left, left + cols - 1, m, ke);
}

/* The titles of the κ chart per iteration, longest first. */
static const char *const *kappa_titles(char buf[4][96])
{
	static const char *t[5];
	snprintf(buf[0], 96, "%s(%s) per Algorithm-1 iteration (log)", S(KAPPA), S(WHAT));
	snprintf(buf[1], 96, "%s per iteration (log)", S(KAPPA));
	snprintf(buf[2], 96, "%s per iteration", S(KAPPA)); /* the ticks say log */
	snprintf(buf[3], 96, "%s (log)", S(KAPPA));
	t[0] = buf[0], t[1] = buf[1], t[2] = buf[2], t[3] = buf[3], t[4] = NULL;
	return t;
}

int views_iterations_rows(const UiState *u, int m, int cols)
{
	char buf[4][96];
	const char *const *t = kappa_titles(buf);
	/* the title (and the key under it when the briefest leaves it no
	 * room), the plot's rows, its axis and its labels */
	return 1 + (screen_width(t[3]) + key_width(u, m) > cols) + PLOT_MIN_THR_ROWS + 2;
}

void views_kappa_iterations(const Shown *p, const UiState *u, int top, int left, int rows, int cols)
{
	int m = p->rec[0].m, n = p->nrec;
	char buf[4][96];
	KeyEnd ke;
	int y = titled(u, top, left, cols, m, kappa_titles(buf), &ke);
	KappaSeries ks = {n, m, rec_x, rec_kappa, rec_tau, "it", 0};
	shared_key(&ke, kappa_chart(p, u, &ks, y, left, rows - (y - top), cols, 0,
	                            p->rec[n - 1].iter > 0 ? p->rec[n - 1].iter : 1));
}

void views_widths_iterations(const Shown *p, const UiState *u, int top, int left, int rows,
                             int cols)
{
	static const char *const titles[] = {"n_i per Algorithm-1 iteration", "n_i per iteration",
	                                     "n_i", NULL};
	int m = p->rec[0].m - 1, n = p->nrec;
	KeyEnd ke;
	int y = titled(u, top, left, cols, m, titles, &ke);
	KappaSeries ks = {n, m, rec_x, rec_width, rec_tau, "it", 1};
	shared_key(&ke, kappa_chart(p, u, &ks, y, left, rows - (y - top), cols, 0,
	                            p->rec[n - 1].iter > 0 ? p->rec[n - 1].iter : 1));
}

/* κ, Σ n_i and the test accuracy per Algorithm-1 iteration in rows top..bot. */
static void iterations(const Shown *p, const UiState *u, int top, int bot)
{
	int h = bot - top + 1, lw = COLS * 3 / 5;
	if (!p->nrec) {
		char t[240];
		snprintf(t, sizeof t,
		         "Algorithm 1 has not run: s steps it, and %s, %s n_i and the test "
		         "accuracy of every iteration are charted here.",
		         S(KAPPA), S(SUM));
		screen_put_wrapped(top, bot, 0, COLS, C_DIM, 0, t);
		return;
	}
	views_kappa_iterations(p, u, top, 0, h, lw - 1);
	small_chart(p, 0, top, lw, h / 2, COLS - lw);
	small_chart(p, 1, top + h / 2, lw, h - h / 2, COLS - lw);
}

/* κ of every layer against epochs of the last training in rows top..bot,
 * columns left to left + cols - 1. */
static void epochs(const Shown *p, const UiState *u, int top, int bot, int left, int cols)
{
	const ShownSeries *k = &p->ks;
	if (!k->n) {
		char t[240];
		snprintf(t, sizeof t,
		         "No training of this network yet: t trains, s steps Algorithm 1; %s of "
		         "every layer against epochs shows here.",
		         S(KAPPA));
		screen_put_wrapped(top, bot, left, cols, C_DIM, 0, t);
		return;
	}
	/* what trained stays in the title, the key under it when it leaves
	 * the key no room */
	char title[200], shorter[200], brief[64];
	snprintf(title, sizeof title, "%s(%s) against epochs: %s", S(KAPPA), S(WHAT), k->what);
	snprintf(shorter, sizeof shorter, "%s against epochs: %s", S(KAPPA), k->what);
	snprintf(brief, sizeof brief, "%s against epochs", S(KAPPA));
	const char *titles[] = {title, shorter, NULL, NULL};
	if (screen_width(shorter) > cols) /* what trained does not fit at all */
		titles[1] = brief;
	KeyEnd ke;
	int below = titled(u, top, left, cols, k->m, titles, &ke) - top - 1;
	/* the training's length while it runs, the epochs it ran once it ended
	 * (early stopping ends before the cap) */
	double x1 = p->busy && k->epochs > 0 ? k->epochs : k->epoch[k->n - 1];
	KappaSeries ks = {k->n, k->m, ser_x, ser_kappa, now_tau, "epoch", 0};
	shared_key(&ke, kappa_chart(p, u, &ks, top + 1 + below, left, bot - top - below, cols, 0,
	                            x1 > 0 ? x1 : 1));
}

void views_kappa_recent(const Shown *p, const UiState *u, int top, int left, int rows, int cols)
{
	if (p->nrec && p->alg1_live)
		views_kappa_iterations(p, u, top, left, rows, cols);
	else
		epochs(p, u, top, top + rows - 1, left, cols);
}

/* The title of the validation curve: what trained, and what early
 * stopping did or does. */
static void curve_title(const ShownEpochs *k, int top, int left, int cols)
{
	char what[320];
	int best = k->best;
	if (!k->val)
		snprintf(what, sizeof what, "no validation split (S sets early stopping)");
	else if (k->done)
		snprintf(what, sizeof what, "%d of %d epochs%s, kept %d (%.2f%%)", k->n, k->epochs,
		         k->stopped_early ? ", early stop" : "", best,
		         best > 0 && best <= k->n ? 100 * k->val_acc[best - 1] : NAN);
	else
		snprintf(what, sizeof what, "epoch %d of %d, best %d (%.2f%%)", k->n, k->epochs,
		         best, best > 0 && best <= k->n ? 100 * k->val_acc[best - 1] : NAN);
	int x = screen_put(top, left, cols, C_TITLE, 1, "%s: ",
	                   k->val ? (screen_ascii() ? "o validation . training accuracy"
	                                            : "• validation · training accuracy")
	                          : "training accuracy per epoch");
	/* the last epoch's rate and what trained only where they fit: never cut */
	size_t n = strlen(what);
	snprintf(what + n, sizeof what - n, ", lr %.3g", k->lr[k->n - 1]);
	if (x + screen_width(what) > cols)
		what[n] = '\0';
	n = strlen(what);
	snprintf(what + n, sizeof what - n, ", %s", k->what);
	if (x + screen_width(what) > cols)
		what[n] = '\0';
	screen_put_cut(top, left + x, cols - x, C_NORMAL, 0, "%s", what);
}

/* The epochs the curves are drawn over: the epochs run when done; while
 * early stopping runs, room to grow (the cap may never come); else the
 * cap. */
static int curve_span(const ShownEpochs *k)
{
	int x1 = k->done ? k->n : k->val ? (k->n < 5 ? 10 : 2 * k->n) : k->epochs;
	return x1 < k->n ? k->n : k->epochs > 0 && x1 > k->epochs ? k->epochs : x1;
}

/* The training loss per epoch of the last t training, a point for every
 * epoch (it grows point by point at a slow speed). */
static void loss_chart(const Shown *p, int top, int left, int rows, int cols)
{
	const ShownEpochs *k = &p->ep;
	double lo = INFINITY, hi = -INFINITY;
	for (int r = 0; r < k->n; r++)
		if (isfinite(k->loss[r]))
			lo = fmin(lo, k->loss[r]), hi = fmax(hi, k->loss[r]);
	screen_put_cut(top, left, cols, C_TITLE, 1, "training loss per epoch: %.4f%s%.4f",
	               k->loss[0], S(ARROW), k->loss[k->n - 1]);
	if (!isfinite(lo))
		return;
	plot_range(&lo, &hi, 0);
	lo = fmax(lo, 0);
	Plot pl;
	int x1 = curve_span(k);
	if (plot_begin(&pl, top + 1, left, rows - 1, cols, 6, 1, 0.5, x1 + 0.5, lo, hi, 0) < 0)
		return;
	plot_axes(&pl, hi - lo < 1 ? 2 : 1, NULL, 1);
	for (int r = 0; r < k->n; r++)
		plot_dot(&pl, r + 1, k->loss[r], C_KEY, screen_ascii() ? "o" : "•");
	char lab[32];
	plot_xlabel(&pl, 1, C_DIM, 0, "1");
	snprintf(lab, sizeof lab, "%d", x1);
	plot_xlabel(&pl, x1, C_DIM, 0, lab);
	plot_end(&pl);
}

/* The accuracy per epoch of the last t training: validation (•, drawn
 * over) and training (·), and the kept (or best so far) epoch marked with a
 * bar and a *; the training loss under it when the rows allow. */
static void curve(const Shown *p, int top, int left, int rows, int cols)
{
	const ShownEpochs *k = &p->ep;
	if (!k->n) {
		screen_put_cut(top, left, cols, C_DIM, 0,
		               "No t training yet: its validation accuracy per epoch shows here.");
		return;
	}
	if (rows >= 12 && k->loss) {
		int lr = rows * 2 / 5;
		loss_chart(p, top + rows - lr, left, lr, cols);
		rows -= lr;
	}
	curve_title(k, top, left, cols);
	double lo = INFINITY, hi = -INFINITY;
	for (int r = 0; r < k->n; r++) {
		lo = fmin(lo, 100 * k->acc[r]), hi = fmax(hi, 100 * k->acc[r]);
		if (k->val)
			lo = fmin(lo, 100 * k->val_acc[r]), hi = fmax(hi, 100 * k->val_acc[r]);
	}
	plot_range(&lo, &hi, 0);
	if (hi > 100 && lo < 100)
		hi = 100;
	Plot pl;
	int x1 = curve_span(k);
	/* half an epoch of margin: the first epoch's bar stays off the axis */
	if (plot_begin(&pl, top + 1, left, rows - 1, cols, 6, 1, 0.5, x1 + 0.5, lo, hi, 0) < 0)
		return;
	plot_axes(&pl, hi - lo < 10 ? 1 : 0, "%", 1);
	int best = k->val && k->best > 0 && k->best <= k->n ? k->best : 0;
	if (best)
		plot_vbar(&pl, best, lo, hi, C_MARK);
	const char *dot = screen_ascii() ? "o" : "•", *small = screen_ascii() ? "." : "·";
	for (int r = 0; r < k->n; r++)
		plot_dot(&pl, r + 1, 100 * k->acc[r], C_DIM, small);
	/* dots, not markers: a marker moved off a full column would misstate a value */
	for (int r = 0; r < k->n; r++)
		plot_dot(&pl, r + 1, 100 * (k->val ? k->val_acc[r] : k->acc[r]), C_GOOD, dot);
	if (best)
		plot_dot(&pl, best, 100 * k->val_acc[best - 1], C_MARK, "*");
	char lab[32];
	if (best) {
		snprintf(lab, sizeof lab, "%s %d", k->done ? "kept" : "best", best);
		plot_xlabel(&pl, best, C_MARK, 1, lab);
	}
	plot_xlabel(&pl, 1, C_DIM, 0, "1");
	snprintf(lab, sizeof lab, "%d", x1);
	plot_xlabel(&pl, x1, C_DIM, 0, lab);
	plot_end(&pl);
}

void view_history(const Shown *p, UiState *u, int top, int bot)
{
	int h = bot - top + 1;
	if (h >= 22) {
		int lw = COLS * 3 / 5, half = p->nrec ? h / 2 : 0;
		/* a chart with nothing to show gives its rows to the others */
		if (p->nrec && !p->ks.n && !p->ep.n) {
			iterations(p, u, top, bot);
			return;
		}
		if (half)
			iterations(p, u, top, top + half - 1);
		if (!p->ep.n) {
			epochs(p, u, top + half, bot, 0, COLS);
			return;
		}
		epochs(p, u, top + half, bot, 0, lw - 1);
		curve(p, top + half, lw, h - half, COLS - lw);
		return;
	}
	/* a short screen: one chart at a time */
	static const char *const next[] = {"κ against epochs of the last training",
	                                   "the accuracy per epoch of the last t training",
	                                   "the Algorithm-1 iterations"};
	int pg = u->hist_page % 3;
	/* before Algorithm 1 has run, the training's curves take its page (a
	 * training watched at a slow speed grows them epoch by epoch) */
	if (!p->nrec && pg == 0)
		pg = 2;
	/* the row of the key to the next chart goes to the chart when it is
	 * short (a lesson's caption above it) */
	int hint = h >= 12 || !u->lesson;
	if (pg == 1)
		epochs(p, u, top, bot - hint, 0, COLS);
	else if (pg == 2)
		curve(p, top, 0, bot - top + 1 - hint, COLS);
	else
		iterations(p, u, top, bot - hint);
	if (hint)
		screen_put_cut(bot, 0, 0, C_KEY, 0, "%s shows %s", u->lesson ? "< >" : "← →",
		               next[!p->nrec && pg == 2 ? 0 : pg]);
}
