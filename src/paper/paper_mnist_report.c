/* paper_mnist_report.c - the MNIST report: each of the paper's MNIST tables
 * with condnet's figures beside the paper's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "paper/paper_stage.h"

/* The paper's numbers (Yousefzadeh & O'Leary, Section 5). */
static const double t1_init_k[13] = {10,  649, 301,  2652, 275, 583, 946,
                                     268, 433, 1269, 398,  673, 2};
static const double t1_fin_n[13] = {300, 205, 255, 210, 250, 210, 180, 150, 120, 95, 65, 25, 10};
static const double t1_fin_k[13] = {9, 10, 15, 20, 22, 23, 24, 24, 17, 14, 11, 4, 4};
static const double t2_tr[8] = {9.29, 7.69, 6.36, 5.55, 4.49, 3.96, 3.74, 3.24};
static const double t2_v[8] = {9.81, 8.22, 7.02, 6.23, 5.29, 4.73, 4.70, 4.51};
static const double t2_s[8] = {10.34, 8.76, 7.68, 6.90, 6.10, 5.51, 5.66, 5.73};
static const double t3[8] = {1.97, 1.76, 1.65, 1.56, 1.43, 1.32, 1.56, 1.61};
static const double t6[3][4] = {
    {22, 5, 98.47, 98.68}, {20, 408, 90.35, 98.74}, {18, 502, 80.94, 98.70}};
static const double t7_n[13] = {600, 410, 510, 420, 364, 319, 278, 249, 212, 180, 130, 50, 10};
static const double t7_k[13] = {4, 10, 17, 18, 20, 20, 20, 20, 19, 19, 10, 4, 2};
static const double t8_k[13] = {4, 10, 16, 26, 19, 30, 30, 75, 16, 21, 12, 4, 2};
static const double t8_sq[2][4] = {{30, 20, 98.45, 98.55}, {25, 37, 98.39, 98.66}};
static const double t9[9][4] = {
    {500, 27, 98.16, 98.30}, {200, 87, 97.93, 98.30}, {100, 178, 96.90, 98.30},
    {50, 371, 90.64, 98.32}, {40, 499, 90.44, 98.35}, {35, 573, 90.24, 98.39},
    {30, 660, 88.88, 98.53}, {25, 787, 86.38, 98.41}, {20, 998, 63.37, 98.39}};
static const double t14_k[10][5] = {{4, 4, 4, 4, 4},
                                    {1050, 1041, 1207, 627, 843},
                                    {3609, 1551, 3398, 6878, 1265},
                                    {663, 642, 1083, 5657, 1317},
                                    {961, 1664, 2472, 661, 963},
                                    {2212, 1746, 1268, 751, 1485},
                                    {1206, 882, 904, 1961, 1667},
                                    {881, 899, 802, 820, 768},
                                    {537, 576, 744, 1077, 1948},
                                    {1, 1, 1, 1, 1}};
static const double t14_p[10][5] = {
    {0, 0, 0, 0, 0},      {25, 24, 24, 24, 24}, {24, 24, 24, 24, 24}, {24, 25, 25, 25, 25},
    {26, 26, 26, 26, 26}, {25, 24, 24, 24, 24}, {26, 25, 25, 25, 25}, {24, 24, 24, 24, 24},
    {25, 26, 26, 26, 26}, {0, 0, 0, 0, 0}};
static const double t15_k[10][5] = {{5, 5, 5, 5, 6},           {124, 119, 144, 249, 339},
                                    {218, 245, 236, 332, 398}, {101, 108, 106, 109, 129},
                                    {196, 219, 241, 249, 229}, {439, 424, 462, 449, 332},
                                    {184, 182, 176, 166, 151}, {365, 283, 256, 222, 278},
                                    {153, 180, 188, 213, 229}, {2, 2, 2, 2, 2}};
static const double t15_p[10][5] = {
    {0, 0, 0, 0, 0}, {4, 4, 4, 4, 4}, {5, 5, 5, 5, 5}, {5, 5, 5, 5, 5}, {5, 5, 5, 5, 5},
    {4, 4, 4, 4, 5}, {4, 4, 4, 4, 5}, {5, 5, 5, 5, 5}, {4, 5, 5, 5, 5}, {0, 0, 0, 0, 0}};
static const double t16_fin[10] = {600, 527, 466, 412, 359, 300, 240, 180, 120, 10};
static const double t16_maxk[8] = {49.4, 42.5, 39.2, 33.6, 31.7, 31.4, 31.0, 29.2};
static const double t17_fin[10] = {600, 518, 448, 389, 344, 300, 267, 238, 184, 10};

static const cJSON *last(const cJSON *arr)
{
	int n = cJSON_GetArraySize(arr);
	return n ? cJSON_GetArrayItem(arr, n - 1) : NULL;
}

static const cJSON *item(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

static int nomem(Err *e)
{
	return err_set(e, "out of memory for a table of the report");
}

static int table1(const cJSON *r, Md *md, Err *e)
{
	FILE *f = md->f;
	const cJSON *recs = item(r, "history");
	const cJSON *first = cJSON_GetArrayItem(recs, 0), *fin = last(recs);
	fprintf(f, "## Table 1 — Algorithm 1 from 12 × 300 (τ = 25, η = 1, widths rounded down to "
	           "multiples of 5)\n\n");
	fprintf(f, "Stopped after %d iterations: %s (%s).\n\n", cJSON_GetArraySize(recs) - 1,
	        cJSON_GetStringValue(item(r, "status")), cJSON_GetStringValue(item(r, "reason")));
	int m = paper_json_layers(first);
	ReportPaperAlg1 *t = calloc((size_t)(m > 0 ? m : 1), sizeof *t);
	if (!t)
		return nomem(e);
	for (int i = 0; i < m; i++) {
		int pi = i == m - 1 ? 12 : i; /* the paper's output layer is row 13 */
		int in_paper = i < 12 || i == m - 1;
		t[i] = (ReportPaperAlg1){
		    paper_json_width(first, i),     paper_json_at(first, "kappa", i),
		    in_paper ? t1_init_k[pi] : NAN, paper_json_width(fin, i),
		    in_paper ? t1_fin_n[pi] : NAN,  paper_json_at(fin, "kappa", i),
		    in_paper ? t1_fin_k[pi] : NAN};
	}
	int rc = report_paper_alg1(f, t, m, 1, e);
	free(t);
	fputc('\n', f);
	return rc;
}

static int table2(const cJSON *r, Md *md, Err *e)
{
	FILE *f = md->f;
	fprintf(f,
	        "## Table 2 — Algorithm 2 (q = %.0f, η = %.0f, 1,000 validation images per class, "
	        "errors in %%)\n\n",
	        paper_json_num(r, "q"), paper_json_num(r, "eta"));
	const cJSON *betas = item(r, "betas"), *b;
	int n = 0;
	ReportPaperBeta *t = calloc((size_t)(cJSON_GetArraySize(betas) + 1), sizeof *t);
	if (!t)
		return nomem(e);
	cJSON_ArrayForEach(b, betas)
	{
		double beta = paper_json_num(b, "beta");
		int j = md_beta_row(beta, 1.0);
		t[n++] = (ReportPaperBeta){beta,
		                           fabs(beta - paper_json_num(r, "pick")) < 1e-9,
		                           paper_json_num(b, "err_tr"),
		                           j >= 0 ? t2_tr[j] : NAN,
		                           paper_json_num(b, "err_v"),
		                           j >= 0 ? t2_v[j] : NAN,
		                           paper_json_num(b, "score"),
		                           j >= 0 ? t2_s[j] : NAN};
	}
	int rc = report_paper_betas(f, t, n, e);
	free(t);
	fprintf(f, "\nPick: β = %.1f here, β = 2.0 in the paper.\n\n", paper_json_num(r, "pick"));
	return rc;
}

static int final_and_table3(const cJSON *fin, const cJSON *ver, Md *md, Err *e)
{
	FILE *f = md->f;
	if (fin && md->converge)
		fprintf(f, "## The pick (β = %.1f) trained to convergence on the training part\n\n",
		        paper_json_num(fin, "beta"));
	else if (fin)
		fprintf(f, "## Full training of the pick (β = %.1f) on all 60,000 images\n\n",
		        paper_json_num(fin, "beta"));
	if (fin) {
		double ep = paper_json_num(fin, "epochs");
		ReportPaperPick here = {paper_json_num(fin, "test_acc"),
		                        paper_json_num(fin, "train_acc"),
		                        md->converge ? paper_json_num(fin, "val_acc") : NAN,
		                        md->converge ? ep : NAN,
		                        paper_json_num(fin, "best_epoch"),
		                        md->converge ? NAN : ep},
		                paper = {98.68, 100, NAN, NAN, NAN, NAN};
		if (md_flag(md, "test accuracy of the pick", here.test_acc, paper.test_acc, e) ||
		    report_paper_pick(f, &here, &paper, e))
			return -1;
		fputc('\n', f);
	}
	return ver ? md_test_errors(md, ver, t3, 1.0, "Table 3", e) : 0;
}

static int layer_rows(const cJSON *net, const double *pn, const double *pk, Md *md, Err *e)
{
	int m = paper_json_layers(net);
	ReportPaperLayer *t = calloc((size_t)(m > 0 ? m : 1), sizeof *t);
	if (!t)
		return nomem(e);
	for (int i = 0; i < m; i++)
		t[i] =
		    (ReportPaperLayer){paper_json_width(net, i), pn && i < 13 ? pn[i] : NAN,
		                       paper_json_at(net, "kappa", i), pk && i < 13 ? pk[i] : NAN};
	int rc = report_paper_layers(md->f, t, m, e);
	free(t);
	fputc('\n', md->f);
	return rc;
}

/* Table 6 and Table 7: the pick squeezed, and the best squeezed model. */
static int squeeze_pick(const cJSON *sq, Md *md, Err *e)
{
	FILE *f = md->f;
	fprintf(f, "## Table 6 — squeezing the pick (accuracy %.2f %%) with Algorithm 3, %s\n\n",
	        paper_json_num(sq, "acc"),
	        md_retrained(md, "retrained to 100 % training accuracy"));
	if (md_squeeze_rows(md, item(sq, "rows"), t6, 3, "Table 6", e))
		return -1;
	const cJSON *r, *best = NULL;
	const char *by = md->converge ? "val_acc" : "acc_after";
	cJSON_ArrayForEach(r, item(sq, "rows"))
	{
		if (!best || paper_json_num(r, by) > paper_json_num(best, by))
			best = r;
	}
	if (!best)
		return 0;
	fprintf(f,
	        "## Table 7 — the best squeezed model%s (τ = %g, %.2f %%; paper: τ = "
	        "20, 98.74 %%)\n\n",
	        md->converge ? " by validation accuracy" : "", paper_json_num(best, "tau"),
	        paper_json_num(best, "acc_after"));
	return layer_rows(item(best, "net"), t7_n, t7_k, md, e);
}

static int squeezes(const Paper *p, Md *md, Err *e)
{
	FILE *f = md->f;
	const cJSON *sq = paper_result(p, "squeeze"), *ad = paper_result(p, "add20"),
	            *ov = paper_result(p, "over");
	if (sq && squeeze_pick(sq, md, e))
		return -1;
	if (ad) {
		fprintf(f,
		        "## Table 8 — 20 neurons added to hidden layers 4 and 8, fully trained\n\n"
		        "Test accuracy %.2f %% (paper 98.47 %%",
		        paper_json_num(ad, "acc"));
		md_epochs(md, ad);
		fprintf(f, ").\n\n");
		if (md_flag(md, "Table 8 model accuracy", paper_json_num(ad, "acc"), 98.47, e) ||
		    layer_rows(item(ad, "net"), NULL, t8_k, md, e) ||
		    md_squeeze_rows(md, item(ad, "rows"), t8_sq, 2, "Table 8 squeeze", e))
			return -1;
	}
	if (ov) {
		fprintf(f,
		        "## Table 9 — squeezing an oversized 12 × 600 network (accuracy %.2f %%, "
		        "paper 98.3 %%",
		        paper_json_num(ov, "acc"));
		md_epochs(md, ov);
		fprintf(f, ")\n\n");
		if (md_flag(md, "12 × 600 accuracy", paper_json_num(ov, "acc"), 98.3, e) ||
		    md_squeeze_rows(md, item(ov, "rows"), t9, 9, "Table 9", e))
			return -1;
	}
	return 0;
}

/* κ and p after each η (Tables 14 and 15), the paper's beside them. */
static int eta_table(const cJSON *rows, const double (*pk)[5], const double (*pp)[5], Md *md,
                     Err *e)
{
	int m = paper_json_layers(cJSON_GetArrayItem(rows, 0)), ng = cJSON_GetArraySize(rows);
	size_t cells = (size_t)(m > 0 ? m : 1) * (size_t)(ng > 0 ? ng : 1);
	double *buf =
	    calloc(5 * cells + (size_t)(ng > 0 ? ng : 1) + (size_t)(m > 0 ? m : 1), sizeof *buf);
	if (!buf)
		return nomem(e);
	ReportPaperEta t = {m,
	                    ng,
	                    buf,
	                    buf + ng,
	                    buf + ng + m,
	                    buf + ng + m + cells,
	                    buf + ng + m + 2 * cells,
	                    buf + ng + m + 3 * cells};
	double *eta = buf, *n = buf + ng, *k = n + m, *kp = k + cells, *p = kp + cells,
	       *ppp = p + cells;
	const cJSON *r;
	int g = 0;
	cJSON_ArrayForEach(r, rows)
	{
		eta[g] = paper_json_num(r, "eta");
		for (int i = 0; i < m; i++) {
			size_t c = (size_t)i * (size_t)ng + (size_t)g;
			int ok = i < 10 && g < 5;
			k[c] = paper_json_at(r, "kappa", i);
			kp[c] = ok ? pk[i][g] : NAN;
			p[c] = paper_json_at(r, "p", i);
			ppp[c] = ok ? pp[i][g] : NAN;
		}
		g++;
	}
	for (int i = 0; i < m; i++)
		n[i] = paper_json_width(cJSON_GetArrayItem(rows, 0), i);
	int rc = report_paper_eta(md->f, &t, e);
	free(buf);
	fputc('\n', md->f);
	return rc;
}

/* Algorithm 1's widths per iteration (Tables 16 and 17). */
static int history(const cJSON *run, const double *pfin, const double *pmaxk, Md *md, Err *e)
{
	const cJSON *recs = item(run, "history"), *r;
	int m = paper_json_layers(cJSON_GetArrayItem(recs, 0)), ni = cJSON_GetArraySize(recs);
	fprintf(md->f, "%d iterations, %s.\n\n", ni - 1, cJSON_GetStringValue(item(run, "status")));
	size_t mm = (size_t)(m > 0 ? m : 1), nn = (size_t)(ni > 0 ? ni : 1);
	double *buf = calloc(nn * (4 + mm) + mm, sizeof *buf);
	if (!buf)
		return nomem(e);
	ReportPaperHistory t = {m,
	                        ni,
	                        buf,
	                        buf + nn,
	                        buf + nn * (1 + mm),
	                        buf + nn * (2 + mm),
	                        buf + nn * (3 + mm),
	                        buf + nn * (4 + mm)};
	double *iter = buf, *w = buf + nn, *mk = w + nn * mm, *mkp = mk + nn, *sum = mkp + nn,
	       *fin = sum + nn;
	int k = 0;
	cJSON_ArrayForEach(r, recs)
	{
		iter[k] = paper_json_num(r, "iter");
		for (int i = 0; i < m; i++)
			w[(size_t)k * mm + (size_t)i] = paper_json_width(r, i);
		mk[k] = paper_json_num(r, "max_kappa");
		mkp[k] = pmaxk && k < 8 ? pmaxk[k] : NAN;
		sum[k] = paper_json_num(r, "sum_n");
		k++;
	}
	for (int i = 0; i < m; i++)
		fin[i] = i < 10 ? pfin[i] : NAN;
	int rc = report_paper_history(md->f, &t, e);
	free(buf);
	fputc('\n', md->f);
	return rc;
}

/* Tables 14 to 17: κ after η epochs, and Algorithm 1 from wider starts. */
static int eta_and_tau(const Paper *p, Md *md, Err *e)
{
	FILE *f = md->f;
	const cJSON *r;
	if ((r = paper_result(p, "eta"))) {
		fprintf(f, "## Table 14 — 9 × 600: κ and p (τ = 30) after η epochs (paper in "
		           "parentheses columns)\n\n");
		if (eta_table(item(r, "600"), t14_k, t14_p, md, e))
			return -1;
		fprintf(f, "## Table 15 — 9 × 100: κ and p (τ = 30) after η epochs\n\n");
		if (eta_table(item(r, "100"), t15_k, t15_p, md, e))
			return -1;
	}
	if ((r = paper_result(p, "tau"))) {
		fprintf(f,
		        "## Table 16 — Algorithm 1 (τ = 30, η = 1) from 600, 540, …, 120; n_i per "
		        "iteration (paper's max κ in parentheses)\n\n");
		if (history(item(r, "tapered"), t16_fin, t16_maxk, md, e))
			return -1;
		fprintf(
		    f, "## Table 17 — Algorithm 1 (τ = 30, η = 1) from 9 × 600 (the paper needs 47 "
		       "iterations)\n\n");
		if (history(item(r, "uniform"), t17_fin, NULL, md, e))
			return -1;
	}
	return 0;
}

int paper_mnist_report(const Paper *p, Md *md, Err *e)
{
	if (md_head(p, md, "MNIST (200 Haar-wavelet features): condnet beside the paper", e))
		return -1;
	md_why(md, p->o.report, "where-the-gap-on-mnist-comes-from-measured");
	const cJSON *r;
	if ((r = paper_result(p, "alg1")) && table1(r, md, e))
		return -1;
	if ((r = paper_result(p, "alg2")) && table2(r, md, e))
		return -1;
	if (final_and_table3(paper_result(p, "final"), paper_result(p, "verify"), md, e) ||
	    squeezes(p, md, e) || eta_and_tau(p, md, e))
		return -1;
	return md_flags(md, e);
}
