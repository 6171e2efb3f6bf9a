/* fpmode.c - flush-to-zero and denormals-are-zero for computing threads. */
#include "base/fpmode.h"

#include <stdint.h>
#include <stdlib.h>

#if defined(__SSE__)
#include <xmmintrin.h>
/* MXCSR bit 15 (FTZ) and bit 6 (DAZ). */
#define MXCSR_FTZ_DAZ 0x8040u
#endif

int fpmode_set(void)
{
#if defined(__SSE__)
	_mm_setcsr(_mm_getcsr() | MXCSR_FTZ_DAZ);
	return 1;
#elif defined(__aarch64__)
	/* FPCR bit 24 (FZ) flushes both inputs and results. */
	uint64_t r;
	__asm__ __volatile__("mrs %0, fpcr" : "=r"(r));
	r |= (uint64_t)1 << 24;
	__asm__ __volatile__("msr fpcr, %0" : : "r"(r));
	return 1;
#else
	return 0;
#endif
}

void fpmode_clear(void)
{
#if defined(__SSE__)
	_mm_setcsr(_mm_getcsr() & ~MXCSR_FTZ_DAZ);
#elif defined(__aarch64__)
	uint64_t r;
	__asm__ __volatile__("mrs %0, fpcr" : "=r"(r));
	r &= ~((uint64_t)1 << 24);
	__asm__ __volatile__("msr fpcr, %0" : : "r"(r));
#endif
}

int fpmode_active(void)
{
#if defined(__SSE__)
	return (_mm_getcsr() & MXCSR_FTZ_DAZ) == MXCSR_FTZ_DAZ;
#elif defined(__aarch64__)
	uint64_t r;
	__asm__ __volatile__("mrs %0, fpcr" : "=r"(r));
	return (int)((r >> 24) & 1);
#else
	return 0;
#endif
}

typedef struct Start {
	void *(*fn)(void *);
	void *arg;
} Start;

static void *start(void *p)
{
	Start s = *(Start *)p;
	free(p);
	fpmode_set();
	return s.fn(s.arg);
}

int thread_start(pthread_t *th, void *(*fn)(void *), void *arg)
{
	Start *s = malloc(sizeof *s);
	if (!s)
		return -1;
	s->fn = fn;
	s->arg = arg;
	int rc = pthread_create(th, NULL, start, s);
	if (rc)
		free(s);
	return rc;
}
