#include "base/err.h"

#include <stdio.h>
#include <string.h>

/* The length of the valid UTF-8 character at s that is not a C1 control
 * (2 to 4 bytes), or 0. */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	if (s[0] >= 0xf5 || !n)
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	unsigned cp = n == 2   ? (s[0] & 0x1fu) << 6 | (s[1] & 0x3fu)
	              : n == 3 ? (s[0] & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu)
	                       : (s[0] & 0x07u) << 18 | (s[1] & 0x3fu) << 12 | (s[2] & 0x3fu) << 6 |
	                             (s[3] & 0x3fu);
	/* overlong forms, surrogates, beyond U+10FFFF, the C1 controls */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp <= 0x9f))
		return 0;
	return n;
}

const char *err_printable(const char *s, char *out, size_t cap)
{
	size_t k = 0;
	const unsigned char *c = (const unsigned char *)s;
	while (*c && cap > 0) {
		char esc[8];
		int n = 1;
		const char *put = esc;
		if (*c == '\n' || *c == '\r')
			snprintf(esc, sizeof esc, "\\%c", *c == '\n' ? 'n' : 'r');
		else if ((*c < 0x20 && *c != '\t') || *c == 0x7f)
			snprintf(esc, sizeof esc, "\\x%02x", *c);
		else if (*c < 0x80)
			snprintf(esc, sizeof esc, "%c", *c);
		else if ((n = utf8_len(c)) == 0) {
			n = 1;
			snprintf(esc, sizeof esc, "\\x%02x", *c);
		} else {
			put = (const char *)c;
		}
		size_t len = put == esc ? strlen(esc) : (size_t)n;
		if (k + len >= cap)
			break;
		memcpy(out + k, put, len);
		k += len;
		c += n;
	}
	if (cap > 0)
		out[k] = '\0';
	return out;
}

/* e's message made printable in place. */
static void printable(Err *e)
{
	for (const unsigned char *c = (const unsigned char *)e->msg; *c; c++)
		if (*c < 0x20 || *c >= 0x7f) {
			char shown[sizeof e->msg];
			err_printable(e->msg, shown, sizeof shown);
			memcpy(e->msg, shown, sizeof shown);
			return;
		}
}

int err_vset(Err *e, const char *fmt, va_list ap)
{
	if (e) {
		vsnprintf(e->msg, sizeof e->msg, fmt, ap);
		printable(e);
	}
	return -1;
}

int err_set(Err *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_vset(e, fmt, ap);
	va_end(ap);
	return -1;
}

int err_stop(Err *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_vset(e, fmt, ap);
	va_end(ap);
	return 1;
}

int err_prefix(Err *e, const char *fmt, ...)
{
	char old[sizeof e->msg];
	va_list ap;
	if (!e)
		return -1;
	memcpy(old, e->msg, sizeof old);
	va_start(ap, fmt);
	int n = vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof e->msg - 2) {
		size_t at = (size_t)n + 2, len = strlen(old);
		if (len > sizeof e->msg - 1 - at)
			len = sizeof e->msg - 1 - at;
		memcpy(e->msg + n, ": ", 2);
		memcpy(e->msg + at, old, len);
		e->msg[at + len] = '\0';
	}
	printable(e);
	return -1;
}

void err_clear(Err *e)
{
	if (e)
		e->msg[0] = '\0';
}
