/* cmd_squeeze.c - `condnet squeeze`: Algorithm 3 on a saved model, with or
 * without compensation, retrained, or repeated until nothing is removed. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/alg3_squeeze.h"
#include "cli/cli.h"
#include "engine/cond.h"
#include "engine/model_io.h"
#include "cli/progress.h"
#include "engine/report.h"

enum { MAX_ROUNDS = 20 };

/* The default τ in the text comes from squeeze_opts_default. */
static const char help_fmt[] =
	"Usage: condnet squeeze --load MODEL [OPTIONS]\n\n"
	"Algorithm 3: in every hidden layer whose stacked matrix [W; b] has a condition\n"
	"number above tau, keep the neurons a column-pivoted QR ranks first and remove\n"
	"the others. Prints n and kappa per layer before and after, and the test\n"
	"accuracy before squeezing, after it (without and with compensation) and after\n"
	"retraining.\n\n"
	"  --tau T              threshold on the condition number, > 1 (default %g)\n"
	"  --no-while           keep every neuron the QR threshold keeps, without dropping\n"
	"                       pivots until kappa <= tau\n"
	"  --compensate         refit the next layer by least squares (the result kept)\n"
	"  --retrain E          train the squeezed network E epochs; --schedule, --warmup\n"
	"                       and --early-stop shape this training (with --early-stop on\n"
	"                       the training part of the split, at most E epochs, keeping\n"
	"                       the best validation epoch)\n"
	"  --until-stable       squeeze and retrain again until nothing is removed\n"
	"                       (at most 20 rounds; needs --retrain)\n";

enum { OPT_TAU = CLI_OPT_OWN, OPT_NO_WHILE, OPT_COMPENSATE, OPT_RETRAIN, OPT_UNTIL_STABLE };

static const struct option own[] = {
	{"tau", required_argument, NULL, OPT_TAU},
	{"no-while", no_argument, NULL, OPT_NO_WHILE},
	{"compensate", no_argument, NULL, OPT_COMPENSATE},
	{"retrain", required_argument, NULL, OPT_RETRAIN},
	{"until-stable", no_argument, NULL, OPT_UNTIL_STABLE},
	{0},
};

typedef struct Squeeze {
	SqueezeOpts so;
	double retrain;
	int until_stable;
	Progress prog;
	TrainResult last; /* the last retraining's (HOOK_TRAINED) */
	int have_last;
} Squeeze;

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	Squeeze *s = ud;
	switch (opt) {
	case OPT_TAU:
		return cli_double("--tau", arg, 1, 1, 1e12, &s->so.tau, e);
	case OPT_NO_WHILE:
		s->so.while_loop = 0;
		return 0;
	case OPT_COMPENSATE:
		s->so.compensate = 1;
		return 0;
	case OPT_RETRAIN:
		return cli_double("--retrain", arg, 0, 1, 1e6, &s->retrain, e);
	case OPT_UNTIL_STABLE:
		s->until_stable = 1;
		return 0;
	}
	return 0;
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

/* The per-layer lines: n and κ before → after. */
static void print_layers(const Net *a, const LayerCond *ca, const Net *b, const LayerCond *cb,
			 cJSON *layers)
{
	char k0[32], k1[32];
	printf("layer   n before → after   κ before → after\n");
	for (int i = 0; i < a->m; i++) {
		printf("%5d   %8d → %-5d   %8s → %s\n", i + 1, a->n[i + 1], b->n[i + 1],
		       report_thousands(ca[i].kappa, k0, sizeof k0),
		       report_thousands(cb[i].kappa, k1, sizeof k1));
		cJSON *o = cJSON_CreateObject();
		if (!o)
			continue;
		cJSON_AddNumberToObject(o, "layer", i + 1);
		cJSON_AddNumberToObject(o, "n_before", a->n[i + 1]);
		cJSON_AddNumberToObject(o, "n_after", b->n[i + 1]);
		if (isfinite(ca[i].kappa))
			cJSON_AddNumberToObject(o, "kappa_before", ca[i].kappa);
		if (isfinite(cb[i].kappa))
			cJSON_AddNumberToObject(o, "kappa_after", cb[i].kappa);
		cJSON_AddItemToArray(layers, o);
	}
}

static void row_csv(FILE *f, const void *row)
{
	report_squeeze(f, row, 1, REPORT_CSV);
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
	printf("round 0: removed 0, %s, test accuracy %.2f %%\n", net_shape_str(net, sh, sizeof sh),
	       test ? accuracy(net, test) : NAN);
	fflush(stdout);
	Hook h = {sq_progress, round_line, sq_cancelled, s};
	progress_what(&s->prog, "retraining");
	int rc = alg3_until_stable(net, &s->so, train, plan, rtrain, test, MAX_ROUNDS, &h, r, &nr,
				   &stable, e);
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
			cJSON_AddItemToArray(js, o);
		}
	}
	if (rc == 0) {
		if (!stable)
			printf("stopped after %d rounds; the network may squeeze further\n", MAX_ROUNDS);
		printf("\n");
		report_squeeze_rounds(stdout, r, nr, m, REPORT_TEXT);
		cJSON_AddBoolToObject(rec, "stable", stable);
		Rounds rr = {r, nr, m};
		if (c->csv && report_write_file(c->csv, rounds_csv, &rr, e))
			rc = -1;
	}
	for (int k = 0; k < nr; k++)
		squeeze_round_free(&r[k]);
	return rc;
}

/* One squeeze: both with and without compensation measured, the one asked
 * for kept in *net. */
static int squeeze_once(const CommonOpts *c, Squeeze *s, Net **net, const Dataset *train,
			const Dataset *test, const TrainPlan *plan, const Dataset *rtrain,
			cJSON *rec, Err *e)
{
	int m = (*net)->m, rc = -1;
	SqueezeRow row = {.tau = s->so.tau, .acc_after = NAN};
	SqueezeOpts o = s->so;
	Net *plain = net_clone(*net, e), *comp = net_clone(*net, e);
	LayerCond *before = calloc((size_t)m, sizeof *before), *after = calloc((size_t)m, sizeof *after);
	if (!plain || !comp || !before || !after) {
		err_set(e, "out of memory");
		goto out;
	}
	double acc0 = test ? accuracy(*net, test) : NAN;
	int rp, rcomp;
	o.compensate = 0;
	if (cond_net(*net, o.tau, before, e) || (rp = squeeze_net(plain, &o, train, NULL, e)) < 0)
		goto out;
	o.compensate = 1;
	if ((rcomp = squeeze_net(comp, &o, train, NULL, e)) < 0)
		goto out;
	Net *keep = s->so.compensate ? comp : plain;
	if (cond_net(keep, o.tau, after, e))
		goto out;
	row.removed = s->so.compensate ? rcomp : rp;
	row.acc_before = test ? accuracy(plain, test) : NAN;
	row.acc_before_comp = test ? accuracy(comp, test) : NAN;

	cJSON *layers = cJSON_AddArrayToObject(rec, "layers");
	print_layers(*net, before, keep, after, layers);
	printf("\nremoved %d neurons (%d without compensation, %d with)\n", row.removed, rp, rcomp);
	printf("test accuracy before squeezing: %.2f %%\n", acc0);
	printf("test accuracy after squeezing: %.2f %% (with compensation: %.2f %%)\n", row.acc_before,
	       row.acc_before_comp);
	TrainResult tr = {0};
	if (s->retrain > 0) {
		progress_what(&s->prog, "retraining");
		Hook h = progress_hook(&s->prog, NULL);
		int st = train_plan_fit(keep, rtrain, plan, &h, &tr, e);
		progress_clear(&s->prog);
		if (st) {
			rc = st;
			goto out;
		}
		row.acc_after = test ? accuracy(keep, test) : NAN;
		if (plan->val)
			printf("test accuracy after retraining %d epochs, keeping epoch %d "
			       "(validation accuracy %.2f %%): %.2f %%\n",
			       tr.epochs, tr.best_epoch, 100 * tr.val_acc, row.acc_after);
		else
			printf("test accuracy after retraining %g epochs: %.2f %%\n", s->retrain,
			       row.acc_after);
	}
	printf("\n");
	report_squeeze(stdout, &row, 1, REPORT_TEXT);
	cJSON_AddNumberToObject(rec, "removed", row.removed);
	cJSON_AddNumberToObject(rec, "removed_without_compensation", rp);
	cJSON_AddNumberToObject(rec, "removed_with_compensation", rcomp);
	if (test) {
		cJSON_AddNumberToObject(rec, "acc_before_squeeze", acc0);
		cJSON_AddNumberToObject(rec, "acc_squeezed", row.acc_before);
		cJSON_AddNumberToObject(rec, "acc_squeezed_compensated", row.acc_before_comp);
		if (isfinite(row.acc_after))
			cJSON_AddNumberToObject(rec, "acc_retrained", row.acc_after);
	}
	if (s->retrain > 0) {
		cJSON_AddNumberToObject(rec, "retrain_epochs_run", tr.epochs);
		cJSON_AddNumberToObject(rec, "retrain_best_epoch", tr.best_epoch);
		if (!isnan(tr.val_acc))
			cJSON_AddNumberToObject(rec, "retrain_val_accuracy", 100 * tr.val_acc);
	}
	if (c->csv && report_write_file(c->csv, row_csv, &row, e))
		goto out;
	/* hand the kept network back in place of the original */
	if (keep == comp)
		comp = *net;
	else
		plain = *net;
	*net = keep;
	rc = 0;
out:
	free_conds(before, m);
	free_conds(after, m);
	net_free(plain);
	net_free(comp);
	return rc;
}

int cmd_squeeze(int argc, char **argv)
{
	CommonOpts c;
	Squeeze s = {0};
	Dataset *train = NULL, *test = NULL, *rtr = NULL, *rval = NULL;
	Net *net = NULL;
	cJSON *rec = NULL;
	Err e = {{0}};
	int rc = 1;

	cli_common_default(&c);
	squeeze_opts_default(&s.so);
	char help[sizeof help_fmt + 32];
	snprintf(help, sizeof help, help_fmt, s.so.tau);
	int pr = cli_parse(argc, argv, &c, NULL, own, own_opt, &s, help, NULL);
	if (pr)
		return pr == 1 ? 0 : 2;
	if (!c.load) {
		fprintf(stderr, "condnet squeeze: --load MODEL is required\n");
		return 2;
	}
	if (s.until_stable && !(s.retrain > 0)) {
		fprintf(stderr, "condnet squeeze: --until-stable needs --retrain E\n");
		return 2;
	}
	if ((c.sched_given || c.early_stop > 0) && !(s.retrain > 0)) {
		fprintf(stderr, "condnet squeeze: --schedule, --warmup and --early-stop shape the "
				"retraining: give --retrain E\n");
		return 2;
	}
	if (cli_load_data(&c, &train, &test, &e) || !(net = cli_make_net(&c, train, &e)))
		goto fail;
	TrainPlan plan;
	if (cli_plan(&c, train, NULL, s.retrain, &plan, &rtr, &rval, &e) < 0)
		goto fail;
	if (!(rec = cJSON_CreateObject())) {
		err_set(&e, "out of memory");
		goto fail;
	}
	progress_init(&s.prog, "condnet squeeze", c.quiet, 1);
	progress_trap_signals();
	char sh[512];
	printf("%s: squeezing %s (%s), tau %g%s%s\n", cli_data_name(&c), c.load,
	       net_shape_str(net, sh, sizeof sh), s.so.tau, s.so.while_loop ? "" : ", no while loop",
	       s.so.compensate ? ", compensated" : "");
	cJSON_AddStringToObject(rec, "model", c.load);
	cJSON_AddStringToObject(rec, "shape_before", sh);
	cJSON_AddNumberToObject(rec, "tau", s.so.tau);
	cJSON_AddBoolToObject(rec, "while_loop", s.so.while_loop);
	cJSON_AddBoolToObject(rec, "compensate", s.so.compensate);
	cJSON_AddNumberToObject(rec, "retrain_epochs", s.retrain);
	char spec[64], how[256];
	cJSON_AddStringToObject(rec, "retrain_schedule",
				sched_format(&c.train.sched, spec, sizeof spec));
	cJSON_AddNumberToObject(rec, "retrain_warmup", c.train.sched.warmup);
	cJSON_AddNumberToObject(rec, "retrain_early_stop", c.early_stop);
	if (c.sched_given || plan.val)
		printf("retraining: %s\n", cli_plan_str(&plan, NULL, how, sizeof how));
	const Dataset *rtrain = rtr ? rtr : train;
	int st = s.until_stable ? until_stable(&c, &s, net, train, test, &plan, rtrain, rec, &e)
				: squeeze_once(&c, &s, &net, train, test, &plan, rtrain, rec, &e);
	if (st < 0)
		goto fail;
	if (st > 0 || progress_interrupted()) {
		fprintf(stderr, "condnet squeeze: interrupted during retraining; nothing saved\n");
		rc = 130;
		goto out;
	}
	cJSON_AddStringToObject(rec, "shape_after", net_shape_str(net, sh, sizeof sh));
	printf("result: %s\n", sh);
	if (c.save) {
		if (model_save(net, c.save, &e))
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
	dataset_free(train);
	dataset_free(test);
	dataset_free(rtr);
	dataset_free(rval);
	return rc;
}
