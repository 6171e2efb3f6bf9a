/* fuzz_adult.c - adult_load on arbitrary text. A loaded data set must have
 * adult_feature_count() columns, finite values and labels 0/1. */
#include <math.h>
#include <stdlib.h>

#include "data/adult.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Err e;
	Dataset *ds = NULL;
	if (adult_load(fuzz_file(data, size, ".data"), &ds, &e) == 0) {
		if (!ds || ds->n <= 0 || ds->d != adult_feature_count() || ds->k != 2)
			abort();
		for (int i = 0; i < ds->n; i++)
			if (ds->y[i] != 0 && ds->y[i] != 1)
				abort();
		for (long i = 0; i < (long)ds->n * ds->d; i++)
			if (!isfinite(ds->x[i]))
				abort();
	} else if (!e.msg[0]) {
		abort();
	}
	dataset_free(ds);
	return 0;
}
