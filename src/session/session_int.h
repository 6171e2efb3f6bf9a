/* session_int.h - what the session's files share and no one else needs:
 * snapshots and the undo stack (session_undo.c), the squeeze action
 * (session_squeeze.c, a graph network's session_squeeze_graph.c) and the edits by hand
 * (session_edit.c). */
#ifndef CONDNET_SESSION_INT_H
#define CONDNET_SESSION_INT_H

#include "session/session.h"

/* A deep copy of the network and Algorithm-1 state into sn. */
int snap_take(const Session *s, SessSnapshot *sn, Err *e);
/* Puts a snapshot back; the session takes its contents. */
void snap_restore(Session *s, SessSnapshot *sn);
void snap_free(SessSnapshot *sn);
/* Pushes sn (taken over) on the undo stack, dropping the oldest beyond 32. */
int undo_push(Session *s, SessSnapshot *sn, Err *e);
void undo_clear(Session *s);

/* The squeeze action: the pass's proposal for its layer, or one made now. */
int session_do_squeeze(Session *s, const SessAction *a, const Hook *h, Err *e);

/* A graph network's squeeze pass (session_squeeze_graph.c): its start at
 * the first group proposed (0, the pass over at once when none is; -1),
 * its end, and the squeeze action that names a group. */
int session_gsq_start(Session *s, Err *e);
void session_gsq_stop(Session *s);
int session_do_group_squeeze(Session *s, const SessAction *a, Err *e);

/* The edits by hand (session_edit.c): a neuron or a hidden layer added or
 * removed (neuron and layer actions), and the inputs of data in the plane
 * (the inputs action); each undoable. */
int session_do_edit(Session *s, const SessAction *a, Err *e);
int session_do_inputs(Session *s, const SessAction *a, Err *e);
/* A network about to become the session's (made fresh or loaded): one of a
 * session whose data are points of the plane made into more inputs records
 * them, and one that records other such inputs than the data's is refused. */
int session_net_inputs(const Session *s, Net *net, Err *e);

#endif
