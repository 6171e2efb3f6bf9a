/* kernels.c - the OpenBLAS kernels condnet runs: the choice from the CPU's
 * features, running again with it, and the words that say which and why. */
#include "base/kernels.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/blas.h"
#include "base/reexec.h"
#include "base/repro.h"

/* Set with OPENBLAS_CORETYPE when condnet chose the kernels and runs itself
 * again with them: "SkylakeX:Prescott:PID:START", the kernels chosen,
 * OpenBLAS's own choice, and the process that chose (its id, which exec
 * keeps, and its start in clock ticks since boot, /proc/PID/stat). The
 * process run again takes it (kernels_take_mark) only when it is that very
 * process, OPENBLAS_CORETYPE names the kernels chosen, and the choice is the
 * one kernels_choose makes on this CPU from OpenBLAS's: a mark copied,
 * inherited or written by hand is no record of condnet's choice, and
 * OPENBLAS_CORETYPE is then the user's. */
#define KERNELS_MARK "CONDNET_KERNELS"

/* OpenBLAS's x86 core names (gotoblas_corename) and their ranks. */
static const struct {
	const char *name;
	int rank;
} cores[] = {
    {"Katmai", 1},       {"Coppermine", 1},     {"Northwood", 1},
    {"Prescott", 1},     {"Banias", 1},         {"Atom", 1},
    {"Core2", 1},        {"Penryn", 1},         {"Dunnington", 1},
    {"Nehalem", 1},      {"Athlon", 1},         {"Opteron", 1},
    {"Opteron_SSE3", 1}, {"Barcelona", 1},      {"Nano", 1},
    {"Bobcat", 1},       {"Sandybridge", 2},    {"Bulldozer", 2},
    {"Piledriver", 2},   {"Steamroller", 2},    {"Haswell", 3},
    {"Zen", 3},          {"Excavator", 3},      {"SkylakeX", 4},
    {"Cooperlake", 5},   {"SapphireRapids", 6},
};

int kernels_rank(const char *core)
{
	for (size_t i = 0; core && i < sizeof cores / sizeof *cores; i++)
		if (!strcasecmp(core, cores[i].name))
			return cores[i].rank;
	return 0;
}

/* OpenBLAS's choice, and nothing said yet. */
static void openblas_choice(KernelsChoice *k, const char *openblas, const char *version)
{
	memset(k, 0, sizeof *k);
	snprintf(k->openblas, sizeof k->openblas, "%s", openblas ? openblas : "unknown");
	snprintf(k->version, sizeof k->version, "%s", version ? version : "");
	snprintf(k->core, sizeof k->core, "%s", k->openblas);
	k->why = KERNELS_OPENBLAS;
}

void kernels_choose(const char *openblas, const char *version, const CpuFeatures *f,
                    KernelsChoice *k)
{
	openblas_choice(k, openblas, version);
	int have = kernels_rank(openblas);
	if (!have)
		return;
	/* the best rank the features allow, and what keeps the CPU from the
	 * next one up when it reports that one's main feature */
	unsigned h = f->has;
	int best;
	KernelsWhy limit = KERNELS_OPENBLAS;
	if (!(h & CPU_AVX)) {
		best = 1;
		limit = KERNELS_NO_AVX;
	} else if (!(f->os & CPU_OS_AVX)) {
		best = 1;
		limit = KERNELS_OS_AVX;
	} else if (!(h & CPU_AVX2) || !(h & CPU_FMA)) {
		best = 2;
		if (h & CPU_AVX2)
			limit = KERNELS_NO_FMA;
	} else if (!(h & CPU_AVX512F)) {
		best = 3;
	} else if ((h & CPU_AVX512) != CPU_AVX512) {
		best = 3;
		limit = KERNELS_AVX512_PART;
		k->missing = CPU_AVX512 & ~h;
	} else if (!(f->os & CPU_OS_AVX512)) {
		best = 3;
		limit = KERNELS_OS_AVX512;
	} else {
		best = h & CPU_AVX512BF16 ? 5 : 4;
	}
	if (have < best) {
		static const char *const intel[] = {"",        "",         "Sandybridge",
		                                    "Haswell", "SkylakeX", "Cooperlake"};
		const char *name = best == 3 && cpu_is_amd(f) ? "Zen" : intel[best];
		snprintf(k->core, sizeof k->core, "%s", name);
		k->why = KERNELS_CHOSEN;
	} else if (have == best) {
		k->why = limit;
	}
}

/* "CD, BW" for the AVX-512 subsets in `missing`. */
static const char *subsets(unsigned missing, char *buf, size_t len)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {{CPU_AVX512F, "F"},
	             {CPU_AVX512CD, "CD"},
	             {CPU_AVX512BW, "BW"},
	             {CPU_AVX512DQ, "DQ"},
	             {CPU_AVX512VL, "VL"}};
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (missing & names[i].bit && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
			                      names[i].name);
	return buf;
}

const char *kernels_why_text(const KernelsChoice *k, int brief, char *buf, size_t len)
{
	const char *v = k->version[0] ? k->version : "?";
	char miss[32];
	switch (k->why) {
	case KERNELS_OPENBLAS:
		snprintf(buf, len, "%s", "");
		break;
	case KERNELS_CHOSEN:
		if (brief)
			snprintf(buf, len, "chosen; OpenBLAS took %s", k->openblas);
		else
			snprintf(buf, len,
			         "chosen from the CPU's features; OpenBLAS %s took this CPU for %s",
			         v, k->openblas);
		break;
	case KERNELS_NO_AVX:
		snprintf(buf, len, "%s",
		         brief ? "kept: no AVX"
		               : "OpenBLAS's choice, kept: the CPU reports no AVX (a "
		                 "virtual machine may hide it)");
		break;
	case KERNELS_OS_AVX:
		snprintf(buf, len, "%s",
		         brief ? "kept: AVX off in the OS"
		               : "OpenBLAS's choice, kept: the OS has not enabled the "
		                 "AVX registers (XGETBV)");
		break;
	case KERNELS_NO_FMA:
		snprintf(buf, len, "%s",
		         brief ? "kept: no FMA"
		               : "OpenBLAS's choice, kept: the CPU reports AVX2 without "
		                 "FMA, which the Haswell kernels need");
		break;
	case KERNELS_AVX512_PART:
		subsets(k->missing, miss, sizeof miss);
		if (brief)
			snprintf(buf, len, "kept: no AVX-512 %s", miss);
		else
			snprintf(
			    buf, len,
			    "OpenBLAS's choice, kept: the CPU reports AVX-512 F without %s, which "
			    "the SkylakeX kernels need",
			    miss);
		break;
	case KERNELS_OS_AVX512:
		snprintf(buf, len, "%s",
		         brief ? "kept: AVX-512 off in the OS"
		               : "OpenBLAS's choice, kept: the OS has not enabled the "
		                 "AVX-512 registers (XGETBV)");
		break;
	case KERNELS_USER:
		if (!strcasecmp(k->asked, k->core))
			snprintf(buf, len, "%s",
			         brief ? "OPENBLAS_CORETYPE" : "set by OPENBLAS_CORETYPE");
		else
			snprintf(buf, len, "OPENBLAS_CORETYPE=%.31s%s%s", k->asked,
			         brief ? "" : ", which OpenBLAS runs as ", brief ? "" : k->core);
		break;
	case KERNELS_REPRO:
		snprintf(buf, len, "%s", "the reproducible mode's");
		break;
	case KERNELS_NOT_TAKEN:
		snprintf(buf, len, "condnet chose %s%s%s%s", k->asked,
		         brief ? "" : " from the CPU's features, but OpenBLAS ", brief ? "" : v,
		         brief ? "" : " runs these");
		break;
	case KERNELS_NO_REEXEC:
		snprintf(buf, len, "%s%s%s", brief ? "not re-executed with " : "condnet chose ",
		         k->asked, brief ? "" : " but could not run itself again with them");
		break;
	}
	return buf;
}

/* OpenBLAS's version from its configuration ("OpenBLAS 0.3.21 …"). */
static void blas_version(char *buf, size_t len)
{
	const char *c = blas_config();
	const char *sp = strchr(c, ' ');
	snprintf(buf, len, "%.*s", sp ? (int)strcspn(sp + 1, " ") : 0, sp ? sp + 1 : "");
}

/* Set when kernels_enter chose kernels but could not run with them. */
static char failed[32];

/* The mark this process took: the kernels condnet chose and OpenBLAS's
 * choice, "" when there was none it could trust. */
static char mark_core[32], mark_openblas[32];

/* This process's start, in clock ticks since boot (field 22 of
 * /proc/self/stat); 0 when it cannot be read. */
static unsigned long long start_ticks(void)
{
	char buf[1024];
	FILE *f = fopen("/proc/self/stat", "r");
	size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	/* the fields after the name, which may hold spaces and parentheses */
	const char *p = strrchr(buf, ')');
	unsigned long long t = 0;
	for (int field = 2; p && *p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p && sscanf(p, " %llu", &t) != 1)
		t = 0;
	return t;
}

/* A core name as a mark holds it: letters, digits and '_', 1 to 31. */
static int core_name(const char *s, size_t n)
{
	if (n < 1 || n > 31)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return 0;
	return 1;
}

int kernels_take_mark(void)
{
	const char *mark = getenv(KERNELS_MARK), *env = getenv("OPENBLAS_CORETYPE");
	mark_core[0] = mark_openblas[0] = '\0';
	char core[32], openblas[32];
	long pid;
	unsigned long long start;
	int end = 0;
	int n1 = mark ? (int)strcspn(mark, ":") : 0;
	int n2 = mark && mark[n1] ? (int)strcspn(mark + n1 + 1, ":") : 0;
	int ok = mark && env && core_name(mark, (size_t)n1) && mark[n1] == ':' &&
	         core_name(mark + n1 + 1, (size_t)n2) && mark[n1 + 1 + n2] == ':' &&
	         sscanf(mark + n1 + 2 + n2, "%ld:%llu%n", &pid, &start, &end) == 2 &&
	         !mark[n1 + 2 + n2 + end] && pid == (long)getpid() && start != 0 &&
	         start == start_ticks() && strlen(env) == (size_t)n1 &&
	         !strncasecmp(env, mark, (size_t)n1);
	if (ok) {
		snprintf(core, sizeof core, "%.*s", n1, mark);
		snprintf(openblas, sizeof openblas, "%.*s", n2, mark + n1 + 1);
		/* the choice kernels_choose makes on this CPU from OpenBLAS's */
		CpuRegs r;
		CpuFeatures f;
		char version[16];
		KernelsChoice k;
		blas_version(version, sizeof version);
		ok = cpu_read(&r) == 0;
		if (ok) {
			cpu_decode(&r, &f);
			kernels_choose(openblas, version, &f, &k);
			ok = k.why == KERNELS_CHOSEN && !strcasecmp(k.core, core);
		}
	}
	if (ok) {
		snprintf(mark_core, sizeof mark_core, "%s", core);
		snprintf(mark_openblas, sizeof mark_openblas, "%s", openblas);
	}
	/* no process this one starts takes it for its own */
	unsetenv(KERNELS_MARK);
	return ok;
}

int kernels_enter(char **argv, Err *e)
{
	reexec_arrived(argv);
	kernels_take_mark();
	if (getenv("OPENBLAS_CORETYPE"))
		return 0;
	CpuRegs r;
	CpuFeatures f;
	if (cpu_read(&r))
		return 0;
	cpu_decode(&r, &f);
	char version[16];
	blas_version(version, sizeof version);
	KernelsChoice k;
	kernels_choose(blas_corename(), version, &f, &k);
	if (k.why != KERNELS_CHOSEN)
		return 0;
	char mark[128];
	snprintf(mark, sizeof mark, "%s:%s:%ld:%llu", k.core, k.openblas, (long)getpid(),
	         start_ticks());
	if (setenv(KERNELS_MARK, mark, 1) == 0)
		reexec_with_kernels(argv, k.core, e);
	else
		err_set(e, "cannot set " KERNELS_MARK " in the environment: %s", strerror(errno));
	unsetenv(KERNELS_MARK);
	snprintf(failed, sizeof failed, "%s", k.core);
	return err_prefix(e, "kept OpenBLAS's %s kernels, not %s", k.openblas, k.core);
}

void kernels_current(KernelsChoice *k)
{
	char version[16];
	blas_version(version, sizeof version);
	const char *core = blas_corename();
	const char *env = getenv("OPENBLAS_CORETYPE");
	if (repro_on()) {
		openblas_choice(k, core, version);
		k->why = KERNELS_REPRO;
		return;
	}
	if (!env) {
		CpuRegs r;
		CpuFeatures f;
		if (cpu_read(&r) == 0)
			cpu_decode(&r, &f);
		else
			memset(&f, 0, sizeof f);
		kernels_choose(core, version, &f, k);
		/* condnet would choose others, but this process was not run
		 * again with them: these are OpenBLAS's */
		if (k->why == KERNELS_CHOSEN) {
			snprintf(k->asked, sizeof k->asked, "%s", k->core);
			snprintf(k->core, sizeof k->core, "%s", core);
			k->why = failed[0] ? KERNELS_NO_REEXEC : KERNELS_OPENBLAS;
		}
		return;
	}
	openblas_choice(k, core, version);
	snprintf(k->asked, sizeof k->asked, "%s", env);
	/* condnet's own choice only with the mark this process took for it */
	if (mark_core[0] && !strcasecmp(env, mark_core)) {
		snprintf(k->openblas, sizeof k->openblas, "%s", mark_openblas);
		k->why = strcasecmp(env, core) ? KERNELS_NOT_TAKEN : KERNELS_CHOSEN;
	} else {
		k->why = KERNELS_USER;
	}
}

const char *kernels_describe(int brief, char *buf, size_t len)
{
	KernelsChoice k;
	kernels_current(&k);
	char why[256];
	kernels_why_text(&k, brief, why, sizeof why);
	if (!why[0])
		snprintf(buf, len, "%s", k.core);
	else if (brief)
		snprintf(buf, len, "%s (%s)", k.core, why);
	else
		snprintf(buf, len, "%s, %s", k.core, why);
	return buf;
}
