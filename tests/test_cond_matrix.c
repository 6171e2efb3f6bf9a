/* test_cond_matrix.c - the decompositions under the conditioning
 * (engine/cond_matrix*): least squares, exact and rank-deficient; the
 * choice between GSL's path and LAPACK's, and the two against each other on
 * a corpus of layers; the blocks of R and the Gram counts; LAPACK's path
 * reporting its blocks and stopping; a stop during a large decomposition is
 * a stop (1), not a failure, on either path. */
#include <unistd.h>

#include "alg/alg3_squeeze.h"
#include "base/offload.h"
#include "cond_test.h"
#include "engine/cond_matrix.h"
#include "engine/hook.h"
#include "engine/net.h"

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
	Suite *s = suite_create("cond_matrix");
	TCase *t = tcase_create("cond_matrix");
	tcase_add_test(t, lstsq_exact);
	tcase_add_test(t, lstsq_rank_deficient);
	tcase_add_test(t, path_choice);
	tcase_add_test(t, paths_agree);
	tcase_add_test(t, kappa_of_the_triangle);
	tcase_add_test(t, gram_counts);
	tcase_add_test(t, lapack_blocks_report_and_stop);
	tcase_set_timeout(t, 120);
	tcase_add_loop_test(t, stop_during_decomposition, 0, 2);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
