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

/* The rows of a column at most: neurons drawn, then one that counts the
 * rest ("+k more"), as the screen folds a column. */
#define SLOTS 16

/* The page in the rows' units: the plot's share of its height and width,
 * and the size of a character of the labels at their full size (22 points
 * on the PNG's 1600 × 900, 10 on the PDF's 10 × 5.625 inches: the same
 * share of the page), as a share of the page's width. */
#define PLOT_H 0.78
#define PLOT_W 0.88
#define CHAR_W 0.0085

typedef struct Place {
	const ReportNetwork *r;
	const char *base;
	int shown[REPORT_NET_LAYERS]; /* neurons drawn per layer, from off */
	int off[REPORT_NET_LAYERS];
	int tall;                    /* the most rows of a column (a fold's count one) */
	double x[REPORT_NET_LAYERS]; /* each column's x */
	double out[REPORT_NET_LAYERS], in[REPORT_NET_LAYERS]; /* the room its marks and
	                                                       * coefficients take on its
	                                                       * right, its labels on its left */
	double hx, hy;                                        /* a node's half width and height */
	double xlo, xhi, font; /* the x range; the labels' size (1: full) */
	double cw;             /* a character of the labels at that size */
} Place;

static int folded(const Place *p, int l)
{
	return p->r->n[l] > p->shown[l];
}

static double xof(const Place *p, int l)
{
	return p->x[l];
}

/* Neuron k drawn of column l (and k = shown: its fold's count), the
 * column centred on 0. */
static double yof(const Place *p, int l, int k)
{
	return (p->shown[l] + folded(p, l) - 1) / 2.0 - k;
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

/* 1 when column l holds the chosen dropped neuron: its combination's
 * coefficients stand on the right of its neurons. */
static int has_coef(const ReportNetwork *r, int l)
{
	const Alg3Combinations *sel = marks(r, l);
	return l == r->sel_layer && sel && pivot(sel, r->sel_neuron) >= sel->nkeep;
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
				ed[n++] = (struct Edge){a, b,
				                        r->w[l][(size_t)(p->off[l] + a) * cols +
				                                (size_t)(p->off[l + 1] + b)]};
		qsort(ed, (size_t)n, sizeof *ed, by_weight);
		int keep = 3 * (na > nb ? na : nb) / 2;
		double top = n ? fabs(ed[0].w) : 0;
		for (int q = (keep < n ? keep : n) - 1; q >= 0 && top > 0; q--) {
			/* from beyond the marks on the right of a column to short of the
			 * labels on the left of the next */
			double x0 = xof(p, l) + p->out[l], y0 = yof(p, l, ed[q].a);
			double x1 = xof(p, l + 1) - p->in[l + 1], y1 = yof(p, l + 1, ed[q].b);
			int width = 1 + (int)fmin(3, floor(4 * fabs(ed[q].w) / top));
			fprintf(f, "%.6g %.6g %.6g %.6g %d %d %.6g %d %d %d\n", x0, y0, x1 - x0,
			        y1 - y0, ed[q].w < 0 ? 0x1f4fa0 : 0xe07010, width, ed[q].w, l + 1,
			        p->off[l] + ed[q].a + 1, p->off[l + 1] + ed[q].b + 1);
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
	char b[64];
	(void)e;
	fprintf(f, "# the neurons drawn: x y \"label\" dropped (1: by the squeeze) "
	           "|r_jj|/|r_11| (0: none) coefficient (in the combination chosen, else 0)\n");
	const Alg3Combinations *sel = marks(r, r->sel_layer);
	int st = pivot(sel, r->sel_neuron);
	for (int l = 0; l <= r->m; l++)
		for (int k = 0; k < p->shown[l]; k++) {
			const Alg3Combinations *mk = marks(r, l);
			int j = p->off[l] + k, t = pivot(mk, j), drop = mk && t >= mk->nkeep;
			double rd = 0, coef = 0;
			if (r->lc && l >= 1 && r->lc[l - 1].perm)
				for (int q = 0; q < r->lc[l - 1].nsv && q < r->lc[l - 1].cols; q++)
					if (r->lc[l - 1].perm[q] == j)
						rd = r->lc[l - 1].rdiag[q];
			/* in activations where the fit was made (what the screen shows) */
			if (sel && l == r->sel_layer && st >= sel->nkeep && t >= 0 &&
			    t < sel->nkeep)
				coef = sel->act_coef
				           ? sel->act_coef[(size_t)(st - sel->nkeep) *
				                               (sel->nkeep + 1) +
				                           t]
				           : sel->coef[(size_t)(st - sel->nkeep) * sel->nkeep + t];
			fprintf(f, "%.6g %.6g \"%s\" %d %.6g %.6g\n", xof(p, l), yof(p, l, k),
			        label(r, l, j, b, sizeof b), drop, rd, coef);
		}
	fprintf(f, "\n\n# the columns that fold: x y \"+N more\" (and how many of them the "
	           "squeeze drops, how many weigh in the combination chosen)\n");
	for (int l = 0; l <= r->m; l++) {
		if (!folded(p, l))
			continue;
		const Alg3Combinations *mk = marks(r, l);
		int gone = 0, in = 0;
		for (int j = 0; j < r->n[l]; j++) {
			if (j >= p->off[l] && j < p->off[l] + p->shown[l])
				continue;
			int t = pivot(mk, j);
			gone += mk && t >= mk->nkeep;
			in += sel && l == r->sel_layer && st >= sel->nkeep && t >= 0 &&
			      t < sel->nkeep;
		}
		/* from the labels' place on, as long as the room to the next column's */
		double room = p->in[l] +
		              (l < r->m ? xof(p, l + 1) - p->in[l + 1] - xof(p, l) : p->out[l] + 1);
		for (int k = 0; k < 3; k++) {
			int n = snprintf(b, sizeof b, "+%d more", r->n[l] - p->shown[l]);
			if (gone && k < 2)
				n += snprintf(b + n, sizeof b - (size_t)n, ", %d ×", gone);
			if (in && k < 1)
				snprintf(b + n, sizeof b - (size_t)n, ", %d in the fit", in);
			if ((double)strlen(b) * p->cw <= room)
				break;
		}
		fprintf(f, "%.6g %.6g \"%s\"\n", xof(p, l) - p->in[l] + 0.1, yof(p, l, p->shown[l]),
		        b);
	}
	fprintf(f, "%.6g %.6g \"\"\n", xof(p, 0), yof(p, 0, 0) + 100); /* never empty */
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
		for (int k = 0; k < p->shown[l]; k++) {
			int j = p->off[l] + k;
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

/* The neurons' maps over the plane: a block each, in its place. */
static void maps_cmds(FILE *f, const Place *p)
{
	const ReportNetwork *r = p->r;
	int block = 0;
	for (int l = 0; l <= r->m; l++)
		for (int k = 0; k < p->shown[l]; k++, block++) {
			double x0 = xof(p, l) - p->hx, y0 = yof(p, l, k) - p->hy;
			if (l == r->m) {
				int rgb[3];
				report_class_rgb(p->off[l] + k, rgb);
				/* a class's probability in its colour: white to the class */
				fprintf(
				    f,
				    ", '%s-network-maps.dat' index %d using (%g+$1*%g):(%g+$2*%g):"
				    "(255-(255-%d)*$3):(255-(255-%d)*$3):(255-(255-%d)*$3) with "
				    "rgbimage notitle",
				    p->base, block, x0, 2 * p->hx, y0, 2 * p->hy, rgb[0], rgb[1],
				    rgb[2]);
			} else {
				fprintf(f,
				        ", '%s-network-maps.dat' index %d using "
				        "(%g+$1*%g):(%g+$2*%g):3 "
				        "with image notitle",
				        p->base, block, x0, 2 * p->hx, y0, 2 * p->hy);
			}
		}
}

/* The labels, the marks, the coefficients and the folds' counts, each in
 * the room the layout keeps for it (report_network_plots), at the labels'
 * size for this terminal. */
static void text_cmds(FILE *f, const Place *p, int pt)
{
	const ReportNetwork *r = p->r;
	const char *b = p->base;
	double last = xof(p, r->m) - 0.01;
	fprintf(f,
	        ", '%s-network-nodes.dat' index 0 using ($1<%g?$1-%g:NaN):2:3 with labels right "
	        "font ',%d' notitle",
	        b, last, p->hx + 0.12, pt);
	fprintf(f,
	        ", '%s-network-nodes.dat' index 0 using ($1>=%g?$1+%g:NaN):2:3 with labels left "
	        "font ',%d' notitle",
	        b, last, p->hx + 0.12, pt);
	fprintf(f,
	        ", '%s-network-nodes.dat' index 0 using ($4>0?$1+%g:NaN):2 with points pt 2 ps %g "
	        "lw 3 lc rgb '" DROP_RGB "' notitle",
	        b, p->hx + 0.3, 1.6 * p->font);
	fprintf(f,
	        ", '%s-network-nodes.dat' index 0 using ($6!=0?$1+%g:NaN):2:(sprintf('%%+.2f',$6)) "
	        "with labels left boxed font ',%d' tc rgb '" COMB_RGB "' notitle",
	        b, p->hx + 0.12, pt);
	fprintf(f,
	        ", '%s-network-nodes.dat' index 1 using 1:2:3 with labels left boxed font ',%d' "
	        "notitle\n",
	        b, pt);
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
	/* the labels' points: 22 on the PNG, 10 on the PDF (its 14 would crowd
	 * the rows), the title's and the key's a little less */
	int png = !strcmp(ext, "png"), pt = (int)lround((png ? 22 : 10) * p->font);
	fprintf(f, "set output '%s-network.%s'\nset title '%s'%s%s%s font ',%d'\n", b, ext, title,
	        sub[0] ? ".\"\\n\".'" : "", sub, sub[0] ? "'" : "", png ? 20 : 9);
	free(title);
	free(sub);
	/* equal units, the maps square, the plot as large as the page lets it */
	fprintf(f,
	        "unset border\nunset xtics\nunset ytics\nset size ratio -1\nset xrange "
	        "[%g:%g]\nset yrange [%g:%g]\nset key below center horizontal samplen 1 "
	        "font ',%d'\nset lmargin 1\nset rmargin %d\n",
	        p->xlo, p->xhi, -half, half, png ? 18 : 8, r->plane ? 8 : 1);
	fprintf(f,
	        "set palette defined (-1 '" NEG_RGB "', 0 'white', 1 '" POS_RGB "')\n"
	        "set cbrange [-1:1]\nset cbtics ('-1' -1, '0' 0, '+1' 1) font ',%d'\n"
	        "set cblabel 'a neuron over the plane' font ',%d'\n",
	        png ? 18 : 8, png ? 18 : 8);
	if (r->plane)
		fprintf(f, "set colorbox vertical user origin screen 0.93, screen 0.3 size screen "
		           "0.012, screen 0.45\n");
	else
		fprintf(f, "unset colorbox\n");
	fprintf(f, "set style textbox opaque noborder\n");
	/* the weights, a plot per width (a line's width cannot vary within one) */
	fprintf(f, "plot");
	for (int k = 1; k <= 4; k++)
		fprintf(
		    f,
		    "%s '%s-network-edges.dat' using ($6==%d?$1:NaN):2:3:4:5 with vectors nohead "
		    "lw %g lc rgb variable notitle",
		    k > 1 ? "," : "", b, k, (0.5 + 1.5 * (k - 1)) * fmax(p->font, 0.5));
	/* the keys, on one row: the weights' signs, the drops, the classes */
	fprintf(f, ", NaN with lines lw 4 lc rgb '" POS_RGB "' title 'w > 0'"
	           ", NaN with lines lw 4 lc rgb '" NEG_RGB "' title 'w < 0'"
	           ", NaN with points pt 2 ps 2 lw 3 lc rgb '" DROP_RGB "' title 'dropped'");
	if (has_coef(r, r->sel_layer))
		fprintf(f, ", NaN with points pt 7 ps 1.5 lc rgb '" COMB_RGB "' title 'its fit'");
	if (r->plane) {
		for (int k = 0; k < r->n[r->m] && k < 6; k++) {
			int rgb[3];
			report_class_rgb(k, rgb);
			fprintf(f,
			        ", NaN with boxes fs solid lc rgb '#%02x%02x%02x' title 'class %d'",
			        rgb[0], rgb[1], rgb[2], k + 1);
		}
		maps_cmds(f, p);
		/* a frame round every map: white is a value too */
		fprintf(f,
		        ", '%s-network-nodes.dat' index 0 using 1:2:(%g):(%g) with boxxyerror fs "
		        "empty lc rgb '#999999' lw 0.5 notitle",
		        b, p->hx, p->hy);
	} else {
		/* dots: |r_jj|/|r_11| as size, kept (≥ 1/τ) green, beyond it red */
		fprintf(f,
		        ", '%s-network-nodes.dat' index 0 using "
		        "1:2:(%g*(0.6+2*$5)):($5>=%g?0x208020:$5>0?"
		        "0xc03030:0x999999) with points pt 7 ps variable lc rgb variable notitle",
		        b, p->font, 1 / r->tau);
	}
	text_cmds(f, p, pt > 6 ? pt : 6);
	return 0;
}

/* The characters of column l's widest label. */
static int label_chars(const Place *p, int l)
{
	char b[64];
	int w = 0;
	for (int k = 0; k < p->shown[l]; k++) {
		label(p->r, l, p->off[l] + k, b, sizeof b);
		int c = 0;
		for (const char *s = b; *s; s++)
			c += (*s & 0xc0) != 0x80; /* UTF-8: a character per lead byte */
		w = c > w ? c : w;
	}
	return w;
}

/* Which neurons each column draws (at most SLOTS rows: SLOTS - 1 and a
 * count of the rest, the chosen neuron in sight), and where the columns
 * stand: the page's width shared out among them, each with room for its
 * labels, its marks and coefficients and lines between, the labels
 * smaller only when the columns are too many for them. */
static void place(Place *p)
{
	const ReportNetwork *r = p->r;
	for (int l = 0; l <= r->m; l++) {
		int have = r->n[l] < r->cap ? r->n[l] : r->cap;
		p->shown[l] =
		    r->n[l] > SLOTS || have < r->n[l] ? (have < SLOTS ? have : SLOTS - 1) : r->n[l];
		if (l == r->sel_layer && r->sel_neuron >= p->shown[l] && r->sel_neuron < have)
			p->off[l] = r->sel_neuron - p->shown[l] + 1;
		int rows = p->shown[l] + folded(p, l);
		p->tall = rows > p->tall ? rows : p->tall;
	}
	/* square maps 0.8 of a row (dots: less room); the page in rows */
	p->hx = p->hy = r->plane ? 0.4 : 0.2;
	double page_h = (p->tall + 1.2) / PLOT_H, page_w = page_h * 16 / 9, cw = CHAR_W * page_w;
	double avail = page_w * PLOT_W - (r->plane ? 0.08 * page_w : 0), text = 0, fixed = 0;
	for (int l = 0; l <= r->m; l++) {
		/* on the left its labels (the classes': on the right), on the right
		 * the × of a drop or a coefficient, then at least a row of line */
		int lab = label_chars(p, l), coef = has_coef(r, l) ? 6 : 1;
		text += (lab + (l < r->m ? coef : 0)) * cw;
		fixed += 2 * p->hx + 0.4 + (l < r->m ? 1.0 : 0);
	}
	p->font = text > 0 && avail - fixed < text ? fmax((avail - fixed) / text, 0.3) : 1;
	p->cw = cw *= p->font;
	double extra = avail - fixed - text * p->font, x = 0;
	for (int l = 0; l <= r->m; l++) {
		int lab = label_chars(p, l), coef = has_coef(r, l) ? 6 : 1;
		p->in[l] = p->hx + 0.2 + (l < r->m ? lab * cw : 0);
		p->out[l] = p->hx + 0.2 + (l < r->m ? coef * cw : lab * cw);
		x += p->in[l];
		if (l == 0)
			p->xlo = -x;
		p->x[l] = x + p->xlo; /* the first column at 0 */
		x += p->out[l] + (l < r->m ? 1.0 + (extra > 0 ? extra / r->m : 0) : 0);
	}
	p->xlo -= 0.2;
	p->xhi = x + p->xlo + 0.2 + (p->tall < 4 ? 2 : 0);
}

int report_network_plots(const char *dir, const char *base, const ReportNetwork *r, Err *e)
{
	if (r->m + 1 > REPORT_NET_LAYERS)
		return err_set(e, "the network diagram draws at most %d layers",
		               REPORT_NET_LAYERS - 1);
	Place p = {.r = r, .base = base};
	place(&p);
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
