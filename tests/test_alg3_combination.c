/* test_alg3_combination.c - the combination that replaces each neuron a
 * squeeze removes: a planted duplicate is found with coefficient 1 on its
 * original and residual ~0; a planted scaled copy gives its scale; on a
 * layer with nothing planted the coefficients and residuals are those of a
 * least-squares solve done apart; the proposal's pivot order is the
 * combinations'; and the text form. */
#include <math.h>

#include "alg/alg3_combination.h"
#include "alg/alg3_squeeze.h"
#include "data/dataset.h"
#include "engine/cond.h"
#include "engine/cond_matrix.h"
#include "testutil.h"

/* A trained-looking layer: Glorot weights and biases off zero. */
static Net *layer_net(uint64_t seed)
{
	int w[] = {2, 8, 5, 3};
	Err e = {{0}};
	Net *net = net_fresh(3, w, ACT_ERF, 1.0f, seed, &e);
	ck_assert_ptr_nonnull(net);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < w[i + 1]; j++)
			net->b[i][j] = 0.1f * (float)((j * 7 + i * 3) % 5) - 0.2f;
	return net;
}

/* Neuron `copy` of layer 2 becomes `scale` times neuron `orig`. */
static void plant(Net *net, int orig, int copy, float scale)
{
	int nin = net->n[1], n = net->n[2];
	for (int r = 0; r < nin; r++)
		net->W[1][r * n + copy] = scale * net->W[1][r * n + orig];
	net->b[1][copy] = scale * net->b[1][orig];
}

/* Where neuron j stands in c's pivot order. */
static int pos(const Alg3Combinations *c, int j)
{
	for (int t = 0; t < c->n; t++)
		if (c->perm[t] == j)
			return t;
	return -1;
}

/* The planted copy and its original: one is removed (the last pivot), and
 * its combination is the other times the ratio, nothing else. */
static void check_planted(float scale)
{
	Net *net = layer_net(3);
	plant(net, 1, 4, scale);
	Alg3Combinations c;
	Err e = {{0}};
	ck_assert_int_eq(alg3_combinations(net, 2, 4, &c, &e), 0);
	ck_assert_int_eq(c.n, 5);
	ck_assert_int_eq(c.nkeep, 4);
	int gone = c.perm[4];
	ck_assert_msg(gone == 1 || gone == 4, "removed neuron %d, not the pair", gone);
	int twin = gone == 1 ? 4 : 1, t = pos(&c, twin);
	ck_assert_int_lt(t, 4);
	double want = gone == 4 ? scale : 1.0 / scale;
	for (int k = 0; k < 4; k++)
		ck_assert_msg(fabs(c.coef[k] - (k == t ? want : 0)) < 1e-6,
		              "scale %g: coefficient %g on neuron %d", scale, c.coef[k], c.perm[k]);
	ck_assert_double_lt(c.residual[0], 1e-6);
	alg3_combinations_free(&c);
	net_free(net);
}

START_TEST(test_duplicate)
{
	check_planted(1.0f);
}
END_TEST

START_TEST(test_scaled_copy)
{
	check_planted(-2.5f);
	check_planted(0.25f);
}
END_TEST

/* Nothing planted: every removed column against a least-squares solve of
 * Ŵ_K c = ŵ_j done apart, and the residual from its definition. */
START_TEST(test_least_squares)
{
	Net *net = layer_net(9);
	Err e = {{0}};
	for (int nkeep = 1; nkeep <= 5; nkeep++) {
		Alg3Combinations c;
		ck_assert_int_eq(alg3_combinations(net, 2, nkeep, &c, &e), 0);
		int rows, cols;
		double *K = cond_stacked(net, 2, c.perm, nkeep, &rows, &cols, &e);
		ck_assert_ptr_nonnull(K);
		for (int r = 0; r < 5 - nkeep; r++) {
			int j = c.perm[nkeep + r];
			double *wj = cond_stacked(net, 2, &j, 1, NULL, NULL, &e), x[5];
			ck_assert_int_eq(
			    cond_lstsq_rcond(K, rows, nkeep, wj, 1, x, 1e-12, NULL, &e), 0);
			double res = 0, norm = 0;
			for (int i = 0; i < rows; i++) {
				double v = wj[i];
				for (int k = 0; k < nkeep; k++)
					v -= K[i * nkeep + k] * c.coef[r * nkeep + k];
				res += v * v;
				norm += wj[i] * wj[i];
			}
			for (int k = 0; k < nkeep; k++)
				ck_assert_double_eq_tol(c.coef[r * nkeep + k], x[k], 1e-9);
			ck_assert_double_eq_tol(c.residual[r], sqrt(res / norm), 1e-9);
			ck_assert(c.residual[r] >= 0 && c.residual[r] <= 1);
			free(wj);
		}
		free(K);
		alg3_combinations_free(&c);
	}
	Alg3Combinations c;
	ck_assert_int_eq(alg3_combinations(net, 2, 6, &c, &e), -1);
	/* all kept: nothing to combine, whatever the rank */
	ck_assert_int_eq(alg3_combinations(net, 1, 8, &c, &e), 0);
	ck_assert_int_eq(c.nkeep, 8);
	alg3_combinations_free(&c);
	/* more kept than Ŵ has rows: the first 3 pivots span it */
	ck_assert_int_eq(alg3_combinations(net, 1, 5, &c, &e), 0);
	for (int r = 0; r < 3; r++) {
		ck_assert_double_lt(c.residual[r], 1e-6);
		ck_assert_double_eq(c.coef[r * 5 + 3], 0);
		ck_assert_double_eq(c.coef[r * 5 + 4], 0);
	}
	alg3_combinations_free(&c);
	ck_assert_int_eq(alg3_combinations(net, 1, 9, &c, &e), -1);
	ck_assert_int_eq(alg3_combinations(net, 3, 1, &c, &e), -1);
	ck_assert_str_eq(e.msg, "layer 3 is not a hidden layer (expected 1..2)");
	net_free(net);
}
END_TEST

/* Layer 1 of a network of 2 inputs: Ŵ has 3 rows, so of 8 neurons 5 are
 * combinations of the first 3 pivots, exactly (residual ~0); and the
 * proposal at τ gives the same pivot order. */
START_TEST(test_proposal)
{
	Net *net = layer_net(5);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 2;
	Alg3Proposal sp;
	Err e = {{0}};
	ck_assert_int_eq(alg3_propose(net, 1, &o, &sp, &e), 0);
	Alg3Combinations c;
	ck_assert_int_eq(alg3_combinations_of(net, &sp, &c, &e), 0);
	ck_assert_int_eq(c.nkeep, sp.nkeep);
	ck_assert(!memcmp(c.perm, sp.perm, 8 * sizeof *c.perm));
	alg3_combinations_free(&c);
	ck_assert_int_eq(alg3_combinations(net, 1, 3, &c, &e), 0);
	for (int r = 0; r < 5; r++)
		ck_assert_double_lt(c.residual[r], 1e-6);
	alg3_combinations_free(&c);
	alg3_proposal_free(&sp);
	o.criterion = ALG3_NORM;
	ck_assert_int_eq(alg3_propose(net, 1, &o, &sp, &e), 0);
	ck_assert_int_eq(alg3_combinations_of(net, &sp, &c, &e), -1);
	ck_assert_str_eq(e.msg, "layer 1: the norm criterion keeps no pivots");
	alg3_proposal_free(&sp);
	net_free(net);
}
END_TEST

/* A small data set of two features on a grid, its own. */
static Dataset *grid(int side)
{
	Err e = {{0}};
	Dataset *d = dataset_new(side * side, 2, 2, &e);
	ck_assert_ptr_nonnull(d);
	for (int i = 0; i < side * side; i++) {
		d->x[2 * i] = (float)(i % side) / (side - 1) * 2 - 1;
		d->x[2 * i + 1] = (float)(i / side) / (side - 1) * 2 - 1;
		d->y[i] = i % 2;
	}
	return d;
}

/* Where the refit works: a duplicate's activation is its twin's (residual
 * 0, coefficient 1, and the refit leaves nothing of what it sent); a copy
 * scaled by 2 is a combination in Ŵ (residual 0 there) but not in
 * activations, erf being no line; and the fit is the least squares of its
 * definition, done apart. */
START_TEST(test_activations)
{
	Err e = {{0}};
	Dataset *d = grid(9);
	for (int pass = 0; pass < 2; pass++) {
		Net *net = layer_net(3);
		plant(net, 1, 4, pass ? 2.0f : 1.0f);
		Alg3Combinations c;
		ck_assert_int_eq(alg3_combinations(net, 2, 4, &c, &e), 0);
		ck_assert_int_eq(alg3_combinations_act(net, d, &c, &e), 0);
		ck_assert_int_eq(c.rows, 81);
		ck_assert_double_lt(c.residual[0], 1e-6); /* in Ŵ: a combination */
		int twin = c.perm[4] == 1 ? 4 : 1, t = pos(&c, twin);
		if (!pass) {
			ck_assert_double_lt(c.act_residual[0], 1e-5);
			ck_assert_double_lt(c.refit, 1e-5);
			for (int k = 0; k <= 4; k++)
				ck_assert_msg(fabs(c.act_coef[k] - (k == t ? 1 : 0)) < 1e-4,
				              "coefficient %g at %d", c.act_coef[k], k);
		} else {
			ck_assert_double_gt(c.act_residual[0], 0.01);
		}
		/* the least squares of [Y_K 1] a = y_j, apart */
		double *Y;
		int rows;
		ck_assert_int_eq(alg3_activations(net, 2, d, ALG3_SAMPLE_ROWS, &Y, &rows, &e), 0);
		double A[81 * 5], b[81], x[5], mean = 0, ss = 0, res = 0;
		for (int i = 0; i < rows; i++) {
			for (int k = 0; k < 4; k++)
				A[i * 5 + k] = Y[i * 5 + c.perm[k]];
			A[i * 5 + 4] = 1;
			b[i] = Y[i * 5 + c.perm[4]];
			mean += b[i] / rows;
		}
		ck_assert_int_eq(cond_lstsq(A, rows, 5, b, 1, x, &e), 0);
		for (int i = 0; i < rows; i++) {
			double v = b[i];
			for (int k = 0; k < 5; k++)
				v -= A[i * 5 + k] * x[k];
			res += v * v;
			ss += (b[i] - mean) * (b[i] - mean);
		}
		for (int k = 0; k < 5; k++)
			ck_assert_double_eq_tol(c.act_coef[k], x[k], 1e-6);
		ck_assert_double_eq_tol(c.act_residual[0], sqrt(res / ss), 1e-9);
		double lo, med, hi;
		ck_assert_int_eq(alg3_combinations_spread(&c, &lo, &med, &hi), 0);
		ck_assert_double_eq(lo, c.act_residual[0]);
		ck_assert_double_eq(hi, c.act_residual[0]);
		free(Y);
		alg3_combinations_free(&c);
		net_free(net);
	}
	dataset_free(d);
}
END_TEST

/* The refit's share left: what the removed neurons send the next layer
 * that the kept ones do not, from its definition. */
START_TEST(test_refit_share)
{
	Err e = {{0}};
	Dataset *d = grid(7);
	Net *net = layer_net(11);
	Alg3Combinations c;
	ck_assert_int_eq(alg3_combinations(net, 2, 2, &c, &e), 0);
	ck_assert_int_eq(alg3_combinations_act(net, d, &c, &e), 0);
	double *Y;
	int rows, n = 5, q = net->n[3];
	ck_assert_int_eq(alg3_activations(net, 2, d, ALG3_SAMPLE_ROWS, &Y, &rows, &e), 0);
	double left = 0, all = 0;
	for (int i = 0; i < rows; i++)
		for (int k = 0; k < q; k++) {
			double full = 0, fit = 0;
			for (int r = 0; r < 3; r++) {
				int j = c.perm[2 + r];
				double mean = 0, y;
				for (int s = 0; s < rows; s++)
					mean += Y[s * n + j] / rows;
				const double *a = c.act_coef + r * 3;
				y = a[2] + a[0] * Y[i * n + c.perm[0]] +
				    a[1] * Y[i * n + c.perm[1]];
				full += (Y[i * n + j] - mean) * net->W[2][j * q + k];
				fit += (Y[i * n + j] - y) * net->W[2][j * q + k];
			}
			left += fit * fit;
			all += full * full;
		}
	ck_assert_double_eq_tol(c.refit, sqrt(left / all), 1e-9);
	ck_assert(c.refit > 0 && c.refit <= 1);
	/* the text: activations' coefficients, Ŵ's residual beside */
	char buf[256];
	alg3_combination_act_str(&c, 0, 1, 0, buf, sizeof buf);
	ck_assert_msg(strstr(buf, "+ …") && strstr(buf, "%; Ŵ "), "%s", buf);
	alg3_combination_act_str(&c, 0, 2, 1, buf, sizeof buf);
	ck_assert_msg(!strstr(buf, "...") && strstr(buf, "%; W^ "), "%s", buf);
	free(Y);
	alg3_combinations_free(&c);
	net_free(net);
	dataset_free(d);
}
END_TEST

/* The spread of the residuals: the least, the median (the middle one of
 * an odd count, the mean of the two middle ones of an even count) and the
 * largest. */
START_TEST(test_spread_median)
{
	double r[] = {0.40, 0.10, 0.30, 0.20, 0.50};
	Alg3Combinations c;
	memset(&c, 0, sizeof c);
	c.act_residual = r;
	c.nkeep = 2;
	double lo, med, hi;
	c.n = 6; /* four dropped: 0.10 0.20 0.30 0.40 */
	ck_assert_int_eq(alg3_combinations_spread(&c, &lo, &med, &hi), 0);
	ck_assert_double_eq_tol(lo, 0.10, 1e-15);
	ck_assert_double_eq_tol(med, 0.25, 1e-15);
	ck_assert_double_eq_tol(hi, 0.40, 1e-15);
	c.n = 7; /* five: the middle one */
	ck_assert_int_eq(alg3_combinations_spread(&c, &lo, &med, &hi), 0);
	ck_assert_double_eq_tol(med, 0.30, 1e-15);
	ck_assert_double_eq_tol(hi, 0.50, 1e-15);
	c.n = 3; /* one */
	ck_assert_int_eq(alg3_combinations_spread(&c, &lo, &med, &hi), 0);
	ck_assert_double_eq(lo, 0.40);
	ck_assert_double_eq(med, 0.40);
	c.n = 2; /* none dropped */
	ck_assert_int_eq(alg3_combinations_spread(&c, &lo, &med, &hi), -1);
}
END_TEST

START_TEST(test_text)
{
	int perm[] = {2, 7, 0, 16};
	double coef[] = {0.05, 0.62, -0.21}, res[] = {0.003};
	Alg3Combinations c = {
	    .layer = 1, .n = 4, .nkeep = 3, .perm = perm, .coef = coef, .residual = res};
	char buf[256];
	ck_assert_str_eq(alg3_combination_str(&c, 0, 5, 0, buf, sizeof buf),
	                 "n17 ≈ 0.62·n8 − 0.21·n1 + 0.05·n3 (residual 0.3 %)");
	ck_assert_str_eq(alg3_combination_str(&c, 0, 2, 0, buf, sizeof buf),
	                 "n17 ≈ 0.62·n8 − 0.21·n1 + … (residual 0.3 %)");
	ck_assert_str_eq(alg3_combination_str(&c, 0, 3, 1, buf, sizeof buf),
	                 "n17 ~ 0.62*n8 - 0.21*n1 + 0.05*n3 (residual 0.3 %)");
	coef[1] = -0.62;
	ck_assert_str_eq(alg3_combination_str(&c, 0, 1, 0, buf, sizeof buf),
	                 "n17 ≈ −0.62·n8 + … (residual 0.3 %)");
	int order[3];
	alg3_combination_order(&c, 0, order);
	ck_assert_int_eq(order[0], 1);
	ck_assert_int_eq(order[1], 2);
	ck_assert_int_eq(order[2], 0);
	/* cut short, still a string */
	ck_assert_int_lt(strlen(alg3_combination_str(&c, 0, 3, 0, buf, 12)), 12);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("alg3_combination");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_duplicate);
	tcase_add_test(tc, test_scaled_copy);
	tcase_add_test(tc, test_least_squares);
	tcase_add_test(tc, test_activations);
	tcase_add_test(tc, test_refit_share);
	tcase_add_test(tc, test_spread_median);
	tcase_add_test(tc, test_proposal);
	tcase_add_test(tc, test_text);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
