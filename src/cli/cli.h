/* cli.h - the batch commands and the options they share.
 *
 * Every command takes the data-set, network and training flags of
 * `condnet train`, parsed once here, so `condnet tui` accepts the same. */
#ifndef CONDNET_CLI_H
#define CONDNET_CLI_H

#include <getopt.h>
#include <limits.h>
#include <stdint.h>

#include "base/err.h"
#include "data/dataset.h"
#include "data/datasets.h"
#include "engine/act.h"
#include "engine/limits.h"
#include "engine/net.h"
#include "engine/train.h"
#include "engine/train_plan.h"

typedef struct CommonOpts {
	DataSpec data;      /* --data, --data-dir, --features, --label-col, --limit, --inputs,
	                     * --shape */
	int features_given; /* --features was given */
	int inputs_given;   /* --inputs was given */
	const char *layers; /* --layers (hidden widths), default per data set */
	ActKind act;        /* --act */
	float act_a;        /* --act-scale (erf(a·x)), default 1 */
	uint64_t seed;      /* --seed */
	TrainOpts train;    /* --batch, --lr, --threads, --schedule and --warmup (train.sched) */
	int sched_given;    /* --schedule or --warmup was given */
	int early_stop;     /* --early-stop PATIENCE, 0 = none */
	const char *load;   /* --load MODEL: start from a saved model */
	const char *save;   /* --save MODEL */
	const char *json;   /* --json FILE */
	const char *csv;    /* --csv FILE */
	int quiet;          /* --quiet: no progress */
	double val_frac;    /* --val-frac */
	int val_per_class;  /* --val-per-class */
	uint64_t without;   /* the common options the command does not take (CLI_BIT of
	                     * each): cli_parse neither accepts nor lists them */
} CommonOpts;

void cli_common_default(CommonOpts *c);

/* The largest network cli_make_net builds: 2^30 parameters take 16 GiB with
 * their gradients and Adam moments (the table of limits, engine/limits.h). */
#define CLI_MAX_PARAMS LIMIT_MAX_PARAMS

/* getopt_long table entries for the common options, and their handler:
 * returns 1 if opt was a common option (parsed into c), 0 if not, -1 on a
 * bad value (message in e). Commands append their own entries. */
extern const struct option cli_common_options[];
extern const int cli_common_noptions;
/* The first CLI_DATA_NOPTIONS entries of cli_common_options are the data-set
 * options, --data to --shape, for commands that take only those. */
#define CLI_DATA_NOPTIONS 11
int cli_common_handle(CommonOpts *c, int opt, const char *arg, Err *e);
/* The text describing the common options, for --help; CLI_DATA_HELP the
 * part about the data-set options (the first CLI_DATA_NOPTIONS). */
extern const char cli_common_help[];
#define CLI_DATA_HELP CLI_DATA_HELP_DEFAULT("synthetic")
/* The same with another default data set in the text (the screen's). */
#define CLI_DATA_HELP_DEFAULT(dflt)                                                                \
	"  --data SPEC          mnist, fashion, adult, synthetic, csv:TRAIN[,TEST], or a\n"        \
	"                       data set in the plane: spiral, circles, xor, gauss, moons\n"       \
	"                       (default " dflt ")\n"                                              \
	"  --data-dir DIR       directory of fetched data sets (default $CONDNET_DATA,\n"          \
	"                       else $XDG_CACHE_HOME/condnet, else ~/.cache/condnet)\n"            \
	"  --features K         MNIST/Fashion Haar-wavelet coefficients, 1..1024 (default 200)\n"  \
	"  --label-col N        CSV column of the label, counted from 0 (default the last)\n"      \
	"  --limit N            keep at most N rows of every class (quick runs)\n"                 \
	"  --center             subtract every feature's mean over the training set\n"             \
	"  --standardize        and divide by its standard deviation there\n"                      \
	"  --points N           a plane data set's training points, 6..1000000 (default 300;\n"    \
	"                       its test set has as many)\n"                                       \
	"  --noise S            a plane data set's noise, 0..1: the standard deviation added\n"    \
	"                       to every coordinate (default 0.05, moons 0.08)\n"                  \
	"  --shape CxHxW        a CSV's rows as images of C maps of HxW values, channel by\n"      \
	"                       channel, row by row (HxW: one map), for convolution layers\n"
/* --inputs, which the batch commands and the screen take. */
#define CLI_INPUTS_HELP                                                                            \
	"  --inputs KIND        what MNIST/Fashion networks see: qr (the K Haar coefficients\n"    \
	"                       a pivoted QR picks first, the paper's; the default),\n"            \
	"                       variance (the K of largest variance), coarse (the K\n"             \
	"                       coarsest), all (all 1,024 coefficients) or pixels (the 784\n"      \
	"                       pixels); K is --features, which all and pixels refuse\n"

/* Loads the data sets, and builds the network: from --load, or fresh from
 * --layers with Glorot weights from --seed. Either output may be NULL. */
int cli_load_data(const CommonOpts *c, Dataset **train, Dataset **test, Err *e);
Net *cli_make_net(const CommonOpts *c, const Dataset *train, Err *e);
/* Under an address-space limit (ulimit -v), the room for the run to come
 * (base/blas.h: OpenBLAS's buffers for --threads threads and work bytes of
 * its own), or a message saying how much it needs; cli_make_net asks it for
 * the network it returns. cli_work_bytes is the estimate for a run on net
 * (0 for NULL): its gradients and Adam's moments, a batch's activations per
 * thread, the conditioning's copies of its widest Ŵ. */
int cli_reserve(const CommonOpts *c, double work, Err *e);
double cli_work_bytes(const CommonOpts *c, const Net *net);
/* 0 when the model name, whose preprocessing record is model (NULL: none
 * recorded), can read the data made by the record data: the same kind of
 * input and the same scale step (else a message saying which option to give
 * or drop). */
int cli_check_prep(const Prep *model, const Prep *data, const char *name, Err *e);
/* model_save, after recording the preprocessing of train's inputs in net
 * when it has none (a network made on train). */
int cli_save_model(Net *net, const char *path, const Dataset *train, Err *e);

/* Option codes (struct option.val) of the common options; a command's own
 * options use codes from CLI_OPT_OWN on. */
enum {
	CLI_OPT_DATA = 256,
	CLI_OPT_DATA_DIR,
	CLI_OPT_FEATURES,
	CLI_OPT_LABEL_COL,
	CLI_OPT_LIMIT,
	CLI_OPT_LAYERS,
	CLI_OPT_ACT,
	CLI_OPT_ACT_SCALE,
	CLI_OPT_SEED,
	CLI_OPT_BATCH,
	CLI_OPT_LR,
	CLI_OPT_THREADS,
	CLI_OPT_LOAD,
	CLI_OPT_SAVE,
	CLI_OPT_JSON,
	CLI_OPT_CSV,
	CLI_OPT_QUIET,
	CLI_OPT_VAL_FRAC,
	CLI_OPT_VAL_PER_CLASS,
	CLI_OPT_CENTER,
	CLI_OPT_STANDARDIZE,
	CLI_OPT_SCHEDULE,
	CLI_OPT_WARMUP,
	CLI_OPT_EARLY_STOP,
	CLI_OPT_REPRO,
	CLI_OPT_NO_REPRO,
	CLI_OPT_COND_PATH,
	CLI_OPT_POINTS,
	CLI_OPT_NOISE,
	CLI_OPT_INPUTS,
	CLI_OPT_SHAPE,
	CLI_OPT_DRY_RUN = 511, /* every command's; not a common option */
	CLI_OPT_OWN = 512
};

/* The bit of a common option's code (or of --reproducible's, --no-reproducible's)
 * in CommonOpts.without; CLI_VALIDATION the options of the validation split. */
#define CLI_BIT(code) ((uint64_t)1 << ((code)-CLI_OPT_DATA))
#define CLI_VALIDATION                                                                             \
	(CLI_BIT(CLI_OPT_VAL_FRAC) | CLI_BIT(CLI_OPT_VAL_PER_CLASS) | CLI_BIT(CLI_OPT_EARLY_STOP))

/* --reproducible and --no-reproducible (main.c acts on them before the
 * command runs; cli_parse accepts and skips them): cli_parse adds them with
 * the common options; a command without those lists them among its own. */
extern const struct option cli_mode_options[];
#define CLI_MODE_NOPTIONS 2
#define CLI_MODE_HELP                                                                              \
	"  --reproducible       the same numbers on every x86-64 CPU with AVX2 and FMA:\n"         \
	"                       OpenBLAS's Haswell kernels, every batch in 2 parts (the\n"         \
	"                       default for paper, replay and lessons)\n"                          \
	"  --no-reproducible    the fastest kernels for this CPU, parts by --threads\n"

/* --cond-path, which the commands with the common options and the screen
 * take: it sets the engine's decomposition path (cond_set_path) at once. */
#define CLI_COND_PATH_HELP                                                                         \
	"  --cond-path P        where kappa and the pivoted QR are computed: auto (default:\n"     \
	"                       LAPACK's blocked routines for layers of 256 neurons or more,\n"    \
	"                       GSL's below, and GSL's in the reproducible mode), gsl or\n"        \
	"                       lapack (paper always uses gsl)\n"
/* --dry-run, which every command takes: cli_parse accepts it, and the
 * command stops when cli_dry_run says so, after it has checked its options
 * and outputs and before it reads or writes anything. */
#define CLI_DRY_RUN_HELP                                                                           \
	"  --dry-run            check the options, their combinations and the outputs;\n"          \
	"                       read, run and write nothing\n"
/* 1 after "condnet CMD: --dry-run: ..." on standard output when --dry-run
 * was given (the command then exits 0); else 0. */
int cli_dry_run(const char *cmd);

/* --schedule for a command without a validation set (no plateau), as an own
 * option whose help the command words: its getopt entry; cli_no_plateau
 * refuses the plateau schedule (2 after the message, else 0). */
#define CLI_SCHEDULE_OPTION                                                                        \
	{                                                                                          \
		"schedule", required_argument, NULL, CLI_OPT_SCHEDULE                              \
	}
int cli_no_plateau(const CommonOpts *c, const char *cmd, const char *why);

/* A command's own option: returns 0 when parsed, -1 on a bad value (message in e). */
typedef int (*CliOwnFn)(int opt, const char *arg, void *ud, Err *e);

/* Parses argv[1..argc) of command argv[0]: the common options (when c is
 * not NULL; but those of c->without) and the command's own (own, terminated
 * by a zero entry; an own entry may reuse a common code, which is then
 * parsed into c, else into *shared), and --dry-run.
 * -h/--help prints help_head and, with c, cli_common_help (but the entries
 * of c->without) to stdout.
 * Non-option arguments are left at argv[*first..argc); when first is NULL
 * they are an error. Returns 0 to go on, 1 after --help (exit 0), 2 after a
 * usage error already printed as "condnet CMD: message" (exit 2). */
int cli_parse(int argc, char **argv, CommonOpts *c, CommonOpts *shared, const struct option *own,
              CliOwnFn fn, void *ud, const char *help_head, int *first);

/* Strict number parsing for option values; name is the option ("--batch"),
 * the message says what was expected. */
int cli_int(const char *name, const char *s, long lo, long hi, int *out, Err *e);
/* x must be > lo (lo_open) or ≥ lo, and ≤ hi. */
int cli_double(const char *name, const char *s, double lo, int lo_open, double hi, double *out,
               Err *e);

/* The training the options describe: c->train (with --schedule and
 * --warmup) for `epochs`, the cap under --early-stop. When early stopping or
 * a plateau schedule (sched, NULL for --schedule's) needs a validation set,
 * train is split by --val-frac or --val-per-class with --seed into *tr and
 * *val, which the plan trains and validates on and the caller frees;
 * otherwise both are NULL and the plan trains on all of train. */
int cli_plan(const CommonOpts *c, const Dataset *train, const LrSchedule *sched, double epochs,
             TrainPlan *p, Dataset **tr, Dataset **val, Err *e);
/* One line saying how the plan trains: "schedule plateau:2:0.1, warm-up 1
 * epoch, early stopping after 5 epochs on 6000 validation rows". */
const char *cli_plan_str(const TrainPlan *p, const LrSchedule *sched, char *buf, size_t len);

/* An output of a command besides --save, --json and --csv: a file written
 * with file_write's flags (FILE_OUT_TEXT for text), or with CLI_OUT_DIR a
 * directory the command creates when it is missing. path NULL: not given. */
typedef struct CliOut {
	const char *path;
	int flags;
} CliOut;
#define CLI_OUT_DIR 0x100

/* Checks, before any data is read or anything trained, that every output
 * of the command can be written: c's --save (a model: binary), --json and
 * --csv (text: "-" is standard output), and the n entries of own. A file
 * whose directory is one of own's CLI_OUT_DIR entries (made by the command)
 * passes when that directory can be made. For every command, right after
 * its options are parsed: a long run is never lost to a typo. When one text
 * output is standard output ("-", /dev/stdout), the text report goes to
 * standard error from then on (file_stdout_for_records), so that standard
 * output carries the record alone; two of them are an error. */
int cli_check_outputs(const CommonOpts *c, const CliOut *own, int n, Err *e);

/* The hidden widths used when --layers is not given, for a --data spec. */
const char *cli_default_layers(const char *spec);
/* The data set's name for messages and records ("synthetic" when none). */
const char *cli_data_name(const CommonOpts *c);

/* 1 when the program runs from its build tree (configure's config.status
 * lies beside it), with the source tree's directory in dir: its files
 * (man/condnet.1, data/lessons) stand in for installed ones there. */
int cli_source_tree(char *dir, size_t len);
/* The directories where condnet's installed data folder sub ("lessons")
 * may be, in the order to look: the configured data directory, the one
 * beside the executable (PREFIX/share/condnet/sub for PREFIX/bin/condnet),
 * and the source tree's data/sub when run from a build tree. At most max;
 * returns how many. */
int cli_data_dirs(const char *sub, char dirs[][PATH_MAX], int max);
/* How to read the manual: "man condnet", or "man ./man/condnet.1" (the
 * source tree's page, by its path) for a program run from its build tree. */
const char *cli_man_hint(void);
/* The command that fetches a data set: the installed fetch script
 * ($(pkgdatadir)/fetch, or PREFIX/share/condnet/fetch beside the executable),
 * else the source tree's data/fetch for a program run from its build tree,
 * each by its absolute path; "data/fetch" when none is found. */
const char *cli_fetch_hint(void);

/* Prints "condnet CMD: message" to stderr; returns the exit status: 1, or
 * 130 when a stop signal the command took (SIGINT, SIGTERM, …) ended the
 * work that failed. */
int cli_fail(const char *cmd, const Err *e);

/* Subcommands: each returns the process exit status (0 ok, 1 failure,
 * 2 usage error). argv[0] is the subcommand name. */
int cmd_train(int argc, char **argv);
int cmd_alg1(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_squeeze(int argc, char **argv);
int cmd_cond(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_paper(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_tui(int argc, char **argv);

#endif
