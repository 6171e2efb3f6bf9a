/* net_cost.h - what a network costs to keep and to run: its parameters,
 * the multiply-adds of one sample's forward pass, the size of its model
 * file, and the measured time of a forward pass per sample at batch 1 and
 * batch 256. A squeeze removes whole neurons, so all of these shrink with
 * it; the squeeze reports show them before and after. */
#ifndef CONDNET_NET_COST_H
#define CONDNET_NET_COST_H

#include <stddef.h>

#include "base/err.h"
#include "engine/net.h"

typedef struct NetCost {
	size_t params;     /* Σ (n_{i-1} + 1)·n_i: weights and biases */
	double madds;      /* Σ n_{i-1}·n_i: multiply-adds of the matrix products for one
	                    * sample (a convolution's at every position of its maps; bias
	                    * adds, activations, pools and the softmax not counted) */
	size_t file_bytes; /* what model_save writes (model_file_bytes) */
	double sec_b1;     /* forward seconds per sample at batch 1: the median over the
	                    * repeats; NaN when not measured */
	double sec_b256;   /* the same at batch 256 */
	int repeats;       /* repeats the medians are over (0: not measured) */
	int threads;       /* OpenBLAS threads during the measurement (0: not measured) */
} NetCost;

/* The counts (params, madds, file_bytes) of net; the times NaN. */
void net_cost_count(const Net *net, NetCost *c);

/* net_cost_count, then the forward time: net_forward to the softmax on
 * rows drawn from a standard normal (seeded, the same every call), at
 * batch 1 and batch 256, each repeat timing enough calls to last about
 * 5 ms; per sample, the median over repeats (≥ 1; 7 is plenty). The time
 * includes net_forward's workspace allocation. About 2·repeats·5 ms plus
 * two calls of each size. OpenBLAS computes on `threads` threads (0: the
 * pool's default, pool_default_threads) during the measurement, and on one
 * afterwards, as condnet's own threads expect. 0 or -1 (out of memory). */
int net_cost_measure(const Net *net, int repeats, int threads, NetCost *c, Err *e);

#endif
