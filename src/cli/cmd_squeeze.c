/* cmd_squeeze.c - `condnet squeeze`: Algorithm 3 on a saved model, with or
 * without compensation, by another criterion or to given counts, retrained,
 * repeated until nothing is removed, or compared with the simple rules
 * (--compare, cmd_squeeze_compare.c). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/blas.h"
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

/* The counts, and the forward time unless --no-timing. */
static int cost_of(const Squeeze *s, const Net *net, NetCost *c, Err *e)
{
	if (s->timing)
		return net_cost_measure(net, 7, c, e);
	net_cost_count(net, c);
	return 0;
}

static void print_costs(const NetCost *a, const NetCost *b, cJSON *rec, Err *e)
{
	if (a->repeats > 0)
		printf("\nwhat the network costs (forward time: median of %d repeats, %d OpenBLAS "
		       "thread%s):\n\n",
		       a->repeats, a->threads, a->threads == 1 ? "" : "s");
	else
		printf("\nwhat the network costs (forward time not measured):\n\n");
	report_costs(stdout, a, b, REPORT_TEXT);
	cJSON_AddItemToObject(rec, "cost_before", report_cost_json(a, e));
	cJSON_AddItemToObject(rec, "cost_after", report_cost_json(b, e));
}

static double accuracy(const Net *net, const Dataset *d)
{
	return 100 * (1 - net_error(net, d, NULL));
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

static void free_conds(LayerCond *lc, int m)
{
	for (int i = 0; lc && i < m; i++)
		cond_layer_free(&lc[i]);
	free(lc);
}

/* The per-layer rows of a squeeze: κ as given (before), when decided (the
 * pass a) and after; what each stage removed. */
static SqueezeLayerRow *layer_rows(const Net *a, const LayerCond *ca, const Net *b,
                                   const LayerCond *cb, const Alg3 *pass, Err *e)
{
	SqueezeLayerRow *r = calloc((size_t)a->m, sizeof *r);
	if (!r) {
		err_set(e, "out of memory");
		return NULL;
	}
	for (int i = 0; i < a->m; i++) {
		int hidden = i < a->m - 1, counted = pass->o.keep_counts != NULL;
		double kd = hidden ? pass->kappa_dec[i] : NAN;
		r[i] = (SqueezeLayerRow){i + 1,       a->n[i + 1], b->n[i + 1], ca[i].kappa, kd,
		                         cb[i].kappa, NAN,         -1,          -1};
		if (hidden && !counted) {
			r[i].by_threshold = pass->removed_qr[i];
			r[i].by_loop = pass->removed[i] - pass->removed_qr[i];
		}
	}
	return r;
}

typedef struct Nets {
	const SqueezeNetRow *r;
	int n;
} Nets;

static void nets_csv(FILE *f, const void *ud)
{
	const Nets *x = ud;
	report_squeeze_networks(f, x->r, x->n, REPORT_CSV);
}

typedef struct Rounds {
	const SqueezeRound *r;
	int n, m;
} Rounds;

static void rounds_csv(FILE *f, const void *ud)
{
	const Rounds *r = ud;
	report_squeeze_rounds(f, r->r, r->n, r->m, REPORT_CSV);
}

/* Squeeze → retrain until a squeeze removes nothing (the paper's Table 13). */
static int until_stable(const CommonOpts *c, Squeeze *s, Net *net, const Dataset *train,
                        const Dataset *test, const TrainPlan *plan, const Dataset *rtrain,
                        cJSON *rec, Err *e)
{
	SqueezeRound r[MAX_ROUNDS + 1];
	int nr = 0, m = net->m, stable = 0;
	char sh[512];
	NetCost c0, c1;
	if (cost_of(s, net, &c0, e))
		return -1;
	printf("round 0: removed 0, %s, test accuracy %.2f %%\n", net_shape_str(net, sh, sizeof sh),
	       test ? accuracy(net, test) : NAN);
	fflush(stdout);
	Hook h = {sq_progress, round_line, sq_cancelled, s};
	progress_what(&s->prog, "retraining");
	Net *orig = test ? net_clone(net, e) : NULL;
	if (test && !orig)
		return -1;
	int rc = alg3_until_stable(net, &s->so, train, plan, rtrain, test, MAX_ROUNDS, &h, r, &nr,
	                           &stable, e);
	Agreement ag = {0};
	if (rc == 0 && orig && net_agreement(orig, net, test, &ag, e))
		rc = -1;
	net_free(orig);
	progress_clear(&s->prog);
	cJSON *js = cJSON_AddArrayToObject(rec, "rounds");
	for (int k = 0; k < nr; k++) {
		cJSON *o = cJSON_CreateObject();
		if (o) {
			cJSON_AddNumberToObject(o, "round", k);
			cJSON_AddItemToObject(o, "n", cJSON_CreateIntArray(r[k].n, m + 1));
			cJSON_AddNumberToObject(o, "removed", r[k].removed);
			if (isfinite(r[k].acc_retrained))
				cJSON_AddNumberToObject(o, "test_accuracy", r[k].acc_retrained);
			cJSON *kj = cJSON_AddArrayToObject(o, "kappa");
			for (int i = 0; kj && i < m; i++)
				cJSON_AddItemToArray(kj, isfinite(r[k].kappa[i])
				                             ? cJSON_CreateNumber(r[k].kappa[i])
				                             : cJSON_CreateNull());
			cJSON_AddItemToArray(js, o);
		}
	}
	if (rc == 0) {
		if (!stable)
			printf("stopped after %d rounds; the network may squeeze further\n",
			       MAX_ROUNDS);
		printf("\n");
		report_squeeze_rounds(stdout, r, nr, m, REPORT_TEXT);
		if (test) {
			char line[512];
			printf("\nthe result %s\n",
			       report_agreement_line(&ag, "the test set", line, sizeof line));
			cJSON_AddItemToObject(rec, "agreement", report_agreement_json(&ag, e));
		}
		cJSON_AddBoolToObject(rec, "stable", stable);
		Rounds rr = {r, nr, m};
		if (c->csv && report_write_file(c->csv, rounds_csv, &rr, e))
			rc = -1;
	}
	if (rc == 0 && cost_of(s, net, &c1, e) == 0)
		print_costs(&c0, &c1, rec, e);
	else if (rc == 0)
		rc = -1;
	for (int k = 0; k < nr; k++)
		squeeze_round_free(&r[k]);
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
	kept->acc_retrained = test ? accuracy(net, test) : NAN;
	LayerCond *lc = calloc((size_t)net->m, sizeof *lc);
	if (!lc)
		return err_set(e, "out of memory");
	int rc = cond_net_values(net, s->so.tau, lc, e);
	for (int i = 0; rc == 0 && i < net->m; i++)
		rows[i].kappa_retrained = lc[i].kappa;
	free_conds(lc, net->m);
	return rc;
}

/* The record of one squeeze: the kept network's figures, and the other one's
 * as a network of its own. */
static void squeeze_json(cJSON *rec, const SqueezeNetRow *nr, const SqueezeLayerRow *rows, int m,
                         double acc0, int by_thr, Err *e)
{
	const SqueezeNetRow *k = &nr[0], *o = &nr[1];
	cJSON_AddItemToObject(rec, "layers", report_squeeze_layers_json(rows, m, e));
	cJSON_AddNumberToObject(rec, "removed", k->removed);
	if (!k->counted) {
		cJSON_AddNumberToObject(rec, "removed_threshold", by_thr);
		cJSON_AddNumberToObject(rec, "removed_loop", k->removed - by_thr);
	}
	cJSON_AddNumberToObject(rec, "removed_without_compensation",
	                        k->compensated ? o->removed : k->removed);
	cJSON_AddNumberToObject(rec, "removed_with_compensation",
	                        k->compensated ? k->removed : o->removed);
	if (!isnan(acc0)) {
		cJSON_AddNumberToObject(rec, "acc_before_squeeze", acc0);
		cJSON_AddNumberToObject(rec, "acc_squeezed", k->acc_squeezed);
		if (isfinite(k->acc_retrained))
			cJSON_AddNumberToObject(rec, "acc_retrained", k->acc_retrained);
	}
	cJSON *x = cJSON_AddObjectToObject(rec, "other_network");
	if (!x)
		return;
	cJSON_AddStringToObject(x, "what",
	                        "the same squeeze with the other compensation setting: "
	                        "a different network, not kept");
	cJSON_AddBoolToObject(x, "compensate", o->compensated);
	cJSON_AddNumberToObject(x, "removed", o->removed);
	if (!isnan(acc0))
		cJSON_AddNumberToObject(x, "acc_squeezed", o->acc_squeezed);
}

/* One squeeze: the one asked for kept in *net, and the same with the other
 * compensation setting measured beside it. */
static int squeeze_once(const CommonOpts *c, Squeeze *s, Net **net, const Dataset *train,
                        const Dataset *test, const TrainPlan *plan, const Dataset *rtrain,
                        cJSON *rec, Err *e)
{
	int m = (*net)->m, rc = -1;
	SqueezeOpts o = s->so;
	Net *kept = net_clone(*net, e), *other = net_clone(*net, e);
	LayerCond *before = calloc((size_t)m, sizeof *before),
	          *after = calloc((size_t)m, sizeof *after);
	SqueezeLayerRow *rows = NULL;
	Alg3 *a = NULL;
	NetCost c0, c1;
	Agreement ag[3] = {{0}};
	if (!kept || !other || !before || !after) {
		err_set(e, "out of memory");
		goto out;
	}
	if (cond_net_values(*net, o.tau, before, e) || cost_of(s, *net, &c0, e))
		goto out;
	if (!(a = alg3_new(kept, &o, train, e)) || alg3_run(a, NULL, e) < 0)
		goto out;
	SqueezeOpts oo = o;
	oo.compensate = !o.compensate;
	int r_other = squeeze_net(other, &oo, train, NULL, e);
	if (r_other < 0 || cond_net_values(kept, o.tau, after, e) ||
	    !(rows = layer_rows(*net, before, kept, after, a, e)))
		goto out;
	double acc0 = test ? accuracy(*net, test) : NAN;
	const char *crit = squeeze_criterion_name(o.criterion);
	int counted = o.keep_counts != NULL, by_thr = 0;
	for (int i = 0; i < m - 1; i++)
		by_thr += a->removed_qr[i];
	double acc_k = test ? accuracy(kept, test) : NAN,
	       acc_o = test ? accuracy(other, test) : NAN;
	SqueezeNetRow nr[2] = {{1, o.tau, crit, counted, o.compensate, a->total, acc_k, NAN},
	                       {0, o.tau, crit, counted, oo.compensate, r_other, acc_o, NAN}};
	/* how far each answers as the original: kept before its retraining, the other,
	 * and kept after */
	if (test && (net_agreement(*net, kept, test, &ag[0], e) ||
	             net_agreement(*net, other, test, &ag[1], e)))
		goto out;
	TrainResult tr = {0};
	if (s->retrain > 0 &&
	    (rc = retrain(s, kept, rtrain, plan, test, rows, &nr[0], &tr, e)) != 0)
		goto out;
	rc = -1;
	if (test && s->retrain > 0 && net_agreement(*net, kept, test, &ag[2], e))
		goto out;
	if (cost_of(s, kept, &c1, e))
		goto out;
	report_squeeze_layers(stdout, rows, m, REPORT_TEXT);
	printf("(κ at decision: after the earlier layers' removals; the κ Algorithm 3 compares "
	       "with τ)\n\n");
	if (counted)
		printf("removed %d neurons (the counts given, chosen by %s)\n", a->total, crit);
	else
		printf("removed %d neurons: %d by the |r_jj| threshold, %d by the κ loop%s%s\n",
		       a->total, by_thr, a->total - by_thr, o.criterion ? ", chosen by " : "",
		       o.criterion ? crit : "");
	printf("test accuracy before squeezing: %.2f %%\n", acc0);
	printf("test accuracy after squeezing: %.2f %%\n", nr[0].acc_squeezed);
	if (s->retrain > 0 && plan->val)
		printf("test accuracy after retraining %d epochs, keeping epoch %d (validation "
		       "accuracy %.2f %%): %.2f %%\n",
		       tr.epochs, tr.best_epoch, 100 * tr.val_acc, nr[0].acc_retrained);
	else if (s->retrain > 0)
		printf("test accuracy after retraining %g epochs: %.2f %%\n", s->retrain,
		       nr[0].acc_retrained);
	char line[512];
	if (test)
		printf("the squeezed network %s\n",
		       report_agreement_line(&ag[0], "the test set", line, sizeof line));
	if (test && s->retrain > 0)
		printf("retrained, it %s\n",
		       report_agreement_line(&ag[2], "the test set", line, sizeof line));
	printf("the other network: the same squeeze %s compensation removed %d neurons: test "
	       "accuracy %.2f %%\n",
	       oo.compensate ? "with" : "without", r_other, nr[1].acc_squeezed);
	if (test)
		printf("  it %s\n",
		       report_agreement_line(&ag[1], "the test set", line, sizeof line));
	printf("\n");
	report_squeeze_networks(stdout, nr, 2, REPORT_TEXT);
	squeeze_json(rec, nr, rows, m, acc0, by_thr, e);
	if (test) {
		cJSON_AddItemToObject(rec, "agreement_squeezed", report_agreement_json(&ag[0], e));
		if (s->retrain > 0)
			cJSON_AddItemToObject(rec, "agreement_retrained",
			                      report_agreement_json(&ag[2], e));
		cJSON *x = cJSON_GetObjectItemCaseSensitive(rec, "other_network");
		if (x)
			cJSON_AddItemToObject(x, "agreement", report_agreement_json(&ag[1], e));
	}
	if (s->retrain > 0) {
		cJSON_AddNumberToObject(rec, "retrain_epochs_run", tr.epochs);
		cJSON_AddNumberToObject(rec, "retrain_best_epoch", tr.best_epoch);
		if (!isnan(tr.val_acc))
			cJSON_AddNumberToObject(rec, "retrain_val_accuracy", 100 * tr.val_acc);
	}
	print_costs(&c0, &c1, rec, e);
	Nets x = {nr, 2};
	if (c->csv && report_write_file(c->csv, nets_csv, &x, e))
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
	free_conds(before, m);
	free_conds(after, m);
	net_free(kept);
	net_free(other);
	return rc;
}

/* The first lines, and what the JSON record says of the settings. */
static void print_settings(const CommonOpts *c, const Squeeze *s, const Net *net, cJSON *rec)
{
	char sh[512];
	printf("%s: %s %s (%s), tau %g%s%s%s%s\n", cli_data_name(c),
	       s->compare ? "comparing squeeze criteria on" : "squeezing", c->load,
	       net_shape_str(net, sh, sizeof sh), s->so.tau,
	       s->so.while_loop ? "" : ", no while loop", s->so.compensate ? ", compensated" : "",
	       s->so.criterion ? ", criterion " : "",
	       s->so.criterion ? squeeze_criterion_name(s->so.criterion) : "");
	if (s->keep_spec)
		printf("keeping the counts of %s\n", s->keep_spec);
	printf("\n");
	cJSON_AddStringToObject(rec, "model", c->load);
	cJSON_AddStringToObject(rec, "shape_before", sh);
	cJSON_AddNumberToObject(rec, "tau", s->so.tau);
	if (s->ntau > 1)
		cJSON_AddItemToObject(rec, "taus", cJSON_CreateDoubleArray(s->taus, s->ntau));
	cJSON_AddBoolToObject(rec, "while_loop", s->so.while_loop);
	cJSON_AddBoolToObject(rec, "compensate", s->so.compensate);
	cJSON_AddStringToObject(rec, "criterion", squeeze_criterion_name(s->so.criterion));
	if (s->so.criterion == SQUEEZE_RANDOM)
		cJSON_AddNumberToObject(rec, "seed", (double)s->so.seed);
	if (s->keep)
		cJSON_AddItemToObject(rec, "keep_counts",
		                      cJSON_CreateIntArray(s->keep, net->m - 1));
	cJSON_AddNumberToObject(rec, "retrain_epochs", s->retrain);
	char spec[64];
	cJSON_AddStringToObject(rec, "retrain_schedule",
	                        sched_format(&c->train.sched, spec, sizeof spec));
	cJSON_AddNumberToObject(rec, "retrain_warmup", c->train.sched.warmup);
	cJSON_AddNumberToObject(rec, "retrain_early_stop", c->early_stop);
}

int cmd_squeeze(int argc, char **argv)
{
	CommonOpts c;
	Squeeze s;
	Dataset *train = NULL, *test = NULL, *rtr = NULL, *rval = NULL;
	Net *net = NULL;
	cJSON *rec = NULL;
	Err e = {{0}};
	int rc = 1;

	int pr = squeeze_parse(argc, argv, &c, &s);
	if (pr)
		return pr == 1 ? 0 : 2;
	s.so.seed = c.seed;
	char plot_dat[PATH_MAX];
	snprintf(plot_dat, sizeof plot_dat, "%s.dat", s.plot ? s.plot : "");
	CliOut outs[] = {{s.plot ? plot_dat : NULL, FILE_OUT_TEXT}};
	if (cli_check_outputs(&c, outs, 1, &e))
		goto fail;
	if (cli_load_data(&c, &train, &test, &e) || !(net = cli_make_net(&c, train, &e)))
		goto fail;
	if (s.keep_spec && squeeze_load_counts(&s, net, &e))
		goto fail;
	TrainPlan plan;
	if (cli_plan(&c, train, NULL, s.retrain, &plan, &rtr, &rval, &e) < 0)
		goto fail;
	if (!(rec = cJSON_CreateObject())) {
		err_set(&e, "out of memory");
		goto fail;
	}
	if (c.train.threads > 0)
		blas_set_threads(c.train.threads);
	progress_init(&s.prog, "condnet squeeze", c.quiet, 1);
	progress_trap_signals();
	char sh[512], how[256];
	print_settings(&c, &s, net, rec);
	if (c.sched_given || plan.val)
		printf("retraining: %s\n", cli_plan_str(&plan, NULL, how, sizeof how));
	const Dataset *rtrain = rtr ? rtr : train;
	int st = s.compare        ? squeeze_compare_run(&c, &s, net, rtrain, test, &plan, rec, &e)
	         : s.until_stable ? until_stable(&c, &s, net, train, test, &plan, rtrain, rec, &e)
	                          : squeeze_once(&c, &s, &net, train, test, &plan, rtrain, rec, &e);
	if (st < 0)
		goto fail;
	if (st > 0 || progress_interrupted()) {
		fprintf(stderr, "condnet squeeze: interrupted; nothing saved\n");
		rc = 130;
		goto out;
	}
	if (!s.compare) {
		cJSON_AddStringToObject(rec, "shape_after", net_shape_str(net, sh, sizeof sh));
		printf("\nresult: %s\n", sh);
	}
	if (c.save) {
		if (cli_save_model(net, c.save, train, &e))
			goto fail;
		printf("saved %s\n", c.save);
	}
	if (c.json && report_write_json(c.json, rec, &e))
		goto fail;
	rc = 0;
	goto out;
fail:
	rc = cli_fail("squeeze", &e);
out:
	cJSON_Delete(rec);
	net_free(net);
	free(s.keep);
	dataset_free(train);
	dataset_free(test);
	dataset_free(rtr);
	dataset_free(rval);
	return rc;
}
