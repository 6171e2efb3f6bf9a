/* test_cond.c - singular values, κ, pivoted QR and least squares on
 * matrices with known answers built here (no GSL in the references), on
 * GSL's path and on LAPACK's; the two paths against each other on a corpus
 * of layers; the blocks of R; LAPACK's path reporting and stopping; a stop
 * during a large decomposition is a stop (1), not a failure, on either path. */
#include <float.h>
#include <math.h>

#include <unistd.h>

#include "alg/alg3_squeeze.h"
#include "base/offload.h"
#include "engine/cond.h"
#include "engine/cond_matrix.h"
#include "engine/hook.h"
#include "engine/net.h"
#include "testutil.h"

#define EPS DBL_EPSILON

static unsigned long long seed = 88172645463325252ULL;

static double urand(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (double)(seed >> 11) / 9007199254740992.0 - 0.5;
}

/* Q (n×k, row-major) with orthonormal columns: Gram-Schmidt, twice. */
static void orthonormal(double *Q, int n, int k)
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
static double *with_spectrum(int r, int c, const double *d)
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

static void check_sv(const double *A, int r, int c, const double *d, double tol)
{
	int k = r < c ? r : c;
	double sv[16];
	Err e;
	ck_assert_int_eq(cond_singular_values(A, r, c, sv, &e), 0);
	for (int j = 0; j < k; j++)
		ck_assert_double_eq_tol(sv[j], d[j], tol * d[0]);
}

/* κ as text: 4 digits, up to 6 to keep κ off τ and on its side, never
 * more (the digits past the 6th differ between OpenBLAS's kernels). */
/* cond_kappa's value, NaN when it fails. */
static double kappa_of(const double *A, int rows, int cols, Err *e)
{
	double k;
	return cond_kappa(A, rows, cols, &k, e) ? NAN : k;
}

/* cond_kappa_columns's value, NaN when it fails. */
static double kappa_cols(const Net *net, int layer, const int *cols, int n, Err *e)
{
	double k;
	return cond_kappa_columns(net, layer, cols, n, &k, e) ? NAN : k;
}

START_TEST(kappa_text)
{
	char b[64];
	ck_assert_str_eq(cond_kappa_str(30.830797730967, 25, b, sizeof b), "30.83");
	ck_assert_str_eq(cond_kappa_str(30.830797730968, 25, b, sizeof b), "30.83");
	ck_assert_str_eq(cond_kappa_str(25.0004, 25, b, sizeof b), "25.0004");
	ck_assert_str_eq(cond_kappa_str(25.0000001, 25, b, sizeof b), "25.0001");
	ck_assert_str_eq(cond_kappa_str(24.9999999, 25, b, sizeof b), "24.9999");
	ck_assert_str_eq(cond_kappa_str(25, 25, b, sizeof b), "25");
	ck_assert_str_eq(cond_kappa_str(1234567.891, 25, b, sizeof b), "1.235e+06");
	ck_assert_str_eq(cond_kappa_str(1000.0000001, 1000, b, sizeof b), "1000.01");
	ck_assert_str_eq(cond_kappa_str(INFINITY, 25, b, sizeof b), "inf");
}
END_TEST

START_TEST(diagonal)
{
	/* 5×5 with the diagonal scattered by a permutation and signs */
	double A[25] = {0};
	A[0 * 5 + 3] = -2;
	A[1 * 5 + 0] = 5;
	A[2 * 5 + 4] = 1;
	A[3 * 5 + 1] = -4;
	A[4 * 5 + 2] = 3;
	double d[5] = {5, 4, 3, 2, 1};
	check_sv(A, 5, 5, d, 4 * EPS);
	Err e;
	ck_assert_double_eq_tol(kappa_of(A, 5, 5, &e), 5.0, 20 * EPS);
	/* the first 3 rows: wide 3×5, singular values 5, 2, 1 */
	double w[3] = {5, 2, 1};
	check_sv(A, 3, 5, w, 4 * EPS);
	ck_assert_double_eq_tol(kappa_of(A, 3, 5, &e), 5.0, 20 * EPS);
	/* a tall 7×3 diagonal */
	double T[21] = {0};
	T[0 * 3 + 0] = 0.5;
	T[3 * 3 + 1] = 8;
	T[6 * 3 + 2] = 2;
	double t[3] = {8, 2, 0.5};
	check_sv(T, 7, 3, t, 4 * EPS);
	ck_assert_double_eq_tol(kappa_of(T, 7, 3, &e), 16.0, 40 * EPS);
	/* a single column: its norm */
	double col[4] = {3, 0, -4, 0}, s;
	ck_assert_int_eq(cond_singular_values(col, 4, 1, &s, &e), 0);
	ck_assert_double_eq_tol(s, 5.0, 4 * EPS);
	ck_assert_double_eq_tol(kappa_of(col, 1, 4, &e), 1.0, 4 * EPS);
}
END_TEST

START_TEST(orthogonal_similarity)
{
	double d[8] = {10, 7, 5, 3, 2, 1, 0.5, 0.1};
	double *A = with_spectrum(8, 8, d);
	check_sv(A, 8, 8, d, 64 * EPS);
	Err e;
	ck_assert_double_eq_tol(kappa_of(A, 8, 8, &e), 100.0, 100.0 * 1e-12);
	free(A);
	/* tall and wide versions with the same spectrum */
	double *T = with_spectrum(13, 6, d), *W = with_spectrum(6, 13, d);
	check_sv(T, 13, 6, d, 64 * EPS);
	check_sv(W, 6, 13, d, 64 * EPS);
	ck_assert_double_eq_tol(kappa_of(T, 13, 6, &e), 10.0, 10.0 * 1e-12);
	free(T);
	free(W);
}
END_TEST

START_TEST(rank_deficient)
{
	double d[6] = {3, 2, 1, 0.5, 0, 0};
	double *A = with_spectrum(6, 6, d);
	double sv[6];
	Err e;
	ck_assert_int_eq(cond_singular_values(A, 6, 6, sv, &e), 0);
	ck_assert_double_eq(sv[4], 0.0);
	ck_assert_double_eq(sv[5], 0.0);
	ck_assert_double_eq_tol(sv[3], 0.5, 64 * EPS * 3);
	ck_assert(isinf(kappa_of(A, 6, 6, &e)));
	/* p through cond_set_tau: below 3/4 are 0.5, 0, 0; below 3/10 the zeros */
	LayerCond lc = {0};
	lc.nsv = 6;
	lc.sv = sv;
	double rd[6];
	int perm[6];
	ck_assert_int_eq(cond_qrpt(A, 6, 6, perm, rd, &e), 0);
	lc.rdiag = rd;
	cond_set_tau(&lc, 4);
	ck_assert_int_eq(lc.p, 3);
	ck_assert_int_eq(lc.rank_svd, 3);
	cond_set_tau(&lc, 10);
	ck_assert_int_eq(lc.p, 2);
	ck_assert_int_eq(lc.rank_svd, 4);
	free(A);
	/* a wide matrix of rank 2 */
	double d2[4] = {1, 1, 0, 0};
	double *W = with_spectrum(4, 9, d2);
	ck_assert(isinf(kappa_of(W, 4, 9, &e)));
	free(W);
	/* the zero matrix */
	double Z[6] = {0};
	ck_assert(isinf(kappa_of(Z, 3, 2, &e)));
}
END_TEST

START_TEST(svd_and_qr_ranks_agree)
{
	double d[7] = {4, 3, 2, 1.5, 1e-7, 1e-8, 1e-9};
	int shapes[3][2] = {{7, 7}, {11, 7}, {7, 12}};
	for (int s = 0; s < 3; s++) {
		int r = shapes[s][0], c = shapes[s][1], k = r < c ? r : c;
		double *A = with_spectrum(r, c, d);
		double sv[7], rd[7];
		int perm[12];
		Err e;
		ck_assert_int_eq(cond_singular_values(A, r, c, sv, &e), 0);
		ck_assert_int_eq(cond_qrpt(A, r, c, perm, rd, &e), 0);
		LayerCond lc = {.nsv = k, .sv = sv, .rdiag = rd};
		cond_set_tau(&lc, 1e3);
		ck_assert_int_eq(lc.rank_svd, 4);
		ck_assert_int_eq(lc.rank_qr, 4);
		ck_assert_double_eq(rd[0], 1.0);
		for (int j = 1; j < k; j++)
			ck_assert(rd[j] <= rd[j - 1] * (1 + 1e-12));
		free(A);
	}
}
END_TEST

/* Columns 0, 2, 4 orthogonal with norms 3, 2.5, 2; column 1 = 0.1·col0,
 * column 3 = 0.05·(col2 + col4): the pivots take 0, 2, 4 first. */
static void planted(double *A, int rows)
{
	double Q[8 * 3];
	orthonormal(Q, rows, 3);
	for (int i = 0; i < rows; i++) {
		A[i * 5 + 0] = 3 * Q[i * 3 + 0];
		A[i * 5 + 2] = 2.5 * Q[i * 3 + 1];
		A[i * 5 + 4] = 2 * Q[i * 3 + 2];
		A[i * 5 + 1] = 0.1 * A[i * 5 + 0];
		A[i * 5 + 3] = 0.05 * (A[i * 5 + 2] + A[i * 5 + 4]);
	}
}

START_TEST(qrpt_planted)
{
	for (int rows = 4; rows <= 8; rows += 4) {
		double A[8 * 5];
		planted(A, rows);
		int perm[5];
		double rd[5];
		Err e;
		ck_assert_int_eq(cond_qrpt(A, rows, 5, perm, rd, &e), 0);
		ck_assert_int_eq(perm[0], 0);
		ck_assert_int_eq(perm[1], 2);
		ck_assert_int_eq(perm[2], 4);
		ck_assert((perm[3] == 1 && perm[4] == 3) || (perm[3] == 3 && perm[4] == 1));
		ck_assert_double_eq_tol(rd[1], 2.5 / 3, 1e-14);
		ck_assert_double_eq_tol(rd[2], 2.0 / 3, 1e-14);
		ck_assert(rd[3] < 1e-14);
		ck_assert(isinf(kappa_of(A, rows, 5, &e)));
	}
}
END_TEST

static Net *small_net(void)
{
	int widths[3] = {3, 4, 2};
	Net *net = net_new(2, widths, ACT_TANH, 1.0f, NULL);
	ck_assert_ptr_nonnull(net);
	/* Ŵ⁽¹⁾ (4×4): 4 at (0,1), 3 at (1,3), 2 at (2,0), bias 1 at column 2 */
	net->W[0][0 * 4 + 1] = 4;
	net->W[0][1 * 4 + 3] = 3;
	net->W[0][2 * 4 + 0] = 2;
	net->b[0][2] = 1;
	for (int i = 0; i < 8; i++)
		net->W[1][i] = (float)(i + 1);
	net->b[1][0] = -1;
	net->b[1][1] = 0.5f;
	return net;
}

START_TEST(layer_on_net)
{
	Net *net = small_net();
	int rows, cols;
	double *A = cond_stacked(net, 2, NULL, 0, &rows, &cols, NULL);
	ck_assert_int_eq(rows, 5);
	ck_assert_int_eq(cols, 2);
	for (int i = 0; i < 8; i++)
		ck_assert_double_eq(A[i], i + 1);
	ck_assert_double_eq(A[8], -1);
	ck_assert_double_eq(A[9], 0.5);
	free(A);
	int sel[2] = {2, 0};
	A = cond_stacked(net, 1, sel, 2, &rows, &cols, NULL);
	ck_assert_int_eq(rows, 4);
	ck_assert_int_eq(cols, 2);
	double want[8] = {0, 0, 0, 0, 0, 2, 1, 0};
	for (int i = 0; i < 8; i++)
		ck_assert_double_eq(A[i], want[i]);
	free(A);

	LayerCond lc[2];
	Err e;
	ck_assert_int_eq(cond_net(net, 3, lc, &e), 0);
	ck_assert_int_eq(lc[0].layer, 1);
	ck_assert_int_eq(lc[0].rows, 4);
	ck_assert_int_eq(lc[0].cols, 4);
	ck_assert_int_eq(lc[0].nsv, 4);
	double sv[4] = {4, 3, 2, 1}, rd[4] = {1, 0.75, 0.5, 0.25};
	int perm[4] = {1, 3, 0, 2};
	for (int j = 0; j < 4; j++) {
		ck_assert_double_eq_tol(lc[0].sv[j], sv[j], 8 * EPS);
		ck_assert_double_eq_tol(lc[0].rdiag[j], rd[j], 8 * EPS);
		ck_assert_int_eq(lc[0].perm[j], perm[j]);
	}
	ck_assert_double_eq_tol(lc[0].kappa, 4, 32 * EPS);
	ck_assert_int_eq(lc[0].p, 1);
	ck_assert_int_eq(lc[0].rank_svd, 3);
	ck_assert_int_eq(lc[0].rank_qr, 3);
	cond_set_tau(&lc[0], 5);
	ck_assert_int_eq(lc[0].p, 0);
	ck_assert_int_eq(lc[0].rank_qr, 4);
	ck_assert_int_eq(lc[1].layer, 2);
	ck_assert_int_eq(lc[1].nsv, 2);
	ck_assert(lc[1].kappa > 1);
	cond_layer_free(&lc[0]);
	cond_layer_free(&lc[1]);

	int cols2[2] = {3, 1};
	ck_assert_double_eq_tol(kappa_cols(net, 1, cols2, 2, &e), 4.0 / 3, 16 * EPS);
	net_free(net);
}
END_TEST

/* The two rules every test of κ against τ and every check of τ ask: κ > τ
 * strictly (NaN is never over), τ finite and at least 1. */
START_TEST(rules_on_tau)
{
	ck_assert_int_eq(cond_over(25.0000001, 25), 1);
	ck_assert_int_eq(cond_over(25, 25), 0);
	ck_assert_int_eq(cond_over(3, 25), 0);
	ck_assert_int_eq(cond_over(INFINITY, 25), 1);
	ck_assert_int_eq(cond_over(NAN, 25), 0);
	Err e;
	ck_assert_int_eq(cond_check_tau(1, &e), 0);
	ck_assert_int_eq(cond_check_tau(1e12, &e), 0);
	ck_assert_int_eq(cond_check_tau(0.999, &e), -1);
	ck_assert_str_eq(e.msg, "τ = 0.999, expected a finite number ≥ 1");
	ck_assert_int_eq(cond_check_tau(INFINITY, &e), -1);
	ck_assert_int_eq(cond_check_tau(NAN, NULL), -1);
}
END_TEST

/* cond_net_new: a new array of every layer's conditioning, as cond_net
 * fills it (with or without the QR); its largest κ; a failure leaves no
 * array. */
START_TEST(net_new_and_max)
{
	Net *net = small_net();
	LayerCond all[2], *lc;
	Err e;
	ck_assert_int_eq(cond_net(net, 10, all, &e), 0);
	ck_assert_int_eq(cond_net_new(net, 10, 1, &lc, &e), 0);
	for (int i = 0; i < 2; i++) {
		ck_assert(lc[i].kappa == all[i].kappa);
		ck_assert_int_eq(lc[i].p, all[i].p);
		ck_assert_int_eq(lc[i].rank_qr, all[i].rank_qr);
		ck_assert_ptr_nonnull(lc[i].perm);
	}
	ck_assert(cond_max_kappa(lc, 2) == fmax(all[0].kappa, all[1].kappa));
	cond_net_free(lc, 2);
	ck_assert_int_eq(cond_net_new(net, 10, 0, &lc, &e), 0);
	ck_assert_ptr_null(lc[0].perm);
	ck_assert_int_eq(lc[1].rank_qr, -1);
	lc[0].kappa = NAN; /* an all-zero Ŵ counts as singular */
	ck_assert(isinf(cond_max_kappa(lc, 2)));
	ck_assert(cond_max_kappa(lc, 0) == 0);
	cond_net_free(lc, 2);
	cond_net_free(NULL, 2);
	ck_assert_int_eq(cond_net_new(net, 0.5, 0, &lc, &e), -1);
	ck_assert_ptr_null(lc);
	ck_assert_str_eq(e.msg, "τ = 0.5, expected a finite number ≥ 1");
	for (int i = 0; i < 2; i++)
		cond_layer_free(&all[i]);
	net_free(net);
}
END_TEST

START_TEST(layer_errors)
{
	Net *net = small_net();
	LayerCond lc;
	Err e;
	ck_assert_int_eq(cond_layer(net, 0, 10, &lc, &e), -1);
	ck_assert_str_eq(e.msg, "layer 0 does not exist (expected 1..2)");
	ck_assert_int_eq(cond_layer(net, 3, 10, &lc, &e), -1);
	ck_assert_str_eq(e.msg, "layer 3 does not exist (expected 1..2)");
	ck_assert_int_eq(cond_layer(net, 1, 0.5, &lc, &e), -1);
	ck_assert_str_eq(e.msg, "τ = 0.5, expected a finite number ≥ 1");
	int bad[1] = {4};
	ck_assert(isnan(kappa_cols(net, 1, bad, 1, &e)));
	ck_assert_str_eq(e.msg, "layer 1: column 4 is not a neuron (expected 0..3)");
	net->W[1][2 * 2 + 1] = NAN;
	LayerCond all[2];
	ck_assert_int_eq(cond_net(net, 10, all, &e), -1);
	ck_assert_str_eq(e.msg, "layer 2: Ŵ: matrix entry (2, 1) is nan, expected a finite number");
	net_free(net);
}
END_TEST

START_TEST(lstsq_exact)
{
	double A[6 * 3], X0[3 * 2], B[6 * 2] = {0}, X[3 * 2];
	for (int i = 0; i < 18; i++)
		A[i] = urand();
	for (int i = 0; i < 6; i++)
		X0[i] = urand() * 4;
	for (int i = 0; i < 6; i++)
		for (int j = 0; j < 2; j++)
			for (int l = 0; l < 3; l++)
				B[i * 2 + j] += A[i * 3 + l] * X0[l * 2 + j];
	Err e;
	ck_assert_int_eq(cond_lstsq(A, 6, 3, B, 2, X, &e), 0);
	for (int i = 0; i < 6; i++)
		ck_assert_double_eq_tol(X[i], X0[i], 1e-12);
	ck_assert_int_eq(cond_lstsq(A, 2, 3, B, 2, X, &e), -1);
	ck_assert_str_eq(e.msg, "least squares on a 2×3 matrix: expected rows ≥ columns");
	B[5] = INFINITY;
	ck_assert_int_eq(cond_lstsq(A, 6, 3, B, 2, X, &e), -1);
	ck_assert_str_eq(e.msg, "matrix entry (2, 1) is inf, expected a finite number");
}
END_TEST

START_TEST(lstsq_rank_deficient)
{
	/* column 2 = column 0 + column 1; b has a part outside the range */
	enum { R = 7, C = 3 };
	double A[R * C], b[R], x[C];
	for (int i = 0; i < R; i++) {
		A[i * C + 0] = urand();
		A[i * C + 1] = urand();
		A[i * C + 2] = A[i * C + 0] + A[i * C + 1];
		b[i] = urand();
	}
	int rank;
	Err e;
	ck_assert_int_eq(cond_lstsq_rcond(A, R, C, b, 1, x, COND_LSTSQ_RCOND, &rank, &e), 0);
	ck_assert_int_eq(rank, 2);
	ck_assert(x[0] == 0 || x[1] == 0 || x[2] == 0);
	/* minimal residual: Aᵀ(Ax − b) = 0 */
	double res[R];
	for (int i = 0; i < R; i++)
		res[i] = A[i * C] * x[0] + A[i * C + 1] * x[1] + A[i * C + 2] * x[2] - b[i];
	for (int j = 0; j < C; j++) {
		double g = 0;
		for (int i = 0; i < R; i++)
			g += A[i * C + j] * res[i];
		ck_assert_double_eq_tol(g, 0, 1e-13);
	}
	/* and it matches the fit on the two independent columns */
	double A2[R * 2], x2[2];
	for (int i = 0; i < R; i++) {
		A2[i * 2] = A[i * C];
		A2[i * 2 + 1] = A[i * C + 1];
	}
	ck_assert_int_eq(cond_lstsq(A2, R, 2, b, 1, x2, &e), 0);
	for (int i = 0; i < R; i++) {
		double y = A[i * C] * x[0] + A[i * C + 1] * x[1] + A[i * C + 2] * x[2];
		ck_assert_double_eq_tol(y, A2[i * 2] * x2[0] + A2[i * 2 + 1] * x2[1], 1e-13);
	}
	/* the zero matrix: rank 0, x = 0 */
	double Z[R * C] = {0};
	x[0] = 1;
	ck_assert_int_eq(cond_lstsq_rcond(Z, R, C, b, 1, x, COND_LSTSQ_RCOND, &rank, &e), 0);
	ck_assert_int_eq(rank, 0);
	ck_assert_double_eq(x[0], 0);
}
END_TEST

/* Larger spectra through the bidiagonal QR: graded over ten decades, all
 * equal, and clustered, each built as U diag(d) Vᵀ. */
START_TEST(bidiagonal_spectra)
{
	enum { K = 30 };
	double d[K], sv[K];
	Err e;
	for (int j = 0; j < K; j++)
		d[j] = pow(10.0, -j / 3.0);
	double *A = with_spectrum(45, K, d);
	ck_assert_int_eq(cond_singular_values(A, 45, K, sv, &e), 0);
	for (int j = 0; j < K; j++)
		ck_assert_double_eq_tol(sv[j], d[j], 64 * K * EPS * d[0]);
	ck_assert_double_eq_tol(sv[K - 1] / d[K - 1], 1.0, 1e-5);
	ck_assert_double_eq_tol(kappa_of(A, 45, K, &e) / (d[0] / d[K - 1]), 1.0, 1e-5);
	free(A);
	for (int j = 0; j < K; j++)
		d[j] = 2.0;
	A = with_spectrum(K, K, d);
	ck_assert_int_eq(cond_singular_values(A, K, K, sv, &e), 0);
	for (int j = 0; j < K; j++)
		ck_assert_double_eq_tol(sv[j], 2.0, 64 * K * EPS);
	free(A);
	for (int j = 0; j < K; j++)
		d[j] = j < 10 ? 1.0 : j < 20 ? 1e-3 : 1e-6;
	A = with_spectrum(K, 50, d);
	ck_assert_int_eq(cond_singular_values(A, K, 50, sv, &e), 0);
	for (int j = 0; j < K; j++)
		ck_assert_double_eq_tol(sv[j] / d[j], 1.0, 1e-6);
	free(A);
}
END_TEST

/* Wide (6×9), tall (10×4, 5×4) and small (5×2) Ŵ with random entries; the
 * third layer's last column repeats its first, so κ = ∞ there. */
static Net *mixed_net(void)
{
	int widths[5] = {5, 9, 4, 4, 2};
	Net *net = net_new(4, widths, ACT_ERF, 1.0f, NULL);
	ck_assert_ptr_nonnull(net);
	for (size_t i = 0; i < net->nparam; i++)
		net->param[i] = (float)urand();
	for (int r = 0; r < 4; r++)
		net->W[2][r * 4 + 3] = net->W[2][r * 4 + 0];
	net->b[2][3] = net->b[2][0];
	return net;
}

static void assert_same_values(const LayerCond *a, const LayerCond *b)
{
	ck_assert_int_eq(a->layer, b->layer);
	ck_assert_int_eq(a->rows, b->rows);
	ck_assert_int_eq(a->cols, b->cols);
	ck_assert_int_eq(a->nsv, b->nsv);
	ck_assert_mem_eq(a->sv, b->sv, (size_t)a->nsv * sizeof *a->sv);
	ck_assert_mem_eq(&a->kappa, &b->kappa, sizeof a->kappa);
	ck_assert_int_eq(a->p, b->p);
	ck_assert_int_eq(a->rank_svd, b->rank_svd);
}

START_TEST(values_only_equals_full)
{
	Net *net = mixed_net();
	LayerCond full[4], val[4];
	Err e;
	ck_assert_int_eq(cond_net(net, 10, full, &e), 0);
	ck_assert_int_eq(cond_net_values(net, 10, val, &e), 0);
	for (int i = 0; i < 4; i++) {
		assert_same_values(&full[i], &val[i]);
		ck_assert_ptr_null(val[i].perm);
		ck_assert_ptr_null(val[i].rdiag);
		ck_assert_int_eq(val[i].rank_qr, -1);
		ck_assert_int_ge(full[i].rank_qr, 0);
		/* the full path's shared triangle gives what the two public calls give */
		int rows, cols;
		double *A = cond_stacked(net, i + 1, NULL, 0, &rows, &cols, &e);
		double sv[9], rd[9];
		int perm[9];
		ck_assert_int_eq(cond_singular_values(A, rows, cols, sv, &e), 0);
		ck_assert_int_eq(cond_qrpt(A, rows, cols, perm, rd, &e), 0);
		ck_assert_mem_eq(sv, full[i].sv, (size_t)full[i].nsv * sizeof *sv);
		ck_assert_mem_eq(rd, full[i].rdiag, (size_t)full[i].nsv * sizeof *rd);
		ck_assert_mem_eq(perm, full[i].perm, (size_t)cols * sizeof *perm);
		free(A);
		LayerCond one;
		ck_assert_int_eq(cond_layer_values(net, i + 1, 10, &one, &e), 0);
		assert_same_values(&one, &val[i]);
		cond_layer_free(&one);
	}
	ck_assert(isinf(val[2].kappa));
	ck_assert_int_ge(val[2].p, 1);
	/* τ changes p without a QR to count from */
	cond_set_tau(&val[1], 1.0);
	ck_assert_int_eq(val[1].p, 3);
	ck_assert_int_eq(val[1].rank_qr, -1);
	cond_set_tau(&val[1], 1e300);
	ck_assert_int_eq(val[1].p, 0);
	for (int i = 0; i < 4; i++) {
		cond_layer_free(&full[i]);
		cond_layer_free(&val[i]);
	}
	net_free(net);
}
END_TEST

START_TEST(threads_do_not_change_results)
{
	Net *net = mixed_net();
	LayerCond ref[4], lc[4];
	Err e;
	cond_set_threads(1);
	ck_assert_int_eq(cond_net(net, 10, ref, &e), 0);
	int counts[3] = {2, 3, 0};
	for (int k = 0; k < 3; k++) {
		cond_set_threads(counts[k]);
		ck_assert_int_eq(cond_net(net, 10, lc, &e), 0);
		for (int i = 0; i < 4; i++) {
			assert_same_values(&ref[i], &lc[i]);
			ck_assert_mem_eq(ref[i].perm, lc[i].perm, (size_t)lc[i].cols * sizeof(int));
			ck_assert_mem_eq(ref[i].rdiag, lc[i].rdiag,
			                 (size_t)lc[i].nsv * sizeof(double));
			ck_assert_int_eq(ref[i].rank_qr, lc[i].rank_qr);
			cond_layer_free(&lc[i]);
		}
	}
	cond_set_threads(0);
	for (int i = 0; i < 4; i++)
		cond_layer_free(&ref[i]);
	net_free(net);
}
END_TEST

START_TEST(net_errors_name_the_lowest_layer)
{
	Net *net = mixed_net();
	LayerCond lc[4];
	Err e;
	cond_set_threads(3);
	net->W[2][1 * 4 + 2] = NAN;
	ck_assert_int_eq(cond_net_values(net, 10, lc, &e), -1);
	ck_assert_str_eq(e.msg, "layer 3: Ŵ: matrix entry (1, 2) is nan, expected a finite number");
	for (int i = 0; i < 4; i++) {
		ck_assert_ptr_null(lc[i].sv);
		ck_assert_ptr_null(lc[i].perm);
	}
	net->b[1][3] = INFINITY;
	ck_assert_int_eq(cond_net(net, 10, lc, &e), -1);
	ck_assert_str_eq(e.msg, "layer 2: Ŵ: matrix entry (9, 3) is inf, expected a finite number");
	for (int i = 0; i < 4; i++)
		ck_assert_ptr_null(lc[i].sv);
	ck_assert_int_eq(cond_net_values(net, 0.5, lc, &e), -1);
	ck_assert_str_eq(e.msg, "τ = 0.5, expected a finite number ≥ 1");
	cond_set_threads(0);
	net_free(net);
}
END_TEST

/* ---- the two paths ---- */

START_TEST(path_choice)
{
	CondPath p = COND_PATH_AUTO;
	Err e;
	ck_assert_int_eq(cond_get_path(), COND_PATH_AUTO);
	ck_assert_int_eq(cond_path_for(255, 4000), COND_PATH_GSL);
	ck_assert_int_eq(cond_path_for(4000, 255), COND_PATH_GSL);
	ck_assert_int_eq(cond_path_for(257, COND_LAPACK_MIN), COND_PATH_LAPACK);
	ck_assert_int_eq(cond_path_for(COND_LAPACK_MIN, 300), COND_PATH_LAPACK);
	cond_set_path(COND_PATH_GSL);
	ck_assert_int_eq(cond_path_for(3000, 3000), COND_PATH_GSL);
	cond_set_path(COND_PATH_LAPACK);
	ck_assert_int_eq(cond_path_for(2, 3), COND_PATH_LAPACK);
	cond_set_path(COND_PATH_AUTO);
	const char *names[] = {"auto", "gsl", "lapack"};
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(cond_path_parse(names[i], &p, &e), 0);
		ck_assert_int_eq(p, i);
		ck_assert_str_eq(cond_path_name(p), names[i]);
	}
	ck_assert_int_eq(cond_path_parse("LAPACK", &p, &e), -1);
	ck_assert_str_eq(e.msg,
	                 "unknown decomposition path 'LAPACK' (expected auto, gsl or lapack)");
}
END_TEST

/* r×c Gaussian entries, column j scaled by 2^(spread·u_j), u_j in [-1, 1). */
static double *gaussian(int r, int c, double spread)
{
	double *A = malloc(sizeof *A * (size_t)r * c);
	for (int j = 0; j < c; j++) {
		double s = pow(2.0, spread * 2 * urand());
		for (int i = 0; i < r; i++)
			A[(size_t)i * c + j] = s * (urand() + urand() + urand());
	}
	return A;
}

/* The layers both paths are held to: random ones of the shapes networks
 * have (tall, square, wide, a layer below and above LAPACK's blocks of 128,
 * columns of spread scales) and spectra planted over 1 to 4 decades. */
typedef struct Case {
	int r, c;
	double *A;
} Case;

static int corpus(Case *cs)
{
	static const int shapes[][2] = {{301, 300}, {300, 301}, {513, 200}, {200, 513},
	                                {129, 128}, {150, 60},  {61, 60},   {257, 256}};
	int n = 0;
	for (int i = 0; i < 8; i++, n++)
		cs[n] = (Case){shapes[i][0], shapes[i][1],
		               gaussian(shapes[i][0], shapes[i][1], (i % 3) * 1.5)};
	static const double decades[] = {1, 2, 3, 4};
	for (int i = 0; i < 4; i++, n++) {
		int r = 181 + 10 * i, c = 170;
		double d[170];
		for (int j = 0; j < c; j++)
			d[j] = pow(10.0, -decades[i] * j / (c - 1));
		cs[n] = (Case){r, c, with_spectrum(r, c, d)};
	}
	return n;
}

/* κ to 1e-10 relative, every σ_j to 1e-12·σ₁, the same pivot order, and
 * the same neurons kept by a squeeze at τ = 5, 25 and 100 (on the layer as
 * a network's Ŵ). */
START_TEST(paths_agree)
{
	Case cs[16];
	int n = corpus(cs);
	Err e;
	for (int i = 0; i < n; i++) {
		int r = cs[i].r, c = cs[i].c, k = r < c ? r : c;
		double *sv[2], *rd[2];
		int *perm[2];
		for (int p = 0; p < 2; p++) {
			cond_set_path(p ? COND_PATH_LAPACK : COND_PATH_GSL);
			sv[p] = malloc(sizeof(double) * k);
			rd[p] = malloc(sizeof(double) * k);
			perm[p] = malloc(sizeof(int) * c);
			ck_assert_int_eq(cond_sv_qrpt(cs[i].A, r, c, sv[p], perm[p], rd[p], &e), 0);
		}
		double k0 = cond_kappa_sv(sv[0], k), k1 = cond_kappa_sv(sv[1], k);
		ck_assert_msg(fabs(k1 - k0) <= 1e-10 * k0,
		              "%d×%d: κ %.17g on GSL's, %.17g on LAPACK's", r, c, k0, k1);
		for (int j = 0; j < k; j++)
			ck_assert_msg(fabs(sv[1][j] - sv[0][j]) <= 1e-12 * sv[0][0], "%d×%d: σ_%d",
			              r, c, j + 1);
		ck_assert_msg(!memcmp(perm[0], perm[1], sizeof(int) * c),
		              "%d×%d: pivot orders differ", r, c);
		for (int j = 0; j < k; j++)
			ck_assert(fabs(rd[1][j] - rd[0][j]) <= 1e-10);
		for (int p = 0; p < 2; p++) {
			free(sv[p]);
			free(rd[p]);
			free(perm[p]);
		}
		/* the same matrix as a layer: Ŵ is W over a bias row, in floats */
		int w[3] = {r - 1, c, 2};
		Net *net = net_new(2, w, ACT_ERF, 1.0f, NULL);
		ck_assert_ptr_nonnull(net);
		for (int a = 0; a < r - 1; a++)
			for (int b = 0; b < c; b++)
				net->W[0][a * c + b] = (float)cs[i].A[(size_t)a * c + b];
		for (int b = 0; b < c; b++)
			net->b[0][b] = (float)cs[i].A[(size_t)(r - 1) * c + b];
		static const double taus[] = {5, 25, 100};
		for (int t = 0; t < 3; t++) {
			Alg3Opts o;
			alg3_opts_default(&o);
			o.tau = taus[t];
			Alg3Proposal sp[2];
			for (int p = 0; p < 2; p++) {
				cond_set_path(p ? COND_PATH_LAPACK : COND_PATH_GSL);
				ck_assert_msg(alg3_propose(net, 1, &o, &sp[p], &e) == 0, "%s",
				              e.msg);
			}
			ck_assert_int_eq(sp[0].nkeep, sp[1].nkeep);
			ck_assert_int_eq(sp[0].p_qr, sp[1].p_qr);
			ck_assert_mem_eq(sp[0].keep, sp[1].keep, sizeof(int) * (size_t)sp[0].nkeep);
			ck_assert(fabs(sp[0].kappa_after - sp[1].kappa_after) <=
			          1e-10 * sp[0].kappa_after);
			alg3_proposal_free(&sp[0]);
			alg3_proposal_free(&sp[1]);
		}
		net_free(net);
		free(cs[i].A);
	}
	/* The near-tie the paths may break apart: neurons 1 and 2 mirror each
	 * other (entries swapped in two rows), so once neuron 0 is taken their
	 * remaining norms are equal in exact arithmetic and differ only by each
	 * path's rounding; the one taken second leaves the other below 1/τ. Both
	 * keep two neurons, neuron 0 and either of the pair. */
	int w[3] = {3, 3, 2};
	Net *tie = net_new(2, w, ACT_ERF, 1.0f, NULL);
	const float Wt[9] = {8, 0.3f, 0.3f, 1, 1, 1.001f, 1, 1.001f, 1};
	const float bt[3] = {0.5f, 0.2f, 0.2f};
	memcpy(tie->W[0], Wt, sizeof Wt);
	memcpy(tie->b[0], bt, sizeof bt);
	for (int p = 0; p < 2; p++) {
		cond_set_path(p ? COND_PATH_LAPACK : COND_PATH_GSL);
		Alg3Opts o;
		alg3_opts_default(&o);
		Alg3Proposal sp;
		ck_assert_msg(alg3_propose(tie, 1, &o, &sp, &e) == 0, "%s", e.msg);
		ck_assert_int_eq(sp.p_qr, 2);
		ck_assert_int_eq(sp.nkeep, 2);
		ck_assert_int_eq(sp.keep[0], 0);
		ck_assert(sp.keep[1] == 1 || sp.keep[1] == 2);
		alg3_proposal_free(&sp);
	}
	net_free(tie);
	cond_set_path(COND_PATH_AUTO);
}
END_TEST

/* R's leading q×q block has the σ's of the first q pivoted columns. */
START_TEST(kappa_of_the_triangle)
{
	static const int shapes[][2] = {{40, 30}, {30, 40}, {300, 290}};
	Err e;
	for (int p = 0; p < 2; p++) {
		cond_set_path(p ? COND_PATH_LAPACK : COND_PATH_GSL);
		for (int i = 0; i < 3; i++) {
			int r = shapes[i][0], c = shapes[i][1], k = r < c ? r : c;
			double *A = gaussian(r, c, 1.0), *R = malloc(sizeof(double) * k * k),
			       *rd = malloc(sizeof(double) * k),
			       *S = malloc(sizeof(double) * r * k);
			int *perm = malloc(sizeof(int) * c);
			ck_assert_int_eq(cond_qrpt_r(A, r, c, perm, rd, R, &e), 0);
			for (int j = 0; j < k; j++) {
				ck_assert_double_eq_tol(fabs(R[j * k + j]) / fabs(R[0]), rd[j],
				                        1e-15);
				for (int l = 0; l < j; l++)
					ck_assert_double_eq(R[j * k + l], 0.0);
			}
			int qs[] = {1, 2, k / 2, k - 1, k};
			for (int t = 0; t < 5; t++) {
				int q = qs[t];
				for (int a = 0; a < r; a++)
					for (int b = 0; b < q; b++)
						S[(size_t)a * q + b] = A[(size_t)a * c + perm[b]];
				double s1 = 0, kt, s1c = 0, kc;
				ck_assert_int_eq(cond_kappa_triangle(R, k, q, r, &kt, &s1, &e), 0);
				ck_assert_int_eq(cond_kappa_s1(S, r, q, &kc, &s1c, &e), 0);
				ck_assert_msg(fabs(kt - kc) <= 1e-11 * kc,
				              "%d×%d, q = %d: %.17g, %.17g", r, c, q, kt, kc);
				ck_assert(fabs(s1 - s1c) <= 1e-13 * s1c);
			}
			free(A);
			free(R);
			free(rd);
			free(S);
			free(perm);
		}
	}
	cond_set_path(COND_PATH_AUTO);
	double bad[4] = {1, 2, 0, 3};
	double kb = 0;
	ck_assert_int_eq(cond_kappa_triangle(bad, 2, 3, 2, &kb, NULL, &e), -1);
	ck_assert(isnan(kb));
}
END_TEST

START_TEST(gram_counts)
{
	/* σ_min of the leading blocks of diag(5, 4, 3, 2, 1) with a coupling */
	double R[25] = {0};
	for (int j = 0; j < 5; j++)
		R[j * 5 + j] = 5 - j;
	Err e;
	CondGram *g = cond_gram_new(R, 5, 5, &e);
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(cond_gram_smin_count(g, 5, 2.5), 3);
	ck_assert_int_eq(cond_gram_smin_count(g, 5, 0.5), 5);
	ck_assert_int_eq(cond_gram_smin_count(g, 2, 0.5), 2);
	ck_assert_int_eq(cond_gram_smin_count(g, 5, 6), 0);
	cond_gram_free(g);
	/* a random triangle: against the σ's of its blocks */
	double *A = gaussian(60, 50, 1.0), *T = malloc(sizeof(double) * 2500), rd[50];
	int perm[50];
	ck_assert_int_eq(cond_qrpt_r(A, 60, 50, perm, rd, T, &e), 0);
	g = cond_gram_new(T, 50, 50, &e);
	for (int q = 1; q <= 50; q += 7) {
		double sv[50];
		double *B = malloc(sizeof(double) * q * q);
		for (int a = 0; a < q; a++)
			for (int b = 0; b < q; b++)
				B[a * q + b] = T[a * 50 + b];
		ck_assert_int_eq(cond_singular_values(B, q, q, sv, &e), 0);
		free(B);
		ck_assert_int_ge(cond_gram_smin_count(g, 50, sv[q - 1] * 0.999), q);
	}
	cond_gram_free(g);
	free(A);
	free(T);
}
END_TEST

static int ticks, stop_after;
static double fracs[4096];

static void meter(const char *what, double frac, void *ud)
{
	(void)what;
	(void)ud;
	if (ticks < 4096)
		fracs[ticks] = frac;
	ticks++;
}

static int stop_late(void *ud)
{
	(void)ud;
	return stop_after >= 0 && ticks >= stop_after;
}

/* LAPACK's path reports its blocks, never going back, and stops within one
 * when asked; cond_net names the layer it stopped in. */
START_TEST(lapack_blocks_report_and_stop)
{
	cond_set_path(COND_PATH_LAPACK);
	double *A = gaussian(301, 300, 0.5), sv[300], rd[300];
	int perm[300];
	Err e;
	hook_set_thread_meter(meter, NULL);
	hook_set_thread_stop(stop_late, NULL);
	stop_after = -1;
	int fns = 3;
	for (int f = 0; f < fns; f++) {
		ticks = 0;
		int rc = f == 0   ? cond_singular_values(A, 301, 300, sv, &e)
		         : f == 1 ? cond_singular_values(A, 300, 301 - 1, sv, &e)
		                  : cond_qrpt(A, 301, 300, perm, rd, &e);
		ck_assert_int_eq(rc, 0);
		ck_assert_int_ge(ticks, 4);
		for (int t = 1; t < ticks && t < 4096; t++)
			ck_assert(fracs[t] >= fracs[t - 1] && fracs[t] <= 1);
	}
	/* asked to stop after two blocks: it stops (1, not a failure), and says so */
	for (int f = 0; f < 3; f++) {
		ticks = 0;
		stop_after = 2;
		double k = 0;
		int rc = f == 2   ? cond_kappa(A, 301, 300, &k, &e)
		         : f == 1 ? cond_qrpt(A, 301, 300, perm, rd, &e)
		                  : cond_singular_values(A, 301, 300, sv, &e);
		ck_assert_int_eq(rc, 1);
		ck_assert_str_eq(e.msg, "stopped during the decomposition of a 301×300 matrix");
		ck_assert_int_eq(ticks, 2);
		if (f == 2)
			ck_assert(isnan(k));
	}
	/* a network of two such layers: the whole's share, then the stop */
	int w[3] = {300, 300, 300};
	Net *net = net_new(2, w, ACT_ERF, 1.0f, NULL);
	for (size_t i = 0; i < net->nparam; i++)
		net->param[i] = (float)urand();
	LayerCond lc[2];
	ticks = 0;
	stop_after = -1;
	ck_assert_int_eq(cond_net(net, 25, lc, &e), 0);
	ck_assert_int_ge(ticks, 8);
	cond_layer_free(&lc[0]);
	cond_layer_free(&lc[1]);
	ticks = 0;
	stop_after = 3;
	ck_assert_int_eq(cond_net_values(net, 25, lc, &e), 1);
	ck_assert_msg(!strcmp(e.msg, "layer 1: Ŵ: stopped during the decomposition of a 301×300 "
	                             "matrix") ||
	                  !strcmp(e.msg, "layer 2: Ŵ: stopped during the decomposition of a "
	                                 "301×300 matrix"),
	              "%s", e.msg);
	/* one layer, and κ of its columns: the layer named */
	LayerCond one;
	ticks = 0;
	ck_assert_int_eq(cond_layer(net, 2, 25, &one, &e), 1);
	ck_assert_str_eq(e.msg, "layer 2: Ŵ: stopped during the decomposition of a 301×300 matrix");
	ck_assert_ptr_null(one.sv);
	int cols[300];
	for (int j = 0; j < 300; j++)
		cols[j] = j;
	double kc = 0;
	ticks = 0;
	ck_assert_int_eq(cond_kappa_columns(net, 1, cols, 300, &kc, &e), 1);
	ck_assert_str_eq(e.msg, "layer 1: Ŵ: stopped during the decomposition of a 301×300 matrix");
	ck_assert(isnan(kc));
	hook_set_thread_meter(NULL, NULL);
	hook_set_thread_stop(NULL, NULL);
	net_free(net);
	free(A);
	cond_set_path(COND_PATH_AUTO);
}
END_TEST

static void on_lapack(void)
{
	cond_set_path(COND_PATH_LAPACK);
}

static void back_to_auto(void)
{
	cond_set_path(COND_PATH_AUTO);
}

/* A stop that says stop from its second question on: the conditioning asks
 * it before each layer, the decomposition while it waits. */
static int asked;
static int stop_second(void *ud)
{
	(void)ud;
	return ++asked >= 2;
}

/* Waits for decompositions left to end alone (they free what they hold). */
static void wait_left(void)
{
	for (int i = 0; offload_left() > 0 && i < 60000; i++)
		usleep(1000);
	ck_assert_int_eq(offload_left(), 0);
}

START_TEST(stop_during_decomposition)
{
	/* a 600 × 600 Ŵ: large enough to run where a stop can leave it (GSL's
	 * path), or to ask between LAPACK's blocks */
	CondPath path[] = {COND_PATH_GSL, COND_PATH_LAPACK};
	cond_set_path(path[_i]);
	int widths[2] = {599, 600};
	Net *net = net_new(1, widths, ACT_TANH, 1.0f, NULL);
	ck_assert_ptr_nonnull(net);
	for (size_t i = 0; i < net->nparam; i++)
		net->param[i] = (float)urand();
	int rows, cols;
	double *A = cond_stacked(net, 1, NULL, 0, &rows, &cols, NULL);
	double *sv = malloc(600 * sizeof *sv);
	Err e;
	asked = 1; /* every question says stop */
	hook_set_thread_stop(stop_second, NULL);
	ck_assert_int_eq(cond_singular_values(A, rows, cols, sv, &e), 1);
	ck_assert_str_eq(e.msg, "stopped during the decomposition of a 600×600 matrix");
	/* in a network's conditioning: stopped in the layer, not failed */
	asked = 0;
	LayerCond *lc;
	cond_set_threads(1);
	ck_assert_int_eq(cond_net_new(net, 10, 0, &lc, &e), 1);
	ck_assert_ptr_null(lc);
	ck_assert_str_eq(e.msg, "layer 1: Ŵ: stopped during the decomposition of a 600×600 matrix");
	asked = 1;
	LayerCond one;
	ck_assert_int_eq(cond_layer(net, 1, 10, &one, &e), 1);
	ck_assert_ptr_null(one.sv);
	hook_set_thread_stop(NULL, NULL);
	cond_set_threads(0);
	cond_set_path(COND_PATH_AUTO);
	wait_left();
	free(sv);
	free(A);
	net_free(net);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cond");
	TCase *t = tcase_create("cond");
	tcase_add_test(t, kappa_text);
	tcase_add_test(t, diagonal);
	tcase_add_test(t, orthogonal_similarity);
	tcase_add_test(t, rank_deficient);
	tcase_add_test(t, svd_and_qr_ranks_agree);
	tcase_add_test(t, qrpt_planted);
	tcase_add_test(t, layer_on_net);
	tcase_add_test(t, rules_on_tau);
	tcase_add_test(t, net_new_and_max);
	tcase_add_test(t, layer_errors);
	tcase_add_test(t, lstsq_exact);
	tcase_add_test(t, lstsq_rank_deficient);
	tcase_add_test(t, bidiagonal_spectra);
	tcase_add_test(t, values_only_equals_full);
	tcase_add_test(t, threads_do_not_change_results);
	tcase_add_test(t, net_errors_name_the_lowest_layer);
	tcase_add_test(t, path_choice);
	tcase_add_test(t, paths_agree);
	tcase_add_test(t, kappa_of_the_triangle);
	tcase_add_test(t, gram_counts);
	tcase_add_test(t, lapack_blocks_report_and_stop);
	tcase_set_timeout(t, 120);
	tcase_add_loop_test(t, stop_during_decomposition, 0, 2);
	suite_add_tcase(s, t);
	/* the known answers again, every matrix on LAPACK's path */
	TCase *l = tcase_create("lapack");
	tcase_add_checked_fixture(l, on_lapack, back_to_auto);
	tcase_add_test(l, diagonal);
	tcase_add_test(l, orthogonal_similarity);
	tcase_add_test(l, rank_deficient);
	tcase_add_test(l, svd_and_qr_ranks_agree);
	tcase_add_test(l, qrpt_planted);
	tcase_add_test(l, layer_on_net);
	tcase_add_test(l, bidiagonal_spectra);
	tcase_add_test(l, values_only_equals_full);
	tcase_add_test(l, threads_do_not_change_results);
	tcase_add_test(l, net_errors_name_the_lowest_layer);
	suite_add_tcase(s, l);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
