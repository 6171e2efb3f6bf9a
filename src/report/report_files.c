/* report_files.c - the files of the screen's export, named before any is
 * written: the data and scripts report_plot.c, report_network.c and
 * report_plane.c write, and the images their scripts draw (each chart's
 * "set output", as PNG and PDF), so that the screen can hold them apart
 * from the session's files and from one another (tests/test_report_files.c
 * reads back what is written). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_plot.h"

/* fn on dir/base + suffix (+ ".png" and ".pdf" for an image). */
static int give(const char *dir, const char *base, const char *suffix, int image, ReportFileFn fn,
                void *ud, Err *e)
{
	static const char *const ext[] = {"", ".png", ".pdf"};
	size_t len = strlen(dir) + strlen(base) + strlen(suffix) + 8;
	char *path = malloc(len);
	if (!path)
		return err_set(e, "out of memory");
	int rc = 0;
	for (int k = image; k < (image ? 3 : 1) && rc == 0; k++) {
		/* (a name without a directory is given as one) */
		snprintf(path, len, "%s%s%s%s%s", strcmp(dir, ".") ? dir : "",
		         strcmp(dir, ".") ? "/" : "", base, suffix, ext[k]);
		rc = fn(path,
		        image                   ? "an image gnuplot draws"
		        : strstr(suffix, ".gp") ? "a gnuplot script"
		                                : "the data of a chart",
		        ud);
	}
	free(path);
	return rc;
}

int report_export_files(const char *dir, const char *base, const ReportScreen *s,
                        const ReportNetwork *net, const ReportPlane *pl, ReportFileFn fn, void *ud,
                        Err *e)
{
	/* the screen's charts: what report_screen_plots writes, what plot_cmds draws */
	const int alg1 = s->alg1 && s->alg1->nrec, sweep = s->nbeta > 0, series = s->ks_n > 0,
	          curve = s->ep_n > 0;
	const struct {
		const char *suffix;
		int on, image;
	} screen[] = {{"-layers.dat", 1, 0},
	              {"-spectra.dat", 1, 0},
	              {"-alg1.dat", alg1, 0},
	              {"-sweep.dat", sweep, 0},
	              {"-kappa-epochs.dat", series, 0},
	              {"-curve.dat", curve, 0},
	              {".gp", 1, 0},
	              {"-spectra", 1, 1},
	              {"-alg1-kappa", alg1, 1},
	              {"-alg1-size", alg1, 1},
	              {"-sweep", sweep, 1},
	              {"-kappa-epochs", series, 1},
	              {"-curve", curve, 1}};
	int rc = 0;
	for (size_t i = 0; i < sizeof screen / sizeof *screen && rc == 0; i++)
		if (screen[i].on)
			rc = give(dir, base, screen[i].suffix, screen[i].image, fn, ud, e);
	/* the network diagram's (report_network.c) */
	const int nplane = net && net->plane;
	const struct {
		const char *suffix;
		int on, image;
	} network[] = {{"-network-edges.dat", 1, 0},
	               {"-network-nodes.dat", 1, 0},
	               {"-network-maps.dat", nplane, 0},
	               {"-network.gp", 1, 0},
	               {"-network", 1, 1}};
	for (size_t i = 0; net && net->m && i < sizeof network / sizeof *network && rc == 0; i++)
		if (network[i].on)
			rc = give(dir, base, network[i].suffix, network[i].image, fn, ud, e);
	if (!pl || !pl->m || rc)
		return rc;
	/* the Plane view's (report_plane.c): its regions, points, maps of every
	 * hidden layer and the panels shown */
	const int panels = pl->npanels > 0;
	const struct {
		const char *suffix;
		int on, image;
	} plane[] = {{"-regions.dat", 1, 0},     {"-points.dat", 1, 0}, {"-maps.dat", 1, 0},
	             {"-panels.dat", panels, 0}, {"-plane.gp", 1, 0},   {"-regions", 1, 1},
	             {"-panels", panels, 1}};
	for (size_t i = 0; i < sizeof plane / sizeof *plane && rc == 0; i++)
		if (plane[i].on)
			rc = give(dir, base, plane[i].suffix, plane[i].image, fn, ud, e);
	for (int l = 1; l < pl->m && rc == 0; l++) {
		char maps[32];
		snprintf(maps, sizeof maps, "-maps-%d", l);
		rc = give(dir, base, maps, 1, fn, ud, e);
	}
	return rc;
}
