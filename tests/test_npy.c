/* test_npy.c - .npy arrays: reading and writing, every rejected header by
 * its message, and data sets as x_PART.npy and y_PART.npy (networks as
 * W1.npy b1.npy … are in test_net_npy.c). */
#include "data/npy.h"
#include "data/npy_set.h"
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

START_TEST(write_then_read)
{
	float v[6] = {1, -2.5f, 3e-8f, 4, 5, 6};
	char path[1024];
	snprintf(path, sizeof path, "%s/a.npy", dir);
	Err e;
	ck_assert_int_eq(npy_write_f32(path, v, 2, 3, &e), 0);
	FILE *f = fopen(path, "rb");
	unsigned char buf[256];
	ck_assert_uint_eq(fread(buf, 1, sizeof buf, f), 128 + 24);
	fclose(f);
	ck_assert_int_eq(memcmp(buf, "\x93NUMPY\x01\x00", 8), 0);
	ck_assert_int_eq(buf[8] | buf[9] << 8, 118);
	ck_assert_int_eq(buf[127], '\n');
	ck_assert_int_eq(buf[126], ' ');
	ck_assert_int_eq(
	    memcmp(buf + 10, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 59), 0);
	double *d;
	int nd;
	long sh[2];
	ck_assert_int_eq(npy_read(path, &d, &nd, sh, &e), 0);
	ck_assert_int_eq(nd, 2);
	ck_assert_int_eq(sh[0], 2);
	ck_assert_int_eq(sh[1], 3);
	for (int i = 0; i < 6; i++)
		ck_assert_double_eq(d[i], v[i]);
	free(d);
	ck_assert_int_eq(npy_write_f32(path, v, 5, -1, &e), 0);
	ck_assert_int_eq(npy_read(path, &d, &nd, sh, &e), 0);
	ck_assert_int_eq(nd, 1);
	ck_assert_int_eq(sh[0], 5);
	ck_assert_double_eq(d[4], 5);
	free(d);
}
END_TEST

START_TEST(write_labels_and_dataset)
{
	int32_t y[3] = {0, 7, -2};
	char path[1024];
	snprintf(path, sizeof path, "%s/y.npy", dir);
	Err e;
	ck_assert_int_eq(npy_write_i32(path, y, 3, -1, &e), 0);
	size_t len;
	unsigned char *b = tu_read(path, &len);
	ck_assert_uint_eq(len, 128 + 12);
	ck_assert_int_eq(
	    memcmp(b + 10, "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }", 57), 0);
	static const unsigned char le[12] = {0, 0, 0, 0, 7, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff};
	ck_assert_int_eq(memcmp(b + 128, le, 12), 0);

	Dataset *ds = dataset_new(2, 3, 4, &e);
	for (int i = 0; i < 6; i++)
		ds->x[i] = 0.5f * (float)i - 1;
	ds->y[0] = 3;
	ds->y[1] = 1;
	NpySet *set = npy_set_begin(dir, "data", &e);
	ck_assert_msg(set != NULL, "%s", e.msg);
	ck_assert_int_eq(npy_set_add_dataset(set, ds, "train", &e), 0);
	ck_assert_msg(npy_set_commit(set, &e) == 0, "%s", e.msg);
	double *d;
	int nd;
	long sh[2];
	snprintf(path, sizeof path, "%s/x_train.npy", dir);
	ck_assert_int_eq(npy_read(path, &d, &nd, sh, &e), 0);
	ck_assert_int_eq(nd, 2);
	ck_assert_int_eq(sh[0], 2);
	ck_assert_int_eq(sh[1], 3);
	for (int i = 0; i < 6; i++)
		ck_assert_double_eq(d[i], ds->x[i]);
	free(d);
	free(b);
	snprintf(path, sizeof path, "%s/y_train.npy", dir);
	b = tu_read(path, &len);
	ck_assert_uint_eq(len, 128 + 8);
	ck_assert_int_eq(b[128], 3);
	ck_assert_int_eq(b[132], 1);
	free(b);
	snprintf(path, sizeof path, "%s/no/such", dir);
	ck_assert_ptr_null(npy_set_begin(path, "data", &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "no/such"));
	dataset_free(ds);
}
END_TEST

START_TEST(read_f8_versions)
{
	double v[3] = {0.1, -1e300, 2};
	for (int major = 1; major <= 3; major++) {
		const char *p = raw(
		    "x.npy", major,
		    "{\"descr\": \"<f8\", \"shape\": (3,), \"fortran_order\": False}", v, sizeof v);
		double *d;
		int nd;
		long sh[2];
		Err e;
		ck_assert_msg(npy_read(p, &d, &nd, sh, &e) == 0, "%s", e.msg);
		ck_assert_int_eq(nd, 1);
		ck_assert_int_eq(sh[0], 3);
		ck_assert_int_eq(memcmp(d, v, sizeof v), 0);
		free(d);
	}
}
END_TEST

static void rejects(const char *path, const char *suffix)
{
	double *d = NULL;
	int nd;
	long sh[2];
	Err e;
	char want[1200];
	ck_assert_int_eq(npy_read(path, &d, &nd, sh, &e), -1);
	ck_assert_ptr_null(d);
	snprintf(want, sizeof want, "%s: %s", path, suffix);
	ck_assert_str_eq(e.msg, want);
}

START_TEST(rejected_headers)
{
	float v[24] = {0};
	rejects(
	    raw("W2.npy", 1, "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }", v, 48),
	    "dtype '<i8' is not float32 or float64 ('<f4' or '<f8')");
	rejects(
	    raw("a.npy", 1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }", v, 24),
	    "dtype '>f4' is not float32 or float64 ('<f4' or '<f8')");
	rejects(
	    raw("a.npy", 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", v, 24),
	    "fortran_order is True, expected C order (False)");
	rejects(raw("a.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }", v,
	            96),
	        "shape (2, 3, 4) has 3 dimensions, expected 1 or 2");
	rejects(raw("a.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", v, 4),
	        "shape () has 0 dimensions, expected 1 or 2");
	rejects(
	    raw("a.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", v, 20),
	    "offset 128: truncated data of 20 bytes, expected 24 for shape (2, 3)");
	rejects(raw("a.npy", 2, "{'descr': '<f8', 'fortran_order': False, 'shape': (5,), }", v, 48),
	        "offset 128: oversized data of 48 bytes, expected 40 for shape (5,)");
	rejects(raw("a.npy", 1, "{'descr': '<f4', 'fortran_order': False}", v, 4),
	        "header lacks the key 'shape'");
	rejects(raw("a.npy", 1, "{'descr': '<f4' 'fortran_order': False}", v, 4),
	        "header offset 26: expected '}'");
	rejects(raw("a.npy", 1, "{'descr': '<f4', 'fortran_order': Nope, 'shape': (1,)}", v, 4),
	        "header offset 44: expected True or False");
	rejects(raw("a.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}",
	            v, 4),
	        "header offset 66: key 'x', expected 'descr', 'fortran_order' or 'shape'");
	rejects(raw("a.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3)}", v, 0),
	        "shape (0, 3): dimension 0 is 0, expected 1 to 2147483647");
	rejects(tu_write(dir, "m.npy", "\x93NUMPX\x01\x00\x00\x00", 10),
	        "offset 0: expected the magic \\x93NUMPY of a .npy file");
	rejects(tu_write(dir, "m.npy", "\x93NUMPY\x04\x00\x00\x00", 10),
	        "offset 6: format version 4.0, expected 1.0, 2.0 or 3.0");
	rejects(tu_write(dir, "m.npy", "\x93NUMPY\x01\x00\x50\x00{}", 12),
	        "offset 8: header of 80 bytes, but only 2 follow");
	rejects(tu_write(dir, "m.npy", "PK", 2),
	        "offset 0: expected the magic \\x93NUMPY of a .npy file");
	char missing[1024];
	snprintf(missing, sizeof missing, "%s/none.npy", dir);
	rejects(missing, "cannot open: No such file or directory");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("npy");
	TCase *t = tcase_create("npy");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, write_then_read);
	tcase_add_test(t, write_labels_and_dataset);
	tcase_add_test(t, read_f8_versions);
	tcase_add_test(t, rejected_headers);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
