/* fuzz_cache.c - mnist_cache_read (the MNIST feature cache) on arbitrary
 * bytes, and on the same bytes with the trailing CRC-32 recomputed so that
 * mutations reach the checks behind the checksum. The k and input key asked
 * for are the ones in the file's own header, so that mutations get past the
 * key check. A cache that loads must hold two sets of k finite features,
 * labels 0..9 and k distinct indices below 32². */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/mnist.h"
#include "fuzz_file.h"

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void check_set(const Dataset *ds, int k)
{
	if (!ds || ds->n < 1 || ds->d != k || ds->k != 10)
		abort();
	for (long i = 0; i < (long)ds->n * k; i++)
		if (!isfinite(ds->x[i]))
			abort();
	for (int i = 0; i < ds->n; i++)
		if (ds->y[i] < 0 || ds->y[i] > 9)
			abort();
}

static void check(const uint8_t *data, size_t size)
{
	uint32_t k = size >= 36 ? get32(data + 12) : 4, key = size >= 36 ? get32(data + 32) : 0;
	if (k < 1 || k > 1024)
		k = 4;
	Dataset *tr = NULL, *te = NULL;
	int *idx = NULL;
	Err e;
	if (mnist_cache_read(fuzz_file(data, size, ".cache"), (int)k, 32, key, "mnist", &tr, &te,
	                     &idx, &e) != 0) {
		if (!e.msg[0] || tr || te || idx)
			abort();
		return;
	}
	check_set(tr, (int)k);
	check_set(te, (int)k);
	char seen[1024] = {0};
	for (uint32_t j = 0; j < k; j++) {
		if (idx[j] < 0 || idx[j] >= 1024 || seen[idx[j]])
			abort();
		seen[idx[j]] = 1;
	}
	free(idx);
	dataset_free(tr);
	dataset_free(te);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check(data, size);
	uint8_t *fixed = fuzz_with_crc(data, size);
	if (fixed)
		check(fixed, size);
	free(fixed);
	return 0;
}
