/* cli.c - what only the batch commands share: their failure message and
 * exit status, the check of their outputs before any work, and the refusal
 * of a plateau schedule without a validation set. */
#include "cli/cli.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/file.h"
#include "base/file_roles.h"
#include "base/signals.h"

int cli_no_plateau(const CommonOpts *c, const char *cmd, const char *why)
{
	if (c->train.sched.kind != SCHED_PLATEAU)
		return 0;
	fprintf(stderr, "condnet %s: the plateau schedule needs a validation set, which %s\n", cmd,
	        why);
	return 2;
}

int cli_fail(const char *cmd, const Err *e)
{
	fprintf(stderr, "condnet %s: %s\n", cmd, e->msg);
	/* a run a stop signal ended (a decomposition stopped in its middle) */
	return signals_stop() ? 130 : 1;
}

/* 1 when dir names the same path as the directory part of file (textually,
 * trailing slashes aside). */
static int dir_holds(const char *dir, const char *file)
{
	const char *slash = strrchr(file, '/');
	size_t dn = strlen(dir), fn = slash ? (size_t)(slash - file) : 0;
	while (dn > 1 && dir[dn - 1] == '/')
		dn--;
	if (!slash)
		return dn == 1 && dir[0] == '.';
	return fn == dn && !strncmp(dir, file, dn);
}

/* One own output: a directory, or a file (perhaps in one of own's directories). */
static int check_own(const CliOut *o, const CliOut *own, int n, Err *e)
{
	if (o->flags & CLI_OUT_DIR)
		return file_check_dir(o->path, e);
	for (int i = 0; i < n; i++) {
		struct stat st;
		if (own[i].path && (own[i].flags & CLI_OUT_DIR) &&
		    dir_holds(own[i].path, o->path) && stat(own[i].path, &st) != 0)
			return 0; /* made by the command: checked as a directory */
	}
	return file_check_writable(o->path, o->flags, e);
}

int cli_open_any(const char *cmd, const CommonOpts *c, const CliOut *own, int n, Dataset **train,
                 Dataset **test, Net **net, Err *e)
{
	if (cli_check_outputs(c, own, n, e))
		return -1;
	if (opts_dry_run(cmd))
		return 1;
	if (setup_load_data_any(c, train, test, e))
		return -1;
	*net = setup_make_net_any(c, *train, e);
	return *net ? 0 : -1;
}

int cli_check_outputs(const CommonOpts *c, const CliOut *own, int n, Err *e)
{
	if ((c->save && file_check_writable(c->save, 0, e)) ||
	    (c->json && file_check_writable(c->json, FILE_OUT_TEXT, e)) ||
	    (c->csv && file_check_writable(c->csv, FILE_OUT_TEXT, e)))
		return -1;
	for (int i = 0; i < n; i++)
		if (own[i].path && !(own[i].flags & CLI_IN) && check_own(&own[i], own, n, e))
			return -1;
	/* no output takes the place of an input or of another output */
	FileRole *r = malloc((SETUP_MAX_ROLES + (size_t)n) * sizeof *r);
	char(*bufs)[PATH_MAX] = malloc(SETUP_MAX_ROLES * sizeof *bufs);
	if (!r || !bufs) {
		free(r);
		free(bufs);
		return err_set(e, "out of memory");
	}
	int k = setup_roles(c, r, bufs);
	for (int i = 0; i < n; i++)
		if (own[i].path)
			r[k++] = (FileRole){own[i].what ? own[i].what : "output",
			                    own[i].path,
			                    !(own[i].flags & CLI_IN),
			                    own[i].names,
			                    NULL,
			                    NULL};
	int apart = file_roles_apart(r, k, e);
	free(r);
	free(bufs);
	if (apart)
		return -1;
	/* a record written to standard output has it to itself: the text report
	 * goes to standard error then, and two records cannot share it */
	const char *to_stdout[2];
	k = 0;
	if (c->json && file_is_stdout(c->json))
		to_stdout[k++] = "--json";
	if (c->csv && file_is_stdout(c->csv))
		to_stdout[k++] = "--csv";
	for (int i = 0; i < n && k < 2; i++)
		if (own[i].path && !(own[i].flags & CLI_IN) && (own[i].flags & FILE_OUT_TEXT) &&
		    file_is_stdout(own[i].path))
			to_stdout[k++] = own[i].path;
	if (k == 2)
		return err_set(e, "%s and %s both name standard output: give one of them a file",
		               to_stdout[0], to_stdout[1]);
	return k ? file_stdout_for_records(e) : 0;
}
