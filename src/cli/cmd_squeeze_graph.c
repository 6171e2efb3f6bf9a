/* cmd_squeeze_graph.c - `condnet squeeze` on a graph network: Algorithm 3
 * group by group (alg/alg3_groups.h) at one τ, the decisions' table, the
 * test accuracy, parameters and multiply-adds before and after, the
 * squeezed network saved and the record written. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cmd_squeeze.h"
#include "engine/graph_groups.h"
#include "engine/train_plan.h"
#include "report/report.h"
#include "report/report_groups.h"
#include "setup/setup.h"

/* The options that are a chain's alone, NULL when none is given. */
static const char *chain_only(const CommonOpts *c, const Squeeze *s)
{
	if (s->compare)
		return "--compare";
	if (s->until_stable)
		return "--until-stable";
	if (s->only_spec)
		return "--only-layers";
	if (s->retrain > 0)
		return "--retrain";
	if (!s->so.while_loop)
		return "--no-while";
	if (s->ntau > 1)
		return "several --tau";
	return c->csv ? "--csv" : NULL;
}

/* The counts of a text: a graph squeeze's JSON record (its groups' kept)
 * or a list of one count per group (8,6,3x4). */
static int counts_of(const char *spec, const ChannelGroups *gg, int *keep, Err *e)
{
	if (*spec != '{') {
		int *w, n;
		if (squeeze_counts_list(spec, &w, &n, e))
			return -1;
		if (n == gg->n)
			memcpy(keep, w, (size_t)n * sizeof *w);
		free(w);
		return n == gg->n ? 0
		                  : err_set(e, "%d counts for the %d channel groups of the network",
		                            n, gg->n);
	}
	cJSON *j = cJSON_Parse(spec);
	const cJSON *g = j ? cJSON_GetObjectItemCaseSensitive(j, "groups") : NULL;
	int n = cJSON_IsArray(g) ? cJSON_GetArraySize(g) : -1, rc = 0;
	if (n != gg->n)
		rc = err_set(e, "%s",
		             !j      ? "not valid JSON"
		             : n < 0 ? "no \"groups\" of a graph squeeze's record"
		                     : "the record's groups are not the network's");
	for (int q = 0; !rc && q < n; q++) {
		const cJSON *k = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(g, q), "kept");
		if (!cJSON_IsNumber(k) || k->valuedouble != (int)k->valuedouble)
			rc = err_set(e, "group %d of the record has no whole \"kept\"", q + 1);
		else
			keep[q] = (int)k->valuedouble;
	}
	cJSON_Delete(j);
	return rc;
}

/* --keep-counts on a graph network: the counts of the file it names, or of
 * the argument itself, into *keep (gg->n of them). */
static int graph_counts(const char *arg, const ChannelGroups *gg, int **keep, Err *e)
{
	char *text;
	const char *spec = squeeze_counts_text(arg, &text, e);
	if (!spec)
		return -1;
	*keep = malloc((size_t)(gg->n ? gg->n : 1) * sizeof **keep);
	int rc = *keep ? counts_of(spec, gg, *keep, e) : err_set(e, "out of memory");
	free(text);
	return rc ? err_prefix(e, "--keep-counts") : 0;
}

/* --only-groups on the network's groups: its flags into *only (gg->n of
 * them), NULL without the option. 0, or -1 with a message. */
static int graph_only(const char *spec, const ChannelGroups *gg, unsigned char **only, Err *e)
{
	*only = NULL;
	if (!spec)
		return 0;
	if (!(*only = calloc((size_t)(gg->n ? gg->n : 1), 1)))
		return err_set(e, "out of memory");
	return squeeze_parse_groups(spec, *only, gg->n, e);
}

/* "squeezing M by channel groups at τ 25, kept by the pivoted QR of each
 * stack, compensated". */
static void print_head(const CommonOpts *c, const Squeeze *s, const GroupSqueezeOpts *o, int counts)
{
	char at[64] = "to the counts of --keep-counts";
	if (!counts)
		snprintf(at, sizeof at, "at τ %g", o->tau);
	printf("squeezing %s by channel groups %s, kept by %s", c->load ? c->load : c->onnx, at,
	       o->criterion == ALG3_NORM ? "the largest L1 norms of their filters"
	       : o->criterion == ALG3_QR ? "the pivoted QR of each group's stack"
	                                 : "random choice");
	if (o->criterion == ALG3_RANDOM)
		printf(" (seed %llu)", (unsigned long long)o->seed);
	printf("%s", o->compensate ? ", compensated" : "");
	if (s->groups_spec)
		printf("; groups %s alone", s->groups_spec);
	printf("\n\n");
}

/* The test accuracy in percent, NaN without a test set: 0, 1 stopped, -1. */
static int accuracy(const Net *net, const Dataset *test, double *acc, Err *e)
{
	*acc = NAN;
	return test ? net_accuracy(net, test, NULL, acc, e) : 0;
}

/* "3-3-4-4-3": the output channels of each layer of g. */
static void print_widths(const Graph *g)
{
	for (int l = 1; l <= graph_nlayers(g); l++)
		printf("%s%d", l > 1 ? "-" : "", g->node[graph_layer_node(g, l)].c);
}

static void print_costs(const Net *a, const Net *b, double acc0, double acc1)
{
	char s1[512];
	printf("\nresult: %s\nlayer widths ", net_shape_str(b, s1, sizeof s1));
	print_widths(a->graph);
	printf(" → ");
	print_widths(b->graph);
	printf("\n");
	printf("parameters %zu → %zu, multiply-adds a sample %.0f → %.0f\n", a->graph->nparam,
	       b->graph->nparam, graph_macs(a->graph), graph_macs(b->graph));
	if (!isnan(acc0))
		printf("test accuracy %.2f %% → %.2f %%\n", acc0, acc1);
}

int squeeze_graph_run(const CommonOpts *c, const Squeeze *s, Net **net, const Dataset *train,
                      const Dataset *test, Err *e)
{
	const char *bad = chain_only(c, s);
	if (bad)
		return err_set(
		    e,
		    "%s is for chains: a graph network is squeezed group by group at one "
		    "tau by the paper's pivoted QR (--compensate refits the layers that read "
		    "a group)",
		    bad);
	ChannelGroups *gg = graph_groups((*net)->graph, e);
	if (!gg)
		return -1;
	GroupDecision *dec = calloc((size_t)(gg->n ? gg->n : 1), sizeof *dec);
	GroupSqueezeOpts o = {.tau = s->taus[0],
	                      .criterion = s->so.criterion,
	                      .seed = s->so.seed,
	                      .compensate = s->so.compensate,
	                      .sample = train,
	                      .maxrows = s->so.sample_rows};
	int *keep = NULL;
	unsigned char *only = NULL;
	Net *out = NULL;
	double acc0, acc1;
	cJSON *rec = NULL;
	int rc = -1, st;
	if (!dec) {
		err_set(e, "out of memory");
		goto done;
	}
	if (s->keep_spec && (graph_counts(s->keep_spec, gg, &keep, e) || !(o.keep = keep)))
		goto done;
	if (graph_only(s->groups_spec, gg, &only, e))
		goto done;
	o.only = only;
	if ((st = accuracy(*net, test, &acc0, e)) != 0) {
		rc = st;
		goto done;
	}
	print_head(c, s, &o, keep != NULL);
	if (!(out = alg3_squeeze_graph(*net, gg, &o, dec, e)))
		goto done;
	if (report_group_decisions(stdout, gg, dec, REPORT_TEXT, e))
		goto done;
	if ((st = accuracy(out, test, &acc1, e)) != 0) {
		rc = st;
		goto done;
	}
	print_costs(*net, out, acc0, acc1);
	GraphSqueezeRun r = {*net, out, gg, dec, o.tau, o.compensate, acc0, acc1};
	if (c->json &&
	    (!(rec = report_graph_squeeze_json(&r, e)) || report_write_json(c->json, rec, e)))
		goto done;
	if (c->save && setup_save_model(out, c->save, train, e))
		goto done;
	if (c->save)
		printf("saved %s\n", c->save);
	net_free(*net);
	*net = out;
	out = NULL;
	rc = 0;
done:
	report_free(rec);
	net_free(out);
	free(keep);
	free(only);
	free(dec);
	graph_groups_free(gg);
	return rc;
}
