/* act.c - activation functions and their derivatives over contiguous arrays.
 *
 * erf and exp are evaluated with branch-free polynomial forms, eight lanes
 * at a time; libm's erff and expf are scalar calls and would otherwise cost
 * as much as a small matrix product. Each loop is compiled twice, for any
 * core and for cores with AVX2 (wider registers, the same operations in the
 * same order, so the same bits), and picked when called. */
#include "engine/act.h"

#include <math.h>
#include <string.h>

static const char *const act_names[ACT_COUNT] = {"erf", "tanh", "relu", "sigmoid"};

const char *act_name(ActKind k)
{
	return (unsigned)k < ACT_COUNT ? act_names[k] : "?";
}

int act_parse(const char *s, ActKind *k, Err *e)
{
	for (int i = 0; s && i < ACT_COUNT; i++)
		if (strcmp(s, act_names[i]) == 0) {
			*k = (ActKind)i;
			return 0;
		}
	return err_set(e, "unknown activation '%s' (expected erf, tanh, relu or sigmoid)",
	               s ? s : "");
}

/* Eight-lane vectors pass between inlined functions only, so the warning
 * that their calling convention differs with AVX does not apply. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

typedef float vf __attribute__((vector_size(32)));
typedef int vi __attribute__((vector_size(32)));
#define LANES 8
#define AI static inline __attribute__((always_inline))

AI vf ldv(const float *p)
{
	vf v;
	memcpy(&v, p, sizeof v);
	return v;
}

AI void stv(float *p, vf v)
{
	memcpy(p, &v, sizeof v);
}

AI vf splatv(float x)
{
	return (vf){x, x, x, x, x, x, x, x};
}

/* Lanes of a where mask is set, else lanes of b. */
AI vf selv(vi mask, vf a, vf b)
{
	return (vf)((mask & (vi)a) | (~mask & (vi)b));
}

AI vf clampv(vf x, float lo, float hi)
{
	x = selv(x < splatv(lo), splatv(lo), x);
	return selv(x > splatv(hi), splatv(hi), x);
}

static inline float clampf(float x, float lo, float hi)
{
	x = x < lo ? lo : x;
	return x > hi ? hi : x;
}

/* erf(x) ≈ x·P(x²)/Q(x²) on [-4, 4], a rational minimax form (the one Eigen
 * and XLA use for float); erf rounds to ±1 beyond 4 in single precision. */
#define ERF_BODY(x2, p, q)                                                                         \
	p = p * x2 + 2.77068142495902e-08f;                                                        \
	p = p * x2 - 2.10102402082508e-06f;                                                        \
	p = p * x2 - 5.69250639462346e-05f;                                                        \
	p = p * x2 - 7.34990630326855e-04f;                                                        \
	p = p * x2 - 2.95459980854025e-03f;                                                        \
	p = p * x2 - 1.60960333262415e-02f;                                                        \
	q = q * x2 - 2.13374055278905e-04f;                                                        \
	q = q * x2 - 1.68282697438203e-03f;                                                        \
	q = q * x2 - 7.37332916720468e-03f;                                                        \
	q = q * x2 - 1.42647390514189e-02f

float act_erf_fast(float x)
{
	x = clampf(x, -4.0f, 4.0f);
	float x2 = x * x, p = -2.72614225801306e-10f, q = -1.45660718464996e-05f;
	ERF_BODY(x2, p, q);
	return x * p / q;
}

AI vf erfv(vf x)
{
	x = clampv(x, -4.0f, 4.0f);
	vf x2 = x * x, p = splatv(-2.72614225801306e-10f), q = splatv(-1.45660718464996e-05f);
	ERF_BODY(x2, p, q);
	return x * p / q;
}

/* exp(x) = 2ⁿ·e^r with n = round(x/ln 2), |r| ≤ ln 2/2, e^r by a degree-6
 * polynomial (Cephes expf); x is clamped to [-87, 88] so 2ⁿ stays normal. */
#define EXP_BODY(x, fn, r, p)                                                                      \
	r = x - fn * 0.693359375f;                                                                 \
	r = r + fn * 2.12194440e-4f;                                                               \
	p = p * r + 1.3981999507e-3f;                                                              \
	p = p * r + 8.3334519073e-3f;                                                              \
	p = p * r + 4.1665795894e-2f;                                                              \
	p = p * r + 1.6666665459e-1f;                                                              \
	p = p * r + 5.0000001201e-1f;                                                              \
	p = p * r * r + r + 1.0f

float act_exp_fast(float x)
{
	x = clampf(x, -87.0f, 88.0f);
	float t = x * 1.44269504088896341f;
	int n = (int)(t + (t < 0.0f ? -0.5f : 0.5f));
	float fn = (float)n, r, p = 1.9875691500e-4f;
	EXP_BODY(x, fn, r, p);
	union {
		int i;
		float f;
	} s = {.i = (n + 127) << 23};
	return p * s.f;
}

AI vf expv(vf x)
{
	x = clampv(x, -87.0f, 88.0f);
	vf t = x * 1.44269504088896341f;
	vi half = (vi)splatv(0.5f) | ((vi)t & (int)0x80000000u);
	vi n = __builtin_convertvector(t + (vf)half, vi);
	vf fn = __builtin_convertvector(n, vf), r, p = splatv(1.9875691500e-4f);
	EXP_BODY(x, fn, r, p);
	return p * (vf)((n + 127) << 23);
}

static inline float eval1(ActKind k, float a, float v)
{
	switch (k) {
	case ACT_ERF:
		return act_erf_fast(a * v);
	case ACT_TANH:
		return tanhf(v);
	case ACT_RELU:
		return v > 0.0f ? v : 0.0f;
	default:
		return 1.0f / (1.0f + act_exp_fast(-v));
	}
}

AI vf evalv(ActKind k, float a, vf v)
{
	switch (k) {
	case ACT_ERF:
		return erfv(a * v);
	case ACT_TANH:
		for (int l = 0; l < LANES; l++)
			v[l] = tanhf(v[l]);
		return v;
	case ACT_RELU:
		return (vf)((vi)v & (v > splatv(0.0f)));
	default:
		return 1.0f / (1.0f + expv(-v));
	}
}

AI void forward_body(ActKind k, float a, const float *z, float *y, size_t n)
{
	size_t j = 0;
	for (; j + LANES <= n; j += LANES)
		stv(y + j, evalv(k, a, ldv(z + j)));
	for (; j < n; j++)
		y[j] = eval1(k, a, z[j]);
}

AI void forward_bias_body(ActKind k, float a, float *z, const float *b, float *y, size_t rows,
                          size_t cols, size_t ld)
{
	for (size_t r = 0; r < rows; r++) {
		float *zr = z + r * ld, *yr = y + r * ld;
		size_t j = 0;
		for (; j + LANES <= cols; j += LANES) {
			vf v = ldv(zr + j) + ldv(b + j);
			stv(zr + j, v);
			stv(yr + j, evalv(k, a, v));
		}
		for (; j < cols; j++) {
			zr[j] += b[j];
			yr[j] = eval1(k, a, zr[j]);
		}
	}
}

static inline float grad1(ActKind k, float c, float a2, float z, float y)
{
	switch (k) {
	case ACT_ERF:
		return c * act_exp_fast(-a2 * z * z);
	case ACT_TANH:
		return 1.0f - y * y;
	case ACT_RELU:
		return z > 0.0f ? 1.0f : 0.0f;
	default:
		return y * (1.0f - y);
	}
}

AI vf gradv(ActKind k, float c, float a2, const float *z, const float *y)
{
	switch (k) {
	case ACT_ERF: {
		vf v = ldv(z);
		return c * expv(-a2 * v * v);
	}
	case ACT_TANH: {
		vf v = ldv(y);
		return 1.0f - v * v;
	}
	case ACT_RELU:
		return (vf)((vi)splatv(1.0f) & (ldv(z) > splatv(0.0f)));
	default: {
		vf v = ldv(y);
		return v * (1.0f - v);
	}
	}
}

/* f'(z) for erf(a·z) is 2a/√π·exp(−a²z²); tanh' = 1 − y²; relu' = [z > 0];
 * sigmoid' = y(1 − y). */
AI void backward_body(ActKind k, float a, const float *z, const float *y, size_t ldz, float *g,
                      size_t ldg, size_t rows, size_t cols)
{
	const float c = (float)(2.0 / sqrt(M_PI)) * a, a2 = a * a;
	for (size_t r = 0; r < rows; r++) {
		const float *zr = z + r * ldz, *yr = y + r * ldz;
		float *gr = g + r * ldg;
		size_t i = 0;
		for (; i + LANES <= cols; i += LANES)
			stv(gr + i, ldv(gr + i) * gradv(k, c, a2, zr + i, yr + i));
		for (; i < cols; i++)
			gr[i] *= grad1(k, c, a2, zr[i], yr[i]);
	}
}

/* The loops for any core, and for cores with AVX2. */
static void forward_any(ActKind k, float a, const float *z, float *y, size_t n)
{
	forward_body(k, a, z, y, n);
}

static void forward_bias_any(ActKind k, float a, float *z, const float *b, float *y, size_t rows,
                             size_t cols, size_t ld)
{
	forward_bias_body(k, a, z, b, y, rows, cols, ld);
}

static void backward_any(ActKind k, float a, const float *z, const float *y, size_t ldz, float *g,
                         size_t ldg, size_t rows, size_t cols)
{
	backward_body(k, a, z, y, ldz, g, ldg, rows, cols);
}

#if defined(__x86_64__)
#define HAVE_AVX2() __builtin_cpu_supports("avx2")
#define AVX2 __attribute__((target("avx2")))

AVX2 static void forward_avx2(ActKind k, float a, const float *z, float *y, size_t n)
{
	forward_body(k, a, z, y, n);
}

AVX2 static void forward_bias_avx2(ActKind k, float a, float *z, const float *b, float *y,
                                   size_t rows, size_t cols, size_t ld)
{
	forward_bias_body(k, a, z, b, y, rows, cols, ld);
}

AVX2 static void backward_avx2(ActKind k, float a, const float *z, const float *y, size_t ldz,
                               float *g, size_t ldg, size_t rows, size_t cols)
{
	backward_body(k, a, z, y, ldz, g, ldg, rows, cols);
}
#else
#define HAVE_AVX2() 0
#define forward_avx2 forward_any
#define forward_bias_avx2 forward_bias_any
#define backward_avx2 backward_any
#endif

void act_forward(ActKind k, float a, const float *z, float *y, size_t n)
{
	(HAVE_AVX2() ? forward_avx2 : forward_any)(k, a, z, y, n);
}

void act_forward_bias(ActKind k, float a, float *z, const float *b, float *y, size_t rows,
                      size_t cols)
{
	act_forward_bias_ld(k, a, z, b, y, rows, cols, cols);
}

void act_forward_bias_ld(ActKind k, float a, float *z, const float *b, float *y, size_t rows,
                         size_t cols, size_t ld)
{
	(HAVE_AVX2() ? forward_bias_avx2 : forward_bias_any)(k, a, z, b, y, rows, cols, ld);
}

void act_backward(ActKind k, float a, const float *z, const float *y, float *g, size_t n)
{
	(HAVE_AVX2() ? backward_avx2 : backward_any)(k, a, z, y, n, g, n, 1, n);
}

void act_backward_ld(ActKind k, float a, const float *z, const float *y, size_t ldz, float *g,
                     size_t ldg, size_t rows, size_t cols)
{
	(HAVE_AVX2() ? backward_avx2 : backward_any)(k, a, z, y, ldz, g, ldg, rows, cols);
}
