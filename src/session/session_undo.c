/* session_undo.c - snapshots of the session's network and Algorithm-1
 * state, and the stack of them that undo pops. */
#include <stdlib.h>
#include <string.h>

#include "session/session.h"
#include "session/session_int.h"

#define UNDO_MAX 32

void snap_free(SessSnapshot *sn)
{
	net_free(sn->net);
	alg1_free(sn->alg1);
	dataset_free(sn->train);
	dataset_free(sn->test);
	memset(sn, 0, sizeof *sn);
}

int snap_take(const Session *s, SessSnapshot *sn, Err *e)
{
	memset(sn, 0, sizeof *sn);
	sn->alg1_live = s->alg1_live;
	sn->ntrain = s->ntrain;
	if ((s->net && !(sn->net = net_clone(s->net, e))) ||
	    (s->alg1 && !(sn->alg1 = alg1_clone(s->alg1, NULL)))) {
		snap_free(sn);
		return err_set(e, "out of memory copying the network");
	}
	return 0;
}

/* Puts a snapshot back; the session takes its contents. */
void snap_restore(Session *s, SessSnapshot *sn)
{
	net_free(s->net);
	alg1_free(s->alg1);
	s->net = sn->net;
	s->alg1 = sn->alg1;
	s->alg1_live = sn->alg1_live;
	s->ntrain = sn->ntrain;
	if (sn->train) {
		/* the data sets of the inputs before: Algorithm 2's split and sweep
		 * were made on the others */
		dataset_free(s->train);
		dataset_free(s->test);
		dataset_free(s->sweep_tr);
		dataset_free(s->sweep_v);
		alg2_free(s->sweep);
		s->sweep = NULL;
		s->sweep_tr = s->sweep_v = NULL;
		s->sweep_done = 0;
		s->train = sn->train;
		s->test = sn->test;
		s->inputs = sn->inputs;
	}
	memset(sn, 0, sizeof *sn);
}

int undo_push(Session *s, SessSnapshot *sn, Err *e)
{
	if (s->nundo == UNDO_MAX) {
		snap_free(&s->undo[0]);
		memmove(s->undo, s->undo + 1, (size_t)(UNDO_MAX - 1) * sizeof *s->undo);
		s->nundo--;
	}
	if (s->nundo == s->capundo) {
		int cap = s->capundo ? 2 * s->capundo : 8;
		SessSnapshot *u = realloc(s->undo, (size_t)cap * sizeof *u);
		if (!u)
			return err_set(e, "out of memory for the undo stack");
		s->undo = u;
		s->capundo = cap;
	}
	s->undo[s->nundo++] = *sn;
	memset(sn, 0, sizeof *sn);
	return 0;
}

void undo_clear(Session *s)
{
	for (int i = 0; i < s->nundo; i++)
		snap_free(&s->undo[i]);
	s->nundo = 0;
}
