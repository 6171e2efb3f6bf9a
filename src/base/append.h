/* append.h - text added at the end of a buffer, never past its end. */
#ifndef CONDNET_APPEND_H
#define CONDNET_APPEND_H

#include <stddef.h>

/* Appends to the string in buf[0..len) as snprintf would write it: what
 * does not fit is left off, and buf stays a string. */
void buf_append(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
