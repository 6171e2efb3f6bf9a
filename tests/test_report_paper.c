/* test_report_paper.c - the tables of the paper's reports, each a record
 * kind written as the reports write their tables: a row a line without
 * padding, each column's rule as it is aligned, a figure not known "—",
 * an infinite κ "∞", thousands separated, the paper's columns left out when
 * the paper has no figure, the pick marked, a blank cell "| |", and tables
 * across (a column per record). */
#include <math.h>

#include "report/report_paper.h"
#include "testutil.h"

START_TEST(alg1_and_layers)
{
	const ReportPaperAlg1 r[] = {{300, 649.4, 649, 205, 205, 9.6, 9},
	                             {300, INFINITY, 2652, 1234567, NAN, -1, 999.5}};
	char *s = TU_WRITTEN(ck_assert_int_eq(report_paper_alg1(f, r, 2, 1, NULL), 0));
	ck_assert_str_eq(s, "| layer | initial n | initial κ | κ (paper) | final n | n (paper) | "
	                    "final κ | κ (paper) |\n"
	                    "|---:|---:|---:|---:|---:|---:|---:|---:|\n"
	                    "| 1 | 300 | 649 | 649 | 205 | 205 | 10 | 9 |\n"
	                    "| 2 | 300 | ∞ | 2,652 | 1,234,567 | — | ∞ | 1,000 |\n");
	free(s);
	s = TU_WRITTEN(ck_assert_int_eq(report_paper_alg1(f, r, 1, 0, NULL), 0));
	ck_assert_str_eq(s,
	                 "| layer | initial κ | (paper) | final n | (paper) | final κ | (paper) |\n"
	                 "|---:|---:|---:|---:|---:|---:|---:|\n"
	                 "| 1 | 649 | 649 | 205 | 205 | 10 | 9 |\n");
	free(s);
	const ReportPaperLayer l[] = {{53, 53, 35.2, NAN}, {2, NAN, 2, 2}};
	s = TU_WRITTEN(ck_assert_int_eq(report_paper_layers(f, l, 2, NULL), 0));
	ck_assert_str_eq(s, "| layer | n | (paper) | κ | (paper) |\n|---:|---:|---:|---:|---:|\n"
	                    "| 1 | 53 | 53 | 35 | — |\n| 2 | 2 | — | 2 | 2 |\n");
	free(s);
}
END_TEST

/* Algorithm 2's βs: the paper's columns when it has a figure, the pick
 * marked; the test errors beside the paper's. */
START_TEST(betas_and_errors)
{
	ReportPaperBeta b[] = {{1.0, 0, 9.291, 9.29, 9.8, 9.81, 10.3, 10.34},
	                       {2.6, 1, 3.1, 3.2, 4.5, 4.5, 5.9, 5.7}};
	b[1].err_tr_paper = b[1].err_v_paper = b[1].score_paper = NAN;
	char *s = TU_WRITTEN(ck_assert_int_eq(report_paper_betas(f, b, 2, NULL), 0));
	ck_assert_str_eq(s, "| β | ε_tr | (paper) | ε_v | (paper) | 2ε_v − ε_tr | (paper) |\n"
	                    "|---:|---:|---:|---:|---:|---:|---:|\n"
	                    "| 1.0 | 9.29 | 9.29 | 9.80 | 9.81 | 10.30 | 10.34 |\n"
	                    "| 2.6 ◀ | 3.10 | — | 4.50 | — | 5.90 | — |\n");
	free(s);
	b[0].err_tr_paper = b[0].err_v_paper = b[0].score_paper = NAN;
	s = TU_WRITTEN(ck_assert_int_eq(report_paper_betas(f, b, 2, NULL), 0));
	ck_assert_str_eq(s, "| β | ε_tr | ε_v | 2ε_v − ε_tr |\n|---:|---:|---:|---:|\n"
	                    "| 1.0 | 9.29 | 9.80 | 10.30 |\n| 2.6 ◀ | 3.10 | 4.50 | 5.90 |\n");
	free(s);
	const ReportPaperError r[] = {{0.6, 14.456, 14.34}, {2.2, 13.9, NAN}};
	s = TU_WRITTEN(ck_assert_int_eq(report_paper_errors(f, r, 2, NULL), 0));
	ck_assert_str_eq(s, "| β | test error | (paper) |\n|---:|---:|---:|\n"
	                    "| 0.6 | 14.46 | 14.34 |\n| 2.2 | 13.90 | — |\n");
	free(s);
}
END_TEST

/* A squeeze's rows, with the epochs run and kept when trained to
 * convergence; the rounds of Table 13, the widths left-aligned. */
START_TEST(squeezes_and_rounds)
{
	ReportPaperSqueeze q[] = {{35, 20, 20, 84.756, 84.76, 86.1, 86.11, NAN, NAN},
	                          {12.5, 7, NAN, 80, NAN, 81, NAN, NAN, NAN}};
	char *s = TU_WRITTEN(ck_assert_int_eq(report_paper_squeeze(f, q, 2, NULL), 0));
	ck_assert_str_eq(s,
	                 "| τ | removed | (paper) | accuracy before retraining | (paper) | after "
	                 "| (paper) |\n|---:|---:|---:|---:|---:|---:|---:|\n"
	                 "| 35 | 20 | 20 | 84.76 | 84.76 | 86.10 | 86.11 |\n"
	                 "| 12.5 | 7 | — | 80.00 | — | 81.00 | — |\n");
	free(s);
	q[0].epochs = 30, q[0].kept = 12, q[1].epochs = 9, q[1].kept = 9;
	s = TU_WRITTEN(ck_assert_int_eq(report_paper_squeeze(f, q, 1, NULL), 0));
	ck_assert_str_eq(s,
	                 "| τ | removed | (paper) | accuracy before retraining | (paper) | after "
	                 "| (paper) | epochs (kept) |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n"
	                 "| 35 | 20 | 20 | 84.76 | 84.76 | 86.10 | 86.11 | 30 (12) |\n");
	free(s);
	const double w0[] = {100, 100}, w1[] = {53, 48};
	const ReportPaperRound r[] = {{w0, 2, 85.3, 85.3, NAN, NAN}, {w1, 2, 85.7, 85.68, 20, 11}};
	s = TU_WRITTEN(ck_assert_int_eq(report_paper_rounds(f, r, 2, 1, NULL), 0));
	ck_assert_str_eq(s, "| iteration | hidden widths | accuracy | (paper) | epochs (kept) |\n"
	                    "|---:|---|---:|---:|---:|\n| 0 | 100 100 | 85.30 | 85.30 | |\n"
	                    "| 1 | 53 48 | 85.70 | 85.68 | 20 (11) |\n");
	free(s);
	s = TU_WRITTEN(ck_assert_int_eq(report_paper_rounds(f, r, 1, 0, NULL), 0));
	ck_assert_str_eq(s, "| iteration | hidden widths | accuracy | (paper) |\n"
	                    "|---:|---|---:|---:|\n| 0 | 100 100 | 85.30 | 85.30 |\n");
	free(s);
}
END_TEST

/* Tables across: the pick here and in the paper (a row per figure either
 * has), and Algorithm 1's widths per iteration beside the paper's output. */
START_TEST(across)
{
	ReportPaperPick here = {98.556, 100, 98.1, 40, 31, NAN},
	                paper = {98.68, 100, NAN, NAN, NAN, NAN};
	char *s = TU_WRITTEN(ck_assert_int_eq(report_paper_pick(f, &here, &paper, NULL), 0));
	ck_assert_str_eq(s, "| | here | paper |\n|---|---:|---:|\n"
	                    "| test accuracy (%) | 98.56 | 98.68 |\n"
	                    "| training accuracy (%) | 100.00 | 100.00 |\n"
	                    "| validation accuracy (%) | 98.10 | — |\n"
	                    "| epochs run (the best kept) | 40 (31) | — |\n");
	free(s);
	here = (ReportPaperPick){86.1, NAN, NAN, NAN, NAN, NAN};
	paper = (ReportPaperPick){86.05, NAN, NAN, NAN, NAN, NAN};
	s = TU_WRITTEN(ck_assert_int_eq(report_paper_pick(f, &here, &paper, NULL), 0));
	ck_assert_str_eq(s, "| | here | paper |\n|---|---:|---:|\n"
	                    "| test accuracy (%) | 86.10 | 86.05 |\n");
	free(s);
	const double iter[] = {0, 1}, widths[] = {600, 10, 527, 10}, maxk[] = {49.44, 42.5},
	             maxkp[] = {49.4, NAN}, sum[] = {610, 537}, fin[] = {300, 10};
	const ReportPaperHistory h = {2, 2, iter, widths, maxk, maxkp, sum, fin};
	s = TU_WRITTEN(ck_assert_int_eq(report_paper_history(f, &h, NULL), 0));
	ck_assert_str_eq(s, "| layer | 0 | 1 | paper's output |\n|---:|---:|---:|---:|\n"
	                    "| 1 | 600 | 527 | 300 |\n| 2 | 10 | 10 | 10 |\n"
	                    "| max κ | 49.4 (49.4) | 42.5 | |\n| Σ n | 610 | 537 | |\n");
	free(s);
}
END_TEST

/* κ and p after each η, a group of columns each; the stages and their
 * seconds; the differences. */
START_TEST(eta_stages_and_differences)
{
	const double eta[] = {1, 10}, n[] = {600, 10}, k[] = {4, 5, 1050, INFINITY},
	             kp[] = {4, 5, 1050, NAN}, p[] = {0, 0, 25, 24}, pp[] = {0, NAN, 25, 24};
	const ReportPaperEta t = {2, 2, eta, n, k, kp, p, pp};
	char *s = TU_WRITTEN(ck_assert_int_eq(report_paper_eta(f, &t, NULL), 0));
	ck_assert_str_eq(s,
	                 "| layer | n | κ (η=1) | (paper) | p | (paper) | κ (η=10) | (paper) | p "
	                 "| (paper) |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
	                 "| 1 | 600 | 4 | 4 | 0 | 0 | 5 | 5 | 0 | — |\n"
	                 "| 2 | 10 | 1,050 | 1,050 | 25 | 25 | ∞ | — | 24 | 24 |\n");
	free(s);
	const ReportPaperStage st[] = {
	    {"alg1", "Table 1", "", 12.34},
	    {"over", "Table 9", "without 2 rows of an earlier run", 3.05}};
	s = TU_WRITTEN(ck_assert_int_eq(report_paper_stages(f, st, 2, NULL), 0));
	ck_assert_str_eq(s,
	                 "| stage | what | seconds |\n|---|---|---:|\n| alg1 | Table 1 | 12.3 |\n"
	                 "| over | Table 9 | 3.0 (without 2 rows of an earlier run) |\n");
	free(s);
	const ReportPaperDiff d[] = {{"Table 6, τ = 20, accuracy after retraining", 97.5, 98.74}};
	s = TU_WRITTEN(ck_assert_int_eq(report_paper_diffs(f, d, 1, "notes.md#gap", NULL), 0));
	ck_assert_str_eq(s,
	                 "\n## Differences of more than 0.3 percentage points\n\n"
	                 "- Table 6, τ = 20, accuracy after retraining: 97.50 here, 98.74 in the "
	                 "paper (-1.24 points; [where it comes from](notes.md#gap))\n\n");
	free(s);
	s = TU_WRITTEN(ck_assert_int_eq(report_paper_diffs(f, d, 0, "", NULL), 0));
	ck_assert_str_eq(s, "\n## Differences of more than 0.3 percentage points\n\nNone.\n\n");
	free(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report_paper");
	TCase *t = tcase_create("tables");
	tcase_add_test(t, alg1_and_layers);
	tcase_add_test(t, betas_and_errors);
	tcase_add_test(t, squeezes_and_rounds);
	tcase_add_test(t, across);
	tcase_add_test(t, eta_stages_and_differences);
	suite_add_tcase(s, t);
	return tu_run(s);
}
