/* alg3_groups.h - Algorithm 3 on a graph network, group by group
 * (engine/graph_groups.h).
 *
 * A group's conditioning is that of its producers' stacked matrices: the
 * Ŵ of each layer of the group one under another, one column per unit (the
 * column of that unit's channel in each), so that a unit is judged on every
 * weight that makes it. The paper's rule applies to the stack as to one
 * layer's Ŵ: its column-pivoted QR orders the units, and those whose
 * |r_jj| is below |r_11|/τ go. A unit removed leaves each producer with
 * one column less, and each layer that reads it with its rows less; with
 * compensation, each such reader is first refitted by least squares on its
 * own input maps (each removed channel as a combination of the kept ones
 * and a constant, alg3_channel_fit), so that an exact dependence among a
 * group's channels is removed without changing the network's answers. */
#ifndef CONDNET_ALG3_GROUPS_H
#define CONDNET_ALG3_GROUPS_H

#include "alg/alg3_squeeze.h"
#include "base/err.h"
#include "data/dataset.h"
#include "engine/graph_groups.h"
#include "engine/net.h"

/* What the squeeze did with one group. */
typedef struct GroupDecision {
	int group;        /* its number, from 1 */
	int units, kept;  /* its units before, and those kept */
	int rows;         /* rows of its stacked matrix (0: not decided) */
	double kappa;     /* κ of the stack (NaN: not decided) */
	const char *skip; /* why it was left as it is, or NULL */
} GroupDecision;

typedef struct GroupSqueezeOpts {
	double tau;
	/* which units a group keeps: ALG3_QR the stack's pivoted QR (the paper's);
	 * ALG3_NORM the largest L1 norms of the unit's weights over the group's
	 * producers (the filter norm of Li et al., "Pruning Filters for Efficient
	 * ConvNets"; a chain's norm rule is its outgoing weights' L2); ALG3_RANDOM
	 * a random order from rng_derive(seed, group) */
	Alg3Criterion criterion;
	uint64_t seed;
	const int *keep;           /* the units each group keeps instead of deciding at τ
	                            * (keep[q] for group q; NULL: decide) */
	int compensate;            /* refit the readers on sample */
	const Dataset *sample;     /* training inputs for the refit */
	int maxrows;               /* at most this many of them */
	const unsigned char *only; /* only[q] not 0: group q+1 is decided, the others keep
	                            * every unit (gg->n flags); NULL every group */
} GroupSqueezeOpts;

/* Group q's stacked matrix (above), (Σ (rows + 1)) × nu doubles row-major
 * into *S (the caller frees it), a column per unit, and the units' numbers
 * (gg's), in the columns' order, into *units (the caller frees them): 0;
 * 0 with *S and *units NULL and *nu 0 when a producer gives several channels
 * of a unit (a depthwise multiplier above 1: no column is its alone); -1
 * with a message when out of memory. Algorithm 1 on groups measures the
 * same stack (alg1_groups.h). */
int alg3_group_stack(const Net *net, const ChannelGroups *gg, int q, double **S, int **units,
                     int *nu, int *rows, Err *e);

/* Each group's decision into dec[0..gg->n) and the units to remove into
 * drop[0..gg->nunits) (1 removed). 0, or -1 with a message. */
int alg3_groups_decide(const Net *net, const ChannelGroups *gg, const GroupSqueezeOpts *o,
                       GroupDecision *dec, unsigned char *drop, Err *e);

/* The refit of every layer that reads a unit of drop, in net's own weights
 * (before the units are removed): 0, or -1 with a message. */
int alg3_groups_compensate(Net *net, const ChannelGroups *gg, const unsigned char *drop,
                           const Dataset *sample, int maxrows, Err *e);

/* The squeezed network (net, whose groups are gg, is not changed), each
 * group's decision into dec[0..gg->n). NULL with a message. */
Net *alg3_squeeze_graph(const Net *net, const ChannelGroups *gg, const GroupSqueezeOpts *o,
                        GroupDecision *dec, Err *e);

#endif
