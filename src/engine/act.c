/* act.c - activation functions and their derivatives over contiguous arrays.
 *
 * erf and exp are evaluated with branch-free polynomial forms that the
 * compiler can vectorise; libm's erff and expf are scalar calls and would
 * otherwise cost as much as a small matrix product. */
#include "engine/act.h"

#include <math.h>
#include <string.h>

#include "base/vec4.h"

static const char *const act_names[ACT_COUNT] = {"erf", "tanh", "relu", "sigmoid"};

const char *act_name(ActKind k)
{
	return (unsigned)k < ACT_COUNT ? act_names[k] : "?";
}

int act_parse(const char *s)
{
	for (int k = 0; s && k < ACT_COUNT; k++)
		if (strcmp(s, act_names[k]) == 0)
			return k;
	return -1;
}

/* Lanes of a where mask is set, else lanes of b. */
static inline v4f sel4(v4i mask, v4f a, v4f b)
{
	return (v4f)((mask & (v4i)a) | (~mask & (v4i)b));
}

static inline v4f clamp4(v4f x, float lo, float hi)
{
	x = sel4(x < splat(lo), splat(lo), x);
	return sel4(x > splat(hi), splat(hi), x);
}

static inline float clampf(float x, float lo, float hi)
{
	x = x < lo ? lo : x;
	return x > hi ? hi : x;
}

/* erf(x) ≈ x·P(x²)/Q(x²) on [-4, 4], a rational minimax form (the one Eigen
 * and XLA use for float); erf rounds to ±1 beyond 4 in single precision. */
#define ERF_BODY(x2, p, q)                              \
	p = p * x2 + 2.77068142495902e-08f;             \
	p = p * x2 - 2.10102402082508e-06f;             \
	p = p * x2 - 5.69250639462346e-05f;             \
	p = p * x2 - 7.34990630326855e-04f;             \
	p = p * x2 - 2.95459980854025e-03f;             \
	p = p * x2 - 1.60960333262415e-02f;             \
	q = q * x2 - 2.13374055278905e-04f;             \
	q = q * x2 - 1.68282697438203e-03f;             \
	q = q * x2 - 7.37332916720468e-03f;             \
	q = q * x2 - 1.42647390514189e-02f

float act_erf_fast(float x)
{
	x = clampf(x, -4.0f, 4.0f);
	float x2 = x * x, p = -2.72614225801306e-10f, q = -1.45660718464996e-05f;
	ERF_BODY(x2, p, q);
	return x * p / q;
}

static inline v4f erf4(v4f x)
{
	x = clamp4(x, -4.0f, 4.0f);
	v4f x2 = x * x, p = splat(-2.72614225801306e-10f), q = splat(-1.45660718464996e-05f);
	ERF_BODY(x2, p, q);
	return x * p / q;
}

/* exp(x) = 2ⁿ·e^r with n = round(x/ln 2), |r| ≤ ln 2/2, e^r by a degree-6
 * polynomial (Cephes expf); x is clamped to [-87, 88] so 2ⁿ stays normal. */
#define EXP_BODY(x, fn, r, p)                           \
	r = x - fn * 0.693359375f;                      \
	r = r + fn * 2.12194440e-4f;                    \
	p = p * r + 1.3981999507e-3f;                   \
	p = p * r + 8.3334519073e-3f;                   \
	p = p * r + 4.1665795894e-2f;                   \
	p = p * r + 1.6666665459e-1f;                   \
	p = p * r + 5.0000001201e-1f;                   \
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

static inline v4f exp4(v4f x)
{
	x = clamp4(x, -87.0f, 88.0f);
	v4f t = x * 1.44269504088896341f;
	v4i half = (v4i)splat(0.5f) | ((v4i)t & (int)0x80000000u);
	v4i n = __builtin_convertvector(t + (v4f)half, v4i);
	v4f fn = __builtin_convertvector(n, v4f), r, p = splat(1.9875691500e-4f);
	EXP_BODY(x, fn, r, p);
	return p * (v4f)((n + 127) << 23);
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

static inline v4f eval4(ActKind k, float a, v4f v)
{
	switch (k) {
	case ACT_ERF:
		return erf4(a * v);
	case ACT_TANH:
		return (v4f){tanhf(v[0]), tanhf(v[1]), tanhf(v[2]), tanhf(v[3])};
	case ACT_RELU:
		return (v4f)((v4i)v & (v > splat(0.0f)));
	default:
		return 1.0f / (1.0f + exp4(-v));
	}
}

void act_forward(ActKind k, float a, const float *z, float *y, size_t n)
{
	size_t j = 0;
	for (; j + 4 <= n; j += 4)
		st4(y + j, eval4(k, a, ld4(z + j)));
	for (; j < n; j++)
		y[j] = eval1(k, a, z[j]);
}

void act_forward_bias(ActKind k, float a, float *z, const float *b, float *y, size_t rows,
		      size_t cols)
{
	act_forward_bias_ld(k, a, z, b, y, rows, cols, cols);
}

void act_forward_bias_ld(ActKind k, float a, float *z, const float *b, float *y, size_t rows,
			 size_t cols, size_t ld)
{
	for (size_t r = 0; r < rows; r++) {
		float *zr = z + r * ld, *yr = y + r * ld;
		size_t j = 0;
		for (; j + 4 <= cols; j += 4) {
			v4f v = ld4(zr + j) + ld4(b + j);
			st4(zr + j, v);
			st4(yr + j, eval4(k, a, v));
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

static inline v4f grad4(ActKind k, float c, float a2, const float *z, const float *y)
{
	switch (k) {
	case ACT_ERF: {
		v4f v = ld4(z);
		return c * exp4(-a2 * v * v);
	}
	case ACT_TANH: {
		v4f v = ld4(y);
		return 1.0f - v * v;
	}
	case ACT_RELU:
		return (v4f)((v4i)splat(1.0f) & (ld4(z) > splat(0.0f)));
	default: {
		v4f v = ld4(y);
		return v * (1.0f - v);
	}
	}
}

/* f'(z) for erf(a·z) is 2a/√π·exp(−a²z²); tanh' = 1 − y²; relu' = [z > 0];
 * sigmoid' = y(1 − y). */
void act_backward(ActKind k, float a, const float *z, const float *y, float *g, size_t n)
{
	const float c = (float)(2.0 / sqrt(M_PI)) * a, a2 = a * a;
	size_t i = 0;
	for (; i + 4 <= n; i += 4)
		st4(g + i, ld4(g + i) * grad4(k, c, a2, z + i, y + i));
	for (; i < n; i++)
		g[i] *= grad1(k, c, a2, z[i], y[i]);
}

void act_backward_ld(ActKind k, float a, const float *z, const float *y, size_t ldz, float *g,
		     size_t ldg, size_t rows, size_t cols)
{
	for (size_t r = 0; r < rows; r++)
		act_backward(k, a, z + r * ldz, y + r * ldz, g + r * ldg, cols);
}
