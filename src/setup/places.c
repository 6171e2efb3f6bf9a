/* setup/places.c - where condnet's own files are: its installed data
 * folders, the source tree of a program run from its build tree, and the
 * manual and fetch script the messages name. */
#include "setup/places.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The directory of the running executable, in dir; 0, or -1 when unknown. */
static int exe_dir(char *dir, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);
	if (n <= 0 || (size_t)n >= len - 1)
		return -1;
	dir[n] = '\0';
	char *slash = strrchr(dir, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return 0;
}

int places_source_tree(char *dir, size_t len)
{
	char exe[PATH_MAX], path[PATH_MAX + 32], line[PATH_MAX + 64];
	if (exe_dir(exe, sizeof exe))
		return 0;
	snprintf(path, sizeof path, "%s/config.status", exe);
	if (access(path, F_OK) != 0)
		return 0;
	/* the build tree's Makefile names the source tree */
	snprintf(path, sizeof path, "%s/Makefile", exe);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	int found = 0;
	while (!found && fgets(line, sizeof line, f)) {
		const char *key = "abs_top_srcdir = ";
		if (strncmp(line, key, strlen(key)))
			continue;
		char *v = line + strlen(key);
		v[strcspn(v, "\n")] = '\0';
		found = *v && snprintf(dir, len, "%s", v) < (int)len;
	}
	fclose(f);
	/* configure's path may hold "build/..": the messages name the plain one */
	char real[PATH_MAX];
	if (found && realpath(dir, real) && strlen(real) < len)
		memcpy(dir, real, strlen(real) + 1);
	return found;
}

int places_data_dirs(const char *sub, char dirs[][PATH_MAX], int max)
{
	char exe[PATH_MAX], src[PATH_MAX];
	int n = 0;
	if (n < max && snprintf(dirs[n], PATH_MAX, "%s/%s", CONDNET_DATADIR, sub) < PATH_MAX)
		n++;
	/* installed elsewhere than configured: PREFIX/bin/condnet beside PREFIX/share/condnet */
	if (n < max && !exe_dir(exe, sizeof exe) &&
	    snprintf(dirs[n], PATH_MAX, "%s/../share/condnet/%s", exe, sub) < PATH_MAX)
		n++;
	if (n < max && places_source_tree(src, sizeof src) &&
	    snprintf(dirs[n], PATH_MAX, "%s/data/%s", src, sub) < PATH_MAX)
		n++;
	return n;
}

const char *places_man_hint(void)
{
	static char hint[PATH_MAX + 64];
	char cwd[PATH_MAX], src[PATH_MAX], page[PATH_MAX + 32];
	if (!places_source_tree(src, sizeof src))
		return "'man condnet'";
	snprintf(page, sizeof page, "%s/man/condnet.1", src);
	if (access(page, R_OK) != 0)
		return "'man condnet'";
	if (getcwd(cwd, sizeof cwd) && !strcmp(cwd, src))
		return "'man ./man/condnet.1'";
	snprintf(hint, sizeof hint, "'man %s'", page);
	return hint;
}

const char *places_fetch_hint(void)
{
	static char found[PATH_MAX];
	char dirs[3][PATH_MAX];
	int n = places_data_dirs("", dirs, 3);
	for (int i = 0; i < n; i++) {
		/* the source tree's script is data/fetch; the installed one, fetch */
		size_t len = strlen(dirs[i]);
		if (len + sizeof "fetch" > PATH_MAX)
			continue;
		memcpy(dirs[i] + len, "fetch", sizeof "fetch");
		if (access(dirs[i], X_OK) == 0 && realpath(dirs[i], found))
			return found;
	}
	return "data/fetch";
}
