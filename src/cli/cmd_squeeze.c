/* cmd_squeeze.c - `condnet squeeze`: Algorithm 3 on a saved model, with or
 * without compensation, by another criterion or to given counts, retrained,
 * repeated until nothing is removed, or compared with the simple rules
 * (--compare, cmd_squeeze_compare.c). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/blas.h"
#include "base/file.h"
#include "cli/cmd_squeeze.h"
#include "engine/cond.h"
#include "engine/model_io.h"
#include "engine/net_cost.h"
#include "engine/report.h"
#include "engine/report_squeeze.h"

enum { MAX_ROUNDS = 20 };

/* The default τ in the text comes from squeeze_opts_default. */
static const char help_fmt[] =
	"Usage: condnet squeeze --load MODEL [OPTIONS]\n\n"
	"Algorithm 3: in every hidden layer whose stacked matrix [W; b] has a condition\n"
	"number above tau, keep the neurons a column-pivoted QR ranks first and remove\n"
	"the others. Layers are decided in order, each after the earlier layers'\n"
	"removals: the per-layer table shows kappa as given, at decision and after, and\n"
	"how many neurons the |r_jj| threshold and then the kappa loop removed. Prints\n"
	"the test accuracy before squeezing, after it and after retraining, the same\n"
	"squeeze with the other compensation setting (a different network, with its own\n"
	"count), and the parameters, multiply-adds, model-file size and measured\n"
	"forward time before and after.\n\n"
	"  --tau T              threshold on the condition number, > 1 (default %g);\n"
	"                       with --compare a list: 30,20,10,6,4\n"
	"  --no-while           keep every neuron the QR threshold keeps, without dropping\n"
	"                       pivots until kappa <= tau\n"
	"  --compensate         refit the next layer by least squares (the result kept)\n"
	"  --criterion C        which neurons a layer keeps: qr (pivoted QR, the paper's;\n"
	"                       default), norm (the largest L2 norms of the outgoing\n"
	"                       weights, a neuron's row of the next W: the smallest go)\n"
	"                       or random (seeded by --seed); how many stays Algorithm\n"
	"                       3's decision at tau unless --keep-counts gives them\n"
	"  --keep-counts SPEC   neurons every hidden layer keeps, instead of deciding at\n"
	"                       tau: the JSON record of another squeeze (its n after), or\n"
	"                       a file or argument with one width per hidden layer\n"
	"                       (280,250,3x100)\n"
	"  --retrain E          train the squeezed network E epochs; --schedule, --warmup\n"
	"                       and --early-stop shape this training (with --early-stop on\n"
	"                       the training part of the split, at most E epochs, keeping\n"
	"                       the best validation epoch)\n"
	"  --until-stable       squeeze and retrain again until nothing is removed\n"
	"                       (at most 20 rounds; needs --retrain)\n"
	"  --compare            at every tau, the counts Algorithm 3 decides, then the\n"
	"                       test accuracy with those counts kept by qr, norm and\n"
	"                       random (mean and sd over --draws; the share of draws at\n"
	"                       least as good as qr), without and with compensation and,\n"
	"                       with --retrain, retrained; nothing is saved\n"
	"  --draws R            random draws per tau for --compare (default 20)\n"
	"  --retrain-draws K    retrain only the first K random draws (default all)\n"
	"  --plot PREFIX        with --compare: PREFIX.dat, PREFIX.gp and, where gnuplot\n"
	"                       is installed, PREFIX.png (accuracy against the fraction\n"
	"                       of hidden neurons removed)\n"
	"  --no-timing          count parameters, multiply-adds and file bytes, but do\n"
	"                       not time the forward pass\n";

enum {
	OPT_TAU = CLI_OPT_OWN, OPT_NO_WHILE, OPT_COMPENSATE, OPT_RETRAIN, OPT_UNTIL_STABLE,
	OPT_CRITERION, OPT_KEEP_COUNTS, OPT_COMPARE, OPT_DRAWS, OPT_RETRAIN_DRAWS, OPT_PLOT,
	OPT_NO_TIMING
};

static const struct option own[] = {
	{"tau", required_argument, NULL, OPT_TAU},
	{"no-while", no_argument, NULL, OPT_NO_WHILE},
	{"compensate", no_argument, NULL, OPT_COMPENSATE},
	{"retrain", required_argument, NULL, OPT_RETRAIN},
	{"until-stable", no_argument, NULL, OPT_UNTIL_STABLE},
	{"criterion", required_argument, NULL, OPT_CRITERION},
	{"keep-counts", required_argument, NULL, OPT_KEEP_COUNTS},
	{"compare", no_argument, NULL, OPT_COMPARE},
	{"draws", required_argument, NULL, OPT_DRAWS},
	{"retrain-draws", required_argument, NULL, OPT_RETRAIN_DRAWS},
	{"plot", required_argument, NULL, OPT_PLOT},
	{"no-timing", no_argument, NULL, OPT_NO_TIMING},
	{0},
};

/* --tau T[,T…]: each > 1. */
static int parse_taus(const char *arg, Squeeze *s, Err *e)
{
	char buf[1024];
	if (snprintf(buf, sizeof buf, "%s", arg) >= (int)sizeof buf)
		return err_set(e, "--tau: list too long");
	s->ntau = 0;
	char *save = NULL;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (s->ntau == SQUEEZE_MAX_TAUS)
			return err_set(e, "--tau: more than %d values", SQUEEZE_MAX_TAUS);
		if (limit_parse(LIM_TAU, "--tau", t, &s->taus[s->ntau], e))
			return -1;
		s->ntau++;
	}
	if (s->ntau == 0 || arg[strlen(arg) - 1] == ',')
		return err_set(e, "--tau: '%s' is not a number or a list of numbers", arg);
	s->so.tau = s->taus[0];
	return 0;
}

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	Squeeze *s = ud;
	int c;
	switch (opt) {
	case OPT_TAU:
		return parse_taus(arg, s, e);
	case OPT_NO_WHILE:
		s->so.while_loop = 0;
		return 0;
	case OPT_COMPENSATE:
		s->so.compensate = 1;
		return 0;
	case OPT_RETRAIN:
		return limit_parse(LIM_EPOCHS, "--retrain", arg, &s->retrain, e);
	case OPT_UNTIL_STABLE:
		s->until_stable = 1;
		return 0;
	case OPT_CRITERION:
		if ((c = squeeze_criterion_parse(arg)) < 0)
			return err_set(e,
				       "--criterion: unknown criterion '%s' (expected qr, norm "
				       "or random)",
				       arg);
		s->so.criterion = (SqueezeCriterion)c;
		return 0;
	case OPT_KEEP_COUNTS:
		s->keep_spec = arg;
		return 0;
	case OPT_COMPARE:
		s->compare = 1;
		return 0;
	case OPT_DRAWS:
		return cli_int("--draws", arg, 1, 100000, &s->draws, e);
	case OPT_RETRAIN_DRAWS:
		return cli_int("--retrain-draws", arg, 0, 100000, &s->retrain_draws, e);
	case OPT_PLOT:
		s->plot = arg;
		return 0;
	case OPT_NO_TIMING:
		s->timing = 0;
		return 0;
	}
	return 0;
}

/* Counts from a squeeze record: "n" after of every hidden layer ("layers"),
 * or "keep_counts" (a comparison at one τ). */
static int counts_from_json(const cJSON *j, const Net *net, int *keep, Err *e)
{
	const cJSON *layers = cJSON_GetObjectItemCaseSensitive(j, "layers");
	const cJSON *kc = cJSON_GetObjectItemCaseSensitive(j, "keep_counts");
	const cJSON *cmp = cJSON_GetObjectItemCaseSensitive(j, "comparisons");
	if (!kc && cJSON_IsArray(cmp) && cJSON_GetArraySize(cmp) == 1)
		kc = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cmp, 0), "keep_counts");
	int h = net->m - 1, n = 0;
	if (cJSON_IsArray(kc)) {
		const cJSON *v;
		cJSON_ArrayForEach(v, kc)
		{
			if (!cJSON_IsNumber(v) || n == h)
				return err_set(e, "keep_counts: expected %d integers", h);
			keep[n++] = v->valueint;
		}
	} else if (cJSON_IsArray(layers)) {
		const cJSON *l;
		cJSON_ArrayForEach(l, layers)
		{
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(l, "n_after");
			if (!cJSON_IsNumber(v))
				return err_set(e, "layers: an entry without \"n_after\"");
			if (n < h)
				keep[n] = v->valueint;
			n++;
		}
		n = n == net->m ? h : n; /* the output layer's entry closes the list */
	} else
		return err_set(e, "neither \"keep_counts\" nor \"layers\" (nor one comparison) "
				  "in the record");
	return squeeze_check_counts(net, keep, n, e);
}

/* --keep-counts SPEC: a JSON record, or a widths list in a file or the
 * argument itself. */
static int load_counts(Squeeze *s, const Net *net, Err *e)
{
	int h = net->m - 1;
	if (!(s->keep = malloc((size_t)(h > 0 ? h : 1) * sizeof *s->keep)))
		return err_set(e, "out of memory");
	char *text = NULL;
	size_t len = 0;
	FILE *f = fopen(s->keep_spec, "rb");
	if (f) {
		fclose(f);
		if (!(text = file_slurp(s->keep_spec, 1 << 24, &len, e)))
			return err_prefix(e, "--keep-counts");
	}
	const char *spec = text ? text : s->keep_spec;
	int rc;
	spec += strspn(spec, " \t\r\n");
	if (*spec == '{') {
		cJSON *j = cJSON_Parse(spec);
		rc = j ? counts_from_json(j, net, s->keep, e)
		       : err_set(e, "not valid JSON near offset %ld",
				 (long)(cJSON_GetErrorPtr() - spec));
		cJSON_Delete(j);
	} else {
		char buf[4096];
		snprintf(buf, sizeof buf, "%.*s", (int)strcspn(spec, "\r\n"), spec);
		int *w = NULL, n = 0;
		rc = net_parse_layers(buf, &w, &n, e);
		if (rc == 0 && n == h)
			memcpy(s->keep, w, (size_t)n * sizeof *w);
		if (rc == 0)
			rc = squeeze_check_counts(net, s->keep, n, e);
		free(w);
	}
	free(text);
	if (rc)
		return err_prefix(e, "--keep-counts %s", s->keep_spec);
	s->so.keep_counts = s->keep;
	return 0;
}

/* The counts, and the forward time unless --no-timing. */
static int cost_of(const Squeeze *s, const Net *net, NetCost *c, Err *e)
{
	if (s->timing)
		return net_cost_measure(net, 7, c, e);
	net_cost_count(net, c);
	return 0;
}

static void print_costs(const NetCost *a, const NetCost *b, cJSON *rec, Err *e)
{
	if (a->repeats > 0)
		printf("\nwhat the network costs (forward time: median of %d repeats, %d OpenBLAS "
		       "thread%s):\n\n",
		       a->repeats, a->threads, a->threads == 1 ? "" : "s");
	else
		printf("\nwhat the network costs (forward time not measured):\n\n");
	report_costs(stdout, a, b, REPORT_TEXT);
	cJSON_AddItemToObject(rec, "cost_before", report_cost_json(a, e));
	cJSON_AddItemToObject(rec, "cost_after", report_cost_json(b, e));
}

static double accuracy(const Net *net, const Dataset *d)
{
	return 100 * (1 - net_error(net, d, NULL));
}

/* The round lines of --until-stable, on standard output as they come, with
 * what early stopping kept of the round's retraining. */
static void round_line(const HookStep *st, void *ud)
{
	Squeeze *s = ud;
	if (st->kind == HOOK_TRAINED) {
		s->last = *st->result;
		s->have_last = 1;
	}
	if (st->kind != HOOK_NOTE)
		return;
	progress_clear(&s->prog);
	printf("%s", st->text);
	if (s->have_last && !isnan(s->last.val_acc))
		printf(" (retrained %d epochs, kept epoch %d: validation accuracy %.2f %%)",
		       s->last.epochs, s->last.best_epoch, 100 * s->last.val_acc);
	s->have_last = 0;
	printf("\n");
	fflush(stdout);
}

/* The step function of progress_hook gets the Progress; round_line needs the Squeeze. */
static int sq_progress(const TrainProgress *tp, void *ud)
{
	return progress_train_cb(tp, &((Squeeze *)ud)->prog);
}

static int sq_cancelled(void *ud)
{
	return progress_interrupted() != 0;
}

static void free_conds(LayerCond *lc, int m)
{
	for (int i = 0; lc && i < m; i++)
		cond_layer_free(&lc[i]);
	free(lc);
}

/* The per-layer rows of a squeeze: κ as given (before), when decided (the
 * pass a) and after; what each stage removed. */
static SqueezeLayerRow *layer_rows(const Net *a, const LayerCond *ca, const Net *b,
				   const LayerCond *cb, const Alg3 *pass, Err *e)
{
	SqueezeLayerRow *r = calloc((size_t)a->m, sizeof *r);
	if (!r) {
		err_set(e, "out of memory");
		return NULL;
	}
	for (int i = 0; i < a->m; i++) {
		int hidden = i < a->m - 1, counted = pass->o.keep_counts != NULL;
		double kd = hidden ? pass->kappa_dec[i] : NAN;
		r[i] = (SqueezeLayerRow){i + 1, a->n[i + 1], b->n[i + 1], ca[i].kappa,
					 kd, cb[i].kappa, NAN, -1, -1};
		if (hidden && !counted) {
			r[i].by_threshold = pass->removed_qr[i];
			r[i].by_loop = pass->removed[i] - pass->removed_qr[i];
		}
	}
	return r;
}

typedef struct Nets {
	const SqueezeNetRow *r;
	int n;
} Nets;

static void nets_csv(FILE *f, const void *ud)
{
	const Nets *x = ud;
	report_squeeze_networks(f, x->r, x->n, REPORT_CSV);
}

typedef struct Rounds {
	const SqueezeRound *r;
	int n, m;
} Rounds;

static void rounds_csv(FILE *f, const void *ud)
{
	const Rounds *r = ud;
	report_squeeze_rounds(f, r->r, r->n, r->m, REPORT_CSV);
}

/* Squeeze → retrain until a squeeze removes nothing (the paper's Table 13). */
static int until_stable(const CommonOpts *c, Squeeze *s, Net *net, const Dataset *train,
			const Dataset *test, const TrainPlan *plan, const Dataset *rtrain,
			cJSON *rec, Err *e)
{
	SqueezeRound r[MAX_ROUNDS + 1];
	int nr = 0, m = net->m, stable = 0;
	char sh[512];
	NetCost c0, c1;
	if (cost_of(s, net, &c0, e))
		return -1;
	printf("round 0: removed 0, %s, test accuracy %.2f %%\n", net_shape_str(net, sh, sizeof sh),
	       test ? accuracy(net, test) : NAN);
	fflush(stdout);
	Hook h = {sq_progress, round_line, sq_cancelled, s};
	progress_what(&s->prog, "retraining");
	int rc = alg3_until_stable(net, &s->so, train, plan, rtrain, test, MAX_ROUNDS, &h, r, &nr,
				   &stable, e);
	progress_clear(&s->prog);
	cJSON *js = cJSON_AddArrayToObject(rec, "rounds");
	for (int k = 0; k < nr; k++) {
		cJSON *o = cJSON_CreateObject();
		if (o) {
			cJSON_AddNumberToObject(o, "round", k);
			cJSON_AddItemToObject(o, "n", cJSON_CreateIntArray(r[k].n, m + 1));
			cJSON_AddNumberToObject(o, "removed", r[k].removed);
			if (isfinite(r[k].acc_retrained))
				cJSON_AddNumberToObject(o, "test_accuracy", r[k].acc_retrained);
			cJSON *kj = cJSON_AddArrayToObject(o, "kappa");
			for (int i = 0; kj && i < m; i++)
				cJSON_AddItemToArray(kj, isfinite(r[k].kappa[i])
							     ? cJSON_CreateNumber(r[k].kappa[i])
							     : cJSON_CreateNull());
			cJSON_AddItemToArray(js, o);
		}
	}
	if (rc == 0) {
		if (!stable)
			printf("stopped after %d rounds; the network may squeeze further\n", MAX_ROUNDS);
		printf("\n");
		report_squeeze_rounds(stdout, r, nr, m, REPORT_TEXT);
		cJSON_AddBoolToObject(rec, "stable", stable);
		Rounds rr = {r, nr, m};
		if (c->csv && report_write_file(c->csv, rounds_csv, &rr, e))
			rc = -1;
	}
	if (rc == 0 && cost_of(s, net, &c1, e) == 0)
		print_costs(&c0, &c1, rec, e);
	else if (rc == 0)
		rc = -1;
	for (int k = 0; k < nr; k++)
		squeeze_round_free(&r[k]);
	return rc;
}

/* Retrains the kept network by the plan; its accuracy and κ after into the
 * rows, what the training did into *tr. */
static int retrain(Squeeze *s, Net *net, const Dataset *rtrain, const TrainPlan *plan,
		   const Dataset *test, SqueezeLayerRow *rows, SqueezeNetRow *kept, TrainResult *tr,
		   Err *e)
{
	progress_what(&s->prog, "retraining");
	Hook h = progress_hook(&s->prog, NULL);
	int st = train_plan_fit(net, rtrain, plan, &h, tr, e);
	progress_clear(&s->prog);
	if (st)
		return st;
	kept->acc_retrained = test ? accuracy(net, test) : NAN;
	LayerCond *lc = calloc((size_t)net->m, sizeof *lc);
	if (!lc)
		return err_set(e, "out of memory");
	int rc = cond_net_values(net, s->so.tau, lc, e);
	for (int i = 0; rc == 0 && i < net->m; i++)
		rows[i].kappa_retrained = lc[i].kappa;
	free_conds(lc, net->m);
	return rc;
}

/* The record of one squeeze: the kept network's figures, and the other one's
 * as a network of its own. */
static void squeeze_json(cJSON *rec, const SqueezeNetRow *nr, const SqueezeLayerRow *rows, int m,
			 double acc0, int by_thr, Err *e)
{
	const SqueezeNetRow *k = &nr[0], *o = &nr[1];
	cJSON_AddItemToObject(rec, "layers", report_squeeze_layers_json(rows, m, e));
	cJSON_AddNumberToObject(rec, "removed", k->removed);
	if (!k->counted) {
		cJSON_AddNumberToObject(rec, "removed_threshold", by_thr);
		cJSON_AddNumberToObject(rec, "removed_loop", k->removed - by_thr);
	}
	cJSON_AddNumberToObject(rec, "removed_without_compensation",
				k->compensated ? o->removed : k->removed);
	cJSON_AddNumberToObject(rec, "removed_with_compensation",
				k->compensated ? k->removed : o->removed);
	if (!isnan(acc0)) {
		cJSON_AddNumberToObject(rec, "acc_before_squeeze", acc0);
		cJSON_AddNumberToObject(rec, "acc_squeezed", k->acc_squeezed);
		if (isfinite(k->acc_retrained))
			cJSON_AddNumberToObject(rec, "acc_retrained", k->acc_retrained);
	}
	cJSON *x = cJSON_AddObjectToObject(rec, "other_network");
	if (!x)
		return;
	cJSON_AddStringToObject(x, "what", "the same squeeze with the other compensation setting: "
					   "a different network, not kept");
	cJSON_AddBoolToObject(x, "compensate", o->compensated);
	cJSON_AddNumberToObject(x, "removed", o->removed);
	if (!isnan(acc0))
		cJSON_AddNumberToObject(x, "acc_squeezed", o->acc_squeezed);
}

/* One squeeze: the one asked for kept in *net, and the same with the other
 * compensation setting measured beside it. */
static int squeeze_once(const CommonOpts *c, Squeeze *s, Net **net, const Dataset *train,
			const Dataset *test, const TrainPlan *plan, const Dataset *rtrain,
			cJSON *rec, Err *e)
{
	int m = (*net)->m, rc = -1;
	SqueezeOpts o = s->so;
	Net *kept = net_clone(*net, e), *other = net_clone(*net, e);
	LayerCond *before = calloc((size_t)m, sizeof *before), *after = calloc((size_t)m, sizeof *after);
	SqueezeLayerRow *rows = NULL;
	Alg3 *a = NULL;
	NetCost c0, c1;
	if (!kept || !other || !before || !after) {
		err_set(e, "out of memory");
		goto out;
	}
	if (cond_net_values(*net, o.tau, before, e) || cost_of(s, *net, &c0, e))
		goto out;
	if (!(a = alg3_new(kept, &o, train, e)) || alg3_run(a, NULL, e) < 0)
		goto out;
	SqueezeOpts oo = o;
	oo.compensate = !o.compensate;
	int r_other = squeeze_net(other, &oo, train, NULL, e);
	if (r_other < 0 || cond_net_values(kept, o.tau, after, e) ||
	    !(rows = layer_rows(*net, before, kept, after, a, e)))
		goto out;
	double acc0 = test ? accuracy(*net, test) : NAN;
	const char *crit = squeeze_criterion_name(o.criterion);
	int counted = o.keep_counts != NULL, by_thr = 0;
	for (int i = 0; i < m - 1; i++)
		by_thr += a->removed_qr[i];
	double acc_k = test ? accuracy(kept, test) : NAN, acc_o = test ? accuracy(other, test) : NAN;
	SqueezeNetRow nr[2] = {{1, o.tau, crit, counted, o.compensate, a->total, acc_k, NAN},
			       {0, o.tau, crit, counted, oo.compensate, r_other, acc_o, NAN}};
	TrainResult tr = {0};
	if (s->retrain > 0 && (rc = retrain(s, kept, rtrain, plan, test, rows, &nr[0], &tr, e)) != 0)
		goto out;
	rc = -1;
	if (cost_of(s, kept, &c1, e))
		goto out;
	report_squeeze_layers(stdout, rows, m, REPORT_TEXT);
	printf("(κ at decision: after the earlier layers' removals; the κ Algorithm 3 compares "
	       "with τ)\n\n");
	if (counted)
		printf("removed %d neurons (the counts given, chosen by %s)\n", a->total, crit);
	else
		printf("removed %d neurons: %d by the |r_jj| threshold, %d by the κ loop%s%s\n",
		       a->total, by_thr, a->total - by_thr, o.criterion ? ", chosen by " : "",
		       o.criterion ? crit : "");
	printf("test accuracy before squeezing: %.2f %%\n", acc0);
	printf("test accuracy after squeezing: %.2f %%\n", nr[0].acc_squeezed);
	if (s->retrain > 0 && plan->val)
		printf("test accuracy after retraining %d epochs, keeping epoch %d (validation "
		       "accuracy %.2f %%): %.2f %%\n",
		       tr.epochs, tr.best_epoch, 100 * tr.val_acc, nr[0].acc_retrained);
	else if (s->retrain > 0)
		printf("test accuracy after retraining %g epochs: %.2f %%\n", s->retrain,
		       nr[0].acc_retrained);
	printf("the other network: the same squeeze %s compensation removed %d neurons: test "
	       "accuracy %.2f %%\n\n",
	       oo.compensate ? "with" : "without", r_other, nr[1].acc_squeezed);
	report_squeeze_networks(stdout, nr, 2, REPORT_TEXT);
	squeeze_json(rec, nr, rows, m, acc0, by_thr, e);
	if (s->retrain > 0) {
		cJSON_AddNumberToObject(rec, "retrain_epochs_run", tr.epochs);
		cJSON_AddNumberToObject(rec, "retrain_best_epoch", tr.best_epoch);
		if (!isnan(tr.val_acc))
			cJSON_AddNumberToObject(rec, "retrain_val_accuracy", 100 * tr.val_acc);
	}
	print_costs(&c0, &c1, rec, e);
	Nets x = {nr, 2};
	if (c->csv && report_write_file(c->csv, nets_csv, &x, e))
		goto out;
	/* hand the kept network back in place of the original */
	net_free(*net);
	*net = kept;
	kept = NULL;
	rc = 0;
out:
	alg3_free(a);
	free(rows);
	free_conds(before, m);
	free_conds(after, m);
	net_free(kept);
	net_free(other);
	return rc;
}

int cmd_squeeze(int argc, char **argv)
{
	CommonOpts c;
	Squeeze s = {.draws = 20, .retrain_draws = -1, .timing = 1};
	Dataset *train = NULL, *test = NULL, *rtr = NULL, *rval = NULL;
	Net *net = NULL;
	cJSON *rec = NULL;
	Err e = {{0}};
	int rc = 1;

	cli_common_default(&c);
	squeeze_opts_default(&s.so);
	s.taus[0] = s.so.tau;
	s.ntau = 1;
	char help[sizeof help_fmt + 32];
	snprintf(help, sizeof help, help_fmt, s.so.tau);
	int pr = cli_parse(argc, argv, &c, NULL, own, own_opt, &s, help, NULL);
	if (pr)
		return pr == 1 ? 0 : 2;
	const char *usage = NULL;
	if (!c.load)
		usage = "--load MODEL is required";
	else if (s.until_stable && !(s.retrain > 0))
		usage = "--until-stable needs --retrain E";
	else if (s.ntau > 1 && !s.compare)
		usage = "a list of --tau values needs --compare";
	else if (s.compare && (s.until_stable || s.keep_spec || c.save || s.so.compensate ||
			       s.so.criterion != SQUEEZE_QR))
		usage = "--compare measures every criterion, with and without compensation, at the "
			"counts it decides: it takes no --until-stable, --keep-counts, --save, "
			"--compensate or --criterion";
	else if (!s.compare && (s.plot || s.retrain_draws >= 0))
		usage = "--plot and --retrain-draws go with --compare";
	else if (s.until_stable && s.keep_spec)
		usage = "--until-stable decides at tau: it takes no --keep-counts";
	else if ((c.sched_given || c.early_stop > 0) && !(s.retrain > 0))
		usage = "--schedule, --warmup and --early-stop shape the retraining: give --retrain E";
	if (usage) {
		fprintf(stderr, "condnet squeeze: %s\n", usage);
		return 2;
	}
	s.so.seed = c.seed;
	char plot_dat[PATH_MAX];
	snprintf(plot_dat, sizeof plot_dat, "%s.dat", s.plot ? s.plot : "");
	CliOut outs[] = {{s.plot ? plot_dat : NULL, FILE_OUT_TEXT}};
	if (cli_check_outputs(&c, outs, 1, &e))
		goto fail;
	if (cli_load_data(&c, &train, &test, &e) || !(net = cli_make_net(&c, train, &e)))
		goto fail;
	if (s.keep_spec && load_counts(&s, net, &e))
		goto fail;
	TrainPlan plan;
	if (cli_plan(&c, train, NULL, s.retrain, &plan, &rtr, &rval, &e) < 0)
		goto fail;
	if (!(rec = cJSON_CreateObject())) {
		err_set(&e, "out of memory");
		goto fail;
	}
	if (c.train.threads > 0)
		blas_set_threads(c.train.threads);
	progress_init(&s.prog, "condnet squeeze", c.quiet, 1);
	progress_trap_signals();
	char sh[512];
	printf("%s: %s %s (%s), tau %g%s%s%s%s\n", cli_data_name(&c),
	       s.compare ? "comparing squeeze criteria on" : "squeezing", c.load,
	       net_shape_str(net, sh, sizeof sh), s.so.tau,
	       s.so.while_loop ? "" : ", no while loop", s.so.compensate ? ", compensated" : "",
	       s.so.criterion ? ", criterion " : "",
	       s.so.criterion ? squeeze_criterion_name(s.so.criterion) : "");
	if (s.keep_spec)
		printf("keeping the counts of %s\n", s.keep_spec);
	printf("\n");
	cJSON_AddStringToObject(rec, "model", c.load);
	cJSON_AddStringToObject(rec, "shape_before", sh);
	cJSON_AddNumberToObject(rec, "tau", s.so.tau);
	if (s.ntau > 1)
		cJSON_AddItemToObject(rec, "taus", cJSON_CreateDoubleArray(s.taus, s.ntau));
	cJSON_AddBoolToObject(rec, "while_loop", s.so.while_loop);
	cJSON_AddBoolToObject(rec, "compensate", s.so.compensate);
	cJSON_AddStringToObject(rec, "criterion", squeeze_criterion_name(s.so.criterion));
	if (s.so.criterion == SQUEEZE_RANDOM)
		cJSON_AddNumberToObject(rec, "seed", (double)s.so.seed);
	if (s.keep)
		cJSON_AddItemToObject(rec, "keep_counts", cJSON_CreateIntArray(s.keep, net->m - 1));
	cJSON_AddNumberToObject(rec, "retrain_epochs", s.retrain);
	char spec[64], how[256];
	cJSON_AddStringToObject(rec, "retrain_schedule",
				sched_format(&c.train.sched, spec, sizeof spec));
	cJSON_AddNumberToObject(rec, "retrain_warmup", c.train.sched.warmup);
	cJSON_AddNumberToObject(rec, "retrain_early_stop", c.early_stop);
	if (c.sched_given || plan.val)
		printf("retraining: %s\n", cli_plan_str(&plan, NULL, how, sizeof how));
	const Dataset *rtrain = rtr ? rtr : train;
	int st = s.compare ? squeeze_compare_run(&c, &s, net, rtrain, test, &plan, rec, &e)
		 : s.until_stable
		     ? until_stable(&c, &s, net, train, test, &plan, rtrain, rec, &e)
		     : squeeze_once(&c, &s, &net, train, test, &plan, rtrain, rec, &e);
	if (st < 0)
		goto fail;
	if (st > 0 || progress_interrupted()) {
		fprintf(stderr, "condnet squeeze: interrupted; nothing saved\n");
		rc = 130;
		goto out;
	}
	if (!s.compare) {
		cJSON_AddStringToObject(rec, "shape_after", net_shape_str(net, sh, sizeof sh));
		printf("\nresult: %s\n", sh);
	}
	if (c.save) {
		if (model_save(net, c.save, &e))
			goto fail;
		printf("saved %s\n", c.save);
	}
	if (c.json && report_write_json(c.json, rec, &e))
		goto fail;
	rc = 0;
	goto out;
fail:
	rc = cli_fail("squeeze", &e);
out:
	cJSON_Delete(rec);
	net_free(net);
	free(s.keep);
	dataset_free(train);
	dataset_free(test);
	dataset_free(rtr);
	dataset_free(rval);
	return rc;
}
