/* report_rec.h - records as data, and the one writer of each format (not a
 * public interface: the files of report/ describe their records with it).
 *
 * A record kind is its columns: each a text header, a name (the CSV header
 * and the gnuplot data's), a JSON key and a type that says how a value is
 * written in each format. A set of records is the kind and a row of values
 * per record; it is written as an aligned text table or Markdown (the first
 * column left-aligned, the others right-aligned), as CSV, as a JSON array of
 * objects, as gnuplot data (a line per record, spaces between), or across:
 * a column per record and a row per field (the paper's Tables 13 and 16).
 *
 * CSV has one quoting rule: a cell holding a comma, a double quote, a
 * carriage return or a line feed is written between double quotes, each
 * double quote doubled (RFC 4180); a line break inside a cell stays inside
 * its quotes. */
#ifndef CONDNET_REPORT_REC_H
#define CONDNET_REPORT_REC_H

#include <math.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "base/err.h"
#include "report/report_format.h"

/* How a column's values are written. */
typedef enum RecType {
	REC_INT,       /* a whole number: "%.0f" in text and CSV */
	REC_COUNT,     /* text: thousands separators ("2,652"); CSV "%.0f" */
	REC_KAPPA,     /* κ: text with thousands separators ("inf"); CSV "%.9g" */
	REC_KAPPA_TAU, /* κ beside τ (the value's aux): text with the digits that keep it
	                * on its side of τ; CSV "%.9g" */
	REC_PCT,       /* a percentage: text "%.2f"; CSV "%.6g" */
	REC_NUM,       /* text the column's fmt, CSV its cfmt (fmt when NULL) */
	REC_OF,        /* text "v/aux" ("3/5"), CSV v */
	REC_FLAG,      /* v ≠ 0: text yes or no, CSV cyes or cno ("1" and "0" when NULL) */
	REC_TEXT,      /* the value's text s (CSV: cs when set) */
	REC_ARRAY,     /* the value's na numbers a: JSON only, an array */
	REC_BIG,       /* a whole number with thousands separators, ∞ when infinite or
	                * negative (κ beside the paper's); CSV "%.0f" */
	REC_BESIDE,    /* v in fmt, then aux in fmt between brackets ("12 (9)"), or the
	                * text s when set ("3.2 (resumed)"); v alone when aux is NaN */
	REC_LIST       /* the value's na numbers a (or ints ia), "%.0f" each, between
	                * spaces ("50 49 48") */
} RecType;

/* How a number is written: "%g", "%.0f", "%.1f", …, "%.17g". */
typedef enum RecFmt {
	F_NONE = 0,
	F_G,
	F_0F,
	F_1F,
	F_2F,
	F_3F,
	F_4F,
	F_6F,
	F_6G,
	F_9G,
	F_17G
} RecFmt;

/* Where a column goes, and how an absent value is written there. */
enum {
	REC_T = 1u,       /* in the text and Markdown tables */
	REC_C = 2u,       /* in the CSV */
	REC_TC = 3u,      /* both */
	REC_OPT = 4u,     /* out of the table and the CSV when every value is absent */
	REC_JNULL = 8u,   /* an absent value is JSON null (else the key is left out) */
	REC_INFNAN = 16u, /* gnuplot data: ∞ written as NaN (a gap in a chart) */
	REC_LEFT = 32u    /* REPORT_MD_ROWS: left-aligned (else right) */
};

typedef struct RecCol {
	const char *head;  /* text header; may hold one "%g", the set's hparam */
	const char *name;  /* CSV header and gnuplot data name */
	const char *dname; /* the gnuplot data's name when it differs */
	const char *key;   /* JSON key; NULL: not in JSON */
	RecType type;
	unsigned flags;
	RecFmt fmt, cfmt;                  /* REC_NUM: text and CSV (fmt when F_NONE) */
	RecFmt dfmt;                       /* gnuplot data; F_NONE: not in the data */
	const char *yes, *no, *cyes, *cno; /* REC_FLAG */
	const char *none, *cnone; /* an absent value: text ("-" when NULL), CSV ("" when NULL) */
	const char *dmiss;        /* data: NaN written as this (NULL: by dfmt) */
	const char *mark;         /* REPORT_MD_ROWS: written after a bold value (" ◀"), for ** */
} RecCol;

/* A record kind: its columns, and the order of their JSON keys and of the
 * gnuplot data when it is not theirs (NULL: the columns' own). */
typedef struct RecKind {
	const RecCol *col;
	int ncol;
	const int *json;
	int njson;
	const int *data;
	int ndata;
	int heads_left; /* across, REPORT_MD_ROWS: the column of the fields' names
	                 * left-aligned (else right) */
} RecKind;

/* One value of a record. A number is v (aux: REC_KAPPA_TAU's τ, REC_OF's
 * whole), an array na numbers a or ints ia; absent values are written as
 * their column says; bold: in Markdown between ** (the pick of a sweep). */
typedef struct RecVal {
	double v, aux;
	const char *s, *cs;
	const double *a;
	const int *ia;
	int na;
	unsigned char absent, bold;
} RecVal;

/* Records of one kind: nrow rows of k->ncol values, row-major. */
typedef struct RecSet {
	const RecKind *k;
	const RecVal *v;
	int nrow;
	double hparam; /* the value of a header's %g */
} RecSet;

/* The number v as a value, and an absent one. */
static inline RecVal rec_num(double v)
{
	return (RecVal){.v = v};
}
static inline RecVal rec_absent(void)
{
	return (RecVal){.absent = 1};
}
/* v, absent when it is NaN (a figure not known). */
static inline RecVal rec_known(double v)
{
	return isnan(v) ? rec_absent() : rec_num(v);
}
/* A REC_BESIDE value: v and aux (NaN: none). */
static inline RecVal rec_beside(double v, double aux)
{
	return isnan(v) ? rec_absent() : (RecVal){.v = v, .aux = aux};
}

/* A cell of the column c as fmt writes it, into buf (len bytes). */
const char *rec_cell(const RecCol *c, const RecVal *v, ReportFormat fmt, char *buf, size_t len);

/* The records as a table: text, Markdown or CSV. */
int rec_table(FILE *f, const RecSet *s, ReportFormat fmt, Err *e);
/* The records across: a column per record, headed by the corner (text,
 * CSV) and by the record's value in column label (its number from 0 when
 * label < 0), then a row per field of the table's columns but the label
 * (a REC_OPT one only when some record has its value),
 * each REC_ARRAY field narray rows headed by their numbers from 1 (the
 * entries as REC_COUNT, 0 past an array's end). */
int rec_across(FILE *f, const RecSet *s, int label, const char *corner, const char *ccorner,
               int narray, ReportFormat fmt, Err *e);
/* The records as a JSON array of objects, and one record (row r) as the
 * fields of the object o. */
cJSON *rec_json(const RecSet *s, Err *e);
int rec_json_fields(cJSON *o, const RecSet *s, int r, Err *e);
/* gnuplot data: the header line "# [title: ]names[ note]" (each REC_ARRAY
 * column as NAME_1 … NAME_narray), and a line per record. */
int rec_data_head(FILE *f, const RecSet *s, const char *title, const char *note, int narray,
                  Err *e);
int rec_data(FILE *f, const RecSet *s, Err *e);

/* ---- a grid of cells, for the tables no record describes ---- */

/* row 0 is the header; each cell holds at most REPORT_CELL − 1 bytes. */
typedef struct Table {
	int rows, cols;
	char *cell;
	unsigned char *left; /* REPORT_MD_ROWS: the columns left-aligned (else right) */
} Table;
#define REPORT_CELL 256

int table_init(Table *t, int rows, int cols, Err *e);
void table_set(Table *t, int r, int c, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Cell (r, c) as a column of type type writes the number v in fmt. */
void table_num(Table *t, int r, int c, RecType type, double v, ReportFormat fmt);
/* Writes t (text, Markdown or CSV) and frees its cells. */
int table_put(FILE *f, Table *t, ReportFormat fmt, Err *e);
/* One CSV cell, quoted by the one rule. */
void csv_cell(FILE *f, const char *s);

/* ---- JSON ---- */

/* A number, or null for NaN and ∞ (JSON has neither). */
cJSON *json_num(double v);
cJSON *json_nums(const double *v, int n);
cJSON *json_ints(const int *v, int n);
/* Frees root, says "out of memory for a JSON record" and returns NULL. */
cJSON *json_nomem(cJSON *root, Err *e);
/* The one way a record grows: item added to the object o under key, or to
 * the array a; -1 when it cannot be (item NULL: out of memory), item freed.
 * Nothing under report/ adds to a record otherwise. */
int json_add(cJSON *o, const char *key, cJSON *item, Err *e);
int json_push(cJSON *a, cJSON *item, Err *e);

#endif
