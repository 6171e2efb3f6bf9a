/* mnist.h - MNIST or Fashion-MNIST as the paper uses them: each 28×28 image
 * padded to 32×32, Haar-transformed, and reduced to the `features` most
 * significant coefficients chosen on the training set by haar_select(); the
 * same indices are applied to the test set. The features and the chosen
 * indices are cached beside the idx files (mnist-haar<k>.cache), keyed by a
 * checksum of the inputs, so the second run starts at once. */
#ifndef CONDNET_MNIST_H
#define CONDNET_MNIST_H

#include <stdint.h>

#include "base/err.h"
#include "data/dataset.h"

/* dir holds train-images-idx3-ubyte[.gz], train-labels-idx1-ubyte[.gz],
 * t10k-images-idx3-ubyte[.gz], t10k-labels-idx1-ubyte[.gz]. features <= 1024.
 * name is "mnist" or "fashion" (for messages and the cache file name).
 * If idx_out is not NULL it receives the chosen coefficient indices
 * (malloc'd, `features` entries). */
int mnist_load(const char *dir, const char *name, int features, Dataset **train, Dataset **test,
               int **idx_out, Err *e);

/* The size of the training images in dir (28×28 for MNIST), from the
 * header of train-images-idx3-ubyte[.gz]: what the Haar features of
 * mnist_load are made from. */
int mnist_image_shape(const char *dir, int *rows, int *cols, Err *e);

/* Reads a feature cache (the layout is in mnist.c): 0 with both sets and
 * the k indices (malloc'd) when the file is a regular file of the right
 * size, its CRC-32 matches, its key (version, k features of an n×n
 * transform, the inputs' checksum key) is the one asked for, the indices are
 * distinct and below n², every feature is finite and every label below 10;
 * else -1 and a message saying which check failed. mnist_load builds and
 * replaces a cache that fails. */
int mnist_cache_read(const char *path, int k, int n, uint32_t key, const char *name,
                     Dataset **train, Dataset **test, int **idx, Err *e);

/* Raw pixels scaled to [0,1] (784 features), no wavelets: for comparison. */
int mnist_load_pixels(const char *dir, Dataset **train, Dataset **test, Err *e);

#endif
