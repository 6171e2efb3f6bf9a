/* session_replay.c - replay: the actions of a log, or of a lesson, applied
 * to a session in order, as the screen applied them. */
#include <stdio.h>

#include "engine/hook.h"
#include "session/session.h"

int session_replay_actions(Session *s, const SessAction *a, int n, const Hook *h, int *done, Err *e)
{
	int rc = 0;
	session_rewind(s);
	for (*done = 0; *done < n && rc == 0; (*done)++) {
		hook_note(h, "replaying action %d of %d", *done + 1, n);
		if ((rc = session_apply(s, &a[*done], h, e)) != 0)
			break;
	}
	return rc;
}

int session_replay(Session *s, const char *path, const Hook *h, Err *e)
{
	SessAction a;
	TextFile t;
	int r;
	if (session_log_read(&t, path, e) < 0)
		return -1;
	while ((r = session_log_next(&t, &a, e)) > 0) {
		int rc = session_apply(s, &a, h, e);
		if (rc != 0) {
			if (rc > 0)
				err_set(e, "cancelled");
			err_prefix(e, "%s:%ld", path, t.line);
			text_close(&t);
			return rc;
		}
	}
	text_close(&t);
	return r;
}
