/* cmd_squeeze_compare.c - `condnet squeeze --compare`: Algorithm 3 against
 * the norm rule and random choice at the counts it decides, at each τ. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alg/alg3_compare.h"
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

/* 1 when a program of that name is on PATH. */
static int on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];
	while (path && *path) {
		size_t n = strcspn(path, ":");
		int len = snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, prog);
		if (n && len < (int)sizeof buf && access(buf, X_OK) == 0)
			return 1;
		path += n + (path[n] == ':');
	}
	return 0;
}

/* PREFIX.dat and PREFIX.gp, then PREFIX.png through gnuplot when it is
 * installed. */
static int write_plot(const char *prefix, const char *title, const Alg3Compare *c, int n, Err *e)
{
	size_t len = strlen(prefix) + 8;
	char *dat = malloc(len), *gp = malloc(len), *png = malloc(len);
	int rc = -1;
	if (!dat || !gp || !png) {
		err_set(e, "out of memory");
		goto out;
	}
	snprintf(dat, len, "%s.dat", prefix);
	snprintf(gp, len, "%s.gp", prefix);
	snprintf(png, len, "%s.png", prefix);
	/* the script names the data and image by their base names: run it from its folder */
	const char *slash = strrchr(prefix, '/');
	if (report_squeeze_compare_plot(prefix, c, n, title, e))
		goto out;
	printf("wrote %s and %s", dat, gp);
	if (!on_path("gnuplot")) {
		printf(" (gnuplot is not installed: no %s)\n", png);
		rc = 0;
		goto out;
	}
	if (strchr(prefix, '\'')) {
		err_set(e, "--plot: a quote in '%s' would break the gnuplot command", prefix);
		goto out;
	}
	char cmd[8192];
	if (slash)
		snprintf(cmd, sizeof cmd, "cd '%.*s' && gnuplot '%s'",
		         slash > prefix ? (int)(slash - prefix) : 1, prefix, strrchr(gp, '/') + 1);
	else
		snprintf(cmd, sizeof cmd, "gnuplot '%s'", gp);
	fflush(stdout);
	int st = system(cmd);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		err_set(e, "gnuplot %s failed (status %d)", gp, st);
		goto out;
	}
	printf(" and %s\n", png);
	rc = 0;
out:
	free(dat);
	free(gp);
	free(png);
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
		char title[256];
		snprintf(title, sizeof title, "%s: %s", opts_data_name(c), c->load);
		if (rc == 0 && s->plot) {
			printf("\n");
			rc = write_plot(s->plot, title, res, n, e);
		}
	}
	for (int i = 0; i < n; i++)
		alg3_compare_free(&res[i]);
	free(res);
	return rc;
}
