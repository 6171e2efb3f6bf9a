/* test_net_npy.c - networks as NumPy files W1.npy b1.npy …: round trips in
 * the Keras and torch layouts, and every rejected set of files by its
 * message. */
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "data/npy.h"
#include "data/npy_set.h"
#include "data/prep.h"
#include "engine/net.h"
#include "fixtures.h"
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
	return fx_sample_net(ACT_ERF, 1.5f, 3);
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
	/* the manifest says which layout the set is in */
	ck_assert_ptr_null(net_npy_import(dir, NPY_TORCH, ACT_ERF, 1.5f, &e));
	char want[1200];
	snprintf(want, sizeof want,
	         "%s: condnet-manifest.txt says the weights are in the keras layout, not the "
	         "torch layout asked for",
	         dir);
	ck_assert_str_eq(e.msg, want);
	/* without it (another tool's folder), read as torch, W1 (5, 4) means 4
	 * inputs and 5 outputs: b1 has 4 */
	snprintf(p, sizeof p, "%s/condnet-manifest.txt", dir);
	ck_assert_int_eq(unlink(p), 0);
	ck_assert_ptr_null(net_npy_import(dir, NPY_TORCH, ACT_ERF, 1.5f, &e));
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
	ck_assert_str_eq(e.msg, "/nonexistent/dir: cannot create the directory: No such file or "
	                        "directory");
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

/* Copies file name from directory from to directory to. */
static void copy_file(const char *from, const char *to, const char *name)
{
	char a[1200], b[1200];
	snprintf(a, sizeof a, "%s/%s", from, name);
	snprintf(b, sizeof b, "%s/%s", to, name);
	size_t len;
	unsigned char *d = tu_read(a, &len);
	FILE *f = fopen(b, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(d, 1, len, f), len);
	fclose(f);
	free(d);
}

/* Entries of dir whose name holds ".tmp." (sets written aside, left over). */
static int count_tmp(const char *d)
{
	DIR *h = opendir(d);
	ck_assert_ptr_nonnull(h);
	struct dirent *de;
	int n = 0;
	while ((de = readdir(h)))
		n += strstr(de->d_name, ".tmp.") != NULL;
	closedir(h);
	return n;
}

/* A set condnet wrote carries a manifest: files of two exports of the same
 * shapes (what an interrupted or a concurrent export leaves) are refused,
 * naming the file; a layer file it does not list is refused; a folder
 * without a manifest (another tool's) still imports as it is. */
START_TEST(manifest_refuses_a_mix)
{
	Net *a = sample_net(), *b = sample_net();
	for (size_t i = 0; i < b->nparam; i++)
		b->param[i] = -a->param[i];
	char other[1024], want[2400], p[1200];
	snprintf(other, sizeof other, "%s/other", dir);
	Err e;
	ck_assert_int_eq(net_npy_export(a, dir, NPY_KERAS, &e), 0);
	ck_assert_int_eq(net_npy_export(b, other, NPY_KERAS, &e), 0);
	/* the first layer of b over a's set, as an export of b cut short leaves it
	 * (the manifest of b is written first) */
	copy_file(other, dir, "W1.npy");
	ck_assert_ptr_null(net_npy_import(dir, NPY_KERAS, ACT_ERF, 1.5f, &e));
	snprintf(want, sizeof want, "%s/W1.npy: ", dir);
	ck_assert_msg(strncmp(e.msg, want, strlen(want)) == 0, "%s", e.msg);
	ck_assert_msg(strstr(e.msg, "but condnet-manifest.txt lists") &&
	                  strstr(e.msg, "the files are not of one export"),
	              "%s", e.msg);
	copy_file(other, dir, "condnet-manifest.txt");
	ck_assert_ptr_null(net_npy_import(dir, NPY_KERAS, ACT_ERF, 1.5f, &e));
	snprintf(want, sizeof want, "%s/b1.npy: ", dir);
	ck_assert_msg(strncmp(e.msg, want, strlen(want)) == 0, "%s", e.msg);
	/* the rest of b: whole again, and b it is */
	copy_file(other, dir, "b1.npy");
	copy_file(other, dir, "W2.npy");
	copy_file(other, dir, "b2.npy");
	copy_file(other, dir, "W3.npy");
	copy_file(other, dir, "b3.npy");
	Net *back = net_npy_import(dir, NPY_KERAS, ACT_ERF, 1.5f, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	ck_assert_int_eq(memcmp(back->param, b->param, b->nparam * sizeof *b->param), 0);
	net_free(back);
	/* a layer file the manifest does not list */
	float w[4] = {0};
	raw("W4.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", w, 16);
	raw("b4.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", w, 8);
	ck_assert_ptr_null(net_npy_import(dir, NPY_KERAS, ACT_ERF, 1.5f, &e));
	snprintf(want, sizeof want,
	         "%s/W4.npy: not listed in condnet-manifest.txt (6 files): the files are not of "
	         "one export; export it again",
	         dir);
	ck_assert_str_eq(e.msg, want);
	/* without the manifest: the folder of another tool, read as it is */
	snprintf(p, sizeof p, "%s/condnet-manifest.txt", dir);
	ck_assert_int_eq(unlink(p), 0);
	back = net_npy_import(dir, NPY_KERAS, ACT_ERF, 1.5f, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	ck_assert_int_eq(back->m, 4);
	net_free(back);
	/* a data set's files are not a network */
	Dataset *ds = dataset_synthetic(4, 3, 5, 1, &e);
	NpySet *set = npy_set_begin(other, "data", &e);
	ck_assert_msg(set && npy_set_add_dataset(set, ds, "train", &e) == 0 &&
	                  npy_set_commit(set, &e) == 0,
	              "%s", e.msg);
	ck_assert_ptr_null(net_npy_import(other, NPY_KERAS, ACT_ERF, 1.5f, &e));
	snprintf(want, sizeof want,
	         "%s: condnet-manifest.txt says the directory holds a data set (x_train.npy …), "
	         "not a network",
	         other);
	ck_assert_str_eq(e.msg, want);
	dataset_free(ds);
	net_free(a);
	net_free(b);
}
END_TEST

/* An export appears whole or not at all: into a new directory by one
 * rename, nothing left aside; when the files cannot be written (the file
 * size limit standing in for a full disk) neither a new directory nor an
 * older export is touched. */
START_TEST(export_whole_or_nothing)
{
	Net *a = sample_net(), *b = sample_net();
	for (size_t i = 0; i < b->nparam; i++)
		b->param[i] = 2 * a->param[i];
	char fresh[1024], p[1200];
	snprintf(fresh, sizeof fresh, "%s/fresh", dir);
	Err e;
	ck_assert_int_eq(net_npy_export(a, fresh, NPY_KERAS, &e), 0);
	ck_assert_int_eq(count_tmp(dir), 0);
	ck_assert_int_eq(count_tmp(fresh), 0);
	/* the same again over it: replaced whole, nothing left inside */
	ck_assert_int_eq(net_npy_export(b, fresh, NPY_KERAS, &e), 0);
	ck_assert_int_eq(count_tmp(fresh), 0);
	Net *back = net_npy_import(fresh, NPY_KERAS, ACT_ERF, 1.5f, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	ck_assert_int_eq(memcmp(back->param, b->param, b->nparam * sizeof *b->param), 0);
	net_free(back);
	/* files past 200 bytes cannot be written */
	signal(SIGXFSZ, SIG_IGN);
	struct rlimit old, small = {200, 0};
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	small.rlim_max = old.rlim_max;
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
	snprintf(p, sizeof p, "%s/never", dir);
	int rc_new = net_npy_export(a, p, NPY_KERAS, &e);
	int rc_old = net_npy_export(a, fresh, NPY_KERAS, &e);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	ck_assert_int_eq(rc_new, -1);
	ck_assert_int_eq(rc_old, -1);
	ck_assert_msg(strstr(e.msg, "File too large"), "%s", e.msg);
	ck_assert_int_ne(access(p, F_OK), 0);
	ck_assert_int_eq(count_tmp(dir), 0);
	ck_assert_int_eq(count_tmp(fresh), 0);
	back = net_npy_import(fresh, NPY_KERAS, ACT_ERF, 1.5f, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	ck_assert_int_eq(memcmp(back->param, b->param, b->nparam * sizeof *b->param), 0);
	net_free(back);
	net_free(a);
	net_free(b);
}
END_TEST

/* Parameter i of n: i/n. */
static float fraction(size_t i, size_t n)
{
	return (float)i / (float)n;
}

/* The importer takes as many layers as the table of limits allows, as the
 * trainer and the exporter do (it used to stop at 1000). */
/* An export over an existing directory swaps it with the set written
 * beside it (one rename: nothing between two sets to see), keeping the
 * directory's other files; a directory holding a subdirectory cannot be
 * swapped and gets the files one by one; the record of the inputs'
 * preprocessing goes in the manifest and comes back to the bit. */
START_TEST(export_swaps_the_directory)
{
	Net *a = sample_net(), *b = sample_net();
	for (size_t i = 0; i < b->nparam; i++)
		b->param[i] = -a->param[i];
	char set[1024], p[1200];
	snprintf(set, sizeof set, "%s/set", dir);
	Err e;
	ck_assert_int_eq(net_npy_export(a, set, NPY_KERAS, &e), 0);
	tu_write(set, "README", "notes\n", 6);
	struct stat before, after, kept;
	ck_assert_int_eq(stat(set, &before), 0);
	/* with a record of standardized inputs */
	Prep *pr = prep_new(PREP_FEATURES, b->n[0], &e);
	pr->scale = DATA_STANDARDIZE;
	for (int j = 0; j < pr->d; j++) {
		pr->mean[j] = 0.1 * j + 1.0 / 3;
		pr->sd[j] = 1.0 + j / 7.0;
	}
	ck_assert_int_eq(net_set_prep(b, pr, &e), 0);
	ck_assert_int_eq(net_npy_export(b, set, NPY_KERAS, &e), 0);
	ck_assert_int_eq(stat(set, &after), 0);
	ck_assert_msg(after.st_ino != before.st_ino, "the directory was not swapped");
	snprintf(p, sizeof p, "%s/README", set);
	ck_assert_int_eq(stat(p, &kept), 0);
	ck_assert_int_eq(kept.st_size, 6);
	snprintf(p, sizeof p, "%s/prep_mean.npy", set);
	ck_assert_int_eq(access(p, F_OK), 0);
	Net *back = net_npy_import(set, NPY_KERAS, ACT_ERF, 1.5f, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	ck_assert_int_eq(memcmp(back->param, b->param, b->nparam * sizeof *b->param), 0);
	ck_assert_ptr_nonnull(back->prep);
	ck_assert_int_eq(back->prep->scale, DATA_STANDARDIZE);
	ck_assert_mem_eq(back->prep->mean, pr->mean, pr->d * sizeof(double));
	ck_assert_mem_eq(back->prep->sd, pr->sd, pr->d * sizeof(double));
	net_free(back);
	/* nothing written aside is left, beside the set or in it */
	DIR *d = opendir(dir);
	struct dirent *de;
	while ((de = readdir(d)))
		ck_assert_msg(!strstr(de->d_name, ".tmp."), "left %s", de->d_name);
	closedir(d);
	/* a subdirectory: not swapped, the files one by one */
	snprintf(p, sizeof p, "%s/sub", set);
	ck_assert_int_eq(mkdir(p, 0777), 0);
	ck_assert_int_eq(stat(set, &before), 0);
	ck_assert_int_eq(net_npy_export(a, set, NPY_KERAS, &e), 0);
	ck_assert_int_eq(stat(set, &after), 0);
	ck_assert_int_eq(after.st_ino, before.st_ino);
	back = net_npy_import(set, NPY_KERAS, ACT_ERF, 1.5f, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	ck_assert_int_eq(memcmp(back->param, a->param, a->nparam * sizeof *a->param), 0);
	net_free(back);
	prep_free(pr);
	net_free(a);
	net_free(b);
}
END_TEST

START_TEST(layers_past_a_thousand)
{
	int m = 1001;
	Err e;
	Net *net = fx_deep_net(m, ACT_TANH, fraction);
	ck_assert_msg(net_npy_export(net, dir, NPY_KERAS, &e) == 0, "%s", e.msg);
	Net *back = net_npy_import(dir, NPY_KERAS, ACT_TANH, 1, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	ck_assert_int_eq(back->m, m);
	ck_assert_int_eq(memcmp(back->param, net->param, net->nparam * sizeof *net->param), 0);
	net_free(back);
	net_free(net);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("net_npy");
	TCase *t = tcase_create("net_npy");
	tcase_set_timeout(t, 120); /* two thousand files of a deep network, on a loaded disk */
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, round_trip_keras);
	tcase_add_test(t, round_trip_torch);
	tcase_add_test(t, rejected_networks);
	tcase_add_test(t, layer_gap);
	tcase_add_test(t, manifest_refuses_a_mix);
	tcase_add_test(t, export_whole_or_nothing);
	tcase_add_test(t, layers_past_a_thousand);
	tcase_add_test(t, export_swaps_the_directory);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
