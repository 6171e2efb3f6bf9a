/* cond_test.h - what the tests of the conditioning share (test_cond.c,
 * test_cond_matrix.c): random numbers of their own (xorshift, the same on
 * every machine), matrices of a spectrum chosen (no GSL in the references)
 * and κ as a number. */
#ifndef CONDNET_COND_TEST_H
#define CONDNET_COND_TEST_H

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "engine/cond.h"
#include "engine/cond_matrix.h"
#include "testutil.h"

#define EPS DBL_EPSILON

static uint64_t seed = 88172645463325252ULL;

static inline double urand(void)
{
	return tu_xorshift(&seed) - 0.5;
}

/* Q (n×k, row-major) with orthonormal columns: Gram-Schmidt, twice. */
static inline void orthonormal(double *Q, int n, int k)
{
	for (int i = 0; i < n * k; i++)
		Q[i] = urand();
	for (int j = 0; j < k; j++) {
		for (int pass = 0; pass < 2; pass++) {
			for (int l = 0; l < j; l++) {
				double d = 0;
				for (int i = 0; i < n; i++)
					d += Q[i * k + j] * Q[i * k + l];
				for (int i = 0; i < n; i++)
					Q[i * k + j] -= d * Q[i * k + l];
			}
		}
		double s = 0;
		for (int i = 0; i < n; i++)
			s += Q[i * k + j] * Q[i * k + j];
		for (int i = 0; i < n; i++)
			Q[i * k + j] /= sqrt(s);
	}
}

/* A (r×c) = U diag(d) Vᵀ with U r×k, V c×k orthonormal, k = min(r, c). */
static inline double *with_spectrum(int r, int c, const double *d)
{
	int k = r < c ? r : c;
	double *U = malloc(sizeof *U * r * k), *V = malloc(sizeof *V * c * k);
	double *A = calloc((size_t)r * c, sizeof *A);
	orthonormal(U, r, k);
	orthonormal(V, c, k);
	for (int i = 0; i < r; i++)
		for (int j = 0; j < c; j++)
			for (int l = 0; l < k; l++)
				A[i * c + j] += U[i * k + l] * d[l] * V[j * k + l];
	free(U);
	free(V);
	return A;
}

/* cond_kappa's value, NaN when it fails. */
static inline double kappa_of(const double *A, int rows, int cols, Err *e)
{
	double k;
	return cond_kappa(A, rows, cols, &k, e) ? NAN : k;
}

#endif
