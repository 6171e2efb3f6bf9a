/* cmd_train.c - `condnet train`: train a network and report its accuracy. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/file.h"
#include "base/signals.h"
#include "cli/cli.h"
#include "cli/progress.h"
#include "model/model_io.h"
#include "report/report.h"
#include "report/report_run.h"

static const char help[] =
    "Usage: condnet train [OPTIONS]\n\n"
    "Train a network (fresh from --layers, or --load MODEL or --onnx FILE, a graph\n"
    "network too: fine-tuning) with Adam and report the loss, the accuracies and\n"
    "the learning rate after every epoch. With --early-stop\n"
    "or a plateau schedule the validation split is held out of the training set and\n"
    "its loss and accuracy are reported too. A model saved during a schedule carries\n"
    "it: --load MODEL without --schedule or --warmup continues that run where it\n"
    "stopped, in the batch order of the same --seed.\n\n"
    "  --epochs E           epochs to train, fractional allowed (default 1); with\n"
    "                       --early-stop the most to train\n"
    "  --save-partial       when interrupted (SIGINT, SIGTERM, SIGHUP, SIGQUIT), still\n"
    "                       write --save with the weights so far\n";

enum { OPT_EPOCHS = OPTS_OWN, OPT_SAVE_PARTIAL };

static const struct option own[] = {
    {"epochs", required_argument, NULL, OPT_EPOCHS},
    {"save-partial", no_argument, NULL, OPT_SAVE_PARTIAL},
    OPTS_ONNX_OPTION,
    {0},
};

typedef struct TrainCmd {
	double epochs;
	int save_partial;
	Progress prog;
	const Dataset *test;
	EpochRow *hist; /* one per epoch line */
	int nhist, caphist;
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

/* One line of the per-epoch listing (a HOOK_EPOCH step), kept for the
 * record and the CSV. */
static void epoch_line(const HookStep *s, void *ud)
{
	TrainCmd *t = ud;
	if (s->kind != HOOK_EPOCH)
		return;
	const TrainEpoch *te = s->epoch;
	double test_acc; /* NaN without a test set, or when it cannot be measured */
	net_accuracy(te->net, t->test, NULL, &test_acc, NULL);
	progress_clear(&t->prog);
	printf("epoch %7.2f  loss %.4f  train %6.2f %%  test %6.2f %%", te->at, te->loss,
	       100 * te->acc, test_acc);
	if (!isnan(te->val_acc))
		printf("  val %6.2f %% (loss %.4f)%s", 100 * te->val_acc, te->val_loss,
		       te->bad ? "" : " *");
	printf("  lr %.3g  %7.1f s\n", te->lr, te->seconds);
	fflush(stdout);
	if (t->nhist == t->caphist) {
		int cap = t->caphist ? 2 * t->caphist : 64;
		EpochRow *h = realloc(t->hist, (size_t)cap * sizeof *h);
		if (!h)
			return; /* the listing goes on; the record misses the epoch */
		t->hist = h;
		t->caphist = cap;
	}
	t->hist[t->nhist] = (EpochRow){*te, test_acc};
	t->hist[t->nhist++].te.net = NULL;
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

static int history_csv(FILE *f, const void *ud, Err *e)
{
	const TrainCmd *t = ud;
	return report_train_history_csv(f, t->hist, t->nhist, e);
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

/* What the run trains: the network, the run it goes on with, the plan. */
static void say_start(const CommonOpts *c, const TrainCmd *t, const Net *net, const Dataset *data,
                      const TrainPlan *plan)
{
	char shape[512], how[256];
	printf("%s: %s network, %zu parameters, %d training rows, %g epochs\n", opts_data_name(c),
	       net_shape_str(net, shape, sizeof shape), net->nparam, data->n, t->epochs);
	if (plan->resume) {
		long B = c->train.batch < data->n ? c->train.batch : data->n;
		printf("continuing the run saved in %s after %.2f epochs: ", c->load,
		       (double)net->sched_st.step / (double)((data->n + B - 1) / B));
	}
	if (plan->resume || c->sched_given || plan->val)
		printf("%s\n",
		       setup_plan_str(plan, plan->resume ? &net->sched : NULL, how, sizeof how));
}

/* How the run ended, and the accuracies it leaves. */
static void say_end(const TrainCmd *t, const TrainPlan *plan, int sig, double train_acc,
                    double test_acc)
{
	if (sig)
		printf("interrupted by %s after %.2f of %g epochs\n", signals_name(sig),
		       t->tp.epoch, t->epochs);
	else if (plan->patience > 0)
		early_stop_line(plan, &t->res);
	if (t->test)
		printf("test accuracy: %.2f %%\n", test_acc);
	printf("train accuracy: %.2f %%\n", train_acc);
	if (plan->val)
		printf("validation accuracy: %.2f %%\n", 100 * t->res.val_acc);
}

/* The run's record, written to --json. */
static int write_record(const CommonOpts *c, const TrainCmd *t, const Net *net,
                        const TrainPlan *plan, double train_acc, double test_acc, int sig, Err *e)
{
	TrainRun r = {.data = opts_data_name(c),
	              .net = net,
	              .epochs = t->epochs,
	              .epochs_done = t->tp.epoch,
	              .batch = c->train.batch,
	              .lr = c->train.adam.lr,
	              .resumed = plan->resume,
	              .early_stop = plan->patience,
	              .result = t->res,
	              .validation_rows = plan->val ? plan->val->n : 0,
	              .seed = c->seed,
	              .interrupted = sig != 0,
	              .hist = t->hist,
	              .nhist = t->nhist,
	              .train_acc = train_acc,
	              .test_acc = test_acc};
	return report_write_record(c->json, report_train_run_json(&r, e), e);
}

int cmd_train(int argc, char **argv)
{
	CommonOpts c;
	TrainCmd t = {.epochs = 1};
	Dataset *train = NULL, *test = NULL, *tr = NULL, *val = NULL;
	Net *net = NULL;
	Err e = {{0}};
	int rc = 1;

	opts_default(&c);
	int pr = opts_parse(argc, argv, &c, NULL, own, own_opt, &t, help, NULL);
	if (pr)
		return pr == 1 ? 0 : 2;
	/* the outputs can be written: fail now rather than after training */
	int open = cli_open_any("train", &c, NULL, 0, &train, &test, &net, &e);
	if (open == 1)
		return 0;
	if (open < 0)
		goto fail;
	/* a loaded model that carries a run goes on with it, unless told otherwise */
	int resume = c.load && !c.sched_given &&
	             (net->sched.kind != SCHED_CONSTANT || net->sched_st.step > 0);
	TrainPlan plan;
	if (setup_plan(&c, train, resume ? &net->sched : NULL, t.epochs, &plan, &tr, &val, &e) < 0)
		goto fail;
	plan.resume = resume;
	const Dataset *data = tr ? tr : train;
	t.test = test;
	progress_init(&t.prog, "condnet train", c.quiet, 0);
	progress_trap_signals();

	say_start(&c, &t, net, data, &plan);
	Hook h = {train_progress, epoch_line, train_cancelled, &t};
	int st = train_plan_fit(net, data, &plan, &h, &t.res, &e);
	progress_clear(&t.prog);
	if (st < 0)
		goto fail;
	int sig = progress_interrupted();
	/* what an interrupted training left is measured all the same: the
	 * signal no longer stops the work of this thread (a second one ends the
	 * process) */
	hook_set_thread_stop(NULL, NULL);

	double train_acc, test_acc;
	if (net_accuracy(net, data, NULL, &train_acc, &e) ||
	    net_accuracy(net, test, NULL, &test_acc, &e))
		goto fail;
	say_end(&t, &plan, sig, train_acc, test_acc);

	if (c.save && (!sig || t.save_partial)) {
		if (setup_save_model(net, c.save, train, &e))
			goto fail;
		printf("saved %s%s\n", c.save, sig ? " (partially trained)" : "");
	} else if (c.save)
		printf("not saving %s: training was interrupted (--save-partial saves anyway)\n",
		       c.save);
	if (c.csv && report_write_file(c.csv, history_csv, &t, &e))
		goto fail;
	if (c.json && write_record(&c, &t, net, &plan, train_acc, test_acc, sig, &e))
		goto fail;
	rc = sig ? 130 : 0;
	goto out;
fail:
	rc = cli_fail("train", &e);
out:
	free(t.hist);
	net_free(net);
	dataset_free(train);
	dataset_free(test);
	dataset_free(tr);
	dataset_free(val);
	return rc;
}
