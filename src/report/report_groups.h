/* report_groups.h - a graph network's channel groups (engine/graph_groups.h)
 * as a table and as JSON: each group's layers, its units and those that may
 * go, what ties it, and the layers that read it. */
#ifndef CONDNET_REPORT_GROUPS_H
#define CONDNET_REPORT_GROUPS_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "alg/alg3_groups.h"
#include "base/err.h"
#include "engine/graph_groups.h"
#include "report/report_format.h"

int report_groups(FILE *f, const ChannelGroups *gg, ReportFormat fmt, Err *e);
/* The groups as a JSON array of objects ("layers", "units", "free",
 * "adds", "depthwise", "concats", "read_by", "fixed"). */
cJSON *report_groups_json(const ChannelGroups *gg, Err *e);

/* A squeeze's decisions, group by group (dec[q] of gg's group q): its
 * layers, channels, the rows and κ of its stacked matrix, the channels kept
 * and removed, or why it was left; and the same as a JSON array. */
int report_group_decisions(FILE *f, const ChannelGroups *gg, const GroupDecision *dec,
                           ReportFormat fmt, Err *e);
cJSON *report_group_decisions_json(const ChannelGroups *gg, const GroupDecision *dec, Err *e);
/* The record of a graph network's squeeze: {"graph":true, "tau", "compensate",
 * "shape_before", "shape_after", "params_before", "params_after",
 * "madds_before", "madds_after", "test_accuracy_before", "test_accuracy_after"
 * (null without a test set), "groups":[the decisions]}. */
typedef struct GraphSqueezeRun {
	const Net *before, *after;
	const ChannelGroups *gg;
	const GroupDecision *dec;
	double tau;
	int compensate;
	double acc_before, acc_after; /* NaN: no test set */
} GraphSqueezeRun;
cJSON *report_graph_squeeze_json(const GraphSqueezeRun *r, Err *e);

#endif
