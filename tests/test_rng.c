/* test_rng.c - the random number generator: the published xoshiro256** and
 * splitmix64 values, reproducibility, derived seeds, and the distributions of
 * rng_uniform, rng_below, rng_normal and rng_shuffle on fixed seeds.
 *
 * The statistical bounds are about five standard deviations (or a chi-square
 * quantile of 0.999) wide: the seeds are fixed, so the tests are
 * deterministic, and a generator with a real defect lands far outside them. */
#include <math.h>
#include <stdint.h>

#include "base/rng.h"
#include "testutil.h"

enum { DRAWS = 100000 };

/* Pearson's statistic of counts[0..k) against equal expected counts. */
static double chi_square(const long *counts, int k, long total)
{
	double e = (double)total / k, x2 = 0;
	for (int i = 0; i < k; i++)
		x2 += (counts[i] - e) * (counts[i] - e) / e;
	return x2;
}

/* rng_seed fills the state with splitmix64 of the seed (the first outputs for
 * seed 0 are the ones published with splitmix64), and rng_next is
 * xoshiro256** (values from an independent implementation of the reference
 * algorithm): the same numbers on every machine. */
START_TEST(test_rng_reference_values)
{
	Rng r;
	rng_seed(&r, 0);
	ck_assert_uint_eq(r.s[0], 0xe220a8397b1dcdafULL);
	ck_assert_uint_eq(r.s[1], 0x6e789e6aa1b965f4ULL);
	ck_assert_uint_eq(r.s[2], 0x06c45d188009454fULL);
	ck_assert_uint_eq(r.s[3], 0xf88bb8a8724c81ecULL);
	ck_assert_uint_eq(rng_next(&r), 0x99ec5f36cb75f2b4ULL);
	ck_assert_uint_eq(rng_next(&r), 0xbf6e1f784956452aULL);
	ck_assert_uint_eq(rng_next(&r), 0x1a5f849d4933e6e0ULL);
	ck_assert_uint_eq(rng_next(&r), 0x6aa594f1262d2d2cULL);
	rng_seed(&r, 42);
	ck_assert_uint_eq(rng_next(&r), 0x15780b2e0c2ec716ULL);
	ck_assert_uint_eq(rng_next(&r), 0x6104d9866d113a7eULL);
	ck_assert_uint_eq(rng_next(&r), 0xae17533239e499a1ULL);
	ck_assert_uint_eq(rng_next(&r), 0xecb8ad4703b360a1ULL);
}
END_TEST

/* Two generators with the same seed give the same draws of every kind, and
 * seeding again starts the sequence over. */
START_TEST(test_rng_same_seed)
{
	Rng a, b;
	rng_seed(&a, 7);
	rng_seed(&b, 7);
	uint64_t first[4];
	for (int i = 0; i < 10000; i++) {
		uint64_t x = rng_next(&a);
		ck_assert_uint_eq(x, rng_next(&b));
		if (i < 4)
			first[i] = x;
		ck_assert(rng_uniform(&a) == rng_uniform(&b));
		ck_assert(rng_normal(&a) == rng_normal(&b));
		ck_assert_uint_eq(rng_below(&a, 1000 + (uint32_t)i),
		                  rng_below(&b, 1000 + (uint32_t)i));
	}
	int pa[50], pb[50];
	for (int i = 0; i < 50; i++)
		pa[i] = pb[i] = i;
	rng_shuffle(&a, pa, 50);
	rng_shuffle(&b, pb, 50);
	ck_assert_mem_eq(pa, pb, sizeof pa);
	rng_seed(&a, 7);
	for (int i = 0; i < 4; i++) {
		ck_assert_uint_eq(rng_next(&a), first[i]);
		rng_uniform(&a);
		rng_normal(&a);
		rng_below(&a, 1000 + (uint32_t)i);
	}
}
END_TEST

/* Nearby and distant seeds give sequences that share no value at any of the
 * first 1,000 positions. */
START_TEST(test_rng_seeds_differ)
{
	static const uint64_t seeds[] = {0, 1, 2, 3, 42, 1ULL << 32, 1ULL << 63, UINT64_MAX};
	enum { S = sizeof seeds / sizeof *seeds, N = 1000 };
	static uint64_t seq[S][N];
	for (int s = 0; s < S; s++) {
		Rng r;
		rng_seed(&r, seeds[s]);
		for (int i = 0; i < N; i++)
			seq[s][i] = rng_next(&r);
	}
	for (int s = 0; s < S; s++)
		for (int t = s + 1; t < S; t++)
			for (int i = 0; i < N; i++)
				ck_assert_msg(
				    seq[s][i] != seq[t][i], "seeds %llu and %llu agree at draw %d",
				    (unsigned long long)seeds[s], (unsigned long long)seeds[t], i);
}
END_TEST

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* rng_derive is a function of (seed, stream) alone, and different pairs give
 * different seeds: 64 seeds × 64 streams, and 10,000 streams of one seed. */
START_TEST(test_rng_derive)
{
	enum { K = 64, STREAMS = 10000 };
	static uint64_t v[K * K > STREAMS ? K * K : STREAMS];
	ck_assert_uint_eq(rng_derive(1, 1), rng_derive(1, 1));
	ck_assert_uint_eq(rng_derive(123456789, 0x7e57), rng_derive(123456789, 0x7e57));
	/* Drawing from generators in between changes nothing. */
	uint64_t before = rng_derive(5, 9);
	Rng r;
	rng_seed(&r, 5);
	rng_next(&r);
	ck_assert_uint_eq(rng_derive(5, 9), before);
	for (int s = 0; s < K; s++)
		for (int k = 0; k < K; k++) {
			v[s * K + k] = rng_derive((uint64_t)s, (uint64_t)k);
			ck_assert_uint_ne(v[s * K + k], (uint64_t)s);
		}
	qsort(v, K * K, sizeof *v, cmp_u64);
	for (int i = 1; i < K * K; i++)
		ck_assert_msg(v[i] != v[i - 1], "two (seed, stream) pairs derive %llx",
		              (unsigned long long)v[i]);
	for (int k = 0; k < STREAMS; k++)
		v[k] = rng_derive(20240601, (uint64_t)k);
	qsort(v, STREAMS, sizeof *v, cmp_u64);
	for (int i = 1; i < STREAMS; i++)
		ck_assert_uint_ne(v[i], v[i - 1]);
	/* Generators seeded from neighbouring streams start apart. */
	Rng a, b;
	rng_seed(&a, rng_derive(3, 0));
	rng_seed(&b, rng_derive(3, 1));
	ck_assert_uint_ne(rng_next(&a), rng_next(&b));
}
END_TEST

/* Uniform in [0, 1) on the 2⁻⁵³ grid, with the mean, variance and histogram
 * of a uniform variable. */
START_TEST(test_rng_uniform)
{
	Rng r;
	rng_seed(&r, 11);
	long bins[20] = {0};
	double sum = 0, sum2 = 0, lo = 1, hi = 0;
	for (int i = 0; i < DRAWS; i++) {
		double u = rng_uniform(&r);
		ck_assert(u >= 0 && u < 1);
		ck_assert(u * 0x1.0p53 == floor(u * 0x1.0p53));
		lo = fmin(lo, u);
		hi = fmax(hi, u);
		sum += u;
		sum2 += u * u;
		bins[(int)(u * 20)]++;
	}
	double mean = sum / DRAWS, var = sum2 / DRAWS - mean * mean;
	ck_assert_double_eq_tol(mean, 0.5, 0.005);
	ck_assert_double_eq_tol(var, 1.0 / 12, 0.0015);
	ck_assert_double_lt(lo, 1e-4);
	ck_assert_double_gt(hi, 1 - 1e-4);
	/* 19 degrees of freedom: P(χ² > 43.82) = 0.001. */
	ck_assert_double_lt(chi_square(bins, 20, DRAWS), 43.82);
}
END_TEST

/* rng_below(n) stays in [0, n) for small, large and awkward n, and covers it
 * evenly: chi-square over 10 and 7 values, and the share below 2³¹ of
 * n = 3·2³⁰, which a reduction of 32 random bits modulo n would skew from 2/3
 * to 3/4. */
START_TEST(test_rng_below)
{
	static const uint32_t ns[] = {1, 2, 3, 7, 10, 1000, 1u << 31, (1u << 31) + 1, UINT32_MAX};
	Rng r;
	rng_seed(&r, 2024);
	for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
		uint32_t mx = 0;
		for (int i = 0; i < 10000; i++) {
			uint32_t x = rng_below(&r, ns[k]);
			ck_assert_uint_lt(x, ns[k]);
			mx = x > mx ? x : mx;
		}
		if (ns[k] > 1000)
			ck_assert_uint_gt(mx, ns[k] / 10 * 9); /* the top reached */
		else
			ck_assert_uint_eq(mx, ns[k] - 1);
	}
	long c10[10] = {0}, c7[7] = {0};
	for (int i = 0; i < DRAWS; i++) {
		c10[rng_below(&r, 10)]++;
		c7[rng_below(&r, 7)]++;
	}
	for (int i = 0; i < 7; i++)
		ck_assert_int_gt(c7[i], 0);
	/* P(χ² > 27.88) = 0.001 with 9 degrees of freedom, 22.46 with 6. */
	ck_assert_double_lt(chi_square(c10, 10, DRAWS), 27.88);
	ck_assert_double_lt(chi_square(c7, 7, DRAWS), 22.46);
	long low = 0;
	double mean = 0;
	for (int i = 0; i < DRAWS; i++) {
		low += rng_below(&r, 3u << 30) < (1u << 31);
		mean += rng_below(&r, UINT32_MAX) / (double)UINT32_MAX;
	}
	ck_assert_double_eq_tol((double)low / DRAWS, 2.0 / 3, 0.008);
	ck_assert_double_eq_tol(mean / DRAWS, 0.5, 0.005);
}
END_TEST

/* The first four moments and two tail shares of 100,000 draws match N(0, 1). */
START_TEST(test_rng_normal)
{
	Rng r;
	rng_seed(&r, 99);
	double m1 = 0, m2 = 0, m3 = 0, m4 = 0;
	long in1 = 0, in2 = 0;
	for (int i = 0; i < DRAWS; i++) {
		double x = rng_normal(&r);
		ck_assert(isfinite(x));
		m1 += x;
		m2 += x * x;
		m3 += x * x * x;
		m4 += x * x * x * x;
		in1 += fabs(x) < 1;
		in2 += fabs(x) < 2;
	}
	m1 /= DRAWS;
	m2 /= DRAWS;
	m3 /= DRAWS;
	m4 /= DRAWS;
	double var = m2 - m1 * m1;
	ck_assert_double_eq_tol(m1, 0, 0.015);
	ck_assert_double_eq_tol(var, 1, 0.02);
	ck_assert_double_eq_tol(m3, 0, 0.06);
	ck_assert_double_eq_tol(m4, 3, 0.15);
	ck_assert_double_eq_tol((double)in1 / DRAWS, 0.682689, 0.0075);
	ck_assert_double_eq_tol((double)in2 / DRAWS, 0.954500, 0.0035);
}
END_TEST

/* Index of the permutation p of 0..n-1 in 0..n!-1 (Lehmer code). */
static int perm_index(const int *p, int n)
{
	int idx = 0;
	for (int i = 0; i < n; i++) {
		int smaller = 0;
		for (int j = i + 1; j < n; j++)
			smaller += p[j] < p[i];
		idx = idx * (n - i) + smaller;
	}
	return idx;
}

/* rng_shuffle permutes (every element once), is reproducible, leaves n = 0
 * and n = 1 alone, and makes every ordering of 3 and of 4 items equally
 * likely. */
START_TEST(test_rng_shuffle)
{
	Rng r, r2;
	rng_seed(&r, 5);
	rng_seed(&r2, 5);
	int a[100], b[100], seen[100] = {0};
	for (int i = 0; i < 100; i++)
		a[i] = b[i] = i;
	rng_shuffle(&r, a, 100);
	rng_shuffle(&r2, b, 100);
	ck_assert_mem_eq(a, b, sizeof a);
	int moved = 0;
	for (int i = 0; i < 100; i++) {
		ck_assert(a[i] >= 0 && a[i] < 100);
		seen[a[i]]++;
		moved += a[i] != i;
	}
	for (int i = 0; i < 100; i++)
		ck_assert_int_eq(seen[i], 1);
	ck_assert_int_gt(moved, 80);
	int one = 17;
	rng_shuffle(&r, &one, 1);
	ck_assert_int_eq(one, 17);
	rng_shuffle(&r, NULL, 0);

	long c3[6] = {0}, c4[24] = {0};
	for (int t = 0; t < 60000; t++) {
		int p[3] = {0, 1, 2};
		rng_shuffle(&r, p, 3);
		c3[perm_index(p, 3)]++;
	}
	for (int t = 0; t < 120000; t++) {
		int p[4] = {0, 1, 2, 3};
		rng_shuffle(&r, p, 4);
		c4[perm_index(p, 4)]++;
	}
	/* P(χ² > 20.52) = 0.001 with 5 degrees of freedom, 49.73 with 23. */
	ck_assert_double_lt(chi_square(c3, 6, 60000), 20.52);
	ck_assert_double_lt(chi_square(c4, 24, 120000), 49.73);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("rng");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_rng_reference_values);
	tcase_add_test(tc, test_rng_same_seed);
	tcase_add_test(tc, test_rng_seeds_differ);
	tcase_add_test(tc, test_rng_derive);
	tcase_add_test(tc, test_rng_uniform);
	tcase_add_test(tc, test_rng_below);
	tcase_add_test(tc, test_rng_normal);
	tcase_add_test(tc, test_rng_shuffle);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
