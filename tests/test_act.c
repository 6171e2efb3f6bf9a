/* test_act.c - the activation functions: names, the fast erf and exp, the
 * forward pass with and without the fused bias, and the derivatives against
 * libm and against finite differences. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "engine/act.h"
#include "testutil.h"

/* The kind a name parses to, or -1. */
static int parsed(const char *s)
{
	ActKind k;
	return act_parse(s, &k, NULL) ? -1 : (int)k;
}

START_TEST(test_act_names)
{
	for (int k = 0; k < ACT_COUNT; k++)
		ck_assert_int_eq(parsed(act_name((ActKind)k)), k);
	ck_assert_int_eq(parsed("erf"), ACT_ERF);
	ck_assert_int_eq(parsed("relu"), ACT_RELU);
	ck_assert_int_eq(parsed("Erf"), -1);
	ck_assert_int_eq(parsed(""), -1);
	ck_assert_int_eq(parsed(NULL), -1);
	Err e;
	ActKind k;
	ck_assert_int_eq(act_parse("cosine", &k, &e), -1);
	ck_assert_str_eq(e.msg,
	                 "unknown activation 'cosine' (expected erf, tanh, relu or sigmoid)");
}
END_TEST

/* Every name act.h lists, and near misses of each. */
START_TEST(test_act_parse)
{
	static const struct {
		const char *name;
		int kind;
	} names[] = {
	    {"erf", ACT_ERF}, {"tanh", ACT_TANH}, {"relu", ACT_RELU}, {"sigmoid", ACT_SIGMOID}};
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(parsed(names[i].name), names[i].kind);
		ck_assert_str_eq(act_name((ActKind)names[i].kind), names[i].name);
	}
	static const char *const bad[] = {"ERF",   "Tanh",   "RELU",    "sigmoid ", " erf",
	                                  "er",    "erff",   "tan",     "sigm",     "sigmoids",
	                                  "relu6", "linear", "softmax", "erf,tanh", "?",
	                                  "0",     "1",      "tanh\n",  "re lu",    "sigmoid\t"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		ck_assert_msg(parsed(bad[i]) == -1, "act_parse(\"%s\") = %d, expected -1", bad[i],
		              parsed(bad[i]));
}
END_TEST

START_TEST(test_erf_fast_accuracy)
{
	double worst = 0;
	for (long i = 0; i <= 1200000; i++) {
		float x = (float)(-6.0 + 12.0 * i / 1200000);
		worst = fmax(worst, fabs((double)act_erf_fast(x) - erf((double)x)));
	}
	/* The bound stated in act.h. */
	ck_assert_double_lt(worst, 5e-7);
	ck_assert_float_eq(act_erf_fast(0.0f), 0.0f);
	ck_assert_float_eq(act_erf_fast(100.0f), 1.0f);
	ck_assert_float_eq(act_erf_fast(-INFINITY), -1.0f);
	ck_assert(isnan(act_erf_fast(NAN)));
}
END_TEST

START_TEST(test_exp_fast_accuracy)
{
	double worst = 0;
	for (long i = 0; i <= 400000; i++) {
		float x = (float)(-87.0 + 175.0 * i / 400000);
		double ref = exp((double)x);
		worst = fmax(worst, fabs((double)act_exp_fast(x) - ref) / ref);
	}
	ck_assert_double_lt(worst, 2e-7);
	ck_assert_float_eq(act_exp_fast(0.0f), 1.0f);
}
END_TEST

/* The vector body and the scalar tail agree with libm on 11 values. */
START_TEST(test_act_forward_backward)
{
	enum { N = 11 };
	float z[N], y[N], g[N], zb[N], yb[N];
	const float a = 0.7f, b[N] = {0.5f, -0.5f, 0, 0, 0, 0, 0, 0, 0, 0, 1.0f};
	for (int i = 0; i < N; i++)
		z[i] = -3.0f + 0.6f * i;
	for (int k = 0; k < ACT_COUNT; k++) {
		act_forward((ActKind)k, a, z, y, N);
		for (int i = 0; i < N; i++)
			g[i] = 2.0f;
		act_backward((ActKind)k, a, z, y, g, N);
		for (int i = 0; i < N; i++) {
			double v = z[i], ref, dref;
			switch (k) {
			case ACT_ERF:
				ref = erf(a * v);
				dref = 2 * a / sqrt(M_PI) * exp(-a * a * v * v);
				break;
			case ACT_TANH:
				ref = tanh(v);
				dref = 1 - ref * ref;
				break;
			case ACT_RELU:
				ref = v > 0 ? v : 0;
				dref = v > 0;
				break;
			default:
				ref = 1 / (1 + exp(-v));
				dref = ref * (1 - ref);
				break;
			}
			ck_assert_double_eq_tol(y[i], ref, 1e-6);
			ck_assert_double_eq_tol(g[i], 2 * dref, 2e-6);
		}
		/* The fused bias pass equals adding the bias first. */
		memcpy(zb, z, sizeof z);
		act_forward_bias((ActKind)k, a, zb, b, yb, 1, N);
		for (int i = 0; i < N; i++) {
			float v = z[i] + b[i];
			ck_assert_float_eq(zb[i], v);
			act_forward((ActKind)k, a, &v, &v, 1);
			ck_assert_float_eq(yb[i], v);
		}
	}
}
END_TEST

/* act_forward_bias over rows × cols gives the same bits as adding the bias to
 * each row and calling act_forward on it, for widths with and without a
 * scalar tail, separate outputs and y == z. */
START_TEST(test_act_forward_bias_rows)
{
	enum { ROWS = 3, MAXC = 9 };
	static const size_t widths[] = {1, 3, 4, 7, 8, 9};
	static const float scales[] = {1.0f, 0.7f, 2.5f};
	float z[ROWS * MAXC], b[MAXC];
	float zf[ROWS * MAXC], yf[ROWS * MAXC], zr[ROWS * MAXC], yr[ROWS * MAXC];
	float zi[ROWS * MAXC];
	for (int i = 0; i < ROWS * MAXC; i++)
		z[i] = (float)(3.0 * sin(1.3 * i + 0.2));
	for (int j = 0; j < MAXC; j++)
		b[j] = (float)(0.8 * cos(0.7 * j));
	for (int k = 0; k < ACT_COUNT; k++)
		for (int s = 0; s < 3; s++)
			for (int w = 0; w < 6; w++) {
				size_t cols = widths[w], n = ROWS * cols;
				float a = scales[s];
				memcpy(zf, z, sizeof z);
				memcpy(zr, z, sizeof z);
				memcpy(zi, z, sizeof z);
				memset(yf, 0xff, sizeof yf);
				act_forward_bias((ActKind)k, a, zf, b, yf, ROWS, cols);
				for (size_t r = 0; r < ROWS; r++) {
					for (size_t j = 0; j < cols; j++)
						zr[r * cols + j] += b[j];
					act_forward((ActKind)k, a, zr + r * cols, yr + r * cols,
					            cols);
				}
				ck_assert_msg(memcmp(zf, zr, n * sizeof *z) == 0,
				              "%s a=%g cols=%zu: z + b differs", act_name(k), a,
				              cols);
				ck_assert_msg(memcmp(yf, yr, n * sizeof *z) == 0,
				              "%s a=%g cols=%zu: f(z + b) differs", act_name(k), a,
				              cols);
				act_forward_bias((ActKind)k, a, zi, b, zi, ROWS, cols);
				ck_assert_msg(memcmp(zi, yr, n * sizeof *z) == 0,
				              "%s a=%g cols=%zu: in place (y == z) differs",
				              act_name(k), a, cols);
				/* Nothing past rows × cols is written. */
				ck_assert_int_eq(
				    memcmp(zf + n, z + n, (ROWS * MAXC - n) * sizeof *z), 0);
			}
}
END_TEST

/* act_forward with y == z gives the bits it gives into another array. */
START_TEST(test_act_forward_in_place)
{
	enum { N = 13 };
	float z[N], y[N], w[N];
	for (int i = 0; i < N; i++)
		z[i] = (float)(2.5 * cos(0.9 * i + 0.1));
	for (int k = 0; k < ACT_COUNT; k++) {
		for (int i = 0; i < N; i++)
			w[i] = z[i];
		act_forward((ActKind)k, 0.7f, z, y, N);
		act_forward((ActKind)k, 0.7f, w, w, N);
		ck_assert_msg(memcmp(w, y, sizeof y) == 0, "%s: in place differs", act_name(k));
	}
}
END_TEST

/* f(v) for one value through act_forward. */
static double f1(ActKind k, float a, float v)
{
	float y;
	act_forward(k, a, &v, &y, 1);
	return y;
}

/* f'(z) by central differences with steps h and h/2, combined by Richardson
 * extrapolation (error O(h⁴) instead of O(h²)). z ± h is exact in float for
 * the points used below. */
static double fd_derivative(ActKind k, float a, float z)
{
	const double h = 1.0 / 64;
	double d1 = (f1(k, a, (float)(z + h)) - f1(k, a, (float)(z - h))) / (2 * h);
	double d2 = (f1(k, a, (float)(z + h / 2)) - f1(k, a, (float)(z - h / 2))) / h;
	return (4 * d2 - d1) / 3;
}

/* act_backward multiplies g by f'(z): checked against finite differences of
 * act_forward at nine points (the vector body and the tail over the array,
 * and the scalar path one point at a time), for erf at three scales. */
START_TEST(test_act_backward_finite_difference)
{
	enum { N = 9 };
	static const float zs[N] = {-2.5f, -1.25f, -0.625f, -0.375f, 0.3125f,
	                            0.75f, 1.0f,   1.5f,    2.25f};
	static const float scales[] = {1.0f, 0.7f, 2.5f};
	for (int k = 0; k < ACT_COUNT; k++)
		for (int s = 0; s < (k == ACT_ERF ? 3 : 1); s++) {
			float a = scales[s], y[N], g[N];
			act_forward((ActKind)k, a, zs, y, N);
			for (int i = 0; i < N; i++)
				g[i] = -0.5f;
			act_backward((ActKind)k, a, zs, y, g, N);
			for (int i = 0; i < N; i++) {
				double want = -0.5 * fd_derivative((ActKind)k, a, zs[i]);
				float g1 = -0.5f;
				act_backward((ActKind)k, a, &zs[i], &y[i], &g1, 1);
				ck_assert_msg(fabs(g[i] - want) < 1e-4,
				              "%s a=%g z=%g: array gives %.7g, finite "
				              "difference %.7g",
				              act_name(k), a, zs[i], g[i], want);
				ck_assert_msg(fabs(g1 - want) < 1e-4,
				              "%s a=%g z=%g: one value gives %.7g, finite "
				              "difference %.7g",
				              act_name(k), a, zs[i], g1, want);
			}
		}
}
END_TEST

/* The vector body (eight lanes with AVX2, else four) and the one-value
 * path compute the same bits, forward and backward, for every activation:
 * so a result does not depend on where a part's rows start, nor on the
 * core's vector width (the reproducible mode relies on it). */
START_TEST(test_act_lanes_match_one_value)
{
	enum { N = 37 };
	float z[N], y[N], g[N];
	uint32_t s = 12345;
	for (int i = 0; i < N; i++) {
		s = s * 1664525u + 1013904223u;
		z[i] = ((float)(s >> 8) / 16777216.0f - 0.5f) * 12.0f;
	}
	for (int k = 0; k < ACT_COUNT; k++) {
		float a = k == ACT_ERF ? 0.7f : 1.0f;
		act_forward((ActKind)k, a, z, y, N);
		for (int i = 0; i < N; i++)
			g[i] = 0.25f + (float)i / N;
		act_backward((ActKind)k, a, z, y, g, N);
		for (int i = 0; i < N; i++) {
			float y1, g1 = 0.25f + (float)i / N;
			act_forward((ActKind)k, a, &z[i], &y1, 1);
			act_backward((ActKind)k, a, &z[i], &y1, &g1, 1);
			ck_assert_msg(memcmp(&y1, &y[i], sizeof y1) == 0 &&
			                  memcmp(&g1, &g[i], sizeof g1) == 0,
			              "%s z=%a: lanes give %a, %a; one value %a, %a", act_name(k),
			              (double)z[i], (double)y[i], (double)g[i], (double)y1,
			              (double)g1);
		}
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("act");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_act_names);
	tcase_add_test(tc, test_act_parse);
	tcase_add_test(tc, test_erf_fast_accuracy);
	tcase_add_test(tc, test_exp_fast_accuracy);
	tcase_add_test(tc, test_act_forward_backward);
	tcase_add_test(tc, test_act_forward_in_place);
	tcase_add_test(tc, test_act_forward_bias_rows);
	tcase_add_test(tc, test_act_backward_finite_difference);
	tcase_add_test(tc, test_act_lanes_match_one_value);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
