/* text.h - the text files of the data sets (CSV, UCI Adult) read by one set
 * of rules, so that a defect refused in one is refused in the other:
 *
 * - a regular file only (base/file.h: a device or FIFO is not opened), or
 *   standard input where a command reads new inputs from it
 *   (text_open_input: "-", named "standard input" in messages);
 * - UTF-8 or ASCII: a UTF-8 byte-order mark at the start is skipped, a
 *   UTF-16 or UTF-32 one is refused by name (such text is not read as
 *   bytes with NULs between them);
 * - a NUL byte anywhere is an error naming its line and character;
 * - lines end with LF, CRLF or a lone CR (old Mac files), the last line with
 *   or without one; a line holds at most TEXT_MAX_LINE bytes, or the limit
 *   the reader sets (TextFile.max: the session logs' and lessons').
 *
 * What a line holds (fields, a header, an action) is the reader's business. */
#ifndef CONDNET_TEXT_H
#define CONDNET_TEXT_H

#include <stdio.h>

#include "base/err.h"

/* Longest line accepted, in bytes. */
#define TEXT_MAX_LINE (16L << 20)

typedef struct TextFile {
	FILE *f;
	const char *path;      /* for messages; not copied ("standard input" for "-") */
	int is_stdin;          /* f is stdin: not closed */
	unsigned char pend[3]; /* bytes read ahead past a missing byte-order mark */
	int npend, ipend;
	char *buf; /* the current line, NUL-terminated, without its end */
	size_t cap;
	long line; /* number of the current line, from 1 */
	long max;  /* the longest line accepted, in bytes: TEXT_MAX_LINE unless set
	            * after opening */
} TextFile;

/* Opens path and reads past a UTF-8 byte-order mark. */
int text_open(TextFile *t, const char *path, Err *e);
/* The same, with "-" standard input (read once, the bytes read past a
 * missing byte-order mark kept for the first line). */
int text_open_input(TextFile *t, const char *path, Err *e);

/* The next line into t->buf (its length in *len): 1, or 0 at the end of the
 * file, or -1 with e set ("PATH:LINE: …" for a NUL byte, a line longer than
 * t->max, a read error). A line too long is refused as a whole: no part of
 * it is read as a line of its own. */
int text_next(TextFile *t, size_t *len, Err *e);

/* Closes the file and frees the line; t may be zeroed or already closed. */
void text_close(TextFile *t);

#endif
