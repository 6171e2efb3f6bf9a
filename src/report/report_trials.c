/* report_trials.c - Algorithm 2's trials as files: one trial's result as
 * JSON, read back. */
#include "report/report_trials.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "report/report_rec.h"

#define JSON_MAX_BYTES (1 << 20)

/* cJSON prints 15 digits when they come close, which can lose the last bit;
 * a gathered trial must give the same means as the in-process one, so write
 * the shortest of 15 or 17 digits that reads back exactly. */
static int add_exact(cJSON *obj, const char *name, double v)
{
	char buf[40];
	if (!isfinite(v))
		return json_add(obj, name, cJSON_CreateNull(), NULL);
	snprintf(buf, sizeof buf, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof buf, "%.17g", v);
	return json_add(obj, name, cJSON_CreateRaw(buf), NULL);
}

int report_trial_write(const char *path, const Alg2Trial *t, const int *widths, int m,
                       const Alg2Settings *st, Err *e)
{
	if (!path || !t || !widths || m < 1 || !st)
		return err_set(e,
		               "trial JSON: expected a path, a trial, m >= 1 widths and settings");
	cJSON *root = cJSON_CreateObject(), *set = NULL;
	int bad = !root || add_exact(root, "beta", t->beta) ||
	          json_add(root, "trial", cJSON_CreateNumber(t->trial), NULL) ||
	          add_exact(root, "err_tr", t->err_tr) || add_exact(root, "err_v", t->err_v) ||
	          add_exact(root, "max_kappa", t->max_kappa) ||
	          add_exact(root, "seconds", t->seconds) ||
	          json_add(root, "widths", cJSON_CreateIntArray(widths, m + 1), NULL) ||
	          json_add(root, "settings", set = cJSON_CreateObject(), NULL);
	for (int i = 0; !bad && i < st->n; i++)
		bad = json_add(set, st->f[i].key, cJSON_CreateString(st->f[i].value), NULL);
	char *s = bad ? NULL : cJSON_Print(root);
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
static int read_num(const cJSON *root, const char *path, const char *name, double lo, double hi,
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

/* One trial file back: its trial, widths and settings (st may be NULL). */
static int trial_read(const char *path, Alg2Trial *t, int **widths, int *m, Alg2Settings *st,
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
	else if (read_num(root, path, "beta", 1e-12, 1e6, 0, 0, &r.beta, e) < 0 ||
	         read_num(root, path, "trial", 0, 1e6, 1, 0, &trial, e) < 0 ||
	         read_num(root, path, "err_tr", 0, 1, 0, 0, &r.err_tr, e) < 0 ||
	         read_num(root, path, "err_v", 0, 1, 0, 0, &r.err_v, e) < 0 ||
	         read_num(root, path, "max_kappa", 1, HUGE_VAL, 0, 1, &r.max_kappa, e) < 0 ||
	         read_num(root, path, "seconds", 0, HUGE_VAL, 0, 0, &r.seconds, e) < 0)
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

Alg2TrialFile *report_trials_read(char **paths, int n, Err *e)
{
	Alg2TrialFile *f = calloc((size_t)(n > 0 ? n : 1), sizeof *f);
	if (!f) {
		err_set(e, "out of memory");
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		f[i].name = paths[i];
		if (trial_read(paths[i], &f[i].t, &f[i].widths, &f[i].m, &f[i].st, e) < 0) {
			alg2_trial_files_free(f, i);
			return NULL;
		}
	}
	return f;
}
