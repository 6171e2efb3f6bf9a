/* tui/prompt.c - the screen's requests to the worker and its prompts: a
 * question opened, and the line typed at it (what each answer does is
 * prompt_answer.c's). */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "engine/limits.h"
#include "tui/screen.h"
#include "tui/tui_int.h"

void tui_submit(Tui *t, const Job *j)
{
	if (worker_submit(t->w, j) < 0)
		worker_status(t->w, 1, "too many queued changes: wait or press Esc");
}

/* 1 (saying so) when the network is a graph, which what does not take. */
int tui_refuse_graph(Tui *t, const char *what)
{
	Err e = {{0}};
	int graph = worker_lock(t->w)->graph;
	worker_unlock(t->w);
	if (!session_refuse_graph(graph, what, &e))
		return 0;
	worker_status(t->w, 1, "%s", e.msg);
	return 1;
}

int tui_refuse_busy(Tui *t)
{
	char what[128];
	const Shown *p = worker_lock(t->w);
	int busy = p->ops > 0;
	snprintf(what, sizeof what, "%s", p->running[0] ? p->running : "an operation");
	worker_unlock(t->w);
	if (busy)
		worker_status(t->w, 1, "busy: %s %s press Esc to stop, space to pause", what,
		              screen_ascii() ? "-" : "\u2014");
	return busy;
}

int tui_submit_setting(Tui *t, Job *j)
{
	const Shown *p = worker_lock(t->w);
	j->quiet = p->ops > 0;
	worker_unlock(t->w);
	tui_submit(t, j);
	return j->quiet;
}

void tui_submit_action(Tui *t, const SessAction *a)
{
	Job j = {.kind = JOB_ACTION, .a = *a};
	if (!tui_refuse_busy(t))
		tui_submit(t, &j);
}

void tui_submit_kind(Tui *t, JobKind k, int apply)
{
	Job j = {.kind = k, .apply = apply};
	if (!tui_refuse_busy(t))
		tui_submit(t, &j);
}

void tui_set_value(Tui *t, int id, double x)
{
	const SessSetting *st = &session_settings[id];
	Job j = {.kind = JOB_ACTION, .a = session_setting_action(id, x)};
	Err e = {{0}};
	/* the keys that scale a setting stop at the table's limits */
	if (limit_check(st->lim, x, st->sym, NULL, &e)) {
		worker_status(t->w, 1, "%s", e.msg);
		return;
	}
	if (tui_submit_setting(t, &j))
		worker_status(t->w, 0,
		              "%s = %g applies to the next operation, not to the running one",
		              screen_pick(st->sym, st->ascii), x);
}

void tui_ask(Tui *t, PromptKind k, const char *q, const char *def)
{
	t->pk = k;
	snprintf(t->def, sizeof t->def, "%s", def);
	if (def[0])
		snprintf(t->prompt, sizeof t->prompt, "%s [%s]:", q, def);
	else
		snprintf(t->prompt, sizeof t->prompt, "%s", q);
	t->input[0] = '\0';
	t->ilen = 0;
}

PromptEdit prompt_edit(char *input, size_t *len, size_t cap, int ch, int one_key)
{
	if (ch == 27)
		return PROMPT_CANCEL;
	if (one_key) {
		input[0] = (char)ch;
		input[1] = '\0';
		*len = 1;
		return PROMPT_ANSWER;
	}
	if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
		return PROMPT_ANSWER;
	if (ch == 21) { /* Ctrl-U */
		input[0] = '\0';
		*len = 0;
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		/* a whole UTF-8 character: its continuation bytes, then its first */
		while (*len && ((unsigned char)input[*len - 1] & 0xc0) == 0x80)
			(*len)--;
		if (*len)
			(*len)--;
		input[*len] = '\0';
	} else if (ch >= ' ' && ch < 256 && ch != 127 && *len + 1 < cap) {
		input[(*len)++] = (char)ch;
		input[*len] = '\0';
	}
	return PROMPT_EDITED;
}
