/* report_compare.c - the comparison of a squeeze's criteria at each τ
 * (alg3_compare.h): the removals and one accuracy table per stage measured
 * as text, a row per τ as CSV and as gnuplot data, and condnet squeeze
 * --compare's record. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_int.h"
#include "report/report_rec.h"
#include "report/report_squeeze.h"

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

/* ---- a row per τ: the CSV and the gnuplot data ---- */

/* The columns before the stages', and each stage's. */
enum {
	CP_TAU,
	CP_REMOVED,
	CP_HIDDEN,
	CP_FRAC,
	CP_THR,
	CP_LOOP,
	CP_PARAMS,
	CP_MADDS,
	CP_BEFORE,
	CP_N0
};
enum { CS_QR, CS_NORM, CS_MEAN, CS_SD, CS_DRAWS, CS_SHARE, CS_N };
#define CP_NCOL (CP_N0 + CMP_NSTAGES * CS_N)

typedef struct CompareKind {
	RecCol col[CP_NCOL];
	char names[CMP_NSTAGES * CS_N][48];
	int data[2 + 4 * CMP_NSTAGES];
	RecKind k;
} CompareKind;

static void compare_kind(CompareKind *ck)
{
	static const RecCol head[CP_N0] = {
	    [CP_TAU] = {.name = "tau", .type = REC_NUM, .flags = REC_C, .fmt = F_G, .dfmt = F_G},
	    [CP_REMOVED] = {.name = "removed", .type = REC_INT, .flags = REC_C},
	    [CP_HIDDEN] = {.name = "hidden", .type = REC_INT, .flags = REC_C},
	    [CP_FRAC] = {.name = "fraction_removed",
	                 .type = REC_NUM,
	                 .flags = REC_C,
	                 .fmt = F_6G,
	                 .dfmt = F_6G},
	    [CP_THR] = {.name = "removed_threshold", .type = REC_INT, .flags = REC_C},
	    [CP_LOOP] = {.name = "removed_loop", .type = REC_INT, .flags = REC_C},
	    [CP_PARAMS] = {.name = "parameters_after", .type = REC_INT, .flags = REC_C},
	    [CP_MADDS] = {.name = "multiply_adds_after", .type = REC_INT, .flags = REC_C},
	    [CP_BEFORE] = {.name = "acc_before", .type = REC_NUM, .flags = REC_C, .fmt = F_6G},
	};
	static const char *const what[CS_N] = {"qr",        "norm",         "random_mean",
	                                       "random_sd", "random_draws", "random_share_ge_qr"};
	memset(ck, 0, sizeof *ck);
	memcpy(ck->col, head, sizeof head);
	int nd = 0;
	ck->data[nd++] = CP_FRAC;
	ck->data[nd++] = CP_TAU;
	for (int s = 0; s < CMP_NSTAGES; s++)
		for (int k = 0; k < CS_N; k++) {
			int c = CP_N0 + s * CS_N + k;
			snprintf(ck->names[c - CP_N0], sizeof ck->names[0], "%s_%s", stage_key[s],
			         what[k]);
			ck->col[c] = (RecCol){.name = ck->names[c - CP_N0],
			                      .type = REC_NUM,
			                      .flags = REC_C,
			                      .fmt = F_6G,
			                      .dfmt = k < CS_DRAWS ? F_6G : F_NONE,
			                      .dmiss = "?"};
			if (k < CS_DRAWS)
				ck->data[nd++] = c;
		}
	ck->k = (RecKind){.col = ck->col, .ncol = CP_NCOL, .data = ck->data, .ndata = nd};
}

static int compare_set(const CompareKind *ck, const Alg3Compare *c, int n, RecSet *s, Err *e)
{
	RecVal *v = calloc((size_t)(n > 0 ? n : 1) * CP_NCOL, sizeof *v);
	if (!v)
		return err_set(e, "out of memory for a table of %d taus", n);
	for (int i = 0; i < n; i++) {
		const Alg3Compare *x = &c[i];
		RecVal *r = v + (size_t)i * CP_NCOL;
		int h = x->m - 1;
		r[CP_TAU] = rec_num(x->tau);
		r[CP_REMOVED] = rec_num(x->removed);
		r[CP_HIDDEN] = rec_num((double)x->hidden);
		r[CP_FRAC] = rec_num(fraction(x));
		r[CP_THR] = rec_num(sum(x->removed_thresh, h));
		r[CP_LOOP] = rec_num(sum(x->removed_loop, h));
		r[CP_PARAMS] = rec_num((double)x->cost_after.params);
		r[CP_MADDS] = rec_num(x->cost_after.madds);
		r[CP_BEFORE] = rec_num(x->acc_before);
		for (int st = 0; st < CMP_NSTAGES; st++) {
			const CriterionAcc *a = x->acc[st];
			double w[CS_N] = {a[0].acc, a[1].acc, a[2].acc,
			                  a[2].sd,  a[2].n,   x->share_ge[st]};
			for (int k = 0; k < CS_N; k++)
				r[CP_N0 + st * CS_N + k] = (RecVal){
				    .v = w[k],
				    .absent = isnan(w[k]) || (k == CS_DRAWS && a[2].n < 1)};
		}
	}
	*s = (RecSet){&ck->k, v, n, 0};
	return 0;
}

int report_compare_data(FILE *f, const Alg3Compare *c, int n, Err *e)
{
	CompareKind ck;
	RecSet s;
	compare_kind(&ck);
	if (compare_set(&ck, c, n, &s, e))
		return -1;
	int rc = rec_data_head(f, &s, NULL, NULL, 0, e) || rec_data(f, &s, e) ? -1 : 0;
	free((void *)s.v);
	return rc;
}

/* ---- the text tables ---- */

static int compare_removals(FILE *f, const Alg3Compare *c, int n, ReportFormat fmt, Err *e)
{
	static const RecCol cols[] = {
	    {.head = "τ", .name = "tau", .type = REC_NUM, .flags = REC_TC, .fmt = F_G},
	    {.head = "removed", .name = "removed", .type = REC_COUNT, .flags = REC_TC},
	    {.head = "of hidden (%)",
	     .name = "of_hidden",
	     .type = REC_NUM,
	     .flags = REC_TC,
	     .fmt = F_1F},
	    {.head = "by |r_jj|", .name = "removed_threshold", .type = REC_INT, .flags = REC_TC},
	    {.head = "by κ loop", .name = "removed_loop", .type = REC_INT, .flags = REC_TC},
	    {.head = "parameters after",
	     .name = "parameters_after",
	     .type = REC_COUNT,
	     .flags = REC_TC},
	    {.head = "multiply-adds after",
	     .name = "multiply_adds_after",
	     .type = REC_COUNT,
	     .flags = REC_TC},
	    {.head = "seconds", .name = "seconds", .type = REC_NUM, .flags = REC_TC, .fmt = F_1F},
	};
	static const RecKind kind = {.col = cols, .ncol = 8};
	RecVal *v = calloc((size_t)(n > 0 ? n : 1) * 8, sizeof *v);
	if (!v)
		return err_set(e, "out of memory for a table of %d taus", n);
	for (int i = 0; i < n; i++) {
		const Alg3Compare *x = &c[i];
		RecVal *r = v + (size_t)i * 8;
		r[0] = rec_num(x->tau);
		r[1] = rec_num(x->removed);
		r[2] = rec_num(100 * fraction(x));
		r[3] = rec_num(sum(x->removed_thresh, x->m - 1));
		r[4] = rec_num(sum(x->removed_loop, x->m - 1));
		r[5] = rec_num((double)x->cost_after.params);
		r[6] = rec_num(x->cost_after.madds);
		r[7] = rec_num(x->seconds);
	}
	RecSet s = {&kind, v, n, 0};
	int rc = rec_table(f, &s, fmt, e);
	free(v);
	return rc;
}

static int compare_stage(FILE *f, const Alg3Compare *c, int n, int st, ReportFormat fmt, Err *e)
{
	static const RecCol cols[] = {
	    {.head = "τ", .name = "tau", .type = REC_NUM, .flags = REC_TC, .fmt = F_G},
	    {.head = "removed (%)",
	     .name = "removed",
	     .type = REC_NUM,
	     .flags = REC_TC,
	     .fmt = F_1F},
	    {.head = "before", .name = "before", .type = REC_PCT, .flags = REC_TC},
	    {.head = "QR", .name = "qr", .type = REC_PCT, .flags = REC_TC},
	    {.head = "norm", .name = "norm", .type = REC_PCT, .flags = REC_TC},
	    {.head = "random (mean ± sd)", .name = "random", .type = REC_TEXT, .flags = REC_TC},
	    {.head = "random ≥ QR", .name = "share", .type = REC_TEXT, .flags = REC_TC},
	};
	static const RecKind kind = {.col = cols, .ncol = 7};
	RecVal *v = calloc((size_t)(n > 0 ? n : 1) * 7, sizeof *v);
	char(*text)[2][REPORT_CELL] = calloc((size_t)(n > 0 ? n : 1), sizeof *text);
	if (!v || !text) {
		free(v);
		free(text);
		return err_set(e, "out of memory for a table of %d taus", n);
	}
	for (int i = 0; i < n; i++) {
		const Alg3Compare *x = &c[i];
		const CriterionAcc *a = x->acc[st], *rnd = &a[ALG3_RANDOM];
		RecVal *r = v + (size_t)i * 7;
		if (rnd->n < 1)
			snprintf(text[i][0], REPORT_CELL, "-");
		else if (isnan(rnd->sd))
			snprintf(text[i][0], REPORT_CELL, "%.2f (1 draw)", rnd->acc);
		else
			snprintf(text[i][0], REPORT_CELL, "%.2f ± %.2f (%d)", rnd->acc, rnd->sd,
			         rnd->n);
		if (rnd->n < 1)
			snprintf(text[i][1], REPORT_CELL, "-");
		else
			snprintf(text[i][1], REPORT_CELL, "%.0f %%", 100 * x->share_ge[st]);
		r[0] = rec_num(x->tau);
		r[1] = rec_num(100 * fraction(x));
		r[2] = rec_num(x->acc_before);
		r[3] = rec_num(a[ALG3_QR].acc);
		r[4] = rec_num(a[ALG3_NORM].acc);
		r[5] = (RecVal){.s = text[i][0]};
		r[6] = (RecVal){.s = text[i][1]};
	}
	RecSet s = {&kind, v, n, 0};
	int rc = rec_table(f, &s, fmt, e);
	free(v);
	free(text);
	return rc;
}

int report_squeeze_compare(FILE *f, const Alg3Compare *c, int n, ReportFormat fmt, Err *e)
{
	if (fmt == REPORT_CSV) {
		CompareKind ck;
		RecSet s;
		compare_kind(&ck);
		if (compare_set(&ck, c, n, &s, e))
			return -1;
		int rc = rec_table(f, &s, fmt, e);
		free((void *)s.v);
		return rc;
	}
	fprintf(f,
	        "%s removed at each τ by Algorithm 3 (pivoted QR, no compensation); every "
	        "criterion below removes these very counts from every layer:\n\n",
	        n > 0 && c[0].nconv ? "Channels and neurons" : "Neurons");
	if (compare_removals(f, c, n, fmt, e))
		return -1;
	for (int s = 0; s < CMP_NSTAGES; s++) {
		if (!stage_measured(c, n, s))
			continue;
		fprintf(f, "\nAccuracy (%%) %s:\n\n", stage_title[s]);
		if (compare_stage(f, c, n, s, fmt, e))
			return -1;
	}
	return 0;
}

/* The stages measured (their number), for the plot's panels; and a stage's
 * title. */
int report_compare_stages(const Alg3Compare *c, int n, int stages[CMP_NSTAGES])
{
	int ns = 0;
	for (int s = 0; s < CMP_NSTAGES; s++)
		if (stage_measured(c, n, s))
			stages[ns++] = s;
	return ns;
}

const char *report_compare_stage_title(int s)
{
	return stage_title[s];
}

/* ---- the record ---- */

static cJSON *stage_json(const Alg3Compare *x, int s, Err *e)
{
	cJSON *o = cJSON_CreateObject(), *r = cJSON_CreateObject(), *d = NULL;
	if (!o || json_add(o, "random", r, e))
		return json_nomem(o, e);
	const CriterionAcc *a = x->acc[s];
	double *draws = x->draw_acc[s];
	if (json_add(o, "qr", json_num(a[ALG3_QR].acc), e) ||
	    json_add(o, "norm", json_num(a[ALG3_NORM].acc), e) ||
	    json_add(r, "mean", json_num(a[ALG3_RANDOM].acc), e) ||
	    json_add(r, "sd", json_num(a[ALG3_RANDOM].sd), e) ||
	    json_add(r, "draws_measured", cJSON_CreateNumber(a[ALG3_RANDOM].n), e) ||
	    json_add(r, "share_at_least_qr", json_num(x->share_ge[s]), e) ||
	    !(d = json_nums(draws, x->draws)) || json_add(r, "draws", d, e))
		return json_nomem(o, e);
	/* "random" last among o's keys, as it was always written */
	cJSON_DetachItemViaPointer(o, r);
	return json_add(o, "random", r, e) ? json_nomem(o, e) : o;
}

static cJSON *compare_one(const Alg3Compare *x, Err *e)
{
	cJSON *o = cJSON_CreateObject(), *layers = cJSON_CreateArray(), *st = NULL;
	if (!o || !layers) {
		cJSON_Delete(layers);
		return json_nomem(o, e);
	}
	int h = x->m - 1;
	for (int i = 0; i < h; i++) {
		cJSON *l = cJSON_CreateObject();
		if (json_push(layers, l, e) || json_add(l, "layer", cJSON_CreateNumber(i + 1), e) ||
		    json_add(l, "n_before", cJSON_CreateNumber(x->n[i + 1]), e) ||
		    json_add(l, "keep", cJSON_CreateNumber(x->keep[i]), e) ||
		    json_add(l, "removed_threshold", cJSON_CreateNumber(x->removed_thresh[i]), e) ||
		    json_add(l, "removed_loop", cJSON_CreateNumber(x->removed_loop[i]), e) ||
		    json_add(l, "kappa_before", json_num(x->kappa[i]), e) ||
		    json_add(l, "kappa_decision", json_num(x->kappa_dec[i]), e)) {
			cJSON_Delete(layers);
			return json_nomem(o, e);
		}
	}
	int bad =
	    json_add(o, "tau", cJSON_CreateNumber(x->tau), e) ||
	    json_add(o, "n", json_ints(x->n, x->m + 1), e) ||
	    json_add(o, "removed", cJSON_CreateNumber(x->removed), e) ||
	    json_add(o, "hidden", cJSON_CreateNumber((double)x->hidden), e) ||
	    json_add(o, "fraction_removed", json_num(fraction(x)), e) ||
	    json_add(o, "removed_threshold", cJSON_CreateNumber(sum(x->removed_thresh, h)), e) ||
	    json_add(o, "removed_loop", cJSON_CreateNumber(sum(x->removed_loop, h)), e) ||
	    json_add(o, "layers", layers, e) ||
	    json_add(o, "keep_counts", json_ints(x->keep, h), e) ||
	    json_add(o, "acc_before", json_num(x->acc_before), e) ||
	    json_add(o, "accuracy", st = cJSON_CreateObject(), e);
	for (int s = 0; !bad && s < CMP_NSTAGES; s++)
		if (x->acc[s][ALG3_QR].n > 0)
			bad = json_add(st, stage_key[s], stage_json(x, s, e), e);
	if (!bad && x->comp_failed[0])
		bad = json_add(o, "compensation_failed", cJSON_CreateString(x->comp_failed), e);
	if (!bad)
		bad = json_add(o, "cost_before", report_cost_json(&x->cost_before, e), e) ||
		      json_add(o, "cost_after", report_cost_json(&x->cost_after, e), e) ||
		      json_add(o, "seconds", cJSON_CreateNumber(x->seconds), e);
	return bad ? json_nomem(o, e) : o;
}

int report_squeeze_compare_run_json(struct cJSON *rec, const Alg3Compare *c, int n, int draws,
                                    int retrain_draws, uint64_t seed, Err *e)
{
	cJSON *a = cJSON_CreateArray();
	if (json_add(rec, "comparisons", a, e))
		return -1;
	for (int i = 0; i < n; i++) {
		cJSON *o = compare_one(&c[i], e);
		if (!o || json_push(a, o, e))
			return -1;
	}
	return json_add(rec, "draws", cJSON_CreateNumber(draws), e) ||
	               json_add(rec, "retrain_draws", cJSON_CreateNumber(retrain_draws), e) ||
	               json_add(rec, "seed", cJSON_CreateNumber((double)seed), e)
	           ? -1
	           : 0;
}
