/* test_session_log.c - the session log as a file: a corrupt line named by
 * its number, the kernels a log was recorded with held against a replay's,
 * one session's lock on its log and a write that fails closing it, the
 * default log directory, and what is not a regular file refused. */
#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "base/repro.h"
#include "session/session_setting.h"
#include "session_test.h"

START_TEST(corrupt_log_names_line)
{
	const char *dir = tu_tmpdir();
	const char *path = write_log(dir, "# condnet session log, version 1\n"
	                                  "tau 30\n"
	                                  "eta 1\n"
	                                  "tau 1e999\n");
	Session *s = session_new(NULL);
	Err e = {{0}};
	char want[1100];
	ck_assert_int_eq(session_replay(s, path, NULL, &e), -1);
	snprintf(want, sizeof want, "%s:2: ", path);
	/* line 2 fails first: no data set yet */
	ck_assert_msg(strstr(e.msg, want) == e.msg, "message '%s'", e.msg);
	ck_assert_msg(strstr(e.msg, "no data set yet"), "message '%s'", e.msg);
	session_free(s);

	path = write_log(dir, "data spec=synthetic features=0 label_col=-1 seed=1 limit=20 "
	                      "val_frac=0.1 val_per_class=0\n\ntau 1e999\n");
	s = session_new(&e);
	ck_assert_int_eq(session_replay(s, path, NULL, &e), -1);
	snprintf(want, sizeof want, "%s:3: tau: '1e999' must be at most 1e+12", path);
	ck_assert_msg(strstr(e.msg, want) == e.msg, "message '%s'", e.msg);
	session_free(s);
}
END_TEST

/* A log recording other kernels or another split than a replay here would
 * use is named with its line; one recording this process's, or nothing, is
 * not. */
START_TEST(log_check_names_other_kernels)
{
	const char *dir = tu_tmpdir();
	ReproRecord now;
	char rec[128], text[512], want[1200];
	Err w = {{0}};
	repro_current(&now, 2);
	snprintf(text, sizeof text,
	         "# condnet session log, version 1\nopts batch=50 lr=0.001 "
	         "threads=2\n# run %s\n",
	         repro_format(&now, rec, sizeof rec));
	const char *same = tu_write(dir, "same.log", text, strlen(text));
	ck_assert_int_eq(session_log_check(same, &w), 0);
	const char *old = "# condnet session log, version 1\nopts batch=50 lr=0.001\n";
	const char *none = tu_write(dir, "none.log", old, strlen(old));
	ck_assert_int_eq(session_log_check(none, &w), 0);
	snprintf(text, sizeof text,
	         "# condnet session log, version 1\nopts batch=50 lr=0.001 "
	         "threads=2\n# run reproducible=on kernels=NoSuchCore threads=2 parts=%d\n",
	         now.parts);
	const char *other = tu_write(dir, "other.log", text, strlen(text));
	ck_assert_int_eq(session_log_check(other, &w), -1);
	snprintf(want, sizeof want,
	         "%s:3: recorded with NoSuchCore kernels, %d part%s; this run: "
	         "%s, %d part",
	         other, now.parts, now.parts == 1 ? "" : "s", now.kernels, now.parts);
	ck_assert_msg(!strncmp(w.msg, want, strlen(want)), "%s", w.msg);
	ck_assert(strstr(w.msg, "numbers may differ"));
	/* the same kernels, another split: 3 parts recorded, this run's differ */
	snprintf(text, sizeof text,
	         "opts batch=50 lr=0.001 threads=3\n# run reproducible=off "
	         "kernels=%s threads=3 parts=3\n",
	         now.kernels);
	const char *parts = tu_write(dir, "parts.log", text, strlen(text));
	ck_assert_int_eq(session_log_check(parts, &w) < 0, repro_on());
	tu_rmtree(dir);
}
END_TEST

/* Two records compared: other kernels, or the same kernels splitting a
 * batch into another number of parts, may give other numbers and say so;
 * the same kernels (in any case) and parts do not, whatever the threads;
 * a record without kernels says nothing. */
START_TEST(repro_compare_kernels_and_parts)
{
	ReproRecord rec, now, back;
	char text[128];
	Err e;
	ck_assert_int_eq(repro_parse("reproducible=on kernels=Haswell threads=3 parts=2", &rec, &e),
	                 0);
	ck_assert(rec.on && !strcmp(rec.kernels, "Haswell") && rec.threads == 3 && rec.parts == 2);
	ck_assert_int_eq(repro_parse(repro_format(&rec, text, sizeof text), &back, &e), 0);
	ck_assert_mem_eq(&back, &rec, sizeof rec);
	now = rec;
	now.threads = 1;
	snprintf(now.kernels, sizeof now.kernels, "HASWELL");
	ck_assert_int_eq(repro_compare(&rec, &now, &e), 0);
	now.parts = 3;
	ck_assert_int_eq(repro_compare(&rec, &now, &e), -1);
	ck_assert_str_eq(e.msg,
	                 "recorded with Haswell kernels, 2 parts; this run: HASWELL, 3 parts — "
	                 "numbers may differ");
	now.parts = 2;
	snprintf(now.kernels, sizeof now.kernels, "Zen");
	ck_assert_int_eq(repro_compare(&rec, &now, &e), -1);
	ck_assert_str_eq(e.msg, "recorded with Haswell kernels, 2 parts; this run: Zen, 2 parts — "
	                        "numbers may differ");
	rec.kernels[0] = '\0';
	ck_assert_int_eq(repro_compare(&rec, &now, &e), 0);
}
END_TEST

/* A log is one session's: another process opening it is refused, naming
 * the process that holds it. A line that cannot be written (the file size
 * limit standing in for a full disk) is taken back whole, the log closed,
 * and the cause kept for the screen to say (it used to be lost silently). */
START_TEST(log_is_locked_and_never_silently_lost)
{
	const char *dir = tu_tmpdir();
	char logp[600], msg[1024] = "", want[1200];
	snprintf(logp, sizeof logp, "%s/l.log", dir);
	Session *s = session_new(NULL);
	Err e = {{0}};
	ck_assert_int_eq(session_log_open(s, logp, &e), 0);
	ck_assert_int_eq(session_replay(s, write_log(dir, small_log), NULL, &e), 0);
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	pid_t pid = fork();
	if (pid == 0) {
		Session *t = session_new(NULL);
		Err f = {{0}};
		int rc = session_log_open(t, logp, &f);
		ssize_t w = write(fds[1], f.msg, strlen(f.msg) + 1);
		_exit(rc == -1 && w > 0 ? 0 : 1);
	}
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_int_gt(read(fds[0], msg, sizeof msg - 1), 0);
	close(fds[0]);
	close(fds[1]);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the second open: %s", msg);
	snprintf(want, sizeof want,
	         "%s: the session log is in use by process %ld (another screen writes it): give "
	         "another --log",
	         logp, (long)getpid());
	ck_assert_str_eq(msg, want);

	struct stat before;
	ck_assert_int_eq(stat(logp, &before), 0);
	signal(SIGXFSZ, SIG_IGN);
	struct rlimit old, lim;
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = (rlim_t)before.st_size + 5; /* part of the next line fits */
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	SessAction a = session_setting_action(SET_TAU, 30);
	ck_assert_msg(session_apply(s, &a, NULL, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	ck_assert_int_eq(s->log_err, EFBIG);
	ck_assert_ptr_null(s->log);
	struct stat after;
	ck_assert_int_eq(stat(logp, &after), 0);
	ck_assert_int_eq(after.st_size, before.st_size); /* the cut line is taken back */
	/* nothing more is written: the log stays the whole lines before the lost one */
	a.set.value = 40;
	ck_assert_int_eq(session_apply(s, &a, NULL, &e), 0);
	ck_assert_int_eq(stat(logp, &after), 0);
	ck_assert_int_eq(after.st_size, before.st_size);
	session_free(s);
	Session *r = session_new(&e);
	ck_assert_msg(session_replay(r, logp, NULL, &e) == 0, "%s", e.msg);
	session_free(r);
}
END_TEST

/* A device or a directory is not read as a log (replay /dev/zero would
 * read blank lines for ever). */
/* The default log's directory: $XDG_STATE_HOME/condnet/, else
 * $HOME/.local/state/condnet/, and without HOME the home directory the
 * system gives the user (the data directory's rule; it used to refuse to
 * start); the null device is no log at all. */
START_TEST(log_dir_without_home)
{
	char dir[1024], want[1200];
	Err e = {{0}};
	setenv("XDG_STATE_HOME", "/x/state", 1);
	ck_assert_int_eq(session_log_dir(dir, sizeof dir, &e), 0);
	ck_assert_str_eq(dir, "/x/state/condnet/");
	unsetenv("XDG_STATE_HOME");
	setenv("HOME", "/h", 1);
	ck_assert_int_eq(session_log_dir(dir, sizeof dir, &e), 0);
	ck_assert_str_eq(dir, "/h/.local/state/condnet/");
	unsetenv("HOME");
	struct passwd *pw = getpwuid(getuid());
	snprintf(want, sizeof want, "%s/.local/state/condnet/",
	         pw && pw->pw_dir && *pw->pw_dir ? pw->pw_dir : ".");
	ck_assert_msg(session_log_dir(dir, sizeof dir, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(dir, want);
	ck_assert(session_log_is_none("/dev/null"));
	ck_assert(!session_log_is_none("/dev/zero"));
	ck_assert(!session_log_is_none("/no/such/file"));
	Err c = {{0}};
	ck_assert_int_eq(session_log_check_path("/dev/null", &c), 0);
}
END_TEST

START_TEST(replay_refuses_non_regular_files)
{
	Session *s = session_new(NULL);
	Err e = {{0}};
	const char *dir = tu_tmpdir();
	char want[600];
	ck_assert_int_eq(session_replay(s, "/dev/zero", NULL, &e), -1);
	ck_assert_str_eq(e.msg, "/dev/zero: not a regular file");
	ck_assert_int_eq(session_replay(s, dir, NULL, &e), -1);
	snprintf(want, sizeof want, "%s: not a regular file", dir);
	ck_assert_str_eq(e.msg, want);
	rmdir(dir);
	session_free(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("session_log");
	TCase *tc = tcase_create("log");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, corrupt_log_names_line);
	tcase_add_test(tc, log_check_names_other_kernels);
	tcase_add_test(tc, repro_compare_kernels_and_parts);
	tcase_add_test(tc, replay_refuses_non_regular_files);
	tcase_add_test(tc, log_dir_without_home);
	tcase_add_test(tc, log_is_locked_and_never_silently_lost);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
