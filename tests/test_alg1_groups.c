/* test_alg1_groups.c - Algorithm 1 on a graph network by channel groups
 * (alg/alg1_groups.h): on a small residual graph trained on the test's own
 * data, each iteration's units are the last ones less the p the
 * conditioning reported for every group over τ; the loop ends with every
 * shrinkable group at κ ≤ τ or at max_iter; a planted copy of a unit across
 * a residual group gives p ≥ 1 there, p = 0 in the group beside it; the
 * fixed groups never change; warm shrinks by the same rule and keeps the
 * kept units' weights, fresh weights do not; stepped, the run is the same as
 * run to its end; a chain and --round are refused. */
#include <math.h>

#include "alg/alg1_groups.h"
#include "base/rng.h"
#include "graph_build.h"
#include "testutil.h"

/* stem conv (layer 1, c channels), a block of two convs (2, 3) added to
 * the stream, the Gemm (4): groups {1, 3}, {2}, {4}. */
static Net *residual(int c, uint64_t seed)
{
	Graph *g = graph_new(4, 2, 6, 6, NULL);
	int s = gb_add(g, gb_conv(c, 3, 1, 1, 1), 0, -1);
	s = gb_add(g, gb_op(GRAPH_RELU), s, -1);
	int a = gb_add(g, gb_conv(c, 3, 1, 1, 1), s, -1);
	a = gb_add(g, gb_op(GRAPH_RELU), a, -1);
	a = gb_add(g, gb_conv(c, 3, 1, 1, 1), a, -1);
	s = gb_add(g, gb_op(GRAPH_ADD), a, s);
	s = gb_add(g, gb_op(GRAPH_RELU), s, -1);
	gb_head_gap(g, s);
	return gb_random_net(g, seed);
}

/* 120 rows of 2×6×6 maps, the class from the sums of the two channels'
 * halves, so that training learns something. */
static Dataset *rows(void)
{
	Dataset *d = gb_random_rows(120, 72, 11);
	for (int i = 0; i < d->n; i++) {
		const float *x = d->x + (size_t)i * 72;
		double a = 0, b = 0;
		for (int j = 0; j < 36; j++)
			a += x[j], b += x[36 + j];
		d->y[i] = (a > 0) + (b > 0);
	}
	return d;
}

static Alg1Opts opts(double tau, int max_iter, int warm)
{
	Alg1Opts o;
	alg1_opts_default(&o);
	o.tau = tau;
	o.eta = 2;
	o.max_iter = max_iter;
	o.warm = warm;
	o.seed = 5;
	o.train.batch = 20;
	o.train.threads = 1;
	return o;
}

static Alg1Groups *run(const Net *net, const Dataset *d, Alg1Opts o)
{
	Err e;
	Alg1Groups *a = alg1_groups_new(net, d, &o, &e);
	ck_assert_msg(a != NULL, "%s", e.msg);
	ck_assert_msg(alg1_groups_run(a, NULL, &e) == 0, "%s", e.msg);
	return a;
}

/* Each record's units are the one before's less min(p, units − 1) in
 * every shrinkable group over τ, the others kept; *shrunk counts the
 * groups that lost units. */
static void check_shrinks(const Alg1Groups *a, int *shrunk)
{
	*shrunk = 0;
	for (int i = 1; i < a->nrec; i++) {
		const Alg1GroupsRecord *r = &a->rec[i - 1], *s = &a->rec[i];
		ck_assert_int_eq(s->ngroups, r->ngroups);
		for (int q = 0; q < r->ngroups; q++) {
			int want = r->units[q];
			if (r->free[q] == r->units[q] && r->rows[q] > 0 && r->kappa[q] > r->tau)
				want -= r->p[q] < r->units[q] - 1 ? r->p[q] : r->units[q] - 1;
			ck_assert_msg(s->units[q] == want,
			              "iteration %d, group %d: %d units, expected %d (p %d, κ %g)",
			              i, q + 1, s->units[q], want, r->p[q], r->kappa[q]);
			*shrunk += want < r->units[q];
		}
		ck_assert_uint_le(s->nparam, r->nparam);
	}
}

/* The loop's end: every shrinkable group at κ ≤ τ (done), or max_iter
 * iterations after the first. */
static void check_end(const Alg1Groups *a, int max_iter)
{
	const Alg1GroupsRecord *r = &a->rec[a->nrec - 1];
	int over = 0;
	for (int q = 0; q < r->ngroups; q++)
		over += r->free[q] == r->units[q] && r->rows[q] > 0 && r->kappa[q] > r->tau;
	if (a->status == ALG1_DONE)
		ck_assert_int_eq(over, 0);
	else {
		ck_assert_int_eq(a->status, ALG1_MAX_ITER);
		ck_assert_int_eq(a->nrec, max_iter + 1);
		ck_assert_int_gt(over, 0);
	}
}

START_TEST(test_shrinks_by_p)
{
	Net *net = residual(8, 1);
	Dataset *d = rows();
	Alg1Groups *a = run(net, d, opts(1.5, 4, 0));
	int shrunk;
	check_shrinks(a, &shrunk);
	ck_assert_int_gt(shrunk, 0);
	check_end(a, 4);
	/* the logits' group is measured but never changes */
	for (int i = 0; i < a->nrec; i++) {
		ck_assert_int_eq(a->rec[i].ngroups, 3);
		ck_assert_int_eq(a->rec[i].units[2], 3);
		ck_assert_int_eq(a->rec[i].free[2], 0);
		ck_assert(a->rec[i].rows[2] > 0);
		ck_assert(isfinite(a->rec[i].train_error));
	}
	/* the network it ends with has the last record's units */
	ck_assert_int_eq(a->gg->g[0].units, a->rec[a->nrec - 1].units[0]);
	ck_assert_int_eq(a->gg->g[1].units, a->rec[a->nrec - 1].units[1]);
	ck_assert_uint_eq(a->net->nparam, a->rec[a->nrec - 1].nparam);
	alg1_groups_free(a);
	/* at a τ no group exceeds, the first iteration is the last */
	a = run(net, d, opts(1e12, 4, 0));
	ck_assert_int_eq(a->status, ALG1_DONE);
	ck_assert_int_eq(a->nrec, 1);
	alg1_groups_free(a);
	dataset_free(d);
	net_free(net);
}
END_TEST

/* Warm: the same rule, the units kept with their trained weights (the
 * loop ends as it must too); max_iter 1 stops after one removal. */
START_TEST(test_warm_and_max_iter)
{
	Net *net = residual(8, 2);
	Dataset *d = rows();
	Alg1Groups *a = run(net, d, opts(1.5, 3, 1));
	int shrunk;
	check_shrinks(a, &shrunk);
	ck_assert_int_gt(shrunk, 0);
	check_end(a, 3);
	alg1_groups_free(a);
	a = run(net, d, opts(1.5, 1, 0));
	ck_assert_int_eq(a->status, ALG1_MAX_ITER);
	ck_assert_int_eq(a->nrec, 2);
	alg1_groups_free(a);
	dataset_free(d);
	net_free(net);
}
END_TEST

/* How many columns of layer 1's Ŵ in b (the stem's: it reads the input,
 * whose rows never change) are, bit for bit, a column of a's. */
static int stem_columns_kept(const Net *a, const Net *b)
{
	int ka = graph_layer_node(a->graph, 1), kb = graph_layer_node(b->graph, 1);
	int rows = graph_rows(a->graph, ka) + 1, ca = a->graph->node[ka].c,
	    cb = b->graph->node[kb].c, kept = 0;
	const float *Wa = a->param + a->graph->node[ka].off,
	            *Wb = b->param + b->graph->node[kb].off;
	for (int j = 0; j < cb; j++) {
		int found = 0;
		for (int i = 0; i < ca && !found; i++) {
			int same = 1;
			for (int r = 0; r < rows && same; r++)
				same = Wb[(size_t)r * cb + j] == Wa[(size_t)r * ca + i];
			found = same;
		}
		kept += found;
	}
	return kept;
}

/* With a learning rate of 0 the trainings change nothing: after a warm
 * iteration the stem's columns are those of the network before it, each
 * kept unit's own; after a fresh one none is. */
START_TEST(test_warm_keeps_weights)
{
	Net *net = residual(8, 6);
	Dataset *d = rows();
	for (int warm = 0; warm < 2; warm++) {
		Alg1Opts o = opts(1.5, 1, warm);
		o.train.adam.lr = 0;
		o.eta = 1;
		Err e;
		Alg1Groups *a = alg1_groups_new(net, d, &o, &e);
		ck_assert_msg(a != NULL, "%s", e.msg);
		ck_assert_msg(alg1_groups_step(a, NULL, &e) == 0, "%s", e.msg);
		Net *before = net_clone(a->net, &e);
		ck_assert_msg(before != NULL, "%s", e.msg);
		ck_assert_msg(alg1_groups_step(a, NULL, &e) == 0, "%s", e.msg);
		int c = a->rec[1].units[0];
		ck_assert_int_lt(c, a->rec[0].units[0]); /* the stem's group shrank */
		ck_assert_int_eq(stem_columns_kept(before, a->net), warm ? c : 0);
		net_free(before);
		alg1_groups_free(a);
	}
	dataset_free(d);
	net_free(net);
}
END_TEST

/* Column b of layer node k's Ŵ made a copy of column a. */
static void copy_column(Net *net, int k, int a, int b)
{
	const Graph *g = net->graph;
	int r = graph_rows(g, k) + 1, cols = g->node[k].c;
	float *W = net->param + g->node[k].off;
	for (int i = 0; i < r; i++)
		W[(size_t)i * cols + b] = W[(size_t)i * cols + a];
}

/* A unit of the residual group planted as a copy of another in both its
 * producers: its stack has a zero singular value, p ≥ 1, κ over any τ;
 * the block's inner group, untouched, has p = 0 at τ = 25. */
START_TEST(test_planted_copy)
{
	Net *net = residual(6, 3);
	copy_column(net, graph_layer_node(net->graph, 1), 2, 4);
	copy_column(net, graph_layer_node(net->graph, 3), 2, 4);
	Err e;
	ChannelGroups *gg = graph_groups(net->graph, &e);
	ck_assert_msg(gg != NULL, "%s", e.msg);
	double kappa;
	int p, rows;
	ck_assert_msg(alg1_groups_kappa(net, gg, 0, 25, &kappa, &p, &rows, &e) == 0, "%s", e.msg);
	ck_assert_int_ge(p, 1);
	ck_assert_int_eq(rows,
	                 (2 * 9 + 1) + (6 * 9 + 1)); /* the stem reads 2 channels, conv 3 six */
	ck_assert(kappa > 1e10);
	ck_assert_msg(alg1_groups_kappa(net, gg, 1, 25, &kappa, &p, &rows, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(p, 0);
	ck_assert(kappa < 25);
	graph_groups_free(gg);
	net_free(net);
}
END_TEST

/* Stepped by hand, the records are those of alg1_groups_run, bit for bit;
 * a chain and --round are refused. */
START_TEST(test_steps_and_refusals)
{
	Net *net = residual(6, 4);
	Dataset *d = rows();
	Alg1Opts o = opts(1.5, 2, 0);
	Alg1Groups *a = run(net, d, o);
	Err e;
	Alg1Groups *b = alg1_groups_new(net, d, &o, &e);
	ck_assert_msg(b != NULL, "%s", e.msg);
	while (b->status == ALG1_RUNNING)
		ck_assert_msg(alg1_groups_step(b, NULL, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(a->nrec, b->nrec);
	for (int i = 0; i < a->nrec; i++) {
		ck_assert_mem_eq(a->rec[i].units, b->rec[i].units, 3 * sizeof(int));
		ck_assert(a->rec[i].train_error == b->rec[i].train_error);
	}
	ck_assert_mem_eq(a->net->param, b->net->param, a->net->nparam * sizeof(float));
	ck_assert_int_eq(alg1_groups_step(b, NULL, &e), 0); /* after the end: nothing */
	alg1_groups_free(a), alg1_groups_free(b);
	o.round = 2;
	ck_assert_ptr_null(alg1_groups_new(net, d, &o, &e));
	ck_assert_msg(strstr(e.msg, "round"), "%s", e.msg);
	Net *chain = net_new(2, (int[]){72, 4, 3}, ACT_ERF, 1, &e);
	o.round = 1;
	ck_assert_ptr_null(alg1_groups_new(chain, d, &o, &e));
	ck_assert_msg(strstr(e.msg, "graph"), "%s", e.msg);
	net_free(chain);
	dataset_free(d);
	net_free(net);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("alg1_groups");
	TCase *t = tcase_create("alg1_groups");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_shrinks_by_p);
	tcase_add_test(t, test_warm_and_max_iter);
	tcase_add_test(t, test_warm_keeps_weights);
	tcase_add_test(t, test_planted_copy);
	tcase_add_test(t, test_steps_and_refusals);
	suite_add_tcase(s, t);
	return tu_run(s);
}
