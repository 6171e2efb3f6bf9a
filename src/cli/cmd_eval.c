/* cmd_eval.c - `condnet eval`: how good saved networks are on a labelled
 * data set, side by side, and how far they answer alike. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/pool.h"
#include "cli/cmd_eval.h"
#include "data/prep.h"
#include "engine/evaluate.h"
#include "report/report_eval.h"

static const char help[] =
    "Usage: condnet eval --load MODEL [--load MODEL ...] [OPTIONS]\n"
    "       condnet eval --onnx FILE | --npy DIR [...] [OPTIONS]\n\n"
    "Evaluate saved networks on a labelled data set (the test split by default):\n"
    "accuracy, loss, the precision and recall of every class and the confusion\n"
    "matrix. With two or more networks, their figures side by side and their\n"
    "agreement: the share of the rows on which two networks answer the same class,\n"
    "with the rows where they differ counted per class. A model file records how its\n"
    "inputs were made (MNIST's Haar coefficients or pixels, Adult's encoding,\n"
    "--center or --standardize with the training set's means and scales): the\n"
    "data are made into its inputs exactly so. --center and --standardize are for\n"
    "networks that record nothing (ONNX, .npy, older model files): the means and\n"
    "scales are then those of the data set's training split.\n\n"
    "  --load MODEL         a condnet model file; repeat for more networks\n"
    "  --onnx FILE          a network in an ONNX file, as 'condnet import' reads it\n"
    "  --npy DIR            a network as DIR/W1.npy, DIR/b1.npy, ... (as import)\n"
    "                       (--load, --onnx and --npy mix, up to 16 networks, in\n"
    "                       the order given: #1, #2, ...)\n"
    "  --layout NAME        --npy weights: keras (inputs, outputs) or torch (outputs,\n"
    "                       inputs) (default keras)\n"
    "  --act NAME           --npy: the hidden layers' activation (default erf)\n"
    "  --act-scale A        --npy: a in erf(a*x) (default 1)\n"
    "  --split NAME         test (default), train or all (the training rows, then\n"
    "                       the test rows)\n"
    "  --markdown           print the tables as Markdown\n"
    "  --json FILE          write the JSON record (- for standard output; the text\n"
    "                       report then goes to standard error)\n"
    "  --csv FILE           write the per-class table as CSV, a row per network and\n"
    "                       class (- for standard output)\n"
    "  --threads N          threads to compute on, 1..64 (default 2, or "
    "$OPENBLAS_NUM_THREADS)\n" OPTS_MODE_HELP
    "  --quiet              no progress line\n" OPTS_DRY_RUN_HELP
    "  -h, --help           this text\n"
    "Data (the labelled set the networks are evaluated on):\n" OPTS_DATA_HELP OPTS_INPUTS_HELP
    "                       (MNIST and Fashion: by default the inputs a model records,\n"
    "                       its Haar coefficients, whichever --inputs chose them, or\n"
    "                       its pixels; --features or --inputs asks for others)\n";

static const struct option own[] = {
    EVAL_OPTIONS,
    {"markdown", no_argument, NULL, EOPT_MARKDOWN},
    {"json", required_argument, NULL, OPTS_JSON},
    {"csv", required_argument, NULL, OPTS_CSV},
    {0},
};

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	int rc = eval_option(ud, opt, arg, e);
	return rc > 0 ? err_set(e, "unexpected option") : rc;
}

/* Everything one run holds. */
typedef struct Eval {
	EvalOpts o;
	Evaluation ev[EVAL_MAX_NETS];
	EvalModel m[EVAL_MAX_NETS];
	char prep[EVAL_MAX_NETS][160];
	Agreement ag[EVAL_MAX_NETS * (EVAL_MAX_NETS - 1) / 2];
	int nag;
	int *labels; /* of the rows, from the first network's split */
	int rows, k;
	char data[160];
	Progress prog;
} Eval;

/* Network i on its split: its evaluation in x->ev[i]. 0, 1 stopped, -1. */
static int evaluate_one(Eval *x, int i, Err *e)
{
	NetSrc *s = &x->o.src[i];
	Dataset *d = eval_load_split(&x->o, s->net, s->path, e);
	if (!d)
		return -1;
	int rc = -1;
	if (i == 0) {
		x->rows = d->n;
		snprintf(x->data, sizeof x->data, "%s", opts_data_name(&x->o.c));
		if (!(x->labels = malloc((size_t)d->n * sizeof *x->labels))) {
			err_set(e, "out of memory");
			goto out;
		}
		memcpy(x->labels, d->y, (size_t)d->n * sizeof *x->labels);
	} else if (d->n != x->rows || memcmp(d->y, x->labels, (size_t)d->n * sizeof *d->y)) {
		err_set(e,
		        "%s is evaluated on other rows than %s: the networks are compared on "
		        "the same rows",
		        s->path, x->o.src[0].path);
		goto out;
	}
	progress_what(&x->prog, "#%d %.40s", i + 1, s->path);
	rc = net_evaluate(s->net, d, 0, eval_progress, &x->prog, &x->ev[i], e);
	progress_clear(&x->prog);
	if (rc < 0)
		err_prefix(e, "%s", s->path);
	const Prep *p = s->net->prep ? s->net->prep : d->prep;
	if (p && rc == 0) {
		prep_describe(p, x->prep[i], sizeof x->prep[i]);
		if (!s->net->prep)
			strncat(x->prep[i], " (the network records none: made as the options say)",
			        sizeof x->prep[i] - strlen(x->prep[i]) - 1);
	}
out:
	dataset_free(d);
	return rc;
}

/* The networks must answer the same classes to be compared. */
static int check_outputs(const EvalOpts *o, Err *e)
{
	const Net *a = o->src[0].net;
	for (int i = 1; i < o->nsrc; i++) {
		const Net *b = o->src[i].net;
		if (b->n[b->m] != a->n[a->m])
			return err_set(
			    e,
			    "%s has %d outputs, %s has %d: networks compared side by side "
			    "answer the same classes",
			    o->src[0].path, a->n[a->m], o->src[i].path, b->n[b->m]);
	}
	return 0;
}

static int agreements(Eval *x, Err *e)
{
	for (int i = 0; i < x->o.nsrc; i++)
		for (int j = i + 1; j < x->o.nsrc; j++)
			if (evaluation_agreement(&x->ev[i], &x->ev[j], x->labels, &x->ag[x->nag++],
			                         e))
				return -1;
	return 0;
}

static int report(Eval *x, Err *e)
{
	const CommonOpts *c = &x->o.c;
	for (int i = 0; i < x->o.nsrc; i++)
		x->m[i] = (EvalModel){x->o.src[i].path, eval_kind_name(x->o.src[i].kind),
		                      x->prep[i], x->o.src[i].net, &x->ev[i]};
	EvalReport r = {x->data, eval_split_name(x->o.split), x->rows, x->k, x->m, x->o.nsrc,
	                x->ag};
	if (report_eval(stdout, &r, x->o.markdown ? REPORT_MARKDOWN : REPORT_TEXT, e))
		return -1;
	fflush(stdout);
	if (c->csv && report_write_file(c->csv, report_eval_csv, &r, e))
		return -1;
	if (c->json && report_eval_write_json(c->json, &r, e))
		return -1;
	return 0;
}

int cmd_eval(int argc, char **argv)
{
	Eval *x = calloc(1, sizeof *x);
	struct option opts[opts_table_len(own)];
	Err e = {{0}};
	int rc = 1;
	if (!x) {
		fprintf(stderr, "condnet eval: out of memory\n");
		return 1;
	}
	eval_opts_default(&x->o);
	opts_table(opts, opts_table_len(own), EVAL_COMMON, own);
	int pr = opts_parse(argc, argv, NULL, &x->o.c, opts, own_opt, &x->o, help, NULL);
	if (pr) {
		free(x);
		return pr == 1 ? 0 : 2;
	}
	if (x->o.nsrc == 0) {
		fprintf(stderr, "condnet eval: a network is required: --load MODEL, --onnx FILE "
		                "or --npy DIR\nTry 'condnet eval --help'.\n");
		free(x);
		return 2;
	}
	if (x->o.c.train.threads > 0)
		pool_set_default_threads(x->o.c.train.threads);
	CliOut nets[EVAL_MAX_NETS];
	if (cli_check_outputs(&x->o.c, nets, eval_inputs(&x->o, nets), &e))
		goto fail;
	if (opts_dry_run("eval")) {
		rc = 0;
		goto out;
	}
	if (eval_read_nets(&x->o, &e) || check_outputs(&x->o, &e) || setup_reserve(&x->o.c, 0, &e))
		goto fail;
	x->k = x->o.src[0].net->n[x->o.src[0].net->m];
	progress_init(&x->prog, "condnet eval", x->o.c.quiet, 0);
	progress_trap_signals();
	for (int i = 0; i < x->o.nsrc; i++) {
		int st = evaluate_one(x, i, &e);
		if (st < 0)
			goto fail;
		if (st > 0) {
			fprintf(stderr, "condnet eval: interrupted; nothing written\n");
			rc = 130;
			goto out;
		}
	}
	if (agreements(x, &e) || report(x, &e))
		goto fail;
	rc = 0;
	goto out;
fail:
	rc = cli_fail("eval", &e);
out:
	for (int i = 0; i < x->o.nsrc; i++)
		evaluation_free(&x->ev[i]);
	for (int i = 0; i < x->nag; i++)
		agreement_free(&x->ag[i]);
	free(x->labels);
	eval_opts_free(&x->o);
	free(x);
	return rc;
}
