/* session_int.h - what the session's files share and no one else needs:
 * snapshots and the undo stack (session_undo.c), and the squeeze action
 * (session_squeeze.c). */
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

#endif
