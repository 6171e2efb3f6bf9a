/* test_spawn.c - base/spawn.c: a program run and waited for, its status
 * given back, and ended when a stop comes, even one that ignores SIGTERM
 * (the gnuplot of squeeze --plot and of the screen's export). */
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include "base/clock.h"
#include "base/spawn.h"
#include "testutil.h"

static double stop_at;

/* Says stop once the clock passes stop_at. */
static int stop_later(void *ud)
{
	(void)ud;
	return clock_seconds() >= stop_at;
}

START_TEST(test_status_and_missing)
{
	char *ok[] = {"sh", "-c", "exit 0", NULL}, *three[] = {"sh", "-c", "exit 3", NULL};
	char *killed[] = {"sh", "-c", "kill -9 $$", NULL};
	char *none[] = {"condnet-no-such-program", NULL};
	ck_assert_int_eq(spawn_wait(NULL, ok, 0, NULL, NULL), 0);
	ck_assert_int_eq(spawn_wait(NULL, three, 0, NULL, NULL), 3);
	ck_assert_int_eq(spawn_wait(NULL, killed, 0, NULL, NULL), 128 + SIGKILL);
	ck_assert_int_eq(spawn_wait(NULL, none, 0, NULL, NULL), SPAWN_MISSING);
	ck_assert_int_eq(spawn_on_path("sh"), 1);
	ck_assert_int_eq(spawn_on_path("condnet-no-such-program"), 0);
}
END_TEST

/* The directory given is the program's. */
START_TEST(test_directory)
{
	const char *dir = tu_tmpdir();
	char *argv[] = {"sh", "-c", "touch here", NULL};
	ck_assert_int_eq(spawn_wait(dir, argv, 0, NULL, NULL), 0);
	char path[600];
	snprintf(path, sizeof path, "%s/here", dir);
	ck_assert_int_eq(access(path, F_OK), 0);
}
END_TEST

/* A program that ignores SIGTERM and SIGINT and never ends: a stop ends it
 * (SIGKILL after SIGTERM), and the caller has SPAWN_STOPPED. */
START_TEST(test_stop_ends_a_program_that_hangs)
{
	char *argv[] = {"sh", "-c", "trap '' TERM INT; while :; do sleep 1; done", NULL};
	stop_at = clock_seconds() + 0.2;
	ck_assert_int_eq(spawn_wait(NULL, argv, 0, stop_later, NULL), SPAWN_STOPPED);
	/* and nothing is left: a second wait finds no child */
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("spawn");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_status_and_missing);
	tcase_add_test(tc, test_directory);
	tcase_add_test(tc, test_stop_ends_a_program_that_hangs);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
