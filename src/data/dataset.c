/* dataset.c - in-memory labelled data sets: copies, subsets, stratified
 * splits, validation and the synthetic spiral set. */
#include "data/dataset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/rng.h"
#include "data/prep.h"

/* Seed of the fixed plane-to-d-features map of the synthetic set. */
#define SYNTH_MAP_SEED 0xc0ffee5eedULL

Dataset *dataset_new(int n, int d, int k, Err *e)
{
	if (n < 0 || d < 1 || k < 1) {
		err_set(e,
		        "a data set of %d rows, %d features and %d classes: expected n >= 0, "
		        "d >= 1, k >= 1",
		        n, d, k);
		return NULL;
	}
	Dataset *ds = calloc(1, sizeof *ds);
	if (!ds) {
		err_set(e, "out of memory for a data set");
		return NULL;
	}
	size_t nx = (size_t)n * (size_t)d;
	/* At least one element each, so an empty set still has valid pointers. */
	ds->x = calloc(nx ? nx : 1, sizeof *ds->x);
	ds->y = calloc(n ? (size_t)n : 1, sizeof *ds->y);
	if (!ds->x || !ds->y) {
		dataset_free(ds);
		err_set(e, "out of memory for a data set of %d rows × %d features", n, d);
		return NULL;
	}
	ds->n = n;
	ds->d = d;
	ds->k = k;
	return ds;
}

void dataset_free(Dataset *ds)
{
	if (!ds)
		return;
	free(ds->x);
	free(ds->y);
	prep_free(ds->prep);
	free(ds);
}

/* A copy of from's preprocessing record and image shape into to; -1 when
 * out of memory. */
static int copy_prep(Dataset *to, const Dataset *from, Err *e)
{
	to->c = from->c;
	to->h = from->h;
	to->w = from->w;
	if (!from->prep)
		return 0;
	to->prep = prep_clone(from->prep, e);
	return to->prep ? 0 : -1;
}

Dataset *dataset_clone(const Dataset *ds, Err *e)
{
	Dataset *c = dataset_new(ds->n, ds->d, ds->k, e);
	if (!c)
		return NULL;
	memcpy(c->x, ds->x, (size_t)ds->n * (size_t)ds->d * sizeof *c->x);
	memcpy(c->y, ds->y, (size_t)ds->n * sizeof *c->y);
	memcpy(c->name, ds->name, sizeof c->name);
	if (copy_prep(c, ds, e)) {
		dataset_free(c);
		return NULL;
	}
	return c;
}

Dataset *dataset_subset(const Dataset *ds, const int *idx, int n, Err *e)
{
	for (int i = 0; i < n; i++)
		if (idx[i] < 0 || idx[i] >= ds->n) {
			err_set(e, "%s: row %d of a subset is %d, outside 0..%d", ds->name, i,
			        idx[i], ds->n - 1);
			return NULL;
		}
	Dataset *s = dataset_new(n, ds->d, ds->k, e);
	if (!s)
		return NULL;
	size_t d = (size_t)ds->d;
	for (int i = 0; i < n; i++) {
		memcpy(s->x + (size_t)i * d, ds->x + (size_t)idx[i] * d, d * sizeof *s->x);
		s->y[i] = ds->y[idx[i]];
	}
	memcpy(s->name, ds->name, sizeof s->name);
	if (copy_prep(s, ds, e)) {
		dataset_free(s);
		return NULL;
	}
	return s;
}

Dataset *dataset_concat(const Dataset *a, const Dataset *b, Err *e)
{
	if (a->d != b->d || (long)a->n + b->n > 0x7fffffffL) {
		err_set(e, "%s (%d rows of %d features) and %s (%d rows of %d) cannot be joined",
		        a->name, a->n, a->d, b->name, b->n, b->d);
		return NULL;
	}
	Dataset *c = dataset_new(a->n + b->n, a->d, a->k > b->k ? a->k : b->k, e);
	if (!c)
		return NULL;
	size_t na = (size_t)a->n * (size_t)a->d;
	memcpy(c->x, a->x, na * sizeof *c->x);
	memcpy(c->x + na, b->x, (size_t)b->n * (size_t)b->d * sizeof *c->x);
	memcpy(c->y, a->y, (size_t)a->n * sizeof *c->y);
	memcpy(c->y + a->n, b->y, (size_t)b->n * sizeof *c->y);
	snprintf(c->name, sizeof c->name, "%.60s and %.60s", a->name, b->name);
	/* the images the rows are, when both say the same */
	if (a->c == b->c && a->h == b->h && a->w == b->w) {
		c->c = a->c;
		c->h = a->h;
		c->w = a->w;
	}
	if (copy_prep(c, a, e)) {
		dataset_free(c);
		return NULL;
	}
	return c;
}

Dataset *dataset_head(const Dataset *ds, int n, Err *e)
{
	int *seen = calloc((size_t)ds->k, sizeof *seen);
	int *idx = malloc((ds->n ? (size_t)ds->n : 1) * sizeof *idx);
	Dataset *h = NULL;
	if (seen && idx) {
		int m = 0;
		for (int i = 0; i < ds->n; i++) {
			int c = ds->y[i];
			if (c >= 0 && c < ds->k && seen[c] < n) {
				seen[c]++;
				idx[m++] = i;
			}
		}
		h = dataset_subset(ds, idx, m, e);
	} else {
		err_set(e, "out of memory");
	}
	free(seen);
	free(idx);
	return h;
}

void dataset_class_counts(const Dataset *ds, int *counts)
{
	memset(counts, 0, (size_t)ds->k * sizeof *counts);
	for (int i = 0; i < ds->n; i++)
		if (ds->y[i] >= 0 && ds->y[i] < ds->k)
			counts[ds->y[i]]++;
}

/* Names a derived set "<base> <suffix>", truncating the base to fit. */
static void name_part(Dataset *ds, const char *base, const char *suffix)
{
	int room = (int)sizeof ds->name - (int)strlen(suffix) - 2;
	snprintf(ds->name, sizeof ds->name, "%.*s %s", room, base[0] ? base : "data", suffix);
}

/*
 * Stratified split. For each class c with n_c rows the validation part takes
 *     v_c = per_class            (per_class > 0), or
 *     v_c = max(1, round(frac·n_c))   (0 < frac < 1),
 * rows chosen uniformly without replacement: the class's row indices are
 * shuffled by one generator seeded with seed, classes in order 0..k-1, and the
 * first v_c are marked. Both parts then take the rows in their original order.
 * Every class must keep at least one training row (a class absent from the
 * data is skipped when splitting by fraction).
 * Long on purpose: counting, drawing and copying are one sequence whose
 * steps share the class counts; split, they would pass them all around.
 */
int dataset_split(const Dataset *all, double frac, int per_class, uint64_t seed, Dataset **train,
                  Dataset **val, Err *e)
{
	const char *nm = all->name[0] ? all->name : "data set";
	*train = *val = NULL;
	if (per_class <= 0 && !(frac > 0 && frac < 1))
		return err_set(e,
		               "%s: split needs a per-class count > 0 or a fraction in (0, 1), "
		               "got %d and %g",
		               nm, per_class, frac);
	int k = all->k, n = all->n, rc = -1;
	int *counts = calloc((size_t)k, sizeof *counts);
	int *fill = calloc((size_t)k, sizeof *fill);
	int *start = calloc((size_t)k + 1, sizeof *start);
	int *order = malloc((n ? (size_t)n : 1) * sizeof *order);
	char *inval = calloc(n ? (size_t)n : 1, 1);
	int *ti = malloc((n ? (size_t)n : 1) * sizeof *ti);
	int *vi = malloc((n ? (size_t)n : 1) * sizeof *vi);
	if (!counts || !fill || !start || !order || !inval || !ti || !vi) {
		err_set(e, "%s: out of memory splitting %d rows", nm, n);
		goto done;
	}
	for (int i = 0; i < n; i++) {
		if (all->y[i] < 0 || all->y[i] >= k) {
			err_set(e, "%s: row %d has label %d, expected 0..%d", nm, i, all->y[i],
			        k - 1);
			goto done;
		}
		counts[all->y[i]]++;
	}
	for (int c = 0; c < k; c++)
		start[c + 1] = start[c] + counts[c];
	/* Bucket the rows by class, in original order. */
	memcpy(fill, start, (size_t)k * sizeof *fill);
	for (int i = 0; i < n; i++)
		order[fill[all->y[i]]++] = i;
	Rng rng;
	rng_seed(&rng, seed);
	for (int c = 0; c < k; c++) {
		int nc = counts[c], v;
		if (per_class > 0) {
			v = per_class;
			if (nc <= v) {
				err_set(e,
				        "%s: class %d has %d rows; %d validation rows per class "
				        "need at least %d",
				        nm, c, nc, v, v + 1);
				goto done;
			}
		} else {
			if (nc == 0)
				continue;
			v = (int)lround(frac * nc);
			if (v < 1)
				v = 1;
			if (v >= nc) {
				err_set(e,
				        "%s: class %d has %d rows, too few to hold out %g of them "
				        "and keep one for training",
				        nm, c, nc, frac);
				goto done;
			}
		}
		rng_shuffle(&rng, order + start[c], nc);
		for (int j = 0; j < v; j++)
			inval[order[start[c] + j]] = 1;
	}
	int nt = 0, nv = 0;
	for (int i = 0; i < n; i++) {
		if (inval[i])
			vi[nv++] = i;
		else
			ti[nt++] = i;
	}
	*train = dataset_subset(all, ti, nt, e);
	*val = dataset_subset(all, vi, nv, e);
	if (!*train || !*val) {
		dataset_free(*train);
		dataset_free(*val);
		*train = *val = NULL;
		err_set(e, "%s: out of memory splitting %d rows", nm, n);
		goto done;
	}
	name_part(*train, all->name, "(training part)");
	name_part(*val, all->name, "(validation part)");
	rc = 0;
done:
	free(counts);
	free(fill);
	free(start);
	free(order);
	free(inval);
	free(ti);
	free(vi);
	return rc;
}

int dataset_validate(const Dataset *ds, const char *what, Err *e)
{
	if (!what)
		what = ds->name[0] ? ds->name : "data set";
	if (ds->n < 0 || ds->d < 1 || ds->k < 1)
		return err_set(e, "%s: bad shape %d rows × %d features, %d classes", what, ds->n,
		               ds->d, ds->k);
	for (int i = 0; i < ds->n; i++) {
		const float *row = ds->x + (size_t)i * (size_t)ds->d;
		for (int j = 0; j < ds->d; j++)
			if (!isfinite(row[j]))
				return err_set(e, "%s: row %d, feature %d (counting from 0) is %s",
				               what, i, j, isnan(row[j]) ? "NaN" : "infinite");
		if (ds->y[i] < 0 || ds->y[i] >= ds->k)
			return err_set(e,
			               "%s: row %d (counting from 0) has label %d, expected 0..%d",
			               what, i, ds->y[i], ds->k - 1);
	}
	return 0;
}

/*
 * Spiral arms. Class c, parameter t ~ U[0,1):
 *     r = 0.2 + 0.8 t,   θ = 2πc/k + 2.5 t + 0.08 ε,   p = (r cos θ, r sin θ),
 * ε ~ N(0,1). The plane is lifted to d features by x = A p + 0.05 η, where A
 * (d×2, entries N(0,1)) is fixed for every seed, so sets drawn with different
 * seeds share one distribution. Row i belongs to class i mod k.
 */
Dataset *dataset_synthetic(int n_per_class, int k, int d, uint64_t seed, Err *e)
{
	if (n_per_class < 0 || k < 1 || d < 2 || (long long)n_per_class * k > 0x7fffffffLL) {
		err_set(e,
		        "synthetic set of %d rows per class, %d classes, %d features: expected "
		        "k >= 1, d >= 2 and fewer than 2^31 rows",
		        n_per_class, k, d);
		return NULL;
	}
	Dataset *ds = dataset_new(n_per_class * k, d, k, e);
	double *A = malloc((size_t)d * 2 * sizeof *A);
	if (!ds || !A) {
		if (ds)
			err_set(e, "out of memory");
		dataset_free(ds);
		free(A);
		return NULL;
	}
	Rng rng;
	rng_seed(&rng, SYNTH_MAP_SEED + (uint64_t)d);
	for (int j = 0; j < 2 * d; j++)
		A[j] = rng_normal(&rng);
	rng_seed(&rng, seed);
	for (int i = 0; i < ds->n; i++) {
		int c = i % k;
		double t = rng_uniform(&rng);
		double r = 0.2 + 0.8 * t;
		double th = 2.0 * M_PI * c / k + 2.5 * t + 0.08 * rng_normal(&rng);
		double p0 = r * cos(th), p1 = r * sin(th);
		float *row = ds->x + (size_t)i * (size_t)d;
		for (int j = 0; j < d; j++)
			row[j] =
			    (float)(A[2 * j] * p0 + A[2 * j + 1] * p1 + 0.05 * rng_normal(&rng));
		ds->y[i] = c;
	}
	free(A);
	snprintf(ds->name, sizeof ds->name,
	         "synthetic spirals (%d classes, %d features, seed %llu)", k, d,
	         (unsigned long long)seed);
	return ds;
}

void dataset_feature_stats(const Dataset *ds, int divide, double *mu, double *sd)
{
	int d = ds->d;
	for (int j = 0; j < d; j++)
		mu[j] = sd[j] = 0;
	for (long i = 0; i < ds->n; i++)
		for (int j = 0; j < d; j++)
			mu[j] += ds->x[i * d + j];
	for (int j = 0; j < d; j++)
		mu[j] /= ds->n > 0 ? ds->n : 1;
	for (long i = 0; i < ds->n; i++)
		for (int j = 0; j < d; j++) {
			double v = ds->x[i * d + j] - mu[j];
			sd[j] += v * v;
		}
	for (int j = 0; j < d; j++) {
		sd[j] = sqrt(sd[j] / (ds->n > 0 ? ds->n : 1));
		if (!divide || sd[j] == 0)
			sd[j] = 1;
	}
}

void dataset_apply_scale(Dataset *ds, const double *mu, const double *sd)
{
	int d = ds->d;
	for (long i = 0; i < ds->n; i++)
		for (int j = 0; j < d; j++)
			ds->x[i * d + j] = (float)((ds->x[i * d + j] - mu[j]) / sd[j]);
}

void dataset_standardize(Dataset *train, Dataset *test, int divide)
{
	int d = train->d;
	double *mu = calloc((size_t)d, sizeof *mu), *sd = calloc((size_t)d, sizeof *sd);
	if (!mu || !sd) {
		free(mu);
		free(sd);
		return;
	}
	dataset_feature_stats(train, divide, mu, sd);
	dataset_apply_scale(train, mu, sd);
	if (test)
		dataset_apply_scale(test, mu, sd);
	free(mu);
	free(sd);
}

uint32_t dataset_crc(const Dataset *ds)
{
	int32_t head[3] = {ds->n, ds->d, ds->k};
	uLong c = crc32_z(0L, Z_NULL, 0);
	c = crc32_z(c, (const Bytef *)head, sizeof head);
	c = crc32_z(c, (const Bytef *)ds->x, (size_t)ds->n * (size_t)ds->d * sizeof *ds->x);
	for (int i = 0; i < ds->n; i++) {
		int32_t y = ds->y[i];
		c = crc32_z(c, (const Bytef *)&y, sizeof y);
	}
	return (uint32_t)c;
}
