/* text.c - reading the text files of the data sets line by line, by the
 * rules in text.h. */
#include "data/text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"

int text_open(TextFile *t, const char *path, Err *e)
{
	memset(t, 0, sizeof *t);
	t->path = path;
	t->f = file_open_regular(path, "rb", NULL, e);
	if (!t->f)
		return -1;
	unsigned char m[3];
	size_t got = fread(m, 1, 3, t->f);
	if (got >= 2 && ((m[0] == 0xff && m[1] == 0xfe) || (m[0] == 0xfe && m[1] == 0xff))) {
		err_set(e,
		        "%s: starts with a UTF-16 or UTF-32 byte-order mark (%02X %02X), expected "
		        "UTF-8 or ASCII text",
		        path, m[0], m[1]);
		text_close(t);
		return -1;
	}
	if (got == 3 && m[0] == 0xef && m[1] == 0xbb && m[2] == 0xbf)
		return 0;
	/* not a mark: read the bytes again */
	if (fseek(t->f, 0, SEEK_SET) != 0) {
		err_set(e, "%s: cannot read: %s", path, strerror(errno));
		text_close(t);
		return -1;
	}
	return 0;
}

int text_next(TextFile *t, size_t *len, Err *e)
{
	size_t n = 0;
	int c, any = 0;
	while ((c = getc_unlocked(t->f)) != EOF) {
		any = 1;
		if (c == '\n')
			break;
		if (c == '\r') {
			int d = getc_unlocked(t->f);
			if (d != '\n' && d != EOF)
				ungetc(d, t->f);
			break;
		}
		if (n >= (size_t)TEXT_MAX_LINE)
			return err_set(e, "%s:%ld: line longer than %ld bytes", t->path,
			               t->line + 1, TEXT_MAX_LINE);
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
	if (t->f)
		fclose(t->f);
	free(t->buf);
	t->f = NULL;
	t->buf = NULL;
	t->cap = 0;
}
