/* paper_json.c - networks as stage-result JSON, and reading numbers back. */
#include <math.h>
#include <stdlib.h>

#include "engine/cond.h"
#include "engine/limits.h"
#include "paper/paper_stage.h"

cJSON *paper_json_net(const Net *net, double tau, Err *e)
{
	LayerCond *lc = calloc((size_t)net->m, sizeof *lc);
	if (!lc) {
		err_set(e, "out of memory");
		return NULL;
	}
	if (cond_net_values(net, tau, lc, e) < 0) {
		free(lc);
		return NULL;
	}
	cJSON *o = cJSON_CreateObject();
	cJSON *n = cJSON_AddArrayToObject(o, "n");
	cJSON *k = cJSON_AddArrayToObject(o, "kappa");
	cJSON *pp = cJSON_AddArrayToObject(o, "p");
	cJSON_AddItemToArray(n, cJSON_CreateNumber(net->n[0]));
	for (int i = 0; i < net->m; i++) {
		cJSON_AddItemToArray(n, cJSON_CreateNumber(net->n[i + 1]));
		cJSON_AddItemToArray(k, isfinite(lc[i].kappa) ? cJSON_CreateNumber(lc[i].kappa)
		                                              : cJSON_CreateNull());
		cJSON_AddItemToArray(pp, cJSON_CreateNumber(lc[i].p));
		cond_layer_free(&lc[i]);
	}
	free(lc);
	return o;
}

int paper_json_ints(const cJSON *obj, const char *key, int *out, int max)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!cJSON_IsArray(a))
		return -1;
	int n = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, a)
	{
		/* checked before it is converted: 1e12 is no int */
		double v = cJSON_IsNumber(it) ? it->valuedouble : 0;
		if (n >= max || !(v >= 1 && v <= LIMIT_MAX_WIDTH) || v != floor(v))
			return -1;
		out[n++] = (int)v;
	}
	return n;
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

int paper_json_layers(const cJSON *net)
{
	return cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(net, "n")) - 1;
}

double paper_json_width(const cJSON *net, int i)
{
	return paper_json_at(net, "n", i + 1);
}
