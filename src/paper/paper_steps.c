/* paper_steps.c - the steps both paper reproductions are made of: the
 * paper's training, Algorithm 1 and 2 runs recorded as JSON, fresh networks
 * trained fully, and squeezes over a list of τ. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alg/alg2_scale.h"
#include "alg/alg3_squeeze.h"
#include "engine/cond.h"
#include "engine/limits.h"
#include "model/model_io.h"
#include "paper/paper_stage.h"
#include "report/report.h"
#include "report/report_stage.h"

Net *paper_net(const Paper *p, const int *hidden, int nh, uint64_t seed, Err *e)
{
	int w[64];
	if (nh + 2 > 64) {
		err_set(e, "too many layers (%d)", nh);
		return NULL;
	}
	w[0] = p->train->d;
	memcpy(w + 1, hidden, (size_t)nh * sizeof *w);
	w[nh + 1] = p->train->k;
	return net_fresh(nh + 1, w, ACT_ERF, p->o.act_a, seed, e);
}

TrainPlan paper_plan(const Paper *p, double epochs, int until_full)
{
	TrainPlan plan;
	train_plan_default(&plan, &p->topt, epochs);
	plan.opts.seed = p->o.seed;
	plan.derive_seed = 1;
	plan.until_perfect = until_full;
	return plan;
}

void paper_converge_schedule(const Paper *p, LrSchedule *s)
{
	sched_default(s);
	s->kind = SCHED_COSINE;
	s->period = PAPER_CONVERGE_CAP(p);
}

TrainPlan paper_full_plan(const Paper *p, double epochs, int until_full, const Dataset **d)
{
	if (!p->o.converge) {
		*d = p->train;
		return paper_plan(p, epochs, until_full);
	}
	TrainPlan plan = paper_plan(p, PAPER_CONVERGE_CAP(p), 0);
	paper_converge_schedule(p, &plan.opts.sched);
	plan.val = p->val;
	plan.patience = PAPER_CONVERGE_PATIENCE(p);
	*d = p->tr;
	return plan;
}

int paper_train(const Paper *p, Net *net, const Dataset *d, double epochs, Err *e)
{
	TrainPlan plan = paper_plan(p, epochs, 0);
	int rc = train_plan_run(net, d, &plan, p->o.hook, NULL, e);
	return rc == 1 ? err_stop(e, "interrupted") : rc;
}

int paper_fit(const Paper *p, Net *net, double epochs, int until_full, TrainResult *r, Err *e)
{
	const Dataset *d;
	TrainPlan plan = paper_full_plan(p, epochs, until_full, &d);
	int rc = train_plan_fit(net, d, &plan, p->o.hook, r, e);
	return rc == 1 ? err_stop(e, "interrupted") : rc;
}

const Dataset *paper_fit_data(const Paper *p)
{
	return p->o.converge ? p->tr : p->train;
}

int paper_save(const Paper *p, const Net *net, const char *file, Err *e)
{
	char path[1024];
	paper_path(p, file, path, sizeof path);
	const Prep *prep = p->train ? p->train->prep : NULL;
	if (net->prep || !prep || prep->d != net->n[0])
		return model_save(net, path, e);
	/* the model records how the data's inputs were made */
	Net *copy = net_clone(net, e);
	int rc = copy && net_set_prep(copy, prep, e) == 0 ? model_save(copy, path, e) : -1;
	net_free(copy);
	return rc;
}

LayerCond *paper_cond(const Net *net, double tau, Err *e)
{
	LayerCond *lc;
	return cond_net_new(net, tau, 0, &lc, e) == 0 ? lc : NULL;
}

int paper_stage_acc(const Paper *p, const Net *net, cJSON *out, Err *e)
{
	double acc;
	int rc = net_accuracy(net, p->test, NULL, &acc, e);
	return rc == 0 ? report_stage_acc(out, acc, e) : rc;
}

Net *paper_load(const Paper *p, const char *file, Err *e)
{
	char path[1024];
	return model_load(paper_path(p, file, path, sizeof path), e);
}

int paper_squeeze_row(const Paper *p, const Net *net, double tau, int epochs, int until_full,
                      cJSON *rows, Net **keep, double *score, Err *e)
{
	Net *sq = net_clone(net, e);
	if (!sq)
		return err_set(e, "out of memory");
	Alg3Opts so;
	alg3_opts_default(&so);
	so.tau = tau;
	const Dataset *d;
	TrainPlan plan = paper_full_plan(p, epochs, until_full, &d);
	Alg3Round r;
	int rc = alg3_squeeze_retrain(sq, &so, NULL, &plan, d, p->test, p->o.hook, &r, e);
	if (rc != 0) {
		net_free(sq);
		return rc > 0 ? err_stop(e, "interrupted") : -1;
	}
	rc = report_stage_rounds(rows, &r, 1, tau, e);
	if (score) /* the best by test accuracy as the paper chose it; by validation when
	            * trained to convergence */
		*score = p->o.converge ? 100 * r.trained.val_acc : r.acc_retrained;
	alg3_round_free(&r);
	if (rc == 0 && keep) {
		*keep = sq;
		sq = NULL;
	}
	net_free(sq);
	return rc;
}

int paper_squeeze_list(Paper *p, const Net *net, const double *taus, int nt, int epochs,
                       int until_full, const char *best_file, cJSON *out, Err *e)
{
	cJSON *rows = report_stage_rows(out, "rows", e);
	if (!rows)
		return -1;
	double best = -1;
	for (int i = 0; i < nt; i++) {
		Net *sq = NULL;
		double acc;
		paper_say(p, "  tau %g", taus[i]);
		int rc = paper_squeeze_row(p, net, taus[i], epochs, until_full, rows, &sq, &acc, e);
		if (rc != 0)
			return rc;
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

int paper_squeeze_final(Paper *p, const double *taus, int nt, int epochs, int until_full,
                        const char *best_file, cJSON *out, Err *e)
{
	/* final.model is the one final's result was made with (its settings
	 * checked): never a model without its result */
	Net *net = paper_need(p, "final", e) ? paper_load(p, "final.model", e) : NULL;
	if (!net)
		return -1;
	int rc = paper_stage_acc(p, net, out, e);
	if (rc == 0)
		rc = paper_squeeze_list(p, net, taus, nt, epochs, until_full, best_file, out, e);
	net_free(net);
	return rc;
}

int paper_squeeze_rounds(Paper *p, Net *net, double tau, int epochs, cJSON *iterations, Err *e)
{
	enum { MAX_ROUNDS = 20 };
	Alg3Opts so;
	alg3_opts_default(&so);
	so.tau = tau;
	const Dataset *d;
	TrainPlan plan = paper_full_plan(p, epochs, 0, &d);
	Alg3Round r[MAX_ROUNDS + 1];
	int nr = 0, stable = 0;
	int rc = alg3_until_stable(net, &so, NULL, &plan, d, p->test, MAX_ROUNDS, p->o.hook, r, &nr,
	                           &stable, e);
	if (rc > 0)
		err_set(e, "interrupted");
	if (rc == 0)
		rc = report_stage_rounds(iterations, r, nr, tau, e);
	for (int k = 0; k < nr; k++)
		alg3_round_free(&r[k]);
	net_free(net);
	return rc;
}

/* Prints one line per Algorithm-1 iteration as it finishes. */
static void alg1_line(const HookStep *s, void *ud)
{
	const Paper *p = ud;
	if (s->kind != HOOK_ALG1_ITER)
		return;
	const Alg1Record *r = &s->alg1->rec[s->alg1->nrec - 1];
	paper_say(p, "  iteration %d: sum n = %ld, max kappa = %.1f", r->iter, r->sum_n,
	          r->max_kappa);
}

static int hook_progress(const TrainProgress *tp, void *ud)
{
	const Paper *p = ud;
	return hook_train(tp, (void *)p->o.hook);
}

int paper_alg1(Paper *p, const int *hidden, int nh, double tau, double eta, int round, int max_iter,
               const char *save, cJSON *out, Err *e)
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
	Hook h = {hook_progress, alg1_line, NULL, p};
	const Hook *outer = p->o.hook;
	int st = alg1_run(a, &h, e);
	if (st == 0 && hook_cancelled(outer))
		st = 1;
	if (st > 0)
		err_set(e, "interrupted");
	if (st != 0) {
		alg1_free(a);
		return st;
	}
	if (report_stage_alg1(out, a, e) < 0) {
		alg1_free(a);
		return -1;
	}
	int rc = save ? paper_save(p, a->net, save, e) : 0;
	alg1_free(a);
	return rc;
}

/* Hidden widths of the last record of an Algorithm 1 result. */
static int alg1_widths(const cJSON *res, int *w, int max)
{
	const cJSON *recs = cJSON_GetObjectItemCaseSensitive(res, "history");
	int n = cJSON_GetArraySize(recs), all[66];
	if (n < 1)
		return -1;
	int k = paper_json_ints(cJSON_GetArrayItem(recs, n - 1), "n", all, 66, NULL);
	if (k < 3 || k - 2 > max)
		return -1;
	memcpy(w, all + 1, (size_t)(k - 2) * sizeof *w); /* drop the inputs and the outputs */
	return k - 2;
}

int paper_sweep(Paper *p, const char *betas, int q, double eta, cJSON *out, Err *e)
{
	cJSON *a1 = paper_need(p, "alg1", e);
	int w[64];
	int nh = a1 ? alg1_widths(a1, w, 64) : -1;
	if (nh < 0)
		return a1 ? err_set(e,
		                    "%s/alg1.json: the last iteration's \"n\" is not a list of "
		                    "at most 66 widths from 1 to %d",
		                    p->o.out, LIMIT_MAX_WIDTH)
		          : -1;
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
	int rc = alg2_run(a, p->o.hook, e);
	if (rc != 0) {
		if (rc > 0)
			err_set(e, "interrupted");
		alg2_free(a);
		return rc;
	}
	rc = report_stage_sweep(out, a, e);
	alg2_free(a);
	return rc;
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
			int all[66];
			int k = paper_json_ints(r, "n", all, 66, e);
			if (k < 0)
				return err_prefix(e, "%s/alg2.json, beta %g", p->o.out, beta);
			if (k < 3)
				return err_set(
				    e,
				    "%s/alg2.json: the \"n\" of beta %g is not a list of "
				    "3 to 66 widths from 1 to %d",
				    p->o.out, beta, LIMIT_MAX_WIDTH);
			memcpy(w, all + 1, (size_t)(k - 2) * sizeof *w);
			return k - 2;
		}
	}
	return err_set(e, "alg2 result has no beta %g", beta);
}

int paper_train_fresh(Paper *p, const int *w, int nh, int max_epochs, cJSON *out, const char *save,
                      Err *e)
{
	int widths[66];
	if (nh + 2 > 66)
		return err_set(e, "too many layers (%d)", nh);
	widths[0] = p->train->d;
	memcpy(widths + 1, w, (size_t)nh * sizeof *w);
	widths[nh + 1] = p->train->k;
	TrainResult r;
	Net *net = net_fresh(nh + 1, widths, ACT_ERF, p->o.act_a, rng_derive(p->o.seed, 7), e);
	if (!net)
		return -1;
	double train_acc, test_acc;
	int rc = paper_fit(p, net, max_epochs, 1, &r, e);
	if (rc == 0)
		rc = net_accuracy(net, paper_fit_data(p), NULL, &train_acc, e);
	if (rc == 0)
		rc = net_accuracy(net, p->test, NULL, &test_acc, e);
	LayerCond *lc = rc == 0 ? paper_cond(net, COND_TAU_DEFAULT, e) : NULL;
	if (rc == 0)
		rc = lc ? report_stage_fit(out, net, lc, &r, train_acc, test_acc, e) : -1;
	cond_net_free(lc, net->m);
	if (rc == 0 && save)
		rc = paper_save(p, net, save, e);
	net_free(net);
	return rc;
}

int paper_final(Paper *p, int max_epochs, cJSON *out, Err *e)
{
	int w[64];
	int nh = paper_sweep_widths(p, NAN, w, e);
	if (nh < 0)
		return -1;
	if (report_stage_beta(out, paper_json_num(paper_result(p, "alg2"), "pick"), e))
		return -1;
	return paper_train_fresh(p, w, nh, max_epochs, out, "final.model", e);
}

int paper_verify(Paper *p, int max_epochs, cJSON *out, Err *e)
{
	cJSON *a2 = paper_need(p, "alg2", e);
	if (!a2)
		return -1;
	cJSON *rows = report_stage_rows(out, "betas", e);
	if (!rows)
		return -1;
	const cJSON *r;
	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(a2, "betas"))
	{
		int w[64];
		double beta = paper_json_num(r, "beta");
		int nh = paper_sweep_widths(p, beta, w, e);
		cJSON *row = report_stage_row(rows, e);
		if (!row || report_stage_beta(row, beta, e))
			return -1;
		paper_say(p, "  beta %.2f", beta);
		int rc = nh < 0 ? -1 : paper_train_fresh(p, w, nh, max_epochs, row, NULL, e);
		if (rc != 0)
			return rc;
	}
	return 0;
}
