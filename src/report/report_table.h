/* report_table.h - the aligned tables of report.c, for the other report
 * files of the engine (not a public interface). */
#ifndef CONDNET_REPORT_TABLE_H
#define CONDNET_REPORT_TABLE_H

#include <stdio.h>

#include "report/report.h"

/* A grid of formatted cells; row 0 is the header. */
typedef struct Table {
	int rows, cols;
	char *cell; /* rows*cols cells of REPORT_CELL bytes */
} Table;

#define REPORT_CELL 64

/* 0, or -1 when out of memory; free t->cell after printing. */
int report_table_init(Table *t, int rows, int cols);
void report_table_set(Table *t, int r, int c, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The first column left-aligned, the others right-aligned (text), or
 * Markdown, or CSV. */
void report_table_print(FILE *f, const Table *t, ReportFormat fmt);
/* κ with thousands separators (text) or full precision (CSV). */
void report_set_kappa(Table *t, int r, int c, double k, ReportFormat fmt);
/* κ beside τ: the digits that keep it on its side of τ (cond_kappa_str),
 * thousands separators when the whole number does (text). */
void report_set_kappa_tau(Table *t, int r, int c, double k, double tau, ReportFormat fmt);
/* A count with thousands separators (text). */
void report_set_count(Table *t, int r, int c, double v, ReportFormat fmt);
/* A percentage with two decimals; "-" (text) or empty (CSV) when NaN. */
void report_set_pct(Table *t, int r, int c, double v, ReportFormat fmt);

#endif
