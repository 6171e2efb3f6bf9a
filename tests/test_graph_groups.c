/* test_graph_groups.c - the channel groups of hand-built graphs
 * (engine/graph_groups.h): two residual Adds in a row, a projection
 * shortcut, a depthwise block with its multiplier, a Concat, a grouped
 * convolution, a Flatten into a dense layer, an Add of the input. */
#include "engine/graph.h"
#include "engine/graph_groups.h"
#include "graph_build.h"
#include "testutil.h"

static ChannelGroups *groups(const Graph *g)
{
	Err e;
	ChannelGroups *gg = graph_groups(g, &e);
	ck_assert_msg(gg != NULL, "%s", e.msg);
	return gg;
}

/* Group q's layers are the n given, its readers the nr given. */
static void expect(const ChannelGroups *gg, int q, int n, const int *layers, int nr,
                   const int *read)
{
	const ChannelGroup *c = &gg->g[q];
	ck_assert_int_eq(c->nlayer, n);
	for (int i = 0; i < n; i++) {
		ck_assert_int_eq(c->layer[i], layers[i]);
		ck_assert_int_eq(gg->of_layer[layers[i] - 1], q);
	}
	ck_assert_int_eq(c->nread, nr);
	for (int i = 0; i < nr; i++)
		ck_assert_int_eq(c->read[i], read[i]);
}

/* stem conv (1), two basic blocks of two convs each (2 3, 4 5), their
 * outputs added to the stream: the stem and both second convs are one
 * group of 8 channels, read by the blocks' first convs and the Gemm. */
START_TEST(test_two_adds)
{
	Graph *g = graph_new(4, 3, 8, 8, NULL);
	int s = gb_add(g, gb_conv(8, 3, 1, 1, 1), 0, -1);
	s = gb_add(g, gb_op(GRAPH_RELU), s, -1);
	for (int b = 0; b < 2; b++) {
		int a = gb_add(g, gb_conv(8, 3, 1, 1, 1), s, -1);
		a = gb_add(g, gb_op(GRAPH_RELU), a, -1);
		a = gb_add(g, gb_conv(8, 3, 1, 1, 1), a, -1);
		a = gb_add(g, gb_op(GRAPH_AFFINE), a, -1);
		s = gb_add(g, gb_op(GRAPH_ADD), a, s);
		s = gb_add(g, gb_op(GRAPH_RELU), s, -1);
	}
	gb_head_gap(g, s);
	ChannelGroups *gg = groups(g);
	ck_assert_int_eq(gg->n, 4);
	expect(gg, 0, 3, (int[]){1, 3, 5}, 3, (int[]){2, 4, 6});
	ck_assert_int_eq(gg->g[0].units, 8);
	ck_assert_int_eq(gg->g[0].free, 8);
	ck_assert_int_eq(gg->g[0].adds, 2);
	expect(gg, 1, 1, (int[]){2}, 1, (int[]){3});
	expect(gg, 2, 1, (int[]){4}, 1, (int[]){5});
	expect(gg, 3, 1, (int[]){6}, 0, NULL);
	ck_assert_int_eq(gg->g[3].free, 0);
	ck_assert_int_eq(gg->g[3].fixed, GROUP_LOGITS);
	graph_groups_free(gg);
	graph_free(g);
}
END_TEST

/* a downsampling block: conv 3×3/2 (2), conv (3) added to a 1×1/2
 * projection (4) of the stem (1): 3 and 4 go together, the stem alone. */
START_TEST(test_projection)
{
	Graph *g = graph_new(4, 2, 8, 8, NULL);
	int s = gb_add(g, gb_conv(4, 3, 1, 1, 1), 0, -1);
	int a = gb_add(g, gb_conv(6, 3, 2, 1, 1), s, -1);
	a = gb_add(g, gb_conv(6, 3, 1, 1, 1), a, -1);
	int p = gb_add(g, gb_conv(6, 1, 2, 0, 1), s, -1);
	s = gb_add(g, gb_op(GRAPH_ADD), a, p);
	gb_head_gap(g, s);
	ChannelGroups *gg = groups(g);
	ck_assert_int_eq(gg->n, 4);
	expect(gg, 0, 1, (int[]){1}, 2, (int[]){2, 4});
	expect(gg, 1, 1, (int[]){2}, 1, (int[]){3});
	expect(gg, 2, 2, (int[]){3, 4}, 1, (int[]){5});
	ck_assert_int_eq(gg->g[2].units, 6);
	ck_assert_int_eq(gg->g[2].adds, 1);
	graph_groups_free(gg);
	graph_free(g);
}
END_TEST

/* an inverted residual: expand 1×1 (2), depthwise 3×3 with multiplier 2
 * (3: 12 channels from 6), project 1×1 (4). The expansion and the
 * depthwise go together: 6 units, the depthwise two columns of each. */
START_TEST(test_depthwise)
{
	Graph *g = graph_new(4, 3, 8, 8, NULL);
	int s = gb_add(g, gb_conv(4, 3, 1, 1, 1), 0, -1);
	int a = gb_add(g, gb_conv(6, 1, 1, 0, 1), s, -1);
	a = gb_add(g, (GraphNode){.op = GRAPH_CLIP, .lo = 0, .hi = 6}, a, -1);
	a = gb_add(g, gb_conv(12, 3, 1, 1, 6), a, -1);
	a = gb_add(g, gb_conv(4, 1, 1, 0, 1), a, -1);
	s = gb_add(g, gb_op(GRAPH_ADD), a, s);
	gb_head_gap(g, s);
	ChannelGroups *gg = groups(g);
	ck_assert_int_eq(gg->n, 3);
	expect(gg, 0, 2, (int[]){1, 4}, 2, (int[]){2, 5});
	expect(gg, 1, 2, (int[]){2, 3}, 1, (int[]){4});
	ck_assert_int_eq(gg->g[1].units, 6);
	ck_assert_int_eq(gg->g[1].free, 6);
	ck_assert_int_eq(gg->g[1].depthwise, 1);
	ck_assert_int_eq(gg->g[0].adds, 1);
	graph_groups_free(gg);
	graph_free(g);
}
END_TEST

/* two branches concatenated: each stays its own group; the conv after the
 * Concat reads both. A depthwise conv on the input, a grouped conv after
 * it: their channels stay. */
START_TEST(test_concat_and_fixed)
{
	Graph *g = graph_new(4, 2, 6, 6, NULL);
	int a = gb_add(g, gb_conv(3, 3, 1, 1, 1), 0, -1);
	int b = gb_add(g, gb_conv(5, 1, 1, 0, 1), 0, -1);
	int c = gb_add(g, (GraphNode){.op = GRAPH_CONCAT}, a, b);
	ck_assert_int_eq(g->node[c].c, 8);
	int d = gb_add(g, gb_conv(4, 3, 1, 1, 1), c, -1);
	int w = gb_add(g, gb_conv(4, 3, 1, 1, 4), d, -1);
	int q = gb_add(g, gb_conv(4, 3, 1, 1, 2), w, -1);
	gb_head_gap(g, q);
	ChannelGroups *gg = groups(g);
	ck_assert_int_eq(gg->n, 5);
	expect(gg, 0, 1, (int[]){1}, 1, (int[]){3});
	expect(gg, 1, 1, (int[]){2}, 1, (int[]){3});
	ck_assert_int_eq(gg->g[0].concats, 1);
	ck_assert_int_eq(gg->g[0].free, 3);
	expect(gg, 2, 2, (int[]){3, 4}, 1, (int[]){5});
	ck_assert_int_eq(gg->g[2].free, 0);
	ck_assert_int_eq(gg->g[2].fixed, GROUP_GROUPED);
	expect(gg, 3, 1, (int[]){5}, 1, (int[]){6});
	ck_assert_int_eq(gg->g[3].fixed, GROUP_GROUPED);
	graph_groups_free(gg);
	graph_free(g);
}
END_TEST

/* a Flatten of 4×3×3 maps into a Gemm: the conv's channels each take 9
 * features along, free; a stem added to the input is held by it. */
START_TEST(test_flatten_and_input)
{
	Graph *g = graph_new(4, 2, 3, 3, NULL);
	int a = gb_add(g, gb_conv(2, 3, 1, 1, 1), 0, -1);
	a = gb_add(g, gb_op(GRAPH_ADD), a, 0);
	a = gb_add(g, gb_conv(4, 3, 1, 1, 1), a, -1);
	int f =
	    gb_add(g, (GraphNode){.op = GRAPH_RESHAPE, .rank = 2, .c = 36, .h = 1, .w = 1}, a, -1);
	f = gb_add(g, (GraphNode){.op = GRAPH_GEMM, .c = 5}, f, -1);
	gb_add(g, (GraphNode){.op = GRAPH_GEMM, .c = 3}, f, -1);
	ChannelGroups *gg = groups(g);
	ck_assert_int_eq(gg->n, 4);
	expect(gg, 0, 1, (int[]){1}, 1, (int[]){2});
	ck_assert_int_eq(gg->g[0].fixed, GROUP_INPUT);
	ck_assert_int_eq(gg->g[0].free, 0);
	expect(gg, 1, 1, (int[]){2}, 1, (int[]){3});
	ck_assert_int_eq(gg->g[1].units, 4);
	ck_assert_int_eq(gg->g[1].free, 4);
	expect(gg, 2, 1, (int[]){3}, 1, (int[]){4});
	ck_assert_int_eq(gg->g[2].free, 5);
	graph_groups_free(gg);
	graph_free(g);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("graph_groups");
	TCase *t = tcase_create("graph_groups");
	tcase_add_test(t, test_two_adds);
	tcase_add_test(t, test_projection);
	tcase_add_test(t, test_depthwise);
	tcase_add_test(t, test_concat_and_fixed);
	tcase_add_test(t, test_flatten_and_input);
	suite_add_tcase(s, t);
	return tu_run(s);
}
