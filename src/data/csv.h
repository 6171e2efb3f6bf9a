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
/* The same with the labels held below classes (> 0: a larger one is an
 * error naming its line and column; 0: up to 100000). */
int csv_load_classes(const char *path, int label_col, int classes, Dataset **out, Err *e);

/* What the rows of a CSV without labels must hold (csv_load_rows). */
typedef struct CsvRows {
	int cols;              /* > 0: every row has this many columns */
	const char *cols_why;  /* the reason, for its message ("m.model takes 10 inputs") */
	double lo, hi;         /* every value in [lo, hi] when lo < hi */
	const char *range_why; /* what a value is, for its message ("a pixel value") */
} CsvRows;

/* A CSV of features only, every column a feature (the rows predict reads):
 * the rules of csv_load (a header line, blank lines skipped, NaN, Inf, text
 * and a ragged row refused naming the line and column), path "-" standard
 * input. The set has 1 class and every label 0. o may be NULL. */
int csv_load_rows(const char *path, const CsvRows *o, Dataset **out, Err *e);

/* Strips spaces and tabs from both ends of s and a CR or LF from its end, in
 * place; returns the first character kept. (Also used by the Adult loader,
 * whose files are comma-and-space separated.) */
char *csv_trim(char *s);

#endif
