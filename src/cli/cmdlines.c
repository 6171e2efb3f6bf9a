/* cmdlines.c - command lines that run the parts of a batch command as separate
 * processes: shell quoting, absolute paths, the options passed on. */
#include "cli/cmdlines.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "base/one_line.h"
#include "cli/cli.h"
#include "data/datasets.h"

int plan_open(Plan *p, Err *e)
{
	memset(p, 0, sizeof *p);
	p->f = open_memstream(&p->buf, &p->len);
	return p->f ? 0 : err_set(e, "out of memory");
}

void plan_end_line(Plan *p)
{
	fputc('\n', p->f);
	p->lines++;
}

int plan_close(Plan *p, const char *path, Err *e)
{
	int rc;
	if (fclose(p->f))
		rc = err_set(e, "%s: out of memory", path ? path : "plan");
	else if (path)
		rc = file_write(path, p->buf, p->len, FILE_OUT_TEXT, e);
	else
		rc = fwrite(p->buf, 1, p->len, stdout) == p->len ? 0
		                                                 : err_set(e, "writing the plan");
	free(p->buf);
	p->buf = NULL;
	return rc;
}

void plan_discard(Plan *p)
{
	fclose(p->f);
	free(p->buf);
	p->buf = NULL;
}

int plan_empty(const char *path, Err *e)
{
	return file_write(path, "", 0, FILE_OUT_TEXT, e);
}

int plan_word(FILE *f, const char *what, const char *word, int first, Err *e)
{
	static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	                           "0123456789@%+=:,./_-";
	if (one_line_check(what, word, PLAN_WHERE, e))
		return -1;
	if (!first)
		fputc(' ', f);
	if (*word && strspn(word, safe) == strlen(word) && *word != '=') {
		fputs(word, f);
		return 0;
	}
	/* 'it'\''s': single quotes keep everything but a quote, which is closed,
	 * escaped and reopened. */
	fputc('\'', f);
	for (const char *c = word; *c; c++)
		if (*c == '\'')
			fputs("'\\''", f);
		else
			fputc(*c, f);
	fputc('\'', f);
	return 0;
}

int plan_path(FILE *f, const char *what, const char *path, Err *e)
{
	char cwd[PATH_MAX];
	if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
		return plan_word(f, what, path, 0, e);
	size_t n = strlen(cwd) + strlen(path) + 2;
	char *abs = malloc(n);
	if (!abs)
		return plan_word(f, what, path, 0, e);
	snprintf(abs, n, "%s/%s", cwd, strncmp(path, "./", 2) ? path : path + 2);
	int rc = plan_word(f, what, abs, 0, e);
	free(abs);
	return rc;
}

int plan_check_path(const char *what, const char *path, Err *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return err_set(e, "out of memory");
	int rc = plan_path(f, what, path, e);
	fclose(f);
	free(buf);
	return rc;
}

int plan_exe(FILE *f, Err *e)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		if (!strstr(exe, " (deleted)"))
			return plan_word(f, "the path of condnet itself", exe, 1, e);
	}
	return plan_word(f, "condnet", "condnet", 1, e);
}

const char *plan_num(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, len, "%.17g", v);
	return buf;
}

static int in_list(const char *name, const char *const *list)
{
	for (; list && *list; list++)
		if (!strcmp(name, *list))
			return 1;
	return 0;
}

/* "csv:TRAIN[,TEST]" with both files absolute, as one word. */
static int csv_spec(FILE *f, const char *spec, Err *e)
{
	char cwd[PATH_MAX], *buf = NULL;
	size_t len = 0;
	FILE *w = open_memstream(&buf, &len);
	if (!w || !getcwd(cwd, sizeof cwd)) {
		if (w)
			fclose(w);
		free(buf);
		return plan_word(f, "--data", spec, 0, e);
	}
	fputs("csv:", w);
	for (const char *s = spec + 4; *s;) {
		size_t l = strcspn(s, ",");
		if (s != spec + 4)
			fputc(',', w);
		if (*s != '/')
			fprintf(w, "%s/", cwd);
		fwrite(s, 1, l, w);
		s += l + (s[l] == ',');
	}
	fclose(w);
	int rc = plan_word(f, "--data", buf ? buf : spec, 0, e);
	free(buf);
	return rc;
}

int plan_options(FILE *f, int argc, char **argv, uint64_t common, const struct option *own,
                 const char *const *skip, const char *data, Err *e)
{
	struct option opts[opts_table_len(own)];
	opts_table(opts, opts_table_len(own), common, own);

	int data_dir = 0, idx, o, rc = 0;
	opterr = 0;
	optind = 0;
	while (rc == 0 && (o = getopt_long(argc, argv, ":h", opts, &idx)) != -1) {
		if (o == ':' || o == '?' || o == 'h' || o == OPTS_DRY_RUN)
			continue;
		const char *name = opts[idx].name;
		if (in_list(name, skip))
			continue;
		char word[128];
		snprintf(word, sizeof word, "--%s", name);
		rc = plan_word(f, word, word, 0, e);
		if (rc || opts[idx].has_arg == no_argument)
			continue;
		if (!strcmp(name, "load") || !strcmp(name, "data-dir"))
			rc = plan_path(f, word, optarg, e);
		else if (!strcmp(name, "data") && !strncmp(optarg, "csv:", 4))
			rc = csv_spec(f, optarg, e);
		else
			rc = plan_word(f, word, optarg, 0, e);
		data_dir |= !strcmp(name, "data-dir");
	}
	optind = 0;
	int fetched =
	    data && (!strcmp(data, "mnist") || !strcmp(data, "fashion") || !strcmp(data, "adult"));
	if (rc == 0 && fetched && !data_dir && !in_list("data-dir", skip)) {
		char dir[PATH_MAX];
		rc = plan_word(f, "--data-dir", "--data-dir", 0, e) ||
		     plan_path(f, "the data directory (CONDNET_DATA, XDG_CACHE_HOME or HOME)",
		               datasets_dir(dir, sizeof dir), e);
	}
	return rc ? -1 : 0;
}

char *plan_command(const char *cmd, int argc, char **argv, uint64_t common,
                   const struct option *own, const char *const *skip, const char *data, Err *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) {
		err_set(e, "out of memory");
		return NULL;
	}
	int rc = plan_exe(f, e) || plan_word(f, cmd, cmd, 0, e) ||
	         plan_options(f, argc, argv, common, own, skip, data, e);
	if (fclose(f) && !rc)
		rc = err_set(e, "out of memory");
	if (rc) {
		free(buf);
		return NULL;
	}
	return buf;
}
