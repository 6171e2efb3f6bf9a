/* session_test.h - what the session's unit tests share (test_session*.c):
 * an action of a kind with nothing else set, one applied (the test fails
 * when it fails), a log line the reader must refuse with a message, a log
 * written to a file, and a small log that makes a network on the synthetic
 * set at τ 3 and η 0.5. */
#ifndef CONDNET_SESSION_TEST_H
#define CONDNET_SESSION_TEST_H

#include "session/session.h"
#include "testutil.h"

static inline SessAction act(SessKind k)
{
	SessAction a;
	memset(&a, 0, sizeof a);
	a.kind = k;
	if (k == SESS_DATA)
		a.data.label_col = -1;
	return a;
}

static inline void apply_ok(Session *s, const SessAction *a)
{
	Err e = {{0}};
	ck_assert_msg(session_apply(s, a, NULL, &e) == 0, "%s: %s", session_action_name(a), e.msg);
}

static inline void bad(const char *line, const char *want)
{
	SessAction a;
	Err e = {{0}};
	ck_assert_msg(session_parse(line, &a, &e) == -1, "accepted '%s'", line);
	ck_assert_msg(strstr(e.msg, want), "'%s': message '%s' lacks '%s'", line, e.msg, want);
}

/* dir/s.log holding text; returns its path (static buffer). */
static inline const char *write_log(const char *dir, const char *text)
{
	static char path[1024];
	snprintf(path, sizeof path, "%s", tu_write(dir, "s.log", text, strlen(text)));
	return path;
}

static const char small_log[] =
    "data spec=synthetic features=0 label_col=-1 seed=3 limit=60 val_frac=0.2 val_per_class=0\n"
    "opts batch=20 lr=0.01\n"
    "net layers=16,12 act=tanh act_a=1 seed=5\n"
    "tau 3\n"
    "eta 0.5\n";

#endif
