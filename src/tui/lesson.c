/* tui/lesson.c - reading a lesson: its actions and captions. */
#include "tui/lesson.h"
#include "engine/limits.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "session/session_setting.h"
#include "setup/places.h"
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
	int ndirs = places_data_dirs("lessons", dirs, 3);
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

/* The E or "full" of a "#speed:" line: epochs a second (0 full), held to
 * the table of limits as --speed is. */
static int parse_speed(const char *text, double *speed, Err *e)
{
	return limit_parse_speed("#speed", text, speed, e);
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
	char **cl = c ? realloc(l->claims, (size_t)(nc + 1) * sizeof *cl) : NULL;
	if (cl)
		l->claims = cl;
	char **pl = cl ? realloc(l->plain, (size_t)(nc + 1) * sizeof *pl) : NULL;
	if (pl)
		l->plain = pl;
	char ***more[] = {&l->pcaption, &l->pclaims, &l->pplain};
	for (size_t i = 0; pl && i < sizeof more / sizeof *more; i++) {
		char **m = realloc(*more[i], (size_t)(nc + 1) * sizeof *m);
		if (!m) {
			pl = NULL;
			break;
		}
		*more[i] = m;
	}
	int *v = a && pl ? realloc(l->view, (size_t)(nc + 1) * sizeof *v) : NULL;
	if (v)
		l->view = v;
	int *va = v ? realloc(l->view_arg, (size_t)(nc + 1) * sizeof *va) : NULL;
	if (va)
		l->view_arg = va;
	double *sp = va ? realloc(l->speed, (size_t)(nc + 1) * sizeof *sp) : NULL;
	if (sp)
		l->speed = sp;
	if (!a || !c || !v || !va || !sp)
		return err_set(e, "out of memory for the lesson");
	for (int k = *cap; k <= nc; k++) {
		l->caption[k] = l->claims[k] = l->plain[k] = NULL;
		l->pcaption[k] = l->pclaims[k] = l->pplain[k] = NULL;
		l->view[k] = l->view_arg[k] = -1;
		l->speed[k] = NAN;
	}
	*cap = nc;
	return 0;
}

/* The views a lesson names, by their names (the one way to name them). */
static const char *const view_names[] = {
    [VIEW_LAYERS] = "layers",   [VIEW_ALG1] = "algorithm1",   [VIEW_SWEEP] = "sweep",
    [VIEW_SQUEEZE] = "squeeze", [VIEW_SPECTRUM] = "spectrum", [VIEW_HISTORY] = "history",
    [VIEW_PLANE] = "plane",     [VIEW_NETWORK] = "network",
};
static const char *const chart_names[] = {"iterations", "epochs", "curve"};

int lesson_parse_view(const char *text, int *view, int *arg, Err *e)
{
	char name[64] = "", extra[64] = "", more[2];
	int n = sscanf(text, " %63s %63s %1s", name, extra, more);
	*view = *arg = -1;
	for (int v = 0; v < VIEW_COUNT && n >= 1; v++)
		if (view_names[v] && !strcmp(name, view_names[v]))
			*view = v;
	if (*view < 0)
		return err_set(e,
		               "#view: '%s' is not a view (layers, algorithm1, sweep, squeeze, "
		               "spectrum, history, plane, network)",
		               name);
	if (n > 2)
		return err_set(e, "#view: a view and at most one word after it, not '%s'",
		               text + strspn(text, " \t"));
	if (n < 2)
		return 0;
	if (*view == VIEW_HISTORY) {
		for (int c = 0; c < 3; c++)
			if (!strcmp(extra, chart_names[c]))
				*arg = c;
		if (*arg < 0)
			return err_set(
			    e, "#view: history shows iterations, epochs or curve, not '%s'", extra);
		return 0;
	}
	char *end;
	long layer = strtol(extra, &end, 10);
	if ((*view != VIEW_LAYERS && *view != VIEW_SPECTRUM && *view != VIEW_PLANE &&
	     *view != VIEW_NETWORK) ||
	    *end || layer < 1 || layer > 100000)
		return err_set(e,
		               "#view: %s takes no '%s' (a layer goes with layers, spectrum, "
		               "plane and network)",
		               name, extra);
	*arg = (int)layer;
	return 0;
}

const char *lesson_caption_at(const Lesson *l, int pos)
{
	if (!l || !l->caption)
		return NULL;
	for (int k = pos > l->n ? l->n : pos; k >= l->setup; k--)
		if (l->caption[k])
			return l->caption[k];
	return NULL;
}

/* 1 when action pos is a squeeze: its proposal is a screen of its own. */
static int has_proposal(const Lesson *l, int pos)
{
	return pos >= l->setup && pos < l->n && l->a[pos].kind == SESS_SQUEEZE;
}

int lesson_screen_back(const Lesson *l, LessonScreen s, LessonScreen *prev)
{
	*prev = s;
	if (s.proposal) {
		prev->proposal = 0;
		return 0;
	}
	if (s.pos <= l->setup)
		return -1;
	prev->pos = s.pos - 1;
	prev->proposal = has_proposal(l, s.pos - 1);
	return 0;
}

const char *lesson_screen_caption(const Lesson *l, LessonScreen s)
{
	if (s.proposal && s.pos < l->n && l->pcaption && l->pcaption[s.pos])
		return l->pcaption[s.pos];
	return lesson_caption_at(l, s.pos);
}

int lesson_screen_view(const Lesson *l, LessonScreen s, int *arg)
{
	int v;
	if (s.proposal && (v = lesson_view(l, s.pos, arg)) >= 0)
		return v;
	for (int k = s.pos - 1; k >= l->setup; k--)
		if ((v = lesson_view(l, k, arg)) >= 0)
			return v;
	*arg = l->open_view >= 0 ? l->open_arg : -1;
	return l->open_view >= 0 ? l->open_view : VIEW_LAYERS;
}

int lesson_view(const Lesson *l, int pos, int *arg)
{
	*arg = -1;
	if (!l || pos < 0 || pos >= l->n)
		return -1;
	if (l->view[pos] >= 0) {
		*arg = l->view_arg[pos];
		return l->view[pos];
	}
	switch (l->a[pos].kind) {
	case SESS_SQUEEZE:
		return VIEW_SQUEEZE;
	case SESS_SWEEP:
		return VIEW_SWEEP;
	case SESS_ALG1_STEP:
	case SESS_ALG1_RUN:
		return VIEW_ALG1;
	case SESS_TRAIN:
		*arg = 1; /* κ against epochs */
		return VIEW_HISTORY;
	case SESS_SET: /* τ marks the layers */
		return l->a[pos].set.id == SET_TAU ? VIEW_LAYERS : -1;
	case SESS_NET:
	case SESS_LOAD:
		return VIEW_LAYERS;
	case SESS_NEURON:
	case SESS_LAYER:
	case SESS_INPUTS:
		return VIEW_NETWORK;
	default:
		return -1;
	}
}

/* A lesson's own comment line before action l->n: a caption, a proposal's
 * caption, its claims, a speed or a view (prop: the last caption is a
 * proposal's). 1 when line was one, 0 when it is not, -1 with a message. */
static int lesson_line(Lesson *l, char *line, long lineno, int *prop, Err *e)
{
	char text[SESS_LINE_MAX + 1];
	int n = l->n, rc = 0;
	if (session_caption(line, text, sizeof text)) {
		*prop = 0;
		return add_caption(&l->caption[n], text, e) < 0 ? -1 : 1;
	}
	if (line[0] != '#')
		return 0;
	line[strcspn(line, "\r\n")] = '\0';
	if (!strncmp(line, "#proposal:", 10)) {
		*prop = 1;
		return add_caption(&l->pcaption[n], line + 10 + strspn(line + 10, " \t"), e) < 0
		           ? -1
		           : 1;
	}
	if (!strncmp(line, "#=", 2) || !strncmp(line, "#~", 2)) {
		char **to = line[1] == '=' ? (*prop ? &l->pclaims[n] : &l->claims[n])
		                           : (*prop ? &l->pplain[n] : &l->plain[n]);
		return add_caption(to, line + 2, e) < 0 ? -1 : 1;
	}
	if (!strncmp(line, "#speed:", 7))
		rc = parse_speed(line + 7, &l->speed[n], e) < 0 ? -1 : 1;
	else if (!strncmp(line, "#view:", 6))
		rc = lesson_parse_view(line + 6, &l->view[n], &l->view_arg[n], e) < 0 ? -1 : 1;
	if (rc < 0)
		err_prefix(e, "%s:%ld", l->path, lineno);
	return rc;
}

/* What is applied before the screen opens (the setup: the data, the first
 * network and the settings right after it, unless a caption introduces
 * them), the view it opens in, and the captions and claims it opens with. */
static int lesson_setup(Lesson *l, int setup, Err *e)
{
	if (l->pcaption[l->n])
		return err_set(e,
		               "%s: a #proposal: caption goes before a squeeze action, not at the "
		               "end",
		               l->path);
	if (setup < 0 || l->a[0].kind != SESS_DATA)
		return err_set(
		    e,
		    "%s: a lesson starts with a data action and builds a network (net or "
		    "load)",
		    l->path);
	while (setup < l->n && !l->caption[setup] &&
	       ((l->a[setup].kind == SESS_SET &&
	         session_setting_of(&l->a[setup])->type == SET_NUMBER) ||
	        l->a[setup].kind == SESS_OPTS))
		setup++;
	l->setup = setup;
	/* the screen opens in the view named for the last of them that names one */
	l->open_view = l->open_arg = -1;
	for (int k = 0; k < setup; k++)
		if (l->view[k] >= 0) {
			l->open_view = l->view[k];
			l->open_arg = l->view_arg[k];
		}
	/* the captions of the actions applied before the screen opens show with
	 * it, and so do their claims */
	char **lists[] = {l->caption, l->claims, l->plain};
	for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) {
		char *first = NULL;
		for (int k = 0; k <= setup; k++) {
			if (lists[i][k] && add_caption(&first, lists[i][k], e) < 0) {
				free(first);
				return -1;
			}
			free(lists[i][k]);
			lists[i][k] = NULL;
		}
		lists[i][setup] = first;
	}
	return 0;
}

int lesson_load(const char *name, Lesson *l, Err *e)
{
	int cap = 0, setup = -1, r, prop = 0; /* prop: the last caption is a proposal's */
	size_t len;
	TextFile f;
	memset(l, 0, sizeof *l);
	if (lesson_find(name, l->path, sizeof l->path, e) < 0)
		return -1;
	/* the session logs' reader: a line too long is refused whole, never
	 * read in pieces of which one could pass for an action */
	if (session_log_read(&f, l->path, e) < 0)
		return -1;
	if (grow(l, &cap, e) < 0)
		goto fail;
	while ((r = text_next(&f, &len, e)) > 0) {
		long lineno = f.line;
		int own = lesson_line(l, f.buf, lineno, &prop, e);
		if (own < 0)
			goto fail;
		if (own)
			continue;
		SessAction a;
		int p = session_parse(f.buf, &a, e);
		if (p < 0) {
			err_prefix(e, "%s:%ld", l->path, lineno);
			goto fail;
		}
		if (p == 0)
			continue;
		if (l->pcaption[l->n] && a.kind != SESS_SQUEEZE) {
			err_set(e, "%s:%ld: a #proposal: caption goes before a squeeze action",
			        l->path, lineno);
			goto fail;
		}
		prop = 0;
		if (grow(l, &cap, e) < 0)
			goto fail;
		if (setup < 0 && (a.kind == SESS_NET || a.kind == SESS_LOAD))
			setup = l->n + 1;
		l->a[l->n++] = a;
	}
	text_close(&f);
	if (r < 0 || lesson_setup(l, setup, e) < 0)
		goto fail;
	return 0;
fail:
	text_close(&f);
	lesson_free(l);
	return -1;
}

void lesson_free(Lesson *l)
{
	for (int k = 0; l->caption && k <= l->n; k++)
		free(l->caption[k]);
	for (int k = 0; l->claims && k <= l->n; k++)
		free(l->claims[k]);
	for (int k = 0; l->plain && k <= l->n; k++)
		free(l->plain[k]);
	char **more[] = {l->pcaption, l->pclaims, l->pplain};
	for (size_t i = 0; i < sizeof more / sizeof *more; i++) {
		for (int k = 0; more[i] && k <= l->n; k++)
			free(more[i][k]);
		free(more[i]);
	}
	free(l->caption);
	free(l->claims);
	free(l->plain);
	free(l->view);
	free(l->view_arg);
	free(l->speed);
	free(l->a);
	memset(l, 0, sizeof *l);
}
