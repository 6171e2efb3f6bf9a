/* npy_set.c - a set of .npy files written aside and put in place as one,
 * with a manifest of their sizes and CRC-32s written last, and the check of
 * a set against its manifest. */
#include "data/npy_set.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/file.h"
#include "base/signals.h"
#include "data/npy.h"

/* The first line of a manifest, and its last: "end N", N the files listed. */
#define MANIFEST_HEAD "condnet npy set, version 1"
/* A manifest is short: a line a file, at most two files a layer. */
#define MANIFEST_MAX_BYTES (64u << 20)

struct NpySet {
	char dir[PATH_MAX];        /* where the set goes */
	char stage[PATH_MAX + 64]; /* where its files are written first */
	int fresh;                 /* dir did not exist: stage is renamed to it */
	int beside;                /* dir exists and stage is beside it: the two are
	                            * swapped (commit_swap) */
	char **names;              /* the files written into stage */
	int n, cap;
	int lock;  /* the stage, open and locked (flock) while it is written */
	FILE *man; /* the manifest's lines */
	char *man_buf;
	size_t man_len;
};

/* dir without its trailing slashes ("/" stays), into out. */
static int strip_slashes(const char *dir, char *out, size_t cap, Err *e)
{
	if (!*dir)
		return err_set(e, "an empty directory name");
	if (snprintf(out, cap, "%s", dir) >= (int)cap)
		return err_set(e, "%.200s…: the path is too long", dir);
	size_t n = strlen(out);
	while (n > 1 && out[n - 1] == '/')
		out[--n] = '\0';
	return 0;
}

/* Removes the directory dir of a set: a stage (the set's files and its
 * manifest) or one swapped out (the older set, the links of the files kept,
 * and a stage an earlier run cut short, one level down), and dir itself. */
static void remove_stage(const char *dir)
{
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *de;
		char path[PATH_MAX + 320];
		while ((de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
				snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
				if (unlink(path) != 0 && errno == EISDIR)
					remove_stage(path);
			}
		closedir(d);
	}
	rmdir(dir);
}

/* 1 when dir holds what a set written aside holds: files and links, and a
 * set an earlier run left inside (.npy-set.tmp.*); nothing else is removed
 * as one. */
static int stage_like(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	struct dirent *de;
	char path[2 * PATH_MAX + 320];
	int ok = 1;
	while (ok && (de = readdir(d))) {
		struct stat st;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		ok = lstat(path, &st) == 0 &&
		     (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode) ||
		      (S_ISDIR(st.st_mode) && !strncmp(de->d_name, ".npy-set.tmp.", 13)));
	}
	closedir(d);
	return ok;
}

/* Removes the sets written aside for dir by a run that SIGKILL ended (none
 * else leaves one): DIR.tmp.XXXXXX beside it and DIR/.npy-set.tmp.XXXXXX in
 * it whose lock no process holds (a run under way holds its own). */
static void remove_stale(const char *dir)
{
	char parent[PATH_MAX], path[2 * PATH_MAX + 8];
	const char *slash = strrchr(dir, '/'), *base = slash ? slash + 1 : dir;
	file_dir_of(dir, parent, sizeof parent);
	size_t nb = strlen(base);
	for (int inside = 0; inside < 2; inside++) {
		DIR *d = opendir(inside ? dir : parent);
		struct dirent *de;
		while (d && (de = readdir(d))) {
			const char *n = de->d_name;
			int ours = inside ? !strncmp(n, ".npy-set.tmp.", 13) && strlen(n) == 19
			                  : !strncmp(n, base, nb) && !strncmp(n + nb, ".tmp.", 5) &&
			                        strlen(n + nb) == 11;
			if (!ours)
				continue;
			snprintf(path, sizeof path, "%s/%s", inside ? dir : parent, n);
			int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0 && stage_like(path))
				remove_stage(path);
			if (fd >= 0)
				close(fd);
		}
		if (d)
			closedir(d);
	}
}

/* 1 when dir (an existing directory) can be swapped with one beside it: it
 * is a directory itself (not a link to one), on the file system of its
 * parent (not a mount point), and not this process's working directory. */
static int swappable(const char *dir)
{
	struct stat d, p, cwd;
	char parent[PATH_MAX];
	file_dir_of(dir, parent, sizeof parent);
	return lstat(dir, &d) == 0 && S_ISDIR(d.st_mode) && stat(parent, &p) == 0 &&
	       p.st_dev == d.st_dev && stat(".", &cwd) == 0 &&
	       !(cwd.st_dev == d.st_dev && cwd.st_ino == d.st_ino);
}

NpySet *npy_set_begin(const char *dir, const char *kind, Err *e)
{
	NpySet *s = calloc(1, sizeof *s);
	if (!s) {
		err_set(e, "%s: out of memory", dir);
		return NULL;
	}
	s->lock = -1;
	if (strip_slashes(dir, s->dir, sizeof s->dir, e)) {
		free(s);
		return NULL;
	}
	struct stat st;
	int there = stat(s->dir, &st) == 0;
	if ((there && !S_ISDIR(st.st_mode)) || (!there && errno != ENOENT)) {
		if (there)
			err_set(e, "%s: exists and is not a directory", dir);
		else
			err_set(e, "%s: %s", dir, strerror(errno));
		free(s);
		return NULL;
	}
	s->fresh = !there;
	if (!(s->man = open_memstream(&s->man_buf, &s->man_len))) {
		err_set(e, "%s: out of memory", dir);
		free(s);
		return NULL;
	}
	fprintf(s->man, "%s\nkind %s\n", MANIFEST_HEAD, kind);
	/* an end that comes from now on waits for the set (or its removal) */
	signals_group_begin();
	char target[PATH_MAX + 16];
	remove_stale(s->dir);
	/* beside an existing dir when the two can be swapped, else inside it */
	s->beside = !s->fresh && swappable(s->dir) &&
	            file_temp_dir(s->dir, s->stage, sizeof s->stage, NULL) == 0;
	snprintf(target, sizeof target, "%s%s", s->dir, s->fresh ? "" : "/.npy-set");
	if (!s->beside && file_temp_dir(target, s->stage, sizeof s->stage, e)) {
		int err = errno;
		err_set(e,
		        s->fresh ? "%s: cannot create the directory: %s"
		                 : "%s: cannot create files in the directory: %s",
		        s->dir, strerror(err));
		fclose(s->man);
		free(s->man_buf);
		free(s);
		signals_group_end();
		return NULL;
	}
	/* held until the set is in place: a stage nobody holds is a stale one */
	s->lock = open(s->stage, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->lock >= 0)
		flock(s->lock, LOCK_EX | LOCK_NB);
	return s;
}

int npy_set_note(NpySet *s, const char *key, const char *value, Err *e)
{
	if (strpbrk(key, " \n") || strchr(value, '\n'))
		return err_set(e, "%s: a manifest note '%s' that is not one word and a line",
		               s->dir, key);
	fprintf(s->man, "%s %s\n", key, value);
	return 0;
}

/* Writes the bytes of file name into the stage and lists it. */
static int add_bytes(NpySet *s, const char *name, unsigned char *buf, size_t len, int nd,
                     const long *dims, Err *e)
{
	char path[PATH_MAX + 160];
	if (!buf)
		return err_prefix(e, "%s/%s", s->dir, name);
	if (strchr(name, '/') || strlen(name) >= sizeof((NpySetFile *)0)->name) {
		free(buf);
		return err_set(e, "%s: '%s' is not a file name of a set", s->dir, name);
	}
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 16;
		char **names = realloc(s->names, (size_t)cap * sizeof *names);
		if (!names) {
			free(buf);
			return err_set(e, "%s: out of memory", s->dir);
		}
		s->names = names;
		s->cap = cap;
	}
	if (!(s->names[s->n] = strdup(name))) {
		free(buf);
		return err_set(e, "%s: out of memory", s->dir);
	}
	s->n++;
	snprintf(path, sizeof path, "%s/%s", s->stage, name);
	uLong crc = crc32_z(0L, buf, len);
	int rc = file_create(path, buf, len, e), err = errno;
	free(buf);
	if (rc)
		return err_set(e, "%s/%s: writing failed: %s (%s %s)", s->dir, name, strerror(err),
		               s->dir, s->fresh ? "is not made" : "is left as it was");
	char shape[48] = "";
	for (int d = 0; d < nd; d++)
		snprintf(shape + strlen(shape), sizeof shape - strlen(shape), d ? "x%ld" : "%ld",
		         dims[d]);
	fprintf(s->man, "file %s %s %zu %08lx\n", name, shape, len, (unsigned long)crc);
	return 0;
}

int npy_set_add_f32(NpySet *s, const char *name, const float *v, long rows, long cols, Err *e)
{
	size_t len = 0;
	unsigned char *buf = npy_encode_f32(v, rows, cols, &len, e);
	long dims[2] = {rows, cols};
	return add_bytes(s, name, buf, len, cols < 0 ? 1 : 2, dims, e);
}

int npy_set_add_f32_nd(NpySet *s, const char *name, const float *v, int nd, const long *dims,
                       Err *e)
{
	size_t len = 0;
	unsigned char *buf = npy_encode_f32_nd(v, nd, dims, &len, e);
	return add_bytes(s, name, buf, len, nd, dims, e);
}

int npy_set_add_i32(NpySet *s, const char *name, const int32_t *v, long rows, long cols, Err *e)
{
	size_t len = 0;
	unsigned char *buf = npy_encode_i32(v, rows, cols, &len, e);
	long dims[2] = {rows, cols};
	return add_bytes(s, name, buf, len, cols < 0 ? 1 : 2, dims, e);
}

int npy_set_add_dataset(NpySet *s, const Dataset *ds, const char *part, Err *e)
{
	char name[64];
	snprintf(name, sizeof name, "x_%s.npy", part);
	if (npy_set_add_f32(s, name, ds->x, ds->n, ds->d, e))
		return -1;
	int32_t *y = malloc(sizeof *y * (size_t)ds->n);
	if (!y)
		return err_set(e, "out of memory for %d labels", ds->n);
	for (int i = 0; i < ds->n; i++)
		y[i] = ds->y[i];
	snprintf(name, sizeof name, "y_%s.npy", part);
	int rc = npy_set_add_i32(s, name, y, ds->n, -1, e);
	free(y);
	return rc;
}

static void set_free(NpySet *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->names[i]);
	free(s->names);
	if (s->lock >= 0)
		close(s->lock);
	if (s->man)
		fclose(s->man);
	free(s->man_buf);
	free(s);
}

void npy_set_abort(NpySet *s)
{
	if (!s)
		return;
	remove_stage(s->stage);
	set_free(s);
	signals_group_end();
}

/* 1 when name is one of the set's files or its manifest. */
static int of_set(const NpySet *s, const char *name)
{
	if (!strcmp(name, NPY_SET_MANIFEST))
		return 1;
	for (int i = 0; i < s->n; i++)
		if (!strcmp(name, s->names[i]))
			return 1;
	return 0;
}

/* The entries of dir that are not of the set, into the stage beside it: a
 * file as a second link to it, a symbolic link as a copy. 0; -1 when one is
 * neither (a directory, a FIFO…) or cannot be linked: dir is then not
 * swapped. A set written aside inside dir by an earlier run cut short
 * (.npy-set.tmp.*) is left behind, with the old files. */
static int link_others(const NpySet *s)
{
	DIR *d = opendir(s->dir);
	if (!d)
		return -1;
	struct dirent *de;
	char from[PATH_MAX + 320], to[PATH_MAX + 384], target[PATH_MAX];
	int rc = 0;
	while (rc == 0 && (de = readdir(d))) {
		const char *n = de->d_name;
		if (!strcmp(n, ".") || !strcmp(n, "..") || of_set(s, n) ||
		    !strncmp(n, ".npy-set.tmp.", 13))
			continue;
		snprintf(from, sizeof from, "%s/%s", s->dir, n);
		snprintf(to, sizeof to, "%s/%s", s->stage, n);
		struct stat st;
		ssize_t len;
		if (lstat(from, &st) != 0)
			rc = -1;
		else if (S_ISREG(st.st_mode))
			rc = link(from, to);
		else if (S_ISLNK(st.st_mode) &&
		         (len = readlink(from, target, sizeof target - 1)) >= 0) {
			target[len] = '\0';
			rc = symlink(target, to);
		} else
			rc = -1;
	}
	closedir(d);
	return rc ? -1 : 0;
}

/* Into an existing dir, swapped with the stage beside it: the stage gets the
 * manifest, dir's other files (as links) and its mode, and the two are
 * exchanged in one rename (RENAME_EXCHANGE): dir holds the older set or the
 * new one, whatever ends the process, SIGKILL included. 0; 1 when they
 * cannot be swapped (nothing changed: the files go in one by one); -1. */
static int commit_swap(NpySet *s, Err *e)
{
	char man[sizeof s->stage + 32], parent[PATH_MAX];
	struct stat st;
	snprintf(man, sizeof man, "%s/%s", s->stage, NPY_SET_MANIFEST);
	if (file_create(man, s->man_buf, s->man_len, e))
		return -1;
	if (lstat(s->dir, &st) != 0 || !S_ISDIR(st.st_mode) || link_others(s) < 0)
		return 1;
	chmod(s->stage, st.st_mode & 07777);
	if (st.st_uid != geteuid() || st.st_gid != getegid())
		(void)!chown(s->stage, st.st_uid, st.st_gid);
	if (file_sync_fs(s->stage, e))
		return -1;
	if (renameat2(AT_FDCWD, s->stage, AT_FDCWD, s->dir, RENAME_EXCHANGE) != 0)
		return 1;
	/* the stage's name holds the older set now */
	remove_stage(s->stage);
	file_dir_of(s->dir, parent, sizeof parent);
	return file_sync_dir(parent, e);
}

/* Into an existing dir: the manifest, the files renamed over dir's one by
 * one, the manifest again (the last export to finish writes it last), then
 * the stage removed. */
static int commit_into(NpySet *s, Err *e)
{
	char man[PATH_MAX + 64], from[PATH_MAX + 160], to[PATH_MAX + 160];
	snprintf(man, sizeof man, "%s/%s", s->dir, NPY_SET_MANIFEST);
	if (file_sync_fs(s->stage, e) ||
	    file_write(man, s->man_buf, s->man_len, FILE_OUT_TEXT | FILE_OUT_PLAIN, e))
		return -1;
	for (int i = 0; i < s->n; i++) {
		snprintf(from, sizeof from, "%s/%s", s->stage, s->names[i]);
		snprintf(to, sizeof to, "%s/%s", s->dir, s->names[i]);
		if (rename(from, to) != 0)
			return err_set(e, "%s: renaming %s into place failed: %s", to, from,
			               strerror(errno));
	}
	if (file_write(man, s->man_buf, s->man_len, FILE_OUT_TEXT | FILE_OUT_PLAIN, e))
		return -1;
	remove_stage(s->stage);
	return file_sync_dir(s->dir, e);
}

int npy_set_commit(NpySet *s, Err *e)
{
	fprintf(s->man, "end %d\n", s->n);
	int rc = fflush(s->man) ? err_set(e, "%s: out of memory", s->dir) : 0;
	char path[sizeof s->stage + 32], parent[PATH_MAX];
	if (rc == 0 && s->fresh) {
		snprintf(path, sizeof path, "%s/%s", s->stage, NPY_SET_MANIFEST);
		rc = file_create(path, s->man_buf, s->man_len, e) || file_sync_fs(s->stage, e);
		if (rc == 0 && rename(s->stage, s->dir) == 0) {
			file_dir_of(s->dir, parent, sizeof parent);
			rc = file_sync_dir(parent, e);
		} else if (rc == 0 && errno != EEXIST && errno != ENOTEMPTY) {
			rc = err_set(e, "%s: renaming %s into place failed: %s", s->dir, s->stage,
			             strerror(errno));
		} else if (rc == 0) {
			/* made meanwhile (another export): into it, file by file */
			unlink(path);
			rc = commit_into(s, e);
		}
	} else if (rc == 0) {
		/* swapped when it can be, else file by file (from the stage beside
		 * dir or inside it) */
		rc = s->beside ? commit_swap(s, e) : 1;
		if (rc > 0)
			rc = commit_into(s, e);
	}
	if (rc)
		remove_stage(s->stage);
	set_free(s);
	signals_group_end();
	return rc;
}

/* ---- reading ---- */

/* The size and CRC-32 of the regular file path. */
static int file_crc(const char *path, long long *bytes, uint32_t *crc, Err *e)
{
	FILE *f = file_open_regular(path, "rb", NULL, e);
	if (!f)
		return -1;
	unsigned char buf[1 << 16];
	uLong c = crc32_z(0L, Z_NULL, 0);
	long long n = 0;
	size_t got;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
		c = crc32_z(c, buf, got);
		n += (long long)got;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad)
		return err_set(e, "%s: read error", path);
	*bytes = n;
	*crc = (uint32_t)c;
	return 0;
}

/* One line of the manifest into m; lineno for messages. */
static int parse_line(char *line, const char *path, int lineno, NpyManifest *m, int *cap,
                      int *ended, Err *e)
{
	char name[64], shape[48];
	long long bytes;
	unsigned long crc;
	int end, used = 0;
	if (sscanf(line, "kind %31s%n", m->kind, &used) == 1 && !line[used])
		return 0;
	if (sscanf(line, "layout %31s%n", m->layout, &used) == 1 && !line[used])
		return 0;
	if (sscanf(line, "input %31s%n", m->input, &used) == 1 && !line[used])
		return 0;
	if (sscanf(line, "layers %511s%n", m->layers, &used) == 1 && !line[used])
		return 0;
	if (!strncmp(line, "prep ", 5) && !m->prep) {
		if (!(m->prep = strdup(line + 5)))
			return err_set(e, "%s: out of memory", path);
		return 0;
	}
	if (sscanf(line, "end %d%n", &end, &used) == 1 && !line[used]) {
		if (end != m->n)
			return err_set(e, "%s:%d: 'end %d', but %d files are listed", path, lineno,
			               end, m->n);
		*ended = 1;
		return 0;
	}
	if (sscanf(line, "file %63s %47s %lld %8lx%n", name, shape, &bytes, &crc, &used) == 4 &&
	    !line[used] && bytes >= 0) {
		if (m->n == *cap) {
			int nc = *cap ? 2 * *cap : 16;
			NpySetFile *f = realloc(m->files, (size_t)nc * sizeof *f);
			if (!f)
				return err_set(e, "%s: out of memory", path);
			m->files = f;
			*cap = nc;
		}
		NpySetFile *f = &m->files[m->n++];
		snprintf(f->name, sizeof f->name, "%s", name);
		snprintf(f->shape, sizeof f->shape, "%s", shape);
		f->bytes = bytes;
		f->crc = (uint32_t)crc;
		return 0;
	}
	return err_set(e,
	               "%s:%d: expected 'file NAME SHAPE BYTES CRC32', 'kind', 'layout', 'input', "
	               "'layers' or 'end'",
	               path, lineno);
}

/* The manifest's lines into m. */
static int parse_manifest(char *text, const char *path, NpyManifest *m, Err *e)
{
	int cap = 0, ended = 0, lineno = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (++lineno == 1) {
			if (strcmp(line, MANIFEST_HEAD))
				return err_set(e, "%s:1: expected '%s'", path, MANIFEST_HEAD);
			continue;
		}
		if (ended)
			return err_set(e, "%s:%d: a line after 'end'", path, lineno);
		if (parse_line(line, path, lineno, m, &cap, &ended, e))
			return -1;
	}
	if (!ended)
		return err_set(e, "%s: no 'end' line: the manifest is cut short", path);
	return 0;
}

int npy_set_check(const char *dir, NpyManifest *m, Err *e)
{
	memset(m, 0, sizeof *m);
	char path[PATH_MAX + 64], file[PATH_MAX + 160];
	snprintf(path, sizeof path, "%s/%s", dir, NPY_SET_MANIFEST);
	struct stat st;
	if (lstat(path, &st) != 0 && errno == ENOENT)
		return 0;
	char *text = file_slurp(path, MANIFEST_MAX_BYTES, NULL, e);
	if (!text)
		return -1;
	int rc = parse_manifest(text, path, m, e);
	free(text);
	for (int i = 0; rc == 0 && i < m->n; i++) {
		const NpySetFile *f = &m->files[i];
		long long bytes = 0;
		uint32_t crc = 0;
		snprintf(file, sizeof file, "%s/%s", dir, f->name);
		if (access(file, F_OK) != 0 && errno == ENOENT)
			rc =
			    err_set(e,
			            "%s: missing, but %s lists it: the set is not whole (an export "
			            "was cut short); export it again",
			            file, NPY_SET_MANIFEST);
		else if (file_crc(file, &bytes, &crc, e))
			rc = -1;
		else if (bytes != f->bytes || crc != f->crc)
			rc = err_set(
			    e,
			    "%s: %lld bytes of CRC-32 %08x, but %s lists %lld bytes of CRC-32 "
			    "%08x: the files are not of one export (one was cut short, or two "
			    "wrote at once); export it again",
			    file, bytes, (unsigned)crc, NPY_SET_MANIFEST, f->bytes,
			    (unsigned)f->crc);
	}
	if (rc) {
		npy_manifest_free(m);
		return -1;
	}
	return 1;
}

void npy_manifest_free(NpyManifest *m)
{
	free(m->files);
	free(m->prep);
	memset(m, 0, sizeof *m);
}
