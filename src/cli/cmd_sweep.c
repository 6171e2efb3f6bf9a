/* cmd_sweep.c - `condnet sweep`: Algorithm 2 in one process, one trial per
 * process, or gathered from the trials' files (the plan of one command per
 * trial, for GNU parallel or Slurm: cmd_sweep_plan.c). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alg/alg2_scale.h"
#include "alg/alg2_trials.h"
#include "base/file.h"
#include "cli/cmd_sweep.h"
#include "cli/cmdlines.h"
#include "data/mnist.h"
#include "engine/graph_family.h"
#include "engine/train_plan.h"
#include "model/model_io.h"
#include "report/report.h"
#include "report/report_run.h"
#include "report/report_trials.h"

/* The defaults in the text come from alg2_opts_default. */
static const char help_fmt[] =
    "Usage: condnet sweep [OPTIONS]\n"
    "       condnet sweep --beta B --trial T --out FILE.json [OPTIONS]\n"
    "       condnet sweep --gather FILE.json... [OPTIONS]\n"
    "       condnet sweep --plan PLAN [OPTIONS]\n\n"
    "Algorithm 2: scale every hidden width of the base network (--load or --layers)\n"
    "by each beta, train each q times for eta epochs on the training part of a\n"
    "validation split, and pick the least 2*err_v - err_tr.\n"
    "A graph network (--load G.model, --onnx F.onnx) is scaled by its channel groups:\n"
    "beta multiplies the units of every group that may lose units, the others (the\n"
    "logits, a grouped convolution's channels) stay; its sweep runs in one process.\n\n"
    "  --beta LIST          1.0,1.2,1.4 or FROM:TO:STEP (default %.1f:%.1f:%.1f)\n"
    "  --q N                trainings per beta (default %d)\n"
    "  --eta E              epochs per training, > 0 (default %g)\n"
    "  --no-extend          do not add a beta beyond the smallest or largest when it wins\n"
    "  --max-extend N       add at most N beta values (default %d)\n"
    "  --final-epochs E     train the pick on all training data for E epochs and report\n"
    "                       its test accuracy; --save saves it (default 0: do not).\n"
    "                       --schedule, --warmup and --early-stop shape this training\n"
    "                       (the trials train eta epochs at the constant --lr); with\n"
    "                       --early-stop it trains on the training part of the split,\n"
    "                       at most E epochs, and keeps its best validation epoch\n"
    "  --jobs N             run N trials at once, each on its share of the --threads;\n"
    "                       the table is the same (default %d)\n"
    "  --trial T            run only trial T (0..q-1) of the single --beta B, write --out\n"
    "                       with the settings that change its numbers\n"
    "  --out FILE           where --trial writes its result (JSON); with --plan, the\n"
    "                       directory the planned trials write to (default trials)\n"
    "  --gather             the arguments are trial files: check that they form complete\n"
    "                       sets of q trials per beta, all made under this command's\n"
    "                       settings, and print the table and the pick\n"
    "  --plan FILE          write the command of every trial to FILE, one a line, for\n"
    "                       parallel < FILE or a Slurm job array; with --gather, the\n"
    "                       trials of the beta Algorithm 2 adds when the pick is at an\n"
    "                       edge (FILE is left empty when the sweep is done); - for\n"
    "                       standard output (the text then goes to standard error)\n";

enum {
	OPT_BETA = OPTS_OWN,
	OPT_Q,
	OPT_ETA,
	OPT_NO_EXTEND,
	OPT_MAX_EXTEND,
	OPT_FINAL,
	OPT_JOBS,
	OPT_TRIAL,
	OPT_OUT,
	OPT_GATHER,
	OPT_PLAN
};

static const struct option own[] = {
    {"beta", required_argument, NULL, OPT_BETA},
    {"q", required_argument, NULL, OPT_Q},
    {"eta", required_argument, NULL, OPT_ETA},
    {"no-extend", no_argument, NULL, OPT_NO_EXTEND},
    {"max-extend", required_argument, NULL, OPT_MAX_EXTEND},
    {"final-epochs", required_argument, NULL, OPT_FINAL},
    {"jobs", required_argument, NULL, OPT_JOBS},
    {"trial", required_argument, NULL, OPT_TRIAL},
    {"out", required_argument, NULL, OPT_OUT},
    {"gather", no_argument, NULL, OPT_GATHER},
    {"plan", required_argument, NULL, OPT_PLAN},
    OPTS_ONNX_OPTION,
    {0},
};

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	Sweep *s = ud;
	switch (opt) {
	case OPT_BETA:
		s->beta_given = 1;
		return alg2_parse_betas(arg, &s->o, e) ? err_prefix(e, "--beta") : 0;
	case OPT_Q:
		return limit_parse_int(LIM_Q, "--q", arg, &s->o.q, e);
	case OPT_ETA:
		return limit_parse(LIM_ETA, "--eta", arg, &s->o.eta, e);
	case OPT_NO_EXTEND:
		s->o.extend = 0;
		return 0;
	case OPT_MAX_EXTEND:
		return opts_int("--max-extend", arg, 0, 64, &s->o.max_extend, e);
	case OPT_FINAL: /* 0: no final training (the default) */
		if (!strcmp(arg, "0"))
			return s->final_epochs = 0, 0;
		return limit_parse(LIM_EPOCHS, "--final-epochs", arg, &s->final_epochs, e);
	case OPT_JOBS:
		return opts_int("--jobs", arg, 1, 64, &s->o.jobs, e);
	case OPT_TRIAL:
		return opts_int("--trial", arg, 0, 999, &s->trial, e);
	case OPT_OUT:
		s->out = arg;
		return 0;
	case OPT_GATHER:
		s->gather = 1;
		return 0;
	case OPT_PLAN:
		s->plan = arg;
		return 0;
	}
	return 0;
}

static void print_widths(const int *w, int m)
{
	for (int i = 0; i <= m; i++)
		printf("%s%d", i ? "-" : "", w[i]);
}

/* One line per finished trial (ud: the Progress). */
static void on_trial(const HookStep *st, void *ud)
{
	if (st->kind != HOOK_ALG2_TRIAL)
		return;
	const Alg2Trial *t = st->trial;
	progress_clear(ud);
	printf("beta %4.2f  trial %d/%d  err_tr %6.2f %%  err_v %6.2f %%  max κ %8.1f  %6.1f s\n",
	       t->beta, t->trial + 1, st->alg2->o.q, 100 * t->err_tr, 100 * t->err_v, t->max_kappa,
	       t->seconds);
	fflush(stdout);
}

int sweep_print_result(const Alg2 *a)
{
	Err e = {{0}};
	printf("\n");
	if (report_alg2(stdout, a, REPORT_TEXT, &e))
		fprintf(stderr, "condnet sweep: %s\n", e.msg);
	int pick = alg2_pick(a);
	if (pick < 0) {
		printf("\nno beta has all %d trials\n", a->o.q);
		return -1;
	}
	printf("\npick: beta %.2f, %s ", a->b[pick].beta,
	       a->base->graph ? "channel groups' units" : "widths");
	if (a->base->graph)
		for (int q = 0; q < a->nw; q++)
			printf("%s%d", q ? "," : "", a->b[pick].widths[q]);
	else
		print_widths(a->b[pick].widths, a->base->m);
	printf(", 2*err_v - err_tr = %.2f %%\n", 100 * a->b[pick].score);
	return pick;
}

/* Trains the pick on all training data (on its training part under early
 * stopping, the rest validating); its test accuracy into *acc. */
static int train_final(const CommonOpts *c, Sweep *s, const Alg2 *a, const Dataset *all,
                       const Dataset *test, double *acc, Err *e)
{
	TrainPlan plan;
	Dataset *tr = NULL, *val = NULL;
	Net *net = alg2_pick_net(a, c->seed, e);
	if (!net || setup_plan(c, all, NULL, s->final_epochs, &plan, &tr, &val, e) < 0) {
		net_free(net);
		return -1;
	}
	const Dataset *d = tr ? tr : all;
	char how[256];
	if (c->sched_given || plan.val)
		printf("final training: %s\n", setup_plan_str(&plan, NULL, how, sizeof how));
	progress_what(&s->prog, "final training");
	Hook h = progress_hook(&s->prog, NULL);
	int st = train_plan_fit(net, d, &plan, &h, &s->final, e);
	progress_clear(&s->prog);
	int rc = st < 0 ? -1 : st > 0 ? err_set(e, "interrupted during the final training") : 0;
	double train_acc;
	if (rc == 0 &&
	    (net_accuracy(net, test, NULL, acc, e) || net_accuracy(net, d, NULL, &train_acc, e)))
		rc = -1;
	if (rc == 0) {
		printf("final: %d epochs on %d rows", s->final.epochs, d->n);
		if (plan.val)
			printf(" (kept epoch %d: validation accuracy %.2f %%)", s->final.best_epoch,
			       100 * s->final.val_acc);
		printf(", train accuracy %.2f %%", train_acc);
		if (test)
			printf(", test accuracy: %.2f %%", *acc);
		printf("\n");
		if (c->save && !(rc = setup_save_model(net, c->save, all, e)))
			printf("saved %s\n", c->save);
	}
	net_free(net);
	dataset_free(tr);
	dataset_free(val);
	return rc;
}

static int alg2_csv(FILE *f, const void *a, Err *e)
{
	return report_alg2(f, a, REPORT_CSV, e);
}

/* The combinations of modes that make sense; 0, or 2 after the message. */
static int check_modes(const Sweep *s, int nfiles, const char *first_arg)
{
	const char *why = NULL;
	if (s->gather && nfiles < 1)
		why = "--gather needs trial files";
	else if (!s->gather && nfiles > 0) {
		fprintf(stderr, "condnet sweep: unexpected argument '%s'\n", first_arg);
		return 2;
	} else if (s->trial >= 0 && (!s->out || !s->beta_given || s->o.nbeta != 1))
		why = "--trial needs a single --beta B and --out FILE";
	else if (s->trial >= 0 && s->plan)
		why = "--plan does not go with --trial";
	else if (s->trial < 0 && s->out && !s->plan)
		why = "--out goes with --trial or --plan";
	if (why) {
		fprintf(stderr, "condnet sweep: %s\n", why);
		return 2;
	}
	if (s->trial >= s->o.q) {
		fprintf(stderr, "condnet sweep: --trial: %d is not below --q %d\n", s->trial,
		        s->o.q);
		return 2;
	}
	return 0;
}

/* The data set as the settings of a trial name it: --data (a CSV file by
 * its base name: the same file may lie elsewhere on another machine) and
 * the options that change its rows, their inputs or their split. */
static void data_setting(const CommonOpts *c, char *buf, size_t len)
{
	const char *spec = opts_data_name(c);
	char name[256] = "";
	if (!strncmp(spec, "csv:", 4)) {
		size_t k = (size_t)snprintf(name, sizeof name, "csv:");
		for (const char *p = spec + 4; *p && k < sizeof name;) {
			size_t n = strcspn(p, ",");
			const char *f = p;
			for (const char *q = p; q < p + n; q++)
				if (*q == '/')
					f = q + 1;
			k += (size_t)snprintf(name + k, sizeof name - k, "%s%.*s",
			                      p == spec + 4 ? "" : ",", (int)(p + n - f), f);
			p += n + (p[n] == ',');
		}
	} else {
		snprintf(name, sizeof name, "%s", spec);
	}
	static const char *const scales[] = {"raw", "center", "standardize"};
	char frac[40];
	plan_num(c->val_frac, frac, sizeof frac);
	/* inputs other than the paper's are named; the paper's are not, as
	 * before --inputs existed, so that earlier trials still gather */
	char inputs[40] = "";
	if (c->data.inputs != MNIST_QR)
		snprintf(inputs, sizeof inputs, " inputs=%s", mnist_inputs_name(c->data.inputs));
	snprintf(buf, len,
	         "%s features=%d label-col=%d limit=%d scale=%s val-frac=%s val-per-class=%d%s",
	         name, c->data.features, c->data.label_col, c->data.limit,
	         c->data.scale >= 0 && c->data.scale <= 2 ? scales[c->data.scale] : "?",
	         c->val_per_class > 0 ? "-" : frac, c->val_per_class, inputs);
}

/* --trial T: one trial of the single β, its result written to --out with
 * the settings it was made under. */
static int one_trial(Sweep *s, const Net *base, const Dataset *tr, const Dataset *v,
                     const Alg2Settings *st, Err *e)
{
	Alg2Trial t;
	double beta = s->o.betas[0];
	int *w = malloc((size_t)(base->m + 1) * sizeof *w);
	if (!w)
		return err_set(e, "out of memory");
	int rc = 0;
	if (alg2_trial(base, beta, s->trial, tr, v, &s->o, w, &t, NULL, e) ||
	    report_trial_write(s->out, &t, w, base->m, st, e))
		rc = -1;
	if (rc == 0) {
		printf("beta %g trial %d: widths ", beta, s->trial);
		print_widths(w, base->m);
		printf(", err_tr %.2f %%, err_v %.2f %%, max κ %.1f, %.1f s -> %s\n",
		       100 * t.err_tr, 100 * t.err_v, t.max_kappa, t.seconds, s->out);
	}
	free(w);
	return rc;
}

/* Every trial in this process, a line each; 1 when a signal stopped it. */
static int in_process(Sweep *s, const CommonOpts *c, Alg2 *a, const Dataset *tr, const Dataset *v,
                      Err *e)
{
	progress_trap_signals();
	Hook h = progress_hook(&s->prog, on_trial);
	char sh[512];
	printf("%s: Algorithm 2 on %s, %d training and %d validation rows, q %d, eta %g\n",
	       opts_data_name(c), net_shape_str(a->base, sh, sizeof sh), tr->n, v->n, s->o.q,
	       s->o.eta);
	int st = 0;
	while (st == 0 && !a->finished && !progress_interrupted()) {
		if (a->next >= 0 && a->next < a->nb)
			progress_what(&s->prog, "beta %.2f", a->b[a->next].beta);
		st = alg2_step(a, &h, e);
		progress_clear(&s->prog);
	}
	if (st > 0 || progress_interrupted())
		return 1;
	return st < 0 ? -1 : 0;
}

/* --json and --csv of the finished sweep. */
static int write_outputs(const CommonOpts *c, const Sweep *s, const Alg2 *a, double final_acc,
                         int interrupted, Err *e)
{
	char spec[64];
	SweepRun r = {.data = opts_data_name(c),
	              .interrupted = interrupted,
	              .final = isfinite(final_acc),
	              .final_epochs = s->final_epochs,
	              .final_test_acc = final_acc,
	              .final_schedule = sched_format(&c->train.sched, spec, sizeof spec),
	              .final_warmup = c->train.sched.warmup,
	              .final_early_stop = c->early_stop,
	              .final_result = s->final};
	if (c->json && report_write_record(c->json, report_sweep_run_json(a, &r, e), e))
		return -1;
	if (c->csv && report_write_file(c->csv, alg2_csv, a, e))
		return -1;
	return 0;
}

/* The β list checked before the data are read: two β that give the same
 * network, or a β whose network is past the limits even with one input and
 * two classes (the data's own sizes are checked once they are known). */
static int check_betas_early(const CommonOpts *c, const Sweep *s, Err *e)
{
	if (c->load || c->onnx) {
		Net *net = setup_make_net_any(c, NULL, e);
		int rc = net && (alg2_check_betas(net, s->o.betas, s->o.nbeta, e) ||
		                 alg2_check_distinct(net, s->o.betas, s->o.nbeta, e))
		             ? -1
		             : 0;
		net_free(net);
		return net ? rc : -1;
	}
	const char *spec = c->layers ? c->layers : opts_default_layers(c->data.spec);
	if (graph_family_spec(spec)) /* its graph is made, and checked, with the data */
		return 0;
	LayerSpec *ls = NULL;
	int nh = 0;
	if (layers_parse(spec, &ls, &nh, e))
		return err_prefix(e, "--layers");
	/* the units of every layer: a convolution's channels scale as widths do,
	 * its maps' sizes are known once the images are */
	int conv = layers_conv_count(ls, nh);
	int *w = malloc((size_t)(nh + 2) * sizeof *w);
	int rc = w ? 0 : err_set(e, "out of memory");
	if (w) {
		w[0] = 1;
		for (int i = 0; i < nh; i++)
			w[i + 1] = ls[i].units;
		w[nh + 1] = 2;
		Net shape = {.m = nh + 1, .n = w};
		int *bw = malloc((size_t)(nh + 2) * sizeof *bw);
		rc = bw ? 0 : err_set(e, "out of memory");
		for (int i = 0; !conv && bw && rc == 0 && i < s->o.nbeta; i++) {
			char what[96];
			snprintf(what, sizeof what,
			         "β = %g: even with one input and two classes, "
			         "its network",
			         s->o.betas[i]);
			alg2_scaled_widths(&shape, s->o.betas[i], bw);
			rc = limit_check_widths(shape.m, bw, what, NULL, e);
		}
		free(bw);
		if (rc == 0)
			rc = alg2_check_distinct(&shape, s->o.betas, s->o.nbeta, e);
	}
	free(w);
	free(ls);
	return rc;
}

/* The command line into c and s; the first file argument at *first. 0, 1
 * after --help, 2 after an error (said on stderr). */
static int parse_args(int argc, char **argv, CommonOpts *c, Sweep *s, int *first)
{
	opts_default(c);
	alg2_opts_default(&s->o);
	char help[sizeof help_fmt + 96];
	snprintf(help, sizeof help, help_fmt, s->o.betas[0], s->o.betas[s->o.nbeta - 1],
	         s->o.betas[1] - s->o.betas[0], s->o.q, s->o.eta, s->o.max_extend, s->o.jobs);
	s->own = own;
	int pr = opts_parse(argc, argv, c, NULL, own, own_opt, s, help, first);
	if (pr)
		return pr;
	s->o.seed = c->seed;
	s->o.train = c->train;
	sched_default(&s->o.train.sched); /* the schedule is the final training's */
	int nfiles = argc - *first;
	if (check_modes(s, nfiles, *first < argc ? argv[*first] : ""))
		return 2;
	if ((c->sched_given || c->early_stop > 0) && !(s->final_epochs > 0)) {
		fprintf(stderr,
		        "condnet sweep: --schedule, --warmup and --early-stop shape the final "
		        "training: give --final-epochs E\n");
		return 2;
	}
	return 0;
}

/* Algorithm 2 with the trials of the files read back (--gather); *next is
 * the β to run next, NaN when the sweep is done. */
static Alg2 *gather(const Sweep *s, const Net *base, char **files, int nfiles,
                    const Alg2Settings *settings, double *next, Err *e)
{
	Alg2TrialFile *tf = report_trials_read(files, nfiles, e);
	Alg2 *a =
	    tf ? alg2_gather(base, &s->o, s->beta_given, tf, nfiles, settings, next, e) : NULL;
	alg2_trial_files_free(tf, tf ? nfiles : 0);
	return a;
}

/* The outputs, checked before any work: --out, the trial's file or the
 * directory of the planned trials, --plan, and the nfiles trial files a
 * gather reads (files). */
static int check_outputs(const CommonOpts *c, const Sweep *s, char **files, int nfiles, Err *e)
{
	CliOut *outs = calloc(3 + (size_t)(nfiles > 0 ? nfiles : 0), sizeof *outs);
	if (!outs)
		return err_set(e, "out of memory");
	outs[0] = (CliOut){s->trial >= 0 ? s->out : NULL, FILE_OUT_TEXT, "--out", NULL};
	outs[1] =
	    (CliOut){s->trial < 0 && s->plan ? (s->out || s->gather ? s->out : "trials") : NULL,
	             CLI_OUT_DIR, "--out", NULL};
	outs[2] = (CliOut){s->plan, FILE_OUT_TEXT, "--plan", NULL};
	for (int i = 0; s->gather && i < nfiles; i++)
		outs[3 + i] = (CliOut){files[i], CLI_IN, "--gather", NULL};
	int rc = cli_check_outputs(c, outs, 3 + (s->gather ? nfiles : 0), e);
	free(outs);
	return rc;
}

/* The data (none for a gather of a loaded network that trains no final
 * one), the network every β scales, every β's network held to the limits
 * before any trial trains or is planned, and Algorithm 2's split. */
static int prepare(const CommonOpts *c, const Sweep *s, Dataset **all, Dataset **test, Net **base,
                   Dataset **tr, Dataset **v, Err *e)
{
	int need_data = !s->gather || !(c->load || c->onnx) || s->final_epochs > 0;
	if (need_data && setup_load_data_any(c, all, test, e))
		return -1;
	if (!(*base = setup_make_net_any(c, *all, e)))
		return -1;
	if ((*base)->graph && (s->trial >= 0 || s->plan || s->gather))
		return err_set(e,
		               "%s is for chains: a graph network's sweep runs in one process "
		               "(--jobs runs its trials side by side)",
		               s->trial >= 0 ? "--trial"
		               : s->plan     ? "--plan"
		                             : "--gather");
	/* every β's network within the limits before any trial trains (or is planned) */
	if (!s->gather && alg2_check_betas(*base, s->o.betas, s->o.nbeta, e))
		return -1;
	/* a residual family's graph is made only now: two β of one network too */
	if (!(c->load || c->onnx) && (*base)->graph &&
	    alg2_check_distinct(*base, s->o.betas, s->o.nbeta, e))
		return -1;
	if (!s->gather && dataset_split(*all, c->val_per_class > 0 ? 0 : c->val_frac,
	                                c->val_per_class, c->seed, tr, v, e))
		return -1;
	return 0;
}

/* Long on purpose: the sweep's four ways (one trial, a plan, a gather, the
 * whole sweep) share their data, network and outputs, and one exit that
 * frees them. */
int cmd_sweep(int argc, char **argv)
{
	CommonOpts c;
	Sweep s = {.trial = -1};
	Dataset *all = NULL, *test = NULL, *tr = NULL, *v = NULL;
	Net *base = NULL;
	Alg2 *a = NULL;
	Err e = {{0}};
	int rc = 1, first = 0;

	int pr = parse_args(argc, argv, &c, &s, &first);
	if (pr)
		return pr == 1 ? 0 : 2;
	int nfiles = argc - first;
	if (check_outputs(&c, &s, argv + first, nfiles, &e))
		goto fail;
	if (s.plan && sweep_check_plan_words(&s, &c, argc, argv, &e)) {
		fprintf(stderr, "condnet sweep: %s\n", e.msg);
		return 2;
	}
	if (opts_dry_run("sweep"))
		return 0;
	progress_init(&s.prog, "condnet sweep", c.quiet, 1);

	if (!s.gather && check_betas_early(&c, &s, &e))
		goto fail;
	if (prepare(&c, &s, &all, &test, &base, &tr, &v, &e))
		goto fail;
	char data[512];
	data_setting(&c, data, sizeof data);
	Alg2Settings settings;
	alg2_settings(&settings, &s.o, base, all, data);
	if (s.trial >= 0) {
		rc = one_trial(&s, base, tr, v, &settings, &e) ? cli_fail("sweep", &e) : 0;
		goto out;
	}
	if (s.plan && !s.gather) {
		rc = sweep_plan(&s, &c, argc, argv, base, &e) ? cli_fail("sweep", &e) : 0;
		goto out;
	}
	if (s.gather) {
		double next;
		if (!(a = gather(&s, base, argv + first, nfiles, &settings, &next, &e)))
			goto fail;
		if (!isnan(next)) { /* the sweep goes on: the outputs wait for its end */
			sweep_print_result(a);
			rc = sweep_plan_next(&s, &c, argc, argv, a, next, argv[first], &e)
			         ? cli_fail("sweep", &e)
			         : 0;
			goto out;
		}
		if (s.plan && plan_empty(s.plan, &e))
			goto fail;
	} else {
		if (!(a = alg2_new(base, tr, v, &s.o, &e)))
			goto fail;
		int st = in_process(&s, &c, a, tr, v, &e);
		if (st > 0) {
			sweep_print_result(a);
			fprintf(stderr,
			        "condnet sweep: interrupted; the table holds the trials done\n");
			rc = write_outputs(&c, &s, a, NAN, 1, &e) ? cli_fail("sweep", &e) : 130;
			goto out;
		}
		if (st < 0)
			goto fail;
	}
	int pick = sweep_print_result(a);
	if (s.gather && s.plan)
		printf("%s: no trials left, the sweep is complete\n", s.plan);
	double final_acc = NAN;
	if (pick >= 0 && s.final_epochs > 0 && train_final(&c, &s, a, all, test, &final_acc, &e)) {
		if (progress_interrupted()) {
			fprintf(stderr, "condnet sweep: %s\n", e.msg);
			rc = write_outputs(&c, &s, a, NAN, 1, &e) ? cli_fail("sweep", &e) : 130;
			goto out;
		}
		goto fail;
	}
	if (write_outputs(&c, &s, a, final_acc, 0, &e))
		goto fail;
	rc = pick >= 0 ? 0 : 1;
	goto out;
fail:
	rc = cli_fail("sweep", &e);
out:
	alg2_free(a);
	net_free(base);
	dataset_free(all);
	dataset_free(test);
	dataset_free(tr);
	dataset_free(v);
	return rc;
}
