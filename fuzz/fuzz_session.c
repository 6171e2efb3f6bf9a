/* fuzz_session.c - session_parse on each line of arbitrary text. Every line
 * that parses must format to a line that parses to the same action (the
 * session log must replay what it recorded). */
#include <stdlib.h>
#include <string.h>

#include "engine/session.h"

static void check_line(const char *line)
{
	SessAction a, b;
	Err e;
	char f1[8192], f2[8192];
	int r = session_parse(line, &a, &e);
	if (r < 0 && !e.msg[0])
		abort();
	if (r != 1)
		return;
	session_format(&a, f1, sizeof f1);
	if (strlen(f1) > SESS_LINE_MAX) /* every action the parser accepts must fit */
		abort();
	if (session_parse(f1, &b, &e) != 1)
		abort();
	session_format(&b, f2, sizeof f2);
	if (strcmp(f1, f2))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
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
