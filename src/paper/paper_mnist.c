/* paper_mnist.c - the paper's MNIST experiments (Section 5.1, 5.3, 5.5) on
 * 200 Haar-wavelet features: Algorithm 1 from 12×300 (Table 1), Algorithm 2
 * (Table 2), full training of every β (Table 3), squeezing (Tables 6-9) and
 * the sensitivity to η and τ (Tables 14-17). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alg/alg2_scale.h"
#include "paper/paper_stage.h"
#include "report/report_stage.h"

/* "Fully trained": until 100 % training accuracy, at most this many epochs. */
#define FULL_EPOCHS(p) ((p)->o.quick ? 2 : 30)

static int st_alg1(Paper *p, cJSON *out, Err *e)
{
	int h[12];
	for (int i = 0; i < 12; i++)
		h[i] = paper_scaled(p, 300);
	return paper_alg1(p, h, 12, 25, 1, p->o.quick ? 1 : 5, 100, "alg1.model", out, e);
}

static int st_alg2(Paper *p, cJSON *out, Err *e)
{
	return paper_sweep(p, p->o.quick ? "1.0:1.4:0.2" : "1.0:2.4:0.2", 5, 1, out, e);
}

static int st_final(Paper *p, cJSON *out, Err *e)
{
	return paper_final(p, FULL_EPOCHS(p), out, e);
}

static int st_verify(Paper *p, cJSON *out, Err *e)
{
	return paper_verify(p, FULL_EPOCHS(p), out, e);
}

static int st_squeeze(Paper *p, cJSON *out, Err *e)
{
	static const double taus[] = {22, 20, 18};
	return paper_squeeze_final(p, taus, 3, FULL_EPOCHS(p), 1, "squeeze-best.model", out, e);
}

static int st_add20(Paper *p, cJSON *out, Err *e)
{
	static const double taus[] = {30, 25};
	Net *net = paper_need(p, "squeeze", e) ? paper_load(p, "squeeze-best.model", e) : NULL;
	if (!net)
		return -1;
	Rng r;
	rng_seed(&r, rng_derive(p->o.seed, 20));
	int rc = net->m > 8 ? 0 : err_set(e, "the squeezed model has fewer than 8 hidden layers");
	if (rc == 0)
		rc = net_add_neurons(net, 4, 20, &r, e);
	if (rc == 0)
		rc = net_add_neurons(net, 8, 20, &r, e);
	TrainResult tr;
	if (rc == 0)
		rc = paper_fit(p, net, FULL_EPOCHS(p), 1, &tr, e);
	if (rc == 0)
		rc = report_stage_trained(out, &tr, e);
	if (rc == 0)
		rc = paper_stage_acc(p, net, out, e);
	LayerCond *lc = rc == 0 ? paper_cond(net, 20, e) : NULL;
	if (rc == 0)
		rc = lc ? report_stage_net(out, net, lc, e) : -1;
	cond_net_free(lc, net->m);
	if (rc == 0)
		rc = paper_squeeze_list(p, net, taus, 2, FULL_EPOCHS(p), 1, NULL, out, e);
	net_free(net);
	return rc;
}

/* The oversized network is trained once and each τ's row is kept as it is
 * done (paper_partial_*): the whole stage takes hours. */
static int st_over(Paper *p, cJSON *out, Err *e)
{
	static const double taus[] = {500, 200, 100, 50, 40, 35, 30, 25, 20};
	cJSON *part = paper_partial_load(p, "over", e);
	if (!part)
		return -1;
	Net *net = NULL;
	int rc = 0;
	/* An earlier run that kept no time: its network and rows are not in the sum. */
	int untimed_net = 0, untimed_rows = 0;
	if (!cJSON_HasObjectItem(part, "seconds")) {
		untimed_net = cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(part, "epochs"));
		untimed_rows = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(part, "rows"));
	}
	if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(part, "epochs"))) {
		Err ignored;
		net = paper_load(p, "over-base.model", &ignored);
		if (!net) /* same seed and threads: the same network again */
			paper_say(p, "over: over-base.model is missing; training it again");
	}
	if (!net) {
		int h[12];
		TrainResult tr;
		for (int i = 0; i < 12; i++)
			h[i] = paper_scaled(p, 600);
		net = paper_net(p, h, 12, rng_derive(p->o.seed, 600), e);
		untimed_net = 0;
		rc = net ? paper_fit(p, net, FULL_EPOCHS(p), 1, &tr, e) : -1;
		if (rc == 0)
			rc = paper_save(p, net, "over-base.model", e);
		if (rc == 0 && !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(part, "rows"))) {
			rc = report_stage_trained(part, &tr, e);
			if (rc == 0)
				rc = paper_stage_acc(p, net, part, e);
			if (rc == 0 && !report_stage_rows(part, "rows", e))
				rc = -1;
			if (rc == 0)
				rc = paper_partial_save(p, "over", part, e);
		}
	}
	cJSON *rows = cJSON_GetObjectItemCaseSensitive(part, "rows");
	for (int i = 0; rc == 0 && i < 9; i++) {
		int done = 0;
		const cJSON *r;
		cJSON_ArrayForEach(r, rows) done |= paper_json_num(r, "tau") == taus[i];
		if (done)
			continue;
		paper_say(p, "  tau %g", taus[i]);
		rc = paper_squeeze_row(p, net, taus[i], FULL_EPOCHS(p), 1, rows, NULL, NULL, e);
		if (rc == 0)
			rc = paper_partial_save(p, "over", part, e);
	}
	if (rc == 0)
		rc = report_stage_take(out, part, e);
	if (rc == 0) {
		if (untimed_net || untimed_rows) {
			char note[128];
			snprintf(note, sizeof note,
			         "without %s%d rows of an earlier run that kept no time",
			         untimed_net ? "the network and " : "", untimed_rows);
			rc = report_stage_seconds_note(out, note, e);
		}
	}
	cJSON_Delete(part);
	net_free(net);
	return rc;
}

static int st_eta(Paper *p, cJSON *out, Err *e)
{
	static const double etas[] = {0.5, 1, 2, 5, 10};
	static const int widths[] = {600, 100};
	for (int s = 0; s < 2; s++) {
		int h[9];
		for (int i = 0; i < 9; i++)
			h[i] = paper_scaled(p, widths[s]);
		Net *net = paper_net(p, h, 9, rng_derive(p->o.seed, 900 + s), e);
		if (!net)
			return -1;
		char key[16];
		snprintf(key, sizeof key, "%d", widths[s]);
		cJSON *rows = report_stage_rows(out, key, e);
		double done = 0;
		for (int k = 0; k < (p->o.quick ? 2 : 5); k++) {
			int rc = rows ? paper_train(p, net, p->train, etas[k] - done, e) : -1;
			LayerCond *lc = rc == 0 ? paper_cond(net, 30, e) : NULL;
			if (rc == 0)
				rc = lc ? report_stage_eta_row(rows, net, lc, etas[k], e) : -1;
			cond_net_free(lc, net->m);
			if (rc != 0) {
				net_free(net);
				return rc;
			}
			done = etas[k];
		}
		net_free(net);
	}
	return 0;
}

static int st_tau(Paper *p, cJSON *out, Err *e)
{
	int h[9], u[9];
	for (int i = 0; i < 9; i++) {
		h[i] = paper_scaled(p, 600 - 60 * i);
		u[i] = paper_scaled(p, 600);
	}
	cJSON *a = report_stage_part(out, "tapered", e), *b = report_stage_part(out, "uniform", e);
	if (!a || !b)
		return -1;
	int rc = paper_alg1(p, h, 9, 30, 1, 1, 100, NULL, a, e);
	return rc ? rc : paper_alg1(p, u, 9, 30, 1, 1, 100, NULL, b, e);
}

const Stage paper_mnist_stages[] = {
    {"alg1", "Table 1", st_alg1, ""},
    {"alg2", "Table 2, Figure 3", st_alg2, "alg1"},
    {"final", "full training of the pick", st_final, "alg2"},
    {"verify", "Table 3", st_verify, "alg2"},
    {"squeeze", "Tables 6 and 7", st_squeeze, "final"},
    {"add20", "Table 8", st_add20, "squeeze"},
    {"eta", "Tables 14 and 15", st_eta, ""},
    {"tau", "Tables 16 and 17", st_tau, ""},
    {"over", "Table 9", st_over, ""},
    {NULL, NULL, NULL, NULL},
};
