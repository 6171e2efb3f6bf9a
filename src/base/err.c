#include "base/err.h"

#include <stdio.h>
#include <string.h>

int err_vset(Err *e, const char *fmt, va_list ap)
{
	if (e)
		vsnprintf(e->msg, sizeof e->msg, fmt, ap);
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
	return -1;
}

void err_clear(Err *e)
{
	if (e)
		e->msg[0] = '\0';
}
