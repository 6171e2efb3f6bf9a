/* report_run.c - the records of the batch commands' runs, and condnet
 * train's epochs as CSV. */
#include "report/report_run.h"

#include <cjson/cJSON.h>
#include <math.h>

#include "report/report.h"
#include "report/report_json.h"

struct cJSON *report_alg1_run_json(const Alg1 *a, const char *data, int interrupted, int stopped,
                                   Err *e)
{
	cJSON *r = report_alg1_json(a, e);
	if (r) {
		if (stopped)
			cJSON_ReplaceItemInObjectCaseSensitive(r, "status",
			                                       cJSON_CreateString("stopped"));
		cJSON_AddStringToObject(r, "data", data);
		cJSON_AddBoolToObject(r, "interrupted", interrupted != 0);
	}
	return r;
}

struct cJSON *report_sweep_run_json(const Alg2 *a, const SweepRun *s, Err *e)
{
	cJSON *r = report_alg2_json(a, e);
	if (!r)
		return NULL;
	cJSON_AddStringToObject(r, "data", s->data);
	if (s->interrupted)
		cJSON_AddBoolToObject(r, "interrupted", 1);
	if (!s->final)
		return r;
	const TrainResult *f = &s->final_result;
	cJSON_AddNumberToObject(r, "final_epochs", s->final_epochs);
	cJSON_AddNumberToObject(r, "final_test_accuracy", s->final_test_acc);
	cJSON_AddStringToObject(r, "final_schedule", s->final_schedule);
	cJSON_AddNumberToObject(r, "final_warmup", s->final_warmup);
	cJSON_AddNumberToObject(r, "final_early_stop", s->final_early_stop);
	cJSON_AddNumberToObject(r, "final_epochs_run", f->epochs);
	cJSON_AddNumberToObject(r, "final_best_epoch", f->best_epoch);
	if (!isnan(f->val_acc))
		cJSON_AddNumberToObject(r, "final_val_accuracy", 100 * f->val_acc);
	return r;
}

struct cJSON *report_cond_run_json(const Net *net, const LayerCond *lc, const SqueezeLayerRow *rows,
                                   int removed, const char *model, double test_acc, Err *e)
{
	cJSON *r = report_cond_json(net, lc, e);
	if (!r)
		return NULL;
	if (rows) {
		cJSON *sq = cJSON_AddObjectToObject(r, "squeeze");
		if (!sq)
			return report_json_nomem(r, e);
		cJSON_AddNumberToObject(sq, "removed", removed);
		cJSON_AddItemToObject(sq, "layers", report_squeeze_layers_json(rows, net->m, e));
	}
	if (model)
		cJSON_AddStringToObject(r, "model", model);
	if (!isnan(test_acc))
		cJSON_AddNumberToObject(r, "test_accuracy", test_acc);
	return r;
}

/* The values of an epoch row in the order of its JSON and CSV, NaN where
 * not measured. */
enum { EPOCH_FIELDS = 8 };
static const char *const epoch_key[EPOCH_FIELDS] = {"epoch",   "loss", "train_acc", "test_acc",
                                                    "seconds", "lr",   "val_loss",  "val_acc"};

static void epoch_values(const EpochRow *h, double *v)
{
	const TrainEpoch *te = &h->te;
	int val = !isnan(te->val_acc);
	v[0] = te->at;
	v[1] = te->loss;
	v[2] = 100 * te->acc;
	v[3] = isfinite(h->test_acc) ? h->test_acc : NAN;
	v[4] = te->seconds;
	v[5] = te->lr;
	v[6] = val ? te->val_loss : NAN;
	v[7] = val ? 100 * te->val_acc : NAN;
}

static cJSON *history_json(const EpochRow *h, int n)
{
	cJSON *a = cJSON_CreateArray();
	for (int k = 0; a && k < n; k++) {
		double v[EPOCH_FIELDS];
		cJSON *o = cJSON_CreateObject();
		if (!o)
			break;
		epoch_values(&h[k], v);
		for (int i = 0; i < EPOCH_FIELDS; i++)
			if (!isnan(v[i]))
				cJSON_AddNumberToObject(o, epoch_key[i], v[i]);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

void report_train_history_csv(FILE *f, const EpochRow *h, int n)
{
	for (int i = 0; i < EPOCH_FIELDS; i++)
		fprintf(f, "%s%c", epoch_key[i], i < EPOCH_FIELDS - 1 ? ',' : '\n');
	for (int k = 0; k < n; k++) {
		double v[EPOCH_FIELDS];
		epoch_values(&h[k], v);
		for (int i = 0; i < EPOCH_FIELDS; i++) {
			if (!isnan(v[i]))
				fprintf(f, "%.6g", v[i]);
			fputc(i < EPOCH_FIELDS - 1 ? ',' : '\n', f);
		}
	}
}

struct cJSON *report_train_run_json(const TrainRun *t, Err *e)
{
	char spec[64], shape[512];
	const Net *net = t->net;
	cJSON *r = cJSON_CreateObject();
	if (!r)
		return report_json_nomem(r, e);
	cJSON_AddStringToObject(r, "command", "train");
	cJSON_AddStringToObject(r, "data", t->data);
	cJSON_AddStringToObject(r, "shape", net_shape_str(net, shape, sizeof shape));
	cJSON_AddStringToObject(r, "act", act_name(net->act));
	cJSON_AddNumberToObject(r, "act_scale", net->act_a);
	cJSON_AddNumberToObject(r, "epochs", t->epochs);
	cJSON_AddNumberToObject(r, "epochs_done", t->epochs_done);
	cJSON_AddNumberToObject(r, "batch", t->batch);
	cJSON_AddNumberToObject(r, "lr", t->lr);
	cJSON_AddStringToObject(r, "schedule", sched_format(&net->sched, spec, sizeof spec));
	cJSON_AddNumberToObject(r, "warmup", net->sched.warmup);
	cJSON_AddBoolToObject(r, "resumed", t->resumed);
	cJSON_AddNumberToObject(r, "early_stop", t->early_stop);
	cJSON_AddNumberToObject(r, "epochs_run", t->result.epochs);
	cJSON_AddNumberToObject(r, "best_epoch", t->result.best_epoch);
	if (t->validation_rows) {
		cJSON_AddNumberToObject(r, "validation_rows", t->validation_rows);
		cJSON_AddNumberToObject(r, "val_accuracy", 100 * t->result.val_acc);
	}
	cJSON_AddNumberToObject(r, "seed", (double)t->seed);
	cJSON_AddBoolToObject(r, "interrupted", t->interrupted);
	cJSON *h = history_json(t->hist, t->nhist);
	if (!h)
		return report_json_nomem(r, e);
	cJSON_AddItemToObject(r, "history", h);
	cJSON_AddNumberToObject(r, "train_accuracy", t->train_acc);
	if (isfinite(t->test_acc))
		cJSON_AddNumberToObject(r, "test_accuracy", t->test_acc);
	return r;
}
