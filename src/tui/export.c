/* tui/export.c - the screen's export: what the screen shows gathered for
 * report/report_plot.h, which writes the tables, the data of every chart
 * and the gnuplot scripts; gnuplot run on them when it is installed, and
 * what happened said on the status line. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/one_line.h"
#include "base/spawn.h"
#include "engine/hook.h"
#include "report/report_plot.h"
#include "tui/worker.h"
#include "tui/worker_int.h"

static int thread_stopped(void *ud)
{
	(void)ud;
	return hook_thread_stopped();
}

/* Runs `gnuplot SCRIPT` in dir (base/spawn.h): 1 drawn, 0 not installed, -1
 * failed, -2 stopped (Esc, or the screen ending: gnuplot is ended, SIGTERM
 * then SIGKILL half a second later). */
static int run_gnuplot(const char *dir, const char *script)
{
	char *argv[] = {"gnuplot", (char *)script, NULL};
	int st = spawn_wait(dir, argv, 0, thread_stopped, NULL);
	return st == SPAWN_STOPPED ? -2 : st == 0 ? 1 : st == SPAWN_MISSING ? 0 : -1;
}

/* What the export is made of, gathered from the session and the state
 * shown (the worker's own: no lock to read it). */
typedef struct Gathered {
	ReportFormat fmt; /* of the tables */
	ReportScreen scr;
	LayerCond *lc;
	SqueezeDecisionRow dec[SQZ_DEC_MAX];
	ReportBeta *beta;
	/* the Plane view's */
	ReportPlane pl;
	ReportMaps *maps;
	char title[160];
	/* the network diagram's */
	ReportNetwork net;
	const Alg3Combinations **marks;
	char net_title[300], net_sub[400];
} Gathered;

/* The network diagram as the screen shows it: its marks (the proposal's
 * while one waits, else the squeeze's at τ on data in the plane), the
 * dropped neuron chosen (sel: its layer × 65536 + the neuron). */
static int gather_network(Worker *w, Gathered *g, int sel)
{
	const Shown *p = &w->shown;
	const ShownNet *d = &p->net;
	const ShownPlane *pl = &p->pl;
	if (!d->m)
		return 0;
	g->marks = calloc((size_t)d->m, sizeof *g->marks);
	if (!g->marks)
		return -1;
	int maps = d->plane && pl->maps && !pl->step && !pl->live && pl->m == d->m;
	for (int l = 1; l < d->m; l++) {
		if (p->sq.waiting && d->c.layer == l)
			g->marks[l - 1] = &d->c;
		else if (!p->sq.waiting && maps && pl->maps[l - 1].c.n == d->n[l])
			g->marks[l - 1] = &pl->maps[l - 1].c;
	}
	int sl = sel >> 16, sj = sel & 0xffff;
	const Alg3Combinations *c = sl >= 1 && sl < d->m ? g->marks[sl - 1] : NULL;
	int dropped = 0;
	for (int t = c ? c->nkeep : 0; c && t < c->n; t++)
		dropped |= c->perm[t] == sj;
	char shape[128];
	net_shape_str(w->s->net, shape, sizeof shape);
	for (int t = c ? c->nkeep : 0; dropped && t < c->n; t++)
		if (c->perm[t] == sj)
			(c->act_coef ? alg3_combination_act_str : alg3_combination_str)(
			    c, t - c->nkeep, 4, 0, g->net_sub, sizeof g->net_sub);
	snprintf(g->net_title, sizeof g->net_title, "%.60s on %.60s: test accuracy %.2f %%%s",
	         shape, w->s->data_spec, p->test_acc,
	         p->sq.waiting ? ", the squeeze's proposal"
	         : maps        ? ", the squeeze at τ marked"
	                       : "");
	g->net = (ReportNetwork){.title = g->net_title,
	                         .subtitle = g->net_sub,
	                         .m = d->m,
	                         .n = d->n,
	                         .w = (const float *const *)d->w,
	                         .cap = DIAG_MAX,
	                         .tau = w->s->tau,
	                         .marks = g->marks,
	                         .sel_layer = dropped ? sl : 0,
	                         .sel_neuron = sj,
	                         .lc = g->lc,
	                         .plane = d->plane,
	                         .inputs = d->inputs,
	                         .px = PLANE_MAP_PX,
	                         .in_maps = d->in_maps,
	                         .out_maps = d->out_maps,
	                         .maps = maps ? g->maps : NULL};
	return 0;
}

/* The screen's tables and charts; -1 when out of memory. lc NULL when the
 * conditioning failed: the tables go without the layer table. */
static int gather(Worker *w, Gathered *g, int sel)
{
	const Session *s = w->s;
	const Shown *p = &w->shown;
	const ShownSqueeze *q = &p->sq;
	Err e = {{0}};
	memset(g, 0, sizeof *g);
	if (cond_net_new(s->net, s->tau, 1, &g->lc, &e) != 0)
		g->lc = NULL;
	g->beta = calloc((size_t)(p->nbeta > 0 ? p->nbeta : 1), sizeof *g->beta);
	if (!g->beta)
		return -1;
	if (p->nbeta > 0)
		memcpy(g->beta, p->beta, (size_t)p->nbeta * sizeof *g->beta);
	int ndec = q->ndec && !q->undone ? q->ndec : 0;
	memcpy(g->dec, q->dec, (size_t)ndec * sizeof *g->dec);
	const ShownSeries *ks = &p->ks;
	const ShownEpochs *ep = &p->ep;
	g->scr = (ReportScreen){.net = s->net,
	                        .lc = g->lc,
	                        .tau = s->tau,
	                        .alg1 = s->alg1,
	                        .sweep = s->sweep,
	                        .dec = g->dec,
	                        .ndec = ndec,
	                        .removed = q->removed,
	                        .acc_start = q->acc_start,
	                        .acc_end = q->acc_end,
	                        .acc_retrained = q->acc_retrained,
	                        .beta = g->beta,
	                        .nbeta = p->nbeta,
	                        .pick = p->pick,
	                        .ks_what = ks->what,
	                        .ks_m = ks->m,
	                        .ks_n = ks->n,
	                        .ks_epoch = ks->epoch,
	                        .ks_kappa = ks->kappa,
	                        .ep_what = ep->what,
	                        .ep_n = ep->n,
	                        .ep_val = ep->val,
	                        .ep_best = ep->best,
	                        .ep_done = ep->done,
	                        .ep_acc = ep->acc,
	                        .ep_val_acc = ep->val_acc,
	                        .ep_lr = ep->lr,
	                        .ep_loss = ep->loss};
	/* the Plane view, on data of two features */
	const ShownPlane *pl = &p->pl;
	if (!pl->on || !pl->reg.cls || !pl->maps)
		return gather_network(w, g, sel);
	g->maps = calloc((size_t)pl->m, sizeof *g->maps);
	if (!g->maps)
		return -1;
	for (int l = 1; l < pl->m; l++)
		g->maps[l - 1] =
		    (ReportMaps){&pl->maps[l - 1].c, pl->maps[l - 1].act, pl->maps[l - 1].comb};
	char shape[128];
	net_shape_str(s->net, shape, sizeof shape);
	snprintf(g->title, sizeof g->title, "%.60s on %.60s: test accuracy %.2f %%", shape,
	         s->data_spec, p->test_acc);
	int panels = pl->pn.n > 0 && (q->waiting || pl->step);
	g->pl = (ReportPlane){.title = g->title,
	                      .box = pl->box,
	                      .k = pl->k,
	                      .reg = &pl->reg,
	                      .npts = pl->npts,
	                      .pts = pl->pts,
	                      .lab = pl->lab,
	                      .m = pl->m,
	                      .maps = g->maps,
	                      .px = PLANE_MAP_PX,
	                      .step = pl->step,
	                      .npanels = panels ? pl->pn.n : 0,
	                      .panels = pl->pn.reg,
	                      .panel_acc = pl->pn.acc,
	                      .removed = pl->pn.removed};
	return gather_network(w, g, sel);
}

static void gathered_free(Gathered *g, const Net *net)
{
	cond_net_free(g->lc, cond_layers(net));
	free(g->beta);
	free(g->maps);
	free(g->marks);
}

static int tables(FILE *f, const void *ud, Err *e)
{
	const Gathered *g = ud;
	return report_screen_tables(f, &g->scr, g->fmt, e);
}

/* The directory of path ("." for none) and its name without its
 * extension: where the plot files go and what they are named after. */
static void split_path(const char *path, char *dir, size_t dlen, char *base, size_t blen)
{
	snprintf(dir, dlen, "%s", path);
	char *slash = strrchr(dir, '/');
	snprintf(base, blen, "%s", slash ? slash + 1 : dir);
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, dlen, ".");
	char *dot = strrchr(base, '.');
	if (dot && dot != base)
		*dot = '\0';
}

/* The plot files beside path; returns how many, with what happened to the
 * images in note. */
static int export_plots(const Gathered *g, const char *path, char *note, size_t len, Err *e)
{
	char dir[1024], base[1024], file[2100];
	split_path(path, dir, sizeof dir, base, sizeof base);
	if (!g->lc)
		return err_set(e, "export: conditioning failed");
	int n = report_screen_plots(dir, base, &g->scr, e);
	if (n < 0)
		return -1;
	if (report_plot_blocked(dir, base, file, sizeof file)) {
		const char *name = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
		snprintf(note, len, "gnuplot not run: %.80s is not a regular file", name);
	} else {
		snprintf(file, sizeof file, "%s.gp", base);
		int r = run_gnuplot(dir, file);
		snprintf(note, len, "%s",
		         r > 0     ? "PNG and PDF drawn by gnuplot"
		         : r == 0  ? "gnuplot is not installed: gnuplot draws them"
		         : r == -2 ? "gnuplot stopped before it drew them"
		                   : "gnuplot failed on the script");
		if (r == -2)
			return n; /* stopped: nothing more is drawn */
	}
	/* the network diagram */
	int nn = g->net.m ? report_network_plots(dir, base, &g->net, e) : 0;
	if (nn < 0)
		return -1;
	if (nn > 0) {
		snprintf(file, sizeof file, "%s-network.gp", base);
		int r = run_gnuplot(dir, file);
		snprintf(note + strlen(note), len - strlen(note), "; the network diagram%s",
		         r > 0 ? " drawn" : "");
		if (r == -2)
			return n + nn;
		n += nn;
	}
	/* on data of two features, the Plane view's too */
	if (!g->pl.m)
		return n;
	int np = report_plane_plots(dir, base, &g->pl, e);
	if (np < 0)
		return -1;
	snprintf(file, sizeof file, "%s-plane.gp", base);
	int r = run_gnuplot(dir, file);
	char pnote[96];
	snprintf(pnote, sizeof pnote, "%s",
	         r > 0     ? "the plane's drawn by gnuplot"
	         : r == 0  ? "gnuplot is not installed"
	         : r == -2 ? "gnuplot stopped before it drew the plane's"
	                   : "gnuplot failed on the plane's script");
	if (np > 0)
		snprintf(note + strlen(note), len - strlen(note), "; %d of the plane, %s.gp", np,
		         pnote);
	return n + np;
}

/* The files one export writes, as roles for worker_files_apart: its tables
 * first, then what report_export_files lists. */
typedef struct Outs {
	FileRole *r;
	int n, cap;
} Outs;

static void outs_free(Outs *o)
{
	for (int i = 1; i < o->n; i++)
		free((char *)o->r[i].path);
	free(o->r);
}

static int out_add(const char *path, const char *what, void *ud)
{
	Outs *o = ud;
	if (o->n == o->cap) {
		int cap = o->cap ? 2 * o->cap : 32;
		FileRole *r = realloc(o->r, (size_t)cap * sizeof *r);
		if (!r)
			return -1;
		o->r = r;
		o->cap = cap;
	}
	char *p = o->n ? strdup(path) : (char *)path; /* the tables' path is the caller's */
	if (!p)
		return -1;
	o->r[o->n++] = (FileRole){"", p, 1, NULL, NULL, what};
	return 0;
}

/* Every file the export of g to path writes, in dir under base. */
static int export_outs(const Gathered *g, const char *path, const char *dir, const char *base,
                       Outs *o, Err *e)
{
	memset(o, 0, sizeof *o);
	if (out_add(path, "the export's tables", o) < 0)
		return err_set(e, "out of memory");
	/* without the conditioning the plots are not written (export_plots) */
	if (!g->lc)
		return 0;
	int rc = report_export_files(dir, base, &g->scr, g->net.m ? &g->net : NULL,
	                             g->pl.m ? &g->pl : NULL, out_add, o, e);
	return rc ? err_set(e, "out of memory") : 0;
}

/* How many of the files o names exist as regular files; the first into
 * first. */
static int existing(const Outs *o, const char **first)
{
	int n = 0;
	*first = NULL;
	for (int i = 0; i < o->n; i++) {
		struct stat st;
		if (stat(o->r[i].path, &st) == 0 && S_ISREG(st.st_mode) && n++ == 0)
			*first = o->r[i].path;
	}
	return n;
}

/* The export asks before it writes over existing files: the question, for
 * the screen to put (tui.c), and nothing written. */
static void ask(Worker *w, const char *path, int sel, const char *first, int n)
{
	pthread_mutex_lock(&w->mu);
	snprintf(w->shown.ask_path, sizeof w->shown.ask_path, "%s", path);
	if (n == 1)
		snprintf(w->shown.ask_q, sizeof w->shown.ask_q,
		         "export: %.1000s exists: overwrite it? (y/n)", first);
	else
		snprintf(w->shown.ask_q, sizeof w->shown.ask_q,
		         "export: %.1000s and %d more of its files exist: overwrite them? (y/n)",
		         first, n - 1);
	w->shown.ask_target = sel;
	pthread_mutex_unlock(&w->mu);
}

/* Writes the export g of path; what happened on the status line. */
static void write_export(Worker *w, Gathered *g, const char *path, int csv)
{
	Err e = {{0}};
	char note[128], base[1024];
	if (report_write_file(path, tables, g, &e) < 0) {
		worker_status_failed(w, path, "export failed: %s", e.msg);
		return;
	}
	int plots = export_plots(g, path, note, sizeof note, &e);
	if (plots < 0) {
		worker_status_failed(w, path, "exported the tables to %s, but the plots failed: %s",
		                     path, e.msg);
		return;
	}
	snprintf(base, sizeof base, "%s", path);
	char *dot = strrchr(base, '.'), *slash = strrchr(base, '/');
	if (dot && (!slash || dot > slash + 1))
		*dot = '\0';
	worker_status_done(
	    w, "exported the tables to %s (%s) and %d plots' data to %s-*.dat with %s.gp (%s)",
	    path, csv ? "CSV" : "Markdown", plots, base, base, note);
}

void worker_export(Worker *w, const char *path, int sel, int overwrite)
{
	Err e = {{0}};
	size_t n = strlen(path);
	int csv = n >= 4 && !strcmp(path + n - 4, ".csv");
	/* a line break in the name would end a line of the script gnuplot runs */
	if (one_line_check("the name", path, "the gnuplot script", &e) < 0) {
		worker_status_failed(w, path, "export refused: %s", e.msg);
		return;
	}
	Gathered g;
	if (gather(w, &g, sel) < 0) {
		gathered_free(&g, w->s->net);
		worker_status_failed(w, path, "export failed: %s: out of memory", path);
		return;
	}
	g.fmt = csv ? REPORT_CSV : REPORT_MARKDOWN;
	char dir[1024], base[1024];
	split_path(path, dir, sizeof dir, base, sizeof base);
	Outs o;
	const char *first;
	int rc = export_outs(&g, path, dir, base, &o, &e);
	/* every file it writes apart from the session's and from one another */
	if (rc == 0 && worker_files_apart(w, o.r, o.n, 0, &e) < 0)
		rc = -1;
	int exist = rc == 0 ? existing(&o, &first) : 0;
	if (rc < 0)
		worker_status_failed(w, path, "export refused: %s", e.msg);
	else if (exist && !overwrite)
		ask(w, path, sel, first, exist);
	else
		write_export(w, &g, path, csv);
	/* what it wrote (or would have) is the session's from now on */
	for (int i = 0; rc == 0 && (!exist || overwrite) && i < o.n; i++)
		worker_files_exported(w, o.r[i].path);
	outs_free(&o);
	gathered_free(&g, w->s->net);
}
