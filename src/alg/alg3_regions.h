/* alg3_regions.h - a squeeze seen as decision regions: a network of two
 * inputs over the plane (engine/plane.h) as it is, after removing the
 * neurons pivoted QR puts last, after removing them with compensation (the
 * next layer refitted), and after removing as many neurons at random, each
 * with its accuracy. The paper's claim made visible: the neurons QR removes
 * are combinations of those it keeps (alg3_combination.h), so with the
 * refit the regions stay as they were, while as many removed at random
 * change them.
 *
 * The random panel is one of `draws` seeded draws, the one whose accuracy
 * is the median (of an even number, the lower of the two middle ones);
 * draw r keeps, in hidden layer i, the first counts of the random order
 * alg3_order draws from rng_derive(seed, r): the draws of the screen's
 * squeeze preview (alg3_compare_layer) for the same seed. */
#ifndef CONDNET_ALG3_REGIONS_H
#define CONDNET_ALG3_REGIONS_H

#include <stdint.h>

#include "alg/alg3_squeeze.h"
#include "base/err.h"
#include "data/dataset.h"
#include "engine/net.h"
#include "engine/plane.h"

typedef enum RegionPanel {
	REGION_NOW = 0, /* the network as it is */
	REGION_QR,      /* pivoted QR's choice removed */
	REGION_QR_COMP, /* the same, the next layers refitted (compensation) */
	REGION_RANDOM,  /* as many removed at random: the median draw */
	REGION_NPANELS
} RegionPanel;

typedef struct Alg3Regions {
	PlaneRegions reg[REGION_NPANELS];
	double acc[REGION_NPANELS]; /* accuracy on the evaluation set, percent */
	int removed;                /* neurons each squeezed panel removed in all */
	int draws, median;          /* the random draws, and the one drawn */
	double *draw_acc;           /* draws accuracies without compensation */
	double mean, sd;            /* over the draws (sd NaN below 2) */
	double mean_comp, sd_comp;  /* the same draws with compensation */
} Alg3Regions;

/* The four panels for net when hidden layer i keeps counts[i-1] of its
 * neurons (1..n_i; n_i keeps it whole), over a w × h grid on b: accuracies
 * on eval, compensation from sample (training inputs), draws ≥ 1 random
 * draws from seed. net is not changed. 0, or -1 with a message; out is
 * allocated (alg3_regions_free). */
int alg3_regions(const Net *net, const int *counts, const Dataset *eval, const Dataset *sample,
                 int draws, uint64_t seed, const PlaneBox *b, int w, int h, Alg3Regions *out,
                 Err *e);
void alg3_regions_free(Alg3Regions *r); /* frees the arrays, not r */

/* net with hidden layer i keeping counts[i-1] neurons chosen by c (seed
 * for ALG3_RANDOM), compensated when comp (sample: training inputs):
 * Algorithm 3 with the counts given, layer after layer. A new network, or
 * NULL with a message. */
Net *alg3_variant(const Net *net, const int *counts, Alg3Criterion c, uint64_t seed, int comp,
                  const Dataset *sample, Err *e);

#endif
