/* paper_markdown.c - the Markdown of the paper reports: numbers beside the
 * paper's, the differences worth a look, the head with the machine and the
 * stage times. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "data/datasets.h"
#include "paper/paper_stage.h"
#include "report/report.h"
#include "report/report_paper.h"

int md_flag(Md *md, const char *what, double ours, double paper, Err *e)
{
	if (isnan(ours) || isnan(paper) || fabs(ours - paper) <= 0.3)
		return 0;
	if (md->ndiff == md->capdiff) {
		int cap = md->capdiff ? 2 * md->capdiff : 16;
		ReportPaperDiff *d = realloc(md->diff, (size_t)cap * sizeof *d);
		if (!d)
			return err_set(e, "out of memory for the report's differences");
		md->diff = d;
		md->capdiff = cap;
	}
	ReportPaperDiff *d = &md->diff[md->ndiff++];
	snprintf(d->what, sizeof d->what, "%s", what);
	d->ours = ours;
	d->paper = paper;
	return 0;
}

void md_why(Md *md, const char *report, const char *anchor)
{
	md->why[0] = '\0';
	const char *docs = NULL;
	for (const char *q = report; (q = strstr(q, "docs/")); q++)
		if (q == report || q[-1] == '/')
			docs = q + 5;
	if (!docs)
		return;
	size_t n = 0;
	for (const char *q = docs; (q = strchr(q, '/')); q++)
		n += (size_t)snprintf(md->why + n, sizeof md->why - n, "../");
	snprintf(md->why + n, sizeof md->why - n, "reproduction-notes.md#%s", anchor);
}

int md_flags(Md *md, Err *e)
{
	int rc = report_paper_diffs(md->f, md->diff, md->ndiff, md->why, e);
	free(md->diff);
	md->diff = NULL;
	md->ndiff = md->capdiff = 0;
	return rc;
}

int md_squeeze_rows(Md *md, const cJSON *rows, const double (*paper)[4], int np, const char *name,
                    Err *e)
{
	int n = cJSON_GetArraySize(rows), k = 0;
	ReportPaperSqueeze *r = calloc((size_t)(n > 0 ? n : 1), sizeof *r);
	if (!r)
		return err_set(e, "out of memory for a table of the report");
	const cJSON *x;
	int rc = 0;
	cJSON_ArrayForEach(x, rows)
	{
		double tau = paper_json_num(x, "tau");
		const double *pp = NULL;
		for (int i = 0; i < np; i++)
			if (paper[i][0] == tau)
				pp = paper[i];
		char what[96];
		snprintf(what, sizeof what, "%s, τ = %g, accuracy after retraining", name, tau);
		r[k++] = (ReportPaperSqueeze){tau,
		                              paper_json_num(x, "removed"),
		                              pp ? pp[1] : NAN,
		                              paper_json_num(x, "acc_before"),
		                              pp ? pp[2] : NAN,
		                              paper_json_num(x, "acc_after"),
		                              pp ? pp[3] : NAN,
		                              md->converge ? paper_json_num(x, "epochs") : NAN,
		                              paper_json_num(x, "best_epoch")};
		if (rc == 0)
			rc = md_flag(md, what, r[k - 1].after, r[k - 1].after_paper, e);
	}
	if (rc == 0)
		rc = report_paper_squeeze(md->f, r, k, e);
	free(r);
	if (rc == 0)
		fputc('\n', md->f);
	return rc;
}

void md_epochs(Md *md, const cJSON *r)
{
	if (md->converge && r)
		fprintf(md->f, "; trained %.0f epochs, epoch %.0f kept",
		        paper_json_num(r, "epochs"), paper_json_num(r, "best_epoch"));
}

const char *md_retrained(const Md *md, const char *as_written)
{
	return md->converge ? "retrained to convergence" : as_written;
}

/* The row of β in a table of the paper's from beta0 by 0.2, or -1. */
int md_beta_row(double beta, double beta0)
{
	/* checked before converting */
	double x = (beta - beta0) / 0.2;
	int j = x > -1 && x < 9 ? (int)lround(x) : -1;
	return j >= 0 && j < 8 && fabs(beta - (beta0 + 0.2 * j)) < 1e-6 ? j : -1;
}

int md_test_errors(Md *md, const cJSON *ver, const double *paper, double beta0, const char *name,
                   Err *e)
{
	fprintf(md->f, "## %s — test error (%%) of every β fully trained\n\n", name);
	const cJSON *betas = cJSON_GetObjectItemCaseSensitive(ver, "betas"), *b;
	int n = cJSON_GetArraySize(betas), k = 0, rc = 0;
	ReportPaperError *r = calloc((size_t)(n > 0 ? n : 1), sizeof *r);
	if (!r)
		return err_set(e, "out of memory for a table of the report");
	cJSON_ArrayForEach(b, betas)
	{
		double beta = paper_json_num(b, "beta");
		int j = md_beta_row(beta, beta0);
		char what[64];
		snprintf(what, sizeof what, "%s test error at β = %.1f", name, beta);
		r[k] = (ReportPaperError){beta, 100 - paper_json_num(b, "test_acc"),
		                          j >= 0 ? paper[j] : NAN};
		if (rc == 0)
			rc = md_flag(md, what, r[k].err, r[k].err_paper, e);
		k++;
	}
	if (rc == 0)
		rc = report_paper_errors(md->f, r, k, e);
	free(r);
	if (rc == 0)
		fputc('\n', md->f);
	return rc;
}

/* What the stages say of the kernels and the mode they computed with
 * (recorded since the reproducible mode exists), in one line. */
static void print_mode(FILE *f, const Paper *p)
{
	int n = 0, on = 0, none = 0, same = 1;
	ReproRecord first = {0};
	for (int i = 0; i < p->nres; i++) {
		ReproRecord r;
		paper_stage_record(p->res[i].r, &r);
		n++;
		if (!r.kernels[0]) {
			none++;
			continue;
		}
		on += r.on;
		if (!first.kernels[0])
			first = r;
		else if (strcmp(first.kernels, r.kernels) || first.parts != r.parts)
			same = 0;
	}
	if (!n)
		return;
	if (none == n)
		fprintf(f, "The stage results do not record the kernels they were computed with "
		           "(they were made before condnet recorded them).\n\n");
	else if (none || !same || (on && on != n))
		fprintf(f, "The stages were computed under different kernels or modes: each "
		           "stage's JSON says which.\n\n");
	else if (on == n)
		fprintf(f,
		        "Computed in the reproducible mode: OpenBLAS's %s kernels, each "
		        "batch split into at most %d parts; the same numbers on any x86-64 "
		        "machine with AVX2 and FMA.\n\n",
		        first.kernels, first.parts);
	else
		fprintf(f,
		        "Computed outside the reproducible mode, on OpenBLAS's %s kernels, "
		        "each batch split into at most %d parts.\n\n",
		        first.kernels, first.parts);
}

/* The table of the stages and their seconds. */
static int stage_times(const Paper *p, Md *md, Err *e)
{
	ReportPaperStage *r = calloc((size_t)(p->nres > 0 ? p->nres : 1), sizeof *r);
	if (!r)
		return err_set(e, "out of memory for a table of the report");
	for (int i = 0; i < p->nres; i++) {
		const cJSON *s = p->res[i].r;
		const cJSON *note = cJSON_GetObjectItemCaseSensitive(s, "seconds_note");
		r[i] = (ReportPaperStage){.name = p->res[i].name,
		                          .what = "",
		                          .note = cJSON_IsString(note) ? note->valuestring : "",
		                          .seconds = paper_json_num(s, "seconds")};
		for (const Stage *g = p->stages; g && g->name; g++)
			if (!strcmp(g->name, p->res[i].name))
				r[i].what = g->what;
	}
	int rc = report_paper_stages(md->f, r, p->nres, e);
	free(r);
	if (rc == 0)
		fputc('\n', md->f);
	return rc;
}

/* The title, and the command that measured the figures. */
static void head_command(const Paper *p, FILE *f, const char *title)
{
	char act[96] = "";
	if (p->o.act_a != 1.0f)
		snprintf(act, sizeof act, " --act-scale %g", (double)p->o.act_a);
	fprintf(f, "# %s%s", title, p->o.converge ? ", trained to convergence" : "");
	if (p->o.act_a != 1.0f)
		fprintf(f, ", erf(%g·x)", (double)p->o.act_a);
	fprintf(f, "\n\n");
	fprintf(f,
	        "Every figure here was measured by `condnet paper %s%s%s%s%s --seed %llu` "
	        "(stage results in `%s/`). Beside each is the paper's figure. ",
	        p->o.which, p->o.quick ? " --quick" : "", p->o.converge ? " --converge" : "", act,
	        p->o.data_scale == DATA_CENTER        ? " --center"
	        : p->o.data_scale == DATA_STANDARDIZE ? " --standardize"
	                                              : "",
	        (unsigned long long)p->o.seed, p->o.out);
}

/* How the networks train, as written or to convergence. */
static void head_training(const Paper *p, FILE *f)
{
	char act[96];
	if (p->o.act_a != 1.0f)
		snprintf(act, sizeof act, "erf(%g·x) activation (**not the paper's erf(x)**)",
		         (double)p->o.act_a);
	else
		snprintf(act, sizeof act, "erf activation");
	fprintf(f,
	        "Training: Adam (lr 0.001, β₁ 0.9, β₂ 0.999, ε 1e-8), %s, Glorot "
	        "uniform weights, zero biases, batch %d, float32.%s%s\n\n",
	        act, p->topt.batch,
	        p->o.data_scale == DATA_CENTER ? " Features centred on their training means."
	        : p->o.data_scale == DATA_STANDARDIZE
	            ? " Features standardized over the training set."
	            : "",
	        p->o.quick ? " **This is a quick smoke run on a small subset: its numbers are not "
	                     "comparable with the paper's.**"
	                   : "");
	if (p->o.converge)
		fprintf(f,
		        "**Setting: trained to convergence.** Every network the paper calls "
		        "fully trained, and every retraining after a squeeze, trains on "
		        "Algorithm 2's training part (its validation part held out), at most %d "
		        "epochs, with the learning rate on a cosine from 0.001 down to 0 at epoch "
		        "%d (`cosine:%d`), and stops %d epoch%s after the best validation "
		        "accuracy, keeping that epoch's weights: the accuracies are "
		        "those of the kept epoch, never of the best test epoch, and the tables say "
		        "how many epochs each training ran. Algorithm 1's and 2's η epochs and "
		        "Tables 14–15 train as written.\n\n",
		        PAPER_CONVERGE_CAP(p), PAPER_CONVERGE_CAP(p), PAPER_CONVERGE_CAP(p),
		        PAPER_CONVERGE_PATIENCE(p), PAPER_CONVERGE_PATIENCE(p) == 1 ? "" : "s");
	else
		fprintf(f, "**Setting: as written.** Every network the paper calls fully trained "
		           "trains on the whole training set at the constant learning rate for the "
		           "epochs the tables name.\n\n");
}

/* The machine, and the thread count the stages ran with (recorded by each
 * stage); this run's when no stage recorded one. */
static void head_machine(const Paper *p, FILE *f)
{
	struct utsname u;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int lo = 0, hi = 0;
	for (int i = 0; i < p->nres; i++) {
		double t = paper_json_num(p->res[i].r, "threads");
		if (!(t >= 1 && t <= 1024))
			continue; /* none recorded, or not a thread count */
		lo = lo && lo < (int)t ? lo : (int)t;
		hi = hi > (int)t ? hi : (int)t;
	}
	if (!hi)
		lo = hi = p->o.threads;
	if (uname(&u) == 0 && lo == hi)
		fprintf(f, "Machine: %s %s, %ld cores, %d threads.\n\n", u.sysname, u.machine,
		        cores, lo);
	else if (uname(&u) == 0)
		fprintf(f, "Machine: %s %s, %ld cores, %d to %d threads (stages differ).\n\n",
		        u.sysname, u.machine, cores, lo, hi);
}

int md_head(const Paper *p, Md *md, const char *title, Err *e)
{
	FILE *f = md->f;
	head_command(p, f, title);
	head_training(p, f);
	fprintf(f,
	        "What we found where the figures differ is in `docs/reproduction-notes.md`.\n\n");
	head_machine(p, f);
	print_mode(f, p);
	return stage_times(p, md, e);
}
