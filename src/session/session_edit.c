/* session_edit.c - the network changed by hand (engine/net_hand.h): a
 * neuron or a hidden layer added or removed, and the inputs of data in the
 * plane switched on or off (data/plane_inputs.h); each an undoable action
 * that keeps every other weight. */
#include <stdlib.h>
#include <string.h>

#include "data/plane_inputs.h"
#include "engine/net_hand.h"
#include "session/session.h"
#include "session/session_int.h"

/* net (taken over) becomes the session's network; the one before it goes
 * on the undo stack, with the data sets of the inputs before when tr is
 * given (taken over too). */
static int replace(Session *s, Net *net, Dataset *tr, Dataset *te, unsigned inputs, Err *e)
{
	SessSnapshot sn;
	if (snap_take(s, &sn, e) < 0) {
		net_free(net);
		return -1;
	}
	sn.train = tr;
	sn.test = te;
	sn.inputs = inputs;
	if (undo_push(s, &sn, e) < 0) {
		sn.train = sn.test = NULL; /* still the session's */
		snap_free(&sn);
		net_free(net);
		return -1;
	}
	net_free(s->net);
	s->net = net;
	s->alg1_live = 0;
	s->dirty = 1;
	return 0;
}

int session_do_edit(Session *s, const SessAction *a, Err *e)
{
	const char *what = session_action_name(a);
	const SessNeuronArgs *u = &a->neuron;
	Net *n = net_clone(s->net, e);
	if (!n)
		return err_prefix(e, "%s", what);
	int rc;
	if (a->kind == SESS_NEURON && u->add)
		rc = net_hand_add_neuron(n, u->layer, u->seed, e);
	else if (a->kind == SESS_NEURON)
		rc = u->layer >= 1 && u->layer < n->m &&
		             (u->neuron < 1 || u->neuron > n->n[u->layer])
		         ? err_set(e, "neuron %d: hidden layer %d has %d", u->neuron, u->layer,
		                   n->n[u->layer])
		         : net_hand_remove_neuron(n, u->layer, u->neuron - 1, e);
	else if (a->layer.add)
		rc = net_hand_add_layer(n, a->layer.after, e);
	else
		rc = net_hand_remove_layer(n, a->layer.layer, e);
	if (rc < 0) {
		net_free(n);
		return err_prefix(e, "%s", what);
	}
	return replace(s, n, NULL, NULL, 0, e);
}

int session_net_inputs(const Session *s, Net *net, Err *e)
{
	const Prep *d = s->train ? s->train->prep : NULL;
	int planar = d && d->kind == PREP_PLANE;
	if (!net->prep)
		return planar && d->d == net->n[0] ? net_set_prep(net, d, e) : 0;
	if ((net->prep->kind == PREP_PLANE || planar) &&
	    (!planar || net->prep->kind != PREP_PLANE || net->prep->plane != d->plane)) {
		char a[64], b[64];
		return err_set(e, "the network reads the inputs x, y and %s, the data x, y and %s",
		               net->prep->kind == PREP_PLANE
		                   ? plane_inputs_format(net->prep->plane, a, sizeof a)
		                   : "none",
		               planar ? plane_inputs_format(d->plane, b, sizeof b) : "none");
	}
	return 0;
}

/* Where input k of the inputs `to` comes from among the inputs `from`:
 * x and y stay, another input its place there or -1 (a new one). */
static int source(unsigned from, unsigned to, int k)
{
	if (k < 2)
		return k;
	for (int b = 0, at = 2; b < PLANE_INPUT_KINDS; b++)
		if (to & (1u << b) && at++ == k) {
			if (!(from & (1u << b)))
				return -1;
			int old = 2;
			for (int c = 0; c < b; c++)
				old += (from >> c) & 1;
			return old;
		}
	return -1;
}

int session_do_inputs(Session *s, const SessAction *a, Err *e)
{
	unsigned mask;
	if (plane_inputs_parse(a->inputs.names, &mask, e) < 0)
		return -1;
	if (mask == s->inputs) {
		char m[64];
		return err_set(e, "inputs: x, y and %s already",
		               plane_inputs_format(mask, m, sizeof m));
	}
	/* the data action's sets stay from the first change on: every other set
	 * of inputs is made from them */
	if (!s->plain_train) {
		if (s->train->d != 2)
			return err_set(e,
			               "inputs: %s has %d features; x², y², xy, sin x and sin y "
			               "are inputs of points of the plane (2 features)",
			               s->train->name, s->train->d);
		s->plain_train = dataset_clone(s->train, e);
		s->plain_test = s->plain_train ? dataset_clone(s->test, e) : NULL;
		if (!s->plain_test) {
			dataset_free(s->plain_train);
			s->plain_train = NULL;
			return err_prefix(e, "inputs");
		}
	}
	Dataset *tr = NULL, *te = NULL;
	if (mask) {
		if (datasets_plane_inputs(s->plain_train, s->plain_test, mask, &tr, &te, e) < 0)
			return err_prefix(e, "inputs");
	} else if (!(tr = dataset_clone(s->plain_train, e)) ||
	           !(te = dataset_clone(s->plain_test, e))) {
		dataset_free(tr);
		return err_prefix(e, "inputs");
	}
	int d = tr->d, *src = malloc((size_t)d * sizeof *src);
	Net *n = src ? net_clone(s->net, e) : NULL;
	for (int k = 0; n && k < d; k++)
		src[k] = source(s->inputs, mask, k);
	if (!n || net_hand_inputs(n, src, d, a->inputs.seed, e) < 0 ||
	    (mask && net_set_prep(n, tr->prep, e) < 0)) {
		if (!src)
			err_set(e, "out of memory");
		free(src);
		net_free(n);
		dataset_free(tr);
		dataset_free(te);
		return err_prefix(e, "inputs");
	}
	free(src);
	Dataset *otr = s->train, *ote = s->test;
	unsigned was = s->inputs;
	if (replace(s, n, otr, ote, was, e) < 0) {
		dataset_free(tr);
		dataset_free(te);
		return -1;
	}
	/* Algorithm 1 and the sweep were made on the sets before (the undo
	 * stack keeps them) */
	dataset_free(s->sweep_tr);
	dataset_free(s->sweep_v);
	alg2_free(s->sweep);
	alg1_free(s->alg1);
	s->sweep_tr = s->sweep_v = NULL;
	s->sweep = NULL;
	s->sweep_done = 0;
	s->alg1 = NULL;
	s->train = tr;
	s->test = te;
	s->inputs = mask;
	return 0;
}
