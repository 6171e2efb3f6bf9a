/* test_signals.c - base/signals.c: a process saving a file over and over with
 * file_write is sent every kind of signal at random moments (most land during
 * a save); whatever the signal, no temporary file is left and the file holds
 * a whole save. Signals that end the process end it with the signal's own
 * status; the stop signals, trapped, let the work end itself. */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include "base/file.h"
#include "base/signals.h"
#include "testutil.h"

/* 4 MiB: a save takes long enough for most signals to land inside one. */
enum { LEN = 4 << 20, REPS = 3 };

static char dir[512];
static unsigned char *data;

static void setup(void)
{
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
	data = malloc(LEN);
	ck_assert_ptr_nonnull(data);
	for (size_t i = 0; i < LEN; i++)
		data[i] = (unsigned char)((i * 2654435761u) >> 24);
}

static void teardown(void)
{
	free(data);
}

static int count_tmp(void)
{
	DIR *h = opendir(dir);
	ck_assert_ptr_nonnull(h);
	struct dirent *de;
	int n = 0;
	while ((de = readdir(h)))
		if (strstr(de->d_name, ".tmp."))
			n++;
	closedir(h);
	return n;
}

/* The saved file is absent or one whole save. */
static void expect_whole(const char *path)
{
	if (access(path, F_OK) != 0)
		return;
	size_t len;
	unsigned char *got = tu_read(path, &len);
	ck_assert_uint_eq(len, LEN);
	ck_assert_int_eq(memcmp(got, data, LEN), 0);
	free(got);
}

static void *fault_later(void *ud)
{
	/* a store to a read-only page: a real SIGSEGV (not a null pointer, which
	 * UndefinedBehaviorSanitizer would stop first) */
	volatile int *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	usleep((useconds_t)(intptr_t)ud);
	*ro = 1;
	return NULL;
}

/* Every signal back to its default action, as a process started by a shell
 * that ignores none has it: a disposition the test runner inherited (a
 * launcher that ignores SIGPIPE, nohup's SIGHUP) is kept by condnet on
 * purpose, and the signal would not end the child. */
static void default_dispositions(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (int sig = 1; sig <= SIGRTMAX; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &sa, NULL);
}

/* The child: saves path again and again; trap: the stop signals stop it
 * (exit 42 after the save under way); fault_us >= 0: a thread writes to a
 * read-only page after that many microseconds. */
static void saver(const char *path, int trap, long fault_us)
{
	struct rlimit no_core = {0, 0};
	setrlimit(RLIMIT_CORE, &no_core);
	/* a sanitizer's report of the fault is expected: keep it out of the log */
	int null = open("/dev/null", O_WRONLY);
	dup2(null, 2);
	default_dispositions();
	signals_init();
	if (trap)
		signals_trap_stop(0);
	/* the handlers are in place: the signals that came meanwhile arrive now */
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (fault_us >= 0) {
		pthread_t th;
		pthread_create(&th, NULL, fault_later, (void *)(intptr_t)fault_us);
	}
	Err e;
	while (!signals_stop())
		if (file_write(path, data, LEN, 0, &e))
			_exit(3);
	_exit(42);
}

/* Sends sig (count times, 5 ms apart) after a random delay of 2 to 40 ms;
 * returns the child's status. */
static int run(const char *path, int trap, long fault_us, int sig, int count)
{
	/* the child starts with every signal blocked: one sent before its
	 * handlers are installed must not meet the test runner's */
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid_t pid = fork();
	if (pid == 0)
		saver(path, trap, fault_us);
	sigprocmask(SIG_SETMASK, &old, NULL);
	ck_assert_int_ge(pid, 0);
	usleep((useconds_t)(2000 + rand() % 38000));
	for (int i = 0; i < count; i++) {
		if (i)
			usleep(500);
		kill(pid, sig);
	}
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return status;
}

static const char *at(const char *name)
{
	static char buf[1024];
	snprintf(buf, sizeof buf, "%s/%s", dir, name);
	return buf;
}

START_TEST(test_every_ending_signal)
{
	int sigs[] = {SIGHUP,  SIGINT,    SIGQUIT, SIGTERM,  SIGUSR1,  SIGUSR2, SIGALRM, SIGPIPE,
	              SIGXCPU, SIGVTALRM, SIGPROF, SIGRTMIN, SIGRTMAX, SIGSEGV, SIGBUS,  SIGABRT};
	srand(1);
	for (size_t k = 0; k < sizeof sigs / sizeof *sigs; k++)
		for (int r = 0; r < REPS; r++) {
			int st = run(at("x"), 0, -1, sigs[k], 1);
			ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == sigs[k],
			              "signal %d: status %#x", sigs[k], st);
			ck_assert_msg(count_tmp() == 0, "signal %d left a temporary file", sigs[k]);
			expect_whole(at("x"));
		}
}
END_TEST

START_TEST(test_stop_signals_let_the_save_end)
{
	int sigs[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM};
	srand(2);
	for (size_t k = 0; k < sizeof sigs / sizeof *sigs; k++)
		for (int r = 0; r < REPS; r++) {
			/* one: the work ends itself after the save under way */
			int st = run(at("y"), 1, -1, sigs[k], 1);
			ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 42,
			              "signal %d: status %#x", sigs[k], st);
			ck_assert_int_eq(count_tmp(), 0);
			expect_whole(at("y"));
			/* two: the second ends the process, after the save under way
			 * (unless the work ended in between) */
			st = run(at("y"), 1, -1, sigs[k], 2);
			ck_assert_msg((WIFSIGNALED(st) && WTERMSIG(st) == sigs[k]) ||
			                  (WIFEXITED(st) && WEXITSTATUS(st) == 42),
			              "signal %d twice: status %#x", sigs[k], st);
			ck_assert_int_eq(count_tmp(), 0);
			expect_whole(at("y"));
		}
}
END_TEST

START_TEST(test_fault_removes_the_temporary_file)
{
	srand(3);
	for (int r = 0; r < 2 * REPS; r++) {
		int st = run(at("z"), 0, 2000 + rand() % 30000, 0, 0);
		/* the default action, or a sanitizer's report and exit or abort */
		ck_assert_msg(WIFSIGNALED(st) ||
		                  (WIFEXITED(st) && WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 42),
		              "status %#x", st);
		ck_assert_int_eq(count_tmp(), 0);
		expect_whole(at("z"));
	}
}
END_TEST

/* A group of saves (a .npy set): a signal that comes after the first save
 * waits until the group ends, the saves after it are made, then it ends
 * the process. Without the group the second file would never be written. */
START_TEST(test_group_waits_for_its_saves)
{
	int sigs[] = {SIGHUP, SIGINT, SIGTERM, SIGUSR1};
	for (size_t k = 0; k < sizeof sigs / sizeof *sigs; k++) {
		unlink(at("g1"));
		unlink(at("g2"));
		char g1[1024], g2[1024];
		snprintf(g1, sizeof g1, "%s", at("g1"));
		snprintf(g2, sizeof g2, "%s", at("g2"));
		pid_t pid = fork();
		if (pid == 0) {
			default_dispositions();
			signals_init();
			Err e;
			signals_group_begin();
			if (file_write(g1, "one\n", 4, 0, &e))
				_exit(3);
			kill(getpid(), sigs[k]); /* pending until the group ends */
			if (file_write(g2, "two\n", 4, 0, &e))
				_exit(4);
			signals_group_end();
			_exit(42); /* not reached: the signal ends it */
		}
		ck_assert_int_ge(pid, 0);
		int st;
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == sigs[k], "signal %d: status %#x",
		              sigs[k], st);
		ck_assert_msg(access(g1, F_OK) == 0 && access(g2, F_OK) == 0,
		              "signal %d: the group's saves were not both made", sigs[k]);
		ck_assert_int_eq(count_tmp(), 0);
	}
}
END_TEST

/* Waits for pid at most secs seconds: its status, or -1 (then it is
 * killed) when it did not end. */
static int wait_at_most(pid_t pid, double secs)
{
	int st;
	for (int i = 0; i < (int)(secs * 100); i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return st;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

/* A batch command's stop that the work never asks for (a thread stuck where
 * nothing asks, as OpenBLAS waiting for memory it cannot have) ends the
 * process by its signal all the same; one the work asks for is left to it.
 * The time is not asserted: a child that does not end fails after 30 s. */
START_TEST(test_a_stop_not_taken_ends_the_process)
{
	for (int asks = 0; asks < 2; asks++) {
		sigset_t all, old;
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, &old);
		pid_t pid = fork();
		if (pid == 0) {
			default_dispositions();
			signals_trap_stop(0);
			sigset_t none;
			sigemptyset(&none);
			sigprocmask(SIG_SETMASK, &none, NULL);
			for (;;) {
				if (asks && signals_stop())
					_exit(42); /* the work took it: it ends itself */
				usleep(1000);
			}
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
		ck_assert_int_ge(pid, 0);
		usleep(100000);
		kill(pid, SIGTERM);
		int st = wait_at_most(pid, 30);
		ck_assert_msg(st != -1, "asks %d: the process did not end after one SIGTERM", asks);
		if (asks)
			ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 42, "status %#x", st);
		else
			ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "status %#x", st);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("signals");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_every_ending_signal);
	tcase_add_test(tc, test_stop_signals_let_the_save_end);
	tcase_add_test(tc, test_fault_removes_the_temporary_file);
	tcase_add_test(tc, test_group_waits_for_its_saves);
	tcase_add_test(tc, test_a_stop_not_taken_ends_the_process);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
