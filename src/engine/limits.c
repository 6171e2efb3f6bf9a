/* limits.c - the table of limits.h and its checks. */
#include "engine/limits.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what, lo, hi, lo_open, hi_open, integer, least */
static const Limit table[LIM_COUNT] = {
    [LIM_TAU] = {"τ", 1, 1e12, 1, 0, 0, 0},
    [LIM_ETA] = {"η", 0, 1e6, 1, 0, 0, DBL_MIN},
    [LIM_EPOCHS] = {"the epochs", 0, 1e6, 1, 0, 0, DBL_MIN},
    [LIM_LR] = {"the learning rate", 0, 10, 1, 0, 0, FLT_MIN},
    [LIM_ACT_SCALE] = {"the activation scale", 0, 1e6, 1, 0, 0, FLT_MIN},
    [LIM_BATCH] = {"the batch size", 1, 1e6, 0, 0, 1, 0},
    [LIM_THREADS] = {"the threads", 1, 64, 0, 0, 1, 0},
    [LIM_FEATURES] = {"the features", 1, 1024, 0, 0, 1, 0},
    /* β is snapped to a grid of 1e-9 (alg2_scale.c) */
    [LIM_BETA] = {"β", 0, 1e6, 1, 0, 0, 1e-9},
    [LIM_Q] = {"q", 1, 1000, 0, 0, 1, 0},
    [LIM_WIDTH] = {"a width", 1, LIMIT_MAX_WIDTH, 0, 0, 1, 0},
    [LIM_LAYERS] = {"the layers", 1, LIMIT_MAX_LAYERS, 0, 0, 1, 0},
    [LIM_PARAMS] = {"the parameters", 1, (double)LIMIT_MAX_PARAMS, 0, 0, 1, 0},
    [LIM_ADAM_STEPS] = {"the Adam steps", 0, (double)LIMIT_MAX_STEPS, 0, 0, 1, 0},
    [LIM_SCHED_STEPS] = {"the schedule's steps", 0, (double)LIMIT_MAX_STEPS, 0, 0, 1, 0},
    [LIM_SCHED_EVERY] = {"the step schedule's epochs", 0, 1e6, 1, 0, 0, DBL_MIN},
    [LIM_SCHED_FACTOR] = {"the schedule's factor", 0, 1, 1, 0, 0, DBL_MIN},
    [LIM_SCHED_PERIOD] = {"the cosine's epochs", 0, 1e6, 0, 0, 0, DBL_MIN},
    [LIM_SCHED_PATIENCE] = {"the plateau's patience", 1, 1e6, 0, 0, 1, 0},
    [LIM_WARMUP] = {"the warm-up", 0, 1e6, 0, 0, 0, DBL_MIN},
    [LIM_EARLY_STOP] = {"the early-stopping patience", 1, 1e6, 0, 0, 1, 0},
    [LIM_ROWS] = {"the rows of every class", 1, 1e8, 0, 0, 1, 0},
    [LIM_VAL_FRAC] = {"the validation fraction", 0, 1, 1, 1, 0, DBL_MIN},
    [LIM_VAL_PER_CLASS] = {"the validation rows of every class", 1, 1e8, 0, 0, 1, 0},
    /* a plane data set: at least 2 points of each of its (at most 3) classes */
    [LIM_POINTS] = {"the points", 6, 1e6, 0, 0, 1, 0},
    /* the standard deviation of the noise, in the units of the plane, whose
     * data sets lie within about [-1, 1] */
    [LIM_NOISE] = {"the noise", 0, 1, 0, 0, 0, 0},
    [LIM_SPEED] = {"the training speed", LIMIT_MIN_SPEED, LIMIT_MAX_SPEED, 0, 0, 0, 0},
};

const Limit *limit_of(LimitId id)
{
	return (unsigned)id < LIM_COUNT ? &table[id] : NULL;
}

/* "NAME: 'text'" or "NAME: v" and the complaint, a format of one double. */
static int complain(const char *name, const char *text, double v, Err *e, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int complain(const char *name, const char *text, double v, Err *e, const char *fmt, ...)
{
	char val[64], why[96];
	if (text)
		snprintf(val, sizeof val, "'%.40s%s'", text, strlen(text) > 40 ? "…" : "");
	else
		snprintf(val, sizeof val, "%.9g", v);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	return err_set(e, "%s: %s %s", name, val, why);
}

int limit_check(LimitId id, double v, const char *name, const char *text, Err *e)
{
	const Limit *l = limit_of(id);
	if (!l)
		return err_set(e, "%s: no such limit", name);
	if (isnan(v))
		return complain(name, text, v, e, "is not a number");
	if (!isfinite(v))
		return complain(name, text, v, e,
		                v > 0 ? "must be at most %g" : "must be at least %g",
		                v > 0 ? l->hi : l->lo);
	if (l->integer && v != floor(v))
		return complain(name, text, v, e, "is not a whole number");
	if (l->least > 0 && v != 0 && fabs(v) < l->least)
		return complain(name, text, v, e, "is too small (the least is %g)", l->least);
	if (l->lo_open && v <= l->lo)
		return complain(name, text, v, e,
		                l->lo == 0 ? "is not a positive number" : "must be greater than %g",
		                l->lo);
	if (!l->lo_open && v < l->lo)
		return complain(name, text, v, e, "must be at least %g", l->lo);
	if (l->hi_open && v >= l->hi)
		return complain(name, text, v, e, "must be less than %g", l->hi);
	if (v > l->hi)
		return complain(name, text, v, e, "must be at most %g", l->hi);
	return 0;
}

int limit_parse(LimitId id, const char *name, const char *s, double *out, Err *e)
{
	const Limit *l = limit_of(id);
	if (l && l->integer) {
		int v;
		if (limit_parse_int(id, name, s, &v, e))
			return -1;
		*out = v;
		return 0;
	}
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end || isnan(v))
		return complain(name, s, v, e, "is not a number");
	/* below the least normal double: a subnormal, or 0 for what was not 0 */
	if (errno == ERANGE && fabs(v) <= DBL_MIN && l && l->least > 0)
		return complain(name, s, v, e, "is too small (the least is %g)", l->least);
	if (errno == ERANGE && fabs(v) <= DBL_MIN)
		return complain(name, s, v, e, "is too small to be told from 0");
	if (limit_check(id, v, name, s, e))
		return -1;
	*out = v;
	return 0;
}

int limit_parse_speed(const char *name, const char *s, double *out, Err *e)
{
	char word[64] = "", more[2];
	int n = sscanf(s, " %63s %1s", word, more);
	if (n == 1 && !strcmp(word, "full")) {
		*out = 0;
		return 0;
	}
	if (n != 1 || limit_parse(LIM_SPEED, name, word, out, NULL) < 0)
		return err_set(e,
		               "%s: '%s' is not a speed: expected epochs a second, from one a day "
		               "(1/86400) to %g, or full",
		               name, s + strspn(s, " \t"), LIMIT_MAX_SPEED);
	return 0;
}

int limit_parse_range(const char *name, const char *s, long lo, long hi, int *out, Err *e)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		if (!errno && end != s && !*end && (v > hi || lo > 1))
			return err_set(e, "%s: '%s' is out of range (%ld..%ld)", name, s, lo, hi);
		if (lo >= 1)
			return err_set(e, "%s: '%s' is not a positive integer", name, s);
		if (lo == 0)
			return err_set(e, "%s: '%s' is not a non-negative integer", name, s);
		return err_set(e, "%s: '%s' is not an integer", name, s);
	}
	*out = (int)v;
	return 0;
}

int limit_parse_int(LimitId id, const char *name, const char *s, int *out, Err *e)
{
	const Limit *l = limit_of(id);
	long lo = (long)l->lo + l->lo_open, hi = (long)l->hi - l->hi_open;
	return limit_parse_range(name, s, lo, hi, out, e);
}

int limit_check_widths(int m, const int *w, const char *what, uint64_t *nparam, Err *e)
{
	char name[160];
	snprintf(name, sizeof name, "%s: its layers", what);
	if (limit_check(LIM_LAYERS, m, name, NULL, e))
		return -1;
	uint64_t np = 0;
	for (int i = 0; i <= m; i++) {
		snprintf(name, sizeof name, "%s: width n[%d]", what, i);
		if (limit_check(LIM_WIDTH, w[i], name, NULL, e))
			return -1;
		/* each term is below 2^47 and there are fewer than 2^17: no overflow */
		if (i > 0)
			np += ((uint64_t)w[i - 1] + 1) * (uint64_t)w[i];
	}
	if (np > LIMIT_MAX_PARAMS)
		return err_set(e, "%s has %llu parameters, more than condnet trains (%lu)", what,
		               (unsigned long long)np, (unsigned long)LIMIT_MAX_PARAMS);
	if (nparam)
		*nparam = np;
	return 0;
}
