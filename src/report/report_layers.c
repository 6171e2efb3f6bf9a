/* report_layers.c - the layers of a network with convolutions in tables
 * and records. */
#include "report/report_layers.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/report_table.h"

const char *report_layer_kind(const Net *net, int i, char *buf, size_t len)
{
	if (i >= net->nconv) {
		snprintf(buf, len, "dense");
		return buf;
	}
	const ConvShape *c = &net->conv[i];
	char pad[24] = "";
	if (c->pad)
		snprintf(pad, sizeof pad, " pad %d", c->pad);
	snprintf(buf, len, "conv %d@%d×%d%s%s → %d×%d×%d", c->c_out, c->k, c->k, pad,
	         c->pool ? ", pool" : "", c->c_out, c->h_out, c->w_out);
	return buf;
}

void report_cond_layers(FILE *f, const Net *net, const LayerCond *lc, ReportFormat fmt)
{
	Table t;
	if (report_table_init(&t, net->m + 1, 7))
		return;
	double tau = net->m > 0 ? lc[0].tau : 0;
	const char *csv[] = {"layer", "kind", "n", "kappa", "p", "rank_svd", "rank_qr"};
	const char *txt[] = {"Layer", "kind", "n_i", "κ(Ŵ)", "", "rank (SVD)", "rank (QR)"};
	for (int c = 0; c < 7; c++)
		report_table_set(&t, 0, c, "%s", fmt == REPORT_CSV ? csv[c] : txt[c]);
	if (fmt != REPORT_CSV)
		report_table_set(&t, 0, 4, "p (τ=%g)", tau);
	for (int i = 0; i < net->m; i++) {
		char kind[REPORT_CELL];
		report_table_set(&t, i + 1, 0, "%d", lc[i].layer);
		report_table_set(&t, i + 1, 1, "%s", report_layer_kind(net, i, kind, sizeof kind));
		report_set_count(&t, i + 1, 2, lc[i].cols, fmt);
		if (lc[i].conv) {
			const char *none = fmt == REPORT_CSV ? "" : "-";
			report_table_set(&t, i + 1, 3, "%s", REPORT_KAPPA_NOT_YET);
			for (int c = 4; c < 7; c++)
				report_table_set(&t, i + 1, c, "%s", none);
			continue;
		}
		report_set_kappa_tau(&t, i + 1, 3, lc[i].kappa, tau, fmt);
		report_table_set(&t, i + 1, 4, "%d", lc[i].p);
		report_table_set(&t, i + 1, 5, "%d", lc[i].rank_svd);
		if (lc[i].rank_qr >= 0)
			report_table_set(&t, i + 1, 6, "%d", lc[i].rank_qr);
		else
			report_table_set(&t, i + 1, 6, "-");
	}
	report_table_print(f, &t, fmt);
	free(t.cell);
}

void report_layer_json(cJSON *o, const Net *net, int i)
{
	if (i >= net->nconv) {
		cJSON_AddStringToObject(o, "kind", "dense");
		return;
	}
	const ConvShape *c = &net->conv[i];
	cJSON_ReplaceItemInObject(o, "p", cJSON_CreateNull());
	cJSON_ReplaceItemInObject(o, "rank_svd", cJSON_CreateNull());
	cJSON_AddStringToObject(o, "kind", "conv");
	cJSON_AddNumberToObject(o, "channels", c->c_out);
	cJSON_AddNumberToObject(o, "kernel", c->k);
	cJSON_AddNumberToObject(o, "padding", c->pad);
	cJSON_AddBoolToObject(o, "pool", c->pool);
	int maps[3] = {c->c_out, c->h_out, c->w_out};
	cJSON_AddItemToObject(o, "maps", cJSON_CreateIntArray(maps, 3));
	cJSON_AddStringToObject(o, "kappa_note", REPORT_KAPPA_NOT_YET);
}

void report_layers_json_p(cJSON *root, const Net *net)
{
	cJSON *p = cJSON_GetObjectItem(root, "p");
	for (int i = 0; p && i < net->nconv && i < cJSON_GetArraySize(p); i++)
		cJSON_ReplaceItemInArray(p, i, cJSON_CreateNull());
}
