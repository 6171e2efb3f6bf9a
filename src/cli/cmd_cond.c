/* cmd_cond.c - `condnet cond`: the per-layer conditioning of a network. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alg/alg3_squeeze.h"
#include "cli/cli.h"
#include "cli/progress.h"
#include "engine/cond.h"
#include "engine/graph_groups.h"
#include "model/model_io.h"
#include "report/report.h"
#include "report/report_groups.h"
#include "report/report_run.h"
#include "report/report_squeeze.h"

static const char help[] =
    "Usage: condnet cond [OPTIONS]\n\n"
    "Print, for every layer i, n_i, the condition number of the stacked matrix\n"
    "[W; b], the number p of its singular values below sigma_1/tau and its rank\n"
    "estimates. p counts each layer as it is, before any cascade: a squeeze decides\n"
    "layer i after the earlier layers' removals, which delete rows of its matrix, so\n"
    "a second table shows what Algorithm 3 at tau would do: kappa at decision beside\n"
    "kappa as given, the neurons kept and what the |r_jj| threshold and the kappa\n"
    "loop remove. Without --load, a fresh network from --layers, trained --epochs.\n"
    "With --load or --onnx alone no data set is read. A graph network (residual\n"
    "Adds, Concats, strides, groups: see 'condnet import') has a row for each Conv\n"
    "and Gemm node, its stacked matrix [W; b] with W of (C_in/groups)*kh*kw rows and\n"
    "a column per output channel, and its channel group: the layers whose channels\n"
    "can only be removed together (those that feed one residual Add, a depthwise\n"
    "convolution with the layer before it), listed in a table of their own; the\n"
    "second table is for chains only.\n\n"
    "  --tau T              threshold for p and the ranks, > 1 (default 25)\n"
    "  --epochs E           train that many epochs first (default 0)\n"
    "  --markdown           print the tables as Markdown\n"
    "  --no-squeeze         without the second table (it runs Algorithm 3 on a copy)\n"
    "  --schedule SPEC      the learning rate of the training of --epochs: constant\n"
    "                       (default), step:E[:F] (times F, default 0.1, every E\n"
    "                       epochs) or cosine[:T] (from --lr down to 0 at epoch T,\n"
    "                       default the epochs); not plateau, which needs a validation\n"
    "                       set, as early stopping does: this training holds out none\n";

enum { OPT_TAU = OPTS_OWN, OPT_EPOCHS, OPT_MARKDOWN, OPT_NO_SQUEEZE };

static const struct option own[] = {
    {"tau", required_argument, NULL, OPT_TAU},
    {"epochs", required_argument, NULL, OPT_EPOCHS},
    {"markdown", no_argument, NULL, OPT_MARKDOWN},
    {"no-squeeze", no_argument, NULL, OPT_NO_SQUEEZE},
    CLI_SCHEDULE_OPTION,
    OPTS_ONNX_OPTION,
    {0},
};

typedef struct CondCmd {
	double tau, epochs;
	int markdown, no_squeeze;
} CondCmd;

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	CondCmd *k = ud;
	if (opt == OPT_TAU)
		return limit_parse(LIM_TAU, "--tau", arg, &k->tau, e);
	if (opt == OPT_EPOCHS && !strcmp(arg, "0")) /* 0: no training (the default) */
		return k->epochs = 0, 0;
	if (opt == OPT_EPOCHS)
		return limit_parse(LIM_EPOCHS, "--epochs", arg, &k->epochs, e);
	if (opt == OPT_NO_SQUEEZE)
		k->no_squeeze = 1;
	else
		k->markdown = 1;
	return 0;
}

/* Algorithm 3 at τ on a copy of net: per layer, κ as given beside κ at
 * decision, the neurons kept and what each stage removes; the rows into
 * *rows (the caller frees them), the neurons removed into *removed. The
 * progress line is cleared before the table. 0, 1 when a signal stopped
 * the conditioning of a large layer, -1. */
static int squeeze_table(const Net *net, const LayerCond *lc, double tau, ReportFormat fmt,
                         SqueezeLayerRow **rows, int *removed, Progress *prog, Err *e)
{
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = tau;
	Net *copy = net_clone(net, e);
	Alg3 *a = copy ? alg3_new(copy, &o, NULL, e) : NULL;
	SqueezeLayerRow *r = NULL;
	LayerCond *after = NULL;
	int rc = a ? alg3_run(a, NULL, e) : -1;
	if (rc == 0)
		rc = cond_net_new(copy, tau, 0, &after, e);
	progress_clear(prog);
	if (rc == 0 && !(r = report_squeeze_layer_rows(net, lc, copy, after, a, e)))
		rc = -1;
	if (rc)
		goto out;
	printf("\nAlgorithm 3 at τ = %g (condnet squeeze), each layer decided after the earlier "
	       "layers' removals: %d %s removed\n\n",
	       tau, a->total, net->nconv ? "channels and neurons" : "neurons");
	if ((rc = report_squeeze_layers(stdout, r, net->m, fmt, e)))
		goto out;
	*rows = r;
	*removed = a->total;
	r = NULL;
out:
	cond_net_free(after, net->m);
	free(r);
	alg3_free(a);
	net_free(copy);
	return rc;
}

/* The wide layers of lc (more columns than rows) and what the reading
 * (engine/cond.h) makes of them, under the table. */
static void wide_notes(const Net *net, const LayerCond *lc, double tau)
{
	int zero = cond_get_wide() == COND_WIDE_ZERO, any = 0;
	for (int i = 0; i < net->m; i++) {
		const LayerCond *l = &lc[i];
		if (!l->surplus)
			continue;
		if (!any++)
			printf(
			    "wide layers, more columns than rows: %s\n",
			    zero
			        ? "--wide zero counts the missing singular values as zeros (κ = "
			          "∞)"
			        : "κ and p count their min(rows, columns) singular values, the "
			          "paper's reading (--wide zero counts the missing ones as zeros)");
		const char *u = net_unit_name(net, i + 1, l->cols != 1);
		const char *dep = l->surplus == 1 ? "is a combination" : "are combinations";
		char what[96];
		if (cond_over(l->kappa, tau))
			snprintf(what, sizeof what,
			         "Algorithm 1 removes p = %d, Algorithm 3 keeps at most %d", l->p,
			         l->rows);
		else
			snprintf(what, sizeof what, "κ ≤ τ: both algorithms leave it whole");
		if (zero)
			printf("  layer %d: Ŵ %d×%d: p = %d missing + %d below σ₁/τ\n", i + 1,
			       l->rows, l->cols, l->zeros, l->p - l->zeros);
		else
			printf("  layer %d: Ŵ %d×%d: %d of its %d %s %s of the others by its shape "
			       "alone; %s\n",
			       i + 1, l->rows, l->cols, l->surplus, l->cols, u, dep, what);
	}
}

typedef struct CondTable {
	const Net *net;
	const LayerCond *lc;
} CondTable;

static int cond_csv(FILE *f, const void *ud, Err *e)
{
	const CondTable *t = ud;
	return report_cond(f, t->net, t->lc, REPORT_CSV, e);
}

/* The combinations of options that cond refuses: 2 after the message, else
 * 0. */
static int check_usage(const CommonOpts *c, const CondCmd *k)
{
	if (cli_no_plateau(c, "cond", "the training of --epochs has not"))
		return 2;
	if (c->sched_given && !(k->epochs > 0)) {
		fprintf(stderr, "condnet cond: --schedule and --warmup shape the training of "
		                "--epochs: give --epochs E\n");
		return 2;
	}
	return 0;
}

/* The training of --epochs, then the conditioning of every layer into *lc,
 * on the progress line: 0, 1 when a signal stopped either, -1. */
static int measure(const CommonOpts *c, const CondCmd *k, Net *net, const Dataset *train,
                   Progress *prog, LayerCond **lc, Err *e)
{
	if (k->epochs > 0) {
		int st = train_epochs(net, train, &c->train, k->epochs, progress_train_cb, prog, e);
		progress_clear(prog);
		if (st != 0 || progress_interrupted())
			return st < 0 ? -1 : 1;
	}
	int st = cond_net_new(net, k->tau, 1, lc, e);
	progress_clear(prog);
	return st;
}

/* --json, --csv and --save. */
static int write_outputs(const CommonOpts *c, Net *net, const LayerCond *lc,
                         const SqueezeLayerRow *rows, int removed, double acc, const Dataset *train,
                         Err *e)
{
	const char *path = c->load ? c->load : c->onnx;
	if (c->json && report_write_record(
	                   c->json, report_cond_run_json(net, lc, rows, removed, path, acc, e), e))
		return -1;
	CondTable t = {net, lc};
	if (c->csv && report_write_file(c->csv, cond_csv, &t, e))
		return -1;
	return c->save ? setup_save_model(net, c->save, train, e) : 0;
}

/* A graph network's channel groups, what can only be removed together. */
static int groups_table(const Graph *g, ReportFormat fmt, Err *e)
{
	ChannelGroups *gg = graph_groups(g, e);
	if (!gg)
		return -1;
	printf("\nChannel groups: the layers whose output channels go together (one "
	       "column of each per channel)\n\n");
	int rc = report_groups(stdout, gg, fmt, e);
	graph_groups_free(gg);
	return rc;
}

/* The conditioning table, the notes under it and, on a chain, Algorithm 3's
 * table at tau (its rows and removals kept for the records): 0, 1 when a
 * signal stopped it, -1 on failure. */
static int print_tables(const Net *net, const LayerCond *lc, const CondCmd *k,
                        SqueezeLayerRow **rows, int *removed, Progress *prog, Err *e)
{
	ReportFormat fmt = k->markdown ? REPORT_MARKDOWN : REPORT_TEXT;
	if (report_cond(stdout, net, lc, fmt, e))
		return -1;
	printf("\np: the singular values below σ₁/τ of each layer as it is, before any cascade\n");
	if (!net->graph)
		wide_notes(net, lc, k->tau);
	else if (groups_table(net->graph, fmt, e))
		return -1;
	if (k->no_squeeze)
		return 0;
	if (net->graph) {
		printf("\n(Algorithm 3's table is for chains: a graph network's squeeze removes "
		       "channels together across its residual Adds and groups)\n");
		return 0;
	}
	return squeeze_table(net, lc, k->tau, fmt, rows, removed, prog, e);
}

int cmd_cond(int argc, char **argv)
{
	CommonOpts c;
	CondCmd k = {.tau = 25};
	Dataset *train = NULL, *test = NULL;
	Net *net = NULL;
	LayerCond *lc = NULL;
	SqueezeLayerRow *rows = NULL;
	int removed = 0;
	Err e = {{0}};
	int rc = 1;

	opts_default(&c);
	/* --epochs trains on the whole training set: no validation options, and
	 * --schedule (its own, without plateau) */
	c.without = OPTS_VALIDATION | OPTS_BIT(OPTS_SCHEDULE);
	int pr = opts_parse(argc, argv, &c, NULL, own, own_opt, &k, help, NULL);
	if (pr)
		return pr == 1 ? 0 : 2;
	if (check_usage(&c, &k))
		return 2;
	if (cli_check_outputs(&c, NULL, 0, &e))
		goto fail;
	if (opts_dry_run("cond"))
		return 0;
	const char *path = c.load ? c.load : c.onnx;
	int need_data = !path || k.epochs > 0 || c.data.spec;
	if (need_data && setup_load_data_any(&c, &train, &test, &e))
		goto fail;
	if (!(net = setup_make_net_any(&c, train, &e)))
		goto fail;
	/* training, then the conditioning of large layers, on the progress line;
	 * a signal stops either */
	Progress prog;
	progress_init(&prog, "condnet cond", c.quiet, 1);
	progress_trap_signals();
	int st = measure(&c, &k, net, train, &prog, &lc, &e);
	if (st > 0)
		goto stopped;
	if (st < 0)
		goto fail;
	char sh[512];
	printf("%s: %s\n\n", path ? path : "fresh network", net_shape_str(net, sh, sizeof sh));
	st = print_tables(net, lc, &k, &rows, &removed, &prog, &e);
	if (st > 0)
		goto stopped;
	if (st < 0)
		goto fail;
	double acc;
	st = net_accuracy(net, test, NULL, &acc, &e);
	if (st > 0)
		goto stopped;
	if (st < 0)
		goto fail;
	if (test)
		printf("\ntest accuracy: %.2f %%\n", acc);
	if (write_outputs(&c, net, lc, rows, removed, acc, train, &e))
		goto fail;
	rc = 0;
	goto out;
stopped:
	if (e.msg[0]) /* where it stopped */
		fprintf(stderr, "condnet cond: %s\n", e.msg);
	fprintf(stderr, "condnet cond: interrupted; nothing written\n");
	rc = 130;
	goto out;
fail:
	rc = cli_fail("cond", &e);
out:
	cond_net_free(lc, net ? cond_layers(net) : 0);
	free(rows);
	net_free(net);
	dataset_free(train);
	dataset_free(test);
	return rc;
}
