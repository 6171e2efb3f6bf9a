/* haar.h - the 2-D Haar wavelet transform and the choice of the most
 * significant coefficients by column-pivoted QR (the paper's MNIST features). */
#ifndef CONDNET_HAAR_H
#define CONDNET_HAAR_H

#include "base/err.h"

/* Orthonormal 2-D Haar transform of an n×n image (n a power of 2), full
 * depth, pyramid ordering (rows then columns at each level: GSL's
 * non-standard form). in and out may alias. 0, or -1 with a message and out
 * untouched when n is not a power of 2 or memory runs out. */
int haar2d(const double *in, double *out, int n, Err *e);
/* Its inverse (exact up to rounding); the same returns. */
int haar2d_inverse(const double *in, double *out, int n, Err *e);

/* Pads a rows×cols byte image with zeros to n×n (n >= rows, cols), scales
 * bytes to [0, 1] and transforms it: out has n*n coefficients. 0, or -1
 * with a message when n is not a power of 2 or memory runs out (out is
 * then no transform). */
int haar_image(const unsigned char *img, int rows, int cols, int n, double *out, Err *e);

/* Chooses k columns of the rows×cols matrix A (row-major) in the order a
 * column-pivoted QR of A would pivot them. Computed without forming Q: a
 * pivoted Cholesky factorization of the Gram matrix G = AᵀA (cols×cols)
 * gives the same pivots as QR with column pivoting on A, since the squared
 * column norms QR updates are the diagonal of the Schur complement of G.
 * For MNIST this is a 1024×1024 Gram matrix instead of a 60000×1024 QR.
 * idx receives the k chosen column indices in pivot order. */
int haar_select(const double *A, long rows, int cols, int k, int *idx, Err *e);

/* The same on a precomputed Gram matrix G (cols×cols, overwritten). */
int haar_select_gram(double *G, int cols, int k, int *idx, Err *e);

/* The n² coefficient indices of an n×n pyramid (n a power of 2), coarsest
 * first: the DC coefficient, then level by level from the coarsest (the
 * L×L bands right of, below and diagonal to the L×L approximation block, for
 * L = 1, 2, …, n/2); within a level by position in the band, row by row, and
 * at each position the band to the right, the one below, the diagonal one.
 * Every coefficient's basis function has a support at least as large as the
 * next one's. 0, or -1 when n is not a power of 2. */
int haar_coarse_order(int n, int *order);

/* The k indices of the largest of var[0..cols), largest first, equal values
 * in increasing index order (the coefficients of largest variance). */
int haar_select_variance(const double *var, int cols, int k, int *idx, Err *e);

#endif
