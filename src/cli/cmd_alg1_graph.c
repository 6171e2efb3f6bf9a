/* cmd_alg1_graph.c - `condnet alg1` on a graph network: Algorithm 1 by
 * channel groups (alg/alg1_groups.h), each iteration's groups with their
 * κ and p, the network it ends with saved and the record written. */
#include <math.h>
#include <stdio.h>

#include "alg/alg1_groups.h"
#include "cli/cli.h"
#include "cli/cmd_alg1.h"
#include "cli/progress.h"
#include "report/report.h"
#include "report/report_alg1_groups.h"
#include "report/report_groups.h"

/* An iteration: its network's parameters and errors, then its groups. */
static int say_iteration(const Alg1Groups *a, Err *e)
{
	const Alg1GroupsRecord *r = &a->rec[a->nrec - 1];
	char buf[32];
	printf("\niteration %d: %s parameters, train error %.2f %%", r->iter,
	       report_thousands((double)r->nparam, buf, sizeof buf), 100 * r->train_error);
	if (!isnan(r->eval_error))
		printf(", test accuracy %.2f %%", 100 * (1 - r->eval_error));
	printf(", %.1f s\n", r->seconds);
	int rc = report_alg1_groups(stdout, r, REPORT_TEXT, e);
	fflush(stdout);
	return rc;
}

static int say_start(const CommonOpts *c, const Alg1Opts *o, const Alg1Groups *a, Err *e)
{
	char shape[512];
	printf("%s: Algorithm 1 by channel groups from %s, tau %g, eta %g%s\n", opts_data_name(c),
	       graph_shape_str(a->net->graph, shape, sizeof shape), o->tau, o->eta,
	       o->warm ? ", warm" : "");
	return report_groups(stdout, a->gg, REPORT_TEXT, e);
}

/* The run's steps until it ends or a signal comes: 0, 1 stopped, -1. */
static int steps(Alg1Groups *a, Progress *prog, Err *e)
{
	Hook hook = progress_hook(prog, NULL);
	int st;
	do {
		progress_what(prog, "iteration %d", a->nrec);
		st = alg1_groups_step(a, &hook, e);
		progress_clear(prog);
		if (st == 0 && a->nrec > 0 && say_iteration(a, e))
			return -1;
	} while (st == 0 && a->status == ALG1_RUNNING && !progress_interrupted());
	return st;
}

int alg1_graph_run(const CommonOpts *c, const Alg1Opts *o, const Net *net, const Dataset *train,
                   const Dataset *test)
{
	Err e = {{0}};
	Progress prog;
	char shape[512];
	if (c->csv) {
		fprintf(stderr,
		        "condnet alg1: --csv is a chain's history; a graph network's run is "
		        "recorded by --json\n");
		return 2;
	}
	Alg1Groups *a = alg1_groups_new(net, train, o, &e);
	if (!a)
		return cli_fail("alg1", &e);
	a->eval = test;
	progress_init(&prog, "condnet alg1", c->quiet, 1);
	progress_trap_signals();
	if (say_start(c, o, a, &e))
		goto fail;
	int st = steps(a, &prog, &e);
	if (st < 0)
		goto fail;
	int sig = progress_interrupted();
	printf("\nstatus: %s%s%s\n",
	       sig  ? "interrupted"
	       : st ? "stopped"
	            : alg1_status_name(a->status),
	       a->reason[0] ? " - " : "", a->reason);
	if (a->nrec > 0)
		printf("the network it ends with: %s, %zu parameters\n",
		       graph_shape_str(a->net->graph, shape, sizeof shape), a->net->nparam);
	if (c->save && !sig && a->nrec > 0) {
		if (setup_save_model(a->net, c->save, train, &e))
			goto fail;
		printf("saved %s\n", c->save);
	} else if (c->save) {
		printf("not saving %s: %s\n", c->save,
		       sig ? "the run was interrupted" : "no iteration was done");
	}
	if (c->json &&
	    report_write_record(
	        c->json, report_alg1_groups_json(a, opts_data_name(c), sig, st == 1, &e), &e))
		goto fail;
	alg1_groups_free(a);
	return sig ? 130 : 0;
fail:
	alg1_groups_free(a);
	return cli_fail("alg1", &e);
}
