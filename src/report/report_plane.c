/* report_plane.c - the Plane view for slides (report_plot.h): the decision
 * regions, the training points, every hidden layer's neuron maps (with the
 * combinations that replace the dropped neurons) and the panels shown, as
 * data files and a gnuplot script that draws them as PNG and PDF, 16:9, as
 * the screen's other charts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alg/alg3_regions.h"
#include "report/report_int.h"
#include "report/report_plot.h"

/* The classes' colours, as the screen's 256-colour ones (view_plane.c),
 * and white, which an unsure pixel is mixed with. */
static const unsigned char class_rgb[6][3] = {{230, 60, 60},  {60, 100, 230}, {60, 180, 60},
                                              {220, 200, 40}, {200, 60, 200}, {40, 190, 200}};

void report_class_rgb(int cls, int rgb[3])
{
	for (int c = 0; c < 3; c++)
		rgb[c] = class_rgb[cls % 6][c];
}

/* A region pixel's colour: its class's, mixed with white as the network is
 * unsure (1/k: white, 1: the class's own). */
static void pixel_rgb(int cls, float conf, int k, int rgb[3])
{
	double f = (conf - 1.0 / k) / (1 - 1.0 / k), w = 0.85 * (1 - fmin(1, fmax(0, f)));
	for (int c = 0; c < 3; c++)
		rgb[c] = (int)lround(class_rgb[cls % 6][c] * (1 - w) + 255 * w);
}

/* Regions as "x y r g b" rows, a blank line after every row of pixels
 * (gnuplot's rgbimage), from the bottom row up. */
static void regions_rows(FILE *f, const PlaneRegions *g)
{
	for (int r = g->h - 1; r >= 0; r--) {
		for (int c = 0; c < g->w; c++) {
			double x, y;
			int rgb[3], i = r * g->w + c;
			plane_point(&g->box, g->w, g->h, c, r, &x, &y);
			pixel_rgb(g->cls[i], g->conf[i], g->k, rgb);
			fprintf(f, "%.6g %.6g %d %d %d\n", x, y, rgb[0], rgb[1], rgb[2]);
		}
		fputc('\n', f);
	}
}

static int write_regions(FILE *f, const void *ud, Err *e)
{
	const ReportPlane *pl = ud;
	(void)e;
	fprintf(f,
	        "# the decision regions, %d x %d pixels: x y red green blue (the class's colour, "
	        "paler where the network is less sure)\n",
	        pl->reg->w, pl->reg->h);
	regions_rows(f, pl->reg);
	fprintf(f, "\n# classes and their colours (class red green blue)\n");
	for (int k = 0; k < pl->k; k++)
		fprintf(f, "# %d %d %d %d\n", k, class_rgb[k % 6][0], class_rgb[k % 6][1],
		        class_rgb[k % 6][2]);
	return 0;
}

static int write_points(FILE *f, const void *ud, Err *e)
{
	const ReportPlane *pl = ud;
	(void)e;
	fprintf(f, "# the training points: x y class colour (0xRRGGBB, the class's)\n");
	for (int i = 0; i < pl->npts; i++) {
		const unsigned char *c = class_rgb[pl->lab[i] % 6];
		fprintf(f, "%.9g %.9g %d %d\n", pl->pts[2 * i], pl->pts[2 * i + 1], pl->lab[i],
		        (c[0] / 2) << 16 | (c[1] / 2) << 8 | c[2] / 2);
	}
	return 0;
}

/* One map as "x y value" rows over the box (gnuplot's image). */
static void map_rows(FILE *f, const float *v, const PlaneBox *b, int n)
{
	for (int r = n - 1; r >= 0; r--) {
		for (int c = 0; c < n; c++) {
			double x, y;
			plane_point(b, n, n, c, r, &x, &y);
			fprintf(f, "%.6g %.6g %.6g\n", x, y, v[r * n + c]);
		}
		fputc('\n', f);
	}
}

/* Every hidden layer's maps in pivoted-QR order, one block each (gnuplot's
 * index), a dropped neuron's followed by its combination's. */
static int write_maps(FILE *f, const void *ud, Err *e)
{
	const ReportPlane *pl = ud;
	size_t np = (size_t)pl->px * (size_t)pl->px;
	(void)e;
	fprintf(f,
	        "# the neuron maps, %d x %d: x y activation; one block (index) per map, in "
	        "pivoted-QR order per layer%s\n",
	        pl->px, pl->px,
	        pl->step == 2 ? "; the network before the squeeze, marked with its removals"
	        : pl->step == 1
	            ? "; the network before Algorithm 1's step, marked with its removals"
	            : "; marked as the squeeze at tau would decide");
	fprintf(f, "# a dropped neuron's combination: its activation fitted by the kept ones' and "
	           "a constant on the training points (the refit's), its residual and Ŵ's\n");
	int block = 0;
	for (int l = 1; l < pl->m; l++) {
		const ReportMaps *m = &pl->maps[l - 1];
		double lo, med, hi;
		if (alg3_combinations_spread(m->c, &lo, &med, &hi) == 0 &&
		    m->c->n - m->c->nkeep == 1)
			fprintf(f,
			        "%s# layer %d: the fit's residual %.1f %%; layer %d's refit leaves "
			        "%.1f %% of what the dropped sends it\n",
			        block ? "\n" : "", l, 100 * lo, l + 1, 100 * m->c->refit);
		else if (alg3_combinations_spread(m->c, &lo, &med, &hi) == 0)
			fprintf(f,
			        "%s# layer %d: the fits' residuals %.1f to %.1f %% (median %.1f "
			        "%%); layer "
			        "%d's refit leaves %.1f %% of what the dropped send it\n",
			        block ? "\n" : "", l, 100 * lo, 100 * hi, 100 * med, l + 1,
			        100 * m->c->refit);
		for (int t = 0; t < m->c->n; t++) {
			int drop = t >= m->c->nkeep;
			char text[512] = "";
			if (drop && m->c->act_residual)
				alg3_combination_act_str(m->c, t - m->c->nkeep, 4, 1, text,
				                         sizeof text);
			else if (drop)
				alg3_combination_str(m->c, t - m->c->nkeep, 4, 1, text,
				                     sizeof text);
			fprintf(f, "%s# block %d: layer %d neuron n%d %s%s%s\n",
			        block ? "\n\n" : "", block, l, m->c->perm[t] + 1,
			        drop ? "drop" : "keep", drop ? ": " : "", text);
			map_rows(f, m->act + (size_t)t * np, &pl->box, pl->px);
			block++;
			if (drop) {
				fprintf(f,
				        "\n\n# block %d: layer %d, the combination replacing n%d\n",
				        block, l, m->c->perm[t] + 1);
				map_rows(f, m->comb + (size_t)(t - m->c->nkeep) * np, &pl->box,
				         pl->px);
				block++;
			}
		}
	}
	return 0;
}

static int write_panels(FILE *f, const void *ud, Err *e)
{
	const ReportPlane *pl = ud;
	(void)e;
	fprintf(f, "# the panels, one block (index) each: x y red green blue\n");
	for (int k = 0; k < pl->npanels; k++) {
		fprintf(f, "%s# block %d: test accuracy %.2f %%\n", k ? "\n\n" : "", k,
		        pl->panel_acc[k]);
		regions_rows(f, &pl->panels[k]);
	}
	return 0;
}

/* What the script draws from. */
typedef struct PlaneFiles {
	const ReportPlane *pl;
	const char *base;
	int panels, layers;
	int *per_layer; /* maps (and combinations) of each hidden layer */
	int *first;     /* the block each hidden layer's maps start at */
} PlaneFiles;

/* The classes' key: a point of each class's colour and marker (the
 * regions take the same colour, paler where the network is unsure),
 * plotted outside the range so that only the key shows it. */
static void class_key(FILE *f, const ReportPlane *pl)
{
	for (int k = 0; k < pl->k; k++) {
		const unsigned char *c = class_rgb[k % 6];
		fprintf(f, ", 1/0 with points pt 7 ps 1.5 lc rgb '#%02x%02x%02x' title 'class %d'",
		        c[0] / 2, c[1] / 2, c[2] / 2, k + 1);
	}
}

/* The maps of one hidden layer, a tile each, titled keep, drop or ≈. */
static void maps_chart(FILE *f, const PlaneFiles *pf, int l, const char *ext)
{
	const Alg3Combinations *c = pf->pl->maps[l - 1].c;
	int tiles = pf->per_layer[l - 1], cols = (int)ceil(sqrt(tiles * 16.0 / 9.0));
	int rows = (tiles + cols - 1) / cols, block = pf->first[l - 1];
	/* the tiles' titles smaller as they get more */
	int pt = tiles > 60 ? 9 : tiles > 24 ? 12 : 16;
	fprintf(f, "set output '%s-maps-%d.%s'\n", pf->base, l, ext);
	fprintf(f,
	        "set multiplot layout %d,%d margins 0.01,0.99,0.01,0.82 spacing 0.005,0.045 "
	        "title \"layer %d in pivoted-QR order (≈: a dropped neuron fitted by the kept "
	        "ones' activations)\"\n",
	        rows, cols, l);
	/* the colours' key once, over the tiles: activation from −1 to 1 */
	fprintf(f, "set colorbox horizontal user origin 0.35,0.885 size 0.30,0.022\n"
	           "unset cbtics\n"
	           "set label 91 'activation −1' at screen 0.345,0.896 right font ',12'\n"
	           "set label 92 '0' at screen 0.5,0.93 center font ',12'\n"
	           "set label 93 '1' at screen 0.655,0.896 left font ',12'\n");
	for (int t = 0; t < c->n; t++) {
		int drop = t >= c->nkeep;
		fprintf(f, "set title 'n%d %s' font ',%d' textcolor rgb '%s' offset 0,-0.6\n",
		        c->perm[t] + 1, drop ? "drop" : "keep", pt, drop ? "#c03030" : "#208020");
		fprintf(f, "plot '%s-maps.dat' index %d using 1:2:3 with image notitle\n", pf->base,
		        block++);
		if (t == 0)
			fprintf(f,
			        "unset colorbox\nunset label 91\nunset label 92\nunset label 93\n"
			        "set cbtics\n");
		if (drop) {
			fprintf(f, "set title '≈' font ',%d' textcolor rgb 'black' offset 0,-0.6\n",
			        pt);
			fprintf(f, "plot '%s-maps.dat' index %d using 1:2:3 with image notitle\n",
			        pf->base, block++);
		}
	}
	fprintf(f, "unset multiplot\nset title font '' offset 0,0\n");
}

static int plane_cmds(FILE *f, const void *ud, const char *ext, Err *e)
{
	const PlaneFiles *pf = ud;
	const ReportPlane *pl = pf->pl;
	(void)e;
	const PlaneBox *b = &pl->box;
	fprintf(f, "set xrange [%.6g:%.6g]\nset yrange [%.6g:%.6g]\nset size ratio -1\n", b->x0,
	        b->x1, b->y0, b->y1);
	fprintf(f, "set output '%s-regions.%s'\nset title \"%s\"\n", pf->base, ext, pl->title);
	fprintf(f, "set key outside right top box title 'pale: unsure'\n");
	fprintf(f,
	        "plot '%s-regions.dat' using 1:2:3:4:5 with rgbimage notitle, "
	        "'%s-points.dat' using 1:2:4 with points pt 7 ps 0.9 lc rgb variable notitle",
	        pf->base, pf->base);
	class_key(f, pl);
	fprintf(f, "\nunset key\n");
	fprintf(f, "unset xtics\nunset ytics\nunset colorbox\n"
	           "set palette defined (-1 '#1f4fa0', 0 'white', 1 '#e07010')\n"
	           "set cbrange [-1:1]\n");
	for (int l = 1; l <= pf->layers; l++)
		maps_chart(f, pf, l, ext);
	if (pf->panels) {
		fprintf(f, "set output '%s-panels.%s'\nset multiplot layout 1,%d\n", pf->base, ext,
		        pl->npanels);
		for (int k = 0; k < pl->npanels; k++) {
			char what[64];
			if (k == REGION_NOW)
				snprintf(what, sizeof what, "%s",
				         pl->npanels > REGION_NPANELS ? "before the step" : "now");
			else if (k == REGION_QR)
				snprintf(what, sizeof what, "QR removes %d", pl->removed);
			else if (k == REGION_QR_COMP)
				snprintf(what, sizeof what, "QR, compensated");
			else if (k == REGION_RANDOM)
				snprintf(what, sizeof what, "%d at random (median)", pl->removed);
			else
				snprintf(what, sizeof what, "after the step");
			fprintf(f, "set title \"%s\\n%.2f %%\"\n", what, pl->panel_acc[k]);
			/* the classes' key under the first panel */
			if (k == 0)
				fprintf(
				    f, "set key at screen 0.5,0.16 center horizontal maxrows 1 box "
				       "title 'classes (pale: unsure)'\n");
			fprintf(
			    f,
			    "plot '%s-panels.dat' index %d using 1:2:3:4:5 with rgbimage notitle",
			    pf->base, k);
			if (k == 0)
				class_key(f, pl);
			fprintf(f, "\n%s", k == 0 ? "unset key\n" : "");
		}
		fprintf(f, "unset multiplot\n");
	}
	fprintf(f, "set xtics\nset ytics\nset size noratio\nset autoscale\n");
	return 0;
}

int report_plane_plots(const char *dir, const char *base, const ReportPlane *pl, Err *e)
{
	size_t len = strlen(dir) + strlen(base) + 2;
	char *prefix = malloc(len);
	PlaneFiles pf = {.pl = pl, .base = base, .panels = pl->npanels > 0, .layers = pl->m - 1};
	pf.per_layer = calloc((size_t)pl->m, sizeof *pf.per_layer);
	pf.first = calloc((size_t)pl->m, sizeof *pf.first);
	int n = -1;
	if (!prefix || !pf.per_layer || !pf.first) {
		err_set(e, "out of memory");
		goto out;
	}
	snprintf(prefix, len, "%s/%s", dir, base);
	for (int l = 1, block = 0; l < pl->m; l++) {
		const Alg3Combinations *c = pl->maps[l - 1].c;
		pf.first[l - 1] = block;
		pf.per_layer[l - 1] = c->n + (c->n - c->nkeep);
		block += pf.per_layer[l - 1];
	}
	const ReportSlides script = {base, "-plane.gp", "the Plane view", 0, plane_cmds, &pf};
	const ReportPlotFile files[] = {{"-regions.dat", write_regions, pl, 1, 1},
	                                {"-points.dat", write_points, pl, 1, 1},
	                                {"-maps.dat", write_maps, pl, 1, 1},
	                                {"-panels.dat", write_panels, pl, pf.panels, 1},
	                                {"-plane.gp", report_gp_slides, &script, 1, 0}};
	n = report_plot_files(prefix, files, sizeof files / sizeof *files, e);
out:
	free(prefix);
	free(pf.per_layer);
	free(pf.first);
	return n;
}
