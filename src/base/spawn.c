/* spawn.c - the program runner of spawn.h. */
#include "base/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"

/* The child: every signal back to its default action and unblocked (the
 * parent's handlers are not the program's), the directory, the streams. */
static void child(const char *dir, char *const argv[], int keep_stderr)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP) {
			struct sigaction old;
			/* an ignored signal stays ignored (nohup), as exec keeps it */
			if (sigaction(sig, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
				sigaction(sig, &sa, NULL);
		}
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	int nul = open("/dev/null", O_RDWR);
	if (nul >= 0) {
		dup2(nul, 0);
		dup2(nul, 1);
		if (!keep_stderr)
			dup2(nul, 2);
	}
	if (dir && chdir(dir) != 0)
		_exit(SPAWN_MISSING);
	execvp(argv[0], argv);
	_exit(SPAWN_MISSING);
}

int spawn_wait(const char *dir, char *const argv[], int keep_stderr, int (*stop)(void *ud),
               void *ud)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return SPAWN_FAILED;
	if (pid == 0)
		child(dir, argv, keep_stderr);
	int st, stopped = 0;
	double killed_at = 0;
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return SPAWN_FAILED;
		if (!stopped && stop && stop(ud)) {
			stopped = 1;
			kill(pid, SIGTERM);
			killed_at = clock_seconds();
		} else if (stopped && killed_at > 0 && clock_seconds() - killed_at > 0.5) {
			kill(pid, SIGKILL);
			killed_at = 0;
		}
		struct timespec ts = {0, 20 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	if (stopped)
		return SPAWN_STOPPED;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : SPAWN_FAILED;
}

int spawn_on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];
	while (path && *path) {
		size_t n = strcspn(path, ":");
		int len = snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, prog);
		if (n && len < (int)sizeof buf && access(buf, X_OK) == 0)
			return 1;
		path += n + (path[n] == ':');
	}
	return 0;
}
