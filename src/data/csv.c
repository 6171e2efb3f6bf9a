/* csv.c - numeric CSV files with one label column. */
#include "data/csv.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/text.h"

/* Largest class label accepted. */
#define CSV_MAX_LABEL 100000

/* Growing storage for rows whose count is not known in advance. */
typedef struct Rows {
	float *x;
	int *y;
	size_t n, cap;
} Rows;

static int rows_push(Rows *r, int d)
{
	if (r->n < r->cap)
		return 0;
	size_t cap = r->cap ? 2 * r->cap : 256;
	if (cap > 0x7fffffff)
		return -1;
	float *x = realloc(r->x, cap * (size_t)d * sizeof *x);
	if (!x)
		return -1;
	r->x = x;
	int *y = realloc(r->y, cap * sizeof *y);
	if (!y)
		return -1;
	r->y = y;
	r->cap = cap;
	return 0;
}

char *csv_trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	char *end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
		end--;
	*end = '\0';
	return s;
}

/* Splits line in place at commas into fields[0..cap); returns the number of
 * fields found (which may exceed cap: only the first cap are stored). */
static size_t split(char *line, char **fields, size_t cap)
{
	size_t nf = 0;
	for (char *p = line;;) {
		char *c = strchr(p, ',');
		if (c)
			*c = '\0';
		if (nf < cap)
			fields[nf] = csv_trim(p);
		nf++;
		if (!c)
			return nf;
		p = c + 1;
	}
}

/* 1 when s is a whole number as strtod reads it (NaN and Inf included). */
static int parse_number(const char *s, double *v)
{
	if (!*s)
		return 0;
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return *end == '\0';
}

static int is_blank(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\r' && *s != '\n')
			return 0;
	return 1;
}

/* Checks one numeric field; lines and columns in messages count from 1. */
static int check_number(const char *path, long line, size_t col, const char *s, double *v, Err *e)
{
	if (!parse_number(s, v))
		return err_set(e, "%s:%ld: column %zu: '%.40s' is not a number", path, line,
		               col + 1, s);
	if (isnan(*v))
		return err_set(e, "%s:%ld: column %zu: '%.40s' is NaN, expected a finite number",
		               path, line, col + 1, s);
	if (!isfinite(*v) || fabs(*v) > FLT_MAX)
		return err_set(
		    e, "%s:%ld: column %zu: '%.40s' is not a finite single-precision number", path,
		    line, col + 1, s);
	return 0;
}

/* 1 when no field of the line parses as a number: a header. A line with
 * numbers in it is data, so a damaged first row (1.0,,0 or 1.0,2.O,1) is
 * reported rather than dropped as a header. */
static int is_header(char **fields, size_t n)
{
	double v;
	for (size_t j = 0; j < n; j++)
		if (parse_number(fields[j], &v))
			return 0;
	return 1;
}

/* Where the label is: label_col (-1 the last, CSV_NO_LABEL none), and the
 * limits of csv_load_classes and csv_load_rows. */
#define CSV_NO_LABEL INT_MIN
typedef struct Spec {
	int label_col;
	int classes; /* > 0: labels below it */
	CsvRows rows;
	int stdin_ok; /* "-" is standard input (new inputs) */
} Spec;

/* The first non-blank line: fixes the column count and the label column. */
static int first_line(const char *path, long lineno, char *line, const Spec *sp, char ***fields,
                      size_t *ncol, size_t *lab, Err *e)
{
	int label_col = sp->label_col;
	size_t nf = 1;
	for (const char *p = line; (p = strchr(p, ',')); p++)
		nf++;
	*fields = malloc(nf * sizeof **fields);
	if (!*fields)
		return err_set(e, "%s:%ld: out of memory for %zu fields", path, lineno, nf);
	*ncol = nf;
	split(line, *fields, nf);
	if (label_col == CSV_NO_LABEL) {
		*lab = nf; /* no column */
		if (sp->rows.cols > 0 && nf != (size_t)sp->rows.cols)
			return err_set(e, "%s:%ld: %zu column%s, but %s", path, lineno, nf,
			               nf == 1 ? "" : "s", sp->rows.cols_why);
		return 0;
	}
	if (nf < 2)
		return err_set(e, "%s:%ld: 1 field, expected at least 2 (features and a label)",
		               path, lineno);
	if (label_col >= (int)nf || label_col < -1)
		return err_set(e,
		               "%s:%ld: label column %d (counting from 0) but rows have %zu fields",
		               path, lineno, label_col, nf);
	*lab = label_col < 0 ? nf - 1 : (size_t)label_col;
	return 0;
}

/* A label at (line, column j): a non-negative integer within the limit. */
static int check_label(const char *path, long lineno, size_t j, const char *s, double v,
                       int classes, Err *e)
{
	if (v < 0 || v != floor(v))
		return err_set(e, "%s:%ld: column %zu: label '%.40s' is not a non-negative integer",
		               path, lineno, j + 1, s);
	if (v > CSV_MAX_LABEL)
		return err_set(e, "%s:%ld: column %zu: label '%.40s' is larger than %d", path,
		               lineno, j + 1, s, CSV_MAX_LABEL);
	if (classes > 0 && v >= classes)
		return err_set(e,
		               "%s:%ld: column %zu: class %.0f is beyond the network's %d outputs "
		               "(classes 0..%d)",
		               path, lineno, j + 1, v, classes, classes - 1);
	return 0;
}

/* Long on purpose: one pass over the file's lines, each field checked where
 * it is read, the first bad one named by its line and column. */
static int load(const char *path, const Spec *sp, Dataset **out, Err *e)
{
	*out = NULL;
	TextFile t;
	if ((sp->stdin_ok ? text_open_input : text_open)(&t, path, e))
		return -1;
	path = t.path; /* "standard input" for "-" */
	char **fields = NULL;
	size_t ncol = 0, len;
	Rows rows = {0};
	long first = 0; /* the number of the first non-blank line */
	int rc = -1, got, maxlab = -1;
	size_t lab = 0, nx = 0; /* the label's column; features per row */
	const CsvRows *ro = &sp->rows;
	while ((got = text_next(&t, &len, e)) > 0) {
		char *line = t.buf;
		long lineno = t.line;
		if (is_blank(line))
			continue;
		if (!fields) {
			first = lineno;
			if (first_line(path, lineno, line, sp, &fields, &ncol, &lab, e))
				goto done;
			nx = lab < ncol ? ncol - 1 : ncol;
			if (is_header(fields, ncol))
				continue;
		} else {
			size_t nf = split(line, fields, ncol);
			if (nf != ncol) {
				err_set(e, "%s:%ld: %zu field%s, expected %zu", path, lineno, nf,
				        nf == 1 ? "" : "s", ncol);
				goto done;
			}
		}
		if (rows_push(&rows, (int)nx) != 0) {
			err_set(e, "%s:%ld: out of memory after %zu rows", path, lineno, rows.n);
			goto done;
		}
		float *x = rows.x + rows.n * nx;
		rows.y[rows.n] = 0;
		for (size_t j = 0, o = 0; j < ncol; j++) {
			double v = 0;
			if (check_number(path, lineno, j, fields[j], &v, e) != 0) {
				if (lineno == first && e && !parse_number(fields[j], &v)) {
					size_t l = strlen(e->msg);
					snprintf(e->msg + l, sizeof e->msg - l,
					         " (a first line with a number in it is data, "
					         "not a header)");
				}
				goto done;
			}
			if (j != lab) {
				if (ro->lo < ro->hi && (v < ro->lo || v > ro->hi)) {
					err_set(e,
					        "%s:%ld: column %zu: %s is %.40s, expected %g..%g",
					        path, lineno, j + 1, ro->range_why, fields[j],
					        ro->lo, ro->hi);
					goto done;
				}
				x[o++] = (float)v;
				continue;
			}
			if (check_label(path, lineno, j, fields[j], v, sp->classes, e))
				goto done;
			rows.y[rows.n] = (int)v;
			if ((int)v > maxlab)
				maxlab = (int)v;
		}
		rows.n++;
	}
	if (got < 0)
		goto done;
	if (!fields) {
		err_set(e, "%s: empty file, expected rows of comma-separated numbers", path);
		goto done;
	}
	if (rows.n == 0) {
		err_set(e, "%s: a header line and no data rows", path);
		goto done;
	}
	Dataset *ds = dataset_new((int)rows.n, (int)nx, maxlab < 0 ? 1 : maxlab + 1, e);
	if (!ds) {
		err_set(e, "%s: out of memory for %zu rows", path, rows.n);
		goto done;
	}
	memcpy(ds->x, rows.x, rows.n * nx * sizeof *ds->x);
	memcpy(ds->y, rows.y, rows.n * sizeof *ds->y);
	const char *base = strrchr(path, '/');
	snprintf(ds->name, sizeof ds->name, "%s", base ? base + 1 : path);
	*out = ds;
	rc = 0;
done:
	free(fields);
	free(rows.x);
	free(rows.y);
	text_close(&t);
	return rc;
}

int csv_load_classes(const char *path, int label_col, int classes, Dataset **out, Err *e)
{
	Spec sp = {.label_col = label_col == CSV_NO_LABEL ? -2 : label_col, .classes = classes};
	return load(path, &sp, out, e);
}

int csv_load(const char *path, int label_col, Dataset **out, Err *e)
{
	return csv_load_classes(path, label_col, 0, out, e);
}

int csv_load_rows(const char *path, const CsvRows *o, Dataset **out, Err *e)
{
	Spec sp = {.label_col = CSV_NO_LABEL, .stdin_ok = 1};
	if (o)
		sp.rows = *o;
	return load(path, &sp, out, e);
}
