/* train_plan.c - training runs with their stopping rules. */
#include "engine/train_plan.h"

#include <math.h>

#include "base/rng.h"

void train_plan_default(TrainPlan *p, const TrainOpts *opts, double epochs)
{
	p->opts = *opts;
	p->epochs = epochs;
	p->until_perfect = 0;
	p->derive_seed = 0;
}

uint64_t train_plan_seed(uint64_t seed, const Net *net)
{
	return rng_derive(seed, (uint64_t)net_hidden_total(net) * 131 + (uint64_t)net->adam_t);
}

static int train_once(Net *net, const Dataset *d, const TrainPlan *p, double epochs,
		      const Hook *h, Err *e)
{
	TrainOpts o = p->opts;
	if (p->derive_seed)
		o.seed = train_plan_seed(p->opts.seed, net);
	return train_epochs(net, d, &o, epochs, hook_train, (void *)h, e);
}

int train_plan_run(Net *net, const Dataset *d, const TrainPlan *p, const Hook *h,
		   int *epochs_run, Err *e)
{
	if (!(p->epochs >= 0) || p->epochs > 1e6)
		return err_set(e, "epochs %g: expected a number from 0 to 1e6", p->epochs);
	int rc = 0, ep = 0;
	if (!p->until_perfect) {
		rc = train_once(net, d, p, p->epochs, h, e);
		ep = (int)ceil(p->epochs);
	} else {
		while (ep < p->epochs) {
			if ((rc = train_once(net, d, p, 1.0, h, e)) != 0)
				break;
			ep++;
			if (net_error(net, d, NULL) == 0.0)
				break;
		}
	}
	if (epochs_run)
		*epochs_run = ep;
	if (rc == 0)
		hook_step(h, (HookStep){.kind = HOOK_TRAINED}, "trained %d epoch%s", ep,
			  ep == 1 ? "" : "s");
	return rc;
}

Net *train_plan_fresh(int m, const int *widths, ActKind act, float act_a, uint64_t seed,
		      const Dataset *d, const TrainPlan *p, const Hook *h, int *epochs_run,
		      Err *e)
{
	Net *net = net_fresh(m, widths, act, act_a, seed, e);
	if (!net)
		return NULL;
	int rc = train_plan_run(net, d, p, h, epochs_run, e);
	if (rc != 0) {
		if (rc > 0)
			err_set(e, "interrupted during training");
		net_free(net);
		return NULL;
	}
	return net;
}
