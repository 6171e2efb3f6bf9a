/* setup/setup.c - the run the common options describe: its data, its
 * network, the room for its work and the plan of its training. */
#include "setup/setup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/blas.h"
#include "data/mnist.h"
#include "engine/cond.h"
#include "engine/graph_pass.h"
#include "engine/limits.h"
#include "model/model_io.h"
#include "model/onnx_io.h"

int setup_plan(const CommonOpts *c, const Dataset *train, const LrSchedule *sched, double epochs,
               TrainPlan *p, Dataset **tr, Dataset **val, Err *e)
{
	*tr = *val = NULL;
	train_plan_default(p, &c->train, epochs);
	p->patience = c->early_stop;
	if (!sched)
		sched = &c->train.sched;
	if (c->early_stop <= 0 && sched->kind != SCHED_PLATEAU)
		return 0;
	if (dataset_split(train, c->val_per_class > 0 ? 0 : c->val_frac, c->val_per_class, c->seed,
	                  tr, val, e) < 0)
		return err_prefix(e, "the validation split");
	p->val = *val;
	return 0;
}

const char *setup_plan_str(const TrainPlan *p, const LrSchedule *sched, char *buf, size_t len)
{
	char spec[64];
	if (!sched)
		sched = &p->opts.sched;
	int n = snprintf(buf, len, "schedule %s", sched_format(sched, spec, sizeof spec));
	if (n >= 0 && (size_t)n < len && sched->warmup > 0)
		n += snprintf(buf + n, len - (size_t)n, ", warm-up %g epoch%s", sched->warmup,
		              sched->warmup == 1 ? "" : "s");
	if (n >= 0 && (size_t)n < len && p->patience > 0)
		snprintf(buf + n, len - (size_t)n, ", early stopping after %d epoch%s", p->patience,
		         p->patience == 1 ? "" : "s");
	if (n >= 0 && (size_t)n < len && p->val)
		snprintf(buf + strlen(buf), len - strlen(buf), " on %d validation rows", p->val->n);
	return buf;
}

/* The option that gives a scale step: "--center", "--standardize" or none. */
static const char *scale_option(int scale)
{
	return scale == DATA_STANDARDIZE ? "--standardize" : scale == DATA_CENTER ? "--center" : "";
}

int setup_check_scale(int given, const Prep *rec, const char *name, Err *e)
{
	if (!rec || given == DATA_RAW || given == rec->scale)
		return 0;
	if (rec->scale == DATA_RAW)
		return err_set(e,
		               "%s records inputs neither centred nor standardized: drop %s (its "
		               "inputs are made as it records)",
		               name, scale_option(given));
	return err_set(e,
	               "%s records inputs %s on its training set: drop %s (its inputs are made "
	               "as it records)",
	               name, rec->scale == DATA_CENTER ? "centred" : "standardized",
	               scale_option(given));
}

void setup_spec_from_record(const Prep *rec, int told, DataSpec *spec)
{
	/* only MNIST and Fashion-MNIST make these inputs: another set is left
	 * as given, and the record's check says how it differs */
	const char *set = spec->spec ? spec->spec : "";
	if (!rec || told || (strcmp(set, "mnist") != 0 && strcmp(set, "fashion") != 0))
		return;
	if (rec->kind == PREP_HAAR) {
		spec->features = rec->d;
		spec->coeffs = rec->idx;
	}
	if (rec->kind == PREP_PIXELS)
		spec->inputs = MNIST_PIXELS;
}

int setup_load_data_any(const CommonOpts *c, Dataset **train, Dataset **test, Err *e)
{
	Dataset *tr = NULL, *te = NULL;
	Net *model = NULL;
	DataSpec spec = c->data;
	/* a model loaded reads its inputs as its record says, unless --inputs or
	 * --features say otherwise */
	if (c->load && !(model = model_load_any(c->load, e)))
		return -1;
	const Prep *rec = model ? model->prep : NULL;
	setup_spec_from_record(rec, c->inputs_given || c->features_given, &spec);
	int rc = setup_check_scale(c->data.scale, rec, c->load, e) ||
	         datasets_load_as(&spec, rec, c->load, &tr, &te, e);
	net_free(model);
	if (rc)
		return -1;
	if (dataset_validate(tr, "training set", e) ||
	    (te && dataset_validate(te, "test set", e))) {
		dataset_free(tr);
		dataset_free(te);
		return -1;
	}
	if (train)
		*train = tr;
	else
		dataset_free(tr);
	if (test)
		*test = te;
	else
		dataset_free(te);
	return 0;
}

int setup_check_prep(const Prep *model, const Prep *data, const char *name, Err *e)
{
	if (!model || !data)
		return 0;
	if (prep_check(model, data, name, data->kind == PREP_NONE ? "the data" : "the data set", e))
		return -1;
	if (model->scale == data->scale)
		return 0;
	if (model->scale == DATA_RAW)
		return err_set(e,
		               "%s was trained on features neither centred nor standardized: "
		               "drop %s",
		               name, scale_option(data->scale));
	return err_set(e, "%s was trained on features %s on its training set: give %s", name,
	               model->scale == DATA_CENTER ? "centred" : "standardized",
	               scale_option(model->scale));
}

int setup_save_model(Net *net, const char *path, const Dataset *train, Err *e)
{
	/* a network made on the data records how the data's inputs were made */
	if (!net->prep && train && train->prep && train->prep->d == net->n[0] &&
	    net_set_prep(net, train->prep, e))
		return -1;
	return model_save(net, path, e);
}

double setup_work_bytes(const CommonOpts *c, const Net *net)
{
	if (!net)
		return 0;
	if (net->graph) /* the gradients and moments, and a batch's outputs and gradients */
		return 12.0 * (double)net->nparam +
		       4.0 * graph_work_floats(net->graph, c->train.batch, 1) +
		       4.0 * net->nparam * (c->train.threads > 0 ? c->train.threads : 1);
	double sum_n = 0, widest = 0;
	for (int i = 0; i <= net->m; i++)
		sum_n += net->n[i];
	for (int i = 1; i <= net->m; i++) {
		double w = ((double)net_rows(net, i - 1) + 1) * net_cols(net, i - 1);
		widest = w > widest ? w : widest;
	}
	int threads = c->train.threads > 0 ? c->train.threads : 1;
	/* a convolution's columns, maps and their gradients for the batch */
	for (int i = 0; i < net->nconv; i++) {
		const ConvShape *cs = &net->conv[i];
		double pos = (double)cs->h_conv * cs->w_conv;
		sum_n += pos * ((double)layers_rows(cs) + 3.0 * cs->c_out);
	}
	/* the gradients and Adam's moments (the parameters are there already), a
	 * batch's activations on each thread, and Ŵ of the widest layer in
	 * doubles three times (the conditioning's copies) */
	return 12.0 * (double)net->nparam + 8.0 * threads * c->train.batch * sum_n + 24.0 * widest;
}

int setup_reserve(const CommonOpts *c, double work, Err *e)
{
	int threads = c->train.threads > 0 ? c->train.threads : 1;
	/* the conditioning's threads are as many (one of OpenBLAS's buffers
	 * each), not one a CPU: the same numbers, in the room reserved */
	if (blas_address_limited())
		cond_set_threads(threads);
	return blas_reserve(threads, work, e);
}

/* The network --load or --onnx names, a chain or a graph network, checked
 * against train. */
static Net *read_net(const CommonOpts *c, const Dataset *train, Err *e)
{
	const char *path = c->load ? c->load : c->onnx;
	if (c->load && c->onnx) {
		err_set(e, "--load %s and --onnx %s name two networks: give one", c->load, c->onnx);
		return NULL;
	}
	Net *net = c->onnx ? onnx_import_any(c->onnx, NULL, e) : model_load_any(c->load, e);
	if (!net)
		return NULL;
	if (train && net->n[0] != train->d)
		err_set(e, "%s: model has %d inputs, data set has %d features", path, net->n[0],
		        train->d);
	else if (train && net_check_images(net, train->c, train->h, train->w, train->name, e))
		;
	else if (train && net->n[net->m] != train->k)
		err_set(e, "%s: model has %d outputs, data set has %d classes", path,
		        net->n[net->m], train->k);
	else if (!train || !setup_check_prep(net->prep, train->prep, path, e))
		return net;
	net_free(net);
	return NULL;
}

/* The network of setup_make_net_any. */
static Net *make_net(const CommonOpts *c, const Dataset *train, Err *e)
{
	if (c->load || c->onnx)
		return read_net(c, train, e);
	if (!train) {
		err_set(e, "no data set to size a fresh network by");
		return NULL;
	}
	const char *spec = c->layers ? c->layers : opts_default_layers(c->data.spec);
	return net_fresh_spec(spec, train->d, train->c, train->h, train->w, train->k, c->act,
	                      c->act_a, c->seed, train->name, e);
}

Net *setup_make_net_any(const CommonOpts *c, const Dataset *train, Err *e)
{
	Net *net = make_net(c, train, e);
	/* the work starts next: under an address-space limit, the room for it */
	if (net && setup_reserve(c, setup_work_bytes(c, net), e) < 0) {
		net_free(net);
		return NULL;
	}
	return net;
}

int setup_data_roles(const char *spec, const char *dir, const char *what, FileRole *r,
                     char bufs[][PATH_MAX])
{
	/* the idx files, and the feature cache made beside them (mnist_cache.c) */
	static const char *const idx_names[] = {"train-*-ubyte*", "t10k-*-ubyte*", "*-haar*.cache",
	                                        NULL};
	static const char *const adult_names[] = {"adult.*", NULL};
	int k = 0;
	if (spec && !strncmp(spec, "csv:", 4)) {
		/* TRAIN[,TEST] (opts_handle checked the list) */
		const char *comma = strchr(spec + 4, ',');
		snprintf(bufs[0], PATH_MAX, "%.*s", comma ? (int)(comma - spec - 4) : PATH_MAX - 1,
		         spec + 4);
		r[k++] = (FileRole){what, bufs[0], 0, NULL, NULL, NULL};
		if (comma)
			r[k++] = (FileRole){what, comma + 1, 0, NULL, NULL, NULL};
	} else if (spec &&
	           (!strcmp(spec, "mnist") || !strcmp(spec, "fashion") || !strcmp(spec, "adult"))) {
		char def[PATH_MAX - 16];
		if (!dir || !*dir)
			datasets_dir(def, sizeof def);
		snprintf(bufs[1], PATH_MAX, "%.*s/%s", PATH_MAX - 16, dir && *dir ? dir : def,
		         spec);
		r[k++] = (FileRole){
		    what, bufs[1], 0, !strcmp(spec, "adult") ? adult_names : idx_names, NULL, NULL};
	}
	return k;
}

int setup_roles(const CommonOpts *c, FileRole *r, char bufs[][PATH_MAX])
{
	int k = 0;
	r[k++] = (FileRole){"--load", c->load, 0, NULL, NULL, NULL};
	r[k++] = (FileRole){"--onnx", c->onnx, 0, NULL, NULL, NULL};
	k += setup_data_roles(c->data.spec, c->data.dir, "--data", r + k, bufs);
	/* a model trained further may be saved over itself (README's example) */
	r[k++] = (FileRole){"--save", c->save, 1, NULL, "--load", NULL};
	r[k++] = (FileRole){"--json", c->json, 1, NULL, NULL, NULL};
	r[k++] = (FileRole){"--csv", c->csv, 1, NULL, NULL, NULL};
	return k;
}
