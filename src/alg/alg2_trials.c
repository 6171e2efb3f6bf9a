/* alg2_trials.c - a sweep gathered from trials run apart, as separate
 * processes (`condnet sweep --gather`; report/report_trials.c reads their
 * files). */
#include "alg/alg2_trials.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/repro.h"
#include "engine/act.h"
#include "engine/train.h"

/* What each setting is called in messages: the option that sets it. */
static const struct {
	const char *key, *what;
} setting_names[] = {
    {"seed", "--seed"},
    {"eta", "--eta"},
    {"act", "--act"},
    {"act_scale", "--act-scale"},
    {"batch", "--batch"},
    {"lr", "--lr"},
    {"parts", "the parts a batch is split into (--threads)"},
    {"reproducible", "the reproducible mode"},
    {"data", "the data set (--data and its options)"},
    {"data_rows", "the data's rows"},
    {"data_crc", "the data's numbers (their CRC-32)"},
};

static const char *setting_what(const char *key)
{
	for (size_t i = 0; i < sizeof setting_names / sizeof *setting_names; i++)
		if (!strcmp(setting_names[i].key, key))
			return setting_names[i].what;
	return key;
}

static void put(Alg2Settings *st, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void put(Alg2Settings *st, const char *key, const char *fmt, ...)
{
	if (st->n == ALG2_SETTINGS_MAX)
		return;
	va_list ap;
	snprintf(st->f[st->n].key, sizeof st->f[st->n].key, "%s", key);
	va_start(ap, fmt);
	vsnprintf(st->f[st->n].value, sizeof st->f[st->n].value, fmt, ap);
	va_end(ap);
	st->n++;
}

/* The digits of v that read back to the same bits. */
static const char *exact(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, len, "%.17g", v);
	return buf;
}

void alg2_settings(Alg2Settings *st, const Alg2Opts *o, const Net *base, const Dataset *all,
                   const char *data)
{
	char num[40];
	memset(st, 0, sizeof *st);
	put(st, "seed", "%llu", (unsigned long long)o->seed);
	put(st, "eta", "%s", exact(o->eta, num, sizeof num));
	put(st, "act", "%s", act_name(base->act));
	put(st, "act_scale", "%s", exact((double)base->act_a, num, sizeof num));
	put(st, "batch", "%d", o->train.batch);
	put(st, "lr", "%s", exact((double)o->train.adam.lr, num, sizeof num));
	put(st, "parts", "%d", repro_parts(train_threads(&o->train)));
	put(st, "reproducible", "%s", repro_on() ? "on" : "off");
	put(st, "data", "%s", data ? data : "");
	if (all) {
		put(st, "data_rows", "%d rows of %d features, %d classes", all->n, all->d, all->k);
		put(st, "data_crc", "%08x", (unsigned)dataset_crc(all));
	}
}

/* The value of key in st, or NULL. */
static const char *setting(const Alg2Settings *st, const char *key)
{
	for (int i = 0; i < st->n; i++)
		if (!strcmp(st->f[i].key, key))
			return st->f[i].value;
	return NULL;
}

void alg2_trial_files_free(Alg2TrialFile *f, int n)
{
	for (int i = 0; f && i < n; i++)
		free(f[i].widths);
	free(f);
}

/* A trial file, and whether the gather has placed it. */
typedef struct TrialFile {
	Alg2Trial t;
	const char *name;
	int used;
} TrialFile;

/* The trial file's settings against those of the gather (want) and of the
 * first file: the first setting that differs is named. */
static int same_settings(const char *file, const Alg2Settings *got, const Alg2Settings *want,
                         const char *first, const Alg2Settings *first_st, Err *e)
{
	if (got->n < 0)
		return err_set(e,
		               "%s: no record of the settings the trial was made under (a file "
		               "written by an older condnet): run the trial again",
		               file);
	for (int pass = 0; pass < 2; pass++) {
		const Alg2Settings *ref = pass == 0 ? want : first_st;
		if (!ref)
			continue;
		for (int i = 0; i < ref->n; i++) {
			const char *k = ref->f[i].key, *v = setting(got, k);
			if (v && !strcmp(v, ref->f[i].value))
				continue;
			if (pass == 0)
				return err_set(
				    e,
				    "%s: made with %s '%s', but this gather has '%s': trials "
				    "of other settings are not compared",
				    file, setting_what(k), v ? v : "(none)", ref->f[i].value);
			return err_set(
			    e,
			    "%s: made with %s '%s', but %s with '%s': a mix of settings, "
			    "whose trials are not compared",
			    file, setting_what(k), v ? v : "(none)", first, ref->f[i].value);
		}
	}
	return 0;
}

/* The trials of the files, checking that the widths of each are the base
 * network's scaled by its β and that it was made under the settings st
 * (and those of the first). */
static TrialFile *check_files(const Net *base, const Alg2TrialFile *files, int nfiles,
                              const Alg2Settings *st, Err *e)
{
	int m = base->m;
	TrialFile *tf = calloc((size_t)nfiles, sizeof *tf);
	int *want = malloc((size_t)(m + 1) * sizeof *want);
	int rc = tf && want ? 0 : err_set(e, "out of memory");
	for (int f = 0; f < nfiles && !rc; f++) {
		const Alg2TrialFile *x = &files[f];
		tf[f].t = x->t;
		tf[f].name = x->name;
		if (same_settings(x->name, &x->st, st, files[0].name, f ? &files[0].st : NULL, e) <
		    0) {
			rc = -1;
			break;
		}
		alg2_scaled_widths(base, x->t.beta, want);
		if (x->m != m || memcmp(x->widths, want, (size_t)(m + 1) * sizeof *want))
			rc = err_set(e,
			             "%s: beta %g: its widths are not the base network's scaled "
			             "by beta (another base network?)",
			             x->name, x->t.beta);
	}
	free(want);
	if (rc) {
		free(tf);
		return NULL;
	}
	return tf;
}

/* Records the files of β index i; the number found into *found, and an
 * error naming the first missing trial unless all were found (or none, when
 * none_ok). */
static int gather_beta(Alg2 *a, int i, TrialFile *tf, int nfiles, int none_ok, int *found, Err *e)
{
	int q = a->o.q;
	unsigned char *seen = calloc((size_t)q, 1);
	if (!seen)
		return err_set(e, "out of memory");
	*found = 0;
	int rc = 0;
	for (int f = 0; f < nfiles && !rc; f++) {
		if (tf[f].used || fabs(tf[f].t.beta - a->b[i].beta) > 1e-9)
			continue;
		if (alg2_add_trial(a, &tf[f].t, e) < 0) {
			rc = err_prefix(e, "%s", tf[f].name);
			break;
		}
		tf[f].used = 1;
		seen[tf[f].t.trial] = 1;
		(*found)++;
	}
	for (int t = 0; !rc && !(none_ok && *found == 0) && t < q; t++)
		if (!seen[t])
			rc = err_set(e,
			             "beta %g, trial %d is missing (%d of %d trials found; "
			             "'condnet sweep --beta %g --trial %d --out FILE' runs it)",
			             a->b[i].beta, t, *found, q, a->b[i].beta, t);
	free(seen);
	return rc;
}

/* The β values of the trial files, for --gather without --beta. */
static int betas_of_files(Alg2Opts *o, const TrialFile *tf, int nfiles, Err *e)
{
	o->nbeta = 0;
	for (int f = 0; f < nfiles; f++) {
		int i = 0;
		while (i < o->nbeta && fabs(o->betas[i] - tf[f].t.beta) > 1e-9)
			i++;
		if (i == o->nbeta) {
			if (o->nbeta == 64)
				return err_set(e, "more than 64 beta values among the trial files");
			o->betas[o->nbeta++] = tf[f].t.beta;
		}
	}
	return 0;
}

/* The listed β first, each complete; then, as alg2_step would, the β
 * Algorithm 2 adds beyond an edge, until one has no files (*next_beta) or
 * the sweep is finished. */
static int gather(Alg2 *a, TrialFile *tf, int nfiles, double *next_beta, Err *e)
{
	int found = 0;
	for (int i = 0; i < a->nb; i++)
		if (gather_beta(a, i, tf, nfiles, 0, &found, e) < 0)
			return -1;
	/* every listed trial is in: a step settles, adding a β or finishing */
	for (;;) {
		if (alg2_step(a, NULL, e) != 0)
			return -1;
		if (a->finished)
			break;
		if (gather_beta(a, a->next, tf, nfiles, 1, &found, e) < 0)
			return -1;
		if (!found) {
			*next_beta = a->b[a->next].beta;
			break;
		}
	}
	for (int f = 0; f < nfiles; f++)
		if (!tf[f].used)
			return err_set(e,
			               "%s: beta %g is not among the sweep's (%g .. %g) nor "
			               "one Algorithm 2 adds beyond its edges",
			               tf[f].name, tf[f].t.beta, a->b[0].beta,
			               a->b[a->nb - 1].beta);
	return 0;
}

Alg2 *alg2_gather(const Net *base, const Alg2Opts *o, int betas_given, const Alg2TrialFile *files,
                  int nfiles, const Alg2Settings *st, double *next_beta, Err *e)
{
	*next_beta = NAN;
	if (nfiles < 1) {
		err_set(e, "no trial files to gather");
		return NULL;
	}
	TrialFile *tf = check_files(base, files, nfiles, st, e);
	if (!tf)
		return NULL;
	Alg2Opts go = *o;
	Alg2 *a = NULL;
	if (betas_given || betas_of_files(&go, tf, nfiles, e) == 0)
		a = alg2_new(base, NULL, NULL, &go, e);
	if (a && gather(a, tf, nfiles, next_beta, e)) {
		alg2_free(a);
		a = NULL;
	}
	free(tf);
	return a;
}
