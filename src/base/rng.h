/* rng.h - a small deterministic random number generator (xoshiro256**),
 * seeded through splitmix64, so that every run with the same seed gives the
 * same networks on every machine. */
#ifndef CONDNET_RNG_H
#define CONDNET_RNG_H

#include <stdint.h>

typedef struct Rng {
	uint64_t s[4];
} Rng;

void rng_seed(Rng *r, uint64_t seed);
uint64_t rng_next(Rng *r);
/* Uniform in [0, 1). */
double rng_uniform(Rng *r);
/* Standard normal (Box-Muller, no cached second value). */
double rng_normal(Rng *r);
/* Uniform integer in [0, n), n > 0, without modulo bias. */
uint32_t rng_below(Rng *r, uint32_t n);
/* Fisher-Yates shuffle of a[0..n). */
void rng_shuffle(Rng *r, int *a, int n);
/* A seed derived from a base seed and a stream number (e.g. β index, trial). */
uint64_t rng_derive(uint64_t seed, uint64_t stream);

#endif
