/* report_plot.h - the screen's export: its tables (Markdown or CSV) and,
 * beside them, the data of every chart and a gnuplot script that draws
 * them for slides: PNG and PDF through gnuplot's cairo terminals, 16:9,
 * with the screen's symbols (κ, τ, β, ε_v) and the legends inside; on data
 * in the plane, the Plane view's regions, points, neuron maps and panels
 * the same way, and the network diagram. The screen gathers what it shows into these structures;
 * report/ writes every file (it runs no gnuplot). */
#ifndef CONDNET_REPORT_PLOT_H
#define CONDNET_REPORT_PLOT_H

#include "alg/alg1_proportion.h"
#include "alg/alg2_scale.h"
#include "alg/alg3_combination.h"
#include "base/err.h"
#include "engine/cond.h"
#include "engine/net.h"
#include "engine/plane.h"
#include "report/report.h"
#include "report/report_squeeze.h"

/* What the screen shows, gathered for its export. */
typedef struct ReportScreen {
	const Net *net;
	const LayerCond *lc; /* net->m layers at tau, with the pivoted QR */
	double tau;
	const Alg1 *alg1;  /* NULL, or without records: no Algorithm 1 */
	const Alg2 *sweep; /* NULL: no sweep */
	/* the squeeze pass shown (ndec 0: none), its removals and the test
	 * accuracy before it, after it and after retraining (NaN unknown) */
	const SqueezeDecisionRow *dec;
	int ndec, removed;
	double acc_start, acc_end, acc_retrained;
	/* the sweep as shown, with its spreads; pick -1 without one */
	const ReportBeta *beta;
	int nbeta, pick;
	/* κ of every layer against epochs while the last training ran: n
	 * epochs, n × m values (row-major), what trained */
	const char *ks_what;
	int ks_m, ks_n;
	const double *ks_epoch, *ks_kappa;
	/* the last training's epochs: accuracies (fractions; validation when
	 * ep_val), rates, the best validation epoch (0: none), whether it ended,
	 * what trained */
	const char *ep_what;
	int ep_n, ep_val, ep_best, ep_done;
	const double *ep_acc, *ep_val_acc, *ep_lr;
	const double *ep_loss; /* the training loss per epoch */
} ReportScreen;

/* The tables, Markdown (with headings) or CSV. */
int report_screen_tables(FILE *f, const ReportScreen *s, ReportFormat fmt, Err *e);
/* BASE-layers.dat, -spectra.dat and, when shown, -alg1.dat, -sweep.dat,
 * -kappa-epochs.dat, -curve.dat, and the script BASE.gp, in dir: the data
 * files written, or -1 with a message. */
int report_screen_plots(const char *dir, const char *base, const ReportScreen *s, Err *e);

/* The Plane view: the decision regions and points, each hidden layer's
 * neuron maps in pivoted-QR order (a dropped neuron's followed by its
 * combination's), and the panels shown. */
typedef struct ReportMaps {
	const Alg3Combinations *c; /* the layer's pivot order, kept count, combinations */
	const float *act;          /* c->n maps of side px */
	const float *comb;         /* c->n − c->nkeep maps: the combinations' */
} ReportMaps;
typedef struct ReportPlane {
	const char *title; /* the network and its accuracy */
	PlaneBox box;
	int k; /* classes */
	const PlaneRegions *reg;
	int npts;
	const float *pts; /* npts (x, y) */
	const int *lab;
	int m; /* layers: m − 1 hidden, each with its maps */
	const ReportMaps *maps;
	int px;      /* a map's side */
	int step;    /* the maps are of the network before Algorithm 1's step */
	int npanels; /* 0: no panels; 4 a squeeze proposal's, 5 Algorithm 1's step */
	const PlaneRegions *panels;
	const double *panel_acc;
	int removed; /* neurons the panels remove */
} ReportPlane;
/* BASE-regions.dat, -points.dat, -maps.dat, -panels.dat (with panels) and
 * the script BASE-plane.gp in dir: the data files written, or -1. */
int report_plane_plots(const char *dir, const char *base, const ReportPlane *p, Err *e);

/* The network diagram: a column per layer, the weights among the first
 * `cap` neurons of every layer (w[i]: min(n[i], cap) × min(n[i+1], cap),
 * row-major; NULL for a convolution, drawn without lines), the marks of the squeeze for each hidden
 * layer (NULL: none) and a dropped neuron whose combination is drawn (sel_layer 0: none); on data
 * in the plane every neuron's map (px × px): the inputs', the hidden layers' (maps, in their pivot
 * order) and the classes' probabilities; otherwise the layer table's |r_jj|/|r_11| (lc). */
#define REPORT_NET_LAYERS 64
typedef struct ReportNetwork {
	const char *title, *subtitle; /* the network; what the chosen neuron is ("") */
	int m;
	const int *n; /* n[0..m] */
	const float *const *w;
	int cap;
	double tau;
	const Alg3Combinations *const *marks; /* m − 1 */
	int sel_layer, sel_neuron;            /* the neuron from 0 */
	const LayerCond *lc;                  /* m layers, or NULL */
	int plane;
	unsigned inputs; /* the inputs beyond x and y (data/plane_inputs.h) */
	int px;
	const float *in_maps, *out_maps;
	const ReportMaps *maps; /* m − 1 */
} ReportNetwork;
/* BASE-network-edges.dat, -network-nodes.dat, -network-maps.dat (on data in
 * the plane) and the script BASE-network.gp in dir: the data files
 * written, or -1. */
int report_network_plots(const char *dir, const char *base, const ReportNetwork *r, Err *e);

/* The first image the scripts of base would draw in dir that is not a
 * regular file (a FIFO would hold gnuplot until something reads), its path
 * into bad: 1, or 0 when there is none. */
int report_plot_blocked(const char *dir, const char *base, char *bad, size_t len);

/* Every file the screen's export of base in dir writes beside its tables,
 * as report_screen_plots, report_network_plots (net->m > 0) and
 * report_plane_plots (pl->m > 0) write them and their scripts draw them:
 * fn(path, what, ud) for each data file ("the data of a chart"), script
 * ("a gnuplot script") and image, PNG and PDF ("an image gnuplot draws"),
 * in the order they are written. Stops at the first fn that returns
 * non-zero and returns that; 0 when all were given, -1 out of memory. */
typedef int (*ReportFileFn)(const char *path, const char *what, void *ud);
int report_export_files(const char *dir, const char *base, const ReportScreen *s,
                        const ReportNetwork *net, const ReportPlane *pl, ReportFileFn fn, void *ud,
                        Err *e);

#endif
