/* tui/worker_plane.h - what the Plane view shows, as the worker publishes
 * it (worker_plane.c computes it with the library: engine/plane.h for the
 * regions and the maps, alg/alg3_combination.h for what replaces a removed
 * neuron; the view only draws): the training points, the decision regions
 * of the current network, and for every hidden layer one map per neuron in
 * pivoted-QR order, each kept or removed by the squeeze at τ, with the
 * combination of kept neurons that replaces each removed one. */
#ifndef CONDNET_TUI_WORKER_PLANE_H
#define CONDNET_TUI_WORKER_PLANE_H

#include <stdint.h>

#include "alg/alg3_combination.h"
#include "alg/alg3_regions.h"
#include "engine/plane.h"

/* The grids: the regions, and every neuron's map. */
#define PLANE_REGION_PX 128
#define PLANE_MAP_PX 24
/* The training points published at most (evenly spaced through the set). */
#define PLANE_SHOWN_POINTS 2000

/* The panels' grids, and the random draws their random panel is the median
 * of (the squeeze preview's own, tui/worker_squeeze.c). */
#define PLANE_PANEL_PX 64
#define PLANE_PANEL_DRAWS 5

/* A squeeze seen as regions (alg/alg3_regions.h): the network now, with the
 * neurons removed by pivoted QR, the same compensated, and as many removed
 * at random; after an Algorithm-1 step, the network before it with the
 * step's removals, and a fifth panel, the network the step left. */
typedef struct ShownPanels {
	int n;               /* panels: 0 none, 4 a squeeze proposal's, 5 Algorithm 1's step */
	int layer;           /* the squeeze proposal's layer (0 for a step) */
	int removed;         /* neurons removed in all */
	uint32_t crc;        /* the network they belong to: the one the proposal is made on,
	                      * or the one the step left */
	PlaneRegions reg[5]; /* REGION_NOW .. REGION_RANDOM, then the step's network */
	double acc[5];       /* test accuracy, percent */
	int draws, median;   /* the random draws, and the one drawn */
	double mean, sd;     /* over the draws, without compensation */
	double mean_comp, sd_comp; /* with compensation */
} ShownPanels;

/* One hidden layer's maps. */
typedef struct ShownMaps {
	Alg3Combinations c; /* layer, n, nkeep, the pivot order, the combinations */
	float *act;         /* n maps of PLANE_MAP_PX²: map t is σ(z) of neuron c.perm[t] */
	float *comb; /* n − nkeep maps: removed neuron c.perm[nkeep + r]'s combination, of the
	              * kept neurons' activations fitted on the training points (c.act_coef)
	              * or, without that fit, σ(Σ c_k z_k) of its combination in Ŵ */
} ShownMaps;

typedef struct ShownPlane {
	int on;           /* the data set is in the plane (two features) */
	char why[160];    /* else why the view cannot draw it */
	PlaneBox box;     /* the grids' box, from the training points */
	int k;            /* classes */
	int npts;         /* training points published */
	float *pts;       /* npts (x, y) pairs */
	int *lab;         /* npts labels */
	PlaneRegions reg; /* the current network's regions (w = 0: none yet) */
	int live;         /* reg and maps are of the network being trained: the maps are in
	                   * pivoted-QR order, without the squeeze's marks */
	double acc;       /* the current network's test accuracy, percent */
	int m;            /* layers of the network the maps are of */
	ShownMaps *maps;  /* m − 1 hidden layers */
	double tau;       /* the τ the marks are decided at */
	int step;         /* the maps are of the network before the last removal, the marks its
	                   * removals (in pivoted-QR order): 1 Algorithm 1's step, 2 a squeeze
	                   * decision (of layer step_layer); 0 of the network now */
	int step_layer;
	uint32_t crc;   /* the network the maps are of */
	ShownPanels pn; /* the panels of the squeeze proposal shown or of that step */
} ShownPlane;

void plane_shown_free(ShownPlane *p);
/* What the view shows of a network, into p (its box given): the regions of
 * net and the maps of every hidden layer of maps_of (net itself, or the
 * network before Algorithm 1's step) with the squeeze's marks at tau, or,
 * with counts, hidden layer i keeping the first counts[i-1] of its pivots;
 * the removed neurons' combinations fitted on the activations of sample
 * (the training set: where the refit works; NULL: in Ŵ only).
 * The worker's computation, on the network as it is after an operation and
 * while it trains; 0, or -1 with a message (what was made is freed by
 * plane_shown_free). */
int plane_shown_compute(const Net *net, const Net *maps_of, double tau, const int *counts,
                        const Dataset *sample, ShownPlane *p, Err *e);

#endif
