/* test_net_npy.c - networks as NumPy files W1.npy b1.npy …: round trips in
 * the Keras and torch layouts, and every rejected set of files by its
 * message. */
#include <math.h>

#include "data/npy.h"
#include "engine/net.h"
#include "model/net_npy.h"
#include "testutil.h"

static char dir[512];

static void setup(void)
{
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
}

static void teardown(void)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* A .npy file of the given version with dict as header and raw data. */
static const char *raw(const char *name, int major, const char *dict, const void *data, size_t len)
{
	return tu_npy_raw(dir, name, major, dict, data, len);
}

static Net *sample_net(void)
{
	int widths[4] = {5, 4, 3, 2};
	Net *net = net_new(3, widths, ACT_ERF, 1.5f, NULL);
	ck_assert_ptr_nonnull(net);
	for (size_t i = 0; i < net->nparam; i++)
		net->param[i] = (float)(sin(1.0 + 7.3 * (double)i) * 0.8);
	return net;
}

static void assert_same(const Net *a, const Net *b)
{
	ck_assert_int_eq(a->m, b->m);
	for (int i = 0; i <= a->m; i++)
		ck_assert_int_eq(a->n[i], b->n[i]);
	ck_assert_uint_eq(a->nparam, b->nparam);
	ck_assert_int_eq(memcmp(a->param, b->param, a->nparam * sizeof *a->param), 0);
	ck_assert_int_eq(b->act, ACT_ERF);
	ck_assert_float_eq(b->act_a, 1.5f);
}

START_TEST(round_trip_keras)
{
	Net *net = sample_net();
	Err e;
	ck_assert_int_eq(net_npy_export(net, dir, NPY_KERAS, &e), 0);
	Net *back = net_npy_import(dir, NPY_KERAS, ACT_ERF, 1.5f, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	assert_same(net, back);
	/* W2.npy holds W⁽²⁾ as (in, out) */
	char p[1024];
	snprintf(p, sizeof p, "%s/W2.npy", dir);
	double *d;
	int nd;
	long sh[2];
	ck_assert_int_eq(npy_read(p, &d, &nd, sh, &e), 0);
	ck_assert_int_eq(sh[0], 4);
	ck_assert_int_eq(sh[1], 3);
	ck_assert_double_eq(d[1 * 3 + 2], net->W[1][1 * 3 + 2]);
	free(d);
	/* read as torch, W1 (5, 4) means 4 inputs and 5 outputs: b1 has 4 */
	ck_assert_ptr_null(net_npy_import(dir, NPY_TORCH, ACT_ERF, 1.5f, &e));
	char want[1200];
	snprintf(want, sizeof want, "%s/b1.npy: 4 entries, expected 5 (the outputs of W1.npy)",
	         dir);
	ck_assert_str_eq(e.msg, want);
	net_free(net);
	net_free(back);
}
END_TEST

START_TEST(round_trip_torch)
{
	Net *net = sample_net();
	Err e;
	ck_assert_int_eq(net_npy_export(net, dir, NPY_TORCH, &e), 0);
	Net *back = net_npy_import(dir, NPY_TORCH, ACT_ERF, 1.5f, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	assert_same(net, back);
	char p[1024];
	snprintf(p, sizeof p, "%s/W1.npy", dir);
	double *d;
	int nd;
	long sh[2];
	ck_assert_int_eq(npy_read(p, &d, &nd, sh, &e), 0);
	ck_assert_int_eq(sh[0], 4);
	ck_assert_int_eq(sh[1], 5);
	/* torch (out, in): entry (2, 3) is W⁽¹⁾ from input 3 to neuron 2 */
	ck_assert_double_eq(d[2 * 5 + 3], net->W[0][3 * 4 + 2]);
	free(d);
	net_free(net);
	net_free(back);
}
END_TEST

START_TEST(rejected_networks)
{
	float w[30] = {0}, b[10] = {0};
	Err e;
	char want[1200];
	ck_assert_ptr_null(net_npy_import(dir, NPY_KERAS, ACT_TANH, 1, &e));
	snprintf(want, sizeof want, "%s: no W1.npy (expected W1.npy b1.npy W2.npy b2.npy …)", dir);
	ck_assert_str_eq(e.msg, want);

	raw("W1.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", w, 48);
	raw("b1.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", b, 16);
	raw("W2.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (5, 2), }", w, 40);
	raw("b2.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", b, 8);
	ck_assert_ptr_null(net_npy_import(dir, NPY_KERAS, ACT_TANH, 1, &e));
	snprintf(want, sizeof want, "%s/W2.npy: 5 inputs, but layer 1 has 4 outputs", dir);
	ck_assert_str_eq(e.msg, want);

	raw("W2.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 2), }", w, 32);
	raw("b2.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", b, 12);
	ck_assert_ptr_null(net_npy_import(dir, NPY_KERAS, ACT_TANH, 1, &e));
	snprintf(want, sizeof want, "%s/b2.npy: 3 entries, expected 2 (the outputs of W2.npy)",
	         dir);
	ck_assert_str_eq(e.msg, want);

	raw("b2.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }", b, 8);
	ck_assert_ptr_null(net_npy_import(dir, NPY_KERAS, ACT_TANH, 1, &e));
	snprintf(want, sizeof want, "%s/b2.npy: shape (1, 2), expected 1-D of length 2", dir);
	ck_assert_str_eq(e.msg, want);

	raw("b2.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", b, 8);
	w[1 * 4 + 2] = NAN;
	raw("W1.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", w, 48);
	ck_assert_ptr_null(net_npy_import(dir, NPY_KERAS, ACT_TANH, 1, &e));
	snprintf(want, sizeof want, "%s/W1.npy: weight (1, 2) is nan, expected a finite float32",
	         dir);
	ck_assert_str_eq(e.msg, want);

	w[1 * 4 + 2] = 0.25f;
	raw("W1.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", w, 48);
	Net *net = net_npy_import(dir, NPY_KERAS, ACT_TANH, 1, &e);
	ck_assert_msg(net != NULL, "%s", e.msg);
	ck_assert_int_eq(net->m, 2);
	ck_assert_int_eq(net->n[0], 3);
	ck_assert_int_eq(net->n[1], 4);
	ck_assert_int_eq(net->n[2], 2);
	ck_assert_float_eq(net->W[0][1 * 4 + 2], 0.25f);
	/* W3.npy left over from a deeper network would be read back */
	raw("W3.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", w, 16);
	ck_assert_int_eq(net_npy_export(net, dir, NPY_KERAS, &e), -1);
	snprintf(want, sizeof want, "%s/W3.npy: exists and would be read as layer 3; remove it",
	         dir);
	ck_assert_str_eq(e.msg, want);
	ck_assert_int_eq(net_npy_export(net, "/nonexistent/dir", NPY_KERAS, &e), -1);
	ck_assert_str_eq(e.msg, "/nonexistent/dir: not an existing directory");
	net_free(net);
}
END_TEST

/* A gap in the layer numbering is an error naming the missing file; it
 * used to import the layers before the gap as the whole network. */
START_TEST(layer_gap)
{
	float w[16] = {0}, b[4] = {0};
	Err e;
	char want[1200];
	raw("W1.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", w, 48);
	raw("b1.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", b, 16);
	raw("W3.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 2), }", w, 32);
	raw("b3.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", b, 8);
	ck_assert_ptr_null(net_npy_import(dir, NPY_KERAS, ACT_TANH, 1, &e));
	snprintf(want, sizeof want,
	         "%s/W2.npy: missing, but W3.npy is there (layers are numbered 1, 2, … without a "
	         "gap)",
	         dir);
	ck_assert_str_eq(e.msg, want);
	/* a bias without its weights */
	raw("W2.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 4), }", w, 64);
	raw("b2.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", b, 16);
	raw("b4.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", b, 8);
	ck_assert_ptr_null(net_npy_import(dir, NPY_KERAS, ACT_TANH, 1, &e));
	snprintf(want, sizeof want, "%s/W4.npy: missing, but b4.npy is there", dir);
	ck_assert_str_eq(e.msg, want);
	/* names that are not layer files do not count */
	char p[1100];
	snprintf(p, sizeof p, "%s/b4.npy", dir);
	ck_assert_int_eq(unlink(p), 0);
	raw("W05.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", b, 8);
	raw("W6.npy.bak", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", b, 8);
	Net *net = net_npy_import(dir, NPY_KERAS, ACT_TANH, 1, &e);
	ck_assert_msg(net != NULL, "%s", e.msg);
	ck_assert_int_eq(net->m, 3);
	/* export refuses a stale bias beyond the network too */
	raw("b4.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", b, 8);
	ck_assert_int_eq(net_npy_export(net, dir, NPY_KERAS, &e), -1);
	snprintf(want, sizeof want, "%s/b4.npy: exists and would be read as layer 4; remove it",
	         dir);
	ck_assert_str_eq(e.msg, want);
	net_free(net);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("net_npy");
	TCase *t = tcase_create("net_npy");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, round_trip_keras);
	tcase_add_test(t, round_trip_torch);
	tcase_add_test(t, rejected_networks);
	tcase_add_test(t, layer_gap);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
