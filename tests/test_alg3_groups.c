/* test_alg3_groups.c - Algorithm 3 on a graph network by channel groups
 * (alg/alg3_groups.h, engine/graph_edit.h): a channel planted as an exact
 * copy of another across a residual group (both producers) and across an
 * expansion and its depthwise convolution is the one the squeeze removes,
 * from every producer and reader; with compensation the network answers as
 * before (to 1e-5), without it not; the other groups keep every channel; the
 * L1 rule and random choice at given counts; a fixed unit is refused by
 * name. */
#include <math.h>

#include "alg/alg3_groups.h"
#include "base/rng.h"
#include "engine/graph_edit.h"
#include "engine/graph_pass.h"
#include "graph_build.h"
#include "testutil.h"

/* Column b of layer node k's Ŵ (W and bias) made a copy of column a. */
static void copy_column(Net *net, int k, int a, int b)
{
	const Graph *g = net->graph;
	int rows = graph_rows(g, k) + 1, cols = g->node[k].c;
	float *W = net->param + g->node[k].off;
	for (int i = 0; i < rows; i++)
		W[(size_t)i * cols + b] = W[(size_t)i * cols + a];
}

/* The largest difference of the two networks' logits on ds. */
static double logits_apart(const Net *a, const Net *b, const Dataset *ds)
{
	Err e;
	float *la = malloc((size_t)ds->n * 3 * sizeof *la),
	      *lb = malloc((size_t)ds->n * 3 * sizeof *lb);
	ck_assert(la && lb);
	ck_assert_msg(graph_logits(a->graph, a->param, ds->x, ds->n, la, &e) == 0, "%s", e.msg);
	ck_assert_msg(graph_logits(b->graph, b->param, ds->x, ds->n, lb, &e) == 0, "%s", e.msg);
	double m = 0;
	for (int i = 0; i < ds->n * 3; i++)
		m = fmax(m, fabs((double)la[i] - lb[i]));
	free(la), free(lb);
	return m;
}

/* stem conv (layer 1, 6 channels), a block of two convs (2, 3) added to
 * the stream, the Gemm (4): channel 5 of the stem and of conv 3 a copy of
 * channel 4, so that the stream's channel 5 is its channel 4 everywhere. */
static Net *residual(void)
{
	Graph *g = graph_new(4, 2, 6, 6, NULL);
	int s = gb_add(g, gb_conv(6, 3, 1, 1, 1), 0, -1);
	s = gb_add(g, gb_op(GRAPH_RELU), s, -1);
	int a = gb_add(g, gb_conv(6, 3, 1, 1, 1), s, -1);
	a = gb_add(g, gb_op(GRAPH_RELU), a, -1);
	a = gb_add(g, gb_conv(6, 3, 1, 1, 1), a, -1);
	s = gb_add(g, gb_op(GRAPH_ADD), a, s);
	s = gb_add(g, gb_op(GRAPH_RELU), s, -1);
	gb_head_gap(g, s);
	Net *net = gb_random_net(g, 7);
	copy_column(net, graph_layer_node(net->graph, 1), 4, 5);
	copy_column(net, graph_layer_node(net->graph, 3), 4, 5);
	return net;
}

START_TEST(test_residual_group)
{
	Err e;
	Net *net = residual();
	Dataset *ds = gb_random_rows(200, 72, 3);
	GroupSqueezeOpts o = {.tau = 1e4, .compensate = 1, .sample = ds, .maxrows = 200};
	ChannelGroups *gg = graph_groups(net->graph, &e);
	ck_assert_ptr_nonnull(gg);
	ck_assert_int_eq(gg->n, 3);
	GroupDecision dec[3];
	Net *sq = alg3_squeeze_graph(net, gg, &o, dec, &e);
	ck_assert_msg(sq != NULL, "%s", e.msg);
	ck_assert_int_eq(dec[0].units, 6);
	ck_assert_int_eq(dec[0].kept, 5); /* the copy */
	ck_assert_int_eq(dec[0].rows, (2 * 9 + 1) + (6 * 9 + 1));
	ck_assert(isinf(dec[0].kappa) || dec[0].kappa > 1e6);
	ck_assert_int_eq(dec[1].kept, 6);   /* conv 2's random channels */
	ck_assert_ptr_nonnull(dec[2].skip); /* the logits */
	const Graph *g = sq->graph;
	ck_assert_int_eq(g->node[graph_layer_node(g, 1)].c, 5);
	ck_assert_int_eq(g->node[graph_layer_node(g, 2)].c, 6);
	ck_assert_int_eq(graph_rows(g, graph_layer_node(g, 2)), 5 * 9);
	ck_assert_int_eq(g->node[graph_layer_node(g, 3)].c, 5);
	ck_assert_int_eq(graph_rows(g, graph_layer_node(g, 4)), 5);
	double d = logits_apart(net, sq, ds);
	ck_assert_msg(d < 1e-5, "the squeezed network's logits differ by %g", d);
	net_free(sq);
	/* without compensation the copy's weights in the readers are lost */
	o.compensate = 0;
	sq = alg3_squeeze_graph(net, gg, &o, dec, &e);
	ck_assert_msg(sq != NULL, "%s", e.msg);
	d = logits_apart(net, sq, ds);
	ck_assert_msg(d > 1e-3, "without compensation the logits differ by only %g", d);
	graph_groups_free(gg);
	net_free(sq);
	dataset_free(ds);
	net_free(net);
}
END_TEST

/* an expansion (layer 2, 6 channels) and its depthwise conv (3), then a
 * projection (4) added to the stem (1): channel 5 of the expansion and of
 * the depthwise a copy of channel 4. */
START_TEST(test_depthwise_group)
{
	Err e;
	Graph *g = graph_new(4, 2, 5, 5, NULL);
	int s = gb_add(g, gb_conv(4, 3, 1, 1, 1), 0, -1);
	int a = gb_add(g, gb_conv(6, 1, 1, 0, 1), s, -1);
	a = gb_add(g, (GraphNode){.op = GRAPH_CLIP, .lo = 0, .hi = 6}, a, -1);
	a = gb_add(g, gb_conv(6, 3, 1, 1, 6), a, -1);
	a = gb_add(g, gb_conv(4, 1, 1, 0, 1), a, -1);
	s = gb_add(g, gb_op(GRAPH_ADD), a, s);
	gb_head_gap(g, s);
	Net *net = gb_random_net(g, 11);
	copy_column(net, graph_layer_node(net->graph, 2), 4, 5);
	copy_column(net, graph_layer_node(net->graph, 3), 4, 5);
	Dataset *ds = gb_random_rows(150, 50, 5);
	GroupSqueezeOpts o = {.tau = 1e4, .compensate = 1, .sample = ds, .maxrows = 150};
	ChannelGroups *gg = graph_groups(net->graph, &e);
	ck_assert_ptr_nonnull(gg);
	ck_assert_int_eq(gg->n, 3);
	GroupDecision dec[3];
	Net *sq = alg3_squeeze_graph(net, gg, &o, dec, &e);
	ck_assert_msg(sq != NULL, "%s", e.msg);
	ck_assert_int_eq(dec[1].units, 6);
	ck_assert_int_eq(dec[1].kept, 5);
	ck_assert_int_eq(dec[1].rows, (4 + 1) + (9 + 1));
	ck_assert_int_eq(dec[0].kept, 4);
	const Graph *h = sq->graph;
	int dw = graph_layer_node(h, 3);
	ck_assert_int_eq(h->node[dw].c, 5);
	ck_assert_int_eq(h->node[dw].group, 5);
	double d = logits_apart(net, sq, ds);
	ck_assert_msg(d < 1e-5, "the squeezed network's logits differ by %g", d);
	graph_groups_free(gg);
	net_free(sq);
	dataset_free(ds);
	net_free(net);
}
END_TEST

/* the L1 rule and random choice at given counts: a unit of the residual
 * group made small in both producers is the one the L1 rule removes; a
 * random choice removes as many, the same for the same seed */
START_TEST(test_criteria_counts)
{
	Err e;
	Net *net = residual();
	const Graph *g = net->graph;
	for (int l = 1; l <= 3; l += 2) {
		int k = graph_layer_node(g, l), rows = graph_rows(g, k), cols = g->node[k].c;
		for (int i = 0; i < rows; i++) /* unit 1: small weights, its bias left */
			net->param[g->node[k].off + (size_t)i * cols + 1] *= 0.01f;
	}
	Dataset *ds = gb_random_rows(100, 72, 3);
	ChannelGroups *gg = graph_groups(g, &e);
	ck_assert_ptr_nonnull(gg);
	int keep[3] = {4, 6, 3};
	GroupSqueezeOpts o = {
	    .tau = 25, .criterion = ALG3_NORM, .keep = keep, .sample = ds, .maxrows = 100};
	GroupDecision dec[3];
	Net *sq = alg3_squeeze_graph(net, gg, &o, dec, &e);
	ck_assert_msg(sq != NULL, "%s", e.msg);
	ck_assert_int_eq(dec[0].kept, 4);
	ck_assert_int_eq(sq->graph->node[graph_layer_node(sq->graph, 1)].c, 4);
	/* the small unit went: the stem's kept columns are the others' */
	const Graph *h = sq->graph;
	int k0 = graph_layer_node(g, 1), k1 = graph_layer_node(h, 1);
	int found1 = 0;
	for (int j = 0; j < 4; j++)
		found1 |= sq->param[h->node[k1].off + (size_t)j] == net->param[g->node[k0].off + 1];
	ck_assert_msg(!found1, "the unit of small weights was kept");
	net_free(sq);
	o.criterion = ALG3_RANDOM;
	o.seed = 5;
	Net *r1 = alg3_squeeze_graph(net, gg, &o, dec, &e),
	    *r2 = alg3_squeeze_graph(net, gg, &o, dec, &e);
	ck_assert_msg(r1 && r2, "%s", e.msg);
	ck_assert_int_eq(r1->graph->node[graph_layer_node(r1->graph, 1)].c, 4);
	ck_assert_int_eq(r1->nparam, r2->nparam);
	ck_assert(memcmp(r1->param, r2->param, r1->nparam * sizeof(float)) == 0);
	net_free(r1), net_free(r2);
	keep[1] = 5; /* a count for a group left as it is is refused: the logits' */
	keep[2] = 2;
	ck_assert_ptr_null(alg3_squeeze_graph(net, gg, &o, dec, &e));
	ck_assert_msg(strstr(e.msg, "group 3 keeps its 3 channels (the logits), not 2"), "%s",
	              e.msg);
	graph_groups_free(gg);
	dataset_free(ds);
	net_free(net);
}
END_TEST

START_TEST(test_fixed_refused)
{
	Err e;
	Net *net = residual();
	ChannelGroups *gg = graph_groups(net->graph, &e);
	ck_assert_ptr_nonnull(gg);
	unsigned char *drop = calloc((size_t)gg->nunits, 1);
	drop[graph_unit(gg, net->graph->n - 1, 1)] = 1; /* a logit */
	ck_assert_ptr_null(graph_net_drop(net, gg, drop, &e));
	ck_assert_msg(strstr(e.msg, "channel 1 of node") && strstr(e.msg, "the logits"), "%s",
	              e.msg);
	free(drop);
	graph_groups_free(gg);
	net_free(net);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("alg3_groups");
	TCase *t = tcase_create("alg3_groups");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_residual_group);
	tcase_add_test(t, test_depthwise_group);
	tcase_add_test(t, test_criteria_counts);
	tcase_add_test(t, test_fixed_refused);
	suite_add_tcase(s, t);
	return tu_run(s);
}
