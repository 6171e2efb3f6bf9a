/* tui/canvas.c - lines of braille dots in a rectangle of cells
 * (canvas.h). */
#include "tui/canvas.h"

#include <curses.h>
#include <stdlib.h>

#include "tui/palette.h"
#include "tui/screen.h"

int canvas_new(Canvas *cv, int y0, int x0, int rows, int cols)
{
	size_t cells = (size_t)(rows > 0 ? rows : 0) * (size_t)(cols > 0 ? cols : 0);
	*cv = (Canvas){x0,
	               cols,
	               y0,
	               rows,
	               calloc(cells + 1, 1),
	               calloc(cells + 1, 1),
	               calloc(cells + 1, 1),
	               calloc(cells + 1, 1)};
	if (!cv->bits || !cv->tier || !cv->slope || !cv->neg) {
		canvas_free(cv);
		return -1;
	}
	return 0;
}

void canvas_free(Canvas *cv)
{
	free(cv->bits);
	free(cv->tier);
	free(cv->slope);
	free(cv->neg);
	*cv = (Canvas){0};
}

static void dot(Canvas *cv, int X, int Y, int tier, int neg, int slope)
{
	int cx = X / 2, cy = Y / 4;
	if (cx < 0 || cx >= cv->w || cy < 0 || cy >= cv->h)
		return;
	static const unsigned char bit[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};
	size_t k = (size_t)cy * cv->w + cx;
	cv->bits[k] |= bit[X % 2][Y % 4];
	if (tier >= cv->tier[k]) {
		cv->tier[k] = (unsigned char)tier;
		cv->neg[k] = (unsigned char)neg;
		cv->slope[k] = (unsigned char)slope;
	}
}

/* A line of dots from (xa, ya) to (xb, yb), two dots thick at tier 3. */
void canvas_line(Canvas *cv, int xa, int ya, int xb, int yb, int tier, int neg, int slope)
{
	int dx = abs(xb - xa), dy = -abs(yb - ya), sx = xa < xb ? 1 : -1, sy = ya < yb ? 1 : -1;
	int err = dx + dy;
	for (int step = 0;; step++) {
		/* the faintest are dotted */
		if (tier > 1 || step % 2 == 0) {
			dot(cv, xa, ya, tier, neg, slope);
			if (tier == 3)
				dot(cv, xa, ya + 1, tier, neg, slope);
		}
		if (xa == xb && ya == yb)
			break;
		int e2 = 2 * err;
		if (e2 >= dy)
			err += dy, xa += sx;
		if (e2 <= dx)
			err += dx, ya += sy;
	}
}

/* The gap's cells: braille in the sign's colour (bold for the heaviest,
 * dim for the faintest); in ASCII lines for +, dots for −, by slope. */
void canvas_draw(const Canvas *cv)
{
	int color = screen_color(), ascii = screen_ascii();
	for (int cy = 0; cy < cv->h; cy++)
		for (int cx = 0; cx < cv->w; cx++) {
			size_t k = (size_t)cy * cv->w + cx;
			if (!cv->bits[k])
				continue;
			int y = cv->y0 + cy, x = cv->x0 + cx, neg = cv->neg[k];
			attr_t a = cv->tier[k] == 3 ? A_BOLD : cv->tier[k] == 1 ? A_DIM : A_NORMAL;
			if (ascii) {
				static const char pos[] = "-\\/", negc[] = ".`,";
				char ch = (neg ? negc : pos)[cv->slope[k] % 3];
				if (cv->tier[k] == 3 && !neg && ch == '-')
					ch = '=';
				attr_set(a, 0, NULL);
				mvaddch(y, x, (chtype)ch);
				attr_set(A_NORMAL, 0, NULL);
				continue;
			}
			wchar_t wc[2] = {(wchar_t)(0x2800 + cv->bits[k]), 0};
			cchar_t cc;
			short pair =
			    color ? (short)palette_pair(palette_sign(neg ? -1 : 1), -1) : 0;
			setcchar(&cc, wc, a, pair, NULL);
			mvadd_wch(y, x, &cc);
		}
}
