/* err.h - error messages carried back to the caller.
 *
 * Library functions never print or exit. They return -1 (or NULL, for what
 * makes a thing) when they failed, 1 when they were stopped, and fill an Err
 * with one line saying what went wrong or where it stopped: the file, the
 * line or offset, and what was expected (src/README.md, "Failed and
 * stopped"). Only the front ends show the message.
 *
 * A message is text for a terminal whatever it quotes (a line of a log, a
 * lesson or a CSV file, a name from a model file): every message is made
 * printable as it is set, its control characters (ESC, BEL, a line feed…,
 * but the tab), DEL, the C1 controls and bytes that are not UTF-8 written
 * out as \n, \r or \xHH (err_printable), so no byte read from a file
 * reaches the user's terminal raw and a message stays one line.
 *
 * A message holds 1,023 bytes. One that would be longer keeps its reason:
 * the texts it quotes (what its %s give: a path, a --layers specification,
 * a line of a file), the longest first, are shortened in their middle, "…"
 * standing for what was left out, and a prefix added by err_prefix shortens
 * the text the message quotes, never its end. */
#ifndef CONDNET_ERR_H
#define CONDNET_ERR_H

#include <stdarg.h>
#include <stddef.h>

typedef struct Err {
	char msg[1024];
} Err;

/* Formats the message into e (e may be NULL) and returns -1, so that
 * `return err_set(e, "…")` both reports and fails. */
int err_set(Err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int err_vset(Err *e, const char *fmt, va_list ap);

/* The same for a stop: formats where it stopped into e and returns 1, so
 * that `return err_stop(e, "stopped before layer %d", l)` both says it and
 * stops (src/README.md: failed is -1, stopped is 1). */
int err_stop(Err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prepends "prefix: " to the message already in e; returns -1. When the
 * whole would not fit, the prefix's quotes and then the text the message
 * quoted are shortened (as err_set does), so its reason stays. */
int err_prefix(Err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Clears the message. */
void err_clear(Err *e);

/* Writes s into out (cap bytes, NUL-terminated, cut at a whole character)
 * with what a terminal would act on written out: a control character but
 * the tab as \n, \r or \xHH, DEL and the C1 controls (U+0080..U+009F) and
 * every byte of an invalid UTF-8 sequence as \xHH. Returns out. */
const char *err_printable(const char *s, char *out, size_t cap);

#endif
