/* paper.c - the stage runner of the paper reproductions: which stages run,
 * reading back the results of earlier runs, partial results, the report. */
#include "paper/paper.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "alg/alg3_squeeze.h"
#include "base/clock.h"
#include "base/file.h"
#include "base/repro.h"
#include "data/datasets.h"
#include "engine/cond.h"
#include "engine/cond_matrix.h"
#include "model/model_io.h"
#include "paper/paper_dir.h"
#include "paper/paper_report_file.h"
#include "paper/paper_settings.h"
#include "paper/paper_stage.h"
#include "report/report_stage.h"

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

void paper_stage_record(const cJSON *obj, ReproRecord *r)
{
	memset(r, 0, sizeof *r);
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(obj, "kernels");
	double parts = paper_json_num(obj, "parts"), threads = paper_json_num(obj, "threads");
	/* numbers out of range are no record (and are never converted) */
	if (!cJSON_IsString(k) || !(parts >= 0 && parts <= 1024))
		return;
	snprintf(r->kernels, sizeof r->kernels, "%s", k->valuestring);
	r->on = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(obj, "reproducible"));
	r->parts = (int)parts;
	r->threads = threads >= 0 && threads <= 1024 ? (int)threads : 0;
}

int paper_check_records(const PaperOpts *o, Err *e)
{
	const char *const *names = paper_stage_names(o->which);
	ReproRecord now;
	repro_current(&now, o->threads);
	for (int i = 0; names && names[i]; i++) {
		for (int partial = 0; partial < 2; partial++) {
			char path[1024];
			snprintf(path, sizeof path, "%s/%s%s", o->out, names[i],
			         partial ? ".partial.json" : ".json");
			char *text = paper_read(path);
			cJSON *obj = text ? cJSON_Parse(text) : NULL;
			free(text);
			ReproRecord rec;
			paper_stage_record(obj, &rec);
			cJSON_Delete(obj);
			if (repro_compare(&rec, &now, e) < 0)
				return err_prefix(e, "%s", path);
		}
	}
	return 0;
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

/* The next name of a comma-separated list at *s (advanced past it), its
 * length in *len; NULL at the end of the list. */
static const char *list_next(const char **s, size_t *len)
{
	if (!*s)
		return NULL;
	const char *item = *s, *c = strchr(item, ',');
	*len = c ? (size_t)(c - item) : strlen(item);
	*s = c ? c + 1 : NULL;
	return item;
}

static int wanted(const PaperOpts *o, const char *name)
{
	if (!o->stages || !*o->stages)
		return 1;
	size_t len;
	const char *s = o->stages, *it;
	while ((it = list_next(&s, &len)))
		if (len == strlen(name) && !strncmp(it, name, len))
			return 1;
	return 0;
}

/* Every name of --stages is a stage of the experiment (none empty). */
static int check_stages(const PaperOpts *o, const Stage *stages, Err *e)
{
	size_t len;
	const char *s = o->stages, *it;
	while (o->stages && (it = list_next(&s, &len))) {
		int found = 0;
		for (const Stage *st = stages; st->name && len; st++)
			found |= strlen(st->name) == len && !strncmp(st->name, it, len);
		if (!found)
			return len ? err_set(e, "unknown stage '%.*s' for %s", (int)len, it,
			                     o->which)
			           : err_set(e, "--stages \"%s\": an empty stage name", o->stages);
	}
	return 0;
}

static int write_report(const Paper *p, Err *e)
{
	char *buf = NULL;
	size_t len = 0;
	Md md = {.f = open_memstream(&buf, &len), .converge = p->o.converge};
	if (!md.f)
		return err_set(e, "out of memory");
	if (!strcmp(p->o.which, "mnist"))
		paper_mnist_report(p, &md);
	else
		paper_adult_report(p, &md);
	free(md.flags);
	fclose(md.f);
	/* a report of fewer stages never replaces one of more */
	int rc = paper_report_keeps(p->o.report, buf, len, p->o.out, e);
	if (rc == 0)
		rc = file_write(p->o.report, buf, len, FILE_OUT_TEXT, e);
	free(buf);
	return rc;
}

/* The stages of o->which, after checking the names of o->stages. */
static const Stage *experiment(const PaperOpts *o, Err *e)
{
	const Stage *stages;
	if (!strcmp(o->which, "mnist"))
		stages = paper_mnist_stages;
	else if (!strcmp(o->which, "adult"))
		stages = paper_adult_stages;
	else {
		err_set(e, "unknown experiment '%s' (mnist or adult)", o->which);
		return NULL;
	}
	return check_stages(o, stages, e) < 0 ? NULL : stages;
}

/* 1 when OUT/<name>.json holds a result (as paper_stage would reuse it). */
static int stage_done(const PaperOpts *o, const char *name, size_t len)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%.*s.json", o->out, (int)len, name);
	char *text = paper_read(path);
	cJSON *r = text ? cJSON_Parse(text) : NULL;
	int done = cJSON_IsObject(r);
	cJSON_Delete(r);
	free(text);
	return done;
}

int paper_ready(const PaperOpts *o, const char **ready, int *waiting, Err *e)
{
	const Stage *stages = experiment(o, e);
	if (!stages || paper_check_settings(o, NULL, 0, e) < 0)
		return -1;
	int n = 0;
	*waiting = 0;
	for (const Stage *s = stages; s->name; s++) {
		if (!wanted(o, s->name) || stage_done(o, s->name, strlen(s->name)))
			continue;
		int inputs = 1;
		size_t len;
		const char *d = *s->needs ? s->needs : NULL, *it;
		while ((it = list_next(&d, &len)))
			inputs &= stage_done(o, it, len);
		if (inputs)
			ready[n++] = s->name;
		else
			(*waiting)++;
	}
	ready[n] = NULL;
	return 0;
}

int paper_run(const PaperOpts *o, Err *e)
{
	const Stage *stages = experiment(o, e);
	if (!stages)
		return -1;
	if (file_make_dir(o->out, e) < 0)
		return -1;
	/* the stages this run computes, locked for it; then every stage file
	 * there must be of its settings */
	const char *run[32];
	int nrun = 0;
	for (const Stage *s = stages; s->name && nrun < 31; s++)
		if (wanted(o, s->name) && !stage_done(o, s->name, strlen(s->name)))
			run[nrun++] = s->name;
	run[nrun] = NULL;
	PaperLock lock;
	if (paper_dir_lock(o, run, &lock, e) < 0)
		return -1;
	if (paper_check_settings(o, NULL, 0, e) < 0) {
		paper_dir_unlock(&lock);
		return -1;
	}

	/* Every stage decomposes on GSL's path, the one its results were first
	 * computed on, whatever the process uses otherwise, so that they are
	 * computed again to the bit (engine/cond_matrix.h). */
	CondPath path = cond_get_path();
	cond_set_path(COND_PATH_GSL);
	Paper p = {.o = *o};
	if (!(p.o.act_a > 0))
		p.o.act_a = 1.0f;
	train_opts_default(&p.topt);
	p.topt.batch = !strcmp(o->which, "mnist") ? 50 : 20;
	p.topt.threads = o->threads;
	int rc = 0;
	/* Stages not asked for still contribute what an earlier run computed. */
	for (const Stage *s = stages; rc == 0 && s->name; s++)
		rc = paper_stage(&p, s, wanted(o, s->name), e);
	/* a stopped stage ends the run: the stages done are kept whole */
	if (rc == 0 && !o->no_report)
		rc = write_report(&p, e);
	for (int i = 0; i < p.nres; i++)
		cJSON_Delete(p.res[i].r);
	dataset_free(p.train);
	dataset_free(p.test);
	dataset_free(p.tr);
	dataset_free(p.val);
	cond_set_path(path);
	paper_dir_unlock(&lock);
	return rc;
}
