/* cpu.c - the CPU's vendor, family, model and vector features from cpuid
 * and XGETBV. */
#include "base/cpu.h"

#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

int cpu_read(CpuRegs *r)
{
	memset(r, 0, sizeof *r);
	unsigned a, b, c, d;
	if (!__get_cpuid(0, &a, &b, &c, &d))
		return -1;
	unsigned max = a;
	memcpy(r->vendor, &b, 4);
	memcpy(r->vendor + 4, &d, 4);
	memcpy(r->vendor + 8, &c, 4);
	r->vendor[12] = '\0';
	if (max >= 1 && __get_cpuid(1, &a, &b, &c, &d)) {
		r->sig = a;
		r->ecx1 = c;
	}
	if (max >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		r->ebx7 = b;
		if (a >= 1) {
			__cpuid_count(7, 1, a, b, c, d);
			r->eax7_1 = a;
		}
	}
	/* XGETBV faults unless the OS has set CR4.OSXSAVE, which cpuid reports */
	if (r->ecx1 & (1u << 27)) {
		unsigned lo, hi;
		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
		r->xcr0 = (unsigned long long)hi << 32 | lo;
	}
	return 0;
}
#else
int cpu_read(CpuRegs *r)
{
	memset(r, 0, sizeof *r);
	return -1;
}
#endif

void cpu_decode(const CpuRegs *r, CpuFeatures *f)
{
	memset(f, 0, sizeof *f);
	snprintf(f->vendor, sizeof f->vendor, "%s", r->vendor);
	int family = (int)(r->sig >> 8 & 0xf), model = (int)(r->sig >> 4 & 0xf);
	f->family = family == 0xf ? family + (int)(r->sig >> 20 & 0xff) : family;
	f->model = family == 6 || family == 0xf ? (int)(r->sig >> 12 & 0xf0) + model : model;
	f->stepping = (int)(r->sig & 0xf);
	/* which register (0 leaf 1 ECX, 1 leaf 7.0 EBX, 2 leaf 7.1 EAX), bit */
	static const struct {
		int word, bit;
		unsigned feature;
	} bits[] = {
	    {0, 28, CPU_AVX},      {0, 12, CPU_FMA},      {1, 5, CPU_AVX2},
	    {1, 16, CPU_AVX512F},  {1, 28, CPU_AVX512CD}, {1, 30, CPU_AVX512BW},
	    {1, 17, CPU_AVX512DQ}, {1, 31, CPU_AVX512VL}, {2, 5, CPU_AVX512BF16},
	};
	const unsigned words[] = {r->ecx1, r->ebx7, r->eax7_1};
	unsigned has = 0;
	for (size_t i = 0; i < sizeof bits / sizeof *bits; i++)
		if (words[bits[i].word] >> bits[i].bit & 1u)
			has |= bits[i].feature;
	f->has = has;
	/* XCR0 is meaningful only with OSXSAVE (cpu_read leaves it 0 without) */
	if ((r->ecx1 & 1u << 27) && (r->xcr0 & 0x6) == 0x6) {
		f->os |= CPU_OS_AVX;
		if ((r->xcr0 & 0xe0) == 0xe0)
			f->os |= CPU_OS_AVX512;
	}
}

int cpu_is_amd(const CpuFeatures *f)
{
	return !strcmp(f->vendor, "AuthenticAMD") || !strcmp(f->vendor, "HygonGenuine");
}

const char *cpu_describe(const CpuFeatures *f, char *buf, size_t len)
{
	const char *v = !strcmp(f->vendor, "GenuineIntel")   ? "Intel"
	                : !strcmp(f->vendor, "AuthenticAMD") ? "AMD"
	                : !strcmp(f->vendor, "HygonGenuine") ? "Hygon"
	                : f->vendor[0]                       ? f->vendor
	                                                     : "unknown";
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {{CPU_AVX, " AVX"},           {CPU_FMA, " FMA"},     {CPU_AVX2, " AVX2"},
	             {CPU_AVX512F, " AVX-512 F"}, {CPU_AVX512CD, " CD"}, {CPU_AVX512BW, " BW"},
	             {CPU_AVX512DQ, " DQ"},       {CPU_AVX512VL, " VL"}, {CPU_AVX512BF16, " BF16"}};
	size_t n = (size_t)snprintf(buf, len, "%s family %d model %d,", v, f->family, f->model);
	for (size_t i = 0; i < sizeof names / sizeof *names && n < len; i++)
		if (f->has & names[i].bit)
			n += (size_t)snprintf(buf + n, len - n, "%s", names[i].name);
	if (n < len)
		snprintf(buf + n, len - n, "%s; the OS saves %s", f->has ? "" : " no AVX",
		         f->os & CPU_OS_AVX512 ? "the AVX-512 registers"
		         : f->os & CPU_OS_AVX  ? "the AVX registers, not AVX-512's"
		                               : "no AVX registers");
	return buf;
}
