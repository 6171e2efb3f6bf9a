/* test_kernels.c - the choice of OpenBLAS kernels (base/kernels.h) from
 * OpenBLAS's core name and the CPU's cpuid words (base/cpu.h), on a table of
 * real CPUs: their signatures (family, model, stepping), the features they
 * report and the register states their OS saves, with the core OpenBLAS
 * 0.3.21 picks for each (its driver/others/dynamic.c: Intel's family 6 model
 * 207 falls through its tables to Prescott; Zen 5, family 26, is not in them
 * and gets its fallback by features). Also this very CPU's decoding against
 * what the kernel says in /proc/cpuinfo, the words of the reasons, and what
 * a process says of its kernels with and without OPENBLAS_CORETYPE. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/blas.h"
#include "base/cpu.h"
#include "base/kernels.h"
#include "testutil.h"

/* cpuid bits (Intel SDM vol. 2A, CPUID; AMD APM vol. 3, appendix E) */
#define ECX_FMA (1u << 12)
#define ECX_OSXSAVE (1u << 27)
#define ECX_AVX (1u << 28)
#define ECX_BASE 0x02982203u /* SSE3, PCLMUL, SSSE3, CX16, SSE4.1/4.2, POPCNT, AES: every row */
#define EBX_AVX2 (1u << 5)
#define EBX_F (1u << 16)
#define EBX_DQ (1u << 17)
#define EBX_CD (1u << 28)
#define EBX_BW (1u << 30)
#define EBX_VL (1u << 31)
#define EBX_512 (EBX_F | EBX_DQ | EBX_CD | EBX_BW | EBX_VL)
#define EAX71_BF16 (1u << 5)
/* XCR0: x87, SSE, AVX; then opmask, ZMM_Hi256, Hi16_ZMM; PKRU; AMX tiles */
#define XCR0_AVX 0x7ull
#define XCR0_512 0xe7ull
#define AVX2_FMA (ECX_BASE | ECX_OSXSAVE | ECX_AVX | ECX_FMA)

static const struct {
	const char *cpu;
	CpuRegs regs;
	const char *openblas; /* OpenBLAS 0.3.21's choice */
	const char *core;     /* the kernels condnet runs */
	KernelsWhy why;
	int family, model;
} table[] = {
    /* the CPU: Xeon of family 6 model 207 (0xCF), Emerald Rapids */
    {"Emerald Rapids",
     {"GenuineIntel", 0x000c06f2, AVX2_FMA, EBX_AVX2 | EBX_512, EAX71_BF16, 0x602e7},
     "Prescott",
     "Cooperlake",
     KERNELS_CHOSEN,
     6,
     207},
    /* the same with the OS not saving the AVX-512 registers */
    {"Emerald Rapids, AVX-512 off in the OS",
     {"GenuineIntel", 0x000c06f2, AVX2_FMA, EBX_AVX2 | EBX_512, EAX71_BF16, XCR0_AVX},
     "Prescott",
     "Haswell",
     KERNELS_CHOSEN,
     6,
     207},
    /* a virtual machine that hides AVX (and so everything after it) */
    {"Emerald Rapids in a VM hiding AVX",
     {"GenuineIntel", 0x000c06f2, ECX_BASE, 0, 0, 0},
     "Prescott",
     "Prescott",
     KERNELS_NO_AVX,
     6,
     207},
    /* AVX reported but the OS leaves CR4.OSXSAVE off: no XGETBV */
    {"Emerald Rapids, AVX off in the OS",
     {"GenuineIntel", 0x000c06f2, ECX_BASE | ECX_AVX | ECX_FMA, EBX_AVX2 | EBX_512, EAX71_BF16, 0},
     "Prescott",
     "Prescott",
     KERNELS_OS_AVX,
     6,
     207},
    {"Sapphire Rapids",
     {"GenuineIntel", 0x000806f8, AVX2_FMA, EBX_AVX2 | EBX_512, EAX71_BF16, 0x602e7},
     "Cooperlake",
     "Cooperlake",
     KERNELS_OPENBLAS,
     6,
     143},
    {"Skylake-X",
     {"GenuineIntel", 0x00050654, AVX2_FMA, EBX_AVX2 | EBX_512, 0, 0x2e7},
     "SkylakeX",
     "SkylakeX",
     KERNELS_OPENBLAS,
     6,
     85},
    /* OpenBLAS falls back to Haswell when XGETBV says no AVX-512 state */
    {"Skylake-X, AVX-512 off in the OS",
     {"GenuineIntel", 0x00050654, AVX2_FMA, EBX_AVX2 | EBX_512, 0, XCR0_AVX},
     "Haswell",
     "Haswell",
     KERNELS_OS_AVX512,
     6,
     85},
    /* Knights Landing: AVX-512 F and CD (and ER, PF), no BW, DQ, VL */
    {"Knights Landing",
     {"GenuineIntel", 0x00050671, AVX2_FMA, EBX_AVX2 | EBX_F | EBX_CD, 0, XCR0_512},
     "Haswell",
     "Haswell",
     KERNELS_AVX512_PART,
     6,
     87},
    {"Haswell",
     {"GenuineIntel", 0x000306c3, AVX2_FMA, EBX_AVX2, 0, XCR0_AVX},
     "Haswell",
     "Haswell",
     KERNELS_OPENBLAS,
     6,
     60},
    /* a VM hiding AVX on a CPU OpenBLAS knows: its Nehalem fallback */
    {"Haswell in a VM hiding AVX",
     {"GenuineIntel", 0x000306c3, ECX_BASE, 0, 0, 0},
     "Nehalem",
     "Nehalem",
     KERNELS_NO_AVX,
     6,
     60},
    {"Zen 2 (EPYC Rome)",
     {"AuthenticAMD", 0x00830f10, AVX2_FMA, EBX_AVX2, 0, XCR0_AVX},
     "Zen",
     "Zen",
     KERNELS_OPENBLAS,
     23,
     49},
    {"Zen 3 (EPYC Milan)",
     {"AuthenticAMD", 0x00a00f11, AVX2_FMA, EBX_AVX2, 0, 0x207},
     "Zen",
     "Zen",
     KERNELS_OPENBLAS,
     25,
     1},
    {"Zen 4 (EPYC Genoa)",
     {"AuthenticAMD", 0x00a10f11, AVX2_FMA, EBX_AVX2 | EBX_512, EAX71_BF16, 0x2e7},
     "Cooperlake",
     "Cooperlake",
     KERNELS_OPENBLAS,
     25,
     17},
    /* Zen 5 (EPYC Turin): this machine's registers as cpuid gave them */
    {"Zen 5 (EPYC Turin)",
     {"AuthenticAMD", 0x00b00f21, 0xfffa3203, 0xf1bf07ab, 0x00000030, 0xe7},
     "Cooperlake",
     "Cooperlake",
     KERNELS_OPENBLAS,
     26,
     2},
    /* an OpenBLAS that took it for its AVX2 Zen kernels: newer OpenBLAS
     * releases give Zen 4 and later with AVX-512 the Cooperlake kernels */
    {"Zen 5, OpenBLAS saying Zen",
     {"AuthenticAMD", 0x00b00f21, 0xfffa3203, 0xf1bf07ab, 0x00000030, 0xe7},
     "Zen",
     "Cooperlake",
     KERNELS_CHOSEN,
     26,
     2},
    /* Zen 3 taken for an SSE core: the AMD name of the AVX2 kernels */
    {"Zen 3, OpenBLAS saying Barcelona",
     {"AuthenticAMD", 0x00a00f11, AVX2_FMA, EBX_AVX2, 0, 0x207},
     "Barcelona",
     "Zen",
     KERNELS_CHOSEN,
     25,
     1},
    /* Zen 4 in a VM whose OS does not save the AVX-512 registers */
    {"Zen 4, AVX-512 off in the OS",
     {"AuthenticAMD", 0x00a10f11, AVX2_FMA, EBX_AVX2 | EBX_512, EAX71_BF16, XCR0_AVX},
     "Zen",
     "Zen",
     KERNELS_OS_AVX512,
     25,
     17},
    /* Sandy Bridge: AVX only */
    {"Sandy Bridge, OpenBLAS saying Prescott",
     {"GenuineIntel", 0x000206a7, ECX_BASE | ECX_OSXSAVE | ECX_AVX, 0, 0, XCR0_AVX},
     "Prescott",
     "Sandybridge",
     KERNELS_CHOSEN,
     6,
     42},
    /* a core name of another architecture: never touched */
    {"not x86", {"", 0, 0, 0, 0, 0}, "NEOVERSEN1", "NEOVERSEN1", KERNELS_OPENBLAS, 0, 0},
};

/* Every CPU of the table: the decoded family and model, the kernels run and
 * why; choosing again from the kernels run changes nothing. */
START_TEST(test_kernels_table)
{
	for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
		CpuFeatures f;
		KernelsChoice k;
		cpu_decode(&table[i].regs, &f);
		ck_assert_msg(f.family == table[i].family && f.model == table[i].model,
		              "%s: family %d model %d", table[i].cpu, f.family, f.model);
		kernels_choose(table[i].openblas, "0.3.21", &f, &k);
		ck_assert_msg(!strcmp(k.core, table[i].core) && k.why == table[i].why,
		              "%s: %s (why %d), expected %s (why %d)", table[i].cpu, k.core, k.why,
		              table[i].core, table[i].why);
		ck_assert_str_eq(k.openblas, table[i].openblas);
		KernelsChoice again;
		kernels_choose(k.core, "0.3.21", &f, &again);
		ck_assert_str_eq(again.core, k.core);
		ck_assert_int_ne(again.why, KERNELS_CHOSEN);
	}
}
END_TEST

/* The features decoded from the registers: the AVX-512 subsets one by one,
 * and XCR0 only counts with OSXSAVE. */
START_TEST(test_kernels_decode)
{
	CpuRegs r = {"GenuineIntel",     0x000c06f2, AVX2_FMA,
	             EBX_AVX2 | EBX_512, EAX71_BF16, XCR0_512};
	CpuFeatures f;
	cpu_decode(&r, &f);
	ck_assert_uint_eq(f.has, CPU_AVX | CPU_FMA | CPU_AVX2 | CPU_AVX512 | CPU_AVX512BF16);
	ck_assert_uint_eq(f.os, CPU_OS_AVX | CPU_OS_AVX512);
	ck_assert_int_eq(f.stepping, 2);
	static const struct {
		unsigned ebx, feature;
	} one[] = {{EBX_F, CPU_AVX512F},
	           {EBX_CD, CPU_AVX512CD},
	           {EBX_BW, CPU_AVX512BW},
	           {EBX_DQ, CPU_AVX512DQ},
	           {EBX_VL, CPU_AVX512VL}};
	for (size_t i = 0; i < sizeof one / sizeof *one; i++) {
		r.ebx7 = EBX_AVX2 | (EBX_512 & ~one[i].ebx);
		cpu_decode(&r, &f);
		ck_assert_uint_eq(f.has & CPU_AVX512, CPU_AVX512 & ~one[i].feature);
		KernelsChoice k;
		kernels_choose("Haswell", "0.3.21", &f, &k);
		/* without F the CPU simply has no AVX-512: nothing to say */
		ck_assert_int_eq(k.why, one[i].feature == CPU_AVX512F ? KERNELS_OPENBLAS
		                                                      : KERNELS_AVX512_PART);
		ck_assert_uint_eq(k.missing, one[i].feature == CPU_AVX512F ? 0 : one[i].feature);
	}
	r.ecx1 &= ~ECX_OSXSAVE; /* XCR0 left over, but the OS has no XSAVE */
	cpu_decode(&r, &f);
	ck_assert_uint_eq(f.os, 0);
	r = (CpuRegs){"GenuineIntel", 0x000c06f2, AVX2_FMA, EBX_AVX2 | EBX_512, 0, 0xe3};
	cpu_decode(&r, &f); /* AVX-512 states without the YMM state: neither */
	ck_assert_uint_eq(f.os, 0);
	r.xcr0 = 0x67; /* Hi16_ZMM missing */
	cpu_decode(&r, &f);
	ck_assert_uint_eq(f.os, CPU_OS_AVX);
}
END_TEST

START_TEST(test_kernels_rank)
{
	ck_assert_int_eq(kernels_rank("Prescott"), 1);
	ck_assert_int_eq(kernels_rank("prescott"), 1);
	ck_assert_int_eq(kernels_rank("Nehalem"), 1);
	ck_assert_int_eq(kernels_rank("Sandybridge"), 2);
	ck_assert_int_eq(kernels_rank("Haswell"), 3);
	ck_assert_int_eq(kernels_rank("ZEN"), 3);
	ck_assert_int_eq(kernels_rank("SkylakeX"), 4);
	ck_assert_int_eq(kernels_rank("Cooperlake"), 5);
	ck_assert_int_eq(kernels_rank("SapphireRapids"), 6);
	ck_assert_int_eq(kernels_rank("NEOVERSEN1"), 0);
	ck_assert_int_eq(kernels_rank(""), 0);
	ck_assert_int_eq(kernels_rank(NULL), 0);
	/* a newer OpenBLAS's own better choice stands */
	CpuFeatures f;
	cpu_decode(&table[0].regs, &f);
	KernelsChoice k;
	kernels_choose("SapphireRapids", "0.3.28", &f, &k);
	ck_assert_str_eq(k.core, "SapphireRapids");
	ck_assert_int_eq(k.why, KERNELS_OPENBLAS);
}
END_TEST

/* The words: the sentence for a choice, and every reason. */
START_TEST(test_kernels_words)
{
	CpuFeatures f;
	KernelsChoice k;
	char buf[256];
	cpu_decode(&table[0].regs, &f);
	kernels_choose("Prescott", "0.3.21", &f, &k);
	ck_assert_str_eq(
	    kernels_why_text(&k, 0, buf, sizeof buf),
	    "chosen from the CPU's features; OpenBLAS 0.3.21 took this CPU for Prescott");
	ck_assert_str_eq(kernels_why_text(&k, 1, buf, sizeof buf),
	                 "chosen; OpenBLAS took Prescott");
	for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
		cpu_decode(&table[i].regs, &f);
		kernels_choose(table[i].openblas, "0.3.21", &f, &k);
		kernels_why_text(&k, 0, buf, sizeof buf);
		ck_assert_msg((buf[0] != '\0') == (k.why != KERNELS_OPENBLAS), "%s: '%s'",
		              table[i].cpu, buf);
	}
	cpu_decode(&table[7].regs, &f); /* Knights Landing */
	kernels_choose("Haswell", "0.3.21", &f, &k);
	ck_assert_str_eq(kernels_why_text(&k, 0, buf, sizeof buf),
	                 "OpenBLAS's choice, kept: the CPU reports AVX-512 F without BW, DQ, VL, "
	                 "which the SkylakeX kernels need");
	ck_assert_str_eq(kernels_why_text(&k, 1, buf, sizeof buf), "kept: no AVX-512 BW, DQ, VL");
	cpu_decode(&table[6].regs, &f); /* Skylake-X, AVX-512 off in the OS */
	kernels_choose("Haswell", "0.3.21", &f, &k);
	ck_assert_str_eq(kernels_why_text(&k, 0, buf, sizeof buf),
	                 "OpenBLAS's choice, kept: the OS has not enabled the AVX-512 registers "
	                 "(XGETBV)");
	cpu_decode(&table[2].regs, &f); /* a VM hiding AVX */
	ck_assert_str_eq(cpu_describe(&f, buf, sizeof buf),
	                 "Intel family 6 model 207, no AVX; the OS saves no AVX registers");
	cpu_decode(&table[13].regs, &f); /* Zen 5 */
	ck_assert_str_eq(cpu_describe(&f, buf, sizeof buf),
	                 "AMD family 26 model 2, AVX FMA AVX2 AVX-512 F CD BW DQ VL BF16; the OS "
	                 "saves the AVX-512 registers");
}
END_TEST

/* This CPU, decoded from cpuid, against the flags the kernel shows in
 * /proc/cpuinfo (which it clears for registers it does not save). */
START_TEST(test_kernels_this_cpu)
{
	CpuRegs r;
	if (cpu_read(&r) != 0)
		return; /* not x86: nothing to read */
	CpuFeatures f;
	cpu_decode(&r, &f);
	FILE *in = fopen("/proc/cpuinfo", "r");
	if (!in)
		return;
	char line[8192], flags[8192] = "";
	while (fgets(line, sizeof line, in))
		if (!strncmp(line, "flags", 5)) {
			snprintf(flags, sizeof flags, " %s ", strchr(line, ':') + 1);
			break;
		}
	fclose(in);
	flags[strcspn(flags, "\n")] = ' ';
	ck_assert_msg(flags[0], "no flags line in /proc/cpuinfo");
	static const struct {
		const char *flag;
		unsigned feature, os;
	} map[] = {
	    {" avx ", CPU_AVX, CPU_OS_AVX},
	    {" fma ", CPU_FMA, CPU_OS_AVX},
	    {" avx2 ", CPU_AVX2, CPU_OS_AVX},
	    {" avx512f ", CPU_AVX512F, CPU_OS_AVX512},
	    {" avx512cd ", CPU_AVX512CD, CPU_OS_AVX512},
	    {" avx512bw ", CPU_AVX512BW, CPU_OS_AVX512},
	    {" avx512dq ", CPU_AVX512DQ, CPU_OS_AVX512},
	    {" avx512vl ", CPU_AVX512VL, CPU_OS_AVX512},
	    {" avx512_bf16 ", CPU_AVX512BF16, CPU_OS_AVX512},
	};
	for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
		int usable = (f.has & map[i].feature) && (f.os & map[i].os);
		ck_assert_msg(usable == (strstr(flags, map[i].flag) != NULL),
		              "%s: cpuid %d, kernel %d", map[i].flag, usable,
		              strstr(flags, map[i].flag) != NULL);
	}
}
END_TEST

/* This process's start in clock ticks since boot (/proc/self/stat). */
static unsigned long long self_start(void)
{
	char buf[1024];
	FILE *f = fopen("/proc/self/stat", "r");
	ck_assert_ptr_nonnull(f);
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	unsigned long long t = 0;
	ck_assert(p && sscanf(p, " %llu", &t) == 1);
	return t;
}

/* CONDNET_KERNELS set to the mark fmt makes. */
static void mark(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void mark(const char *fmt, ...)
{
	char m[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m, sizeof m, fmt, ap);
	va_end(ap);
	setenv("CONDNET_KERNELS", m, 1);
}

/* A process's kernels: the user's OPENBLAS_CORETYPE; condnet's own choice,
 * known from the mark it sets with it, checked; a choice OpenBLAS did not
 * take. */
START_TEST(test_kernels_current)
{
	const char *core = blas_corename();
	/* kernels other than the ones this process runs */
	const char *other = strcasecmp(core, "Sandybridge") ? "Sandybridge" : "Nehalem";
	char buf[320], want[320];
	KernelsChoice k;
	setenv("OPENBLAS_CORETYPE", other, 1);
	unsetenv("CONDNET_KERNELS");
	kernels_current(&k);
	ck_assert_int_eq(k.why, KERNELS_USER);
	ck_assert_str_eq(k.core, core);
	ck_assert_str_eq(k.asked, other);
	setenv("OPENBLAS_CORETYPE", core, 1);
	kernels_current(&k);
	ck_assert_int_eq(k.why, KERNELS_USER);
	snprintf(want, sizeof want, "%s, set by OPENBLAS_CORETYPE", core);
	ck_assert_str_eq(kernels_describe(0, buf, sizeof buf), want);
	snprintf(want, sizeof want, "%s (OPENBLAS_CORETYPE)", core);
	ck_assert_str_eq(kernels_describe(1, buf, sizeof buf), want);
	/* the mark of condnet's choice: taken only from the process that chose,
	 * for the kernels condnet chooses on this CPU from OpenBLAS's */
	CpuRegs r;
	CpuFeatures f;
	KernelsChoice best;
	ck_assert_int_eq(cpu_read(&r), 0);
	cpu_decode(&r, &f);
	kernels_choose("Prescott", "0.3.21", &f, &best);
	unsigned long long start = self_start();
	if (best.why == KERNELS_CHOSEN) {
		setenv("OPENBLAS_CORETYPE", best.core, 1);
		mark("%s:Prescott:%ld:%llu", best.core, (long)getpid(), start);
		ck_assert_int_eq(kernels_take_mark(), 1);
		ck_assert_ptr_null(getenv("CONDNET_KERNELS")); /* no process it starts takes it */
		kernels_current(&k);
		/* OpenBLAS runs what it loaded with: the choice is condnet's, taken or not */
		ck_assert_int_eq(k.why,
		                 strcasecmp(best.core, core) ? KERNELS_NOT_TAKEN : KERNELS_CHOSEN);
		ck_assert_str_eq(k.openblas, "Prescott");
		/* the user set OPENBLAS_CORETYPE again, to something else: theirs */
		setenv("OPENBLAS_CORETYPE", other, 1);
		kernels_current(&k);
		ck_assert_int_eq(k.why, KERNELS_USER);
		setenv("OPENBLAS_CORETYPE", best.core, 1);
		/* marks that are no record of this process's choice: empty, cut,
		 * another process's, another start, something after it, OpenBLAS's
		 * choice from which condnet would choose other kernels, kernels
		 * condnet would not choose, a name that is no core's */
		const char *c = best.core, *lower = "Sandybridge";
		long me = (long)getpid();
		char bad[10][160];
		snprintf(bad[0], sizeof bad[0], "%s", "");
		snprintf(bad[1], sizeof bad[1], "%s", ":");
		snprintf(bad[2], sizeof bad[2], "%s:Prescott", c);
		snprintf(bad[3], sizeof bad[3], "%s:Prescott:%ld:%llu", c, me + 1, start);
		snprintf(bad[4], sizeof bad[4], "%s:Prescott:%ld:%llu", c, me, start + 1);
		snprintf(bad[5], sizeof bad[5], "%s:Prescott:%ld:%llu:", c, me, start);
		snprintf(bad[6], sizeof bad[6], "%s:%s:%ld:%llu", c, c, me, start);
		snprintf(bad[7], sizeof bad[7], "%s:Prescott:%ld:%llu",
		         strcasecmp(c, lower) ? lower : "Haswell", me, start);
		snprintf(bad[8], sizeof bad[8], "%s:Pres;cott:%ld:%llu", c, me, start);
		snprintf(bad[9], sizeof bad[9], "%s:Prescott:%ld:%llu", "Unknown", me, start);
		for (int i = 0; i < 10; i++) {
			/* (kernels condnet would not choose, named by OPENBLAS_CORETYPE too) */
			setenv("OPENBLAS_CORETYPE", c, 1);
			if (i == 7)
				setenv("OPENBLAS_CORETYPE",
				       strcasecmp(c, lower) ? lower : "Haswell", 1);
			mark("%s", bad[i]);
			ck_assert_msg(kernels_take_mark() == 0, "mark '%s' taken", bad[i]);
			kernels_current(&k);
			ck_assert_int_eq(k.why, KERNELS_USER);
			ck_assert_ptr_null(getenv("CONDNET_KERNELS"));
		}
	}
	/* a mark in the environment is never read by kernels_current itself */
	setenv("OPENBLAS_CORETYPE", core, 1);
	snprintf(buf, sizeof buf, "%s:Prescott", core);
	setenv("CONDNET_KERNELS", buf, 1);
	kernels_take_mark();
	kernels_current(&k);
	ck_assert_int_eq(k.why, KERNELS_USER);
	unsetenv("CONDNET_KERNELS");
	unsetenv("OPENBLAS_CORETYPE");
	/* without the variable: OpenBLAS's choice, or kept with a reason, never
	 * "chosen" in a process that was not run again */
	kernels_current(&k);
	ck_assert_str_eq(k.core, core);
	ck_assert_int_ne(k.why, KERNELS_CHOSEN);
	ck_assert_int_ne(k.why, KERNELS_USER);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("kernels");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_kernels_table);
	tcase_add_test(tc, test_kernels_decode);
	tcase_add_test(tc, test_kernels_rank);
	tcase_add_test(tc, test_kernels_words);
	tcase_add_test(tc, test_kernels_this_cpu);
	tcase_add_test(tc, test_kernels_current);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
