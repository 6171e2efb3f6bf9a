/* test_graph_resize.c - a graph network with its channel groups' units
 * changed (engine/graph_resize.h): the widths of every node after a
 * residual block's groups, a projection shortcut's, a depthwise block's and
 * a Concat's branches are resized, fewer and more; the network runs, with
 * the logits and the parameters its widths say; fresh weights within the
 * Glorot bounds, the same from the same seed; fixed groups refused. */
#include <math.h>

#include "engine/graph_groups.h"
#include "engine/graph_pass.h"
#include "engine/graph_resize.h"
#include "graph_build.h"
#include "testutil.h"

static ChannelGroups *groups(const Graph *g)
{
	Err e;
	ChannelGroups *gg = graph_groups(g, &e);
	ck_assert_msg(gg != NULL, "%s", e.msg);
	return gg;
}

/* net resized to units[] (one a group), checked to run. */
static Net *resize(const Net *net, const int *units, int n)
{
	Err e;
	ChannelGroups *gg = groups(net->graph);
	ck_assert_int_eq(gg->n, n);
	Net *out = graph_net_resize(net, gg, units, 5, &e);
	ck_assert_msg(out != NULL, "%s", e.msg);
	graph_groups_free(gg);
	return out;
}

/* The parameters the nodes' widths say: a Conv (C_in/g·kh·kw + 1)·C_out, a
 * Gemm (inputs + 1)·outputs, an Affine 2·C. */
static size_t params_of_widths(const Graph *g)
{
	size_t s = 0;
	for (int k = 1; k < g->n; k++) {
		const GraphNode *n = &g->node[k];
		const GraphNode *a = &g->node[graph_in(g, k)[0]];
		if (n->op == GRAPH_CONV)
			s += ((size_t)a->c / n->group * n->win.kh * n->win.kw + 1) * n->c;
		else if (n->op == GRAPH_GEMM)
			s += ((size_t)a->c + 1) * n->c;
		else if (n->op == GRAPH_AFFINE)
			s += 2 * (size_t)n->c;
	}
	return s;
}

/* The network answers rows of its input: finite logits of 3 classes, its
 * parameters those of its widths. */
static void runs(const Net *net)
{
	const Graph *g = net->graph;
	ck_assert_int_eq(g->node[g->n - 1].c, 3);
	ck_assert_int_eq(net->n[1], 3);
	ck_assert_uint_eq(net->nparam, params_of_widths(g));
	ck_assert_uint_eq(g->nparam, net->nparam);
	Dataset *d = gb_random_rows(5, net->n[0], 3);
	Err e;
	float out[15];
	ck_assert_msg(graph_logits(g, net->param, d->x, 5, out, &e) == 0, "%s", e.msg);
	for (int i = 0; i < 15; i++)
		ck_assert(isfinite(out[i]));
	dataset_free(d);
}

/* The channels of nodes k[0..n). */
static void widths(const Graph *g, const int *k, const int *c, int n)
{
	for (int i = 0; i < n; i++)
		ck_assert_msg(g->node[k[i]].c == c[i], "node %d: %d channels, expected %d", k[i],
		              g->node[k[i]].c, c[i]);
}

/* stem (1), a basic block (2, 3) added to the stream, a second block
 * (4, 5): the stream (layers 1, 3, 5) from 8 to 5 units, block 1's inner
 * layer from 8 to 12, block 2's kept; the Gemm reads 5. */
START_TEST(test_residual)
{
	Graph *g = graph_new(4, 3, 8, 8, NULL);
	int s = gb_add(g, gb_conv(8, 3, 1, 1, 1), 0, -1);
	s = gb_add(g, gb_op(GRAPH_RELU), s, -1);
	int k[12], n = 0;
	k[n++] = 1;
	for (int b = 0; b < 2; b++) {
		int a = k[n++] = gb_add(g, gb_conv(8, 3, 1, 1, 1), s, -1);
		a = gb_add(g, gb_op(GRAPH_RELU), a, -1);
		a = k[n++] = gb_add(g, gb_conv(8, 3, 1, 1, 1), a, -1);
		a = k[n++] = gb_add(g, gb_op(GRAPH_AFFINE), a, -1);
		s = k[n++] = gb_add(g, gb_op(GRAPH_ADD), a, s);
	}
	gb_head_gap(g, s);
	Net *net = gb_random_net(g, 1);
	Net *r = resize(net, (int[]){5, 12, 8, 3}, 4);
	widths(r->graph, k, (int[]){5, 12, 5, 5, 5, 8, 5, 5, 5}, n);
	int gemm = r->graph->n - 1;
	ck_assert_int_eq(graph_rows(r->graph, gemm), 5);
	ck_assert_int_eq(graph_rows(r->graph, k[1]), 5 * 9);
	ck_assert_int_eq(graph_rows(r->graph, k[2]), 12 * 9);
	runs(r);
	ck_assert_uint_lt(r->nparam, net->nparam);
	net_free(r);
	/* more units everywhere: the stream 8 → 11 */
	r = resize(net, (int[]){11, 9, 10, 3}, 4);
	widths(r->graph, k, (int[]){11, 9, 11, 11, 11, 10, 11, 11, 11}, n);
	runs(r);
	ck_assert_uint_gt(r->nparam, net->nparam);
	net_free(r);
	net_free(net);
}
END_TEST

/* a downsampling block: conv 3×3/2 (2) and conv (3) added to a 1×1/2
 * projection (4) of the stem (1): 3 and 4 resized together, strides and
 * the maps' sides kept. */
START_TEST(test_projection)
{
	Graph *g = graph_new(4, 2, 8, 8, NULL);
	int s = gb_add(g, gb_conv(4, 3, 1, 1, 1), 0, -1);
	int a = gb_add(g, gb_conv(6, 3, 2, 1, 1), s, -1);
	int b = gb_add(g, gb_conv(6, 3, 1, 1, 1), a, -1);
	int p = gb_add(g, gb_conv(6, 1, 2, 0, 1), s, -1);
	int d = gb_add(g, gb_op(GRAPH_ADD), b, p);
	gb_head_gap(g, d);
	Net *net = gb_random_net(g, 2);
	Net *r = resize(net, (int[]){3, 2, 9, 3}, 4);
	const Graph *h = r->graph;
	widths(h, (int[]){s, a, b, p, d}, (int[]){3, 2, 9, 9, 9}, 5);
	ck_assert_int_eq(h->node[p].h, 4);
	ck_assert_int_eq(h->node[p].win.sh, 2);
	ck_assert_int_eq(h->node[p].win.kh, 1);
	ck_assert_int_eq(graph_rows(h, p), 3);
	ck_assert_int_eq(graph_rows(h, b), 2 * 9);
	runs(r);
	net_free(r);
	net_free(net);
}
END_TEST

/* an inverted residual: expand 1×1 (2) to 6, depthwise 3×3 with
 * multiplier 2 (3: 12 channels in 6 groups), project (4) added to the stem:
 * the expansion's group to 4 units gives the depthwise 8 channels in 4
 * groups; to 9, 18 in 9. */
START_TEST(test_depthwise)
{
	Graph *g = graph_new(4, 3, 8, 8, NULL);
	int s = gb_add(g, gb_conv(4, 3, 1, 1, 1), 0, -1);
	int x = gb_add(g, gb_conv(6, 1, 1, 0, 1), s, -1);
	int c = gb_add(g, (GraphNode){.op = GRAPH_CLIP, .lo = 0, .hi = 6}, x, -1);
	int w = gb_add(g, gb_conv(12, 3, 1, 1, 6), c, -1);
	int p = gb_add(g, gb_conv(4, 1, 1, 0, 1), w, -1);
	int d = gb_add(g, gb_op(GRAPH_ADD), p, s);
	gb_head_gap(g, d);
	Net *net = gb_random_net(g, 3);
	for (int t = 0; t < 2; t++) {
		int u = t ? 9 : 4;
		Net *r = resize(net, (int[]){4, u, 3}, 3);
		const Graph *h = r->graph;
		widths(h, (int[]){s, x, c, w, p, d}, (int[]){4, u, u, 2 * u, 4, 4}, 6);
		ck_assert_int_eq(h->node[w].group, u);
		ck_assert(graph_depthwise(h, w));
		ck_assert_int_eq(graph_rows(h, w), 9);
		ck_assert_int_eq(graph_rows(h, p), 2 * u);
		runs(r);
		net_free(r);
	}
	net_free(net);
}
END_TEST

/* two branches concatenated, read by a conv (3) and flattened into a Gemm
 * (4): 3 + 5 channels become 2 + 7; the conv reads 9 channels, its 4
 * outputs to 6 give the Gemm 6·36 features. */
START_TEST(test_concat)
{
	Graph *g = graph_new(4, 2, 6, 6, NULL);
	int a = gb_add(g, gb_conv(3, 3, 1, 1, 1), 0, -1);
	int b = gb_add(g, gb_conv(5, 1, 1, 0, 1), 0, -1);
	int c = gb_add(g, (GraphNode){.op = GRAPH_CONCAT}, a, b);
	int d = gb_add(g, gb_conv(4, 3, 1, 1, 1), c, -1);
	int f =
	    gb_add(g, (GraphNode){.op = GRAPH_RESHAPE, .rank = 2, .c = 144, .h = 1, .w = 1}, d, -1);
	gb_add(g, (GraphNode){.op = GRAPH_GEMM, .c = 3}, f, -1);
	Net *net = gb_random_net(g, 4);
	Net *r = resize(net, (int[]){2, 7, 6, 3}, 4);
	const Graph *h = r->graph;
	widths(h, (int[]){a, b, c, d, f}, (int[]){2, 7, 9, 6, 216}, 5);
	ck_assert_int_eq(graph_rows(h, d), 9 * 9);
	ck_assert_int_eq(graph_rows(h, h->n - 1), 216);
	runs(r);
	net_free(r);
	net_free(net);
}
END_TEST

/* Fixed groups keep their size: the logits', a grouped conv's; a count
 * below 1 is refused; each message names the group. */
START_TEST(test_fixed_refused)
{
	Graph *g = graph_new(4, 2, 6, 6, NULL);
	int a = gb_add(g, gb_conv(4, 3, 1, 1, 1), 0, -1);
	int q = gb_add(g, gb_conv(4, 3, 1, 1, 2), a, -1);
	gb_head_gap(g, q);
	Net *net = gb_random_net(g, 5);
	ChannelGroups *gg = groups(net->graph);
	ck_assert_int_eq(gg->n, 3);
	Err e;
	ck_assert_ptr_null(graph_net_resize(net, gg, (int[]){3, 4, 3}, 1, &e));
	ck_assert_msg(strstr(e.msg, "group 1") && strstr(e.msg, "grouped"), "%s", e.msg);
	ck_assert_ptr_null(graph_net_resize(net, gg, (int[]){4, 4, 2}, 1, &e));
	ck_assert_msg(strstr(e.msg, "group 3") && strstr(e.msg, "logits"), "%s", e.msg);
	ck_assert_ptr_null(graph_net_resize(net, gg, (int[]){4, 0, 3}, 1, &e));
	ck_assert_msg(strstr(e.msg, "group 2"), "%s", e.msg);
	Net *same = graph_net_resize(net, gg, (int[]){4, 4, 3}, 1, &e);
	ck_assert_msg(same != NULL, "%s", e.msg);
	ck_assert_uint_eq(same->nparam, net->nparam);
	net_free(same);
	graph_groups_free(gg);
	net_free(net);
}
END_TEST

/* Fresh weights: every Conv's and Gemm's W within ±√(6/(fan_in +
 * fan_out)) and not all zero, b = 0, an Affine 1 and 0; the same seed
 * the same bits, another seed other weights. */
START_TEST(test_fresh_weights)
{
	Graph *g = graph_new(4, 3, 6, 6, NULL);
	int s = gb_add(g, gb_conv(6, 3, 1, 1, 1), 0, -1);
	s = gb_add(g, gb_op(GRAPH_AFFINE), s, -1);
	s = gb_add(g, gb_conv(12, 3, 1, 1, 6), s, -1);
	gb_head_gap(g, s);
	Net *net = gb_random_net(g, 6);
	ChannelGroups *gg = groups(net->graph);
	ck_assert_int_eq(gg->n, 2); /* the conv with its depthwise one; the Gemm */
	Err e;
	int units[2] = {5, 3};
	Net *a = graph_net_resize(net, gg, units, 9, &e),
	    *b = graph_net_resize(net, gg, units, 9, &e),
	    *c = graph_net_resize(net, gg, units, 10, &e);
	ck_assert_msg(a && b && c, "%s", e.msg);
	ck_assert_mem_eq(a->param, b->param, a->nparam * sizeof(float));
	ck_assert(memcmp(a->param, c->param, a->nparam * sizeof(float)) != 0);
	const Graph *h = a->graph;
	for (int k = 1; k < h->n; k++) {
		const GraphNode *n = &h->node[k];
		const float *p = a->param + n->off;
		if (n->op == GRAPH_AFFINE) {
			for (int j = 0; j < n->c; j++)
				ck_assert(p[j] == 1.0f && p[n->c + j] == 0.0f);
			continue;
		}
		if (n->op != GRAPH_CONV && n->op != GRAPH_GEMM)
			continue;
		int rows = graph_rows(h, k), kk = n->op == GRAPH_CONV ? 9 : 1;
		int out = graph_depthwise(h, k) ? n->c / n->group : n->c;
		double lim = sqrt(6.0 / (rows + (double)out * kk)), big = 0;
		for (int t = 0; t < rows * n->c; t++) {
			ck_assert(fabs(p[t]) <= lim);
			big = fmax(big, fabs(p[t]));
		}
		ck_assert(big > lim / 2);
		for (int j = 0; j < n->c; j++)
			ck_assert(p[(size_t)rows * n->c + j] == 0.0f);
	}
	net_free(a), net_free(b), net_free(c);
	graph_groups_free(gg);
	net_free(net);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("graph_resize");
	TCase *t = tcase_create("graph_resize");
	tcase_add_test(t, test_residual);
	tcase_add_test(t, test_projection);
	tcase_add_test(t, test_depthwise);
	tcase_add_test(t, test_concat);
	tcase_add_test(t, test_fixed_refused);
	tcase_add_test(t, test_fresh_weights);
	suite_add_tcase(s, t);
	return tu_run(s);
}
