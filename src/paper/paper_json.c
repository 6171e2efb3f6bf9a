/* paper_json.c - reading numbers back from stage results (report_stage.h
 * writes them). */
#include <math.h>
#include <stdlib.h>

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
