/* file.c - opening an input file that must be a regular file, making an
 * output directory, and writing a file atomically. */
#include "base/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *file_open_regular(const char *path, const char *mode, long long *size, Err *e)
{
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		err_set(e, "%s: not a regular file", path);
		return NULL;
	}
	FILE *f = fopen(path, mode);
	if (!f) {
		err_set(e, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		fclose(f);
		err_set(e, "%s: not a regular file", path);
		return NULL;
	}
	if (size)
		*size = (long long)st.st_size;
	return f;
}

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

/* Writes all of data to fd, retrying after interrupts and short writes. */
static int write_full(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int file_write_atomic(const char *path, const void *data, size_t len, Err *e)
{
	size_t plen = strlen(path);
	char *tmp = malloc(plen + 12);
	char *dir = malloc(plen + 2);
	if (!tmp || !dir) {
		free(tmp);
		free(dir);
		return err_set(e, "%s: out of memory", path);
	}
	memcpy(tmp, path, plen);
	memcpy(tmp + plen, ".tmp.XXXXXX", 12);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		err_set(e, "%s: cannot create a temporary file beside it: %s", path,
			strerror(errno));
		goto out;
	}
	/* The mode of the file it replaces, or rw-r--r-- for a new one. */
	struct stat st;
	mode_t mode = stat(path, &st) == 0 ? st.st_mode & 07777 : 0644;
	const char *what = NULL;
	if (fchmod(fd, mode) != 0)
		what = "setting the mode of";
	else if (write_full(fd, data, len) != 0)
		what = "writing";
	else if (fsync(fd) != 0)
		what = "syncing";
	int saved = errno;
	if (close(fd) != 0 && !what) {
		what = "closing";
		saved = errno;
	}
	if (!what && rename(tmp, path) != 0) {
		what = "renaming into place";
		saved = errno;
	}
	if (what) {
		unlink(tmp);
		err_set(e, "%s: %s %s failed: %s", path, what, tmp, strerror(saved));
		goto out;
	}
	/* Make the rename durable: sync the directory that holds the entry. */
	const char *slash = strrchr(path, '/');
	if (!slash)
		strcpy(dir, ".");
	else if (slash == path)
		strcpy(dir, "/");
	else {
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = '\0';
	}
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd >= 0) {
		int rc = fsync(dfd);
		int err = errno;
		close(dfd);
		if (rc != 0 && err != EINVAL) {
			err_set(e, "%s: syncing directory %s failed: %s", path, dir, strerror(err));
			goto out;
		}
	}
	free(tmp);
	free(dir);
	return 0;
out:
	free(tmp);
	free(dir);
	return -1;
}

char *file_slurp(const char *path, size_t max, size_t *len, Err *e)
{
	long long size;
	FILE *f = file_open_regular(path, "rb", &size, e);
	if (!f)
		return NULL;
	if (size < 0 || (unsigned long long)size > max) {
		fclose(f);
		err_set(e, "%s: %lld bytes, larger than the %zu this file may have", path, size, max);
		return NULL;
	}
	char *buf = malloc((size_t)size + 1);
	if (!buf) {
		fclose(f);
		err_set(e, "%s: out of memory for %lld bytes", path, size);
		return NULL;
	}
	/* read to the end: the file may have grown since it was measured */
	size_t got = fread(buf, 1, (size_t)size + 1, f);
	int bad = ferror(f);
	fclose(f);
	if (bad || got > (size_t)size) {
		free(buf);
		err_set(e, bad ? "%s: read error" : "%s: the file grew while it was read", path);
		return NULL;
	}
	buf[got] = '\0';
	if (len)
		*len = got;
	return buf;
}
