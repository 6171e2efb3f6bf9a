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

#include "data/datasets.h"
#include "data/npy.h"
#include "data/npy_set.h"
#include "data/prep_text.h"

/* A layer's files: a byte per layer number 0..LIMIT_MAX_LAYERS, set for
 * each W<k>.npy (w) and b<k>.npy (b) found. */
typedef struct Found {
	char *w, *b;
	long top, top_b; /* the highest k of both kinds, and of the b files */
} Found;

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
	long k = strtol(name + 1, &end, 10); /* LONG_MAX past it: beyond every limit */
	return strcmp(end, ".npy") ? 0 : k;
}

static void found_free(Found *f)
{
	free(f->w);
	free(f->b);
}

/* Scans dir for W<k>.npy and b<k>.npy into f (freed by found_free); a
 * number past the table of limits' layers is an error. */
static int scan_layers(const char *dir, Found *f, Err *e)
{
	memset(f, 0, sizeof *f);
	f->w = calloc(LIMIT_MAX_LAYERS + 1, 1);
	f->b = calloc(LIMIT_MAX_LAYERS + 1, 1);
	DIR *d = f->w && f->b ? opendir(dir) : NULL;
	if (!d) {
		found_free(f);
		if (!f->w || !f->b)
			return err_set(e, "%s: out of memory", dir);
		return err_set(e, "%s: cannot read the directory: %s", dir, strerror(errno));
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		long kw = layer_number(de->d_name, 'W'), kb = layer_number(de->d_name, 'b');
		long k = kw > kb ? kw : kb;
		if (k > LIMIT_MAX_LAYERS) {
			err_set(e, "%s/%s: more than %d layers, condnet's limit", dir, de->d_name,
			        LIMIT_MAX_LAYERS);
			closedir(d);
			found_free(f);
			return -1;
		}
		if (kw)
			f->w[kw] = 1;
		if (kb)
			f->b[kb] = 1;
		if (kb > f->top_b)
			f->top_b = kb;
		if (k > f->top)
			f->top = k;
	}
	closedir(d);
	return 0;
}

/* The number of layers in dir: the highest k of a W<k>.npy or b<k>.npy.
 * Every W1.npy … W<m>.npy must be there: a gap would silently drop the
 * layers after it, so it is an error naming the missing file. (A missing
 * b<k>.npy is reported when layer k is read.) */
static int layer_count(const char *dir, const Found *f, Err *e)
{
	long m = f->top;
	if (m == 0)
		return err_set(e, "%s: no W1.npy (expected W1.npy b1.npy W2.npy b2.npy …)", dir);
	for (long k = 1; k <= m; k++) {
		if (f->w[k])
			continue;
		long above = k + 1;
		while (above <= m && !f->w[above])
			above++;
		if (above <= m)
			return err_set(e,
			               "%s/W%ld.npy: missing, but W%ld.npy is there (layers are "
			               "numbered 1, 2, … without a gap)",
			               dir, k, above);
		return err_set(e, "%s/W%ld.npy: missing, but b%ld.npy is there", dir, k, f->top_b);
	}
	return (int)m;
}

/* A set condnet wrote has a manifest (data/npy_set.h), checked file by file
 * by npy_set_check; here its kind, its layout and that it lists every layer
 * file in dir (one it does not list is of another export). */
static int match_kind(const char *dir, const NpyManifest *mf, int layout, Err *e)
{
	const char *want = layout == NPY_TORCH ? "torch" : "keras";
	if (strcmp(mf->kind, "network"))
		return err_set(e, "%s: %s says the directory holds %s, not a network", dir,
		               NPY_SET_MANIFEST,
		               !strcmp(mf->kind, "data") ? "a data set (x_train.npy …)"
		               : mf->kind[0]             ? mf->kind
		                                         : "no kind of set");
	if (mf->layout[0] && strcmp(mf->layout, want))
		return err_set(e,
		               "%s: %s says the weights are in the %s layout, not the %s layout "
		               "asked for",
		               dir, NPY_SET_MANIFEST, mf->layout, want);
	return 0;
}

static int match_files(const char *dir, const NpyManifest *mf, const Found *f, int m, Err *e)
{
	char *lw = calloc((size_t)m + 1, 1), *lb = calloc((size_t)m + 1, 1);
	if (!lw || !lb) {
		free(lw);
		free(lb);
		return err_set(e, "%s: out of memory", dir);
	}
	for (int i = 0; i < mf->n; i++) {
		long kw = layer_number(mf->files[i].name, 'W'),
		     kb = layer_number(mf->files[i].name, 'b');
		if (kw > 0 && kw <= m)
			lw[kw] = 1;
		if (kb > 0 && kb <= m)
			lb[kb] = 1;
	}
	int rc = 0;
	for (int k = 1; k <= m && !rc; k++) {
		char kind = f->w[k] && !lw[k] ? 'W' : f->b[k] && !lb[k] ? 'b' : 0;
		if (kind)
			rc = err_set(
			    e,
			    "%s/%c%d.npy: not listed in %s (%d files): the files are not of "
			    "one export; export it again",
			    dir, kind, k, NPY_SET_MANIFEST, mf->n);
	}
	free(lw);
	free(lb);
	return rc;
}

/* The layer count of dir, its files checked against its manifest when it
 * has one (a set condnet wrote); a directory without one as it is. The
 * manifest's notes of a network with convolutions into input and layers
 * ("" when none), and its record of the inputs' preprocessing into *prep
 * (malloc'd), or NULL. */
static int checked_layers(const char *dir, int layout, char input[32], char layers[512],
                          char **prep, Err *e)
{
	Found f;
	NpyManifest mf;
	int has = npy_set_check(dir, &mf, e);
	input[0] = layers[0] = '\0';
	if (has > 0) {
		memcpy(input, mf.input, sizeof mf.input);
		memcpy(layers, mf.layers, sizeof mf.layers);
	}
	if (has < 0)
		return -1;
	if ((has && match_kind(dir, &mf, layout, e)) || scan_layers(dir, &f, e)) {
		npy_manifest_free(&mf);
		return -1;
	}
	int m = layer_count(dir, &f, e);
	if (m > 0 && has && match_files(dir, &mf, &f, m, e))
		m = -1;
	*prep = m > 0 ? mf.prep : NULL;
	if (m > 0)
		mf.prep = NULL;
	found_free(&f);
	npy_manifest_free(&mf);
	return m;
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

/* The row of a dense layer's input c·h·w + y·w + x (condnet's flatten of C×H×W
 * maps) in Keras' flatten of channels-last maps, (y·w + x)·C + c. */
static size_t keras_row(const ConvShape *c, size_t r)
{
	size_t hw = (size_t)c->h_out * c->w_out, ch = r / hw, pos = r % hw;
	return pos * (size_t)c->c_out + ch;
}

/* The convolutions a manifest names: nconv of them into cs (malloc'd),
 * from its notes input and layers; the layer count must be m. */
static int conv_notes(const char *dir, const char *input, const char *layers, int m, ConvShape **cs,
                      int *nconv, Err *e)
{
	LayerSpec *ls;
	int nl, shape[3];
	*cs = NULL;
	*nconv = 0;
	if (!layers[0])
		return 0;
	if (layers_parse(layers, &ls, &nl, e) || datasets_parse_shape("input", input, shape, e))
		return err_prefix(e, "%s: %s", dir, NPY_SET_MANIFEST);
	int nc = layers_conv_count(ls, nl), rc = 0;
	if (nl + 1 != m)
		rc = err_set(e, "%s: %s names %d layers, but the directory holds %d", dir,
		             NPY_SET_MANIFEST, nl + 1, m);
	else if (nc && !(*cs = malloc((size_t)nc * sizeof **cs)))
		rc = err_set(e, "%s: out of memory", dir);
	else if (nc && layers_geometry(ls, nc, shape[0], shape[1], shape[2], *cs, e))
		rc = err_prefix(e, "%s: %s", dir, NPY_SET_MANIFEST);
	free(ls);
	if (rc) {
		free(*cs);
		*cs = NULL;
		return -1;
	}
	*nconv = nc;
	return 0;
}

/* Convolution layer k's files (W 4-D, b 1-D) into W (my rows × C_out) and b. */
static int read_conv(const char *dir, int k, int layout, const ConvShape *c, double **W, double **b,
                     Err *e)
{
	char wp[4096], bp[4096];
	layer_path(wp, sizeof wp, dir, 'W', k);
	layer_path(bp, sizeof bp, dir, 'b', k);
	double *w = NULL, *bias = NULL;
	int nd, K = c->k;
	long sh[4];
	if (npy_read_nd(wp, &w, &nd, sh, e))
		return -1;
	long want[4] = {c->c_out, c->c_in, K, K}, keras[4] = {K, K, c->c_in, c->c_out};
	const long *ws = layout == NPY_TORCH ? want : keras;
	if (nd != 4 || memcmp(sh, ws, sizeof sh)) {
		free(w);
		return err_set(e,
		               "%s: shape of %d dimensions (%ld, …), expected (%ld, %ld, %ld, %ld)",
		               wp, nd, sh[0], ws[0], ws[1], ws[2], ws[3]);
	}
	long bs[4];
	if (npy_read_nd(bp, &bias, &nd, bs, e)) {
		free(w);
		return -1;
	}
	size_t rows = (size_t)layers_rows(c), co = (size_t)c->c_out, n = rows * co;
	double *t = malloc(n * sizeof *t);
	int bad = nd != 1 || bs[0] != c->c_out || !t;
	for (size_t i = 0; !bad && i < n; i++) {
		size_t r = i / co, o = i % co; /* r = (ci·K + y)·K + x */
		size_t ci = r / ((size_t)K * K), y = r / K % K, x = r % K;
		t[i] = layout == NPY_TORCH ? w[o * rows + r]
		                           : w[((y * K + x) * c->c_in + ci) * co + o];
		bad = !isfinite(t[i]) || fabs(t[i]) > FLT_MAX;
	}
	for (size_t j = 0; !bad && j < co; j++)
		bad = !isfinite(bias[j]) || fabs(bias[j]) > FLT_MAX;
	free(w);
	if (bad) {
		free(t);
		free(bias);
		return err_set(e, "%s or %s: not %ld kernels and biases of finite float32 values",
		               wp, bp, (long)co);
	}
	*W = t;
	*b = bias;
	return 0;
}

/* Long on purpose: the directory's files read layer by layer, each pair of
 * weights and biases checked against the one before it as it is read. */
Net *net_npy_import(const char *dir, int layout, ActKind act, float act_a, Err *e)
{
	if (layout != NPY_KERAS && layout != NPY_TORCH) {
		err_set(e, "layout %d, expected NPY_KERAS (0) or NPY_TORCH (1)", layout);
		return NULL;
	}
	char input[32], layers[512], *prep = NULL;
	int m = checked_layers(dir, layout, input, layers, &prep, e), nconv;
	ConvShape *cs;
	if (m < 0 || conv_notes(dir, input, layers, m, &cs, &nconv, e)) {
		free(prep);
		return NULL;
	}
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
		if (k <= nconv) {
			const ConvShape *c = &cs[k - 1];
			if (read_conv(dir, k, layout, c, &W[k - 1], &b[k - 1], e))
				goto out;
			widths[0] = cs[0].c_in * cs[0].h_in * cs[0].w_in;
			widths[k] = (int)layers_out_width(c);
			np += ((uint64_t)layers_rows(c) + 1) * (uint64_t)c->c_out;
			continue;
		}
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
	net = net_new_conv(m, widths, nconv, cs, act, act_a, e);
	if (!net) {
		err_prefix(e, "%s", dir);
		goto out;
	}
	for (int k = 0; k < m; k++) {
		size_t rows = (size_t)net_rows(net, k), cols = (size_t)net_cols(net, k);
		for (size_t i = 0; i < rows * cols; i++) {
			/* Keras flattens channels-last maps: its rows are in another order */
			size_t src = k == nconv && nconv && layout == NPY_KERAS
			                 ? keras_row(&cs[nconv - 1], i / cols) * cols + i % cols
			                 : i;
			net->W[k][i] = (float)W[k][src];
		}
		for (size_t i = 0; i < cols; i++)
			net->b[k][i] = (float)b[k][i];
	}
	/* what the inputs are made of, as the export recorded it */
	if (prep) {
		Prep *r = prep_from_text(prep, widths[0], e);
		if (!r || net_set_prep(net, r, e)) {
			err_prefix(e, "%s/%s: prep", dir, NPY_SET_MANIFEST);
			net_free(net);
			net = NULL;
		}
		prep_free(r);
	}
out:
	free(prep);
	free(cs);
	for (int k = 0; W && b && k < m; k++) {
		free(W[k]);
		free(b[k]);
	}
	free(W);
	free(b);
	free(widths);
	return net;
}

/* The record of the inputs' preprocessing: whole in the manifest (its prep
 * line, which an import reads back to the bit), and for NumPy the means and
 * scales (prep_mean.npy, prep_scale.npy, float32) and the Haar coefficients
 * kept (prep_idx.npy, int32). */
static int add_prep(NpySet *set, const Prep *p, Err *e)
{
	if (!p || p->kind == PREP_NONE)
		return 0;
	char *text = prep_to_text(p, e);
	int rc = text ? npy_set_note(set, "prep", text, e) : -1;
	free(text);
	float *v = rc == 0 ? malloc((size_t)p->d * sizeof *v) : NULL;
	if (rc == 0 && p->scale != DATA_RAW) {
		if (!v)
			return err_set(e, "out of memory");
		for (int k = 0; k < 2 && rc == 0; k++) {
			for (int j = 0; j < p->d; j++)
				v[j] = (float)(k ? p->sd[j] : p->mean[j]);
			rc = npy_set_add_f32(set, k ? "prep_scale.npy" : "prep_mean.npy", v, p->d,
			                     -1, e);
		}
	}
	free(v);
	if (rc == 0 && p->kind == PREP_HAAR) {
		int32_t *idx = malloc((size_t)p->d * sizeof *idx);
		if (!idx)
			return err_set(e, "out of memory");
		for (int j = 0; j < p->d; j++)
			idx[j] = p->idx[j];
		rc = npy_set_add_i32(set, "prep_idx.npy", idx, p->d, -1, e);
		free(idx);
	}
	return rc;
}

/* The manifest's notes of a network with convolutions: its input images
 * and its layers as --layers names them. */
static int conv_notes_put(NpySet *set, const Net *net, Err *e)
{
	if (!net->nconv)
		return 0;
	char input[64], layers[512] = "", one[64];
	int c, h, w;
	net_input_shape(net, &c, &h, &w);
	snprintf(input, sizeof input, "%dx%dx%d", c, h, w);
	for (int i = 0; i < net->m - 1; i++) {
		if (i < net->nconv)
			layers_conv_str(&net->conv[i], one, sizeof one);
		else
			snprintf(one, sizeof one, "%d", net->n[i + 1]);
		snprintf(layers + strlen(layers), sizeof layers - strlen(layers), i ? ",%s" : "%s",
		         one);
	}
	return npy_set_note(set, "input", input, e) || npy_set_note(set, "layers", layers, e) ? -1
	                                                                                      : 0;
}

/* Convolution layer k's kernels, (C_out, C_in, K, K) in the torch layout or
 * (K, K, C_in, C_out) in Keras', and biases. */
static int put_conv(NpySet *set, const Net *net, int k, int layout, Err *e)
{
	const ConvShape *c = &net->conv[k - 1];
	size_t rows = (size_t)layers_rows(c), co = (size_t)c->c_out, K = (size_t)c->k;
	float *t = malloc(rows * co * sizeof *t);
	if (!t)
		return err_set(e, "out of memory");
	const float *w = net->W[k - 1];
	for (size_t r = 0; r < rows; r++) {
		size_t ci = r / (K * K), y = r / K % K, x = r % K;
		for (size_t o = 0; o < co; o++)
			t[layout == NPY_TORCH ? o * rows + r
			                      : ((y * K + x) * c->c_in + ci) * co + o] =
			    w[r * co + o];
	}
	long torch[4] = {c->c_out, c->c_in, c->k, c->k}, keras[4] = {c->k, c->k, c->c_in, c->c_out};
	char name[32];
	snprintf(name, sizeof name, "W%d.npy", k);
	int rc = npy_set_add_f32_nd(set, name, t, 4, layout == NPY_TORCH ? torch : keras, e);
	free(t);
	snprintf(name, sizeof name, "b%d.npy", k);
	return rc || npy_set_add_f32(set, name, net->b[k - 1], c->c_out, -1, e) ? -1 : 0;
}

int net_npy_export(const Net *net, const char *dir, int layout, Err *e)
{
	if (layout != NPY_KERAS && layout != NPY_TORCH)
		return err_set(e, "layout %d, expected NPY_KERAS (0) or NPY_TORCH (1)", layout);
	/* a stale W<k>.npy or b<k>.npy with k > m would be read back as more layers */
	struct stat st;
	char path[4096];
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
		Found f;
		if (scan_layers(dir, &f, e))
			return -1;
		long top = f.top;
		int w = top > 0 && f.w[top];
		found_free(&f);
		if (top > net->m) {
			layer_path(path, sizeof path, dir, w ? 'W' : 'b', (int)top);
			return err_set(e, "%s: exists and would be read as layer %ld; remove it",
			               path, top);
		}
	}
	NpySet *set = npy_set_begin(dir, "network", e);
	if (!set || npy_set_note(set, "layout", layout == NPY_TORCH ? "torch" : "keras", e) ||
	    conv_notes_put(set, net, e)) {
		npy_set_abort(set);
		return -1;
	}
	for (int k = 1; k <= net->m; k++) {
		int in = net->n[k - 1], out = net->n[k];
		const float *w = net->W[k - 1];
		float *t = NULL;
		if (k <= net->nconv) {
			if (put_conv(set, net, k, layout, e)) {
				npy_set_abort(set);
				return -1;
			}
			continue;
		}
		if (k == net->nconv + 1 && net->nconv && layout == NPY_KERAS) {
			if (!(t = malloc((size_t)in * out * sizeof *t))) {
				npy_set_abort(set);
				return err_set(e, "%s: out of memory", dir);
			}
			for (size_t r = 0; r < (size_t)in; r++)
				memcpy(t + keras_row(&net->conv[net->nconv - 1], r) * out,
				       w + r * out, (size_t)out * sizeof *t);
			w = t;
			t = NULL;
		}
		if (layout == NPY_TORCH) {
			t = malloc((size_t)in * out * sizeof *t);
			if (!t) {
				npy_set_abort(set);
				return err_set(e, "%s: out of memory", dir);
			}
			for (int r = 0; r < in; r++)
				for (int c = 0; c < out; c++)
					t[(size_t)c * in + r] = w[(size_t)r * out + c];
		}
		char name[32];
		snprintf(name, sizeof name, "W%d.npy", k);
		int rc = t ? npy_set_add_f32(set, name, t, out, in, e)
		           : npy_set_add_f32(set, name, w, in, out, e);
		free(t);
		if (w != net->W[k - 1])
			free((float *)w);
		snprintf(name, sizeof name, "b%d.npy", k);
		if (rc || npy_set_add_f32(set, name, net->b[k - 1], out, -1, e)) {
			npy_set_abort(set);
			return -1;
		}
	}
	if (add_prep(set, net->prep, e)) {
		npy_set_abort(set);
		return -1;
	}
	return npy_set_commit(set, e);
}
