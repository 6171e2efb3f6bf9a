/* report_eval.c - the tables and JSON record of `condnet eval`, the
 * agreement of two networks in a line and a record, and the answers of
 * `condnet predict` as CSV. */
#include "report/report_eval.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_table.h"

/* Classes up to which the text report prints confusion matrices. */
#define TEXT_MAX_CONFUSION 32

static double pct(double v)
{
	return 100 * v;
}

/* The networks: number, file, kind, shape, accuracy, loss, rows right. */
static void models_table(FILE *f, const EvalReport *r, ReportFormat fmt)
{
	Table t;
	if (report_table_init(&t, r->nm + 1, 7))
		return;
	const char *h[] = {"#", "model", "kind", "shape", "accuracy (%)", "loss", "correct"};
	for (int c = 0; c < 7; c++)
		report_table_set(&t, 0, c, "%s", h[c]);
	for (int i = 0; i < r->nm; i++) {
		const EvalModel *m = &r->m[i];
		char shape[512];
		report_table_set(&t, i + 1, 0, "%d", i + 1);
		report_table_set(&t, i + 1, 1, "%s", m->name);
		report_table_set(&t, i + 1, 2, "%s", m->kind);
		report_table_set(&t, i + 1, 3, "%s", net_shape_str(m->net, shape, sizeof shape));
		report_set_pct(&t, i + 1, 4, pct(1 - m->ev->error), fmt);
		if (isfinite(m->ev->loss))
			report_table_set(&t, i + 1, 5, "%.4f", m->ev->loss);
		else
			report_table_set(&t, i + 1, 5, "not finite");
		report_set_count(&t, i + 1, 6, (double)m->ev->correct, fmt);
	}
	report_table_print(f, &t, fmt);
	free(t.cell);
}

/* Per class: its rows, then every network's precision and recall. */
static void class_table(FILE *f, const EvalReport *r, ReportFormat fmt)
{
	Table t;
	if (report_table_init(&t, r->k + 1, 2 + 2 * r->nm))
		return;
	report_table_set(&t, 0, 0, "class");
	report_table_set(&t, 0, 1, "rows");
	for (int i = 0; i < r->nm; i++) {
		report_table_set(&t, 0, 2 + 2 * i, "precision #%d (%%)", i + 1);
		report_table_set(&t, 0, 3 + 2 * i, "recall #%d (%%)", i + 1);
	}
	for (int c = 0; c < r->k; c++) {
		report_table_set(&t, c + 1, 0, "%d", c);
		report_set_count(&t, c + 1, 1, (double)r->m[0].ev->rows[c], fmt);
		for (int i = 0; i < r->nm; i++) {
			const Evaluation *ev = r->m[i].ev;
			report_set_pct(&t, c + 1, 2 + 2 * i, pct(evaluation_precision(ev, c)), fmt);
			report_set_pct(&t, c + 1, 3 + 2 * i, pct(evaluation_recall(ev, c)), fmt);
		}
	}
	report_table_print(f, &t, fmt);
	free(t.cell);
}

/* One network's confusion matrix: a row per class, a column per answer. */
static void confusion_table(FILE *f, const Evaluation *ev, ReportFormat fmt)
{
	Table t;
	int k = ev->k;
	if (report_table_init(&t, k + 1, k + 1))
		return;
	report_table_set(&t, 0, 0, "class \\ answer");
	for (int a = 0; a < k; a++)
		report_table_set(&t, 0, a + 1, "%d", a);
	for (int c = 0; c < k; c++) {
		report_table_set(&t, c + 1, 0, "%d", c);
		for (int a = 0; a < k; a++)
			report_set_count(&t, c + 1, a + 1, (double)ev->confusion[(size_t)c * k + a],
			                 fmt);
	}
	report_table_print(f, &t, fmt);
	free(t.cell);
}

/* The pair (i, j) of agreement p, in report order. */
static void pair_of(int nm, int p, int *i, int *j)
{
	for (int a = 0; a < nm; a++)
		for (int b = a + 1; b < nm; b++)
			if (p-- == 0) {
				*i = a;
				*j = b;
				return;
			}
	*i = *j = 0;
}

/* Per class: its rows and, for every pair, the rows answered differently. */
static void differ_table(FILE *f, const EvalReport *r, ReportFormat fmt)
{
	int np = r->nm * (r->nm - 1) / 2;
	Table t;
	if (report_table_init(&t, r->k + 1, 2 + np))
		return;
	report_table_set(&t, 0, 0, "class");
	report_table_set(&t, 0, 1, "rows");
	for (int p = 0; p < np; p++) {
		int i, j;
		pair_of(r->nm, p, &i, &j);
		report_table_set(&t, 0, 2 + p, "differ #%d-#%d", i + 1, j + 1);
	}
	for (int c = 0; c < r->k; c++) {
		report_table_set(&t, c + 1, 0, "%d", c);
		report_set_count(&t, c + 1, 1, (double)r->m[0].ev->rows[c], fmt);
		for (int p = 0; p < np; p++)
			report_set_count(&t, c + 1, 2 + p, (double)r->ag[p].differ[c], fmt);
	}
	report_table_print(f, &t, fmt);
	free(t.cell);
}

void report_eval(FILE *f, const EvalReport *r, ReportFormat fmt)
{
	char buf[256];
	fprintf(f, "%s, %s split: %s rows, %d classes\n\n", r->data, r->split,
	        report_thousands(r->rows, buf, sizeof buf), r->k);
	models_table(f, r, fmt);
	fprintf(f, "\n");
	for (int i = 0; i < r->nm; i++)
		fprintf(f, "inputs of #%d: %s\n", i + 1, r->m[i].prep);
	for (int i = 0; i < r->nm; i++)
		if (r->m[i].ev->no_answer)
			fprintf(f,
			        "#%d answers no class for %s of the rows: an output is not finite "
			        "(inputs too large for the network); they count as wrong, and the "
			        "loss is not finite\n",
			        i + 1, report_thousands(r->m[i].ev->no_answer, buf, sizeof buf));
	fprintf(f, "\nprecision of class c: of the rows answered c, the share of class c\n"
	           "recall of class c: of the rows of class c, the share answered c\n\n");
	class_table(f, r, fmt);
	for (int i = 0; i < r->nm; i++) {
		const Evaluation *ev = r->m[i].ev;
		if (!ev->confusion) {
			fprintf(f,
			        "\n#%d answers %d classes: no confusion matrix is kept above %d\n",
			        i + 1, ev->k, EVAL_MAX_CONFUSION);
			continue;
		}
		if (ev->k > TEXT_MAX_CONFUSION) {
			fprintf(f,
			        "\n#%d answers %d classes: its confusion matrix is in the --json "
			        "record\n",
			        i + 1, ev->k);
			continue;
		}
		fprintf(f,
		        "\nconfusion matrix of #%d (%s): a row per class, a column per answer\n\n",
		        i + 1, r->m[i].name);
		confusion_table(f, ev, fmt);
	}
	if (r->nm < 2)
		return;
	fprintf(f, "\n");
	int np = r->nm * (r->nm - 1) / 2;
	for (int p = 0; p < np; p++) {
		int i, j;
		pair_of(r->nm, p, &i, &j);
		fprintf(f,
		        "#%d and #%d answer the same class on %.2f %% of the rows (%ld of %ld "
		        "differ)\n",
		        i + 1, j + 1, pct(r->ag[p].share), r->ag[p].n - r->ag[p].same, r->ag[p].n);
	}
	fprintf(f, "\nthe rows answered differently, by their class:\n\n");
	differ_table(f, r, fmt);
}

void report_eval_csv(FILE *f, const void *ud)
{
	const EvalReport *r = ud;
	fputs("model,class,rows,answered,correct,precision,recall\n", f);
	for (int i = 0; i < r->nm; i++) {
		const Evaluation *ev = r->m[i].ev;
		const char *name = r->m[i].name;
		int quote = strpbrk(name, ",\"\n") != NULL;
		for (int c = 0; c < ev->k; c++) {
			if (quote) {
				fputc('"', f);
				for (const char *s = name; *s; s++)
					fprintf(f, *s == '"' ? "\"\"" : "%c", *s);
				fputc('"', f);
			} else
				fputs(name, f);
			fprintf(f, ",%d,%ld,%ld,%ld,", c, ev->rows[c], ev->answered[c],
			        ev->hits[c]);
			double p = evaluation_precision(ev, c), q = evaluation_recall(ev, c);
			if (!isnan(p))
				fprintf(f, "%.6g", pct(p));
			fputc(',', f);
			if (!isnan(q))
				fprintf(f, "%.6g", pct(q));
			fputc('\n', f);
		}
	}
}

static cJSON *num(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static cJSON *long_array(const long *v, int n)
{
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; a && i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber((double)v[i]));
	return a;
}

struct cJSON *report_agreement_json(const Agreement *ag, Err *e)
{
	cJSON *o = cJSON_CreateObject();
	if (!o) {
		err_set(e, "out of memory for a JSON record");
		return NULL;
	}
	cJSON_AddNumberToObject(o, "rows", (double)ag->n);
	cJSON_AddNumberToObject(o, "same", (double)ag->same);
	cJSON_AddItemToObject(o, "share", num(pct(ag->share)));
	cJSON_AddItemToObject(o, "differ_per_class", long_array(ag->differ, ag->k));
	return o;
}

const char *report_agreement_line(const Agreement *ag, const char *set, char *buf, size_t len)
{
	long differ = ag->n - ag->same;
	int n = snprintf(buf, len,
	                 "answers as the original on %.2f %% of %s: %ld of its %ld rows differ",
	                 pct(ag->share), set, differ, ag->n);
	int listed = 0;
	for (int c = 0; c < ag->k && n >= 0 && (size_t)n < len; c++) {
		if (!ag->differ[c])
			continue;
		if (listed == 8) {
			n += snprintf(buf + n, len - (size_t)n, ", …");
			break;
		}
		n += snprintf(buf + n, len - (size_t)n, "%s%ld of class %d", listed ? ", " : " (",
		              ag->differ[c], c);
		listed++;
	}
	if (listed && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ")");
	return buf;
}

/* One network's record. */
static cJSON *model_json(const EvalModel *m)
{
	char shape[512];
	const Evaluation *ev = m->ev;
	cJSON *o = cJSON_CreateObject(), *pc = cJSON_CreateArray();
	if (!o || !pc) {
		cJSON_Delete(o);
		cJSON_Delete(pc);
		return NULL;
	}
	cJSON_AddStringToObject(o, "model", m->name);
	cJSON_AddStringToObject(o, "kind", m->kind);
	cJSON_AddStringToObject(o, "shape", net_shape_str(m->net, shape, sizeof shape));
	cJSON_AddStringToObject(o, "inputs", m->prep);
	cJSON_AddItemToObject(o, "accuracy", num(pct(1 - ev->error)));
	cJSON_AddItemToObject(o, "loss", num(ev->loss));
	cJSON_AddNumberToObject(o, "correct", (double)ev->correct);
	cJSON_AddNumberToObject(o, "no_answer", (double)ev->no_answer);
	for (int c = 0; c < ev->k; c++) {
		cJSON *x = cJSON_CreateObject();
		if (!x)
			break;
		cJSON_AddNumberToObject(x, "class", c);
		cJSON_AddNumberToObject(x, "rows", (double)ev->rows[c]);
		cJSON_AddNumberToObject(x, "answered", (double)ev->answered[c]);
		cJSON_AddNumberToObject(x, "correct", (double)ev->hits[c]);
		cJSON_AddItemToObject(x, "precision", num(pct(evaluation_precision(ev, c))));
		cJSON_AddItemToObject(x, "recall", num(pct(evaluation_recall(ev, c))));
		cJSON_AddItemToArray(pc, x);
	}
	cJSON_AddItemToObject(o, "per_class", pc);
	if (ev->confusion) {
		cJSON *cm = cJSON_AddArrayToObject(o, "confusion");
		for (int c = 0; cm && c < ev->k; c++)
			cJSON_AddItemToArray(cm,
			                     long_array(ev->confusion + (size_t)c * ev->k, ev->k));
	}
	return o;
}

struct cJSON *report_eval_json(const EvalReport *r, Err *e)
{
	cJSON *root = cJSON_CreateObject();
	if (root) {
		cJSON_AddStringToObject(root, "command", "eval");
		cJSON_AddStringToObject(root, "data", r->data);
		cJSON_AddStringToObject(root, "split", r->split);
		cJSON_AddNumberToObject(root, "rows", r->rows);
		cJSON_AddNumberToObject(root, "classes", r->k);
	}
	cJSON *models = root ? cJSON_AddArrayToObject(root, "models") : NULL;
	if (!models) {
		cJSON_Delete(root);
		err_set(e, "out of memory for a JSON record");
		return NULL;
	}
	for (int i = 0; i < r->nm; i++)
		cJSON_AddItemToArray(models, model_json(&r->m[i]));
	cJSON *ag = cJSON_AddArrayToObject(root, "agreement");
	int np = r->nm * (r->nm - 1) / 2;
	for (int p = 0; ag && p < np; p++) {
		int i, j;
		pair_of(r->nm, p, &i, &j);
		cJSON *o = report_agreement_json(&r->ag[p], e);
		if (!o)
			break;
		cJSON_AddNumberToObject(o, "a", i + 1);
		cJSON_AddNumberToObject(o, "b", j + 1);
		cJSON_AddItemToArray(ag, o);
	}
	return root;
}

int report_eval_write_json(const char *path, const EvalReport *r, Err *e)
{
	cJSON *rec = report_eval_json(r, e);
	if (!rec)
		return -1;
	int rc = report_write_json(path, rec, e);
	cJSON_Delete(rec);
	return rc;
}

void report_answers_csv(FILE *f, const void *ud)
{
	const Answers *a = ud;
	fputs("class", f);
	for (int c = 0; c < a->k; c++)
		fprintf(f, ",p%d", c);
	fputc('\n', f);
	for (int r = 0; r < a->n; r++) {
		fprintf(f, "%d", a->cls[r]);
		const float *p = a->prob + (size_t)r * a->k;
		for (int c = 0; c < a->k; c++)
			fprintf(f, ",%.9g", (double)p[c]);
		fputc('\n', f);
	}
}
