/* npy.h - NumPy .npy files (format versions 1.0-3.0), float32 or float64,
 * little-endian, C order. Labels are written as int32. */
#ifndef CONDNET_NPY_H
#define CONDNET_NPY_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

/* Reads a 1-D or 2-D array into a malloc'd double buffer (row-major). */
int npy_read(const char *path, double **data, int *ndim, long shape[2], Err *e);
/* The same for an array of 1 to 4 dimensions (a convolution's kernels). */
int npy_read_nd(const char *path, double **data, int *ndim, long shape[4], Err *e);
/* Writes a 1-D (cols < 0) or 2-D float32 array. */
int npy_write_f32(const char *path, const float *data, long rows, long cols, Err *e);
/* The same for an int32 array (class labels). */
int npy_write_i32(const char *path, const int32_t *data, long rows, long cols, Err *e);

/* The bytes of a .npy file of a 1-D (cols < 0) or 2-D float32 or int32
 * array, malloc'd, their count in *len. */
unsigned char *npy_encode_f32(const float *data, long rows, long cols, size_t *len, Err *e);
unsigned char *npy_encode_i32(const int32_t *data, long rows, long cols, size_t *len, Err *e);
/* A float32 array of nd (1 to 4) dimensions dims. */
unsigned char *npy_encode_f32_nd(const float *data, int nd, const long *dims, size_t *len, Err *e);

#endif
