/* setup/opts.c - the options both front ends take: the common options'
 * table, help and handler, the table a command line is parsed with, and
 * strict number parsing. */
#include "setup/opts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/list.h"
#include "data/mnist.h"
#include "data/plane_sets.h"
#include "engine/cond.h"
#include "engine/cond_matrix.h"
#include "engine/graph_family.h"
#include "engine/limits.h"
#include "engine/net.h"

/* The data-set options come first: OPTS_DATA_NOPTIONS in opts.h counts them. */
const struct option opts_common[] = {
    {"data", required_argument, NULL, OPTS_DATA},
    {"data-dir", required_argument, NULL, OPTS_DATA_DIR},
    {"features", required_argument, NULL, OPTS_FEATURES},
    {"label-col", required_argument, NULL, OPTS_LABEL_COL},
    {"limit", required_argument, NULL, OPTS_LIMIT},
    {"center", no_argument, NULL, OPTS_CENTER},
    {"standardize", no_argument, NULL, OPTS_STANDARDIZE},
    {"points", required_argument, NULL, OPTS_POINTS},
    {"noise", required_argument, NULL, OPTS_NOISE},
    {"inputs", required_argument, NULL, OPTS_INPUTS},
    {"shape", required_argument, NULL, OPTS_SHAPE},
    {"layers", required_argument, NULL, OPTS_LAYERS},
    {"act", required_argument, NULL, OPTS_ACT},
    {"act-scale", required_argument, NULL, OPTS_ACT_SCALE},
    {"seed", required_argument, NULL, OPTS_SEED},
    {"batch", required_argument, NULL, OPTS_BATCH},
    {"lr", required_argument, NULL, OPTS_LR},
    {"threads", required_argument, NULL, OPTS_THREADS},
    {"load", required_argument, NULL, OPTS_LOAD},
    {"save", required_argument, NULL, OPTS_SAVE},
    {"json", required_argument, NULL, OPTS_JSON},
    {"csv", required_argument, NULL, OPTS_CSV},
    {"quiet", no_argument, NULL, OPTS_QUIET},
    {"val-frac", required_argument, NULL, OPTS_VAL_FRAC},
    {"val-per-class", required_argument, NULL, OPTS_VAL_PER_CLASS},
    {"schedule", required_argument, NULL, OPTS_SCHEDULE},
    {"warmup", required_argument, NULL, OPTS_WARMUP},
    {"early-stop", required_argument, NULL, OPTS_EARLY_STOP},
    {"cond-path", required_argument, NULL, OPTS_COND_PATH},
    {"wide", required_argument, NULL, OPTS_WIDE},
};
const int opts_ncommon = sizeof opts_common / sizeof *opts_common;

const struct option opts_mode[OPTS_MODE_NOPTIONS] = {
    {"reproducible", no_argument, NULL, OPTS_REPRO},
    {"no-reproducible", no_argument, NULL, OPTS_NO_REPRO},
};

const char opts_common_help[] =
    "Data:\n" OPTS_DATA_HELP OPTS_INPUTS_HELP "Validation:\n"
    "  --val-frac F         validation fraction of every class, 0 < F < 1 (default 0.1)\n"
    "  --val-per-class N    validation rows of every class (replaces --val-frac)\n"
    "  --early-stop P       hold out the validation split (--val-frac), measure it after\n"
    "                       every epoch, stop when its accuracy has not improved for P\n"
    "                       epochs and keep the best epoch's weights (the epochs given\n"
    "                       are then the cap)\n"
    "Network:\n" OPTS_NETWORK_HELP
    "  --load MODEL         start from a saved model instead of --layers\n"
    "  --onnx FILE          or from a network in an ONNX file, read as 'condnet import'\n"
    "                       reads it (a chain or a graph network)\n"
    "  --seed S             seed of the initial weights and of the batch order (default 1)\n"
    "Training:\n"
    "  --batch B            mini-batch size (default 50)\n"
    "  --lr LR              Adam learning rate (default 0.001)\n"
    "  --threads N          threads to compute on, 1..64 (default 2, or "
    "$OPENBLAS_NUM_THREADS)\n" OPTS_MODE_HELP OPTS_COND_PATH_HELP OPTS_WIDE_HELP
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
    "  --quiet              no progress display\n" OPTS_DRY_RUN_HELP
    "  -h, --help           this text\n";

void opts_default(CommonOpts *c)
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

int opts_int(const char *name, const char *s, long lo, long hi, int *out, Err *e)
{
	return limit_parse_range(name, s, lo, hi, out, e);
}

int opts_double(const char *name, const char *s, double lo, int lo_open, double hi, double *out,
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
		const char *p = s + 4, *item;
		size_t len;
		int n = 0, r;
		while ((r = list_next(&p, &item, &len, &n, "--data", s, e)) > 0)
			if (n > 2)
				return err_set(e, "--data: '%s': expected csv:TRAIN[,TEST]", s);
		return r;
	}
	return err_set(e,
	               "--data: unknown data set '%s' (expected mnist, fashion, adult, synthetic, "
	               "%s or csv:TRAIN[,TEST])",
	               s, PLANE_SET_NAMES);
}

/* Long on purpose: a case per common option, a few lines each, in the
 * order of opts_common; split, the table would be scattered. */
int opts_handle(CommonOpts *c, int opt, const char *arg, Err *e)
{
	double d;
	switch (opt) {
	case OPTS_DATA:
		if (check_data_spec(arg, e))
			return -1;
		c->data.spec = arg;
		return 1;
	case OPTS_DATA_DIR:
		c->data.dir = arg;
		return 1;
	case OPTS_FEATURES:
		c->features_given = 1;
		return limit_parse_int(LIM_FEATURES, "--features", arg, &c->data.features, e) ? -1
		                                                                              : 1;
	case OPTS_INPUTS: {
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
	case OPTS_LABEL_COL:
		return opts_int("--label-col", arg, 0, 1000000, &c->data.label_col, e) ? -1 : 1;
	case OPTS_CENTER:
		c->data.scale = DATA_CENTER;
		return 1;
	case OPTS_STANDARDIZE:
		c->data.scale = DATA_STANDARDIZE;
		return 1;
	case OPTS_LIMIT:
		return limit_parse_int(LIM_ROWS, "--limit", arg, &c->data.limit, e) ? -1 : 1;
	case OPTS_POINTS:
		return limit_parse_int(LIM_POINTS, "--points", arg, &c->data.points, e) ? -1 : 1;
	case OPTS_NOISE:
		return limit_parse(LIM_NOISE, "--noise", arg, &c->data.noise, e) ? -1 : 1;
	case OPTS_SHAPE:
		return datasets_parse_shape("--shape", arg, c->data.shape, e) ? -1 : 1;
	case OPTS_LAYERS: {
		LayerSpec *ls = NULL;
		int n = 0;
		if (graph_family_spec(arg) ? graph_family_check(arg, e)
		                           : layers_parse(arg, &ls, &n, e))
			return err_prefix(e, "--layers");
		free(ls);
		c->layers = arg;
		return 1;
	}
	case OPTS_ACT:
		return act_parse(arg, &c->act, e) ? err_prefix(e, "--act") : 1;
	case OPTS_ACT_SCALE:
		if (limit_parse(LIM_ACT_SCALE, "--act-scale", arg, &d, e))
			return -1;
		c->act_a = (float)d;
		return 1;
	case OPTS_SEED:
		if (parse_seed(arg, &c->seed, e))
			return -1;
		c->train.seed = c->seed;
		return 1;
	case OPTS_BATCH:
		return limit_parse_int(LIM_BATCH, "--batch", arg, &c->train.batch, e) ? -1 : 1;
	case OPTS_LR:
		if (limit_parse(LIM_LR, "--lr", arg, &d, e))
			return -1;
		c->train.adam.lr = d;
		return 1;
	case OPTS_THREADS:
		return limit_parse_int(LIM_THREADS, "--threads", arg, &c->train.threads, e) ? -1
		                                                                            : 1;
	case OPTS_COND_PATH: {
		CondPath p;
		if (cond_path_parse(arg, &p, e))
			return err_prefix(e, "--cond-path");
		cond_set_path(p);
		return 1;
	}
	case OPTS_WIDE: {
		CondWide w;
		if (cond_wide_parse(arg, &w, e))
			return err_prefix(e, "--wide");
		cond_set_wide(w);
		return 1;
	}
	case OPTS_LOAD:
		c->load = arg;
		return 1;
	case OPTS_ONNX:
		c->onnx = arg;
		return 1;
	case OPTS_SAVE:
		c->save = arg;
		return 1;
	case OPTS_JSON:
		c->json = arg;
		return 1;
	case OPTS_CSV:
		c->csv = arg;
		return 1;
	case OPTS_QUIET:
		c->quiet = 1;
		return 1;
	case OPTS_VAL_FRAC:
		if (limit_parse(LIM_VAL_FRAC, "--val-frac", arg, &d, e))
			return -1;
		c->val_frac = d;
		c->val_per_class = 0;
		return 1;
	case OPTS_VAL_PER_CLASS:
		return limit_parse_int(LIM_VAL_PER_CLASS, "--val-per-class", arg, &c->val_per_class,
		                       e)
		           ? -1
		           : 1;
	case OPTS_SCHEDULE:
		if (sched_parse(arg, &c->train.sched, e))
			return err_prefix(e, "--schedule");
		c->sched_given = 1;
		return 1;
	case OPTS_WARMUP:
		if (limit_parse(LIM_WARMUP, "--warmup", arg, &d, e))
			return -1;
		c->train.sched.warmup = d;
		c->sched_given = 1;
		return 1;
	case OPTS_EARLY_STOP:
		return limit_parse_int(LIM_EARLY_STOP, "--early-stop", arg, &c->early_stop, e) ? -1
		                                                                               : 1;
	}
	return 0;
}

/* --dry-run was given to the command being parsed. */
static int dry_run;

int opts_dry_run(const char *cmd)
{
	if (!dry_run)
		return 0;
	printf("condnet %s: --dry-run: the options and outputs are fine; nothing was read, run "
	       "or written\n",
	       cmd);
	return 1;
}

/* The code of the common or mode option named by the n bytes at name, or 0. */
static int common_code(const char *name, size_t n)
{
	for (int i = 0; i < opts_ncommon; i++)
		if (strlen(opts_common[i].name) == n && !strncmp(opts_common[i].name, name, n))
			return opts_common[i].val;
	for (int i = 0; i < OPTS_MODE_NOPTIONS; i++)
		if (strlen(opts_mode[i].name) == n && !strncmp(opts_mode[i].name, name, n))
			return opts_mode[i].val;
	return 0;
}

/* 1 when one of the n entries of t is named name. */
static int named(const struct option *t, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(t[i].name, name))
			return 1;
	return 0;
}

static int count(const struct option *own)
{
	int n = 0;
	while (own && own[n].name)
		n++;
	return n;
}

int opts_table_len(const struct option *own)
{
	return 2 + OPTS_MODE_NOPTIONS + opts_ncommon + count(own) + 1;
}

int opts_table(struct option *t, int len, uint64_t common, const struct option *own)
{
	int n = 0, nown = count(own);
	t[0] = (struct option){0};
	if (len < opts_table_len(own))
		return -1;
	t[n++] = (struct option){"help", no_argument, NULL, 'h'};
	t[n++] = (struct option){"dry-run", no_argument, NULL, OPTS_DRY_RUN};
	for (int i = 0; i < OPTS_MODE_NOPTIONS; i++)
		if ((common & OPTS_BIT(opts_mode[i].val)) && !named(own, nown, opts_mode[i].name))
			t[n++] = opts_mode[i];
	for (int i = 0; i < opts_ncommon; i++)
		if ((common & OPTS_BIT(opts_common[i].val)) &&
		    !named(own, nown, opts_common[i].name))
			t[n++] = opts_common[i];
	for (int i = 0; i < nown; i++)
		if (!named(t, n, own[i].name))
			t[n++] = own[i];
	t[n] = (struct option){0};
	return n;
}

/* opts_common_help but the entries (an option's line and the more indented
 * lines under it) of the options in without, and the headings left empty. */
static void print_common_help(FILE *f, uint64_t without)
{
	const char *p = opts_common_help, *heading = NULL;
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
				skip = code && (without & OPTS_BIT(code));
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

int opts_parse(int argc, char **argv, CommonOpts *c, CommonOpts *shared, const struct option *own,
               OptsOwnFn fn, void *ud, const char *help_head, int *first)
{
	struct option opts[opts_table_len(own)];
	Err e = {{0}};
	uint64_t without = c ? c->without : 0;
	opts_table(opts, opts_table_len(own), c ? ~without : 0, own);

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
		if (o == OPTS_DRY_RUN) {
			dry_run = 1;
			continue;
		}
		if (o == OPTS_REPRO || o == OPTS_NO_REPRO)
			continue; /* main.c has entered the mode or not */
		if (o >= OPTS_DATA && o < OPTS_OWN && (c || shared))
			rc = opts_handle(c ? c : shared, o, optarg, &e) < 0 ? -1 : 0;
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

const char *opts_default_layers(const char *spec)
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

const char *opts_data_name(const CommonOpts *c)
{
	return c->data.spec ? c->data.spec : "synthetic";
}

/* The directory of the running executable, in dir; 0, or -1 when unknown. */
