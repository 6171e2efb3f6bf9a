/* test_file_write.c - file_write and file_check_writable (base/file.c): what
 * sits at an output path (a file, a link, a chain of links, a dangling link,
 * a directory, a device, a FIFO, standard output, "-"), the mode of what is
 * written, and no temporary file left after a failure. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "base/file.h"
#include "testutil.h"

static char dir[512];

static void dir_make(void)
{
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
}

/* dir/name in one of four rotating buffers. */
static const char *at(const char *name)
{
	static char buf[4][1024];
	static int i;
	i = (i + 1) % 4;
	snprintf(buf[i], sizeof buf[i], "%s/%s", dir, name);
	return buf[i];
}

/* Entries in d whose name contains ".tmp." (leftover temporary files). */
static int count_tmp(const char *d)
{
	DIR *h = opendir(d);
	ck_assert_ptr_nonnull(h);
	struct dirent *de;
	int n = 0;
	while ((de = readdir(h)))
		if (strstr(de->d_name, ".tmp."))
			n++;
	closedir(h);
	return n;
}

static void expect_content(const char *path, const char *text)
{
	size_t len;
	unsigned char *got = tu_read(path, &len);
	ck_assert_uint_eq(len, strlen(text));
	ck_assert_mem_eq(got, text, len);
	free(got);
}

static void expect_error(int rc, const Err *e, const char *want)
{
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(strstr(e->msg, want) != NULL, "message '%s' lacks '%s'", e->msg, want);
}

static mode_t mode_of(const char *path)
{
	struct stat st;
	ck_assert_int_eq(lstat(path, &st), 0);
	return st.st_mode;
}

START_TEST(test_new_file_gets_umask_mode)
{
	Err e;
	umask(027);
	ck_assert_int_eq(file_write(at("a.txt"), "one\n", 4, FILE_OUT_TEXT, &e), 0);
	ck_assert_int_eq(mode_of(at("a.txt")) & 07777, 0640);
	umask(0);
	ck_assert_int_eq(file_write(at("b.txt"), "two\n", 4, 0, &e), 0);
	ck_assert_int_eq(mode_of(at("b.txt")) & 07777, 0666);
	umask(022);
	expect_content(at("a.txt"), "one\n");
	ck_assert_int_eq(count_tmp(dir), 0);
}
END_TEST

START_TEST(test_replace_keeps_mode)
{
	Err e;
	ck_assert_int_eq(file_write(at("out.txt"), "first\n", 6, 0, &e), 0);
	ck_assert_int_eq(chmod(at("out.txt"), 0604), 0);
	ck_assert_int_eq(file_write(at("out.txt"), "second\n", 7, 0, &e), 0);
	expect_content(at("out.txt"), "second\n");
	ck_assert_int_eq(mode_of(at("out.txt")) & 07777, 0604);
	ck_assert_int_eq(count_tmp(dir), 0);
}
END_TEST

/* A link is written through: the target changes, in its own directory, and
 * the link stays a link; so along a chain of relative links. */
START_TEST(test_links_are_followed)
{
	Err e;
	ck_assert_int_eq(mkdir(at("real"), 0755), 0);
	ck_assert_int_eq(mkdir(at("real/deep"), 0755), 0);
	ck_assert_int_eq(file_write(at("real/deep/t.json"), "old\n", 4, 0, &e), 0);
	ck_assert_int_eq(chmod(at("real/deep/t.json"), 0600), 0);
	ck_assert_int_eq(symlink("deep/t.json", at("real/l2")), 0);
	ck_assert_int_eq(symlink("real/l2", at("l1")), 0);
	ck_assert_int_eq(file_write(at("l1"), "new\n", 4, FILE_OUT_TEXT, &e), 0);
	ck_assert(S_ISLNK(mode_of(at("l1"))));
	ck_assert(S_ISLNK(mode_of(at("real/l2"))));
	expect_content(at("real/deep/t.json"), "new\n");
	ck_assert_int_eq(mode_of(at("real/deep/t.json")) & 07777, 0600);
	ck_assert_int_eq(count_tmp(dir), 0);
	ck_assert_int_eq(count_tmp(at("real")), 0);
	ck_assert_int_eq(count_tmp(at("real/deep")), 0);
	ck_assert_int_eq(file_check_writable(at("l1"), 0, &e), 0);
}
END_TEST

START_TEST(test_dangling_link_creates_target)
{
	Err e;
	ck_assert_int_eq(mkdir(at("d"), 0755), 0);
	ck_assert_int_eq(symlink("d/made.csv", at("dl")), 0);
	ck_assert_int_eq(file_check_writable(at("dl"), FILE_OUT_TEXT, &e), 0);
	ck_assert_int_eq(file_write(at("dl"), "x\n", 2, FILE_OUT_TEXT, &e), 0);
	ck_assert(S_ISLNK(mode_of(at("dl"))));
	expect_content(at("d/made.csv"), "x\n");
	/* into a directory that does not exist: nothing is created */
	ck_assert_int_eq(symlink("nowhere/x.csv", at("bad")), 0);
	expect_error(file_check_writable(at("bad"), FILE_OUT_TEXT, &e), &e,
	             "nowhere/x.csv: the directory ");
	expect_error(file_write(at("bad"), "x", 1, FILE_OUT_TEXT, &e), &e, "does not exist");
	ck_assert(S_ISLNK(mode_of(at("bad"))));
	/* a loop */
	ck_assert_int_eq(symlink("loop2", at("loop1")), 0);
	ck_assert_int_eq(symlink("loop1", at("loop2")), 0);
	expect_error(file_write(at("loop1"), "x", 1, 0, &e), &e, "symbolic links");
	expect_error(file_check_writable(at("loop1"), 0, &e), &e, "symbolic links");
	ck_assert_int_eq(count_tmp(dir), 0);
}
END_TEST

START_TEST(test_directories_refused)
{
	Err e;
	ck_assert_int_eq(mkdir(at("sub"), 0755), 0);
	expect_error(file_write(at("sub"), "x", 1, 0, &e), &e, "sub: is a directory");
	expect_error(file_check_writable(at("sub"), 0, &e), &e, "sub: is a directory");
	ck_assert_int_eq(symlink("sub", at("tosub")), 0);
	expect_error(file_write(at("tosub"), "x", 1, 0, &e), &e, "tosub: is a directory");
	expect_error(file_write(at("nodir/"), "x", 1, 0, &e), &e, "nodir/: ends in a slash");
	expect_error(file_write(at("nodir/x"), "x", 1, 0, &e), &e, "nodir does not exist");
	expect_error(file_check_writable(at("nodir/x"), 0, &e), &e, "nodir does not exist");
	ck_assert_int_eq(file_write(at("plain"), "p", 1, 0, &e), 0);
	expect_error(file_write(at("plain/x"), "x", 1, 0, &e), &e, "Not a directory");
	expect_error(file_write("", "x", 1, 0, &e), &e, "empty file name");
	ck_assert_int_eq(count_tmp(dir), 0);
	ck_assert_int_eq(count_tmp(at("sub")), 0);
}
END_TEST

/* A character device is written straight and stays a device: a null
 * device node of the test's own when root may make one (so that a fault run
 * as root cannot replace /dev/null), else /dev/null, which a user other than
 * root could not replace anyway. */
START_TEST(test_device_written_straight)
{
	Err e;
	const char *dev =
	    mknod(at("null"), S_IFCHR | 0666, makedev(1, 3)) == 0 ? at("null") : "/dev/null";
	if (!strcmp(dev, "/dev/null") && geteuid() == 0)
		return;
	ck_assert_int_eq(file_check_writable(dev, 0, &e), 0);
	ck_assert_int_eq(file_write(dev, "json\n", 5, FILE_OUT_TEXT, &e), 0);
	ck_assert(S_ISCHR(mode_of(dev)));
	ck_assert_int_eq(symlink(dev, at("tonull")), 0);
	ck_assert_int_eq(file_write(at("tonull"), "x", 1, 0, &e), 0);
	ck_assert(S_ISLNK(mode_of(at("tonull"))));
	ck_assert(S_ISCHR(mode_of(dev)));
	ck_assert_int_eq(file_write(at("tonull"), "x", 1, 0, &e), 0);
	expect_error(file_write(dev, "x", 1, FILE_OUT_PLAIN, &e), &e,
	             ": a character device, expected a regular file");
	ck_assert_int_eq(count_tmp(dir), 0);
}
END_TEST

/* A FIFO gets the bytes; a cache (FILE_OUT_PLAIN) refuses it without
 * opening it, so no reader is needed for that; the check opens nothing. */
START_TEST(test_fifo)
{
	Err e;
	ck_assert_int_eq(mkfifo(at("ff"), 0600), 0);
	alarm(10);
	ck_assert_int_eq(file_check_writable(at("ff"), FILE_OUT_TEXT, &e), 0);
	expect_error(file_write(at("ff"), "x", 1, FILE_OUT_PLAIN, &e), &e,
	             "ff: a FIFO, expected a regular file");
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char buf[64] = "";
		int fd = open(at("ff"), O_RDONLY);
		ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf);
		_exit(n == 6 && !memcmp(buf, "a,b,c\n", 6) ? 0 : 1);
	}
	ck_assert_int_eq(file_write(at("ff"), "a,b,c\n", 6, FILE_OUT_TEXT, &e), 0);
	int status;
	waitpid(pid, &status, 0);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert(S_ISFIFO(mode_of(at("ff"))));
	alarm(0);
}
END_TEST

/* Standard output redirected to a file: "-", /dev/fd/1 and the file's own
 * name append to the stream after what was printed, and the file is not
 * replaced. */
START_TEST(test_standard_output)
{
	Err e;
	int fd = open(at("stdout.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	struct stat before;
	ck_assert_int_eq(fstat(fd, &before), 0);
	fflush(stdout);
	ck_assert_int_eq(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
	close(fd);
	printf("report\n");
	ck_assert_int_eq(file_check_writable("-", FILE_OUT_TEXT, &e), 0);
	ck_assert_int_eq(file_write("-", "{}\n", 3, FILE_OUT_TEXT, &e), 0);
	printf("more\n");
	/* /dev/fd/1 rather than /dev/stdout: a fault run as root would then fail
	 * in /proc instead of replacing the link /dev/stdout */
	ck_assert_int_eq(file_write("/dev/fd/1", "a,b\n", 4, FILE_OUT_TEXT, &e), 0);
	ck_assert_int_eq(file_write(at("stdout.txt"), "x\n", 2, FILE_OUT_TEXT, &e), 0);
	fflush(stdout);
	expect_content(at("stdout.txt"), "report\n{}\nmore\na,b\nx\n");
	struct stat after;
	ck_assert_int_eq(stat(at("stdout.txt"), &after), 0);
	ck_assert_uint_eq(after.st_ino, before.st_ino);
	/* binary data never goes to standard output, by any name: the report
	 * would be mixed into it (`--save F > F`, `--onnx /dev/fd/1 > F`) */
	expect_error(file_write("/dev/fd/1", "x", 1, 0, &e), &e,
	             "/dev/fd/1: is standard output, which takes only text");
	expect_error(file_check_writable(at("stdout.txt"), 0, &e), &e,
	             "stdout.txt: is standard output, which takes only text");
	expect_error(file_write(at("stdout.txt"), "x", 1, 0, &e), &e,
	             "this file is binary: name another file");
	fflush(stdout);
	expect_content(at("stdout.txt"), "report\n{}\nmore\na,b\nx\n");
	/* binary data never goes to "-" */
	expect_error(file_write("-", "x", 1, 0, &e), &e, "-: standard output takes only text");
	expect_error(file_check_writable("-", 0, &e), &e, "-: standard output takes only text");
	expect_error(file_write("-", "x", 1, FILE_OUT_PLAIN, &e), &e, "not standard output");
	ck_assert_int_eq(count_tmp(dir), 0);
}
END_TEST

/* A write that fails half way (the file size limit, SIGXFSZ ignored as
 * condnet does) leaves the previous file and no temporary file, through a
 * link too. */
START_TEST(test_failure_leaves_previous_file)
{
	Err e;
	char big[8192];
	memset(big, 'b', sizeof big);
	ck_assert_int_eq(file_write(at("keep"), "previous\n", 9, 0, &e), 0);
	ck_assert_int_eq(symlink("keep", at("lk")), 0);
	signal(SIGXFSZ, SIG_IGN);
	struct rlimit rl = {4096, 4096};
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	expect_error(file_write(at("keep"), big, sizeof big, 0, &e), &e, "File too large");
	expect_error(file_write(at("lk"), big, sizeof big, 0, &e), &e, "File too large");
	ck_assert_msg(strstr(e.msg, "lk -> ") != NULL, "%s", e.msg);
	expect_content(at("keep"), "previous\n");
	ck_assert(S_ISLNK(mode_of(at("lk"))));
	ck_assert_int_eq(count_tmp(dir), 0);
}
END_TEST

/* What file_write_with's fill is to do: put count pieces of 1000 bytes,
 * then give up (a message of its own) or not. */
typedef struct Pieces {
	int count, give_up;
} Pieces;

static int put_pieces(FileSink *s, void *ud, Err *e)
{
	const Pieces *p = ud;
	char piece[1000];
	for (int i = 0; i < p->count; i++) {
		memset(piece, 'a' + i % 26, sizeof piece);
		if (file_sink_put(s, piece, sizeof piece))
			return -1;
	}
	return p->give_up ? err_set(e, "the maker gave up") : 0;
}

/* An output made in pieces is the file the pieces make; a maker that gives
 * up, or a piece past the file size limit, leaves the previous file as it
 * was and no temporary file, with the maker's message or the write's. */
START_TEST(test_written_in_pieces)
{
	Err e;
	Pieces three = {3, 0}, quit = {2, 1}, many = {9, 0};
	ck_assert_int_eq(file_write_with(at("p"), 0, put_pieces, &three, &e), 0);
	size_t len;
	unsigned char *got = tu_read(at("p"), &len);
	ck_assert_uint_eq(len, 3000);
	ck_assert(got[0] == 'a' && got[999] == 'a' && got[1000] == 'b' && got[2999] == 'c');
	free(got);
	expect_error(file_write_with(at("p"), 0, put_pieces, &quit, &e), &e, "the maker gave up");
	ck_assert_uint_eq(strlen(e.msg), strlen("the maker gave up"));
	signal(SIGXFSZ, SIG_IGN);
	struct rlimit rl = {4096, 4096};
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	expect_error(file_write_with(at("p"), 0, put_pieces, &many, &e), &e, "File too large");
	ck_assert_msg(strstr(e.msg, "p: writing ") != NULL, "%s", e.msg);
	got = tu_read(at("p"), &len);
	ck_assert_uint_eq(len, 3000);
	free(got);
	ck_assert_int_eq(count_tmp(dir), 0);
}
END_TEST

/* A directory the process may not write to: the check and the write say
 * so, and nothing is left. Root may write anywhere, so a forked child gives
 * up its privileges first. */
START_TEST(test_unwritable_directory)
{
	Err e;
	ck_assert_int_eq(mkdir(at("ro"), 0755), 0);
	ck_assert_int_eq(file_write(at("ro/f"), "old", 3, 0, &e), 0);
	ck_assert_int_eq(chmod(dir, 0755), 0);
	ck_assert_int_eq(chmod(at("ro"), 0555), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
			_exit(2);
		Err e2;
		int ok =
		    file_check_writable(at("ro/f"), 0, &e2) == -1 &&
		    strstr(e2.msg, "Permission denied") &&
		    file_write(at("ro/f"), "new", 3, 0, &e2) == -1 &&
		    strstr(e2.msg, "cannot create a temporary file beside it: Permission denied");
		_exit(ok ? 0 : 1);
	}
	int status;
	waitpid(pid, &status, 0);
	ck_assert_int_eq(chmod(at("ro"), 0755), 0);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	expect_content(at("ro/f"), "old");
	ck_assert_int_eq(count_tmp(at("ro")), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("file_write");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, dir_make, NULL);
	tcase_add_test(tc, test_new_file_gets_umask_mode);
	tcase_add_test(tc, test_replace_keeps_mode);
	tcase_add_test(tc, test_links_are_followed);
	tcase_add_test(tc, test_dangling_link_creates_target);
	tcase_add_test(tc, test_directories_refused);
	tcase_add_test(tc, test_device_written_straight);
	tcase_add_test(tc, test_fifo);
	tcase_add_test(tc, test_standard_output);
	tcase_add_test(tc, test_failure_leaves_previous_file);
	tcase_add_test(tc, test_unwritable_directory);
	tcase_add_test(tc, test_written_in_pieces);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
