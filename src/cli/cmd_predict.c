/* cmd_predict.c - `condnet predict`: what a saved network answers for new
 * inputs (or a data set's rows), its class and the probabilities of all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/pool.h"
#include "cli/cmd_eval.h"
#include "data/adult.h"
#include "data/csv.h"
#include "data/datasets.h"
#include "data/npy.h"
#include "data/prep.h"
#include "report/report_eval.h"

static const char help[] =
    "Usage: condnet predict --load MODEL --input FILE [OPTIONS]\n"
    "       condnet predict --load MODEL --data -|SPEC [OPTIONS]\n\n"
    "Write what a network answers for every input, in input order: a CSV with a\n"
    "header line class,p0,p1,... and a line per input holding the class answered\n"
    "(the largest output) and the probabilities of all classes, or .npy arrays.\n"
    "The inputs are a CSV without labels, from a file or standard input, or the\n"
    "rows of a data set's split. They are made into the network's inputs as its\n"
    "training inputs were, by what its model file records: for a model trained on\n"
    "mnist or fashion a row holds an image's pixel values, 0..255, row by row\n"
    "(784 for 28x28), turned into the model's Haar coefficients (whichever\n"
    "--inputs chose them), or for --inputs pixels scaled to 0..1; for adult a row\n"
    "is a UCI Adult record without its income (14 fields); otherwise a row holds\n"
    "the features; then --center or --standardize with the training set's means\n"
    "and scales, as recorded. A network that records nothing (ONNX, .npy, older\n"
    "model files) reads the rows as features, centred or standardized by the\n"
    "options over --data's training split. Every row must have as many columns as\n"
    "the network reads: the message names the line and both widths.\n\n"
    "  --load MODEL         the condnet model file\n"
    "  --onnx FILE          or a network in an ONNX file, as 'condnet import' reads it\n"
    "  --npy DIR            or a network as DIR/W1.npy, DIR/b1.npy, ... (as import)\n"
    "  --layout NAME        --npy weights: keras or torch (default keras)\n"
    "  --act NAME           --npy: the hidden layers' activation (default erf)\n"
    "  --act-scale A        --npy: a in erf(a*x) (default 1)\n"
    "  --input FILE         a CSV of inputs without labels (- for standard input); an\n"
    "                       optional header line, comma-separated numbers\n"
    "  --data -|SPEC        - reads the CSV of inputs from standard input; a data set\n"
    "                       (mnist, adult, csv:TRAIN[,TEST], ...) predicts the rows\n"
    "                       of its --split and, with --input, gives a network that\n"
    "                       records nothing the training split for --center or\n"
    "                       --standardize\n"
    "  --split NAME         with --data SPEC: test (default), train or all\n"
    "  --out FILE           the CSV of answers (default standard output)\n"
    "  --npy-out DIR        write DIR/classes.npy (int32) and DIR/probabilities.npy\n"
    "                       (float32, a row per input) instead of the CSV (both with\n"
    "                       --out); DIR is created if missing\n"
    "  --threads N          threads to compute on, 1..64 (default 2, or "
    "$OPENBLAS_NUM_THREADS)\n" OPTS_MODE_HELP
    "  --quiet              no progress line and no closing line\n" OPTS_DRY_RUN_HELP
    "  -h, --help           this text\n"
    "Data options (with --data SPEC):\n" OPTS_DATA_HELP OPTS_INPUTS_HELP
    "                       (MNIST and Fashion: by default the inputs the model\n"
    "                       records, as eval)\n";

enum { OPT_DATA = OPTS_OWN + 128, OPT_INPUT, OPT_OUT, OPT_NPY_OUT };

static const struct option own[] = {
    EVAL_OPTIONS,
    {"data", required_argument, NULL, OPT_DATA},
    {"input", required_argument, NULL, OPT_INPUT},
    {"out", required_argument, NULL, OPT_OUT},
    {"npy-out", required_argument, NULL, OPT_NPY_OUT},
    {0},
};

typedef struct Predict {
	EvalOpts o;
	const char *input;   /* --input or --data - */
	int data_given;      /* --data SPEC */
	const char *out;     /* --out */
	const char *npy_out; /* --npy-out */
	Progress prog;
} Predict;

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	Predict *p = ud;
	switch (opt) {
	case OPT_DATA:
		if (!strcmp(arg, "-")) {
			p->input = arg;
			return 0;
		}
		p->data_given = 1;
		return opts_handle(&p->o.c, OPTS_DATA, arg, e) < 0 ? -1 : 0;
	case OPT_INPUT:
		p->input = arg;
		return 0;
	case OPT_OUT:
		p->out = arg;
		return 0;
	case OPT_NPY_OUT:
		p->npy_out = arg;
		return 0;
	}
	int rc = eval_option(&p->o, opt, arg, e);
	return rc > 0 ? err_set(e, "unexpected option") : rc;
}

/* The rows of the CSV at path as the network's raw inputs: features,
 * pixel values or Adult records, by its record (rec NULL: features). */
static Dataset *read_raw(const char *path, const Net *net, const Prep *rec, const char *name,
                         Err *e)
{
	char why[160];
	CsvRows o = {0};
	Dataset *raw = NULL;
	if (rec && rec->kind == PREP_ADULT) {
		if (adult_load_unlabelled(path, &raw, e))
			return NULL;
		if (raw->d != net->n[0]) {
			err_set(e, "%s: Adult records give %d features, but %s has %d inputs",
			        raw->name, raw->d, name, net->n[0]);
			dataset_free(raw);
			return NULL;
		}
		return raw;
	}
	if (rec && (rec->kind == PREP_HAAR || rec->kind == PREP_PIXELS)) {
		o.cols = rec->rows * rec->cols;
		snprintf(why, sizeof why, "%s reads %d×%d images: %d pixel values a row", name,
		         rec->rows, rec->cols, o.cols);
		o.lo = 0;
		o.hi = 255;
		o.range_why = "a pixel value";
	} else if (rec && rec->kind == PREP_PLANE) {
		o.cols = 2;
		snprintf(why, sizeof why, "%s reads points of the plane: x and y a row", name);
	} else {
		o.cols = net->n[0];
		snprintf(why, sizeof why, "%s takes %d inputs", name, net->n[0]);
	}
	o.cols_why = why;
	if (csv_load_rows(path, &o, &raw, e))
		return NULL;
	return raw;
}

/* The Haar coefficients, or the scaled pixels, of pixel rows. */
static Dataset *image_rows(const Dataset *px, const Prep *rec, Err *e)
{
	Dataset *d = dataset_new(px->n, rec->d, 1, e);
	if (!d)
		return NULL;
	if (prep_pixels(rec, px->x, px->n, d->x, e)) {
		dataset_free(d);
		return NULL;
	}
	memcpy(d->name, px->name, sizeof d->name);
	return d;
}

/* The means and scales of --data's training split, for a network that
 * records none: NULL with no message when none are asked for. */
static Prep *options_prep(const Predict *p, const Net *net, const char *name, Err *e)
{
	const CommonOpts *c = &p->o.c;
	if (c->data.scale == DATA_RAW)
		return NULL;
	if (!p->data_given) {
		err_set(e,
		        "%s records no preprocessing: --center and --standardize take the means "
		        "and scales of a training set, give it with --data SPEC",
		        name);
		return NULL;
	}
	Dataset *tr = NULL, *te = NULL;
	if (datasets_load(&c->data, &tr, &te, e))
		return NULL;
	Prep *r = NULL;
	if (tr->d != net->n[0])
		err_set(e, "%s has %d inputs, but %s has %d features", name, net->n[0], tr->name,
		        tr->d);
	else
		r = prep_clone(tr->prep, e);
	dataset_free(tr);
	dataset_free(te);
	return r;
}

/* The inputs from --input (or --data -) made into net's. */
static Dataset *input_rows(const Predict *p, const Net *net, const char *name, Err *e)
{
	const Prep *rec = net->prep;
	Prep *given = NULL;
	if (eval_check_scale(&p->o, rec, name, e))
		return NULL;
	if (!rec && !(given = options_prep(p, net, name, e)) && p->o.c.data.scale != DATA_RAW)
		return NULL;
	Dataset *raw = read_raw(p->input, net, rec, name, e), *d = raw;
	/* the rows as the images --shape declares, which the network must read,
	 * as for train, squeeze and cond */
	const int *shape = p->o.c.data.shape;
	if (raw && (datasets_set_shape(shape, raw, e) ||
	            net_check_images(net, raw->c, raw->h, raw->w, raw->name, e))) {
		dataset_free(raw);
		prep_free(given);
		return NULL;
	}
	if (raw && rec && (rec->kind == PREP_HAAR || rec->kind == PREP_PIXELS)) {
		d = image_rows(raw, rec, e);
		dataset_free(raw);
	} else if (raw && rec && rec->kind == PREP_PLANE) {
		d = datasets_plane_apply(raw, rec->plane, e);
		dataset_free(raw);
	}
	const Prep *scale = rec ? rec : given;
	if (d && scale)
		prep_scale(scale, d);
	prep_free(given);
	return d;
}

static int write_npy(const char *dir, const int *cls, const float *prob, int n, int k, Err *e)
{
	char path[4096];
	int32_t *c = malloc((size_t)n * sizeof *c);
	if (!c)
		return err_set(e, "out of memory");
	for (int r = 0; r < n; r++)
		c[r] = cls[r];
	int rc = file_make_dir(dir, e);
	if (rc == 0) {
		snprintf(path, sizeof path, "%s/classes.npy", dir);
		rc = npy_write_i32(path, c, n, -1, e);
	}
	if (rc == 0) {
		snprintf(path, sizeof path, "%s/probabilities.npy", dir);
		rc = npy_write_f32(path, prob, n, k, e);
	}
	free(c);
	return rc;
}

/* Answers for the rows of d, written where asked. 0, 1 stopped, -1. */
static int answer(Predict *p, const Net *net, const Dataset *d, Err *e)
{
	int k = net->n[net->m];
	int *cls = malloc((size_t)d->n * sizeof *cls);
	float *prob = malloc((size_t)d->n * (size_t)k * sizeof *prob);
	int rc = -1;
	if (!cls || !prob) {
		err_set(e, "out of memory for the answers to %d rows", d->n);
		goto out;
	}
	progress_what(&p->prog, "%.60s", d->name);
	rc = net_classify(net, d->x, NULL, d->n, cls, prob, NULL, NULL, eval_progress, &p->prog, e);
	progress_clear(&p->prog);
	if (rc)
		goto out;
	/* a row that answers no class is not written as one */
	int first = -1, none = 0;
	for (int r = 0; r < d->n; r++)
		if (cls[r] == NET_NO_ANSWER && (none++, first < 0))
			first = r;
	if (none) {
		rc = err_set(e,
		             "%s: row %d%s: the network's outputs are not finite (the inputs are "
		             "too large for it), so it answers no class (%d row%s in all); nothing "
		             "written",
		             d->name, first + 1, none > 1 ? " and others" : "", none,
		             none > 1 ? "s" : "");
		goto out;
	}
	Answers a = {d->n, k, cls, prob};
	const char *out = p->out ? p->out : p->npy_out ? NULL : "-";
	if ((out && report_write_file(out, report_answers_csv, &a, e)) ||
	    (p->npy_out && write_npy(p->npy_out, cls, prob, d->n, k, e)))
		rc = -1;
	else if (!p->o.c.quiet)
		printf("%d answers of %s to %s%s%s%s\n", d->n, p->o.src[0].path,
		       out ? (file_is_stdout(out) ? "standard output" : out) : "",
		       out && p->npy_out ? " and " : "", p->npy_out ? p->npy_out : "",
		       p->npy_out ? "/classes.npy, probabilities.npy" : "");
out:
	free(cls);
	free(prob);
	return rc;
}

/* Usage errors the options alone show: 0, or 2 after the message. */
static int check_usage(const Predict *p)
{
	const char *msg = NULL;
	if (p->o.nsrc != 1)
		msg = "one network is required: --load MODEL, --onnx FILE or --npy DIR";
	else if (!p->input && !p->data_given)
		msg = "the inputs are required: --input FILE, --data - (standard input) or --data "
		      "SPEC";
	if (!msg)
		return 0;
	fprintf(stderr, "condnet predict: %s\nTry 'condnet predict --help'.\n", msg);
	return 2;
}

int cmd_predict(int argc, char **argv)
{
	Predict *p = calloc(1, sizeof *p);
	struct option opts[opts_table_len(own)];
	Err e = {{0}};
	int rc = 1;
	if (!p) {
		fprintf(stderr, "condnet predict: out of memory\n");
		return 1;
	}
	eval_opts_default(&p->o);
	opts_table(opts, opts_table_len(own), EVAL_COMMON, own);
	int pr = opts_parse(argc, argv, NULL, &p->o.c, opts, own_opt, p, help, NULL);
	if (pr || (pr = check_usage(p))) {
		free(p);
		return pr == 1 ? 0 : 2;
	}
	if (p->o.c.train.threads > 0)
		pool_set_default_threads(p->o.c.train.threads);
	const char *out = p->out ? p->out : p->npy_out ? NULL : "-";
	static const char *const answers[] = {"classes.npy", "probabilities.npy", NULL};
	CliOut outs[EVAL_MAX_NETS + 3] = {
	    {out, FILE_OUT_TEXT, "--out", NULL},
	    {p->npy_out, CLI_OUT_DIR, "--npy-out", answers},
	    {p->input && strcmp(p->input, "-") ? p->input : NULL, CLI_IN, "--input", NULL}};
	int nouts = 3 + eval_inputs(&p->o, outs + 3);
	Dataset *d = NULL;
	if (cli_check_outputs(&p->o.c, outs, nouts, &e))
		goto fail;
	if (opts_dry_run("predict")) {
		rc = 0;
		goto out;
	}
	if (eval_read_nets(&p->o, &e) || setup_reserve(&p->o.c, 0, &e))
		goto fail;
	const Net *net = p->o.src[0].net;
	const char *name = p->o.src[0].path;
	progress_init(&p->prog, "condnet predict", p->o.c.quiet, 0);
	progress_trap_signals();
	d = p->input ? input_rows(p, net, name, &e) : eval_load_split(&p->o, net, name, &e);
	if (!d)
		goto fail;
	int st = answer(p, net, d, &e);
	if (st < 0)
		goto fail;
	rc = 0;
	if (st > 0) {
		fprintf(stderr, "condnet predict: interrupted; nothing written\n");
		rc = 130;
	}
	goto out;
fail:
	rc = cli_fail("predict", &e);
out:
	dataset_free(d);
	eval_opts_free(&p->o);
	free(p);
	return rc;
}
