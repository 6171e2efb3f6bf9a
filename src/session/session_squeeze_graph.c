/* session_squeeze_graph.c - the session's squeeze pass on a graph network:
 * Algorithm 3 one channel group at a time (alg/alg3_groups.h), in the
 * graph's order, each decision a squeeze action naming its group. */
#include <math.h>
#include <stdlib.h>

#include "engine/cond.h"
#include "engine/graph_edit.h"
#include "engine/train_pass.h"
#include "session/session.h"
#include "session/session_int.h"

void session_gsq_stop(Session *s)
{
	graph_groups_free(s->gg);
	free(s->gdrop);
	s->gg = NULL;
	s->gdrop = NULL;
	s->gprop = (GroupDecision){0};
}

/* The groups of the session's network, and room for their units' marks. */
static int groups_now(Session *s, Err *e)
{
	session_gsq_stop(s);
	if (!(s->gg = graph_groups(s->net->graph, e)))
		return -1;
	if (!(s->gdrop = calloc((size_t)(s->gg->nunits ? s->gg->nunits : 1), 1))) {
		session_gsq_stop(s);
		return err_set(e, "out of memory for the squeeze's decisions");
	}
	return 0;
}

/* Group q's decision (from 1) on the network as it is, at the session's τ,
 * into s->gprop and s->gdrop. */
static int decide(Session *s, int q, Err *e)
{
	GroupDecision *dec = calloc((size_t)s->gg->n, sizeof *dec);
	unsigned char *only = calloc((size_t)s->gg->n, 1);
	if (!dec || !only) {
		free(dec);
		free(only);
		return err_set(e, "out of memory for the squeeze's decisions");
	}
	only[q - 1] = 1;
	GroupSqueezeOpts o = {.tau = s->tau, .criterion = ALG3_QR, .only = only};
	int rc = alg3_groups_decide(s->net, s->gg, &o, dec, s->gdrop, e);
	if (rc == 0)
		s->gprop = dec[q - 1];
	free(dec);
	free(only);
	return rc;
}

/* The first group from q on whose units may go and whose stack's κ is over
 * τ, proposed; none (gprop.group 0) when no group is. */
static int propose_from(Session *s, int q, Err *e)
{
	for (; q <= s->gg->n; q++) {
		if (decide(s, q, e))
			return -1;
		if (!s->gprop.skip && cond_over(s->gprop.kappa, s->tau))
			return 0;
	}
	s->gprop = (GroupDecision){0};
	return 0;
}

int session_gsq_start(Session *s, Err *e)
{
	if (groups_now(s, e) || propose_from(s, 1, e)) {
		session_gsq_stop(s);
		return -1;
	}
	if (!s->gprop.group)
		session_gsq_stop(s); /* nothing to propose: the pass is over */
	return 0;
}

const GroupDecision *session_group_proposal(const Session *s)
{
	return s->gg && s->gprop.group ? &s->gprop : NULL;
}

const ChannelGroups *session_groups(const Session *s)
{
	return s->gg;
}

/* The network net with the units of drop removed, its readers refitted on
 * the session's training set first when comp. */
static Net *squeezed(const Session *s, const Net *net, int comp, Err *e)
{
	Net *work = net_clone(net, e), *out = NULL;
	if (work && (!comp ||
	             !alg3_groups_compensate(work, s->gg, s->gdrop, s->train, ALG3_SAMPLE_ROWS, e)))
		out = graph_net_drop(work, s->gg, s->gdrop, e);
	net_free(work);
	return out;
}

int session_group_whatif(const Session *s, int comp, double *acc, Err *e)
{
	*acc = NAN;
	if (!session_group_proposal(s) || !s->test)
		return 0;
	Net *out = squeezed(s, s->net, comp, e);
	if (!out)
		return -1;
	int rc = net_accuracy(out, s->test, NULL, acc, e);
	net_free(out);
	return rc;
}

/* The decision's change of the network: the units of gdrop removed, the
 * network before it on the undo stack. */
static int apply(Session *s, int comp, Err *e)
{
	SessSnapshot sn;
	if (snap_take(s, &sn, e) < 0)
		return -1;
	Net *out = squeezed(s, s->net, comp, e);
	if (!out) {
		snap_free(&sn);
		return -1;
	}
	net_free(s->net);
	s->net = out;
	if (undo_push(s, &sn, e) < 0)
		snap_free(&sn);
	s->alg1_live = 0;
	s->dirty = 1;
	return 0;
}

/* The squeeze action on a graph network: the pass's proposal when it is
 * for this group, else the group decided now (a log replayed). */
int session_do_group_squeeze(Session *s, const SessAction *act, Err *e)
{
	const SessSqueezeArgs *a = &act->squeeze;
	if (a->layer || a->group < 1)
		return err_set(e, "squeeze: a graph network is squeezed by channel groups "
		                  "(group=N), not by layers");
	int pass = session_group_proposal(s) && s->gprop.group == a->group;
	if (!pass) {
		if (groups_now(s, e))
			return -1;
		int n = s->gg->n;
		if (a->group > n) {
			session_gsq_stop(s);
			return err_set(e, "squeeze: group %d of a network of %d channel groups",
			               a->group, n);
		}
		if (!a->apply) { /* a refusal changes nothing */
			session_gsq_stop(s);
			return 0;
		}
		if (decide(s, a->group, e)) {
			session_gsq_stop(s);
			return -1;
		}
	}
	if (a->apply && s->gprop.skip) {
		err_set(e, "squeeze: group %d keeps its units (%s)", a->group, s->gprop.skip);
		session_gsq_stop(s);
		return -1;
	}
	if (a->apply && s->gprop.kept < s->gprop.units && apply(s, a->comp, e)) {
		if (!pass)
			session_gsq_stop(s);
		return -1;
	}
	/* the pass goes on to the next group, on the network as it is now */
	if (!pass || groups_now(s, e) || propose_from(s, a->group + 1, e) || !s->gprop.group)
		session_gsq_stop(s);
	return 0;
}
