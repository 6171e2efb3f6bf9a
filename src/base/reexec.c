/* reexec.c - running this very program again with OPENBLAS_CORETYPE set,
 * under its own name. */
#include "base/reexec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* The path to execute to run this very program again under its own name.
 * /proc/self/exe is the running binary, but a process started from it is
 * named "exe" by the kernel (what ps, top, pgrep, pidof and killall see), so
 * the path it links to is used when it still names the same file (same
 * device and inode). When the binary was deleted or replaced while it ran,
 * that path is another program or none: /proc/self/exe is used then and the
 * new process renames itself (keep_name). Returns 1 for the resolved path in
 * buf, 0 for /proc/self/exe. */
static int self_path(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	struct stat self, named;
	if (n <= 0 || (size_t)n >= len - 1)
		return 0;
	buf[n] = '\0';
	if (stat("/proc/self/exe", &self) || stat(buf, &named))
		return 0;
	return self.st_dev == named.st_dev && self.st_ino == named.st_ino;
}

/* In a process re-executed through /proc/self/exe: take back the name of
 * argv[0] (its last component, 15 bytes at most as the kernel keeps). */
static void keep_name(const char *argv0)
{
	if (!argv0 || !*argv0)
		return;
	const char *base = strrchr(argv0, '/');
	base = base ? base + 1 : argv0;
	char name[16];
	snprintf(name, sizeof name, "%s", base);
	prctl(PR_SET_NAME, name, 0, 0, 0);
}

int reexec_with_kernels(char **argv, const char *core, Err *e)
{
	const char *before = getenv("OPENBLAS_CORETYPE");
	char *saved = before ? strdup(before) : NULL;
	if (before && !saved)
		return err_set(e, "out of memory before re-executing");
	char path[4096];
	int named = self_path(path, sizeof path);
	if (setenv("OPENBLAS_CORETYPE", core, 1) ||
	    setenv(REEXEC_MARK, named ? "1" : "rename", 1)) {
		int err = errno;
		unsetenv(REEXEC_MARK);
		if (saved)
			setenv("OPENBLAS_CORETYPE", saved, 1);
		else
			unsetenv("OPENBLAS_CORETYPE");
		free(saved);
		return err_set(e, "cannot set OPENBLAS_CORETYPE=%s in the environment: %s", core,
		               strerror(err));
	}
	fflush(NULL);
	execv(named ? path : "/proc/self/exe", argv);
	/* what execv says, before anything else can change errno */
	int err = errno;
	unsetenv(REEXEC_MARK);
	if (saved)
		setenv("OPENBLAS_CORETYPE", saved, 1);
	else
		unsetenv("OPENBLAS_CORETYPE");
	free(saved);
	return err_set(e, "cannot re-execute %s with OPENBLAS_CORETYPE=%s: %s",
	               named ? path : "/proc/self/exe", core, strerror(err));
}

int reexec_arrived(char **argv)
{
	const char *mark = getenv(REEXEC_MARK);
	if (!mark)
		return 0;
	if (!strcmp(mark, "rename"))
		keep_name(argv[0]);
	unsetenv(REEXEC_MARK);
	return 1;
}
