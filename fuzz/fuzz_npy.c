/* fuzz_npy.c - npy_read on arbitrary bytes. On success the shape must be
 * positive and the buffer must hold shape[0] (× shape[1]) values. */
#include <stdlib.h>

#include "data/npy.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Err e;
	double *x = NULL;
	int ndim = 0;
	long shape[2] = {0, 0};
	if (npy_read(fuzz_file(data, size, ".npy"), &x, &ndim, shape, &e) == 0) {
		if ((ndim != 1 && ndim != 2) || shape[0] < 0 || (ndim == 2 && shape[1] < 0))
			abort();
		size_t count = (size_t)shape[0] * (ndim == 2 ? (size_t)shape[1] : 1);
		if (count) {
			volatile double s = x[0] + x[count - 1];
			(void)s;
		}
	} else if (!e.msg[0]) {
		abort();
	}
	free(x);
	return 0;
}
