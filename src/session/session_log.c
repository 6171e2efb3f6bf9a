/* session_log.c - the session log file: writing actions and captions to
 * it, the default log directory, and reading its actions back (the lines
 * themselves are formatted and parsed in session_action.c; replay applies
 * them: session_replay.c). */
#include "base/file.h"
#include "base/repro.h"
#include "session/session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- the log file ---- */

/* Appends text (whole lines) to the log with one write. A write that fails
 * (a full disk, `ulimit -f`) cuts the log back to its last whole line and
 * closes it, the cause kept in s->log_err for the screen to say: a log that
 * lost a line would replay to another network, so nothing follows it. */
static void log_put(Session *s, const char *text, size_t len)
{
	if (!s->log)
		return;
	int fd = fileno(s->log);
	off_t end = lseek(fd, 0, SEEK_END);
	int err = 0;
	while (len > 0 && !err) {
		ssize_t n = write(fd, text, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			err = n < 0 ? errno : EIO;
		else
			text += n, len -= (size_t)n;
	}
	if (!err)
		return;
	if (end >= 0 && ftruncate(fd, end) != 0) {
		/* the partial line stays; the replay names it */
	}
	fclose(s->log);
	s->log = NULL;
	s->log_err = err;
}

void session_log_action(Session *s, const SessAction *a)
{
	char text[2 * SESS_LINE_MAX + 64], line[SESS_LINE_MAX + 1];
	Err e = {{0}};
	if (!s->log)
		return;
	int n;
	if (session_format_line(a, line, sizeof line, &e) < 0)
		n = snprintf(text, sizeof text, "# not logged: %s\n", e.msg);
	else
		n = snprintf(text, sizeof text, "%s\n", line);
	if (a->kind == SESS_OPTS) {
		/* what the trainings from here on compute with */
		ReproRecord r;
		repro_current(&r, train_threads(&s->topt));
		n += snprintf(text + n, sizeof text - (size_t)n, "%s%s\n", SESS_RUN_PREFIX,
		              repro_format(&r, line, sizeof line));
	}
	log_put(s, text, strlen(text));
}

int session_log_check(const char *path, Err *e)
{
	/* what cannot be read is left to the replay to refuse */
	TextFile t;
	if (session_log_read(&t, path, NULL) < 0)
		return 0;
	size_t n;
	int rc = 0;
	while (rc == 0 && text_next(&t, &n, NULL) > 0) {
		ReproRecord rec, now;
		if (strncmp(t.buf, SESS_RUN_PREFIX, strlen(SESS_RUN_PREFIX)) ||
		    repro_parse(t.buf + strlen(SESS_RUN_PREFIX), &rec, NULL) < 0)
			continue;
		/* a replay trains with the threads the log's opts line gives */
		repro_current(&now, rec.threads > 0 ? rec.threads : 1);
		if ((rc = repro_compare(&rec, &now, e)) < 0)
			err_prefix(e, "%s:%ld", path, t.line);
	}
	text_close(&t);
	return rc;
}

void session_log_note(Session *s, const char *fmt, ...)
{
	char text[1024];
	va_list ap;
	if (!s->log)
		return;
	text[0] = '#';
	text[1] = ' ';
	va_start(ap, fmt);
	vsnprintf(text + 2, sizeof text - 3, fmt, ap);
	va_end(ap);
	for (char *c = text; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	strcat(text, "\n");
	log_put(s, text, strlen(text));
}

void session_log_caption(Session *s, const char *text)
{
	if (!s->log)
		return;
	size_t n = strlen(text);
	char *line = malloc(n + 5);
	if (!line)
		return;
	memcpy(line, "#: ", 3);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)text[i];
		line[3 + i] = c < ' ' || c == 0x7f ? ' ' : (char)c;
	}
	line[3 + n] = '\n';
	log_put(s, line, n + 4);
	free(line);
}

int session_caption(const char *line, char *buf, size_t len)
{
	line += strspn(line, " \t");
	if (strncmp(line, "#:", 2) != 0)
		return 0;
	line += 2;
	line += strspn(line, " \t");
	size_t n = strcspn(line, "\r\n");
	while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
		n--;
	if (len) {
		n = n < len - 1 ? n : len - 1;
		memcpy(buf, line, n);
		buf[n] = '\0';
	}
	return 1;
}

static int mkdirs(char *path, Err *e)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int r = mkdir(path, 0700);
		int err = errno;
		*p = '/';
		if (r < 0 && err != EEXIST)
			return err_set(e, "%.*s: cannot create the directory: %s", (int)(p - path),
			               path, strerror(err));
	}
	return 0;
}

int session_log_check_path(const char *path, Err *e)
{
	/* a regular file only, as every file condnet reads: a FIFO would wait for
	 * a reader, a device never keeps what is written (/dev/null: no log) */
	struct stat st;
	if (session_log_is_none(path))
		return 0;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return err_set(e, "%s: the session log is %s, expected a regular file", path,
		               file_kind(st.st_mode));
	return 0;
}

/* Takes the write lock of the whole log: one session writes it at a time. */
static int lock_log(int fd, const char *path, Err *e)
{
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
	if (fcntl(fd, F_SETLK, &fl) == 0)
		return 0;
	if (errno != EACCES && errno != EAGAIN)
		return 0; /* a file system without locks: as before */
	struct flock who = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
	if (fcntl(fd, F_GETLK, &who) == 0 && who.l_type != F_UNLCK && who.l_pid > 0)
		return err_set(e,
		               "%s: the session log is in use by process %ld (another screen "
		               "writes it): give another --log",
		               path, (long)who.l_pid);
	return err_set(e, "%s: the session log is in use by another process: give another --log",
	               path);
}

int session_log_open(Session *s, const char *path, Err *e)
{
	char dir[1024];
	snprintf(dir, sizeof dir, "%s", path);
	if (session_log_check_path(path, e) < 0 || mkdirs(dir, e) < 0)
		return -1;
	/* O_NONBLOCK: a FIFO made meanwhile is refused at once, not waited on */
	struct stat st;
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0666);
	if (fd < 0)
		return err_set(e, "%s: cannot open the session log: %s", path, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return err_set(e, "%s: the session log is not a regular file", path);
	}
	if (lock_log(fd, path, e) < 0) {
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, O_WRONLY | O_APPEND);
	FILE *f = fdopen(fd, "a");
	if (!f) {
		close(fd);
		return err_set(e, "%s: cannot open the session log: %s", path, strerror(errno));
	}
	if (s->log)
		fclose(s->log);
	s->log = f;
	s->log_err = 0;
	snprintf(s->log_path, sizeof s->log_path, "%s", path);
	static const char head[] = "# condnet session log, version 1\n";
	if (lseek(fd, 0, SEEK_END) == 0)
		log_put(s, head, sizeof head - 1);
	if (s->log_err)
		return err_set(e, "%s: cannot write the session log: %s", path,
		               strerror(s->log_err));
	return 0;
}

static int is_default_log(const struct dirent *d)
{
	size_t n = strlen(d->d_name);
	return !strncmp(d->d_name, "session-", 8) && n > 12 && !strcmp(d->d_name + n - 4, ".log");
}

/* Removes the oldest session-*.log files of dir (their names sort by time)
 * until at most keep remain. */
static void prune_logs(const char *dir, int keep)
{
	struct dirent **list;
	int n = scandir(dir, &list, is_default_log, alphasort);
	if (n < 0)
		return;
	for (int i = 0; i < n; i++) {
		if (i < n - keep) {
			char path[1280];
			if (snprintf(path, sizeof path, "%s/%s", dir, list[i]->d_name) <
			    (int)sizeof path)
				unlink(path);
		}
		free(list[i]);
	}
	free(list);
}

int session_log_is_none(const char *path)
{
	struct stat st, null;
	return path && stat(path, &st) == 0 && S_ISCHR(st.st_mode) &&
	       stat("/dev/null", &null) == 0 && S_ISCHR(null.st_mode) && st.st_rdev == null.st_rdev;
}

int session_log_dir(char *buf, size_t len, Err *e)
{
	const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	/* without HOME, the home directory the system gives the user, else the
	 * current one: the rule of the data directory */
	if (!home || !*home) {
		struct passwd *pw = getpwuid(getuid());
		home = pw && pw->pw_dir && *pw->pw_dir ? pw->pw_dir : ".";
	}
	int n;
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/condnet/", xdg);
	else
		n = snprintf(buf, len, "%s/.local/state/condnet/", home);
	if (n < 0 || (size_t)n >= len)
		return err_set(e, "the session log path is too long");
	return 0;
}

int session_default_log_path(char *buf, size_t len, Err *e)
{
	char stamp[32], dir[1024];
	time_t t = time(NULL);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	int n;
	if (session_log_dir(dir, sizeof dir, e) < 0)
		return -1;
	if (mkdirs(dir, e) < 0)
		return err_prefix(e,
		                  "the session log's directory %s cannot be made (give --log FILE "
		                  "for another place, or --log /dev/null to keep no log)",
		                  dir);
	prune_logs(dir, SESS_LOG_KEEP - 1);
	for (int k = 1; k < 100; k++) {
		char suffix[16] = "";
		if (k > 1)
			snprintf(suffix, sizeof suffix, "-%d", k);
		n = snprintf(buf, len, "%ssession-%s%s.log", dir, stamp, suffix);
		if (n < 0 || (size_t)n >= len)
			return err_set(e, "the session log path is too long");
		if (access(buf, F_OK) != 0)
			return 0;
	}
	return err_set(e, "%s: 99 session logs started in the same second", buf);
}

int session_log_read(TextFile *t, const char *path, Err *e)
{
	if (text_open(t, path, e) < 0)
		return -1;
	t->max = SESS_LINE_MAX;
	return 0;
}

int session_log_next(TextFile *t, SessAction *a, Err *e)
{
	size_t n;
	int r;
	while ((r = text_next(t, &n, e)) > 0) {
		int p = session_parse(t->buf, a, e);
		if (p < 0)
			return err_prefix(e, "%s:%ld", t->path, t->line);
		if (p > 0)
			return 1;
	}
	return r;
}
