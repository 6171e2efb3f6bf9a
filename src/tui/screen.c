/* tui/screen.c - curses setup, colours, ASCII fallback and drawing primitives. */
#include "tui/screen.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static int active, ascii, color;

static const char *const sym_utf8[SYM_COUNT] = {"τ", "η", "κ", "σ", "β", "ε", "Σ", "×", "→", "−"};
static const char *const sym_ascii[SYM_COUNT] = {"tau", "eta", "kappa", "s",  "beta",
                                                 "e",   "sum", "x",     "->", "-"};
static const char *const level_utf8[8] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
static const char level_ascii[8] = {'_', '.', '-', ':', '=', '+', '*', '#'};

static void at_exit(void)
{
	screen_end();
}

int screen_init(int want_ascii, Err *e)
{
	setlocale(LC_ALL, "");
	/* without a UTF-8 locale the symbols and glyphs cannot be shown */
	ascii = want_ascii || strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
	if (!initscr())
		return err_set(e, "cannot start the screen (TERM=%s)",
		               getenv("TERM") ? getenv("TERM") : "");
	active = 1;
	atexit(at_exit);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	timeout(30);
	curs_set(0);
	const char *nc = getenv("NO_COLOR");
	color = !ascii && !(nc && *nc) && has_colors();
	if (color) {
		start_color();
		use_default_colors();
		init_pair(C_TITLE, COLOR_CYAN, -1);
		init_pair(C_WARN, COLOR_RED, -1);
		init_pair(C_GOOD, COLOR_GREEN, -1);
		init_pair(C_DIM, COLOR_BLUE, -1);
		init_pair(C_KEY, COLOR_YELLOW, -1);
		init_pair(C_MARK, COLOR_MAGENTA, -1);
		init_pair(C_SEL, COLOR_BLACK, COLOR_CYAN);
	}
	return 0;
}

void screen_end(void)
{
	if (active) {
		active = 0;
		endwin();
	}
}

int screen_ascii(void)
{
	return ascii;
}

int screen_color(void)
{
	return color;
}

const char *screen_sym(ScrSym s)
{
	return ascii ? sym_ascii[s] : sym_utf8[s];
}

static attr_t attr_of(ScrColor c, int bold)
{
	attr_t a = bold ? A_BOLD : A_NORMAL;
	if (color && c != C_NORMAL)
		return a | COLOR_PAIR(c);
	if (c == C_SEL || (c == C_WARN && !color))
		a |= c == C_SEL ? A_REVERSE : A_BOLD;
	return a;
}

int screen_too_small(void)
{
	if (COLS >= SCR_MIN_W && LINES >= SCR_MIN_H)
		return 0;
	char msg[128];
	snprintf(msg, sizeof msg, "enlarge the terminal (need %d%s%d, have %d%s%d)", SCR_MIN_W,
	         screen_sym(SYM_TIMES), SCR_MIN_H, COLS, screen_sym(SYM_TIMES), LINES);
	erase();
	int y = LINES / 2, x = (COLS - (int)strlen(msg) + (ascii ? 0 : 2)) / 2;
	screen_put(y < 0 ? 0 : y, x < 0 ? 0 : x, 0, C_WARN, 1, "%s", msg);
	return 1;
}

void screen_put(int y, int x, int maxw, ScrColor c, int bold, const char *fmt, ...)
{
	char buf[1024];
	wchar_t w[1024];
	va_list ap;
	if (y < 0 || y >= LINES || x >= COLS)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (maxw <= 0 || x + maxw > COLS)
		maxw = COLS - x;
	size_t n = mbstowcs(w, buf, sizeof w / sizeof *w - 1);
	if (n == (size_t)-1)
		return;
	int cols = 0;
	size_t k = 0;
	for (; k < n; k++) {
		int cw = wcwidth(w[k]);
		if (cw < 0)
			w[k] = L'?', cw = 1;
		if (cols + cw > maxw)
			break;
		cols += cw;
	}
	attr_t a = attr_of(c, bold);
	attron(a);
	mvaddnwstr(y, x, w, (int)k);
	attroff(a);
}

void screen_clear_row(int y, int x, ScrColor c)
{
	attr_t a = attr_of(c, 0);
	attron(a);
	mvhline(y, x, ' ', COLS - x);
	attroff(a);
}

/* One glyph for a value on a log scale from lo (level 0) to 1 (level 7). */
static void spark_glyph(int y, int x, double v, double lo, ScrColor c)
{
	double t = v > 0 ? (log10(v) - log10(lo)) / -log10(lo) : 0;
	int l = (int)floor(t * 7.999);
	l = l < 0 ? 0 : l > 7 ? 7 : l;
	if (ascii)
		screen_put(y, x, 1, c, 0, "%c", level_ascii[l]);
	else
		screen_put(y, x, 1, c, 0, "%s", level_utf8[l]);
}

int screen_spark(int y, int x, int width, const double *v, int n, double lo, double thr)
{
	if (n <= 0 || width < 2)
		return 0;
	if (!(lo > 0 && lo < 1))
		lo = 1e-6;
	int cols = n < width - 1 ? n : width - 1, marked = thr <= 0, used = 0;
	for (int j = 0; j < cols; j++) {
		/* the last value of the bucket: profiles only decrease, so it is the smallest */
		int i = (int)(((long)(j + 1) * n + cols - 1) / cols) - 1;
		i = i >= n ? n - 1 : i;
		int below = thr > 0 && v[i] < thr;
		if (below && !marked) {
			screen_put(y, x + used++, 1, C_MARK, 1, "|");
			marked = 1;
		}
		spark_glyph(y, x + used++, v[i], lo, below ? C_WARN : C_GOOD);
	}
	if (!marked)
		screen_put(y, x + used++, 1, C_MARK, 1, "|");
	return used;
}

void screen_bar(int y, int x, int width, double frac)
{
	if (width < 3)
		return;
	frac = frac < 0 || isnan(frac) ? 0 : frac > 1 ? 1 : frac;
	int inner = width - 2, fill = (int)lround(frac * inner);
	screen_put(y, x, 1, C_DIM, 0, "[");
	for (int i = 0; i < inner; i++) {
		if (ascii)
			screen_put(y, x + 1 + i, 1, i < fill ? C_GOOD : C_DIM, 0, "%c",
			           i < fill ? '#' : '-');
		else
			screen_put(y, x + 1 + i, 1, i < fill ? C_GOOD : C_DIM, 0, "%s",
			           i < fill ? "█" : "░");
	}
	screen_put(y, x + width - 1, 1, C_DIM, 0, "]");
}
