/* report_run.c - the records of the batch commands' runs, and condnet
 * train's epochs as CSV. */
#include "report/report_run.h"

#include <cjson/cJSON.h>
#include <math.h>

#include <stdlib.h>

#include "report/report.h"
#include "report/report_int.h"
#include "report/report_rec.h"

struct cJSON *report_alg1_run_json(const Alg1 *a, const char *data, int interrupted, int stopped,
                                   Err *e)
{
	cJSON *r = report_alg1_json(a, e);
	if (!r)
		return NULL;
	if (stopped) {
		cJSON *st = cJSON_CreateString("stopped");
		if (!st || !cJSON_ReplaceItemInObjectCaseSensitive(r, "status", st)) {
			cJSON_Delete(st);
			return json_nomem(r, e);
		}
	}
	if (json_add(r, "data", cJSON_CreateString(data), e) ||
	    json_add(r, "interrupted", cJSON_CreateBool(interrupted != 0), e))
		return json_nomem(r, e);
	return r;
}

struct cJSON *report_sweep_run_json(const Alg2 *a, const SweepRun *s, Err *e)
{
	cJSON *r = report_alg2_json(a, e);
	if (!r)
		return NULL;
	const TrainResult *f = &s->final_result;
	int bad = json_add(r, "data", cJSON_CreateString(s->data), e) ||
	          (s->interrupted && json_add(r, "interrupted", cJSON_CreateBool(1), e));
	if (!bad && s->final)
		bad =
		    json_add(r, "final_epochs", cJSON_CreateNumber(s->final_epochs), e) ||
		    json_add(r, "final_test_accuracy", cJSON_CreateNumber(s->final_test_acc), e) ||
		    json_add(r, "final_schedule", cJSON_CreateString(s->final_schedule), e) ||
		    json_add(r, "final_warmup", cJSON_CreateNumber(s->final_warmup), e) ||
		    json_add(r, "final_early_stop", cJSON_CreateNumber(s->final_early_stop), e) ||
		    json_add(r, "final_epochs_run", cJSON_CreateNumber(f->epochs), e) ||
		    json_add(r, "final_best_epoch", cJSON_CreateNumber(f->best_epoch), e) ||
		    (!isnan(f->val_acc) &&
		     json_add(r, "final_val_accuracy", cJSON_CreateNumber(100 * f->val_acc), e));
	return bad ? json_nomem(r, e) : r;
}

struct cJSON *report_cond_run_json(const Net *net, const LayerCond *lc, const SqueezeLayerRow *rows,
                                   int removed, const char *model, double test_acc, Err *e)
{
	cJSON *r = report_cond_json(net, lc, e), *sq = NULL;
	if (!r)
		return NULL;
	int bad = rows && (json_add(r, "squeeze", sq = cJSON_CreateObject(), e) ||
	                   json_add(sq, "removed", cJSON_CreateNumber(removed), e) ||
	                   json_add(sq, "layers", report_squeeze_layers_json(rows, net->m, e), e));
	bad = bad || (model && json_add(r, "model", cJSON_CreateString(model), e)) ||
	      (!isnan(test_acc) && json_add(r, "test_accuracy", cJSON_CreateNumber(test_acc), e));
	return bad ? json_nomem(r, e) : r;
}

/* condnet train's epochs: the CSV's rows and the record's "history"; an
 * absent value (not measured) is an empty cell and no key. */
enum { EP_EPOCH, EP_LOSS, EP_TRAIN, EP_TEST, EP_SECS, EP_LR, EP_VLOSS, EP_VACC, EP_NCOL };
static const RecCol epoch_cols[EP_NCOL] = {
    [EP_EPOCH] = {.head = "epoch",
                  .name = "epoch",
                  .key = "epoch",
                  .type = REC_NUM,
                  .flags = REC_C,
                  .fmt = F_6G},
    [EP_LOSS] = {.head = "loss",
                 .name = "loss",
                 .key = "loss",
                 .type = REC_NUM,
                 .flags = REC_C,
                 .fmt = F_6G},
    [EP_TRAIN] = {.head = "train_acc",
                  .name = "train_acc",
                  .key = "train_acc",
                  .type = REC_NUM,
                  .flags = REC_C,
                  .fmt = F_6G},
    [EP_TEST] = {.head = "test_acc",
                 .name = "test_acc",
                 .key = "test_acc",
                 .type = REC_NUM,
                 .flags = REC_C,
                 .fmt = F_6G},
    [EP_SECS] = {.head = "seconds",
                 .name = "seconds",
                 .key = "seconds",
                 .type = REC_NUM,
                 .flags = REC_C,
                 .fmt = F_6G},
    [EP_LR] =
        {.head = "lr", .name = "lr", .key = "lr", .type = REC_NUM, .flags = REC_C, .fmt = F_6G},
    [EP_VLOSS] = {.head = "val_loss",
                  .name = "val_loss",
                  .key = "val_loss",
                  .type = REC_NUM,
                  .flags = REC_C,
                  .fmt = F_6G},
    [EP_VACC] = {.head = "val_acc",
                 .name = "val_acc",
                 .key = "val_acc",
                 .type = REC_NUM,
                 .flags = REC_C,
                 .fmt = F_6G},
};
static const RecKind epoch_kind = {.col = epoch_cols, .ncol = EP_NCOL};

static int epoch_set(const EpochRow *h, int n, RecSet *s, Err *e)
{
	RecVal *v = calloc((size_t)(n > 0 ? n : 1) * EP_NCOL, sizeof *v);
	if (!v)
		return err_set(e, "out of memory for a table of %d epochs", n);
	for (int k = 0; k < n; k++) {
		const TrainEpoch *te = &h[k].te;
		int val = !isnan(te->val_acc);
		double x[EP_NCOL] = {te->at,
		                     te->loss,
		                     100 * te->acc,
		                     isfinite(h[k].test_acc) ? h[k].test_acc : NAN,
		                     te->seconds,
		                     te->lr,
		                     val ? te->val_loss : NAN,
		                     val ? 100 * te->val_acc : NAN};
		for (int c = 0; c < EP_NCOL; c++)
			v[(size_t)k * EP_NCOL + c] = (RecVal){.v = x[c], .absent = isnan(x[c])};
	}
	*s = (RecSet){&epoch_kind, v, n, 0};
	return 0;
}

int report_train_history_csv(FILE *f, const EpochRow *h, int n, Err *e)
{
	RecSet s;
	if (epoch_set(h, n, &s, e))
		return -1;
	int rc = rec_table(f, &s, REPORT_CSV, e);
	free((void *)s.v);
	return rc;
}

struct cJSON *report_train_run_json(const TrainRun *t, Err *e)
{
	char spec[64], shape[512];
	const Net *net = t->net;
	cJSON *r = cJSON_CreateObject(), *h = NULL;
	RecSet s;
	if (!r || epoch_set(t->hist, t->nhist, &s, e))
		return json_nomem(r, e);
	int bad =
	    json_add(r, "command", cJSON_CreateString("train"), e) ||
	    json_add(r, "data", cJSON_CreateString(t->data), e) ||
	    json_add(r, "shape", cJSON_CreateString(net_shape_str(net, shape, sizeof shape)), e) ||
	    json_add(r, "act", cJSON_CreateString(act_name(net->act)), e) ||
	    json_add(r, "act_scale", cJSON_CreateNumber(net->act_a), e) ||
	    json_add(r, "epochs", cJSON_CreateNumber(t->epochs), e) ||
	    json_add(r, "epochs_done", cJSON_CreateNumber(t->epochs_done), e) ||
	    json_add(r, "batch", cJSON_CreateNumber(t->batch), e) ||
	    json_add(r, "lr", cJSON_CreateNumber(t->lr), e) ||
	    json_add(r, "schedule",
	             cJSON_CreateString(sched_format(&net->sched, spec, sizeof spec)), e) ||
	    json_add(r, "warmup", cJSON_CreateNumber(net->sched.warmup), e) ||
	    json_add(r, "resumed", cJSON_CreateBool(t->resumed), e) ||
	    json_add(r, "early_stop", cJSON_CreateNumber(t->early_stop), e) ||
	    json_add(r, "epochs_run", cJSON_CreateNumber(t->result.epochs), e) ||
	    json_add(r, "best_epoch", cJSON_CreateNumber(t->result.best_epoch), e) ||
	    (t->validation_rows &&
	     (json_add(r, "validation_rows", cJSON_CreateNumber(t->validation_rows), e) ||
	      json_add(r, "val_accuracy", cJSON_CreateNumber(100 * t->result.val_acc), e))) ||
	    json_add(r, "seed", cJSON_CreateNumber((double)t->seed), e) ||
	    json_add(r, "interrupted", cJSON_CreateBool(t->interrupted), e) ||
	    !(h = rec_json(&s, e)) || json_add(r, "history", h, e) ||
	    json_add(r, "train_accuracy", cJSON_CreateNumber(t->train_acc), e) ||
	    (isfinite(t->test_acc) &&
	     json_add(r, "test_accuracy", cJSON_CreateNumber(t->test_acc), e));
	free((void *)s.v);
	return bad ? json_nomem(r, e) : r;
}
