/* net_npy.c - a dense network as NumPy files W1.npy b1.npy W2.npy …, in
 * the layout Keras stores Dense kernels in or the one torch.nn.Linear uses. */
#include "model/net_npy.h"

#include "engine/limits.h"

#include <dirent.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "data/npy.h"

#define NPY_MAXLAYERS 1000

static void layer_path(char *buf, size_t cap, const char *dir, char kind, int k)
{
	snprintf(buf, cap, "%s/%c%d.npy", dir, kind, k);
}

/* k when name is "<kind><k>.npy" (k from 1, no leading zero), else 0. */
static long layer_number(const char *name, char kind)
{
	if (name[0] != kind || name[1] < '1' || name[1] > '9')
		return 0;
	char *end;
	long k = strtol(name + 1, &end, 10);
	return strcmp(end, ".npy") ? 0 : k;
}

/* Scans dir for W<k>.npy and b<k>.npy: has_w[k] (NPY_MAXLAYERS + 1
 * entries) is set for each W<k>.npy, *top receives the highest k of both
 * kinds and *top_b that of the b files. */
static int scan_layers(const char *dir, char *has_w, long *top, long *top_b, Err *e)
{
	DIR *d = opendir(dir);
	if (!d)
		return err_set(e, "%s: cannot read the directory: %s", dir, strerror(errno));
	*top = *top_b = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		long kw = layer_number(de->d_name, 'W'), kb = layer_number(de->d_name, 'b');
		long k = kw > kb ? kw : kb;
		if (k > NPY_MAXLAYERS) {
			err_set(e, "%s/%s: more than %d layers", dir, de->d_name, NPY_MAXLAYERS);
			closedir(d);
			return -1;
		}
		if (kw)
			has_w[kw] = 1;
		if (kb > *top_b)
			*top_b = kb;
		if (k > *top)
			*top = k;
	}
	closedir(d);
	return 0;
}

/* The number of layers in dir: the highest k of a W<k>.npy or b<k>.npy.
 * Every W1.npy … W<m>.npy must be there: a gap would silently drop the
 * layers after it, so it is an error naming the missing file. (A missing
 * b<k>.npy is reported when layer k is read.) */
static int layer_count(const char *dir, Err *e)
{
	char has_w[NPY_MAXLAYERS + 1] = {0};
	long m, top_b;
	if (scan_layers(dir, has_w, &m, &top_b, e))
		return -1;
	if (m == 0)
		return err_set(e, "%s: no W1.npy (expected W1.npy b1.npy W2.npy b2.npy …)", dir);
	for (long k = 1; k <= m; k++) {
		if (has_w[k])
			continue;
		long above = k + 1;
		while (above <= m && !has_w[above])
			above++;
		if (above <= m)
			return err_set(e,
			               "%s/W%ld.npy: missing, but W%ld.npy is there (layers are "
			               "numbered 1, 2, … without a gap)",
			               dir, k, above);
		return err_set(e, "%s/W%ld.npy: missing, but b%ld.npy is there", dir, k, top_b);
	}
	return (int)m;
}

/* One layer's files into W (nin×nout, row-major) and b; the shapes are
 * checked against the previous layer's outputs (prev_out < 0: first). */
static int read_layer(const char *dir, int k, int layout, int prev_out, double **W, double **b,
                      int *nin, int *nout, Err *e)
{
	char wp[4096], bp[4096];
	layer_path(wp, sizeof wp, dir, 'W', k);
	layer_path(bp, sizeof bp, dir, 'b', k);
	double *w = NULL, *bias = NULL;
	int nd;
	long sh[2];
	if (npy_read(wp, &w, &nd, sh, e))
		return -1;
	if (nd != 2) {
		free(w);
		return err_set(e, "%s: shape (%ld,) is 1-D, expected a 2-D weight matrix", wp,
		               sh[0]);
	}
	/* the widths within the table of limits (and an int) */
	char name[4200];
	for (int d = 0; d < 2; d++) {
		snprintf(name, sizeof name, "%s: dimension %d of shape (%ld, %ld)", wp, d, sh[0],
		         sh[1]);
		if (limit_check(LIM_WIDTH, (double)sh[d], name, NULL, e)) {
			free(w);
			return -1;
		}
	}
	int in = (int)(layout == NPY_TORCH ? sh[1] : sh[0]);
	int out = (int)(layout == NPY_TORCH ? sh[0] : sh[1]);
	if (prev_out >= 0 && in != prev_out) {
		free(w);
		return err_set(e, "%s: %d inputs, but layer %d has %d outputs", wp, in, k - 1,
		               prev_out);
	}
	if (npy_read(bp, &bias, &nd, sh, e)) {
		free(w);
		return -1;
	}
	if (nd != 1 || sh[0] != out) {
		free(w);
		free(bias);
		if (nd != 1)
			return err_set(e, "%s: shape (%ld, %ld), expected 1-D of length %d", bp,
			               sh[0], sh[1], out);
		return err_set(e, "%s: %ld entries, expected %d (the outputs of W%d.npy)", bp,
		               sh[0], out, k);
	}
	if (layout == NPY_TORCH) {
		double *t = malloc((size_t)in * out * sizeof *t);
		if (!t) {
			free(w);
			free(bias);
			return err_set(e, "%s: out of memory", wp);
		}
		for (int r = 0; r < out; r++)
			for (int c = 0; c < in; c++)
				t[(size_t)c * out + r] = w[(size_t)r * in + c];
		free(w);
		w = t;
	}
	for (size_t i = 0; i < (size_t)in * out; i++) {
		if (!isfinite(w[i]) || fabs(w[i]) > FLT_MAX) {
			int r = (int)(i / out), c = (int)(i % out);
			err_set(e, "%s: weight (%d, %d) is %g, expected a finite float32", wp,
			        layout == NPY_TORCH ? c : r, layout == NPY_TORCH ? r : c, w[i]);
			free(w);
			free(bias);
			return -1;
		}
	}
	for (int i = 0; i < out; i++) {
		if (!isfinite(bias[i]) || fabs(bias[i]) > FLT_MAX) {
			err_set(e, "%s: entry %d is %g, expected a finite float32", bp, i, bias[i]);
			free(w);
			free(bias);
			return -1;
		}
	}
	*W = w;
	*b = bias;
	*nin = in;
	*nout = out;
	return 0;
}

Net *net_npy_import(const char *dir, int layout, ActKind act, float act_a, Err *e)
{
	if (layout != NPY_KERAS && layout != NPY_TORCH) {
		err_set(e, "layout %d, expected NPY_KERAS (0) or NPY_TORCH (1)", layout);
		return NULL;
	}
	int m = layer_count(dir, e);
	if (m < 0)
		return NULL;
	double **W = calloc((size_t)m, sizeof *W), **b = calloc((size_t)m, sizeof *b);
	int *widths = malloc((size_t)(m + 1) * sizeof *widths);
	Net *net = NULL;
	if (!W || !b || !widths) {
		err_set(e, "%s: out of memory", dir);
		goto out;
	}
	uint64_t np = 0;
	for (int k = 1; k <= m; k++) {
		int in = 0, out = 0;
		if (read_layer(dir, k, layout, k > 1 ? widths[k - 1] : -1, &W[k - 1], &b[k - 1],
		               &in, &out, e))
			goto out;
		if (k == 1)
			widths[0] = in;
		widths[k] = out;
		/* stop at the layer that takes the network past the parameter limit */
		np += ((uint64_t)in + 1) * (uint64_t)out;
		if (np > LIMIT_MAX_PARAMS) {
			err_set(
			    e,
			    "%s/W%d.npy: layers 1 to %d hold %llu parameters, more than condnet "
			    "trains (%lu)",
			    dir, k, k, (unsigned long long)np, (unsigned long)LIMIT_MAX_PARAMS);
			goto out;
		}
	}
	net = net_new(m, widths, act, act_a, e);
	if (!net) {
		err_prefix(e, "%s", dir);
		goto out;
	}
	for (int k = 0; k < m; k++) {
		for (size_t i = 0; i < (size_t)widths[k] * widths[k + 1]; i++)
			net->W[k][i] = (float)W[k][i];
		for (int i = 0; i < widths[k + 1]; i++)
			net->b[k][i] = (float)b[k][i];
	}
out:
	for (int k = 0; W && b && k < m; k++) {
		free(W[k]);
		free(b[k]);
	}
	free(W);
	free(b);
	free(widths);
	return net;
}

int net_npy_export(const Net *net, const char *dir, int layout, Err *e)
{
	if (layout != NPY_KERAS && layout != NPY_TORCH)
		return err_set(e, "layout %d, expected NPY_KERAS (0) or NPY_TORCH (1)", layout);
	struct stat st;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return err_set(e, "%s: not an existing directory", dir);
	/* a stale W<k>.npy or b<k>.npy with k > m would be read back as more layers */
	char path[4096], has_w[NPY_MAXLAYERS + 1] = {0};
	long top, top_b;
	if (scan_layers(dir, has_w, &top, &top_b, e))
		return -1;
	if (top > net->m) {
		layer_path(path, sizeof path, dir, has_w[top] ? 'W' : 'b', (int)top);
		return err_set(e, "%s: exists and would be read as layer %ld; remove it", path,
		               top);
	}
	for (int k = 1; k <= net->m; k++) {
		int in = net->n[k - 1], out = net->n[k];
		const float *w = net->W[k - 1];
		float *t = NULL;
		if (layout == NPY_TORCH) {
			t = malloc((size_t)in * out * sizeof *t);
			if (!t)
				return err_set(e, "%s: out of memory", dir);
			for (int r = 0; r < in; r++)
				for (int c = 0; c < out; c++)
					t[(size_t)c * in + r] = w[(size_t)r * out + c];
		}
		layer_path(path, sizeof path, dir, 'W', k);
		int rc =
		    t ? npy_write_f32(path, t, out, in, e) : npy_write_f32(path, w, in, out, e);
		free(t);
		if (rc)
			return -1;
		layer_path(path, sizeof path, dir, 'b', k);
		if (npy_write_f32(path, net->b[k - 1], out, -1, e))
			return -1;
	}
	return 0;
}
