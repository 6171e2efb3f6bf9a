/* test_cond.c - singular values, κ, pivoted QR on matrices and on the
 * layers of networks with known answers built here (no GSL in the
 * references), on GSL's path and again on LAPACK's; the counts at τ and the
 * rules on τ; every layer of a network at once, its values alone, on any
 * number of threads, and its errors. */
#include <unistd.h>

#include "alg/alg3_squeeze.h"
#include "cond_test.h"
#include "engine/cond_matrix.h"
#include "engine/hook.h"
#include "engine/net.h"

static void check_sv(const double *A, int r, int c, const double *d, double tol)
{
	int k = r < c ? r : c;
	double sv[16];
	Err e;
	ck_assert_int_eq(cond_singular_values(A, r, c, sv, &e), 0);
	for (int j = 0; j < k; j++)
		ck_assert_double_eq_tol(sv[j], d[j], tol * d[0]);
}

/* cond_kappa_columns's value, NaN when it fails. */
static double kappa_cols(const Net *net, int layer, const int *cols, int n, Err *e)
{
	double k;
	return cond_kappa_columns(net, layer, cols, n, &k, e) ? NAN : k;
}

/* κ as text: 4 digits, up to 6 to keep κ off τ and on its side, never
 * more (the digits past the 6th differ between OpenBLAS's kernels). */
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

/* The counts at τ on their boundaries, exactly: Ŵ⁽¹⁾ (4×4) holds 8, 4, 2, 1
 * on a permuted diagonal, so σ_j/σ₁ = |r_jj|/|r_11| = 2⁻ʲ. p (Algorithm 1,
 * line 4) counts σ_j < σ₁/τ: at τ = 2ᵏ the σ equal to σ₁/τ is not below it,
 * one ulp under τ it is. rank_qr counts |r_jj| ≥ |r_11|/τ: at τ = 2ᵏ that
 * |r_jj| is on the threshold and counted, one ulp under τ it is not. Both
 * from the decomposition (cond_layer) and for another τ (cond_set_tau). */
START_TEST(counts_at_tau_boundaries)
{
	int widths[3] = {3, 4, 2};
	Net *net = net_new(2, widths, ACT_TANH, 1.0f, NULL);
	ck_assert_ptr_nonnull(net);
	net->W[0][0 * 4 + 2] = 2;
	net->W[0][1 * 4 + 0] = 8;
	net->W[0][2 * 4 + 3] = 1;
	net->b[0][1] = 4;
	Err e;
	LayerCond lc;
	ck_assert_int_eq(cond_layer(net, 1, 25, &lc, &e), 0);
	ck_assert(lc.kappa == 8);
	ck_assert_int_eq(lc.p, 0);
	ck_assert_int_eq(lc.rank_qr, 4);
	for (int k = 0; k <= 3; k++) {
		double t = ldexp(1, k), ts[3] = {t, nextafter(t, 0), nextafter(t, INFINITY)};
		for (int w = 0; w < 3; w++) {
			if (ts[w] < 1)
				continue;
			/* at or above 2ᵏ: σ_k = σ₁/2ᵏ is not below σ₁/τ and |r_kk| is kept */
			int want_p = 3 - k + (w == 1), want_qr = k + 1 - (w == 1);
			cond_set_tau(&lc, ts[w]);
			ck_assert_msg(lc.p == want_p && lc.rank_qr == want_qr,
			              "τ %.17g: p %d (expected %d), rank_qr %d (expected %d)",
			              ts[w], lc.p, want_p, lc.rank_qr, want_qr);
			ck_assert_int_eq(lc.rank_svd, 4 - want_p);
			LayerCond fresh;
			ck_assert_int_eq(cond_layer(net, 1, ts[w], &fresh, &e), 0);
			ck_assert_int_eq(fresh.p, want_p);
			ck_assert_int_eq(fresh.rank_qr, want_qr);
			cond_layer_free(&fresh);
			LayerCond both[2];
			ck_assert_int_eq(cond_net_values(net, ts[w], both, &e), 0);
			ck_assert_int_eq(both[0].p, want_p);
			cond_layer_free(&both[0]);
			cond_layer_free(&both[1]);
		}
	}
	cond_layer_free(&lc);
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

static void on_lapack(void)
{
	cond_set_path(COND_PATH_LAPACK);
}

static void back_to_auto(void)
{
	cond_set_path(COND_PATH_AUTO);
}

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
	tcase_add_test(t, counts_at_tau_boundaries);
	tcase_add_test(t, rules_on_tau);
	tcase_add_test(t, net_new_and_max);
	tcase_add_test(t, layer_errors);
	tcase_add_test(t, bidiagonal_spectra);
	tcase_add_test(t, values_only_equals_full);
	tcase_add_test(t, threads_do_not_change_results);
	tcase_add_test(t, net_errors_name_the_lowest_layer);
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
