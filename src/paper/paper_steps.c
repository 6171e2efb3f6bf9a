/* paper_steps.c - the steps both paper reproductions are made of:
 * Algorithm 1 and 2 runs recorded as JSON, fresh networks trained fully,
 * and squeezes over a list of τ. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/alg2_scale.h"
#include "paper/paper_stage.h"

int paper_alg1(Paper *p, const int *hidden, int nh, double tau, double eta, int round,
		    int max_iter, const char *save, cJSON *out, Err *e)
{
	Net *shape = paper_net(p, hidden, nh, p->o.seed, e);
	if (!shape)
		return -1;
	Alg1Opts ao;
	alg1_opts_default(&ao);
	ao.tau = tau;
	ao.eta = p->o.quick ? 1 : eta;
	ao.round = round;
	ao.max_iter = p->o.quick ? 3 : max_iter;
	ao.seed = p->o.seed;
	ao.train = p->topt;
	Alg1 *a = alg1_new(shape, p->train, &ao, e);
	net_free(shape);
	if (!a)
		return -1;
	a->cb = p->o.cb;
	a->cb_ud = p->o.cb_ud;
	int st;
	while ((st = alg1_step(a, e)) == ALG1_RUNNING) {
		const Alg1Record *r = &a->rec[a->nrec - 1];
		paper_say(p, "  iteration %d: sum n = %ld, max kappa = %.1f", r->iter, r->sum_n,
			  r->max_kappa);
	}
	if (st < 0 || st == ALG1_STOPPED) {
		alg1_free(a);
		return st < 0 ? -1 : err_set(e, "interrupted");
	}
	cJSON_AddNumberToObject(out, "tau", tau);
	cJSON_AddNumberToObject(out, "eta", ao.eta);
	cJSON_AddNumberToObject(out, "round", round);
	cJSON_AddStringToObject(out, "status", alg1_status_name(a->status));
	cJSON_AddStringToObject(out, "reason", a->reason);
	cJSON_AddItemToObject(out, "records", paper_json_alg1(a));
	int rc = save ? paper_save(p, a->net, save, e) : 0;
	alg1_free(a);
	return rc;
}

/* Hidden widths of the last record of an Algorithm 1 result. */
static int alg1_widths(const cJSON *res, int *w, int max)
{
	const cJSON *recs = cJSON_GetObjectItemCaseSensitive(res, "records");
	int n = cJSON_GetArraySize(recs);
	if (n < 1)
		return -1;
	int k = paper_json_ints(cJSON_GetArrayItem(recs, n - 1), "n", w, max);
	return k < 2 ? -1 : k - 1; /* drop the output layer */
}

int paper_sweep(Paper *p, const char *betas, int q, double eta, cJSON *out, Err *e)
{
	cJSON *a1 = paper_need(p, "alg1", e);
	int w[64];
	int nh = a1 ? alg1_widths(a1, w, 64) : -1;
	if (nh < 0)
		return a1 ? err_set(e, "the alg1 result has no widths") : -1;
	Net *base = paper_net(p, w, nh, p->o.seed, e);
	if (!base)
		return -1;
	Alg2Opts o;
	alg2_opts_default(&o);
	if (alg2_parse_betas(betas, &o, e) < 0) {
		net_free(base);
		return -1;
	}
	o.extend = 1;
	o.q = p->o.quick ? 2 : q;
	o.eta = p->o.quick ? 1 : eta;
	o.seed = p->o.seed;
	o.train = p->topt;
	Alg2 *a = alg2_new(base, p->tr, p->val, &o, e);
	net_free(base);
	if (!a)
		return -1;
	a->cb = p->o.cb;
	a->cb_ud = p->o.cb_ud;
	int rc;
	while ((rc = alg2_step(a, e)) == 0)
		;
	if (rc < 0) {
		alg2_free(a);
		return -1;
	}
	cJSON *rows = cJSON_AddArrayToObject(out, "betas");
	for (int i = 0; i < a->nb; i++) {
		cJSON *r = cJSON_CreateObject();
		cJSON_AddNumberToObject(r, "beta", a->b[i].beta);
		cJSON_AddItemToObject(r, "n", cJSON_CreateIntArray(a->b[i].widths + 1, a->base->m));
		cJSON_AddNumberToObject(r, "err_tr", 100 * a->b[i].err_tr);
		cJSON_AddNumberToObject(r, "err_v", 100 * a->b[i].err_v);
		cJSON_AddNumberToObject(r, "score", 100 * a->b[i].score);
		cJSON_AddItemToArray(rows, r);
	}
	int pick = alg2_pick(a);
	cJSON_AddNumberToObject(out, "pick", pick >= 0 ? a->b[pick].beta : NAN);
	cJSON_AddNumberToObject(out, "q", o.q);
	cJSON_AddNumberToObject(out, "eta", o.eta);
	alg2_free(a);
	return 0;
}

/* Hidden widths of the β row equal to beta (or of the pick when beta is NaN). */
int paper_sweep_widths(const Paper *p, double beta, int *w, Err *e)
{
	cJSON *a2 = paper_need(p, "alg2", e);
	if (!a2)
		return -1;
	if (isnan(beta))
		beta = paper_json_num(a2, "pick");
	const cJSON *r;
	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(a2, "betas"))
	{
		if (fabs(paper_json_num(r, "beta") - beta) < 1e-9) {
			int k = paper_json_ints(r, "n", w, 64);
			return k < 2 ? err_set(e, "alg2 result: bad widths") : k - 1;
		}
	}
	return err_set(e, "alg2 result has no beta %g", beta);
}

int paper_train_fresh(Paper *p, const int *w, int nh, int max_epochs, cJSON *out, const char *save,
		      Err *e)
{
	Net *net = paper_net(p, w, nh, rng_derive(p->o.seed, 7), e);
	int ep = 0;
	if (!net || paper_train_full(p, net, p->train, max_epochs, &ep, e) < 0) {
		net_free(net);
		return -1;
	}
	cJSON_AddNumberToObject(out, "epochs", ep);
	cJSON_AddNumberToObject(out, "train_acc", paper_acc(net, p->train));
	cJSON_AddNumberToObject(out, "test_acc", paper_acc(net, p->test));
	cJSON *shape = paper_json_net(net, 25, e);
	int rc = shape ? 0 : -1;
	if (shape)
		cJSON_AddItemToObject(out, "net", shape);
	if (rc == 0 && save)
		rc = paper_save(p, net, save, e);
	net_free(net);
	return rc;
}

int paper_squeeze_list(Paper *p, const Net *net, const double *taus, int nt, int epochs,
			int until_full, const char *best_file, cJSON *rows, Err *e)
{
	double best = -1;
	for (int i = 0; i < nt; i++) {
		Net *sq = NULL;
		paper_say(p, "  tau %g", taus[i]);
		cJSON *row = paper_squeeze_row(p, net, taus[i], epochs, until_full, &sq, e);
		if (!row)
			return -1;
		cJSON_AddItemToArray(rows, row);
		double acc = paper_json_num(row, "acc_after");
		int rc = 0;
		if (best_file && acc > best) {
			best = acc;
			rc = paper_save(p, sq, best_file, e);
		}
		net_free(sq);
		if (rc < 0)
			return -1;
	}
	return 0;
}


int paper_final(Paper *p, int max_epochs, cJSON *out, Err *e)
{
	int w[64];
	int nh = paper_sweep_widths(p, NAN, w, e);
	if (nh < 0)
		return -1;
	cJSON_AddNumberToObject(out, "beta", paper_json_num(paper_result(p, "alg2"), "pick"));
	return paper_train_fresh(p, w, nh, max_epochs, out, "final.model", e);
}

int paper_verify(Paper *p, int max_epochs, cJSON *out, Err *e)
{
	cJSON *a2 = paper_need(p, "alg2", e);
	if (!a2)
		return -1;
	cJSON *rows = cJSON_AddArrayToObject(out, "betas");
	const cJSON *r;
	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(a2, "betas"))
	{
		int w[64];
		double beta = paper_json_num(r, "beta");
		int nh = paper_sweep_widths(p, beta, w, e);
		cJSON *row = cJSON_CreateObject();
		cJSON_AddItemToArray(rows, row);
		cJSON_AddNumberToObject(row, "beta", beta);
		paper_say(p, "  beta %.2f", beta);
		if (nh < 0 || paper_train_fresh(p, w, nh, max_epochs, row, NULL, e) < 0)
			return -1;
	}
	return 0;
}
