/* setup/opts.h - the options both front ends take: the data-set, network
 * and training options of every batch command and of the screen (the
 * common options), the one getopt_long table a command line is parsed with,
 * strict number parsing, and --dry-run. */
#ifndef CONDNET_SETUP_OPTS_H
#define CONDNET_SETUP_OPTS_H

#include <getopt.h>
#include <stdint.h>

#include "base/err.h"
#include "data/datasets.h"
#include "engine/act.h"
#include "engine/train.h"

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
	const char *onnx;   /* --onnx FILE: or from a network in an ONNX file */
	const char *save;   /* --save MODEL */
	const char *json;   /* --json FILE */
	const char *csv;    /* --csv FILE */
	int quiet;          /* --quiet: no progress */
	double val_frac;    /* --val-frac */
	int val_per_class;  /* --val-per-class */
	uint64_t without;   /* the common options the command does not take (OPTS_BIT of
	                     * each): opts_parse neither accepts nor lists them */
} CommonOpts;

void opts_default(CommonOpts *c);

/* Option codes (struct option.val) of the common options; a command's own
 * options use codes from OPTS_OWN on. */
enum {
	OPTS_DATA = 256,
	OPTS_DATA_DIR,
	OPTS_FEATURES,
	OPTS_LABEL_COL,
	OPTS_LIMIT,
	OPTS_LAYERS,
	OPTS_ACT,
	OPTS_ACT_SCALE,
	OPTS_SEED,
	OPTS_BATCH,
	OPTS_LR,
	OPTS_THREADS,
	OPTS_LOAD,
	OPTS_SAVE,
	OPTS_JSON,
	OPTS_CSV,
	OPTS_QUIET,
	OPTS_VAL_FRAC,
	OPTS_VAL_PER_CLASS,
	OPTS_CENTER,
	OPTS_STANDARDIZE,
	OPTS_SCHEDULE,
	OPTS_WARMUP,
	OPTS_EARLY_STOP,
	OPTS_REPRO,
	OPTS_NO_REPRO,
	OPTS_COND_PATH,
	OPTS_POINTS,
	OPTS_NOISE,
	OPTS_INPUTS,
	OPTS_SHAPE,
	OPTS_ONNX, /* not in opts_common: the batch commands that train or read a network
	            * name it among their own (OPTS_ONNX_OPTION); parsed into the common
	            * options all the same */
	OPTS_WIDE,
	OPTS_DRY_RUN = 511, /* every command's; not a common option */
	OPTS_OWN = 512
};

/* The bit of a common option's code (or of --reproducible's, --no-reproducible's)
 * in CommonOpts.without and in opts_table's set; OPTS_ALL all of them,
 * OPTS_VALIDATION the options of the validation split. */
#define OPTS_BIT(code) ((uint64_t)1 << ((code)-OPTS_DATA))
#define OPTS_ALL (~(uint64_t)0)
#define OPTS_VALIDATION                                                                            \
	(OPTS_BIT(OPTS_VAL_FRAC) | OPTS_BIT(OPTS_VAL_PER_CLASS) | OPTS_BIT(OPTS_EARLY_STOP))

/* --onnx FILE, in the own options of the commands that take it: train,
 * cond, alg1, squeeze and sweep (setup_make_net_any reads the network). */
#define OPTS_ONNX_OPTION                                                                           \
	{                                                                                          \
		"onnx", required_argument, NULL, OPTS_ONNX                                         \
	}

/* getopt_long entries for the common options, and their handler: returns 1
 * if opt was a common option (parsed into c), 0 if not, -1 on a bad value
 * (message in e). The first entries are the data-set options, --data to
 * --shape (OPTS_DATA_SET), for commands that take only those. */
extern const struct option opts_common[];
extern const int opts_ncommon;
#define OPTS_DATA_SET                                                                              \
	(OPTS_BIT(OPTS_DATA) | OPTS_BIT(OPTS_DATA_DIR) | OPTS_BIT(OPTS_FEATURES) |                 \
	 OPTS_BIT(OPTS_LABEL_COL) | OPTS_BIT(OPTS_LIMIT) | OPTS_BIT(OPTS_CENTER) |                 \
	 OPTS_BIT(OPTS_STANDARDIZE) | OPTS_BIT(OPTS_POINTS) | OPTS_BIT(OPTS_NOISE) |               \
	 OPTS_BIT(OPTS_INPUTS) | OPTS_BIT(OPTS_SHAPE))
int opts_handle(CommonOpts *c, int opt, const char *arg, Err *e);

/* --reproducible and --no-reproducible (main.c acts on them before the
 * command runs; opts_parse accepts and skips them): in a table with the
 * common options; a command without those lists them among its own. */
extern const struct option opts_mode[];
#define OPTS_MODE_NOPTIONS 2

/* The getopt_long table of a command, in t (len entries, the zero entry
 * that ends it included): -h/--help, --dry-run, the mode and common options
 * whose bits (OPTS_BIT) are in common, in that order, but those an entry of
 * own names (own's stands for it), then the entries of own (ended by a zero
 * entry; NULL: none) that name no option before them. Returns the count, or
 * -1 (t an empty table, which takes no option) when len is less than
 * opts_table_len(own): no option is ever left out. Every table of options
 * is made by it: a command that takes some of the common options without
 * their help (the screen, eval, paper…) names them in common, and parses
 * the table as its own:
 *   struct option t[opts_table_len(own)];
 *   opts_table(t, opts_table_len(own), common, own); */
int opts_table_len(const struct option *own);
int opts_table(struct option *t, int len, uint64_t common, const struct option *own);

/* A command's own option: returns 0 when parsed, -1 on a bad value (message in e). */
typedef int (*OptsOwnFn)(int opt, const char *arg, void *ud, Err *e);

/* Parses argv[1..argc) of command argv[0]: the common options (when c is
 * not NULL; but those of c->without) and the command's own (own, terminated
 * by a zero entry; an own entry may reuse a common code, which is then
 * parsed into c, else into *shared), and --dry-run.
 * -h/--help prints help_head and, with c, opts_common_help (but the entries
 * of c->without) to stdout.
 * Non-option arguments are left at argv[*first..argc); when first is NULL
 * they are an error. Returns 0 to go on, 1 after --help (exit 0), 2 after a
 * usage error already printed as "condnet CMD: message" (exit 2). */
int opts_parse(int argc, char **argv, CommonOpts *c, CommonOpts *shared, const struct option *own,
               OptsOwnFn fn, void *ud, const char *help_head, int *first);

/* 1 after "condnet CMD: --dry-run: ..." on standard output when --dry-run
 * was given to the command opts_parse parsed last (the command then exits
 * 0); else 0. The command asks after it has checked its options and
 * outputs, before it reads or writes anything. */
int opts_dry_run(const char *cmd);

/* Strict number parsing for option values; name is the option ("--batch"),
 * the message says what was expected. */
int opts_int(const char *name, const char *s, long lo, long hi, int *out, Err *e);
/* x must be > lo (lo_open) or ≥ lo, and ≤ hi. */
int opts_double(const char *name, const char *s, double lo, int lo_open, double hi, double *out,
                Err *e);

/* The hidden widths used when --layers is not given, for a --data spec. */
const char *opts_default_layers(const char *spec);
/* The data set's name for messages and records ("synthetic" when none). */
const char *opts_data_name(const CommonOpts *c);

/* The text describing the common options, for --help; OPTS_DATA_HELP the
 * part about the data-set options (OPTS_DATA_SET but --inputs). */
extern const char opts_common_help[];
#define OPTS_DATA_HELP OPTS_DATA_HELP_DEFAULT("synthetic")
/* The same with another default data set in the text (the screen's). */
#define OPTS_DATA_HELP_DEFAULT(dflt)                                                               \
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
#define OPTS_INPUTS_HELP                                                                           \
	"  --inputs KIND        what MNIST/Fashion networks see: qr (the K Haar coefficients\n"    \
	"                       a pivoted QR picks first, the paper's; the default),\n"            \
	"                       variance (the K of largest variance), coarse (the K\n"             \
	"                       coarsest), all (all 1,024 coefficients) or pixels (the 784\n"      \
	"                       pixels); K is --features, which all and pixels refuse\n"
/* --layers, --act and --act-scale, which the batch commands and the screen
 * describe alike. */
#define OPTS_NETWORK_HELP                                                                          \
	"  --layers SPEC        hidden widths: 12x300, 600,410,510 or 3x50,20 (default:\n"         \
	"                       synthetic 4x32, mnist and fashion 12x300, adult 12x50, csv "       \
	"3x32,\n"                                                                                  \
	"                       the plane data sets 2x32); convolutions first on images:\n"        \
	"                       conv:C:K[:same] (C channels of KxK kernels), pool:2 after\n"       \
	"                       one, as in conv:6:5,pool:2,conv:16:5,pool:2,120,84; a\n"           \
	"                       residual graph network (train, cond, alg1, sweep, tui):\n"         \
	"                       resnet:16,32,64 (basic blocks on images, a stage per\n"            \
	"                       width, xB blocks) or residual:32x2 (blocks of two dense\n"         \
	"                       layers)\n"                                                         \
	"  --act NAME           erf, tanh, relu or sigmoid (default erf)\n"                        \
	"  --act-scale A        a in erf(a*x) (default 1)\n"
#define OPTS_MODE_HELP                                                                             \
	"  --reproducible       the same numbers on every x86-64 CPU with AVX2 and FMA:\n"         \
	"                       OpenBLAS's Haswell kernels, every batch in 2 parts (the\n"         \
	"                       default for paper, replay and lessons)\n"                          \
	"  --no-reproducible    the fastest kernels for this CPU, parts by --threads\n"
/* --cond-path, which the commands with the common options and the screen
 * take: it sets the engine's decomposition path (cond_set_path) at once. */
#define OPTS_COND_PATH_HELP                                                                        \
	"  --cond-path P        where kappa and the pivoted QR are computed: auto (default:\n"     \
	"                       LAPACK's blocked routines for layers of 256 neurons or more,\n"    \
	"                       GSL's below, and GSL's in the reproducible mode), gsl or\n"        \
	"                       lapack (paper always uses gsl)\n"
/* --wide, which the commands with --cond-path take: it sets what κ and p
 * count for a wide layer (cond_set_wide) at once. */
#define OPTS_WIDE_HELP                                                                             \
	"  --wide R             what kappa and p count for a layer with more neurons or\n"         \
	"                       channels than inputs + 1 (wide: more columns than rows):\n"        \
	"                       paper (default: its min(rows, columns) singular values, as\n"      \
	"                       the paper reports them) or zero (the columns - rows missing\n"     \
	"                       ones count as zeros: kappa = inf, p includes them, and\n"          \
	"                       Algorithms 1 and 3 both remove them; paper always uses paper)\n"
#define OPTS_DRY_RUN_HELP                                                                          \
	"  --dry-run            check the options, their combinations and the outputs;\n"          \
	"                       read, run and write nothing\n"

#endif
