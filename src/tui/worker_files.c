/* tui/worker_files.c - the files the session reads and writes, kept as the
 * worker runs its actions: the models a load read (--load, o, a lesson's),
 * the data set's files, the session log, the lesson played, the models a
 * save wrote and every file an export wrote. The screen's save and export
 * hold what they write apart from these, and an export's files from one
 * another, with base/file_roles.h (device and inode, links followed): one
 * line names the clash, and nothing is written. A save may replace a model
 * loaded or saved (after its question), an export the files of an earlier
 * export; nothing else. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/session.h"
#include "setup/setup.h"
#include "tui/worker.h"
#include "tui/worker_int.h"

/* What a file of each kind is, in a message. */
static const char *const nouns[] = {
    [SFILE_LOADED] = "a model the session loaded",
    [SFILE_DATA] = "the data set read",
    [SFILE_LOG] = "the session log",
    [SFILE_LESSON] = "the lesson played",
    [SFILE_SAVED] = "a model the session saved",
    [SFILE_EXPORTED] = "a file an export of the session wrote",
};

void sess_files_free(SessFiles *f)
{
	for (int i = 0; i < f->n; i++)
		free(f->f[i].path);
	free(f->f);
	memset(f, 0, sizeof *f);
}

/* Adds the file (once); -1 out of memory. */
static int add(SessFiles *f, SessFileKind kind, const char *path, const char *const *names)
{
	if (!path || !*path)
		return 0;
	for (int i = 0; i < f->n; i++)
		if (f->f[i].kind == kind && !strcmp(f->f[i].path, path))
			return 0;
	if (f->n == f->cap) {
		int cap = f->cap ? 2 * f->cap : 16;
		SessFile *g = realloc(f->f, (size_t)cap * sizeof *g);
		if (!g)
			return -1;
		f->f = g;
		f->cap = cap;
	}
	char *p = strdup(path);
	if (!p)
		return -1;
	f->f[f->n++] = (SessFile){kind, p, names};
	return 0;
}

static int sess_files_copy(const SessFiles *src, SessFiles *dst)
{
	memset(dst, 0, sizeof *dst);
	for (int i = 0; i < src->n; i++)
		if (add(dst, src->f[i].kind, src->f[i].path, src->f[i].names) < 0) {
			sess_files_free(dst);
			return -1;
		}
	return 0;
}

/* 0 when no output of out[0..nout) takes the place of a file of f or of
 * another output; -1 with one line naming the clash. */
static int sess_files_apart(const SessFiles *f, const FileRole *out, int nout, int save, Err *e)
{
	FileRole *r = malloc((size_t)(f->n + nout + 1) * sizeof *r);
	if (!r)
		return err_set(e, "out of memory");
	int k = 0;
	for (int i = 0; i < f->n; i++) {
		SessFileKind kind = f->f[i].kind;
		/* what the output may replace: a save a model, an export an export */
		if (save ? kind == SFILE_LOADED || kind == SFILE_SAVED : kind == SFILE_EXPORTED)
			continue;
		r[k++] = (FileRole){
		    save ? "save" : "export", f->f[i].path, 0, f->f[i].names, NULL, nouns[kind]};
	}
	for (int i = 0; i < nout; i++)
		r[k++] = out[i];
	int rc = file_roles_apart(r, k, e);
	free(r);
	return rc;
}

/* The files of the session's data set. */
static int add_data(SessFiles *f, const Session *s)
{
	FileRole r[2];
	char bufs[2][PATH_MAX];
	int n = setup_data_roles(s->data_spec, s->data_dir, "--data", r, bufs);
	for (int i = 0; i < n; i++)
		if (add(f, SFILE_DATA, r[i].path, r[i].names) < 0)
			return -1;
	return 0;
}

void worker_files_sync(Worker *w)
{
	const Session *s = w->s;
	pthread_mutex_lock(&w->mu);
	SessFiles *f = &w->shown.files;
	if (s && ((s->log && add(f, SFILE_LOG, s->log_path, NULL) < 0) ||
	          add(f, SFILE_LOADED, s->loaded, NULL) < 0 ||
	          add(f, SFILE_SAVED, s->saved, NULL) < 0 || add_data(f, s) < 0))
		w->shown.files_lost = 1;
	if (w->lesson && add(f, SFILE_LESSON, w->lesson->path, NULL) < 0)
		w->shown.files_lost = 1;
	pthread_mutex_unlock(&w->mu);
}

int worker_files_exported(Worker *w, const char *path)
{
	pthread_mutex_lock(&w->mu);
	int rc = add(&w->shown.files, SFILE_EXPORTED, path, NULL);
	pthread_mutex_unlock(&w->mu);
	return rc;
}

int worker_files_apart(Worker *w, const FileRole *out, int nout, int save, Err *e)
{
	SessFiles copy;
	pthread_mutex_lock(&w->mu);
	int rc = w->shown.files_lost ? -1 : sess_files_copy(&w->shown.files, &copy);
	pthread_mutex_unlock(&w->mu);
	if (rc < 0)
		return err_set(e, "out of memory for the list of the session's files");
	rc = sess_files_apart(&copy, out, nout, save, e);
	sess_files_free(&copy);
	return rc;
}
