/* test_file_roles.c - base/file_roles.c: outputs held apart from inputs and
 * from each other, as the file system sees the paths (links, hard links,
 * "./", names not made yet, the files of a directory of a .npy set). */
#include <sys/stat.h>

#include "base/file_roles.h"
#include "testutil.h"

static char dir[512];

static const char *at(const char *name)
{
	static char buf[4][1024];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
	return buf[k];
}

static void setup(void)
{
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
	tu_write(dir, "m.model", "model", 5);
	tu_write(dir, "in.csv", "1,2\n", 4);
	ck_assert_int_eq(symlink("m.model", at("link")), 0);
	ck_assert_int_eq(link(at("m.model"), at("hard")), 0);
	ck_assert_int_eq(mkdir(at("set"), 0777), 0);
	tu_write(at("set"), "W1.npy", "x", 1);
}

/* 0 when the roles are apart, else -1 with e holding the message. */
static int apart(const FileRole *r, int n, Err *e)
{
	e->msg[0] = '\0';
	return file_roles_apart(r, n, e);
}

START_TEST(test_outputs_never_replace_inputs)
{
	Err e;
	const char *outs[] = {"m.model", "link", "hard", "./m.model"};
	for (size_t i = 0; i < sizeof outs / sizeof *outs; i++) {
		char out[1100];
		snprintf(out, sizeof out, "%s/%s", dir, outs[i]);
		FileRole r[] = {{"--load", at("m.model"), 0, NULL, NULL, NULL},
		                {"--out", out, 1, NULL, NULL, NULL}};
		ck_assert_int_eq(apart(r, 2, &e), -1);
		ck_assert_msg(strstr(e.msg, "is the file --load reads") &&
		                  strstr(e.msg, "an output never takes the place of an input"),
		              "%s: %s", outs[i], e.msg);
		ck_assert_int_eq(!!strstr(e.msg, "through a link"), i == 1);
	}
	/* another file, or a stream, is apart */
	FileRole ok[] = {{"--load", at("m.model"), 0, NULL, NULL, NULL},
	                 {"--out", at("answers.csv"), 1, NULL, NULL, NULL},
	                 {"--json", "-", 1, NULL, NULL, NULL},
	                 {"--input", at("in.csv"), 0, NULL, NULL, NULL}};
	ck_assert_int_eq(apart(ok, 4, &e), 0);
}
END_TEST

START_TEST(test_two_outputs_never_share_a_file)
{
	Err e;
	/* a name not made yet, written twice */
	FileRole r[] = {{"--save", at("new"), 1, NULL, NULL, NULL},
	                {"--json", at("./new"), 1, NULL, NULL, NULL}};
	ck_assert_int_eq(apart(r, 2, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "two outputs never share a file"));
	/* a device takes any number */
	FileRole dev[] = {{"--json", "/dev/null", 1, NULL, NULL, NULL},
	                  {"--csv", "/dev/null", 1, NULL, NULL, NULL}};
	ck_assert_int_eq(apart(dev, 2, &e), 0);
	/* --save may replace the model --load read, and nothing else */
	FileRole up[] = {{"--load", at("m.model"), 0, NULL, NULL, NULL},
	                 {"--save", at("m.model"), 1, NULL, "--load", NULL}};
	ck_assert_int_eq(apart(up, 2, &e), 0);
	FileRole in[] = {{"--input", at("m.model"), 0, NULL, NULL, NULL},
	                 {"--save", at("m.model"), 1, NULL, "--load", NULL}};
	ck_assert_int_eq(apart(in, 2, &e), -1);
}
END_TEST

START_TEST(test_the_files_of_a_directory)
{
	Err e;
	/* an output in a set's directory under one of its names */
	FileRole r[] = {{"--npy", at("set"), 0, file_roles_npy_net, NULL, NULL},
	                {"--save", at("set/W1.npy"), 1, NULL, NULL, NULL}};
	ck_assert_int_eq(apart(r, 2, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "is a file of the directory --npy reads"));
	/* under another name it is apart */
	FileRole other[] = {{"--npy", at("set"), 0, file_roles_npy_net, NULL, NULL},
	                    {"--save", at("set/net.model"), 1, NULL, NULL, NULL}};
	ck_assert_int_eq(apart(other, 2, &e), 0);
	/* a directory written over an input inside it */
	tu_write(at("set"), "W9.npy", "m", 1);
	FileRole over[] = {{"--load", at("set/W9.npy"), 0, NULL, NULL, NULL},
	                   {"--npy", at("set"), 1, file_roles_npy_net, NULL, NULL}};
	ck_assert_int_eq(apart(over, 2, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "would write over --load"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("file_roles");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_outputs_never_replace_inputs);
	tcase_add_test(tc, test_two_outputs_never_share_a_file);
	tcase_add_test(tc, test_the_files_of_a_directory);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
