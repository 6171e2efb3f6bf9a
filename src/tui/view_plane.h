/* tui/view_plane.h - what the Plane view (view_plane.c) draws with
 * (view_plane_draw.c): the regions, the points and the neuron maps in the
 * terminal's cells, and the keys of their colours. */
#ifndef CONDNET_TUI_VIEW_PLANE_H
#define CONDNET_TUI_VIEW_PLANE_H

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
/* The classes' key (each class's sure colour with its points' marker, and
 * its number; pale: unsure) at (y, x) in at most w columns, and the maps'
 * (their colours from −scale through 0 to scale); the columns used. */
int plane_key_classes(int y, int x, int w, int k);
int plane_key_maps(int y, int x, int w, double scale);

#endif
