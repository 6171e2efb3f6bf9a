/* test_alg2_graph.c - Algorithm 2 on a graph network (alg/alg2_scale.h):
 * every group whose units may all go scaled by β, rounded and at least 1,
 * the fixed ones (the logits, a grouped convolution's channels) kept; the
 * shapes the trials train have those units and every node of the graph;
 * with a stub trial the order, means, scores, pick and the extension of
 * the range are a chain's; real trials are the same bits run on their own,
 * in the sweep, and side by side; the pick's network has the pick's units
 * and fresh weights from its seed; two β of the same units refused. */
#include <math.h>

#include "alg/alg2_scale.h"
#include "engine/graph_groups.h"
#include "graph_build.h"
#include "testutil.h"

/* stem conv (layer 1, 8 channels), a block of two convs (2, 3) added to
 * the stream; a grouped conv of the input (4, 2 groups) concatenated with
 * the stream, a conv after it (5), the head (6): groups {1, 3} 8 free, {2}
 * 8 free, {4} fixed (a grouped conv gives them: its 2 units), {5} 6 free, {6} the
 * logits. */
static Net *base_graph(void)
{
	Graph *g = graph_new(4, 2, 6, 6, NULL);
	int s = gb_add(g, gb_conv(8, 3, 1, 1, 1), 0, -1);
	s = gb_add(g, gb_op(GRAPH_RELU), s, -1);
	int a = gb_add(g, gb_conv(8, 3, 1, 1, 1), s, -1);
	a = gb_add(g, gb_op(GRAPH_RELU), a, -1);
	a = gb_add(g, gb_conv(8, 3, 1, 1, 1), a, -1);
	s = gb_add(g, gb_op(GRAPH_ADD), a, s);
	s = gb_add(g, gb_op(GRAPH_RELU), s, -1);
	int q = gb_add(g, gb_conv(4, 3, 1, 1, 2), 0, -1);
	s = gb_add(g, (GraphNode){.op = GRAPH_CONCAT}, s, q);
	s = gb_add(g, gb_conv(6, 3, 1, 1, 1), s, -1);
	gb_head_gap(g, s);
	return gb_random_net(g, 3);
}

/* The units of each group of net. */
static void units_of(const Net *net, int *u, int n)
{
	Err e;
	ChannelGroups *gg = graph_groups(net->graph, &e);
	ck_assert_msg(gg != NULL, "%s", e.msg);
	ck_assert_int_eq(gg->n, n);
	for (int q = 0; q < n; q++)
		u[q] = gg->g[q].units;
	graph_groups_free(gg);
}

START_TEST(scaled_units)
{
	Net *b = base_graph();
	ck_assert_int_eq(alg2_nwidths(b), 5);
	int w[5], u[5];
	ck_assert_int_eq(alg2_scaled_widths(b, 1.5, w), 0);
	ck_assert_mem_eq(w, ((int[]){12, 12, 2, 9, 3}), sizeof w);
	ck_assert_int_eq(alg2_scaled_widths(b, 0.55, w), 0); /* 4.4, 3.3 */
	ck_assert_mem_eq(w, ((int[]){4, 4, 2, 3, 3}), sizeof w);
	ck_assert_int_eq(alg2_scaled_widths(b, 0.01, w), 0);
	ck_assert_mem_eq(w, ((int[]){1, 1, 2, 1, 3}), sizeof w);
	ck_assert_int_eq(alg2_scaled_widths(b, 1.0, w), 0);
	Err e;
	Net *shape = alg2_shape(b, (int[]){12, 5, 2, 7, 3}, &e);
	ck_assert_msg(shape != NULL, "%s", e.msg);
	units_of(shape, u, 5);
	ck_assert_mem_eq(u, ((int[]){12, 5, 2, 7, 3}), sizeof u);
	ck_assert_int_eq(shape->graph->n, b->graph->n);
	for (size_t i = 0; i < shape->nparam; i++)
		ck_assert(shape->param[i] == 0.0f);
	Net *f1 = alg2_fresh(b, (int[]){12, 5, 2, 7, 3}, 7, &e), *f2 = alg2_fresh(b, w, 7, &e),
	    *f3 = alg2_fresh(b, (int[]){12, 5, 2, 7, 3}, 7, &e);
	ck_assert_msg(f1 && f2 && f3, "%s", e.msg);
	ck_assert_uint_eq(f1->nparam, shape->nparam);
	ck_assert_mem_eq(f1->param, f3->param, f1->nparam * sizeof(float));
	ck_assert_uint_eq(f2->nparam, b->nparam);
	net_free(f1), net_free(f2), net_free(f3), net_free(shape);
	/* β whose units round alike: refused, naming the groups */
	ck_assert_int_eq(alg2_check_distinct(b, (double[]){1.0, 1.02}, 2, &e), -1);
	ck_assert_msg(strstr(e.msg, "same channel groups 8x8x2x6x3"), "%s", e.msg);
	ck_assert_int_eq(alg2_check_distinct(b, (double[]){1.0, 1.1}, 2, &e), 0);
	net_free(b);
}
END_TEST

/* A stub trial: errors lines in β (the largest wins), the units of the
 * shape's first group logged. */
typedef struct Stub {
	int units[16];
	int n;
} Stub;

static int stub_trial(const Net *shape, double beta, int trial, const Dataset *tr, const Dataset *v,
                      const Alg2Opts *o, Alg2Trial *out, const Hook *h, void *ud, Err *e)
{
	Stub *s = ud;
	int u[5];
	units_of(shape, u, 5);
	if (s->n < 16)
		s->units[s->n++] = u[0];
	out->err_tr = 0.1 + 0.01 * trial;
	out->err_v = 0.5 - 0.1 * beta + 0.02 * trial;
	out->max_kappa = 10;
	return 0;
}

START_TEST(stub_order_pick_extend)
{
	Net *b = base_graph();
	Alg2Opts o;
	Err e;
	alg2_opts_default(&o);
	ck_assert_int_eq(alg2_parse_betas("1.0,1.25", &o, &e), 0);
	o.q = 2;
	o.max_extend = 1;
	Alg2 *a = alg2_new(b, NULL, NULL, &o, &e);
	ck_assert_msg(a != NULL, "%s", e.msg);
	Stub s = {.n = 0};
	a->fn = stub_trial;
	a->fn_ud = &s;
	ck_assert_msg(alg2_run(a, NULL, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(a->nw, 5);
	ck_assert_int_eq(a->nb, 3); /* 1.5 added beyond the winning edge */
	ck_assert_double_eq_tol(a->b[2].beta, 1.5, 1e-12);
	ck_assert_mem_eq(a->b[2].widths, ((int[]){12, 12, 2, 9, 3}), 5 * sizeof(int));
	ck_assert_mem_eq(a->b[1].widths, ((int[]){10, 10, 2, 8, 3}), 5 * sizeof(int)); /* 7.5 */
	ck_assert_int_eq(s.n, 6);
	ck_assert_mem_eq(s.units, ((int[]){8, 8, 10, 10, 12, 12}), 6 * sizeof(int));
	ck_assert_int_eq(alg2_pick(a), 2);
	ck_assert_double_eq_tol(a->b[2].err_v, 0.5 - 0.15 + 0.01, 1e-12);
	ck_assert_double_eq_tol(a->b[2].score, 2 * a->b[2].err_v - a->b[2].err_tr, 1e-12);
	Net *p = alg2_pick_net(a, 4, &e);
	ck_assert_msg(p != NULL, "%s", e.msg);
	int u[5];
	units_of(p, u, 5);
	ck_assert_mem_eq(u, a->b[2].widths, sizeof u);
	ck_assert_ptr_null(p->prep);
	net_free(p);
	alg2_free(a);
	net_free(b);
}
END_TEST

/* 2×6×6 rows, the class from the sums of the two channels' halves. */
static Dataset *rows(int n, uint64_t seed)
{
	Dataset *d = gb_random_rows(n, 72, seed);
	for (int i = 0; i < d->n; i++) {
		const float *x = d->x + (size_t)i * 72;
		double a = 0, b = 0;
		for (int j = 0; j < 36; j++)
			a += x[j], b += x[36 + j];
		d->y[i] = (a > 0) + (b > 0);
	}
	return d;
}

/* Real trials: one on its own is the sweep's, bit for bit; the sweep with
 * 2 trials at once is the serial one; another trial other numbers. */
START_TEST(real_trials_reproducible)
{
	Net *b = base_graph();
	Dataset *tr = rows(60, 1), *v = rows(30, 2);
	Alg2Opts o;
	Err e;
	alg2_opts_default(&o);
	ck_assert_int_eq(alg2_parse_betas("0.5,1.0", &o, &e), 0);
	o.q = 2, o.eta = 2, o.extend = 0, o.seed = 9;
	o.train.batch = 15, o.train.threads = 2;
	Alg2Trial t1, t0;
	int w[5];
	ck_assert_msg(alg2_trial(b, 0.5, 1, tr, v, &o, w, &t1, NULL, &e) == 0, "%s", e.msg);
	ck_assert_mem_eq(w, ((int[]){4, 4, 2, 3, 3}), sizeof w);
	ck_assert_msg(alg2_trial(b, 0.5, 0, tr, v, &o, w, &t0, NULL, &e) == 0, "%s", e.msg);
	ck_assert(t0.max_kappa != t1.max_kappa && isfinite(t1.max_kappa));
	Alg2 *ref = NULL;
	for (int jobs = 1; jobs <= 2; jobs++) {
		o.jobs = jobs;
		Alg2 *a = alg2_new(b, tr, v, &o, &e);
		ck_assert_msg(a != NULL, "%s", e.msg);
		ck_assert_msg(alg2_run(a, NULL, &e) == 0, "%s", e.msg);
		ck_assert_int_eq(a->b[0].done, 2);
		ck_assert_double_eq(a->b[0].err_tr, (t0.err_tr + t1.err_tr) / 2);
		ck_assert_double_eq(a->b[0].err_v, (t0.err_v + t1.err_v) / 2);
		if (!ref) {
			ref = a;
			continue;
		}
		for (int i = 0; i < 2; i++) {
			ck_assert_mem_eq(&a->b[i].err_tr, &ref->b[i].err_tr, sizeof(double));
			ck_assert_mem_eq(&a->b[i].err_v, &ref->b[i].err_v, sizeof(double));
		}
		ck_assert_int_eq(alg2_pick(a), alg2_pick(ref));
		alg2_free(a);
	}
	alg2_free(ref);
	dataset_free(tr), dataset_free(v);
	net_free(b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("alg2_graph");
	TCase *t = tcase_create("alg2_graph");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, scaled_units);
	tcase_add_test(t, stub_order_pick_extend);
	tcase_add_test(t, real_trials_reproducible);
	suite_add_tcase(s, t);
	return tu_run(s);
}
