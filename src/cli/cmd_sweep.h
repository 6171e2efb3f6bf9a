/* cmd_sweep.h - what the two files of `condnet sweep` share (not used
 * elsewhere): cmd_sweep.c runs Algorithm 2, a trial or a gather;
 * cmd_sweep_plan.c writes the command lines of its trials. */
#ifndef CONDNET_CMD_SWEEP_H
#define CONDNET_CMD_SWEEP_H

#include "alg/alg2_scale.h"
#include "cli/cli.h"
#include "cli/progress.h"
#include "engine/train.h"

typedef struct Sweep {
	Alg2Opts o;
	int beta_given;
	double final_epochs;
	TrainResult final; /* what the final training did */
	int trial;         /* -1: not single-trial mode */
	const char *out;
	int gather;
	const char *plan;         /* --plan FILE */
	const struct option *own; /* its own options: the plan's lines pass them on */
	Progress prog;
} Sweep;

/* The Table 2 layout and the pick; returns the pick's index or -1. */
int sweep_print_result(const Alg2 *a);

/* Every word the plan and the printed commands will hold can stand on one
 * line of a plan: checked before the data are read. */
int sweep_check_plan_words(const Sweep *s, const CommonOpts *c, int argc, char **argv, Err *e);
/* --plan without --gather: the trials of the listed β into the plan file,
 * and the command that gathers them. */
int sweep_plan(const Sweep *s, const CommonOpts *c, int argc, char **argv, const Net *base, Err *e);
/* After --gather, when the pick is at an edge (the table so far printed,
 * sweep_print_result): the trials of the β Algorithm 2 adds there (next),
 * into the --plan file or printed. */
int sweep_plan_next(const Sweep *s, const CommonOpts *c, int argc, char **argv, const Alg2 *a,
                    double next, const char *first_file, Err *e);

#endif
