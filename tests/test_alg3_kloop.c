/* test_alg3_kloop.c - Algorithm 3's κ loop by bisection on the blocks of
 * the pivoted QR's triangle against the loop one neuron at a time, as
 * condnet ran it before: the same count on random layers, on layers with
 * planted ties and plateaus of κ, and with τ on the loop's own κ values and
 * one ulp to either side, on GSL's and on LAPACK's path, with the guide and
 * without; the number of decompositions it takes; a stop; its meter. */
#include <float.h>
#include <math.h>

#include "alg/alg3_kloop.h"
#include "alg/alg3_squeeze.h"
#include "base/rng.h"
#include "engine/cond.h"
#include "engine/cond_matrix.h"
#include "engine/hook.h"
#include "engine/net.h"
#include "testutil.h"

/* The loop as condnet ran it before: κ of the stacked first p pivoted
 * columns, one p at a time from p_qr down. */
static int loop_ref(const Net *net, int layer, const int *perm, int p, double tau, double *kappa,
                    int *evals)
{
	Err e;
	double k;
	int rc = cond_kappa_columns(net, layer, perm, p, &k, &e);
	*evals = 1;
	while (rc == 0 && p > 1 && cond_over(k, tau)) {
		rc = cond_kappa_columns(net, layer, perm, --p, &k, &e);
		(*evals)++;
	}
	ck_assert_msg(rc == 0, "%s", e.msg);
	*kappa = k;
	return p;
}

/* A layer's pivoted QR as alg3_propose makes it, and p_qr at τ. */
typedef struct Qr {
	int rows, cols, k, p_qr;
	int *perm;
	double *rdiag, *R, kappa;
} Qr;

static void qr_of(const Net *net, int layer, Qr *q)
{
	Err e;
	double *A = cond_stacked(net, layer, NULL, 0, &q->rows, &q->cols, &e);
	ck_assert_ptr_nonnull(A);
	q->k = q->rows < q->cols ? q->rows : q->cols;
	q->perm = malloc(sizeof *q->perm * (size_t)q->cols);
	q->rdiag = malloc(sizeof *q->rdiag * (size_t)q->k);
	q->R = malloc(sizeof *q->R * (size_t)q->k * (size_t)q->k);
	ck_assert_msg(cond_qrpt_r(A, q->rows, q->cols, q->perm, q->rdiag, q->R, &e) == 0, "%s",
	              e.msg);
	ck_assert_msg(cond_kappa(A, q->rows, q->cols, &q->kappa, &e) == 0, "%s", e.msg);
	free(A);
}

static void qr_free(Qr *q)
{
	free(q->perm);
	free(q->rdiag);
	free(q->R);
}

/* Algorithm 3, line 4: p_qr = #{|r_jj| ≥ |r_11|/τ}, at least 1. */
static int p_at(const Qr *q, double tau)
{
	int p = 0;
	while (p < q->k && q->rdiag[p] > 0.0 && q->rdiag[p] >= 1.0 / tau)
		p++;
	return p < 1 ? 1 : p;
}

/* Cases where the loop ran, and where it removed something. */
static int cases, removing;

/* The bisection, guided and not, against the loop at τ on the path set;
 * κ of the columns kept to the bit on GSL's path, to rounding on LAPACK's.
 * 1 when the loop ran. */
static int check_tau(const Net *net, int layer, const Qr *q, double tau)
{
	if (!(q->kappa > tau))
		return 0; /* line 2: the layer is kept as it is */
	int p = p_at(q, tau), evals;
	double kref;
	int nref = loop_ref(net, layer, q->perm, p, tau, &kref, &evals);
	for (int guide = 0; guide < 2; guide++) {
		KLoopLayer in = {net, layer, q->perm, q->R, q->k, p, tau, 0};
		KLoopResult r;
		Err e;
		ck_assert_msg(alg3_kloop(&in, guide, &r, &e) == 0, "%s", e.msg);
		ck_assert_msg(
		    r.nkeep == nref,
		    "layer %d×%d, τ = %.17g, p_qr = %d, path %s, guide %d: bisection keeps "
		    "%d, the loop %d",
		    q->rows, q->cols, tau, p, cond_path_name(cond_get_path()), guide, r.nkeep,
		    nref);
		if (cond_path_for(q->rows, q->cols) == COND_PATH_GSL)
			ck_assert_msg(r.kappa == kref, "κ %.17g, the loop's %.17g", r.kappa, kref);
		else
			ck_assert_msg(fabs(r.kappa - kref) <= 1e-12 * kref,
			              "κ %.17g, the loop's %.17g", r.kappa, kref);
	}
	cases++;
	removing += nref < p;
	return 1;
}

/* Every τ worth trying on one layer: a few round ones, and the loop's own κ
 * of the first q columns for q around where it stops, with one ulp below
 * and above each (exact boundaries: κ = τ keeps, the next ulp does not). */
static void check_layer(const Net *net, int layer, const double *taus, int ntau, int boundaries)
{
	Qr q;
	qr_of(net, layer, &q);
	for (int i = 0; i < ntau; i++)
		check_tau(net, layer, &q, taus[i]);
	for (int b = 0; b < boundaries; b++) {
		/* τ from κ of a prefix: first at the answer of a round τ */
		double tau0 = taus[b % ntau];
		if (!(q.kappa > tau0))
			continue;
		int evals;
		double k;
		int n = loop_ref(net, layer, q.perm, p_at(&q, tau0), tau0, &k, &evals);
		int at = n + (b / ntau) % 3 - 1; /* the answer, one before, one after */
		at = at < 1 ? 1 : at > q.k ? q.k : at;
		Err e;
		double kq;
		ck_assert_msg(cond_kappa_columns(net, layer, q.perm, at, &kq, &e) == 0, "%s",
		              e.msg);
		if (!(kq >= 1.0) || isinf(kq))
			continue;
		check_tau(net, layer, &q, kq);
		check_tau(net, layer, &q, nextafter(kq, 0));
		check_tau(net, layer, &q, nextafter(kq, INFINITY));
	}
	qr_free(&q);
}

/* rows-1 inputs, cols neurons: Gaussian weights whose columns are scaled by
 * 2^u, u uniform in [-spread, spread] (spread 0: plain Gaussian), biases
 * small. */
static Net *random_layer(Rng *r, int rows, int cols, double spread)
{
	int w[3] = {rows - 1, cols, 2};
	Net *net = net_new(2, w, ACT_ERF, 1.0f, NULL);
	ck_assert_ptr_nonnull(net);
	for (int j = 0; j < cols; j++) {
		double s = ldexp(1.0, (int)lround(spread * (2 * rng_uniform(r) - 1)));
		for (int i = 0; i < rows - 1; i++)
			net->W[0][i * cols + j] = (float)(s * rng_normal(r));
		net->b[0][j] = (float)(0.1 * s * rng_normal(r));
	}
	return net;
}

/* Ties and plateaus: a block of `a` random columns in its own rows (two of
 * them nearly parallel, so that κ of the whole is large), and `d` columns
 * each one entry in rows of their own, their values drawn from a few small
 * integers (many equal norms: ties in the pivoting, and prefixes whose
 * exact κ is the same across several counts). */
static Net *planted_layer(Rng *r, int a, int d)
{
	int rows = a + 2 + d, cols = a + d;
	int w[3] = {rows - 1, cols, 2};
	Net *net = net_new(2, w, ACT_ERF, 1.0f, NULL);
	ck_assert_ptr_nonnull(net);
	memset(net->W[0], 0, sizeof(float) * (size_t)(rows - 1) * cols);
	memset(net->b[0], 0, sizeof(float) * cols);
	for (int j = 0; j < a; j++)
		for (int i = 0; i < a + 2; i++)
			net->W[0][i * cols + j] = (float)(4 * rng_normal(r));
	if (a >= 2) /* column 1 near column 0 */
		for (int i = 0; i < a + 2; i++)
			net->W[0][i * cols + 1] =
			    net->W[0][i * cols] + (float)(0.05 * rng_normal(r));
	static const float vals[] = {1, 2, 2, 3, 3, 3, 4, 6};
	for (int j = 0; j < d; j++)
		net->W[0][(a + 2 + j) * cols + a + j] = vals[(int)(8 * rng_uniform(r)) % 8];
	return net;
}

static void corpus(void)
{
	static const double taus[] = {2, 5, 10, 25, 100};
	Rng r;
	rng_seed(&r, 31);
	/* random layers, tall, square and wide, plain and with spread columns */
	for (int i = 0; i < 60; i++) {
		int cols = 3 + (int)(rng_uniform(&r) * 38);
		int rows = 2 + (int)(rng_uniform(&r) * (i % 3 == 0 ? cols / 2 : 2 * cols));
		Net *net = random_layer(&r, rows, cols, (i % 4) * 1.5);
		check_layer(net, 1, taus, 5, 6);
		net_free(net);
	}
	for (int i = 0; i < 40; i++) {
		Net *net = planted_layer(&r, 2 + i % 5, 3 + (int)(rng_uniform(&r) * 20));
		check_layer(net, 1, taus, 5, 9);
		net_free(net);
	}
	/* two larger ones: LAPACK's blocks and the guide at work */
	for (int i = 0; i < 2; i++) {
		Net *net = random_layer(&r, 171 + 40 * i, 160 + 40 * i, 0);
		check_layer(net, 1, taus + 3, 1, 1);
		net_free(net);
	}
}

START_TEST(bisection_is_the_loop)
{
	CondPath path[] = {COND_PATH_GSL, COND_PATH_LAPACK};
	cond_set_path(path[_i]);
	cases = removing = 0;
	corpus();
	cond_set_path(COND_PATH_AUTO);
	/* ≥ 1000 layers and τ on each path where the loop ran, most removing */
	ck_assert_msg(cases >= 1000, "only %d cases", cases);
	ck_assert_msg(removing >= cases / 3, "only %d of %d cases removed a neuron", removing,
	              cases);
}
END_TEST

/* On a 241×240 random layer at τ = 25 the loop removes dozens of neurons,
 * one decomposition each; the bisection needs about log₂ p of them, the
 * guide a handful. */
START_TEST(logarithmic_evaluations)
{
	Rng r;
	rng_seed(&r, 5);
	Net *net = random_layer(&r, 241, 240, 0);
	Qr q;
	qr_of(net, 1, &q);
	double tau = 25;
	ck_assert(q.kappa > tau);
	int p = p_at(&q, tau), evals;
	double k;
	int n = loop_ref(net, 1, q.perm, p, tau, &k, &evals);
	ck_assert_msg(evals > 20, "the loop took only %d evaluations", evals);
	int bound = (int)ceil(log2(p)) + 2;
	for (int guide = 0; guide < 2; guide++) {
		KLoopLayer in = {net, 1, q.perm, q.R, q.k, p, tau, 0};
		KLoopResult res;
		Err e;
		ck_assert_int_eq(alg3_kloop(&in, guide, &res, &e), 0);
		ck_assert_int_eq(res.nkeep, n);
		int total = res.evals_tri + res.evals_cols;
		ck_assert_msg(total <= bound, "guide %d: %d evaluations, bound %d", guide, total,
		              bound);
		if (guide)
			ck_assert_msg(total <= 6 && res.guided >= 1,
			              "guided: %d evaluations, %d guesses", total, res.guided);
	}
	qr_free(&q);
	net_free(net);
}
END_TEST

/* alg3_propose keeps what the loop keeps, the first pivots. */
START_TEST(propose_uses_it)
{
	Rng r;
	rng_seed(&r, 8);
	for (int i = 0; i < 6; i++) {
		cond_set_path(i % 2 ? COND_PATH_LAPACK : COND_PATH_GSL);
		Net *net = random_layer(&r, 30 + 7 * i, 28 + 5 * i, i * 0.5);
		Alg3Opts o;
		alg3_opts_default(&o);
		o.tau = 10;
		Alg3Proposal sp;
		Err e;
		ck_assert_msg(alg3_propose(net, 1, &o, &sp, &e) == 0, "%s", e.msg);
		ck_assert(sp.kappa_before > o.tau);
		int evals;
		double k;
		int n = loop_ref(net, 1, sp.perm, sp.p_qr, o.tau, &k, &evals);
		ck_assert_int_eq(sp.nkeep, n);
		ck_assert(fabs(sp.kappa_after - k) <= 1e-12 * k);
		ck_assert(sp.kappa_after <= o.tau);
		alg3_proposal_free(&sp);
		net_free(net);
	}
	cond_set_path(COND_PATH_AUTO);
}
END_TEST

static int stop_now(void *ud)
{
	(void)ud;
	return 1;
}

static double last_frac;
static int reports;
static char last_what[128];

static void meter(const char *what, double frac, void *ud)
{
	(void)ud;
	ck_assert(frac >= 0 && frac <= 1);
	ck_assert_msg(frac >= last_frac - 1e-12, "%g after %g", frac, last_frac);
	last_frac = frac;
	reports++;
	snprintf(last_what, sizeof last_what, "%s", what);
}

/* A stop is answered between probes; each probe is reported, its share
 * never going back. */
START_TEST(stop_and_meter)
{
	Rng r;
	rng_seed(&r, 9);
	Net *net = random_layer(&r, 301, 300, 0);
	Qr q;
	cond_set_path(COND_PATH_LAPACK);
	qr_of(net, 1, &q);
	int p = p_at(&q, 25);
	KLoopLayer in = {net, 1, q.perm, q.R, q.k, p, 25, 0};
	KLoopResult res;
	Err e;
	hook_set_thread_stop(stop_now, NULL);
	ck_assert_int_eq(alg3_kloop(&in, 1, &res, &e), 1); /* stopped, not failed */
	ck_assert_str_eq(e.msg, "layer 1: stopped in the κ loop");
	hook_set_thread_stop(NULL, NULL);
	hook_set_thread_meter(meter, NULL);
	ck_assert_int_eq(alg3_kloop(&in, 1, &res, &e), 0);
	hook_set_thread_meter(NULL, NULL);
	ck_assert_int_gt(reports, res.evals_tri + res.evals_cols);
	ck_assert_msg(strstr(last_what, "layer 1: the κ loop, κ of the first ") == last_what, "%s",
	              last_what);
	cond_set_path(COND_PATH_AUTO);
	qr_free(&q);
	net_free(net);
}
END_TEST

START_TEST(bad_input)
{
	Rng r;
	rng_seed(&r, 1);
	Net *net = random_layer(&r, 6, 5, 0);
	Qr q;
	qr_of(net, 1, &q);
	KLoopLayer in = {net, 1, q.perm, q.R, q.k, 0, 25, 0};
	KLoopResult res;
	Err e;
	ck_assert_int_eq(alg3_kloop(&in, 1, &res, &e), -1);
	ck_assert_msg(strstr(e.msg, "outside 1..5") != NULL, "%s", e.msg);
	in.p_qr = 1;
	in.layer = 2; /* the output layer */
	ck_assert_int_eq(alg3_kloop(&in, 1, &res, &e), -1);
	qr_free(&q);
	net_free(net);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("alg3_kloop");
	TCase *t = tcase_create("kloop");
	tcase_set_timeout(t, 240);
	tcase_add_loop_test(t, bisection_is_the_loop, 0, 2);
	tcase_add_test(t, logarithmic_evaluations);
	tcase_add_test(t, propose_uses_it);
	tcase_add_test(t, stop_and_meter);
	tcase_add_test(t, bad_input);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
