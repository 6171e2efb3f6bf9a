/* file_roles.h - the files a command reads and writes, held apart: no
 * output takes the place of an input or of another output.
 *
 * Paths are compared as the file system sees them, not as written: links
 * followed (a link to the model loaded is the model), then by device and
 * inode for a file that exists and by its directory's device and inode and
 * its name for one that does not yet (two outputs of one new name). A
 * directory of files (a .npy set) holds the files its names match. Each
 * command asks before anything is read or written (cli_check_outputs), so
 * `predict --load m.model --out m.model` is refused, not left with a CSV
 * where the model was. */
#ifndef CONDNET_FILE_ROLES_H
#define CONDNET_FILE_ROLES_H

#include "base/err.h"

typedef struct FileRole {
	const char *what;         /* how the command names it: "--load", "--out" */
	const char *path;         /* NULL: not given; "-" (a stream) is not compared */
	int out;                  /* 1 written, 0 read */
	const char *const *names; /* a directory: the files in it that are read or
	                           * written, as fnmatch patterns (NULL-terminated);
	                           * NULL: path is a file */
	const char *replaces;     /* an output: the input (its what) it may replace,
	                           * a model trained further and saved over itself
	                           * (--save over --load); NULL: none */
	const char *noun;         /* what the file is, for the message that names it
	                           * ("the session log": "s.log: is the session log
	                           * (s.log), which the screen never writes over", an
	                           * output's what "" then); NULL: "the file WHAT
	                           * reads (PATH)" */
} FileRole;

/* 0 when no output of r[0..n) is an input or another output (a device such
 * as /dev/null may take any number); -1 with a message naming both, e.g.
 * "--out m.model: is the file --load reads (m.model): an output never takes
 * the place of an input; name another file". */
int file_roles_apart(const FileRole *r, int n, Err *e);

/* The files of a .npy set of a network (W1.npy, b1.npy, …, the manifest)
 * and of predict's answers, as FileRole.names. */
extern const char *const file_roles_npy_net[];

#endif
