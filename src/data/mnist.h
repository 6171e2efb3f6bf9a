/* mnist.h - MNIST or Fashion-MNIST as the paper uses them: each 28×28 image
 * padded to 32×32, Haar-transformed, and reduced to the `features` most
 * significant coefficients chosen on the training set by haar_select(); the
 * same indices are applied to the test set; or, to compare, the coefficients
 * of largest variance, the coarsest, all of them, or the raw pixels. The
 * features and the chosen indices are cached beside the idx files
 * (mnist-haar<k>.cache), keyed by a checksum of the inputs, so the second run
 * starts at once. */
#ifndef CONDNET_MNIST_H
#define CONDNET_MNIST_H

#include <stdint.h>

#include "base/err.h"
#include "data/dataset.h"

/* The classes of MNIST and Fashion-MNIST. */
#define MNIST_CLASSES 10

/* What a network sees of each image. The Haar choices pad it to 32×32 and
 * transform it (haar_image); the chosen coefficients are cached beside the
 * idx files under their own names, keyed also by the choice. */
typedef enum MnistInputs {
	MNIST_QR = 0,   /* the k coefficients a column-pivoted QR picks first (the paper's);
	                 * data set and cache NAME-haar<k> */
	MNIST_VARIANCE, /* the k of largest variance over the training images (ties to the
	                 * lower index); NAME-haar<k>-variance */
	MNIST_COARSE,   /* the k coarsest, in the order of haar_coarse_order; NAME-haar<k>-coarse */
	MNIST_ALL,      /* all 1,024 coefficients in the pyramid's layout; NAME-haar-all */
	MNIST_PIXELS,   /* the raw pixels scaled to [0, 1], no transform and no cache;
	                 * NAME-pixels */
} MnistInputs;

/* "qr", "variance", "coarse", "all", "pixels"; the parse gives -1 for any
 * other word. */
const char *mnist_inputs_name(MnistInputs kind);
int mnist_inputs_parse(const char *s);

/* The inputs of the kind: features is k for the first three kinds (1 to
 * 1024), and not used by the other two. idx_out (if not NULL) receives the
 * chosen coefficient indices in feature order (malloc'd), NULL for pixels.
 * The data sets are named as above, "mnist-haar200-variance train". */
int mnist_load_inputs(const char *dir, const char *name, MnistInputs kind, int features,
                      Dataset **train, Dataset **test, int **idx_out, Err *e);

/* The Haar coefficients idx[0..k) of every image (padded to 32×32, each
 * index below 1024), in that order: the inputs a model's record names
 * (data/prep.h), whichever choice made them; no choice is made and no cache
 * written. The data sets are named "mnist-haar<k>-recorded train" and
 * "... test". */
int mnist_load_coeffs(const char *dir, const char *name, const int *idx, int k, Dataset **train,
                      Dataset **test, Err *e);

/* mnist_load_inputs with MNIST_QR. dir holds train-images-idx3-ubyte[.gz],
 * train-labels-idx1-ubyte[.gz], t10k-images-idx3-ubyte[.gz],
 * t10k-labels-idx1-ubyte[.gz]. features <= 1024.
 * name is "mnist" or "fashion" (for messages and the cache file name).
 * If idx_out is not NULL it receives the chosen coefficient indices
 * (malloc'd, `features` entries). */
int mnist_load(const char *dir, const char *name, int features, Dataset **train, Dataset **test,
               int **idx_out, Err *e);

/* The size of the training images in dir (28×28 for MNIST), from the
 * header of train-images-idx3-ubyte[.gz]: what the Haar features of
 * mnist_load are made from. */
int mnist_image_shape(const char *dir, int *rows, int *cols, Err *e);

/* Reads a feature cache (the layout is in mnist_cache.c): 0 with both sets and
 * the k indices (malloc'd) when the file is a regular file of the right
 * size, its CRC-32 matches, its key (version, k features of an n×n
 * transform, the inputs' checksum key) is the one asked for, the indices are
 * distinct and below n², every feature is finite and every label below 10;
 * else -1 and a message saying which check failed. mnist_load builds and
 * replaces a cache that fails. */
int mnist_cache_read(const char *path, int k, int n, uint32_t key, const char *name,
                     Dataset **train, Dataset **test, int **idx, Err *e);
/* Writes the cache of train and test (k = their features, chosen as idx
 * from an n×n transform, key the inputs' checksum); any failure (an
 * unwritable directory, a FIFO or a directory at its path) is ignored: the
 * next run builds it again. */
void mnist_cache_write(const char *path, int n, uint32_t key, const Dataset *train,
                       const Dataset *test, const int *idx);

/* Raw pixels scaled to [0,1] (784 features), no wavelets: images of
 * 1×28×28 (Dataset.c, h, w) for convolutions, or dense layers to compare. */
int mnist_load_pixels(const char *dir, Dataset **train, Dataset **test, Err *e);

#endif
