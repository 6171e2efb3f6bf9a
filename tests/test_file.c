/* test_file.c - opening a regular input file (and refusing a directory, a
 * FIFO or a device without blocking), making an output directory, and
 * writing a file atomically: the bytes, the mode kept, no temporary file left
 * behind, the old file intact when a write fails. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "base/file.h"
#include "testutil.h"

static char dir[512];

static void setup(void)
{
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
}

static void teardown(void)
{
	tu_rmtree(dir);
}

/* "dir/name" into buf (static, one at a time). */
static const char *in_dir(const char *name)
{
	static char path[1024];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	return path;
}

/* Entries of d whose name starts with prefix (the temporary files
 * file_write makes beside its target are NAME.tmp.XXXXXX). */
static int count_prefixed(const char *d, const char *prefix)
{
	DIR *dh = opendir(d);
	ck_assert_msg(dh != NULL, "%s: cannot list", d);
	int n = 0;
	for (struct dirent *de; (de = readdir(dh));)
		n += strncmp(de->d_name, prefix, strlen(prefix)) == 0;
	closedir(dh);
	return n;
}

static int entries(const char *d)
{
	return count_prefixed(d, "") - 2; /* less . and .. */
}

static void assert_contents(const char *path, const void *data, size_t len)
{
	size_t got;
	unsigned char *b = tu_read(path, &got);
	ck_assert_uint_eq(got, len);
	ck_assert_int_eq(memcmp(b, data, len), 0);
	free(b);
}

START_TEST(test_open_regular)
{
	const char text[] = "0123456789abcdef";
	char path[1024];
	snprintf(path, sizeof path, "%s", tu_write(dir, "f.txt", text, 16));
	long long size = -1;
	Err e;
	FILE *f = file_open_regular(path, "rb", &size, &e);
	ck_assert_msg(f != NULL, "%s", e.msg);
	ck_assert_int_eq(size, 16);
	char buf[32];
	ck_assert_uint_eq(fread(buf, 1, sizeof buf, f), 16);
	ck_assert_int_eq(memcmp(buf, text, 16), 0);
	fclose(f);
	/* size may be NULL; an empty file has size 0. */
	f = file_open_regular(path, "r", NULL, &e);
	ck_assert_ptr_nonnull(f);
	fclose(f);
	snprintf(path, sizeof path, "%s", tu_write(dir, "empty", "", 0));
	f = file_open_regular(path, "rb", &size, &e);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(size, 0);
	fclose(f);
}
END_TEST

/* A directory, a FIFO with no writer and a character device are refused
 * with "PATH: not a regular file"; a FIFO would block fopen, so an alarm
 * fails the test instead of hanging it. A missing file is named with the
 * system's reason. */
START_TEST(test_open_refuses)
{
	char want[1200];
	Err e;
	long long size = 77;
	const char *sub = in_dir("sub");
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	ck_assert_ptr_null(file_open_regular(sub, "rb", &size, &e));
	snprintf(want, sizeof want, "%s: not a regular file", sub);
	ck_assert_str_eq(e.msg, want);

	const char *fifo = in_dir("fifo");
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	alarm(3);
	ck_assert_ptr_null(file_open_regular(fifo, "rb", &size, &e));
	alarm(0);
	snprintf(want, sizeof want, "%s: not a regular file", fifo);
	ck_assert_str_eq(e.msg, want);

	ck_assert_ptr_null(file_open_regular("/dev/null", "rb", &size, &e));
	ck_assert_str_eq(e.msg, "/dev/null: not a regular file");
	ck_assert_int_eq(size, 77); /* untouched on failure */

	const char *none = in_dir("none");
	ck_assert_ptr_null(file_open_regular(none, "rb", &size, &e));
	snprintf(want, sizeof want, "%s: cannot open: %s", none, strerror(ENOENT));
	ck_assert_str_eq(e.msg, want);
}
END_TEST

START_TEST(test_make_dir)
{
	Err e;
	struct stat st;
	char path[1024];
	snprintf(path, sizeof path, "%s", in_dir("out"));
	ck_assert_int_eq(stat(path, &st), -1);
	ck_assert_msg(file_make_dir(path, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	/* An existing directory is accepted, and what it holds stays. */
	tu_write(path, "kept", "x", 1);
	ck_assert_msg(file_make_dir(path, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(entries(path), 1);
	/* Without the parent it fails naming the path. */
	snprintf(path, sizeof path, "%s", in_dir("missing/child"));
	err_clear(&e);
	ck_assert_int_eq(file_make_dir(path, &e), -1);
	char want[1200];
	snprintf(want, sizeof want, "%s: cannot create the directory: %s", path, strerror(ENOENT));
	ck_assert_str_eq(e.msg, want);
	/* A plain file where the directory should be is refused, not taken for it. */
	const char *plain = tu_write(dir, "plain", "x", 1);
	snprintf(path, sizeof path, "%s", plain);
	ck_assert_int_eq(file_make_dir(path, &e), -1);
	snprintf(want, sizeof want, "%s: exists and is not a directory", path);
	ck_assert_str_eq(e.msg, want);
	ck_assert_int_eq(stat(in_dir("missing"), &st), -1);
}
END_TEST

START_TEST(test_write_atomic_new_and_replace)
{
	Err e;
	char path[1024];
	snprintf(path, sizeof path, "%s", in_dir("out.bin"));
	unsigned char data[3000];
	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (unsigned char)(i * 7 + 3);
	ck_assert_msg(file_write(path, data, sizeof data, 0, &e) == 0, "%s", e.msg);
	assert_contents(path, data, sizeof data);
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	mode_t mask = umask(0);
	umask(mask);
	ck_assert_int_eq(st.st_mode & 07777, 0666 & ~mask); /* as open(2) creates it */
	ck_assert_int_eq(count_prefixed(dir, "out.bin.tmp."), 0);
	ck_assert_int_eq(entries(dir), 1);

	/* Replacing keeps the old file's mode, whatever the umask. */
	ck_assert_int_eq(chmod(path, 0600), 0);
	ck_assert_msg(file_write(path, "short", 5, 0, &e) == 0, "%s", e.msg);
	assert_contents(path, "short", 5);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0600);
	ck_assert_int_eq(chmod(path, 0751), 0);
	ck_assert_msg(file_write(path, "", 0, 0, &e) == 0, "%s", e.msg);
	assert_contents(path, "", 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0751);
	ck_assert_int_eq(count_prefixed(dir, "out.bin.tmp."), 0);
	ck_assert_int_eq(entries(dir), 1);
}
END_TEST

/* A path relative to the working directory, and a name with no directory. */
START_TEST(test_write_atomic_relative)
{
	Err e;
	char cwd[1024];
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_msg(file_write("plain", "abc", 3, 0, &e) == 0, "%s", e.msg);
	assert_contents("plain", "abc", 3);
	ck_assert_int_eq(mkdir("d", 0755), 0);
	ck_assert_msg(file_write("d/inner", "xyz", 3, 0, &e) == 0, "%s", e.msg);
	assert_contents("d/inner", "xyz", 3);
	ck_assert_int_eq(count_prefixed(".", "plain.tmp."), 0);
	ck_assert_int_eq(count_prefixed("d", "inner.tmp."), 0);
	ck_assert_int_eq(chdir(cwd), 0);
}
END_TEST

/* Failures: the directory is missing (no temporary file can be made), the
 * target is a directory (the rename fails), and the write itself fails (a
 * file size limit, which binds root too). Each names the path, leaves no
 * temporary file and leaves the old file as it was. */
START_TEST(test_write_atomic_failures)
{
	Err e;
	char path[1024];
	snprintf(path, sizeof path, "%s", in_dir("missing/out.bin"));
	ck_assert_int_eq(file_write(path, "abc", 3, 0, &e), -1);
	ck_assert_msg(strncmp(e.msg, path, strlen(path)) == 0, "message '%s' does not name %s",
	              e.msg, path);
	ck_assert_int_eq(entries(dir), 0);

	snprintf(path, sizeof path, "%s", in_dir("adir"));
	ck_assert_int_eq(mkdir(path, 0755), 0);
	tu_write(path, "inside", "in", 2);
	ck_assert_int_eq(file_write(path, "abc", 3, 0, &e), -1);
	ck_assert_msg(strncmp(e.msg, path, strlen(path)) == 0, "message '%s' does not name %s",
	              e.msg, path);
	ck_assert_int_eq(count_prefixed(dir, "adir.tmp."), 0);
	ck_assert_int_eq(entries(dir), 1);
	ck_assert_int_eq(entries(path), 1);

	/* A write beyond RLIMIT_FSIZE fails with EFBIG (SIGXFSZ ignored). */
	snprintf(path, sizeof path, "%s", in_dir("old.bin"));
	tu_write(dir, "old.bin", "the old contents", 16);
	ck_assert_int_eq(chmod(path, 0640), 0);
	static unsigned char big[1 << 16];
	memset(big, 'n', sizeof big);
	struct rlimit saved, lim;
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &saved), 0);
	lim = saved;
	lim.rlim_cur = 4096;
	signal(SIGXFSZ, SIG_IGN);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	int rc = file_write(path, big, sizeof big, 0, &e);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &saved), 0);
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(strncmp(e.msg, path, strlen(path)) == 0, "message '%s' does not name %s",
	              e.msg, path);
	ck_assert_ptr_nonnull(strstr(e.msg, "writing"));
	ck_assert_ptr_nonnull(strstr(e.msg, strerror(EFBIG)));
	assert_contents(path, "the old contents", 16);
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0640);
	ck_assert_int_eq(count_prefixed(dir, "old.bin.tmp."), 0);
	ck_assert_int_eq(entries(dir), 2);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("file");
	TCase *t = tcase_create("file");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, test_open_regular);
	tcase_add_test(t, test_open_refuses);
	tcase_add_test(t, test_make_dir);
	tcase_add_test(t, test_write_atomic_new_and_replace);
	tcase_add_test(t, test_write_atomic_relative);
	tcase_add_test(t, test_write_atomic_failures);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
