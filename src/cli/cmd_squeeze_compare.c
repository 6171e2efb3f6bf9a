/* cmd_squeeze_compare.c - `condnet squeeze --compare`: Algorithm 3 against
 * the norm rule and random choice at the counts it decides, at each τ. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alg/alg3_compare.h"
#include "base/spawn.h"
#include "cli/cmd_squeeze.h"
#include "report/report_squeeze.h"

typedef struct Cmp {
	const Alg3Compare *c;
	int n;
} Cmp;

static int cmp_csv(FILE *f, const void *ud, Err *e)
{
	const Cmp *x = ud;
	return report_squeeze_compare(f, x->c, x->n, REPORT_CSV, e);
}

static int stopped(void *ud)
{
	(void)ud;
	return progress_interrupted();
}

/* PREFIX.dat and PREFIX.gp, then PREFIX.png through gnuplot when it is
 * installed: 0, 1 when a stop ended gnuplot, -1. */
static int write_plot(const char *prefix, const char *title, const Alg3Compare *c, int n, Err *e)
{
	size_t len = strlen(prefix) + 8;
	char *dat = malloc(len), *gp = malloc(len), *png = malloc(len), *dir = malloc(len);
	int rc = -1;
	if (!dat || !gp || !png || !dir) {
		err_set(e, "out of memory");
		goto out;
	}
	snprintf(dat, len, "%s.dat", prefix);
	snprintf(gp, len, "%s.gp", prefix);
	snprintf(png, len, "%s.png", prefix);
	/* the script names the data and image by their base names: run it from its folder */
	const char *slash = strrchr(prefix, '/');
	snprintf(dir, len, "%.*s", slash ? slash > prefix ? (int)(slash - prefix) : 1 : 1,
	         slash ? prefix : ".");
	if (report_squeeze_compare_plot(prefix, c, n, title, e))
		goto out;
	printf("wrote %s and %s", dat, gp);
	if (!spawn_on_path("gnuplot")) {
		printf(" (gnuplot is not installed: no %s)\n", png);
		rc = 0;
		goto out;
	}
	char *argv[] = {"gnuplot", (char *)(strrchr(gp, '/') ? strrchr(gp, '/') + 1 : gp), NULL};
	int st = spawn_wait(dir, argv, 1, stopped, NULL);
	printf(st == 0 ? " and %s\n" : "\n", png);
	if (st == SPAWN_STOPPED) {
		err_set(e, "gnuplot %s was stopped: no %s", gp, png);
		rc = 1;
	} else if (st == SPAWN_MISSING) {
		err_set(e, "gnuplot %s: gnuplot could not be run: no %s", gp, png);
	} else if (st != 0) {
		err_set(e, "gnuplot %s failed (%s %d): no %s", gp, st > 128 ? "signal" : "status",
		        st > 128 ? st - 128 : st, png);
	} else {
		rc = 0;
	}
out:
	free(dat);
	free(gp);
	free(png);
	free(dir);
	return rc;
}

int squeeze_compare_run(const CommonOpts *c, Squeeze *s, const Net *net, const Dataset *train,
                        const Dataset *test, const TrainPlan *plan, struct cJSON *rec, Err *e)
{
	Alg3Compare *res = calloc((size_t)s->ntau, sizeof *res);
	if (!res)
		return err_set(e, "out of memory");
	Alg3CompareOpts o;
	alg3_compare_opts_default(&o);
	o.while_loop = s->so.while_loop;
	o.draws = s->draws;
	o.seed = c->seed;
	o.cost_repeats = s->timing ? o.cost_repeats : 0;
	o.cost_threads = c->train.threads;
	if (s->retrain > 0) {
		o.retrain = plan;
		o.retrain_draws = s->retrain_draws;
	}
	Hook h = progress_hook(&s->prog, c->quiet ? NULL : progress_notes);
	int n = 0, rc = 0;
	for (; n < s->ntau && rc == 0; n++) {
		o.tau = s->taus[n];
		progress_what(&s->prog, "τ %g", o.tau);
		rc = alg3_compare(net, &o, train, test, &h, &res[n], e);
		progress_clear(&s->prog);
		if (rc != 0)
			break;
		fprintf(stderr, c->quiet ? "" : "τ %g: %d removed, %.1f s\n", o.tau, res[n].removed,
		        res[n].seconds);
	}
	if (rc == 0) {
		int rd = !o.retrain ? 0 : o.retrain_draws < 0 ? o.draws : o.retrain_draws;
		printf("test accuracy before squeezing: %.2f %%; %d random draws per τ (%d of them "
		       "retrained), seed %llu\n\n",
		       res[0].acc_before, o.draws, rd, (unsigned long long)o.seed);
		rc = report_squeeze_compare(stdout, res, n, REPORT_TEXT, e);
		for (int i = 0; rc == 0 && i < n; i++)
			if (res[i].comp_failed[0])
				printf(
				    "\nτ %g: the squeezes with compensation failed (%s): they are "
				    "not compared\n",
				    res[i].tau, res[i].comp_failed);
		if (rc == 0)
			rc = report_squeeze_compare_run_json(rec, res, n, o.draws, rd, o.seed, e);
		Cmp x = {res, n};
		if (rc == 0 && c->csv && report_write_file(c->csv, cmp_csv, &x, e))
			rc = -1;
	}
	if (rc == 0 && s->plot) {
		/* drawn once the record is written (squeeze_compare_plot) */
		s->cmp = res;
		s->ncmp = n;
		return 0;
	}
	for (int i = 0; i < n; i++)
		alg3_compare_free(&res[i]);
	free(res);
	return rc;
}

int squeeze_compare_plot(const CommonOpts *c, Squeeze *s, Err *e)
{
	if (!s->cmp || !s->plot)
		return 0;
	char title[256];
	snprintf(title, sizeof title, "%s: %s", opts_data_name(c), c->load ? c->load : c->onnx);
	printf("\n");
	return write_plot(s->plot, title, s->cmp, s->ncmp, e);
}

void squeeze_compare_free(Squeeze *s)
{
	for (int i = 0; s->cmp && i < s->ncmp; i++)
		alg3_compare_free(&s->cmp[i]);
	free(s->cmp);
	s->cmp = NULL;
	s->ncmp = 0;
}
