/* plane_redraw.c - what the Plane view costs against training on the spiral
 * (300 points, batch 50, lr 0.01), in one run:
 *
 *   the worker's side: a training of EPOCHS epochs alone, and the same
 *   training computing what the view shows while a network trains
 *   (plane_shown_compute: the regions on a 128×128 grid and, for every
 *   hidden layer, the pivoted-QR order and a 24×24 map per neuron) under the
 *   worker's rule, at most every max(0.25 s, 39 × its cost); the time of
 *   those computations against the training's; and what the view computes
 *   once after an operation (the squeeze's marks at τ and the combinations
 *   too), timed alone;
 *
 *   the screen's side: one frame of the screen (views_draw and the curses
 *   refresh, written to /dev/null) on view 7 and on view 1, at 80×24 and
 *   200×60, the screen drawing a frame every 30 ms while it waits for keys.
 *
 *   plane_redraw [THREADS [WIDTHS [EPOCHS]]]   (defaults 2, "32 128", 3000)
 *
 * The trainings alone and with the computations alternate 3 times; the best
 * of each is printed, and the share of the computations is that of the
 * quickest run with them. */
#include <curses.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "data/datasets.h"
#include "engine/net.h"
#include "engine/plane.h"
#include "engine/train.h"
#include "session/session.h"
#include "tui/screen.h"
#include "tui/views.h"
#include "tui/worker.h"
#include "tui/worker_plane.h"

/* Trainings alone and with the view's computations, interleaved. */
#define REPS 3

static void die(const char *what, const Err *e)
{
	fprintf(stderr, "plane_redraw: %s: %s\n", what, e ? e->msg : "out of memory");
	exit(1);
}

typedef struct Sampler {
	PlaneBox box;
	double last, cost, spent;
	int samples;
	const Net *net;
} Sampler;

/* The worker's rule and computation while a network trains
 * (tui/worker_plane.c, worker_plane_sample): at most every max(0.25 s, 39 ×
 * the last cost), the regions and the maps in pivoted-QR order, without the
 * squeeze's marks (every neuron counted kept). */
static int sample(const TrainProgress *p, void *ud)
{
	Sampler *s = ud;
	(void)p;
	double t = now();
	if (t - s->last < fmax(0.25, 39 * s->cost))
		return 0;
	ShownPlane sp = {0};
	Err e;
	int all[3] = {s->net->n[1], s->net->n[2], s->net->n[3]};
	sp.box = s->box;
	if (plane_shown_compute(s->net, s->net, 25, all, &sp, &e) < 0)
		die("plane_shown_compute", &e);
	plane_shown_free(&sp);
	s->last = now();
	s->cost = s->last - t;
	s->spent += s->cost;
	s->samples++;
	return 0;
}

static double train(Net *net, const Dataset *d, int threads, double epochs, Sampler *s)
{
	TrainOpts o;
	Err e;
	train_opts_default(&o);
	o.batch = 50;
	o.adam.lr = 0.01;
	o.threads = threads;
	double t0 = now();
	if (s) {
		s->net = net;
		s->last = t0;
	}
	if (train_epochs(net, d, &o, epochs, s ? sample : NULL, s, &e) < 0)
		die("train_epochs", &e);
	return now() - t0;
}

static void worker_side(const Dataset *tr, int threads, int width, double epochs)
{
	int w[] = {2, width, width, 3};
	Err e;
	Net *a = net_fresh(3, w, ACT_ERF, 1, 1, &e), *b = net_fresh(3, w, ACT_ERF, 1, 1, &e);
	if (!a || !b)
		die("net_fresh", &e);
	Sampler s = {0}, keep = {0};
	if (plane_box(tr, &s.box, &e) < 0)
		die("plane_box", &e);
	/* alone and with, interleaved REPS times; the best of each, and the
	 * share of the run whose training was the quickest */
	double t_alone = INFINITY, t_with = INFINITY;
	for (int r = 0; r < REPS; r++) {
		Net *x = net_clone(a, &e), *y = net_clone(a, &e);
		if (!x || !y)
			die("net_clone", &e);
		t_alone = fmin(t_alone, train(x, tr, threads, epochs, NULL));
		Sampler one = {.box = s.box};
		double t = train(y, tr, threads, epochs, &one);
		if (t < t_with) {
			t_with = t;
			keep = one;
		}
		net_free(x);
		if (r == REPS - 1) {
			net_free(b);
			b = y;
		} else {
			net_free(y);
		}
	}
	s = keep;
	/* after an operation: the marks and combinations too, the best of 3 */
	double after = INFINITY;
	for (int r = 0; r < 3; r++) {
		ShownPlane sp = {.box = s.box};
		double t0 = now();
		if (plane_shown_compute(b, b, 25, NULL, &sp, &e) < 0)
			die("plane_shown_compute", &e);
		after = fmin(after, now() - t0);
		plane_shown_free(&sp);
	}
	printf("2-%d-%d-3, %g epochs, best of %d: training alone %.3f s; with the view's "
	       "computations %.3f s (%d of them, %.2f ms each, %.3f s in all): %.2f %% of the "
	       "training's time, %.2f %% longer than alone\n",
	       width, width, epochs, REPS, t_alone, t_with, s.samples, 1e3 * s.spent / s.samples,
	       s.spent, 100 * s.spent / (t_with - s.spent), 100 * (t_with / t_alone - 1));
	printf("  after an operation, with the squeeze's marks and the combinations: %.2f ms, "
	       "%.1f epochs' time\n",
	       1e3 * after, after / (t_alone / epochs));
	net_free(a);
	net_free(b);
}

/* One frame (views_draw and refresh) of view v, the best of reps. */
static double frame(Worker *w, UiState *u, ViewId v, int reps)
{
	double best = INFINITY;
	u->view = v;
	for (int r = 0; r < reps; r++) {
		double t0 = now();
		const Shown *p = worker_lock(w);
		views_draw(p, u);
		worker_unlock(w);
		refresh();
		best = fmin(best, now() - t0);
	}
	return best;
}

static void screen_side(int threads, int width, int reps)
{
	Err e = {{0}};
	char spec[32];
	Session *s = session_new(&e);
	SessAction a[4] = {
	    {.kind = SESS_DATA, .data = {.spec = "spiral", .label_col = -1}},
	    {.kind = SESS_OPTS, .opts = {.batch = 50, .lr = 0.01, .threads = threads}},
	    {.kind = SESS_NET, .net = {.act = ACT_ERF, .act_a = 1, .seed = 1}},
	    {.kind = SESS_TRAIN, .train = {.epochs = 300}}};
	snprintf(spec, sizeof spec, "%d,%d", width, width);
	snprintf(a[2].net.layers, sizeof a[2].net.layers, "%s", spec);
	for (int i = 0; s && i < 4; i++)
		if (session_apply(s, &a[i], NULL, &e) < 0)
			die("session", &e);
	/* the screen on /dev/null, at each size, in 256 colours */
	int out = dup(1), nul = open("/dev/null", O_WRONLY);
	double t[2][2];
	static const int size[2][2] = {{80, 24}, {200, 60}};
	for (int k = 0; k < 2; k++) {
		char cols[16], lines[16];
		snprintf(cols, sizeof cols, "%d", size[k][0]);
		snprintf(lines, sizeof lines, "%d", size[k][1]);
		setenv("COLUMNS", cols, 1);
		setenv("LINES", lines, 1);
		setenv("TERM", "xterm-256color", 1);
		fflush(stdout);
		dup2(nul, 1);
		if (screen_init(0, &e) < 0)
			die("screen_init", &e);
		Worker *w = worker_start(s, NULL, 0, &e);
		if (!w)
			die("worker_start", &e);
		UiState u = {.layer = 1, .it_first = -1};
		t[k][0] = frame(w, &u, VIEW_PLANE, reps);
		t[k][1] = frame(w, &u, VIEW_LAYERS, reps);
		/* the worker owns the session: give it back for the next size */
		screen_end();
		dup2(out, 1);
		int colours = screen_color();
		s = NULL;
		worker_stop(w);
		if (k == 0) {
			s = session_new(&e);
			for (int i = 0; s && i < 4; i++)
				if (session_apply(s, &a[i], NULL, &e) < 0)
					die("session", &e);
		}
		printf(
		    "screen %dx%d (%s), 2-%d-%d-3: a frame of view 7 %.3f ms, of view 1 %.3f ms; "
		    "at a frame every 30 ms, view 7 takes %.2f %% of a core (view 1 %.2f %%)\n",
		    size[k][0], size[k][1], colours ? "256 colours" : "no colours", width, width,
		    1e3 * t[k][0], 1e3 * t[k][1], 100 * t[k][0] / 0.030, 100 * t[k][1] / 0.030);
	}
	close(nul);
	close(out);
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 2;
	const char *widths = argc > 2 ? argv[2] : "32 128";
	double epochs = argc > 3 ? atof(argv[3]) : 3000;
	if (threads < 1 || !(epochs > 0)) {
		fprintf(stderr, "usage: plane_redraw [THREADS [WIDTHS [EPOCHS]]]\n");
		return 2;
	}
	DataSpec d;
	Dataset *tr, *te;
	Err e;
	dataspec_default(&d);
	d.spec = "spiral";
	if (datasets_load(&d, &tr, &te, &e) < 0)
		die("spiral", &e);
	printf("== the worker: what the view shows, computed while the network trains\n");
	char list[256];
	snprintf(list, sizeof list, "%s", widths);
	for (char *tok = strtok(list, " ,"); tok; tok = strtok(NULL, " ,"))
		worker_side(tr, threads, atoi(tok), epochs);
	printf("== the screen: one frame\n");
	snprintf(list, sizeof list, "%s", widths);
	for (char *tok = strtok(list, " ,"); tok; tok = strtok(NULL, " ,"))
		screen_side(threads, atoi(tok), 200);
	dataset_free(tr);
	dataset_free(te);
	return 0;
}
