/* report_alg1_groups.c - Algorithm 1 on channel groups, an iteration's
 * groups described once as a record kind (report_rec.h). */
#include "report/report_alg1_groups.h"

#include <math.h>
#include <stdlib.h>

#include "report/report_rec.h"

enum { AG_GROUP, AG_UNITS, AG_FREE, AG_ROWS, AG_KAPPA, AG_P, AG_NCOL };

static const RecCol ag_cols[AG_NCOL] = {
    [AG_GROUP] =
        {.head = "Group", .name = "group", .key = "group", .type = REC_INT, .flags = REC_TC},
    [AG_UNITS] = {.head = "channels",
                  .name = "channels",
                  .key = "units",
                  .type = REC_COUNT,
                  .flags = REC_TC},
    [AG_FREE] = {.head = "removable",
                 .name = "removable",
                 .key = "free",
                 .type = REC_COUNT,
                 .flags = REC_TC},
    [AG_ROWS] = {.head = "stack rows",
                 .name = "rows",
                 .key = "rows",
                 .type = REC_COUNT,
                 .flags = REC_TC | REC_JNULL},
    [AG_KAPPA] = {.head = "κ(stack)",
                  .name = "kappa",
                  .key = "kappa",
                  .type = REC_KAPPA_TAU,
                  .flags = REC_TC | REC_JNULL},
    [AG_P] = {.head = "p", .name = "p", .key = "p", .type = REC_INT, .flags = REC_TC},
};
static const RecKind ag_kind = {ag_cols, AG_NCOL, NULL, 0, NULL, 0, 0};

static int ag_set(const Alg1GroupsRecord *r, RecSet *s, Err *e)
{
	RecVal *v = calloc((size_t)(r->ngroups ? r->ngroups : 1) * AG_NCOL, sizeof *v);
	if (!v)
		return err_set(e, "out of memory for Algorithm 1's table");
	for (int q = 0; q < r->ngroups; q++) {
		RecVal *x = v + (size_t)q * AG_NCOL;
		x[AG_GROUP] = rec_num(q + 1);
		x[AG_UNITS] = rec_num(r->units[q]);
		x[AG_FREE] = rec_num(r->free[q]);
		x[AG_ROWS] = r->rows[q] ? rec_num(r->rows[q]) : rec_absent();
		x[AG_KAPPA] =
		    isnan(r->kappa[q]) ? rec_absent() : (RecVal){.v = r->kappa[q], .aux = r->tau};
		x[AG_P] = rec_num(r->p[q]);
	}
	*s = (RecSet){&ag_kind, v, r->ngroups, 0};
	return 0;
}

int report_alg1_groups(FILE *f, const Alg1GroupsRecord *r, ReportFormat fmt, Err *e)
{
	RecSet s;
	if (ag_set(r, &s, e))
		return -1;
	int rc = rec_table(f, &s, fmt, e);
	free((void *)s.v);
	return rc;
}

/* One iteration as a JSON object. */
static cJSON *iteration_json(const Alg1GroupsRecord *r, Err *e)
{
	RecSet s;
	cJSON *o = cJSON_CreateObject(), *g = NULL;
	if (!o || ag_set(r, &s, e))
		return json_nomem(o, e);
	int bad = json_add(o, "iter", cJSON_CreateNumber(r->iter), e) ||
	          json_add(o, "params", cJSON_CreateNumber((double)r->nparam), e) ||
	          json_add(o, "train_error", json_num(r->train_error), e) ||
	          json_add(o, "test_error", json_num(r->eval_error), e) ||
	          json_add(o, "seconds", cJSON_CreateNumber(r->seconds), e) ||
	          json_add(o, "max_kappa", json_num(r->max_kappa), e) || !(g = rec_json(&s, e)) ||
	          json_add(o, "groups", g, e);
	free((void *)s.v);
	return bad ? json_nomem(o, e) : o;
}

cJSON *report_alg1_groups_json(const Alg1Groups *a, const char *data, int interrupted, int stopped,
                               Err *e)
{
	cJSON *root = cJSON_CreateObject(), *it = NULL;
	const char *status = stopped ? "stopped" : alg1_status_name(a->status);
	int bad = !root || json_add(root, "graph", cJSON_CreateBool(1), e) ||
	          json_add(root, "data", cJSON_CreateString(data), e) ||
	          json_add(root, "tau", cJSON_CreateNumber(a->o.tau), e) ||
	          json_add(root, "eta", cJSON_CreateNumber(a->o.eta), e) ||
	          json_add(root, "max_iter", cJSON_CreateNumber(a->o.max_iter), e) ||
	          json_add(root, "warm", cJSON_CreateBool(a->o.warm), e) ||
	          json_add(root, "seed", cJSON_CreateNumber((double)a->o.seed), e) ||
	          json_add(root, "status", cJSON_CreateString(status), e) ||
	          json_add(root, "reason", cJSON_CreateString(a->reason), e) ||
	          json_add(root, "interrupted", cJSON_CreateBool(interrupted != 0), e) ||
	          json_add(root, "iterations", it = cJSON_CreateArray(), e);
	for (int i = 0; !bad && i < a->nrec; i++)
		bad = json_push(it, iteration_json(&a->rec[i], e), e);
	return bad ? json_nomem(root, e) : root;
}
