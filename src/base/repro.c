/* repro.c - the reproducible mode: entering it (the CPU check and the
 * re-execution with OpenBLAS's Haswell kernels) and its records. */
#include "base/repro.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/blas.h"
#include "base/reexec.h"

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

int repro_enter(char **argv, Err *e)
{
	/* re-executed already: refuse rather than re-execute again when
	 * OpenBLAS still runs other kernels */
	int again = reexec_arrived(argv);
	if (cpu_check(e))
		return -1;
	const char *core = blas_corename();
	if (strcasecmp(core, REPRO_KERNELS) != 0) {
		if (again)
			return err_set(e,
			               "reproducible mode: OpenBLAS runs its %s kernels even "
			               "with OPENBLAS_CORETYPE=%s (an OpenBLAS built without "
			               "DYNAMIC_ARCH?)",
			               core, REPRO_KERNELS);
		reexec_with_kernels(argv, REPRO_KERNELS, e);
		return err_prefix(e, "reproducible mode");
	}
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
