/* report_eval.c - the tables and JSON record of `condnet eval`, the
 * agreement of two networks in a line and a record, and the answers of
 * `condnet predict` as CSV. */
#include "report/report_eval.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_int.h"
#include "report/report_rec.h"

/* Classes up to which the text report prints confusion matrices. */
#define TEXT_MAX_CONFUSION 32

static double pct(double v)
{
	return 100 * v;
}

/* The networks: number, file, kind, shape, accuracy, loss, rows right. */
static int models_table(FILE *f, const EvalReport *r, ReportFormat fmt, Err *e)
{
	Table t;
	if (table_init(&t, r->nm + 1, 7, e))
		return -1;
	const char *h[] = {"#", "model", "kind", "shape", "accuracy (%)", "loss", "correct"};
	for (int c = 0; c < 7; c++)
		table_set(&t, 0, c, "%s", h[c]);
	for (int i = 0; i < r->nm; i++) {
		const EvalModel *m = &r->m[i];
		char shape[512];
		table_set(&t, i + 1, 0, "%d", i + 1);
		table_set(&t, i + 1, 1, "%s", m->name);
		table_set(&t, i + 1, 2, "%s", m->kind);
		table_set(&t, i + 1, 3, "%s", net_shape_str(m->net, shape, sizeof shape));
		table_num(&t, i + 1, 4, REC_PCT, pct(1 - m->ev->error), fmt);
		if (isfinite(m->ev->loss))
			table_set(&t, i + 1, 5, "%.4f", m->ev->loss);
		else
			table_set(&t, i + 1, 5, "not finite");
		table_num(&t, i + 1, 6, REC_COUNT, (double)m->ev->correct, fmt);
	}
	return table_put(f, &t, fmt, e);
}

/* Per class: its rows, then every network's precision and recall. */
static int class_table(FILE *f, const EvalReport *r, ReportFormat fmt, Err *e)
{
	Table t;
	if (table_init(&t, r->k + 1, 2 + 2 * r->nm, e))
		return -1;
	table_set(&t, 0, 0, "class");
	table_set(&t, 0, 1, "rows");
	for (int i = 0; i < r->nm; i++) {
		table_set(&t, 0, 2 + 2 * i, "precision #%d (%%)", i + 1);
		table_set(&t, 0, 3 + 2 * i, "recall #%d (%%)", i + 1);
	}
	for (int c = 0; c < r->k; c++) {
		table_set(&t, c + 1, 0, "%d", c);
		table_num(&t, c + 1, 1, REC_COUNT, (double)r->m[0].ev->rows[c], fmt);
		for (int i = 0; i < r->nm; i++) {
			const Evaluation *ev = r->m[i].ev;
			table_num(&t, c + 1, 2 + 2 * i, REC_PCT, pct(evaluation_precision(ev, c)),
			          fmt);
			table_num(&t, c + 1, 3 + 2 * i, REC_PCT, pct(evaluation_recall(ev, c)),
			          fmt);
		}
	}
	return table_put(f, &t, fmt, e);
}

/* One network's confusion matrix: a row per class, a column per answer. */
static int confusion_table(FILE *f, const Evaluation *ev, ReportFormat fmt, Err *e)
{
	Table t;
	int k = ev->k;
	if (table_init(&t, k + 1, k + 1, e))
		return -1;
	table_set(&t, 0, 0, "class \\ answer");
	for (int a = 0; a < k; a++)
		table_set(&t, 0, a + 1, "%d", a);
	for (int c = 0; c < k; c++) {
		table_set(&t, c + 1, 0, "%d", c);
		for (int a = 0; a < k; a++)
			table_num(&t, c + 1, a + 1, REC_COUNT,
			          (double)ev->confusion[(size_t)c * k + a], fmt);
	}
	return table_put(f, &t, fmt, e);
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
static int differ_table(FILE *f, const EvalReport *r, ReportFormat fmt, Err *e)
{
	int np = r->nm * (r->nm - 1) / 2;
	Table t;
	if (table_init(&t, r->k + 1, 2 + np, e))
		return -1;
	table_set(&t, 0, 0, "class");
	table_set(&t, 0, 1, "rows");
	for (int p = 0; p < np; p++) {
		int i, j;
		pair_of(r->nm, p, &i, &j);
		table_set(&t, 0, 2 + p, "differ #%d-#%d", i + 1, j + 1);
	}
	for (int c = 0; c < r->k; c++) {
		table_set(&t, c + 1, 0, "%d", c);
		table_num(&t, c + 1, 1, REC_COUNT, (double)r->m[0].ev->rows[c], fmt);
		for (int p = 0; p < np; p++)
			table_num(&t, c + 1, 2 + p, REC_COUNT, (double)r->ag[p].differ[c], fmt);
	}
	return table_put(f, &t, fmt, e);
}

int report_eval(FILE *f, const EvalReport *r, ReportFormat fmt, Err *e)
{
	char buf[256];
	fprintf(f, "%s, %s split: %s rows, %d classes\n\n", r->data, r->split,
	        report_thousands(r->rows, buf, sizeof buf), r->k);
	if (models_table(f, r, fmt, e))
		return -1;
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
	if (class_table(f, r, fmt, e))
		return -1;
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
		if (confusion_table(f, ev, fmt, e))
			return -1;
	}
	if (r->nm < 2)
		return 0;
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
	return differ_table(f, r, fmt, e);
}

/* A network's figures for one class: the CSV's rows and the JSON record's
 * "per_class". */
enum { PC_MODEL, PC_CLASS, PC_ROWS, PC_ANSWERED, PC_CORRECT, PC_PREC, PC_RECALL, PC_NCOL };
static const RecCol class_cols[PC_NCOL] = {
    [PC_MODEL] = {.head = "model", .name = "model", .type = REC_TEXT, .flags = REC_C},
    [PC_CLASS] =
        {.head = "class", .name = "class", .key = "class", .type = REC_INT, .flags = REC_C},
    [PC_ROWS] = {.head = "rows", .name = "rows", .key = "rows", .type = REC_INT, .flags = REC_C},
    [PC_ANSWERED] = {.head = "answered",
                     .name = "answered",
                     .key = "answered",
                     .type = REC_INT,
                     .flags = REC_C},
    [PC_CORRECT] =
        {.head = "correct", .name = "correct", .key = "correct", .type = REC_INT, .flags = REC_C},
    [PC_PREC] = {.head = "precision",
                 .name = "precision",
                 .key = "precision",
                 .type = REC_PCT,
                 .flags = REC_C},
    [PC_RECALL] =
        {.head = "recall", .name = "recall", .key = "recall", .type = REC_PCT, .flags = REC_C},
};
static const RecKind class_kind = {.col = class_cols, .ncol = PC_NCOL};

/* The classes of nm networks m[0..nm) as records, into *s (free s->v). */
static int class_set(const EvalModel *m, int nm, RecSet *s, Err *e)
{
	int n = 0;
	for (int i = 0; i < nm; i++)
		n += m[i].ev->k;
	RecVal *v = calloc((size_t)(n > 0 ? n : 1) * PC_NCOL, sizeof *v);
	if (!v)
		return err_set(e, "out of memory for a table of %d classes", n);
	RecVal *x = v;
	for (int i = 0; i < nm; i++) {
		const Evaluation *ev = m[i].ev;
		for (int c = 0; c < ev->k; c++, x += PC_NCOL) {
			x[PC_MODEL] = (RecVal){.s = m[i].name};
			x[PC_CLASS] = rec_num(c);
			x[PC_ROWS] = rec_num((double)ev->rows[c]);
			x[PC_ANSWERED] = rec_num((double)ev->answered[c]);
			x[PC_CORRECT] = rec_num((double)ev->hits[c]);
			x[PC_PREC] = rec_num(pct(evaluation_precision(ev, c)));
			x[PC_RECALL] = rec_num(pct(evaluation_recall(ev, c)));
		}
	}
	*s = (RecSet){&class_kind, v, n, 0};
	return 0;
}

int report_eval_csv(FILE *f, const void *ud, Err *e)
{
	const EvalReport *r = ud;
	RecSet s;
	if (class_set(r->m, r->nm, &s, e))
		return -1;
	int rc = rec_table(f, &s, REPORT_CSV, e);
	free((void *)s.v);
	return rc;
}

static cJSON *long_array(const long *v, int n)
{
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; a && i < n; i++)
		if (json_push(a, cJSON_CreateNumber((double)v[i]), NULL)) {
			cJSON_Delete(a);
			return NULL;
		}
	return a;
}

cJSON *report_agreement_json(const Agreement *ag, Err *e)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || json_add(o, "rows", cJSON_CreateNumber((double)ag->n), e) ||
	    json_add(o, "same", cJSON_CreateNumber((double)ag->same), e) ||
	    json_add(o, "share", json_num(pct(ag->share)), e) ||
	    json_add(o, "differ_per_class", long_array(ag->differ, ag->k), e))
		return json_nomem(o, e);
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

/* One network's record; its classes in s's rows from first on. */
static cJSON *model_json(const EvalModel *m, const RecSet *s, int first, Err *e)
{
	char shape[512];
	const Evaluation *ev = m->ev;
	cJSON *o = cJSON_CreateObject(), *pc = NULL, *cm = NULL;
	if (!o || json_add(o, "model", cJSON_CreateString(m->name), e) ||
	    json_add(o, "kind", cJSON_CreateString(m->kind), e) ||
	    json_add(o, "shape", cJSON_CreateString(net_shape_str(m->net, shape, sizeof shape)),
	             e) ||
	    json_add(o, "inputs", cJSON_CreateString(m->prep), e) ||
	    json_add(o, "accuracy", json_num(pct(1 - ev->error)), e) ||
	    json_add(o, "loss", json_num(ev->loss), e) ||
	    json_add(o, "correct", cJSON_CreateNumber((double)ev->correct), e) ||
	    json_add(o, "no_answer", cJSON_CreateNumber((double)ev->no_answer), e) ||
	    json_add(o, "per_class", pc = cJSON_CreateArray(), e))
		return json_nomem(o, e);
	for (int c = 0; c < ev->k; c++) {
		cJSON *x = cJSON_CreateObject();
		if (json_push(pc, x, e))
			return json_nomem(o, e);
		if (rec_json_fields(x, s, first + c, e))
			return json_nomem(o, e);
	}
	if (!ev->confusion)
		return o;
	if (json_add(o, "confusion", cm = cJSON_CreateArray(), e))
		return json_nomem(o, e);
	for (int c = 0; c < ev->k; c++) {
		if (json_push(cm, long_array(ev->confusion + (size_t)c * ev->k, ev->k), e))
			return json_nomem(o, e);
	}
	return o;
}

/* {"command":"eval","data","split","rows","classes","models":[…],
 * "agreement":[…]}. */
static cJSON *eval_json(const EvalReport *r, Err *e)
{
	RecSet s;
	cJSON *root = cJSON_CreateObject(), *models = NULL, *ag = NULL;
	if (!root || class_set(r->m, r->nm, &s, e))
		return json_nomem(root, e);
	int bad = json_add(root, "command", cJSON_CreateString("eval"), e) ||
	          json_add(root, "data", cJSON_CreateString(r->data), e) ||
	          json_add(root, "split", cJSON_CreateString(r->split), e) ||
	          json_add(root, "rows", cJSON_CreateNumber(r->rows), e) ||
	          json_add(root, "classes", cJSON_CreateNumber(r->k), e) ||
	          json_add(root, "models", models = cJSON_CreateArray(), e);
	for (int i = 0, first = 0; !bad && i < r->nm; first += r->m[i++].ev->k) {
		cJSON *o = model_json(&r->m[i], &s, first, e);
		bad = !o || json_push(models, o, e);
	}
	free((void *)s.v);
	if (bad || json_add(root, "agreement", ag = cJSON_CreateArray(), e))
		return json_nomem(root, e);
	int np = r->nm * (r->nm - 1) / 2;
	for (int p = 0; p < np; p++) {
		int i, j;
		pair_of(r->nm, p, &i, &j);
		cJSON *o = report_agreement_json(&r->ag[p], e);
		if (!o || json_push(ag, o, e))
			return json_nomem(root, e);
		if (json_add(o, "a", cJSON_CreateNumber(i + 1), e) ||
		    json_add(o, "b", cJSON_CreateNumber(j + 1), e))
			return json_nomem(root, e);
	}
	return root;
}

int report_eval_write_json(const char *path, const EvalReport *r, Err *e)
{
	return report_write_record(path, eval_json(r, e), e);
}

int report_answers_csv(FILE *f, const void *ud, Err *e)
{
	const Answers *a = ud;
	(void)e;
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
	return 0;
}
