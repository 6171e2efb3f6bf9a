/* test_session_squeeze_graph.c - the session's squeeze pass on a graph
 * network, channel group by channel group: a channel planted as a copy of
 * another across a residual group is proposed at τ 1e4 (the other groups'
 * stacks are within τ, the logits' fixed), its what-if with compensation
 * answers as now, the decision applied is the batch squeeze's network,
 * undone, refused, decided on the spot without a pass, a layer named
 * instead of a group refused, and the log replays to the same network. */
#include <math.h>

#include "alg/alg3_groups.h"
#include "engine/cond.h"
#include "graph_build.h"
#include "model/model_io.h"
#include "session_test.h"

/* Column b of layer node k's Ŵ (W and bias) made a copy of column a. */
static void copy_column(Net *net, int k, int a, int b)
{
	const Graph *g = net->graph;
	int rows = graph_rows(g, k) + 1, cols = g->node[k].c;
	float *W = net->param + g->node[k].off;
	for (int i = 0; i < rows; i++)
		W[(size_t)i * cols + b] = W[(size_t)i * cols + a];
}

/* A stem conv (layer 1, 6 channels), a block of two convs (2, 3) added to
 * the stream, the Gemm (4), its channel 5 a copy of channel 4 in the
 * stem and in conv 3, saved in dir/res.model; its path. */
static const char *residual_model(const char *dir)
{
	static char path[1100];
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
	Err e = {{0}};
	snprintf(path, sizeof path, "%s/res.model", dir);
	ck_assert_msg(model_save(net, path, &e) == 0, "%s", e.msg);
	net_free(net);
	return path;
}

/* 90 rows of 2x6x6 values and a class, as CSV in dir/img.csv. */
static const char *images(const char *dir)
{
	static char text[90 * 73 * 8];
	size_t n = 0;
	Rng r;
	rng_seed(&r, 5);
	for (int i = 0; i < 90; i++) {
		for (int j = 0; j < 72; j++)
			n += (size_t)snprintf(text + n, sizeof text - n, "%.3f,",
			                      rng_uniform(&r) - 0.5 + (j / 24 == i % 3 ? 0.5 : 0));
		n += (size_t)snprintf(text + n, sizeof text - n, "%d\n", i % 3);
	}
	return tu_write(dir, "img.csv", text, n);
}

/* The session's network after one group squeezed as the batch command
 * squeezes it (alg3_squeeze_graph, group q alone, compensated). */
static Net *batch_squeeze(const Session *s, int q)
{
	Err e = {{0}};
	ChannelGroups *gg = graph_groups(s->net->graph, &e);
	ck_assert_ptr_nonnull(gg);
	GroupDecision *dec = calloc((size_t)gg->n, sizeof *dec);
	unsigned char *only = calloc((size_t)gg->n, 1);
	ck_assert(dec && only);
	only[q - 1] = 1;
	GroupSqueezeOpts o = {.tau = s->tau,
	                      .compensate = 1,
	                      .sample = s->train,
	                      .maxrows = ALG3_SAMPLE_ROWS,
	                      .only = only};
	Net *out = alg3_squeeze_graph(s->net, gg, &o, dec, &e);
	ck_assert_msg(out != NULL, "%s", e.msg);
	free(dec);
	free(only);
	graph_groups_free(gg);
	return out;
}

static SessAction group_action(int q, int apply)
{
	SessAction a = act(SESS_SQUEEZE);
	a.squeeze.group = q;
	a.squeeze.apply = apply;
	a.squeeze.comp = 1;
	return a;
}

START_TEST(squeeze_graph_pass)
{
	const char *dir = tu_tmpdir();
	char log[4096], logp[1100], line[256];
	snprintf(log, sizeof log,
	         "data spec=csv:%s features=0 label_col=-1 seed=1 limit=0 val_frac=0.1 "
	         "val_per_class=0 shape=2x6x6\nload path=%s\ntau 10000\n",
	         images(dir), residual_model(dir));
	snprintf(logp, sizeof logp, "%s/pass.log", dir);
	Session *s = session_new(NULL);
	Err e = {{0}};
	ck_assert_int_eq(session_log_open(s, logp, &e), 0);
	ck_assert_msg(session_replay(s, write_log(dir, log), NULL, &e) == 0, "%s", e.msg);
	ck_assert_ptr_nonnull(s->net->graph);
	uint32_t start = session_param_crc(s->net);
	Net *want = batch_squeeze(s, 1);

	/* the pass proposes group 1, the planted copy: 6 channels, 5 kept */
	ck_assert_msg(session_squeeze_start(s, &e) == 0, "%s", e.msg);
	ck_assert_ptr_null(session_squeeze_proposal(s));
	const GroupDecision *d = session_group_proposal(s);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(d->group, 1);
	ck_assert_int_eq(d->units, 6);
	ck_assert_int_eq(d->kept, 5);
	ck_assert(cond_over(d->kappa, 1e4));
	ck_assert_int_eq(session_groups(s)->g[0].nlayer, 2);
	/* its what-if: with compensation the network answers as now */
	double now, comp, plain;
	ck_assert_int_eq(session_test_acc(s, &now, &e), 0);
	ck_assert_msg(session_group_whatif(s, 1, &comp, &e) == 0, "%s", e.msg);
	ck_assert_msg(session_group_whatif(s, 0, &plain, &e) == 0, "%s", e.msg);
	ck_assert(!isnan(now) && !isnan(plain));
	ck_assert_double_eq(comp, now);
	ck_assert_uint_eq(session_param_crc(s->net), start);

	/* applied: the batch squeeze's network; no other group is over τ */
	SessAction a = group_action(1, 1);
	ck_assert_str_eq(session_format(&a, line, sizeof line), "squeeze group=1 apply comp=1");
	ck_assert_msg(session_apply(s, &a, NULL, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(s->net->graph->node[graph_layer_node(s->net->graph, 1)].c, 5);
	ck_assert_uint_eq(session_param_crc(s->net), session_param_crc(want));
	ck_assert_ptr_null(session_group_proposal(s));
	ck_assert_int_eq(session_can_undo(s), 1);

	/* undone; then refused: nothing changes and the pass is over */
	SessAction u = act(SESS_UNDO);
	apply_ok(s, &u);
	ck_assert_uint_eq(session_param_crc(s->net), start);
	ck_assert_int_eq(session_squeeze_start(s, &e), 0);
	ck_assert_ptr_nonnull(session_group_proposal(s));
	a = group_action(1, 0);
	apply_ok(s, &a);
	ck_assert_uint_eq(session_param_crc(s->net), start);
	ck_assert_ptr_null(session_group_proposal(s));

	/* without a pass, the group is decided on the spot */
	a = group_action(1, 1);
	apply_ok(s, &a);
	ck_assert_uint_eq(session_param_crc(s->net), session_param_crc(want));
	uint32_t last = session_param_crc(s->net);

	/* a layer, a group beyond the network's, a fixed group: refused */
	SessAction bad_layer = act(SESS_SQUEEZE);
	bad_layer.squeeze.layer = 1;
	bad_layer.squeeze.apply = 1;
	ck_assert_int_eq(session_apply(s, &bad_layer, NULL, &e), -1);
	ck_assert_msg(strstr(e.msg, "by channel groups (group=N)"), "%s", e.msg);
	a = group_action(4, 1);
	ck_assert_int_eq(session_apply(s, &a, NULL, &e), -1);
	ck_assert_msg(strstr(e.msg, "group 4 of a network of 3 channel groups"), "%s", e.msg);
	a = group_action(3, 1);
	ck_assert_int_eq(session_apply(s, &a, NULL, &e), -1);
	ck_assert_msg(strstr(e.msg, "group 3 keeps its units (the logits)"), "%s", e.msg);
	ck_assert_uint_eq(session_param_crc(s->net), last);
	session_free(s);

	/* the log replays to the same network */
	s = session_new(&e);
	ck_assert_msg(session_replay(s, logp, NULL, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(session_param_crc(s->net), last);
	ck_assert_int_eq(session_can_undo(s), 1);
	session_free(s);
	net_free(want);
}
END_TEST

/* A chain's squeeze names a layer: a group is refused. */
START_TEST(squeeze_chain_refuses_group)
{
	Session *s = session_new(NULL);
	Err e = {{0}};
	ck_assert_int_eq(session_replay(s, write_log(tu_tmpdir(), small_log), NULL, &e), 0);
	SessAction a = group_action(1, 1);
	ck_assert_int_eq(session_apply(s, &a, NULL, &e), -1);
	ck_assert_msg(strstr(e.msg, "a chain's squeeze names its layer"), "%s", e.msg);
	bad("squeeze layer=1 group=1 apply", "layer or group, not both");
	bad("squeeze apply", "missing layer (a chain's) or group (a graph network's)");
	session_free(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("session_squeeze_graph");
	TCase *tc = tcase_create("squeeze_graph");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, squeeze_graph_pass);
	tcase_add_test(tc, squeeze_chain_refuses_group);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
