/* fuzz_adult.c - adult_load on arbitrary text. A loaded data set must have
 * adult_feature_count() columns, labels 0/1 and finite values. */
#include <stdlib.h>

#include "adult.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Err e;
	Dataset *ds = NULL;
	if (adult_load(fuzz_file(data, size, ".data"), &ds, &e) == 0) {
		if (!ds || ds->n <= 0 || ds->d != adult_feature_count() || ds->k != 2 ||
		    dataset_validate(ds, "adult", &e) < 0)
			abort();
	} else if (!e.msg[0]) {
		abort();
	}
	dataset_free(ds);
	return 0;
}
