/* cpu.h - what an x86-64 CPU says of itself through cpuid: its vendor,
 * family and model, and the vector features OpenBLAS's kernels need, with
 * the register states the operating system saves on a context switch
 * (XGETBV): a feature whose registers the OS does not save cannot be used,
 * whatever cpuid says. Reading the registers is the only part that asks the
 * machine; decoding them is a pure function (tests give it the registers of
 * real CPUs). */
#ifndef CONDNET_CPU_H
#define CONDNET_CPU_H

#include <stddef.h>

/* The cpuid and XGETBV words the features come from, 0 where the CPU has
 * no such leaf. */
typedef struct CpuRegs {
	char vendor[13];         /* leaf 0: "GenuineIntel", "AuthenticAMD", … */
	unsigned sig;            /* leaf 1 EAX: stepping, model, family */
	unsigned ecx1;           /* leaf 1 ECX: FMA (bit 12), OSXSAVE (27), AVX (28) */
	unsigned ebx7;           /* leaf 7.0 EBX: AVX2 (5), AVX-512 F (16), DQ (17),
	                          * CD (28), BW (30), VL (31) */
	unsigned eax7_1;         /* leaf 7.1 EAX: AVX-512 BF16 (5) */
	unsigned long long xcr0; /* XGETBV(0) when OSXSAVE is set: the states the
	                          * OS saves (1 SSE, 2 AVX, 5-7 AVX-512) */
} CpuRegs;

/* Features (CpuFeatures.has): what cpuid reports. */
enum {
	CPU_AVX = 1 << 0,
	CPU_FMA = 1 << 1,
	CPU_AVX2 = 1 << 2,
	CPU_AVX512F = 1 << 3,
	CPU_AVX512CD = 1 << 4,
	CPU_AVX512BW = 1 << 5,
	CPU_AVX512DQ = 1 << 6,
	CPU_AVX512VL = 1 << 7,
	CPU_AVX512BF16 = 1 << 8,
	/* the AVX-512 subsets SkylakeX's kernels use */
	CPU_AVX512 = CPU_AVX512F | CPU_AVX512CD | CPU_AVX512BW | CPU_AVX512DQ | CPU_AVX512VL,
};
/* Register states the OS saves (CpuFeatures.os). */
enum {
	CPU_OS_AVX = 1 << 0,    /* XMM and YMM (XCR0 bits 1, 2) */
	CPU_OS_AVX512 = 1 << 1, /* and the opmask and ZMM registers (bits 5-7) */
};

typedef struct CpuFeatures {
	char vendor[13];
	int family, model, stepping; /* as /proc/cpuinfo shows them (extended
	                              * fields folded in) */
	unsigned has;                /* CPU_* reported by cpuid */
	unsigned os;                 /* CPU_OS_* enabled by the OS */
} CpuFeatures;

/* This CPU's registers: 0, or -1 where there is no cpuid (not x86). */
int cpu_read(CpuRegs *r);
/* The features the registers say. */
void cpu_decode(const CpuRegs *r, CpuFeatures *f);
/* 1 for AMD's and Hygon's CPUs (OpenBLAS gives them its Zen kernels where
 * others get Haswell's). */
int cpu_is_amd(const CpuFeatures *f);
/* "AMD family 26 model 2, AVX FMA AVX2 AVX-512 F CD BW DQ VL BF16; the OS
 * saves the AVX-512 registers" into buf. */
const char *cpu_describe(const CpuFeatures *f, char *buf, size_t len);

#endif
