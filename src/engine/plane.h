/* plane.h - what a network of two inputs computes over the input plane: the
 * class it picks at every point of a grid and how sure it is (the decision
 * regions), and the pre-activations of one hidden layer's neurons (a map per
 * neuron), from which the screen draws and the exports write.
 *
 * A grid of w × h pixels covers a box [x0, x1] × [y0, y1]; pixel (c, r),
 * column c from the left and row r from the top, is the point at its
 * centre, x0 + (c + ½)(x1 − x0)/w, y1 − (r + ½)(y1 − y0)/h. Grids are
 * stored row by row from the top. */
#ifndef CONDNET_PLANE_H
#define CONDNET_PLANE_H

#include "base/err.h"
#include "data/dataset.h"
#include "engine/net.h"

typedef struct PlaneBox {
	double x0, x1, y0, y1;
} PlaneBox;

/* The box of ds's points widened by a tenth of its extent on every side
 * (and to at least 0.2 across): 0, or -1 with a message saying why ds is
 * not in the plane ("10 features: the plane has 2"). Points of the plane
 * made into more inputs (data/plane_inputs.h) are x and y, their first two.
 * A network that reads such inputs (its record: data/prep.h) is given them
 * at every point of a grid, as its training set was. */
int plane_box(const Dataset *ds, PlaneBox *b, Err *e);
/* The point at the centre of pixel (c, r) of a w × h grid over b. */
void plane_point(const PlaneBox *b, int w, int h, int c, int r, double *x, double *y);
/* The pixel of a w × h grid over b that holds (x, y), clamped into the
 * grid. */
void plane_pixel(const PlaneBox *b, int w, int h, double x, double y, int *c, int *r);

/* The decision regions. */
typedef struct PlaneRegions {
	int w, h, k;        /* pixels across and down, classes */
	PlaneBox box;       /* the box the grid covers */
	unsigned char *cls; /* w·h: the class of the largest probability (the first of equals;
	                     * net_answer: 0 with conf 0 where an output is not finite) */
	float *conf;        /* w·h: that probability */
} PlaneRegions;

/* The regions of net (2 inputs, at most 255 classes) over a w × h grid on
 * b; out is allocated (plane_regions_free). 0, or -1 with a message. */
int plane_regions(const Net *net, const PlaneBox *b, int w, int h, PlaneRegions *out, Err *e);
void plane_regions_free(PlaneRegions *r); /* frees the arrays, not r */
/* The share of the pixels where a and b (of the same grid) pick different
 * classes, in [0, 1]; NaN when the grids differ. */
double plane_regions_differ(const PlaneRegions *a, const PlaneRegions *b);

/* One hidden layer's pre-activations over a grid. */
typedef struct PlaneMaps {
	int w, h;     /* pixels across and down */
	int layer, n; /* the layer (1..m−1) and its neurons */
	PlaneBox box;
	float *z; /* n maps of w·h: neuron j's z_j = y⁽ˡᵃʸᵉʳ⁻¹⁾·w_j + b_j at z + j·w·h */
} PlaneMaps;

/* The maps of hidden layer `layer` of net (2 inputs) over a w × h grid on
 * b; out is allocated (plane_maps_free). 0, or -1 with a message. */
int plane_maps(const Net *net, int layer, const PlaneBox *b, int w, int h, PlaneMaps *out, Err *e);
void plane_maps_free(PlaneMaps *m); /* frees the array, not m */
/* The same for the inputs (layer 0: what the network reads at each pixel,
 * x, y and the other inputs of the plane its record names) or the outputs
 * (layer m: the class probabilities), into the maps' z. */
int plane_io_maps(const Net *net, int layer, const PlaneBox *b, int w, int h, PlaneMaps *out,
                  Err *e);
/* σ(z_j), what neuron j gives over the grid, into out (w·h). */
void plane_map_activation(const Net *net, const PlaneMaps *m, int j, float *out);
/* σ(Σ_t coef[t]·z_idx[t]) over the grid into out (w·h): what a combination
 * of the layer's neurons would give in place of one of them. */
void plane_map_combination(const Net *net, const PlaneMaps *m, const int *idx, const double *coef,
                           int nterms, float *out);

#endif
