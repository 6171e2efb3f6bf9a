/* paper_settings.c - the settings a stage file records, and the check that
 * a stage directory holds one setting's results. */
#include "paper/paper_settings.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/repro.h"
#include "data/prep.h"

/* The largest stage file read (as the runner reads them). */
#define STAGE_MAX_BYTES ((size_t)1 << 30)

static const char *const mnist_names[] = {"alg1",  "alg2", "final", "verify", "squeeze",
                                          "add20", "eta",  "tau",   "over",   NULL};

static const char *const adult_names[] = {"alg1",    "alg2", "final", "verify",
                                          "squeeze", "over", NULL};

const char *const *paper_stage_names(const char *which)
{
	if (!strcmp(which, "mnist"))
		return mnist_names;
	if (!strcmp(which, "adult"))
		return adult_names;
	return NULL;
}

static void put(PaperSettings *st, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void put(PaperSettings *st, const char *key, const char *fmt, ...)
{
	if (st->n >= PAPER_SETTINGS_MAX)
		return;
	va_list ap;
	snprintf(st->f[st->n].key, sizeof st->f[0].key, "%s", key);
	va_start(ap, fmt);
	vsnprintf(st->f[st->n].value, sizeof st->f[0].value, fmt, ap);
	va_end(ap);
	st->n++;
}

void paper_settings(const PaperOpts *o, PaperSettings *st)
{
	memset(st, 0, sizeof *st);
	double a = o->act_a > 0 ? (double)o->act_a : 1.0;
	put(st, "experiment", "%s", o->which);
	put(st, "seed", "%llu", (unsigned long long)o->seed);
	put(st, "scale", "%s", prep_scale_name(o->data_scale));
	put(st, "size", "%s", o->quick ? "quick" : "full");
	put(st, "training", "%s", o->converge ? "to convergence" : "as written");
	put(st, "act_scale", "%.9g", a);
	put(st, "mode", "%s", repro_on() ? "reproducible" : "not reproducible");
}

int paper_settings_read(const cJSON *obj, const char *file, PaperSettings *st, Err *e)
{
	memset(st, 0, sizeof *st);
	const cJSON *set = cJSON_GetObjectItemCaseSensitive(obj, "settings");
	if (!set) {
		st->n = -1;
		return 0;
	}
	if (!cJSON_IsObject(set))
		return err_set(e, "%s: field \"settings\": expected an object of strings", file);
	const cJSON *it;
	cJSON_ArrayForEach(it, set)
	{
		if (st->n == PAPER_SETTINGS_MAX || !cJSON_IsString(it) || !it->string ||
		    strlen(it->string) >= sizeof st->f[0].key ||
		    strlen(it->valuestring) >= sizeof st->f[0].value)
			return err_set(e,
			               "%s: field \"settings\": expected at most %d short strings, "
			               "found \"%.40s\"",
			               file, PAPER_SETTINGS_MAX, it->string ? it->string : "");
		put(st, it->string, "%s", it->valuestring);
	}
	return 0;
}

/* The value of key in st, or NULL. */
static const char *value(const PaperSettings *st, const char *key)
{
	for (int i = 0; i < st->n; i++)
		if (!strcmp(st->f[i].key, key))
			return st->f[i].value;
	return NULL;
}

/* A setting as the command line gives it, for messages. */
static const char *as_option(const char *key, const char *v, char *buf, size_t len)
{
	if (!v)
		snprintf(buf, len, "no record of its %s", key);
	else if (!strcmp(key, "experiment"))
		snprintf(buf, len, "condnet paper %s", v);
	else if (!strcmp(key, "seed"))
		snprintf(buf, len, "--seed %s", v);
	else if (!strcmp(key, "scale"))
		snprintf(buf, len, "%s",
		         !strcmp(v, "raw")      ? "raw features (no --center nor --standardize)"
		         : !strcmp(v, "center") ? "--center"
		         : !strcmp(v, "standardize") ? "--standardize"
		                                     : v);
	else if (!strcmp(key, "size"))
		snprintf(buf, len, "%s",
		         !strcmp(v, "quick") ? "--quick" : "the full run (no --quick)");
	else if (!strcmp(key, "training"))
		snprintf(buf, len, "%s",
		         !strcmp(v, "to convergence") ? "--converge"
		                                      : "training as written (no --converge)");
	else if (!strcmp(key, "act_scale"))
		snprintf(buf, len, "--act-scale %s", v);
	else if (!strcmp(key, "mode"))
		snprintf(buf, len, "%s",
		         !strcmp(v, "reproducible") ? "the reproducible mode"
		                                    : "--no-reproducible");
	else
		snprintf(buf, len, "%s '%s'", key, v);
	return buf;
}

int paper_settings_match(const char *file, const PaperSettings *got, const PaperSettings *want,
                         Err *e)
{
	for (int i = 0; got->n >= 0 && i < want->n; i++) {
		const char *k = want->f[i].key, *v = value(got, k);
		if (v && !strcmp(v, want->f[i].value))
			continue;
		char was[96], now[96];
		return err_set(e,
		               "%s: made with %s, but this run has %s: the results of other "
		               "settings are not mixed (give this run its own --out, or the "
		               "settings the directory was made with)",
		               file, as_option(k, v, was, sizeof was),
		               as_option(k, want->f[i].value, now, sizeof now));
	}
	return 0;
}

const char *paper_settings_command(const PaperSettings *st, char *buf, size_t len)
{
	const char *scale = value(st, "scale"), *a = value(st, "act_scale");
	const char *size = value(st, "size"), *tr = value(st, "training");
	const char *mode = value(st, "mode"), *seed = value(st, "seed");
	snprintf(buf, len, "condnet paper %s%s%s%s%s%s --seed %s%s",
	         value(st, "experiment") ? value(st, "experiment") : "?",
	         size && !strcmp(size, "quick") ? " --quick" : "",
	         tr && !strcmp(tr, "to convergence") ? " --converge" : "",
	         a && strcmp(a, "1") ? " --act-scale " : "", a && strcmp(a, "1") ? a : "",
	         scale && !strcmp(scale, "center")        ? " --center"
	         : scale && !strcmp(scale, "standardize") ? " --standardize"
	                                                  : "",
	         seed ? seed : "?",
	         mode && strcmp(mode, "reproducible") ? " --no-reproducible" : "");
	return buf;
}

const char *paper_data_record(const Dataset *train, const Dataset *test, char *buf, size_t len)
{
	int n = snprintf(buf, len, "train %d rows of %d features, %d classes, CRC-32 %08x",
	                 train->n, train->d, train->k, (unsigned)dataset_crc(train));
	if (test && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; test %d rows, CRC-32 %08x", test->n,
		         (unsigned)dataset_crc(test));
	return buf;
}

/* One stage file (or partial file) against want; a file without a record
 * is added to warn. A file that is absent or not a JSON object is left to
 * the runner (which recomputes it). */
static int check_file(const char *path, const PaperSettings *want, char *warn, size_t len, Err *e)
{
	char *text = file_slurp(path, STAGE_MAX_BYTES, NULL, NULL);
	cJSON *obj = text ? cJSON_Parse(text) : NULL;
	free(text);
	PaperSettings got;
	int rc = 0;
	if (cJSON_IsObject(obj)) {
		rc = paper_settings_read(obj, path, &got, e);
		if (rc == 0 && got.n < 0 && warn) {
			size_t at = strlen(warn);
			snprintf(warn + at, len - at, "%s%s", at ? ", " : "", path);
		} else if (rc == 0) {
			rc = paper_settings_match(path, &got, want, e);
		}
	}
	cJSON_Delete(obj);
	return rc;
}

int paper_check_settings(const PaperOpts *o, char *warn, size_t len, Err *e)
{
	const char *const *names = paper_stage_names(o->which);
	PaperSettings want;
	paper_settings(o, &want);
	if (warn && len)
		warn[0] = '\0';
	for (int i = 0; names && names[i]; i++)
		for (int partial = 0; partial < 2; partial++) {
			char path[1024];
			snprintf(path, sizeof path, "%s/%s%s", o->out, names[i],
			         partial ? ".partial.json" : ".json");
			if (check_file(path, &want, warn, len, e) < 0)
				return -1;
		}
	return 0;
}
