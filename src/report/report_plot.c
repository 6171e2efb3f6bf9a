/* report_plot.c - gnuplot's scripts, all of them: one preamble for the
 * scripts of slides, one table of the files a plot is made of, the
 * screen's charts (the layer table's spectra, Algorithm 1, the sweep, κ
 * against epochs, the last training's curve) with their data, and the
 * comparison of a squeeze's criteria. */
#include "report/report_plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/report_int.h"
#include "report/report_rec.h"

/* ---- the table of files, the preamble, quoting ---- */

int report_plot_files(const char *prefix, const ReportPlotFile *files, int n, Err *e)
{
	size_t len = strlen(prefix) + 32;
	char *path = malloc(len);
	if (!path)
		return err_set(e, "out of memory");
	int written = 0, rc = 0;
	for (int i = 0; i < n && rc == 0; i++) {
		if (!files[i].on)
			continue;
		snprintf(path, len, "%s%s", prefix, files[i].suffix);
		rc = report_write_file(path, files[i].fn, files[i].ud, e);
		written += rc == 0 && files[i].data;
	}
	free(path);
	return rc < 0 ? -1 : written;
}

int report_gp_slides(FILE *f, const void *slides, Err *e)
{
	const ReportSlides *s = slides;
	fprintf(f,
	        "# gnuplot %s%s: %s for slides, as PNG and PDF beside it\n"
	        "# (gnuplot's cairo terminals, 16:9)\n",
	        s->base, s->suffix, s->what);
	fprintf(f, "set encoding utf8\n%sset border lw 1.5\n", s->grid ? "set grid\n" : "");
	/* the series' colours, each dark enough to read on white (gnuplot's
	 * fifth, yellow, is not), a layer's the same on every chart */
	static const char *const lt[] = {"#1f5fbf", "#d62728", "#2ca02c", "#8c4bb0",
	                                 "#e07000", "#6b4423", "#d0358f", "#1a9aa0"};
	for (size_t i = 0; i < sizeof lt / sizeof *lt; i++)
		fprintf(f, "set linetype %zu lc rgb '%s'\n", i + 1, lt[i]);
	fprintf(f, "set linetype cycle %zu\n", sizeof lt / sizeof *lt);
	fprintf(f, "set terminal pngcairo size 1600,900 enhanced font 'DejaVu Sans,22' "
	           "linewidth 2\n");
	if (s->cmds(f, s->ud, "png", e))
		return -1;
	fprintf(f, "set terminal pdfcairo size 10in,5.625in enhanced font 'DejaVu Sans,14' "
	           "linewidth 2\n");
	if (s->cmds(f, s->ud, "pdf", e))
		return -1;
	fprintf(f, "unset output\n");
	return 0;
}

char *report_gp_quoted(const char *s)
{
	char *q = malloc(2 * strlen(s) + 1);
	size_t k = 0;
	for (; q && *s; s++) {
		if (*s == '\'')
			q[k++] = '\'';
		q[k++] = *s;
	}
	if (q)
		q[k] = '\0';
	return q;
}

/* A gnuplot string literal: the text in single quotes, quotes doubled, a
 * control character (a line break would end the command) as a space. */
static void gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("''", f);
		else
			fputc(((unsigned char)*s < 0x20 || *s == 0x7f) ? ' ' : *s, f);
	fputc('\'', f);
}

/* ---- the screen's charts ---- */

/* Which charts are drawn, and the ranges that frame them, for the script. */
typedef struct Plots {
	const char *base; /* file name without directory, quoted for the script */
	int m, alg1, sweep, series, curve;
	int val; /* the curve has a validation split's accuracies */
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
	        "linespoints pt 7 ps 0.8 lw 3 lt i+1 title sprintf('layer %%d', i+1)\n"
	        "unset offsets\n",
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
	        "  for [i=1:%d] '' using 1:(column(6+i)) with linespoints pt 7 lw 3 lt i "
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
	        "  for [i=1:%d] '%s-kappa-epochs.dat' using 1:(column(1+i)) with linespoints "
	        "pt 7 ps 0.5 lw 3 lt i title sprintf('layer %%d', i)\n"
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
	/* the validation split's accuracies only where it was measured: no key
	 * without its line; the training loss on the right-hand axis */
	fprintf(f,
	        "set y2label 'training loss'\nset y2tics\nset ytics nomirror\n"
	        "plot '%s-curve.dat' using 1:2 with linespoints pt 7 ps 0.6 lw 3 title "
	        "'training accuracy'",
	        p->base);
	if (p->val)
		fprintf(f, ", '' using 1:3 with linespoints pt 5 lw 3 title 'validation accuracy'");
	fprintf(f,
	        ", '' using 1:6 axes x1y2 with lines lw 2 dt 2 lc rgb '#808080' title "
	        "'training loss (right)'\n"
	        "unset arrow 1\nunset y2label\nunset y2tics\nset ytics mirror\nset autoscale y\n");
}

static int plot_cmds(FILE *f, const void *ud, const char *ext, Err *e)
{
	const Plots *p = ud;
	(void)e;
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
	return 0;
}

static int write_layers(FILE *f, const void *ud, Err *e)
{
	const ReportScreen *s = ud;
	return report_cond_data(f, s->lc, s->net->m, s->tau, e);
}

/* One block per layer (gnuplot's index i-1): j, σ_j/σ_1, |r_jj|/|r_11|. */
static int write_spectra(FILE *f, const void *ud, Err *e)
{
	static const RecCol cols[] = {{.name = "j", .type = REC_INT, .dfmt = F_0F},
	                              {.name = "sigma_j/sigma_1", .type = REC_NUM, .dfmt = F_17G},
	                              {.name = "|r_jj|/|r_11|", .type = REC_NUM, .dfmt = F_17G}};
	static const RecKind kind = {.col = cols, .ncol = 3};
	const ReportScreen *s = ud;
	char note[64];
	RecSet set = {&kind, NULL, 0, 0};
	snprintf(note, sizeof note, "(pivoted QR), tau = %g", s->tau);
	rec_data_head(f, &set, "blocks per layer (gnuplot index = layer - 1)", note, 0, e);
	for (int i = 0; i < s->net->m; i++) {
		const LayerCond *l = &s->lc[i];
		RecVal *v = calloc((size_t)(l->nsv > 0 ? l->nsv : 1) * 3, sizeof *v);
		if (!v)
			return err_set(e, "out of memory for the spectra");
		for (int j = 0; j < l->nsv; j++) {
			v[3 * j] = rec_num(j + 1);
			v[3 * j + 1] = rec_num(l->sv[0] > 0 ? l->sv[j] / l->sv[0] : 0);
			v[3 * j + 2] = rec_num(l->rdiag ? l->rdiag[j] : NAN);
		}
		fprintf(f, "%s# layer %d: %d x %d\n", i ? "\n\n" : "", i + 1, l->rows, l->cols);
		set = (RecSet){&kind, v, l->nsv, 0};
		rec_data(f, &set, e);
		free(v);
	}
	return 0;
}

static int write_alg1(FILE *f, const void *ud, Err *e)
{
	const ReportScreen *s = ud;
	return report_alg1_data(f, s->alg1->rec, s->alg1->nrec, e);
}

static int write_sweep(FILE *f, const void *ud, Err *e)
{
	const ReportScreen *s = ud;
	return report_betas_data(f, s->beta, s->nbeta, s->pick, e);
}

static int write_series(FILE *f, const void *ud, Err *e)
{
	static const RecCol cols[] = {
	    {.name = "epoch", .type = REC_NUM, .dfmt = F_6F},
	    {.name = "kappa", .type = REC_ARRAY, .flags = REC_INFNAN, .dfmt = F_17G}};
	static const RecKind kind = {.col = cols, .ncol = 2};
	const ReportScreen *s = ud;
	RecVal *v = calloc((size_t)(s->ks_n > 0 ? s->ks_n : 1) * 2, sizeof *v);
	if (!v)
		return err_set(e, "out of memory for the κ series");
	for (int r = 0; r < s->ks_n; r++) {
		v[2 * r] = rec_num(s->ks_epoch[r]);
		v[2 * r + 1] =
		    (RecVal){.a = s->ks_kappa + (size_t)r * (size_t)s->ks_m, .na = s->ks_m};
	}
	RecSet set = {&kind, v, s->ks_n, 0};
	int rc = rec_data_head(f, &set, s->ks_what, NULL, s->ks_m, e) || rec_data(f, &set, e);
	free(v);
	return rc ? -1 : 0;
}

/* The last training's accuracy per epoch, the kept epoch marked. */
static int write_curve(FILE *f, const void *ud, Err *e)
{
	static const RecCol cols[] = {{.name = "epoch", .type = REC_INT, .dfmt = F_0F},
	                              {.name = "train_acc_percent", .type = REC_NUM, .dfmt = F_4F},
	                              {.name = "val_acc_percent", .type = REC_NUM, .dfmt = F_4F},
	                              {.name = "lr", .type = REC_NUM, .dfmt = F_6G},
	                              {.name = "kept", .type = REC_FLAG, .dfmt = F_0F},
	                              {.name = "train_loss", .type = REC_NUM, .dfmt = F_6G}};
	static const RecKind kind = {.col = cols, .ncol = 6};
	const ReportScreen *s = ud;
	RecVal *v = calloc((size_t)(s->ep_n > 0 ? s->ep_n : 1) * 6, sizeof *v);
	if (!v)
		return err_set(e, "out of memory for the training's curve");
	for (int r = 0; r < s->ep_n; r++) {
		RecVal *x = v + (size_t)r * 6;
		x[0] = rec_num(r + 1);
		x[1] = rec_num(100 * s->ep_acc[r]);
		x[2] = rec_num(s->ep_val ? 100 * s->ep_val_acc[r] : NAN);
		x[3] = rec_num(s->ep_lr[r]);
		x[4] = rec_num(s->ep_val && s->ep_best == r + 1);
		x[5] = rec_num(s->ep_loss ? s->ep_loss[r] : NAN);
	}
	RecSet set = {&kind, v, s->ep_n, 0};
	int rc = rec_data_head(f, &set, s->ep_what, "(1 on the epoch kept)", 0, e) ||
	         rec_data(f, &set, e);
	free(v);
	return rc ? -1 : 0;
}

/* The ranges the charts are framed by. */
static void frame(const ReportScreen *s, Plots *pl)
{
	double lo = 1 / s->tau;
	for (int i = 0; i < s->net->m; i++)
		for (int j = 0; j < s->lc[i].nsv; j++)
			if (s->lc[i].sv[j] > 0 && s->lc[i].sv[0] > 0)
				lo = fmin(lo, s->lc[i].sv[j] / s->lc[i].sv[0]);
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
	pl->s_lo = pl->s_hi = s->tau;
	for (size_t i = 0; i < (size_t)s->ks_n * (size_t)s->ks_m; i++)
		if (isfinite(s->ks_kappa[i]) && s->ks_kappa[i] > 0)
			pl->s_lo = fmin(pl->s_lo, s->ks_kappa[i]),
			pl->s_hi = fmax(pl->s_hi, s->ks_kappa[i]);
	decades(&pl->s_lo, &pl->s_hi);
	double clo = 100, chi = 0;
	for (int r = 0; r < s->ep_n; r++) {
		clo = fmin(clo, 100 * s->ep_acc[r]), chi = fmax(chi, 100 * s->ep_acc[r]);
		if (s->ep_val)
			clo = fmin(clo, 100 * s->ep_val_acc[r]),
			chi = fmax(chi, 100 * s->ep_val_acc[r]);
	}
	pl->c_hi = fmin(100, ceil(chi + 0.5));
	pl->c_lo = fmax(0, floor(fmin(clo - 0.5, pl->c_hi - 2)));
	pl->kept = s->ep_val && s->ep_done ? s->ep_best : 0;
	pl->iters = pl->alg1 ? s->alg1->rec[s->alg1->nrec - 1].iter : 0;
	double top = 0;
	for (int i = 0; i < s->nbeta; i++) {
		const ReportBeta *b = &s->beta[i];
		double v[] = {b->err_tr, b->err_v, b->score, b->smax};
		for (size_t c = 0; b->done && c < sizeof v / sizeof *v; c++)
			if (!isnan(v[c]))
				top = fmax(top, 100 * v[c]);
	}
	pl->sw_hi = top > 0 ? top * 1.15 : 1;
	pl->b0 = s->nbeta ? s->beta[0].beta : 0;
	pl->b1 = s->nbeta ? s->beta[s->nbeta - 1].beta : 1;
	pl->pick = s->pick >= 0 && s->pick < s->nbeta ? s->beta[s->pick].beta : NAN;
}

/* ---- the screen's tables ---- */

int report_screen_tables(FILE *f, const ReportScreen *s, ReportFormat fmt, Err *e)
{
	int md = fmt == REPORT_MARKDOWN;
	if (md)
		fprintf(f, "## Conditioning per layer (tau = %g)\n\n", s->tau);
	if (s->lc && report_cond(f, s->net, s->lc, fmt, e))
		return -1;
	if (s->alg1 && s->alg1->nrec) {
		fprintf(f, md ? "\n## Algorithm 1, per iteration\n\n" : "\n");
		if (report_alg1_history(f, s->alg1, fmt, e))
			return -1;
	}
	if (s->sweep) {
		fprintf(f, md ? "\n## Algorithm 2, beta sweep\n\n" : "\n");
		if (report_alg2(f, s->sweep, fmt, e))
			return -1;
	}
	if (!s->ndec)
		return 0;
	/* the squeeze pass's decisions, each saying whether it was compensated,
	 * and (Markdown) what the pass did to the accuracy */
	fprintf(f, md ? "\n## Algorithm 3, squeeze\n\n" : "\n");
	if (report_squeeze_decisions(f, s->dec, s->ndec, fmt, e))
		return -1;
	if (!md)
		return 0;
	fprintf(f, "\n%d neuron(s) removed; test accuracy %.2f %% before the pass", s->removed,
	        s->acc_start);
	if (!isnan(s->acc_end))
		fprintf(f, ", %.2f %% after it", s->acc_end);
	if (!isnan(s->acc_retrained))
		fprintf(f, ", %.2f %% after retraining", s->acc_retrained);
	fprintf(f, ".\n");
	return 0;
}

int report_screen_plots(const char *dir, const char *base, const ReportScreen *s, Err *e)
{
	char *quoted = report_gp_quoted(base);
	size_t len = strlen(dir) + strlen(base) + 2;
	char *prefix = malloc(len);
	if (!quoted || !prefix) {
		free(quoted);
		free(prefix);
		return err_set(e, "out of memory");
	}
	snprintf(prefix, len, "%s/%s", dir, base);
	Plots pl = {.base = quoted,
	            .m = s->net->m,
	            .alg1 = s->alg1 && s->alg1->nrec,
	            .sweep = s->nbeta > 0,
	            .series = s->ks_n > 0,
	            .curve = s->ep_n > 0,
	            .val = s->ep_val,
	            .tau = s->tau,
	            .pick = NAN};
	frame(s, &pl);
	const ReportSlides script = {quoted, ".gp", "the screen's charts", 1, plot_cmds, &pl};
	const ReportPlotFile files[] = {{"-layers.dat", write_layers, s, 1, 1},
	                                {"-spectra.dat", write_spectra, s, 1, 1},
	                                {"-alg1.dat", write_alg1, s, pl.alg1, 1},
	                                {"-sweep.dat", write_sweep, s, pl.sweep, 1},
	                                {"-kappa-epochs.dat", write_series, s, pl.series, 1},
	                                {"-curve.dat", write_curve, s, pl.curve, 1},
	                                {".gp", report_gp_slides, &script, 1, 0}};
	int n = report_plot_files(prefix, files, sizeof files / sizeof *files, e);
	free(quoted);
	free(prefix);
	return n;
}

int report_plot_blocked(const char *dir, const char *base, char *bad, size_t len)
{
	/* the images gnuplot writes beside the script (the charts' names) */
	static const char *const images[] = {"-spectra",      "-alg1-kappa", "-alg1-size", "-sweep",
	                                     "-kappa-epochs", "-curve",      "-network"};
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

/* ---- the comparison of a squeeze's criteria ---- */

typedef struct Cmp {
	const Alg3Compare *c;
	int n;
	const char *data, *png, *title; /* the data's and the image's names beside the script */
} Cmp;

static int cmp_data(FILE *f, const void *ud, Err *e)
{
	const Cmp *x = ud;
	return report_compare_data(f, x->c, x->n, e);
}

/* Accuracy against the fraction of hidden neurons removed, one panel per
 * stage measured. */
static int cmp_script(FILE *f, const void *ud, Err *e)
{
	const Cmp *x = ud;
	(void)e;
	int stages[CMP_NSTAGES], ns = report_compare_stages(x->c, x->n, stages);
	int cols = ns > 1 ? 2 : 1, rows = (ns + 1) / 2;
	fprintf(f, "# accuracy against the fraction of hidden neurons removed, by criterion\n");
	fprintf(f, "set terminal pngcairo size %d,%d font ',10'\nset output ", 560 * cols,
	        420 * (rows > 0 ? rows : 1) + 40);
	gp_string(f, x->png);
	fprintf(f, "\nset datafile missing '?'\nset key bottom left\nset grid\n"
	           "set xlabel 'fraction of hidden neurons removed'\n"
	           "set ylabel 'test accuracy (%%)'\nset xrange [0:*]\n");
	fprintf(f, "set multiplot layout %d,%d title ", rows > 0 ? rows : 1, cols);
	gp_string(f, x->title);
	fputc('\n', f);
	for (int i = 0; i < ns; i++) {
		int s = stages[i], b = 3 + 4 * s;
		fprintf(f, "set title '%s'\nplot ", report_compare_stage_title(s));
		gp_string(f, x->data);
		fprintf(f,
		        " using 1:%d with linespoints pt 7 lw 2 title 'QR (Algorithm 3)', \\\n"
		        "     '' using 1:%d with linespoints pt 5 lw 2 title 'norm', \\\n"
		        "     '' using 1:%d:%d with yerrorlines pt 9 lw 1 \\\n"
		        "        title 'random, mean ± sd'",
		        b, b + 1, b + 2, b + 3);
		fprintf(f, ", \\\n     %.6g with lines dt 2 lc 'gray' title 'before squeezing'\n",
		        x->c[0].acc_before);
	}
	fprintf(f, "unset multiplot\n");
	return 0;
}

int report_squeeze_compare_plot(const char *prefix, const Alg3Compare *c, int n, const char *title,
                                Err *e)
{
	const char *slash = strrchr(prefix, '/'), *name = slash ? slash + 1 : prefix;
	size_t len = strlen(name) + 8;
	char *data = malloc(len), *png = malloc(len);
	if (!data || !png) {
		free(data);
		free(png);
		return err_set(e, "out of memory");
	}
	snprintf(data, len, "%s.dat", name);
	snprintf(png, len, "%s.png", name);
	Cmp x = {c, n, data, png, title};
	const ReportPlotFile files[] = {{".dat", cmp_data, &x, 1, 1},
	                                {".gp", cmp_script, &x, 1, 0}};
	int rc = report_plot_files(prefix, files, 2, e);
	free(data);
	free(png);
	return rc < 0 ? -1 : 0;
}
