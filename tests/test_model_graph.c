/* test_model_graph.c - graph networks in model files (version 6,
 * model/model_graph.h): a network trained a little saves and loads back bit
 * for bit (nodes, parameters, Adam's moments, schedule), model_load refuses
 * it naming the commands that read it, and damaged records of the graph are
 * refused naming the offset (an operator out of range, an edge to a later
 * node, a count that disagrees, a shape that does not fit), never built. */
#include <math.h>
#include <string.h>

#include "base/rng.h"
#include "engine/graph.h"
#include "engine/net.h"
#include "engine/train.h"
#include "graph_build.h"
#include "model/model_graph.h"
#include "model/model_io.h"
#include "testutil.h"

/* A residual block with a depthwise conv, a pool, a Clip and a Concat. */
static Net *small_net(void)
{
	Err e;
	Graph *g = graph_new(4, 2, 6, 6, &e);
	GraphNode c = {.op = GRAPH_CONV, .c = 4, .group = 1, .win = {3, 3, 1, 1, 1, 1, 1, 1, 1, 1}};
	GraphNode dw = {
	    .op = GRAPH_CONV, .c = 4, .group = 4, .win = {3, 3, 1, 1, 1, 1, 1, 1, 1, 1}};
	GraphNode clip = {.op = GRAPH_CLIP, .lo = 0, .hi = 6};
	GraphNode pool = {.op = GRAPH_MAXPOOL, .win = {2, 2, 2, 2, 1, 1, 0, 0, 0, 0, 1, 0}};
	int a = gb_add(g, c, 0, -1);
	int b =
	    gb_add(g, (GraphNode){.op = GRAPH_ADD}, gb_add(g, clip, gb_add(g, dw, a, -1), -1), a);
	int t =
	    gb_add(g, (GraphNode){.op = GRAPH_CONCAT}, gb_add(g, pool, b, -1),
	           gb_add(g, (GraphNode){.op = GRAPH_AVGPOOL, .win = {2, 2, 2, 2, 1, 1}}, a, -1));
	t = gb_add(g, (GraphNode){.op = GRAPH_RESHAPE, .rank = 2, .c = 72, .h = 1, .w = 1}, t, -1);
	gb_add(g, (GraphNode){.op = GRAPH_GEMM, .c = 3, .name = "fc"}, t, -1);
	Net *net = net_new_graph(g, &e);
	ck_assert_msg(net != NULL, "%s", e.msg);
	Rng r;
	rng_seed(&r, 3);
	for (size_t i = 0; i < net->nparam; i++)
		net->param[i] = (float)(rng_uniform(&r) - 0.5);
	return net;
}

START_TEST(test_round_trip)
{
	Net *net = small_net();
	Err e;
	Dataset *d = dataset_new(20, net->n[0], 3, &e);
	for (size_t i = 0; i < (size_t)20 * d->d; i++)
		d->x[i] = (float)sin((double)i);
	for (int i = 0; i < 20; i++)
		d->y[i] = i % 3;
	TrainOpts o;
	train_opts_default(&o);
	o.batch = 5;
	ck_assert_msg(!train_epochs(net, d, &o, 1, NULL, NULL, &e), "%s", e.msg);
	const char *dir = tu_tmpdir();
	char path[600];
	snprintf(path, sizeof path, "%s/g.model", dir);
	ck_assert_msg(!model_save(net, path, &e), "%s", e.msg);
	Net *back = model_load_any(path, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	ck_assert(back->graph != NULL);
	ck_assert_int_eq(back->graph->n, net->graph->n);
	ck_assert(!memcmp(back->graph->node, net->graph->node, net->graph->n * sizeof(GraphNode)));
	ck_assert(!memcmp(back->graph->edge, net->graph->edge, net->graph->nedge * sizeof(int)));
	ck_assert_int_eq(back->adam_t, net->adam_t);
	ck_assert(!memcmp(back->param, net->param, net->nparam * sizeof(float)));
	ck_assert(!memcmp(back->adam_v, net->adam_v, net->nparam * sizeof(float)));
	ck_assert_int_eq(back->sched_st.step, net->sched_st.step);
	ck_assert_str_eq(back->graph->node[back->graph->n - 1].name, "fc");
	/* the chains' loader names who reads it */
	ck_assert_ptr_null(model_load(path, &e));
	ck_assert_msg(strstr(e.msg,
	                     "holds a graph network (model version 6): predict, eval, cond, "
	                     "train, alg1, sweep, squeeze and export read it, not this command"),
	              "%s", e.msg);
	net_free(back);
	net_free(net);
	dataset_free(d);
}
END_TEST

/* The bytes of a saved network, to damage. */
static unsigned char *saved(const Net *net, size_t *len)
{
	const char *dir = tu_tmpdir();
	char path[600];
	Err e;
	snprintf(path, sizeof path, "%s/s.model", dir);
	ck_assert_msg(!model_save(net, path, &e), "%s", e.msg);
	FILE *f = fopen(path, "rb");
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	unsigned char *b = malloc(*len);
	ck_assert_int_eq(fread(b, 1, *len, f), *len);
	fclose(f);
	return b;
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* The graph's block starts after the magic, version, header size, m, act,
 * scale, n[0..1], Adam's steps and the flags. */
enum { BLOCK = 28 + 8 + 12, NODE1 = BLOCK + MODEL_GRAPH_HEAD };

static const struct {
	size_t at;        /* offset of the u32 to change */
	uint32_t v;       /* its new value */
	const char *want; /* what the message says */
} damage[] = {
    {NODE1, 99, "graph node 1 at offset 80 is not valid"},              /* an operator */
    {NODE1 + 4, 0, "graph node 1 at offset 80 is not valid"},           /* no input */
    {NODE1 + 12, 5, "graph node 2 at offset 224: 4 groups of 5 input"}, /* Conv's channels */
    {NODE1 + 4 * 7, 65, "graph node 1 at offset 80: kernel height"},    /* a kernel of 65 */
    {BLOCK + 4, 3, "header size 1420 at offset 12 does not hold the graph at offset 48"},
    {BLOCK + 20, 3, "width n[0] = 72 at offset 28, but the graph's inputs are 108"},
};

START_TEST(test_damaged)
{
	Net *net = small_net();
	size_t len;
	unsigned char *b = saved(net, &len);
	Err e;
	ck_assert_msg(!model_check(b, len, "ok", &e), "%s", e.msg);
	unsigned char *c = malloc(len);
	memcpy(c, b, len);
	put32(c + damage[_i].at, damage[_i].v);
	ck_assert_int_eq(model_check(c, len, "d.model", &e), -1);
	ck_assert_msg(strstr(e.msg, damage[_i].want), "%zu: %s", damage[_i].at, e.msg);
	/* an edge to a later node */
	size_t edges = NODE1 + (size_t)(net->graph->n - 1) * MODEL_GRAPH_NODE_BYTES;
	memcpy(c, b, len);
	put32(c + edges, 7);
	ck_assert_int_eq(model_check(c, len, "d.model", &e), -1);
	ck_assert_msg(strstr(e.msg, "graph node 1 at offset 80: input 1 is node 7, expected an "
	                            "earlier node (0..0)"),
	              "%s", e.msg);
	free(c);
	free(b);
	net_free(net);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("model_graph");
	TCase *t = tcase_create("model_graph");
	tcase_add_test(t, test_round_trip);
	tcase_add_loop_test(t, test_damaged, 0, sizeof damage / sizeof *damage);
	suite_add_tcase(s, t);
	return tu_run(s);
}
