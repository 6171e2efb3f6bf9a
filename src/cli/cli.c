/* cli.c - the options every batch command shares, strict number parsing,
 * and loading the data and the network they describe. */
#include "cli/cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/blas.h"
#include "base/file.h"
#include "base/rng.h"
#include "base/signals.h"
#include "data/mnist.h"
#include "data/plane_sets.h"
#include "engine/cond.h"
#include "engine/cond_matrix.h"
#include "engine/limits.h"
#include "model/model_io.h"

/* The data-set options come first: CLI_DATA_NOPTIONS in cli.h counts them. */
const struct option cli_common_options[] = {
    {"data", required_argument, NULL, CLI_OPT_DATA},
    {"data-dir", required_argument, NULL, CLI_OPT_DATA_DIR},
    {"features", required_argument, NULL, CLI_OPT_FEATURES},
    {"label-col", required_argument, NULL, CLI_OPT_LABEL_COL},
    {"limit", required_argument, NULL, CLI_OPT_LIMIT},
    {"center", no_argument, NULL, CLI_OPT_CENTER},
    {"standardize", no_argument, NULL, CLI_OPT_STANDARDIZE},
    {"points", required_argument, NULL, CLI_OPT_POINTS},
    {"noise", required_argument, NULL, CLI_OPT_NOISE},
    {"inputs", required_argument, NULL, CLI_OPT_INPUTS},
    {"shape", required_argument, NULL, CLI_OPT_SHAPE},
    {"layers", required_argument, NULL, CLI_OPT_LAYERS},
    {"act", required_argument, NULL, CLI_OPT_ACT},
    {"act-scale", required_argument, NULL, CLI_OPT_ACT_SCALE},
    {"seed", required_argument, NULL, CLI_OPT_SEED},
    {"batch", required_argument, NULL, CLI_OPT_BATCH},
    {"lr", required_argument, NULL, CLI_OPT_LR},
    {"threads", required_argument, NULL, CLI_OPT_THREADS},
    {"load", required_argument, NULL, CLI_OPT_LOAD},
    {"save", required_argument, NULL, CLI_OPT_SAVE},
    {"json", required_argument, NULL, CLI_OPT_JSON},
    {"csv", required_argument, NULL, CLI_OPT_CSV},
    {"quiet", no_argument, NULL, CLI_OPT_QUIET},
    {"val-frac", required_argument, NULL, CLI_OPT_VAL_FRAC},
    {"val-per-class", required_argument, NULL, CLI_OPT_VAL_PER_CLASS},
    {"schedule", required_argument, NULL, CLI_OPT_SCHEDULE},
    {"warmup", required_argument, NULL, CLI_OPT_WARMUP},
    {"early-stop", required_argument, NULL, CLI_OPT_EARLY_STOP},
    {"cond-path", required_argument, NULL, CLI_OPT_COND_PATH},
};
const int cli_common_noptions = sizeof cli_common_options / sizeof *cli_common_options;

const struct option cli_mode_options[CLI_MODE_NOPTIONS] = {
    {"reproducible", no_argument, NULL, CLI_OPT_REPRO},
    {"no-reproducible", no_argument, NULL, CLI_OPT_NO_REPRO},
};

const char cli_common_help[] =
    "Data:\n" CLI_DATA_HELP CLI_INPUTS_HELP "Validation:\n"
    "  --val-frac F         validation fraction of every class, 0 < F < 1 (default 0.1)\n"
    "  --val-per-class N    validation rows of every class (replaces --val-frac)\n"
    "  --early-stop P       hold out the validation split (--val-frac), measure it after\n"
    "                       every epoch, stop when its accuracy has not improved for P\n"
    "                       epochs and keep the best epoch's weights (the epochs given\n"
    "                       are then the cap)\n"
    "Network:\n"
    "  --layers SPEC        hidden widths: 12x300, 600,410,510 or 3x50,20 (default:\n"
    "                       synthetic 4x32, mnist and fashion 12x300, adult 12x50, csv 3x32,\n"
    "                       the plane data sets 2x32)\n"
    "  --act NAME           erf, tanh, relu or sigmoid (default erf)\n"
    "  --act-scale A        a in erf(a*x) (default 1)\n"
    "  --load MODEL         start from a saved model instead of --layers\n"
    "  --seed S             seed of the initial weights and of the batch order (default 1)\n"
    "Training:\n"
    "  --batch B            mini-batch size (default 50)\n"
    "  --lr LR              Adam learning rate (default 0.001)\n"
    "  --threads N          threads to compute on, 1..64 (default 2, or "
    "$OPENBLAS_NUM_THREADS)\n" CLI_MODE_HELP CLI_COND_PATH_HELP
    "  --schedule SPEC      the learning rate over a training: constant (default),\n"
    "                       step:E[:F] (times F, default 0.1, every E epochs),\n"
    "                       cosine[:T] (from --lr down to 0 at epoch T, default the\n"
    "                       training's length) or plateau:P[:F] (times F after P epochs\n"
    "                       without a lower validation loss; needs the validation split)\n"
    "  --warmup W           raise the rate linearly from 0 to --lr over the first W\n"
    "                       epochs (default 0)\n"
    "Output:\n"
    "  --save MODEL         write the resulting model\n"
    "  --json FILE          write a JSON record of the run (- for standard output;\n"
    "                       the text report then goes to standard error)\n"
    "  --csv FILE           write the main table as CSV (- for standard output)\n"
    "  --quiet              no progress display\n" CLI_DRY_RUN_HELP
    "  -h, --help           this text\n";

void cli_common_default(CommonOpts *c)
{
	memset(c, 0, sizeof *c);
	dataspec_default(&c->data);
	c->act = ACT_ERF;
	c->act_a = 1.0f;
	c->seed = 1;
	train_opts_default(&c->train);
	c->train.batch = 50;
	/* OPENBLAS_NUM_THREADS, when set, is left in charge unless --threads is given */
	const char *env = getenv("OPENBLAS_NUM_THREADS");
	c->train.threads = env && *env ? 0 : 2;
	c->train.seed = c->seed;
	c->val_frac = 0.1;
}

int cli_int(const char *name, const char *s, long lo, long hi, int *out, Err *e)
{
	return limit_parse_range(name, s, lo, hi, out, e);
}

int cli_double(const char *name, const char *s, double lo, int lo_open, double hi, double *out,
               Err *e)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v))
		return err_set(e, "%s: '%s' is not a number", name, s);
	if (lo_open && v <= lo) {
		if (lo == 0)
			return err_set(e, "%s: '%s' is not a positive number", name, s);
		return err_set(e, "%s: '%s' must be greater than %g", name, s, lo);
	}
	if (!lo_open && v < lo)
		return err_set(e, "%s: '%s' must be at least %g", name, s, lo);
	if (v > hi)
		return err_set(e, "%s: '%s' must be at most %g", name, s, hi);
	*out = v;
	return 0;
}

static int parse_seed(const char *s, uint64_t *out, Err *e)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-')
		return err_set(e, "--seed: '%s' is not a non-negative integer", s);
	*out = v;
	return 0;
}

/* The data set part of a spec: "csv" for "csv:…". */
static int spec_is(const char *spec, const char *name)
{
	size_t n = strlen(name);
	return spec && !strncmp(spec, name, n) && (spec[n] == '\0' || spec[n] == ':');
}

static int check_data_spec(const char *s, Err *e)
{
	if (spec_is(s, "mnist") || spec_is(s, "fashion") || spec_is(s, "adult") ||
	    spec_is(s, "synthetic") || spec_is(s, "spiral") || spec_is(s, "circles") ||
	    spec_is(s, "xor") || spec_is(s, "gauss") || spec_is(s, "moons")) {
		if (strchr(s, ':'))
			return err_set(e, "--data: '%s': only csv takes a file name", s);
		return 0;
	}
	if (!strncmp(s, "csv:", 4)) {
		const char *comma = strchr(s + 4, ',');
		if (!s[4] || s[4] == ',' || (comma && !comma[1]))
			return err_set(e, "--data: '%s': expected csv:TRAIN[,TEST]", s);
		return 0;
	}
	return err_set(e,
	               "--data: unknown data set '%s' (expected mnist, fashion, adult, synthetic, "
	               "%s or csv:TRAIN[,TEST])",
	               s, PLANE_SET_NAMES);
}

int cli_common_handle(CommonOpts *c, int opt, const char *arg, Err *e)
{
	double d;
	switch (opt) {
	case CLI_OPT_DATA:
		if (check_data_spec(arg, e))
			return -1;
		c->data.spec = arg;
		return 1;
	case CLI_OPT_DATA_DIR:
		c->data.dir = arg;
		return 1;
	case CLI_OPT_FEATURES:
		c->features_given = 1;
		return limit_parse_int(LIM_FEATURES, "--features", arg, &c->data.features, e) ? -1
		                                                                              : 1;
	case CLI_OPT_INPUTS: {
		int kind = mnist_inputs_parse(arg);
		if (kind < 0)
			return err_set(
			    e,
			    "--inputs: unknown inputs '%s' (expected qr, variance, coarse, "
			    "all or pixels)",
			    arg);
		c->data.inputs = kind;
		c->inputs_given = 1;
		return 1;
	}
	case CLI_OPT_SHAPE:
		return datasets_parse_shape("--shape", arg, c->data.shape, e) ? -1 : 1;
	case CLI_OPT_LABEL_COL:
		return cli_int("--label-col", arg, 0, 1000000, &c->data.label_col, e) ? -1 : 1;
	case CLI_OPT_CENTER:
		c->data.scale = DATA_CENTER;
		return 1;
	case CLI_OPT_STANDARDIZE:
		c->data.scale = DATA_STANDARDIZE;
		return 1;
	case CLI_OPT_LIMIT:
		return limit_parse_int(LIM_ROWS, "--limit", arg, &c->data.limit, e) ? -1 : 1;
	case CLI_OPT_POINTS:
		return limit_parse_int(LIM_POINTS, "--points", arg, &c->data.points, e) ? -1 : 1;
	case CLI_OPT_NOISE:
		return limit_parse(LIM_NOISE, "--noise", arg, &c->data.noise, e) ? -1 : 1;
	case CLI_OPT_LAYERS: {
		LayerSpec *ls = NULL;
		int n = 0;
		if (layers_parse(arg, &ls, &n, e))
			return err_prefix(e, "--layers");
		free(ls);
		c->layers = arg;
		return 1;
	}
	case CLI_OPT_ACT:
		return act_parse(arg, &c->act, e) ? err_prefix(e, "--act") : 1;
	case CLI_OPT_ACT_SCALE:
		if (limit_parse(LIM_ACT_SCALE, "--act-scale", arg, &d, e))
			return -1;
		c->act_a = (float)d;
		return 1;
	case CLI_OPT_SEED:
		if (parse_seed(arg, &c->seed, e))
			return -1;
		c->train.seed = c->seed;
		return 1;
	case CLI_OPT_BATCH:
		return limit_parse_int(LIM_BATCH, "--batch", arg, &c->train.batch, e) ? -1 : 1;
	case CLI_OPT_LR:
		if (limit_parse(LIM_LR, "--lr", arg, &d, e))
			return -1;
		c->train.adam.lr = d;
		return 1;
	case CLI_OPT_THREADS:
		return limit_parse_int(LIM_THREADS, "--threads", arg, &c->train.threads, e) ? -1
		                                                                            : 1;
	case CLI_OPT_COND_PATH: {
		CondPath p;
		if (cond_path_parse(arg, &p, e))
			return err_prefix(e, "--cond-path");
		cond_set_path(p);
		return 1;
	}
	case CLI_OPT_LOAD:
		c->load = arg;
		return 1;
	case CLI_OPT_SAVE:
		c->save = arg;
		return 1;
	case CLI_OPT_JSON:
		c->json = arg;
		return 1;
	case CLI_OPT_CSV:
		c->csv = arg;
		return 1;
	case CLI_OPT_QUIET:
		c->quiet = 1;
		return 1;
	case CLI_OPT_VAL_FRAC:
		if (limit_parse(LIM_VAL_FRAC, "--val-frac", arg, &d, e))
			return -1;
		c->val_frac = d;
		c->val_per_class = 0;
		return 1;
	case CLI_OPT_VAL_PER_CLASS:
		return limit_parse_int(LIM_VAL_PER_CLASS, "--val-per-class", arg, &c->val_per_class,
		                       e)
		           ? -1
		           : 1;
	case CLI_OPT_SCHEDULE:
		if (sched_parse(arg, &c->train.sched, e))
			return err_prefix(e, "--schedule");
		c->sched_given = 1;
		return 1;
	case CLI_OPT_WARMUP:
		if (limit_parse(LIM_WARMUP, "--warmup", arg, &d, e))
			return -1;
		c->train.sched.warmup = d;
		c->sched_given = 1;
		return 1;
	case CLI_OPT_EARLY_STOP:
		return limit_parse_int(LIM_EARLY_STOP, "--early-stop", arg, &c->early_stop, e) ? -1
		                                                                               : 1;
	}
	return 0;
}

/* --dry-run was given to the command being parsed. */
static int dry_run;

int cli_dry_run(const char *cmd)
{
	if (!dry_run)
		return 0;
	printf("condnet %s: --dry-run: the options and outputs are fine; nothing was read, run "
	       "or written\n",
	       cmd);
	return 1;
}

int cli_no_plateau(const CommonOpts *c, const char *cmd, const char *why)
{
	if (c->train.sched.kind != SCHED_PLATEAU)
		return 0;
	fprintf(stderr, "condnet %s: the plateau schedule needs a validation set, which %s\n", cmd,
	        why);
	return 2;
}

/* The code of the common or mode option named by the n bytes at name, or 0. */
static int common_code(const char *name, size_t n)
{
	for (int i = 0; i < cli_common_noptions; i++)
		if (strlen(cli_common_options[i].name) == n &&
		    !strncmp(cli_common_options[i].name, name, n))
			return cli_common_options[i].val;
	for (int i = 0; i < CLI_MODE_NOPTIONS; i++)
		if (strlen(cli_mode_options[i].name) == n &&
		    !strncmp(cli_mode_options[i].name, name, n))
			return cli_mode_options[i].val;
	return 0;
}

/* cli_common_help but the entries (an option's line and the more indented
 * lines under it) of the options in without, and the headings left empty. */
static void print_common_help(FILE *f, uint64_t without)
{
	const char *p = cli_common_help, *heading = NULL;
	size_t hlen = 0;
	int skip = 0;
	while (*p) {
		size_t len = strcspn(p, "\n");
		len += p[len] == '\n';
		if (p[0] != ' ') { /* a heading: printed before its first entry */
			heading = p;
			hlen = len;
			skip = 0;
		} else {
			if (!strncmp(p, "  --", 4)) { /* an entry; else a line of the one before */
				int code = common_code(p + 4, strcspn(p + 4, " \n"));
				skip = code && (without & CLI_BIT(code));
			}
			if (!skip && heading) {
				fwrite(heading, 1, hlen, f);
				heading = NULL;
			}
			if (!skip)
				fwrite(p, 1, len, f);
		}
		p += len;
	}
}

int cli_parse(int argc, char **argv, CommonOpts *c, CommonOpts *shared, const struct option *own,
              CliOwnFn fn, void *ud, const char *help_head, int *first)
{
	struct option opts[96];
	int n = 0;
	Err e = {{0}};
	uint64_t without = c ? c->without : 0;
	opts[n++] = (struct option){"help", no_argument, NULL, 'h'};
	opts[n++] = (struct option){"dry-run", no_argument, NULL, CLI_OPT_DRY_RUN};
	for (int i = 0; c && i < CLI_MODE_NOPTIONS; i++)
		if (!(without & CLI_BIT(cli_mode_options[i].val)))
			opts[n++] = cli_mode_options[i];
	for (int i = 0; c && i < cli_common_noptions; i++)
		if (!(without & CLI_BIT(cli_common_options[i].val)))
			opts[n++] = cli_common_options[i];
	for (int i = 0; own && own[i].name && n < 95; i++)
		opts[n++] = own[i];
	opts[n] = (struct option){0};

	opterr = 0;
	optind = 0;
	dry_run = 0;
	int o;
	while ((o = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		int rc = 0;
		if (o == 'h') {
			fputs(help_head, stdout);
			if (c)
				print_common_help(stdout, without);
			return 1;
		}
		if (o == ':')
			fprintf(stderr, "condnet %s: %s needs a value\n", argv[0],
			        argv[optind - 1]);
		else if (o == '?' && optopt >= 256)
			fprintf(stderr, "condnet %s: %s takes no value\n", argv[0],
			        argv[optind - 1]);
		else if (o == '?' && optopt)
			fprintf(stderr, "condnet %s: unknown option '-%c'\n", argv[0], optopt);
		else if (o == '?')
			fprintf(stderr, "condnet %s: unknown option '%s'\n", argv[0],
			        argv[optind - 1]);
		if (o == ':' || o == '?') {
			fprintf(stderr, "Try 'condnet %s --help'.\n", argv[0]);
			return 2;
		}
		if (o == CLI_OPT_DRY_RUN) {
			dry_run = 1;
			continue;
		}
		if (o == CLI_OPT_REPRO || o == CLI_OPT_NO_REPRO)
			continue; /* main.c has entered the mode or not */
		if (o >= CLI_OPT_DATA && o < CLI_OPT_OWN && (c || shared))
			rc = cli_common_handle(c ? c : shared, o, optarg, &e) < 0 ? -1 : 0;
		else if (fn)
			rc = fn(o, optarg, ud, &e);
		if (rc) {
			fprintf(stderr, "condnet %s: %s\n", argv[0], e.msg);
			return 2;
		}
	}
	/* a plane data set's points and noise, refused for any other */
	const CommonOpts *co = c ? c : shared;
	if (co && (co->data.points > 0 || co->data.noise >= 0) && !plane_set_is(co->data.spec)) {
		fprintf(stderr,
		        "condnet %s: --points and --noise go with a plane data set (--data %s)\n",
		        argv[0], PLANE_SET_NAMES);
		return 2;
	}
	if (co && co->features_given &&
	    (co->data.inputs == MNIST_ALL || co->data.inputs == MNIST_PIXELS)) {
		fprintf(
		    stderr,
		    "condnet %s: --features counts the coefficients of --inputs qr, variance and "
		    "coarse; --inputs %s takes %s\n",
		    argv[0], mnist_inputs_name(co->data.inputs),
		    co->data.inputs == MNIST_ALL ? "all 1,024" : "every pixel");
		return 2;
	}
	if (first)
		*first = optind;
	else if (optind < argc) {
		fprintf(stderr, "condnet %s: unexpected argument '%s'\n", argv[0], argv[optind]);
		return 2;
	}
	return 0;
}

int cli_plan(const CommonOpts *c, const Dataset *train, const LrSchedule *sched, double epochs,
             TrainPlan *p, Dataset **tr, Dataset **val, Err *e)
{
	*tr = *val = NULL;
	train_plan_default(p, &c->train, epochs);
	p->patience = c->early_stop;
	if (!sched)
		sched = &c->train.sched;
	if (c->early_stop <= 0 && sched->kind != SCHED_PLATEAU)
		return 0;
	if (dataset_split(train, c->val_per_class > 0 ? 0 : c->val_frac, c->val_per_class, c->seed,
	                  tr, val, e) < 0)
		return err_prefix(e, "the validation split");
	p->val = *val;
	return 0;
}

const char *cli_plan_str(const TrainPlan *p, const LrSchedule *sched, char *buf, size_t len)
{
	char spec[64];
	if (!sched)
		sched = &p->opts.sched;
	int n = snprintf(buf, len, "schedule %s", sched_format(sched, spec, sizeof spec));
	if (n >= 0 && (size_t)n < len && sched->warmup > 0)
		n += snprintf(buf + n, len - (size_t)n, ", warm-up %g epoch%s", sched->warmup,
		              sched->warmup == 1 ? "" : "s");
	if (n >= 0 && (size_t)n < len && p->patience > 0)
		snprintf(buf + n, len - (size_t)n, ", early stopping after %d epoch%s", p->patience,
		         p->patience == 1 ? "" : "s");
	if (n >= 0 && (size_t)n < len && p->val)
		snprintf(buf + strlen(buf), len - strlen(buf), " on %d validation rows", p->val->n);
	return buf;
}

const char *cli_default_layers(const char *spec)
{
	if (spec_is(spec, "mnist") || spec_is(spec, "fashion"))
		return "12x300";
	if (spec_is(spec, "adult"))
		return "12x50";
	if (spec_is(spec, "csv"))
		return "3x32";
	if (plane_set_is(spec))
		return "2x32";
	return "4x32";
}

const char *cli_data_name(const CommonOpts *c)
{
	return c->data.spec ? c->data.spec : "synthetic";
}

/* The directory of the running executable, in dir; 0, or -1 when unknown. */
static int exe_dir(char *dir, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);
	if (n <= 0 || (size_t)n >= len - 1)
		return -1;
	dir[n] = '\0';
	char *slash = strrchr(dir, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return 0;
}

int cli_source_tree(char *dir, size_t len)
{
	char exe[PATH_MAX], path[PATH_MAX + 32], line[PATH_MAX + 64];
	if (exe_dir(exe, sizeof exe))
		return 0;
	snprintf(path, sizeof path, "%s/config.status", exe);
	if (access(path, F_OK) != 0)
		return 0;
	/* the build tree's Makefile names the source tree */
	snprintf(path, sizeof path, "%s/Makefile", exe);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	int found = 0;
	while (!found && fgets(line, sizeof line, f)) {
		const char *key = "abs_top_srcdir = ";
		if (strncmp(line, key, strlen(key)))
			continue;
		char *v = line + strlen(key);
		v[strcspn(v, "\n")] = '\0';
		found = *v && snprintf(dir, len, "%s", v) < (int)len;
	}
	fclose(f);
	/* configure's path may hold "build/..": the messages name the plain one */
	char real[PATH_MAX];
	if (found && realpath(dir, real) && strlen(real) < len)
		memcpy(dir, real, strlen(real) + 1);
	return found;
}

int cli_data_dirs(const char *sub, char dirs[][PATH_MAX], int max)
{
	char exe[PATH_MAX], src[PATH_MAX];
	int n = 0;
	if (n < max && snprintf(dirs[n], PATH_MAX, "%s/%s", CONDNET_DATADIR, sub) < PATH_MAX)
		n++;
	/* installed elsewhere than configured: PREFIX/bin/condnet beside PREFIX/share/condnet */
	if (n < max && !exe_dir(exe, sizeof exe) &&
	    snprintf(dirs[n], PATH_MAX, "%s/../share/condnet/%s", exe, sub) < PATH_MAX)
		n++;
	if (n < max && cli_source_tree(src, sizeof src) &&
	    snprintf(dirs[n], PATH_MAX, "%s/data/%s", src, sub) < PATH_MAX)
		n++;
	return n;
}

const char *cli_man_hint(void)
{
	static char hint[PATH_MAX + 64];
	char cwd[PATH_MAX], src[PATH_MAX], page[PATH_MAX + 32];
	if (!cli_source_tree(src, sizeof src))
		return "'man condnet'";
	snprintf(page, sizeof page, "%s/man/condnet.1", src);
	if (access(page, R_OK) != 0)
		return "'man condnet'";
	if (getcwd(cwd, sizeof cwd) && !strcmp(cwd, src))
		return "'man ./man/condnet.1'";
	snprintf(hint, sizeof hint, "'man %s'", page);
	return hint;
}

const char *cli_fetch_hint(void)
{
	static char found[PATH_MAX];
	char dirs[3][PATH_MAX];
	int n = cli_data_dirs("", dirs, 3);
	for (int i = 0; i < n; i++) {
		/* the source tree's script is data/fetch; the installed one, fetch */
		size_t len = strlen(dirs[i]);
		if (len + sizeof "fetch" > PATH_MAX)
			continue;
		memcpy(dirs[i] + len, "fetch", sizeof "fetch");
		if (access(dirs[i], X_OK) == 0 && realpath(dirs[i], found))
			return found;
	}
	return "data/fetch";
}

int cli_fail(const char *cmd, const Err *e)
{
	fprintf(stderr, "condnet %s: %s\n", cmd, e->msg);
	/* a run a stop signal ended (a decomposition stopped in its middle) */
	return signals_stop() ? 130 : 1;
}

/* 1 when dir names the same path as the directory part of file (textually,
 * trailing slashes aside). */
static int dir_holds(const char *dir, const char *file)
{
	const char *slash = strrchr(file, '/');
	size_t dn = strlen(dir), fn = slash ? (size_t)(slash - file) : 0;
	while (dn > 1 && dir[dn - 1] == '/')
		dn--;
	if (!slash)
		return dn == 1 && dir[0] == '.';
	return fn == dn && !strncmp(dir, file, dn);
}

/* One own output: a directory, or a file (perhaps in one of own's directories). */
static int check_own(const CliOut *o, const CliOut *own, int n, Err *e)
{
	if (o->flags & CLI_OUT_DIR)
		return file_check_dir(o->path, e);
	for (int i = 0; i < n; i++) {
		struct stat st;
		if (own[i].path && (own[i].flags & CLI_OUT_DIR) &&
		    dir_holds(own[i].path, o->path) && stat(own[i].path, &st) != 0)
			return 0; /* made by the command: checked as a directory */
	}
	return file_check_writable(o->path, o->flags, e);
}

int cli_check_outputs(const CommonOpts *c, const CliOut *own, int n, Err *e)
{
	if ((c->save && file_check_writable(c->save, 0, e)) ||
	    (c->json && file_check_writable(c->json, FILE_OUT_TEXT, e)) ||
	    (c->csv && file_check_writable(c->csv, FILE_OUT_TEXT, e)))
		return -1;
	for (int i = 0; i < n; i++)
		if (own[i].path && check_own(&own[i], own, n, e))
			return -1;
	/* a record written to standard output has it to itself: the text report
	 * goes to standard error then, and two records cannot share it */
	const char *to_stdout[2];
	int k = 0;
	if (c->json && file_is_stdout(c->json))
		to_stdout[k++] = "--json";
	if (c->csv && file_is_stdout(c->csv))
		to_stdout[k++] = "--csv";
	for (int i = 0; i < n && k < 2; i++)
		if (own[i].path && (own[i].flags & FILE_OUT_TEXT) && file_is_stdout(own[i].path))
			to_stdout[k++] = own[i].path;
	if (k == 2)
		return err_set(e, "%s and %s both name standard output: give one of them a file",
		               to_stdout[0], to_stdout[1]);
	return k ? file_stdout_for_records(e) : 0;
}

int cli_load_data(const CommonOpts *c, Dataset **train, Dataset **test, Err *e)
{
	Dataset *tr = NULL, *te = NULL;
	if (datasets_load(&c->data, &tr, &te, e))
		return -1;
	if (dataset_validate(tr, "training set", e) ||
	    (te && dataset_validate(te, "test set", e))) {
		dataset_free(tr);
		dataset_free(te);
		return -1;
	}
	if (train)
		*train = tr;
	else
		dataset_free(tr);
	if (test)
		*test = te;
	else
		dataset_free(te);
	return 0;
}

/* The option that gives a scale step: "--center", "--standardize" or none. */
static const char *scale_option(int scale)
{
	return scale == DATA_STANDARDIZE ? "--standardize" : scale == DATA_CENTER ? "--center" : "";
}

int cli_check_prep(const Prep *model, const Prep *data, const char *name, Err *e)
{
	if (!model || !data)
		return 0;
	if (prep_check(model, data, name, data->kind == PREP_NONE ? "the data" : "the data set", e))
		return -1;
	if (model->scale == data->scale)
		return 0;
	if (model->scale == DATA_RAW)
		return err_set(e,
		               "%s was trained on features neither centred nor standardized: "
		               "drop %s",
		               name, scale_option(data->scale));
	return err_set(e, "%s was trained on features %s on its training set: give %s", name,
	               model->scale == DATA_CENTER ? "centred" : "standardized",
	               scale_option(model->scale));
}

int cli_save_model(Net *net, const char *path, const Dataset *train, Err *e)
{
	/* a network made on the data records how the data's inputs were made */
	if (!net->prep && train && train->prep && train->prep->d == net->n[0] &&
	    net_set_prep(net, train->prep, e))
		return -1;
	return model_save(net, path, e);
}

double cli_work_bytes(const CommonOpts *c, const Net *net)
{
	if (!net)
		return 0;
	double sum_n = 0, widest = 0;
	for (int i = 0; i <= net->m; i++)
		sum_n += net->n[i];
	for (int i = 1; i <= net->m; i++) {
		double w = ((double)net->n[i - 1] + 1) * net->n[i];
		widest = w > widest ? w : widest;
	}
	int threads = c->train.threads > 0 ? c->train.threads : 1;
	/* the gradients and Adam's moments (the parameters are there already), a
	 * batch's activations on each thread, and Ŵ of the widest layer in
	 * doubles three times (the conditioning's copies) */
	return 12.0 * (double)net->nparam + 8.0 * threads * c->train.batch * sum_n + 24.0 * widest;
}

int cli_reserve(const CommonOpts *c, double work, Err *e)
{
	int threads = c->train.threads > 0 ? c->train.threads : 1;
	/* the conditioning's threads are as many (one of OpenBLAS's buffers
	 * each), not one a CPU: the same numbers, in the room reserved */
	if (blas_address_limited())
		cond_set_threads(threads);
	return blas_reserve(threads, work, e);
}

/* The network of cli_make_net. */
static Net *make_net(const CommonOpts *c, const Dataset *train, Err *e)
{
	if (c->load) {
		Net *net = model_load(c->load, e);
		if (!net)
			return NULL;
		if (train && net->n[0] != train->d) {
			err_set(e, "%s: model has %d inputs, data set has %d features", c->load,
			        net->n[0], train->d);
			net_free(net);
			return NULL;
		}
		if (train && net_check_images(net, train->c, train->h, train->w, train->name, e)) {
			net_free(net);
			return NULL;
		}
		if (train && net->n[net->m] != train->k) {
			err_set(e, "%s: model has %d outputs, data set has %d classes", c->load,
			        net->n[net->m], train->k);
			net_free(net);
			return NULL;
		}
		if (train && cli_check_prep(net->prep, train->prep, c->load, e)) {
			net_free(net);
			return NULL;
		}
		return net;
	}
	if (!train) {
		err_set(e, "no data set to size a fresh network by");
		return NULL;
	}
	const char *spec = c->layers ? c->layers : cli_default_layers(c->data.spec);
	return net_fresh_spec(spec, train->d, train->c, train->h, train->w, train->k, c->act,
	                      c->act_a, c->seed, train->name, e);
}

Net *cli_make_net(const CommonOpts *c, const Dataset *train, Err *e)
{
	Net *net = make_net(c, train, e);
	/* the work starts next: under an address-space limit, the room for it */
	if (net && cli_reserve(c, cli_work_bytes(c, net), e) < 0) {
		net_free(net);
		return NULL;
	}
	return net;
}
