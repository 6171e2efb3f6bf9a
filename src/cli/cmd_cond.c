/* cmd_cond.c - `condnet cond`: the per-layer conditioning of a network. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "engine/cond.h"
#include "engine/model_io.h"
#include "cli/progress.h"
#include "engine/report.h"

static const char help[] =
	"Usage: condnet cond [--load MODEL] [OPTIONS]\n\n"
	"Print, for every layer i, n_i, the condition number of the stacked matrix\n"
	"[W; b], the number p of its singular values below sigma_1/tau and its rank\n"
	"estimates. Without --load, a fresh network from --layers, trained --epochs.\n"
	"With --load alone no data set is read.\n\n"
	"  --tau T              threshold for p and the ranks, > 1 (default 25)\n"
	"  --epochs E           train that many epochs first (default 0)\n"
	"  --markdown           print the table as Markdown\n";

enum { OPT_TAU = CLI_OPT_OWN, OPT_EPOCHS, OPT_MARKDOWN };

static const struct option own[] = {
	{"tau", required_argument, NULL, OPT_TAU},
	{"epochs", required_argument, NULL, OPT_EPOCHS},
	{"markdown", no_argument, NULL, OPT_MARKDOWN},
	{0},
};

typedef struct CondCmd {
	double tau, epochs;
	int markdown;
} CondCmd;

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	CondCmd *k = ud;
	if (opt == OPT_TAU)
		return cli_double("--tau", arg, 1, 1, 1e12, &k->tau, e);
	if (opt == OPT_EPOCHS)
		return cli_double("--epochs", arg, 0, 0, 1e6, &k->epochs, e);
	k->markdown = 1;
	return 0;
}

typedef struct CondTable {
	const Net *net;
	const LayerCond *lc;
} CondTable;

static void cond_csv(FILE *f, const void *ud)
{
	const CondTable *t = ud;
	report_cond(f, t->net, t->lc, REPORT_CSV);
}

int cmd_cond(int argc, char **argv)
{
	CommonOpts c;
	CondCmd k = {.tau = 25};
	Dataset *train = NULL, *test = NULL;
	Net *net = NULL;
	LayerCond *lc = NULL;
	Err e = {{0}};
	int rc = 1;

	cli_common_default(&c);
	int pr = cli_parse(argc, argv, &c, NULL, own, own_opt, &k, help, NULL);
	if (pr)
		return pr == 1 ? 0 : 2;
	int need_data = !c.load || k.epochs > 0 || c.data.spec;
	if (need_data && cli_load_data(&c, &train, &test, &e))
		goto fail;
	if (!(net = cli_make_net(&c, train, &e)))
		goto fail;
	if (k.epochs > 0) {
		Progress prog;
		progress_init(&prog, "condnet cond", c.quiet, 1);
		int st = train_epochs(net, train, &c.train, k.epochs, progress_train_cb, &prog, &e);
		progress_clear(&prog);
		if (st < 0)
			goto fail;
	}
	if (!(lc = calloc((size_t)net->m, sizeof *lc))) {
		err_set(&e, "out of memory");
		goto fail;
	}
	if (cond_net(net, k.tau, lc, &e))
		goto fail;
	char sh[512];
	printf("%s: %s\n\n", c.load ? c.load : "fresh network", net_shape_str(net, sh, sizeof sh));
	report_cond(stdout, net, lc, k.markdown ? REPORT_MARKDOWN : REPORT_TEXT);
	double acc = test ? 100 * (1 - net_error(net, test, NULL)) : NAN;
	if (test)
		printf("\ntest accuracy: %.2f %%\n", acc);
	if (c.json) {
		cJSON *r = report_cond_json(net, lc, &e);
		if (r) {
			if (c.load)
				cJSON_AddStringToObject(r, "model", c.load);
			if (test)
				cJSON_AddNumberToObject(r, "test_accuracy", acc);
		}
		int bad = report_write_json(c.json, r, &e);
		cJSON_Delete(r);
		if (bad)
			goto fail;
	}
	CondTable t = {net, lc};
	if (c.csv && report_write_file(c.csv, cond_csv, &t, &e))
		goto fail;
	if (c.save && model_save(net, c.save, &e))
		goto fail;
	rc = 0;
	goto out;
fail:
	rc = cli_fail("cond", &e);
out:
	for (int i = 0; lc && i < net->m; i++)
		cond_layer_free(&lc[i]);
	free(lc);
	net_free(net);
	dataset_free(train);
	dataset_free(test);
	return rc;
}
