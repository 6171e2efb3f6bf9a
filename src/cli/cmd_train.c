/* cmd_train.c - `condnet train`: train a network and report its accuracy. */
#include <cjson/cJSON.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/file.h"
#include "cli/cli.h"
#include "engine/model_io.h"
#include "cli/progress.h"
#include "engine/report.h"

static const char help[] =
	"Usage: condnet train [OPTIONS]\n\n"
	"Train a network (fresh from --layers, or --load MODEL) with Adam and report the\n"
	"loss and the accuracies after every epoch.\n\n"
	"  --epochs E           epochs to train, fractional allowed (default 1)\n"
	"  --save-partial       on SIGINT or SIGTERM, still write --save with the weights so far\n";

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
	const Net *net;
	const Dataset *test;
	cJSON *hist;     /* one object per epoch line */
	double last;     /* epoch of the last line printed */
	TrainProgress tp; /* the last report */
} TrainCmd;

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	TrainCmd *t = ud;
	if (opt == OPT_EPOCHS)
		return cli_double("--epochs", arg, 0, 1, 1e6, &t->epochs, e);
	t->save_partial = 1;
	return 0;
}

/* One line of the per-epoch listing, and its JSON twin. */
static void epoch_line(TrainCmd *t, const TrainProgress *tp)
{
	double test_err = t->test ? net_error(t->net, t->test, NULL) : NAN;
	progress_clear(&t->prog);
	printf("epoch %7.2f  loss %.4f  train %6.2f %%  test %6.2f %%  %7.1f s\n", tp->epoch,
	       tp->loss, 100 * tp->acc, 100 * (1 - test_err), tp->seconds);
	fflush(stdout);
	cJSON *o = cJSON_CreateObject();
	if (o) {
		cJSON_AddNumberToObject(o, "epoch", tp->epoch);
		cJSON_AddNumberToObject(o, "loss", tp->loss);
		cJSON_AddNumberToObject(o, "train_acc", 100 * tp->acc);
		if (isfinite(test_err))
			cJSON_AddNumberToObject(o, "test_acc", 100 * (1 - test_err));
		cJSON_AddNumberToObject(o, "seconds", tp->seconds);
		cJSON_AddItemToArray(t->hist, o);
	}
	t->last = tp->epoch;
}

static int train_cb(const TrainProgress *tp, void *ud)
{
	TrainCmd *t = ud;
	t->tp = *tp;
	int stop = progress_train_cb(tp, &t->prog);
	if (tp->epoch_end && !stop)
		epoch_line(t, tp);
	return stop;
}

/* The per-epoch listing as CSV, one row per line printed; an empty test_acc
 * when there is no test set. */
static void history_csv(FILE *f, const void *ud)
{
	static const char *const key[] = {"epoch", "loss", "train_acc", "test_acc", "seconds"};
	const cJSON *o;
	fputs("epoch,loss,train_acc,test_acc,seconds\n", f);
	cJSON_ArrayForEach(o, (const cJSON *)ud)
	{
		for (int i = 0; i < 5; i++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key[i]);
			if (cJSON_IsNumber(v))
				fprintf(f, "%.6g", v->valuedouble);
			fputc(i < 4 ? ',' : '\n', f);
		}
	}
}

static cJSON *record(const CommonOpts *c, const TrainCmd *t, const Net *net, double test_acc,
		     double train_acc, int stopped)
{
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
	cJSON_AddNumberToObject(r, "seed", (double)c->seed);
	cJSON_AddBoolToObject(r, "interrupted", stopped);
	cJSON_AddItemReferenceToObject(r, "history", t->hist);
	cJSON_AddNumberToObject(r, "train_accuracy", train_acc);
	if (isfinite(test_acc))
		cJSON_AddNumberToObject(r, "test_accuracy", test_acc);
	return r;
}

int cmd_train(int argc, char **argv)
{
	CommonOpts c;
	TrainCmd t = {.epochs = 1};
	Dataset *train = NULL, *test = NULL;
	Net *net = NULL;
	Err e = {{0}};
	int rc = 1;

	cli_common_default(&c);
	int pr = cli_parse(argc, argv, &c, NULL, own, own_opt, &t, help, NULL);
	if (pr)
		return pr == 1 ? 0 : 2;
	/* the outputs can be written: fail now rather than after training */
	if ((c.save && file_check_writable(c.save, 0, &e)) ||
	    (c.json && file_check_writable(c.json, FILE_OUT_TEXT, &e)) ||
	    (c.csv && file_check_writable(c.csv, FILE_OUT_TEXT, &e)))
		goto fail;
	if (cli_load_data(&c, &train, &test, &e) || !(net = cli_make_net(&c, train, &e)))
		goto fail;
	if (!(t.hist = cJSON_CreateArray())) {
		err_set(&e, "out of memory");
		goto fail;
	}
	t.net = net;
	t.test = test;
	progress_init(&t.prog, "condnet train", c.quiet, 0);
	progress_trap_signals();

	char shape[512];
	printf("%s: %s network, %zu parameters, %d training rows, %g epochs\n", cli_data_name(&c),
	       net_shape_str(net, shape, sizeof shape), net->nparam, train->n, t.epochs);
	int st = train_epochs(net, train, &c.train, t.epochs, train_cb, &t, &e);
	progress_clear(&t.prog);
	if (st < 0)
		goto fail;
	int sig = progress_interrupted();
	if (!sig && t.tp.epoch > t.last + 1e-9)
		epoch_line(&t, &t.tp); /* the last, partial epoch */

	double train_acc = 100 * (1 - net_error(net, train, NULL));
	double test_acc = test ? 100 * (1 - net_error(net, test, NULL)) : NAN;
	if (sig)
		printf("interrupted by %s after %.2f of %g epochs\n", sig == SIGINT ? "SIGINT" : "SIGTERM",
		       t.tp.epoch, t.epochs);
	if (test)
		printf("test accuracy: %.2f %%\n", test_acc);
	printf("train accuracy: %.2f %%\n", train_acc);

	if (c.save && (!sig || t.save_partial)) {
		if (model_save(net, c.save, &e))
			goto fail;
		printf("saved %s%s\n", c.save, sig ? " (partially trained)" : "");
	} else if (c.save)
		printf("not saving %s: training was interrupted (--save-partial saves anyway)\n", c.save);
	if (c.csv && report_write_file(c.csv, history_csv, t.hist, &e))
		goto fail;
	if (c.json) {
		cJSON *r = record(&c, &t, net, test_acc, train_acc, sig != 0);
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
	return rc;
}
