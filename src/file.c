/* file.c - opening an input file that must be a regular file. */
#include "file.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

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
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return err_set(e, "%s: cannot create the directory: %s", dir, strerror(errno));
	return 0;
}
