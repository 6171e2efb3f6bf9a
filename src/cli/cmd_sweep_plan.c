/* cmd_sweep_plan.c - `condnet sweep --plan`: the trials of Algorithm 2 as
 * command lines, one process each (GNU parallel, a Slurm job array), and
 * the command that gathers them. */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/file.h"
#include "cli/cmd_sweep.h"
#include "cli/cmdlines.h"

/* What a trial takes from the sweep's command line: not the outputs nor the
 * modes; the sweep's own numbers are written out. The gather takes the
 * outputs and the extension options. */
static const char *const not_for_trial[] = {
    "plan", "out",          "beta",      "trial",      "gather", "json", "csv",
    "save", "final-epochs", "no-extend", "max-extend", "q",      "eta",  NULL};
static const char *const not_for_gather[] = {"plan",   "out", "beta", "trial",
                                             "gather", "q",   "eta",  NULL};

/* A line per trial of the given β (trials 0..q-1), each writing
 * DIR/beta-B-trial-T.json; DIR is made if missing. */
static int plan_trials(Plan *p, const Sweep *s, const CommonOpts *c, int argc, char **argv,
                       const double *betas, int nb, const char *dir, Err *e)
{
	char *cmd =
	    plan_command("sweep", argc, argv, ~c->without, s->own, not_for_trial, c->data.spec, e);
	if (!cmd || plan_check_path("--out", dir, e) || file_make_dir(dir, e)) {
		free(cmd);
		return -1;
	}
	char num[40], file[PATH_MAX];
	int rc = 0;
	for (int i = 0; i < nb && !rc; i++)
		for (int t = 0; t < s->o.q && !rc; t++) {
			fprintf(p->f, "%s --q %d --eta %s", cmd, s->o.q,
			        plan_num(s->o.eta, num, sizeof num));
			plan_num(betas[i], num, sizeof num);
			fprintf(p->f, " --beta %s --trial %d --out", num, t);
			snprintf(file, sizeof file, "%s/beta-%s-trial-%d.json", dir, num, t);
			rc = plan_path(p->f, "--out", file, e);
			plan_end_line(p);
		}
	free(cmd);
	return rc;
}

int sweep_check_plan_words(const Sweep *s, const CommonOpts *c, int argc, char **argv, Err *e)
{
	char *trial =
	    plan_command("sweep", argc, argv, ~c->without, s->own, not_for_trial, c->data.spec, e);
	char *gather = trial ? plan_command("sweep", argc, argv, ~c->without, s->own,
	                                    not_for_gather, c->data.spec, e)
	                     : NULL;
	int rc = !gather || (s->out && plan_check_path("--out", s->out, e)) ||
	         plan_check_path("--plan", s->plan, e);
	free(trial);
	free(gather);
	return rc ? -1 : 0;
}

int sweep_plan(const Sweep *s, const CommonOpts *c, int argc, char **argv, const Net *base, Err *e)
{
	const char *dir = s->out ? s->out : "trials";
	/* the command that gathers them, printed below, checked before the plan is written */
	char *cmd =
	    plan_command("sweep", argc, argv, ~c->without, s->own, not_for_gather, c->data.spec, e);
	char *words = NULL;
	size_t nwords = 0;
	FILE *w = cmd ? open_memstream(&words, &nwords) : NULL;
	int rc = !cmd ? -1 : !w ? err_set(e, "out of memory") : 0;
	if (rc == 0) {
		fputs(" --gather --out", w);
		rc = plan_path(w, "--out", dir, e);
		fputs(" --plan", w);
		rc = rc || plan_word(w, "--plan", s->plan, 0, e) || plan_path(w, "--out", dir, e);
	}
	if (w && fclose(w) && !rc)
		rc = err_set(e, "out of memory");
	Plan p;
	if (rc || plan_open(&p, e)) {
		free(cmd);
		free(words);
		return -1;
	}
	if (plan_trials(&p, s, c, argc, argv, s->o.betas, s->o.nbeta, dir, e)) {
		plan_discard(&p);
		free(cmd);
		free(words);
		return -1;
	}
	if (plan_close(&p, s->plan, e)) {
		free(cmd);
		free(words);
		return -1;
	}
	char sh[512], num[40];
	printf("%s: %d trials of Algorithm 2 on %s (%d beta, q %d), writing %s/\n", s->plan,
	       p.lines, net_shape_str(base, sh, sizeof sh), s->o.nbeta, s->o.q, dir);
	if (file_is_stdout(s->plan))
		printf("standard output holds them, for GNU parallel (... | parallel -j 2)\n");
	else
		printf("run them with GNU parallel or a Slurm job array, e.g.\n"
		       "  parallel -j 2 < %s\n  sbatch --wait --array=0-%d slurm-array.sbatch %s\n",
		       s->plan, p.lines - 1, s->plan);
	printf("then gather them (this also plans the beta Algorithm 2 may add):\n  %s --q %d "
	       "--eta %s --beta ",
	       cmd, s->o.q, plan_num(s->o.eta, num, sizeof num));
	for (int i = 0; i < s->o.nbeta; i++)
		printf("%s%s", i ? "," : "", plan_num(s->o.betas[i], num, sizeof num));
	printf("%s/beta-*-trial-*.json\n", words);
	free(cmd);
	free(words);
	return 0;
}

int sweep_plan_next(const Sweep *s, const CommonOpts *c, int argc, char **argv, const Alg2 *a,
                    double next, const char *first_file, Err *e)
{
	Plan p;
	if (plan_open(&p, e))
		return -1;
	printf("\nthe pick is at the %s beta: Algorithm 2 goes on with beta %g "
	       "(--no-extend ends the sweep here)\n",
	       next <= a->b[0].beta ? "smallest" : "largest", next);
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s", s->out ? s->out : first_file);
	if (plan_trials(&p, s, c, argc, argv, &next, 1, s->out ? dir : dirname(dir), e)) {
		plan_discard(&p);
		return -1;
	}
	if (s->plan)
		printf("%s: its %d trials; run them, then gather again\n", s->plan, p.lines);
	else
		printf("its %d trials:\n", p.lines);
	return plan_close(&p, s->plan, e);
}
