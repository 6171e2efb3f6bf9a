/* alg1_groups.h - Algorithm 1 on a graph network, by channel groups
 * (engine/graph_groups.h).
 *
 * A group's units can only change together, so the paper's loop runs on
 * groups where it ran on layers: a group's κ is that of its producers'
 * stacked Ŵ, a column per unit (the stack Algorithm 3 on groups reads,
 * alg3_group_stack), and p the number of the stack's singular values below
 * σ₁/τ. Then
 *
 *   1  N̂ = T(N, D, η)                        (fresh weights, N's widths)
 *   2  while some group that may lose units has κ > τ:
 *   4      each such group loses p units (at most all its units but one)
 *   6      N̂ = T(N, D, η)                    (fresh weights, the new widths:
 *                                             graph_net_resize; or warm)
 *
 * Groups whose units are fixed (the logits, a grouped convolution's
 * channels, …) are measured but never changed and do not hold the loop; a
 * group whose producer has several channels a unit (a depthwise multiplier
 * above 1) has no stack and is left as it is. With warm, a group keeps the
 * units its stack's pivoted QR puts first, with their trained weights
 * (graph_net_drop; Adam's moments start again). One alg1_groups_step is one
 * pass of the loop, as alg1_step is a chain's. */
#ifndef CONDNET_ALG1_GROUPS_H
#define CONDNET_ALG1_GROUPS_H

#include <stddef.h>

#include "alg/alg1_proportion.h"
#include "base/err.h"
#include "data/dataset.h"
#include "engine/graph_groups.h"
#include "engine/hook.h"
#include "engine/net.h"

/* One iteration: the trained N̂'s groups, each at the iteration's τ. */
typedef struct Alg1GroupsRecord {
	int iter; /* 0 = the initial network after line 1 */
	int ngroups;
	int *units;       /* units[q]: group q's units */
	int *free;        /* those it may lose (units, or fewer for a fixed group) */
	int *rows;        /* rows of its stack (0: no stack) */
	double *kappa;    /* κ of its stack (NaN: no stack; ∞: a zero σ) */
	int *p;           /* its singular values below σ₁/τ */
	double max_kappa; /* over the groups that may lose units (NaN: none has a stack) */
	size_t nparam;
	double train_error;
	double eval_error; /* on Alg1Groups.eval, NaN without one */
	double seconds;    /* training time of the iteration */
	double tau, eta;
} Alg1GroupsRecord;

typedef struct Alg1Groups {
	Alg1Opts o; /* round is a chain's: it must be 0 or 1 here */
	const Dataset *train;
	const Dataset *eval; /* optional: every record's eval_error, for people */
	Net *net;            /* N̂ (owned) */
	ChannelGroups *gg;   /* its groups */
	Alg1GroupsRecord *rec;
	int nrec;
	Alg1Status status;
	char reason[256];
	const Net *training; /* the network a step trains, NULL outside (as Alg1's) */
} Alg1Groups;

/* Group q's κ (over its stack's min(rows, units) singular values; ∞ when
 * the last is 0) and p at τ (those below σ₁/τ) into *kappa and *p, its
 * stack's rows into *rows: 0; 0 with κ NaN, p and rows 0 for a group
 * without a stack; 1 when stopped, -1 with a message. */
int alg1_groups_kappa(const Net *net, const ChannelGroups *gg, int q, double tau, double *kappa,
                      int *p, int *rows, Err *e);

/* initial: a graph network (its weights are not used: line 1 trains its
 * shape from fresh weights drawn from o->seed). train must outlive it.
 * NULL with a message for a chain, options alg1_new refuses, --round above
 * 1, a network that does not fit the data, or no memory. */
Alg1Groups *alg1_groups_new(const Net *initial, const Dataset *train, const Alg1Opts *o, Err *e);
void alg1_groups_free(Alg1Groups *a); /* accepts NULL */
/* One iteration, the training's progress reported to h and, when it is
 * done, a HOOK_NOTE step saying what it did (each group with κ > τ, its p
 * and its units before and after, how the network was trained, what
 * follows). 0 when done (a->status says whether another follows), 1 when
 * stopped, -1 on error: a's state is then that before the iteration. A step
 * after the end does nothing and returns 0. */
int alg1_groups_step(Alg1Groups *a, const Hook *h, Err *e);
/* Steps until the status is not ALG1_RUNNING: 0, 1 when stopped, -1. */
int alg1_groups_run(Alg1Groups *a, const Hook *h, Err *e);
/* The units of each group the next iteration would give, into
 * units[0..a->gg->n); how many groups change. */
int alg1_groups_next_units(const Alg1Groups *a, int *units);

#endif
