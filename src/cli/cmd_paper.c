/* cmd_paper.c - `condnet paper mnist|adult`: reproduce the paper's
 * experiments stage by stage and write the report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "paper/paper.h"
#include "cli/progress.h"

static const char help[] =
	"Usage: condnet paper mnist|adult [OPTIONS]\n\n"
	"Runs the paper's experiments on MNIST (200 Haar-wavelet features) or UCI Adult\n"
	"and writes a Markdown report with every figure beside the paper's.\n\n"
	"  --quick          a small subset and few epochs (a smoke run; not comparable)\n"
	"  --center         centre the features on their training means (not the paper's)\n"
	"  --standardize    and scale them to unit variance (not the paper's)\n"
	"  --out DIR        stage results and models (default paper-mnist / paper-adult);\n"
	"                   a stage whose result is in DIR is reused, not recomputed\n"
	"  --report FILE    the report (default docs/results-WHICH.md if docs/ exists,\n"
	"                   else DIR/results-WHICH.md)\n"
	"  --stages LIST    only these stages, comma-separated (see below)\n"
	"  --data-dir DIR   where the data sets are (default: the data directory)\n"
	"  --seed S         seed of every initialisation and shuffle (default 1)\n"
	"  --threads N      threads to compute on (default 2)\n"
	"  --quiet          no progress\n"
	"  -h, --help       this text\n\n"
	"Stages, mnist: alg1 alg2 final verify squeeze add20 eta tau over\n"
	"        adult: alg1 alg2 final verify squeeze over\n";

enum { OPT_QUICK = CLI_OPT_OWN, OPT_OUT, OPT_REPORT, OPT_STAGES };

/* The paper's own options, and the common ones it takes (parsed into the
 * shared CommonOpts by cli_parse). */
static const struct option own[] = {
	{"quick", no_argument, NULL, OPT_QUICK},
	{"out", required_argument, NULL, OPT_OUT},
	{"report", required_argument, NULL, OPT_REPORT},
	{"stages", required_argument, NULL, OPT_STAGES},
	{"center", no_argument, NULL, CLI_OPT_CENTER},
	{"standardize", no_argument, NULL, CLI_OPT_STANDARDIZE},
	{"data-dir", required_argument, NULL, CLI_OPT_DATA_DIR},
	{"seed", required_argument, NULL, CLI_OPT_SEED},
	{"threads", required_argument, NULL, CLI_OPT_THREADS},
	{"quiet", no_argument, NULL, CLI_OPT_QUIET},
	{0},
};

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	PaperOpts *o = ud;
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
	}
	return 0;
}

int cmd_paper(int argc, char **argv)
{
	PaperOpts o = {0};
	CommonOpts c;
	cli_common_default(&c);
	c.train.threads = 2; /* the stages record it; not left to the environment */
	int first = 0;
	int pr = cli_parse(argc, argv, NULL, &c, own, own_opt, &o, help, &first);
	if (pr)
		return pr == 1 ? 0 : 2;
	if (first != argc - 1 || !paper_stage_names(argv[first])) {
		fprintf(stderr, "condnet paper: name one experiment: mnist or adult\n");
		fputs(help, stderr);
		return 2;
	}
	o.which = argv[first];
	o.seed = c.seed;
	o.threads = c.train.threads;
	o.data_dir = c.data.dir;
	o.data_scale = c.data.scale;
	char out[512], report[1024];
	if (!o.out) {
		snprintf(out, sizeof out, "paper-%s%s", o.which, o.quick ? "-quick" : "");
		o.out = out;
	}
	if (!o.report) {
		struct stat st;
		if (stat("docs", &st) == 0 && S_ISDIR(st.st_mode) && !o.quick)
			snprintf(report, sizeof report, "docs/results-%s.md", o.which);
		else
			snprintf(report, sizeof report, "%s/results-%s.md", o.out, o.which);
		o.report = report;
	}
	Progress pr_line;
	progress_init(&pr_line, "condnet paper", c.quiet, 1);
	Hook hook = progress_hook(&pr_line, c.quiet ? NULL : progress_notes);
	o.hook = &hook;
	progress_trap_signals();
	Err e = {{0}};
	int rc = paper_run(&o, &e);
	progress_clear(&pr_line);
	if (rc < 0) {
		fprintf(stderr, "condnet paper: %s\n", e.msg);
		return 1;
	}
	printf("report written to %s\n", o.report);
	return 0;
}
