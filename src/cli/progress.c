/* progress.c - the progress line, per-epoch lines, and signal trapping. */
#include "cli/progress.h"

#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/signals.h"

static int signalled(void *ud)
{
	(void)ud;
	return signals_stop() != 0;
}

void progress_trap_signals(void)
{
	signals_trap_stop(0);
	hook_set_thread_stop(signalled, NULL);
}

/* The meter's line: a bar over the share of what the conditioning computes. */
static void meter_draw(const char *what, double frac, void *ud)
{
	Progress *p = ud;
	double now = clock_seconds();
	if (strncmp(p->work, what, sizeof p->work - 1)) {
		snprintf(p->work, sizeof p->work, "%s", what);
		p->work_t0 = now;
	} else if (now - p->last_draw < 0.1 && frac < 1) {
		return;
	}
	p->last_draw = now;
	enum { WIDTH = 20 };
	char bar[WIDTH + 1];
	int fill = (int)(frac * WIDTH + 0.5);
	fill = fill < 0 ? 0 : fill > WIDTH ? WIDTH : fill;
	memset(bar, '#', (size_t)fill);
	memset(bar + fill, '-', (size_t)(WIDTH - fill));
	bar[WIDTH] = '\0';
	fprintf(p->f, "\r[%s] %s  %.0f %%  %.1f s\033[K", bar, what, 100 * frac, now - p->work_t0);
	fflush(p->f);
	p->shown = 1;
}

int progress_interrupted(void)
{
	return signals_stop();
}

void progress_init(Progress *p, const char *label, int quiet, int epoch_lines)
{
	memset(p, 0, sizeof *p);
	p->f = stderr;
	snprintf(p->label, sizeof p->label, "%s", label);
	p->started = clock_seconds();
	if (quiet)
		p->mode = PROGRESS_OFF;
	else if (isatty(fileno(stderr)))
		p->mode = PROGRESS_LINE;
	else
		p->mode = epoch_lines ? PROGRESS_EPOCHS : PROGRESS_OFF;
	hook_set_thread_meter(p->mode == PROGRESS_LINE ? meter_draw : NULL, p);
}

void progress_what(Progress *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->what, sizeof p->what, fmt, ap);
	va_end(ap);
}

void progress_clear(Progress *p)
{
	if (p->shown) {
		fputs("\r\033[K", p->f);
		fflush(p->f);
		p->shown = 0;
	}
}

/* The redrawn line: bar over this call's batches, then the numbers. */
static void draw_line(Progress *p, const TrainProgress *tp)
{
	enum { WIDTH = 20 };
	char bar[WIDTH + 1];
	double frac = tp->batches > 0 ? (double)tp->batch / (double)tp->batches : 0;
	int fill = (int)(frac * WIDTH + 0.5);
	if (fill > WIDTH)
		fill = WIDTH;
	memset(bar, '#', (size_t)fill);
	memset(bar + fill, '-', (size_t)(WIDTH - fill));
	bar[WIDTH] = '\0';
	fprintf(
	    p->f,
	    "\r[%s] %s%sepoch %.2f  batch %ld/%ld  loss %.4f  acc %.2f %%  lr %.3g  %.1f s\033[K",
	    bar, p->what, p->what[0] ? "  " : "", tp->epoch, tp->batch, tp->batches, tp->loss,
	    100 * tp->acc, tp->lr, tp->seconds);
	fflush(p->f);
	p->shown = 1;
}

int progress_train_cb(const TrainProgress *tp, void *ud)
{
	Progress *p = ud;
	if (p && p->mode == PROGRESS_LINE) {
		double now = clock_seconds();
		if (now - p->last_draw >= 0.1 || tp->batch == tp->batches) {
			p->last_draw = now;
			draw_line(p, tp);
		}
	} else if (p && p->mode == PROGRESS_EPOCHS && tp->epoch_end) {
		fprintf(p->f, "%s: %s%sepoch %.2f  loss %.4f  acc %.2f %%  lr %.3g  %.1f s\n",
		        p->label, p->what, p->what[0] ? "  " : "", tp->epoch, tp->loss,
		        100 * tp->acc, tp->lr, tp->seconds);
		fflush(p->f);
	}
	return signals_stop() ? 1 : 0;
}

int progress_rows(Progress *p, long done, long total)
{
	enum { WIDTH = 20 };
	double now = clock_seconds();
	if (p && p->mode == PROGRESS_LINE && (now - p->last_draw >= 0.1 || done == total)) {
		char bar[WIDTH + 1];
		int fill = total > 0 ? (int)((double)done / (double)total * WIDTH + 0.5) : 0;
		fill = fill > WIDTH ? WIDTH : fill;
		memset(bar, '#', (size_t)fill);
		memset(bar + fill, '-', (size_t)(WIDTH - fill));
		bar[WIDTH] = '\0';
		p->last_draw = now;
		fprintf(p->f, "\r[%s] %s%s%ld/%ld rows  %.1f s\033[K", bar, p->what,
		        p->what[0] ? "  " : "", done, total, now - p->started);
		fflush(p->f);
		p->shown = 1;
	}
	return signals_stop() ? 1 : 0;
}

static int cancelled(void *ud)
{
	return signals_stop() != 0;
}

Hook progress_hook(Progress *p, void (*step)(const HookStep *s, void *ud))
{
	return (Hook){progress_train_cb, step, cancelled, p};
}

void progress_notes(const HookStep *s, void *ud)
{
	if (s->kind != HOOK_NOTE)
		return;
	Progress *p = ud;
	progress_clear(p);
	fprintf(stderr, "%s\n", s->text);
}
