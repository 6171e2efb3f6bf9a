/* session_setting.c - the table of the session's settings (see
 * session_setting.h) and what applies, checks and says them. */
#include "session/session_setting.h"

#include <stdio.h>
#include <string.h>

#include "alg/alg1_proportion.h"
#include "engine/cond.h"
#include "engine/schedule.h"

/* The setters of τ and η: Algorithm 1's rules, its own values changed with
 * the session's. */
int session_set_tau(Session *s, double tau, Err *e)
{
	if (s->alg1 ? alg1_set_tau(s->alg1, tau, e) < 0 : alg1_check_tau(tau, e) < 0)
		return -1;
	s->tau = tau;
	if (s->alg1 && s->alg1->status != ALG1_RUNNING)
		s->alg1_live = 0;
	return 0;
}

int session_set_eta(Session *s, double eta, Err *e)
{
	if (s->alg1 ? alg1_set_eta(s->alg1, eta, e) < 0 : alg1_check_eta(eta, e) < 0)
		return -1;
	s->eta = eta;
	return 0;
}

static void narrate_tau(const Session *s, const char *over, int nover, char *buf, size_t len)
{
	snprintf(buf, len,
	         "τ = %g: p_i now counts the σ below σ₁/%g; κ > τ in %s (%d of %d layers)", s->tau,
	         s->tau, over, nover, s->net ? s->net->m : 0);
}

static void narrate_eta(const Session *s, const char *over, int nover, char *buf, size_t len)
{
	(void)over, (void)nover;
	snprintf(buf, len, "η = %g: every training of Algorithms 1 and 2 now runs %g epoch%s",
	         s->eta, s->eta, s->eta == 1 ? "" : "s");
}

static void narrate_sched(const Session *s, const char *over, int nover, char *buf, size_t len)
{
	char spec[64], warm[64] = "";
	(void)over, (void)nover;
	sched_format(&s->topt.sched, spec, sizeof spec);
	if (s->topt.sched.warmup > 0)
		snprintf(warm, sizeof warm, " after %g epoch%s of linear warm-up",
		         s->topt.sched.warmup, s->topt.sched.warmup == 1 ? "" : "s");
	snprintf(buf, len,
	         "learning rate: %s from %g%s; the later trainings follow it (a β sweep's trials "
	         "keep the constant rate)",
	         spec, s->topt.adam.lr, warm);
}

const SessSetting session_settings[] = {
    [SET_TAU] = {.name = "tau",
                 .type = SET_NUMBER,
                 .lim = LIM_TAU,
                 .def = COND_TAU_DEFAULT,
                 .off = offsetof(Session, tau),
                 .set = session_set_tau,
                 .sym = "τ",
                 .ascii = "tau",
                 .unit = "",
                 .up = {'+', '='},
                 .down = '-',
                 .ask = 'T',
                 .factor = 1.25,
                 .floor = alg1_check_tau,
                 .floor_say = "must stay above 1",
                 .prompt = "τ =",
                 .hint_keys = "+-",
                 .hint = "τ",
                 .help_keys = "+ / -",
                 .help = "τ up / down (×1.25, /1.25); T types it",
                 .header = 1,
                 .narrate = narrate_tau},
    [SET_ETA] = {.name = "eta",
                 .type = SET_NUMBER,
                 .lim = LIM_ETA,
                 .def = 1.0, /* Algorithm 1's (alg1_opts_default) */
                 .off = offsetof(Session, eta),
                 .set = session_set_eta,
                 .sym = "η",
                 .ascii = "eta",
                 .unit = " epochs",
                 .up = {']'},
                 .down = '[',
                 .ask = 'E',
                 .factor = 1.25,
                 .prompt = "η (epochs) =",
                 .hint_keys = "[]",
                 .hint = "η",
                 .help_keys = "] / [",
                 .help = "η up / down (×1.25, /1.25); E types it",
                 .header = 1,
                 .narrate = narrate_eta},
    [SET_SCHED] = {.name = "sched",
                   .type = SET_SCHEDULE,
                   .sym = "schedule",
                   .ascii = "schedule",
                   .ask = 'S',
                   .prompt = "schedule (step:E:F, cosine:T, plateau:P:F, constant)",
                   .hint_keys = "S",
                   .hint = "lr",
                   .help_keys = "S",
                   .help = "the learning-rate schedule, its warm-up and early stopping's "
                           "patience, asked in turn",
                   .narrate = narrate_sched},
#ifdef CONDNET_TEST_SETTING
    /* a setting of the test build alone, which no engine code uses: what the
     * table alone gives it (tests/setting.sh) */
    {.name = "zeta",
     .type = SET_NUMBER,
     .lim = LIM_ETA,
     .def = 3,
     .sym = "ζ",
     .ascii = "zeta",
     .unit = "",
     .up = {'>'},
     .down = '<',
     .ask = 'Z',
     .factor = 2,
     .prompt = "ζ =",
     .hint_keys = "<>",
     .hint = "ζ",
     .help_keys = "> / <",
     .help = "ζ up / down (×2, /2); Z types it",
     .header = 1},
#endif
};
const int session_nsettings = sizeof session_settings / sizeof *session_settings;
_Static_assert(sizeof session_settings / sizeof *session_settings <= SESS_SET_MAX,
               "SESS_SET_MAX holds every setting");

const SessSetting *session_setting_find(const char *name)
{
	for (int i = 0; i < session_nsettings; i++)
		if (!strcmp(session_settings[i].name, name))
			return &session_settings[i];
	return NULL;
}

const SessSetting *session_setting_of(const SessAction *a)
{
	if (a->kind != SESS_SET || a->set.id < 0 || a->set.id >= session_nsettings)
		return NULL;
	return &session_settings[a->set.id];
}

SessAction session_setting_action(int id, double v)
{
	return (SessAction){.kind = SESS_SET, .set = {.id = id, .value = v}};
}

/* Where the session keeps a number. */
static double *number_at(Session *s, int id)
{
	const SessSetting *t = &session_settings[id];
	return t->off ? (double *)((char *)s + t->off) : &s->setv[id];
}

double session_setting_get(const Session *s, int id)
{
	return *number_at((Session *)s, id);
}

void session_settings_reset(Session *s)
{
	for (int i = 0; i < session_nsettings; i++)
		if (session_settings[i].type == SET_NUMBER)
			*number_at(s, i) = session_settings[i].def;
}

int session_setting_apply(Session *s, const SessAction *a, Err *e)
{
	const SessSetting *t = session_setting_of(a);
	if (!t)
		return err_set(e, "set: no setting %d", a->set.id);
	if (t->type == SET_SCHEDULE) {
		LrSchedule sc;
		sched_default(&sc);
		sc.warmup = a->set.warmup;
		if (sched_parse(a->set.spec, &sc, e) < 0)
			return err_prefix(e, "%s", t->name);
		s->topt.sched = sc;
		return 0;
	}
	if (t->set)
		return t->set(s, a->set.value, e) < 0 ? err_prefix(e, "%s", t->name) : 0;
	*number_at(s, a->set.id) = a->set.value;
	return 0;
}

int session_setting_check(const SessAction *a, Err *e)
{
	const SessSetting *t = session_setting_of(a);
	if (!t)
		return err_set(e, "set: no setting %d", a->set.id);
	if (t->type == SET_SCHEDULE)
		return a->set.warmup == 0
		           ? 0
		           : limit_check(LIM_WARMUP, a->set.warmup, "warmup", NULL, e);
	return limit_check(t->lim, a->set.value, t->name, NULL, e);
}

const char *session_setting_said(const SessAction *a, const Session *s, char *buf, size_t len)
{
	const SessSetting *t = session_setting_of(a);
	char spec[64];
	if (!t)
		snprintf(buf, len, "set");
	else if (t->type == SET_NUMBER)
		snprintf(buf, len, "%s = %g%s", t->sym, a->set.value, t->unit);
	else if (!s)
		snprintf(buf, len, "%s", t->name);
	else
		snprintf(buf, len, "schedule %s, warm-up %g epoch%s: the next trainings follow it",
		         sched_format(&s->topt.sched, spec, sizeof spec), s->topt.sched.warmup,
		         s->topt.sched.warmup == 1 ? "" : "s");
	return buf;
}

const char *session_setting_narrate(const SessAction *a, const Session *s, const char *over,
                                    int nover, char *buf, size_t len)
{
	const SessSetting *t = session_setting_of(a);
	if (t && t->narrate)
		t->narrate(s, over, nover, buf, len);
	else
		session_setting_said(a, s, buf, len);
	return buf;
}
