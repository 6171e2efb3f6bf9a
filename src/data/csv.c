/* csv.c - numeric CSV files with one label column. */
#include "base/file.h"
#include "data/csv.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Largest class label accepted. */
#define CSV_MAX_LABEL 100000
/* Longest line accepted, in bytes. */
#define CSV_MAX_LINE (16L << 20)

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

/* Reads one line (with its newline) into *buf, at most max bytes. Returns
 * its length, -1 at the end of the file, -2 when longer than max, -3 when out
 * of memory. NUL bytes are kept, so the length may exceed strlen(*buf). */
static long read_line(FILE *f, char **buf, size_t *cap, long max)
{
	long n = 0;
	int c;
	while ((c = getc_unlocked(f)) != EOF) {
		if (n >= max)
			return -2;
		if ((size_t)n + 2 > *cap) {
			size_t ncap = *cap ? 2 * *cap : 256;
			char *b = realloc(*buf, ncap);
			if (!b)
				return -3;
			*buf = b;
			*cap = ncap;
		}
		(*buf)[n++] = (char)c;
		if (c == '\n')
			break;
	}
	if (n == 0)
		return -1;
	(*buf)[n] = '\0';
	return n;
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

int csv_load(const char *path, int label_col, Dataset **out, Err *e)
{
	*out = NULL;
	FILE *f = file_open_regular(path, "r", NULL, e);
	if (!f)
		return -1;
	char *buf = NULL, **fields = NULL;
	size_t bufcap = 0, ncol = 0;
	Rows rows = {0};
	long lineno = 0, len;
	int rc = -1, saw_header = 0, maxlab = -1;
	size_t lab = 0;
	while ((len = read_line(f, &buf, &bufcap, CSV_MAX_LINE)) >= 0) {
		char *line = buf;
		lineno++;
		/* A UTF-8 byte-order mark before the first line is not data. */
		if (lineno == 1 && len >= 3 && !memcmp(line, "\xef\xbb\xbf", 3))
			line += 3;
		const char *nul = memchr(buf, '\0', (size_t)len);
		if (nul) {
			err_set(e, "%s:%ld: NUL byte at character %ld, expected text", path, lineno,
			        (long)(nul - line) + 1);
			goto done;
		}
		if (is_blank(line))
			continue;
		if (!fields) {
			/* The first non-blank line fixes the column count. */
			size_t nf = 1;
			for (const char *p = line; (p = strchr(p, ',')); p++)
				nf++;
			fields = malloc(nf * sizeof *fields);
			if (!fields) {
				err_set(e, "%s:%ld: out of memory for %zu fields", path, lineno,
				        nf);
				goto done;
			}
			ncol = nf;
			split(line, fields, ncol);
			if (ncol < 2) {
				err_set(
				    e,
				    "%s:%ld: 1 field, expected at least 2 (features and a label)",
				    path, lineno);
				goto done;
			}
			if (label_col >= (int)ncol || label_col < -1) {
				err_set(
				    e,
				    "%s:%ld: label column %d (counting from 0) but rows have %zu "
				    "fields",
				    path, lineno, label_col, ncol);
				goto done;
			}
			lab = label_col < 0 ? ncol - 1 : (size_t)label_col;
			double v = 0;
			for (size_t j = 0; j < ncol; j++)
				if (!parse_number(fields[j], &v))
					saw_header = 1;
			if (saw_header)
				continue;
		} else {
			size_t nf = split(line, fields, ncol);
			if (nf != ncol) {
				err_set(e, "%s:%ld: %zu field%s, expected %zu", path, lineno, nf,
				        nf == 1 ? "" : "s", ncol);
				goto done;
			}
		}
		if (rows_push(&rows, (int)ncol - 1) != 0) {
			err_set(e, "%s:%ld: out of memory after %zu rows", path, lineno, rows.n);
			goto done;
		}
		float *x = rows.x + rows.n * (ncol - 1);
		for (size_t j = 0, o = 0; j < ncol; j++) {
			double v = 0;
			if (check_number(path, lineno, j, fields[j], &v, e) != 0)
				goto done;
			if (j != lab) {
				x[o++] = (float)v;
				continue;
			}
			if (v < 0 || v != floor(v)) {
				err_set(e,
				        "%s:%ld: column %zu: label '%.40s' is not a non-negative "
				        "integer",
				        path, lineno, j + 1, fields[j]);
				goto done;
			}
			if (v > CSV_MAX_LABEL) {
				err_set(e, "%s:%ld: column %zu: label '%.40s' is larger than %d",
				        path, lineno, j + 1, fields[j], CSV_MAX_LABEL);
				goto done;
			}
			rows.y[rows.n] = (int)v;
			if ((int)v > maxlab)
				maxlab = (int)v;
		}
		rows.n++;
	}
	if (len == -2) {
		err_set(e, "%s:%ld: line longer than %ld bytes", path, lineno + 1, CSV_MAX_LINE);
		goto done;
	}
	if (len == -3) {
		err_set(e, "%s:%ld: out of memory for the line", path, lineno + 1);
		goto done;
	}
	if (ferror(f)) {
		err_set(e, "%s:%ld: read error: %s", path, lineno + 1, strerror(errno));
		goto done;
	}
	if (!fields) {
		err_set(e, "%s: empty file, expected rows of comma-separated numbers", path);
		goto done;
	}
	if (rows.n == 0) {
		err_set(e, "%s: a header line and no data rows", path);
		goto done;
	}
	Dataset *ds = dataset_new((int)rows.n, (int)ncol - 1, maxlab + 1, e);
	if (!ds) {
		err_set(e, "%s: out of memory for %zu rows", path, rows.n);
		goto done;
	}
	memcpy(ds->x, rows.x, rows.n * (ncol - 1) * sizeof *ds->x);
	memcpy(ds->y, rows.y, rows.n * sizeof *ds->y);
	const char *base = strrchr(path, '/');
	snprintf(ds->name, sizeof ds->name, "%s", base ? base + 1 : path);
	*out = ds;
	rc = 0;
done:
	free(buf);
	free(fields);
	free(rows.x);
	free(rows.y);
	fclose(f);
	return rc;
}
