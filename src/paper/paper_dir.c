/* paper_dir.c - the stage directory's files and its lock. */
#include "paper/paper_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/signals.h"
#include "paper/paper_settings.h"

/* The lock file, and its bytes: the first a short-held lock while a run
 * checks and joins, the second shared by the runs, then one a stage. */
#define LOCK_FILE ".lock"
#define BYTE_JOIN 0
#define BYTE_RUNS 1
#define BYTE_STAGE0 2

/* The models the stages write beside their results. */
static const char *const models[] = {"alg1.model", "final.model", "squeeze-best.model",
                                     "over-base.model", NULL};

/* Every stage name of both experiments (mnist's hold adult's). */
static const char *const *all_stages(void)
{
	return paper_stage_names("mnist");
}

static int stage_byte(const char *name)
{
	const char *const *all = all_stages();
	for (int i = 0; all[i]; i++)
		if (!strcmp(all[i], name))
			return BYTE_STAGE0 + i;
	return -1;
}

/* fcntl's lock of one byte; waits when asked (not past a stop). */
static int lock_byte(int fd, short type, int at, int wait)
{
	struct flock fl = {.l_type = type, .l_whence = SEEK_SET, .l_start = at, .l_len = 1};
	int rc;
	while ((rc = fcntl(fd, wait ? F_SETLKW : F_SETLK, &fl)) < 0 && errno == EINTR &&
	       !signals_stop())
		;
	return rc;
}

/* The process holding a lock that conflicts with type at byte at, or 0. */
static long holder(int fd, short type, int at)
{
	struct flock fl = {.l_type = type, .l_whence = SEEK_SET, .l_start = at, .l_len = 1};
	if (fcntl(fd, F_GETLK, &fl) != 0 || fl.l_type == F_UNLCK)
		return 0;
	return fl.l_pid > 0 ? (long)fl.l_pid : -1;
}

/* The setting the lock file names (its first line), into buf. */
static const char *lock_setting(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* Joins the runs of the directory, or refuses when they are of another
 * setting; under the join byte. */
static int join(int fd, const PaperOpts *o, const char *cmd, Err *e)
{
	long pid = holder(fd, F_WRLCK, BYTE_RUNS);
	if (pid != 0) {
		char theirs[512];
		if (strcmp(lock_setting(fd, theirs, sizeof theirs), cmd))
			return err_set(e,
			               "%s is in use by process %ld, a run of other settings "
			               "(%s): runs of other settings do not share a stage "
			               "directory; wait for it to end, or give this run another "
			               "--out",
			               o->out, pid, theirs[0] ? theirs : "unknown");
	} else {
		char line[600];
		int n = snprintf(line, sizeof line, "%s\n", cmd);
		if (ftruncate(fd, 0) != 0 || pwrite(fd, line, (size_t)n, 0) != n)
			return err_set(e, "%s/%s: cannot write the lock: %s", o->out, LOCK_FILE,
			               strerror(errno));
	}
	if (lock_byte(fd, F_RDLCK, BYTE_RUNS, 0) != 0)
		return err_set(e, "%s/%s: cannot lock: %s", o->out, LOCK_FILE, strerror(errno));
	return 0;
}

/* The exclusive lock of each stage in run. */
static int take_stages(int fd, const PaperOpts *o, const char *const *run, const char *cmd, Err *e)
{
	for (int i = 0; run[i]; i++) {
		int at = stage_byte(run[i]);
		if (at < 0 || lock_byte(fd, F_WRLCK, at, 0) == 0)
			continue;
		if (errno != EACCES && errno != EAGAIN)
			return err_set(e, "%s/%s: cannot lock: %s", o->out, LOCK_FILE,
			               strerror(errno));
		return err_set(e,
		               "%s: stage %s is being computed by process %ld (%s): wait for it "
		               "to end, or run other stages (--stages)",
		               o->out, run[i], holder(fd, F_WRLCK, at), cmd);
	}
	return 0;
}

int paper_dir_lock(const PaperOpts *o, const char *const *run, PaperLock *lk, Err *e)
{
	lk->fd = -1;
	if (!run || !run[0])
		return 0;
	char path[1024], cmd[512];
	PaperSettings st;
	paper_settings(o, &st);
	paper_settings_command(&st, cmd, sizeof cmd);
	snprintf(path, sizeof path, "%s/%s", o->out, LOCK_FILE);
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
	struct stat sb;
	if (fd < 0)
		return err_set(e, "%s: cannot open the stage directory's lock: %s", path,
		               strerror(errno));
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return err_set(e, "%s: the stage directory's lock is not a regular file", path);
	}
	if (lock_byte(fd, F_WRLCK, BYTE_JOIN, 1) != 0) {
		int err = errno;
		close(fd);
		if (err == ENOLCK || err == EOPNOTSUPP || err == EINVAL)
			return 0; /* a file system without locks: as before */
		return err_set(e, "%s: %s", path,
		               signals_stop() ? "interrupted while waiting for the lock"
		                              : strerror(err));
	}
	int rc = join(fd, o, cmd, e);
	if (rc == 0)
		rc = take_stages(fd, o, run, cmd, e);
	lock_byte(fd, F_UNLCK, BYTE_JOIN, 0);
	if (rc < 0) {
		close(fd); /* and with it every lock of this file */
		return -1;
	}
	lk->fd = fd;
	return 0;
}

void paper_dir_unlock(PaperLock *lk)
{
	if (lk->fd >= 0)
		close(lk->fd);
	lk->fd = -1;
}

/* What a file of the stage directory is, for messages; NULL when the
 * stages write no file of that name. */
static const char *stage_file(const char *name, char *buf, size_t len)
{
	const char *const *all = all_stages();
	if (!strcmp(name, LOCK_FILE))
		return "the directory's lock";
	for (int i = 0; models[i]; i++)
		if (!strcmp(name, models[i]))
			return "a model the stages write";
	for (int i = 0; all[i]; i++) {
		size_t n = strlen(all[i]);
		if (strncmp(name, all[i], n))
			continue;
		if (!strcmp(name + n, ".json"))
			snprintf(buf, len, "the result of stage %s", all[i]);
		else if (!strcmp(name + n, ".partial.json"))
			snprintf(buf, len, "the partial result of stage %s", all[i]);
		else
			continue;
		return buf;
	}
	return NULL;
}

/* 1 when a and b are the same file (or directory). */
static int same_file(const char *a, const char *b)
{
	struct stat x, y;
	return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* 1 when dir (a path) and the directory part of path are one, by name
 * (trailing slashes aside) or, when both exist, by the file system. */
static int in_dir(const char *dir, const char *path)
{
	char part[1024];
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(part, sizeof part, ".");
	else if (slash == path)
		snprintf(part, sizeof part, "/");
	else
		snprintf(part, sizeof part, "%.*s", (int)(slash - path), path);
	size_t dn = strlen(dir);
	while (dn > 1 && dir[dn - 1] == '/')
		dn--;
	return (strlen(part) == dn && !strncmp(part, dir, dn)) || same_file(part, dir);
}

int paper_check_output(const PaperOpts *o, const char *opt, const char *path, Err *e)
{
	char what[96], file[1200];
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	const char *kind = stage_file(name, what, sizeof what);
	if (kind && in_dir(o->out, path))
		return err_set(e,
		               "%s %s: names %s in the stage directory %s: the stages' files are "
		               "never written over; name another file",
		               opt, path, kind, o->out);
	/* the same file by another name (a link) */
	const char *const *all = all_stages();
	for (int i = 0; all[i]; i++)
		for (int partial = 0; partial < 2; partial++) {
			snprintf(file, sizeof file, "%s/%s%s", o->out, all[i],
			         partial ? ".partial.json" : ".json");
			if (same_file(path, file))
				return err_set(
				    e,
				    "%s %s: is %s (%s): the stages' files are never "
				    "written over; name another file",
				    opt, path, file,
				    stage_file(file + strlen(o->out) + 1, what, sizeof what));
		}
	for (int i = 0; models[i]; i++) {
		snprintf(file, sizeof file, "%s/%s", o->out, models[i]);
		if (same_file(path, file))
			return err_set(e,
			               "%s %s: is %s (a model the stages write): the stages' files "
			               "are never written over; name another file",
			               opt, path, file);
	}
	return 0;
}
