/* test_cond_wide.c - a wide layer, whose stacked matrix Ŵ has more columns
 * than rows (more neurons or channels than inputs + 1), dense and
 * convolution alike: under the paper's reading κ and p count its
 * min(rows, cols) singular values and the surplus cols − rows shows in
 * neither, Algorithm 1's p and Algorithm 3's squeeze then differ by that
 * surplus; under --wide zero κ = ∞, p counts the surplus, and the two
 * algorithms keep the same count.
 *
 * The layer: Ŵ = [D, 0.9·D] (4 × 8) with D = diag(4, 3, 2, 1), so its
 * singular values are √1.81·(4, 3, 2, 1) (κ = 4 over its 4 values; to
 * float32's rounding of 0.9·D), its columns 5..8 are multiples of 1..4 (a
 * surplus of 4), and its pivoted QR takes columns 1, 2, 3, 4 with
 * |r_jj|/|r_11| = 1, 0.75, 0.5, 0.25. */
#include <math.h>

#include "alg/alg3_squeeze.h"
#include "engine/cond.h"
#include "engine/net.h"
#include "testutil.h"

enum { ROWS = 4, COLS = 8 };

/* Ŵ⁽¹⁾ of net set to [D, 0.9·D]: its rows are W⁽¹⁾'s (one per input, or
 * per input channel of a 1×1 kernel), then b⁽¹⁾. */
static void set_wide(Net *net)
{
	static const double d[ROWS] = {4, 3, 2, 1};
	ck_assert_int_eq(net_rows(net, 0) + 1, ROWS);
	ck_assert_int_eq(net_cols(net, 0), COLS);
	for (int r = 0; r < ROWS; r++)
		for (int c = 0; c < COLS; c++) {
			double v = c % ROWS == r ? d[r] * (c < ROWS ? 1.0 : 0.9) : 0.0;
			if (r < ROWS - 1)
				net->W[0][(size_t)r * COLS + c] = (float)v;
			else
				net->b[0][c] = (float)v;
		}
}

/* _i = 0: a dense layer of 8 neurons on 3 inputs; 1: a convolution of 8
 * channels of 1×1 kernels on an image of 3 channels. */
static Net *wide_net(int conv)
{
	Err e;
	int widths[] = {3, COLS, 5, 2};
	Net *net = conv ? net_fresh_spec("conv:8:1,pool:2,5", 3 * 4 * 4, 3, 4, 4, 2, ACT_RELU, 1.0f,
	                                 7, "test", &e)
	                : net_fresh(3, widths, ACT_RELU, 1.0f, 7, &e);
	ck_assert_msg(net != NULL, "%s", e.msg);
	ck_assert_int_eq(net->nconv, conv);
	set_wide(net);
	return net;
}

static void layer(const Net *net, double tau, LayerCond *lc)
{
	Err e;
	ck_assert_msg(cond_layer(net, 1, tau, lc, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(lc->rows, ROWS);
	ck_assert_int_eq(lc->cols, COLS);
	ck_assert_int_eq(lc->nsv, ROWS);
	ck_assert_int_eq(lc->surplus, COLS - ROWS);
}

/* Algorithm 3's proposal for layer 1 at τ: how many it keeps. */
static int squeeze_keeps(const Net *net, double tau, double *kappa_before)
{
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = tau;
	Alg3Proposal sp;
	Err e;
	ck_assert_msg(alg3_propose(net, 1, &o, &sp, &e) == 0, "%s", e.msg);
	int keep = sp.nkeep;
	*kappa_before = sp.kappa_before;
	/* the columns kept are the first of the pivot order: 1, 2, 3, 4 */
	for (int j = 0; j < keep && keep < COLS; j++)
		ck_assert_int_eq(sp.keep[j], j);
	alg3_proposal_free(&sp);
	return keep;
}

START_TEST(test_paper_reading)
{
	Net *net = wide_net(_i);
	cond_set_wide(COND_WIDE_PAPER);
	LayerCond lc;
	/* κ and p over the 4 singular values: the surplus of 4 in neither */
	layer(net, 3, &lc);
	ck_assert_double_eq_tol(lc.kappa, 4.0, 1e-6);
	ck_assert_double_eq_tol(lc.sv[0], 4.0 * sqrt(1.81), 1e-6);
	ck_assert_int_eq(lc.zeros, 0);
	ck_assert_int_eq(lc.p, 1); /* only √1.81·1 < σ₁/3 */
	ck_assert_int_eq(lc.rank_svd, 3);
	ck_assert_int_eq(lc.rank_qr, 3);
	cond_set_tau(&lc, 5);
	ck_assert_int_eq(lc.p, 0);
	cond_layer_free(&lc);
	/* κ ≤ τ: Algorithm 3 leaves the layer whole, as Algorithm 1 does (p = 0) */
	double k;
	ck_assert_int_eq(squeeze_keeps(net, 5, &k), COLS);
	ck_assert_double_eq_tol(k, 4.0, 1e-6);
	/* κ > τ: Algorithm 1 removes p = 1 and keeps 7, Algorithm 3's QR keeps
	 * at most the 4 rows and the κ loop 3: they differ by the surplus */
	ck_assert_int_eq(squeeze_keeps(net, 3, &k), 3);
	/* κ of columns chosen: over their min(rows, cols) values */
	int sel[] = {0, 1, 2, 3, 4};
	Err e;
	ck_assert_int_eq(cond_kappa_columns(net, 1, sel, 5, &k, &e), 0);
	ck_assert_double_eq_tol(k, 4.0 * sqrt(1.81), 1e-6); /* σ: 4·√1.81, 3, 2, 1 */
	net_free(net);
}
END_TEST

START_TEST(test_zero_reading)
{
	Net *net = wide_net(_i);
	cond_set_wide(COND_WIDE_ZERO);
	LayerCond lc;
	layer(net, 3, &lc);
	ck_assert(isinf(lc.kappa));
	ck_assert_int_eq(lc.zeros, COLS - ROWS);
	ck_assert_int_eq(lc.p, COLS - ROWS + 1);
	ck_assert_int_eq(lc.rank_svd, 3);
	/* the singular values themselves are the same */
	ck_assert_double_eq_tol(lc.sv[ROWS - 1], sqrt(1.81), 1e-6);
	cond_set_tau(&lc, 5);
	ck_assert_int_eq(lc.p, COLS - ROWS);
	ck_assert_int_eq(lc.rank_svd, ROWS);
	cond_layer_free(&lc);
	/* Algorithm 1 keeps n − p; Algorithm 3 as many, at either τ, though
	 * at τ = 5 the paper's κ (4) is within τ */
	double k;
	ck_assert_int_eq(squeeze_keeps(net, 5, &k), COLS - (COLS - ROWS));
	ck_assert(isinf(k));
	ck_assert_int_eq(squeeze_keeps(net, 3, &k), COLS - (COLS - ROWS + 1));
	/* columns chosen: ∞ while wide, the plain κ once they are not */
	int sel[] = {0, 1, 2, 3, 4};
	Err e;
	ck_assert_int_eq(cond_kappa_columns(net, 1, sel, 5, &k, &e), 0);
	ck_assert(isinf(k));
	ck_assert_int_eq(cond_kappa_columns(net, 1, sel, 4, &k, &e), 0);
	ck_assert_double_eq_tol(k, 4.0, 1e-6);
	/* a layer that is not wide reads the same under both */
	LayerCond tall;
	ck_assert_msg(cond_layer(net, 2, 3, &tall, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(tall.surplus, 0);
	ck_assert_int_eq(tall.zeros, 0);
	ck_assert(isfinite(tall.kappa));
	double kz = tall.kappa;
	int pz = tall.p;
	cond_layer_free(&tall);
	cond_set_wide(COND_WIDE_PAPER);
	ck_assert_msg(cond_layer(net, 2, 3, &tall, &e) == 0, "%s", e.msg);
	ck_assert_double_eq(tall.kappa, kz);
	ck_assert_int_eq(tall.p, pz);
	cond_layer_free(&tall);
	net_free(net);
}
END_TEST

/* The whole squeeze of a network (alg3_squeeze_net) on the wide layer
 * alone: under zero it removes the surplus where the paper's reading
 * leaves the layer whole. */
START_TEST(test_squeeze_net)
{
	int only[] = {1, 0};
	for (int zero = 0; zero <= 1; zero++) {
		Net *net = wide_net(_i);
		cond_set_wide(zero ? COND_WIDE_ZERO : COND_WIDE_PAPER);
		Alg3Opts o;
		alg3_opts_default(&o);
		o.tau = 5;
		o.only = only;
		int removed[3], total;
		Err e;
		ck_assert_msg(alg3_squeeze_net(net, &o, NULL, removed, &total, &e) == 0, "%s",
		              e.msg);
		ck_assert_int_eq(removed[0], zero ? COLS - ROWS : 0);
		ck_assert_int_eq(removed[1], 0); /* not among o.only */
		ck_assert_int_eq(net_units(net, 1), zero ? ROWS : COLS);
		ck_assert_int_eq(total, removed[0]);
		net_free(net);
	}
	cond_set_wide(COND_WIDE_PAPER);
}
END_TEST

START_TEST(test_wide_names)
{
	CondWide w;
	Err e;
	ck_assert_int_eq(cond_wide_parse("zero", &w, &e), 0);
	ck_assert_int_eq(w, COND_WIDE_ZERO);
	ck_assert_str_eq(cond_wide_name(w), "zero");
	ck_assert_int_eq(cond_wide_parse("paper", &w, &e), 0);
	ck_assert_int_eq(w, COND_WIDE_PAPER);
	ck_assert_int_eq(cond_wide_parse("rows", &w, &e), -1);
	ck_assert_str_eq(e.msg, "unknown reading of wide layers 'rows' (expected paper or zero)");
	ck_assert_int_eq(cond_get_wide(), COND_WIDE_PAPER);
	cond_set_wide(COND_WIDE_ZERO);
	ck_assert(isinf(cond_kappa_read(2.0, 3, 4)));
	ck_assert_double_eq(cond_kappa_read(2.0, 4, 4), 2.0);
	cond_set_wide(COND_WIDE_PAPER);
	ck_assert_double_eq(cond_kappa_read(2.0, 3, 4), 2.0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cond_wide");
	TCase *tc = tcase_create("core");
	tcase_add_loop_test(tc, test_paper_reading, 0, 2);
	tcase_add_loop_test(tc, test_zero_reading, 0, 2);
	tcase_add_loop_test(tc, test_squeeze_net, 0, 2);
	tcase_add_test(tc, test_wide_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
