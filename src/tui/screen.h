/* tui/screen.h - curses setup and teardown, colours with a monochrome and
 * ASCII fallback, and the drawing primitives the panels share. */
#ifndef CONDNET_TUI_SCREEN_H
#define CONDNET_TUI_SCREEN_H

#include <stddef.h>

#include "base/err.h"

#define SCR_MIN_W 80
#define SCR_MIN_H 24

typedef enum ScrColor {
	C_NORMAL = 0,
	C_TITLE, /* header and table heads */
	C_WARN,  /* κ > τ, errors, values below a threshold */
	C_GOOD,  /* within bounds */
	C_DIM,   /* secondary text */
	C_KEY,   /* key names in the footer */
	C_MARK,  /* threshold markers, the pick */
	C_SEL,   /* the selected tab */
	C_COUNT
} ScrColor;

/* Symbols with an ASCII spelling. */
typedef enum ScrSym {
	SYM_TAU,
	SYM_ETA,
	SYM_KAPPA,
	SYM_SIGMA,
	SYM_BETA,
	SYM_EPS,
	SYM_SUM,
	SYM_TIMES,
	SYM_ARROW,
	SYM_MINUS,
	SYM_INF,
	SYM_ELLIPSIS,
	SYM_WHAT, /* Ŵ⁽ⁱ⁾ */
	SYM_COUNT
} ScrSym;

/* Starts curses: locale, cbreak, no echo, keypad, a 30 ms getch timeout.
 * ASCII when asked or when the locale is not UTF-8. Colours unless ascii,
 * NO_COLOR or a terminal without them. The terminal
 * is restored at exit and by screen_end(). */
int screen_init(int ascii, Err *e);
/* The decimal sign of the user's locale, ',' or '.': numbers are written in
 * the C locale's (LC_NUMERIC stays "C": every file the screen writes reads
 * back under any locale), and a number typed with the user's sign is read
 * too. */
char screen_decimal_sign(void);
void screen_end(void);
int screen_ascii(void);
int screen_color(void);
const char *screen_sym(ScrSym s);
/* utf8, or its ASCII spelling on an ASCII screen (a symbol no ScrSym names:
 * a setting's, session_setting.h). */
const char *screen_pick(const char *utf8, const char *ascii);

/* 1 (after drawing the "enlarge the terminal" message, and note under it)
 * when the terminal is below SCR_MIN_W × SCR_MIN_H. */
int screen_too_small(const char *note);

/* Text clipped to maxw display columns (maxw <= 0: to the right edge);
 * returns the columns drawn. In ASCII mode the text is transliterated first
 * (screen_translit), so callers may write κ, τ, σ₁, ≤ and the like. */
int screen_put(int y, int x, int maxw, ScrColor c, int bold, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* The same, but a text longer than maxw ends in an ellipsis ("…", ASCII
 * "..."); returns 1 when it was cut. */
int screen_put_cut(int y, int x, int maxw, ScrColor c, int bold, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* A line of items parted by three spaces (a key, a legend) within maxw
 * columns: the items that do not fit are left off from the right, whole;
 * only a first item too long alone ends in an ellipsis. Returns the
 * columns drawn. */
int screen_put_items(int y, int x, int maxw, ScrColor c, int bold, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* text wrapped at whole words to width columns from column x, in rows
 * top..bot (a last row that cannot hold the rest ends in an ellipsis);
 * returns the row after the last drawn. */
int screen_put_wrapped(int top, int bot, int x, int width, ScrColor c, int bold, const char *text);
/* Display columns of text as screen_put would draw it. */
int screen_width(const char *text);
/* text padded with spaces to width display columns, on the left (right
 * aligned, right = 1) or on the right; returns buf. */
const char *screen_pad(const char *text, int width, int right, char *buf, size_t len);
/* text with the screen's symbols spelled in ASCII (κ kappa, τ tau, σ₁
 * sigma_1, ≤ <=, → ->, …) into out; returns out. */
const char *screen_translit(const char *text, char *out, size_t len);
/* Splits text into lines of at most width display columns, breaking at
 * spaces (a word longer than a line is cut); calls fn(line, ud) for each
 * (line is a NUL-terminated copy) and returns the number of lines.
 * indent: columns that continuation lines lose to an indent. */
int screen_wrap(const char *text, int width, int indent, void (*fn)(const char *line, void *ud),
                void *ud);
/* Fills a row from x to the right edge with spaces in colour c. */
void screen_clear_row(int y, int x, ScrColor c);

/* A sparkline of v[0..n) (values in (0, 1], log scale from lo > 0, the
 * lowest glyph, to 1, the full block) in at most width columns, each glyph
 * the smallest value of its group when n > width; the marker '|' goes
 * before the first value below thr (thr <= 0: no marker); values below thr
 * take C_WARN. Returns the columns used. */
int screen_spark(int y, int x, int width, const double *v, int n, double lo, double thr);
/* A progress bar of width columns filled to frac in [0, 1]. */
void screen_bar(int y, int x, int width, double frac);

#endif
