/* cmd_alg1.h - what `condnet alg1`'s files share: its run on a graph
 * network (cmd_alg1_graph.c). */
#ifndef CONDNET_CMD_ALG1_H
#define CONDNET_CMD_ALG1_H

#include "alg/alg1_proportion.h"
#include "data/dataset.h"
#include "engine/net.h"
#include "setup/opts.h"

/* Algorithm 1 by channel groups on the graph network net (train and test
 * read for it), each iteration's groups printed, the network it ends with
 * saved and the record written as c says. The exit status. */
int alg1_graph_run(const CommonOpts *c, const Alg1Opts *o, const Net *net, const Dataset *train,
                   const Dataset *test);

#endif
