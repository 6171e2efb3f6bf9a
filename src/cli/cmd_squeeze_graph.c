/* cmd_squeeze_graph.c - `condnet squeeze` on a graph network: Algorithm 3
 * group by group (alg/alg3_groups.h) at one τ, the decisions' table, the
 * test accuracy, parameters and multiply-adds before and after, the
 * squeezed network saved and the record written. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
	if (s->keep_spec)
		return "--keep-counts";
	if (s->only_spec)
		return "--only-layers";
	if (s->retrain > 0)
		return "--retrain";
	if (s->so.criterion != ALG3_QR)
		return "--criterion";
	if (!s->so.while_loop)
		return "--no-while";
	if (s->ntau > 1)
		return "several --tau";
	return c->csv ? "--csv" : NULL;
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
	GroupSqueezeOpts o = {s->taus[0], s->so.compensate, train, s->so.sample_rows, 0};
	Net *out = NULL;
	double acc0, acc1;
	cJSON *rec = NULL;
	int rc = -1, st;
	if (!dec) {
		err_set(e, "out of memory");
		goto done;
	}
	if ((st = accuracy(*net, test, &acc0, e)) != 0) {
		rc = st;
		goto done;
	}
	printf("squeezing %s by channel groups at τ %g%s\n\n", c->load ? c->load : c->onnx, o.tau,
	       o.compensate ? ", compensated" : "");
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
	free(dec);
	graph_groups_free(gg);
	return rc;
}
