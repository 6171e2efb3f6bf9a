/* session_squeeze.c - the session's squeeze pass: Algorithm 3 one layer at
 * a time, each decision a squeeze action (session_do_squeeze); a graph
 * network's, group by group, is session_squeeze_graph.c's. */
#include <stdlib.h>

#include "alg/alg3_squeeze.h"
#include "session/session.h"
#include "session/session_int.h"

int session_squeeze_start(Session *s, Err *e)
{
	session_squeeze_stop(s);
	if (!s->net)
		return err_set(e, "squeeze: no network yet");
	if (s->net->graph) /* channel group by channel group */
		return session_gsq_start(s, e);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = s->tau;
	if (!(s->sq = alg3_new(s->net, &o, s->train, e)))
		return -1;
	int rc = alg3_step(s->sq, e);
	if (rc != 0 || s->sq->status != ALG3_PROPOSED)
		session_squeeze_stop(s);
	return rc;
}

int session_squeeze_propose(Session *s, int layer, Err *e)
{
	session_squeeze_stop(s);
	if (!s->net)
		return err_set(e, "squeeze: no network yet");
	if (session_refuse_graph(s->net->graph != NULL, "Algorithm 3", e))
		return -1;
	if (layer < 1 || layer >= s->net->m)
		return err_set(e, "squeeze: layer %d is not a hidden layer (1..%d)", layer,
		               s->net->m - 1);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = s->tau;
	int rc =
	    (s->sq = alg3_new(s->net, &o, s->train, e)) ? alg3_propose_layer(s->sq, layer, e) : -1;
	if (rc != 0) /* 1: stopped in the layer's decompositions */
		session_squeeze_stop(s);
	return rc;
}

const Alg3Proposal *session_squeeze_proposal(const Session *s)
{
	return s->sq && s->sq->status == ALG3_PROPOSED ? &s->sq->prop : NULL;
}

void session_squeeze_stop(Session *s)
{
	alg3_free(s->sq);
	s->sq = NULL;
	session_gsq_stop(s);
}

/* Algorithm 3's decision for one layer: the pass's proposal when it is for
 * this layer (a pass under way), else one made now for the layer alone. */
int session_do_squeeze(Session *s, const SessAction *act, const Hook *h, Err *e)
{
	const SessSqueezeArgs *a = &act->squeeze;
	if (s->net->graph)
		return session_do_group_squeeze(s, act, e);
	if (a->group)
		return err_set(e,
		               "squeeze: group=%d names a graph network's channel group; a "
		               "chain's squeeze names its layer",
		               a->group);
	if (a->layer < 1 || a->layer >= s->net->m)
		return err_set(e, "squeeze: layer %d is not a hidden layer (1..%d)", a->layer,
		               s->net->m - 1);
	const Alg3Proposal *held = session_squeeze_proposal(s);
	int pass = held && held->layer == a->layer && held->n_before == s->net->n[a->layer];
	if (!pass && !a->apply)
		return 0;
	if (!pass) {
		Alg3Opts o;
		alg3_opts_default(&o);
		o.tau = s->tau;
		session_squeeze_stop(s);
		s->sq = alg3_new(s->net, &o, s->train, e);
		int pr = s->sq ? alg3_propose_layer(s->sq, a->layer, e) : -1;
		if (pr) { /* 1: stopped in the layer's decompositions */
			session_squeeze_stop(s);
			return pr;
		}
	}
	int changes = a->apply && s->sq->prop.nkeep < s->sq->prop.n_before;
	SessSnapshot sn;
	if (changes && snap_take(s, &sn, e) < 0)
		return -1;
	int rc = a->apply ? alg3_apply(s->sq, a->comp, h, e) : alg3_refuse(s->sq, h, e);
	if (rc < 0) {
		if (changes)
			snap_restore(s, &sn);
		session_squeeze_stop(s);
		return -1;
	}
	if (changes) {
		if (undo_push(s, &sn, e) < 0)
			snap_free(&sn);
		s->alg1_live = 0;
		s->dirty = 1;
	}
	if (!pass) {
		session_squeeze_stop(s);
	} else if (alg3_step(s->sq, e) != 0 || s->sq->status != ALG3_PROPOSED) {
		session_squeeze_stop(s);
	}
	return 0;
}
