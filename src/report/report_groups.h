/* report_groups.h - a graph network's channel groups (engine/graph_groups.h)
 * as a table and as JSON: each group's layers, its units and those that may
 * go, what ties it, and the layers that read it. */
#ifndef CONDNET_REPORT_GROUPS_H
#define CONDNET_REPORT_GROUPS_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "base/err.h"
#include "engine/graph_groups.h"
#include "report/report_format.h"

int report_groups(FILE *f, const ChannelGroups *gg, ReportFormat fmt, Err *e);
/* The groups as a JSON array of objects ("layers", "units", "free",
 * "adds", "depthwise", "concats", "read_by", "fixed"). */
cJSON *report_groups_json(const ChannelGroups *gg, Err *e);

#endif
