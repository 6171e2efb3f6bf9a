/* file_aside.c - files written aside, into a directory of their own, and
 * synced as one before they are renamed into place (a .npy set). */
#include "base/file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "base/fifo.h"

int file_create(const char *path, const void *data, size_t len, Err *e)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		return err_set(e, "%s: cannot create: %s", path, strerror(errno));
	int rc = fifo_write_all(fd, data, len, NULL), err = errno;
	if (close(fd) != 0 && rc == 0) {
		rc = -1;
		err = errno;
	}
	if (rc != 0) {
		unlink(path);
		err_set(e, "%s: writing failed: %s", path, strerror(err));
		errno = err;
		return -1;
	}
	return 0;
}

int file_sync_fs(const char *path, Err *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(e, "%s: cannot open: %s", path, strerror(errno));
	int rc = syncfs(fd), err = errno;
	close(fd);
	if (rc != 0)
		return err_set(e, "%s: syncing its file system failed: %s", path, strerror(err));
	return 0;
}

int file_sync_dir(const char *dir, Err *e)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return err_set(e, "%s: cannot open the directory: %s", dir, strerror(errno));
	int rc = fsync(fd), err = errno;
	close(fd);
	if (rc != 0 && err != EINVAL)
		return err_set(e, "%s: syncing the directory failed: %s", dir, strerror(err));
	return 0;
}
