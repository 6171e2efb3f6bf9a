/* file.c - making an output directory, and writing an output file
 * (atomically when it is a file); the input side is file_read.c's. */
#include "base/file.h"

#include "base/fifo.h"
#include "base/signals.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int file_make_dir(const char *dir, Err *e)
{
	if (mkdir(dir, 0777) == 0)
		return 0;
	if (errno != EEXIST)
		return err_set(e, "%s: cannot create the directory: %s", dir, strerror(errno));
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return err_set(e, "%s: exists and is not a directory", dir);
	return 0;
}

static int tmp_create(const char *target, char *tmp, size_t cap);

/* Longest chain of symbolic links followed (as the kernel's). */
#define MAX_LINKS 40

/* What an output path is. */
typedef enum OutKind { OUT_FILE, OUT_STDOUT, OUT_STDERR, OUT_DEVICE } OutKind;

typedef struct Out {
	OutKind kind;
	char target[PATH_MAX];       /* OUT_FILE: the file at the end of the links */
	char dir[PATH_MAX];          /* OUT_FILE: the directory that holds it */
	char name[2 * PATH_MAX + 8]; /* for messages: "PATH" or "PATH -> TARGET" */
	int exists;                  /* OUT_FILE: the target exists, st is its status */
	struct stat st;
} Out;

void file_dir_of(const char *p, char *dir, size_t cap)
{
	const char *slash = strrchr(p, '/');
	if (!slash)
		snprintf(dir, cap, ".");
	else if (slash == p)
		snprintf(dir, cap, "/");
	else
		snprintf(dir, cap, "%.*s", (int)(slash - p), p);
}

/* Follows the symbolic links from path to the name at the end of the chain
 * (which need not exist: a dangling link), relative targets taken from the
 * link's own directory. */
static int follow_links(const char *path, char *target, size_t cap, Err *e)
{
	char cur[PATH_MAX], link[PATH_MAX];
	if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur)
		return err_set(e, "%.200s…: the path is too long", path);
	for (int hops = 0;; hops++) {
		struct stat st;
		if (lstat(cur, &st) != 0) {
			if (errno == ENOENT)
				break;
			return err_set(e, "%s: %s: %s", path, cur, strerror(errno));
		}
		if (!S_ISLNK(st.st_mode))
			break;
		if (hops == MAX_LINKS)
			return err_set(e, "%s: more than %d symbolic links in a chain", path,
			               MAX_LINKS);
		ssize_t n = readlink(cur, link, sizeof link);
		if (n < 0)
			return err_set(e, "%s: reading the link %s: %s", path, cur,
			               strerror(errno));
		if (n == 0 || (size_t)n >= sizeof link)
			return err_set(e, "%s: the link %s is empty or too long", path, cur);
		link[n] = '\0';
		const char *slash = strrchr(cur, '/');
		int keep = link[0] == '/' || !slash ? 0 : (int)(slash - cur + 1);
		char next[PATH_MAX];
		if (snprintf(next, sizeof next, "%.*s%s", keep, cur, link) >= (int)sizeof next)
			return err_set(e, "%s: the link %s leads to a path too long", path, cur);
		memcpy(cur, next, sizeof cur);
	}
	if (snprintf(target, cap, "%s", cur) >= (int)cap)
		return err_set(e, "%s: the path is too long", path);
	return 0;
}

/* 1 when st is the file open as descriptor fd. */
static int same_as_fd(const struct stat *st, int fd)
{
	struct stat f;
	return fstat(fd, &f) == 0 && f.st_dev == st->st_dev && f.st_ino == st->st_ino;
}

/* Where "standard output" is written: STDOUT_FILENO, or its copy once the
 * text report moved to standard error (file_stdout_for_records). */
static int out_fd = STDOUT_FILENO;

int file_is_stdout(const char *path)
{
	struct stat st;
	if (!strcmp(path, "-"))
		return 1;
	/* a device other than a terminal (/dev/null) keeps no record to share */
	return stat(path, &st) == 0 && same_as_fd(&st, out_fd) &&
	       !(S_ISCHR(st.st_mode) && !isatty(out_fd));
}

int file_stdout_for_records(Err *e)
{
	if (out_fd != STDOUT_FILENO)
		return 0;
	fflush(stdout);
	int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		if (fd >= 0)
			close(fd);
		return err_set(e, "standard output: %s", strerror(errno));
	}
	out_fd = fd;
	return 0;
}

void file_guard_std_fds(void)
{
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		/* the lowest free descriptor: fd, those below it being taken */
		int n = open("/dev/null", (fd == STDIN_FILENO ? O_WRONLY : O_RDONLY) | O_NOCTTY);
		if (n >= 0 && n != fd) {
			dup2(n, fd);
			close(n);
		}
	}
}

int file_flush_stdout(Err *e)
{
	int bad = ferror(stdout);
	errno = 0;
	if (fflush(stdout) != 0)
		bad = 1;
	int err = errno;
	if (!bad)
		return 0;
	/* an earlier write failed: the cause of that one is gone, try again */
	if (!err && write(out_fd == STDOUT_FILENO ? STDOUT_FILENO : out_fd, "", 0) < 0)
		err = errno;
	return err_set(e, "writing standard output failed%s%s", err ? ": " : "",
	               err ? strerror(err) : "");
}

/* 1 when st is the terminal device standard output or error is. */
static int same_terminal(const struct stat *st)
{
	struct stat f;
	if (!S_ISCHR(st->st_mode))
		return 0;
	for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++)
		if (isatty(fd) && fstat(fd, &f) == 0 && f.st_rdev == st->st_rdev)
			return 1;
	return 0;
}

/* Binary data (no FILE_OUT_TEXT) never goes to a stream condnet prints its
 * report or messages on: the file would hold both and not load. 0 for text. */
static int binary_to_stream(const char *path, int flags, int fd, const char *name, Err *e)
{
	if (flags & FILE_OUT_TEXT)
		return 0;
	if (isatty(fd))
		return err_set(e, "%s: a terminal; binary data is not written to one", path);
	return err_set(e,
	               "%s: is %s, which takes only text (JSON, CSV) beside the report; this "
	               "file is binary: name another file",
	               path, name);
}

/* Set once the process draws a screen (file_screen_outputs). */
static atomic_int screen_outputs;

void file_screen_outputs(void)
{
	atomic_store(&screen_outputs, 1);
}

/* What path is and, for a file, where it is written. Long on purpose: one
 * sequence of system calls whose every failure is named with its errno. */
static int out_resolve(const char *path, int flags, Out *o, Err *e)
{
	memset(o, 0, sizeof *o);
	if (atomic_load(&screen_outputs) && !(flags & FILE_OUT_PLAIN))
		flags |= FILE_OUT_SCREEN;
	if (!*path)
		return err_set(e, "an empty file name, expected the name of a file to write");
	if (!strcmp(path, "-") && (flags & FILE_OUT_SCREEN))
		return err_set(e, "-: standard output is the screen: name a file");
	if (!strcmp(path, "-")) {
		if (flags & FILE_OUT_PLAIN)
			return err_set(e, "-: expected the name of a file (not standard output)");
		if (!(flags & FILE_OUT_TEXT))
			return err_set(e, "-: standard output takes only text (JSON, CSV); this "
			                  "file is binary: name a file");
		o->kind = OUT_STDOUT;
		return 0;
	}
	/* once the report went to standard error, the names of descriptor 1
	 * still mean the standard output the records go to */
	if (out_fd != STDOUT_FILENO && !(flags & (FILE_OUT_PLAIN | FILE_OUT_SCREEN)) &&
	    (!strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/fd/1") ||
	     !strcmp(path, "/proc/self/fd/1"))) {
		o->kind = OUT_STDOUT;
		return binary_to_stream(path, flags, out_fd, "standard output", e);
	}
	struct stat st;
	if (stat(path, &st) == 0) {
		if ((flags & FILE_OUT_SCREEN) &&
		    (same_as_fd(&st, STDOUT_FILENO) || same_as_fd(&st, STDERR_FILENO) ||
		     same_terminal(&st)))
			return err_set(e, "%s: the screen's own terminal: name a file", path);
		/* a device other than a terminal (/dev/null) keeps nothing it is
		 * given, so it is written as a device even when standard output is it */
		int dev = S_ISCHR(st.st_mode), shared = !(flags & FILE_OUT_PLAIN);
		if (shared && same_as_fd(&st, out_fd) && !(dev && !isatty(out_fd))) {
			o->kind = OUT_STDOUT;
			return binary_to_stream(path, flags, out_fd, "standard output", e);
		}
		if (shared && same_as_fd(&st, STDERR_FILENO) && !(dev && !isatty(STDERR_FILENO))) {
			o->kind = OUT_STDERR;
			return binary_to_stream(path, flags, STDERR_FILENO, "standard error", e);
		}
		if (S_ISDIR(st.st_mode))
			return err_set(e, "%s: is a directory, expected a file name", path);
		/* the screen writes regular files only: opening a FIFO would hold it
		 * until something reads */
		if (!S_ISREG(st.st_mode) && (flags & FILE_OUT_SCREEN))
			return err_set(e,
			               "%s: %s, expected a regular file (the screen writes only "
			               "files)",
			               path, file_kind(st.st_mode));
		if (!S_ISREG(st.st_mode)) {
			if (flags & FILE_OUT_PLAIN)
				return err_set(e, "%s: %s, expected a regular file", path,
				               file_kind(st.st_mode));
			if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
				return err_set(e,
				               "%s: %s, expected a file, a character device or a "
				               "FIFO",
				               path, file_kind(st.st_mode));
			o->kind = OUT_DEVICE;
			return 0;
		}
		o->exists = 1;
		o->st = st;
	} else if (errno != ENOENT) {
		return err_set(e, "%s: %s", path, strerror(errno));
	} else if (path[strlen(path) - 1] == '/') {
		return err_set(e, "%s: ends in a slash (a directory), expected a file name", path);
	}
	o->kind = OUT_FILE;
	if (follow_links(path, o->target, sizeof o->target, e))
		return -1;
	if (o->exists) {
		struct stat t;
		if (lstat(o->target, &t) != 0 || t.st_dev != st.st_dev || t.st_ino != st.st_ino)
			return err_set(e, "%s: cannot tell which file its links lead to", path);
	}
	file_dir_of(o->target, o->dir, sizeof o->dir);
	if (strcmp(o->target, path))
		snprintf(o->name, sizeof o->name, "%s -> %s", path, o->target);
	else
		snprintf(o->name, sizeof o->name, "%s", path);
	return 0;
}

/* The message for a file that cannot be created in o->dir (errno err). */
static int dir_error(const Out *o, int err, const char *what, Err *e)
{
	struct stat st;
	if (err == ENOENT && stat(o->dir, &st) != 0)
		return err_set(e, "%s: the directory %s does not exist", o->name, o->dir);
	if (err == ENOTDIR || (stat(o->dir, &st) == 0 && !S_ISDIR(st.st_mode)))
		return err_set(e, "%s: %s is not a directory", o->name, o->dir);
	return err_set(e, "%s: %s: %s", o->name, what, strerror(err));
}

int file_check_writable(const char *path, int flags, Err *e)
{
	Out o;
	if (out_resolve(path, flags, &o, e))
		return -1;
	if (o.kind == OUT_STDOUT || o.kind == OUT_STDERR) {
		int fd = o.kind == OUT_STDOUT ? out_fd : STDERR_FILENO;
		if (!(flags & FILE_OUT_TEXT) && isatty(fd))
			return err_set(e, "%s: a terminal; binary data is not written to one",
			               path);
		return 0;
	}
	if (o.kind == OUT_DEVICE)
		return 0;
	struct stat st;
	if (stat(o.dir, &st) != 0)
		return dir_error(&o, errno, "cannot create a file beside it", e);
	if (!S_ISDIR(st.st_mode))
		return dir_error(&o, ENOTDIR, "", e);
	/* the temporary file the write would make, made and removed: what the
	 * permissions do not say (a file system that takes no new file, /proc)
	 * shows here, as it would after the work */
	char tmp[PATH_MAX + 16];
	signals_save_begin();
	int fd = tmp_create(o.target, tmp, sizeof tmp), err = errno;
	int slot = signals_save_track(fd >= 0 ? tmp : NULL);
	if (fd >= 0) {
		close(fd);
		unlink(tmp);
	}
	signals_save_end(slot);
	if (fd < 0)
		return dir_error(&o, err, "cannot create a file beside it", e);
	return 0;
}

int file_check_dir(const char *dir, Err *e)
{
	struct stat st;
	if (!*dir)
		return err_set(e, "an empty directory name");
	if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return err_set(e, "%s: exists and is not a directory", dir);
		if (access(dir, W_OK | X_OK) != 0)
			return err_set(e, "%s: cannot create files in it: %s", dir,
			               strerror(errno));
		return 0;
	}
	if (errno != ENOENT)
		return err_set(e, "%s: %s", dir, strerror(errno));
	/* the parent: the path without its last component (and trailing slashes) */
	char parent[PATH_MAX];
	if (snprintf(parent, sizeof parent, "%s", dir) >= (int)sizeof parent)
		return err_set(e, "%.200s…: the path is too long", dir);
	size_t n = strlen(parent);
	while (n > 1 && parent[n - 1] == '/')
		parent[--n] = '\0';
	char *slash = strrchr(parent, '/');
	if (!slash)
		snprintf(parent, sizeof parent, ".");
	else if (slash == parent)
		parent[1] = '\0';
	else
		*slash = '\0';
	if (stat(parent, &st) != 0)
		return err_set(e, "%s: the directory %s does not exist", dir, parent);
	if (!S_ISDIR(st.st_mode))
		return err_set(e, "%s: %s is not a directory", dir, parent);
	if (access(parent, W_OK | X_OK) != 0)
		return err_set(e, "%s: cannot create the directory: %s", dir, strerror(errno));
	return 0;
}

struct FileSink {
	FILE *f; /* a stream, or NULL: the descriptor */
	int fd;
	int err;           /* the errno of the first write that failed, 0 */
	double *stop_seen; /* a FIFO's (fifo_write_all), or NULL */
};

int file_sink_put(FileSink *s, const void *data, size_t len)
{
	if (s->err)
		return -1;
	int bad = s->f ? fwrite(data, 1, len, s->f) != len
	               : fifo_write_all(s->fd, data, len, s->stop_seen) != 0;
	if (bad)
		s->err = errno ? errno : EIO;
	return bad ? -1 : 0;
}

/* fill's bytes into s: 0; -1 with e set by fill, or with err the cause of
 * a write that failed (err 0 when fill gave up of itself). */
static int fill_sink(FileSink *s, FileFill fill, void *ud, int *err, Err *e)
{
	errno = 0;
	int rc = fill(s, ud, e);
	*err = s->err;
	if (rc == 0 && s->err)
		rc = -1;
	return rc;
}

/* Writes to an open stream (standard output or error); standard output's
 * records go to out_fd, after what was printed there. */
static int write_stream(FILE *f, const char *path, FileFill fill, void *ud, int flags, Err *e)
{
	int fd = f == stdout ? out_fd : fileno(f);
	if (!(flags & FILE_OUT_TEXT) && isatty(fd))
		return err_set(e, "%s: a terminal; binary data is not written to one", path);
	const char *name = f == stdout ? "standard output" : "standard error";
	int err = 0;
	if (fflush(stdout) != 0 || fflush(stderr) != 0)
		err = errno;
	FileSink s = {fd == fileno(f) ? f : NULL, fd, 0, NULL};
	if (!err && fill_sink(&s, fill, ud, &err, e) < 0 && !err)
		return -1;
	if (!err && s.f && fflush(f) != 0)
		err = errno;
	if (err)
		return err_set(e, "%s: writing to %s failed: %s", path, name, strerror(err));
	return 0;
}

/* Writes straight to a character device or a FIFO. */
static int write_device(const char *path, FileFill fill, void *ud, int flags, Err *e)
{
	struct stat st;
	double stop_seen = 0;
	int fifo = stat(path, &st) == 0 && S_ISFIFO(st.st_mode);
	int fd = fifo ? fifo_open(path, &stop_seen) : open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 && fifo && errno == EINTR)
		return err_set(e, "%s: a FIFO that no process reads: stopped waiting for a reader",
		               path);
	if (fd < 0)
		return err_set(e, "%s: cannot open: %s", path, strerror(errno));
	if (!(flags & FILE_OUT_TEXT) && isatty(fd)) {
		close(fd);
		return err_set(e, "%s: a terminal; binary data is not written to one", path);
	}
	FileSink s = {NULL, fd, 0, fifo ? &stop_seen : NULL};
	int err = 0, rc = fill_sink(&s, fill, ud, &err, e);
	if (close(fd) != 0 && rc == 0) {
		rc = -1;
		err = errno;
	}
	if (rc != 0 && fifo && err == EINTR)
		return err_set(e, "%s: a FIFO whose reader stopped reading: stopped writing to it",
		               path);
	if (rc != 0 && err)
		return err_set(e, "%s: writing failed: %s", path, strerror(err));
	return rc;
}

/* Creates target.tmp.XXXXXX (six random letters or digits): a file of mode
 * 0666 less the umask (its descriptor), or with dir a directory of mode 0777
 * less the umask (0); -1 with errno set. */
static int tmp_make(const char *target, char *tmp, size_t cap, int dir)
{
	static const char alnum[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static atomic_ulong counter;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t x = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 32 ^ (uint64_t)getpid() << 20 ^
	             (uint64_t)atomic_fetch_add(&counter, 1) << 48;
	int n = snprintf(tmp, cap, "%s.tmp.", target);
	if (n < 0 || (size_t)n + 7 > cap) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (int tries = 0; tries < 100; tries++) {
		/* splitmix64 */
		uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		z ^= z >> 31;
		for (int i = 0; i < 6; i++, z /= 62)
			tmp[n + i] = alnum[z % 62];
		tmp[n + 6] = '\0';
		int fd = dir ? mkdir(tmp, 0777)
		             : open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

static int tmp_create(const char *target, char *tmp, size_t cap)
{
	return tmp_make(target, tmp, cap, 0);
}

int file_temp_dir(const char *target, char *out, size_t cap, Err *e)
{
	if (tmp_make(target, out, cap, 1) == 0)
		return 0;
	int err = errno;
	err_set(e, "%s: cannot create a directory beside it: %s", target, strerror(err));
	errno = err;
	return -1;
}

/* Replaces (or creates) o->target atomically. A signal that would end the
 * process waits until the temporary file is renamed or removed
 * (signals_save_begin); a fault removes it (signals_save_track). */
static int write_file(const Out *o, FileFill fill, void *ud, Err *e)
{
	char tmp[PATH_MAX + 16];
	signals_save_begin();
	int fd = tmp_create(o->target, tmp, sizeof tmp);
	if (fd < 0) {
		int err = errno;
		signals_save_end(signals_save_track(NULL));
		return dir_error(o, err, "cannot create a temporary file beside it", e);
	}
	int slot = signals_save_track(tmp);
	const char *what = NULL;
	if (o->exists) {
		/* the owner first: a change of owner may clear the set-id bits */
		if (o->st.st_uid != geteuid() || o->st.st_gid != getegid())
			(void)!fchown(fd, o->st.st_uid, o->st.st_gid);
		if (fchmod(fd, o->st.st_mode & 07777) != 0)
			what = "setting the mode of";
	}
	FileSink sink = {NULL, fd, 0, NULL};
	int saved = 0, gave_up = 0;
	if (!what && fill_sink(&sink, fill, ud, &saved, e) != 0) {
		what = "writing";
		gave_up = !saved; /* fill's own failure, its message in e */
	} else if (!what && fsync(fd) != 0) {
		what = "syncing";
	}
	if (!saved)
		saved = errno;
	if (close(fd) != 0 && !what) {
		what = "closing";
		saved = errno;
	}
	if (!what && rename(tmp, o->target) != 0) {
		what = "renaming into place";
		saved = errno;
	}
	if (what) {
		unlink(tmp);
		signals_save_end(slot);
		if (gave_up)
			return -1;
		return err_set(e, "%s: %s %s failed: %s", o->name, what, tmp, strerror(saved));
	}
	/* Make the rename durable: sync the directory that holds the entry. */
	int dfd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = 0, err = 0;
	if (dfd >= 0) {
		rc = fsync(dfd);
		err = errno;
		close(dfd);
	}
	signals_save_end(slot);
	if (rc != 0 && err != EINVAL)
		return err_set(e, "%s: syncing the directory %s failed: %s", o->name, o->dir,
		               strerror(err));
	return 0;
}

int file_write_with(const char *path, int flags, FileFill fill, void *ud, Err *e)
{
	Out *o = malloc(sizeof *o);
	if (!o)
		return err_set(e, "%s: out of memory", path);
	int rc = out_resolve(path, flags, o, e);
	if (rc == 0) {
		switch (o->kind) {
		case OUT_STDOUT:
			rc = write_stream(stdout, path, fill, ud, flags, e);
			break;
		case OUT_STDERR:
			rc = write_stream(stderr, path, fill, ud, flags, e);
			break;
		case OUT_DEVICE:
			rc = write_device(path, fill, ud, flags, e);
			break;
		case OUT_FILE:
			rc = write_file(o, fill, ud, e);
			break;
		}
	}
	free(o);
	return rc;
}

/* A buffer to write whole. */
typedef struct Bytes {
	const void *data;
	size_t len;
} Bytes;

static int put_bytes(FileSink *s, void *ud, Err *e)
{
	(void)e;
	const Bytes *b = ud;
	return file_sink_put(s, b->data, b->len);
}

int file_write(const char *path, const void *data, size_t len, int flags, Err *e)
{
	Bytes b = {data, len};
	return file_write_with(path, flags, put_bytes, &b, e);
}
