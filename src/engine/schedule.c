/* schedule.c - learning-rate schedules: parsing, the rate of a step, and
 * the plateau rule. */
#include "engine/schedule.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/limits.h"

/* The default F of "step:E" and "plateau:P" (Keras' and PyTorch's 0.1). */
#define DEFAULT_FACTOR 0.1
/* A plateau improvement: v < best·(1 − REL_IMPROVEMENT) (PyTorch's default). */
#define REL_IMPROVEMENT 1e-4
/* The largest number of epochs any field takes (the table of limits). */
#define MAX_EPOCHS 1e6

static const char *const kind_names[SCHED_KIND_COUNT] = {"constant", "step", "cosine", "plateau"};

void sched_default(LrSchedule *s)
{
	memset(s, 0, sizeof *s);
	s->kind = SCHED_CONSTANT;
}

/* A number field of a spec: the whole of [p, end) must be one. */
static int field_num(const char *spec, const char *p, size_t len, const char *what, double *x,
                     Err *e)
{
	char buf[64], *end;
	if (len == 0 || len >= sizeof buf)
		return err_set(e, "schedule '%s': %s is missing or too long", spec, what);
	memcpy(buf, p, len);
	buf[len] = '\0';
	errno = 0;
	*x = strtod(buf, &end);
	if (*end || errno || !isfinite(*x))
		return err_set(e, "schedule '%s': %s '%s' is not a number", spec, what, buf);
	return 0;
}

int sched_parse(const char *spec, LrSchedule *s, Err *e)
{
	static const char expect[] =
	    "expected constant, step:EPOCHS[:FACTOR], cosine[:EPOCHS] or plateau:PATIENCE[:FACTOR]";
	LrSchedule r;
	sched_default(&r);
	r.warmup = s->warmup;
	const char *colon = strchr(spec, ':');
	size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	int k;
	for (k = 0; k < SCHED_KIND_COUNT; k++)
		if (strlen(kind_names[k]) == nlen && !strncmp(spec, kind_names[k], nlen))
			break;
	if (k == SCHED_KIND_COUNT)
		return err_set(e, "schedule '%s': %s", spec, expect);
	r.kind = (SchedKind)k;
	/* up to two numbers after the name */
	double v[2] = {NAN, NAN};
	int nv = 0;
	const char *p = colon ? colon + 1 : NULL;
	while (p) {
		const char *c = strchr(p, ':');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		if (nv == 2)
			return err_set(e, "schedule '%s': too many fields (%s)", spec, expect);
		if (field_num(spec, p, len, nv ? "the factor" : "the first number", &v[nv], e))
			return -1;
		nv++;
		p = c ? c + 1 : NULL;
	}
	int want_lo = r.kind == SCHED_STEP || r.kind == SCHED_PLATEAU;
	int want_hi = r.kind == SCHED_CONSTANT ? 0 : r.kind == SCHED_COSINE ? 1 : 2;
	if (nv > want_hi || nv < want_lo)
		return err_set(e, "schedule '%s': %s", spec, expect);
	switch (r.kind) {
	case SCHED_STEP:
		r.every = v[0];
		r.factor = nv > 1 ? v[1] : DEFAULT_FACTOR;
		break;
	case SCHED_COSINE:
		r.period = nv > 0 ? v[0] : 0;
		if (nv > 0 && !(r.period > 0))
			return err_set(e,
			               "schedule '%s': the length of the cosine must be a "
			               "positive number of epochs",
			               spec);
		break;
	case SCHED_PLATEAU:
		if (v[0] != floor(v[0]) || v[0] < 1 || v[0] > MAX_EPOCHS)
			return err_set(e,
			               "schedule '%s': the patience must be a whole number of "
			               "epochs from 1 to %g",
			               spec, MAX_EPOCHS);
		r.patience = (int)v[0];
		r.factor = nv > 1 ? v[1] : DEFAULT_FACTOR;
		break;
	default:
		break;
	}
	if (sched_check(&r, e) < 0)
		return err_prefix(e, "schedule '%s'", spec);
	*s = r;
	return 0;
}

/* 1 when x lies in the range of limit id (limits.h), subnormals excluded. */
static int in_range(LimitId id, double x)
{
	return limit_check(id, x, "", NULL, NULL) == 0;
}

/* The ranges are those of the table of limits (engine/limits.h). */
int sched_check(const LrSchedule *s, Err *e)
{
	if ((unsigned)s->kind >= SCHED_KIND_COUNT)
		return err_set(e, "unknown schedule kind %d", (int)s->kind);
	if (!in_range(LIM_WARMUP, s->warmup))
		return err_set(e, "warm-up %g: expected 0 to %g epochs", s->warmup, MAX_EPOCHS);
	switch (s->kind) {
	case SCHED_STEP:
		if (!in_range(LIM_SCHED_EVERY, s->every))
			return err_set(e,
			               "step every %g epochs: expected more than 0 and at most %g",
			               s->every, MAX_EPOCHS);
		break;
	case SCHED_COSINE:
		if (!in_range(LIM_SCHED_PERIOD, s->period))
			return err_set(e, "cosine over %g epochs: expected 0 to %g", s->period,
			               MAX_EPOCHS);
		break;
	case SCHED_PLATEAU:
		if (!in_range(LIM_SCHED_PATIENCE, s->patience))
			return err_set(e, "plateau patience %d: expected 1 to %g epochs",
			               s->patience, MAX_EPOCHS);
		break;
	default:
		break;
	}
	if ((s->kind == SCHED_STEP || s->kind == SCHED_PLATEAU) &&
	    !in_range(LIM_SCHED_FACTOR, s->factor))
		return err_set(e, "factor %g: expected more than 0 and at most 1", s->factor);
	return 0;
}

int sched_equal(const LrSchedule *a, const LrSchedule *b)
{
	return a->kind == b->kind && a->every == b->every && a->factor == b->factor &&
	       a->period == b->period && a->patience == b->patience && a->warmup == b->warmup;
}

/* The shortest %g form of x that reads back as x. */
static void exact(char *buf, size_t len, double x)
{
	for (int prec = 6; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			return;
	}
}

const char *sched_format(const LrSchedule *s, char *buf, size_t len)
{
	char a[32], b[32];
	switch (s->kind) {
	case SCHED_STEP:
		exact(a, sizeof a, s->every);
		exact(b, sizeof b, s->factor);
		snprintf(buf, len, "step:%s:%s", a, b);
		break;
	case SCHED_COSINE:
		exact(a, sizeof a, s->period);
		if (s->period > 0)
			snprintf(buf, len, "cosine:%s", a);
		else
			snprintf(buf, len, "cosine");
		break;
	case SCHED_PLATEAU:
		exact(b, sizeof b, s->factor);
		snprintf(buf, len, "plateau:%d:%s", s->patience, b);
		break;
	default:
		snprintf(buf, len, "constant");
		break;
	}
	return buf;
}

const char *sched_settings(double lr, const LrSchedule *s, int patience, char *buf, size_t len)
{
	char spec[64], w[32];
	sched_format(s, spec, sizeof spec);
	exact(w, sizeof w, s->warmup);
	int n = snprintf(buf, len, "lr %g %s", lr, spec);
	if (n >= 0 && (size_t)n < len && s->warmup > 0)
		n += snprintf(buf + n, len - (size_t)n, " warm %s", w);
	if (n >= 0 && (size_t)n < len && patience > 0)
		snprintf(buf + n, len - (size_t)n, " stop %d", patience);
	return buf;
}

void sched_resolve(LrSchedule *s, double epochs)
{
	if (s->kind == SCHED_COSINE && s->period == 0)
		s->period = epochs;
}

/* w = ⌈W·b⌉ (the slack keeps e.g. 0.1·1200 at 120). */
static long warmup_batches(const LrSchedule *s, long bpe)
{
	return s->warmup > 0 ? (long)ceil(s->warmup * (double)bpe - 1e-9) : 0;
}

int sched_ready(const LrSchedule *s, long bpe, Err *e)
{
	if (sched_check(s, e) < 0)
		return -1;
	if (s->kind != SCHED_COSINE)
		return 0;
	if (s->period == 0)
		return err_set(e,
		               "cosine schedule: its length in epochs is not set (cosine:EPOCHS)");
	if (!(s->period * (double)bpe > (double)warmup_batches(s, bpe)))
		return err_set(e, "cosine over %g epochs ends before its warm-up of %g epochs",
		               s->period, s->warmup);
	return 0;
}

double sched_factor(const LrSchedule *s, const SchedState *st, long bpe)
{
	long w = warmup_batches(s, bpe);
	double u = st->step < w ? (double)(st->step + 1) / (double)w : 1.0;
	double e = st->step > w ? (double)(st->step - w) / (double)bpe : 0.0;
	double g = 1.0;
	switch (s->kind) {
	case SCHED_STEP:
		g = pow(s->factor, floor(e / s->every + 1e-9));
		break;
	case SCHED_COSINE: {
		double len = s->period - (double)w / (double)bpe;
		double x = len > 0 ? (e < len ? e / len : 1.0) : 1.0;
		g = 0.5 * (1.0 + cos(M_PI * x));
		break;
	}
	case SCHED_PLATEAU:
		g = pow(s->factor, (double)st->reductions);
		break;
	default:
		break;
	}
	return u * g;
}

double sched_lr(const LrSchedule *s, const SchedState *st, long bpe, double lr)
{
	return lr * sched_factor(s, st, bpe);
}

void sched_observe(const LrSchedule *s, SchedState *st, long bpe, double v)
{
	if (s->kind != SCHED_PLATEAU || st->step < warmup_batches(s, bpe))
		return;
	if (isfinite(v) && (!st->has_best || v < st->best * (1.0 - REL_IMPROVEMENT))) {
		st->best = v;
		st->has_best = 1;
		st->bad = 0;
		return;
	}
	if (++st->bad >= s->patience) {
		st->reductions++;
		st->bad = 0;
	}
}
