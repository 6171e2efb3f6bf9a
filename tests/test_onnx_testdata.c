/* test_onnx_testdata.c - ONNX's own conformance test data (Debian
 * libonnx-testdata): the single-layer models PyTorch converted, and the
 * node tests of the operators condnet reads, import and reproduce their
 * stored output_0.pb from input_0.pb to 1e-5; models of other operators are
 * refused naming the node. Skipped (exit 77) where the data is not installed;
 * $ONNX_TESTDATA overrides /usr/share/libonnx-testdata/data.
 * tests/onnx_tally.sh runs every model there. */
#include <math.h>
#include <sys/stat.h>

#include "model/onnx_io.h"
#include "testutil.h"

static const char *data_dir(void)
{
	const char *d = getenv("ONNX_TESTDATA");
	return d && *d ? d : "/usr/share/libonnx-testdata/data";
}

static const struct {
	const char *test, *widths;
	int softmax, identity;
} cases[] = {
    {"pytorch-converted/test_Linear", "10-8", 0, 0},
    {"pytorch-converted/test_Linear_no_bias", "10-8", 0, 0},
    {"pytorch-converted/test_ReLU", "60-60-60", 0, 2},
    {"pytorch-converted/test_Tanh", "60-60-60", 0, 2},
    {"pytorch-converted/test_Sigmoid", "60-60-60", 0, 2},
    {"pytorch-converted/test_Softmax", "20-20", 1, 1},
    {"pytorch-converted/test_softmax_lastdim", "128-128", 1, 1},
    {"node/test_relu", "20-20-20", 0, 2},
    {"node/test_tanh", "20-20-20", 0, 2},
    {"node/test_sigmoid", "20-20-20", 0, 2},
    {"node/test_erf", "3072-3072-3072", 0, 2},
    {"node/test_softmax_example", "3-3", 1, 1},
    {"node/test_softmax_large_number", "4-4", 1, 1},
    {"simple/test_single_relu_model", "2-2-2", 0, 2},
};

START_TEST(reproduces_stored_outputs)
{
	char path[1024], sh[128];
	snprintf(path, sizeof path, "%s/%s/model.onnx", data_dir(), cases[_i].test);
	Err e;
	OnnxInfo info;
	Net *net = onnx_import(path, &info, &e);
	ck_assert_msg(net != NULL, "%s", e.msg);
	ck_assert_str_eq(net_shape_str(net, sh, sizeof sh), cases[_i].widths);
	ck_assert_int_eq(info.softmax, cases[_i].softmax);
	ck_assert_int_eq(info.identity, cases[_i].identity);
	float *x, *want;
	int nx, nw;
	long long dx[8], dw[8];
	snprintf(path, sizeof path, "%s/%s/test_data_set_0/input_0.pb", data_dir(), cases[_i].test);
	ck_assert_msg(!onnx_read_tensor(path, &x, &nx, dx, &e), "%s", e.msg);
	snprintf(path, sizeof path, "%s/%s/test_data_set_0/output_0.pb", data_dir(),
	         cases[_i].test);
	ck_assert_msg(!onnx_read_tensor(path, &want, &nw, dw, &e), "%s", e.msg);
	long long rows = dx[0], cols = 1, total = 1;
	for (int i = 1; i < nx; i++)
		cols *= dx[i];
	for (int i = 0; i < nw; i++)
		total *= dw[i];
	ck_assert_int_eq(cols, net->n[0]);
	ck_assert_int_eq(total, rows * net->n[net->m]);
	float *got = malloc((size_t)total * sizeof *got);
	ck_assert_msg(!onnx_forward(net, info.softmax, x, (int)rows, got, &e), "%s", e.msg);
	double worst = 0;
	for (long long i = 0; i < total; i++)
		worst = fmax(worst, fabs((double)got[i] - want[i]) / fmax(1.0, fabs(want[i])));
	ck_assert_msg(worst <= 1e-5, "%s: differs by %g", cases[_i].test, worst);
	free(x);
	free(want);
	free(got);
	net_free(net);
}
END_TEST

static const struct {
	const char *test, *msg;
} refused[] = {
    {"pytorch-converted/test_Conv2d", "node 0 (Conv): attribute 'kernel_shape' is not the same "
                                      "on every side"},
    {"pytorch-converted/test_LogSoftmax", "node 0 (LogSoftmax): not an operator condnet reads"},
    {"pytorch-converted/test_BatchNorm1d_3d_input_eval", "(BatchNormalization): not an "
                                                         "operator"},
    {"node/test_gemm_default_no_bias", "node 0 (Gemm): weight matrix 'b' is a graph input, "
                                       "not a constant"},
    {"node/test_softmax_axis_0", "node 0 (Softmax): softmax over axis 0 of a 3-dimensional "
                                 "tensor"},
    {"pytorch-operator/test_operator_addmm", "node 1 (Gemm): reads '0', which node 0 (Gemm) "
                                             "reads too: a branch or skip connection"},
};

START_TEST(refuses_other_operators)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s/model.onnx", data_dir(), refused[_i].test);
	Err e;
	ck_assert_ptr_null(onnx_import(path, NULL, &e));
	ck_assert_msg(strstr(e.msg, refused[_i].msg) != NULL, "%s", e.msg);
}
END_TEST

int main(void)
{
	struct stat st;
	char path[1024];
	snprintf(path, sizeof path, "%s/pytorch-converted/test_Linear/model.onnx", data_dir());
	if (stat(path, &st)) {
		printf("no ONNX test data at %s (Debian: libonnx-testdata): skipped\n", data_dir());
		return 77;
	}
	Suite *s = suite_create("onnx_testdata");
	TCase *t = tcase_create("onnx_testdata");
	tcase_set_timeout(t, 60);
	tcase_add_loop_test(t, reproduces_stored_outputs, 0, sizeof cases / sizeof *cases);
	tcase_add_loop_test(t, refuses_other_operators, 0, sizeof refused / sizeof *refused);
	suite_add_tcase(s, t);
	return tu_run(s);
}
