/* report.c - the paper's tables as aligned text, Markdown or CSV, and the
 * JSON records of runs. */
#include "report/report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/kernels.h"
#include "report/report_json.h"
#include "report/report_table.h"

enum { CELL = REPORT_CELL };

static int table_init(Table *t, int rows, int cols)
{
	t->rows = rows;
	t->cols = cols;
	t->cell = calloc((size_t)rows * (size_t)cols, CELL);
	return t->cell ? 0 : -1;
}

static void table_set(Table *t, int r, int c, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void table_set(Table *t, int r, int c, const char *fmt, ...)
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

/* Prints t: the first column left-aligned, the others right-aligned. */
static void table_print(FILE *f, const Table *t, ReportFormat fmt)
{
	if (fmt == REPORT_CSV) {
		for (int r = 0; r < t->rows; r++)
			for (int c = 0; c < t->cols; c++) {
				const char *s = table_get(t, r, c);
				if (strpbrk(s, ",\"")) {
					fputc('"', f);
					for (; *s; s++)
						fprintf(f, *s == '"' ? "\"\"" : "%c", *s);
					fputc('"', f);
				} else
					fputs(s, f);
				fputc(c + 1 < t->cols ? ',' : '\n', f);
			}
		return;
	}
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
		return;
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
}

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

/* κ as the paper prints it in text; full precision in CSV. */
static void set_kappa(Table *t, int r, int c, double k, ReportFormat fmt)
{
	char b[CELL];
	if (fmt == REPORT_CSV)
		table_set(t, r, c, "%.9g", k);
	else
		table_set(t, r, c, "%s", report_thousands(k, b, sizeof b));
}

/* κ beside a threshold τ: the digits that keep it on its side of τ (9.68
 * at τ 10 stays 9.68, never "10"), with thousands separators when the
 * whole number is enough for that. */
static void set_kappa_tau(Table *t, int r, int c, double k, double tau, ReportFormat fmt)
{
	char b[CELL];
	if (fmt == REPORT_CSV)
		table_set(t, r, c, "%.9g", k);
	else if (isfinite(k) && k >= 1000 && (round(k) > tau) == (k > tau) && round(k) != tau)
		table_set(t, r, c, "%s", report_thousands(k, b, sizeof b));
	else
		table_set(t, r, c, "%s", cond_kappa_str(k, tau, b, sizeof b));
}

void report_set_kappa_tau(Table *t, int r, int c, double k, double tau, ReportFormat fmt)
{
	set_kappa_tau(t, r, c, k, tau, fmt);
}

static void set_count(Table *t, int r, int c, double v, ReportFormat fmt)
{
	char b[CELL];
	if (fmt == REPORT_CSV)
		table_set(t, r, c, "%.0f", v);
	else
		table_set(t, r, c, "%s", report_thousands(v, b, sizeof b));
}

/* A percentage with two decimals; "-" (text) or empty (CSV) when NaN. */
static void set_pct(Table *t, int r, int c, double v, ReportFormat fmt)
{
	if (isnan(v))
		table_set(t, r, c, "%s", fmt == REPORT_CSV ? "" : "-");
	else if (fmt == REPORT_CSV)
		table_set(t, r, c, "%.6g", v);
	else
		table_set(t, r, c, "%.2f", v);
}

void report_cond(FILE *f, const Net *net, const LayerCond *lc, ReportFormat fmt)
{
	Table t;
	if (table_init(&t, net->m + 1, 6))
		return;
	double tau = net->m > 0 ? lc[0].tau : 0;
	if (fmt == REPORT_CSV) {
		const char *h[] = {"layer", "n", "kappa", "p", "rank_svd", "rank_qr"};
		for (int c = 0; c < 6; c++)
			table_set(&t, 0, c, "%s", h[c]);
	} else {
		const char *h[] = {"Layer", "n_i", "κ(Ŵ)", "", "rank (SVD)", "rank (QR)"};
		for (int c = 0; c < 6; c++)
			table_set(&t, 0, c, "%s", h[c]);
		table_set(&t, 0, 3, "p (τ=%g)", tau);
	}
	for (int i = 0; i < net->m; i++) {
		table_set(&t, i + 1, 0, "%d", lc[i].layer);
		set_count(&t, i + 1, 1, lc[i].cols, fmt);
		set_kappa_tau(&t, i + 1, 2, lc[i].kappa, tau, fmt);
		table_set(&t, i + 1, 3, "%d", lc[i].p);
		table_set(&t, i + 1, 4, "%d", lc[i].rank_svd);
		if (lc[i].rank_qr >= 0)
			table_set(&t, i + 1, 5, "%d", lc[i].rank_qr);
		else /* computed without the pivoted QR (cond_net_values) */
			table_set(&t, i + 1, 5, "-");
	}
	table_print(f, &t, fmt);
	free(t.cell);
}

void report_alg1_summary(FILE *f, const Alg1 *a, ReportFormat fmt)
{
	if (a->nrec < 1)
		return;
	const Alg1Record *r0 = &a->rec[0], *r1 = &a->rec[a->nrec - 1];
	int m = r0->m < r1->m ? r0->m : r1->m;
	Table t;
	if (table_init(&t, m + 1, 5))
		return;
	const char *csv[] = {"layer", "n_initial", "kappa_initial", "n_final", "kappa_final"};
	const char *txt[] = {"Layer", "initial n_i", "initial κ(Ŵ)", "final n_i", "final κ(Ŵ)"};
	for (int c = 0; c < 5; c++)
		table_set(&t, 0, c, "%s", fmt == REPORT_CSV ? csv[c] : txt[c]);
	for (int i = 0; i < m; i++) {
		table_set(&t, i + 1, 0, "%d", i + 1);
		set_count(&t, i + 1, 1, r0->n[i + 1], fmt);
		set_kappa(&t, i + 1, 2, r0->kappa[i], fmt);
		set_count(&t, i + 1, 3, r1->n[i + 1], fmt);
		set_kappa(&t, i + 1, 4, r1->kappa[i], fmt);
	}
	table_print(f, &t, fmt);
	free(t.cell);
}

void report_alg1_history(FILE *f, const Alg1 *a, ReportFormat fmt)
{
	/* a run stopped before its first record: the CSV keeps its row names */
	if (a->nrec < 1 && (fmt != REPORT_CSV || !a->net))
		return;
	int m = a->nrec > 0 ? a->rec[0].m : a->net->m;
	Table t;
	if (table_init(&t, m + 3, a->nrec + 1))
		return;
	table_set(&t, 0, 0, "%s", fmt == REPORT_CSV ? "row" : "Layer / iteration");
	for (int j = 0; j < a->nrec; j++) {
		const Alg1Record *r = &a->rec[j];
		table_set(&t, 0, j + 1, "%d", r->iter);
		for (int i = 0; i < m; i++)
			set_count(&t, i + 1, j + 1, i < r->m ? r->n[i + 1] : 0, fmt);
		if (fmt == REPORT_CSV)
			table_set(&t, m + 1, j + 1, "%.9g", r->max_kappa);
		else if (isinf(r->max_kappa))
			table_set(&t, m + 1, j + 1, "inf");
		else
			table_set(&t, m + 1, j + 1, "%.1f", r->max_kappa);
		set_count(&t, m + 2, j + 1, (double)r->sum_n, fmt);
	}
	for (int i = 0; i < m; i++)
		table_set(&t, i + 1, 0, "%d", i + 1);
	table_set(&t, m + 1, 0, "%s", fmt == REPORT_CSV ? "max_kappa" : "max(κ_i)");
	table_set(&t, m + 2, 0, "%s", fmt == REPORT_CSV ? "sum_n" : "Σ(n_i)");
	table_print(f, &t, fmt);
	free(t.cell);
}

void report_alg2(FILE *f, const Alg2 *a, ReportFormat fmt)
{
	int rows = 0, pick = alg2_pick(a);
	for (int i = 0; i < a->nb; i++)
		rows += a->b[i].done > 0;
	Table t;
	if (table_init(&t, rows + 1, 6))
		return;
	const char *csv[] = {"beta", "err_tr", "err_v", "score", "trials", "pick"};
	const char *txt[] = {"β", "ε_tr (%)", "ε_v (%)", "2ε_v − ε_tr (%)", "trials", ""};
	for (int c = 0; c < 6; c++)
		table_set(&t, 0, c, "%s", fmt == REPORT_CSV ? csv[c] : txt[c]);
	for (int i = 0, r = 1; i < a->nb; i++) {
		const Alg2Beta *b = &a->b[i];
		if (b->done < 1)
			continue;
		if (fmt == REPORT_CSV)
			table_set(&t, r, 0, "%.6g", b->beta);
		else
			table_set(&t, r, 0, "%.1f", b->beta);
		set_pct(&t, r, 1, 100 * b->err_tr, fmt);
		set_pct(&t, r, 2, 100 * b->err_v, fmt);
		if (i == pick && fmt == REPORT_MARKDOWN)
			table_set(&t, r, 3, "**%.2f**", 100 * b->score);
		else
			set_pct(&t, r, 3, 100 * b->score, fmt);
		table_set(&t, r, 4, "%d/%d", b->done, a->o.q);
		if (fmt == REPORT_CSV)
			table_set(&t, r, 4, "%d", b->done);
		table_set(&t, r, 5, "%s",
		          i == pick ? (fmt == REPORT_CSV ? "1" : "pick")
		                    : (fmt == REPORT_CSV ? "0" : ""));
		r++;
	}
	table_print(f, &t, fmt);
	free(t.cell);
}

void report_squeeze(FILE *f, const SqueezeRow *rows, int n, ReportFormat fmt)
{
	Table t;
	if (table_init(&t, n + 1, 5))
		return;
	const char *csv[] = {"tau", "removed", "acc_before_retraining",
	                     "acc_before_retraining_comp", "acc_after_retraining"};
	const char *txt[] = {"τ", "neurons removed", "acc. before retraining (%)",
	                     "with compensation (%)", "acc. after retraining (%)"};
	for (int c = 0; c < 5; c++)
		table_set(&t, 0, c, "%s", fmt == REPORT_CSV ? csv[c] : txt[c]);
	for (int i = 0; i < n; i++) {
		table_set(&t, i + 1, 0, "%g", rows[i].tau);
		set_count(&t, i + 1, 1, rows[i].removed, fmt);
		set_pct(&t, i + 1, 2, rows[i].acc_before, fmt);
		set_pct(&t, i + 1, 3, rows[i].acc_before_comp, fmt);
		set_pct(&t, i + 1, 4, rows[i].acc_after, fmt);
	}
	table_print(f, &t, fmt);
	free(t.cell);
}

void report_squeeze_rounds(FILE *f, const Alg3Round *r, int nround, int m, ReportFormat fmt)
{
	Table t;
	if (nround < 1 || table_init(&t, m + 2, nround + 1))
		return;
	table_set(&t, 0, 0, "%s", fmt == REPORT_CSV ? "row" : "Layer / round");
	for (int j = 0; j < nround; j++) {
		table_set(&t, 0, j + 1, "%d", j);
		for (int i = 1; i < m; i++)
			set_count(&t, i, j + 1, r[j].n[i], fmt);
		set_count(&t, m, j + 1, r[j].removed, fmt);
		set_pct(&t, m + 1, j + 1, r[j].acc_retrained, fmt);
	}
	for (int i = 1; i < m; i++)
		table_set(&t, i, 0, "%d", i);
	table_set(&t, m, 0, "removed");
	table_set(&t, m + 1, 0, "%s", fmt == REPORT_CSV ? "accuracy" : "Accuracy (%)");
	table_print(f, &t, fmt);
	free(t.cell);
}

/* A number, or null for NaN and ∞ (JSON has neither). */
cJSON *report_json_num(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

cJSON *report_json_ints(const int *v, int n)
{
	return cJSON_CreateIntArray(v, n);
}

cJSON *report_json_nums(const double *v, int n)
{
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; a && i < n; i++)
		cJSON_AddItemToArray(a, report_json_num(v[i]));
	return a;
}

cJSON *report_json_nomem(cJSON *root, Err *e)
{
	cJSON_Delete(root);
	err_set(e, "out of memory for a JSON record");
	return NULL;
}

/* A network's κ, the one writer of that schema: "n", "kappa", "p" into o. */
static void net_fields(cJSON *o, const int *n, int m, const double *kappa, const int *p)
{
	cJSON_AddItemToObject(o, "n", report_json_ints(n, m + 1));
	cJSON_AddItemToObject(o, "kappa", report_json_nums(kappa, m));
	cJSON_AddItemToObject(o, "p", report_json_ints(p, m));
}

/* The κ and p of lc[0..m) as arrays, for net_fields; -1 when out of memory. */
static int lc_arrays(const LayerCond *lc, int m, double **kappa, int **p)
{
	*kappa = malloc((size_t)(m > 0 ? m : 1) * sizeof **kappa);
	*p = malloc((size_t)(m > 0 ? m : 1) * sizeof **p);
	if (!*kappa || !*p) {
		free(*kappa);
		free(*p);
		return -1;
	}
	for (int i = 0; i < m; i++) {
		(*kappa)[i] = lc[i].kappa;
		(*p)[i] = lc[i].p;
	}
	return 0;
}

struct cJSON *report_net_json(const Net *net, double tau, Err *e)
{
	LayerCond *lc;
	if (cond_net_new(net, tau, 0, &lc, e) != 0)
		return NULL;
	double *kappa;
	int *p;
	cJSON *o = cJSON_CreateObject();
	if (!o || lc_arrays(lc, net->m, &kappa, &p) < 0) {
		cond_net_free(lc, net->m);
		return report_json_nomem(o, e);
	}
	net_fields(o, net->n, net->m, kappa, p);
	free(kappa);
	free(p);
	cond_net_free(lc, net->m);
	return o;
}

struct cJSON *report_cond_json(const Net *net, const LayerCond *lc, Err *e)
{
	cJSON *root = cJSON_CreateObject(), *layers = cJSON_CreateArray();
	char shape[512];
	double *kappa;
	int *p;
	if (!root || !layers || lc_arrays(lc, net->m, &kappa, &p) < 0) {
		cJSON_Delete(layers);
		return report_json_nomem(root, e);
	}
	cJSON_AddStringToObject(root, "shape", net_shape_str(net, shape, sizeof shape));
	cJSON_AddNumberToObject(root, "m", net->m);
	net_fields(root, net->n, net->m, kappa, p);
	free(kappa);
	free(p);
	cJSON_AddItemToObject(root, "tau", report_json_num(net->m > 0 ? lc[0].tau : NAN));
	for (int i = 0; i < net->m; i++) {
		const LayerCond *l = &lc[i];
		cJSON *o = cJSON_CreateObject();
		if (!o)
			break;
		cJSON_AddNumberToObject(o, "layer", l->layer);
		cJSON_AddNumberToObject(o, "n", l->cols);
		cJSON_AddNumberToObject(o, "rows", l->rows);
		cJSON_AddNumberToObject(o, "cols", l->cols);
		cJSON_AddItemToObject(o, "kappa", report_json_num(l->kappa));
		cJSON_AddNumberToObject(o, "p", l->p);
		cJSON_AddNumberToObject(o, "rank_svd", l->rank_svd);
		cJSON_AddItemToObject(o, "sv", report_json_nums(l->sv, l->nsv));
		if (l->rdiag) { /* absent when computed without the pivoted QR */
			cJSON_AddNumberToObject(o, "rank_qr", l->rank_qr);
			cJSON_AddItemToObject(o, "rdiag", report_json_nums(l->rdiag, l->nsv));
		}
		cJSON_AddItemToArray(layers, o);
	}
	double maxk = 0;
	for (int i = 0; i < net->m; i++) /* a NaN stays: the maximum is unknown */
		if (isnan(lc[i].kappa) || lc[i].kappa > maxk)
			maxk = lc[i].kappa;
	cJSON_AddItemToObject(root, "max_kappa", report_json_num(maxk));
	cJSON_AddItemToObject(root, "layers", layers);
	return root;
}

struct cJSON *report_alg1_json(const Alg1 *a, Err *e)
{
	cJSON *root = cJSON_CreateObject(), *hist = cJSON_CreateArray();
	if (!root || !hist) {
		cJSON_Delete(hist);
		return report_json_nomem(root, e);
	}
	cJSON_AddNumberToObject(root, "tau", a->o.tau);
	cJSON_AddNumberToObject(root, "eta", a->o.eta);
	cJSON_AddNumberToObject(root, "round", a->o.round);
	cJSON_AddNumberToObject(root, "max_iter", a->o.max_iter);
	cJSON_AddBoolToObject(root, "warm", a->o.warm);
	cJSON_AddNumberToObject(root, "seed", (double)a->o.seed);
	cJSON_AddStringToObject(root, "status", alg1_status_name(a->status));
	cJSON_AddStringToObject(root, "reason", a->reason);
	for (int j = 0; j < a->nrec; j++) {
		const Alg1Record *r = &a->rec[j];
		cJSON *o = cJSON_CreateObject();
		if (!o)
			break;
		cJSON_AddNumberToObject(o, "iter", r->iter);
		net_fields(o, r->n, r->m, r->kappa, r->p);
		cJSON_AddItemToObject(o, "max_kappa", report_json_num(r->max_kappa));
		cJSON_AddNumberToObject(o, "sum_n", (double)r->sum_n);
		cJSON_AddItemToObject(o, "train_error", report_json_num(r->train_error));
		cJSON_AddNumberToObject(o, "seconds", r->seconds);
		cJSON_AddNumberToObject(o, "tau", r->tau);
		cJSON_AddNumberToObject(o, "eta", r->eta);
		cJSON_AddItemToArray(hist, o);
	}
	cJSON_AddItemToObject(root, "history", hist);
	if (a->nrec > 0) {
		const Alg1Record *r = &a->rec[a->nrec - 1];
		cJSON_AddItemToObject(root, "final_n", report_json_ints(r->n, r->m + 1));
		cJSON_AddItemToObject(root, "final_kappa", report_json_nums(r->kappa, r->m));
		cJSON_AddItemToObject(root, "final_max_kappa", report_json_num(r->max_kappa));
	}
	return root;
}

struct cJSON *report_alg2_json(const Alg2 *a, Err *e)
{
	cJSON *root = cJSON_CreateObject(), *bs = cJSON_CreateArray();
	if (!root || !bs) {
		cJSON_Delete(bs);
		return report_json_nomem(root, e);
	}
	int pick = alg2_pick(a), m = a->base->m;
	for (int i = 0; i < a->nb; i++) {
		const Alg2Beta *b = &a->b[i];
		cJSON *o = cJSON_CreateObject();
		if (!o)
			break;
		cJSON_AddNumberToObject(o, "beta", b->beta);
		cJSON_AddItemToObject(o, "n", report_json_ints(b->widths, m + 1));
		cJSON_AddNumberToObject(o, "trials", b->done);
		cJSON_AddItemToObject(o, "err_tr",
		                      report_json_num(b->done ? 100 * b->err_tr : NAN));
		cJSON_AddItemToObject(o, "err_v", report_json_num(b->done ? 100 * b->err_v : NAN));
		cJSON_AddItemToObject(o, "score", report_json_num(b->done ? 100 * b->score : NAN));
		cJSON_AddItemToArray(bs, o);
	}
	cJSON_AddItemToObject(root, "betas", bs);
	cJSON_AddItemToObject(root, "pick", report_json_num(pick >= 0 ? a->b[pick].beta : NAN));
	if (pick >= 0)
		cJSON_AddItemToObject(root, "pick_n", report_json_ints(a->b[pick].widths, m + 1));
	cJSON_AddNumberToObject(root, "q", a->o.q);
	cJSON_AddNumberToObject(root, "eta", a->o.eta);
	cJSON_AddNumberToObject(root, "seed", (double)a->o.seed);
	return root;
}

void report_trained_json(struct cJSON *o, const TrainResult *r)
{
	cJSON_AddNumberToObject(o, "epochs", r->epochs);
	if (isnan(r->val_acc))
		return;
	cJSON_AddNumberToObject(o, "best_epoch", r->best_epoch);
	cJSON_AddNumberToObject(o, "val_acc", 100 * r->val_acc);
}

struct cJSON *report_squeeze_round_json(const Alg3Round *r, double tau, Err *e)
{
	cJSON *o = cJSON_CreateObject(), *net = cJSON_CreateObject();
	if (!o || !net) {
		cJSON_Delete(net);
		return report_json_nomem(o, e);
	}
	cJSON_AddNumberToObject(o, "tau", tau);
	cJSON_AddNumberToObject(o, "removed", r->removed);
	cJSON_AddItemToObject(o, "removed_per_layer", report_json_ints(r->removed_per_layer, r->m));
	cJSON_AddItemToObject(o, "acc_before", report_json_num(r->acc_squeezed));
	cJSON_AddItemToObject(o, "acc_after", report_json_num(r->acc_retrained));
	report_trained_json(o, &r->trained);
	net_fields(net, r->n, r->m, r->kappa, r->p);
	cJSON_AddItemToObject(o, "net", net);
	return o;
}

struct cJSON *report_squeeze_rounds_json(const Alg3Round *r, int n, double tau, Err *e)
{
	cJSON *a = cJSON_CreateArray();
	if (!a)
		return report_json_nomem(a, e);
	for (int k = 0; k < n; k++) {
		cJSON *o = report_squeeze_round_json(&r[k], tau, e);
		if (!o)
			return report_json_nomem(a, e);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* The kernels a record was computed with, and why when there is a why
 * (base/kernels.h): "kernels", "kernels_why". */
static void kernels_json(cJSON *root)
{
	if (!cJSON_IsObject(root) || cJSON_GetObjectItemCaseSensitive(root, "kernels"))
		return;
	KernelsChoice k;
	char why[256];
	kernels_current(&k);
	cJSON_AddStringToObject(root, "kernels", k.core);
	if (kernels_why_text(&k, 0, why, sizeof why)[0])
		cJSON_AddStringToObject(root, "kernels_why", why);
}

int report_write_json(const char *path, struct cJSON *root, Err *e)
{
	if (root)
		kernels_json(root);
	char *s = root ? cJSON_Print(root) : NULL;
	if (!s)
		return err_set(e, "%s: out of memory while formatting JSON", path);
	size_t n = strlen(s);
	s[n] = '\n'; /* cJSON's terminator becomes the final newline */
	int rc = file_write(path, s, n + 1, FILE_OUT_TEXT, e);
	cJSON_free(s);
	return rc;
}

void report_free(struct cJSON *root)
{
	cJSON_Delete(root);
}

int report_write_record(const char *path, struct cJSON *root, Err *e)
{
	if (!root)
		return -1;
	int rc = report_write_json(path, root, e);
	cJSON_Delete(root);
	return rc;
}

int report_write_file(const char *path, void (*fn)(FILE *, const void *), const void *ud, Err *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return err_set(e, "%s: out of memory", path);
	fn(f, ud);
	if (fclose(f)) {
		free(buf);
		return err_set(e, "%s: out of memory", path);
	}
	int rc = file_write(path, buf, len, FILE_OUT_TEXT, e);
	free(buf);
	return rc;
}

/* ---- the table helpers for the other report files (report_table.h) ---- */

int report_table_init(Table *t, int rows, int cols)
{
	return table_init(t, rows, cols);
}

void report_table_set(Table *t, int r, int c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->cell + ((size_t)r * (size_t)t->cols + (size_t)c) * CELL, CELL, fmt, ap);
	va_end(ap);
}

void report_table_print(FILE *f, const Table *t, ReportFormat fmt)
{
	table_print(f, t, fmt);
}

void report_set_kappa(Table *t, int r, int c, double k, ReportFormat fmt)
{
	set_kappa(t, r, c, k, fmt);
}

void report_set_count(Table *t, int r, int c, double v, ReportFormat fmt)
{
	set_count(t, r, c, v, fmt);
}

void report_set_pct(Table *t, int r, int c, double v, ReportFormat fmt)
{
	set_pct(t, r, c, v, fmt);
}
