/* report_alg1_groups.h - Algorithm 1 on a graph network's channel groups
 * (alg/alg1_groups.h): each iteration's groups as a table, and the run as
 * a JSON record. */
#ifndef CONDNET_REPORT_ALG1_GROUPS_H
#define CONDNET_REPORT_ALG1_GROUPS_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "alg/alg1_groups.h"
#include "base/err.h"
#include "report/report_format.h"

/* One iteration's groups: each group's channels, those it may lose, its
 * stack's rows, κ and p at the iteration's τ. */
int report_alg1_groups(FILE *f, const Alg1GroupsRecord *r, ReportFormat fmt, Err *e);
/* The run: {"graph":true, "data", "tau", "eta", "max_iter", "warm", "seed",
 * "status" ("stopped" when a step was), "reason", "interrupted",
 * "iterations":[{"iter", "params", "train_error", "test_error" (null
 * without a test set), "seconds", "max_kappa" (null: none or ∞),
 * "groups":[{"group", "units", "free", "rows" (null: no stack), "kappa"
 * (null: no stack or ∞), "p"}]}]}. */
cJSON *report_alg1_groups_json(const Alg1Groups *a, const char *data, int interrupted, int stopped,
                               Err *e);

#endif
