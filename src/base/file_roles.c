/* file_roles.c - outputs held apart from inputs and from each other. */
#include "base/file_roles.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"

const char *const file_roles_npy_net[] = {"W[0-9]*.npy", "b[0-9]*.npy", "prep_*.npy",
                                          "condnet-manifest.txt", NULL};

/* Where a path leads: a file that exists (dev, ino), or a name that does not
 * exist yet in the directory (dev, ino) under name. */
typedef struct Ident {
	int known;  /* 0: not compared (a stream, or a path that cannot be) */
	int exists; /* the file is there */
	dev_t dev;
	ino_t ino;
	mode_t mode;
	char name[NAME_MAX + 1]; /* !exists: its name in the directory */
	char dir[PATH_MAX];      /* the directory that holds it (links followed) */
	int linked;              /* reached through a link */
} Ident;

static void ident(const char *path, Ident *id)
{
	memset(id, 0, sizeof *id);
	if (!path || !*path || !strcmp(path, "-"))
		return;
	char p[PATH_MAX], link[PATH_MAX], dir[PATH_MAX];
	snprintf(p, sizeof p, "%s", path);
	for (int hops = 0; hops < 40; hops++) {
		struct stat st;
		/* trailing slashes name the directory itself */
		size_t n = strlen(p);
		while (n > 1 && p[n - 1] == '/')
			p[--n] = '\0';
		file_dir_of(p, dir, sizeof dir);
		if (lstat(p, &st) == 0 && S_ISLNK(st.st_mode)) {
			ssize_t len = readlink(p, link, sizeof link - 1);
			if (len < 0)
				return;
			link[len] = '\0';
			id->linked = 1;
			if (link[0] == '/' || !strcmp(dir, "."))
				snprintf(p, sizeof p, "%s", link);
			else if (snprintf(p, sizeof p, "%s/%s", dir, link) >= (int)sizeof p)
				return;
			continue;
		}
		if (!realpath(dir, id->dir))
			return;
		const char *base = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
		snprintf(id->name, sizeof id->name, "%s", base);
		if (stat(p, &st) == 0) {
			id->exists = 1;
			id->dev = st.st_dev;
			id->ino = st.st_ino;
			id->mode = st.st_mode;
		} else if (errno == ENOENT) {
			struct stat ds;
			if (stat(id->dir, &ds) != 0)
				return;
			id->dev = ds.st_dev;
			id->ino = ds.st_ino;
		} else {
			return;
		}
		id->known = 1;
		return;
	}
}

/* 1 when a and b are one file, or one name yet to be made. */
static int same(const Ident *a, const Ident *b)
{
	if (!a->known || !b->known || a->exists != b->exists)
		return 0;
	if (a->exists)
		return a->dev == b->dev && a->ino == b->ino;
	return a->dev == b->dev && a->ino == b->ino && !strcmp(a->name, b->name);
}

/* 1 when the file f lies in the directory d under one of d's names. */
static int inside(const Ident *f, const Ident *d, const char *const *names)
{
	struct stat ds;
	if (!f->known || !d->known || !d->exists || !S_ISDIR(d->mode) || stat(f->dir, &ds) != 0 ||
	    ds.st_dev != d->dev || ds.st_ino != d->ino)
		return 0;
	for (int i = 0; names[i]; i++)
		if (fnmatch(names[i], f->name, 0) == 0)
			return 1;
	return 0;
}

/* The message of a clash: the file f (its ident fi) is g, or lies in the
 * directory g under one of its names (in_dir); one of the two is written. */
static int clash(const FileRole *f, const FileRole *g, const Ident *fi, int in_dir, Err *e)
{
	const char *how = fi->linked ? ", through a link" : "";
	/* a file the screen names by what it is */
	if (f->out && g->noun)
		return err_set(e, "%s%s%s: is %s%s (%s)%s%s; name another file", f->what,
		               f->what[0] ? " " : "", f->path,
		               in_dir   ? "a file of "
		               : g->out ? "also "
		                        : "",
		               g->noun, g->path, how,
		               g->out ? ": two outputs never share a file"
		                      : ", which the screen never writes over");
	if (f->out && !g->out)
		return err_set(e,
		               "%s %s: is %s %s reads (%s)%s: an output never takes the place of "
		               "an input; name another file",
		               f->what, f->path, in_dir ? "a file of the directory" : "the file",
		               g->what, g->path, how);
	if (!f->out)
		return err_set(
		    e,
		    "%s %s: would write over %s %s%s, which the command reads: an output "
		    "never takes the place of an input; name another directory",
		    g->what, g->path, f->what, f->path, how);
	return err_set(e,
	               "%s %s: is %s %s writes (%s)%s: two outputs never share a file; name "
	               "another file",
	               f->what, f->path, in_dir ? "a file" : "the file", g->what, g->path, how);
}

int file_roles_apart(const FileRole *r, int n, Err *e)
{
	Ident *id = calloc((size_t)(n > 0 ? n : 1), sizeof *id);
	if (!id)
		return err_set(e, "out of memory");
	for (int i = 0; i < n; i++)
		ident(r[i].path, &id[i]);
	int rc = 0;
	for (int i = 0; i < n && rc == 0; i++) {
		if (!r[i].out || !id[i].known)
			continue;
		/* a device (/dev/null) takes what any number of outputs give it */
		if (id[i].exists && (S_ISCHR(id[i].mode) || S_ISFIFO(id[i].mode)))
			continue;
		for (int j = 0; j < n && rc == 0; j++) {
			if (j == i || !id[j].known || (r[j].out && j < i))
				continue;
			if (same(&id[i], &id[j]) &&
			    !(r[i].replaces && !r[j].out && !strcmp(r[i].replaces, r[j].what)))
				rc = clash(&r[i], &r[j], &id[i], 0, e);
			else if (r[j].names && !r[i].names && inside(&id[i], &id[j], r[j].names))
				rc = clash(&r[i], &r[j], &id[i], 1, e);
			else if (r[i].names && !r[j].names && inside(&id[j], &id[i], r[i].names))
				rc = clash(&r[j], &r[i], &id[j], 1, e);
		}
	}
	free(id);
	return rc;
}
