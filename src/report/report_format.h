/* report_format.h - the formats a table is written in, and numbers with
 * thousands separators (report_rec.c writes both; report.h is the public
 * interface that holds them). */
#ifndef CONDNET_REPORT_FORMAT_H
#define CONDNET_REPORT_FORMAT_H

#include <stddef.h>

/* REPORT_MD_ROWS: Markdown as the paper's reports write their tables, a
 * row per line without padding ("| 1 | 300 |") under each column's rule as
 * it is aligned ("|---:|---|"). */
typedef enum ReportFormat {
	REPORT_TEXT = 0,
	REPORT_MARKDOWN,
	REPORT_CSV,
	REPORT_MD_ROWS
} ReportFormat;

/* v rounded to an integer with thousands separators ("2,652"; "inf"). */
const char *report_thousands(double v, char *buf, size_t len);

#endif
