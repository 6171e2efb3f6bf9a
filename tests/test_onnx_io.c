/* test_onnx_io.c - ONNX models: the fixtures PyTorch exported (and a few
 * written with onnx.helper) import and reproduce PyTorch's outputs to 1e-5;
 * every refusal names the node and operator; a Net exported and imported
 * again is bit for bit the same; damaged bytes are refused, never crash. */
#include <math.h>

#include "config.h"

#include "engine/net.h"
#include "engine/train.h"
#include "fixtures.h"
#include "model/onnx_io.h"
#include "testutil.h"

static char dir[512];

static void setup(void)
{
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
}

static void teardown(void)
{
	ck_assert_int_eq(tu_rmtree(dir), 0);
}

/* tests/onnx/NAME in the source tree. */
static const char *fixture(const char *name)
{
	static char path[1024];
	const char *top = getenv("top_srcdir");
	snprintf(path, sizeof path, "%s/tests/onnx/%s", top && *top ? top : ".", name);
	return path;
}

/* The largest difference between the import's outputs on NAME.in.pb and
 * NAME.out.pb, relative where the value is above 1. */
static double reproduce(const Net *net, const OnnxInfo *info, const char *name)
{
	char p[256];
	float *x, *want;
	int nx, nw;
	long long dx[8], dw[8];
	Err e;
	snprintf(p, sizeof p, "%s.in.pb", name);
	ck_assert_msg(!onnx_read_tensor(fixture(p), &x, &nx, dx, &e), "%s", e.msg);
	snprintf(p, sizeof p, "%s.out.pb", name);
	ck_assert_msg(!onnx_read_tensor(fixture(p), &want, &nw, dw, &e), "%s", e.msg);
	ck_assert_int_eq(nx, 2);
	ck_assert_int_eq(nw, 2);
	ck_assert_int_eq(dx[1], net->n[0]);
	ck_assert_int_eq(dw[0], dx[0]);
	ck_assert_int_eq(dw[1], net->n[net->m]);
	float *got = malloc((size_t)(dw[0] * dw[1]) * sizeof *got);
	ck_assert_msg(!onnx_forward(net, info->softmax, x, (int)dx[0], got, &e), "%s", e.msg);
	double worst = 0;
	for (long long i = 0; i < dw[0] * dw[1]; i++)
		worst = fmax(worst, fabs((double)got[i] - want[i]) / fmax(1.0, fabs(want[i])));
	free(x);
	free(want);
	free(got);
	return worst;
}

static const struct {
	const char *name, *widths;
	ActKind act;
	float a;
	int softmax;
} good[] = {
    {"relu", "6-5-4-3", ACT_RELU, 1, 0},
    {"tanh_softmax", "6-5-3", ACT_TANH, 1, 1},
    {"sigmoid_opset9", "4-6-2", ACT_SIGMOID, 1, 0},
    {"erf_softmax", "5-4-4-3", ACT_ERF, 1.5f, 1},
    {"linear_softmax", "5-3", ACT_ERF, 1, 1},
    {"no_bias", "5-4-3", ACT_RELU, 1, 0},
    {"float64", "4-3-2", ACT_TANH, 1, 0},
    {"inputs_ir3", "4-3-2", ACT_RELU, 1, 0},
    {"matmul_add", "4-3-2", ACT_ERF, 0.75f, 1},
    {"gemm_alpha_beta", "4-3-2", ACT_SIGMOID, 1, 0},
};

START_TEST(fixtures_reproduce_their_producer)
{
	char p[256], sh[128];
	snprintf(p, sizeof p, "%s.onnx", good[_i].name);
	Err e;
	OnnxInfo info;
	Net *net = onnx_import(fixture(p), &info, &e);
	ck_assert_msg(net != NULL, "%s: %s", good[_i].name, e.msg);
	ck_assert_str_eq(net_shape_str(net, sh, sizeof sh), good[_i].widths);
	if (net->m > 1) {
		ck_assert_int_eq(net->act, good[_i].act);
		ck_assert_float_eq(net->act_a, good[_i].a);
	}
	ck_assert_int_eq(info.softmax, good[_i].softmax);
	ck_assert_int_eq(info.identity, 0);
	double d = reproduce(net, &info, good[_i].name);
	ck_assert_msg(d <= 1e-5, "%s: differs by %g", good[_i].name, d);
	net_free(net);
}
END_TEST

static const struct {
	const char *file, *msg;
} bad[] = {
    {"dropout_train.onnx", "node 3 '/1/Dropout' (Dropout): dropout left in the graph (export "
                           "the model in evaluation mode)"},
    {"residual.onnx", "node 3 '/1/Add' (Add): reads '/0/Gemm_output_0', which node 1 "
                      "'/1/inner/Gemm' (Gemm) reads too: a branch or skip connection"},
    {"bad_raw_length.onnx", "node 0 'fc1' (Gemm): initializer 'W1': 44 bytes of raw_data, but "
                            "its dimensions need 12 values (48 bytes)"},
    {"bad_negative_dim.onnx", "node 0 'fc1' (Gemm): initializer 'W1': dimension 0 is -4, "
                              "expected >= 0"},
    {"bad_huge_dims.onnx", "node 0 'fc1' (Gemm): initializer 'W1': dimensions hold more than "
                           "2^40 values"},
    {"bad_int64_weights.onnx", "node 0 'fc1' (Gemm): initializer 'W1': data type INT64 (7), "
                               "expected FLOAT (1) or DOUBLE (11)"},
    {"bad_external.onnx", "node 0 'fc1' (Gemm): initializer 'W1': data stored in an external "
                          "file, which condnet does not read"},
    {"bad_chain.onnx", "node 2 'fc2' (MatMul): weights of 5 inputs × 2 outputs, but its input "
                       "has 3 features"},
    {"bad_input_width.onnx", "node 0 'fc1' (Gemm): weights of 4 inputs × 3 outputs, but its "
                             "input has 5 features"},
    {"bad_output_width.onnx", "node 2 'fc2' (MatMul): output 'y' is declared with 3 features, "
                              "the graph computes 2"},
    {"bad_int_input.onnx", "node 0 'fc1' (Gemm): input 'x' holds INT32 (6), expected FLOAT (1) "
                           "or DOUBLE (11)"},
    {"bad_dangling.onnx", "node 0 'fc1' (Gemm): input 'b0' is not produced by any node, "
                          "initializer or graph input"},
    {"bad_cycle.onnx", "node 1 'loop_add' (Add): input 'r' comes from the later node 2 "
                       "'loop_relu' (Relu) (a cycle, or nodes out of topological order)"},
    {"bad_two_acts.onnx", "node 3 'act2' (Tanh): another activation than node 1 'act1' (Relu): "
                          "condnet's hidden layers share one"},
};

START_TEST(refusals_name_the_node)
{
	Err e;
	char want[1200];
	const char *path = fixture(bad[_i].file);
	ck_assert_ptr_null(onnx_import(path, NULL, &e));
	snprintf(want, sizeof want, "%s: %s", path, bad[_i].msg);
	ck_assert_str_eq(e.msg, want);
}
END_TEST

static Net *sample_net(ActKind act, int m)
{
	Net *net = fx_sample_net(act, 1.25f, m);
	net->b[0][0] = -0.0f; /* read back as -0, not 0 + -0 */
	return net;
}

static unsigned char *file_bytes(const char *path, size_t *len)
{
	return tu_read(path, len);
}

static int has(const unsigned char *b, size_t len, const char *s)
{
	return memmem(b, len, s, strlen(s)) != NULL;
}

START_TEST(export_then_import_is_the_same_net)
{
	for (int m = 1; m <= 3; m += 2) {
		Net *net = sample_net((ActKind)_i, m);
		char path[1024];
		snprintf(path, sizeof path, "%s/n.onnx", dir);
		Err e;
		OnnxMeta meta = {2.5};
		ck_assert_msg(!onnx_export(net, path, &meta, &e), "%s", e.msg);
		OnnxInfo info;
		Net *back = onnx_import(path, &info, &e);
		ck_assert_msg(back != NULL, "%s", e.msg);
		ck_assert_int_eq(back->m, net->m);
		for (int i = 0; i <= m; i++)
			ck_assert_int_eq(back->n[i], net->n[i]);
		ck_assert_int_eq(memcmp(back->param, net->param, net->nparam * sizeof *net->param),
		                 0);
		if (m > 1) {
			ck_assert_int_eq(back->act, net->act);
			ck_assert_float_eq(back->act_a, _i == ACT_ERF ? 1.25f : 1.0f);
		}
		ck_assert_int_eq(info.softmax, 1);
		ck_assert_int_eq(info.identity, 0);
		ck_assert_int_eq(info.opset, ONNX_OPSET);
		ck_assert_int_eq(info.ir_version, ONNX_IR_VERSION);
		ck_assert_str_eq(info.input, ONNX_INPUT_NAME);
		ck_assert_str_eq(info.output, ONNX_OUTPUT_NAME);
		ck_assert_str_eq(info.producer, "condnet " PACKAGE_VERSION);
		/* the same probabilities as the Net that was written */
		float x[3 * 5], p1[3 * 2], p2[3 * 2];
		for (int i = 0; i < 15; i++)
			x[i] = (float)cos(0.7 * i);
		ck_assert(!net_forward(net, x, 3, m, p1, &e));
		ck_assert(!onnx_forward(back, info.softmax, x, 3, p2, &e));
		ck_assert_int_eq(memcmp(p1, p2, sizeof p1), 0);
		size_t len;
		unsigned char *b = file_bytes(path, &len);
		ck_assert(has(b, len, "condnet.tau") && has(b, len, "2.5"));
		ck_assert(has(b, len, "condnet.widths") && has(b, len, m == 3 ? "5-4-3-2" : "5-2"));
		ck_assert(has(b, len, "condnet.version") && has(b, len, "condnet.activation"));
		free(b);
		meta.tau = 0;
		ck_assert(!onnx_export(net, path, &meta, &e));
		b = file_bytes(path, &len);
		ck_assert(!has(b, len, "condnet.tau"));
		free(b);
		net_free(back);
		net_free(net);
	}
}
END_TEST

/* Every prefix of a model and every byte flipped: a Net or a message, never
 * a crash (the sanitizer build checks the memory). */
/* Parameter i: (i mod 7) − 3. */
static float sevenths(size_t i, size_t n)
{
	(void)n;
	return (float)(i % 7) - 3;
}

/* A network deeper than 1000 layers (the importer used to stop there, the
 * trainer and the exporter go to the table of limits' 100001) is exported
 * and imported again, the same. */
START_TEST(deep_network_round_trip)
{
	int m = 1500;
	Err e;
	Net *net = fx_deep_net(m, ACT_RELU, sevenths);
	char path[600];
	snprintf(path, sizeof path, "%s/deep.onnx", dir);
	ck_assert_msg(!onnx_export(net, path, NULL, &e), "%s", e.msg);
	OnnxInfo info;
	Net *back = onnx_import(path, &info, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	ck_assert_int_eq(back->m, m);
	ck_assert_int_eq(memcmp(back->param, net->param, net->nparam * sizeof *net->param), 0);
	net_free(back);
	net_free(net);
}
END_TEST

START_TEST(damaged_bytes_are_refused)
{
	Net *net = sample_net(ACT_ERF, 3);
	char path[1024];
	snprintf(path, sizeof path, "%s/n.onnx", dir);
	Err e;
	ck_assert(!onnx_export(net, path, NULL, &e));
	size_t len;
	unsigned char *b = file_bytes(path, &len);
	ck_assert_ptr_null(onnx_import_mem(b, 0, "m.onnx", NULL, &e));
	ck_assert_str_eq(e.msg, "m.onnx: empty file, expected an ONNX ModelProto");
	for (size_t cut = 1; cut < len; cut++) {
		e.msg[0] = '\0';
		Net *got = onnx_import_mem(b, cut, "m.onnx", NULL, &e);
		ck_assert_msg(got || e.msg[0], "cut at %zu: no message", cut);
		net_free(got);
	}
	for (size_t i = 0; i < len; i++) {
		b[i] ^= 0xff;
		e.msg[0] = '\0';
		Net *got = onnx_import_mem(b, len, "m.onnx", NULL, &e);
		ck_assert_msg(got || e.msg[0], "byte %zu flipped: no message", i);
		net_free(got);
		b[i] ^= 0xff;
	}
	/* the last byte cut off: the bias of the output layer runs past the end */
	ck_assert_ptr_null(onnx_import_mem(b, len - 1, "m.onnx", NULL, &e));
	ck_assert_msg(strstr(e.msg, "length runs past the end") != NULL, "%s", e.msg);
	free(b);
	net_free(net);
}
END_TEST

START_TEST(wire_errors_name_the_offset)
{
	Err e;
	/* ModelProto field 7 (graph) as a varint */
	static const unsigned char varint_graph[] = {0x38, 0x01};
	ck_assert_ptr_null(onnx_import_mem(varint_graph, sizeof varint_graph, "w.onnx", NULL, &e));
	ck_assert_str_eq(e.msg, "w.onnx: offset 0: ModelProto field 7 (graph) has wire type 0, "
	                        "expected 2");
	/* a group (wire type 3) in a field the schema does not know, and in one it does */
	static const unsigned char group[] = {0x08, 0x07, 0x7b};
	ck_assert_ptr_null(onnx_import_mem(group, sizeof group, "w.onnx", NULL, &e));
	ck_assert_str_eq(e.msg,
	                 "w.onnx: offset 2: ModelProto field 15 has wire type 3 (expected 0, "
	                 "1, 2 or 5)");
	static const unsigned char group1[] = {0x08, 0x07, 0x0b};
	ck_assert_ptr_null(onnx_import_mem(group1, sizeof group1, "w.onnx", NULL, &e));
	ck_assert_str_eq(e.msg,
	                 "w.onnx: offset 2: ModelProto field 1 (ir_version) has wire type 3, "
	                 "expected 0");
	/* graph → node → attribute → g → node → … nested 100 deep, built inside out */
	unsigned char deep[1024];
	size_t n = 0;
	static const unsigned char keys[3] = {0x0a, 0x2a, 0x32}; /* node, attribute, g */
	for (int level = 99; level >= 0; level--) {
		unsigned char hdr[4] = {level ? keys[(level - 1) % 3] : 0x3a};
		size_t h = 1;
		for (size_t v = n; h == 1 || v; v >>= 7)
			hdr[h++] = (unsigned char)((v & 0x7f) | (v >> 7 ? 0x80 : 0));
		memmove(deep + h, deep, n);
		memcpy(deep, hdr, h);
		n += h;
	}
	ck_assert_ptr_null(onnx_import_mem(deep, n, "d.onnx", NULL, &e));
	ck_assert_str_eq(e.msg, "d.onnx: offset 166: messages nested more than 64 deep");
	/* no graph at all */
	static const unsigned char ir[] = {0x08, 0x07};
	ck_assert_ptr_null(onnx_import_mem(ir, sizeof ir, "i.onnx", NULL, &e));
	ck_assert_str_eq(e.msg, "i.onnx: the model has no graph");
	ck_assert_ptr_null(onnx_import("/dev/null", NULL, &e));
	ck_assert_str_eq(e.msg, "/dev/null: not a regular file");
}
END_TEST

START_TEST(tensor_files)
{
	float *x;
	int nd;
	long long dims[8];
	Err e;
	ck_assert_msg(!onnx_read_tensor(fixture("relu.in.pb"), &x, &nd, dims, &e), "%s", e.msg);
	ck_assert_int_eq(nd, 2);
	ck_assert_int_eq(dims[0], 7);
	ck_assert_int_eq(dims[1], 6);
	free(x);
	ck_assert(onnx_read_tensor(fixture("relu.onnx"), &x, &nd, dims, &e));
	ck_assert_msg(strstr(e.msg, "relu.onnx: ") != NULL, "%s", e.msg);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("onnx_io");
	TCase *t = tcase_create("onnx_io");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 60);
	tcase_add_loop_test(t, fixtures_reproduce_their_producer, 0, sizeof good / sizeof *good);
	tcase_add_loop_test(t, refusals_name_the_node, 0, sizeof bad / sizeof *bad);
	tcase_add_loop_test(t, export_then_import_is_the_same_net, 0, ACT_COUNT);
	tcase_add_test(t, deep_network_round_trip);
	tcase_add_test(t, damaged_bytes_are_refused);
	tcase_add_test(t, wire_errors_name_the_offset);
	tcase_add_test(t, tensor_files);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
