/* paper_report_file.c - a report never replaced by one of fewer stages. */
#include "paper/paper_report_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/file.h"

#define TABLE_HEAD "| stage | what | seconds |"
/* The stages a report holds: at most this many, each a short name. */
enum { MAX_STAGES = 32, NAME_LEN = 32 };

/* The names of the rows of text's table of stages into names; their count,
 * or -1 when text has no such table. */
static int stages_of(const char *text, size_t len, char names[][NAME_LEN])
{
	const char *end = text + len, *p = text;
	for (; p < end;
	     p = memchr(p, '\n', (size_t)(end - p)) ? memchr(p, '\n', (size_t)(end - p)) + 1 : end)
		if ((size_t)(end - p) >= strlen(TABLE_HEAD) &&
		    !strncmp(p, TABLE_HEAD, strlen(TABLE_HEAD)))
			break;
	if (p >= end)
		return -1;
	int n = 0, line = 0;
	while (p < end && *p == '|' && n < MAX_STAGES) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end;
		/* the head and the rule under it are not stages */
		if (line++ >= 2) {
			const char *a = p + 1;
			while (a < stop && *a == ' ')
				a++;
			const char *b = a;
			while (b < stop && *b != ' ' && *b != '|')
				b++;
			if (b > a && b - a < NAME_LEN)
				snprintf(names[n++], NAME_LEN, "%.*s", (int)(b - a), a);
		}
		p = nl ? nl + 1 : end;
	}
	return n;
}

int paper_report_keeps(const char *path, const char *text, size_t len, const char *out, Err *e)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0; /* nothing there, or a device, FIFO or standard output */
	size_t olen;
	Err ignored;
	char *old = file_slurp(path, 1 << 24, &olen, &ignored);
	if (!old)
		return 0; /* file_write says what is wrong with it */
	char had[MAX_STAGES][NAME_LEN], has[MAX_STAGES][NAME_LEN];
	int nh = stages_of(old, olen, had), nn = stages_of(text, len, has);
	free(old);
	char lost[MAX_STAGES * (NAME_LEN + 1)] = "";
	int nl = 0;
	for (int i = 0; i < nh; i++) {
		int kept = 0;
		for (int j = 0; j < nn && !kept; j++)
			kept = !strcmp(had[i], has[j]);
		if (!kept) {
			snprintf(lost + strlen(lost), sizeof lost - strlen(lost), "%s%s",
			         nl ? " " : "", had[i]);
			nl++;
		}
	}
	if (!nl)
		return 0;
	return err_set(e,
	               "%s: holds a report of %d stages, and this run's has %d: not replaced, it "
	               "would lose stage%s %s (the stage results are in %s; give --report FILE "
	               "to write this report elsewhere)",
	               path, nh, nn < 0 ? 0 : nn, nl > 1 ? "s" : "", lost, out);
}
