/* cmd_squeeze.h - what `condnet squeeze` and its --compare mode share (the
 * two files of the command; not used elsewhere). */
#ifndef CONDNET_CMD_SQUEEZE_H
#define CONDNET_CMD_SQUEEZE_H

#include "alg/alg3_squeeze.h"
#include "cli/cli.h"
#include "cli/progress.h"
#include "engine/train_plan.h"

struct cJSON;

enum { SQUEEZE_MAX_TAUS = 32 };

typedef struct Squeeze {
	Alg3Opts so;
	double taus[SQUEEZE_MAX_TAUS]; /* --tau, one or (with --compare) several */
	int ntau;
	double retrain;
	int until_stable;
	const char *keep_spec;   /* --keep-counts */
	int *keep;               /* the counts it gives, once the network is loaded */
	const char *only_spec;   /* --only-layers */
	int *only;               /* its flags, one per hidden layer, once the network is loaded */
	const char *groups_spec; /* --only-groups (graph networks) */
	int compare;
	int draws, retrain_draws;
	const char *plot; /* --plot PREFIX */
	int timing;       /* 1: time the forward pass (not --no-timing) */
	Progress prog;
	TrainResult last; /* the last retraining's (HOOK_TRAINED) */
	int have_last;
	struct Alg3Compare *cmp; /* --compare --plot: the results to draw, once the
	                          * record is written */
	int ncmp;
} Squeeze;

/* The command line into c and s: 0, 1 after --help, 2 after an error
 * (said on stderr). */
int squeeze_parse(int argc, char **argv, CommonOpts *c, Squeeze *s);

/* --keep-counts as a widths list (digits, x and commas, no file of that
 * name): 0 when it is one (none empty), else -1 with why (a usage error,
 * before --dry-run); anything else is left to squeeze_check_counts_spec. */
int squeeze_check_counts_list(const char *arg, Err *e);

/* --keep-counts names a file, or is a record or a widths list itself: 0, or
 * -1 with "no such file" for a name that is neither (before any data is read,
 * as the file it was meant to be). */
int squeeze_check_counts_spec(const char *arg, Err *e);

/* --keep-counts' text: the whole of the file arg names (into *text, to be
 * freed), else arg itself, past its leading blanks; NULL with a message. */
const char *squeeze_counts_text(const char *arg, char **text, Err *e);
/* The counts of a list on the first line of spec (280,250,3x100) into *w
 * (allocated) and *n: 0, or -1 with a message. */
int squeeze_counts_list(const char *spec, int **w, int *n, Err *e);

/* --keep-counts: s->keep and s->so.keep_counts from s->keep_spec (a JSON
 * record of another squeeze, or widths in a file or the argument), checked
 * against net. */
int squeeze_load_counts(Squeeze *s, const Net *net, Err *e);

/* --only-layers: s->only and s->so.only from s->only_spec, checked against
 * net (hidden layers 1..m-1); --only-groups refused (a chain has no channel
 * groups). 0, or -1 with a message. */
int squeeze_load_only(Squeeze *s, const Net *net, Err *e);

/* --only-groups G[,G…]: each element a group's number ≥ 1; with flags (n of
 * them, the network's groups) each at most n, its flag set. 0, or -1 with a
 * message. */
int squeeze_parse_groups(const char *arg, unsigned char *flags, int n, Err *e);

/* `condnet squeeze --compare`: the comparison at every τ (compensation's
 * sample and the retraining, by plan, from train), its tables, JSON (into
 * rec) and CSV; with --plot the results are kept in s for
 * squeeze_compare_plot. 0, 1 when interrupted, -1. */
int squeeze_compare_run(const CommonOpts *c, Squeeze *s, const Net *net, const Dataset *train,
                        const Dataset *test, const TrainPlan *plan, struct cJSON *rec, Err *e);
/* The plot of the results kept by squeeze_compare_run (PREFIX.dat, .gp,
 * and .png through gnuplot), after the record is written, so that a
 * gnuplot that fails or hangs loses nothing computed. 0, 1 when a stop
 * ended gnuplot, -1. squeeze_compare_free frees the results kept. */
int squeeze_compare_plot(const CommonOpts *c, Squeeze *s, Err *e);
void squeeze_compare_free(Squeeze *s);

/* `condnet squeeze` on a graph network (*net, replaced by the squeezed one):
 * Algorithm 3 group by group at the first τ, its table, the costs and the
 * test accuracy before and after, --json and --save. The options of chains
 * alone are refused. 0, 1 when stopped, -1 with a message. */
int squeeze_graph_run(const CommonOpts *c, const Squeeze *s, Net **net, const Dataset *train,
                      const Dataset *test, Err *e);

#endif
