/* prep_text.c - the preprocessing record as one line of text. */
#include "data/prep_text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *prep_to_text(const Prep *p, Err *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) {
		err_set(e, "out of memory");
		return NULL;
	}
	fprintf(f, "kind=%s d=%d scale=%s", prep_kind_name(p->kind), p->d,
	        prep_scale_name(p->scale));
	if (p->kind == PREP_HAAR || p->kind == PREP_PIXELS)
		fprintf(f, " rows=%d cols=%d", p->rows, p->cols);
	if (p->kind == PREP_HAAR) {
		fprintf(f, " n=%d idx=", p->n);
		for (int j = 0; j < p->d; j++)
			fprintf(f, "%s%d", j ? "," : "", p->idx[j]);
	}
	if (p->scale != DATA_RAW) {
		for (int k = 0; k < 2; k++) {
			fputs(k ? " sd=" : " mean=", f);
			for (int j = 0; j < p->d; j++)
				fprintf(f, "%s%.17g", j ? "," : "", k ? p->sd[j] : p->mean[j]);
		}
	}
	if (fclose(f) != 0 || !buf) {
		free(buf);
		err_set(e, "out of memory");
		return NULL;
	}
	return buf;
}

/* The value of key in s ("key=value", up to a space), its length in *n;
 * NULL when absent. */
static const char *value_of(const char *s, const char *key, size_t *n)
{
	size_t k = strlen(key);
	for (const char *p = s; *p; p += strcspn(p, " "), p += strspn(p, " "))
		if (!strncmp(p, key, k) && p[k] == '=') {
			*n = strcspn(p + k + 1, " ");
			return p + k + 1;
		}
	return NULL;
}

static int int_of(const char *s, const char *key, int *out, Err *e)
{
	size_t n;
	const char *v = value_of(s, key, &n);
	char *end;
	errno = 0;
	long x = v ? strtol(v, &end, 10) : 0;
	if (!v || end != v + n || n == 0 || errno || x < 0 || x > 1 << 30)
		return err_set(e, "the preprocessing record: %s is missing or not a count", key);
	*out = (int)x;
	return 0;
}

/* The d comma-separated numbers of key into out (ints when iout). */
static int list_of(const char *s, const char *key, int d, double *out, int *iout, Err *e)
{
	size_t n;
	const char *v = value_of(s, key, &n), *p = v;
	for (int j = 0; v && j < d; j++) {
		char *end;
		errno = 0;
		double x = iout ? (double)strtol(p, &end, 10) : strtod(p, &end);
		if (end == p || errno || (*end != ',' && end != v + n) ||
		    (j < d - 1) != (*end == ','))
			return err_set(
			    e, "the preprocessing record: %s value %d of %d is not a number", key,
			    j + 1, d);
		if (iout)
			iout[j] = (int)x;
		else
			out[j] = x;
		p = end + 1;
	}
	return v ? 0 : err_set(e, "the preprocessing record: %s is missing", key);
}

/* A known name of kind or scale: its number, or -1. */
static int named(const char *s, const char *key, int count, const char *(*name)(int))
{
	size_t n;
	const char *v = value_of(s, key, &n);
	for (int k = 0; v && k < count; k++)
		if (strlen(name(k)) == n && !strncmp(v, name(k), n))
			return k;
	return -1;
}

static const char *kind_name(int k)
{
	return prep_kind_name((PrepKind)k);
}

/* The Haar sizes and coefficients of r, as a model file's are checked. */
static int check_haar(const Prep *r, Err *e)
{
	int n = r->n;
	if (n < 1 || n > PREP_MAX_HAAR || (n & (n - 1)) || r->rows < 1 || r->rows > n ||
	    r->cols < 1 || r->cols > n || (long)r->d > (long)n * n)
		return err_set(e,
		               "the preprocessing record: Haar sizes %d×%d, transform %d, are "
		               "not valid",
		               r->rows, r->cols, n);
	char *seen = calloc((size_t)n * n, 1);
	if (!seen)
		return err_set(e, "out of memory");
	int rc = 0;
	for (int j = 0; j < r->d && rc == 0; j++) {
		if (r->idx[j] < 0 || r->idx[j] >= n * n || seen[r->idx[j]])
			rc =
			    err_set(e,
			            "the preprocessing record: Haar coefficient %d is %d, expected "
			            "distinct values below %d",
			            j, r->idx[j], n * n);
		else
			seen[r->idx[j]] = 1;
	}
	free(seen);
	return rc;
}

Prep *prep_from_text(const char *s, int d, Err *e)
{
	int kind = named(s, "kind", PREP_KINDS, kind_name);
	int scale = named(s, "scale", DATA_SCALES, prep_scale_name);
	int rd;
	if (kind <= PREP_NONE || scale < 0) {
		err_set(e, "the preprocessing record: unknown kind or scale step in '%.60s'", s);
		return NULL;
	}
	if (int_of(s, "d", &rd, e))
		return NULL;
	if (rd != d) {
		err_set(e, "the preprocessing record is of %d inputs, the network has %d", rd, d);
		return NULL;
	}
	Prep *r = prep_new((PrepKind)kind, d, e);
	if (!r)
		return NULL;
	r->scale = scale;
	int bad = 0;
	if (kind == PREP_HAAR || kind == PREP_PIXELS)
		bad = int_of(s, "rows", &r->rows, e) || int_of(s, "cols", &r->cols, e);
	if (!bad && kind == PREP_PIXELS && (long)r->rows * r->cols != d)
		bad = err_set(e, "the preprocessing record: images of %d×%d are not %d pixels",
		              r->rows, r->cols, d);
	if (!bad && kind == PREP_HAAR)
		bad = int_of(s, "n", &r->n, e) || list_of(s, "idx", d, NULL, r->idx, e) ||
		      check_haar(r, e);
	if (!bad && scale != DATA_RAW)
		bad =
		    list_of(s, "mean", d, r->mean, NULL, e) || list_of(s, "sd", d, r->sd, NULL, e);
	for (int j = 0; !bad && j < d; j++) {
		int ok = scale == DATA_RAW ? 1
		         : scale == DATA_CENTER
		             ? isfinite(r->mean[j]) && r->sd[j] == 1
		             : isfinite(r->mean[j]) && isfinite(r->sd[j]) && r->sd[j] > 0;
		if (!ok)
			bad = err_set(e,
			              "the preprocessing record: feature %d's mean %g and scale %g "
			              "do not fit the scale step '%s'",
			              j, r->mean[j], r->sd[j], prep_scale_name(scale));
	}
	if (bad) {
		prep_free(r);
		return NULL;
	}
	return r;
}
