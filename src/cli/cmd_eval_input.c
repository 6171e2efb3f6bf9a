/* cmd_eval_input.c - the networks `condnet eval` and `condnet predict` read,
 * their shared options, and the data split made into a network's inputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_eval.h"
#include "data/datasets.h"
#include "data/mnist.h"
#include "model/model_io.h"
#include "model/net_npy.h"
#include "model/onnx_io.h"

void eval_opts_default(EvalOpts *o)
{
	memset(o, 0, sizeof *o);
	opts_default(&o->c);
	o->layout = NPY_KERAS;
	o->split = SPLIT_TEST;
}

void eval_opts_free(EvalOpts *o)
{
	for (int i = 0; i < o->nsrc; i++) {
		net_free(o->src[i].net);
		o->src[i].net = NULL;
	}
}

static int add_src(EvalOpts *o, NetKind kind, const char *path, Err *e)
{
	if (o->nsrc == EVAL_MAX_NETS)
		return err_set(e, "%s: at most %d networks", path, EVAL_MAX_NETS);
	o->src[o->nsrc++] = (NetSrc){kind, path, NULL};
	return 0;
}

int eval_option(EvalOpts *o, int opt, const char *arg, Err *e)
{
	switch (opt) {
	case EOPT_LOAD:
		return add_src(o, NET_MODEL, arg, e);
	case EOPT_ONNX:
		return add_src(o, NET_ONNX, arg, e);
	case EOPT_NPY:
		return add_src(o, NET_NPY, arg, e);
	case EOPT_LAYOUT:
		if (!strcmp(arg, "keras"))
			o->layout = NPY_KERAS;
		else if (!strcmp(arg, "torch"))
			o->layout = NPY_TORCH;
		else
			return err_set(e, "--layout: unknown layout '%s' (expected keras or torch)",
			               arg);
		return 0;
	case EOPT_SPLIT:
		if (!strcmp(arg, "test"))
			o->split = SPLIT_TEST;
		else if (!strcmp(arg, "train"))
			o->split = SPLIT_TRAIN;
		else if (!strcmp(arg, "all"))
			o->split = SPLIT_ALL;
		else
			return err_set(
			    e, "--split: unknown split '%s' (expected test, train or all)", arg);
		return 0;
	case EOPT_FEATURES:
		o->features_given = 1;
		return opts_handle(&o->c, OPTS_FEATURES, arg, e) < 0 ? -1 : 0;
	case EOPT_MARKDOWN:
		o->markdown = 1;
		return 0;
	}
	return 1;
}

const char *eval_split_name(int split)
{
	return split == SPLIT_TRAIN ? "train" : split == SPLIT_ALL ? "all" : "test";
}

const char *eval_kind_name(NetKind k)
{
	return k == NET_ONNX ? "onnx" : k == NET_NPY ? "npy" : "model";
}

int eval_inputs(const EvalOpts *o, CliOut *in)
{
	static const char *const opt[] = {"--load", "--onnx", "--npy"};
	for (int i = 0; i < o->nsrc; i++)
		in[i] = (CliOut){
		    o->src[i].path, CLI_IN | (o->src[i].kind == NET_NPY ? CLI_OUT_DIR : 0),
		    opt[o->src[i].kind], o->src[i].kind == NET_NPY ? file_roles_npy_net : NULL};
	return o->nsrc;
}

int eval_read_nets(EvalOpts *o, Err *e)
{
	for (int i = 0; i < o->nsrc; i++) {
		NetSrc *s = &o->src[i];
		if (s->kind == NET_MODEL)
			s->net = model_load_any(s->path, e);
		else if (s->kind == NET_ONNX)
			s->net = onnx_import_any(s->path, NULL, e);
		else if (!(s->net = net_npy_import(s->path, o->layout, o->c.act, o->c.act_a, e)))
			err_prefix(e, "--npy %s", s->path);
		if (!s->net)
			return -1;
	}
	return 0;
}

int eval_check_scale(const EvalOpts *o, const Prep *rec, const char *name, Err *e)
{
	static const char *const opt[] = {"", "--center", "--standardize"};
	int given = o->c.data.scale;
	if (!rec || given == DATA_RAW || given == rec->scale)
		return 0;
	if (rec->scale == DATA_RAW)
		return err_set(e,
		               "%s records inputs neither centred nor standardized: drop %s (its "
		               "inputs are made as it records)",
		               name, opt[given]);
	return err_set(e,
	               "%s records inputs %s on its training set: drop %s (its inputs are made "
	               "as it records)",
	               name, rec->scale == DATA_CENTER ? "centred" : "standardized", opt[given]);
}

/* A network that records the means and scales of its training set: on the
 * training split of the data given, made into its inputs with them, those
 * of its own data would have means 0 (and scales 1); far from that, the
 * data are likely not the ones it learned on, and a note on standard error
 * says so (a network that records no means and scales cannot tell). */
static void note_other_data(const Dataset *tr, const Prep *rec, const char *name)
{
	/* (below 100 rows a sample's means stray too far to tell) */
	if (!rec || rec->scale == DATA_RAW || tr->n < 100 || tr->d != rec->d)
		return;
	int worst = -1;
	double worst_mu = 0, worst_sd = 1, far = 0;
	for (int j = 0; j < tr->d; j++) {
		double s = 0, s2 = 0;
		for (int r = 0; r < tr->n; r++) {
			double v = tr->x[(size_t)r * tr->d + j];
			s += v;
			s2 += v * v;
		}
		double mu = s / tr->n, sd = sqrt(fmax(0, s2 / tr->n - mu * mu));
		/* how far from its own: a mean of 0.3 of a scale, or a scale 1.4
		 * times larger or smaller, counts 1 (centred: the mean against
		 * the feature's own spread there) */
		double off = rec->scale == DATA_STANDARDIZE
		                 ? fmax(fabs(mu) / 0.3, fabs(log(fmax(sd, 1e-12))) / log(1.4))
		                 : fabs(mu) / fmax(sd, 1e-12) / 0.3;
		if (off > far) {
			far = off;
			worst = j;
			worst_mu = mu;
			worst_sd = sd;
		}
	}
	if (worst < 0 || far <= 1)
		return;
	fprintf(stderr,
	        "condnet: note: %s records the means and scales of its training data; this "
	        "training split, made with them, has feature %d of mean %.3g and scale %.3g where "
	        "its own would have 0 and %s: %s was likely trained on other data\n",
	        name, worst + 1, worst_mu, worst_sd,
	        rec->scale == DATA_STANDARDIZE ? "1" : "its own", name);
}

Dataset *eval_load_split(const EvalOpts *o, const Net *net, const char *name, Err *e)
{
	const Prep *rec = net->prep;
	if (eval_check_scale(o, rec, name, e))
		return NULL;
	DataSpec spec = o->c.data;
	spec.classes = net->n[net->m];
	/* MNIST's inputs as recorded, unless the options ask for others: the
	 * record's coefficients (whichever --inputs chose them) or the pixels */
	if (rec && rec->kind == PREP_HAAR && !o->features_given && !o->c.inputs_given) {
		spec.features = rec->d;
		spec.coeffs = rec->idx;
	}
	if (rec && rec->kind == PREP_PIXELS && !o->features_given && !o->c.inputs_given)
		spec.inputs = MNIST_PIXELS;
	Dataset *tr = NULL, *te = NULL, *out = NULL;
	if (datasets_load_as(&spec, rec, name, &tr, &te, e))
		return NULL;
	note_other_data(tr, rec, name);
	out = o->split == SPLIT_TRAIN  ? tr
	      : o->split == SPLIT_TEST ? te
	                               : dataset_concat(tr, te, e);
	if (out == tr)
		tr = NULL;
	if (out == te)
		te = NULL;
	dataset_free(tr);
	dataset_free(te);
	if (out && out->d != net->n[0]) {
		err_set(e, "%s has %d inputs, but %s has %d features", name, net->n[0], out->name,
		        out->d);
		dataset_free(out);
		return NULL;
	}
	/* images of another shape than the network reads (--shape): refused, as
	 * train, squeeze and cond refuse them */
	if (out && net_check_images(net, out->c, out->h, out->w, out->name, e)) {
		dataset_free(out);
		return NULL;
	}
	for (int r = 0; out && r < out->n; r++)
		if (out->y[r] >= net->n[net->m]) {
			err_set(
			    e,
			    "%s: row %d has class %d, beyond the %d outputs of %s (classes 0..%d)",
			    out->name, r + 1, out->y[r], net->n[net->m], name, net->n[net->m] - 1);
			dataset_free(out);
			return NULL;
		}
	return out;
}

int eval_progress(long done, long total, void *ud)
{
	return progress_rows(ud, done, total);
}
