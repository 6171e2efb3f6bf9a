/* cmd_paper.c - `condnet paper mnist|adult`: reproduce the paper's
 * experiments stage by stage and write the report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/file.h"
#include "base/list.h"
#include "cli/cli.h"
#include "cli/cmdlines.h"
#include "cli/progress.h"
#include "paper/paper.h"
#include "paper/paper_dir.h"
#include "paper/paper_settings.h"

static const char help[] =
    "Usage: condnet paper mnist|adult [OPTIONS]\n\n"
    "Runs the paper's experiments on MNIST (200 Haar-wavelet features) or UCI Adult\n"
    "and writes a Markdown report with every figure beside the paper's.\n\n"
    "  --quick          a small subset and few epochs (a smoke run; not comparable)\n"
    "  --converge       train every \"fully trained\" network to convergence instead\n"
    "                   of as written: on Algorithm 2's training part, at most 30\n"
    "                   epochs under the schedule cosine:30, stopped 5 epochs after\n"
    "                   the best validation accuracy, that epoch kept\n"
    "  --act-scale A    erf(A*x) in the hidden layers instead of the paper's erf(x)\n"
    "  --center         centre the features on their training means (not the paper's)\n"
    "  --standardize    and scale them to unit variance (not the paper's)\n"
    "  --out DIR        stage results and models (default paper-WHICH, with\n"
    "                   -converge, -aA and -quick appended for those settings); a\n"
    "                   stage whose result is in DIR is reused, not recomputed\n"
    "  --report FILE    the report (default DIR/results-WHICH.md with --out DIR;\n"
    "                   without --out, docs/results-WHICH[-converge][-aA].md if docs/\n"
    "                   exists and not --quick, else DIR/results-WHICH.md); a report\n"
    "                   holding stages this run's lacks is not replaced\n"
    "  --stages LIST    only these stages, comma-separated (see below)\n"
    "  --plan FILE      write to FILE the command of every stage that can run now,\n"
    "                   one a line (for parallel < FILE or a Slurm job array); plan\n"
    "                   again when they are done, until none is left; - for standard\n"
    "                   output (the text then goes to standard error)\n"
    "  --no-report      run the stages, write no report\n"
    "  --data-dir DIR   where the data sets are (default: the data directory)\n"
    "  --seed S         seed of every initialisation and shuffle (default 1)\n"
    "  --threads N      threads to compute on (default 2, whatever\n"
    "                   $OPENBLAS_NUM_THREADS says: the stages record it)\n"
    "  --reproducible   the reproducible mode (Haswell kernels, every batch in 2\n"
    "                   parts: the same numbers on every x86-64 CPU with AVX2 and\n"
    "                   FMA); the default here\n"
    "  --no-reproducible  this CPU's fastest OpenBLAS kernels and --threads parts\n"
    "                   instead of the reproducible mode\n"
    "  --quiet          no progress\n"
    "  --dry-run        check the options, their combinations and the outputs;\n"
    "                   read, run and write nothing\n"
    "  -h, --help       this text\n\n"
    "Stages, mnist: alg1 alg2 final verify squeeze add20 eta tau over\n"
    "        adult: alg1 alg2 final verify squeeze over\n"
    "alg1, eta, tau and over read only the data; alg2 needs alg1, final and verify\n"
    "need alg2, squeeze needs final, add20 needs squeeze.\n";

enum {
	OPT_QUICK = OPTS_OWN,
	OPT_OUT,
	OPT_REPORT,
	OPT_STAGES,
	OPT_PLAN,
	OPT_NO_REPORT,
	OPT_CONVERGE
};

/* The experiment's options and the command's own. */
typedef struct PaperCli {
	PaperOpts o;
	const char *plan; /* --plan FILE */
} PaperCli;

/* The common options the paper takes (parsed into the shared CommonOpts by
 * opts_parse), and its own. */
#define PAPER_COMMON                                                                               \
	(OPTS_BIT(OPTS_ACT_SCALE) | OPTS_BIT(OPTS_CENTER) | OPTS_BIT(OPTS_STANDARDIZE) |           \
	 OPTS_BIT(OPTS_DATA_DIR) | OPTS_BIT(OPTS_SEED) | OPTS_BIT(OPTS_THREADS) |                  \
	 OPTS_BIT(OPTS_QUIET) | OPTS_BIT(OPTS_REPRO) | OPTS_BIT(OPTS_NO_REPRO))
static const struct option own[] = {
    {"quick", no_argument, NULL, OPT_QUICK},
    {"converge", no_argument, NULL, OPT_CONVERGE},
    {"out", required_argument, NULL, OPT_OUT},
    {"report", required_argument, NULL, OPT_REPORT},
    {"stages", required_argument, NULL, OPT_STAGES},
    {"plan", required_argument, NULL, OPT_PLAN},
    {"no-report", no_argument, NULL, OPT_NO_REPORT},
    {0},
};

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	PaperCli *pc = ud;
	PaperOpts *o = &pc->o;
	switch (opt) {
	case OPT_QUICK:
		o->quick = 1;
		break;
	case OPT_OUT:
		o->out = arg;
		break;
	case OPT_REPORT:
		o->report = arg;
		break;
	case OPT_STAGES:
		o->stages = arg;
		break;
	case OPT_CONVERGE:
		o->converge = 1;
		break;
	case OPT_PLAN:
		pc->plan = arg;
		break;
	case OPT_NO_REPORT:
		o->no_report = 1;
		break;
	}
	return 0;
}

/* What a stage's line takes from the command line. */
static const char *const not_for_stage[] = {"plan", "stages", "out", "report", "no-report", NULL};

/* Every word of the plan's lines can stand on one line of it. */
static int check_plan_words(const PaperOpts *o, int argc, char **argv, Err *e)
{
	char *cmd =
	    plan_command("paper", argc, argv, PAPER_COMMON, own, not_for_stage, o->which, e);
	int rc = !cmd || plan_check_path("--out", o->out, e);
	free(cmd);
	return rc ? -1 : 0;
}

/* --plan: a line per stage that can run now, each its own process writing
 * its result into the stage directory and no report. */
static int plan_paper(const PaperOpts *o, const char *plan_file, int argc, char **argv, Err *e)
{
	const char *ready[32];
	int waiting = 0;
	char *cmd =
	    plan_command("paper", argc, argv, PAPER_COMMON, own, not_for_stage, o->which, e);
	Plan p;
	if (!cmd || paper_ready(o, ready, &waiting, e) || file_make_dir(o->out, e) ||
	    plan_open(&p, e)) {
		free(cmd);
		return -1;
	}
	int rc = 0;
	for (int i = 0; ready[i] && !rc; i++) {
		fprintf(p.f, "%s %s --out", cmd, o->which);
		rc = plan_path(p.f, "--out", o->out, e);
		fprintf(p.f, " --stages %s --no-report", ready[i]);
		plan_end_line(&p);
	}
	free(cmd);
	if (rc) {
		plan_discard(&p);
		return -1;
	}
	if (plan_close(&p, plan_file, e))
		return -1;
	printf("%s: stages to run now (%d):", plan_file, p.lines);
	for (int i = 0; ready[i]; i++)
		printf(" %s", ready[i]);
	if (!ready[0])
		printf(" none");
	printf("; waiting for them: %d\n", waiting);
	if (p.lines && file_is_stdout(plan_file))
		printf("run them (standard output holds them: ... | parallel -j 2), then plan "
		       "again\n");
	else if (p.lines)
		printf("run them (parallel -j 2 < %s, or a Slurm job array of %d tasks), then plan "
		       "again\n",
		       plan_file, p.lines);
	else if (waiting)
		return err_set(e, "%d stages wait for stages not asked for (--stages)", waiting);
	else
		printf("every stage's result is in %s: the same command without --plan writes the "
		       "report\n",
		       o->out);
	return 0;
}

/* --stages: every element a stage of the experiment, none empty (base/list.h);
 * 0, or -1 after the message (a usage error). */
static int check_stage_list(const PaperOpts *o)
{
	const char *const *names = paper_stage_names(o->which);
	const char *p = o->stages, *item;
	size_t len;
	int n = 0, r;
	Err e = {{0}};
	while ((r = list_next(&p, &item, &len, &n, "--stages", o->stages, &e)) > 0) {
		int found = 0;
		for (int i = 0; names && names[i]; i++)
			found |= strlen(names[i]) == len && !strncmp(names[i], item, len);
		if (!found) {
			r = err_set(&e, "--stages: unknown stage '%.*s' for %s", (int)len, item,
			            o->which);
			break;
		}
	}
	if (r < 0)
		fprintf(stderr, "condnet paper: %s\n", e.msg);
	return r < 0 ? -1 : 0;
}

/* Where the stage results and the report go, when --out and --report do
 * not say: each setting its own directory and report, so that they stand
 * side by side; --out decides where the report goes, docs/ only without it
 * (out and report hold the names made). */
static void places(PaperOpts *o, char *out, size_t nout, char *report, size_t nreport)
{
	char setting[64] = "";
	if (o->converge)
		strcat(setting, "-converge");
	if (o->act_a != 1.0f)
		snprintf(setting + strlen(setting), sizeof setting - strlen(setting), "-a%g",
		         (double)o->act_a);
	int out_given = o->out != NULL;
	if (!o->out) {
		snprintf(out, nout, "paper-%s%s%s", o->which, setting, o->quick ? "-quick" : "");
		o->out = out;
	}
	if (!o->report) {
		struct stat st;
		if (!out_given && stat("docs", &st) == 0 && S_ISDIR(st.st_mode) && !o->quick)
			snprintf(report, nreport, "docs/results-%s%s.md", o->which, setting);
		else
			snprintf(report, nreport, "%s/results-%s.md", o->out, o->which);
		o->report = report;
	}
}

/* The stage results already there: made under other settings (refused),
 * or before condnet recorded them, or under other kernels (both said). */
static int check_stages(const PaperOpts *o, Err *e)
{
	char unrecorded[1400];
	if (paper_check_settings(o, unrecorded, sizeof unrecorded, e) < 0)
		return -1;
	if (unrecorded[0])
		fprintf(stderr,
		        "condnet paper: %s: no record of the settings they were made with (an "
		        "older condnet's): used as they are, as if made with this run's\n",
		        unrecorded);
	Err warn = {{0}};
	if (paper_check_records(o, &warn) < 0)
		fprintf(stderr, "condnet paper: %s\n", warn.msg);
	return 0;
}

int cmd_paper(int argc, char **argv)
{
	PaperCli pc;
	memset(&pc, 0, sizeof pc);
	PaperOpts o;
	CommonOpts c;
	opts_default(&c);
	c.train.threads = 2; /* the stages record it; not left to the environment */
	int first = 0;
	struct option table[opts_table_len(own)];
	opts_table(table, opts_table_len(own), PAPER_COMMON, own);
	int pr = opts_parse(argc, argv, NULL, &c, table, own_opt, &pc, help, &first);
	if (pr)
		return pr == 1 ? 0 : 2;
	if (first != argc - 1 || !paper_stage_names(argv[first])) {
		fprintf(stderr, "condnet paper: name one experiment: mnist or adult\n");
		fputs(help, stderr);
		return 2;
	}
	o = pc.o;
	o.which = argv[first];
	if (o.stages && check_stage_list(&o) < 0)
		return 2;
	o.seed = c.seed;
	o.threads = c.train.threads;
	o.data_dir = c.data.dir;
	o.data_scale = c.data.scale;
	o.act_a = c.act_a;
	char out[512], report[1024];
	places(&o, out, sizeof out, report, sizeof report);
	Err e = {{0}};
	CliOut outs[] = {
	    {o.out, CLI_OUT_DIR, "--out", NULL},
	    {o.no_report || pc.plan ? NULL : o.report, FILE_OUT_TEXT, "--report", NULL},
	    {pc.plan, FILE_OUT_TEXT, "--plan", NULL}};
	/* neither the report nor the plan may take the place of a stage's file */
	if (cli_check_outputs(&c, outs, 3, &e) ||
	    (outs[1].path && paper_check_output(&o, "--report", o.report, &e)) ||
	    (pc.plan && paper_check_output(&o, "--plan", pc.plan, &e)))
		return cli_fail("paper", &e);
	if (pc.plan && check_plan_words(&o, argc, argv, &e)) {
		fprintf(stderr, "condnet paper: %s\n", e.msg);
		return 2;
	}
	if (opts_dry_run("paper"))
		return 0;
	if (pc.plan)
		return plan_paper(&o, pc.plan, argc, argv, &e) ? cli_fail("paper", &e) : 0;
	if (check_stages(&o, &e) < 0)
		return cli_fail("paper", &e);
	/* under an address-space limit, the room for the experiment: its data
	 * and its largest network's training (MNIST's 12 × 600, Adult's 12 × 100;
	 * a tenth of the widths in a quick run) */
	double work = o.quick ? 16e6 : !strcmp(o.which, "mnist") ? 160e6 : 32e6;
	if (setup_reserve(&c, work, &e))
		return cli_fail("paper", &e);
	Progress pr_line;
	progress_init(&pr_line, "condnet paper", c.quiet, 1);
	Hook hook = progress_hook(&pr_line, c.quiet ? NULL : progress_notes);
	o.hook = &hook;
	progress_trap_signals();
	int rc = paper_run(&o, &e);
	progress_clear(&pr_line);
	if (rc != 0) {
		fprintf(stderr, "condnet paper: %s\n", e.msg);
		/* a stop: the stages done are kept whole, the rest runs on the next call */
		return rc > 0 || progress_interrupted() ? 130 : 1;
	}
	if (o.no_report)
		printf("stage results in %s\n", o.out);
	else
		printf("report written to %s\n", o.report);
	return 0;
}
