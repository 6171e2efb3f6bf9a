/* cmd_paper.c - `condnet paper mnist|adult`: reproduce the paper's
 * experiments stage by stage and write the report. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "paper/paper.h"
#include "cli/progress.h"

static void usage(FILE *f)
{
	fprintf(f,
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
		"  --threads N      OpenBLAS threads (default 2)\n"
		"  --quiet          no progress\n"
		"  -h, --help       this text\n\n"
		"Stages, mnist: alg1 alg2 final verify squeeze add20 eta tau over\n"
		"        adult: alg1 alg2 final verify squeeze over\n");
}

static void say(const char *line, void *ud)
{
	progress_clear(ud);
	fprintf(stderr, "%s\n", line);
}

int cmd_paper(int argc, char **argv)
{
	static const struct option opts[] = {
		{"quick", no_argument, 0, 'k'},	   {"out", required_argument, 0, 'o'},
		{"report", required_argument, 0, 'r'}, {"stages", required_argument, 0, 'S'},
		{"data-dir", required_argument, 0, 'd'}, {"seed", required_argument, 0, 's'},
		{"threads", required_argument, 0, 't'}, {"quiet", no_argument, 0, 'q'},
		{"center", no_argument, 0, 'C'},  {"standardize", no_argument, 0, 'Z'},
		{"help", no_argument, 0, 'h'},	   {0, 0, 0, 0},
	};
	PaperOpts o = {.seed = 1, .threads = 2};
	int quiet = 0, c;
	char *end;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'k': o.quick = 1; break;
		case 'C': o.data_scale = DATA_CENTER; break;
		case 'Z': o.data_scale = DATA_STANDARDIZE; break;
		case 'o': o.out = optarg; break;
		case 'r': o.report = optarg; break;
		case 'S': o.stages = optarg; break;
		case 'd': o.data_dir = optarg; break;
		case 's':
			o.seed = strtoull(optarg, &end, 10);
			if (!*optarg || *end) {
				fprintf(stderr, "condnet paper: --seed: '%s' is not a number\n", optarg);
				return 2;
			}
			break;
		case 't':
			o.threads = (int)strtol(optarg, &end, 10);
			if (!*optarg || *end || o.threads < 1 || o.threads > 64) {
				fprintf(stderr, "condnet paper: --threads: '%s' is not 1..64\n", optarg);
				return 2;
			}
			break;
		case 'q': quiet = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1 || !paper_stage_names(argv[optind])) {
		fprintf(stderr, "condnet paper: name one experiment: mnist or adult\n");
		usage(stderr);
		return 2;
	}
	o.which = argv[optind];
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
	Progress pr;
	progress_init(&pr, "condnet paper", quiet, 1);
	o.cb = progress_train_cb;
	o.cb_ud = &pr;
	if (!quiet) {
		o.say = say;
		o.say_ud = &pr;
	}
	progress_trap_signals();
	Err e = {{0}};
	int rc = paper_run(&o, &e);
	progress_clear(&pr);
	if (rc < 0) {
		fprintf(stderr, "condnet paper: %s\n", e.msg);
		return 1;
	}
	printf("report written to %s\n", o.report);
	return 0;
}
