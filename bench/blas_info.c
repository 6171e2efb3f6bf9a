/* blas_info.c - OpenBLAS's build configuration, the core kernels it
 * selected at run time and its thread count, for the bench reports. */
#include <stdio.h>

char *openblas_get_config(void);
char *openblas_get_corename(void);
int openblas_get_num_threads(void);

int main(void)
{
	printf("openblas: %s\n", openblas_get_config());
	printf("core:     %s kernels, %d threads by default\n", openblas_get_corename(),
	       openblas_get_num_threads());
	return 0;
}
