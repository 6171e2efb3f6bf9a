/* report_table.c - the grid of cells every table is laid out in
 * (report_rec.h): aligned text, Markdown, the paper's reports' Markdown and
 * CSV, with its one quoting rule. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_rec.h"

enum { CELL = REPORT_CELL };

int table_init(Table *t, int rows, int cols, Err *e)
{
	t->rows = rows;
	t->cols = cols;
	t->cell = calloc((size_t)rows * (size_t)cols, CELL);
	t->left = calloc((size_t)cols + 1, 1);
	if (t->cell && t->left)
		return 0;
	free(t->cell);
	free(t->left);
	t->cell = NULL;
	t->left = NULL;
	return err_set(e, "out of memory for a table of %d × %d", rows, cols);
}

void table_set(Table *t, int r, int c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->cell + ((size_t)r * (size_t)t->cols + (size_t)c) * CELL, CELL, fmt, ap);
	va_end(ap);
}

static const char *table_get(const Table *t, int r, int c)
{
	return t->cell + ((size_t)r * (size_t)t->cols + (size_t)c) * CELL;
}

/* Display width of UTF-8 text: code points, not bytes. */
static int text_width(const char *s)
{
	int w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

void csv_cell(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* The first column left-aligned, the others right-aligned; Markdown's rule
 * under the header. */
static int table_text(FILE *f, const Table *t, ReportFormat fmt, Err *e)
{
	int w[256] = {0};
	int cols = t->cols < 256 ? t->cols : 256;
	for (int c = 0; c < cols; c++)
		for (int r = 0; r < t->rows; r++) {
			int x = text_width(table_get(t, r, c));
			w[c] = x > w[c] ? x : w[c];
		}
	for (int c = 0; fmt == REPORT_MARKDOWN && c < cols; c++)
		w[c] = w[c] < 3 ? 3 : w[c];
	size_t cap = (size_t)cols * (4 * CELL + 8) + 2;
	char *line = malloc(cap);
	if (!line)
		return err_set(e, "out of memory for a table's line");
	for (int r = 0; r < t->rows; r++) {
		size_t o = 0;
		for (int c = 0; c < cols; c++) {
			const char *s = table_get(t, r, c);
			int gap = w[c] - text_width(s);
			if (fmt == REPORT_MARKDOWN)
				o += (size_t)snprintf(line + o, cap - o, "%s", c ? " " : "| ");
			if (c == 0)
				o += (size_t)snprintf(line + o, cap - o, "%s%*s", s, gap, "");
			else
				o += (size_t)snprintf(line + o, cap - o, "%*s%s", gap, "", s);
			o += (size_t)snprintf(line + o, cap - o, "%s",
			                      fmt == REPORT_MARKDOWN ? " |"
			                      : c + 1 < cols         ? "  "
			                                             : "");
		}
		while (o > 0 && line[o - 1] == ' ')
			o--;
		line[o] = '\0';
		fprintf(f, "%s\n", line);
		if (r == 0 && fmt == REPORT_MARKDOWN) {
			for (int c = 0; c < cols; c++) {
				fputs(c ? " " : "| ", f);
				for (int i = 0; i < w[c] - 1; i++)
					fputc('-', f);
				fputs(c ? ":" : "-", f);
				fputs(" |", f);
			}
			fputc('\n', f);
		}
	}
	free(line);
	return 0;
}

/* The paper's reports' Markdown: "| a | b |" (an empty cell "| |"), and
 * under the head each column's rule as it is aligned. */
static void table_rows(FILE *f, const Table *t)
{
	for (int r = 0; r < t->rows; r++) {
		fputc('|', f);
		for (int c = 0; c < t->cols; c++) {
			const char *s = table_get(t, r, c);
			fprintf(f, "%s%s |", *s ? " " : "", s);
		}
		fputc('\n', f);
		for (int c = 0; r == 0 && c < t->cols; c++)
			fprintf(f, "%s%s", c ? "" : "|", t->left[c] ? "---|" : "---:|");
		if (r == 0)
			fputc('\n', f);
	}
}

int table_put(FILE *f, Table *t, ReportFormat fmt, Err *e)
{
	int rc = 0;
	if (fmt == REPORT_CSV)
		for (int r = 0; r < t->rows; r++)
			for (int c = 0; c < t->cols; c++) {
				csv_cell(f, table_get(t, r, c));
				fputc(c + 1 < t->cols ? ',' : '\n', f);
			}
	else if (fmt == REPORT_MD_ROWS)
		table_rows(f, t);
	else
		rc = table_text(f, t, fmt, e);
	free(t->cell);
	free(t->left);
	t->cell = NULL;
	t->left = NULL;
	return rc;
}
