/* tui/canvas.h - lines drawn with braille dots (2 × 4 a cell) in a
 * rectangle of cells: each cell takes the colour of the heaviest line
 * through it, the colour of its weight's sign (palette.h), bold for the
 * heaviest tier and dim for the faintest, whose lines are dotted; in ASCII
 * a letter by slope, lines for +, dots for −. The network diagram draws
 * its weights with it. */
#ifndef CONDNET_TUI_CANVAS_H
#define CONDNET_TUI_CANVAS_H

typedef struct Canvas {
	int x0, w, y0, h;                         /* the first cell and the cells across and down */
	unsigned char *bits, *tier, *slope, *neg; /* per cell: its dots, and of the heaviest line
	                                           * through it the tier, slope and sign */
} Canvas;

/* A canvas of rows × cols cells from (y0, x0); -1 when out of memory. */
int canvas_new(Canvas *cv, int y0, int x0, int rows, int cols);
void canvas_free(Canvas *cv);
/* A line in dots from (xa, ya) to (xb, yb) (dot coordinates from the
 * canvas' corner, 2 across and 4 down a cell): tier 1 dotted, 2 solid, 3
 * two dots thick; neg: its weight is below 0; slope 0 flat, 1 down, 2 up
 * (the ASCII letter). */
void canvas_line(Canvas *cv, int xa, int ya, int xb, int yb, int tier, int neg, int slope);
/* The cells with dots onto the screen. */
void canvas_draw(const Canvas *cv);

#endif
