/* test_session_edit.c - the session's edits by hand: neurons and hidden
 * layers added and removed, and the inputs of the plane switched on and
 * off; each undone back to the network (and data) before it bit for bit,
 * logged, and replayed from the log to the same network; a fresh network
 * and a save under other inputs record them. */
#include "data/plane_inputs.h"
#include "engine/plane.h"
#include "model/model_io.h"
#include "session_test.h"

/* A session on the spiral with a trained 2-8-8-3 network, logging to path. */
static Session *spiral(const char *path)
{
	Err e = {{0}};
	Session *s = session_new(&e);
	if (path)
		ck_assert_int_eq(session_log_open(s, path, &e), 0);
	SessAction a = act(SESS_DATA);
	strcpy(a.data.spec, "spiral");
	a.data.seed = 1;
	apply_ok(s, &a);
	a = act(SESS_OPTS);
	a.opts = (SessOptsArgs){.batch = 50, .lr = 0.01, .threads = 1};
	apply_ok(s, &a);
	a = act(SESS_NET);
	strcpy(a.net.layers, "8,8");
	a.net.seed = 1;
	a.net.act_a = 1;
	apply_ok(s, &a);
	a = act(SESS_TRAIN);
	a.train.epochs = 5;
	apply_ok(s, &a);
	return s;
}

static SessAction neuron(int add, int layer, int j, uint64_t seed)
{
	SessAction a = act(SESS_NEURON);
	/* a remove has no seed, an add no neuron: as their lines say */
	a.neuron = (SessNeuronArgs){
	    .add = add, .layer = layer, .neuron = add ? 0 : j, .seed = add ? seed : 0};
	return a;
}

static SessAction layer(int add, int l)
{
	SessAction a = act(SESS_LAYER);
	a.layer = (SessLayerArgs){.add = add, .after = add ? l : 0, .layer = add ? 0 : l};
	return a;
}

static SessAction inputs(const char *names, uint64_t seed)
{
	SessAction a = act(SESS_INPUTS);
	snprintf(a.inputs.names, sizeof a.inputs.names, "%s", names);
	a.inputs.seed = seed;
	return a;
}

/* Every edit changes the network as it says, and undo gives back the one
 * before it bit for bit, the inputs' data sets with it. */
START_TEST(edits_undo)
{
	Err e = {{0}};
	Session *s = spiral(NULL);
	char shape[64];
	const struct {
		SessAction a;
		const char *shape;
	} steps[] = {
	    {neuron(1, 2, 0, 3), "2-8-9-3"}, {neuron(0, 1, 2, 0), "2-7-8-3"},
	    {layer(1, 1), "2-8-8-8-3"},      {layer(1, 0), "2-2-8-8-3"},
	    {layer(0, 2), "2-8-3"},          {inputs("x2,xy", 4), "4-8-8-3"},
	};
	for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
		uint32_t crc = session_param_crc(s->net);
		int undo = session_can_undo(s);
		apply_ok(s, &steps[k].a);
		ck_assert_str_eq(net_shape_str(s->net, shape, sizeof shape), steps[k].shape);
		ck_assert_int_eq(session_can_undo(s), undo + 1);
		ck_assert_int_eq(s->dirty, 1);
		apply_ok(s, &(SessAction){.kind = SESS_UNDO});
		ck_assert_str_eq(net_shape_str(s->net, shape, sizeof shape), "2-8-8-3");
		ck_assert_uint_eq(session_param_crc(s->net), crc);
		ck_assert_int_eq(s->train->d, 2);
		ck_assert_uint_eq(s->inputs, 0);
	}
	/* what cannot be, said and nothing changed */
	SessAction no = neuron(0, 1, 9, 0);
	ck_assert_int_eq(session_apply(s, &no, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "neuron: neuron 9: hidden layer 1 has 8");
	no = layer(0, 3);
	ck_assert_int_eq(session_apply(s, &no, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "layer: layer 3 is not a hidden layer (expected 1..2)");
	no = inputs("none", 1);
	ck_assert_int_eq(session_apply(s, &no, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "inputs: x, y and none already");
	session_free(s);
}
END_TEST

/* The inputs of the plane: the data sets made of them, the network's first
 * layer remade, a fresh network and a save recording them, the regions
 * drawn; back to none, the data action's sets. */
START_TEST(inputs_switched)
{
	Err e = {{0}};
	char path[1024];
	const char *dir = tu_tmpdir();
	Session *s = spiral(NULL);
	Dataset *first = dataset_clone(s->train, &e);
	SessAction a = inputs("sinx,y2", 4);
	apply_ok(s, &a);
	ck_assert_int_eq(s->train->d, 4);
	ck_assert_int_eq(s->test->d, 4);
	ck_assert_uint_eq(s->inputs, PLANE_Y2 | PLANE_SINX);
	ck_assert_int_eq(s->net->prep->kind, PREP_PLANE);
	for (int i = 0; i < s->train->n; i++) {
		ck_assert(s->train->x[4 * i] == first->x[2 * i]);
		ck_assert(s->train->x[4 * i + 2] == first->x[2 * i + 1] * first->x[2 * i + 1]);
	}
	PlaneBox box;
	PlaneRegions r;
	ck_assert_int_eq(plane_box(s->train, &box, &e), 0);
	ck_assert_msg(plane_regions(s->net, &box, 4, 4, &r, &e) == 0, "%s", e.msg);
	plane_regions_free(&r);
	/* a training, a fresh network, a save: all of the new inputs */
	a = act(SESS_TRAIN);
	a.train.epochs = 2;
	apply_ok(s, &a);
	a = act(SESS_NET);
	strcpy(a.net.layers, "5");
	a.net.seed = 2;
	a.net.act_a = 1;
	apply_ok(s, &a);
	ck_assert_int_eq(s->net->n[0], 4);
	ck_assert_uint_eq(s->net->prep->plane, PLANE_Y2 | PLANE_SINX);
	a = act(SESS_SAVE);
	snprintf(path, sizeof path, "%s/in.model", dir);
	snprintf(a.save.path, sizeof a.save.path, "%s", path);
	apply_ok(s, &a);
	Net *m = model_load(path, &e);
	ck_assert_msg(m && m->prep->kind == PREP_PLANE, "%s", e.msg);
	ck_assert_uint_eq(m->prep->plane, PLANE_Y2 | PLANE_SINX);
	/* opened again under other inputs: refused */
	apply_ok(s, &(SessAction){.kind = SESS_UNDO});
	apply_ok(s, &(SessAction){.kind = SESS_UNDO});
	ck_assert_int_eq(s->train->d, 2);
	a = act(SESS_LOAD);
	snprintf(a.load.path, sizeof a.load.path, "%s", path);
	ck_assert_int_eq(session_apply(s, &a, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "the network has 4 inputs and 3 outputs, the data set 2 features "
	                        "and 3 classes");
	apply_ok(s, &(SessAction){.kind = SESS_INPUTS, .inputs = {.names = "y2,xy", .seed = 1}});
	ck_assert_int_eq(session_apply(s, &a, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "the network reads the inputs x, y and y2,sinx, the data x, y "
	                        "and y2,xy");
	/* back to none: the data action's sets */
	apply_ok(s, &(SessAction){.kind = SESS_INPUTS, .inputs = {.names = "none", .seed = 1}});
	ck_assert_int_eq(s->train->d, 2);
	ck_assert(!memcmp(s->train->x, first->x, (size_t)first->n * 2 * sizeof *first->x));
	ck_assert_int_eq(s->net->n[0], 2);
	net_free(m);
	dataset_free(first);
	session_free(s);
	/* a data set of other features refuses them */
	s = session_new(&e);
	a = act(SESS_DATA);
	strcpy(a.data.spec, "synthetic");
	apply_ok(s, &a);
	a = act(SESS_NET);
	strcpy(a.net.layers, "4");
	a.net.seed = 1;
	a.net.act_a = 1;
	apply_ok(s, &a);
	a = inputs("x2", 1);
	ck_assert_int_eq(session_apply(s, &a, NULL, &e), -1);
	ck_assert_msg(strstr(e.msg, "has 10 features; x², y², xy, sin x and sin y are inputs of "
	                            "points of the plane"),
	              "%s", e.msg);
	session_free(s);
}
END_TEST

/* The edits logged replay to the same network and data, bit for bit, from
 * the log and after a rewind. */
START_TEST(edits_replay)
{
	Err e = {{0}};
	char path[1024];
	snprintf(path, sizeof path, "%s/edits.log", tu_tmpdir());
	Session *s = spiral(path);
	const SessAction edits[] = {neuron(1, 2, 0, 11), neuron(0, 1, 4, 0), inputs("x2,siny", 5),
	                            layer(1, 2), layer(0, 1)};
	for (size_t k = 0; k < sizeof edits / sizeof *edits; k++)
		apply_ok(s, &edits[k]);
	SessAction t = act(SESS_TRAIN);
	t.train.epochs = 3;
	apply_ok(s, &t);
	apply_ok(s, &(SessAction){.kind = SESS_UNDO});
	apply_ok(s, &t);
	uint32_t crc = session_param_crc(s->net);
	char shape[64], again[64];
	net_shape_str(s->net, shape, sizeof shape);
	ck_assert_str_eq(shape, "4-7-9-9-3"); /* the undo took the layer removed back */
	FILE *f = fopen(path, "r");
	char line[SESS_LINE_MAX + 2];
	int found = 0;
	while (fgets(line, sizeof line, f))
		found += !strcmp(line, "neuron add layer=2 seed=11\n") +
		         !strcmp(line, "neuron remove layer=1 neuron=4\n") +
		         !strcmp(line, "inputs x2,siny seed=5\n") +
		         !strcmp(line, "layer add after=2\n") +
		         !strcmp(line, "layer remove layer=1\n");
	fclose(f);
	ck_assert_int_eq(found, 5);
	Session *r = session_new(&e);
	ck_assert_msg(session_replay(r, path, NULL, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(net_shape_str(r->net, again, sizeof again), shape);
	ck_assert_uint_eq(session_param_crc(r->net), crc);
	ck_assert_uint_eq(r->inputs, s->inputs);
	ck_assert_uint_eq(dataset_crc(r->train), dataset_crc(s->train));
	/* rewound to the data action: the sets it made, and again the same */
	uint32_t plain = dataset_crc(r->plain_train);
	session_rewind(r);
	ck_assert_int_eq(r->train->d, 2);
	ck_assert_uint_eq(dataset_crc(r->train), plain);
	session_free(r);
	session_free(s);
}
END_TEST

/* The edits' log lines that do not parse, each saying what is wrong. */
START_TEST(corrupt_edit_lines)
{
	bad("neuron layer=1 seed=3", "neuron: missing add or remove");
	bad("neuron add layer=1", "neuron add: missing seed");
	bad("neuron remove layer=1", "neuron remove: missing neuron");
	bad("neuron remove layer=1 neuron=2 seed=3", "neuron remove: unexpected seed");
	bad("neuron add remove layer=1 seed=3", "neuron: add or remove, not both");
	bad("neuron remove layer=0 neuron=1", "layer: expected an integer in [1,");
	bad("layer add layer=2", "layer add: missing after");
	bad("layer remove after=2", "layer remove: missing layer");
	bad("inputs x3 seed=1", "inputs \"x3\": 'x3' is not one of x2, y2, xy, sinx, siny");
	bad("inputs x2,x2 seed=1", "x2 named twice");
	bad("inputs x2", "inputs: missing seed");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("session_edit");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, edits_undo);
	tcase_add_test(tc, inputs_switched);
	tcase_add_test(tc, edits_replay);
	tcase_add_test(tc, corrupt_edit_lines);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
