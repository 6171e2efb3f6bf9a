/* idx.h - the idx file format of MNIST and Fashion-MNIST, plain or
 * gzip-compressed (a file starting with 1f 8b; one or more gzip members).
 *
 * Header: two zero bytes, a type byte (0x08 = unsigned byte), the number of
 * dimensions, then each dimension as a big-endian 32-bit integer. Every
 * dimension is checked against what the file can hold before anything is
 * allocated. The rules of the binary loaders: a regular file only; nothing
 * after the data, whether plain or compressed (no bytes after the gzip stream
 * either); a gzip stream must be whole (its trailer checks the data). */
#ifndef CONDNET_IDX_H
#define CONDNET_IDX_H

#include <stdint.h>

#include "base/err.h"

/* Images: a 3-dimensional ubyte file. On success *pixels is n*rows*cols
 * bytes (malloc'd, caller frees). */
int idx_load_images(const char *path, uint8_t **pixels, int *n, int *rows, int *cols, Err *e);

/* The header of an images file alone: its image count and size, checked
 * as idx_load_images checks them, without reading the pixels. */
int idx_image_shape(const char *path, int *n, int *rows, int *cols, Err *e);

/* Labels: a 1-dimensional ubyte file; every label must be < max_label.
 * *labels is malloc'd, caller frees. */
int idx_load_labels(const char *path, int **labels, int *n, int max_label, Err *e);

#endif
