/* tui/palette.h - the colours of data in the plane and of the network
 * drawn over it, shared by the Plane view and the network diagram: each
 * class's shades from unsure to sure and its points' dark shade; the maps'
 * ramp from −1 (blue) through 0 (white) to +1 (orange), whose ends colour
 * the weights by sign; in 256 colours, in the terminal's 8, or as letters
 * without colour. Colour pairs are made on first use; a cell holds two
 * pixels, top over bottom (the upper half block). */
#ifndef CONDNET_TUI_PALETTE_H
#define CONDNET_TUI_PALETTE_H

/* 1 with 256 colours (the shades), 0 with 8 or none. */
int palette_rich(void);
/* The pair of fg on bg, made on first use; 0 (the terminal's own) when none
 * is left. */
int palette_pair(short fg, short bg);
/* A region pixel of class cls where the network gives it probability conf
 * of k classes (1/k: unsure, 1: sure). */
short palette_region(int cls, float conf, int k);
/* A training point of class cls (drawn on its region). */
short palette_point(int cls);
/* A map pixel of value v in [−1, 1]. */
short palette_map(double v);
/* A weight's colour by its sign: the ends of the maps' ramp. */
short palette_sign(double w);
/* The letters without colour: a map's value, a sure region's class, a
 * point's class. */
char palette_map_ascii(double v);
char palette_region_ascii(int cls);
char palette_point_ascii(int cls);
/* The glyph of class cls's points ("o", "x", "+", …). */
const char *palette_point_glyph(int cls);
/* One cell at (y, x) of two pixels: the upper half block in top's colour
 * on bottom's. */
void palette_cell2(int y, int x, short top, short bottom);

#endif
