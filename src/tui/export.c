/* tui/export.c - the screen's export: the tables as CSV or Markdown and,
 * beside them, the data of every plot and a gnuplot script that draws them
 * as PNG and SVG (run at once when gnuplot is installed). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/one_line.h"
#include "engine/hook.h"
#include "report/report.h"
#include "tui/worker.h"
#include "tui/worker_int.h"

static void render_tables(FILE *f, const void *ud)
{
	const Worker *w = ud;
	const Session *s = w->s;
	ReportFormat fmt = w->export_csv ? REPORT_CSV : REPORT_MARKDOWN;
	int md = fmt == REPORT_MARKDOWN;
	Err e = {{0}};
	LayerCond *lc;
	if (md)
		fprintf(f, "## Conditioning per layer (tau = %g)\n\n", s->tau);
	if (cond_net_new(s->net, s->tau, 1, &lc, &e) == 0)
		report_cond(f, s->net, lc, fmt);
	cond_net_free(lc, s->net->m);
	if (s->alg1 && s->alg1->nrec) {
		fprintf(f, md ? "\n## Algorithm 1, per iteration\n\n" : "\n");
		report_alg1_history(f, s->alg1, fmt);
	}
	if (s->sweep) {
		fprintf(f, md ? "\n## Algorithm 2, beta sweep\n\n" : "\n");
		report_alg2(f, s->sweep, fmt);
	}
	const ShownSqueeze *q = &w->shown.sq;
	if (!isnan(q->acc_end) && !q->undone) {
		SqueezeRow r = {s->tau, q->removed, q->acc_end, NAN, q->acc_retrained};
		fprintf(f, md ? "\n## Algorithm 3, squeeze\n\n" : "\n");
		report_squeeze(f, &r, 1, fmt);
	}
}

/* What the plot files are written from (taken under the lock). */
typedef struct PlotData {
	const Worker *w;
	const LayerCond *lc;
	int m;
	double tau;
} PlotData;

static void write_layers(FILE *f, const void *ud)
{
	const PlotData *d = ud;
	fprintf(f, "# layer n kappa p rank_svd rank_qr (tau = %g; kappa inf when singular)\n",
	        d->tau);
	for (int i = 0; i < d->m; i++)
		fprintf(f, "%d %d %.17g %d %d %d\n", i + 1, d->lc[i].cols, d->lc[i].kappa,
		        d->lc[i].p, d->lc[i].rank_svd, d->lc[i].rank_qr);
}

/* One block per layer (gnuplot's index i-1): j, σ_j/σ_1, |r_jj|/|r_11|. */
static void write_spectra(FILE *f, const void *ud)
{
	const PlotData *d = ud;
	fprintf(f,
	        "# blocks per layer (gnuplot index = layer - 1): j sigma_j/sigma_1 "
	        "|r_jj|/|r_11| (pivoted QR), tau = %g\n",
	        d->tau);
	for (int i = 0; i < d->m; i++) {
		const LayerCond *l = &d->lc[i];
		fprintf(f, "%s# layer %d: %d x %d\n", i ? "\n\n" : "", i + 1, l->rows, l->cols);
		for (int j = 0; j < l->nsv; j++)
			fprintf(f, "%d %.17g %.17g\n", j + 1,
			        l->sv[0] > 0 ? l->sv[j] / l->sv[0] : 0,
			        l->rdiag ? l->rdiag[j] : NAN);
	}
}

static void write_alg1(FILE *f, const void *ud)
{
	const Session *s = ((const PlotData *)ud)->w->s;
	const Alg1 *a = s->alg1;
	int m = a->rec[0].m;
	fprintf(f, "# iteration tau eta sum_n test_acc_percent max_kappa");
	for (int i = 1; i <= m; i++)
		fprintf(f, " kappa_%d", i);
	for (int i = 1; i <= m; i++)
		fprintf(f, " n_%d", i);
	fputc('\n', f);
	for (int r = 0; r < a->nrec; r++) {
		const Alg1Record *c = &a->rec[r];
		fprintf(f, "%d %g %g %ld %.4f %.17g", c->iter, c->tau, c->eta, c->sum_n,
		        100 * (1 - c->eval_error), c->max_kappa);
		for (int i = 0; i < m; i++)
			fprintf(f, " %.17g", c->kappa[i]);
		for (int i = 1; i <= m; i++)
			fprintf(f, " %d", c->n[i]);
		fputc('\n', f);
	}
}

static void write_sweep(FILE *f, const void *ud)
{
	const Shown *p = &((const PlotData *)ud)->w->shown;
	fprintf(f, "# beta err_tr err_v score score_min score_max trials pick (percent; score = "
	           "2 err_v - err_tr, min and max over single trials)\n");
	for (int i = 0; i < p->nbeta; i++) {
		const ShownBeta *b = &p->beta[i];
		fprintf(f, "%g %.4f %.4f %.4f %.4f %.4f %d %d\n", b->beta, 100 * b->err_tr,
		        100 * b->err_v, 100 * b->score, 100 * b->smin, 100 * b->smax, b->done,
		        i == p->pick);
	}
}

static void write_series(FILE *f, const void *ud)
{
	const ShownSeries *k = &((const PlotData *)ud)->w->shown.ks;
	fprintf(f, "# %s: epoch", k->what);
	for (int i = 1; i <= k->m; i++)
		fprintf(f, " kappa_%d", i);
	fputc('\n', f);
	for (int r = 0; r < k->n; r++) {
		fprintf(f, "%.6f", k->epoch[r]);
		for (int i = 0; i < k->m; i++)
			fprintf(f, " %.17g", k->kappa[(size_t)r * (size_t)k->m + (size_t)i]);
		fputc('\n', f);
	}
}

/* Which plots were written, for the script. */
typedef struct Plots {
	const char *base; /* file name without directory */
	int m, alg1, sweep, series;
	double tau;
} Plots;

static void plot_cmds(FILE *f, const Plots *p, const char *ext)
{
	const char *b = p->base;
	fprintf(f, "set output '%s-spectra.%s'\n", b, ext);
	fprintf(f, "set title 'sigma_j / sigma_1 of every layer (log); the line is 1/tau'\n"
	           "set logscale y\nset xlabel 'j'\nset ylabel 'sigma_j / sigma_1'\n");
	fprintf(f,
	        "plot for [i=0:%d] '%s-spectra.dat' index i using 1:2 with linespoints "
	        "title sprintf('layer %%d', i+1), %g with lines dashtype 2 title '1/tau'\n",
	        p->m - 1, b, 1 / p->tau);
	if (p->alg1) {
		fprintf(f, "set output '%s-alg1-kappa.%s'\n", b, ext);
		fprintf(f, "set title 'kappa of every layer per Algorithm-1 iteration'\n"
		           "set xlabel 'iteration'\nset ylabel 'kappa'\n");
		fprintf(f,
		        "plot for [i=1:%d] '%s-alg1.dat' using 1:(column(6+i)) with linespoints "
		        "title sprintf('layer %%d', i), %g with lines dashtype 2 title 'tau'\n",
		        p->m, b, p->tau);
		fprintf(f, "unset logscale y\nset output '%s-alg1-size.%s'\n", b, ext);
		fprintf(f, "set title 'sum of n_i and test accuracy per iteration'\nset ylabel "
		           "'sum n_i'\nset y2label 'test accuracy (%%)'\nset y2tics\n");
		fprintf(f,
		        "plot '%s-alg1.dat' using 1:4 with linespoints title 'sum n_i', '' using "
		        "1:5 axes x1y2 with linespoints title 'test accuracy'\nunset y2tics\n"
		        "unset y2label\n",
		        b);
	}
	if (p->sweep) {
		fprintf(f, "unset logscale y\nset output '%s-sweep.%s'\n", b, ext);
		fprintf(f, "set title 'Algorithm 2: errors against beta (bars: min-max of "
		           "2e_v - e_tr over the trials)'\nset xlabel 'beta'\nset ylabel '%%'\n");
		fprintf(f,
		        "plot '%s-sweep.dat' using 1:2 with linespoints title 'e_tr', '' using "
		        "1:3 with linespoints title 'e_v', '' using 1:4:5:6 with yerrorlines "
		        "title '2e_v - e_tr', '' using ($8 > 0 ? $1 : 1/0):4 with points pt 7 ps 2 "
		        "title 'pick'\n",
		        b);
	}
	if (p->series) {
		fprintf(f, "set logscale y\nset output '%s-kappa-epochs.%s'\n", b, ext);
		fprintf(f, "set title 'kappa of every layer while training'\nset xlabel 'epoch'\n"
		           "set ylabel 'kappa'\n");
		fprintf(f,
		        "plot for [i=1:%d] '%s-kappa-epochs.dat' using 1:(column(1+i)) with "
		        "lines title sprintf('layer %%d', i)\n",
		        p->m, b);
	}
	fprintf(f, "unset logscale y\n");
}

static void write_script(FILE *f, const void *ud)
{
	const Plots *p = ud;
	fprintf(f, "# gnuplot %s.gp: the screen's plots as PNG and SVG beside it\n", p->base);
	fprintf(f, "set key outside right\nset grid\n");
	fprintf(f, "set terminal png size 960,600 noenhanced\n");
	plot_cmds(f, p, "png");
	fprintf(f, "set terminal svg size 960,600 noenhanced\n");
	plot_cmds(f, p, "svg");
}

/* The images gnuplot writes beside the script (Plots' names). */
static const char *const images[] = {"-spectra", "-alg1-kappa", "-alg1-size", "-sweep",
                                     "-kappa-epochs"};

/* The first image gnuplot would write into that is not a regular file (a
 * FIFO would hold gnuplot, and the export with it, until something reads),
 * into bad; 0 when there is none. */
static int image_in_the_way(const char *dir, const char *base, char *bad, size_t len)
{
	static const char *const ext[] = {".png", ".svg"};
	for (size_t i = 0; i < sizeof images / sizeof *images; i++)
		for (int k = 0; k < 2; k++) {
			struct stat st;
			snprintf(bad, len, "%s/%s%s%s", dir, base, images[i], ext[k]);
			if (lstat(bad, &st) == 0 && !S_ISREG(st.st_mode))
				return 1;
		}
	return 0;
}

/* Waits for gnuplot; a stop (Esc, or the screen ending) ends it: SIGTERM,
 * then SIGKILL after half a second. Its status, or -2 when stopped. */
static int wait_gnuplot(pid_t pid)
{
	int st, stopped = 0;
	double killed_at = 0;
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			return stopped ? -2 : st;
		if (r < 0 && errno != EINTR)
			return -1;
		if (!stopped && hook_thread_stopped()) {
			stopped = 1;
			kill(pid, SIGTERM);
			killed_at = clock_seconds();
		} else if (stopped && killed_at > 0 && clock_seconds() - killed_at > 0.5) {
			kill(pid, SIGKILL);
			killed_at = 0;
		}
		struct timespec ts = {0, 20 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
}

int export_gnuplot(const char *dir, const char *script)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR);
		if (nul >= 0) {
			dup2(nul, 0);
			dup2(nul, 1);
			dup2(nul, 2);
		}
		if (chdir(dir) == 0)
			execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	int st = wait_gnuplot(pid);
	if (st == -2)
		return -2;
	if (st < 0 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st) == 0 ? 1 : WEXITSTATUS(st) == 127 ? 0 : -1;
}

/* The plot files beside path; returns how many, with what happened to the
 * images in note. */
static int export_plots(Worker *w, const char *path, char *note, size_t len, Err *e)
{
	char dir[1024], base[1024], file[2100];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	snprintf(base, sizeof base, "%s", slash ? slash + 1 : dir);
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof dir, ".");
	char *dot = strrchr(base, '.');
	if (dot && dot != base)
		*dot = '\0';
	/* the script names the files in gnuplot's single quotes: a quote doubled */
	char quoted[2 * sizeof base];
	size_t q = 0;
	for (const char *c = base; *c; c++) {
		if (*c == '\'')
			quoted[q++] = '\'';
		quoted[q++] = *c;
	}
	quoted[q] = '\0';
	const Session *s = w->s;
	Plots pl = {
	    quoted, s->net->m, s->alg1 && s->alg1->nrec, w->shown.nbeta > 0, w->shown.ks.n > 0,
	    s->tau};
	LayerCond *lc;
	if (cond_net_new(s->net, s->tau, 1, &lc, e) != 0)
		return err_set(e, "export: conditioning failed");
	PlotData d = {w, lc, s->net->m, s->tau};
	struct {
		const char *suffix;
		void (*fn)(FILE *, const void *);
		const void *ud;
		int on;
	} files[] = {{"-layers.dat", write_layers, &d, 1},
	             {"-spectra.dat", write_spectra, &d, 1},
	             {"-alg1.dat", write_alg1, &d, pl.alg1},
	             {"-sweep.dat", write_sweep, &d, pl.sweep},
	             {"-kappa-epochs.dat", write_series, &d, pl.series},
	             {".gp", write_script, &pl, 1}};
	int n = 0, rc = 0;
	for (size_t i = 0; i < sizeof files / sizeof *files && rc == 0; i++) {
		if (!files[i].on)
			continue;
		snprintf(file, sizeof file, "%s/%s%s", dir, base, files[i].suffix);
		rc = report_write_file(file, files[i].fn, files[i].ud, e);
		n += rc == 0 && files[i].fn != write_script;
	}
	cond_net_free(lc, s->net->m);
	if (rc < 0)
		return -1;
	if (image_in_the_way(dir, base, file, sizeof file)) {
		const char *name = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
		snprintf(note, len, "gnuplot not run: %.80s is not a regular file", name);
	} else {
		snprintf(file, sizeof file, "%s.gp", base);
		int g = export_gnuplot(dir, file);
		snprintf(note, len, "%s",
		         g > 0     ? "PNG and SVG drawn by gnuplot"
		         : g == 0  ? "gnuplot is not installed: gnuplot draws them"
		         : g == -2 ? "gnuplot stopped before it drew them"
		                   : "gnuplot failed on the script");
		if (g == -2)
			return n; /* stopped: nothing more is drawn */
	}
	/* on data of two features, the Plane view's too (export_plane.c) */
	char pnote[96];
	int np = export_plane(w, dir, base, pnote, sizeof pnote, e);
	if (np < 0)
		return -1;
	if (np > 0)
		snprintf(note + strlen(note), len - strlen(note), "; %d of the plane, %s.gp", np,
		         pnote);
	return n + np;
}

void worker_export(Worker *w, const char *path)
{
	Err e = {{0}};
	char note[128], base[1024];
	size_t n = strlen(path);
	int csv = n >= 4 && !strcmp(path + n - 4, ".csv");
	w->export_csv = csv;
	/* a line break in the name would end a line of the script gnuplot runs */
	if (one_line_check("the name", path, "the gnuplot script", &e) < 0) {
		worker_status_failed(w, path, "export refused: %s", e.msg);
		return;
	}
	if (report_write_file(path, render_tables, w, &e) < 0) {
		worker_status_failed(w, path, "export failed: %s", e.msg);
		return;
	}
	int plots = export_plots(w, path, note, sizeof note, &e);
	if (plots < 0) {
		worker_status_failed(w, path, "exported the tables to %s, but the plots failed: %s",
		                     path, e.msg);
		return;
	}
	snprintf(base, sizeof base, "%s", path);
	char *dot = strrchr(base, '.'), *slash = strrchr(base, '/');
	if (dot && (!slash || dot > slash + 1))
		*dot = '\0';
	worker_status(
	    w, 0, "exported the tables to %s (%s) and %d plots' data to %s-*.dat with %s.gp (%s)",
	    path, csv ? "CSV" : "Markdown", plots, base, base, note);
}
