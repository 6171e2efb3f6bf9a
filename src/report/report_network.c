/* report_network.c - the network diagram for slides (report_plot.h): a
 * column per layer, every neuron its map over the plane (the inputs', the
 * hidden neurons' and the classes' probabilities) or, on other data, a dot
 * sized and coloured by its |r_jj|/|r_11|; the strongest weights between
 * them as lines coloured by sign and as wide as |w|; the neurons the
 * squeeze drops marked × and, for the dropped neuron chosen, the kept
 * neurons of its combination labelled with their coefficients; the keys of
 * every colour. Data files and a gnuplot script, PNG and PDF, 16:9. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/plane_inputs.h"
#include "report/report_int.h"
#include "report/report_plot.h"

/* The maps' ramp and the weights' signs: blue for −, orange for +. */
#define NEG_RGB "#1f4fa0"
#define POS_RGB "#e07010"
#define DROP_RGB "#c03030"
#define COMB_RGB "#a020a0"

/* Neurons drawn at most in a column (the rest counted). */
#define SHOWN 32

typedef struct Place {
	const ReportNetwork *r;
	const char *base;
	int shown[REPORT_NET_LAYERS]; /* neurons drawn per layer */
	int tall;                     /* the longest column drawn */
	double hx, hy;                /* a node's half width and height */
} Place;

static int shown_of(const ReportNetwork *r, int l)
{
	int s = r->n[l] < r->cap ? r->n[l] : r->cap;
	return s < SHOWN ? s : SHOWN;
}

static double xof(int l)
{
	return 4.0 * l;
}

static double yof(const Place *p, int l, int j)
{
	return (p->shown[l] - 1) / 2.0 - j;
}

/* The label of neuron j of layer l. */
static const char *label(const ReportNetwork *r, int l, int j, char *buf, size_t len)
{
	if (l == 0 && r->plane)
		snprintf(buf, len, "%s", plane_inputs_name(r->inputs, j, 0));
	else if (l == 0)
		snprintf(buf, len, "i%d", j + 1);
	else if (l == r->m)
		snprintf(buf, len, "class %d", j + 1);
	else
		snprintf(buf, len, "n%d", j + 1);
	return buf;
}

/* Where neuron j stands in c's pivot order (-1: not there). */
static int pivot(const Alg3Combinations *c, int j)
{
	for (int t = 0; c && t < c->n; t++)
		if (c->perm[t] == j)
			return t;
	return -1;
}

static const Alg3Combinations *marks(const ReportNetwork *r, int l)
{
	return l >= 1 && l < r->m && r->marks ? r->marks[l - 1] : NULL;
}

struct Edge {
	int a, b;
	float w;
};

static int by_weight(const void *x, const void *y)
{
	double a = fabs(((const struct Edge *)x)->w), b = fabs(((const struct Edge *)y)->w);
	return (a < b) - (a > b);
}

/* The strongest weights between each two columns: x y dx dy width colour. */
static int write_edges(FILE *f, const void *ud, Err *e)
{
	const Place *p = ud;
	const ReportNetwork *r = p->r;
	fprintf(f, "# the strongest weights between the neurons drawn: x y dx dy colour "
	           "(0xRRGGBB: orange +, blue -) width (1 to 4, as |w| over the largest drawn) "
	           "weight layer from to\n");
	for (int l = 0; l < r->m; l++) {
		int na = p->shown[l], nb = p->shown[l + 1],
		    cols = r->n[l + 1] < r->cap ? r->n[l + 1] : r->cap;
		if (!r->w[l])
			continue; /* a convolution: no lines */
		struct Edge *ed = malloc((size_t)na * nb * sizeof *ed);
		if (!ed)
			return err_set(e, "out of memory");
		int n = 0;
		for (int a = 0; a < na; a++)
			for (int b = 0; b < nb; b++)
				ed[n++] = (struct Edge){a, b, r->w[l][(size_t)a * cols + b]};
		qsort(ed, (size_t)n, sizeof *ed, by_weight);
		int keep = 3 * (na > nb ? na : nb) / 2;
		double top = n ? fabs(ed[0].w) : 0;
		for (int q = (keep < n ? keep : n) - 1; q >= 0 && top > 0; q--) {
			double x0 = xof(l) + p->hx, y0 = yof(p, l, ed[q].a);
			double x1 = xof(l + 1) - p->hx - (l + 1 < r->m ? 0.9 : 0.05);
			double y1 = yof(p, l + 1, ed[q].b);
			int width = 1 + (int)fmin(3, floor(4 * fabs(ed[q].w) / top));
			fprintf(f, "%.6g %.6g %.6g %.6g %d %d %.6g %d %d %d\n", x0, y0, x1 - x0,
			        y1 - y0, ed[q].w < 0 ? 0x1f4fa0 : 0xe07010, width, ed[q].w, l + 1,
			        ed[q].a + 1, ed[q].b + 1);
		}
		free(ed);
	}
	return 0;
}

/* Every neuron drawn: x y label mark size colour; then what the columns
 * fold, the drops and the combination's coefficients. */
static int write_nodes(FILE *f, const void *ud, Err *e)
{
	const Place *p = ud;
	const ReportNetwork *r = p->r;
	char b[32];
	(void)e;
	fprintf(f, "# the neurons drawn: x y \"label\" dropped (1: by the squeeze) "
	           "|r_jj|/|r_11| (0: none) coefficient (in the combination chosen, else 0)\n");
	const Alg3Combinations *sel = marks(r, r->sel_layer);
	int st = pivot(sel, r->sel_neuron);
	for (int l = 0; l <= r->m; l++)
		for (int j = 0; j < p->shown[l]; j++) {
			const Alg3Combinations *mk = marks(r, l);
			int t = pivot(mk, j), drop = mk && t >= mk->nkeep;
			double rd = 0, coef = 0;
			if (r->lc && l >= 1 && r->lc[l - 1].perm)
				for (int k = 0; k < r->lc[l - 1].nsv && k < r->lc[l - 1].cols; k++)
					if (r->lc[l - 1].perm[k] == j)
						rd = r->lc[l - 1].rdiag[k];
			/* in activations where the fit was made (what the screen shows) */
			if (sel && l == r->sel_layer && st >= sel->nkeep && t >= 0 &&
			    t < sel->nkeep)
				coef = sel->act_coef
				           ? sel->act_coef[(size_t)(st - sel->nkeep) *
				                               (sel->nkeep + 1) +
				                           t]
				           : sel->coef[(size_t)(st - sel->nkeep) * sel->nkeep + t];
			fprintf(f, "%.6g %.6g \"%s\" %d %.6g %.6g\n", xof(l), yof(p, l, j),
			        label(r, l, j, b, sizeof b), drop, rd, coef);
		}
	fprintf(f, "\n\n# the columns that fold: x y \"+N more\"\n");
	for (int l = 0; l <= r->m; l++)
		if (r->n[l] > p->shown[l])
			fprintf(f, "%.6g %.6g \"+%d more\"\n", xof(l), yof(p, l, p->shown[l]),
			        r->n[l] - p->shown[l]);
	fprintf(f, "%.6g %.6g \"\"\n", xof(0), yof(p, 0, 0) + 100); /* never empty */
	return 0;
}

/* One map as "u v value" rows over the unit square (gnuplot's image). */
static void map_rows(FILE *f, const float *v, int n, double scale)
{
	for (int r = n - 1; r >= 0; r--) {
		for (int c = 0; c < n; c++)
			fprintf(f, "%.6g %.6g %.6g\n", (c + 0.5) / n, (n - r - 0.5) / n,
			        v[r * n + c] / scale);
		fputc('\n', f);
	}
}

/* The maps, one block (index) per neuron drawn, column by column: the
 * inputs' and the hidden neurons' scaled to [−1, 1], the classes'
 * probabilities. */
static int write_maps(FILE *f, const void *ud, Err *e)
{
	const Place *p = ud;
	const ReportNetwork *r = p->r;
	size_t np = (size_t)r->px * r->px;
	(void)e;
	fprintf(f,
	        "# each neuron's map over the plane, %d x %d: u v value (the inputs' and hidden "
	        "neurons' scaled to [-1, 1], the classes' probabilities); a block per "
	        "neuron drawn\n",
	        r->px, r->px);
	int block = 0;
	for (int l = 0; l <= r->m; l++)
		for (int j = 0; j < p->shown[l]; j++) {
			const float *v = NULL;
			double scale = 1;
			if (l == 0) {
				v = r->in_maps + (size_t)j * np;
				scale = 0;
				for (size_t i = 0; i < np; i++)
					scale = fmax(scale, fabs(v[i]));
			} else if (l == r->m) {
				v = r->out_maps + (size_t)j * np;
			} else if (r->maps && r->maps[l - 1].c) {
				const ReportMaps *m = &r->maps[l - 1];
				int t = pivot(m->c, j);
				v = t >= 0 ? m->act + (size_t)t * np : NULL;
				for (size_t i = 0; i < (size_t)m->c->n * np; i++)
					scale = fmax(scale, fabs(m->act[i]));
			}
			fprintf(f, "%s# block %d: layer %d neuron %d\n", block ? "\n\n" : "", block,
			        l, j + 1);
			if (v)
				map_rows(f, v, r->px, scale > 0 ? scale : 1);
			else
				fprintf(f, "0 0 0\n");
			block++;
		}
	return 0;
}

/* The plot's first parts: the weights, a plot per width (a line's width
 * cannot vary within one), and the keys: the weights' signs, the drops,
 * the combination, the classes. */
static void plot_weights_and_keys(FILE *f, const ReportNetwork *r, const char *b)
{
	fprintf(f, "plot");
	for (int k = 1; k <= 4; k++)
		fprintf(
		    f,
		    "%s '%s-network-edges.dat' using ($6==%d?$1:NaN):2:3:4:5 with vectors nohead "
		    "lw %g lc rgb variable notitle",
		    k > 1 ? "," : "", b, k, 0.5 + 1.5 * (k - 1));
	fprintf(f, ", NaN with lines lw 4 lc rgb '" POS_RGB "' title 'weight > 0'"
	           ", NaN with lines lw 4 lc rgb '" NEG_RGB "' title 'weight < 0'"
	           ", NaN with points pt 2 ps 2 lw 3 lc rgb '" DROP_RGB
	           "' title 'dropped by the squeeze'");
	if (r->sel_layer > 0)
		fprintf(f, ", NaN with points pt 7 ps 1.5 lc rgb '" COMB_RGB
		           "' title 'its combination: coefficients'");
	for (int k = 0; r->plane && k < r->n[r->m] && k < 6; k++) {
		int rgb[3];
		report_class_rgb(k, rgb);
		fprintf(f, ", NaN with boxes fs solid lc rgb '#%02x%02x%02x' title 'class %d'",
		        rgb[0], rgb[1], rgb[2], k + 1);
	}
}

/* Every neuron its map over the plane; a class its probability in its
 * colour, white to the class. */
static void plot_maps(FILE *f, const Place *p, const ReportNetwork *r, const char *b)
{
	int block = 0;
	for (int l = 0; l <= r->m; l++)
		for (int j = 0; j < p->shown[l]; j++, block++) {
			double x0 = xof(l) - p->hx, y0 = yof(p, l, j) - p->hy;
			int rgb[3];
			if (l < r->m) {
				fprintf(f,
				        ", '%s-network-maps.dat' index %d using "
				        "(%g+$1*%g):(%g+$2*%g):3 "
				        "with image notitle",
				        b, block, x0, 2 * p->hx, y0, 2 * p->hy);
				continue;
			}
			report_class_rgb(j, rgb);
			fprintf(f,
			        ", '%s-network-maps.dat' index %d using (%g+$1*%g):(%g+$2*%g):"
			        "(255-(255-%d)*$3):(255-(255-%d)*$3):(255-(255-%d)*$3) with "
			        "rgbimage notitle",
			        b, block, x0, 2 * p->hx, y0, 2 * p->hy, rgb[0], rgb[1], rgb[2]);
		}
}

static int network_cmds(FILE *f, const void *ud, const char *ext, Err *e)
{
	const Place *p = ud;
	const ReportNetwork *r = p->r;
	const char *b = p->base;
	char *title = report_gp_quoted(r->title), *sub = report_gp_quoted(r->subtitle);
	if (!title || !sub) {
		free(title);
		free(sub);
		return err_set(e, "out of memory");
	}
	double half = p->tall / 2.0 + 0.6;
	fprintf(f, "set output '%s-network.%s'\nset title '%s'%s%s%s\n", b, ext, title,
	        sub[0] ? ".\"\\n\".'" : "", sub, sub[0] ? "'" : "");
	free(title);
	free(sub);
	/* equal units: the maps square */
	fprintf(f,
	        "unset border\nunset xtics\nunset ytics\nset size ratio -1\nset xrange "
	        "[-2.2:%g]\nset yrange [%g:%g]\nset key below center horizontal samplen 2\n",
	        xof(r->m) + 2.6, -half, half);
	fprintf(f, "set palette defined (-1 '" NEG_RGB "', 0 'white', 1 '" POS_RGB "')\n"
	           "set cbrange [-1:1]\nset cbtics ('-1' -1, '0' 0, '+1' 1)\n"
	           "set cblabel 'a neuron over the plane'\n");
	if (r->plane)
		fprintf(f, "set colorbox vertical user origin screen 0.93, screen 0.3 size screen "
		           "0.012, screen 0.45\n");
	else
		fprintf(f, "unset colorbox\n");
	fprintf(f, "set style textbox opaque noborder\n");
	plot_weights_and_keys(f, r, b);
	if (r->plane) {
		plot_maps(f, p, r, b);
	} else {
		/* dots: |r_jj|/|r_11| as size, kept (≥ 1/τ) green, beyond it red */
		fprintf(
		    f,
		    ", '%s-network-nodes.dat' index 0 using 1:2:(0.6+2*$5):($5>=%g?0x208020:$5>0?"
		    "0xc03030:0x999999) with points pt 7 ps variable lc rgb variable notitle",
		    b, 1 / r->tau);
	}
	if (r->plane) /* a frame round every map: white is a value too */
		fprintf(f,
		        ", '%s-network-nodes.dat' index 0 using 1:2:(%g):(%g) with boxxyerror fs "
		        "empty lc rgb '#999999' lw 0.5 notitle",
		        b, p->hx, p->hy);
	fprintf(f,
	        ", '%s-network-nodes.dat' index 0 using ($1<%g?$1-%g:NaN):2:3 with labels right "
	        "offset -0.3,0 notitle",
	        b, xof(r->m) - 1, p->hx);
	fprintf(f,
	        ", '%s-network-nodes.dat' index 0 using ($1>=%g?$1+%g:NaN):2:3 with labels left "
	        "offset 0.3,0 notitle",
	        b, xof(r->m) - 1, p->hx);
	fprintf(f,
	        ", '%s-network-nodes.dat' index 0 using ($4>0?$1+%g:NaN):2 with points pt 2 ps 2 "
	        "lw 3 lc rgb '" DROP_RGB "' notitle",
	        b, p->hx + 0.35);
	fprintf(f,
	        ", '%s-network-nodes.dat' index 0 using ($6!=0?$1+%g:NaN):2:(sprintf('%%+.2f',$6)) "
	        "with labels left boxed tc rgb '" COMB_RGB "' notitle",
	        b, p->hx + 0.2);
	fprintf(f, ", '%s-network-nodes.dat' index 1 using 1:2:3 with labels notitle\n", b);
	return 0;
}

int report_network_plots(const char *dir, const char *base, const ReportNetwork *r, Err *e)
{
	if (r->m + 1 > REPORT_NET_LAYERS)
		return err_set(e, "the network diagram draws at most %d layers",
		               REPORT_NET_LAYERS - 1);
	Place p = {.r = r, .base = base};
	for (int l = 0; l <= r->m; l++) {
		p.shown[l] = shown_of(r, l);
		p.tall = p.shown[l] > p.tall ? p.shown[l] : p.tall;
	}
	/* square maps (equal units), 0.8 of a row tall */
	p.hx = p.hy = 0.4;
	size_t len = strlen(dir) + strlen(base) + 2;
	char *prefix = malloc(len);
	if (!prefix)
		return err_set(e, "out of memory");
	snprintf(prefix, len, "%s/%s", dir, base);
	const ReportSlides script = {base, "-network.gp", "the network diagram",
	                             0,    network_cmds,  &p};
	const ReportPlotFile files[] = {{"-network-edges.dat", write_edges, &p, 1, 1},
	                                {"-network-nodes.dat", write_nodes, &p, 1, 1},
	                                {"-network-maps.dat", write_maps, &p, r->plane, 1},
	                                {"-network.gp", report_gp_slides, &script, 1, 0}};
	int n = report_plot_files(prefix, files, sizeof files / sizeof *files, e);
	free(prefix);
	return n;
}
