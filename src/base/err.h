/* err.h - error messages carried back to the caller.
 *
 * Engine functions never print or exit. They return a status (0 on success,
 * -1 on failure) and fill an Err with one line saying what went wrong: the
 * file, the line or offset, and what was expected. Only main() and the TUI
 * show the message. */
#ifndef CONDNET_ERR_H
#define CONDNET_ERR_H

#include <stdarg.h>

typedef struct Err {
	char msg[1024];
} Err;

/* Formats the message into e (e may be NULL) and returns -1, so that
 * `return err_set(e, "…")` both reports and fails. */
int err_set(Err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int err_vset(Err *e, const char *fmt, va_list ap);

/* Prepends "prefix: " to the message already in e; returns -1. */
int err_prefix(Err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Clears the message. */
void err_clear(Err *e);

#endif
