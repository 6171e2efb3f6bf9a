/* file_read.c - the input side of files: opening one that must be a
 * regular file, reading one whole, and what a file is, for messages. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/file.h"

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

const char *file_kind(unsigned m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISLNK(m))
		return "a symbolic link";
	return "a regular file";
}

char *file_slurp(const char *path, size_t max, size_t *len, Err *e)
{
	long long size;
	FILE *f = file_open_regular(path, "rb", &size, e);
	if (!f)
		return NULL;
	if (size < 0 || (unsigned long long)size > max) {
		fclose(f);
		err_set(e, "%s: %lld bytes, larger than the %zu this file may have", path, size,
		        max);
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
