/* tui/prompt_sched.c - S: the learning-rate schedule, its warm-up and the
 * patience of early stopping, asked one after the other. The schedule and
 * warm-up become a logged `sched` action; the patience goes with every later
 * `train` action (the screen's setting, logged there). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/schedule.h"
#include "setup/opts.h"
#include "tui/tui_int.h"

void tui_set_sched(Tui *t, const char *spec, double warmup)
{
	Job j = {.kind = JOB_ACTION,
	         .a = {.kind = SESS_SET, .set = {.id = SET_SCHED, .warmup = warmup}}};
	snprintf(j.a.set.spec, sizeof j.a.set.spec, "%s", spec);
	if (tui_submit_setting(t, &j))
		worker_status(t->w, 0,
		              "schedule %s applies to the next operation, not to the running one",
		              spec);
}

/* The schedule in effect, from the published state. */
static LrSchedule current(Tui *t)
{
	const Shown *p = worker_lock(t->w);
	LrSchedule s = p->sched;
	worker_unlock(t->w);
	return s;
}

void tui_ask_sched(Tui *t)
{
	char def[64];
	LrSchedule s = current(t);
	tui_ask(t, P_SCHED, session_settings[SET_SCHED].prompt, sched_format(&s, def, sizeof def));
}

void tui_answer_sched(Tui *t, PromptKind k, const char *v)
{
	Err e = {{0}};
	char def[32];
	LrSchedule s = current(t);
	if (k == P_SCHED) {
		LrSchedule n;
		sched_default(&n);
		if (sched_parse(v, &n, &e) < 0) {
			worker_status(t->w, 1, "%s", e.msg);
			return;
		}
		snprintf(t->sched, sizeof t->sched, "%s", v);
		snprintf(def, sizeof def, "%g", s.warmup);
		tui_ask(t, P_WARMUP, "warm-up epochs (0: none)", def);
	} else if (k == P_WARMUP) {
		if (opts_double("warm-up", v, 0, 0, 1e6, &t->warmup, &e) < 0) {
			worker_status(t->w, 1, "%s", e.msg);
			return;
		}
		snprintf(def, sizeof def, "%d", t->patience);
		tui_ask(t, P_PATIENCE, "early-stop patience in epochs (0: none)", def);
	} else {
		int pat;
		if (opts_int("patience", v, 0, 1000000, &pat, &e) < 0) {
			worker_status(t->w, 1, "%s", e.msg);
			return;
		}
		LrSchedule n;
		char a[64], b[160];
		sched_default(&n);
		sched_parse(t->sched, &n, NULL);
		n.warmup = t->warmup;
		int same = sched_equal(&n, &s);
		if (pat && pat != t->patience)
			worker_narrate(t->w,
			               "early stopping after %d epoch%s without a better "
			               "validation accuracy: t trains on the training part of the "
			               "validation split, measures the other part after every "
			               "epoch and keeps the best epoch's weights",
			               pat, pat == 1 ? "" : "s");
		else if (!pat && t->patience)
			worker_narrate(t->w, "no early stopping: t trains the epochs asked for "
			                     "on the whole training set");
		t->patience = pat;
		if (!same) {
			tui_set_sched(t, sched_format(&n, a, sizeof a), t->warmup);
		} else {
			const Shown *p = worker_lock(t->w);
			double lr = p->lr;
			worker_unlock(t->w);
			worker_status(t->w, 0, "%s", sched_settings(lr, &n, pat, b, sizeof b));
		}
	}
}
