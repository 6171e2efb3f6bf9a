/* tui/view_plane.h - what the Plane view (view_plane.c) draws with
 * (view_plane_draw.c): the regions, the points and the neuron maps in the
 * terminal's cells, and the keys of their colours. */
#ifndef CONDNET_TUI_VIEW_PLANE_H
#define CONDNET_TUI_VIEW_PLANE_H

#include "tui/views.h"
#include "tui/worker.h"

/* A map's cells: 10 across, 5 rows of two pixels (10 × 10 pixels). */
#define MAP_W 10
#define MAP_H 5

/* Where regions are drawn: rows × cols cells at (top, left) over box. */
typedef struct Area {
	int top, left, rows, cols;
	PlaneBox box;
} Area;

/* The regions g in area a, and the training points of pl over them. */
void plane_draw_regions(const PlaneRegions *g, const Area *a);
void plane_draw_points(const ShownPlane *pl, const PlaneRegions *g, const Area *a);
/* One map (PLANE_MAP_PX² values, scaled by 1/scale) at (y, x). */
void plane_draw_map(const float *v, double scale, int y, int x);
/* A map of h×w values scaled by 1/scale in rows × cols cells at (y, x)
 * (two values down to a cell). */
void plane_draw_map_sized(const float *v, int h, int w, double scale, int y, int x, int rows,
                          int cols);

/* A hidden layer's maps as tiles: a neuron's over the plane, or a
 * convolution layer's channels on an image (view_channels.c). */
typedef struct MapTiles {
	const Alg3Combinations *c; /* the units, how many are kept, their pivot order */
	const float *act, *comb;   /* n maps in pivot order; the n − nkeep combinations' */
	int h, w;                  /* a map's values down and across */
	int rows, cols;            /* a tile's cells */
	double scale;              /* what maps to ±1 */
	int live;                  /* 1: no keep or drop marks */
} MapTiles;
/* The tiles from u->plane_first on (clamped to the maps), a dropped unit's
 * beside its combination's, row after row from (y, left) down to row last,
 * and the range shown at the end of row last when not all are; the count
 * shown. */
int plane_draw_tiles(const MapTiles *m, UiState *u, int y, int left, int last);
/* The classes' key (each class's sure colour with its points' marker, and
 * its number; pale: unsure) at (y, x) in at most w columns, and the maps'
 * (their colours from −scale through 0 to scale); the columns used. */
int plane_key_classes(int y, int x, int w, int k);
/* The columns the classes' key takes without its note on pale cells. */
int plane_key_classes_width(int k);
int plane_key_maps(int y, int x, int w, double scale);

#endif
