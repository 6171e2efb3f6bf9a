/* cmd_train.c - `condnet train`: train a network and report its accuracy. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/file.h"
#include "base/signals.h"
#include "cli/cli.h"
#include "cli/progress.h"
#include "model/model_io.h"
#include "report/report.h"

static const char help[] =
    "Usage: condnet train [OPTIONS]\n\n"
    "Train a network (fresh from --layers, or --load MODEL) with Adam and report the\n"
    "loss, the accuracies and the learning rate after every epoch. With --early-stop\n"
    "or a plateau schedule the validation split is held out of the training set and\n"
    "its loss and accuracy are reported too. A model saved during a schedule carries\n"
    "it: --load MODEL without --schedule or --warmup continues that run where it\n"
    "stopped, in the batch order of the same --seed.\n\n"
    "  --epochs E           epochs to train, fractional allowed (default 1); with\n"
    "                       --early-stop the most to train\n"
    "  --save-partial       when interrupted (SIGINT, SIGTERM, SIGHUP, SIGQUIT), still\n"
    "                       write --save with the weights so far\n";

enum { OPT_EPOCHS = CLI_OPT_OWN, OPT_SAVE_PARTIAL };

static const struct option own[] = {
    {"epochs", required_argument, NULL, OPT_EPOCHS},
    {"save-partial", no_argument, NULL, OPT_SAVE_PARTIAL},
    {0},
};

typedef struct TrainCmd {
	double epochs;
	int save_partial;
	Progress prog;
	const Dataset *test;
	cJSON *hist;      /* one object per epoch line */
	TrainProgress tp; /* the last report */
	TrainResult res;
} TrainCmd;

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	TrainCmd *t = ud;
	if (opt == OPT_EPOCHS)
		return limit_parse(LIM_EPOCHS, "--epochs", arg, &t->epochs, e);
	t->save_partial = 1;
	return 0;
}

/* One line of the per-epoch listing (a HOOK_EPOCH step), and its JSON twin. */
static void epoch_line(const HookStep *s, void *ud)
{
	TrainCmd *t = ud;
	if (s->kind != HOOK_EPOCH)
		return;
	const TrainEpoch *te = s->epoch;
	double test_err = t->test ? net_error(te->net, t->test, NULL) : NAN;
	progress_clear(&t->prog);
	printf("epoch %7.2f  loss %.4f  train %6.2f %%  test %6.2f %%", te->at, te->loss,
	       100 * te->acc, 100 * (1 - test_err));
	if (!isnan(te->val_acc))
		printf("  val %6.2f %% (loss %.4f)%s", 100 * te->val_acc, te->val_loss,
		       te->bad ? "" : " *");
	printf("  lr %.3g  %7.1f s\n", te->lr, te->seconds);
	fflush(stdout);
	cJSON *o = cJSON_CreateObject();
	if (o) {
		cJSON_AddNumberToObject(o, "epoch", te->at);
		cJSON_AddNumberToObject(o, "loss", te->loss);
		cJSON_AddNumberToObject(o, "train_acc", 100 * te->acc);
		if (isfinite(test_err))
			cJSON_AddNumberToObject(o, "test_acc", 100 * (1 - test_err));
		cJSON_AddNumberToObject(o, "seconds", te->seconds);
		cJSON_AddNumberToObject(o, "lr", te->lr);
		if (!isnan(te->val_acc)) {
			cJSON_AddNumberToObject(o, "val_loss", te->val_loss);
			cJSON_AddNumberToObject(o, "val_acc", 100 * te->val_acc);
		}
		cJSON_AddItemToArray(t->hist, o);
	}
}

static int train_progress(const TrainProgress *tp, void *ud)
{
	TrainCmd *t = ud;
	t->tp = *tp;
	return progress_train_cb(tp, &t->prog);
}

static int train_cancelled(void *ud)
{
	return progress_interrupted() != 0;
}

/* The per-epoch listing as CSV, one row per line printed; empty test_acc,
 * val_loss and val_acc when there is no test or validation set. */
static void history_csv(FILE *f, const void *ud)
{
	static const char *const key[] = {"epoch",   "loss", "train_acc", "test_acc",
	                                  "seconds", "lr",   "val_loss",  "val_acc"};
	const int n = sizeof key / sizeof *key;
	const cJSON *o;
	fputs("epoch,loss,train_acc,test_acc,seconds,lr,val_loss,val_acc\n", f);
	cJSON_ArrayForEach(o, (const cJSON *)ud)
	{
		for (int i = 0; i < n; i++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key[i]);
			if (cJSON_IsNumber(v))
				fprintf(f, "%.6g", v->valuedouble);
			fputc(i < n - 1 ? ',' : '\n', f);
		}
	}
}

static cJSON *record(const CommonOpts *c, const TrainCmd *t, const TrainPlan *plan, const Net *net,
                     double test_acc, double train_acc, int stopped)
{
	char spec[64];
	char shape[512];
	cJSON *r = cJSON_CreateObject();
	if (!r)
		return NULL;
	cJSON_AddStringToObject(r, "command", "train");
	cJSON_AddStringToObject(r, "data", cli_data_name(c));
	cJSON_AddStringToObject(r, "shape", net_shape_str(net, shape, sizeof shape));
	cJSON_AddStringToObject(r, "act", act_name(net->act));
	cJSON_AddNumberToObject(r, "act_scale", net->act_a);
	cJSON_AddNumberToObject(r, "epochs", t->epochs);
	cJSON_AddNumberToObject(r, "epochs_done", t->tp.epoch);
	cJSON_AddNumberToObject(r, "batch", c->train.batch);
	cJSON_AddNumberToObject(r, "lr", c->train.adam.lr);
	cJSON_AddStringToObject(r, "schedule", sched_format(&net->sched, spec, sizeof spec));
	cJSON_AddNumberToObject(r, "warmup", net->sched.warmup);
	cJSON_AddBoolToObject(r, "resumed", plan->resume);
	cJSON_AddNumberToObject(r, "early_stop", plan->patience);
	cJSON_AddNumberToObject(r, "epochs_run", t->res.epochs);
	cJSON_AddNumberToObject(r, "best_epoch", t->res.best_epoch);
	if (plan->val) {
		cJSON_AddNumberToObject(r, "validation_rows", plan->val->n);
		cJSON_AddNumberToObject(r, "val_accuracy", 100 * t->res.val_acc);
	}
	cJSON_AddNumberToObject(r, "seed", (double)c->seed);
	cJSON_AddBoolToObject(r, "interrupted", stopped);
	cJSON_AddItemReferenceToObject(r, "history", t->hist);
	cJSON_AddNumberToObject(r, "train_accuracy", train_acc);
	if (isfinite(test_acc))
		cJSON_AddNumberToObject(r, "test_accuracy", test_acc);
	return r;
}

/* What early stopping did, in a line. */
static void early_stop_line(const TrainPlan *plan, const TrainResult *r)
{
	if (r->stopped_early)
		printf(
		    "early stopping: no better validation accuracy for %d epochs after epoch %d; "
		    "kept epoch %d of %d (validation %.2f %%)\n",
		    plan->patience, r->best_epoch, r->best_epoch, r->epochs, 100 * r->val_acc);
	else
		printf("early stopping: ran the cap of %d epochs; kept epoch %d (validation %.2f "
		       "%%)\n",
		       r->epochs, r->best_epoch, 100 * r->val_acc);
}

int cmd_train(int argc, char **argv)
{
	CommonOpts c;
	TrainCmd t = {.epochs = 1};
	Dataset *train = NULL, *test = NULL, *tr = NULL, *val = NULL;
	Net *net = NULL;
	Err e = {{0}};
	int rc = 1;

	cli_common_default(&c);
	int pr = cli_parse(argc, argv, &c, NULL, own, own_opt, &t, help, NULL);
	if (pr)
		return pr == 1 ? 0 : 2;
	/* the outputs can be written: fail now rather than after training */
	if (cli_check_outputs(&c, NULL, 0, &e))
		goto fail;
	if (cli_load_data(&c, &train, &test, &e) || !(net = cli_make_net(&c, train, &e)))
		goto fail;
	if (!(t.hist = cJSON_CreateArray())) {
		err_set(&e, "out of memory");
		goto fail;
	}
	/* a loaded model that carries a run goes on with it, unless told otherwise */
	int resume = c.load && !c.sched_given &&
	             (net->sched.kind != SCHED_CONSTANT || net->sched_st.step > 0);
	TrainPlan plan;
	if (cli_plan(&c, train, resume ? &net->sched : NULL, t.epochs, &plan, &tr, &val, &e) < 0)
		goto fail;
	plan.resume = resume;
	const Dataset *data = tr ? tr : train;
	t.test = test;
	progress_init(&t.prog, "condnet train", c.quiet, 0);
	progress_trap_signals();

	char shape[512], how[256];
	printf("%s: %s network, %zu parameters, %d training rows, %g epochs\n", cli_data_name(&c),
	       net_shape_str(net, shape, sizeof shape), net->nparam, data->n, t.epochs);
	if (resume) {
		long B = c.train.batch < data->n ? c.train.batch : data->n;
		printf("continuing the run saved in %s after %.2f epochs: ", c.load,
		       (double)net->sched_st.step / (double)((data->n + B - 1) / B));
	}
	if (resume || c.sched_given || plan.val)
		printf("%s\n", cli_plan_str(&plan, resume ? &net->sched : NULL, how, sizeof how));
	Hook h = {train_progress, epoch_line, train_cancelled, &t};
	int st = train_plan_fit(net, data, &plan, &h, &t.res, &e);
	progress_clear(&t.prog);
	if (st < 0)
		goto fail;
	int sig = progress_interrupted();

	double train_acc = 100 * (1 - net_error(net, data, NULL));
	double test_acc = test ? 100 * (1 - net_error(net, test, NULL)) : NAN;
	if (sig)
		printf("interrupted by %s after %.2f of %g epochs\n", signals_name(sig), t.tp.epoch,
		       t.epochs);
	else if (plan.patience > 0)
		early_stop_line(&plan, &t.res);
	if (test)
		printf("test accuracy: %.2f %%\n", test_acc);
	printf("train accuracy: %.2f %%\n", train_acc);
	if (plan.val)
		printf("validation accuracy: %.2f %%\n", 100 * t.res.val_acc);

	if (c.save && (!sig || t.save_partial)) {
		if (cli_save_model(net, c.save, train, &e))
			goto fail;
		printf("saved %s%s\n", c.save, sig ? " (partially trained)" : "");
	} else if (c.save)
		printf("not saving %s: training was interrupted (--save-partial saves anyway)\n",
		       c.save);
	if (c.csv && report_write_file(c.csv, history_csv, t.hist, &e))
		goto fail;
	if (c.json) {
		cJSON *r = record(&c, &t, &plan, net, test_acc, train_acc, sig != 0);
		int bad = report_write_json(c.json, r, &e);
		cJSON_Delete(r);
		if (bad)
			goto fail;
	}
	rc = sig ? 130 : 0;
	goto out;
fail:
	rc = cli_fail("train", &e);
out:
	cJSON_Delete(t.hist);
	net_free(net);
	dataset_free(train);
	dataset_free(test);
	dataset_free(tr);
	dataset_free(val);
	return rc;
}
