/* cond_bidiag.h - singular values of a bidiagonal matrix, the last step of
 * the conditioning module's values-only SVD (no GSL here). */
#ifndef CONDNET_COND_BIDIAG_H
#define CONDNET_COND_BIDIAG_H

/* Singular values of the upper bidiagonal B (diagonal d[0..n), superdiagonal
 * f[0..n-1), both destroyed) into d, unordered; non-zero if it fails to
 * converge. */
int cond_bidiag_sv(double *d, double *f, int n);

#endif
