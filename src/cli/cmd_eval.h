/* cmd_eval.h - what `condnet eval` and `condnet predict` share (their three
 * files; not used elsewhere): the networks they read (a model file, an ONNX
 * file, a set of .npy files), the options that name them, and the rows they
 * read them on, made into each network's inputs as its training inputs were. */
#ifndef CONDNET_CMD_EVAL_H
#define CONDNET_CMD_EVAL_H

#include "cli/cli.h"
#include "cli/progress.h"
#include "data/dataset.h"
#include "engine/net.h"

/* The most networks eval compares. */
enum { EVAL_MAX_NETS = 16 };

typedef enum NetKind { NET_MODEL = 0, NET_ONNX, NET_NPY } NetKind;

typedef struct NetSrc {
	NetKind kind;
	const char *path;
	Net *net; /* once read */
} NetSrc;

/* The options eval and predict share, besides the data-set options. */
typedef struct EvalOpts {
	CommonOpts c;
	NetSrc src[EVAL_MAX_NETS];
	int nsrc;
	int layout;         /* --layout of --npy */
	int split;          /* SPLIT_TEST, SPLIT_TRAIN, SPLIT_ALL */
	int features_given; /* --features was given */
	int markdown;
} EvalOpts;

enum { SPLIT_TEST = 0, SPLIT_TRAIN, SPLIT_ALL };

/* Option codes of the shared options, and their getopt entries, which
 * open the own table of each command; EVAL_COMMON the common options both
 * take (the data-set options, --features but a shared one here). Each
 * command's table: opts_table(t, max, EVAL_COMMON, own). */
enum {
	EOPT_LOAD = OPTS_OWN + 64,
	EOPT_ONNX,
	EOPT_NPY,
	EOPT_LAYOUT,
	EOPT_SPLIT,
	EOPT_FEATURES,
	EOPT_MARKDOWN
};
#define EVAL_OPTIONS                                                                               \
	{"load", required_argument, NULL, EOPT_LOAD},                                              \
	    {"onnx", required_argument, NULL, EOPT_ONNX},                                          \
	    {"npy", required_argument, NULL, EOPT_NPY},                                            \
	    {"layout", required_argument, NULL, EOPT_LAYOUT},                                      \
	    {"split", required_argument, NULL, EOPT_SPLIT},                                        \
	{                                                                                          \
		"features", required_argument, NULL, EOPT_FEATURES                                 \
	}
#define EVAL_COMMON                                                                                \
	(OPTS_DATA_SET | OPTS_BIT(OPTS_ACT) | OPTS_BIT(OPTS_ACT_SCALE) | OPTS_BIT(OPTS_THREADS) |  \
	 OPTS_BIT(OPTS_QUIET) | OPTS_BIT(OPTS_REPRO) | OPTS_BIT(OPTS_NO_REPRO))
/* Parses a shared option into o: 0, -1 with a message, 1 when opt is not one. */
int eval_option(EvalOpts *o, int opt, const char *arg, Err *e);
void eval_opts_default(EvalOpts *o);
void eval_opts_free(EvalOpts *o);

/* "test", "train", "all". */
const char *eval_split_name(int split);
/* "model", "onnx", "npy". */
const char *eval_kind_name(NetKind k);

/* The networks of o as inputs for cli_check_outputs (a .npy set's
 * directory with its files' names) into in (room for EVAL_MAX_NETS);
 * returns how many. */
int eval_inputs(const EvalOpts *o, CliOut *in);

/* Reads every network of o (a model, ONNX or .npy files). */
int eval_read_nets(EvalOpts *o, Err *e);

/* 0 unless o's --center or --standardize contradicts rec, the record of
 * the network name (NULL: none). */
int eval_check_scale(const EvalOpts *o, const Prep *rec, const char *name, Err *e);

/* The split of o's data set, made into the inputs of net (called name): by
 * the preprocessing net records (its Haar coefficients, encoding, means and
 * scales), or, for a network that records none, by o's --center or
 * --standardize over the training set; the labels held below net's
 * outputs. Unless --features or --inputs is given, MNIST's inputs are
 * those net records: its Haar coefficients, or the pixels.
 * A --center or --standardize that contradicts the record is an error. */
Dataset *eval_load_split(const EvalOpts *o, const Net *net, const char *name, Err *e);

/* A NetRowsFn drawing on the Progress ud; 1 (stop) once a signal came. */
int eval_progress(long done, long total, void *ud);

#endif
