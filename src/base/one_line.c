/* one_line.c - texts that can stand inside one line of a file of commands. */
#include "base/one_line.h"

#include <stdio.h>
#include <string.h>

const char *one_line_bad(const char *s)
{
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		if ((*c < 0x20 && *c != '\t') || *c == 0x7f)
			return (const char *)c;
	return NULL;
}

/* What byte c is, for the message. */
static const char *byte_name(unsigned char c, char *buf, size_t len)
{
	if (c == '\n')
		return "a line feed";
	if (c == '\r')
		return "a carriage return";
	snprintf(buf, len, "the control character 0x%02x", c);
	return buf;
}

int one_line_check(const char *what, const char *s, const char *where, Err *e)
{
	const char *bad = one_line_bad(s);
	if (!bad)
		return 0;
	/* the text, cut at 120 bytes, its control characters written out */
	char shown[512], name[40];
	size_t k = 0;
	for (const unsigned char *c = (const unsigned char *)s; *c && k + 8 < sizeof shown; c++) {
		if ((const char *)c - s >= 120 &&
		    (*c & 0xc0) != 0x80) { /* not inside a UTF-8 character */
			k += (size_t)snprintf(shown + k, sizeof shown - k, "…");
			break;
		}
		if (*c == '\n' || *c == '\r')
			k += (size_t)snprintf(shown + k, sizeof shown - k, "\\%c",
			                      *c == '\n' ? 'n' : 'r');
		else if ((*c < 0x20 && *c != '\t') || *c == 0x7f)
			k += (size_t)snprintf(shown + k, sizeof shown - k, "\\x%02x", *c);
		else
			shown[k++] = (char)*c;
	}
	shown[k] = '\0';
	return err_set(e, "%s: '%s' holds %s (byte %d), and %s holds one command a line", what,
	               shown, byte_name((unsigned char)*bad, name, sizeof name), (int)(bad - s) + 1,
	               where);
}
