/* alg2_trials.c - Algorithm 2's trials as files: one trial's result as
 * JSON (`condnet sweep --beta B --trial T --out FILE`), read back, and a
 * sweep gathered from such files. */
#include "alg/alg2_trials.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "base/file.h"
#include "base/repro.h"
#include "engine/act.h"
#include "engine/train.h"

#define JSON_MAX_BYTES (1 << 20)

/* cJSON prints 15 digits when they come close, which can lose the last bit;
 * a gathered trial must give the same means as the in-process one, so write
 * the shortest of 15 or 17 digits that reads back exactly. */
static cJSON *add_exact(cJSON *obj, const char *name, double v)
{
	char buf[40];
	if (!isfinite(v))
		return cJSON_AddNullToObject(obj, name);
	snprintf(buf, sizeof buf, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof buf, "%.17g", v);
	return cJSON_AddRawToObject(obj, name, buf);
}

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

int alg2_trial_write_json(const char *path, const Alg2Trial *t, const int *widths, int m,
                          const Alg2Settings *st, Err *e)
{
	if (!path || !t || !widths || m < 1 || !st)
		return err_set(e,
		               "trial JSON: expected a path, a trial, m >= 1 widths and settings");
	cJSON *root = cJSON_CreateObject();
	int ok = root && add_exact(root, "beta", t->beta) &&
	         cJSON_AddNumberToObject(root, "trial", t->trial) &&
	         add_exact(root, "err_tr", t->err_tr) && add_exact(root, "err_v", t->err_v) &&
	         add_exact(root, "max_kappa", t->max_kappa) &&
	         add_exact(root, "seconds", t->seconds);
	cJSON *w = ok ? cJSON_CreateIntArray(widths, m + 1) : NULL;
	if (w)
		cJSON_AddItemToObject(root, "widths", w);
	cJSON *set = w ? cJSON_AddObjectToObject(root, "settings") : NULL;
	for (int i = 0; set && i < st->n; i++)
		if (!cJSON_AddStringToObject(set, st->f[i].key, st->f[i].value))
			set = NULL;
	char *s = set ? cJSON_Print(root) : NULL;
	cJSON_Delete(root);
	if (!s)
		return err_set(e, "%s: out of memory building the trial JSON", path);
	size_t len = strlen(s);
	char *buf = malloc(len + 2);
	if (!buf) {
		cJSON_free(s);
		return err_set(e, "%s: out of memory building the trial JSON", path);
	}
	memcpy(buf, s, len);
	buf[len] = '\n';
	cJSON_free(s);
	int rc = file_write(path, buf, len + 1, FILE_OUT_TEXT, e);
	free(buf);
	return rc;
}

/* A number field within [lo, hi] (integral if asked), or null when allowed. */
static int json_num(const cJSON *root, const char *path, const char *name, double lo, double hi,
                    int integral, int null_ok, double *v, Err *e)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(root, name);
	if (!it)
		return err_set(e, "%s: missing field \"%s\"", path, name);
	if (null_ok && cJSON_IsNull(it)) {
		*v = INFINITY;
		return 0;
	}
	if (!cJSON_IsNumber(it))
		return err_set(e, "%s: field \"%s\": expected a number", path, name);
	double x = it->valuedouble;
	if (!(x >= lo && x <= hi) || (integral && x != floor(x)))
		return err_set(e, "%s: field \"%s\" = %g, expected %s in [%g, %g]", path, name, x,
		               integral ? "an integer" : "a number", lo, hi);
	*v = x;
	return 0;
}

/* The "settings" object of a trial file into st (n = -1 without one). */
static int read_settings(const cJSON *root, const char *path, Alg2Settings *st, Err *e)
{
	memset(st, 0, sizeof *st);
	const cJSON *set = cJSON_GetObjectItemCaseSensitive(root, "settings");
	if (!set) {
		st->n = -1;
		return 0;
	}
	if (!cJSON_IsObject(set))
		return err_set(e, "%s: field \"settings\": expected an object of strings", path);
	const cJSON *it;
	cJSON_ArrayForEach(it, set)
	{
		if (st->n == ALG2_SETTINGS_MAX)
			return err_set(e, "%s: field \"settings\": more than %d settings", path,
			               ALG2_SETTINGS_MAX);
		if (!cJSON_IsString(it) || !it->string ||
		    strlen(it->string) >= sizeof st->f[0].key ||
		    strlen(it->valuestring) >= sizeof st->f[0].value)
			return err_set(
			    e, "%s: field \"settings\": expected short strings, found \"%.40s\"",
			    path, it->string ? it->string : "");
		snprintf(st->f[st->n].key, sizeof st->f[0].key, "%s", it->string);
		snprintf(st->f[st->n].value, sizeof st->f[0].value, "%s", it->valuestring);
		st->n++;
	}
	return 0;
}

int alg2_trial_read_json(const char *path, Alg2Trial *t, int **widths, int *m, Alg2Settings *st,
                         Err *e)
{
	if (!path || !t || !widths || !m)
		return err_set(e, "trial JSON: expected a path and outputs");
	size_t len;
	char *buf = file_slurp(path, JSON_MAX_BYTES, &len, e);
	if (!buf)
		return -1;
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
	if (!root) {
		size_t off = end && end >= buf && end <= buf + len ? (size_t)(end - buf) : 0;
		int line = 1, col = 1;
		for (size_t i = 0; i < off; i++, col++)
			if (buf[i] == '\n')
				line++, col = 0;
		free(buf);
		return err_set(e, "%s: line %d, column %d: malformed JSON", path, line, col);
	}
	while (end && end < buf + len && *end && strchr(" \t\r\n", *end))
		end++;
	int trailing = end && end < buf + len;
	free(buf);
	Alg2Trial r;
	memset(&r, 0, sizeof r);
	double trial = 0;
	int rc = 0;
	if (trailing)
		rc = err_set(e, "%s: unexpected text after the JSON object", path);
	else if (!cJSON_IsObject(root))
		rc = err_set(e, "%s: expected a JSON object with the fields of a trial", path);
	else if (json_num(root, path, "beta", 1e-12, 1e6, 0, 0, &r.beta, e) < 0 ||
	         json_num(root, path, "trial", 0, 1e6, 1, 0, &trial, e) < 0 ||
	         json_num(root, path, "err_tr", 0, 1, 0, 0, &r.err_tr, e) < 0 ||
	         json_num(root, path, "err_v", 0, 1, 0, 0, &r.err_v, e) < 0 ||
	         json_num(root, path, "max_kappa", 1, HUGE_VAL, 0, 1, &r.max_kappa, e) < 0 ||
	         json_num(root, path, "seconds", 0, HUGE_VAL, 0, 0, &r.seconds, e) < 0)
		rc = -1;
	Alg2Settings own;
	if (rc == 0 && read_settings(root, path, st ? st : &own, e) < 0)
		rc = -1;
	const cJSON *w = rc == 0 ? cJSON_GetObjectItemCaseSensitive(root, "widths") : NULL;
	int nw = cJSON_IsArray(w) ? cJSON_GetArraySize(w) : 0;
	if (rc == 0 && !cJSON_IsArray(w))
		rc = err_set(e, "%s: field \"widths\": expected an array of layer widths", path);
	else if (rc == 0 && (nw < 2 || nw > 100001))
		rc = err_set(e, "%s: field \"widths\": %d entries, expected 2 or more", path, nw);
	int *out = NULL;
	if (rc == 0 && !(out = malloc((size_t)nw * sizeof *out)))
		rc = err_set(e, "%s: out of memory", path);
	for (int i = 0; rc == 0 && i < nw; i++) {
		const cJSON *it = cJSON_GetArrayItem(w, i);
		double x = cJSON_IsNumber(it) ? it->valuedouble : -1;
		if (!(x >= 1 && x <= 1e9) || x != floor(x))
			rc = err_set(e,
			             "%s: field \"widths\", entry %d: expected a positive "
			             "integer",
			             path, i);
		else
			out[i] = (int)x;
	}
	cJSON_Delete(root);
	if (rc < 0) {
		free(out);
		return -1;
	}
	r.trial = (int)trial;
	*t = r;
	*widths = out;
	*m = nw - 1;
	return 0;
}

/* A trial file read back, and whether the gather has placed it. */
typedef struct TrialFile {
	Alg2Trial t;
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

/* Reads every trial file, checking that its widths are the base network's
 * scaled by its β and that it was made under the settings st (and those of
 * the first file). */
static TrialFile *read_files(const Net *base, char **files, int nfiles, const Alg2Settings *st,
                             Err *e)
{
	int m = base->m;
	TrialFile *tf = calloc((size_t)nfiles, sizeof *tf);
	int *want = malloc((size_t)(m + 1) * sizeof *want);
	Alg2Settings *got = calloc(2, sizeof *got); /* this file's, the first's */
	int rc = tf && want && got ? 0 : err_set(e, "out of memory");
	for (int f = 0; f < nfiles && !rc; f++) {
		int *w = NULL, wm = 0;
		Alg2Settings *mine = f == 0 ? &got[1] : &got[0];
		if (alg2_trial_read_json(files[f], &tf[f].t, &w, &wm, mine, e) < 0 ||
		    same_settings(files[f], mine, st, files[0], f == 0 ? NULL : &got[1], e) < 0) {
			free(w);
			rc = -1;
			break;
		}
		alg2_scaled_widths(base, tf[f].t.beta, want);
		if (wm != m || memcmp(w, want, (size_t)(m + 1) * sizeof *w))
			rc = err_set(e,
			             "%s: beta %g: its widths are not the base network's scaled "
			             "by beta (another base network?)",
			             files[f], tf[f].t.beta);
		free(w);
	}
	free(want);
	free(got);
	if (rc) {
		free(tf);
		return NULL;
	}
	return tf;
}

/* Records the files of β index i; the number found into *found, and an
 * error naming the first missing trial unless all were found (or none, when
 * none_ok). */
static int gather_beta(Alg2 *a, int i, TrialFile *tf, char **files, int nfiles, int none_ok,
                       int *found, Err *e)
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
			rc = err_prefix(e, "%s", files[f]);
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
static int gather(Alg2 *a, TrialFile *tf, char **files, int nfiles, double *next_beta, Err *e)
{
	int found = 0;
	for (int i = 0; i < a->nb; i++)
		if (gather_beta(a, i, tf, files, nfiles, 0, &found, e) < 0)
			return -1;
	int st;
	while ((st = alg2_step(a, NULL, e)) == 0) {
		if (gather_beta(a, a->next, tf, files, nfiles, 1, &found, e) < 0)
			return -1;
		if (!found) {
			*next_beta = a->b[a->next].beta;
			break;
		}
	}
	if (st < 0)
		return -1;
	for (int f = 0; f < nfiles; f++)
		if (!tf[f].used)
			return err_set(e,
			               "%s: beta %g is not among the sweep's (%g .. %g) nor "
			               "one Algorithm 2 adds beyond its edges",
			               files[f], tf[f].t.beta, a->b[0].beta, a->b[a->nb - 1].beta);
	return 0;
}

Alg2 *alg2_gather(const Net *base, const Alg2Opts *o, int betas_given, char **files, int nfiles,
                  const Alg2Settings *st, double *next_beta, Err *e)
{
	*next_beta = NAN;
	if (nfiles < 1) {
		err_set(e, "no trial files to gather");
		return NULL;
	}
	TrialFile *tf = read_files(base, files, nfiles, st, e);
	if (!tf)
		return NULL;
	Alg2Opts go = *o;
	Alg2 *a = NULL;
	if (betas_given || betas_of_files(&go, tf, nfiles, e) == 0)
		a = alg2_new(base, NULL, NULL, &go, e);
	if (a && gather(a, tf, files, nfiles, next_beta, e)) {
		alg2_free(a);
		a = NULL;
	}
	free(tf);
	return a;
}
