/* tui/palette.c - the colours of the plane and of the network over it
 * (palette.h). */
#include "tui/palette.h"

#include <curses.h>
#include <math.h>

#include "tui/screen.h"

/* The colour-pair numbers these take, from the first past those the screen
 * and the views may use. */
#define PAIRS_MAX 512

static struct {
	short fg, bg;
} pairs[PAIRS_MAX];
static int npairs;

static short cube(int r, int g, int b)
{
	return (short)(16 + 36 * r + 6 * g + b);
}

/* The 256-colour palette: per class, four shades from unsure to sure, and
 * the dark shade its points are drawn in. */
static short shade256(int cls, int level)
{
	static const unsigned char rgb[6][3] = {{5, 1, 1}, {1, 2, 5}, {1, 4, 1},
	                                        {5, 5, 1}, {5, 1, 5}, {1, 5, 5}};
	const unsigned char *c = rgb[cls % 6];
	/* level 3: the class colour; lower levels mix it with white */
	int mix = 3 - level;
	return cube(c[0] + ((5 - c[0]) * mix + 2) / 4, c[1] + ((5 - c[1]) * mix + 2) / 4,
	            c[2] + ((5 - c[2]) * mix + 2) / 4);
}

static short dot256(int cls)
{
	static const unsigned char rgb[6][3] = {{2, 0, 0}, {0, 0, 2}, {0, 1, 0},
	                                        {1, 1, 0}, {1, 0, 1}, {0, 1, 1}};
	const unsigned char *c = rgb[cls % 6];
	return cube(c[0], c[1], c[2]);
}

static short base8(int cls)
{
	static const short c[6] = {COLOR_RED,    COLOR_BLUE,    COLOR_GREEN,
	                           COLOR_YELLOW, COLOR_MAGENTA, COLOR_CYAN};
	return c[cls % 6];
}

int palette_rich(void)
{
	return screen_color() && COLORS >= 256;
}

int palette_pair(short fg, short bg)
{
	int first = COLOR_PAIRS >= 2 * PAIRS_MAX ? PAIRS_MAX : 16;
	for (int i = 0; i < npairs; i++)
		if (pairs[i].fg == fg && pairs[i].bg == bg)
			return first + i;
	if (npairs == PAIRS_MAX || first + npairs >= COLOR_PAIRS ||
	    init_pair((short)(first + npairs), fg, bg) == ERR)
		return 0;
	pairs[npairs].fg = fg;
	pairs[npairs].bg = bg;
	return first + npairs++;
}

short palette_region(int cls, float conf, int k)
{
	if (!palette_rich())
		return base8(cls);
	double lo = 1.0 / k, f = (conf - lo) / (1 - lo);
	int level = f < 0.25 ? 0 : f < 0.5 ? 1 : f < 0.75 ? 2 : 3;
	return shade256(cls, level);
}

short palette_point(int cls)
{
	return palette_rich() ? dot256(cls) : COLOR_WHITE;
}

short palette_map(double v)
{
	int level = (int)fmin(4, floor(fabs(v) * 4.5));
	if (!palette_rich())
		return level < 2 ? COLOR_WHITE : v < 0 ? COLOR_BLUE : COLOR_RED;
	static const short neg[5] = {231, 189, 111, 68, 25}, pos[5] = {231, 223, 215, 208, 166};
	return v < 0 ? neg[level] : pos[level];
}

short palette_sign(double w)
{
	return palette_map(w < 0 ? -1 : 1);
}

char palette_map_ascii(double v)
{
	return v <= -0.6 ? '=' : v <= -0.2 ? '-' : v < 0.2 ? ' ' : v < 0.6 ? '+' : '#';
}

char palette_region_ascii(int cls)
{
	static const char c[] = ".:-~'`";
	return c[cls % 6];
}

char palette_point_ascii(int cls)
{
	static const char c[] = "OX+#@%";
	return c[cls % 6];
}

const char *palette_point_glyph(int cls)
{
	static const char *const glyph[] = {"o", "x", "+", "*", "#", "%"};
	return glyph[cls % 6];
}

void palette_cell2(int y, int x, short top, short bottom)
{
	static const wchar_t half[] = {0x2580, 0};
	cchar_t cc;
	setcchar(&cc, half, A_NORMAL, (short)palette_pair(top, bottom), NULL);
	mvadd_wch(y, x, &cc);
}
