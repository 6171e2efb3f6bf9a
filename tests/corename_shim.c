/* corename_shim.c - an LD_PRELOAD library for tests/kernels.sh and the
 * benchmarks: condnet meets an OpenBLAS that took the CPU for older kernels,
 * on any machine. While OPENBLAS_CORETYPE is not set, openblas_get_corename
 * answers CORENAME_SHIM (default "Prescott", what OpenBLAS 0.3.21 answers on
 * CPUs newer than its tables); once it is set, it answers what OpenBLAS
 * runs. Only what condnet is told changes, not the kernels OpenBLAS runs. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>

char *openblas_get_corename(void)
{
	if (!getenv("OPENBLAS_CORETYPE")) {
		char *s = getenv("CORENAME_SHIM");
		return s ? s : (char *)"Prescott";
	}
	char *(*real)(void) = (char *(*)(void))dlsym(RTLD_NEXT, "openblas_get_corename");
	return real ? real() : (char *)"unknown";
}
