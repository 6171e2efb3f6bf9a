/* paper_result.c - the results of the paper's stages: a stage run, or its
 * result of an earlier run read back and kept for the stages after it and
 * the report; the partial work of a long stage; the data the stages read. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/file.h"
#include "data/datasets.h"
#include "paper/paper_settings.h"
#include "paper/paper_stage.h"
#include "report/report_stage.h"

void paper_say(const Paper *p, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	hook_note(p->o.hook, "%s", line);
}

cJSON *paper_need(const Paper *p, const char *stage, Err *e)
{
	cJSON *r = paper_result(p, stage);
	if (!r)
		err_set(e, "needs the result of stage '%s' (run it first: --stages %s)", stage,
		        stage);
	return r;
}

const char *paper_path(const Paper *p, const char *file, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", p->o.out, file);
	return buf;
}

cJSON *paper_result(const Paper *p, const char *stage)
{
	for (int i = 0; i < p->nres; i++)
		if (!strcmp(p->res[i].name, stage))
			return p->res[i].r;
	return NULL;
}

/* Keeps a stage's result (taken over) for the stages after it and the report. */
static void keep_result(Paper *p, const char *stage, cJSON *r)
{
	p->res[p->nres].name = stage;
	p->res[p->nres++].r = r;
}

/* The text of a stage's file, or NULL when there is none to use. */
static char *paper_read(const char *path)
{
	return file_slurp(path, (size_t)1 << 30, NULL, NULL);
}

static const char *partial_path(const Paper *p, const char *stage, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s.partial.json", p->o.out, stage);
	return buf;
}

/* Writes a stage's result or partial work with the mode, kernels, threads
 * and parts of this run (base/repro.h) and the seconds spent on it. */
static int write_result(const Paper *p, cJSON *obj, const char *path, Err *e)
{
	ReproRecord r;
	repro_current(&r, p->o.threads);
	/* and what its numbers depend on (paper_settings.h), the data among them */
	PaperSettings st;
	paper_settings(&p->o, &st);
	const char *keys[PAPER_SETTINGS_MAX], *values[PAPER_SETTINGS_MAX];
	for (int i = 0; i < st.n; i++) {
		keys[i] = st.f[i].key;
		values[i] = st.f[i].value;
	}
	if (report_stage_settings(obj, keys, values, st.n, p->data_rec, e) < 0)
		return -1;
	return report_stage_write(obj, &r, p->before + clock_seconds() - p->t0, path, e);
}

/* 0 when a stage's result or partial file (file) was computed on the data
 * this run read, or records none; a message naming both otherwise. */
static int same_data(const Paper *p, const char *file, const cJSON *obj, Err *e)
{
	const char *rec = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(obj, "data"));
	if (!p->data_rec[0] || !rec || !strcmp(rec, p->data_rec))
		return 0;
	return err_set(e,
	               "%s: computed on other data (%s) than this run reads (%s): the data "
	               "set changed since (another --data-dir, or fetched again); remove the "
	               "directory's stage files to compute them again",
	               file, rec, p->data_rec);
}

cJSON *paper_partial_load(Paper *p, const char *stage, Err *e)
{
	char path[1024];
	char *text = paper_read(partial_path(p, stage, path, sizeof path));
	cJSON *part = text ? cJSON_Parse(text) : NULL;
	free(text);
	Err other;
	if (part && cJSON_IsObject(part) && same_data(p, path, part, &other) < 0) {
		paper_say(p, "%s: %s was computed on other data; the stage starts afresh", stage,
		          path);
		cJSON_Delete(part);
		part = NULL;
	}
	if (part && cJSON_IsObject(part)) {
		paper_say(p, "%s: resuming from %s", stage, path);
		double before = paper_json_num(part, "seconds");
		p->before = isnan(before) ? 0 : before;
		return part;
	}
	cJSON_Delete(part);
	return report_stage_new(e);
}

int paper_partial_save(const Paper *p, const char *stage, cJSON *part, Err *e)
{
	char path[1024];
	return write_result(p, part, partial_path(p, stage, path, sizeof path), e);
}

/* The data sets are read when the first stage has to run: a report made
 * from stage results alone needs none. */
static int load_data(Paper *p, Err *e)
{
	DataSpec ds;
	dataspec_default(&ds);
	ds.spec = p->o.which;
	ds.dir = p->o.data_dir;
	ds.features = 200;
	ds.seed = p->o.seed;
	ds.scale = p->o.data_scale;
	if (p->o.quick)
		ds.limit = !strcmp(p->o.which, "mnist") ? 30 : 150;
	if (datasets_load(&ds, &p->train, &p->test, e) < 0)
		return -1;
	/* the stages reused so far were computed on these data, or say on which */
	paper_data_record(p->train, p->test, p->data_rec, sizeof p->data_rec);
	for (int i = 0; i < p->nres; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/%s.json", p->o.out, p->res[i].name);
		if (same_data(p, path, p->res[i].r, e) < 0)
			return -1;
	}
	/* Algorithm 2's validation set: 1,000 images per class for MNIST, 10 % for Adult. */
	if (!strcmp(p->o.which, "mnist") && !p->o.quick)
		return dataset_split(p->train, 0, 1000, p->o.seed, &p->tr, &p->val, e);
	return dataset_split(p->train, 0.1, 0, p->o.seed, &p->tr, &p->val, e);
}

int paper_stage(Paper *p, const Stage *s, int run, Err *e)
{
	char path[1024];
	paper_path(p, s->name, path, sizeof path);
	strncat(path, ".json", sizeof path - strlen(path) - 1);
	char *text = paper_read(path);
	if (text) {
		cJSON *old = cJSON_Parse(text);
		free(text);
		if (old && cJSON_IsObject(old)) {
			if (same_data(p, path, old, e) < 0) {
				cJSON_Delete(old);
				return -1;
			}
			keep_result(p, s->name, old);
			paper_say(p, "%s (%s): reusing %s", s->name, s->what, path);
			return 0;
		}
		cJSON_Delete(old);
		paper_say(p, "%s: %s is not a valid result; recomputing", s->name, path);
	}
	if (!run)
		return 0;
	if (!p->train && load_data(p, e) < 0)
		return -1;
	paper_say(p, "%s (%s): running", s->name, s->what);
	cJSON *out = report_stage_new(e);
	if (!out)
		return -1;
	p->t0 = clock_seconds();
	p->before = 0;
	int rc = s->run(p, out, e);
	if (rc != 0) { /* failed, or stopped: the stage's partial work is kept */
		cJSON_Delete(out);
		err_prefix(e, "stage %s", s->name);
		return rc;
	}
	if (write_result(p, out, path, e) < 0) {
		cJSON_Delete(out);
		return -1;
	}
	keep_result(p, s->name, out);
	char part[1024];
	unlink(partial_path(p, s->name, part, sizeof part));
	paper_say(p, "%s: done in %.1f s", s->name, clock_seconds() - p->t0);
	return 0;
}

int paper_scaled(const Paper *p, int width)
{
	if (!p->o.quick)
		return width;
	int w = width / 10;
	return w < 2 ? 2 : w;
}
