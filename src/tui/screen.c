/* tui/screen.c - curses setup, colours, ASCII fallback and drawing primitives. */
#include "tui/screen.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <wchar.h>

static int active, ascii, color;

static const char *const sym_utf8[SYM_COUNT] = {"τ", "η", "κ", "σ", "β", "ε",   "Σ",
                                                "×", "→", "−", "∞", "…", "Ŵ⁽ⁱ⁾"};
static const char *const sym_ascii[SYM_COUNT] = {
    "tau", "eta", "kappa", "sigma", "beta", "e", "sum", "x", "->", "-", "inf", "...", "W^(i)"};

/* The ASCII spelling of every non-ASCII character the screen writes. */
static const char *const translit[][2] = {
    {"κ", "kappa"}, {"τ", "tau"}, {"η", "eta"}, {"σ", "sigma"}, {"β", "beta"}, {"ε", "e"},
    {"Σ", "sum"},   {"×", "x"},   {"→", "->"},  {"←", "<-"},    {"−", "-"},    {"∞", "inf"},
    {"…", "..."},   {"Ŵ", "W^"},  {"⁽", "("},   {"⁾", ")"},     {"ⁱ", "i"},    {"₁", "_1"},
    {"≥", ">="},    {"≤", "<="},  {"·", "*"},   {"—", "--"},    {"–", "-"},    {"│", "|"},
    {"▸", ">"},     {"▲", "^"},   {"▼", "v"},   {"◀", "<"},     {"▶", ">"},    {"•", "o"},
    {"×", "x"},     {"ᵀ", "^T"},  {"⁺", "+"},   {"¹", "1"},     {"ʲ", "j"},    {"─", "-"},
    {"┄", "-"},     {"≈", "~"},   {"°", "deg"}, {"ₜ", "t"},     {"ᵥ", "v"},    {"↑", "Up"},
    {"↓", "Down"},  {"┤", "+"},   {"└", "+"},   {"↳", ">"},     {"●", "@"},    {"²", "^2"},
    {"‹", "<"},     {"›", ">"},
};
static const char *const level_utf8[8] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
static const char level_ascii[8] = {'_', '.', '-', ':', '=', '+', '*', '#'};

static void at_exit(void)
{
	screen_end();
}

/* Descriptors curses opens to read the terminal's description (terminfo),
 * and one to spare. */
#define SCREEN_FDS 2

/* curses says only "Error opening terminal" and exits when it cannot open
 * the terminal's description: a lack of descriptors is said first. */
static int check_descriptors(Err *e)
{
	int fd[SCREEN_FDS], n = 0, err = 0;
	while (n < SCREEN_FDS && (fd[n] = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0)
		n++;
	if (n < SCREEN_FDS)
		err = errno;
	for (int i = 0; i < n; i++)
		close(fd[i]);
	if (err != EMFILE && err != ENFILE)
		return 0;
	struct rlimit rl;
	if (err == EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		return err_set(
		    e,
		    "too few file descriptors for the screen: the limit (ulimit -n %llu) "
		    "leaves %d free, and the screen needs %d to read the terminal's "
		    "description (terminfo); raise it (ulimit -n %llu)",
		    (unsigned long long)rl.rlim_cur, n, SCREEN_FDS,
		    (unsigned long long)rl.rlim_cur + SCREEN_FDS);
	return err_set(e,
	               "too few file descriptors for the screen: %s; it needs %d to read the "
	               "terminal's description (terminfo)",
	               strerror(err), SCREEN_FDS);
}

/* The decimal sign of the user's locale ('.' or ','). */
static char decimal = '.';

char screen_decimal_sign(void)
{
	return decimal;
}

int screen_init(int want_ascii, Err *e)
{
	/* the user's locale for the characters and the terminal; numbers stay
	 * the C locale's, so that every file the screen writes (the session log,
	 * exports, models' records) reads back anywhere */
	setlocale(LC_ALL, "");
	const char *dp = localeconv()->decimal_point;
	decimal = dp && dp[0] == ',' ? ',' : '.';
	setlocale(LC_NUMERIC, "C");
	/* without a UTF-8 locale the symbols and glyphs cannot be shown */
	ascii = want_ascii || strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
	if (check_descriptors(e) < 0)
		return -1;
	/* newterm answers NULL where initscr would exit */
	SCREEN *sc = newterm(NULL, stdout, stdin);
	if (!sc)
		return err_set(e, "cannot start the screen on this terminal (TERM=%s)",
		               getenv("TERM") ? getenv("TERM") : "");
	set_term(sc);
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

const char *screen_pick(const char *utf8, const char *ascii_text)
{
	return ascii ? ascii_text : utf8;
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

static void small_line(const char *line, void *ud)
{
	int *y = ud;
	if (*y < LINES)
		screen_put((*y)++, 0, 0, C_NORMAL, 0, "%s", line);
}

int screen_too_small(const char *note)
{
	if (COLS >= SCR_MIN_W && LINES >= SCR_MIN_H)
		return 0;
	char msg[128];
	snprintf(msg, sizeof msg, "enlarge the terminal (need %d%s%d, have %d%s%d)", SCR_MIN_W,
	         screen_sym(SYM_TIMES), SCR_MIN_H, COLS, screen_sym(SYM_TIMES), LINES);
	erase();
	int y = LINES / 2, x = (COLS - (int)strlen(msg) + (ascii ? 0 : 2)) / 2;
	screen_put(y < 0 ? 0 : y, x < 0 ? 0 : x, 0, C_WARN, 1, "%s", msg);
	/* the note wraps under it, from the left edge when it is long */
	int nw = screen_width(note), nx = nw < COLS ? (COLS - nw) / 2 : 0;
	if (y + 1 < LINES && nw < COLS)
		screen_put(y + 1, nx, 0, C_NORMAL, 0, "%s", note);
	else if (y + 1 < LINES)
		screen_wrap(note, COLS, 0, small_line, &(int){y + 1});
	return 1;
}

const char *screen_translit(const char *text, char *out, size_t len)
{
	size_t n = 0;
	while (*text && n + 1 < len) {
		const char *rep = NULL;
		size_t k = 0;
		if ((unsigned char)*text >= 0x80)
			for (size_t i = 0; i < sizeof translit / sizeof *translit && !rep; i++) {
				k = strlen(translit[i][0]);
				if (!strncmp(text, translit[i][0], k))
					rep = translit[i][1];
			}
		if (!rep) {
			/* an unknown multibyte character: one '?' for all its bytes */
			if ((unsigned char)*text >= 0x80) {
				out[n++] = '?';
				for (text++; ((unsigned char)*text & 0xc0) == 0x80; text++)
					;
				continue;
			}
			out[n++] = *text++;
			continue;
		}
		for (const char *r = rep; *r && n + 1 < len; r++)
			out[n++] = *r;
		text += k;
	}
	out[n] = '\0';
	return out;
}

/* text as wide characters, transliterated in ASCII mode; -1 when invalid. */
static long widen(const char *text, wchar_t *w, size_t len)
{
	char t[2048];
	if (ascii)
		text = screen_translit(text, t, sizeof t);
	size_t n = mbstowcs(w, text, len - 1);
	if (n == (size_t)-1)
		return -1;
	w[n] = L'\0';
	return (long)n;
}

int screen_width(const char *text)
{
	wchar_t w[2048];
	long n = widen(text, w, sizeof w / sizeof *w);
	int cols = 0;
	for (long k = 0; k < n; k++) {
		int cw = wcwidth(w[k]);
		cols += cw < 0 ? 1 : cw;
	}
	return cols;
}

const char *screen_pad(const char *text, int width, int right, char *buf, size_t len)
{
	int pad = width - screen_width(text);
	if (pad < 0)
		pad = 0;
	snprintf(buf, len, "%*s%s%*s", right ? pad : 0, "", text, right ? 0 : pad, "");
	return buf;
}

/* Draws w[0..n) from (y, x) within maxw columns; *cut is set when it did
 * not fit. Returns the columns drawn. */
static int draw_wide(int y, int x, int maxw, ScrColor c, int bold, wchar_t *w, long n, int *cut)
{
	int cols = 0;
	long k = 0;
	*cut = 0;
	for (; k < n; k++) {
		int cw = wcwidth(w[k]);
		if (cw < 0)
			w[k] = L'?', cw = 1;
		if (cols + cw > maxw) {
			*cut = 1;
			break;
		}
		cols += cw;
	}
	attr_t a = attr_of(c, bold);
	attron(a);
	mvaddnwstr(y, x, w, (int)k);
	attroff(a);
	return cols;
}

static int vput(int y, int x, int maxw, ScrColor c, int bold, int ellipsis, const char *fmt,
                va_list ap)
{
	char buf[2048];
	wchar_t w[2048];
	if (y < 0 || y >= LINES || x >= COLS || x < 0)
		return 0;
	vsnprintf(buf, sizeof buf, fmt, ap);
	if (maxw <= 0 || x + maxw > COLS)
		maxw = COLS - x;
	long n = widen(buf, w, sizeof w / sizeof *w);
	if (n < 0)
		return 0;
	int cut, cols = draw_wide(y, x, maxw, c, bold, w, n, &cut);
	if (cut && ellipsis) {
		const char *el = screen_sym(SYM_ELLIPSIS);
		int ew = ascii ? 3 : 1;
		if (maxw <= ew)
			return cols;
		cols = draw_wide(y, x, maxw - ew, c, bold, w, n, &cut);
		screen_put(y, x + cols, ew, C_DIM, 0, "%s", el);
		return 1;
	}
	return ellipsis ? 0 : cols;
}

int screen_put(int y, int x, int maxw, ScrColor c, int bold, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vput(y, x, maxw, c, bold, 0, fmt, ap);
	va_end(ap);
	return r;
}

int screen_put_cut(int y, int x, int maxw, ScrColor c, int bold, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vput(y, x, maxw, c, bold, 1, fmt, ap);
	va_end(ap);
	return r;
}

int screen_put_items(int y, int x, int maxw, ScrColor c, int bold, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (y < 0 || y >= LINES || x < 0 || x >= COLS)
		return 0;
	if (maxw <= 0 || x + maxw > COLS)
		maxw = COLS - x;
	while (screen_width(buf) > maxw) {
		char *last = NULL;
		for (char *s = strstr(buf, "   "); s; s = strstr(s + 1, "   "))
			if (s > buf)
				last = s;
		if (!last)
			break;
		*last = '\0';
		while (last > buf && last[-1] == ' ') /* the spaces before it too */
			*--last = '\0';
	}
	screen_put_cut(y, x, maxw, c, bold, "%s", buf);
	return screen_width(buf) < maxw ? screen_width(buf) : maxw;
}

typedef struct {
	int y, bot, x, width, lines;
	ScrColor c;
	int bold;
} Wrapped;

static void wrapped_count(const char *line, void *ud)
{
	(void)line;
	((Wrapped *)ud)->lines++;
}

static void wrapped_line(const char *line, void *ud)
{
	Wrapped *w = ud;
	if (w->y > w->bot)
		return;
	if (w->y == w->bot && w->lines > 1) /* more than the last row holds */
		screen_put_cut(w->y++, w->x, w->width, w->c, w->bold, "%s %s", line,
		               screen_sym(SYM_ELLIPSIS));
	else
		screen_put(w->y++, w->x, w->width, w->c, w->bold, "%s", line);
	w->lines--;
}

int screen_put_wrapped(int top, int bot, int x, int width, ScrColor c, int bold, const char *text)
{
	Wrapped w = {top, bot, x, width, 0, c, bold};
	screen_wrap(text, width, 0, wrapped_count, &w);
	screen_wrap(text, width, 0, wrapped_line, &w);
	return w.y;
}

int screen_wrap(const char *text, int width, int indent, void (*fn)(const char *line, void *ud),
                void *ud)
{
	char line[2048];
	int lines = 0;
	const char *p = text;
	if (width < 8)
		width = 8;
	while (*p) {
		int w = lines ? width - indent : width;
		/* the longest prefix of whole words within w columns */
		size_t best = 0, i = 0;
		while (p[i]) {
			size_t j = i;
			while (p[j] == ' ')
				j++;
			while (p[j] && p[j] != ' ')
				j++;
			if (j >= sizeof line)
				break;
			memcpy(line, p, j);
			line[j] = '\0';
			if (screen_width(line) > w)
				break;
			best = i = j;
		}
		if (!best) {
			/* one word wider than the line: cut it at w columns */
			size_t j = 0;
			while (p[j] && j + 1 < sizeof line) {
				size_t k = j + 1;
				while (((unsigned char)p[k] & 0xc0) == 0x80)
					k++;
				memcpy(line, p, k);
				line[k] = '\0';
				if (screen_width(line) > w)
					break;
				j = k;
			}
			best = j ? j : 1;
		}
		memcpy(line, p, best);
		line[best] = '\0';
		if (fn)
			fn(line, ud);
		lines++;
		p += best;
		while (*p == ' ')
			p++;
	}
	return lines;
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
