/* text.c - reading the text files of the data sets line by line, by the
 * rules in text.h. */
#include "data/text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"

/* Opens path, or standard input for "-" when stdin_ok is set. */
static int open_text(TextFile *t, const char *path, int stdin_ok, Err *e)
{
	memset(t, 0, sizeof *t);
	t->path = path;
	t->max = TEXT_MAX_LINE;
	if (stdin_ok && !strcmp(path, "-")) {
		/* a pipe or a terminal cannot seek back: the bytes read to look for
		 * a byte-order mark are kept and read again from t->pend */
		t->path = "standard input";
		t->f = stdin;
		t->is_stdin = 1;
	} else if (!(t->f = file_open_regular(path, "rb", NULL, e)))
		return -1;
	unsigned char *m = t->pend;
	size_t got = fread(m, 1, 3, t->f);
	if (got >= 2 && ((m[0] == 0xff && m[1] == 0xfe) || (m[0] == 0xfe && m[1] == 0xff))) {
		err_set(e,
		        "%s: starts with a UTF-16 or UTF-32 byte-order mark (%02X %02X), expected "
		        "UTF-8 or ASCII text",
		        t->path, m[0], m[1]);
		text_close(t);
		return -1;
	}
	if (got < 3 && ferror(t->f)) {
		err_set(e, "%s: cannot read: %s", t->path, strerror(errno));
		text_close(t);
		return -1;
	}
	if (got == 3 && m[0] == 0xef && m[1] == 0xbb && m[2] == 0xbf)
		return 0;
	/* not a mark: the bytes are read again */
	t->npend = (int)got;
	return 0;
}

int text_open(TextFile *t, const char *path, Err *e)
{
	return open_text(t, path, 0, e);
}

int text_open_input(TextFile *t, const char *path, Err *e)
{
	return open_text(t, path, 1, e);
}

/* The next byte: one read ahead when text_open looked for a mark, else the file's. */
static int next_byte(TextFile *t)
{
	if (t->ipend < t->npend)
		return t->pend[t->ipend++];
	return getc_unlocked(t->f);
}

int text_next(TextFile *t, size_t *len, Err *e)
{
	size_t n = 0;
	int c, any = 0;
	while ((c = next_byte(t)) != EOF) {
		any = 1;
		if (c == '\n')
			break;
		if (c == '\r') {
			int ahead = t->ipend < t->npend, d = next_byte(t);
			if (d != '\n' && d != EOF) {
				if (ahead)
					t->ipend--; /* it came from the bytes read ahead */
				else
					ungetc(d, t->f);
			}
			break;
		}
		if (n >= (size_t)t->max)
			return err_set(e, "%s:%ld: line longer than %ld bytes", t->path,
			               t->line + 1, t->max);
		if (n + 1 >= t->cap) {
			size_t ncap = t->cap ? 2 * t->cap : 256;
			char *b = realloc(t->buf, ncap);
			if (!b)
				return err_set(e, "%s:%ld: out of memory for the line", t->path,
				               t->line + 1);
			t->buf = b;
			t->cap = ncap;
		}
		t->buf[n++] = (char)c;
	}
	if (ferror(t->f))
		return err_set(e, "%s:%ld: read error: %s", t->path, t->line + 1, strerror(errno));
	if (!any)
		return 0;
	t->line++;
	if (!t->buf && !(t->buf = malloc(t->cap = 1)))
		return err_set(e, "%s:%ld: out of memory for the line", t->path, t->line);
	t->buf[n] = '\0';
	const char *nul = memchr(t->buf, '\0', n);
	if (nul)
		return err_set(e, "%s:%ld: NUL byte at character %ld, expected text", t->path,
		               t->line, (long)(nul - t->buf) + 1);
	*len = n;
	return 1;
}

void text_close(TextFile *t)
{
	if (t->f && !t->is_stdin)
		fclose(t->f);
	free(t->buf);
	t->f = NULL;
	t->buf = NULL;
	t->cap = 0;
}
