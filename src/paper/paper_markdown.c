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

void md_num(FILE *f, double v, int decimals)
{
	if (isnan(v))
		fputs("—", f);
	else
		fprintf(f, "%.*f", decimals, v);
}

void md_int_thousands(FILE *f, double v)
{
	if (isnan(v) || isinf(v) || v < 0) {
		fputs(isnan(v) ? "—" : "∞", f);
		return;
	}
	char buf[48];
	fputs(report_thousands(v, buf, sizeof buf), f);
}

void md_flag(Md *md, const char *what, double ours, double paper)
{
	if (isnan(ours) || isnan(paper) || fabs(ours - paper) <= 0.3)
		return;
	char line[512];
	int n =
	    snprintf(line, sizeof line, "- %s: %.2f here, %.2f in the paper (%+.2f points%s%s%s)\n",
	             what, ours, paper, ours - paper, md->why[0] ? "; [where it comes from](" : "",
	             md->why, md->why[0] ? ")" : "");
	if (n < 0)
		return;
	size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
	char *grown = realloc(md->flags, md->nflags + len + 1);
	if (!grown)
		return;
	memcpy(grown + md->nflags, line, len + 1);
	md->flags = grown;
	md->nflags += len;
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

void md_flags(Md *md)
{
	fprintf(md->f, "\n## Differences of more than 0.3 percentage points\n\n%s\n",
	        md->nflags ? md->flags : "None.\n");
	free(md->flags);
	md->flags = NULL;
	md->nflags = 0;
}

void md_pair(Md *md, double ours, double paper, int decimals, const char *what)
{
	FILE *f = md->f;
	fputc(' ', f);
	if (decimals < 0)
		md_int_thousands(f, ours);
	else
		md_num(f, ours, decimals);
	fputs(" | ", f);
	if (decimals < 0)
		md_int_thousands(f, paper);
	else
		md_num(f, paper, decimals);
	fputs(" |", f);
	if (what)
		md_flag(md, what, ours, paper);
}

void md_squeeze_rows(Md *md, const cJSON *rows, const double (*paper)[4], int np, const char *name)
{
	FILE *f = md->f;
	fprintf(f,
	        "| τ | removed | (paper) | accuracy before retraining | (paper) | after | (paper) "
	        "|%s\n|---:|---:|---:|---:|---:|---:|---:|%s\n",
	        md->converge ? " epochs (kept) |" : "", md->converge ? "---:|" : "");
	const cJSON *r;
	cJSON_ArrayForEach(r, rows)
	{
		double tau = paper_json_num(r, "tau");
		const double *pp = NULL;
		for (int i = 0; i < np; i++)
			if (paper[i][0] == tau)
				pp = paper[i];
		char what[96];
		snprintf(what, sizeof what, "%s, τ = %g, accuracy after retraining", name, tau);
		fprintf(f, "| %g |", tau);
		md_pair(md, paper_json_num(r, "removed"), pp ? pp[1] : NAN, 0, NULL);
		md_pair(md, paper_json_num(r, "acc_before"), pp ? pp[2] : NAN, 2, NULL);
		md_pair(md, paper_json_num(r, "acc_after"), pp ? pp[3] : NAN, 2, what);
		if (md->converge)
			fprintf(f, " %.0f (%.0f) |", paper_json_num(r, "epochs"),
			        paper_json_num(r, "best_epoch"));
		fputc('\n', f);
	}
	fputc('\n', f);
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

void md_test_errors(Md *md, const cJSON *ver, const double *paper, double beta0, const char *name)
{
	FILE *f = md->f;
	fprintf(f,
	        "## %s — test error (%%) of every β fully trained\n\n| β | test error | "
	        "(paper) |\n|---:|---:|---:|\n",
	        name);
	const cJSON *b;
	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(ver, "betas"))
	{
		double beta = paper_json_num(b, "beta");
		/* the table's row of β, when it is one: checked before converting */
		double x = (beta - beta0) / 0.2;
		int j = x > -1 && x < 9 ? (int)lround(x) : -1;
		int known = j >= 0 && j < 8 && fabs(beta - (beta0 + 0.2 * j)) < 1e-6;
		char what[64];
		snprintf(what, sizeof what, "%s test error at β = %.1f", name, beta);
		fprintf(f, "| %.1f |", beta);
		md_pair(md, 100 - paper_json_num(b, "test_acc"), known ? paper[j] : NAN, 2, what);
		fputc('\n', f);
	}
	fputc('\n', f);
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

void md_head(const Paper *p, Md *md, const char *title)
{
	FILE *f = md->f;
	struct utsname u;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
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
	fprintf(f,
	        "What we found where the figures differ is in `docs/reproduction-notes.md`.\n\n");
	/* The thread count the stages ran with (recorded by each stage); this
	 * run's when no stage recorded one. */
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
	print_mode(f, p);
	fprintf(f, "| stage | what | seconds |\n|---|---|---:|\n");
	for (int i = 0; i < p->nres; i++) {
		const cJSON *s = p->res[i].r;
		fprintf(f, "| %s | ", p->res[i].name);
		for (const Stage *g = p->stages; g && g->name; g++)
			if (!strcmp(g->name, p->res[i].name))
				fputs(g->what, f);
		fprintf(f, " | %.1f", paper_json_num(s, "seconds"));
		const cJSON *note = cJSON_GetObjectItemCaseSensitive(s, "seconds_note");
		if (cJSON_IsString(note))
			fprintf(f, " (%s)", note->valuestring);
		fputs(" |\n", f);
	}
	fputc('\n', f);
}
