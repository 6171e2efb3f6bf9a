/* repro.c - the reproducible mode: entering it (the CPU check and the
 * re-execution with OpenBLAS's Haswell kernels) and its records. */
#include "base/repro.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/blas.h"

/* Set in the environment of the re-executed process, so that it refuses
 * instead of re-executing again when OpenBLAS still picks other kernels. */
#define REPRO_MARK "CONDNET_REPRO_REEXEC"

static int mode_on;

int repro_wanted(int argc, char **argv, int def)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--reproducible"))
			def = 1;
		else if (!strcmp(argv[i], "--no-reproducible"))
			def = 0;
	}
	return def;
}

/* The CPU's model name from /proc/cpuinfo, else "unknown". */
static const char *cpu_name(char *buf, size_t len)
{
	snprintf(buf, len, "unknown");
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return buf;
	char line[512];
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		if (colon && !strncmp(line, "model name", 10)) {
			colon += 1 + (colon[1] == ' ');
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(buf, len, "%s", colon);
			break;
		}
	}
	fclose(f);
	return buf;
}

/* 0 when the CPU runs the Haswell kernels (AVX2 and FMA), else -1 saying
 * what it lacks. */
static int cpu_check(Err *e)
{
	char name[256];
	cpu_name(name, sizeof name);
#if defined(__x86_64__) || defined(__i386__)
	__builtin_cpu_init();
	int avx2 = __builtin_cpu_supports("avx2"), fma = __builtin_cpu_supports("fma");
	if (avx2 && fma)
		return 0;
	return err_set(e, "reproducible mode needs a CPU with AVX2 and FMA (this one: %s, %s)",
	               name,
	               !avx2 && !fma ? "neither"
	               : avx2        ? "no FMA"
	                             : "no AVX2");
#else
	return err_set(e, "reproducible mode needs an x86-64 CPU with AVX2 and FMA (this one: %s)",
	               name);
#endif
}

/* The path to execute to run this very program again under its own name.
 * /proc/self/exe is the running binary, but a process started from it is
 * named "exe" by the kernel (what ps, top, pgrep, pidof and killall see), so
 * the path it links to is used when it still names the same file (same
 * device and inode). When the binary was deleted or replaced while it ran,
 * that path is another program or none: /proc/self/exe is used then and the
 * new process renames itself (repro_keep_name). Returns 1 for the resolved
 * path in buf, 0 for /proc/self/exe. */
static int self_path(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	struct stat self, named;
	if (n <= 0 || (size_t)n >= len - 1)
		return 0;
	buf[n] = '\0';
	if (stat("/proc/self/exe", &self) || stat(buf, &named))
		return 0;
	return self.st_dev == named.st_dev && self.st_ino == named.st_ino;
}

/* In a process re-executed through /proc/self/exe: take back the name of
 * argv[0] (its last component, 15 bytes at most as the kernel keeps). */
static void repro_keep_name(const char *argv0)
{
	if (!argv0 || !*argv0)
		return;
	const char *base = strrchr(argv0, '/');
	base = base ? base + 1 : argv0;
	char name[16];
	snprintf(name, sizeof name, "%s", base);
	prctl(PR_SET_NAME, name, 0, 0, 0);
}

int repro_enter(char **argv, Err *e)
{
	if (cpu_check(e))
		return -1;
	const char *core = blas_corename();
	if (strcasecmp(core, REPRO_KERNELS) != 0) {
		if (getenv(REPRO_MARK))
			return err_set(e,
			               "reproducible mode: OpenBLAS runs its %s kernels even "
			               "with OPENBLAS_CORETYPE=%s (an OpenBLAS built without "
			               "DYNAMIC_ARCH?)",
			               core, REPRO_KERNELS);
		if (setenv("OPENBLAS_CORETYPE", REPRO_KERNELS, 1))
			return err_set(e, "reproducible mode: cannot set OPENBLAS_CORETYPE");
		char path[4096];
		int named = self_path(path, sizeof path);
		if (setenv(REPRO_MARK, named ? "1" : "rename", 1))
			return err_set(e, "reproducible mode: cannot set " REPRO_MARK);
		fflush(NULL);
		execv(named ? path : "/proc/self/exe", argv);
		return err_set(e,
		               "reproducible mode: cannot re-execute %s with "
		               "OPENBLAS_CORETYPE=%s",
		               named ? path : "/proc/self/exe", REPRO_KERNELS);
	}
	const char *mark = getenv(REPRO_MARK);
	if (mark && !strcmp(mark, "rename"))
		repro_keep_name(argv[0]);
	unsetenv(REPRO_MARK);
	mode_on = 1;
	return 0;
}

int repro_on(void)
{
	return mode_on;
}

int repro_parts(int threads)
{
	return mode_on ? REPRO_PARTS : threads;
}

void repro_current(ReproRecord *r, int threads)
{
	memset(r, 0, sizeof *r);
	r->on = mode_on;
	snprintf(r->kernels, sizeof r->kernels, "%s", blas_corename());
	r->threads = threads;
	r->parts = repro_parts(threads);
}

const char *repro_format(const ReproRecord *r, char *buf, size_t len)
{
	snprintf(buf, len, "reproducible=%s kernels=%s threads=%d parts=%d", r->on ? "on" : "off",
	         r->kernels[0] ? r->kernels : "unknown", r->threads, r->parts);
	return buf;
}

int repro_parse(const char *s, ReproRecord *r, Err *e)
{
	memset(r, 0, sizeof *r);
	int found = 0;
	while (*s) {
		s += strspn(s, " \t#");
		size_t n = strcspn(s, " \t\r\n");
		if (!n)
			break;
		char word[64];
		int w = (int)(n < sizeof word ? n : sizeof word - 1);
		snprintf(word, sizeof word, "%.*s", w, s);
		if (!strncmp(word, "reproducible=", 13))
			r->on = !strcmp(word + 13, "on");
		else if (!strncmp(word, "kernels=", 8)) {
			snprintf(r->kernels, sizeof r->kernels, "%.31s", word + 8);
			found = 1;
		} else if (!strncmp(word, "threads=", 8))
			r->threads = atoi(word + 8);
		else if (!strncmp(word, "parts=", 6))
			r->parts = atoi(word + 6);
		s += n;
	}
	return found ? 0 : err_set(e, "no kernels= in the record '%.60s'", s);
}

int repro_compare(const ReproRecord *rec, const ReproRecord *now, Err *e)
{
	if (!rec->kernels[0])
		return 0;
	if (!strcasecmp(rec->kernels, now->kernels) && rec->parts == now->parts)
		return 0;
	return err_set(e,
	               "recorded with %s kernels, %d part%s; this run: %s, %d part%s — "
	               "numbers may differ",
	               rec->kernels, rec->parts, rec->parts == 1 ? "" : "s", now->kernels,
	               now->parts, now->parts == 1 ? "" : "s");
}
