/* datasets.h - one place that turns a --data argument into training and test
 * sets: "mnist", "fashion", "adult", "synthetic", "csv:TRAIN[,TEST]".
 *
 * Fetched data live in the data directory: $CONDNET_DATA if set, else
 * $XDG_CACHE_HOME/condnet, else ~/.cache/condnet; with subdirectories mnist/,
 * fashion/ and adult/ (the layout `data/fetch` writes). */
#ifndef CONDNET_DATASETS_H
#define CONDNET_DATASETS_H

#include <stdint.h>

#include "data/dataset.h"
#include "base/err.h"

typedef struct DataSpec {
	const char *spec;     /* as above; NULL means "synthetic" */
	const char *dir;      /* data directory; NULL means the default above */
	int features;         /* MNIST/Fashion wavelet coefficients (default 200) */
	int inputs;           /* MNIST/Fashion: which (MnistInputs; default MNIST_QR) */
	int label_col;        /* CSV label column, -1 = last */
	uint64_t seed;        /* synthetic data seed */
	int limit;            /* > 0: keep at most this many rows per class (quick runs) */
	int scale;            /* DATA_RAW, DATA_CENTER or DATA_STANDARDIZE (over the training set) */
} DataSpec;

enum { DATA_RAW = 0, DATA_CENTER, DATA_STANDARDIZE };

void dataspec_default(DataSpec *s);

/* Writes the data directory into buf; returns buf. */
const char *datasets_dir(char *buf, int len);

/* Loads training and test sets. For "synthetic" the test set is drawn from
 * the same distribution with another seed. "csv:TRAIN" alone holds out a
 * stratified 20 % of TRAIN (chosen from the seed) as the test set. Both sets
 * are checked with dataset_validate(). A missing data set fails with a
 * message that says which `data/fetch` command provides it. */
int datasets_load(const DataSpec *s, Dataset **train, Dataset **test, Err *e);

/* 1 when the named set is present in the data directory. */
int datasets_available(const char *name, const char *dir);

#endif
