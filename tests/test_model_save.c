/* test_model_save.c - model files written: "-" refused, a save into a
 * directory that cannot take it leaves the file before it whole, and a save
 * in little memory streams the file (it used to build it in one buffer). */
#include <errno.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "base/file.h"
#include "model_test.h"

/* A model is binary: "-" (standard output) is refused before anything is
 * written. (The writer itself is tested in test_file and test_file_write.) */
START_TEST(test_save_refuses_dash)
{
	Net *net = model_net(0);
	Err e;
	ck_assert_int_eq(model_save(net, "-", &e), -1);
	ck_assert_msg(strstr(e.msg, "-: standard output takes only text"), "%s", e.msg);
	net_free(net);
}
END_TEST

/* Saving into a directory the process may not write to fails with the
 * errno text and leaves the previous model as it was. Root may write
 * anywhere, so a forked child gives up its privileges first. */
START_TEST(test_save_unwritable_dir)
{
	const char *dir = tu_tmpdir();
	char d[600], path[700];
	snprintf(d, sizeof d, "%s/ro", dir);
	snprintf(path, sizeof path, "%s/m.cnm", d);
	ck_assert_int_eq(mkdir(d, 0755), 0);
	Net *old = model_net(0);
	Err e;
	ck_assert_int_eq(model_save(old, path, &e), 0);
	size_t len0;
	unsigned char *before = tu_read(path, &len0);
	chmod(dir, 0755);
	chmod(d, 0555);
	int pipefd[2];
	ck_assert_int_eq(pipe(pipefd), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(pipefd[0]);
		free(before);
		net_free(old);
		if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
			_exit(2);
		Net *newer = model_net(1);
		int rc = model_save(newer, path, &e);
		net_free(newer);
		ssize_t w = write(pipefd[1], e.msg, strlen(e.msg) + 1);
		(void)w;
		_exit(rc == -1 ? 0 : 1);
	}
	close(pipefd[1]);
	char msg[1024] = "";
	ssize_t got = read(pipefd[0], msg, sizeof msg - 1);
	close(pipefd[0]);
	int status;
	waitpid(pid, &status, 0);
	chmod(d, 0755);
	ck_assert(got > 0);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "save did not fail: %s", msg);
	ck_assert_msg(strstr(msg, path) == msg, "%s", msg);
	ck_assert_msg(strstr(msg, "cannot create a temporary file beside it: Permission denied"),
	              "%s", msg);
	size_t len1;
	unsigned char *after = tu_read(path, &len1);
	ck_assert_uint_eq(len0, len1);
	ck_assert_mem_eq(before, after, len0);
	ck_assert_int_eq(count_others(d, "m.cnm"), 0);
	Net *back = model_load(path, &e);
	expect_same(old, back);
	free(before);
	free(after);
	net_free(back);
	net_free(old);
	tu_rmtree(dir);
}
END_TEST

/* The address space the process maps now (VmSize), in bytes. */
static long long mapped_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long long pages = -1;
	if (!f || fscanf(f, "%lld", &pages) != 1)
		pages = -1;
	if (f)
		fclose(f);
	return pages < 0 ? -1 : pages * sysconf(_SC_PAGESIZE);
}

/* A save streams the file to disk: with the address space held to 24 MiB
 * beyond what the process maps, a network whose file is 46 MiB (weights and
 * both Adam moments) is saved, whole, and loads back. It used to build the
 * file in one buffer ("out of memory for 48304328 bytes"), and a run that had
 * trained was lost at its save. */
START_TEST(test_save_in_little_memory)
{
#if defined(__SANITIZE_ADDRESS__)
	return; /* AddressSanitizer maps terabytes of shadow: no limit applies */
#endif
	const char *dir = tu_tmpdir();
	char path[600];
	snprintf(path, sizeof path, "%s/big.model", dir);
	int w[] = {2000, 2000, 10};
	Net *net = net_new(2, w, ACT_ERF, 1.0f, NULL);
	ck_assert_ptr_nonnull(net);
	Rng r;
	rng_seed(&r, 5);
	net_init_glorot(net, &r);
	for (size_t i = 0; i < net->nparam; i++) {
		net->adam_m[i] = net->param[i] / 2;
		net->adam_v[i] = net->param[i] * net->param[i];
	}
	net->adam_t = 7;
	ck_assert_uint_gt(model_file_bytes(net), (size_t)46 << 20);
	struct rlimit old, lim;
	ck_assert_int_eq(getrlimit(RLIMIT_AS, &old), 0);
	long long now = mapped_bytes();
	ck_assert_int_gt(now, 0);
	lim.rlim_cur = (rlim_t)now + ((rlim_t)24 << 20);
	lim.rlim_max = old.rlim_max;
	ck_assert_int_eq(setrlimit(RLIMIT_AS, &lim), 0);
	Err e = {{0}};
	int rc = model_save(net, path, &e);
	ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
	ck_assert_msg(rc == 0, "%s", e.msg);
	Net *back = model_load(path, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	expect_same(net, back);
	ck_assert_int_eq(count_others(dir, "big.model"), 0);
	net_free(net);
	net_free(back);
	tu_rmtree(dir);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("model_save");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_save_refuses_dash);
	tcase_add_test(tc, test_save_unwritable_dir);
	tcase_add_test(tc, test_save_in_little_memory);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
