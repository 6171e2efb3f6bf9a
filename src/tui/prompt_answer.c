/* tui/prompt_answer.c - what each answer to a prompt does, and a key while
 * a prompt is open. */
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

static void save_to(Tui *t, const char *path)
{
	SessAction a = {.kind = SESS_SAVE};
	snprintf(a.save.path, sizeof a.save.path, "%s", path);
	snprintf(t->model, sizeof t->model, "%s", path);
	tui_submit_action(t, &a);
	if (t->quit_after_save)
		t->quit_after_save = 2; /* the save is on its way: quit when it is done */
}

/* A setting (τ, η) or epochs typed: held to the table of limits, as --tau,
 * --eta and --epochs and a log are. */
static void answer_number(Tui *t, PromptKind k, const char *v)
{
	double x;
	Err e = {{0}};
	const SessSetting *st = k == P_SETTING ? &session_settings[t->pset] : NULL;
	LimitId id = st ? st->lim : LIM_EPOCHS;
	/* 12,5 under a locale whose decimal sign is the comma: 12.5 */
	char num[64];
	const char *comma = strchr(v, ',');
	if (screen_decimal_sign() == ',' && comma && !strchr(comma + 1, ',') && !strchr(v, '.') &&
	    strlen(v) < sizeof num) {
		snprintf(num, sizeof num, "%s", v);
		num[comma - v] = '.';
		v = num;
	}
	if (limit_parse(id, st ? st->sym : "epochs", v, &x, &e) < 0) {
		worker_status(t->w, 1, "%s", e.msg);
		t->quit_after_save = 0;
	} else if (k == P_EPOCHS) {
		SessAction a = {.kind = SESS_TRAIN,
		                .train = {.epochs = x, .patience = t->patience}};
		tui_submit_action(t, &a);
	} else {
		tui_set_value(t, t->pset, x);
	}
}

static void answer_sweep(Tui *t, PromptKind k, const char *v)
{
	if (k == P_BETAS) {
		Alg2Opts o;
		Err e = {{0}};
		char q[16];
		if (alg2_parse_betas(v, &o, &e) < 0) {
			worker_status(t->w, 1, "β list: %s", e.msg);
			return;
		}
		snprintf(t->betas, sizeof t->betas, "%.255s", v);
		snprintf(q, sizeof q, "%d", t->q_def);
		tui_ask(t, P_Q, "trainings per β, q", q);
		return;
	}
	SessAction a = {.kind = SESS_SWEEP};
	Err e = {{0}};
	if (limit_parse_int(LIM_Q, "q", v, &a.sweep.q, &e) < 0) {
		worker_status(t->w, 1, "%s", e.msg);
		return;
	}
	snprintf(a.sweep.betas, sizeof a.sweep.betas, "%s", t->betas);
	tui_submit_action(t, &a);
	t->u.view = VIEW_SWEEP;
}

/* 1 when path can be written (as file_write would, flags), and is not the
 * screen itself: "-", /dev/stdout and the terminal would write over it. */
static int screen_output_ok(Tui *t, const char *path, int flags)
{
	Err e = {{0}};
	if (file_check_writable(path, flags | FILE_OUT_SCREEN, &e) == 0)
		return 1;
	worker_status_failed(t->w, path, "%s refused: %s",
	                     flags & FILE_OUT_TEXT ? "export" : "save", e.msg);
	return 0;
}

/* 1 when a save to path writes over no file the session reads or writes
 * but a model (the log, the lesson played, the data, an export's files:
 * worker_files_apart), else 0 after saying so. */
static int save_apart(Tui *t, const char *path)
{
	Err e = {{0}};
	FileRole out = {"", path, 1, NULL, NULL, "the model saved"};
	if (worker_files_apart(t->w, &out, 1, 1, &e) == 0)
		return 1;
	worker_status_failed(t->w, path, "not saved: %s", e.msg);
	return 0;
}

/* A name to save or export to, and the questions about files that exist. */
static void answer_file(Tui *t, PromptKind k, const char *v)
{
	switch (k) {
	case P_SAVE:
		if (!v[0]) {
			t->quit_after_save = 0;
		} else if (!screen_output_ok(t, v, 0)) {
			t->quit_after_save = 0;
		} else if (!save_apart(t, v)) {
			/* the narration line above says why */
			tui_ask(t, P_SAVE, "save to (another file)", "");
		} else if (access(v, F_OK) == 0) {
			char q[1200];
			snprintf(t->overwrite, sizeof t->overwrite, "%s", v);
			snprintf(q, sizeof q, "%.1000s exists: overwrite it? (y/n)", v);
			tui_ask(t, P_OVERWRITE, q, "");
		} else {
			save_to(t, v);
		}
		break;
	case P_OVERWRITE:
		if (v[0] == 'y' || v[0] == 'Y') {
			save_to(t, t->overwrite);
		} else {
			worker_status(t->w, 0, "not saved: %s is kept as it was", t->overwrite);
			t->quit_after_save = 0;
		}
		break;
	case P_EXPORT_OVERWRITE:
		if (v[0] == 'y' || v[0] == 'Y') {
			Job j = {.kind = JOB_EXPORT, .target = t->export_target};
			j.apply = 1; /* over the files that exist */
			snprintf(j.path, sizeof j.path, "%s", t->overwrite);
			tui_submit(t, &j);
		} else {
			worker_status(t->w, 0,
			              "not exported: the files of %s are kept as they were",
			              t->overwrite);
		}
		break;
	case P_EXPORT: {
		Job j = {.kind = JOB_EXPORT, .target = t->u.net_col * 65536 + t->u.net_row};
		if (!screen_output_ok(t, v, FILE_OUT_TEXT))
			break;
		snprintf(j.path, sizeof j.path, "%s", v);
		tui_submit(t, &j);
		break;
	}
	default:
		break;
	}
}

/* The answer to the open prompt (an empty answer takes the default). */
static void answer(Tui *t)
{
	PromptKind k = t->pk;
	const char *v = t->ilen ? t->input : t->def;
	t->pk = P_NONE;
	switch (k) {
	case P_SETTING:
	case P_EPOCHS:
		answer_number(t, k, v);
		break;
	case P_BETAS:
	case P_Q:
		answer_sweep(t, k, v);
		break;
	case P_SCHED:
	case P_WARMUP:
	case P_PATIENCE:
		tui_answer_sched(t, k, v);
		break;
	case P_SAVE:
	case P_OVERWRITE:
	case P_EXPORT_OVERWRITE:
		answer_file(t, k, v);
		break;
	case P_OPEN: {
		SessAction a = {.kind = SESS_LOAD};
		snprintf(a.load.path, sizeof a.load.path, "%s", v);
		snprintf(t->model, sizeof t->model, "%s", v);
		tui_submit_action(t, &a);
		break;
	}
	case P_EXPORT:
		answer_file(t, k, v);
		break;
	case P_INPUTS:
		tui_answer_inputs(t, v);
		break;
	case P_CAPTION: {
		Job j = {.kind = JOB_CAPTION};
		snprintf(j.path, sizeof j.path, "%s", v);
		if (v[0])
			tui_submit(t, &j);
		break;
	}
	case P_QUIT:
		if (v[0] == 'y' || v[0] == 'Y') {
			t->quit = 1;
		} else if (v[0] == 'w' || v[0] == 'W') {
			char def[1100];
			if (t->model[0])
				snprintf(def, sizeof def, "%s", t->model);
			else
				snprintf(def, sizeof def, "%s.model", t->data_name);
			t->quit_after_save = 1;
			tui_ask(t, P_SAVE, "save to", def);
		}
		break;
	default:
		break;
	}
}

void tui_prompt_key(Tui *t, int ch)
{
	switch (
	    prompt_edit(t->input, &t->ilen, sizeof t->input, ch,
	                t->pk == P_QUIT || t->pk == P_OVERWRITE || t->pk == P_EXPORT_OVERWRITE)) {
	case PROMPT_CANCEL:
		/* nothing was asked for: what the line said before the prompt is
		 * not brought back as if it were news */
		t->pk = P_NONE;
		t->quit_after_save = 0;
		worker_status_clear(t->w);
		break;
	case PROMPT_ANSWER:
		answer(t);
		break;
	default:
		break;
	}
}
