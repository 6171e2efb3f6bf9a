/* datasets.c - from a --data argument to training and test sets. */
#include "data/datasets.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"
#include "base/list.h"
#include "base/rng.h"
#include "data/adult.h"
#include "data/csv.h"
#include "data/mnist.h"
#include "data/plane_inputs.h"
#include "data/plane_sets.h"

#define PATH_LEN 4096

/* The synthetic set of --data synthetic. */
#define SYNTH_K 3
#define SYNTH_D 10
#define SYNTH_TRAIN 400
#define SYNTH_TEST 200

static const char *const idx_files[] = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                                        "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"};

void dataspec_default(DataSpec *s)
{
	s->spec = NULL;
	s->dir = NULL;
	s->features = 200;
	s->inputs = MNIST_QR;
	s->coeffs = NULL;
	s->label_col = -1;
	s->seed = 1;
	s->limit = 0;
	s->scale = DATA_RAW;
	s->classes = 0;
	s->points = 0;
	s->noise = -1;
	s->shape[0] = s->shape[1] = s->shape[2] = 0;
	s->plane_inputs = 0;
}

int datasets_parse_shape(const char *name, const char *s, int shape[3], Err *e)
{
	long v[3];
	int n = 0;
	const char *p = s;
	while (n < 3) {
		char *end;
		if (*p < '0' || *p > '9')
			break;
		v[n++] = strtol(p, &end, 10);
		p = end;
		if (*p != 'x')
			break;
		p++;
	}
	if (*p || n < 2 || v[0] < 1 || v[1] < 1 || (n == 3 && v[2] < 1) || v[0] > 1000000 ||
	    v[1] > 1000000 || (n == 3 && v[2] > 1000000))
		return err_set(e, "%s: '%s' is not a shape CxHxW or HxW of positive sizes", name,
		               s);
	long c = n == 3 ? v[0] : 1, h = v[n - 2], w = v[n - 1];
	if (c * h * w > 10000000L)
		return err_set(e, "%s: images of %s hold more than 10,000,000 values", name, s);
	shape[0] = (int)c;
	shape[1] = (int)h;
	shape[2] = (int)w;
	return 0;
}

const char *datasets_dir(char *buf, int len)
{
	const char *v = getenv("CONDNET_DATA");
	if (v && *v) {
		snprintf(buf, (size_t)len, "%s", v);
		return buf;
	}
	v = getenv("XDG_CACHE_HOME");
	if (v && *v) {
		snprintf(buf, (size_t)len, "%s/condnet", v);
		return buf;
	}
	v = getenv("HOME");
	if (!v || !*v) {
		struct passwd *pw = getpwuid(getuid());
		v = pw && pw->pw_dir ? pw->pw_dir : ".";
	}
	snprintf(buf, (size_t)len, "%s/.cache/condnet", v);
	return buf;
}

static int is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* One file of a fetched set, dir/set/file or (idx files) file.gz: 0 when it
 * is a regular file; 1 when nothing is there; -1 with a message when
 * something else is (a directory: what is wrong is said, not "fetch"). */
static int set_file(const char *dir, const char *set, const char *file, int gz_too, Err *e)
{
	char p[PATH_LEN];
	struct stat st;
	int found = 0;
	for (int gz = 0; gz <= gz_too; gz++) {
		snprintf(p, sizeof p, gz ? "%s/%s/%s.gz" : "%s/%s/%s", dir, set, file);
		int r = stat(p, &st);
		if (r == 0 && S_ISREG(st.st_mode))
			return 0;
		found |= r == 0 || errno != ENOENT;
	}
	if (!found)
		return 1;
	for (int gz = 0; gz <= gz_too; gz++) {
		snprintf(p, sizeof p, gz ? "%s/%s/%s.gz" : "%s/%s/%s", dir, set, file);
		if (stat(p, &st) == 0)
			return err_set(e, "%s: %s, expected a regular file", p,
			               file_kind(st.st_mode));
		if (errno != ENOENT)
			return err_set(e, "%s: %s", p, strerror(errno));
	}
	return 1;
}

/* 0 when every file of the named set is there; else -1 and a message: the
 * set is not fetched (nothing there), a file is missing, or something other
 * than a file stands where a file should be. */
static int set_check(const char *name, const char *dir, Err *e)
{
	static const char *const adult_files[] = {"adult.data", "adult.test"};
	int idx = strcmp(name, "adult") != 0;
	const char *const *files = idx ? idx_files : adult_files;
	int nf = idx ? 4 : 2, missing = 0, first = -1;
	for (int i = 0; i < nf; i++) {
		int r = set_file(dir, name, files[i], idx, e);
		if (r < 0)
			return -1;
		if (r > 0 && missing++ == 0)
			first = i;
	}
	if (missing == nf)
		return err_set(e, "%s is not in %s/%s: run '%s %s' first", name, dir, name,
		               datasets_fetch(), name);
	if (missing)
		return err_set(e,
		               "%s/%s/%s%s is missing, though other files of %s are there: run "
		               "'%s %s'",
		               dir, name, files[first], idx ? " (or .gz)" : "", name,
		               datasets_fetch(), name);
	return 0;
}

static const char *(*fetch_where)(void);

void datasets_set_fetch(const char *(*where)(void))
{
	fetch_where = where;
}

const char *datasets_fetch(void)
{
	const char *cmd = fetch_where ? fetch_where() : NULL;
	return cmd && *cmd ? cmd : "data/fetch";
}

int datasets_available(const char *name, const char *dir)
{
	char dbuf[PATH_LEN], p[PATH_LEN];
	Err e;
	if (!name || strcmp(name, "synthetic") == 0 || plane_set_is(name))
		return 1;
	if (!dir)
		dir = datasets_dir(dbuf, sizeof dbuf);
	if (strcmp(name, "mnist") == 0 || strcmp(name, "fashion") == 0 ||
	    strcmp(name, "adult") == 0)
		return set_check(name, dir, &e) == 0;
	if (strncmp(name, "csv:", 4) == 0 && name[4]) {
		snprintf(p, sizeof p, "%s", name + 4);
		char *comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		return is_file(p) && (!comma || is_file(comma + 1));
	}
	return 0;
}

static int load_csv(const DataSpec *s, Dataset **train, Dataset **test, Err *e)
{
	char trainp[PATH_LEN];
	const char *arg = s->spec + 4;
	if (!*arg)
		return err_set(e, "--data csv: expected csv:TRAIN[,TEST], found no file name");
	/* at most two elements, none empty (base/list.h: the rule of every list) */
	const char *p = arg, *item;
	size_t len;
	int n = 0, r;
	while ((r = list_next(&p, &item, &len, &n, "--data", s->spec, e)) > 0)
		if (n > 2)
			return err_set(e, "--data %s: expected csv:TRAIN[,TEST]", s->spec);
	if (r < 0)
		return -1;
	snprintf(trainp, sizeof trainp, "%s", arg);
	char *testp = strchr(trainp, ',');
	if (testp)
		*testp++ = '\0';
	if (!testp) {
		Dataset *all;
		if (csv_load_classes(trainp, s->label_col, s->classes, &all, e) != 0)
			return -1;
		int rc = dataset_split(all, 0.2, 0, rng_derive(s->seed, 0x7e57), train, test, e);
		if (rc == 0) {
			snprintf((*train)->name, sizeof(*train)->name, "%.100s train", all->name);
			snprintf((*test)->name, sizeof(*test)->name, "%.100s test (20%% held out)",
			         all->name);
		}
		dataset_free(all);
		return rc;
	}
	if (csv_load_classes(trainp, s->label_col, s->classes, train, e) != 0)
		return -1;
	if (csv_load_classes(testp, s->label_col, s->classes, test, e) != 0)
		return -1;
	if ((*train)->d != (*test)->d)
		return err_set(e, "%s: %d features, but %s has %d", testp, (*test)->d, trainp,
		               (*train)->d);
	/* Both sets count the classes either one holds. */
	int k = (*train)->k > (*test)->k ? (*train)->k : (*test)->k;
	(*train)->k = (*test)->k = k;
	return 0;
}

int datasets_plane_params(const DataSpec *s, int *points, double *noise, Err *e)
{
	if (!plane_set_is(s->spec))
		return err_set(e, "%s is not a plane data set (%s)",
		               s->spec ? s->spec : "synthetic", PLANE_SET_NAMES);
	*points = s->points > 0 ? s->points : PLANE_POINTS_DEFAULT;
	*noise = s->noise >= 0 ? s->noise : plane_set_noise(s->spec);
	return 0;
}

/* A plane data set: training and test parts of as many points, the test
 * part from a seed derived from the training part's. */
static int load_plane(const DataSpec *s, Dataset **train, Dataset **test, Err *e)
{
	int points;
	double noise;
	if (datasets_plane_params(s, &points, &noise, e))
		return -1;
	*train = plane_set(s->spec, points, noise, s->seed, e);
	*test = *train ? plane_set(s->spec, points, noise, rng_derive(s->seed, 1), e) : NULL;
	if (!*test)
		return -1;
	snprintf((*train)->name, sizeof(*train)->name, "%s train (%d points, noise %g, seed %llu)",
	         s->spec, points, noise, (unsigned long long)s->seed);
	snprintf((*test)->name, sizeof(*test)->name,
	         "%s test (%d points, noise %g, seed derived from %llu)", s->spec, points, noise,
	         (unsigned long long)s->seed);
	return 0;
}

/* The record of MNIST's inputs: the images' size and, for Haar features,
 * the transform's and the k coefficients chosen (idx NULL: the pixels). */
static int image_prep(const char *dir, int k, const int *idx, Dataset *train, Err *e)
{
	int rows, cols;
	if (mnist_image_shape(dir, &rows, &cols, e))
		return -1;
	Prep *p = prep_new(idx ? PREP_HAAR : PREP_PIXELS, k, e);
	if (!p)
		return -1;
	p->rows = rows;
	p->cols = cols;
	if (idx) {
		p->n = 32; /* mnist_load_inputs pads every image to 32×32 */
		memcpy(p->idx, idx, (size_t)k * sizeof *idx);
	}
	train->prep = p;
	return 0;
}

/* MNIST or Fashion-MNIST from dir, as s asks: the coefficients s->coeffs,
 * or the choice s->inputs; with the record of how they were made. */
static int load_images(const DataSpec *s, const char *dir, const char *name, Dataset **train,
                       Dataset **test, Err *e)
{
	int *idx = NULL, rc;
	if (s->coeffs)
		rc = mnist_load_coeffs(dir, name, s->coeffs, s->features, train, test, e);
	else
		rc = mnist_load_inputs(dir, name, s->inputs, s->features, train, test, &idx, e);
	if (rc) {
		/* On failure the loader owns whatever it allocated. */
		*train = *test = NULL;
		return -1;
	}
	rc = image_prep(dir, (*train)->d, s->coeffs ? s->coeffs : idx, *train, e);
	free(idx);
	return rc;
}

int datasets_set_shape(const int shape[3], Dataset *ds, Err *e)
{
	if (!shape[0])
		return 0;
	long d = (long)shape[0] * shape[1] * shape[2];
	if (d != ds->d)
		return err_set(e, "--shape %dx%dx%d: images of %ld values, but %s has %d features",
		               shape[0], shape[1], shape[2], d, ds->name, ds->d);
	ds->c = shape[0];
	ds->h = shape[1];
	ds->w = shape[2];
	return 0;
}

/* The declared images of a CSV's rows (none: nothing to do). */
static int set_shape(const DataSpec *s, Dataset *tr, Dataset *te, Err *e)
{
	return datasets_set_shape(s->shape, tr, e) || datasets_set_shape(s->shape, te, e) ? -1 : 0;
}

static int load_named(const DataSpec *s, const char *dir, Dataset **train, Dataset **test, Err *e)
{
	const char *name = s->spec ? s->spec : "synthetic";
	char p[PATH_LEN], q[PATH_LEN];
	if (s->inputs != MNIST_QR && strcmp(name, "mnist") != 0 && strcmp(name, "fashion") != 0)
		return err_set(e, "%s: the inputs '%s' are a choice of mnist and fashion only",
		               name, mnist_inputs_name(s->inputs));
	if ((s->points > 0 || s->noise >= 0) && !plane_set_is(name))
		return err_set(e, "--points and --noise draw a plane data set (%s), not %s",
		               PLANE_SET_NAMES, name);
	if (s->shape[0] && strncmp(name, "csv:", 4))
		return err_set(e,
		               "--shape declares the images of a CSV's rows, not of %s (MNIST and "
		               "Fashion give 1x28x28 images with --inputs pixels)",
		               name);
	if (plane_set_is(name))
		return load_plane(s, train, test, e);
	if (strcmp(name, "synthetic") == 0) {
		*train = dataset_synthetic(SYNTH_TRAIN, SYNTH_K, SYNTH_D, s->seed, e);
		*test = dataset_synthetic(SYNTH_TEST, SYNTH_K, SYNTH_D, rng_derive(s->seed, 1), e);
		if (!*train || !*test)
			return err_set(e, "synthetic: out of memory");
		snprintf((*train)->name, sizeof(*train)->name, "synthetic train (seed %llu)",
		         (unsigned long long)s->seed);
		snprintf((*test)->name, sizeof(*test)->name,
		         "synthetic test (seed derived from %llu)", (unsigned long long)s->seed);
		return 0;
	}
	if (strncmp(name, "csv:", 4) == 0)
		return load_csv(s, train, test, e) || set_shape(s, *train, *test, e) ? -1 : 0;
	int is_mnist = strcmp(name, "mnist") == 0, is_fashion = strcmp(name, "fashion") == 0;
	if (!is_mnist && !is_fashion && strcmp(name, "adult") != 0)
		return err_set(e,
		               "unknown data set '%s': expected mnist, fashion, adult, synthetic, "
		               "%s or csv:TRAIN[,TEST]",
		               name, PLANE_SET_NAMES);
	if (set_check(name, dir, e))
		return -1;
	snprintf(p, sizeof p, "%s/%s", dir, name);
	if (is_mnist || is_fashion)
		return load_images(s, p, name, train, test, e);
	snprintf(p, sizeof p, "%s/adult/adult.data", dir);
	snprintf(q, sizeof q, "%s/adult/adult.test", dir);
	if (adult_load(p, train, e) != 0 || adult_load(q, test, e) != 0)
		return -1;
	snprintf((*train)->name, sizeof(*train)->name, "adult train");
	snprintf((*test)->name, sizeof(*test)->name, "adult test");
	if (!((*train)->prep = prep_new(PREP_ADULT, (*train)->d, e)))
		return -1;
	return 0;
}

/* Keeps the first `limit` rows of each class of *ds. */
static int apply_limit(Dataset **ds, int limit, Err *e)
{
	Dataset *h = dataset_head(*ds, limit, e);
	if (!h)
		return err_set(e, "%s: out of memory keeping %d rows per class", (*ds)->name,
		               limit);
	snprintf(h->name, sizeof h->name, "%.96s (≤%d per class)", (*ds)->name, limit);
	dataset_free(*ds);
	*ds = h;
	return 0;
}

Dataset *datasets_plane_apply(const Dataset *ds, unsigned mask, Err *e)
{
	if (ds->d != 2) {
		err_set(e,
		        "%s has %d features: x², y², xy, sin x and sin y are inputs of the plane "
		        "(2 features)",
		        ds->name, ds->d);
		return NULL;
	}
	int d = plane_inputs_count(mask);
	Dataset *r = dataset_new(ds->n, d, ds->k, e);
	if (!r)
		return NULL;
	plane_inputs_rows(mask, ds->x, ds->n, r->x);
	memcpy(r->y, ds->y, (size_t)ds->n * sizeof *r->y);
	char m[64];
	snprintf(r->name, sizeof r->name, "%.80s, inputs x, y, %s", ds->name,
	         plane_inputs_format(mask, m, sizeof m));
	return r;
}

/* The rows of *ds (x and y) made into the inputs of mask, recorded as
 * such (the scale step follows). */
static int plane_rows(Dataset **ds, unsigned mask, Err *e)
{
	const Prep *was = (*ds)->prep;
	if (was && was->kind != PREP_FEATURES)
		return err_set(e,
		               "%s: x², y², xy, sin x and sin y are inputs of points of the "
		               "plane, not of %s",
		               (*ds)->name, prep_kind_name(was->kind));
	Dataset *r = datasets_plane_apply(*ds, mask, e);
	if (!r)
		return -1;
	if (!(r->prep = prep_new(PREP_PLANE, r->d, e))) {
		dataset_free(r);
		return -1;
	}
	r->prep->plane = mask;
	dataset_free(*ds);
	*ds = r;
	return 0;
}

/* The scale step: fitted on tr (prep NULL) or the record's; both sets get
 * the record. */
static int apply_prep(const DataSpec *s, const Prep *given, const char *model, Dataset *tr,
                      Dataset *te, Err *e)
{
	Prep *p = tr->prep;
	if (!p && !(p = tr->prep = prep_new(PREP_FEATURES, tr->d, e)))
		return -1;
	if (given) {
		if (prep_check(given, p, model, tr->name, e))
			return -1;
		Prep *c = prep_clone(given, e);
		if (!c)
			return -1;
		/* the kind of input stays the data's when the record has none */
		if (c->kind == PREP_NONE) {
			Prep *k = prep_clone(p, e);
			if (!k) {
				prep_free(c);
				return -1;
			}
			k->scale = c->scale;
			memcpy(k->mean, c->mean, (size_t)k->d * sizeof *k->mean);
			memcpy(k->sd, c->sd, (size_t)k->d * sizeof *k->sd);
			prep_free(c);
			c = k;
		}
		prep_free(p);
		p = tr->prep = c;
	} else if (prep_fit(p, tr, s->scale, e))
		return -1;
	prep_free(te->prep);
	if (!(te->prep = prep_clone(p, e)))
		return -1;
	if (p->scale == DATA_RAW)
		return 0;
	prep_scale(p, tr);
	prep_scale(p, te);
	const char *how = p->scale == DATA_STANDARDIZE ? ", standardized" : ", centred";
	strncat(tr->name, how, sizeof tr->name - strlen(tr->name) - 1);
	strncat(te->name, how, sizeof te->name - strlen(te->name) - 1);
	return 0;
}

int datasets_load_as(const DataSpec *s, const Prep *prep, const char *model, Dataset **train,
                     Dataset **test, Err *e)
{
	char dbuf[PATH_LEN];
	const char *dir = s->dir ? s->dir : datasets_dir(dbuf, sizeof dbuf);
	Dataset *tr = NULL, *te = NULL;
	*train = *test = NULL;
	if (load_named(s, dir, &tr, &te, e) != 0)
		goto fail;
	if (s->limit > 0 &&
	    (apply_limit(&tr, s->limit, e) != 0 || apply_limit(&te, s->limit, e) != 0))
		goto fail;
	if (dataset_validate(tr, tr->name, e) != 0 || dataset_validate(te, te->name, e) != 0)
		goto fail;
	if (tr->n == 0) {
		err_set(e, "%s: no rows", tr->name);
		goto fail;
	}
	unsigned in = prep && prep->kind == PREP_PLANE ? prep->plane : s->plane_inputs;
	if (in && (plane_rows(&tr, in, e) != 0 || plane_rows(&te, in, e) != 0))
		goto fail;
	if (apply_prep(s, prep, model ? model : "the model", tr, te, e))
		goto fail;
	*train = tr;
	*test = te;
	return 0;
fail:
	dataset_free(tr);
	dataset_free(te);
	return -1;
}

/* A copy of ds with the scale step of its record undone on x and y. */
static Dataset *raw_plane(const Dataset *ds, Err *e)
{
	Dataset *c = dataset_clone(ds, e);
	if (!c)
		return NULL;
	const Prep *p = ds->prep;
	for (int i = 0; p && i < c->n; i++)
		for (int k = 0; k < 2; k++)
			c->x[(size_t)i * 2 + k] =
			    (float)(c->x[(size_t)i * 2 + k] * p->sd[k] + p->mean[k]);
	prep_free(c->prep);
	c->prep = NULL;
	return c;
}

int datasets_plane_inputs(const Dataset *train, const Dataset *test, unsigned mask, Dataset **otr,
                          Dataset **ote, Err *e)
{
	*otr = *ote = NULL;
	const Prep *p = train->prep;
	if (train->d != 2 || test->d != 2 || (p && p->kind != PREP_FEATURES))
		return err_set(e,
		               "%s: x², y², xy, sin x and sin y are inputs of points of the plane "
		               "(2 features as given), not of %d features",
		               train->name, train->d);
	Dataset *tr = raw_plane(train, e), *te = tr ? raw_plane(test, e) : NULL;
	DataSpec s;
	dataspec_default(&s);
	s.scale = p ? p->scale : DATA_RAW;
	if (!te || plane_rows(&tr, mask, e) || plane_rows(&te, mask, e) ||
	    apply_prep(&s, NULL, NULL, tr, te, e)) {
		dataset_free(tr);
		dataset_free(te);
		return -1;
	}
	*otr = tr;
	*ote = te;
	return 0;
}

int datasets_load(const DataSpec *s, Dataset **train, Dataset **test, Err *e)
{
	return datasets_load_as(s, NULL, NULL, train, test, e);
}
