/* fuzz_csv.c - csv_load on arbitrary text. The first byte picks the label
 * column (-1, 0, 1, 2 or 99); the rest is the file. A loaded data set must
 * pass dataset_validate (finite values, labels in [0, k)). */
#include <stdlib.h>

#include "data/csv.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int cols[] = {-1, 0, 1, 2, 99};
	Err e;
	Dataset *ds = NULL;
	if (size < 1)
		return 0;
	int col = cols[data[0] % 5];
	if (csv_load(fuzz_file(data + 1, size - 1, ".csv"), col, &ds, &e) == 0) {
		if (!ds || ds->n <= 0 || ds->d <= 0 || ds->k <= 0 ||
		    dataset_validate(ds, "csv", &e) < 0)
			abort();
	} else if (!e.msg[0]) {
		abort();
	}
	dataset_free(ds);
	return 0;
}
