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
	cJSON *set = cJSON_AddObjectToObject(out, "settings");
	for (int i = 0; set && i < n; i++)
		if (!cJSON_AddStringToObject(set, keys[i], values[i]))
			set = NULL;
	if (data && data[0]) {
		cJSON_DeleteItemFromObjectCaseSensitive(out, "data");
		if (!cJSON_AddStringToObject(out, "data", data))
			set = NULL;
	}
	return set ? 0 : err_set(e, "out of memory for a stage result");
}

static int is_run_key(const char *k)
{
	for (size_t i = 0; i < sizeof run_keys / sizeof *run_keys; i++)
		if (!strcmp(k, run_keys[i]))
			return 1;
	return 0;
}

void report_stage_take(struct cJSON *out, struct cJSON *part)
{
	cJSON *it = part->child;
	while (it) {
		cJSON *next = it->next;
		if (!is_run_key(it->string)) {
			cJSON_DetachItemViaPointer(part, it);
			cJSON_AddItemToObject(out, it->string, it);
		}
		it = next;
	}
}

/* Moves the parts of rec (freed) into out. */
static int take_record(cJSON *out, cJSON *rec)
{
	if (!rec)
		return -1;
	cJSON *it;
	while ((it = rec->child)) {
		cJSON_DetachItemViaPointer(rec, it);
		cJSON_AddItemToObject(out, it->string, it);
	}
	cJSON_Delete(rec);
	return 0;
}

int report_stage_alg1(struct cJSON *out, const Alg1 *a, Err *e)
{
	return take_record(out, report_alg1_json(a, e));
}

int report_stage_sweep(struct cJSON *out, const Alg2 *a, Err *e)
{
	return take_record(out, report_alg2_json(a, e));
}

struct cJSON *report_stage_part(struct cJSON *out, const char *key, Err *e)
{
	cJSON *o = cJSON_GetObjectItemCaseSensitive(out, key);
	if (!o && !(o = cJSON_AddObjectToObject(out, key)))
		err_set(e, "out of memory for a stage result");
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

int report_stage_net(struct cJSON *out, const Net *net, double tau, Err *e)
{
	cJSON *o = report_net_json(net, tau, e);
	return o ? json_add(out, "net", o, e) : -1;
}

int report_stage_trained(struct cJSON *out, const TrainResult *r, Err *e)
{
	return report_trained_json(out, r, e);
}

int report_stage_fit(struct cJSON *out, const Net *net, const TrainResult *r, double train_acc,
                     double test_acc, double tau, Err *e)
{
	if (report_trained_json(out, r, e) ||
	    json_add(out, "train_acc", cJSON_CreateNumber(train_acc), e) ||
	    json_add(out, "test_acc", cJSON_CreateNumber(test_acc), e))
		return -1;
	return report_stage_net(out, net, tau, e);
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
		if (!(a = cJSON_AddArrayToObject(out, key)))
			err_set(e, "out of memory for a stage result");
	}
	return a;
}

struct cJSON *report_stage_row(struct cJSON *rows, Err *e)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		err_set(e, "out of memory for a stage result");
	else
		cJSON_AddItemToArray(rows, o);
	return o;
}

int report_stage_rounds(struct cJSON *rows, const Alg3Round *r, int n, double tau, Err *e)
{
	for (int k = 0; k < n; k++) {
		cJSON *o = report_squeeze_round_json(&r[k], tau, e);
		if (!o)
			return -1;
		cJSON_AddItemToArray(rows, o);
	}
	return 0;
}

int report_stage_eta_row(struct cJSON *rows, const Net *net, double tau, double eta, Err *e)
{
	cJSON *o = report_net_json(net, tau, e);
	if (!o)
		return -1;
	cJSON_AddItemToArray(rows, o);
	return json_add(o, "eta", cJSON_CreateNumber(eta), e);
}
