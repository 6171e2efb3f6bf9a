/* tui/export.c - the screen's export: the tables as CSV or Markdown and,
 * beside them, the data of every chart and a gnuplot script that draws them
 * for slides: PNG and PDF through gnuplot's cairo terminals, 16:9, with the
 * screen's symbols (κ, τ, β, ε_v) and the legends inside (run at once when
 * gnuplot is installed). */
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
#include "report/report_squeeze.h"
#include "tui/worker.h"
#include "tui/worker_int.h"

/* The squeeze pass's decisions, each saying whether it was compensated,
 * and (Markdown) what the pass did to the accuracy. */
static void squeeze_table(FILE *f, const ShownSqueeze *q, ReportFormat fmt)
{
	SqueezeDecisionRow r[SQZ_DEC_MAX];
	for (int i = 0; i < q->ndec; i++) {
		const ShownDecision *d = &q->dec[i];
		r[i] = (SqueezeDecisionRow){d->layer,        d->n_before,    d->n_after,
		                            d->applied,      d->comp,        d->tau,
		                            d->kappa_before, d->kappa_after, d->acc_after};
	}
	if (fmt == REPORT_MARKDOWN)
		fprintf(f, "\n## Algorithm 3, squeeze\n\n");
	else
		fputc('\n', f);
	report_squeeze_decisions(f, r, q->ndec, fmt);
	if (fmt != REPORT_MARKDOWN)
		return;
	fprintf(f, "\n%d neuron(s) removed; test accuracy %.2f %% before the pass", q->removed,
	        q->acc_start);
	if (!isnan(q->acc_end))
		fprintf(f, ", %.2f %% after it", q->acc_end);
	if (!isnan(q->acc_retrained))
		fprintf(f, ", %.2f %% after retraining", q->acc_retrained);
	fprintf(f, ".\n");
}

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
	if (q->ndec && !q->undone)
		squeeze_table(f, q, fmt);
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
	fprintf(f,
	        "# iteration tau eta sum_n test_acc_percent max_kappa (kappa NaN where infinite)");
	for (int i = 1; i <= m; i++)
		fprintf(f, " kappa_%d", i);
	for (int i = 1; i <= m; i++)
		fprintf(f, " n_%d", i);
	fputc('\n', f);
	for (int r = 0; r < a->nrec; r++) {
		const Alg1Record *c = &a->rec[r];
		fprintf(f, "%d %g %g %ld %.4f %.17g", c->iter, c->tau, c->eta, c->sum_n,
		        100 * (1 - c->eval_error), isinf(c->max_kappa) ? NAN : c->max_kappa);
		for (int i = 0; i < m; i++) /* κ = ∞ as NaN: a gap in the chart */
			fprintf(f, " %.17g", isinf(c->kappa[i]) ? NAN : c->kappa[i]);
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
		for (int i = 0; i < k->m; i++) {
			double x = k->kappa[(size_t)r * (size_t)k->m + (size_t)i];
			fprintf(f, " %.17g", isinf(x) ? NAN : x);
		}
		fputc('\n', f);
	}
}

/* The last t training's accuracy per epoch, the kept epoch marked. */
static void write_curve(FILE *f, const void *ud)
{
	const ShownEpochs *k = &((const PlotData *)ud)->w->shown.ep;
	fprintf(f, "# %s: epoch train_acc_percent val_acc_percent lr kept (1 on the epoch kept)\n",
	        k->what);
	for (int r = 0; r < k->n; r++)
		fprintf(f, "%d %.4f %.4f %.6g %d\n", r + 1, 100 * k->acc[r],
		        k->val ? 100 * k->val_acc[r] : NAN, k->lr[r], k->val && k->best == r + 1);
}

/* Which charts were written, and the ranges that frame them, for the
 * script. */
typedef struct Plots {
	const char *base; /* file name without directory */
	int m, alg1, sweep, series, curve;
	double tau;
	double sv_lo;          /* the spectra's floor: a decade under every value and 1/τ */
	double k_lo, k_hi;     /* κ per iteration, τ of every iteration included */
	double s_lo, s_hi;     /* κ against epochs, τ included */
	double acc_lo, acc_hi; /* the test accuracy's axis: at least 5 points wide */
	double pick;           /* the sweep's pick, NaN without one */
	double c_lo, c_hi;     /* the validation curve's accuracies, 2 points at least */
	int kept;              /* the epoch kept, 0: none */
	double iters;          /* the last Algorithm-1 iteration */
	double b0, b1;         /* the sweep's first and last β */
	double sw_hi;          /* the sweep's axis: its largest value and room for the key */
} Plots;

/* A decade under lo and one over hi, never on them: a line at τ or 1/τ
 * stays off the border. */
static void decades(double *lo, double *hi)
{
	*lo = pow(10, floor(log10(*lo) - 0.15));
	*hi = pow(10, ceil(log10(*hi) + 0.15));
}

/* The key of n lines inside the chart, in rows across its top (the
 * ranges leave a decade of room there for every row of it). */
static void key_inside(FILE *f, int n)
{
	(void)n;
	fprintf(f, "set key inside top center horizontal maxcols 5 opaque box samplen 2\n");
}

/* The top of a log axis from lo to hi that leaves room above hi for a key
 * of n entries at five a row (about a twelfth of the height a row). */
static double headroom(double lo, double hi, int n)
{
	double frac = 0.08 * ((n + 4) / 5) + 0.04;
	return hi * pow(hi / lo, frac / (1 - frac));
}

static void chart_spectra(FILE *f, const Plots *p, const char *ext)
{
	fprintf(f, "set output '%s-spectra.%s'\n", p->base, ext);
	fprintf(f, "set title 'σ_j / σ_1 of every layer; the line is 1/τ = %g (τ = %g)'\n",
	        1 / p->tau, p->tau);
	fprintf(f,
	        "set logscale y\nset yrange [%g:%g]\nset xlabel 'j (largest first)'\n"
	        "set ylabel 'σ_j / σ_1'\n",
	        p->sv_lo, headroom(p->sv_lo, 1, p->m + 1));
	key_inside(f, p->m + 1);
	/* the threshold first: every point is drawn over it */
	fprintf(f,
	        "plot %g with lines dashtype 2 lw 3 lc rgb 'black' title '1/τ', \\\n"
	        "  for [i=0:%d] '%s-spectra.dat' index i using 1:($2 > 0 ? $2 : 1/0) with "
	        "linespoints pt 7 ps 0.8 lw 3 title sprintf('layer %%d', i+1)\nunset offsets\n",
	        1 / p->tau, p->m - 1, p->base);
}

static void chart_alg1(FILE *f, const Plots *p, const char *ext)
{
	fprintf(f, "set output '%s-alg1-kappa.%s'\n", p->base, ext);
	fprintf(f,
	        "set title 'κ(Ŵ^{(i)}) of every layer per Algorithm-1 iteration'\n"
	        "set logscale y\nset yrange [%g:%g]\nset xrange [-0.3:%g]\n"
	        "set xlabel 'iteration'\nset ylabel 'κ'\nset xtics 1\n",
	        p->k_lo, headroom(p->k_lo, p->k_hi, p->m + 1), p->iters + 0.3);
	key_inside(f, p->m + 1);
	/* τ as each iteration ran with it (column 2), a piece across each
	 * iteration, under the layers' lines */
	fprintf(f,
	        "plot '%s-alg1.dat' using ($1 - 0.5):2:(1):(0) with vectors nohead dashtype 2 lw 3 "
	        "lc rgb 'black' title 'τ of the iteration', \\\n"
	        "  for [i=1:%d] '' using 1:(column(6+i)) with linespoints pt 7 lw 3 "
	        "title sprintf('layer %%d', i)\n",
	        p->base, p->m);
	fprintf(f, "unset logscale y\nset autoscale y\nset output '%s-alg1-size.%s'\n", p->base,
	        ext);
	fprintf(f,
	        "set title 'Σ n_i and the test accuracy per Algorithm-1 iteration'\n"
	        "set ylabel 'Σ n_i'\nset y2label 'test accuracy (%%)'\nset y2tics\n"
	        "set ytics nomirror\nset y2range [%g:%g]\nset key inside bottom left opaque box\n",
	        p->acc_lo, p->acc_hi);
	fprintf(f,
	        "plot '%s-alg1.dat' using 1:4 with linespoints pt 7 lw 2 title 'Σ n_i', '' using "
	        "1:5 axes x1y2 with linespoints pt 5 lw 2 title 'test accuracy'\n"
	        "unset y2tics\nunset y2label\nset ytics mirror\nset xtics autofreq\n"
	        "set autoscale x\n",
	        p->base);
}

static void chart_sweep(FILE *f, const Plots *p, const char *ext)
{
	fprintf(f, "set output '%s-sweep.%s'\n", p->base, ext);
	fprintf(f,
	        "set title 'Algorithm 2: errors against β (bars: the least and largest "
	        "2ε_v − ε_{tr} of the trials)'\nset xlabel 'β'\nset ylabel 'error (%%)'\n"
	        "set yrange [0:%g]\nset xrange [%g:%g]\n",
	        p->sw_hi, p->b0 - 0.04 * (p->b1 - p->b0 + 0.1),
	        p->b1 + 0.04 * (p->b1 - p->b0 + 0.1));
	key_inside(f, 4);
	fprintf(f,
	        "plot '%s-sweep.dat' using 1:2 with linespoints pt 7 lw 2 title 'ε_{tr}', '' "
	        "using 1:3 with linespoints pt 5 lw 2 title 'ε_v', '' using 1:4:5:6 with "
	        "yerrorlines pt 9 lw 2 title '2ε_v − ε_{tr}', '' using ($8 > 0 ? $1 : 1/0):4 "
	        "with points pt 6 ps 4 lw 3 lc rgb 'black' title 'pick β = %g'\n"
	        "set autoscale y\nset autoscale x\n",
	        p->base, p->pick);
}

static void chart_series(FILE *f, const Plots *p, const char *ext)
{
	fprintf(f, "set output '%s-kappa-epochs.%s'\n", p->base, ext);
	fprintf(f,
	        "set title 'κ(Ŵ^{(i)}) of every layer while the last training ran'\n"
	        "set logscale y\nset yrange [%g:%g]\nset xlabel 'epoch'\nset ylabel 'κ'\n",
	        p->s_lo, headroom(p->s_lo, p->s_hi, p->m + 1));
	key_inside(f, p->m + 1);
	fprintf(f,
	        "plot %g with lines dashtype 2 lw 3 lc rgb 'black' title 'τ = %g', \\\n"
	        "  for [i=1:%d] '%s-kappa-epochs.dat' using 1:(column(1+i)) with lines lw 3 "
	        "title sprintf('layer %%d', i)\n"
	        "unset logscale y\nset autoscale y\n",
	        p->tau, p->tau, p->m, p->base);
}

static void chart_curve(FILE *f, const Plots *p, const char *ext)
{
	fprintf(f, "set output '%s-curve.%s'\n", p->base, ext);
	fprintf(f,
	        "set title 'The last training: accuracy per epoch%s'\n"
	        "set xlabel 'epoch'\nset ylabel 'accuracy (%%)'\nset yrange [%g:%g]\n"
	        "set key inside bottom right opaque box\n",
	        p->kept > 0 ? " (the grey bar: the epoch kept)" : "", p->c_lo, p->c_hi);
	if (p->kept > 0)
		fprintf(f,
		        "set arrow 1 from %d, graph 0 to %d, graph 1 nohead lw 12 lc rgb '#cccccc' "
		        "back\n",
		        p->kept, p->kept);
	fprintf(f,
	        "plot '%s-curve.dat' using 1:2 with linespoints pt 7 ps 0.6 lw 3 title "
	        "'training', '' using 1:3 with linespoints pt 5 lw 3 title 'validation'\n"
	        "unset arrow 1\nset autoscale y\n",
	        p->base);
}

static void plot_cmds(FILE *f, const Plots *p, const char *ext)
{
	chart_spectra(f, p, ext);
	if (p->alg1)
		chart_alg1(f, p, ext);
	fprintf(f, "unset logscale y\nset autoscale y\n");
	if (p->sweep)
		chart_sweep(f, p, ext);
	if (p->series)
		chart_series(f, p, ext);
	if (p->curve)
		chart_curve(f, p, ext);
}

static void write_script(FILE *f, const void *ud)
{
	const Plots *p = ud;
	fprintf(f,
	        "# gnuplot %s.gp: the screen's charts for slides, as PNG and PDF beside it\n"
	        "# (gnuplot's cairo terminals, 16:9)\n",
	        p->base);
	fprintf(f, "set encoding utf8\nset grid\nset border lw 1.5\n");
	fprintf(f, "set terminal pngcairo size 1600,900 enhanced font 'DejaVu Sans,22' "
	           "linewidth 2\n");
	plot_cmds(f, p, "png");
	fprintf(f, "set terminal pdfcairo size 10in,5.625in enhanced font 'DejaVu Sans,14' "
	           "linewidth 2\n");
	plot_cmds(f, p, "pdf");
	fprintf(f, "unset output\n");
}

/* The ranges the charts are framed by. */
static void frame(const Worker *w, const PlotData *d, Plots *pl)
{
	const Session *s = w->s;
	double lo = 1 / s->tau;
	for (int i = 0; i < d->m; i++)
		for (int j = 0; j < d->lc[i].nsv; j++)
			if (d->lc[i].sv[j] > 0 && d->lc[i].sv[0] > 0)
				lo = fmin(lo, d->lc[i].sv[j] / d->lc[i].sv[0]);
	double hi = 1;
	decades(&lo, &hi);
	pl->sv_lo = lo;
	pl->k_lo = pl->k_hi = s->tau;
	double alo = 100, ahi = 0;
	for (int r = 0; pl->alg1 && r < s->alg1->nrec; r++) {
		const Alg1Record *c = &s->alg1->rec[r];
		pl->k_lo = fmin(pl->k_lo, c->tau), pl->k_hi = fmax(pl->k_hi, c->tau);
		for (int i = 0; i < c->m; i++)
			if (isfinite(c->kappa[i]) && c->kappa[i] > 0)
				pl->k_lo = fmin(pl->k_lo, c->kappa[i]),
				pl->k_hi = fmax(pl->k_hi, c->kappa[i]);
		double a = 100 * (1 - c->eval_error);
		if (!isnan(a))
			alo = fmin(alo, a), ahi = fmax(ahi, a);
	}
	decades(&pl->k_lo, &pl->k_hi);
	/* the accuracy's axis at least 5 points wide: a wobble of a few tenths
	 * stays a wobble */
	double mid = (alo + ahi) / 2, half = fmax((ahi - alo) / 2 + 1, 2.5);
	pl->acc_hi = fmin(100, ceil(mid + half));
	pl->acc_lo = fmax(0, floor(pl->acc_hi - fmax(2 * half, 5)));
	const ShownSeries *k = &w->shown.ks;
	pl->s_lo = pl->s_hi = s->tau;
	for (size_t i = 0; i < (size_t)k->n * (size_t)k->m; i++)
		if (isfinite(k->kappa[i]) && k->kappa[i] > 0)
			pl->s_lo = fmin(pl->s_lo, k->kappa[i]),
			pl->s_hi = fmax(pl->s_hi, k->kappa[i]);
	decades(&pl->s_lo, &pl->s_hi);
	const ShownEpochs *ep = &w->shown.ep;
	double clo = 100, chi = 0;
	for (int r = 0; r < ep->n; r++) {
		clo = fmin(clo, 100 * ep->acc[r]), chi = fmax(chi, 100 * ep->acc[r]);
		if (ep->val)
			clo = fmin(clo, 100 * ep->val_acc[r]),
			chi = fmax(chi, 100 * ep->val_acc[r]);
	}
	pl->c_hi = fmin(100, ceil(chi + 0.5));
	pl->c_lo = fmax(0, floor(fmin(clo - 0.5, pl->c_hi - 2)));
	pl->kept = ep->val && ep->done ? ep->best : 0;
	pl->iters = pl->alg1 ? s->alg1->rec[s->alg1->nrec - 1].iter : 0;
	double top = 0;
	for (int i = 0; i < w->shown.nbeta; i++) {
		const ShownBeta *b = &w->shown.beta[i];
		double v[] = {b->err_tr, b->err_v, b->score, b->smax};
		for (size_t c = 0; b->done && c < sizeof v / sizeof *v; c++)
			if (!isnan(v[c]))
				top = fmax(top, 100 * v[c]);
	}
	pl->sw_hi = top > 0 ? top * 1.15 : 1;
	pl->b0 = w->shown.nbeta ? w->shown.beta[0].beta : 0;
	pl->b1 = w->shown.nbeta ? w->shown.beta[w->shown.nbeta - 1].beta : 1;
	pl->pick = w->shown.pick >= 0 && w->shown.pick < w->shown.nbeta
	               ? w->shown.beta[w->shown.pick].beta
	               : NAN;
}

/* The images gnuplot writes beside the script (Plots' names). */
static const char *const images[] = {"-spectra", "-alg1-kappa",   "-alg1-size",
                                     "-sweep",   "-kappa-epochs", "-curve"};

/* The first image gnuplot would write into that is not a regular file (a
 * FIFO would hold gnuplot, and the export with it, until something reads),
 * into bad; 0 when there is none. */
static int image_in_the_way(const char *dir, const char *base, char *bad, size_t len)
{
	static const char *const ext[] = {".png", ".pdf"};
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
	Plots pl = {.base = quoted,
	            .m = s->net->m,
	            .alg1 = s->alg1 && s->alg1->nrec,
	            .sweep = w->shown.nbeta > 0,
	            .series = w->shown.ks.n > 0,
	            .curve = w->shown.ep.n > 0,
	            .tau = s->tau,
	            .pick = NAN};
	LayerCond *lc;
	if (cond_net_new(s->net, s->tau, 1, &lc, e) != 0)
		return err_set(e, "export: conditioning failed");
	PlotData d = {w, lc, s->net->m, s->tau};
	frame(w, &d, &pl);
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
	             {"-curve.dat", write_curve, &d, pl.curve},
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
		         g > 0     ? "PNG and PDF drawn by gnuplot"
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
