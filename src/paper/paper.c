/* paper.c - the paper reproductions: which stages run (paper_result.c runs
 * or reads back each), what can run now, and the report. */
#include "paper/paper.h"

#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/repro.h"
#include "engine/cond_matrix.h"
#include "paper/paper_dir.h"
#include "paper/paper_report_file.h"
#include "paper/paper_settings.h"
#include "paper/paper_stage.h"

/* The text of a stage's file, or NULL when there is none to use. */
static char *paper_read(const char *path)
{
	return file_slurp(path, (size_t)1 << 30, NULL, NULL);
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

/* The report of the stages done, written unless it would replace one of
 * more stages; a report that cannot be made whole is not written. */
static int write_report(const Paper *p, Err *e)
{
	char *buf = NULL;
	size_t len = 0;
	Md md = {.f = open_memstream(&buf, &len), .converge = p->o.converge};
	if (!md.f)
		return err_set(e, "out of memory");
	int rc = !strcmp(p->o.which, "mnist") ? paper_mnist_report(p, &md, e)
	                                      : paper_adult_report(p, &md, e);
	free(md.diff);
	int bad = ferror(md.f);
	if (fclose(md.f) != 0 || (bad && rc == 0))
		rc = err_set(e, "%s: out of memory writing the report", p->o.report);
	/* a report of fewer stages never replaces one of more */
	if (rc == 0)
		rc = paper_report_keeps(p->o.report, buf, len, p->o.out, e);
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
	Paper p = {.o = *o, .stages = stages};
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
