/* session_replay.c - replay: the actions of a log, or of a lesson, applied
 * to a session in order, as the screen applied them. */
#include <stdio.h>

#include "base/file.h"
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
	int lineno = 0, r;
	FILE *f = file_open_regular(path, "r", NULL, e);
	if (!f)
		return -1;
	while ((r = session_log_next(f, path, &lineno, &a, e)) > 0) {
		int rc = session_apply(s, &a, h, e);
		if (rc != 0) {
			fclose(f);
			if (rc > 0)
				err_set(e, "cancelled");
			err_prefix(e, "%s:%d", path, lineno);
			return rc;
		}
	}
	fclose(f);
	return r;
}
