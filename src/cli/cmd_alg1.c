/* cmd_alg1.c - `condnet alg1`: Algorithm 1, one line per iteration, then the
 * paper's Table 1 and Table 16 layouts; on a graph network by its channel
 * groups (cmd_alg1_graph.c). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "alg/alg1_proportion.h"
#include "cli/cli.h"
#include "cli/cmd_alg1.h"
#include "cli/progress.h"
#include "model/model_io.h"
#include "report/report.h"
#include "report/report_run.h"

/* The defaults in the text come from alg1_opts_default. */
static const char help_fmt[] =
    "Usage: condnet alg1 [OPTIONS]\n\n"
    "Algorithm 1: train eta epochs; while some layer's stacked matrix [W; b] has a\n"
    "condition number above tau, remove from each such hidden layer as many neurons\n"
    "as it has singular values below sigma_1/tau, and train again.\n"
    "A graph network (--load G.model, --onnx F.onnx) is shrunk by its channel groups:\n"
    "a group's condition number is that of its producers' stacked [W; b], one column\n"
    "per channel, and each group above tau loses as many channels as that stack has\n"
    "singular values below sigma_1/tau (all but one at most); fixed groups (the\n"
    "logits, a grouped convolution's channels) stay.\n\n"
    "  --tau T              threshold on the condition number, > 1 (default %g)\n"
    "  --eta E              epochs of training per iteration, > 0 (default %g)\n"
    "  --round K            round every new width down to a multiple of K (chains)\n"
    "  --max-iter N         stop after N removal iterations (default %d)\n"
    "  --warm               keep the trained weights of the neurons (a graph's channels)\n"
    "                       pivoted QR keeps, instead of retraining the smaller network\n"
    "                       from fresh weights\n"
    "  --schedule SPEC      the learning rate of every training of eta epochs:\n"
    "                       constant (default), step:E[:F] (times F, default 0.1, every\n"
    "                       E epochs) or cosine[:T] (from --lr down to 0 at epoch T,\n"
    "                       default eta); not plateau, which needs a validation set, as\n"
    "                       early stopping does: Algorithm 1 holds out none\n";

enum { OPT_TAU = OPTS_OWN, OPT_ETA, OPT_ROUND, OPT_MAX_ITER, OPT_WARM };

static const struct option own[] = {
    {"tau", required_argument, NULL, OPT_TAU},
    {"eta", required_argument, NULL, OPT_ETA},
    {"round", required_argument, NULL, OPT_ROUND},
    {"max-iter", required_argument, NULL, OPT_MAX_ITER},
    {"warm", no_argument, NULL, OPT_WARM},
    CLI_SCHEDULE_OPTION,
    OPTS_ONNX_OPTION,
    {0},
};

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	Alg1Opts *o = ud;
	switch (opt) {
	case OPT_TAU:
		return limit_parse(LIM_TAU, "--tau", arg, &o->tau, e);
	case OPT_ETA:
		return limit_parse(LIM_ETA, "--eta", arg, &o->eta, e);
	case OPT_ROUND:
		return opts_int("--round", arg, 1, 1000000, &o->round, e);
	case OPT_MAX_ITER:
		return opts_int("--max-iter", arg, 1, 1000000, &o->max_iter, e);
	case OPT_WARM:
		o->warm = 1;
		return 0;
	}
	return 0;
}

/* One line per iteration: the widths, Σ n_i, max κ and the test accuracy of
 * the network the iteration trained (the algorithm never looks at it). */
static void print_record(const Alg1Record *r)
{
	char buf[32];
	printf("iter %3d  Σn %7s  max κ %10.1f  test acc %6.2f %%  widths ", r->iter,
	       report_thousands((double)r->sum_n, buf, sizeof buf), r->max_kappa,
	       100 * (1 - r->eval_error));
	for (int i = 0; i <= r->m; i++)
		printf("%s%d", i ? "-" : "", r->n[i]);
	printf("  %.1f s\n", r->seconds);
	fflush(stdout);
}

static int history_csv(FILE *f, const void *a, Err *e)
{
	return report_alg1_history(f, a, REPORT_CSV, e);
}

/* What the run starts from, and how every training trains. */
static void say_start(const CommonOpts *c, const Alg1Opts *o, const Net *net)
{
	char shape[512];
	printf("%s: Algorithm 1 from %s, tau %g, eta %g\n", opts_data_name(c),
	       net_shape_str(net, shape, sizeof shape), o->tau, o->eta);
	if (c->sched_given) {
		TrainPlan plan;
		char how[256];
		train_plan_default(&plan, &c->train, o->eta);
		printf("every training: %s\n", setup_plan_str(&plan, NULL, how, sizeof how));
	}
}

/* The summary and the history of the run, how it ended and the network
 * it ends with. */
static int say_end(const Alg1 *a, const Dataset *test, int sig, Err *e)
{
	char shape[512];
	printf("\n");
	if (report_alg1_summary(stdout, a, REPORT_TEXT, e))
		return -1;
	printf("\n");
	if (report_alg1_history(stdout, a, REPORT_TEXT, e))
		return -1;
	printf("\nstatus: %s%s%s\n", sig ? "interrupted" : alg1_status_name(a->status),
	       a->reason[0] ? " - " : "", a->reason);
	if (a->nrec > 0) {
		const Alg1Record *r = &a->rec[a->nrec - 1];
		printf("the network it ends with: %s, test accuracy %.2f %% (%d test rows)\n",
		       net_shape_str(a->net, shape, sizeof shape), 100 * (1 - r->eval_error),
		       test->n);
	}
	return 0;
}

int cmd_alg1(int argc, char **argv)
{
	CommonOpts c;
	Alg1Opts o;
	Dataset *train = NULL, *test = NULL;
	Net *net = NULL;
	Alg1 *a = NULL;
	Progress prog;
	Err e = {{0}};
	int rc = 1;

	opts_default(&c);
	/* no validation set: no --val-frac, --val-per-class or --early-stop, and
	 * --schedule (its own, without plateau) */
	c.without = OPTS_VALIDATION | OPTS_BIT(OPTS_SCHEDULE);
	alg1_opts_default(&o);
	char help[sizeof help_fmt + 64];
	snprintf(help, sizeof help, help_fmt, o.tau, o.eta, o.max_iter);
	int pr = opts_parse(argc, argv, &c, NULL, own, own_opt, &o, help, NULL);
	if (pr)
		return pr == 1 ? 0 : 2;
	o.seed = c.seed;
	o.train = c.train;
	/* Algorithm 1's own rule, as a usage error before any data are read */
	if (alg1_check_training(&c.train, c.early_stop, &e) < 0) {
		fprintf(stderr, "condnet alg1: %s%s\n", c.early_stop > 0 ? "--early-stop: " : "",
		        e.msg);
		return 2;
	}
	int open = cli_open_any("alg1", &c, NULL, 0, &train, &test, &net, &e);
	if (open == 1)
		return 0;
	if (open == 0 && net->graph) {
		rc = alg1_graph_run(&c, &o, net, train, test);
		goto out;
	}
	if (open < 0 || !(a = alg1_new(net, train, &o, &e)))
		goto fail;
	a->eval = test; /* the test accuracy of every iteration, for people */
	progress_init(&prog, "condnet alg1", c.quiet, 1);
	Hook hook = progress_hook(&prog, NULL);
	progress_trap_signals();

	say_start(&c, &o, net);
	int st;
	do {
		progress_what(&prog, "iteration %d", a->nrec);
		st = alg1_step(a, &hook, &e);
		progress_clear(&prog);
		if (st < 0)
			goto fail;
		/* a stopped step (in its training or its conditioning) added no record */
		if (st == 0 && a->nrec > 0)
			print_record(&a->rec[a->nrec - 1]);
	} while (st == 0 && a->status == ALG1_RUNNING && !progress_interrupted());

	int sig = progress_interrupted();
	if (say_end(a, test, sig, &e))
		goto fail;
	if (c.save && !sig) {
		char shape[512];
		if (setup_save_model(a->net, c.save, train, &e))
			goto fail;
		printf("saved %s (%s)\n", c.save, net_shape_str(a->net, shape, sizeof shape));
	} else if (c.save)
		printf("not saving %s: the run was interrupted\n", c.save);
	if (c.json &&
	    report_write_record(c.json,
	                        report_alg1_run_json(a, opts_data_name(&c), sig, st == 1, &e), &e))
		goto fail;
	if (c.csv && report_write_file(c.csv, history_csv, a, &e))
		goto fail;
	rc = sig ? 130 : 0;
	goto out;
fail:
	rc = cli_fail("alg1", &e);
out:
	alg1_free(a);
	net_free(net);
	dataset_free(train);
	dataset_free(test);
	return rc;
}
