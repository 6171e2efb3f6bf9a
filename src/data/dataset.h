/* dataset.h - a labelled data set held in memory, and the operations every
 * loader and algorithm shares: subsets, stratified validation splits and the
 * built-in synthetic set. */
#ifndef CONDNET_DATASET_H
#define CONDNET_DATASET_H

#include <stdint.h>

#include "base/err.h"

struct Prep;

typedef struct Dataset {
	int n;             /* rows (samples) */
	int d;             /* features per row */
	int k;             /* classes; labels are in [0, k) */
	float *x;          /* n*d, row-major: sample i is x[i*d .. i*d+d) */
	int *y;            /* n labels */
	char name[128];    /* what it is, for headers and reports ("mnist-haar200 train") */
	struct Prep *prep; /* how its rows were made from raw inputs (data/prep.h), or
	                    * NULL; a copy travels with every subset and clone */
	int c, h, w;       /* rows that are images: c maps of h×w, row-major C×H×W
	                    * (c·h·w = d); 0 when they are not (travels with prep) */
} Dataset;

/* Every constructor here returns NULL with a message in e (which may be
 * NULL) when its arguments are out of range or memory runs out. */

/* A zeroed data set of n rows, d features, k classes. */
Dataset *dataset_new(int n, int d, int k, Err *e);
void dataset_free(Dataset *ds); /* accepts NULL */
Dataset *dataset_clone(const Dataset *ds, Err *e);

/* Rows idx[0..n) of ds, in that order (a copy); an index outside
 * [0, ds->n) is an error. */
Dataset *dataset_subset(const Dataset *ds, const int *idx, int n, Err *e);

/* The rows of a, then those of b (the same features; k the larger of the
 * two), a copy with a's preprocessing record. */
Dataset *dataset_concat(const Dataset *a, const Dataset *b, Err *e);

/* The first n rows of each class, at most (for quick runs); a copy. */
Dataset *dataset_head(const Dataset *ds, int n, Err *e);

/* Stratified split into training and validation parts, reproducible from
 * seed. Either per_class > 0 (that many validation rows of every class, the
 * paper's 1,000 per class for MNIST) or 0 < frac < 1 (that fraction of every
 * class, the paper's 10 % for Adult). Rows keep their original order within
 * each part. Fails when a class has too few rows. */
int dataset_split(const Dataset *all, double frac, int per_class, uint64_t seed, Dataset **train,
                  Dataset **val, Err *e);

/* Fails naming the first row and column holding NaN or Inf, or a label
 * outside [0, k). what names the data set in the message. */
int dataset_validate(const Dataset *ds, const char *what, Err *e);

/* The built-in synthetic set: k interleaved spiral arms in the plane, lifted
 * to d >= 2 features by a fixed random linear map plus noise, n_per_class
 * rows per class. Same seed, same data. */
Dataset *dataset_synthetic(int n_per_class, int k, int d, uint64_t seed, Err *e);

/* Centres every feature of train and test on its mean over train and, when
 * divide is set, divides it by its standard deviation over train (a feature
 * constant over train is only centred). Test uses train's statistics. */
void dataset_standardize(Dataset *train, Dataset *test, int divide);
/* Its two halves: the mean mu[j] of every feature over ds and the scale
 * sd[j] (the standard deviation when divide is set and it is not 0, else
 * 1), computed in double; and x = (x − mu)/sd on every row of ds. */
void dataset_feature_stats(const Dataset *ds, int divide, double *mu, double *sd);
void dataset_apply_scale(Dataset *ds, const double *mu, const double *sd);

/* Number of rows of each class into counts[0..k). */
void dataset_class_counts(const Dataset *ds, int *counts);

/* The CRC-32 of the data set's numbers: its sizes, every feature's bits and
 * every label. Two sets with the same CRC hold the same rows (a record of
 * which data a result was computed on). */
uint32_t dataset_crc(const Dataset *ds);

#endif
