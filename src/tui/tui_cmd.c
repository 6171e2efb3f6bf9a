/* tui_cmd.c - `condnet tui`: the options the screen honours, the session it
 * opens on (data, network, τ and η, each a logged action), and lessons. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/mnist.h"
#include "data/plane_sets.h"
#include "engine/graph_family.h"
#include "engine/limits.h"
#include "model/model_io.h"
#include "session/session_setting.h"
#include "setup/opts.h"
#include "setup/places.h"
#include "setup/setup.h"
#include "tui/lesson.h"
#include "tui/tui.h"
#include "tui/views.h"

/* What the plane data sets open with: a training that learns them (the
 * rate, the epochs t proposes) at a speed a class can follow. */
#define TUI_PLANE_LR 0.01
#define TUI_PLANE_EPOCHS 300
#define TUI_PLANE_SPEED 30.0

/* The data options, with the screen's default data set. */
#define TUI_DATA_HELP OPTS_DATA_HELP_DEFAULT("mnist when fetched, else synthetic") OPTS_INPUTS_HELP

static const char tui_help_fmt[] =
    "Usage: condnet [tui] [OPTIONS]\n"
    "       condnet tui --play LESSON [OPTIONS]\n\n"
    "The interactive screen. Without --data it opens MNIST (200 Haar-wavelet\n"
    "features) when fetched, else the built-in synthetic set; the plane data\n"
    "sets open on the Plane view. With --play only --delay, --speed, --present,\n"
    "--ascii and --data-dir go with the lesson.\n"
    "Data:\n" TUI_DATA_HELP "Validation:\n"
    "  --val-frac F         validation fraction of every class for the sweep and early\n"
    "                       stopping (default 0.1)\n"
    "  --val-per-class N    validation rows of every class (replaces --val-frac)\n"
    "  --early-stop P       the patience of every t training: hold out the validation\n"
    "                       split, stop when its accuracy has not improved for P epochs\n"
    "                       and keep the best epoch's weights (S sets it on the screen)\n"
    "Network:\n" OPTS_NETWORK_HELP
    "  --load MODEL         open a saved model instead of --layers (a chain or a\n"
    "                       graph network: a graph's layer table and diagram, its\n"
    "                       training, z its squeeze by channel groups; Algorithms\n"
    "                       1 and 2 and the edits take chains)\n"
    "  --onnx FILE          or a network in an ONNX file, read as 'condnet import'\n"
    "  --seed S             seed of the weights, the batch order and the split (default 1)\n"
    "Training:\n"
    "  --batch B            mini-batch size (default 50)\n"
    "  --lr LR              Adam learning rate (default 0.001; the plane data sets\n"
    "                       0.01)\n"
    "  --threads N          threads to compute on, 1..64 (default 2, or "
    "$OPENBLAS_NUM_THREADS)\n" OPTS_MODE_HELP
    "                       (the header's second line says which: reproducible, or\n"
    "                       the kernels OpenBLAS runs)\n" OPTS_COND_PATH_HELP OPTS_WIDE_HELP
    "  --schedule SPEC      the learning rate over every later training: constant\n"
    "                       (default), step:E[:F], cosine[:T] or plateau:P[:F] (as in\n"
    "                       'condnet train --help'; S sets it on the screen)\n"
    "  --warmup W           raise the rate linearly from 0 over the first W epochs of\n"
    "                       every training (default 0)\n"
    "Algorithms:\n"
    "  --tau T              threshold on kappa (default 25)\n"
    "  --eta E              epochs of every training of Algorithms 1 and 2 (default 1;\n"
    "                       synthetic 10, the plane data sets 50)\n"
    "  --beta LIST          the beta list b proposes (default 1.0:2.4:0.2; synthetic\n"
    "                       and the plane data sets 0.2:1.4:0.2)\n"
    "  --q N                the trainings per beta b proposes (default 5)\n"
    "Screen:\n"
    "  --ascii              ASCII characters only, no colours\n"
    "  --present            start in presentation mode: the view on the whole screen,\n"
    "                       without the status and key rows (P switches, Esc leaves)\n"
    "  --log FILE           the session log (default $XDG_STATE_HOME/condnet/session-TIME.log,\n"
    "                       else ~/.local/state/condnet/; the newest %d are kept),\n"
    "                       locked while the screen writes it; /dev/null keeps none\n"
    "  --play LESSON        play a recorded session as a lesson: a file, or an installed\n"
    "                       lesson (algorithm1, squeeze, mnist, plane, network)\n"
    "  --delay S            with --play: the next action every S seconds, not on "
    "keys\n"
    "  --speed E            the trainings on the screen at E epochs a second (from\n"
    "                       1/86400, one a day, to 100000), the regions, maps and\n"
    "                       diagram drawn after every epoch, or\n"
    "                       full (the default; the plane data sets %g; { } change "
    "it)\n" OPTS_DRY_RUN_HELP "  -h, --help           this text\n\n"
    "On the screen ? lists the keys and x explains the numbers; %s\n"
    "explains everything.\n";

enum {
	OPT_ASCII = OPTS_OWN,
	OPT_LOG,
	OPT_TAU,
	OPT_ETA,
	OPT_BETA,
	OPT_Q,
	OPT_PLAY,
	OPT_DELAY,
	OPT_PRESENT,
	OPT_SPEED
};

/* The common options the screen takes (their help is its own): all but
 * the batch commands' outputs. */
#define TUI_COMMON                                                                                 \
	(OPTS_ALL &                                                                                \
	 ~(OPTS_BIT(OPTS_SAVE) | OPTS_BIT(OPTS_JSON) | OPTS_BIT(OPTS_CSV) | OPTS_BIT(OPTS_QUIET)))
static const struct option own[] = {
    {"tau", required_argument, NULL, OPT_TAU},
    {"eta", required_argument, NULL, OPT_ETA},
    {"beta", required_argument, NULL, OPT_BETA},
    {"q", required_argument, NULL, OPT_Q},
    {"ascii", no_argument, NULL, OPT_ASCII},
    {"log", required_argument, NULL, OPT_LOG},
    {"play", required_argument, NULL, OPT_PLAY},
    {"delay", required_argument, NULL, OPT_DELAY},
    {"present", no_argument, NULL, OPT_PRESENT},
    {"speed", required_argument, NULL, OPT_SPEED},
    OPTS_ONNX_OPTION,
    {0},
};

typedef struct TuiArgs {
	CommonOpts co;
	unsigned long given; /* bit (code - OPTS_DATA) of each common option given */
	int ascii, q, own_given, present;
	const char *log, *play, *betas;
	double tau, eta, delay, speed; /* speed: NaN when not given, 0 full */
} TuiArgs;

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	TuiArgs *t = ud;
	if (opt < OPTS_OWN) {
		t->given |= 1UL << (opt - OPTS_DATA);
		return opts_handle(&t->co, opt, arg, e) < 0 ? -1 : 0;
	}
	if (opt != OPT_ASCII && opt != OPT_PLAY && opt != OPT_DELAY && opt != OPT_PRESENT &&
	    opt != OPT_SPEED)
		t->own_given = 1;
	switch (opt) {
	case OPT_ASCII:
		t->ascii = 1;
		return 0;
	case OPT_PRESENT:
		t->present = 1;
		return 0;
	case OPT_LOG:
		t->log = arg;
		return 0;
	case OPT_TAU:
		return limit_parse(LIM_TAU, "--tau", arg, &t->tau, e);
	case OPT_ETA:
		return limit_parse(LIM_ETA, "--eta", arg, &t->eta, e);
	case OPT_BETA: {
		Alg2Opts o;
		if (alg2_parse_betas(arg, &o, e) < 0)
			return err_prefix(e, "--beta");
		t->betas = arg;
		return 0;
	}
	case OPT_Q:
		return limit_parse_int(LIM_Q, "--q", arg, &t->q, e);
	case OPT_PLAY:
		t->play = arg;
		return 0;
	case OPT_DELAY:
		return opts_double("--delay", arg, 0, 0, 3600, &t->delay, e);
	case OPT_SPEED:
		return limit_parse_speed("--speed", arg, &t->speed, e);
	}
	return 0;
}

/* MNIST and Fashion-MNIST build their Haar-wavelet features on the first
 * start: say so before the terminal goes quiet. */
static void loading(const char *spec)
{
	if (!strncmp(spec, "mnist", 5) || !strncmp(spec, "fashion", 7))
		fprintf(stderr,
		        "condnet: loading %s (the first start computes the Haar-wavelet features "
		        "and caches them; that takes a while)...\n",
		        spec);
}

static int apply(Session *s, const SessAction *a, Err *e)
{
	return session_apply(s, a, NULL, e);
}

/* A model loaded reads its inputs as its record says, unless --inputs or
 * --features say otherwise: on MNIST or Fashion-MNIST (spec) its pixels or
 * as many Haar coefficients (whose choice the check after the load
 * compares), and its scale step; into the data action's fields a. 0, or -1 with a
 * message. */
static int record_inputs(const CommonOpts *co, const char *spec, SessDataArgs *a, Err *e)
{
	const char *path = co->load ? co->load : co->onnx;
	Net *model = session_read_net(path, !co->load, e);
	if (!model)
		return -1;
	const Prep *rec = model->prep;
	int rc = setup_check_scale(co->data.scale, rec, path, e);
	int images = !strcmp(spec, "mnist") || !strcmp(spec, "fashion");
	if (rc == 0 && rec && images && !co->inputs_given && !co->features_given) {
		if (rec->kind == PREP_PIXELS)
			a->inputs = MNIST_PIXELS;
		if (rec->kind == PREP_HAAR)
			a->features = rec->d;
	}
	if (rc == 0 && rec)
		a->scale = rec->scale;
	net_free(model);
	return rc;
}

/* The data set, options, schedule, network, τ and η, as logged actions
 * (--early-stop goes with every train action, as the screen's setting). */
static int open_session(Session *s, TuiArgs *ta, const char *spec, Err *e)
{
	CommonOpts *co = &ta->co;
	SessAction a = {.kind = SESS_DATA,
	                .data = {.features = co->data.features,
	                         .label_col = co->data.label_col,
	                         .seed = co->data.seed,
	                         .limit = co->data.limit,
	                         .scale = co->data.scale,
	                         .val_frac = co->val_frac,
	                         .val_per_class = co->val_per_class,
	                         .points = co->data.points,
	                         .has_noise = co->data.noise >= 0,
	                         .noise = co->data.noise,
	                         .inputs = co->data.inputs}};
	SessDataArgs *d = &a.data;
	memcpy(d->shape, co->data.shape, sizeof d->shape);
	if (co->load && co->onnx)
		return err_set(e, "--load %s and --onnx %s name two networks: give one", co->load,
		               co->onnx);
	const char *path = co->load ? co->load : co->onnx;
	if (path && record_inputs(co, spec, d, e) < 0)
		return -1;
	snprintf(d->spec, sizeof d->spec, "%s", spec);
	snprintf(d->dir, sizeof d->dir, "%s", co->data.dir ? co->data.dir : "");
	loading(spec);
	if (apply(s, &a, e) < 0)
		return -1;
	a = (SessAction){.kind = SESS_OPTS,
	                 .opts = {.batch = co->train.batch,
	                          .lr = co->train.adam.lr,
	                          .threads = co->train.threads}};
	if (apply(s, &a, e) < 0)
		return -1;
	if (co->sched_given) {
		a = (SessAction){.kind = SESS_SET,
		                 .set = {.id = SET_SCHED, .warmup = co->train.sched.warmup}};
		sched_format(&co->train.sched, a.set.spec, sizeof a.set.spec);
		if (apply(s, &a, e) < 0)
			return -1;
	}
	if (path) {
		/* the seed of the trainings that follow (the header shows it) */
		a = (SessAction){.kind = SESS_LOAD,
		                 .load = {.onnx = !co->load, .seed = co->seed, .has_seed = 1}};
		snprintf(a.load.path, sizeof a.load.path, "%s", path);
	} else {
		/* the default widths come from the batch commands' choice */
		Net *shape = setup_make_net_any(co, s->train, e);
		if (!shape)
			return -1;
		a = (SessAction){
		    .kind = SESS_NET,
		    .net = {.act = (int)co->act, .act_a = co->act_a, .seed = co->seed}};
		char *w = a.net.layers;
		size_t k = 0, len = sizeof a.net.layers;
		/* convolutions and graphs as --layers names them, dense widths one by one */
		if (shape->nconv || shape->graph)
			snprintf(w, len, "%s", co->layers);
		for (int i = 1; !shape->nconv && !shape->graph && i < shape->m && k < len - 12; i++)
			k += (size_t)snprintf(w + k, len - k, i > 1 ? ",%d" : "%d", shape->n[i]);
		net_free(shape);
	}
	if (apply(s, &a, e) < 0)
		return -1;
	if (path && s->net && s->train &&
	    setup_check_prep(s->net->prep, s->train->prep, path, e) < 0)
		return -1;
	/* the synthetic set's lessons need more than one epoch per training, and
	 * the plane's, of 300 points (6 batches), more still */
	double eta = !isnan(ta->eta)              ? ta->eta
	             : !strcmp(spec, "synthetic") ? 10
	             : plane_set_is(spec)         ? 50
	                                          : NAN;
	SessAction tau = session_setting_action(SET_TAU, ta->tau),
	           eta_a = session_setting_action(SET_ETA, eta);
	if (!isnan(ta->tau) && apply(s, &tau, e) < 0)
		return -1;
	if (!isnan(eta) && apply(s, &eta_a, e) < 0)
		return -1;
	s->dirty = 0;
	return 0;
}

/* The screen draws on standard output and reads keys from standard input:
 * both must be a terminal. Without one, reading keys would never block
 * (end of input for ever) and the screen would spin; refused, saying which. */
static int need_terminal(void)
{
	const char *which = !isatty(STDIN_FILENO)    ? "standard input"
	                    : !isatty(STDOUT_FILENO) ? "standard output"
	                                             : NULL;
	if (!which)
		return 0;
	fprintf(stderr,
	        "condnet tui: %s is not a terminal: the screen needs one to draw on and read "
	        "keys from ('condnet replay LOG' runs a session log without one)\n",
	        which);
	return 1;
}

static int play(TuiArgs *ta, const TuiSetup *defaults)
{
	Err e = {{0}};
	unsigned long dir = 1UL << (OPTS_DATA_DIR - OPTS_DATA);
	if ((ta->given & ~dir) || ta->own_given) {
		fprintf(stderr,
		        "condnet tui: --play takes the lesson's data, network and settings; "
		        "only --delay, --speed, --present, --ascii and --data-dir go with it\n");
		return 2;
	}
	if (opts_dry_run("tui"))
		return 0;
	Lesson *l = calloc(1, sizeof *l);
	Session *s = session_new(&e);
	if (!l || !s || lesson_load(ta->play, l, &e) < 0 || need_terminal() ||
	    setup_reserve(&ta->co, 0, &e) < 0) {
		if (e.msg[0] || !l || !s)
			fprintf(stderr, "condnet tui: %s\n", e.msg[0] ? e.msg : "out of memory");
		session_free(s);
		if (l)
			lesson_free(l);
		free(l);
		return 1;
	}
	s->replay = 1; /* a lesson's save lines write nothing */
	for (int k = 0; k < l->setup; k++) {
		SessDataArgs *d = &l->a[k].data;
		if (l->a[k].kind == SESS_DATA && ta->co.data.dir)
			snprintf(d->dir, sizeof d->dir, "%s", ta->co.data.dir);
		if (l->a[k].kind == SESS_DATA)
			loading(d->spec);
		if (apply(s, &l->a[k], &e) < 0) {
			fprintf(stderr, "condnet tui: %s: action %d: %s\n", l->path, k + 1, e.msg);
			session_free(s);
			lesson_free(l);
			free(l);
			return 1;
		}
	}
	s->dirty = 0;
	char note[2700];
	Err warn = {{0}};
	/* recorded under other kernels or parts: said before it starts, and kept
	 * on the screen's first line of news */
	const char *w = session_log_check(l->path, &warn) < 0 ? warn.msg : NULL;
	if (w)
		fprintf(stderr, "condnet tui: %s\n", w);
	/* the file's name, not its directory: what a class reads first */
	const char *name = strrchr(l->path, '/') ? strrchr(l->path, '/') + 1 : l->path;
	snprintf(
	    note, sizeof note,
	    "%s%slesson %.1000s: %d actions; right arrow (or Enter) plays the next, left steps "
	    "back",
	    w ? w : "", w ? "; " : "", name, l->n - l->setup);
	TuiSetup su = *defaults;
	su.note = note;
	su.lesson = l;
	int rc = tui_run(s, &su);
	lesson_free(l);
	free(l);
	return rc;
}

/* The data set: --data's, else MNIST when fetched, else the synthetic set
 * (note says which); 1 when it is one a lesson of the synthetic kind trains
 * on (the synthetic set or one of the plane). */
static int choose_data(TuiArgs *ta, char *note, size_t len)
{
	const char *spec = ta->co.data.spec;
	int synthetic = !ta->play && (!spec || !strcmp(spec, "synthetic") || plane_set_is(spec));
	if (!spec && !ta->play && datasets_available("mnist", ta->co.data.dir)) {
		spec = "mnist", synthetic = 0;
		snprintf(note, len, "data: MNIST, %d Haar-wavelet features (the default)",
		         ta->co.data.features);
	} else if (!spec) {
		spec = "synthetic";
		snprintf(note, len,
		         "data: the built-in synthetic set (MNIST is not fetched: %.400s mnist)",
		         datasets_fetch());
	} else {
		snprintf(note, len, "data: %s", spec);
	}
	ta->co.data.spec = spec; /* and the batch commands' default widths for it */
	return synthetic;
}

/* --log: a file a log can be (not a FIFO, a directory…), and an output
 * that never takes the place of the model or the data read. */
static int check_log(const TuiArgs *ta, Err *e)
{
	if (ta->log && session_log_check_path(ta->log, e) < 0)
		return -1;
	FileRole r[SETUP_MAX_ROLES + 1];
	char bufs[SETUP_MAX_ROLES][PATH_MAX];
	int nr = setup_roles(&ta->co, r, bufs);
	r[nr++] = (FileRole){"--log", ta->log, 1, NULL, NULL, NULL};
	return file_roles_apart(r, nr, e);
}

/* The session, its log (--log /dev/null keeps none) and its first actions,
 * then the screen on it. */
static int run_screen(TuiArgs *ta, const char *spec, const TuiSetup *su)
{
	Err e = {{0}};
	char logbuf[1024];
	Session *s = session_new(&e);
	if (!s) {
		fprintf(stderr, "condnet: %s\n", e.msg);
		return 1;
	}
	const char *logp = ta->log;
	if (!logp && session_default_log_path(logbuf, sizeof logbuf, &e) == 0)
		logp = logbuf;
	if (!logp || (!session_log_is_none(logp) && session_log_open(s, logp, &e) < 0) ||
	    open_session(s, ta, spec, &e) < 0) {
		fprintf(stderr, "condnet: %s\n", e.msg);
		session_free(s);
		return 1;
	}
	return tui_run(s, su);
}

int tui_cmd(int argc, char **argv)
{
	TuiArgs ta = {.tau = NAN, .eta = NAN, .speed = NAN};
	Err e = {{0}};
	static char help[sizeof tui_help_fmt + 1200];
	opts_default(&ta.co);
	snprintf(help, sizeof help, tui_help_fmt, SESS_LOG_KEEP, TUI_PLANE_SPEED,
	         places_man_hint());
	struct option table[opts_table_len(own)];
	opts_table(table, opts_table_len(own), TUI_COMMON, own);
	int pr = opts_parse(argc, argv, NULL, NULL, table, own_opt, &ta, help, NULL);
	if (pr)
		return pr == 1 ? 0 : 2;
	if ((ta.co.data.points > 0 || ta.co.data.noise >= 0) && !plane_set_is(ta.co.data.spec)) {
		fprintf(stderr,
		        "condnet tui: --points and --noise go with a plane data set (--data %s)\n",
		        PLANE_SET_NAMES);
		return 2;
	}
	char note[512];
	int synthetic = choose_data(&ta, note, sizeof note);
	const char *spec = ta.co.data.spec;
	unsigned long feat = 1UL << (OPTS_FEATURES - OPTS_DATA);
	if ((ta.given & feat) && strncmp(spec, "mnist", 5) && strncmp(spec, "fashion", 7)) {
		fprintf(stderr,
		        "condnet tui: --features: %s has no Haar-wavelet features to choose "
		        "(--data mnist and --data fashion have)\n",
		        spec);
		return 2;
	}
	/* the plane data sets open on the Plane view, with a training that learns
	 * them at a speed a class can follow (a chain's: a residual family's
	 * graph opens on its layers) */
	int plane = !ta.play && plane_set_is(spec) && !graph_family_spec(ta.co.layers);
	if (plane && !(ta.given & 1UL << (OPTS_LR - OPTS_DATA)))
		ta.co.train.adam.lr = TUI_PLANE_LR;
	TuiSetup su = {ta.ascii,
	               note,
	               NULL,
	               ta.delay,
	               ta.betas    ? ta.betas
	               : synthetic ? "0.2:1.4:0.2"
	                           : "1.0:2.4:0.2",
	               ta.q ? ta.q : 5,
	               ta.co.early_stop,
	               ta.present,
	               !isnan(ta.speed) ? ta.speed
	               : plane          ? TUI_PLANE_SPEED
	                                : 0,
	               !isnan(ta.speed),
	               plane ? VIEW_PLANE : VIEW_LAYERS,
	               plane ? TUI_PLANE_EPOCHS : 1};
	if (ta.play)
		return play(&ta, &su);
	if (ta.delay > 0) {
		fprintf(stderr, "condnet tui: --delay goes with --play\n");
		return 2;
	}
	/* the log named is checked first (its messages), then the terminal,
	 * before the log is created or a data set read */
	if (check_log(&ta, &e) < 0) {
		fprintf(stderr, "condnet: %s\n", e.msg);
		return 1;
	}
	if (opts_dry_run("tui"))
		return 0;
	if (need_terminal())
		return 1;
	return run_screen(&ta, spec, &su);
}
