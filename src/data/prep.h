/* prep.h - the preprocessing of a data set: how a raw input becomes the
 * features a network reads, recorded so that new inputs are transformed
 * exactly as the training inputs were.
 *
 * Two steps. First the kind of input: features as given (CSV, the synthetic
 * set), an image's pixels turned into chosen Haar-wavelet coefficients
 * (MNIST, Fashion-MNIST: data/mnist.h), an image's pixels scaled to [0, 1]
 * (their --inputs pixels), or a UCI Adult record encoded as data/adult.h
 * says. Then, when asked (--center, --standardize), every
 * feature centred on its mean over the training set and divided by its
 * standard deviation there (a feature constant there only centred). The
 * means and scales are those of the training set the network learned on;
 * a model file records them (model/model_io.h). */
#ifndef CONDNET_PREP_H
#define CONDNET_PREP_H

#include <stddef.h>

#include "base/err.h"

struct Dataset;

/* The scale step: none, centring, or centring and dividing. */
enum { DATA_RAW = 0, DATA_CENTER, DATA_STANDARDIZE, DATA_SCALES };

typedef enum PrepKind {
	PREP_NONE = 0, /* not recorded (a model saved before the record existed) */
	PREP_FEATURES, /* rows of features as given */
	PREP_HAAR,     /* an image's pixels (0..255) to the Haar coefficients idx[0..d) */
	PREP_ADULT,    /* a UCI Adult record (14 fields) to its encoding */
	PREP_PIXELS,   /* an image's pixels (0..255) to x/255, row by row: d = rows·cols */
	PREP_KINDS
} PrepKind;

/* The largest n of a Haar transform's n×n image a record may name. */
#define PREP_MAX_HAAR 1024

typedef struct Prep {
	PrepKind kind;
	int d;          /* the features the network reads */
	int rows, cols; /* PREP_HAAR, PREP_PIXELS: the image (Haar: padded with zeros to n×n) */
	int n;          /* PREP_HAAR: the transform's size, a power of 2 */
	int *idx;       /* PREP_HAAR: the d coefficients kept, in their order */
	int scale;      /* DATA_RAW, DATA_CENTER or DATA_STANDARDIZE */
	double *mean;   /* d: subtracted (0 under DATA_RAW) */
	double *sd;     /* d: then divided by (1 unless standardized) */
} Prep;

/* A record of d features of this kind, scale DATA_RAW (means 0, scales 1);
 * PREP_HAAR's idx all 0, its sizes 0 until set. NULL with a message when
 * out of memory or d < 1. */
Prep *prep_new(PrepKind kind, int d, Err *e);
Prep *prep_clone(const Prep *p, Err *e); /* NULL gives NULL, not an error */
void prep_free(Prep *p);                 /* accepts NULL */

/* Sets the scale step from train (whose rows are this record's features):
 * the mean of every feature and, for DATA_STANDARDIZE, its standard
 * deviation (1 when it is 0), as dataset_standardize computes them. These
 * two are prep_fit.c's: the record applied to the row store. */
int prep_fit(Prep *p, const struct Dataset *train, int scale, Err *e);
/* Applies the scale step to the rows of ds in place: (x − mean)/sd. */
void prep_scale(const Prep *p, struct Dataset *ds);

/* 0 when the rows of data (made by the record data, its scale step not yet
 * applied) can be transformed by the record model: the same kind of input
 * (PREP_HAAR: the same image size and coefficients; PREP_PIXELS: the same
 * image size), the same width; else -1
 * and a message naming both (model and data name them). A record of kind
 * PREP_NONE accepts any rows of its width. */
int prep_check(const Prep *model, const Prep *data, const char *model_name, const char *data_name,
               Err *e);

/* What one raw input row holds, for messages and the checks of new
 * inputs: d features, rows×cols pixel values, or an Adult record. */
int prep_raw_width(const Prep *p);

/* PREP_HAAR: the pixel rows px (n × rows·cols values in 0..255) into the
 * record's d Haar coefficients, out (n × d); PREP_PIXELS: into the pixels
 * scaled to [0, 1]. The scale step is not applied. The same numbers as
 * data/mnist.c computes from image bytes. */
int prep_pixels(const Prep *p, const float *px, int n, float *out, Err *e);

/* "features as given", "Haar coefficients of 28×28 images", "Adult records",
 * "pixels of 28×28 images", then ", centred" or ", standardized" (on the
 * training set). */
const char *prep_describe(const Prep *p, char *buf, size_t len);
/* "none", "features", "haar", "adult", "pixels"; "raw", "center",
 * "standardize". */
const char *prep_kind_name(PrepKind k);
const char *prep_scale_name(int scale);

#endif
