/* fuzz_session.c - the session log's reader (session_log_next, as replay
 * reads a log) on arbitrary bytes, and session_parse on each line of them.
 * Every action read must pass session_check (what a log accepts, the
 * screen accepts) and format to a line that parses to the same action (the
 * session log must replay what it recorded); a refusal must say why. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_file.h"
#include "session/session.h"

static void check_action(const SessAction *a)
{
	SessAction b;
	Err e;
	char f1[8192], f2[8192];
	if (session_check(a, &e) != 0)
		abort();
	session_format(a, f1, sizeof f1);
	if (strlen(f1) > SESS_LINE_MAX) /* every action the parser accepts must fit */
		abort();
	if (session_parse(f1, &b, &e) != 1)
		abort();
	session_format(&b, f2, sizeof f2);
	if (strcmp(f1, f2))
		abort();
}

static void check_line(const char *line)
{
	SessAction a;
	Err e;
	int r = session_parse(line, &a, &e);
	if (r < 0 && !e.msg[0])
		abort();
	if (r == 1)
		check_action(&a);
}

/* The reader over the whole input as a file: actions until the end or a
 * refusal with a message. */
static void check_log(const uint8_t *data, size_t size)
{
	TextFile t;
	SessAction a;
	Err e;
	int r;
	if (session_log_read(&t, fuzz_file(data, size, ".log"), &e) < 0) {
		if (!e.msg[0])
			abort();
		return;
	}
	while ((r = session_log_next(&t, &a, &e)) > 0)
		check_action(&a);
	if (r < 0 && !e.msg[0])
		abort();
	text_close(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_log(data, size);
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (char *line = text, *nl; line; line = nl) {
		if ((nl = strchr(line, '\n')))
			*nl++ = '\0';
		check_line(line);
	}
	free(text);
	return 0;
}
