/* alg3_rounds.c - Algorithm 3 followed by retraining ("improve N̂ by
 * retraining, if desired", its last line), once or until nothing changes. */
#include "alg/alg3_squeeze.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cond.h"
#include "engine/train.h"

void alg3_round_free(Alg3Round *r)
{
	if (!r)
		return;
	free(r->n);
	free(r->removed_per_layer);
	free(r->kappa);
	free(r->p);
	r->n = r->removed_per_layer = r->p = NULL;
	r->kappa = NULL;
}

/* The units (neurons, channels), κ and p (at τ) of net into r. */
static int round_measure(Alg3Round *r, const Net *net, double tau, Err *e)
{
	LayerCond *lc;
	int rc = cond_net_new(net, tau, 0, &lc, e);
	for (int i = 0; rc == 0 && i < net->m; i++) {
		r->kappa[i] = isnan(lc[i].kappa) ? INFINITY : lc[i].kappa;
		r->p[i] = lc[i].p;
	}
	cond_net_free(lc, net->m);
	net_units_all(net, r->n);
	return rc;
}

/* An empty round for a network of net's depth. */
static int round_init(Alg3Round *r, const Net *net, Err *e)
{
	memset(r, 0, sizeof *r);
	r->m = net->m;
	r->n = malloc((size_t)(net->m + 1) * sizeof *r->n);
	r->removed_per_layer = calloc((size_t)net->m, sizeof *r->removed_per_layer);
	r->kappa = calloc((size_t)net->m, sizeof *r->kappa);
	r->p = calloc((size_t)net->m, sizeof *r->p);
	if (!r->n || !r->removed_per_layer || !r->kappa || !r->p) {
		alg3_round_free(r);
		return err_set(e, "out of memory");
	}
	r->acc_squeezed = r->acc_retrained = NAN;
	r->trained.val_loss = r->trained.val_acc = NAN;
	return 0;
}

int alg3_squeeze_retrain(Net *net, const Alg3Opts *o, const Dataset *sample, const TrainPlan *plan,
                         const Dataset *train, const Dataset *eval, const Hook *h, Alg3Round *out,
                         Err *e)
{
	if (round_init(out, net, e) < 0)
		return -1;
	Alg3 *a = alg3_new(net, o, sample, e);
	int rc = a ? alg3_run(a, h, e) : -1;
	if (rc != 0) {
		alg3_free(a);
		alg3_round_free(out);
		return rc;
	}
	out->removed = a->total;
	memcpy(out->removed_per_layer, a->removed, (size_t)net->m * sizeof *a->removed);
	alg3_free(a);
	rc = net_accuracy(net, eval, NULL, &out->acc_squeezed, e);
	if (rc == 0 && plan) {
		rc = train_plan_fit(net, train, plan, h, &out->trained, e);
		if (rc == 0)
			rc = net_accuracy(net, eval, NULL, &out->acc_retrained, e);
	}
	if (rc >= 0) { /* a stopped retraining is measured as it stands */
		int mr = round_measure(out, net, o->tau, e);
		rc = mr < 0 ? -1 : rc ? rc : mr;
	}
	if (rc < 0)
		alg3_round_free(out);
	return rc;
}

int alg3_until_stable(Net *net, const Alg3Opts *o, const Dataset *sample, const TrainPlan *plan,
                      const Dataset *train, const Dataset *eval, int max_rounds, const Hook *h,
                      Alg3Round *rounds, int *nrounds, int *stable, Err *e)
{
	*nrounds = 0;
	*stable = 0;
	if (round_init(&rounds[0], net, e) < 0)
		return -1;
	int rc = round_measure(&rounds[0], net, o->tau, e);
	if (rc == 0)
		rc = net_accuracy(net, eval, NULL, &rounds[0].acc_retrained, e);
	if (rc != 0) {
		alg3_round_free(&rounds[0]);
		return rc;
	}
	*nrounds = 1;
	for (int k = 1; k <= max_rounds; k++) {
		/* the squeeze first: a round that removes nothing is not retrained */
		Alg3Round *r = &rounds[*nrounds];
		if ((rc = alg3_squeeze_retrain(net, o, sample, NULL, train, eval, h, r, e)) != 0) {
			if (rc > 0)
				alg3_round_free(r);
			return rc;
		}
		if (r->removed == 0) {
			alg3_round_free(r);
			hook_note(h, "round %d: nothing to remove", k);
			*stable = 1;
			return 0;
		}
		(*nrounds)++;
		if (plan) {
			rc = train_plan_fit(net, train, plan, h, &r->trained, e);
			if (rc == 0)
				rc = round_measure(r, net, o->tau, e);
			if (rc == 0)
				rc = net_accuracy(net, eval, NULL, &r->acc_retrained, e);
			if (rc != 0)
				return rc;
		}
		char shape[512];
		double maxk = 0;
		for (int i = 0; i < r->m; i++)
			maxk = r->kappa[i] > maxk ? r->kappa[i] : maxk;
		hook_note(h, "round %d: removed %d, %s, test accuracy %.2f %%, max κ %.4g%s", k,
		          r->removed, net_shape_str(net, shape, sizeof shape), r->acc_retrained,
		          maxk, plan ? " after retraining" : "");
	}
	return 0;
}
