/* cmd_npy.c - `condnet import` and `condnet export`: a dense network as
 * NumPy .npy files W1.npy b1.npy … Wm.npy bm.npy, and (export --data) the
 * features and labels a data set gives the trainer, so another tool can
 * train on exactly the same numbers. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "base/file.h"
#include "engine/model_io.h"
#include "data/npy.h"
#include "engine/net_npy.h"

static const char import_help[] =
	"Usage: condnet import --npy DIR --save MODEL [OPTIONS]\n\n"
	"Read a dense network from DIR/W1.npy, DIR/b1.npy, ..., DIR/Wm.npy, DIR/bm.npy\n"
	"(float32 or float64) and save it as a condnet model.\n\n"
	"  --npy DIR            directory of the .npy files\n"
	"  --layout NAME        keras: W is (inputs, outputs); torch: (outputs, inputs)\n"
	"                       (default keras)\n"
	"  --act NAME           activation of the hidden layers: erf, tanh, relu or sigmoid\n"
	"                       (default erf)\n"
	"  --act-scale A        a in erf(a*x) (default 1)\n"
	"  --save MODEL         the model file to write\n"
	"  -h, --help           this text\n";

static const char export_help[] =
	"Usage: condnet export --load MODEL --npy DIR [OPTIONS]\n"
	"       condnet export --data SPEC --npy DIR [DATA OPTIONS]\n\n"
	"Write a model's weights and biases as DIR/W1.npy, DIR/b1.npy, ... (float32),\n"
	"or a data set as DIR/x_train.npy, DIR/y_train.npy, DIR/x_test.npy and\n"
	"DIR/y_test.npy: the features the trainer sees (float32, one row a sample)\n"
	"and the class labels (int32). DIR is created if missing.\n\n"
	"  --load MODEL         the model file to read\n"
	"  --npy DIR            directory for the .npy files\n"
	"  --layout NAME        keras: W is (inputs, outputs); torch: (outputs, inputs)\n"
	"                       (default keras)\n"
	"  -h, --help           this text\n"
	"Data options (with --data):\n" CLI_DATA_HELP;

enum { OPT_NPY = CLI_OPT_OWN, OPT_LAYOUT };

static const struct option import_opts[] = {
	{"npy", required_argument, NULL, OPT_NPY},
	{"layout", required_argument, NULL, OPT_LAYOUT},
	{"act", required_argument, NULL, CLI_OPT_ACT},
	{"act-scale", required_argument, NULL, CLI_OPT_ACT_SCALE},
	{"save", required_argument, NULL, CLI_OPT_SAVE},
	{0},
};

/* export's own options, then the data-set options of cli_common_options. */
static const struct option export_own[] = {
	{"npy", required_argument, NULL, OPT_NPY},
	{"layout", required_argument, NULL, OPT_LAYOUT},
	{"load", required_argument, NULL, CLI_OPT_LOAD},
};
enum { EXPORT_NOWN = sizeof export_own / sizeof *export_own };

typedef struct NpyCmd {
	const char *dir;
	int layout;
} NpyCmd;

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	NpyCmd *k = ud;
	if (opt == OPT_NPY) {
		k->dir = arg;
		return 0;
	}
	if (!strcmp(arg, "keras"))
		k->layout = NPY_KERAS;
	else if (!strcmp(arg, "torch"))
		k->layout = NPY_TORCH;
	else
		return err_set(e, "--layout: unknown layout '%s' (expected keras or torch)", arg);
	return 0;
}

int cmd_import(int argc, char **argv)
{
	CommonOpts c;
	NpyCmd k = {NULL, NPY_KERAS};
	Err e = {{0}};
	cli_common_default(&c);
	int pr = cli_parse(argc, argv, NULL, &c, import_opts, own_opt, &k, import_help, NULL);
	if (pr)
		return pr == 1 ? 0 : 2;
	if (!k.dir || !c.save) {
		fprintf(stderr, "condnet import: --npy DIR and --save MODEL are required\n");
		return 2;
	}
	Net *net = net_npy_import(k.dir, k.layout, c.act, c.act_a, &e);
	if (!net || model_save(net, c.save, &e)) {
		net_free(net);
		return cli_fail("import", &e);
	}
	char sh[512];
	printf("imported %s (%d layers, %zu parameters, %s) from %s into %s\n",
	       net_shape_str(net, sh, sizeof sh), net->m, net->nparam, act_name(net->act), k.dir,
	       c.save);
	net_free(net);
	return 0;
}

static int export_data(const CommonOpts *c, const char *dir)
{
	Err e = {{0}};
	Dataset *tr = NULL, *te = NULL;
	if (cli_load_data(c, &tr, &te, &e) || file_make_dir(dir, &e) ||
	    npy_write_dataset(tr, dir, "train", &e) ||
	    (te && npy_write_dataset(te, dir, "test", &e))) {
		dataset_free(tr);
		dataset_free(te);
		return cli_fail("export", &e);
	}
	printf("exported %s: %d training and %d test rows of %d features, %d classes, to "
	       "%s/x_train.npy, y_train.npy, x_test.npy, y_test.npy\n",
	       cli_data_name(c), tr->n, te ? te->n : 0, tr->d, tr->k, dir);
	dataset_free(tr);
	dataset_free(te);
	return 0;
}

int cmd_export(int argc, char **argv)
{
	CommonOpts c;
	NpyCmd k = {NULL, NPY_KERAS};
	Err e = {{0}};
	cli_common_default(&c);
	struct option opts[EXPORT_NOWN + CLI_DATA_NOPTIONS + 1] = {{0}};
	memcpy(opts, export_own, sizeof export_own);
	memcpy(opts + EXPORT_NOWN, cli_common_options, CLI_DATA_NOPTIONS * sizeof *opts);
	int pr = cli_parse(argc, argv, NULL, &c, opts, own_opt, &k, export_help, NULL);
	if (pr)
		return pr == 1 ? 0 : 2;
	if (!k.dir || !c.load == !c.data.spec) {
		fprintf(stderr, "condnet export: --npy DIR and one of --load MODEL or --data SPEC "
				"are required\n");
		return 2;
	}
	if (c.data.spec)
		return export_data(&c, k.dir);
	Net *net = model_load(c.load, &e);
	if (!net)
		return cli_fail("export", &e);
	if (file_make_dir(k.dir, &e) || net_npy_export(net, k.dir, k.layout, &e)) {
		net_free(net);
		return cli_fail("export", &e);
	}
	char sh[512];
	printf("exported %s (%d layers) to %s/W1.npy ... %s/b%d.npy (%s layout)\n",
	       net_shape_str(net, sh, sizeof sh), net->m, k.dir, k.dir, net->m,
	       k.layout == NPY_TORCH ? "torch" : "keras");
	net_free(net);
	return 0;
}
