/* cmdlines.h - the command lines that run the independent parts of a
 * batch command (Algorithm 2's trials, the paper's stages) as separate
 * processes, one command a line, for `parallel < PLAN`, `parallel
 * --sshloginfile NODES < PLAN`, or a Slurm job array whose task K runs line
 * K + 1 (examples/slurm-array.sbatch). Every path in a line is absolute, so
 * a line runs from any directory of any machine that sees the same files. */
#ifndef CONDNET_CMDLINES_H
#define CONDNET_CMDLINES_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"

/* A plan being written: its text in memory and its lines. */
typedef struct Plan {
	FILE *f;
	char *buf;
	size_t len;
	int lines;
} Plan;

int plan_open(Plan *p, Err *e);
/* Writes the plan to path atomically (an empty file when it has no lines),
 * or to standard output when path is NULL, and frees it. */
int plan_close(Plan *p, const char *path, Err *e);
/* Frees the plan without writing it. */
void plan_discard(Plan *p);
/* Writes an empty plan to path: nothing is left to run. */
int plan_empty(const char *path, Err *e);
/* Ends a line. */
void plan_end_line(Plan *p);

/* Where every word below goes, for the message of a word that cannot stand
 * on one line of it: "a plan". */
#define PLAN_WHERE "a plan"

/* Writes word, quoted for a POSIX shell when it has to be, after a space
 * unless first. A word that cannot stand on one line (a line feed, a
 * carriage return, another control character: base/one_line.h) is refused,
 * naming what (the option) it came from, and nothing is written. */
int plan_word(FILE *f, const char *what, const char *word, int first, Err *e);
/* plan_word of path made absolute (the current directory before a relative
 * path). */
int plan_path(FILE *f, const char *what, const char *path, Err *e);
/* Checks, writing nothing, that plan_path would take path. */
int plan_check_path(const char *what, const char *path, Err *e);
/* The first word of a line: the absolute path of the running condnet (from
 * /proc/self/exe), else "condnet" to be found on PATH. */
int plan_exe(FILE *f, Err *e);
/* A double with the digits that read back to the same bits. */
const char *plan_num(double v, char *buf, size_t len);

/* The options argv[0..argc) holds (already checked by opts_parse with the
 * same table: the common options whose bits are in common, and own: see
 * opts_table; --dry-run is never passed on) that go on
 * to every part, as --name VALUE words: those named in skip (a
 * NULL-terminated list) are left out; the values of --load, --data-dir and
 * the files of --data csv:TRAIN[,TEST] are made absolute. When data names
 * a fetched data set (mnist, fashion, adult) and argv has no --data-dir,
 * the data directory this process would read is added, so that the parts
 * read the same files wherever they run. A value that cannot stand on one
 * line is refused, naming its option. */
int plan_options(FILE *f, int argc, char **argv, uint64_t common, const struct option *own,
                 const char *const *skip, const char *data, Err *e);

/* "EXE CMD OPTIONS…", the start of every line of a plan (plan_exe, cmd,
 * plan_options); malloc'd, NULL with a message. */
char *plan_command(const char *cmd, int argc, char **argv, uint64_t common,
                   const struct option *own, const char *const *skip, const char *data, Err *e);

#endif
