/* cmd_squeeze_opts.c - the options of `condnet squeeze`: its help, its
 * own options, the combinations it refuses and --keep-counts. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "base/list.h"
#include "base/one_line.h"
#include "cli/cmd_squeeze.h"

/* The default τ in the text comes from alg3_opts_default. */
static const char help_fmt[] =
    "Usage: condnet squeeze --load MODEL [OPTIONS]\n\n"
    "Algorithm 3: in every hidden layer whose stacked matrix [W; b] has a condition\n"
    "number above tau, keep the neurons a column-pivoted QR ranks first and remove\n"
    "the others. Layers are decided in order, each after the earlier layers'\n"
    "removals: the per-layer table shows kappa as given, at decision and after, and\n"
    "how many neurons the |r_jj| threshold and then the kappa loop removed. Prints\n"
    "the test accuracy before squeezing, after it and after retraining, how far the\n"
    "squeezed network answers as the original (the share of the test set answered\n"
    "alike, before and after retraining: the agreement 'condnet eval' computes), the\n"
    "same squeeze with the other compensation setting (a different network, with\n"
    "its own count), and the parameters, multiply-adds, model-file size and\n"
    "measured forward time before and after. A graph network (see 'condnet cond')\n"
    "is squeezed by channel groups: each group's stacked matrices, a column per\n"
    "shared channel, by the same pivoted QR at the first tau (--criterion norm: the\n"
    "largest L1 norms of the group's filters; --keep-counts: a count per group);\n"
    "--compensate refits every layer that reads a removed channel; the options of\n"
    "chains alone are refused.\n\n"
    "  --load MODEL         the model to squeeze (required)\n"
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
    "  --only-layers L[,L]  squeeze only these hidden layers (counted from 1, as in\n"
    "                       'condnet cond'); the others keep every neuron or channel\n"
    "                       whatever their kappa (with --compare: every criterion)\n"
    "  --only-groups G[,G]  a graph network: squeeze only these channel groups (their\n"
    "                       numbers in 'condnet cond'); the others keep every\n"
    "                       channel (with --keep-counts: their counts are their\n"
    "                       channels)\n"
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
	OPT_TAU = OPTS_OWN,
	OPT_NO_WHILE,
	OPT_COMPENSATE,
	OPT_RETRAIN,
	OPT_UNTIL_STABLE,
	OPT_CRITERION,
	OPT_KEEP_COUNTS,
	OPT_COMPARE,
	OPT_DRAWS,
	OPT_RETRAIN_DRAWS,
	OPT_PLOT,
	OPT_NO_TIMING,
	OPT_ONLY_LAYERS,
	OPT_ONLY_GROUPS
};

static const struct option own[] = {
    {"load", required_argument, NULL, OPTS_LOAD},
    OPTS_ONNX_OPTION,
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
    {"only-layers", required_argument, NULL, OPT_ONLY_LAYERS},
    {"only-groups", required_argument, NULL, OPT_ONLY_GROUPS},
    {0},
};

/* --tau T[,T…]: each > 1. */
static int parse_taus(const char *arg, Squeeze *s, Err *e)
{
	char t[64];
	const char *p = arg, *item;
	size_t len;
	int n = 0, r;
	s->ntau = 0;
	while ((r = list_next(&p, &item, &len, &n, "--tau", arg, e)) > 0) {
		if (s->ntau == SQUEEZE_MAX_TAUS)
			return err_set(e, "--tau: more than %d values", SQUEEZE_MAX_TAUS);
		if (len >= sizeof t)
			return err_set(e, "--tau: '%.*s…' is not a number", 20, item);
		snprintf(t, sizeof t, "%.*s", (int)len, item);
		if (limit_parse(LIM_TAU, "--tau", t, &s->taus[s->ntau], e))
			return -1;
		s->ntau++;
	}
	if (r < 0)
		return -1;
	s->so.tau = s->taus[0];
	return 0;
}

/* --only-layers L[,L…]: every element a layer number ≥ 1; with only (h
 * flags, h the hidden layers) each at most h, its flag set. */
static int parse_only(const char *arg, int *only, int h, Err *e)
{
	const char *p = arg, *item;
	size_t len;
	int n = 0, r;
	while ((r = list_next(&p, &item, &len, &n, "--only-layers", arg, e)) > 0) {
		char t[16];
		int l;
		if (len >= sizeof t)
			return err_set(e, "--only-layers: '%.*s' is not a layer number", (int)len,
			               item);
		snprintf(t, sizeof t, "%.*s", (int)len, item);
		if (opts_int("--only-layers", t, 1, 1 << 20, &l, e))
			return -1;
		if (only && l > h)
			return err_set(e,
			               "--only-layers: layer %d is not a hidden layer of the model "
			               "(expected 1..%d)",
			               l, h);
		if (only)
			only[l - 1] = 1;
	}
	return r;
}

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	Squeeze *s = ud;
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
		if (alg3_criterion_parse(arg, &s->so.criterion, e))
			return err_prefix(e, "--criterion");
		return 0;
	case OPT_KEEP_COUNTS:
		s->keep_spec = arg;
		return 0;
	case OPT_COMPARE:
		s->compare = 1;
		return 0;
	case OPT_DRAWS:
		return opts_int("--draws", arg, 1, 100000, &s->draws, e);
	case OPT_RETRAIN_DRAWS:
		return opts_int("--retrain-draws", arg, 0, 100000, &s->retrain_draws, e);
	case OPT_PLOT:
		s->plot = arg;
		/* the gnuplot script names PREFIX.dat and PREFIX.png on its lines */
		return one_line_check("--plot", arg, "the gnuplot script", e);
	case OPT_NO_TIMING:
		s->timing = 0;
		return 0;
	case OPT_ONLY_LAYERS:
		s->only_spec = arg;
		return parse_only(arg, NULL, 0, e);
	case OPT_ONLY_GROUPS:
		s->groups_spec = arg;
		return squeeze_parse_groups(arg, NULL, 0, e);
	}
	return 0;
}

int squeeze_parse_groups(const char *arg, unsigned char *flags, int n, Err *e)
{
	const char *p = arg, *item;
	size_t len;
	int k = 0, r;
	while ((r = list_next(&p, &item, &len, &k, "--only-groups", arg, e)) > 0) {
		char t[16];
		int q;
		if (len >= sizeof t)
			return err_set(e, "--only-groups: '%.*s' is not a group's number", (int)len,
			               item);
		snprintf(t, sizeof t, "%.*s", (int)len, item);
		if (opts_int("--only-groups", t, 1, 1 << 20, &q, e))
			return -1;
		if (flags && q > n)
			return err_set(
			    e,
			    "--only-groups: group %d is not a channel group of the network "
			    "(expected 1..%d; 'condnet cond' lists them)",
			    q, n);
		if (flags)
			flags[q - 1] = 1;
	}
	return r < 0 ? -1 : 0;
}

int squeeze_load_only(Squeeze *s, const Net *net, Err *e)
{
	int h = net->m - 1;
	if (s->groups_spec)
		return err_set(e, "--only-groups is for graph networks, whose channels go by "
		                  "groups: a chain's hidden layers are chosen with --only-layers");
	if (!s->only_spec)
		return 0;
	if (!(s->only = calloc((size_t)(h > 0 ? h : 1), sizeof *s->only)))
		return err_set(e, "out of memory");
	if (parse_only(s->only_spec, s->only, h, e) < 0)
		return -1;
	s->so.only = s->only;
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
	return alg3_check_counts(net, keep, n, e);
}

int squeeze_check_counts_list(const char *arg, Err *e)
{
	int *w = NULL, n = 0;
	/* meant as widths (digits, x and commas) and no file of that name */
	if (arg[strspn(arg, "0123456789x,")] || access(arg, F_OK) == 0)
		return 0;
	int rc = net_parse_layers(arg, &w, &n, e);
	free(w);
	return rc < 0 ? err_prefix(e, "--keep-counts") : 0;
}

int squeeze_check_counts_spec(const char *arg, Err *e)
{
	const char *t = arg + strspn(arg, " \t\r\n");
	if (*t == '{' || access(arg, F_OK) == 0 || errno != ENOENT)
		return 0;
	int *w = NULL, n = 0;
	Err why;
	int widths = net_parse_layers(arg, &w, &n, &why) == 0;
	free(w);
	if (widths)
		return 0;
	return err_set(e,
	               "--keep-counts %s: no such file (and not a list of widths such as "
	               "280,250,3x100)",
	               arg);
}

const char *squeeze_counts_text(const char *arg, char **text, Err *e)
{
	*text = NULL;
	FILE *f = fopen(arg, "rb");
	if (f) {
		fclose(f);
		if (!(*text = file_slurp(arg, 1 << 24, NULL, e))) {
			err_prefix(e, "--keep-counts");
			return NULL;
		}
	}
	const char *spec = *text ? *text : arg;
	return spec + strspn(spec, " \t\r\n");
}

int squeeze_counts_list(const char *spec, int **w, int *n, Err *e)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%.*s", (int)strcspn(spec, "\r\n"), spec);
	*w = NULL;
	*n = 0;
	return net_parse_layers(buf, w, n, e);
}

/* --keep-counts SPEC: a JSON record, or a widths list in a file or the
 * argument itself. */
int squeeze_load_counts(Squeeze *s, const Net *net, Err *e)
{
	int h = net->m - 1;
	if (!(s->keep = malloc((size_t)(h > 0 ? h : 1) * sizeof *s->keep)))
		return err_set(e, "out of memory");
	char *text;
	const char *spec = squeeze_counts_text(s->keep_spec, &text, e);
	if (!spec)
		return -1;
	int rc;
	if (*spec == '{') {
		cJSON *j = cJSON_Parse(spec);
		rc = j ? counts_from_json(j, net, s->keep, e)
		       : err_set(e, "not valid JSON near offset %ld",
		                 (long)(cJSON_GetErrorPtr() - spec));
		cJSON_Delete(j);
	} else {
		int *w, n;
		rc = squeeze_counts_list(spec, &w, &n, e);
		if (rc == 0 && n == h)
			memcpy(s->keep, w, (size_t)n * sizeof *w);
		if (rc == 0)
			rc = alg3_check_counts(net, s->keep, n, e);
		free(w);
	}
	free(text);
	if (rc)
		return err_prefix(e, "--keep-counts %s", s->keep_spec);
	s->so.keep_counts = s->keep;
	return 0;
}

/* What the options given cannot do together, or NULL. */
static const char *usage_error(const CommonOpts *c, const Squeeze *s)
{
	if (!c->load == !c->onnx)
		return "one network is required: --load MODEL or --onnx FILE";
	if (s->until_stable && !(s->retrain > 0))
		return "--until-stable needs --retrain E";
	if (s->ntau > 1 && !s->compare)
		return "a list of --tau values needs --compare";
	if (s->compare && (s->until_stable || s->keep_spec || c->save || s->so.compensate ||
	                   s->so.criterion != ALG3_QR))
		return "--compare measures every criterion, with and without compensation, at the "
		       "counts it decides: it takes no --until-stable, --keep-counts, --save, "
		       "--compensate or --criterion";
	if (!s->compare && (s->plot || s->retrain_draws >= 0))
		return "--plot and --retrain-draws go with --compare";
	if (s->until_stable && s->keep_spec)
		return "--until-stable decides at tau: it takes no --keep-counts";
	if ((c->sched_given || c->early_stop > 0) && !(s->retrain > 0))
		return "--schedule, --warmup and --early-stop shape the retraining: give --retrain "
		       "E";
	return NULL;
}

int squeeze_parse(int argc, char **argv, CommonOpts *c, Squeeze *s)
{
	*s = (Squeeze){.draws = 20, .retrain_draws = -1, .timing = 1};
	opts_default(c);
	/* the network is the model loaded: no --layers, --act or --act-scale, and
	 * --load is its own (required) */
	c->without = OPTS_BIT(OPTS_LAYERS) | OPTS_BIT(OPTS_ACT) | OPTS_BIT(OPTS_ACT_SCALE) |
	             OPTS_BIT(OPTS_LOAD);
	alg3_opts_default(&s->so);
	s->taus[0] = s->so.tau;
	s->ntau = 1;
	char help[sizeof help_fmt + 32];
	snprintf(help, sizeof help, help_fmt, s->so.tau);
	int pr = opts_parse(argc, argv, c, NULL, own, own_opt, s, help, NULL);
	if (pr)
		return pr;
	const char *usage = usage_error(c, s);
	if (usage) {
		fprintf(stderr, "condnet squeeze: %s\n", usage);
		return 2;
	}
	return 0;
}
