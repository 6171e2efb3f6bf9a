/* fuzz_idx_images.c - idx_load_images on arbitrary bytes (plain or gzip).
 * On success the dimensions must be positive and describe the buffer. */
#include <stdlib.h>

#include "data/idx.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Err e;
	uint8_t *px = NULL;
	int n = 0, rows = 0, cols = 0;
	if (idx_load_images(fuzz_file(data, size, ".idx"), &px, &n, &rows, &cols, &e) == 0) {
		if (n <= 0 || rows <= 0 || cols <= 0 || !px)
			abort();
		/* Touch the first and last byte so ASan checks the extent. */
		volatile uint8_t s = px[0];
		s ^= px[(size_t)n * (size_t)rows * (size_t)cols - 1];
		(void)s;
	} else if (!e.msg[0]) {
		abort();
	}
	free(px);
	return 0;
}
