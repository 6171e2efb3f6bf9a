/* tui.c - the interactive screen: options, key handling, prompts, main loop. */
#include "tui/tui.h"

#include <curses.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "tui/screen.h"
#include "tui/views.h"
#include "tui/worker.h"

typedef enum PromptKind {
	P_NONE = 0,
	P_TAU,
	P_ETA,
	P_EPOCHS,
	P_BETAS,
	P_Q,
	P_SAVE,
	P_OPEN,
	P_EXPORT,
	P_QUIT
} PromptKind;

typedef struct Tui {
	Worker *w;
	UiState u;
	PromptKind pk;
	char prompt[160], input[1024], def[1024];
	size_t ilen;
	char betas[256]; /* the β list while q is asked */
	int synthetic;
	double tau, eta;  /* as they will be after every queued change */
	char model[1024]; /* the last path saved or opened */
	int quit;
} Tui;

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void submit(Tui *t, const Job *j)
{
	if (worker_submit(t->w, j) < 0)
		worker_status(t->w, 1, "too many queued changes: wait or press Esc");
}

/* Operations are refused, not queued, while another runs: returns 1 after
 * saying so in the status line. */
static int refuse_busy(Tui *t)
{
	char what[128];
	const Pub *p = worker_lock(t->w);
	int busy = p->ops > 0;
	snprintf(what, sizeof what, "%s", p->running[0] ? p->running : "an operation");
	worker_unlock(t->w);
	if (busy)
		worker_status(t->w, 1, "busy: %s %s press Esc to stop, space to pause", what,
		              screen_ascii() ? "-" : "\u2014");
	return busy;
}

static void submit_action(Tui *t, const SessAction *a)
{
	Job j = {.kind = JOB_ACTION, .a = *a};
	if (!refuse_busy(t))
		submit(t, &j);
}

static void submit_kind(Tui *t, JobKind k, int apply)
{
	Job j = {.kind = k};
	j.a.apply = apply;
	if (!refuse_busy(t))
		submit(t, &j);
}

/* τ or η: queued behind a running operation, which keeps the old value. */
static void set_value(Tui *t, SessKind k, double x)
{
	Job j = {.kind = JOB_ACTION, .a = {.kind = k, .x = x}};
	const Pub *p = worker_lock(t->w);
	j.quiet = p->ops > 0;
	worker_unlock(t->w);
	if (k == SESS_TAU)
		t->tau = x;
	else
		t->eta = x;
	submit(t, &j);
	if (j.quiet)
		worker_status(t->w, 0,
		              "%s = %g applies to the next operation, not to the running one",
		              screen_sym(k == SESS_TAU ? SYM_TAU : SYM_ETA), x);
}

static void ask(Tui *t, PromptKind k, const char *q, const char *def)
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

static int parse_pos(const char *s, double min, double *x)
{
	char *end;
	*x = strtod(s, &end);
	return *s && !*end && isfinite(*x) && *x >= min;
}

/* The answer to the open prompt. */
static void answer(Tui *t)
{
	PromptKind k = t->pk;
	const char *v = t->ilen ? t->input : t->def;
	double x;
	t->pk = P_NONE;
	switch (k) {
	case P_TAU:
	case P_ETA:
	case P_EPOCHS:
		if (!parse_pos(v, 1e-9, &x) || (k == P_TAU && x <= 1)) {
			worker_status(t->w, 1, "not a number %s: '%s'", k == P_TAU ? "> 1" : "> 0",
			              v);
		} else if (k == P_EPOCHS) {
			SessAction a = {.kind = SESS_TRAIN, .x = x};
			submit_action(t, &a);
		} else {
			set_value(t, k == P_TAU ? SESS_TAU : SESS_ETA, x);
		}
		break;
	case P_BETAS: {
		Alg2Opts o;
		Err e = {{0}};
		alg2_opts_default(&o);
		if (alg2_parse_betas(v, &o, &e) < 0) {
			worker_status(t->w, 1, "beta list: %s", e.msg);
			break;
		}
		snprintf(t->betas, sizeof t->betas, "%.255s", v);
		ask(t, P_Q, "trainings per beta, q", t->synthetic ? "2" : "5");
		break;
	}
	case P_Q: {
		SessAction a = {.kind = SESS_SWEEP};
		if (!parse_pos(v, 1, &x) || x != floor(x) || x > 1000) {
			worker_status(t->w, 1, "q must be a whole number from 1 to 1000, not '%s'",
			              v);
			break;
		}
		a.q = (int)x;
		snprintf(a.spec, sizeof a.spec, "%s", t->betas);
		submit_action(t, &a);
		t->u.view = VIEW_SWEEP;
		break;
	}
	case P_SAVE:
	case P_OPEN: {
		SessAction a = {.kind = k == P_SAVE ? SESS_SAVE : SESS_LOAD};
		snprintf(a.path, sizeof a.path, "%s", v);
		snprintf(t->model, sizeof t->model, "%s", v);
		submit_action(t, &a);
		break;
	}
	case P_EXPORT: {
		Job j = {.kind = JOB_EXPORT};
		snprintf(j.path, sizeof j.path, "%s", v);
		submit(t, &j);
		break;
	}
	case P_QUIT:
		t->quit = v[0] == 'y' || v[0] == 'Y';
		break;
	default:
		break;
	}
}

static void prompt_key(Tui *t, int ch)
{
	if (ch == 27) {
		t->pk = P_NONE;
	} else if (t->pk == P_QUIT) {
		t->input[0] = (char)ch;
		t->input[1] = '\0';
		t->ilen = 1;
		answer(t);
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		answer(t);
	} else if (ch == 21) { /* Ctrl-U */
		t->input[0] = '\0';
		t->ilen = 0;
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (t->ilen)
			t->input[--t->ilen] = '\0';
	} else if (ch >= ' ' && ch < 256 && ch != 127 && t->ilen + 1 < sizeof t->input) {
		t->input[t->ilen++] = (char)ch;
		t->input[t->ilen] = '\0';
	}
}

static void key(Tui *t, int ch)
{
	const Pub *p = worker_lock(t->w);
	int busy = p->busy || p->queued, waiting = p->sq.waiting, dirty = p->dirty;
	int pick = p->sweep_state == 2 && p->pick >= 0;
	worker_unlock(t->w);
	if (t->u.help) {
		t->u.help = 0;
		return;
	}
	if (t->pk) {
		prompt_key(t, ch);
		return;
	}
	if (t->u.view == VIEW_SQUEEZE && waiting && (ch == 'y' || ch == 'n' || ch == 'a')) {
		submit_kind(t, ch == 'a' ? JOB_SQZ_ALL : JOB_SQZ_DECIDE, ch != 'n');
		return;
	}
	switch (ch) {
	case '\t':
		t->u.view = (ViewId)((t->u.view + 1) % VIEW_COUNT);
		break;
	case KEY_BTAB:
		t->u.view = (ViewId)((t->u.view + VIEW_COUNT - 1) % VIEW_COUNT);
		break;
	case '1':
	case '2':
	case '3':
	case '4':
		t->u.view = (ViewId)(ch - '1');
		break;
	case '?':
		t->u.help = 1;
		break;
	case '+':
	case '=':
		set_value(t, SESS_TAU, t->tau * 1.25);
		break;
	case '-':
		if (t->tau / 1.25 > 1)
			set_value(t, SESS_TAU, t->tau / 1.25);
		else
			worker_status(t->w, 1, "%s must stay above 1", screen_sym(SYM_TAU));
		break;
	case ']':
		set_value(t, SESS_ETA, t->eta * 1.25);
		break;
	case '[':
		set_value(t, SESS_ETA, t->eta / 1.25);
		break;
	case 'T':
		ask(t, P_TAU, "tau =", "");
		break;
	case 'E':
		ask(t, P_ETA, "eta (epochs) =", "");
		break;
	case 's':
	case 'r': {
		SessAction a = {.kind = ch == 's' ? SESS_ALG1_STEP : SESS_ALG1_RUN};
		if (refuse_busy(t))
			break;
		submit_action(t, &a);
		t->u.view = VIEW_ALG1;
		break;
	}
	case 't':
		if (!refuse_busy(t))
			ask(t, P_EPOCHS, "train epochs", "1");
		break;
	case 'b':
		if (!refuse_busy(t))
			ask(t, P_BETAS, "beta list", t->synthetic ? "0.6:1.6:0.2" : "1.0:2.4:0.2");
		break;
	case 'z':
		if (refuse_busy(t))
			break;
		submit_kind(t, JOB_SQZ_START, 0);
		t->u.view = VIEW_SQUEEZE;
		break;
	case 'A':
		if (t->u.view != VIEW_SWEEP)
			worker_status(t->w, 0,
			              "A adopts the beta sweep's pick in the sweep view (3)");
		else if (!busy && !pick)
			worker_status(t->w, 1, "no finished beta sweep to adopt from: b runs one");
		else
			submit_kind(t, JOB_ADOPT, 0);
		break;
	case 'c':
		if (t->u.view == VIEW_SQUEEZE) {
			Job j = {.kind = JOB_SQZ_COMP};
			submit(t, &j); /* a setting, like τ: never refused */
		}
		break;
	case 'u': {
		SessAction a = {.kind = SESS_UNDO};
		submit_action(t, &a);
		break;
	}
	case 'w':
		if (!refuse_busy(t))
			ask(t, P_SAVE, "save to", t->model[0] ? t->model : "condnet.model");
		break;
	case 'o':
		if (!refuse_busy(t))
			ask(t, P_OPEN, "open", t->model[0] ? t->model : "condnet.model");
		break;
	case 'e':
		if (!refuse_busy(t))
			ask(t, P_EXPORT, "export tables to", "condnet-tables.md");
		break;
	case ' ': {
		int r = worker_toggle_pause(t->w);
		if (r < 0)
			worker_status(t->w, 0,
			              "nothing to pause: space pauses a running operation");
		else
			worker_status(t->w, 0, r ? "paused: space resumes, Esc stops" : "resumed");
		break;
	}
	case 27:
		if (waiting && !busy)
			submit_kind(t, JOB_SQZ_STOP, 0);
		else
			worker_cancel(t->w);
		break;
	case 'q':
		if (dirty || busy)
			ask(t, P_QUIT,
			    busy ? "an operation is running; quit anyway? (y/n)"
			         : "unsaved changes; quit anyway? (y/n)",
			    "");
		else
			t->quit = 1;
		break;
	default:
		break;
	}
}

int tui_run(Session *s, int ascii, const char *note)
{
	Tui t = {0};
	Err e = {{0}};
	char log[1024];
	t.synthetic = !strcmp(s->data_spec, "synthetic");
	t.tau = s->tau;
	t.eta = s->eta;
	snprintf(log, sizeof log, "%s", s->log_path);
	if (screen_init(ascii, &e) < 0) {
		fprintf(stderr, "condnet: %s\n", e.msg);
		session_free(s);
		return 1;
	}
	struct sigaction sa = {0};
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (!(t.w = worker_start(s, &e))) {
		screen_end();
		fprintf(stderr, "condnet: %s\n", e.msg);
		session_free(s);
		return 1;
	}
	worker_status(t.w, 0, "%s", note);
	while (!t.quit && !got_signal) {
		if (!screen_too_small()) {
			const Pub *p = worker_lock(t.w);
			t.u.prompt = t.pk ? t.prompt : NULL;
			t.u.input = t.input;
			t.u.tau = t.tau;
			t.u.eta = t.eta;
			views_draw(p, &t.u);
			worker_unlock(t.w);
		}
		refresh();
		int ch = getch();
		if (ch == ERR || ch == KEY_RESIZE)
			continue;
		key(&t, ch);
	}
	worker_stop(t.w);
	screen_end();
	session_free(s);
	if (log[0])
		printf("session log: %s\n", log);
	return got_signal ? 128 + got_signal : 0;
}

static const char tui_help[] =
    "Usage: condnet [tui] [OPTIONS]\n\n"
    "The interactive screen. Without --data it opens MNIST (200 Haar-wavelet\n"
    "features) when fetched, else the built-in synthetic set.\n"
    "  --ascii        ASCII characters only, no colours\n"
    "  --log FILE     the session log (default: $XDG_STATE_HOME/condnet/session-TIME.log)\n"
    "  -h, --help     this text\n\n";

enum { OPT_ASCII = CLI_OPT_OWN, OPT_LOG };

static const struct option own[] = {
	{"ascii", no_argument, NULL, OPT_ASCII},
	{"log", required_argument, NULL, OPT_LOG},
	{0},
};

typedef struct TuiArgs {
	int ascii;
	const char *log;
} TuiArgs;

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	TuiArgs *t = ud;
	if (opt == OPT_ASCII)
		t->ascii = 1;
	else if (opt == OPT_LOG)
		t->log = arg;
	return 0;
}

int cmd_tui(int argc, char **argv)
{
	TuiArgs ta = {0};
	CommonOpts co;
	Err e = {{0}};
	cli_common_default(&co);
	int pr = cli_parse(argc, argv, &co, NULL, own, own_opt, &ta, tui_help, NULL);
	if (pr)
		return pr == 1 ? 0 : 2;
	int ascii = ta.ascii;
	const char *logp = ta.log;
	char note[512], logbuf[1024];
	const char *spec = co.data.spec;
	if (!spec) {
		int mnist = datasets_available("mnist", co.data.dir);
		spec = mnist ? "mnist" : "synthetic";
		snprintf(note, sizeof note,
		         mnist ? "data: MNIST, %d Haar-wavelet features (the default)"
		               : "data: the built-in synthetic set (MNIST is not fetched: "
		                 "data/fetch mnist)",
		         co.data.features);
		co.data.spec = spec; /* and the batch commands' default widths for it */
	} else {
		snprintf(note, sizeof note, "data: %s", spec);
	}
	Session *s = session_new(&e);
	if (!s) {
		fprintf(stderr, "condnet: out of memory\n");
		return 1;
	}
	if (!logp) {
		if (session_default_log_path(logbuf, sizeof logbuf, &e) < 0)
			goto fail;
		logp = logbuf;
	}
	if (session_log_open(s, logp, &e) < 0)
		goto fail;
	SessAction a = {.kind = SESS_DATA,
	                .features = co.data.features,
	                .label_col = co.data.label_col,
	                .seed = co.data.seed,
	                .limit = co.data.limit,
	                .scale = co.data.scale,
	                .x = co.val_frac,
	                .val_per_class = co.val_per_class};
	snprintf(a.spec, sizeof a.spec, "%s", spec);
	snprintf(a.path, sizeof a.path, "%s", co.data.dir ? co.data.dir : "");
	if (session_apply(s, &a, NULL, &e) < 0)
		goto fail;
	a = (SessAction){.kind = SESS_OPTS,
	                 .batch = co.train.batch,
	                 .x = co.train.adam.lr,
	                 .threads = co.train.threads};
	if (session_apply(s, &a, NULL, &e) < 0)
		goto fail;
	if (co.load) {
		a = (SessAction){.kind = SESS_LOAD};
		snprintf(a.path, sizeof a.path, "%s", co.load);
	} else {
		/* the default widths come from the batch commands' choice */
		Net *shape = cli_make_net(&co, s->train, &e);
		if (!shape)
			goto fail;
		a = (SessAction){
		    .kind = SESS_NET, .act = (int)co.act, .x = co.act_a, .seed = co.seed};
		size_t k = 0;
		for (int i = 1; i < shape->m && k < sizeof a.spec - 12; i++)
			k += (size_t)snprintf(a.spec + k, sizeof a.spec - k, i > 1 ? ",%d" : "%d",
			                      shape->n[i]);
		net_free(shape);
	}
	if (session_apply(s, &a, NULL, &e) < 0)
		goto fail;
	s->dirty = 0;
	return tui_run(s, ascii, note);
fail:
	fprintf(stderr, "condnet: %s\n", e.msg);
	session_free(s);
	return 1;
}
