/* fuzz_idx_labels.c - idx_load_labels on arbitrary bytes with max_label 10.
 * On success every label must be in [0, 10). */
#include <stdlib.h>

#include "data/idx.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Err e;
	int *lab = NULL, n = 0;
	if (idx_load_labels(fuzz_file(data, size, ".idx"), &lab, &n, 10, &e) == 0) {
		if (n <= 0 || !lab)
			abort();
		for (int i = 0; i < n; i++)
			if (lab[i] < 0 || lab[i] >= 10)
				abort();
	} else if (!e.msg[0]) {
		abort();
	}
	free(lab);
	return 0;
}
