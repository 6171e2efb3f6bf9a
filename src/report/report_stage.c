/* report_stage.c - the parts of the paper's stage files. */
#include "report/report_stage.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "report/report.h"
#include "report/report_int.h"
#include "report/report_rec.h"

/* What a result records of its run, rewritten at every write. */
static const char *const run_keys[] = {"reproducible", "kernels", "threads", "parts", "seconds"};

struct cJSON *report_stage_new(Err *e)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		err_set(e, "out of memory for a stage result");
	return o;
}

int report_stage_write(struct cJSON *out, const ReproRecord *mode, double seconds, const char *path,
                       Err *e)
{
	for (size_t i = 0; i < sizeof run_keys / sizeof *run_keys; i++)
		cJSON_DeleteItemFromObjectCaseSensitive(out, run_keys[i]);
	if (json_add(out, "reproducible", cJSON_CreateBool(mode->on), e) ||
	    json_add(out, "kernels", cJSON_CreateString(mode->kernels), e) ||
	    json_add(out, "threads", cJSON_CreateNumber(mode->threads), e) ||
	    json_add(out, "parts", cJSON_CreateNumber(mode->parts), e) ||
	    json_add(out, "seconds", cJSON_CreateNumber(seconds), e))
		return err_prefix(e, "%s", path);
	char *json = cJSON_Print(out);
	if (!json)
		return err_set(e, "%s: out of memory", path);
	int rc = file_write(path, json, strlen(json), FILE_OUT_TEXT, e);
	cJSON_free(json);
	return rc;
}

int report_stage_settings(struct cJSON *out, const char *const *keys, const char *const *values,
                          int n, const char *data, Err *e)
{
	cJSON_DeleteItemFromObjectCaseSensitive(out, "settings");
	cJSON *set = cJSON_CreateObject();
	if (json_add(out, "settings", set, e))
		return -1;
	for (int i = 0; i < n; i++)
		if (json_add(set, keys[i], cJSON_CreateString(values[i]), e))
			return -1;
	if (data && data[0]) {
		cJSON_DeleteItemFromObjectCaseSensitive(out, "data");
		return json_add(out, "data", cJSON_CreateString(data), e);
	}
	return 0;
}

static int is_run_key(const char *k)
{
	for (size_t i = 0; i < sizeof run_keys / sizeof *run_keys; i++)
		if (!strcmp(k, run_keys[i]))
			return 1;
	return 0;
}

/* Moves it, a member of from, into out under its key (cJSON copies a key
 * before it frees the one the item had). */
static int move(cJSON *out, cJSON *from, cJSON *it, Err *e)
{
	cJSON_DetachItemViaPointer(from, it);
	return json_add(out, it->string, it, e);
}

int report_stage_take(struct cJSON *out, struct cJSON *part, Err *e)
{
	cJSON *it = part->child;
	while (it) {
		cJSON *next = it->next;
		if (!is_run_key(it->string) && move(out, part, it, e))
			return -1;
		it = next;
	}
	return 0;
}

/* Moves the parts of rec (freed) into out. */
static int take_record(cJSON *out, cJSON *rec, Err *e)
{
	if (!rec)
		return -1;
	int rc = 0;
	while (rc == 0 && rec->child)
		rc = move(out, rec, rec->child, e);
	cJSON_Delete(rec);
	return rc;
}

int report_stage_alg1(struct cJSON *out, const Alg1 *a, Err *e)
{
	return take_record(out, report_alg1_json(a, e), e);
}

int report_stage_sweep(struct cJSON *out, const Alg2 *a, Err *e)
{
	return take_record(out, report_alg2_json(a, e), e);
}

struct cJSON *report_stage_part(struct cJSON *out, const char *key, Err *e)
{
	cJSON *o = cJSON_GetObjectItemCaseSensitive(out, key);
	if (!o && json_add(out, key, o = cJSON_CreateObject(), e))
		return NULL;
	return o;
}

int report_stage_acc(struct cJSON *out, double acc, Err *e)
{
	return json_add(out, "acc", cJSON_CreateNumber(acc), e);
}

int report_stage_beta(struct cJSON *out, double beta, Err *e)
{
	return json_add(out, "beta", cJSON_CreateNumber(beta), e);
}

int report_stage_net(struct cJSON *out, const Net *net, const LayerCond *lc, Err *e)
{
	cJSON *o = report_net_json(net, lc, e);
	return o ? json_add(out, "net", o, e) : -1;
}

int report_stage_trained(struct cJSON *out, const TrainResult *r, Err *e)
{
	return report_trained_json(out, r, e);
}

int report_stage_fit(struct cJSON *out, const Net *net, const LayerCond *lc, const TrainResult *r,
                     double train_acc, double test_acc, Err *e)
{
	if (report_trained_json(out, r, e) ||
	    json_add(out, "train_acc", cJSON_CreateNumber(train_acc), e) ||
	    json_add(out, "test_acc", cJSON_CreateNumber(test_acc), e))
		return -1;
	return report_stage_net(out, net, lc, e);
}

int report_stage_seconds_note(struct cJSON *out, const char *note, Err *e)
{
	return json_add(out, "seconds_note", cJSON_CreateString(note), e);
}

struct cJSON *report_stage_rows(struct cJSON *out, const char *key, Err *e)
{
	cJSON *a = cJSON_GetObjectItemCaseSensitive(out, key);
	if (!cJSON_IsArray(a)) {
		cJSON_DeleteItemFromObjectCaseSensitive(out, key);
		if (json_add(out, key, a = cJSON_CreateArray(), e))
			return NULL;
	}
	return a;
}

struct cJSON *report_stage_row(struct cJSON *rows, Err *e)
{
	cJSON *o = cJSON_CreateObject();
	return json_push(rows, o, e) ? NULL : o;
}

int report_stage_rounds(struct cJSON *rows, const Alg3Round *r, int n, double tau, Err *e)
{
	for (int k = 0; k < n; k++) {
		if (json_push(rows, report_squeeze_round_json(&r[k], tau, e), e))
			return -1;
	}
	return 0;
}

int report_stage_eta_row(struct cJSON *rows, const Net *net, const LayerCond *lc, double eta,
                         Err *e)
{
	cJSON *o = report_net_json(net, lc, e);
	if (!o || json_push(rows, o, e))
		return -1;
	return json_add(o, "eta", cJSON_CreateNumber(eta), e);
}
