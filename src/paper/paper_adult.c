/* paper_adult.c - the paper's Adult Income experiments (Sections 5.2 and
 * 5.4): Algorithm 1 from 12×50 (Table 4), Algorithm 2 (Figure 4, Table 5),
 * squeezing the pick (Tables 10-11) and an oversized 12×100 network (Tables
 * 12-13), with the report that sets them beside the paper's figures. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "paper/paper_stage.h"
#include "report/report_stage.h"

/* The paper does not say how long "fully trained" is for Adult; we train
 * this many epochs (batch 20), the length of its longest retraining. */
#define FULL_EPOCHS(p) ((p)->o.quick ? 2 : 10)

static int st_alg1(Paper *p, cJSON *out, Err *e)
{
	int h[12];
	for (int i = 0; i < 12; i++)
		h[i] = paper_scaled(p, 50);
	return paper_alg1(p, h, 12, 40, 3, 1, 100, "alg1.model", out, e);
}

/* The paper gives no η for Adult's Algorithm 2; we keep Algorithm 1's η = 3. */
static int st_alg2(Paper *p, cJSON *out, Err *e)
{
	return paper_sweep(p, p->o.quick ? "0.6:1.0:0.2" : "0.6:2.0:0.2", 5, 3, out, e);
}

static int st_final(Paper *p, cJSON *out, Err *e)
{
	return paper_final(p, FULL_EPOCHS(p), out, e);
}

static int st_verify(Paper *p, cJSON *out, Err *e)
{
	return paper_verify(p, FULL_EPOCHS(p), out, e);
}

static int st_squeeze(Paper *p, cJSON *out, Err *e)
{
	static const double taus[] = {35, 30, 25};
	return paper_squeeze_final(p, taus, 3, p->o.quick ? 1 : 5, 0, NULL, out, e);
}

static int st_over(Paper *p, cJSON *out, Err *e)
{
	static const double taus[] = {100, 50, 40, 35, 30, 20, 10};
	int retrain = p->o.quick ? 1 : 10;
	int h[12];
	for (int i = 0; i < 12; i++)
		h[i] = paper_scaled(p, 100);
	Net *net = paper_net(p, h, 12, rng_derive(p->o.seed, 100), e);
	TrainResult tr;
	int rc = net ? paper_fit(p, net, FULL_EPOCHS(p), 0, &tr, e) : -1;
	if (rc == 0) {
		if (p->o.converge)
			rc = report_stage_trained(out, &tr, e);
		if (rc == 0)
			rc = paper_stage_acc(p, net, out, e);
	}
	if (rc == 0)
		rc = paper_squeeze_list(p, net, taus, 7, retrain, 0, NULL, out, e);
	/* Table 13: squeeze at τ = 35 and retrain, until nothing is removed. */
	cJSON *it = rc == 0 ? report_stage_rows(out, "iterations", e) : NULL;
	if (it)
		return paper_squeeze_rounds(p, net, 35, retrain, it, e);
	if (rc == 0)
		rc = -1;
	net_free(net);
	return rc;
}

const Stage paper_adult_stages[] = {
    {"alg1", "Table 4", st_alg1, ""},
    {"alg2", "Figure 4", st_alg2, "alg1"},
    {"final", "full training of the pick", st_final, "alg2"},
    {"verify", "Table 5", st_verify, "alg2"},
    {"squeeze", "Tables 10 and 11", st_squeeze, "final"},
    {"over", "Tables 12 and 13", st_over, ""},
    {NULL, NULL, NULL, NULL},
};

/* The paper's numbers. */
static const double t4_init_k[13] = {9, 654, 658, 583, 230, 224, 159, 912, 136, 377, 74, 110, 1};
static const double t4_fin_n[13] = {44, 39, 32, 22, 20, 15, 12, 8, 5, 4, 8, 6, 2};
static const double t4_fin_k[13] = {7, 37, 31, 13, 30, 13, 20, 20, 14, 7, 16, 18, 3};
static const double t5[8] = {14.34, 14.19, 14.22, 14.16, 13.95, 14.14, 14.19, 14.32};
static const double t10[3][4] = {
    {35, 20, 84.76, 86.11}, {30, 46, 78.23, 86.09}, {25, 77, 76.38, 86.03}};
static const double t11_n[13] = {53, 48, 40, 30, 26, 21, 16, 11, 7, 5, 11, 8, 2};
static const double t11_k[13] = {35, 19, 27, 24, 33, 20, 30, 12, 12, 14, 14, 24, 2};
static const double t12[7][4] = {{100, 29, 82.65, 85.25}, {50, 86, 82.09, 85.54},
                                 {40, 95, 80.73, 85.63},  {35, 104, 80.92, 85.69},
                                 {30, 120, 79.76, 85.62}, {20, 166, 76.99, 85.45},
                                 {10, 315, 76.38, 85.57}};
static const double t13_acc[5] = {85.3, 85.68, 85.70, 85.73, 85.81};

static const cJSON *item(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

static int nomem(Err *e)
{
	return err_set(e, "out of memory for a table of the report");
}

static int table4(const cJSON *a1, Md *md, Err *e)
{
	const cJSON *recs = item(a1, "history");
	const cJSON *first = cJSON_GetArrayItem(recs, 0);
	const cJSON *fin = cJSON_GetArrayItem(recs, cJSON_GetArraySize(recs) - 1);
	fprintf(md->f,
	        "## Table 4 — Algorithm 1 from 12 × 50 (τ = 40, η = 3, batch 20, no "
	        "rounding)\n\n%d iterations, %s.\n\n",
	        cJSON_GetArraySize(recs) - 1, cJSON_GetStringValue(item(a1, "status")));
	int m = paper_json_layers(first), n = m < 13 ? m : 13;
	ReportPaperAlg1 *t = calloc((size_t)(n > 0 ? n : 1), sizeof *t);
	if (!t)
		return nomem(e);
	for (int i = 0; i < n; i++)
		t[i] = (ReportPaperAlg1){NAN,          paper_json_at(first, "kappa", i),
		                         t4_init_k[i], paper_json_width(fin, i),
		                         t4_fin_n[i],  paper_json_at(fin, "kappa", i),
		                         t4_fin_k[i]};
	int rc = report_paper_alg1(md->f, t, n, 0, e);
	free(t);
	fputc('\n', md->f);
	return rc;
}

/* Figure 4: the sweep's βs, the paper giving a plot and no figures. */
static int figure4(const cJSON *a2, Md *md, Err *e)
{
	fprintf(md->f,
	        "## Figure 4 — Algorithm 2 (q = %.0f, η = %.0f, 10 %% validation; errors in "
	        "%%)\n\n",
	        paper_json_num(a2, "q"), paper_json_num(a2, "eta"));
	const cJSON *betas = item(a2, "betas"), *b;
	ReportPaperBeta *t = calloc((size_t)(cJSON_GetArraySize(betas) + 1), sizeof *t);
	int n = 0;
	if (!t)
		return nomem(e);
	cJSON_ArrayForEach(b, betas)
	{
		double beta = paper_json_num(b, "beta");
		t[n++] = (ReportPaperBeta){beta,
		                           fabs(beta - paper_json_num(a2, "pick")) < 1e-9,
		                           paper_json_num(b, "err_tr"),
		                           NAN,
		                           paper_json_num(b, "err_v"),
		                           NAN,
		                           paper_json_num(b, "score"),
		                           NAN};
	}
	int rc = report_paper_betas(md->f, t, n, e);
	free(t);
	fprintf(md->f, "\nPick: β = %.1f here, β = 1.4 in the paper.\n\n",
	        paper_json_num(a2, "pick"));
	return rc;
}

static int final_pick(const cJSON *r, Md *md, Err *e)
{
	if (md->converge)
		fprintf(md->f,
		        "## The pick (β = %.1f) trained to convergence (%.0f epochs, epoch "
		        "%.0f kept, validation accuracy %.2f %%)\n\n",
		        paper_json_num(r, "beta"), paper_json_num(r, "epochs"),
		        paper_json_num(r, "best_epoch"), paper_json_num(r, "val_acc"));
	else
		fprintf(md->f, "## Full training of the pick (β = %.1f, %.0f epochs)\n\n",
		        paper_json_num(r, "beta"), paper_json_num(r, "epochs"));
	ReportPaperPick here = {paper_json_num(r, "test_acc"), NAN, NAN, NAN, NAN, NAN},
	                paper = {86.05, NAN, NAN, NAN, NAN, NAN};
	if (md_flag(md, "test accuracy of the pick", here.test_acc, paper.test_acc, e) ||
	    report_paper_pick(md->f, &here, &paper, e))
		return -1;
	fputc('\n', md->f);
	return 0;
}

/* Tables 10 and 11: the pick squeezed, and the model squeezed at τ = 35. */
static int squeeze_pick(const cJSON *r, Md *md, Err *e)
{
	fprintf(md->f,
	        "## Table 10 — squeezing the pick (accuracy %.2f %%; paper 86.05 %%), %s\n\n",
	        paper_json_num(r, "acc"), md_retrained(md, "5 retraining epochs"));
	if (md_squeeze_rows(md, item(r, "rows"), t10, 3, "Table 10", e))
		return -1;
	const cJSON *r35 = cJSON_GetArrayItem(item(r, "rows"), 0);
	if (!r35)
		return 0;
	const cJSON *net = item(r35, "net");
	fprintf(md->f, "## Table 11 — the model squeezed at τ = 35 and retrained\n\n");
	int m = paper_json_layers(net), n = m < 13 ? m : 13;
	ReportPaperLayer *t = calloc((size_t)(n > 0 ? n : 1), sizeof *t);
	if (!t)
		return nomem(e);
	for (int i = 0; i < n; i++)
		t[i] = (ReportPaperLayer){paper_json_width(net, i), t11_n[i],
		                          paper_json_at(net, "kappa", i), t11_k[i]};
	int rc = report_paper_layers(md->f, t, n, e);
	free(t);
	fputc('\n', md->f);
	return rc;
}

/* Table 13: squeeze at τ = 35 and retrain, until nothing is removed. */
static int table13(const cJSON *it, Md *md, Err *e)
{
	int n = cJSON_GetArraySize(it), k = 0;
	fprintf(md->f, "## Table 13 — squeeze at τ = 35 and retrain, repeated until nothing is "
	               "removed\n\n");
	ReportPaperRound *t = calloc((size_t)(n > 0 ? n : 1), sizeof *t);
	double *w = calloc((size_t)(n > 0 ? n : 1) * 64, sizeof *w);
	const cJSON *x;
	int rc = !t || !w ? nomem(e) : 0;
	cJSON_ArrayForEach(x, it)
	{
		if (rc)
			break;
		const cJSON *net = paper_json_row_net(x);
		int m = paper_json_layers(net), nw = m > 1 ? (m - 1 < 64 ? m - 1 : 64) : 0;
		for (int i = 0; i < nw; i++)
			w[(size_t)k * 64 + (size_t)i] = paper_json_width(net, i);
		t[k] = (ReportPaperRound){w + (size_t)k * 64,
		                          nw,
		                          paper_json_num(x, "acc_after"),
		                          k < 5 ? t13_acc[k] : NAN,
		                          paper_json_num(x, "epochs"),
		                          paper_json_num(x, "best_epoch")};
		k++;
	}
	if (rc == 0)
		rc = report_paper_rounds(md->f, t, k, md->converge, e);
	free(t);
	free(w);
	fputc('\n', md->f);
	return rc;
}

/* Tables 12 and 13: an oversized network squeezed. */
static int squeeze_over(const cJSON *r, Md *md, Err *e)
{
	fprintf(md->f,
	        "## Table 12 — squeezing an oversized 12 × 100 network (accuracy %.2f %%; "
	        "paper 85.28 %%",
	        paper_json_num(r, "acc"));
	md_epochs(md, r);
	fprintf(md->f, "), %s\n\n", md_retrained(md, "10 retraining epochs"));
	if (md_flag(md, "12 × 100 accuracy", paper_json_num(r, "acc"), 85.28, e) ||
	    md_squeeze_rows(md, item(r, "rows"), t12, 7, "Table 12", e))
		return -1;
	return table13(item(r, "iterations"), md, e);
}

int paper_adult_report(const Paper *p, Md *md, Err *e)
{
	const cJSON *r;
	if (md_head(p, md, "Adult Income: condnet beside the paper", e))
		return -1;
	if ((r = paper_result(p, "alg1")) && table4(r, md, e))
		return -1;
	if ((r = paper_result(p, "alg2")) && figure4(r, md, e))
		return -1;
	if ((r = paper_result(p, "final")) && final_pick(r, md, e))
		return -1;
	if ((r = paper_result(p, "verify")) && md_test_errors(md, r, t5, 0.6, "Table 5", e))
		return -1;
	if ((r = paper_result(p, "squeeze")) && squeeze_pick(r, md, e))
		return -1;
	if ((r = paper_result(p, "over")) && squeeze_over(r, md, e))
		return -1;
	return md_flags(md, e);
}
