/* report_rec.c - the writers of records (report_rec.h): a table as aligned
 * text, Markdown or CSV, across, JSON and gnuplot data (laid out in the grid
 * of cells of report_table.c). */
#include "report/report_rec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cond.h"

enum { CELL = REPORT_CELL };

/* ---- cells ---- */

const char *report_thousands(double v, char *buf, size_t len)
{
	if (isnan(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (isinf(v)) {
		snprintf(buf, len, "%sinf", v < 0 ? "-" : "");
		return buf;
	}
	char digits[32];
	snprintf(digits, sizeof digits, "%.0f", fabs(v));
	size_t nd = strlen(digits), o = 0;
	char out[48];
	if (v < 0 && strcmp(digits, "0"))
		out[o++] = '-';
	for (size_t i = 0; i < nd && o < sizeof out - 2; i++) {
		if (i && (nd - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	snprintf(buf, len, "%s", out);
	return buf;
}

static void num(char *buf, size_t len, RecFmt f, double x)
{
	switch (f) {
	case F_NONE:
	case F_G:
		snprintf(buf, len, "%g", x);
		break;
	case F_0F:
		snprintf(buf, len, "%.0f", x);
		break;
	case F_1F:
		snprintf(buf, len, "%.1f", x);
		break;
	case F_2F:
		snprintf(buf, len, "%.2f", x);
		break;
	case F_3F:
		snprintf(buf, len, "%.3f", x);
		break;
	case F_4F:
		snprintf(buf, len, "%.4f", x);
		break;
	case F_6F:
		snprintf(buf, len, "%.6f", x);
		break;
	case F_6G:
		snprintf(buf, len, "%.6g", x);
		break;
	case F_9G:
		snprintf(buf, len, "%.9g", x);
		break;
	case F_17G:
		snprintf(buf, len, "%.17g", x);
		break;
	}
}

/* κ beside a threshold τ: the digits that keep it on its side of τ (9.68
 * at τ 10 stays 9.68, never "10"), with thousands separators when the
 * whole number is enough for that. */
static const char *kappa_tau(double k, double tau, char *buf, size_t len)
{
	if (isfinite(k) && k >= 1000 && (round(k) > tau) == (k > tau) && round(k) != tau)
		return report_thousands(k, buf, len);
	return cond_kappa_str(k, tau, buf, len);
}

/* REC_BESIDE: "v (aux)", "v (s)" or v. */
static const char *beside(const RecCol *c, const RecVal *v, char *buf, size_t len)
{
	char a[32], b[32];
	num(a, sizeof a, c->fmt, v->v);
	if (!v->s && isnan(v->aux)) {
		snprintf(buf, len, "%s", a);
		return buf;
	}
	if (!v->s)
		num(b, sizeof b, c->fmt, v->aux);
	size_t n = (size_t)snprintf(buf, len, "%s (", a);
	if (n < len)
		snprintf(buf + n, len - n, "%s)", v->s ? v->s : b);
	return buf;
}

/* REC_LIST: "50 49 48". */
static const char *list(const RecVal *v, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; i < v->na && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%.0f", i ? " " : "",
		                      v->ia ? (double)v->ia[i] : v->a[i]);
	return buf;
}

static const char *plain_cell(const RecCol *c, const RecVal *v, int csv, char *buf, size_t len)
{
	double x = v->v;
	if (v->absent || (c->type == REC_PCT && isnan(x)))
		return csv ? (c->cnone ? c->cnone : "") : (c->none ? c->none : "-");
	switch (c->type) {
	case REC_INT:
		snprintf(buf, len, "%.0f", x);
		break;
	case REC_COUNT:
		if (csv)
			snprintf(buf, len, "%.0f", x);
		else
			report_thousands(x, buf, len);
		break;
	case REC_KAPPA:
	case REC_KAPPA_TAU:
		if (csv)
			snprintf(buf, len, "%.9g", x);
		else if (c->type == REC_KAPPA)
			report_thousands(x, buf, len);
		else
			kappa_tau(x, v->aux, buf, len);
		break;
	case REC_PCT:
		snprintf(buf, len, csv ? "%.6g" : "%.2f", x);
		break;
	case REC_NUM:
		num(buf, len, csv && c->cfmt ? c->cfmt : c->fmt, x);
		break;
	case REC_OF:
		if (csv)
			snprintf(buf, len, "%.0f", x);
		else
			snprintf(buf, len, "%.0f/%.0f", x, v->aux);
		break;
	case REC_FLAG:
		if (csv)
			return x != 0 ? (c->cyes ? c->cyes : "1") : (c->cno ? c->cno : "0");
		return x != 0 ? c->yes : c->no;
	case REC_TEXT:
		return csv && v->cs ? v->cs : v->s;
	case REC_ARRAY:
		buf[0] = '\0';
		break;
	case REC_BIG:
		if (csv)
			snprintf(buf, len, "%.0f", x);
		else if (isinf(x) || x < 0)
			snprintf(buf, len, "∞");
		else
			report_thousands(x, buf, len);
		break;
	case REC_BESIDE:
		return beside(c, v, buf, len);
	case REC_LIST:
		return list(v, buf, len);
	}
	return buf;
}

const char *rec_cell(const RecCol *c, const RecVal *v, ReportFormat fmt, char *buf, size_t len)
{
	char own[CELL];
	const char *s = plain_cell(c, v, fmt == REPORT_CSV, own, sizeof own);
	if (v->bold && fmt == REPORT_MARKDOWN)
		snprintf(buf, len, "**%s**", s);
	else if (v->bold && fmt == REPORT_MD_ROWS && c->mark)
		snprintf(buf, len, "%s%s", s, c->mark);
	else
		snprintf(buf, len, "%s", s);
	return buf;
}

void table_num(Table *t, int r, int c, RecType type, double v, ReportFormat fmt)
{
	const RecCol col = {.type = type};
	const RecVal x = {.v = v};
	char buf[CELL];
	table_set(t, r, c, "%s", rec_cell(&col, &x, fmt, buf, sizeof buf));
}

/* ---- tables ---- */

static const RecVal *val(const RecSet *s, int r, int c)
{
	return &s->v[(size_t)r * (size_t)s->k->ncol + (size_t)c];
}

/* 1 when column c goes in fmt's table. */
static int in_table(const RecSet *s, int c, ReportFormat fmt)
{
	const RecCol *col = &s->k->col[c];
	if (!(col->flags & (fmt == REPORT_CSV ? REC_C : REC_T)) || col->type == REC_ARRAY)
		return 0;
	if (!(col->flags & REC_OPT))
		return 1;
	for (int r = 0; r < s->nrow; r++)
		if (!val(s, r, c)->absent)
			return 1;
	return 0;
}

static const char *header(const RecSet *s, int c, ReportFormat fmt, char *buf, size_t len)
{
	const RecCol *col = &s->k->col[c];
	if (fmt == REPORT_CSV)
		return col->name;
	const char *g = strstr(col->head, "%g");
	if (!g)
		return col->head;
	char v[32];
	num(v, sizeof v, F_G, s->hparam);
	snprintf(buf, len, "%.*s%s%s", (int)(g - col->head), col->head, v, g + 2);
	return buf;
}

static int table_csv(FILE *f, const RecSet *s)
{
	char buf[CELL];
	int first = 1;
	for (int c = 0; c < s->k->ncol; c++)
		if (in_table(s, c, REPORT_CSV)) {
			if (!first)
				fputc(',', f);
			csv_cell(f, s->k->col[c].name);
			first = 0;
		}
	fputc('\n', f);
	for (int r = 0; r < s->nrow; r++) {
		first = 1;
		for (int c = 0; c < s->k->ncol; c++) {
			if (!in_table(s, c, REPORT_CSV))
				continue;
			if (!first)
				fputc(',', f);
			csv_cell(f, plain_cell(&s->k->col[c], val(s, r, c), 1, buf, sizeof buf));
			first = 0;
		}
		fputc('\n', f);
	}
	return 0;
}

int rec_table(FILE *f, const RecSet *s, ReportFormat fmt, Err *e)
{
	if (fmt == REPORT_CSV)
		return table_csv(f, s);
	int cols = 0;
	for (int c = 0; c < s->k->ncol; c++)
		cols += in_table(s, c, fmt);
	Table t;
	if (table_init(&t, s->nrow + 1, cols, e))
		return -1;
	for (int c = 0, k = 0; c < s->k->ncol; c++) {
		if (!in_table(s, c, fmt))
			continue;
		char buf[CELL];
		table_set(&t, 0, k, "%s", header(s, c, fmt, buf, sizeof buf));
		t.left[k] = (s->k->col[c].flags & REC_LEFT) != 0;
		for (int r = 0; r < s->nrow; r++)
			table_set(&t, r + 1, k, "%s",
			          rec_cell(&s->k->col[c], val(s, r, c), fmt, buf, sizeof buf));
		k++;
	}
	return table_put(f, &t, fmt, e);
}

/* 1 when column c of the records across is a row of theirs: in the text
 * table, and not a REC_OPT column whose values are all absent. */
static int across_row(const RecSet *s, int c)
{
	const RecCol *col = &s->k->col[c];
	if (!(col->flags & REC_T))
		return 0;
	if (!(col->flags & REC_OPT))
		return 1;
	for (int r = 0; r < s->nrow; r++)
		if (!val(s, r, c)->absent)
			return 1;
	return 0;
}

int rec_across(FILE *f, const RecSet *s, int label, const char *corner, const char *ccorner,
               int narray, ReportFormat fmt, Err *e)
{
	int rows = 1;
	for (int c = 0; c < s->k->ncol; c++)
		if (c != label && across_row(s, c))
			rows += s->k->col[c].type == REC_ARRAY ? narray : 1;
	Table t;
	if (table_init(&t, rows, s->nrow + 1, e))
		return -1;
	table_set(&t, 0, 0, "%s", fmt == REPORT_CSV ? ccorner : corner);
	t.left[0] = s->k->heads_left != 0;
	for (int j = 0; j < s->nrow; j++) {
		char buf[CELL];
		if (label < 0)
			table_set(&t, 0, j + 1, "%d", j);
		else
			table_set(
			    &t, 0, j + 1, "%s",
			    rec_cell(&s->k->col[label], val(s, j, label), fmt, buf, sizeof buf));
	}
	const RecCol count = {.type = REC_COUNT};
	for (int c = 0, r = 1; c < s->k->ncol; c++) {
		const RecCol *col = &s->k->col[c];
		if (c == label || !across_row(s, c))
			continue;
		char buf[CELL];
		if (col->type != REC_ARRAY) {
			table_set(&t, r, 0, "%s", header(s, c, fmt, buf, sizeof buf));
			for (int j = 0; j < s->nrow; j++)
				table_set(&t, r, j + 1, "%s",
				          rec_cell(col, val(s, j, c), fmt, buf, sizeof buf));
			r++;
			continue;
		}
		for (int i = 0; i < narray; i++, r++) {
			table_set(&t, r, 0, "%d", i + 1);
			for (int j = 0; j < s->nrow; j++) {
				const RecVal *v = val(s, j, c);
				RecVal x = rec_num(i >= v->na ? 0 : v->ia ? v->ia[i] : v->a[i]);
				table_set(&t, r, j + 1, "%s",
				          rec_cell(&count, &x, fmt, buf, sizeof buf));
			}
		}
	}
	return table_put(f, &t, fmt, e);
}

/* ---- JSON ---- */

cJSON *json_num(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

cJSON *json_ints(const int *v, int n)
{
	return cJSON_CreateIntArray(v, n);
}

cJSON *json_nums(const double *v, int n)
{
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; a && i < n; i++)
		if (json_push(a, json_num(v[i]), NULL)) {
			cJSON_Delete(a);
			return NULL;
		}
	return a;
}

cJSON *json_nomem(cJSON *root, Err *e)
{
	cJSON_Delete(root);
	err_set(e, "out of memory for a JSON record");
	return NULL;
}

int json_add(cJSON *o, const char *key, cJSON *item, Err *e)
{
	if (!item || !o || !cJSON_AddItemToObject(o, key, item)) {
		cJSON_Delete(item);
		return err_set(e, "out of memory for a JSON record");
	}
	return 0;
}

int json_push(cJSON *a, cJSON *item, Err *e)
{
	if (!item || !a || !cJSON_AddItemToArray(a, item)) {
		cJSON_Delete(item);
		return err_set(e, "out of memory for a JSON record");
	}
	return 0;
}

static cJSON *json_value(const RecCol *c, const RecVal *v)
{
	if (v->absent)
		return cJSON_CreateNull();
	switch (c->type) {
	case REC_TEXT:
		return cJSON_CreateString(v->s);
	case REC_FLAG:
		return cJSON_CreateBool(v->v != 0);
	case REC_ARRAY:
	case REC_LIST:
		return v->ia ? json_ints(v->ia, v->na) : json_nums(v->a, v->na);
	default:
		return json_num(v->v);
	}
}

int rec_json_fields(cJSON *o, const RecSet *s, int r, Err *e)
{
	const RecKind *k = s->k;
	int n = k->json ? k->njson : k->ncol;
	for (int i = 0; i < n; i++) {
		int c = k->json ? k->json[i] : i;
		const RecCol *col = &k->col[c];
		const RecVal *v = val(s, r, c);
		if (!col->key || (v->absent && !(col->flags & REC_JNULL)))
			continue;
		if (json_add(o, col->key, json_value(col, v), e))
			return -1;
	}
	return 0;
}

cJSON *rec_json(const RecSet *s, Err *e)
{
	cJSON *a = cJSON_CreateArray();
	if (!a)
		return json_nomem(NULL, e);
	for (int r = 0; r < s->nrow; r++) {
		cJSON *o = cJSON_CreateObject();
		if (json_push(a, o, e))
			return json_nomem(a, e);
		if (rec_json_fields(o, s, r, e))
			return json_nomem(a, e);
	}
	return a;
}

/* ---- gnuplot data ---- */

static const RecCol *data_col(const RecKind *k, int i)
{
	return &k->col[k->data ? k->data[i] : i];
}

int rec_data_head(FILE *f, const RecSet *s, const char *title, const char *note, int narray, Err *e)
{
	(void)e;
	const RecKind *k = s->k;
	int n = k->data ? k->ndata : k->ncol, first = 1;
	fputs("# ", f);
	if (title)
		fprintf(f, "%s: ", title);
	for (int i = 0; i < n; i++) {
		const RecCol *c = data_col(k, i);
		const char *name = c->dname ? c->dname : c->name;
		if (!c->dfmt)
			continue;
		if (c->type != REC_ARRAY)
			fprintf(f, "%s%s", first ? "" : " ", name);
		for (int j = 1; c->type == REC_ARRAY && j <= narray; j++)
			fprintf(f, "%s%s_%d", first && j == 1 ? "" : " ", name, j);
		first = 0;
	}
	if (note)
		fprintf(f, " %s", note);
	fputc('\n', f);
	return 0;
}

static void data_value(FILE *f, const RecCol *c, double x, int first)
{
	if (!first)
		fputc(' ', f);
	if ((c->flags & REC_INFNAN) && isinf(x))
		x = NAN;
	char buf[64];
	num(buf, sizeof buf, c->dfmt, x);
	fputs(isnan(x) && c->dmiss ? c->dmiss : buf, f);
}

int rec_data(FILE *f, const RecSet *s, Err *e)
{
	(void)e;
	const RecKind *k = s->k;
	int n = k->data ? k->ndata : k->ncol;
	for (int r = 0; r < s->nrow; r++) {
		int first = 1;
		for (int i = 0; i < n; i++) {
			int c = k->data ? k->data[i] : i;
			const RecCol *col = &k->col[c];
			const RecVal *v = val(s, r, c);
			if (!col->dfmt)
				continue;
			if (col->type != REC_ARRAY)
				data_value(f, col, v->v, first);
			for (int j = 0; col->type == REC_ARRAY && j < v->na; j++)
				data_value(f, col, v->ia ? v->ia[j] : v->a[j], first && j == 0);
			first = 0;
		}
		fputc('\n', f);
	}
	return 0;
}
