/* report_squeeze.c - a squeeze's per-layer decisions, its costs before and
 * after, and the comparison of its criteria, as tables, JSON and gnuplot
 * input. */
#include "report/report_squeeze.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_eval.h"
#include "report/report_json.h"
#include "report/report_table.h"

/* An absent value: "-" in text, empty in CSV. */
static const char *dash(ReportFormat fmt)
{
	return fmt == REPORT_CSV ? "" : "-";
}

/* ---- per-layer decisions ---- */

SqueezeLayerRow *report_squeeze_layer_rows(const Net *before, const LayerCond *lc_before,
                                           const Net *after, const LayerCond *lc_after,
                                           const Alg3 *pass, Err *e)
{
	int m = before->m;
	SqueezeLayerRow *r = calloc((size_t)m, sizeof *r);
	if (!r) {
		err_set(e, "out of memory");
		return NULL;
	}
	for (int i = 0; i < m; i++) {
		int hidden = i < m - 1, decided = hidden && !pass->o.keep_counts;
		r[i] = (SqueezeLayerRow){.layer = i + 1,
		                         .n_before = before->n[i + 1],
		                         .n_after = after->n[i + 1],
		                         .kappa = lc_before[i].kappa,
		                         .kappa_dec = hidden ? pass->kappa_dec[i] : NAN,
		                         .kappa_after = lc_after[i].kappa,
		                         .kappa_retrained = NAN,
		                         .by_threshold = decided ? pass->removed_qr[i] : -1,
		                         .by_loop =
		                             decided ? pass->removed[i] - pass->removed_qr[i] : -1};
	}
	return r;
}

void report_squeeze_layers(FILE *f, const SqueezeLayerRow *r, int n, ReportFormat fmt)
{
	int rt = 0;
	for (int i = 0; i < n; i++)
		rt |= !isnan(r[i].kappa_retrained);
	int nc = 8 + rt;
	Table t;
	if (report_table_init(&t, n + 1, nc))
		return;
	const char *csv[] = {"layer",           "n_before",          "n_after",
	                     "kappa",           "kappa_decision",    "kappa_after",
	                     "kappa_retrained", "removed_threshold", "removed_loop"};
	const char *txt[] = {"layer",   "n before",    "after",     "κ as given", "κ at decision",
	                     "κ after", "κ retrained", "by |r_jj|", "by κ loop"};
	for (int c = 0, k = 0; k < 9; k++)
		if (k != 6 || rt)
			report_table_set(&t, 0, c++, "%s", fmt == REPORT_CSV ? csv[k] : txt[k]);
	for (int i = 0; i < n; i++) {
		const SqueezeLayerRow *w = &r[i];
		int c = 0;
		report_table_set(&t, i + 1, c++, "%d", w->layer);
		report_set_count(&t, i + 1, c++, w->n_before, fmt);
		report_set_count(&t, i + 1, c++, w->n_after, fmt);
		report_set_kappa(&t, i + 1, c++, w->kappa, fmt);
		if (isnan(w->kappa_dec))
			report_table_set(&t, i + 1, c++, "%s", dash(fmt));
		else
			report_set_kappa(&t, i + 1, c++, w->kappa_dec, fmt);
		report_set_kappa(&t, i + 1, c++, w->kappa_after, fmt);
		if (rt)
			report_set_kappa(&t, i + 1, c++, w->kappa_retrained, fmt);
		for (int k = 0; k < 2; k++) {
			int v = k ? w->by_loop : w->by_threshold;
			if (v < 0)
				report_table_set(&t, i + 1, c++, "%s", dash(fmt));
			else
				report_table_set(&t, i + 1, c++, "%d", v);
		}
	}
	report_table_print(f, &t, fmt);
	free(t.cell);
}

struct cJSON *report_squeeze_layers_json(const SqueezeLayerRow *r, int n, Err *e)
{
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; a && i < n; i++) {
		cJSON *o = cJSON_CreateObject();
		if (!o)
			return report_json_nomem(a, e);
		cJSON_AddItemToArray(a, o);
		cJSON_AddNumberToObject(o, "layer", r[i].layer);
		cJSON_AddNumberToObject(o, "n_before", r[i].n_before);
		cJSON_AddNumberToObject(o, "n_after", r[i].n_after);
		cJSON_AddItemToObject(o, "kappa_before", report_json_num(r[i].kappa));
		cJSON_AddItemToObject(o, "kappa_decision", report_json_num(r[i].kappa_dec));
		cJSON_AddItemToObject(o, "kappa_after", report_json_num(r[i].kappa_after));
		if (!isnan(r[i].kappa_retrained))
			cJSON_AddItemToObject(o, "kappa_retrained",
			                      report_json_num(r[i].kappa_retrained));
		if (r[i].by_threshold >= 0) {
			cJSON_AddNumberToObject(o, "removed_threshold", r[i].by_threshold);
			cJSON_AddNumberToObject(o, "removed_loop", r[i].by_loop);
		}
	}
	return a ? a : report_json_nomem(NULL, e);
}

void report_squeeze_networks(FILE *f, const SqueezeNetRow *r, int n, ReportFormat fmt)
{
	Table t;
	if (report_table_init(&t, n + 1, 7))
		return;
	const char *csvh[] = {"network", "tau",          "criterion",    "compensated",
	                      "removed", "acc_squeezed", "acc_retrained"};
	const char *txt[] = {"network",         "τ",
	                     "criterion",       "compensation",
	                     "neurons removed", "acc. squeezed (%)",
	                     "retrained (%)"};
	for (int c = 0; c < 7; c++)
		report_table_set(&t, 0, c, "%s", fmt == REPORT_CSV ? csvh[c] : txt[c]);
	for (int i = 0; i < n; i++) {
		const SqueezeNetRow *w = &r[i];
		int csv = fmt == REPORT_CSV;
		report_table_set(&t, i + 1, 0, "%s",
		                 w->kept ? "kept"
		                 : csv   ? "other"
		                         : "other (not kept)");
		if (w->counted)
			report_table_set(&t, i + 1, 1, "%s", csv ? "" : "counts given");
		else
			report_table_set(&t, i + 1, 1, "%g", w->tau);
		report_table_set(&t, i + 1, 2, "%s", w->criterion);
		report_table_set(&t, i + 1, 3, "%s",
		                 csv ? (w->compensated ? "1" : "0")
		                     : (w->compensated ? "yes" : "no"));
		report_set_count(&t, i + 1, 4, w->removed, fmt);
		report_set_pct(&t, i + 1, 5, w->acc_squeezed, fmt);
		report_set_pct(&t, i + 1, 6, w->acc_retrained, fmt);
	}
	report_table_print(f, &t, fmt);
	free(t.cell);
}

/* ---- costs ---- */

static void cost_values(const NetCost *c, double v[5])
{
	v[0] = (double)c->params;
	v[1] = c->madds;
	v[2] = (double)c->file_bytes;
	v[3] = 1e6 * c->sec_b1;
	v[4] = 1e6 * c->sec_b256;
}

void report_costs(FILE *f, const NetCost *before, const NetCost *after, ReportFormat fmt)
{
	Table t;
	if (report_table_init(&t, 6, 4))
		return;
	const char *csv[] = {"parameters", "multiply_adds_per_sample", "model_file_bytes",
	                     "forward_us_per_sample_batch1", "forward_us_per_sample_batch256"};
	const char *txt[] = {"parameters", "multiply-adds per sample", "model file (bytes)",
	                     "forward, batch 1 (µs/sample)", "forward, batch 256 (µs/sample)"};
	const char *head[] = {"", "before", "after", "after/before"};
	const char *hcsv[] = {"what", "before", "after", "ratio"};
	for (int c = 0; c < 4; c++)
		report_table_set(&t, 0, c, "%s", fmt == REPORT_CSV ? hcsv[c] : head[c]);
	double b[5], a[5];
	cost_values(before, b);
	cost_values(after, a);
	for (int r = 0; r < 5; r++) {
		report_table_set(&t, r + 1, 0, "%s", fmt == REPORT_CSV ? csv[r] : txt[r]);
		for (int k = 0; k < 2; k++) {
			double v = k ? a[r] : b[r];
			int prec = fmt == REPORT_CSV ? 4 : 2;
			if (isnan(v))
				report_table_set(&t, r + 1, k + 1, "%s", dash(fmt));
			else if (r >= 3)
				report_table_set(&t, r + 1, k + 1, "%.*f", prec, v);
			else
				report_set_count(&t, r + 1, k + 1, v, fmt);
		}
		if (isnan(a[r] / b[r]) || b[r] == 0)
			report_table_set(&t, r + 1, 3, "%s", dash(fmt));
		else
			report_table_set(&t, r + 1, 3, "%.3f", a[r] / b[r]);
	}
	report_table_print(f, &t, fmt);
	free(t.cell);
}

struct cJSON *report_cost_json(const NetCost *c, Err *e)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return report_json_nomem(NULL, e);
	cJSON_AddNumberToObject(o, "parameters", (double)c->params);
	cJSON_AddNumberToObject(o, "multiply_adds_per_sample", c->madds);
	cJSON_AddNumberToObject(o, "model_file_bytes", (double)c->file_bytes);
	cJSON_AddItemToObject(o, "forward_seconds_per_sample_batch1", report_json_num(c->sec_b1));
	cJSON_AddItemToObject(o, "forward_seconds_per_sample_batch256",
	                      report_json_num(c->sec_b256));
	cJSON_AddNumberToObject(o, "timing_repeats", c->repeats);
	cJSON_AddNumberToObject(o, "threads", c->threads);
	return o;
}

/* ---- the comparison of criteria ---- */

static const char *const stage_key[CMP_NSTAGES] = {"squeezed", "compensated", "retrained",
                                                   "compensated_retrained"};
static const char *const stage_title[CMP_NSTAGES] = {
    "right after the squeeze", "squeezed with compensation", "squeezed, then retrained",
    "squeezed with compensation, then retrained"};

static int stage_measured(const Alg3Compare *c, int n, int s)
{
	for (int i = 0; i < n; i++)
		if (c[i].acc[s][ALG3_QR].n > 0)
			return 1;
	return 0;
}

static int sum(const int *v, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += v[i];
	return s;
}

static double fraction(const Alg3Compare *c)
{
	return c->hidden > 0 ? (double)c->removed / (double)c->hidden : NAN;
}

static void compare_removals(FILE *f, const Alg3Compare *c, int n, ReportFormat fmt)
{
	Table t;
	if (report_table_init(&t, n + 1, 8))
		return;
	const char *h[] = {"τ",         "removed",          "of hidden (%)",       "by |r_jj|",
	                   "by κ loop", "parameters after", "multiply-adds after", "seconds"};
	for (int k = 0; k < 8; k++)
		report_table_set(&t, 0, k, "%s", h[k]);
	for (int i = 0; i < n; i++) {
		const Alg3Compare *x = &c[i];
		report_table_set(&t, i + 1, 0, "%g", x->tau);
		report_set_count(&t, i + 1, 1, x->removed, fmt);
		report_table_set(&t, i + 1, 2, "%.1f", 100 * fraction(x));
		report_table_set(&t, i + 1, 3, "%d", sum(x->removed_thresh, x->m - 1));
		report_table_set(&t, i + 1, 4, "%d", sum(x->removed_loop, x->m - 1));
		report_set_count(&t, i + 1, 5, (double)x->cost_after.params, fmt);
		report_set_count(&t, i + 1, 6, x->cost_after.madds, fmt);
		report_table_set(&t, i + 1, 7, "%.1f", x->seconds);
	}
	report_table_print(f, &t, fmt);
	free(t.cell);
}

static void compare_stage(FILE *f, const Alg3Compare *c, int n, int s, ReportFormat fmt)
{
	Table t;
	if (report_table_init(&t, n + 1, 7))
		return;
	const char *h[] = {"τ",    "removed (%)",        "before",     "QR",
	                   "norm", "random (mean ± sd)", "random ≥ QR"};
	for (int k = 0; k < 7; k++)
		report_table_set(&t, 0, k, "%s", h[k]);
	for (int i = 0; i < n; i++) {
		const Alg3Compare *x = &c[i];
		const CriterionAcc *a = x->acc[s];
		report_table_set(&t, i + 1, 0, "%g", x->tau);
		report_table_set(&t, i + 1, 1, "%.1f", 100 * fraction(x));
		report_set_pct(&t, i + 1, 2, x->acc_before, fmt);
		report_set_pct(&t, i + 1, 3, a[ALG3_QR].acc, fmt);
		report_set_pct(&t, i + 1, 4, a[ALG3_NORM].acc, fmt);
		const CriterionAcc *r = &a[ALG3_RANDOM];
		if (r->n < 1)
			report_table_set(&t, i + 1, 5, "-");
		else if (isnan(r->sd))
			report_table_set(&t, i + 1, 5, "%.2f (1 draw)", r->acc);
		else
			report_table_set(&t, i + 1, 5, "%.2f ± %.2f (%d)", r->acc, r->sd, r->n);
		if (r->n < 1)
			report_table_set(&t, i + 1, 6, "-");
		else
			report_table_set(&t, i + 1, 6, "%.0f %%", 100 * x->share_ge[s]);
	}
	report_table_print(f, &t, fmt);
	free(t.cell);
}

/* CSV: one flat table, a row per τ. */
static void compare_csv(FILE *f, const Alg3Compare *c, int n)
{
	fprintf(f, "tau,removed,hidden,fraction_removed,removed_threshold,removed_loop,"
	           "parameters_after,multiply_adds_after,acc_before");
	for (int s = 0; s < CMP_NSTAGES; s++)
		fprintf(f,
		        ",%s_qr,%s_norm,%s_random_mean,%s_random_sd,%s_random_draws,"
		        "%s_random_share_ge_qr",
		        stage_key[s], stage_key[s], stage_key[s], stage_key[s], stage_key[s],
		        stage_key[s]);
	fputc('\n', f);
	for (int i = 0; i < n; i++) {
		const Alg3Compare *x = &c[i];
		int h = x->m - 1;
		fprintf(f, "%g,%d,%ld,%.6g,%d,%d,%zu,%.0f,%.6g", x->tau, x->removed, x->hidden,
		        fraction(x), sum(x->removed_thresh, h), sum(x->removed_loop, h),
		        x->cost_after.params, x->cost_after.madds, x->acc_before);
		for (int s = 0; s < CMP_NSTAGES; s++) {
			const CriterionAcc *a = x->acc[s];
			double v[6] = {a[0].acc, a[1].acc, a[2].acc,
			               a[2].sd,  a[2].n,   x->share_ge[s]};
			for (int k = 0; k < 6; k++)
				if (isnan(v[k]) || (k == 4 && a[2].n < 1))
					fputs(",", f);
				else
					fprintf(f, ",%.6g", v[k]);
		}
		fputc('\n', f);
	}
}

void report_squeeze_compare(FILE *f, const Alg3Compare *c, int n, ReportFormat fmt)
{
	if (fmt == REPORT_CSV) {
		compare_csv(f, c, n);
		return;
	}
	fprintf(f, "Neurons removed at each τ by Algorithm 3 (pivoted QR, no compensation); every "
	           "criterion below removes these very counts from every layer:\n\n");
	compare_removals(f, c, n, fmt);
	for (int s = 0; s < CMP_NSTAGES; s++) {
		if (!stage_measured(c, n, s))
			continue;
		fprintf(f, "\nAccuracy (%%) %s:\n\n", stage_title[s]);
		compare_stage(f, c, n, s, fmt);
	}
}

static cJSON *stage_json(const Alg3Compare *x, int s)
{
	cJSON *o = cJSON_CreateObject(), *r = cJSON_CreateObject(), *d = cJSON_CreateArray();
	if (!o || !r || !d) {
		cJSON_Delete(o);
		cJSON_Delete(r);
		cJSON_Delete(d);
		return NULL;
	}
	const CriterionAcc *a = x->acc[s];
	cJSON_AddItemToObject(o, "qr", report_json_num(a[ALG3_QR].acc));
	cJSON_AddItemToObject(o, "norm", report_json_num(a[ALG3_NORM].acc));
	cJSON_AddItemToObject(r, "mean", report_json_num(a[ALG3_RANDOM].acc));
	cJSON_AddItemToObject(r, "sd", report_json_num(a[ALG3_RANDOM].sd));
	cJSON_AddNumberToObject(r, "draws_measured", a[ALG3_RANDOM].n);
	cJSON_AddItemToObject(r, "share_at_least_qr", report_json_num(x->share_ge[s]));
	for (int k = 0; k < x->draws; k++)
		cJSON_AddItemToArray(d, report_json_num(x->draw_acc[s][k]));
	cJSON_AddItemToObject(r, "draws", d);
	cJSON_AddItemToObject(o, "random", r);
	return o;
}

static cJSON *compare_one(const Alg3Compare *x, Err *e)
{
	cJSON *o = cJSON_CreateObject(), *layers = cJSON_CreateArray();
	if (!o || !layers) {
		cJSON_Delete(layers);
		return report_json_nomem(o, e);
	}
	int h = x->m - 1;
	cJSON_AddNumberToObject(o, "tau", x->tau);
	cJSON_AddItemToObject(o, "n", report_json_ints(x->n, x->m + 1));
	cJSON_AddNumberToObject(o, "removed", x->removed);
	cJSON_AddNumberToObject(o, "hidden", (double)x->hidden);
	cJSON_AddItemToObject(o, "fraction_removed", report_json_num(fraction(x)));
	cJSON_AddNumberToObject(o, "removed_threshold", sum(x->removed_thresh, h));
	cJSON_AddNumberToObject(o, "removed_loop", sum(x->removed_loop, h));
	for (int i = 0; i < h; i++) {
		cJSON *l = cJSON_CreateObject();
		if (!l) {
			cJSON_Delete(layers);
			return report_json_nomem(o, e);
		}
		cJSON_AddNumberToObject(l, "layer", i + 1);
		cJSON_AddNumberToObject(l, "n_before", x->n[i + 1]);
		cJSON_AddNumberToObject(l, "keep", x->keep[i]);
		cJSON_AddNumberToObject(l, "removed_threshold", x->removed_thresh[i]);
		cJSON_AddNumberToObject(l, "removed_loop", x->removed_loop[i]);
		cJSON_AddItemToObject(l, "kappa_before", report_json_num(x->kappa[i]));
		cJSON_AddItemToObject(l, "kappa_decision", report_json_num(x->kappa_dec[i]));
		cJSON_AddItemToArray(layers, l);
	}
	cJSON_AddItemToObject(o, "layers", layers);
	cJSON_AddItemToObject(o, "keep_counts", report_json_ints(x->keep, h));
	cJSON_AddItemToObject(o, "acc_before", report_json_num(x->acc_before));
	cJSON *st = cJSON_AddObjectToObject(o, "accuracy");
	for (int s = 0; st && s < CMP_NSTAGES; s++)
		if (x->acc[s][ALG3_QR].n > 0)
			cJSON_AddItemToObject(st, stage_key[s], stage_json(x, s));
	if (x->comp_failed[0])
		cJSON_AddStringToObject(o, "compensation_failed", x->comp_failed);
	cJSON_AddItemToObject(o, "cost_before", report_cost_json(&x->cost_before, e));
	cJSON_AddItemToObject(o, "cost_after", report_cost_json(&x->cost_after, e));
	cJSON_AddNumberToObject(o, "seconds", x->seconds);
	return o;
}

struct cJSON *report_squeeze_compare_json(const Alg3Compare *c, int n, Err *e)
{
	cJSON *a = cJSON_CreateArray();
	if (!a)
		return report_json_nomem(NULL, e);
	for (int i = 0; i < n; i++) {
		cJSON *o = compare_one(&c[i], e);
		if (!o)
			return report_json_nomem(a, e);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* ---- gnuplot ---- */

void report_squeeze_compare_data(FILE *f, const Alg3Compare *c, int n)
{
	fprintf(f, "# fraction_removed tau");
	for (int s = 0; s < CMP_NSTAGES; s++)
		fprintf(f, " %s_qr %s_norm %s_random_mean %s_random_sd", stage_key[s], stage_key[s],
		        stage_key[s], stage_key[s]);
	fputc('\n', f);
	for (int i = 0; i < n; i++) {
		fprintf(f, "%.6g %g", fraction(&c[i]), c[i].tau);
		for (int s = 0; s < CMP_NSTAGES; s++) {
			const CriterionAcc *a = c[i].acc[s];
			double v[4] = {a[0].acc, a[1].acc, a[2].acc, a[2].sd};
			for (int k = 0; k < 4; k++)
				fprintf(f, isnan(v[k]) ? " ?" : " %.6g", v[k]);
		}
		fputc('\n', f);
	}
}

/* A gnuplot string literal: the text in single quotes, quotes doubled, a
 * control character (a line break would end the command) as a space. */
static void gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("''", f);
		else
			fputc(((unsigned char)*s < 0x20 || *s == 0x7f) ? ' ' : *s, f);
	fputc('\'', f);
}

void report_squeeze_compare_gnuplot(FILE *f, const Alg3Compare *c, int n, const char *data,
                                    const char *png, const char *title)
{
	int stages[CMP_NSTAGES], ns = 0;
	for (int s = 0; s < CMP_NSTAGES; s++)
		if (stage_measured(c, n, s))
			stages[ns++] = s;
	int cols = ns > 1 ? 2 : 1, rows = (ns + 1) / 2;
	fprintf(f, "# accuracy against the fraction of hidden neurons removed, by criterion\n");
	fprintf(f, "set terminal pngcairo size %d,%d font ',10'\nset output ", 560 * cols,
	        420 * (rows > 0 ? rows : 1) + 40);
	gp_string(f, png);
	fprintf(f, "\nset datafile missing '?'\nset key bottom left\nset grid\n"
	           "set xlabel 'fraction of hidden neurons removed'\n"
	           "set ylabel 'test accuracy (%%)'\nset xrange [0:*]\n");
	fprintf(f, "set multiplot layout %d,%d title ", rows > 0 ? rows : 1, cols);
	gp_string(f, title);
	fputc('\n', f);
	for (int i = 0; i < ns; i++) {
		int s = stages[i], b = 3 + 4 * s;
		fprintf(f, "set title '%s'\nplot ", stage_title[s]);
		gp_string(f, data);
		fprintf(f,
		        " using 1:%d with linespoints pt 7 lw 2 title 'QR (Algorithm 3)', \\\n"
		        "     '' using 1:%d with linespoints pt 5 lw 2 title 'norm', \\\n"
		        "     '' using 1:%d:%d with yerrorlines pt 9 lw 1 \\\n"
		        "        title 'random, mean ± sd'",
		        b, b + 1, b + 2, b + 3);
		fprintf(f, ", \\\n     %.6g with lines dt 2 lc 'gray' title 'before squeezing'\n",
		        c[0].acc_before);
	}
	fprintf(f, "unset multiplot\n");
}

void report_squeeze_decisions(FILE *f, const SqueezeDecisionRow *r, int n, ReportFormat fmt)
{
	Table t;
	if (report_table_init(&t, n + 1, 9))
		return;
	const char *csv[] = {"layer",    "n_before",       "n_after",
	                     "tau",      "kappa_decision", "kappa_after",
	                     "decision", "compensated",    "test_acc_after"};
	const char *txt[] = {"layer",    "n before",      "n after",
	                     "τ",        "κ at decision", "κ after",
	                     "decision", "compensated",   "test acc. after (%)"};
	for (int c = 0; c < 9; c++)
		report_table_set(&t, 0, c, "%s", fmt == REPORT_CSV ? csv[c] : txt[c]);
	for (int i = 0; i < n; i++) {
		const SqueezeDecisionRow *d = &r[i];
		report_table_set(&t, i + 1, 0, "%d", d->layer);
		report_set_count(&t, i + 1, 1, d->n_before, fmt);
		report_set_count(&t, i + 1, 2, d->n_after, fmt);
		report_table_set(&t, i + 1, 3, "%g", d->tau);
		report_set_kappa_tau(&t, i + 1, 4, d->kappa_dec, d->tau, fmt);
		report_set_kappa_tau(&t, i + 1, 5, d->kappa_after, d->tau, fmt);
		report_table_set(&t, i + 1, 6, "%s", d->applied ? "applied" : "refused");
		report_table_set(&t, i + 1, 7, "%s", d->compensated ? "yes" : "no");
		report_set_pct(&t, i + 1, 8, d->acc_after, fmt);
	}
	report_table_print(f, &t, fmt);
	free(t.cell);
}

/* ---- condnet squeeze's record ---- */

struct cJSON *report_squeeze_record(const SqueezeSettings *s, Err *e)
{
	const Alg3Opts *so = s->so;
	cJSON *rec = cJSON_CreateObject();
	if (!rec)
		return report_json_nomem(rec, e);
	cJSON_AddStringToObject(rec, "model", s->model);
	cJSON_AddStringToObject(rec, "shape_before", s->shape_before);
	cJSON_AddNumberToObject(rec, "tau", so->tau);
	if (s->ntau > 1)
		cJSON_AddItemToObject(rec, "taus", cJSON_CreateDoubleArray(s->taus, s->ntau));
	cJSON_AddBoolToObject(rec, "while_loop", so->while_loop);
	cJSON_AddBoolToObject(rec, "compensate", so->compensate);
	cJSON_AddStringToObject(rec, "criterion", alg3_criterion_name(so->criterion));
	if (so->criterion == ALG3_RANDOM)
		cJSON_AddNumberToObject(rec, "seed", (double)so->seed);
	if (s->keep)
		cJSON_AddItemToObject(rec, "keep_counts", report_json_ints(s->keep, s->nkeep));
	cJSON_AddNumberToObject(rec, "retrain_epochs", s->retrain_epochs);
	cJSON_AddStringToObject(rec, "retrain_schedule", s->retrain_schedule);
	cJSON_AddNumberToObject(rec, "retrain_warmup", s->retrain_warmup);
	cJSON_AddNumberToObject(rec, "retrain_early_stop", s->retrain_early_stop);
	return rec;
}

void report_squeeze_once_json(struct cJSON *rec, const SqueezeNetRow nr[2],
                              const SqueezeLayerRow *rows, int m, double acc0, int by_threshold,
                              const Agreement *ag, const TrainResult *retrained, Err *e)
{
	const SqueezeNetRow *k = &nr[0], *o = &nr[1];
	cJSON_AddItemToObject(rec, "layers", report_squeeze_layers_json(rows, m, e));
	cJSON_AddNumberToObject(rec, "removed", k->removed);
	if (!k->counted) {
		cJSON_AddNumberToObject(rec, "removed_threshold", by_threshold);
		cJSON_AddNumberToObject(rec, "removed_loop", k->removed - by_threshold);
	}
	/* the other squeeze's removals only when it was made */
	if (!o->failed || !k->compensated)
		cJSON_AddNumberToObject(rec, "removed_without_compensation",
		                        k->compensated ? o->removed : k->removed);
	if (!o->failed || k->compensated)
		cJSON_AddNumberToObject(rec, "removed_with_compensation",
		                        k->compensated ? k->removed : o->removed);
	if (!isnan(acc0)) {
		cJSON_AddNumberToObject(rec, "acc_before_squeeze", acc0);
		cJSON_AddNumberToObject(rec, "acc_squeezed", k->acc_squeezed);
		if (isfinite(k->acc_retrained))
			cJSON_AddNumberToObject(rec, "acc_retrained", k->acc_retrained);
	}
	cJSON *x = cJSON_AddObjectToObject(rec, "other_network");
	if (x) {
		cJSON_AddStringToObject(x, "what",
		                        "the same squeeze with the other compensation setting: "
		                        "a different network, not kept");
		cJSON_AddBoolToObject(x, "compensate", o->compensated);
		if (o->failed) {
			cJSON_AddStringToObject(x, "failed", o->failed);
		} else {
			cJSON_AddNumberToObject(x, "removed", o->removed);
			if (!isnan(acc0))
				cJSON_AddNumberToObject(x, "acc_squeezed", o->acc_squeezed);
		}
	}
	if (ag) {
		cJSON_AddItemToObject(rec, "agreement_squeezed", report_agreement_json(&ag[0], e));
		if (retrained)
			cJSON_AddItemToObject(rec, "agreement_retrained",
			                      report_agreement_json(&ag[2], e));
		if (x && !o->failed)
			cJSON_AddItemToObject(x, "agreement", report_agreement_json(&ag[1], e));
	}
	if (retrained) {
		cJSON_AddNumberToObject(rec, "retrain_epochs_run", retrained->epochs);
		cJSON_AddNumberToObject(rec, "retrain_best_epoch", retrained->best_epoch);
		if (!isnan(retrained->val_acc))
			cJSON_AddNumberToObject(rec, "retrain_val_accuracy",
			                        100 * retrained->val_acc);
	}
}

void report_squeeze_rounds_run_json(struct cJSON *rec, const Alg3Round *r, int n, double tau,
                                    int stable, const Agreement *ag, Err *e)
{
	cJSON_AddItemToObject(rec, "rounds", report_squeeze_rounds_json(r, n, tau, e));
	if (ag)
		cJSON_AddItemToObject(rec, "agreement", report_agreement_json(ag, e));
	if (stable >= 0)
		cJSON_AddBoolToObject(rec, "stable", stable);
}

void report_squeeze_costs_json(struct cJSON *rec, const NetCost *before, const NetCost *after,
                               Err *e)
{
	cJSON_AddItemToObject(rec, "cost_before", report_cost_json(before, e));
	cJSON_AddItemToObject(rec, "cost_after", report_cost_json(after, e));
}

int report_squeeze_compare_run_json(struct cJSON *rec, const Alg3Compare *c, int n, int draws,
                                    int retrain_draws, uint64_t seed, Err *e)
{
	cJSON *js = report_squeeze_compare_json(c, n, e);
	if (js)
		cJSON_AddItemToObject(rec, "comparisons", js);
	cJSON_AddNumberToObject(rec, "draws", draws);
	cJSON_AddNumberToObject(rec, "retrain_draws", retrain_draws);
	cJSON_AddNumberToObject(rec, "seed", (double)seed);
	return js ? 0 : -1;
}

void report_squeeze_shape_after(struct cJSON *rec, const char *shape)
{
	cJSON_AddStringToObject(rec, "shape_after", shape);
}
