/* cmd_import_export.c - `condnet import` and `condnet export`: a dense network as
 * NumPy .npy files W1.npy b1.npy … Wm.npy bm.npy or as an ONNX model, and
 * (export --data) the features and labels a data set gives the trainer, so
 * another tool can train on exactly the same numbers. */
#include <stdio.h>
#include <string.h>

#include "base/file.h"
#include "cli/cli.h"
#include "data/npy.h"
#include "data/npy_set.h"
#include "model/model_io.h"
#include "model/net_npy.h"
#include "model/onnx_io.h"

static const char import_help[] =
    "Usage: condnet import --npy DIR --save MODEL [OPTIONS]\n"
    "       condnet import --onnx FILE --save MODEL [OPTIONS]\n\n"
    "Read a dense network from DIR/W1.npy, DIR/b1.npy, ..., DIR/Wm.npy, DIR/bm.npy\n"
    "(float32 or float64), or from an ONNX model, and save it as a condnet model.\n\n"
    "  --npy DIR            directory of the .npy files (checked against its manifest,\n"
    "                       condnet-manifest.txt, when it has one)\n"
    "  --onnx FILE          an ONNX model: per layer a Gemm, or a MatMul and an Add of\n"
    "                       a constant bias (float32 or float64 weights, either\n"
    "                       orientation); hidden activations Erf (after a Mul by a\n"
    "                       constant, erf's scale a), Tanh, Relu or Sigmoid, the same\n"
    "                       in every layer; a final Softmax or none. The activation\n"
    "                       comes from the file. Any other graph of Conv (strides,\n"
    "                       dilations, groups), BatchNormalization, Add, Concat,\n"
    "                       MaxPool, AveragePool, GlobalAveragePool, Relu, Clip,\n"
    "                       LeakyRelu, Sigmoid, Tanh, Erf, Flatten, Reshape, Gemm,\n"
    "                       MatMul, Softmax, Identity and Dropout is read as a graph\n"
    "                       network (ResNets, MobileNets; see the manual's GRAPH\n"
    "                       NETWORKS). Other operators are refused, naming the node.\n"
    "  --layout NAME        keras: W is (inputs, outputs); torch: (outputs, inputs)\n"
    "                       (default keras)\n"
    "  --act NAME           activation of the hidden layers: erf, tanh, relu or sigmoid\n"
    "                       (default erf)\n"
    "  --act-scale A        a in erf(a*x) (default 1)\n"
    "                       (--layout, --act and --act-scale are for --npy only)\n"
    "  --save MODEL         the model file to write\n" OPTS_DRY_RUN_HELP
    "  -h, --help           this text\n";

static const char export_help[] =
    "Usage: condnet export --load MODEL --npy DIR [OPTIONS]\n"
    "       condnet export --load MODEL --onnx FILE [OPTIONS]\n"
    "       condnet export --data SPEC --npy DIR [OPTIONS]\n\n"
    "Write a model's weights and biases as DIR/W1.npy, DIR/b1.npy, ... (float32),\n"
    "or the model as an ONNX file (IR version 7, opset 13: input 'input' of shape\n"
    "(N, inputs), output 'probabilities' of shape (N, classes); per layer a Gemm\n"
    "(transB 1) of initializers Wk (outputs x inputs) and bk, after each hidden\n"
    "layer Mul by erf_scale and Erf, or Tanh, Relu or Sigmoid, and a final\n"
    "Softmax; metadata_props condnet.version, condnet.widths, condnet.activation,\n"
    "condnet.erf_scale and condnet.tau; a graph network node for node, then a\n"
    "Softmax, at opset 10 when it holds a Clip),\n"
    "or a data set as DIR/x_train.npy, DIR/y_train.npy, DIR/x_test.npy and\n"
    "DIR/y_test.npy: the features the trainer sees (float32, one row a sample)\n"
    "and the class labels (int32). DIR is created if missing; the files, a\n"
    "network's or a data set's, appear together with a manifest of their sizes and\n"
    "CRC-32s (condnet-manifest.txt), which import --npy checks.\n\n"
    "  --load MODEL         the model file to read\n"
    "  --npy DIR            directory for the .npy files\n"
    "  --layout NAME        keras: W is (inputs, outputs); torch: (outputs, inputs)\n"
    "                       (default keras)\n"
    "  --onnx FILE          the ONNX file to write (instead of --npy)\n"
    "  --tau T              the tau the model was refined with, recorded in the ONNX\n"
    "                       metadata as condnet.tau (left out when not given)\n" OPTS_DRY_RUN_HELP
    "  -h, --help           this text\n"
    "Data options (with --data):\n" OPTS_DATA_HELP OPTS_INPUTS_HELP;

enum { OPT_NPY = OPTS_OWN, OPT_LAYOUT, OPT_ONNX, OPT_TAU };

static const struct option import_opts[] = {
    {"npy", required_argument, NULL, OPT_NPY},
    {"layout", required_argument, NULL, OPT_LAYOUT},
    {"onnx", required_argument, NULL, OPT_ONNX},
    {0},
};

/* export's own options (with the data-set options of opts_common). */
static const struct option export_own[] = {
    {"npy", required_argument, NULL, OPT_NPY},    {"layout", required_argument, NULL, OPT_LAYOUT},
    {"load", required_argument, NULL, OPTS_LOAD}, {"onnx", required_argument, NULL, OPT_ONNX},
    {"tau", required_argument, NULL, OPT_TAU},    {0},
};

typedef struct NpyCmd {
	const char *dir;
	int layout;
	const char *onnx;
	double tau;
} NpyCmd;

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	NpyCmd *k = ud;
	if (opt == OPT_NPY) {
		k->dir = arg;
		return 0;
	}
	if (opt == OPT_ONNX) {
		k->onnx = arg;
		return 0;
	}
	if (opt == OPT_TAU)
		return limit_parse(LIM_TAU, "--tau", arg, &k->tau, e);
	if (!strcmp(arg, "keras"))
		k->layout = NPY_KERAS;
	else if (!strcmp(arg, "torch"))
		k->layout = NPY_TORCH;
	else
		return err_set(e, "--layout: unknown layout '%s' (expected keras or torch)", arg);
	return 0;
}

/* import --onnx: the network an ONNX file holds, saved as a model. */
static int import_onnx(const char *file, const char *save)
{
	Err e = {{0}};
	OnnxInfo info;
	Net *net = onnx_import_any(file, &info, &e);
	if (!net || model_save(net, save, &e)) {
		net_free(net);
		return cli_fail("import", &e);
	}
	char sh[512];
	if (net->graph)
		printf("imported %s (%d nodes, %zu parameters) from %s (opset %ld, input '%s', "
		       "output '%s') into %s\n",
		       net_shape_str(net, sh, sizeof sh), net->graph->n - 1, net->nparam, file,
		       info.opset, info.input, info.output, save);
	else
		printf(
		    "imported %s (%d layers, %zu parameters, %s) from %s (opset %ld, input '%s', "
		    "output '%s') into %s\n",
		    net_shape_str(net, sh, sizeof sh), net->m, net->nparam,
		    net->m > 1 ? act_name(net->act) : "no hidden layer", file, info.opset,
		    info.input, info.output, save);
	if (!info.softmax)
		printf(
		    "the graph ends in the last layer's outputs (logits); condnet's output layer "
		    "applies the softmax to them\n");
	if (info.identity)
		printf("%d identity layer%s stand%s for the activation%s with no dense layer "
		       "before %s\n",
		       info.identity, info.identity > 1 ? "s" : "", info.identity > 1 ? "" : "s",
		       info.identity > 1 ? "s" : "", info.identity > 1 ? "them" : "it");
	net_free(net);
	return 0;
}

int cmd_import(int argc, char **argv)
{
	CommonOpts c;
	NpyCmd k = {NULL, NPY_KERAS, NULL, 0};
	Err e = {{0}};
	opts_default(&c);
	struct option table[opts_table_len(import_opts)];
	opts_table(table, opts_table_len(import_opts),
	           OPTS_BIT(OPTS_ACT) | OPTS_BIT(OPTS_ACT_SCALE) | OPTS_BIT(OPTS_SAVE),
	           import_opts);
	int pr = opts_parse(argc, argv, NULL, &c, table, own_opt, &k, import_help, NULL);
	if (pr)
		return pr == 1 ? 0 : 2;
	if (!k.dir == !k.onnx || !c.save) {
		fprintf(stderr,
		        "condnet import: one of --npy DIR or --onnx FILE, and --save MODEL, "
		        "are required\n");
		return 2;
	}
	CliOut in[] = {{k.dir, CLI_IN | CLI_OUT_DIR, "--npy", file_roles_npy_net},
	               {k.onnx, CLI_IN, "--onnx", NULL}};
	if (cli_check_outputs(&c, in, 2, &e))
		return cli_fail("import", &e);
	if (opts_dry_run("import"))
		return 0;
	if (k.onnx)
		return import_onnx(k.onnx, c.save);
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
	NpySet *set = NULL;
	int rc = setup_load_data_any(c, &tr, &te, &e);
	/* the four files appear together, or not at all */
	if (rc == 0 && !(set = npy_set_begin(dir, "data", &e)))
		rc = -1;
	if (rc == 0 && (npy_set_add_dataset(set, tr, "train", &e) ||
	                (te && npy_set_add_dataset(set, te, "test", &e)))) {
		npy_set_abort(set);
		rc = -1;
	} else if (rc == 0) {
		rc = npy_set_commit(set, &e);
	}
	if (rc) {
		dataset_free(tr);
		dataset_free(te);
		return cli_fail("export", &e);
	}
	printf("exported %s: %d training and %d test rows of %d features, %d classes, to "
	       "%s/x_train.npy, y_train.npy, x_test.npy, y_test.npy\n",
	       opts_data_name(c), tr->n, te ? te->n : 0, tr->d, tr->k, dir);
	dataset_free(tr);
	dataset_free(te);
	return 0;
}

/* export --onnx: the model as an ONNX file. */
static int export_onnx(const Net *net, const char *file, double tau)
{
	Err e = {{0}};
	OnnxMeta meta = {tau};
	if (onnx_export(net, file, &meta, &e))
		return cli_fail("export", &e);
	char sh[512];
	if (net->graph)
		printf("exported %s (%d nodes) to %s (ONNX opset %d, input '%s', output '%s')\n",
		       net_shape_str(net, sh, sizeof sh), net->graph->n - 1, file,
		       onnx_graph_opset(net->graph), ONNX_INPUT_NAME, ONNX_OUTPUT_NAME);
	else
		printf("exported %s (%d layers, %s) to %s (ONNX opset %d, input '%s', output "
		       "'%s')\n",
		       net_shape_str(net, sh, sizeof sh), net->m, act_name(net->act), file,
		       ONNX_OPSET, ONNX_INPUT_NAME, ONNX_OUTPUT_NAME);
	return 0;
}

/* A model whose inputs are made from raw ones (Haar coefficients, means and
 * scales): the exported graph or weights take them made so, and the record
 * goes with them; said on standard error, so that nobody feeds them raw
 * inputs unwarned. */
static void say_prep(const char *model, const Net *net, int onnx)
{
	const Prep *p = net->prep;
	char how[160];
	if (!p || p->kind == PREP_NONE || (p->kind == PREP_FEATURES && p->scale == DATA_RAW))
		return;
	fprintf(stderr,
	        "condnet export: note: %s reads %s: the %s takes its inputs made so (it does not "
	        "make them); the record of how is in %s, which condnet import, eval and "
	        "predict read\n",
	        model, prep_describe(p, how, sizeof how), onnx ? "ONNX graph" : "set of weights",
	        onnx                   ? "the model's metadata (condnet.prep)"
	        : p->scale != DATA_RAW ? "its manifest (and for NumPy prep_mean.npy, "
	                                 "prep_scale.npy)"
	                               : "its manifest");
}

int cmd_export(int argc, char **argv)
{
	CommonOpts c;
	NpyCmd k = {NULL, NPY_KERAS, NULL, 0};
	Err e = {{0}};
	opts_default(&c);
	struct option opts[opts_table_len(export_own)];
	opts_table(opts, opts_table_len(export_own), OPTS_DATA_SET, export_own);
	int pr = opts_parse(argc, argv, NULL, &c, opts, own_opt, &k, export_help, NULL);
	if (pr)
		return pr == 1 ? 0 : 2;
	if (!k.dir == !k.onnx || !c.load == !c.data.spec || (k.onnx && c.data.spec)) {
		fprintf(stderr, "condnet export: one of --load MODEL or --data SPEC is required, "
		                "with --npy DIR (or --onnx FILE with --load)\n");
		return 2;
	}
	static const char *const data_set[] = {"x_*.npy", "y_*.npy", NPY_SET_MANIFEST, NULL};
	CliOut outs[] = {{k.dir, CLI_OUT_DIR, "--npy", c.data.spec ? data_set : file_roles_npy_net},
	                 {k.onnx, 0, "--onnx", NULL}};
	if (cli_check_outputs(&c, outs, 2, &e))
		return cli_fail("export", &e);
	if (opts_dry_run("export"))
		return 0;
	if (c.data.spec)
		return export_data(&c, k.dir);
	Net *net = model_load_any(c.load, &e);
	if (!net)
		return cli_fail("export", &e);
	if (k.onnx) {
		int rc = export_onnx(net, k.onnx, k.tau);
		if (rc == 0)
			say_prep(c.load, net, 1);
		net_free(net);
		return rc;
	}
	if (net_refuse_graph(net, "export --npy (a matrix a layer)", &e) ||
	    net_npy_export(net, k.dir, k.layout, &e)) {
		net_free(net);
		return cli_fail("export", &e);
	}
	char sh[512];
	printf("exported %s (%d layers) to %s/W1.npy ... %s/b%d.npy (%s layout)\n",
	       net_shape_str(net, sh, sizeof sh), net->m, k.dir, k.dir, net->m,
	       k.layout == NPY_TORCH ? "torch" : "keras");
	say_prep(c.load, net, 0);
	net_free(net);
	return 0;
}
