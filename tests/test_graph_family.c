/* test_graph_family.c - the residual families of --layers
 * (engine/graph_family.h): the nodes of a ResNet and of its dense
 * counterpart, where projections go, erf's scale, the messages of bad
 * specifications, and a fresh network's Glorot weights (net_fresh_spec). */
#include <math.h>

#include "engine/graph.h"
#include "engine/graph_family.h"
#include "engine/graph_groups.h"
#include "engine/graph_pass.h"
#include "engine/net.h"
#include "testutil.h"

static Graph *family(const char *spec, int d, int c, int h, int w, ActKind act, float a)
{
	Err e;
	Graph *g = graph_family(spec, d, c, h, w, 3, act, a, &e);
	ck_assert_msg(g != NULL, "%s: %s", spec, e.msg);
	return g;
}

/* node k's op, output channels and map side, and its name */
static void node_is(const Graph *g, int k, GraphOp op, int c, int side, const char *name)
{
	const GraphNode *n = &g->node[k];
	ck_assert_msg(n->op == op, "node %d is %s", k, graph_op_name(n->op));
	ck_assert_int_eq(n->c, c);
	ck_assert_int_eq(n->h, side);
	ck_assert_str_eq(n->name, name);
}

/* resnet:4,8 on 1×8×8: stem, a block of 4 on the stem's maps (identity
 * shortcut), a block of 8 of stride 2 with a 1×1/2 projection, the head. */
START_TEST(test_resnet)
{
	Graph *g = family("resnet:4,8", 64, 1, 8, 8, ACT_RELU, 1);
	ck_assert_int_eq(g->n, 17);
	node_is(g, 1, GRAPH_CONV, 4, 8, "stem");
	node_is(g, 2, GRAPH_RELU, 4, 8, "stem.act");
	node_is(g, 3, GRAPH_CONV, 4, 8, "s1b1.conv1");
	node_is(g, 5, GRAPH_CONV, 4, 8, "s1b1.conv2");
	node_is(g, 6, GRAPH_ADD, 4, 8, "s1b1");
	ck_assert_int_eq(graph_in(g, 6)[1], 2); /* the identity: the stem's activation */
	node_is(g, 8, GRAPH_CONV, 8, 4, "s2b1.conv1");
	ck_assert_int_eq(g->node[8].win.sh, 2);
	node_is(g, 10, GRAPH_CONV, 8, 4, "s2b1.conv2");
	node_is(g, 11, GRAPH_CONV, 8, 4, "s2b1.proj");
	ck_assert_int_eq(g->node[11].win.kh, 1);
	ck_assert_int_eq(graph_in(g, 11)[0], 7);
	node_is(g, 12, GRAPH_ADD, 8, 4, "s2b1");
	node_is(g, 14, GRAPH_GLOBALAVG, 8, 1, "pool");
	node_is(g, 16, GRAPH_GEMM, 3, 1, "fc");
	/* Conv W and b: 3·3·1·4+4, (36·4+4)·2, 36·8+8, 72·8+8, 4·8+8; Gemm 8·3+3 */
	ck_assert_uint_eq(g->nparam, 40 + 2 * 148 + 296 + 584 + 40 + 27);
	Err e;
	ChannelGroups *gg = graph_groups(g, &e);
	ck_assert_ptr_nonnull(gg);
	ck_assert_int_eq(gg->n, 5); /* stem+s1b1.conv2, s1b1.conv1, s2b1.conv1, conv2+proj, fc */
	ck_assert_int_eq(gg->g[0].nlayer, 2);
	ck_assert_int_eq(gg->g[3].nlayer, 2);
	graph_groups_free(gg);
	graph_free(g);
}
END_TEST

/* residual:6x2,4 on 5 features, erf(2x): two blocks of 6 with identity
 * shortcuts, one of 4 with a dense projection; every activation a Scale
 * then an Erf; stages of two blocks without a stride. */
START_TEST(test_residual_dense)
{
	Graph *g = family("residual:6x2,4", 5, 0, 0, 0, ACT_ERF, 2);
	ck_assert_int_eq(g->node[0].rank, 2);
	node_is(g, 1, GRAPH_GEMM, 6, 1, "stem");
	node_is(g, 2, GRAPH_SCALE, 6, 1, "stem.scale");
	ck_assert(g->node[2].a == 2.0f);
	node_is(g, 3, GRAPH_ERF, 6, 1, "stem.act");
	int adds = 0, proj = 0, scales = 0;
	for (int k = 1; k < g->n; k++) {
		adds += g->node[k].op == GRAPH_ADD;
		scales += g->node[k].op == GRAPH_SCALE;
		proj += !strcmp(g->node[k].name, "s2b1.proj");
	}
	ck_assert_int_eq(adds, 3);
	ck_assert_int_eq(scales, 7); /* stem, and two in each of the three blocks */
	ck_assert_int_eq(proj, 1);
	ck_assert_int_eq(g->node[g->n - 1].c, 3);
	graph_free(g);
}
END_TEST

static void refused(const char *spec, int c, const char *msg)
{
	Err e;
	Graph *g = graph_family(spec, 64, c, c ? 8 : 0, c ? 8 : 0, 3, ACT_RELU, 1, &e);
	ck_assert_ptr_null(g);
	ck_assert_msg(strstr(e.msg, msg) != NULL, "%s: %s", spec, e.msg);
}

START_TEST(test_refusals)
{
	refused("resnet:4", 0, "a ResNet reads images");
	refused("resnet:4,", 1, "expected a width at column 10");
	refused("resnet:4x0", 1, "a count of blocks at column 10 is out of range");
	refused("residual:4;5", 1, "expected ',' or 'x' at column 11");
	refused("residual:99999999999999", 0, "out of range");
	ck_assert(graph_family_spec("resnet:4"));
	ck_assert(!graph_family_spec("conv:4:3,10"));
	Err e;
	ck_assert_int_eq(graph_family_check("residual:3x2", &e), 0);
	ck_assert_int_eq(graph_family_check("residual:3x", &e), -1);
}
END_TEST

/* A fresh network: Glorot bounds per Conv and Gemm, b = 0, Adam at zero, the
 * same weights from the same seed, and logits that are finite. */
START_TEST(test_fresh)
{
	Err e;
	Net *a = net_fresh_spec("resnet:4,8", 64, 1, 8, 8, 3, ACT_RELU, 1, 7, "rows", &e);
	ck_assert_msg(a != NULL, "%s", e.msg);
	Net *b = net_fresh_spec("resnet:4,8", 64, 1, 8, 8, 3, ACT_RELU, 1, 7, "rows", &e);
	ck_assert_int_eq(memcmp(a->param, b->param, a->nparam * sizeof(float)), 0);
	const Graph *g = a->graph;
	for (int k = 1; k < g->n; k++) {
		const GraphNode *n = &g->node[k];
		if (n->op != GRAPH_CONV && n->op != GRAPH_GEMM)
			continue;
		int rows = graph_rows(g, k), cols = graph_cols(g, k);
		double fo = n->op == GRAPH_CONV ? (double)cols * n->win.kh * n->win.kw : cols;
		double lim = sqrt(6.0 / (rows + fo)), most = 0;
		for (size_t i = 0; i < (size_t)rows * cols; i++)
			most = fmax(most, fabs(a->param[n->off + i]));
		ck_assert_msg(most <= lim && most > 0.5 * lim, "node %d: %g of %g", k, most, lim);
		for (int j = 0; j < cols; j++)
			ck_assert(a->param[n->off + (size_t)rows * cols + j] == 0.0f);
	}
	for (size_t i = 0; i < a->nparam; i++)
		ck_assert(a->adam_m[i] == 0.0f && a->adam_v[i] == 0.0f);
	float x[2 * 64], out[2 * 3];
	for (int i = 0; i < 2 * 64; i++)
		x[i] = (float)(i % 7) / 7.0f;
	ck_assert_int_eq(graph_logits(g, a->param, x, 2, out, &e), 0);
	for (int i = 0; i < 6; i++)
		ck_assert(isfinite(out[i]));
	ck_assert_float_ne(out[0], out[3]);
	Net *c = net_fresh_spec("resnet:4", 63, 1, 8, 8, 3, ACT_RELU, 1, 7, "rows", &e);
	ck_assert_ptr_null(c);
	ck_assert_msg(strstr(e.msg, "rows: 63 features are not images of 1×8×8"), "%s", e.msg);
	net_free(a);
	net_free(b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("graph_family");
	TCase *t = tcase_create("graph_family");
	tcase_add_test(t, test_resnet);
	tcase_add_test(t, test_residual_dense);
	tcase_add_test(t, test_refusals);
	tcase_add_test(t, test_fresh);
	suite_add_tcase(s, t);
	return tu_run(s);
}
