/* file.h - opening an input file that must be a regular file, making an
 * output directory, and writing an output file: atomically when it is a file,
 * straight through when it is a device, a FIFO or standard output. */
#ifndef CONDNET_FILE_H
#define CONDNET_FILE_H

#include <stdio.h>

#include "base/err.h"

/* Opens path with mode ("r" or "rb") when it is a regular file: a directory,
 * device or FIFO is refused before opening (opening a FIFO would wait for a
 * writer; a device never ends) and again on the open stream. *size receives
 * the file's length when size is not NULL. NULL and a message on failure. */
FILE *file_open_regular(const char *path, const char *mode, long long *size, Err *e);

/* What a file of mode m is, for messages: "a directory", "a FIFO", "a
 * character device", "a block device", "a socket", "a symbolic link" or "a
 * regular file". */
const char *file_kind(unsigned m);

/* The directory part of path p into dir (cap bytes): "." for a bare name,
 * "/" for a name in the root. */
void file_dir_of(const char *p, char *dir, size_t cap);

/* Creates the directory dir unless it exists (its parent must); anything
 * but a directory (or a link to one) at dir is an error. */
int file_make_dir(const char *dir, Err *e);

/* Flags of file_write and file_check_writable. */
enum {
	/* Text (JSON, CSV, tables): "-" is standard output. Without this flag
	 * the data is binary: "-" is refused, and so is a terminal. */
	FILE_OUT_TEXT = 1,
	/* Only a regular file (a cache): a device, FIFO or "-" is refused. */
	FILE_OUT_PLAIN = 2,
	/* Standard output is a screen drawn on the terminal: "-", the
	 * process's own standard output or error (/dev/stdout, /dev/fd/1) and
	 * the terminal it draws on are refused, for any flags, and so is what
	 * is not a regular file (a FIFO would hold the screen's writer until
	 * something reads, a device keeps nothing). */
	FILE_OUT_SCREEN = 4,
};

/* The process draws a screen: from now on every output but FILE_OUT_PLAIN's
 * is checked and written as FILE_OUT_SCREEN's, so that no save or export
 * can wait on a FIFO, whichever module writes it. */
void file_screen_outputs(void);

/*
 * Writes len bytes to the output path; the one writer of every result file
 * (models, JSON, CSV, tables, .npy arrays, the paper's files, caches).
 *
 * - A regular file, or a name that does not exist yet, is written
 *   atomically: a temporary file PATH.tmp.XXXXXX in the same directory,
 *   fsync, rename over the path, fsync of the directory. A failure leaves the
 *   previous file as it was and no temporary file behind. A file replaced
 *   keeps its mode (and, where allowed, its owner); a new file gets
 *   0666 & ~umask.
 * - A symbolic link is followed, through chains of links, to the file it
 *   names, which is replaced atomically in its own directory (a dangling
 *   link creates its target); the link stays a link.
 * - A character device or a FIFO is opened and written straight (a FIFO
 *   waits for its reader); a path that is condnet's own standard output or
 *   error (/dev/stdout, /dev/fd/1, or the file stdout is redirected to) is
 *   written through that stream, after what condnet printed there.
 * - "-" is standard output for FILE_OUT_TEXT.
 * - A directory, a block device or a socket is refused, and so is binary data
 *   to a terminal, and binary data to condnet's own standard output or error
 *   whatever they are (a pipe, a file, /dev/stdout, `--save F > F`): the report
 *   would be mixed into the file. A device other than a terminal (/dev/null)
 *   is written as a device even when standard output is it.
 */
int file_write(const char *path, const void *data, size_t len, int flags, Err *e);

/* An output written in pieces: fill puts the bytes, in order, with
 * file_sink_put (0, or -1 once a write failed: the output takes no more)
 * and returns 0, or -1 with a message in e to give the output up. With
 * file_write_with the output is what file_write makes of it (a file
 * replaced atomically: a failure or a fill given up leaves the previous
 * file as it was and no temporary file), without the whole of it in memory
 * at once; a write that failed is reported as file_write reports it. */
typedef struct FileSink FileSink;
typedef int (*FileFill)(FileSink *s, void *ud, Err *e);
int file_sink_put(FileSink *s, const void *data, size_t len);
int file_write_with(const char *path, int flags, FileFill fill, void *ud, Err *e);

/* Checks, without writing, what file_write checks before it writes: the
 * path is not a directory, and a file there (or at the end of its links) can
 * be created in a directory that exists and is writable; a device, FIFO or
 * "-" (with FILE_OUT_TEXT) passes. For commands to fail before long work. */
int file_check_writable(const char *path, int flags, Err *e);

/* 1 when path names standard output: "-" (text), or the file, pipe or
 * terminal standard output is (/dev/stdout, /dev/fd/1, a redirection's
 * file); not a device such as /dev/null that standard output also is. */
int file_is_stdout(const char *path);

/* Gives standard output to the records alone: what the program prints from
 * now on (printf, the text report) goes to standard error, and file_write
 * writes "-" and every path that names standard output to the original
 * standard output. For a command whose --json or --csv is standard output,
 * so that a pipe receives the record and nothing else. */
int file_stdout_for_records(Err *e);

/* Keeps the descriptors 0, 1 and 2 taken: one closed when condnet starts
 * (`condnet cond >&-`) is opened on /dev/null the other way round (standard
 * input for writing, standard output and error for reading), so no file
 * condnet opens later becomes standard output and gets the report, and a
 * write to a closed standard output still fails (EBADF). Call first. */
void file_guard_std_fds(void);

/* Flushes standard output; -1 and "writing standard output failed: …" when
 * that or any earlier write to it failed (a full disk, /dev/full, a closed
 * descriptor). Commands call it before they exit 0. */
int file_flush_stdout(Err *e);

/* Checks, without creating anything, that dir is a directory condnet can
 * create files in, or that it can be made (file_make_dir): its parent is a
 * writable directory. For commands that write into a directory to fail
 * before long work. */
int file_check_dir(const char *dir, Err *e);

/* Creates the directory TARGET.tmp.XXXXXX beside target (mode 0777 less the
 * umask, as mkdir gives) and its name into out: where a set of files is
 * written before it is renamed to target. On failure errno is left set. */
int file_temp_dir(const char *target, char *out, size_t cap, Err *e);

/* Creates path, which must not exist, holding data (mode 0666 less the
 * umask), without syncing it: a file written aside (into file_temp_dir's
 * directory), synced with the others by file_sync_fs before they are
 * renamed into place. A failure removes it and leaves errno set. */
int file_create(const char *path, const void *data, size_t len, Err *e);

/* Writes to disk what is pending on the file system that holds path (one
 * call for many files written with file_create). */
int file_sync_fs(const char *path, Err *e);

/* fsync of a directory, so that the names created or renamed in it last. */
int file_sync_dir(const char *dir, Err *e);

/* The whole of the regular file path (as file_open_regular checks it), at
 * most max bytes, in a malloc'd buffer with a NUL after the last byte;
 * *len (may be NULL) receives the length. NULL and a message on failure. */
char *file_slurp(const char *path, size_t max, size_t *len, Err *e);

#endif
