/* cmd_squeeze.c - `condnet squeeze`: Algorithm 3 on a saved model, with or
 * without compensation, by another criterion or to given counts, retrained,
 * repeated until nothing is removed, or compared with the simple rules
 * (--compare, cmd_squeeze_compare.c). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "cli/cmd_squeeze.h"
#include "engine/cond.h"
#include "engine/evaluate.h"
#include "model/model_io.h"
#include "model/net_cost.h"
#include "report/report.h"
#include "report/report_eval.h"
#include "report/report_squeeze.h"

enum { MAX_ROUNDS = 20 };

/* The counts, and the forward time unless --no-timing, on the OpenBLAS
 * threads of --threads (or OPENBLAS_NUM_THREADS). */
static int cost_of(const Squeeze *s, int threads, const Net *net, NetCost *c, Err *e)
{
	if (s->timing)
		return net_cost_measure(net, 7, threads, c, e);
	net_cost_count(net, c);
	return 0;
}

static int print_costs(const NetCost *a, const NetCost *b, struct cJSON *rec, Err *e)
{
	if (a->repeats > 0)
		printf("\nwhat the network costs (forward time: median of %d repeats, %d OpenBLAS "
		       "thread%s):\n\n",
		       a->repeats, a->threads, a->threads == 1 ? "" : "s");
	else
		printf("\nwhat the network costs (forward time not measured):\n\n");
	return report_costs(stdout, a, b, REPORT_TEXT, e) || report_squeeze_costs_json(rec, a, b, e)
	           ? -1
	           : 0;
}

/* The round lines of --until-stable, on standard output as they come, with
 * what early stopping kept of the round's retraining. */
static void round_line(const HookStep *st, void *ud)
{
	Squeeze *s = ud;
	if (st->kind == HOOK_TRAINED) {
		s->last = *st->result;
		s->have_last = 1;
	}
	if (st->kind != HOOK_NOTE)
		return;
	progress_clear(&s->prog);
	printf("%s", st->text);
	if (s->have_last && !isnan(s->last.val_acc))
		printf(" (retrained %d epochs, kept epoch %d: validation accuracy %.2f %%)",
		       s->last.epochs, s->last.best_epoch, 100 * s->last.val_acc);
	s->have_last = 0;
	printf("\n");
	fflush(stdout);
}

/* The step function of progress_hook gets the Progress; round_line needs the Squeeze. */
static int sq_progress(const TrainProgress *tp, void *ud)
{
	return progress_train_cb(tp, &((Squeeze *)ud)->prog);
}

static int sq_cancelled(void *ud)
{
	return progress_interrupted() != 0;
}

typedef struct Nets {
	const SqueezeNetRow *r;
	int n;
} Nets;

static int nets_csv(FILE *f, const void *ud, Err *e)
{
	const Nets *x = ud;
	return report_squeeze_networks(f, x->r, x->n, REPORT_CSV, e);
}

typedef struct Rounds {
	const Alg3Round *r;
	int n, m;
} Rounds;

static int rounds_csv(FILE *f, const void *ud, Err *e)
{
	const Rounds *r = ud;
	return report_squeeze_rounds(f, r->r, r->n, r->m, REPORT_CSV, e);
}

/* Squeeze → retrain until a squeeze removes nothing (the paper's Table 13). */
static int until_stable(const CommonOpts *c, Squeeze *s, Net *net, const Dataset *train,
                        const Dataset *test, const TrainPlan *plan, const Dataset *rtrain,
                        struct cJSON *rec, Err *e)
{
	Alg3Round r[MAX_ROUNDS + 1];
	int nr = 0, m = net->m, stable = 0;
	char sh[512];
	NetCost c0, c1;
	if (cost_of(s, c->train.threads, net, &c0, e))
		return -1;
	double acc0;
	int rc = net_accuracy(net, test, NULL, &acc0, e); /* 1: a signal */
	if (rc)
		return rc;
	printf("round 0: removed 0, %s, test accuracy %.2f %%\n", net_shape_str(net, sh, sizeof sh),
	       acc0);
	fflush(stdout);
	Hook h = {sq_progress, round_line, sq_cancelled, s};
	progress_what(&s->prog, "retraining");
	Net *orig = test ? net_clone(net, e) : NULL;
	if (test && !orig)
		return -1;
	rc = alg3_until_stable(net, &s->so, train, plan, rtrain, test, MAX_ROUNDS, &h, r, &nr,
	                       &stable, e);
	Agreement ag = {0};
	if (rc == 0 && orig && net_agreement(orig, net, test, &ag, e))
		rc = -1;
	net_free(orig);
	progress_clear(&s->prog);
	if (report_squeeze_rounds_run_json(rec, r, nr, s->so.tau, rc == 0 ? stable : -1,
	                                   rc == 0 && test ? &ag : NULL, e))
		rc = -1;
	if (rc == 0) {
		if (!stable)
			printf("stopped after %d rounds; the network may squeeze further\n",
			       MAX_ROUNDS);
		printf("\n");
		if (report_squeeze_rounds(stdout, r, nr, m, REPORT_TEXT, e))
			rc = -1;
		if (rc == 0 && test) {
			char line[512];
			printf("\nthe result %s\n",
			       report_agreement_line(&ag, "the test set", line, sizeof line));
		}
		Rounds rr = {r, nr, m};
		if (rc == 0 && c->csv && report_write_file(c->csv, rounds_csv, &rr, e))
			rc = -1;
	}
	if (rc == 0 && (cost_of(s, c->train.threads, net, &c1, e) || print_costs(&c0, &c1, rec, e)))
		rc = -1;
	for (int k = 0; k < nr; k++)
		alg3_round_free(&r[k]);
	agreement_free(&ag);
	return rc;
}

/* Retrains the kept network by the plan; its accuracy and κ after into the
 * rows, what the training did into *tr. */
static int retrain(Squeeze *s, Net *net, const Dataset *rtrain, const TrainPlan *plan,
                   const Dataset *test, SqueezeLayerRow *rows, SqueezeNetRow *kept, TrainResult *tr,
                   Err *e)
{
	progress_what(&s->prog, "retraining");
	Hook h = progress_hook(&s->prog, NULL);
	int st = train_plan_fit(net, rtrain, plan, &h, tr, e);
	progress_clear(&s->prog);
	if (st)
		return st;
	int rc = net_accuracy(net, test, NULL, &kept->acc_retrained, e);
	LayerCond *lc = NULL;
	if (rc == 0)
		rc = cond_net_new(net, s->so.tau, 0, &lc, e);
	for (int i = 0; rc == 0 && i < net->m; i++)
		rows[i].kappa_retrained = lc[i].kappa;
	cond_net_free(lc, net->m);
	return rc;
}

/* One squeeze: the one asked for kept in *net, and the same with the other
 * compensation setting measured beside it. */
/* The same squeeze with the other compensation, on other. It may fail
 * where the squeeze asked for did not (a compensation that overflows): the
 * squeeze is still reported, the comparison marked failed (its message in
 * eo); a stop (1) stops both. 0, 1, or -1 (a failure a signal caused). */
static int squeeze_other(Net *other, const Alg3Opts *oo, const Dataset *train, int *removed,
                         Err *eo, Err *e)
{
	int ro = alg3_squeeze_net(other, oo, train, NULL, removed, eo);
	if (ro > 0 || (ro < 0 && progress_interrupted())) {
		*e = *eo;
		return ro > 0 ? ro : -1;
	}
	if (ro == 0)
		eo->msg[0] = '\0';
	return 0;
}

/* The neurons the |r_jj| threshold removed (the rest: the κ loop). */
static int alg3_removed_by_threshold(const Alg3 *a)
{
	int n = 0;
	for (int i = 0; i < a->net->m - 1; i++)
		n += a->removed_qr[i];
	return n;
}

/* The retraining of kept, and how far each network answers as the original
 * (net) on the test set: kept before its retraining (ag[0]), the other
 * (ag[1], other NULL: none) and kept after (ag[2]). 0, 1 when stopped, -1. */
static int retrain_agree(Squeeze *s, const Net *net, Net *kept, const Net *other,
                         const Dataset *rtrain, const TrainPlan *plan, const Dataset *test,
                         SqueezeLayerRow *rows, SqueezeNetRow *nr, TrainResult *tr, Agreement *ag,
                         Err *e)
{
	if (test && (net_agreement(net, kept, test, &ag[0], e) ||
	             (other && net_agreement(net, other, test, &ag[1], e))))
		return -1;
	int rc = s->retrain > 0 ? retrain(s, kept, rtrain, plan, test, rows, &nr[0], tr, e) : 0;
	if (rc != 0)
		return rc;
	if (test && s->retrain > 0 && net_agreement(net, kept, test, &ag[2], e))
		return -1;
	return 0;
}

/* What the squeeze removed, and how it chose. */
static void say_removed(const Alg3 *a, const Alg3Opts *o, const char *units, int counted,
                        int by_thr)
{
	const char *crit = alg3_criterion_name(o->criterion);
	if (counted)
		printf("removed %d %s (the counts given, chosen by %s)\n", a->total, units, crit);
	else
		printf("removed %d %s: %d by the |r_jj| threshold, %d by the κ loop%s%s\n",
		       a->total, units, by_thr, a->total - by_thr,
		       o->criterion ? ", chosen by " : "", o->criterion ? crit : "");
}

/* The test accuracy before and after the squeeze, and after the retraining. */
static void say_accuracies(const Squeeze *s, const TrainPlan *plan, const TrainResult *tr,
                           double acc0, const SqueezeNetRow *nr)
{
	printf("test accuracy before squeezing: %.2f %%\n", acc0);
	printf("test accuracy after squeezing: %.2f %%\n", nr[0].acc_squeezed);
	if (s->retrain > 0 && plan->val)
		printf("test accuracy after retraining %d epochs, keeping epoch %d (validation "
		       "accuracy %.2f %%): %.2f %%\n",
		       tr->epochs, tr->best_epoch, 100 * tr->val_acc, nr[0].acc_retrained);
	else if (s->retrain > 0)
		printf("test accuracy after retraining %g epochs: %.2f %%\n", s->retrain,
		       nr[0].acc_retrained);
}

/* How far the networks answer as the original did (ag: NULL without a test
 * set), and the other network, squeezed with the other compensation. */
static void say_others(const Agreement *ag, int retrained, const Alg3Opts *oo,
                       const char *other_failed, int r_other, const char *units,
                       const SqueezeNetRow *nr)
{
	char line[512];
	if (ag)
		printf("the squeezed network %s\n",
		       report_agreement_line(&ag[0], "the test set", line, sizeof line));
	if (ag && retrained)
		printf("retrained, it %s\n",
		       report_agreement_line(&ag[2], "the test set", line, sizeof line));
	if (other_failed)
		printf("the other network: the same squeeze %s compensation failed (%s): not "
		       "compared\n",
		       oo->compensate ? "with" : "without", other_failed);
	else
		printf("the other network: the same squeeze %s compensation removed %d %s: "
		       "test accuracy %.2f %%\n",
		       oo->compensate ? "with" : "without", r_other, units, nr[1].acc_squeezed);
	if (ag && !other_failed)
		printf("  it %s\n",
		       report_agreement_line(&ag[1], "the test set", line, sizeof line));
	printf("\n");
}

static int squeeze_once(const CommonOpts *c, Squeeze *s, Net **net, const Dataset *train,
                        const Dataset *test, const TrainPlan *plan, const Dataset *rtrain,
                        struct cJSON *rec, Err *e)
{
	int m = (*net)->m, rc = -1;
	Alg3Opts o = s->so;
	Net *kept = net_clone(*net, e), *other = net_clone(*net, e);
	LayerCond *before = NULL, *after = NULL;
	SqueezeLayerRow *rows = NULL;
	Alg3 *a = NULL;
	NetCost c0, c1;
	Agreement ag[3] = {{0}};
	if (!kept || !other) {
		err_set(e, "out of memory");
		goto out;
	}
	/* a signal may stop the conditioning of a large layer (rc 1) */
	if ((rc = cond_net_new(*net, o.tau, 0, &before, e)) != 0)
		goto out;
	rc = -1;
	if (cost_of(s, c->train.threads, *net, &c0, e) || !(a = alg3_new(kept, &o, train, e)))
		goto out;
	Alg3Opts oo = o;
	oo.compensate = !o.compensate;
	if ((rc = alg3_run(a, NULL, e)) != 0)
		goto out;
	Err eo = {{0}};
	int r_other = 0;
	if ((rc = squeeze_other(other, &oo, train, &r_other, &eo, e)) != 0)
		goto out;
	const char *other_failed = eo.msg[0] ? eo.msg : NULL;
	if ((rc = cond_net_new(kept, o.tau, 0, &after, e)) != 0)
		goto out;
	rc = -1;
	if (!(rows = report_squeeze_layer_rows(*net, before, kept, after, a, e)))
		goto out;
	double acc0, acc_k, acc_o = NAN;
	if ((rc = net_accuracy(*net, test, NULL, &acc0, e)) != 0 ||
	    (rc = net_accuracy(kept, test, NULL, &acc_k, e)) != 0 ||
	    (!other_failed && (rc = net_accuracy(other, test, NULL, &acc_o, e)) != 0))
		goto out;
	rc = -1;
	const char *crit = alg3_criterion_name(o.criterion);
	int counted = o.keep_counts != NULL, by_thr = alg3_removed_by_threshold(a);
	SqueezeNetRow nr[2] = {
	    {1, o.tau, crit, counted, o.compensate, a->total, acc_k, NAN, NULL},
	    {0, o.tau, crit, counted, oo.compensate, r_other, acc_o, NAN, other_failed}};
	TrainResult tr = {0};
	if ((rc = retrain_agree(s, *net, kept, other_failed ? NULL : other, rtrain, plan, test,
	                        rows, nr, &tr, ag, e)) != 0)
		goto out;
	rc = -1;
	if (cost_of(s, c->train.threads, kept, &c1, e))
		goto out;
	if (report_squeeze_layers(stdout, rows, m, REPORT_TEXT, e))
		goto out;
	printf("(κ at decision: after the earlier layers' removals; the κ Algorithm 3 compares "
	       "with τ)\n\n");
	const char *units = (*net)->nconv ? "channels and neurons" : "neurons";
	say_removed(a, &o, units, counted, by_thr);
	say_accuracies(s, plan, &tr, acc0, nr);
	say_others(test ? ag : NULL, s->retrain > 0, &oo, other_failed, r_other, units, nr);
	Nets x = {nr, other_failed ? 1 : 2};
	if (report_squeeze_networks(stdout, nr, x.n, REPORT_TEXT, e) ||
	    report_squeeze_once_json(rec, nr, rows, m, acc0, by_thr, test ? ag : NULL,
	                             s->retrain > 0 ? &tr : NULL, e) ||
	    print_costs(&c0, &c1, rec, e) || (c->csv && report_write_file(c->csv, nets_csv, &x, e)))
		goto out;
	/* hand the kept network back in place of the original */
	net_free(*net);
	*net = kept;
	kept = NULL;
	rc = 0;
out:
	for (int i = 0; i < 3; i++)
		agreement_free(&ag[i]);
	alg3_free(a);
	free(rows);
	cond_net_free(before, m);
	cond_net_free(after, m);
	net_free(kept);
	net_free(other);
	return rc;
}

/* The first lines; the record with the settings into *rec. */
static int print_settings(const CommonOpts *c, const Squeeze *s, const Net *net, struct cJSON **rec,
                          Err *e)
{
	char sh[512], spec[64];
	printf("%s: %s %s (%s), tau %g%s%s%s%s\n", opts_data_name(c),
	       s->compare ? "comparing squeeze criteria on" : "squeezing",
	       c->load ? c->load : c->onnx, net_shape_str(net, sh, sizeof sh), s->so.tau,
	       s->so.while_loop ? "" : ", no while loop", s->so.compensate ? ", compensated" : "",
	       s->so.criterion ? ", criterion " : "",
	       s->so.criterion ? alg3_criterion_name(s->so.criterion) : "");
	if (s->keep_spec)
		printf("keeping the counts of %s\n", s->keep_spec);
	if (s->only_spec)
		printf("squeezing only hidden layer%s %s; the others keep every unit\n",
		       strchr(s->only_spec, ',') ? "s" : "", s->only_spec);
	printf("\n");
	SqueezeSettings st = {
	    .model = c->load ? c->load : c->onnx,
	    .shape_before = sh,
	    .so = &s->so,
	    .taus = s->taus,
	    .ntau = s->ntau,
	    .keep = s->keep,
	    .nkeep = net->m - 1,
	    .retrain_epochs = s->retrain,
	    .retrain_schedule = sched_format(&c->train.sched, spec, sizeof spec),
	    .retrain_warmup = c->train.sched.warmup,
	    .retrain_early_stop = c->early_stop,
	};
	return (*rec = report_squeeze_record(&st, e)) ? 0 : -1;
}

/* The outputs, the files of --plot among them, checked before any work;
 * the counts of --keep-counts read as a list: 0, 2 after the message of a
 * usage error, -1. */
static int check_outputs(const CommonOpts *c, const Squeeze *s, Err *e)
{
	char plot[3][PATH_MAX];
	static const char *const sfx[] = {".dat", ".gp", ".png"};
	CliOut outs[3];
	for (int i = 0; i < 3; i++) {
		snprintf(plot[i], sizeof plot[i], "%s%s", s->plot ? s->plot : "", sfx[i]);
		outs[i] =
		    (CliOut){s->plot ? plot[i] : NULL, i < 2 ? FILE_OUT_TEXT : 0, "--plot", NULL};
	}
	if (cli_check_outputs(c, outs, 3, e))
		return -1;
	if (s->keep_spec && squeeze_check_counts_list(s->keep_spec, e)) {
		fprintf(stderr, "condnet squeeze: %s\n", e->msg);
		return 2;
	}
	return 0;
}

/* The network it ends with, --save and --json. */
static int write_outputs(const CommonOpts *c, const Squeeze *s, Net *net, const Dataset *train,
                         struct cJSON *rec, Err *e)
{
	char sh[512];
	if (!s->compare) {
		if (report_squeeze_shape_after(rec, net_shape_str(net, sh, sizeof sh), e))
			return -1;
		printf("\nresult: %s\n", sh);
	}
	if (c->save) {
		if (setup_save_model(net, c->save, train, e))
			return -1;
		printf("saved %s\n", c->save);
	}
	return c->json ? report_write_json(c->json, rec, e) : 0;
}

int cmd_squeeze(int argc, char **argv)
{
	CommonOpts c;
	Squeeze s;
	Dataset *train = NULL, *test = NULL, *rtr = NULL, *rval = NULL;
	Net *net = NULL;
	struct cJSON *rec = NULL;
	Err e = {{0}};
	int rc = 1;

	int pr = squeeze_parse(argc, argv, &c, &s);
	if (pr)
		return pr == 1 ? 0 : 2;
	s.so.seed = c.seed;
	if ((pr = check_outputs(&c, &s, &e)) != 0) {
		if (pr == 2)
			return 2;
		goto fail;
	}
	if (opts_dry_run("squeeze"))
		return 0;
	if (s.keep_spec && squeeze_check_counts_spec(s.keep_spec, &e))
		goto fail;
	if (setup_load_data_any(&c, &train, &test, &e) ||
	    !(net = setup_make_net_any(&c, train, &e)))
		goto fail;
	if (net->graph) { /* group by group (cmd_squeeze_graph.c) */
		progress_trap_signals();
		int gs = squeeze_graph_run(&c, &s, &net, train, test, &e);
		if (gs > 0 || (gs < 0 && progress_interrupted())) {
			fprintf(stderr, "condnet squeeze: interrupted; nothing saved\n");
			rc = 130;
			goto out;
		}
		if (gs < 0)
			goto fail;
		rc = 0;
		goto out;
	}
	if ((s.keep_spec && squeeze_load_counts(&s, net, &e)) || squeeze_load_only(&s, net, &e))
		goto fail;
	TrainPlan plan;
	if (setup_plan(&c, train, NULL, s.retrain, &plan, &rtr, &rval, &e) < 0)
		goto fail;
	progress_init(&s.prog, "condnet squeeze", c.quiet, 1);
	progress_trap_signals();
	char how[256];
	if (print_settings(&c, &s, net, &rec, &e))
		goto fail;
	if (c.sched_given || plan.val)
		printf("retraining: %s\n", setup_plan_str(&plan, NULL, how, sizeof how));
	const Dataset *rtrain = rtr ? rtr : train;
	int st = s.compare        ? squeeze_compare_run(&c, &s, net, rtrain, test, &plan, rec, &e)
	         : s.until_stable ? until_stable(&c, &s, net, train, test, &plan, rtrain, rec, &e)
	                          : squeeze_once(&c, &s, &net, train, test, &plan, rtrain, rec, &e);
	progress_clear(&s.prog);
	/* a signal stops the decompositions of a large layer and the measurements
	 * (1); whatever failed after one, the run was interrupted */
	if (st < 0 && !progress_interrupted())
		goto fail;
	if (st != 0 || progress_interrupted()) {
		if (st != 0 && e.msg[0]) /* where it stopped */
			fprintf(stderr, "condnet squeeze: %s\n", e.msg);
		fprintf(stderr, "condnet squeeze: interrupted; nothing saved\n");
		rc = 130;
		goto out;
	}
	if (write_outputs(&c, &s, net, train, rec, &e))
		goto fail;
	/* the plot last: a gnuplot that fails or is stopped loses nothing else */
	int pl = squeeze_compare_plot(&c, &s, &e);
	if (pl > 0) {
		fprintf(stderr, "condnet squeeze: %s\n", e.msg);
		rc = 130;
		goto out;
	}
	if (pl < 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	rc = cli_fail("squeeze", &e);
out:
	squeeze_compare_free(&s);
	report_free(rec);
	net_free(net);
	free(s.keep);
	free(s.only);
	dataset_free(train);
	dataset_free(test);
	dataset_free(rtr);
	dataset_free(rval);
	return rc;
}
