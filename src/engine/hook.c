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
