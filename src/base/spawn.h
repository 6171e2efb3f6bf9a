/* spawn.h - a program condnet runs and waits for (gnuplot), ended when a
 * stop comes.
 *
 * system() waits with SIGINT and SIGQUIT ignored and cannot be left: a
 * program that hangs held condnet past every stop signal. spawn_wait runs
 * the program in a process of its own and waits for it in steps of 20 ms,
 * asking a stop predicate between them: on a stop the program gets SIGTERM,
 * then SIGKILL half a second later if it is still there, and the caller has
 * its answer within about that. */
#ifndef CONDNET_SPAWN_H
#define CONDNET_SPAWN_H

/* The program's end when it was stopped, or could not be started. */
enum { SPAWN_STOPPED = -2, SPAWN_FAILED = -1, SPAWN_MISSING = 127 };

/* Runs argv[0] (found on PATH) with arguments argv (NULL-terminated) in
 * the directory dir (NULL: the current one), its standard input and output
 * /dev/null and its standard error quiet unless keep_stderr. Waits for it,
 * asking stop(ud) (may be NULL) every 20 ms. Its exit status (0..255;
 * SPAWN_MISSING when it could not be executed), 128 + the signal that ended
 * it, SPAWN_STOPPED when stop said stop (the program ended then), or
 * SPAWN_FAILED when no process could be made. */
int spawn_wait(const char *dir, char *const argv[], int keep_stderr, int (*stop)(void *ud),
               void *ud);

/* 1 when a program of that name is on PATH (an executable file). */
int spawn_on_path(const char *prog);

#endif
