/* report_groups.c - a graph network's channel groups, described once as a
 * record kind (report_rec.h) and written as a table or JSON. */
#include "report/report_groups.h"

#include <stdio.h>
#include <stdlib.h>

#include "report/report_rec.h"

enum {
	GR_GROUP,
	GR_LAYERS,
	GR_UNITS,
	GR_FREE,
	GR_TIES,
	GR_ADDS,
	GR_DW,
	GR_CAT,
	GR_READ,
	GR_FIXED,
	GR_NCOL
};

static const RecCol group_cols[GR_NCOL] = {
    [GR_GROUP] =
        {.head = "Group", .name = "group", .key = "group", .type = REC_INT, .flags = REC_TC},
    [GR_LAYERS] =
        {.head = "layers", .name = "layers", .key = "layers", .type = REC_LIST, .flags = REC_TC},
    [GR_UNITS] = {.head = "channels",
                  .name = "channels",
                  .key = "units",
                  .type = REC_COUNT,
                  .flags = REC_TC},
    [GR_FREE] = {.head = "removable",
                 .name = "removable",
                 .key = "free",
                 .type = REC_COUNT,
                 .flags = REC_TC},
    [GR_TIES] =
        {.head = "tied by", .name = "tied_by", .type = REC_TEXT, .flags = REC_TC, .none = ""},
    [GR_ADDS] = {.key = "adds", .type = REC_INT},
    [GR_DW] = {.key = "depthwise", .type = REC_INT},
    [GR_CAT] = {.key = "concats", .type = REC_INT},
    [GR_READ] =
        {.head = "read by", .name = "read_by", .key = "read_by", .type = REC_LIST, .flags = REC_TC},
    [GR_FIXED] = {.head = "kept because",
                  .name = "kept_because",
                  .key = "fixed",
                  .type = REC_TEXT,
                  .flags = REC_TC | REC_OPT,
                  .none = ""},
};
static const RecKind group_kind = {group_cols, GR_NCOL, NULL, 0, NULL, 0, 0};

#define TIES 64

/* "2 Add, 1 depthwise, 1 Concat": what ties the group's channels. */
static const char *ties_str(const ChannelGroup *c, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	const int n[3] = {c->adds, c->depthwise, c->concats};
	const char *what[3] = {"Add", "depthwise", "Concat"};
	for (int i = 0; i < 3 && k < len; i++)
		if (n[i])
			k += (size_t)snprintf(buf + k, len - k, "%s%d %s", k ? ", " : "", n[i],
			                      what[i]);
	return buf;
}

/* The groups as records (values and the text they point to, freed by the
 * caller with the values). */
static int group_set(const ChannelGroups *gg, RecSet *s, char **texts, Err *e)
{
	RecVal *v = calloc((size_t)(gg->n ? gg->n : 1) * GR_NCOL, sizeof *v);
	char *t = malloc((size_t)(gg->n ? gg->n : 1) * TIES);
	if (!v || !t) {
		free(v), free(t);
		return err_set(e, "out of memory for the channel groups' table");
	}
	for (int i = 0; i < gg->n; i++) {
		const ChannelGroup *c = &gg->g[i];
		RecVal *r = v + (size_t)i * GR_NCOL;
		r[GR_GROUP] = rec_num(i + 1);
		r[GR_LAYERS] = (RecVal){.ia = c->layer, .na = c->nlayer};
		r[GR_UNITS] = rec_num(c->units);
		r[GR_FREE] = rec_num(c->free);
		r[GR_TIES] = (RecVal){.s = ties_str(c, t + (size_t)i * TIES, TIES)};
		r[GR_ADDS] = rec_num(c->adds);
		r[GR_DW] = rec_num(c->depthwise);
		r[GR_CAT] = rec_num(c->concats);
		r[GR_READ] = (RecVal){.ia = c->read, .na = c->nread};
		r[GR_FIXED] =
		    c->fixed ? (RecVal){.s = graph_group_fixed_str(c->fixed)} : rec_absent();
	}
	*s = (RecSet){&group_kind, v, gg->n, 0};
	*texts = t;
	return 0;
}

int report_groups(FILE *f, const ChannelGroups *gg, ReportFormat fmt, Err *e)
{
	RecSet s;
	char *t;
	if (group_set(gg, &s, &t, e))
		return -1;
	int rc = rec_table(f, &s, fmt, e);
	free((void *)s.v);
	free(t);
	return rc;
}

cJSON *report_groups_json(const ChannelGroups *gg, Err *e)
{
	RecSet s;
	char *t;
	if (group_set(gg, &s, &t, e))
		return NULL;
	cJSON *a = rec_json(&s, e);
	free((void *)s.v);
	free(t);
	return a;
}

/* ---- a squeeze's decisions ---- */

enum { GD_GROUP, GD_LAYERS, GD_UNITS, GD_ROWS, GD_KAPPA, GD_KEPT, GD_REMOVED, GD_SKIP, GD_NCOL };

static const RecCol decision_cols[GD_NCOL] = {
    [GD_GROUP] =
        {.head = "Group", .name = "group", .key = "group", .type = REC_INT, .flags = REC_TC},
    [GD_LAYERS] =
        {.head = "layers", .name = "layers", .key = "layers", .type = REC_LIST, .flags = REC_TC},
    [GD_UNITS] = {.head = "channels",
                  .name = "channels",
                  .key = "units",
                  .type = REC_COUNT,
                  .flags = REC_TC},
    [GD_ROWS] = {.head = "stack rows",
                 .name = "rows",
                 .key = "rows",
                 .type = REC_COUNT,
                 .flags = REC_TC | REC_JNULL},
    [GD_KAPPA] = {.head = "κ(stack)",
                  .name = "kappa",
                  .key = "kappa",
                  .type = REC_KAPPA,
                  .flags = REC_TC | REC_JNULL},
    [GD_KEPT] = {.head = "kept", .name = "kept", .key = "kept", .type = REC_COUNT, .flags = REC_TC},
    [GD_REMOVED] = {.head = "removed",
                    .name = "removed",
                    .key = "removed",
                    .type = REC_COUNT,
                    .flags = REC_TC},
    [GD_SKIP] = {.head = "left as it is because",
                 .name = "left_because",
                 .key = "left_because",
                 .type = REC_TEXT,
                 .flags = REC_TC | REC_OPT,
                 .none = ""},
};
static const RecKind decision_kind = {decision_cols, GD_NCOL, NULL, 0, NULL, 0, 0};

static int decision_set(const ChannelGroups *gg, const GroupDecision *dec, RecSet *s, Err *e)
{
	RecVal *v = calloc((size_t)(gg->n ? gg->n : 1) * GD_NCOL, sizeof *v);
	if (!v)
		return err_set(e, "out of memory for the squeeze's table");
	for (int i = 0; i < gg->n; i++) {
		const GroupDecision *d = &dec[i];
		RecVal *r = v + (size_t)i * GD_NCOL;
		r[GD_GROUP] = rec_num(d->group);
		r[GD_LAYERS] = (RecVal){.ia = gg->g[i].layer, .na = gg->g[i].nlayer};
		r[GD_UNITS] = rec_num(d->units);
		r[GD_ROWS] = d->rows ? rec_num(d->rows) : rec_absent();
		r[GD_KAPPA] = rec_known(d->kappa);
		r[GD_KEPT] = rec_num(d->kept);
		r[GD_REMOVED] = rec_num(d->units - d->kept);
		r[GD_SKIP] = d->skip ? (RecVal){.s = d->skip} : rec_absent();
	}
	*s = (RecSet){&decision_kind, v, gg->n, 0};
	return 0;
}

int report_group_decisions(FILE *f, const ChannelGroups *gg, const GroupDecision *dec,
                           ReportFormat fmt, Err *e)
{
	RecSet s;
	if (decision_set(gg, dec, &s, e))
		return -1;
	int rc = rec_table(f, &s, fmt, e);
	free((void *)s.v);
	return rc;
}

cJSON *report_group_decisions_json(const ChannelGroups *gg, const GroupDecision *dec, Err *e)
{
	RecSet s;
	if (decision_set(gg, dec, &s, e))
		return NULL;
	cJSON *a = rec_json(&s, e);
	free((void *)s.v);
	return a;
}

/* The output channels of each layer (Conv and Gemm node) of g. */
static cJSON *layer_widths(const Graph *g)
{
	int L = graph_nlayers(g);
	int *w = malloc((size_t)(L ? L : 1) * sizeof *w);
	if (!w)
		return NULL;
	for (int l = 0; l < L; l++)
		w[l] = g->node[graph_layer_node(g, l + 1)].c;
	cJSON *a = json_ints(w, L);
	free(w);
	return a;
}

cJSON *report_graph_squeeze_json(const GraphSqueezeRun *r, Err *e)
{
	char a[512], b[512];
	cJSON *root = cJSON_CreateObject(), *groups = NULL;
	if (!root)
		return json_nomem(NULL, e);
	const Graph *g0 = r->before->graph, *g1 = r->after->graph;
	int bad = json_add(root, "graph", cJSON_CreateTrue(), e) ||
	          json_add(root, "tau", json_num(r->tau), e) ||
	          json_add(root, "compensate", cJSON_CreateBool(r->compensate), e) ||
	          json_add(root, "shape_before",
	                   cJSON_CreateString(net_shape_str(r->before, a, sizeof a)), e) ||
	          json_add(root, "shape_after",
	                   cJSON_CreateString(net_shape_str(r->after, b, sizeof b)), e) ||
	          json_add(root, "widths_before", layer_widths(g0), e) ||
	          json_add(root, "widths_after", layer_widths(g1), e) ||
	          json_add(root, "params_before", cJSON_CreateNumber((double)g0->nparam), e) ||
	          json_add(root, "params_after", cJSON_CreateNumber((double)g1->nparam), e) ||
	          json_add(root, "madds_before", json_num(graph_macs(g0)), e) ||
	          json_add(root, "madds_after", json_num(graph_macs(g1)), e) ||
	          json_add(root, "test_accuracy_before", json_num(r->acc_before), e) ||
	          json_add(root, "test_accuracy_after", json_num(r->acc_after), e) ||
	          !(groups = report_group_decisions_json(r->gg, r->dec, e)) ||
	          json_add(root, "groups", groups, e);
	return bad ? json_nomem(root, e) : root;
}
