/* report_paper.c - the tables of the paper's reports, each a record kind
 * (see report_paper.h), and the list of the figures that differ. */
#include "report/report_paper.h"

#include <stdlib.h>
#include <string.h>

#include "report/report_rec.h"

#define T (REC_T)
#define OPT (REC_T | REC_OPT)

/* Columns of the reports: a whole number, a κ (thousands, ∞), a figure of
 * d decimals; "—" for a figure not known. */
#define INT_COL(h)                                                                                 \
	{                                                                                          \
		.head = h, .type = REC_INT, .flags = T, .none = "—"                              \
	}
#define BIG_COL(h, fl)                                                                             \
	{                                                                                          \
		.head = h, .type = REC_BIG, .flags = fl, .none = "—"                             \
	}
#define NUM_COL(h, f, fl)                                                                          \
	{                                                                                          \
		.head = h, .type = REC_NUM, .flags = fl, .fmt = f, .none = "—"                   \
	}

/* Writes nrow records of kind k (values v) as the reports' Markdown; frees v. */
static int put(FILE *f, const RecCol *col, int ncol, RecVal *v, int nrow, Err *e)
{
	if (!v)
		return err_set(e, "out of memory for a table of the report");
	const RecKind k = {.col = col, .ncol = ncol};
	const RecSet s = {.k = &k, .v = v, .nrow = nrow};
	int rc = rec_table(f, &s, REPORT_MD_ROWS, e);
	free(v);
	return rc;
}

static RecVal *rows(int nrow, int ncol)
{
	return calloc((size_t)(nrow > 0 ? nrow : 1) * (size_t)ncol, sizeof(RecVal));
}

int report_paper_alg1(FILE *f, const ReportPaperAlg1 *r, int n, int with_n0, Err *e)
{
	static const RecCol t1[] = {INT_COL("layer"),        INT_COL("initial n"),
	                            BIG_COL("initial κ", T), BIG_COL("κ (paper)", T),
	                            BIG_COL("final n", T),   BIG_COL("n (paper)", T),
	                            BIG_COL("final κ", T),   BIG_COL("κ (paper)", T)};
	static const RecCol t4[] = {INT_COL("layer"),      BIG_COL("initial κ", T),
	                            BIG_COL("(paper)", T), BIG_COL("final n", T),
	                            BIG_COL("(paper)", T), BIG_COL("final κ", T),
	                            BIG_COL("(paper)", T)};
	int nc = with_n0 ? 8 : 7;
	RecVal *v = rows(n, nc);
	for (int i = 0; v && i < n; i++) {
		RecVal *x = v + (size_t)i * (size_t)nc;
		const ReportPaperAlg1 *a = &r[i];
		int c = 0;
		x[c++] = rec_num(i + 1);
		if (with_n0)
			x[c++] = rec_num(a->n0);
		const double y[6] = {a->k0, a->k0_paper, a->n1, a->n1_paper, a->k1, a->k1_paper};
		for (int j = 0; j < 6; j++)
			x[c++] = rec_known(y[j]);
	}
	return put(f, with_n0 ? t1 : t4, nc, v, n, e);
}

int report_paper_betas(FILE *f, const ReportPaperBeta *r, int n, Err *e)
{
	static const RecCol cols[] = {
	    {.head = "β", .type = REC_NUM, .flags = T, .fmt = F_1F, .mark = " ◀"},
	    NUM_COL("ε_tr", F_2F, T),
	    NUM_COL("(paper)", F_2F, OPT),
	    NUM_COL("ε_v", F_2F, T),
	    NUM_COL("(paper)", F_2F, OPT),
	    NUM_COL("2ε_v − ε_tr", F_2F, T),
	    NUM_COL("(paper)", F_2F, OPT)};
	RecVal *v = rows(n, 7);
	for (int i = 0; v && i < n; i++) {
		RecVal *x = v + (size_t)i * 7;
		x[0] = rec_num(r[i].beta);
		x[0].bold = (unsigned char)(r[i].pick != 0);
		const double y[6] = {r[i].err_tr,      r[i].err_tr_paper, r[i].err_v,
		                     r[i].err_v_paper, r[i].score,        r[i].score_paper};
		for (int j = 0; j < 6; j++)
			x[j + 1] = rec_known(y[j]);
	}
	return put(f, cols, 7, v, n, e);
}

int report_paper_errors(FILE *f, const ReportPaperError *r, int n, Err *e)
{
	static const RecCol cols[] = {NUM_COL("β", F_1F, T), NUM_COL("test error", F_2F, T),
	                              NUM_COL("(paper)", F_2F, T)};
	RecVal *v = rows(n, 3);
	for (int i = 0; v && i < n; i++) {
		v[3 * i] = rec_num(r[i].beta);
		v[3 * i + 1] = rec_known(r[i].err);
		v[3 * i + 2] = rec_known(r[i].err_paper);
	}
	return put(f, cols, 3, v, n, e);
}

int report_paper_layers(FILE *f, const ReportPaperLayer *r, int n, Err *e)
{
	static const RecCol cols[] = {INT_COL("layer"), BIG_COL("n", T), BIG_COL("(paper)", T),
	                              BIG_COL("κ", T), BIG_COL("(paper)", T)};
	RecVal *v = rows(n, 5);
	for (int i = 0; v && i < n; i++) {
		RecVal *x = v + (size_t)i * 5;
		x[0] = rec_num(i + 1);
		x[1] = rec_known(r[i].n);
		x[2] = rec_known(r[i].n_paper);
		x[3] = rec_known(r[i].kappa);
		x[4] = rec_known(r[i].kappa_paper);
	}
	return put(f, cols, 5, v, n, e);
}

int report_paper_squeeze(FILE *f, const ReportPaperSqueeze *r, int n, Err *e)
{
	static const RecCol cols[] = {
	    NUM_COL("τ", F_G, T),
	    NUM_COL("removed", F_0F, T),
	    NUM_COL("(paper)", F_0F, T),
	    NUM_COL("accuracy before retraining", F_2F, T),
	    NUM_COL("(paper)", F_2F, T),
	    NUM_COL("after", F_2F, T),
	    NUM_COL("(paper)", F_2F, T),
	    {.head = "epochs (kept)", .type = REC_BESIDE, .flags = OPT, .fmt = F_0F}};
	RecVal *v = rows(n, 8);
	for (int i = 0; v && i < n; i++) {
		RecVal *x = v + (size_t)i * 8;
		const ReportPaperSqueeze *q = &r[i];
		x[0] = rec_num(q->tau);
		const double y[6] = {q->removed,      q->removed_paper, q->before,
		                     q->before_paper, q->after,         q->after_paper};
		for (int j = 0; j < 6; j++)
			x[j + 1] = rec_known(y[j]);
		x[7] = rec_beside(q->epochs, q->kept);
	}
	return put(f, cols, 8, v, n, e);
}

int report_paper_pick(FILE *f, const ReportPaperPick *here, const ReportPaperPick *paper, Err *e)
{
	static const RecCol cols[] = {
	    {.type = REC_TEXT, .flags = T},
	    NUM_COL("test accuracy (%)", F_2F, T),
	    NUM_COL("training accuracy (%)", F_2F, OPT),
	    NUM_COL("validation accuracy (%)", F_2F, OPT),
	    {.head = "epochs run (the best kept)",
	     .type = REC_BESIDE,
	     .flags = OPT,
	     .fmt = F_0F,
	     .none = "—"},
	    NUM_COL("epochs (to 100 % training accuracy, at most 30)", F_0F, OPT)};
	static const RecKind kind = {.col = cols, .ncol = 6, .heads_left = 1};
	RecVal v[2][6];
	const ReportPaperPick *p[2] = {here, paper};
	for (int i = 0; i < 2; i++) {
		v[i][0] = (RecVal){.s = i ? "paper" : "here"};
		v[i][1] = rec_known(p[i]->test_acc);
		v[i][2] = rec_known(p[i]->train_acc);
		v[i][3] = rec_known(p[i]->val_acc);
		v[i][4] = rec_beside(p[i]->epochs, p[i]->kept);
		v[i][5] = rec_known(p[i]->epochs_full);
	}
	const RecSet s = {.k = &kind, .v = &v[0][0], .nrow = 2};
	return rec_across(f, &s, 0, "", "", 0, REPORT_MD_ROWS, e);
}

/* The columns of the η table: the layer, its width, and for each η its κ
 * and p beside the paper's (heads made for each η, kept in heads). */
static RecCol *eta_cols(const ReportPaperEta *t, char (*heads)[32])
{
	RecCol *c = calloc((size_t)(2 + 4 * t->ng), sizeof *c);
	if (!c)
		return NULL;
	c[0] = (RecCol)INT_COL("layer");
	c[1] = (RecCol)INT_COL("n");
	for (int g = 0; g < t->ng; g++) {
		snprintf(heads[g], sizeof heads[g], "κ (η=%g)", t->eta[g]);
		c[2 + 4 * g] = (RecCol)BIG_COL(heads[g], T);
		c[3 + 4 * g] = (RecCol)BIG_COL("(paper)", T);
		c[4 + 4 * g] = (RecCol)NUM_COL("p", F_0F, T);
		c[5 + 4 * g] = (RecCol)NUM_COL("(paper)", F_0F, T);
	}
	return c;
}

int report_paper_eta(FILE *f, const ReportPaperEta *t, Err *e)
{
	int nc = 2 + 4 * t->ng;
	char(*heads)[32] = calloc((size_t)(t->ng > 0 ? t->ng : 1), sizeof *heads);
	RecCol *cols = heads ? eta_cols(t, heads) : NULL;
	RecVal *v = cols ? rows(t->m, nc) : NULL;
	for (int i = 0; v && i < t->m; i++) {
		RecVal *x = v + (size_t)i * (size_t)nc;
		x[0] = rec_num(i + 1);
		x[1] = rec_num(t->n[i]);
		for (int g = 0; g < t->ng; g++) {
			size_t k = (size_t)i * (size_t)t->ng + (size_t)g;
			x[2 + 4 * g] = rec_known(t->kappa[k]);
			x[3 + 4 * g] = rec_known(t->kappa_paper[k]);
			x[4 + 4 * g] = rec_known(t->p[k]);
			x[5 + 4 * g] = rec_known(t->p_paper[k]);
		}
	}
	int rc = put(f, cols, nc, v, t->m, e);
	free(cols);
	free(heads);
	return rc;
}

int report_paper_history(FILE *f, const ReportPaperHistory *t, Err *e)
{
	static const RecCol cols[] = {
	    {.type = REC_INT, .flags = T, .none = "paper's output"},
	    {.type = REC_ARRAY, .flags = T},
	    {.head = "max κ", .type = REC_BESIDE, .flags = T, .fmt = F_1F, .none = ""},
	    {.head = "Σ n", .type = REC_NUM, .flags = T, .fmt = F_0F, .none = ""}};
	static const RecKind kind = {.col = cols, .ncol = 4};
	RecVal *v = rows(t->ni + 1, 4);
	for (int k = 0; v && k < t->ni; k++) {
		RecVal *x = v + (size_t)k * 4;
		x[0] = rec_num(t->iter[k]);
		x[1] = (RecVal){.a = t->widths + (size_t)k * (size_t)t->m, .na = t->m};
		x[2] = rec_beside(t->max_kappa[k], t->max_kappa_paper[k]);
		x[3] = rec_num(t->sum_n[k]);
	}
	if (v) { /* the paper's output widths, a column of their own */
		RecVal *x = v + (size_t)t->ni * 4;
		x[0] = x[2] = x[3] = rec_absent();
		x[1] = (RecVal){.a = t->paper_final, .na = t->m};
	}
	if (!v)
		return err_set(e, "out of memory for a table of the report");
	const RecSet s = {.k = &kind, .v = v, .nrow = t->ni + 1};
	int rc = rec_across(f, &s, 0, "layer", "layer", t->m, REPORT_MD_ROWS, e);
	free(v);
	return rc;
}

int report_paper_rounds(FILE *f, const ReportPaperRound *r, int n, int converge, Err *e)
{
	static const RecCol cols[] = {
	    INT_COL("iteration"),
	    {.head = "hidden widths", .type = REC_LIST, .flags = T | REC_LEFT},
	    NUM_COL("accuracy", F_2F, T),
	    NUM_COL("(paper)", F_2F, T),
	    {.head = "epochs (kept)", .type = REC_BESIDE, .flags = T, .fmt = F_0F, .none = ""}};
	int nc = converge ? 5 : 4;
	RecVal *v = rows(n, nc);
	for (int k = 0; v && k < n; k++) {
		RecVal *x = v + (size_t)k * (size_t)nc;
		x[0] = rec_num(k);
		x[1] = (RecVal){.a = r[k].widths, .na = r[k].nw};
		x[2] = rec_known(r[k].acc);
		x[3] = rec_known(r[k].acc_paper);
		if (converge)
			x[4] = k ? rec_beside(r[k].epochs, r[k].kept) : rec_absent();
	}
	return put(f, cols, nc, v, n, e);
}

int report_paper_stages(FILE *f, const ReportPaperStage *r, int n, Err *e)
{
	static const RecCol cols[] = {
	    {.head = "stage", .type = REC_TEXT, .flags = T | REC_LEFT},
	    {.head = "what", .type = REC_TEXT, .flags = T | REC_LEFT},
	    {.head = "seconds", .type = REC_BESIDE, .flags = T, .fmt = F_1F}};
	RecVal *v = rows(n, 3);
	for (int i = 0; v && i < n; i++) {
		v[3 * i] = (RecVal){.s = r[i].name};
		v[3 * i + 1] = (RecVal){.s = r[i].what};
		v[3 * i + 2] = (RecVal){.v = r[i].seconds,
		                        .aux = NAN,
		                        .s = r[i].note && r[i].note[0] ? r[i].note : NULL};
	}
	return put(f, cols, 3, v, n, e);
}

int report_paper_diffs(FILE *f, const ReportPaperDiff *d, int n, const char *why, Err *e)
{
	fputs("\n## Differences of more than 0.3 percentage points\n\n", f);
	for (int i = 0; i < n; i++)
		fprintf(f, "- %s: %.2f here, %.2f in the paper (%+.2f points%s%s%s)\n", d[i].what,
		        d[i].ours, d[i].paper, d[i].ours - d[i].paper,
		        why[0] ? "; [where it comes from](" : "", why, why[0] ? ")" : "");
	fputs(n ? "\n" : "None.\n\n", f);
	return ferror(f) ? err_set(e, "the report could not be written") : 0;
}
