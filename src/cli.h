/* cli.h - the batch commands and the options they share.
 *
 * Every command takes the data-set, network and training flags of
 * `condnet train`, parsed once here, so `condnet tui` accepts the same. */
#ifndef CONDNET_CLI_H
#define CONDNET_CLI_H

#include <getopt.h>
#include <stdint.h>

#include "act.h"
#include "dataset.h"
#include "datasets.h"
#include "err.h"
#include "net.h"
#include "train.h"

typedef struct CommonOpts {
	DataSpec data;       /* --data, --data-dir, --features, --label-col, --limit */
	const char *layers;  /* --layers (hidden widths), default per data set */
	ActKind act;         /* --act */
	float act_a;         /* --act-scale (erf(a·x)), default 1 */
	uint64_t seed;       /* --seed */
	TrainOpts train;     /* --batch, --lr, --threads */
	const char *load;    /* --load MODEL: start from a saved model */
	const char *save;    /* --save MODEL */
	const char *json;    /* --json FILE */
	const char *csv;     /* --csv FILE */
	int quiet;           /* --quiet: no progress */
	double val_frac;     /* --val-frac */
	int val_per_class;   /* --val-per-class */
} CommonOpts;

void cli_common_default(CommonOpts *c);

/* getopt_long table entries for the common options, and their handler:
 * returns 1 if opt was a common option (parsed into c), 0 if not, -1 on a
 * bad value (message in e). Commands append their own entries. */
extern const struct option cli_common_options[];
extern const int cli_common_noptions;
int cli_common_handle(CommonOpts *c, int opt, const char *arg, Err *e);
/* The text describing the common options, for --help. */
extern const char cli_common_help[];

/* Loads the data sets, and builds the network: from --load, or fresh from
 * --layers with Glorot weights from --seed. Either output may be NULL. */
int cli_load_data(const CommonOpts *c, Dataset **train, Dataset **test, Err *e);
Net *cli_make_net(const CommonOpts *c, const Dataset *train, Err *e);

/* Subcommands: each returns the process exit status (0 ok, 1 failure,
 * 2 usage error). argv[0] is the subcommand name. */
int cmd_train(int argc, char **argv);
int cmd_alg1(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_squeeze(int argc, char **argv);
int cmd_cond(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_paper(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_tui(int argc, char **argv);

#endif
