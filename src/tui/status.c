/* tui/status.c - the status line and the header's state as functions of
 * the state (see status.h). */
#include "tui/status.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "session/session_setting.h"

const char *status_action(const SessAction *a, char *buf, size_t len)
{
	switch (a->kind) {
	case SESS_TRAIN:
		snprintf(buf, len, "training %g epoch%s", a->train.epochs,
		         a->train.epochs == 1 ? "" : "s");
		break;
	case SESS_ALG1_STEP:
		snprintf(buf, len, "Algorithm 1 (one iteration)");
		break;
	case SESS_ALG1_RUN:
		if (a->run.steps > 0)
			snprintf(buf, len, "Algorithm 1 (%d iterations)", a->run.steps);
		else
			snprintf(buf, len, "Algorithm 1 (until every κ ≤ τ)");
		break;
	case SESS_SWEEP:
		snprintf(buf, len, "β sweep %.100s, q = %d", a->sweep.betas, a->sweep.q);
		break;
	case SESS_LOAD:
		snprintf(buf, len, "opening %.120s", a->load.path);
		break;
	case SESS_SAVE:
		snprintf(buf, len, "saving %.120s", a->save.path);
		break;
	case SESS_SET:
		session_setting_said(a, NULL, buf, len);
		break;
	case SESS_NET:
		snprintf(buf, len, "a fresh network %.100s", a->net.layers);
		break;
	case SESS_SQUEEZE:
		snprintf(buf, len, "squeeze %s %d: %s%s", a->squeeze.group ? "group" : "layer",
		         a->squeeze.group ? a->squeeze.group : a->squeeze.layer,
		         a->squeeze.apply ? "apply" : "refuse",
		         a->squeeze.apply && a->squeeze.comp ? " with compensation" : "");
		break;
	case SESS_NEURON:
		if (a->neuron.add)
			snprintf(buf, len, "a neuron added to layer %d", a->neuron.layer);
		else
			snprintf(buf, len, "neuron %d of layer %d removed", a->neuron.neuron,
			         a->neuron.layer);
		break;
	case SESS_LAYER:
		if (a->layer.add)
			snprintf(buf, len, "a layer added after layer %d", a->layer.after);
		else
			snprintf(buf, len, "layer %d removed", a->layer.layer);
		break;
	case SESS_INPUTS:
		snprintf(buf, len, "inputs x, y and %.100s", a->inputs.names);
		break;
	default:
		snprintf(buf, len, "%s", session_action_name(a));
		break;
	}
	return buf;
}

const char *status_symbols(const char *text, char *buf, size_t len)
{
	size_t k = 0;
	for (const char *c = text; *c && k + 4 < len; c++) {
		if ((c[0] == '<' || c[0] == '>') && c[1] == '=') {
			memcpy(buf + k, c[0] == '<' ? "≤" : "≥", 3);
			k += 3;
			c++;
		} else {
			buf[k++] = *c;
		}
	}
	if (len)
		buf[k < len ? k : len - 1] = '\0';
	return buf;
}

const char *status_shape(const Shown *p, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	if (p->graph) { /* what it is: its widths are no chain's */
		snprintf(buf, len, "%s", p->conv_shape);
		return buf;
	}
	for (int i = 0; p->n && i <= p->m && k + 12 < len; i++)
		k += (size_t)snprintf(buf + k, len - k, i ? "-%d" : "%d", p->n[i]);
	return buf;
}

/* The lesson's next action, when one is played and some are left. */
static const SessAction *lesson_next(const Shown *p, const UiState *u)
{
	if (!u->lesson || p->play_pos >= u->lesson->n)
		return NULL;
	return &u->lesson->a[p->play_pos];
}

const char *status_proposal(const Shown *p, const UiState *u, char *buf, size_t len)
{
	const SessAction *a = lesson_next(p, u);
	if (!u->lesson && p->sq.group) /* on 80 columns whole */
		snprintf(buf, len,
		         "group %d: y applies, n refuses, a applies all, c compensation (%s), "
		         "Esc ends",
		         p->sq.group, p->sq.comp ? "on" : "off");
	else if (!u->lesson)
		snprintf(buf, len,
		         "layer %d's proposal waits: y applies, n refuses, a applies it and the "
		         "rest, c compensation (%s), Esc ends the pass",
		         p->sq.layer, p->sq.comp ? "on" : "off");
	else if (a && a->kind == SESS_SQUEEZE && a->squeeze.layer == p->sq.layer)
		snprintf(buf, len, "the lesson will %s layer %d's proposal%s: right arrow",
		         a->squeeze.apply ? "apply" : "refuse", a->squeeze.layer,
		         a->squeeze.apply
		             ? (a->squeeze.comp ? " with compensation" : " without compensation")
		             : "");
	else
		snprintf(buf, len, "layer %d's proposal: right arrow plays the lesson on",
		         p->sq.layer);
	return buf;
}

const char *status_lesson_decides(const Shown *p, const UiState *u, char *buf, size_t len)
{
	const SessAction *a = lesson_next(p, u);
	if (a && a->kind == SESS_SQUEEZE && a->squeeze.layer == p->sq.layer)
		snprintf(buf, len, "the lesson %s it%s", a->squeeze.apply ? "applies" : "refuses",
		         a->squeeze.apply
		             ? (a->squeeze.comp ? " with compensation" : " without compensation")
		             : "");
	else
		snprintf(buf, len, "right arrow plays the lesson on");
	return buf;
}

static void lesson_place(const Shown *p, const UiState *u, char *buf, size_t len)
{
	const Lesson *l = u->lesson;
	const SessAction *a = lesson_next(p, u);
	char what[200], shape[256];
	if (!a) {
		/* the CRC-32 first: a long network's widths do not push it off the row */
		snprintf(buf, len,
		         "end of the lesson: parameters' CRC-32 %08x (as condnet replay prints) of "
		         "%s; left steps back, q leaves",
		         (unsigned)p->crc, status_shape(p, shape, sizeof shape));
		return;
	}
	if (u->delay > 0 && u->play_paused) {
		snprintf(buf, len, "the lesson is paused: space plays on");
		return;
	}
	status_action(a, what, sizeof what);
	snprintf(buf, len, "lesson: action %d of %d, next %s: %s", p->play_pos - l->setup + 1,
	         l->n - l->setup, what,
	         u->delay > 0 && !u->play_paused ? "it plays by itself (space pauses)"
	                                         : "right arrow plays it, left steps back");
}

const char *status_line(const Shown *p, const UiState *u, char *buf, size_t len, int *err)
{
	*err = 0;
	/* in a lesson the line says where it is: the narration row has the
	 * action's account; only refusals, failures and what a request from
	 * the screen did (an export) take the line */
	/* the opening note holds until something is done */
	int opening =
	    p->status_opening && !p->busy && p->ops == 0 && p->nundo == 0 && !p->sq.waiting;
	int said = p->status[0] && (p->status_gen == p->gen || opening) &&
	           (!u->lesson || p->status_err || p->status_lesson);
	if (said) {
		*err = p->status_err;
		snprintf(buf, len, "%s", p->status);
	} else if (p->busy && p->paused) {
		snprintf(buf, len, "paused: %s; space resumes, Esc stops",
		         p->running[0] ? p->running : "the operation");
	} else if (p->busy || p->ops > 0) {
		snprintf(buf, len, "%s: Esc stops, space pauses",
		         p->activity[0]  ? p->activity
		         : p->running[0] ? p->running
		                         : "starting");
	} else if (p->log_err) { /* it stays true: the log has lost a line */
		*err = 1;
		snprintf(
		    buf, len,
		    "the session log %s cannot be written (%s): it ends before this action and "
		    "would not replay the session; condnet will exit with status 1",
		    p->log_path, strerror(p->log_err));
	} else if (p->sq.waiting) {
		status_proposal(p, u, buf, len);
	} else if (u->lesson) {
		lesson_place(p, u, buf, len);
	} else {
		buf[0] = '\0';
	}
	return buf;
}

const char *status_state(const Shown *p, const UiState *u, char *buf, size_t len)
{
	if (p->paused)
		snprintf(buf, len, "paused");
	else if (p->busy || p->ops > 0) /* asked for and not begun yet is not idle */
		snprintf(buf, len, "%s",
		         p->activity[0]  ? p->activity
		         : p->running[0] ? p->running
		                         : "starting");
	else if (p->sq.waiting && !u->lesson)
		snprintf(buf, len, "waiting: y / n for %s %d", p->sq.group ? "group" : "layer",
		         p->sq.group ? p->sq.group : p->sq.layer);
	else if (u->lesson && p->sq.waiting) /* the proposal is the squeeze action's own */
		snprintf(buf, len, "lesson: action %d of %d, its proposal%s",
		         p->play_pos - u->lesson->setup + 1, u->lesson->n - u->lesson->setup,
		         u->play_paused ? ", paused"
		         : u->delay > 0 ? ", playing"
		                        : "");
	else if (u->lesson)
		snprintf(buf, len, "lesson: action %d of %d%s", p->play_pos - u->lesson->setup,
		         u->lesson->n - u->lesson->setup,
		         u->play_paused ? ", paused"
		         : u->delay > 0 ? ", playing"
		                        : "");
	else
		snprintf(buf, len, "idle");
	return buf;
}

const char *status_last_train(const Shown *p)
{
	if (!p->last_train[0] || p->last_train_crc != p->crc)
		return NULL;
	return p->last_train;
}

const char *status_queue(const Shown *p, char *buf, size_t len)
{
	size_t k = (size_t)snprintf(buf, len, "queued %d", p->queued_ops);
	for (int i = 0; i < session_nsettings && k < len; i++) {
		const SessSetting *t = &session_settings[i];
		double v = p->set[i], next = p->set_next[i];
		if (t->type == SET_NUMBER && fabs(next - v) > 1e-12 * v)
			k +=
			    (size_t)snprintf(buf + k, len - k, ", %s %g→%g waits", t->sym, v, next);
	}
	return buf;
}
