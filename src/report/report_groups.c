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
