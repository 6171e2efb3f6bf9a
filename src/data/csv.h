/* csv.h - a generic numeric CSV loader: comma-separated numbers, one row per
 * line, an optional header line (the first non-blank line when none of its
 * fields is a number; a first line with a number in it is data, and a bad
 * field there is an error), one column holding the class label (a
 * non-negative integer). The text rules (encoding, NUL, line ends) are those
 * of data/text.h, shared with the Adult loader. */
#ifndef CONDNET_CSV_H
#define CONDNET_CSV_H

#include "base/err.h"
#include "data/dataset.h"

/* label_col: 0-based column of the label; -1 means the last column.
 * Errors name the file, the line and the column (both counted from 1).
 * Blank lines are skipped; NaN, Inf and values
 * beyond the float range are rejected; k = largest label + 1 (labels up to
 * 100000). ds->name is the file's base name. */
int csv_load(const char *path, int label_col, Dataset **out, Err *e);

/* Strips spaces and tabs from both ends of s and a CR or LF from its end, in
 * place; returns the first character kept. (Also used by the Adult loader,
 * whose files are comma-and-space separated.) */
char *csv_trim(char *s);

#endif
