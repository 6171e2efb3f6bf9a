/* cond_matrix_int.h - what the files of the decompositions share (not a
 * public interface): cond_matrix.c checks the matrices and picks the path,
 * cond_matrix_gsl.c and cond_matrix_lapack.c compute on it. */
#ifndef CONDNET_COND_MATRIX_INT_H
#define CONDNET_COND_MATRIX_INT_H

#include <float.h>
#include <stddef.h>

#include <gsl/gsl_matrix.h>

#include "base/err.h"
#include "base/signals.h"
#include "engine/cond_matrix.h"
#include "engine/hook.h"

/* Decompositions of at least this much work (min(r, c)²·max(r, c), about
 * 0.1 s) run where a stop can leave them (base/offload.h); smaller ones,
 * done sooner than a stop is noticed, on the calling thread. */
#define COND_OFFLOAD_WORK 1.5e8

/* What stops a decomposition: the calling thread's stop, or a stop signal
 * (SIGINT, SIGTERM, …) the command took as a request to stop. */
static inline int cond_stop_asked(void *ud)
{
	(void)ud;
	return hook_thread_stopped() || signals_stop();
}

/* Singular values at most big·ε·σ₁ are rounding: set to 0. */
static inline void cond_zero_rounding(double *sv, size_t k, int big)
{
	double tol = big * DBL_EPSILON * sv[0];
	for (size_t j = 0; j < k; j++)
		if (sv[j] <= tol)
			sv[j] = 0.0;
}

/* ---- GSL's path (cond_matrix_gsl.c) ---- */

/* GSL's error handler off (once). */
void cond_gsl_init(void);
/* Copies the row-major A (or its transpose) into a new GSL matrix. */
gsl_matrix *cond_gsl_matrix(const double *A, int rows, int cols, int transpose);

/* A decomposition of a matrix already copied into M (which it consumes):
 * its singular values, its pivoted QR, or both (M tall); rows × cols name
 * the matrix in messages, big its longer side. */
typedef struct CondDecomp {
	gsl_matrix *M;
	int rows, cols, big, want_sv, want_qr;
	double *sv, *rdiag, *R; /* the results: the caller's, or the job's own */
	int *perm;
	int own; /* the results are the job's (freed with it) */
	int rc;
	Err e;
} CondDecomp;
/* Runs in (its M and the sizes set) into the caller's sv, perm, rdiag and R
 * (the pivoted QR's leading k×k block, may be NULL): a large one on a
 * thread of its own, so that a stop (cond_stop_asked) is answered at once
 * and the decomposition left to end alone with its own copies of the
 * results. */
int cond_gsl_decompose(const CondDecomp *in, double *sv, int *perm, double *rdiag, double *R,
                       Err *e);
/* cond_qrpt_combine on GSL's path, A checked. */
int cond_gsl_qrpt_combine(const double *A, int rows, int cols, int nkeep, int *perm, double *coef,
                          double *resid, Err *e);
/* cond_lstsq_rcond on GSL's path, A and B checked. */
int cond_gsl_lstsq(const double *A, int rows, int cols, const double *B, int nrhs, double *X,
                   double rcond, int *rank, Err *e);

/* ---- LAPACK's path (cond_matrix_lapack.c) ---- */

/* The singular values of the row-major rows×cols A, and of the column-major
 * m×n B (m ≥ n; destroyed), a rows×cols matrix in messages. */
int cond_lapack_sv(const double *A, int rows, int cols, double *sv, Err *e);
int cond_lapack_sv_colmajor(double *B, int m, int n, double *sv, int rows, int cols, Err *e);
/* dgeqp3 on the row-major A: perm, rdiag, and R's leading k×k block. */
int cond_lapack_qrpt(const double *A, int rows, int cols, int *perm, double *rdiag, double *R,
                     Err *e);

#endif
