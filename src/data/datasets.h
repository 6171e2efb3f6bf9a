/* datasets.h - one place that turns a --data argument into training and test
 * sets: "mnist", "fashion", "adult", "synthetic", the plane data sets
 * (data/plane_sets.h: "spiral", "circles", "xor", "gauss", "moons") and
 * "csv:TRAIN[,TEST]".
 *
 * Fetched data live in the data directory: $CONDNET_DATA if set, else
 * $XDG_CACHE_HOME/condnet, else ~/.cache/condnet; with subdirectories mnist/,
 * fashion/ and adult/ (the layout `data/fetch` writes). */
#ifndef CONDNET_DATASETS_H
#define CONDNET_DATASETS_H

#include <stdint.h>

#include "base/err.h"
#include "data/dataset.h"
#include "data/prep.h"

typedef struct DataSpec {
	const char *spec;  /* as above; NULL means "synthetic" */
	const char *dir;   /* data directory; NULL means the default above */
	int features;      /* MNIST/Fashion wavelet coefficients (default 200) */
	int inputs;        /* MNIST/Fashion: which (MnistInputs, data/mnist.h; default MNIST_QR) */
	const int *coeffs; /* MNIST/Fashion: NULL, or the `features` Haar coefficients to keep in
	                    * place of a choice (a model's record: eval and predict) */
	int label_col;     /* CSV label column, -1 = last */
	uint64_t seed;     /* synthetic data seed */
	int limit;         /* > 0: keep at most this many rows per class (quick runs) */
	int scale;         /* DATA_RAW, DATA_CENTER or DATA_STANDARDIZE (over the training set:
	                    * data/prep.h) */
	int classes;       /* > 0: CSV labels must be below it (a network's outputs) */
	int points;        /* a plane data set's training points, 0 = PLANE_POINTS_DEFAULT */
	double noise;      /* a plane data set's noise, < 0 = the set's own (plane_set_noise) */
	int shape[3];      /* a CSV's rows as images of shape[0] maps of shape[1]×shape[2]
	                    * values (--shape); zeros: none declared */
	unsigned plane_inputs; /* data of two features: the inputs beyond x and y
	                        * (data/plane_inputs.h), 0 for none */
} DataSpec;

void dataspec_default(DataSpec *s);

/* Writes the data directory into buf; returns buf. */
const char *datasets_dir(char *buf, int len);

/* Parses "CxHxW" (or "HxW", one map) into shape; -1 with a message naming
 * name (the option) when a size is not a positive integer or the images
 * hold more values than a layer may. */
int datasets_parse_shape(const char *name, const char *s, int shape[3], Err *e);

/* Loads training and test sets. For "synthetic" and the plane data sets the
 * test set is drawn from the same distribution with another seed (a plane
 * set's test part has as many points as its training part); points and
 * noise given for another data set are refused. "csv:TRAIN" alone holds out a
 * stratified 20 % of TRAIN (chosen from the seed) as the test set. Both sets
 * are checked with dataset_validate(). A missing data set fails with a
 * message that says which `data/fetch` command provides it. Both sets
 * carry the record of their preprocessing (Dataset.prep, data/prep.h): the
 * kind of input, the Haar coefficients chosen, the training set's means and
 * scales. Inputs other than the paper's (s->inputs) are MNIST's and
 * Fashion's only: any other set refuses them by name. With plane_inputs,
 * the rows of a set of two features are made into x, y and those inputs
 * (recorded as PREP_PLANE) before the scale step, which is then fitted over
 * all of them; any other set refuses them. */
int datasets_load(const DataSpec *s, Dataset **train, Dataset **test, Err *e);

/* The rows of ds declared images of shape (C, H, W; --shape): their values
 * must be C·H·W ("--shape 2x8x8: images of 128 values, but tr.csv has 64
 * features"); shape[0] 0: nothing declared, nothing done. */
int datasets_set_shape(const int shape[3], Dataset *ds, Err *e);

/* The same with the scale step given instead of fitted: the sets are
 * loaded as s says with s->scale ignored, checked against the record prep
 * (prep_check; model names it), and then transformed by prep's means and
 * scales; a record of kind PREP_PLANE makes the rows into its inputs
 * first, whatever s->plane_inputs says. prep NULL: as datasets_load. */
int datasets_load_as(const DataSpec *s, const Prep *prep, const char *model, Dataset **train,
                     Dataset **test, Err *e);

/* A copy of ds (two features: x and y) whose rows are x, y and the inputs
 * of mask (data/plane_inputs.h), its name saying which; its preprocessing
 * record is not made here. NULL with a message when ds does not have two
 * features. */
Dataset *datasets_plane_apply(const Dataset *ds, unsigned mask, Err *e);

/* The sets a data set of two features (as given, of any scale step: the
 * sets datasets_load made) gives when its points are made into x, y and the
 * inputs of mask (data/plane_inputs.h): the scale step undone on x and y,
 * the inputs made, and the same scale step fitted over all of them on the
 * training set. 0, or -1 with a message (a set of other features). */
int datasets_plane_inputs(const Dataset *train, const Dataset *test, unsigned mask, Dataset **otr,
                          Dataset **ote, Err *e);

/* 1 when the named set is present in the data directory (the built-in
 * sets always are). */
int datasets_available(const char *name, const char *dir);

/* The points and noise a plane data set is drawn with under s (its own
 * when s asks for none): 0, or -1 with a message when s names no plane
 * data set. */
int datasets_plane_params(const DataSpec *s, int *points, double *noise, Err *e);

/* The command that fetches a data set, as the messages name it: what the
 * function given to datasets_set_fetch answers (main.c's: the installed
 * script, or the source tree's by its path), asked when a message needs it;
 * "data/fetch" (the source tree's, from its top) without one. */
void datasets_set_fetch(const char *(*where)(void));
const char *datasets_fetch(void);

#endif
