/* cmd_sweep.c - `condnet sweep`: Algorithm 2 in one process, one trial per
 * process, or gathered from the trials' files. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/alg2_scale.h"
#include "engine/alg2_trials.h"
#include "engine/train_plan.h"
#include "cli/cli.h"
#include "engine/model_io.h"
#include "cli/progress.h"
#include "engine/report.h"

/* The defaults in the text come from alg2_opts_default. */
static const char help_fmt[] =
	"Usage: condnet sweep [OPTIONS]\n"
	"       condnet sweep --beta B --trial T --out FILE.json [OPTIONS]\n"
	"       condnet sweep --gather FILE.json... [OPTIONS]\n\n"
	"Algorithm 2: scale every hidden width of the base network (--load or --layers)\n"
	"by each beta, train each q times for eta epochs on the training part of a\n"
	"validation split, and pick the least 2*err_v - err_tr.\n\n"
	"  --beta LIST          1.0,1.2,1.4 or FROM:TO:STEP (default %.1f:%.1f:%.1f)\n"
	"  --q N                trainings per beta (default %d)\n"
	"  --eta E              epochs per training, > 0 (default %g)\n"
	"  --no-extend          do not add a beta beyond the smallest or largest when it wins\n"
	"  --max-extend N       add at most N beta values (default %d)\n"
	"  --final-epochs E     train the pick on all training data for E epochs and report\n"
	"                       its test accuracy; --save saves it (default 0: do not)\n"
	"  --jobs N             run N trials at once, each on its share of the --threads;\n"
	"                       the table is the same (default %d)\n"
	"  --trial T            run only trial T (0..q-1) of the single --beta B, write --out\n"
	"  --out FILE           where --trial writes its result (JSON)\n"
	"  --gather             the arguments are trial files: check that they form complete\n"
	"                       sets of q trials per beta and print the table and the pick\n";

enum { OPT_BETA = CLI_OPT_OWN, OPT_Q, OPT_ETA, OPT_NO_EXTEND, OPT_MAX_EXTEND, OPT_FINAL,
       OPT_JOBS, OPT_TRIAL, OPT_OUT, OPT_GATHER };

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
	{0},
};

typedef struct Sweep {
	Alg2Opts o;
	int beta_given;
	double final_epochs;
	int trial;          /* -1: not single-trial mode */
	const char *out;
	int gather;
	Progress prog;
} Sweep;

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	Sweep *s = ud;
	switch (opt) {
	case OPT_BETA:
		s->beta_given = 1;
		return alg2_parse_betas(arg, &s->o, e) ? err_prefix(e, "--beta") : 0;
	case OPT_Q:
		return cli_int("--q", arg, 1, 1000, &s->o.q, e);
	case OPT_ETA:
		return cli_double("--eta", arg, 0, 1, 1e6, &s->o.eta, e);
	case OPT_NO_EXTEND:
		s->o.extend = 0;
		return 0;
	case OPT_MAX_EXTEND:
		return cli_int("--max-extend", arg, 0, 64, &s->o.max_extend, e);
	case OPT_FINAL:
		return cli_double("--final-epochs", arg, 0, 0, 1e6, &s->final_epochs, e);
	case OPT_JOBS:
		return cli_int("--jobs", arg, 1, 64, &s->o.jobs, e);
	case OPT_TRIAL:
		return cli_int("--trial", arg, 0, 999, &s->trial, e);
	case OPT_OUT:
		s->out = arg;
		return 0;
	case OPT_GATHER:
		s->gather = 1;
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
	       t->beta, t->trial + 1, st->alg2->o.q, 100 * t->err_tr, 100 * t->err_v,
	       t->max_kappa, t->seconds);
	fflush(stdout);
}

/* The Table 2 layout and the pick; returns the pick's index or -1. */
static int print_result(const Alg2 *a)
{
	printf("\n");
	report_alg2(stdout, a, REPORT_TEXT);
	int pick = alg2_pick(a);
	if (pick < 0) {
		printf("\nno beta has all %d trials\n", a->o.q);
		return -1;
	}
	printf("\npick: beta %.2f, widths ", a->b[pick].beta);
	print_widths(a->b[pick].widths, a->base->m);
	printf(", 2*err_v - err_tr = %.2f %%\n", 100 * a->b[pick].score);
	return pick;
}

/* Trains the pick on all training data; its test accuracy into *acc. */
static int train_final(const CommonOpts *c, Sweep *s, const Alg2 *a, const Dataset *all,
		       const Dataset *test, double *acc, Err *e)
{
	Net *net = alg2_pick_net(a, c->seed, e);
	if (!net)
		return -1;
	progress_what(&s->prog, "final training");
	TrainPlan plan;
	train_plan_default(&plan, &c->train, s->final_epochs);
	Hook h = progress_hook(&s->prog, NULL);
	int st = train_plan_run(net, all, &plan, &h, NULL, e);
	progress_clear(&s->prog);
	if (st != 0) {
		net_free(net);
		return st < 0 ? -1 : err_set(e, "interrupted during the final training");
	}
	*acc = test ? 100 * (1 - net_error(net, test, NULL)) : NAN;
	printf("final: %g epochs on %d rows, train accuracy %.2f %%", s->final_epochs, all->n,
	       100 * (1 - net_error(net, all, NULL)));
	if (test)
		printf(", test accuracy: %.2f %%", *acc);
	printf("\n");
	int rc = 0;
	if (c->save && !(rc = model_save(net, c->save, e)))
		printf("saved %s\n", c->save);
	net_free(net);
	return rc;
}

static void alg2_csv(FILE *f, const void *a)
{
	report_alg2(f, a, REPORT_CSV);
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
	else if (s->trial < 0 && s->out)
		why = "--out goes with --trial";
	if (why) {
		fprintf(stderr, "condnet sweep: %s\n", why);
		return 2;
	}
	if (s->trial >= s->o.q) {
		fprintf(stderr, "condnet sweep: --trial: %d is not below --q %d\n", s->trial, s->o.q);
		return 2;
	}
	return 0;
}

/* --trial T: one trial of the single β, its result written to --out. */
static int one_trial(Sweep *s, const Net *base, const Dataset *tr, const Dataset *v, Err *e)
{
	Alg2Trial t;
	double beta = s->o.betas[0];
	int *w = malloc((size_t)(base->m + 1) * sizeof *w);
	if (!w)
		return err_set(e, "out of memory");
	alg2_scaled_widths(base, beta, w);
	Net *shape = net_new(base->m, w, base->act, base->act_a, e);
	int rc = shape ? 0 : -1;
	if (rc == 0 && (alg2_trial_train(shape, beta, s->trial, tr, v, &s->o, &t, NULL, NULL, e) ||
			alg2_trial_write_json(s->out, &t, w, base->m, e)))
		rc = -1;
	if (rc == 0) {
		printf("beta %g trial %d: widths ", beta, s->trial);
		print_widths(w, base->m);
		printf(", err_tr %.2f %%, err_v %.2f %%, max κ %.1f, %.1f s -> %s\n",
		       100 * t.err_tr, 100 * t.err_v, t.max_kappa, t.seconds, s->out);
	}
	net_free(shape);
	free(w);
	return rc;
}

/* Every trial in this process, a line each; 1 when a signal stopped it. */
static int in_process(Sweep *s, const CommonOpts *c, Alg2 *a, const Dataset *tr,
		      const Dataset *v, Err *e)
{
	progress_trap_signals();
	Hook h = progress_hook(&s->prog, on_trial);
	char sh[512];
	printf("%s: Algorithm 2 on %s, %d training and %d validation rows, q %d, eta %g\n",
	       cli_data_name(c), net_shape_str(a->base, sh, sizeof sh), tr->n, v->n, s->o.q,
	       s->o.eta);
	int st;
	do {
		if (a->next >= 0 && a->next < a->nb)
			progress_what(&s->prog, "beta %.2f", a->b[a->next].beta);
		st = alg2_step(a, &h, e);
		progress_clear(&s->prog);
	} while (st == 0 && !progress_interrupted());
	if (progress_interrupted())
		return 1;
	return st < 0 ? -1 : 0;
}

/* --json and --csv of the finished sweep. */
static int write_outputs(const CommonOpts *c, const Sweep *s, const Alg2 *a, double final_acc,
			 Err *e)
{
	if (c->json) {
		cJSON *r = report_alg2_json(a, e);
		if (r) {
			cJSON_AddStringToObject(r, "data", cli_data_name(c));
			if (isfinite(final_acc)) {
				cJSON_AddNumberToObject(r, "final_epochs", s->final_epochs);
				cJSON_AddNumberToObject(r, "final_test_accuracy", final_acc);
			}
		}
		int bad = report_write_json(c->json, r, e);
		cJSON_Delete(r);
		if (bad)
			return -1;
	}
	if (c->csv && report_write_file(c->csv, alg2_csv, a, e))
		return -1;
	return 0;
}

int cmd_sweep(int argc, char **argv)
{
	CommonOpts c;
	Sweep s = {.trial = -1};
	Dataset *all = NULL, *test = NULL, *tr = NULL, *v = NULL;
	Net *base = NULL;
	Alg2 *a = NULL;
	Err e = {{0}};
	int rc = 1, first = 0;

	cli_common_default(&c);
	alg2_opts_default(&s.o);
	char help[sizeof help_fmt + 96];
	snprintf(help, sizeof help, help_fmt, s.o.betas[0], s.o.betas[s.o.nbeta - 1],
		 s.o.betas[1] - s.o.betas[0], s.o.q, s.o.eta, s.o.max_extend, s.o.jobs);
	int pr = cli_parse(argc, argv, &c, NULL, own, own_opt, &s, help, &first);
	if (pr)
		return pr == 1 ? 0 : 2;
	s.o.seed = c.seed;
	s.o.train = c.train;
	int nfiles = argc - first;
	if (check_modes(&s, nfiles, first < argc ? argv[first] : ""))
		return 2;
	progress_init(&s.prog, "condnet sweep", c.quiet, 1);

	int need_data = !s.gather || !c.load || s.final_epochs > 0;
	if (need_data && cli_load_data(&c, &all, &test, &e))
		goto fail;
	if (!(base = cli_make_net(&c, all, &e)))
		goto fail;
	if (!s.gather && dataset_split(all, c.val_per_class > 0 ? 0 : c.val_frac, c.val_per_class,
				       c.seed, &tr, &v, &e))
		goto fail;
	if (s.trial >= 0) {
		rc = one_trial(&s, base, tr, v, &e) ? cli_fail("sweep", &e) : 0;
		goto out;
	}
	if (s.gather) {
		if (!(a = alg2_gather(base, &s.o, s.beta_given, argv + first, nfiles, &e)))
			goto fail;
	} else {
		if (!(a = alg2_new(base, tr, v, &s.o, &e)))
			goto fail;
		int st = in_process(&s, &c, a, tr, v, &e);
		if (st > 0) {
			print_result(a);
			fprintf(stderr, "condnet sweep: interrupted; the table holds the trials done\n");
			rc = 130;
			goto out;
		}
		if (st < 0)
			goto fail;
	}
	int pick = print_result(a);
	double final_acc = NAN;
	if (pick >= 0 && s.final_epochs > 0 &&
	    train_final(&c, &s, a, all, test, &final_acc, &e)) {
		if (progress_interrupted()) {
			fprintf(stderr, "condnet sweep: %s\n", e.msg);
			rc = 130;
			goto out;
		}
		goto fail;
	}
	if (write_outputs(&c, &s, a, final_acc, &e))
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
