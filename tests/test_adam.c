/* test_adam.c - the Adam step: its defaults, two steps by hand, the first
 * step's bias correction, and the four-lane body against the scalar tail. */
#include <math.h>

#include "engine/adam.h"
#include "testutil.h"

START_TEST(test_adam_two_steps)
{
	AdamOpts o;
	adam_default(&o);
	ck_assert_double_eq(o.lr, 1e-3);
	ck_assert_double_eq(o.beta1, 0.9);
	ck_assert_double_eq(o.beta2, 0.999);
	ck_assert_double_eq(o.eps, 1e-8);
	/* Five lanes so the scalar tail is used too; lane 2 has zero gradient. */
	float w[5] = {1.0f, -2.0f, 3.0f, 1.0f, -2.0f}, m[5] = {0}, v[5] = {0};
	float g1[5] = {0.5f, -3.0f, 0.0f, 0.5f, -3.0f}, g2[5] = {0.25f, 1.0f, 0.0f, 0.25f, 1.0f};
	adam_step(&o, 1, 5, g1, w, m, v);
	/* Step 1: m̂ = g, v̂ = g², so w moves by lr·g/(|g| + ε). */
	for (int i = 0; i < 5; i += 3) {
		ck_assert_double_eq_tol(w[i], 0.99900000002, 1e-7);
		ck_assert_double_eq_tol(w[i + 1], -1.9990000000033334, 1e-7);
		ck_assert_double_eq_tol(m[i], 0.05, 1e-9);
		ck_assert_double_eq_tol(v[i], 0.00025, 1e-10);
	}
	ck_assert_float_eq(w[2], 3.0f);
	adam_step(&o, 2, 5, g2, w, m, v);
	/* Step 2 by hand: m = 0.07, v = 0.00031225, m̂ = 0.07/0.19,
	 * v̂ = 0.00031225/0.001999, w = 0.999 − 0.001·m̂/(√v̂ + ε). */
	for (int i = 0; i < 5; i += 3) {
		ck_assert_double_eq_tol(w[i], 0.9980678204047746, 1e-7);
		ck_assert_double_eq_tol(w[i + 1], -1.9985997814331693, 1e-7);
		ck_assert_double_eq_tol(m[i], 0.07, 1e-8);
		ck_assert_double_eq_tol(v[i], 0.00031225, 1e-10);
		ck_assert_double_eq_tol(m[i + 1], -0.17, 1e-7);
		ck_assert_double_eq_tol(v[i + 1], 0.009991, 1e-9);
	}
	ck_assert_float_eq(w[2], 3.0f);
	ck_assert_float_eq(m[2], 0.0f);
}
END_TEST

START_TEST(test_adam_default)
{
	AdamOpts o;
	memset(&o, 0xff, sizeof o);
	adam_default(&o);
	ck_assert_double_eq(o.lr, 1e-3);
	ck_assert_double_eq(o.beta1, 0.9);
	ck_assert_double_eq(o.beta2, 0.999);
	ck_assert_double_eq(o.eps, 1e-8);
}
END_TEST

/* At t = 1 from m = v = 0 the corrections undo the decay whatever β₁ and β₂
 * are: m̂ = g, v̂ = g², so w ← w − lr·sign(g)·|g|/(|g| + ε). The values below
 * are worked by hand; where |g| is comparable to ε the step is a fraction of
 * lr (ε outside the square root). */
START_TEST(test_adam_first_step)
{
	AdamOpts def, alt = {.lr = 0.01, .beta1 = 0.5, .beta2 = 0.75, .eps = 1e-3};
	adam_default(&def);
	static const struct {
		int alt;
		float g, w, want;
	} cases[] = {
	    {0, 0.5f, 1.0f, 0.99900000002f},      /* 1 − 1e-3·0.5/0.50000001 */
	    {0, -4.0f, -2.0f, -1.9990000000025f}, /* −2 + 1e-3·4/4.00000001 */
	    {0, 1e-8f, 0.25f, 0.2495f},           /* 0.25 − 1e-3·1e-8/2e-8 */
	    {0, -3e-8f, 0.5f, 0.50075f},          /* 0.5 + 1e-3·3e-8/4e-8 */
	    {0, 1e-6f, 0.0f, -9.9009901e-4f},     /* −1e-3·1e-6/1.01e-6 */
	    {0, 0.0f, 0.75f, 0.75f},              /* no gradient, no step */
	    {1, 1e-3f, 1.0f, 0.995f},             /* 1 − 1e-2·1e-3/2e-3 */
	    {1, -2.0f, 0.0f, 9.9950025e-3f},      /* 1e-2·2/2.001 */
	    {1, 3e-3f, -1.0f, -1.0075f},          /* −1 − 1e-2·3e-3/4e-3 */
	    {1, 0.25f, 0.5f, 0.49003984f},        /* 0.5 − 1e-2·0.25/0.251 */
	};
	enum { N = sizeof cases / sizeof *cases };
	for (int i = 0; i < N; i++) {
		const AdamOpts *o = cases[i].alt ? &alt : &def;
		float w = cases[i].w, m = 0, v = 0, g = cases[i].g;
		adam_step(o, 1, 1, &g, &w, &m, &v);
		ck_assert_msg(fabs(w - cases[i].want) < 2e-7, "case %d: w = %.9g, expected %.9g", i,
		              w, cases[i].want);
		ck_assert_double_eq_tol(m, (1 - o->beta1) * g, 2e-7 * fabs(g) + 1e-30);
		ck_assert_double_eq_tol(v, (1 - o->beta2) * g * g, 1e-6 * g * g + 1e-30);
	}
	/* The same cases four lanes at a time. */
	float g[4], w[4], m[4] = {0}, v[4] = {0};
	for (int i = 0; i < 4; i++) {
		g[i] = cases[i].g;
		w[i] = cases[i].w;
	}
	adam_step(&def, 1, 4, g, w, m, v);
	for (int i = 0; i < 4; i++)
		ck_assert_msg(fabs(w[i] - cases[i].want) < 2e-7, "lane %d: w = %.9g, expected %.9g",
		              i, w[i], cases[i].want);
}
END_TEST

/* Starting weights: small ones every other lane, where the last bit of the
 * step shows in the result. */
static float w0(int i)
{
	return (float)((i % 2 ? 1e-4 : 1.0) * sin(0.9 * i + 0.3));
}

/* Lane i of a step over n parameters (four at a time, then a scalar tail)
 * gives the same bits as a step over that one parameter: n = 4, 7, 8 and 11,
 * twenty steps each, with the defaults and with other options. */
START_TEST(test_adam_lanes_match_scalar)
{
	enum { MAXN = 11 };
	static const int sizes[] = {4, 7, 8, 11};
	AdamOpts opts[2] = {{0}, {.lr = 0.05, .beta1 = 0.8, .beta2 = 0.95, .eps = 1e-6}};
	adam_default(&opts[0]);
	for (int o = 0; o < 2; o++)
		for (int s = 0; s < 4; s++) {
			int n = sizes[s];
			float w[MAXN], m[MAXN], v[MAXN], w1[MAXN], m1[MAXN], v1[MAXN], g[MAXN];
			for (int i = 0; i < n; i++) {
				w[i] = w1[i] = w0(i);
				m[i] = m1[i] = (float)(0.01 * cos(1.7 * i));
				v[i] = v1[i] = (float)(1e-4 * (1.5 + sin(2.3 * i)));
			}
			for (long t = 1; t <= 20; t++) {
				for (int i = 0; i < n; i++)
					g[i] = i == 2 ? 0.0f
					              : (float)(pow(10, -(i % 5)) *
					                        sin(3.1 * i + 0.7 * t));
				adam_step(&opts[o], t, (size_t)n, g, w, m, v);
				for (int i = 0; i < n; i++)
					adam_step(&opts[o], t, 1, &g[i], &w1[i], &m1[i], &v1[i]);
				for (int i = 0; i < n; i++) {
					ck_assert_msg(memcmp(&w[i], &w1[i], sizeof *w) == 0 &&
					                  memcmp(&m[i], &m1[i], sizeof *m) == 0 &&
					                  memcmp(&v[i], &v1[i], sizeof *v) == 0,
					              "options %d, n = %d, step %ld, lane %d: "
					              "w %.9g m %.9g v %.9g, one at a time w %.9g "
					              "m %.9g v %.9g",
					              o, n, t, i, w[i], m[i], v[i], w1[i], m1[i],
					              v1[i]);
				}
			}
			/* The steps moved every parameter with a gradient. */
			for (int i = 0; i < n; i++)
				if (i != 2)
					ck_assert_float_ne(w[i], w0(i));
		}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("adam");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_adam_two_steps);
	tcase_add_test(tc, test_adam_default);
	tcase_add_test(tc, test_adam_first_step);
	tcase_add_test(tc, test_adam_lanes_match_scalar);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
