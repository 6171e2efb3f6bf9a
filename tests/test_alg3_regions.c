/* test_alg3_regions.c - a squeeze seen as regions: removing planted
 * duplicates with compensation leaves the regions and the accuracy as they
 * were, as many removed at random change them; the random panel is the
 * median draw, its accuracy among the draws'; keeping every neuron changes
 * nothing; the variants are Algorithm 3 with the counts given. */
#include <math.h>

#include "alg/alg3_regions.h"
#include "alg/alg3_squeeze.h"
#include "base/rng.h"
#include "data/plane_sets.h"
#include "engine/train.h"
#include "testutil.h"

static const PlaneBox box = {-1.3, 1.3, -1.3, 1.3};

/* A 2-8-8-3 network trained a little on the gauss clouds, then its second
 * hidden layer doubled: neuron 8 + j of it is a copy of neuron j (the same
 * column of Ŵ⁽²⁾), each twin carrying half of the outgoing weights, so that
 * the outputs are those of the 2-8-8-3 network. */
static Net *padded(const Dataset *d)
{
	int w[] = {2, 8, 8, 3}, w2[] = {2, 8, 16, 3};
	Err e = {{0}};
	Net *small = net_fresh(3, w, ACT_TANH, 1, 3, &e), *net = net_new(3, w2, ACT_TANH, 1, &e);
	ck_assert(small && net);
	TrainOpts o;
	train_opts_default(&o);
	o.adam.lr = 0.02;
	o.batch = 30;
	o.threads = 1;
	ck_assert_int_eq(train_epochs(small, d, &o, 30, NULL, NULL, &e), 0);
	memcpy(net->W[0], small->W[0], 2 * 8 * sizeof *net->W[0]);
	memcpy(net->b[0], small->b[0], 8 * sizeof *net->b[0]);
	for (int j = 0; j < 8; j++) {
		for (int r = 0; r < 8; r++)
			net->W[1][r * 16 + j] = net->W[1][r * 16 + 8 + j] = small->W[1][r * 8 + j];
		net->b[1][j] = net->b[1][8 + j] = small->b[1][j];
		for (int c = 0; c < 3; c++)
			net->W[2][j * 3 + c] = net->W[2][(8 + j) * 3 + c] =
			    0.5f * small->W[2][j * 3 + c];
	}
	memcpy(net->b[2], small->b[2], 3 * sizeof *net->b[2]);
	net_free(small);
	return net;
}

START_TEST(test_duplicates_removed)
{
	Err e = {{0}};
	Dataset *d = plane_set("gauss", 300, 0.05, 1, &e),
	        *t = plane_set("gauss", 300, 0.05, 2, &e);
	Net *net = padded(d);
	int counts[2] = {8, 8};
	Alg3Regions r;
	ck_assert_int_eq(alg3_regions(net, counts, t, d, 5, 7, &box, 40, 40, &r, &e), 0);
	ck_assert_int_eq(r.removed, 8);
	ck_assert_int_eq(r.draws, 5);
	/* the twins are exact combinations: QR drops one of each pair; the refit
	 * puts their outgoing weights on the kept twin */
	ck_assert_double_eq_tol(r.acc[REGION_QR_COMP], r.acc[REGION_NOW], 1e-9);
	ck_assert_double_lt(plane_regions_differ(&r.reg[REGION_NOW], &r.reg[REGION_QR_COMP]),
	                    0.002);
	/* as many at random drop both twins of some pairs: the regions change */
	ck_assert_double_gt(plane_regions_differ(&r.reg[REGION_NOW], &r.reg[REGION_RANDOM]), 0.02);
	/* the random panel is the median draw */
	int below = 0, above = 0;
	for (int k = 0; k < 5; k++) {
		below += r.draw_acc[k] < r.draw_acc[r.median];
		above += r.draw_acc[k] > r.draw_acc[r.median];
	}
	ck_assert_int_le(below, 2);
	ck_assert_int_le(above, 2);
	ck_assert_double_eq_tol(r.acc[REGION_RANDOM], r.draw_acc[r.median], 1e-9);
	double mean = 0;
	for (int k = 0; k < 5; k++)
		mean += r.draw_acc[k] / 5;
	ck_assert_double_eq_tol(r.mean, mean, 1e-9);
	ck_assert(r.sd >= 0);
	/* the median draw is the one alg3_variant draws from its seed */
	Net *v =
	    alg3_variant(net, counts, ALG3_RANDOM, rng_derive(7, (uint64_t)r.median), 0, d, &e);
	PlaneRegions g;
	ck_assert_int_eq(plane_regions(v, &box, 40, 40, &g, &e), 0);
	ck_assert_double_eq(plane_regions_differ(&g, &r.reg[REGION_RANDOM]), 0);
	ck_assert_int_eq(v->n[2], 8);
	plane_regions_free(&g);
	net_free(v);
	alg3_regions_free(&r);
	net_free(net);
	dataset_free(d);
	dataset_free(t);
}
END_TEST

/* Keeping every neuron: every panel is the network as it is. */
START_TEST(test_all_kept)
{
	Err e = {{0}};
	Dataset *d = plane_set("moons", 120, 0.1, 1, &e);
	int w[] = {2, 6, 5, 2};
	Net *net = net_fresh(3, w, ACT_ERF, 1, 4, &e);
	int counts[2] = {6, 5};
	Alg3Regions r;
	ck_assert_int_eq(alg3_regions(net, counts, d, d, 3, 1, &box, 16, 12, &r, &e), 0);
	ck_assert_int_eq(r.removed, 0);
	for (int p = 1; p < REGION_NPANELS; p++) {
		ck_assert_double_eq(plane_regions_differ(&r.reg[REGION_NOW], &r.reg[p]), 0);
		ck_assert_double_eq_tol(r.acc[p], r.acc[REGION_NOW], 1e-9);
	}
	ck_assert_int_eq(r.reg[REGION_NOW].w, 16);
	ck_assert_int_eq(r.reg[REGION_NOW].h, 12);
	alg3_regions_free(&r);
	/* counts out of range, no draws */
	counts[0] = 7;
	ck_assert_int_eq(alg3_regions(net, counts, d, d, 3, 1, &box, 16, 12, &r, &e), -1);
	counts[0] = 6;
	ck_assert_int_eq(alg3_regions(net, counts, d, d, 0, 1, &box, 16, 12, &r, &e), -1);
	/* a variant is Algorithm 3 with the counts given */
	counts[0] = 3;
	counts[1] = 2;
	Net *v = alg3_variant(net, counts, ALG3_QR, 0, 0, d, &e), *u = net_clone(net, &e);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.keep_counts = counts;
	int total = 0;
	ck_assert_int_eq(alg3_squeeze_net(u, &o, d, NULL, &total, &e), 0);
	ck_assert_int_eq(total, 6);
	ck_assert_int_eq(v->nparam, u->nparam);
	ck_assert(!memcmp(v->param, u->param, v->nparam * sizeof *v->param));
	net_free(u);
	net_free(v);
	net_free(net);
	dataset_free(d);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("alg3_regions");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_duplicates_removed);
	tcase_add_test(tc, test_all_kept);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
