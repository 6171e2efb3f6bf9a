/* hook.c - calling a Hook's members. */
#include "engine/hook.h"

#include <stdarg.h>
#include <stdio.h>

int hook_train(const TrainProgress *p, void *hook)
{
	const Hook *h = hook;
	if (!h)
		return 0;
	if (h->progress && h->progress(p, h->ud))
		return 1;
	return hook_cancelled(h);
}

int hook_cancelled(const Hook *h)
{
	return h && h->cancelled && h->cancelled(h->ud);
}

static void vstep(const Hook *h, HookStep s, const char *fmt, va_list ap)
{
	char line[2048];
	vsnprintf(line, sizeof line, fmt, ap);
	s.text = line;
	h->step(&s, h->ud);
}

void hook_step(const Hook *h, HookStep s, const char *fmt, ...)
{
	if (!h || !h->step)
		return;
	va_list ap;
	va_start(ap, fmt);
	vstep(h, s, fmt, ap);
	va_end(ap);
}

void hook_note(const Hook *h, const char *fmt, ...)
{
	if (!h || !h->step)
		return;
	va_list ap;
	va_start(ap, fmt);
	vstep(h, (HookStep){.kind = HOOK_NOTE}, fmt, ap);
	va_end(ap);
}

static _Thread_local int (*stop_fn)(void *);
static _Thread_local void *stop_ud;

void hook_set_thread_stop(int (*stop)(void *ud), void *ud)
{
	stop_fn = stop;
	stop_ud = ud;
}

void hook_thread_stop_get(int (**stop)(void *ud), void **ud)
{
	*stop = stop_fn;
	*ud = stop_ud;
}

int hook_thread_stopped(void)
{
	return stop_fn && stop_fn(stop_ud);
}

static _Thread_local HookMeter meter_fn;
static _Thread_local void *meter_ud;
static _Thread_local HookPart part = {NULL, 0.0, 1.0};

void hook_set_thread_meter(HookMeter fn, void *ud)
{
	meter_fn = fn;
	meter_ud = ud;
	part = (HookPart){NULL, 0.0, 1.0};
}

void hook_thread_meter_get(HookMeter *fn, void **ud)
{
	*fn = meter_fn;
	*ud = meter_ud;
}

HookPart hook_meter_part(const char *what, double f0, double f1)
{
	HookPart old = part;
	double w = old.f1 - old.f0;
	part = (HookPart){what ? what : old.what, old.f0 + f0 * w, old.f0 + f1 * w};
	return old;
}

void hook_meter_restore(HookPart old)
{
	part = old;
}

void hook_meter(double frac)
{
	if (!meter_fn)
		return;
	frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
	meter_fn(part.what ? part.what : "", part.f0 + frac * (part.f1 - part.f0), meter_ud);
}
