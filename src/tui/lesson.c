/* tui/lesson.c - reading a lesson: its actions and captions. */
#include "tui/lesson.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "cli/cli.h"
#include "tui/views.h"

static int readable(const char *path)
{
	FILE *f = file_open_regular(path, "r", NULL, NULL);
	if (f)
		fclose(f);
	return f != NULL;
}

int lesson_find(const char *name, char *path, size_t len, Err *e)
{
	char dirs[3][PATH_MAX];
	int ndirs = cli_data_dirs("lessons", dirs, 3);
	if (readable(name)) {
		snprintf(path, len, "%s", name);
		return 0;
	}
	if (!strchr(name, '/'))
		for (int i = 0; i < ndirs; i++)
			for (int ext = 0; ext < 2; ext++) {
				int n = snprintf(path, len, "%s/%s%s", dirs[i], name,
				                 ext ? ".lesson" : "");
				if (n > 0 && (size_t)n < len && readable(path))
					return 0;
			}
	char where[3 * PATH_MAX + 16] = "";
	for (int i = 0; i < ndirs; i++) {
		size_t k = strlen(where);
		snprintf(where + k, sizeof where - k, "%s%s",
		         i ? (i + 1 == ndirs ? " and " : ", ") : "", dirs[i]);
	}
	return err_set(e, "no lesson '%s' (looked for the file, and for %s.lesson in %s)", name,
	               name, where);
}

/* Appends a caption line to *cap (joined by '\n'). */
static int add_caption(char **cap, const char *text, Err *e)
{
	size_t old = *cap ? strlen(*cap) : 0, n = strlen(text);
	char *c = realloc(*cap, old + n + 2);
	if (!c)
		return err_set(e, "out of memory for the lesson's captions");
	if (old)
		c[old++] = '\n';
	memcpy(c + old, text, n + 1);
	*cap = c;
	return 0;
}

static int grow(Lesson *l, int *cap, Err *e)
{
	if (l->n + 1 < *cap)
		return 0;
	int nc = *cap ? 2 * *cap : 32;
	SessAction *a = realloc(l->a, (size_t)nc * sizeof *a);
	if (a)
		l->a = a;
	char **c = realloc(l->caption, (size_t)(nc + 1) * sizeof *c);
	if (c)
		l->caption = c;
	int *v = realloc(l->view, (size_t)(nc + 1) * sizeof *v);
	if (v)
		l->view = v;
	if (!a || !c || !v)
		return err_set(e, "out of memory for the lesson");
	for (int k = *cap; k <= nc; k++) {
		l->caption[k] = NULL;
		l->view[k] = -1;
	}
	*cap = nc;
	return 0;
}

int lesson_load(const char *name, Lesson *l, Err *e)
{
	char line[SESS_LINE_MAX + 2], text[SESS_LINE_MAX + 1];
	int lineno = 0, cap = 0, setup = -1;
	memset(l, 0, sizeof *l);
	if (lesson_find(name, l->path, sizeof l->path, e) < 0)
		return -1;
	FILE *f = file_open_regular(l->path, "r", NULL, e);
	if (!f)
		return -1;
	if (grow(l, &cap, e) < 0)
		goto fail;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		if (session_caption(line, text, sizeof text)) {
			if (add_caption(&l->caption[l->n], text, e) < 0)
				goto fail;
			continue;
		}
		int view;
		char rest;
		if (sscanf(line, " #view: %d %c", &view, &rest) >= 1) {
			if (view < 1 || view > VIEW_COUNT ||
			    sscanf(line, " #view: %*d %c", &rest) == 1) {
				err_set(e, "%s:%d: #view: expected a view, 1 to %d", l->path,
				        lineno, VIEW_COUNT);
				goto fail;
			}
			l->view[l->n] = view - 1;
			continue;
		}
		SessAction a;
		int r = session_parse(line, &a, e);
		if (r < 0) {
			err_prefix(e, "%s:%d", l->path, lineno);
			goto fail;
		}
		if (r == 0)
			continue;
		if (grow(l, &cap, e) < 0)
			goto fail;
		if (setup < 0 && (a.kind == SESS_NET || a.kind == SESS_LOAD))
			setup = l->n + 1;
		l->a[l->n++] = a;
	}
	fclose(f);
	f = NULL;
	if (setup < 0 || l->a[0].kind != SESS_DATA) {
		err_set(e,
		        "%s: a lesson starts with a data action and builds a network (net or load)",
		        l->path);
		goto fail;
	}
	/* and the settings right after it, unless a caption introduces them */
	while (setup < l->n && !l->caption[setup] &&
	       (l->a[setup].kind == SESS_TAU || l->a[setup].kind == SESS_ETA ||
	        l->a[setup].kind == SESS_OPTS))
		setup++;
	l->setup = setup;
	/* the captions of the actions applied before the screen opens show with it */
	char *first = NULL;
	for (int k = 0; k <= setup; k++) {
		if (k < setup && l->view[k] >= 0 && l->view[setup] < 0)
			l->view[setup] = l->view[k];
		if (l->caption[k] && add_caption(&first, l->caption[k], e) < 0) {
			free(first);
			goto fail;
		}
		free(l->caption[k]);
		l->caption[k] = NULL;
	}
	l->caption[setup] = first;
	return 0;
fail:
	if (f)
		fclose(f);
	lesson_free(l);
	return -1;
}

void lesson_free(Lesson *l)
{
	for (int k = 0; l->caption && k <= l->n; k++)
		free(l->caption[k]);
	free(l->caption);
	free(l->view);
	free(l->a);
	memset(l, 0, sizeof *l);
}
