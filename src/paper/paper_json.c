/* paper_json.c - reading numbers back from stage results (report_stage.h
 * writes them). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/limits.h"
#include "paper/paper_stage.h"

int paper_json_ints(const cJSON *obj, const char *key, int *out, int max, Err *e)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
	int n = 0;
	const cJSON *it;
	if (!cJSON_IsArray(a))
		goto bad;
	cJSON_ArrayForEach(it, a)
	{
		/* checked before it is converted: 1e12 is no int */
		double v = cJSON_IsNumber(it) ? it->valuedouble : 0;
		if (n >= max || !(v >= 1 && v <= LIMIT_MAX_WIDTH) || v != floor(v))
			goto bad;
		out[n++] = (int)v;
	}
	return n;
bad:
	return err_set(e, "field \"%s\": expected an array of at most %d widths from 1 to %d", key,
	               max, LIMIT_MAX_WIDTH);
}

double paper_json_num(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

double paper_json_at(const cJSON *obj, const char *key, int i)
{
	const cJSON *v = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(obj, key), i);
	if (cJSON_IsNull(v))
		return INFINITY;
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

const cJSON *paper_json_row_net(const cJSON *row)
{
	const cJSON *net = cJSON_GetObjectItemCaseSensitive(row, "net");
	return net ? net : row;
}

int paper_json_layers(const cJSON *net)
{
	return cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(net, "n")) - 1;
}

double paper_json_width(const cJSON *net, int i)
{
	return paper_json_at(net, "n", i + 1);
}

void paper_stage_record(const cJSON *obj, ReproRecord *r)
{
	memset(r, 0, sizeof *r);
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(obj, "kernels");
	double parts = paper_json_num(obj, "parts"), threads = paper_json_num(obj, "threads");
	/* numbers out of range are no record (and are never converted) */
	if (!cJSON_IsString(k) || !(parts >= 0 && parts <= 1024))
		return;
	snprintf(r->kernels, sizeof r->kernels, "%s", k->valuestring);
	r->on = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(obj, "reproducible"));
	r->parts = (int)parts;
	r->threads = threads >= 0 && threads <= 1024 ? (int)threads : 0;
}
