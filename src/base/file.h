/* file.h - opening an input file that must be a regular file, making an
 * output directory, and writing a file atomically. */
#ifndef CONDNET_FILE_H
#define CONDNET_FILE_H

#include <stdio.h>

#include "base/err.h"

/* Opens path with mode ("r" or "rb") when it is a regular file: a directory,
 * device or FIFO is refused before opening (opening a FIFO would wait for a
 * writer; a device never ends) and again on the open stream. *size receives
 * the file's length when size is not NULL. NULL and a message on failure. */
FILE *file_open_regular(const char *path, const char *mode, long long *size, Err *e);

/* Creates the directory dir unless it exists (its parent must); anything
 * but a directory (or a link to one) at dir is an error. */
int file_make_dir(const char *dir, Err *e);

/* Writes len bytes to path atomically (temporary file, fsync, rename). Used by
 * every writer of results (models, JSON, CSV, session logs). */
int file_write_atomic(const char *path, const void *data, size_t len, Err *e);

/* The whole of the regular file path (as file_open_regular checks it), at
 * most max bytes, in a malloc'd buffer with a NUL after the last byte;
 * *len (may be NULL) receives the length. NULL and a message on failure. */
char *file_slurp(const char *path, size_t max, size_t *len, Err *e);

#endif
