/* tui/worker_say.c - what the worker says and whether it must stop: the
 * status line (a failure about a file with its path shortened to fit),
 * the narration, and the stop predicates of the screen's ending and of a
 * cancel. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/worker.h"
#include "tui/worker_int.h"

int worker_narr_count(const Shown *p)
{
	return p->nnarr < NARR_MAX ? p->nnarr : NARR_MAX;
}

const char *worker_narr(const Shown *p, int k)
{
	int first = p->nnarr < NARR_MAX ? 0 : p->nnarr - NARR_MAX;
	return p->narr ? p->narr[(first + k) % NARR_MAX] : "";
}

NarrKind worker_narr_kind(const Shown *p, int k)
{
	int first = p->nnarr < NARR_MAX ? 0 : p->nnarr - NARR_MAX;
	return (NarrKind)p->narr_kind[(first + k) % NARR_MAX];
}

const char *worker_narr_last_op(const Shown *p)
{
	for (int k = worker_narr_count(p) - 1; k >= 0; k--)
		if (worker_narr_kind(p, k) == NARR_OP)
			return worker_narr(p, k);
	return NULL;
}

static void narrate_v(Worker *w, NarrKind kind, const char *fmt, va_list ap)
{
	pthread_mutex_lock(&w->mu);
	if (w->shown.narr) {
		int at = w->shown.nnarr % NARR_MAX;
		vsnprintf(w->shown.narr[at], NARR_LEN, fmt, ap);
		w->shown.narr_kind[at] = (unsigned char)kind;
		w->shown.nnarr++;
	}
	pthread_mutex_unlock(&w->mu);
}

void worker_narrate(Worker *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	narrate_v(w, NARR_OP, fmt, ap);
	va_end(ap);
}

void worker_narrate_kind(Worker *w, NarrKind kind, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	narrate_v(w, kind, fmt, ap);
	va_end(ap);
}

int worker_quitting(Worker *w)
{
	pthread_mutex_lock(&w->mu);
	int q = w->quit;
	pthread_mutex_unlock(&w->mu);
	return q;
}

int worker_stop_quit(void *ud)
{
	return worker_quitting(ud);
}

int worker_stop_any(void *ud)
{
	Worker *w = ud;
	pthread_mutex_lock(&w->mu);
	int q = w->quit || w->cancel;
	pthread_mutex_unlock(&w->mu);
	return q;
}

/* Columns a UTF-8 text takes (one a character). */
static size_t columns(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* Where path, or a directory of it, starts in text at or after t: the
 * length of the longest start of path found there (0: none of at least
 * min bytes), *at its place. */
static size_t next_path(const char *t, const char *path, size_t min, const char **at)
{
	for (; *t; t++) {
		size_t k = 0;
		while (t[k] && t[k] == path[k])
			k++;
		if (k >= min) {
			*at = t;
			return k;
		}
	}
	return 0;
}

/* text with each stretch that is path or one of its directories shortened
 * from the left to "…" and its last bytes, so that it takes at most fit
 * columns if it can (each keeps 16 bytes at least), into out. */
static void shorten_paths(const char *text, const char *path, size_t fit, char *out, size_t len)
{
	enum { KEEP = 16, MIN = 24, MAXN = 16 };
	size_t n = 0, cols = columns(text, strlen(text)), k, lens[MAXN], maxk = 0;
	const char *t = text, *at;
	while (n < MAXN && (k = next_path(t, path, MIN, &at))) {
		lens[n++] = k, t = at + k;
		maxk = k > maxk ? k : maxk;
	}
	/* the least cut of each stretch that brings the text to fit columns
	 * (a stretch keeps KEEP bytes, and "…" takes a column) */
	size_t cut = 0, o = 0;
	while (cols > fit && cut < maxk) {
		size_t saved = 0;
		cut++;
		for (size_t i = 0; i < n; i++) {
			size_t keep = lens[i] > cut + KEEP ? lens[i] - cut : KEEP;
			saved += lens[i] > keep + 1 ? lens[i] - keep - 1 : 0;
		}
		if (cols - fit <= saved)
			break;
	}
	for (t = text; o < len && (k = next_path(t, path, MIN, &at)); t = at + k) {
		size_t keep = k > cut + KEEP ? k - cut : KEEP;
		const char *tail = at + k - keep;
		while (((unsigned char)*tail & 0xc0) == 0x80 && tail > at)
			tail--;     /* the start of a character */
		if (tail <= at + 1) /* nothing to gain */
			o += (size_t)snprintf(out + o, len - o, "%.*s", (int)(at + k - t), t);
		else
			o += (size_t)snprintf(out + o, len - o, "%.*s…%.*s", (int)(at - t), t,
			                      (int)(at + k - tail), tail);
	}
	if (o < len)
		snprintf(out + o, len - o, "%s", t);
}

void worker_status_failed(Worker *w, const char *path, const char *fmt, ...)
{
	char text[NARR_LEN], shown[sizeof w->shown.status];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	worker_narrate(w, "%s", text);
	if (!path || columns(text, strlen(text)) <= STATUS_FIT) {
		worker_status(w, 1, "%s", text);
		return;
	}
	shorten_paths(text, path, STATUS_FIT, shown, sizeof shown);
	worker_status(w, 1, "%s", shown);
}

void worker_status(Worker *w, int err, const char *fmt, ...)
{
	va_list ap;
	pthread_mutex_lock(&w->mu);
	va_start(ap, fmt);
	vsnprintf(w->shown.status, sizeof w->shown.status, fmt, ap);
	va_end(ap);
	w->shown.status_err = err;
	w->shown.status_gen = w->shown.gen;
	w->shown.status_opening = 0;
	w->shown.status_lesson = 0;
	pthread_mutex_unlock(&w->mu);
}

void worker_status_done(Worker *w, const char *fmt, ...)
{
	char text[NARR_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	worker_narrate(w, "%s", text);
	worker_status(w, 0, "%s", text);
	pthread_mutex_lock(&w->mu);
	w->shown.status_lesson = 1;
	pthread_mutex_unlock(&w->mu);
}

void worker_status_opening(Worker *w, const char *note)
{
	worker_status(w, 0, "%s", note);
	pthread_mutex_lock(&w->mu);
	w->shown.status_opening = 1;
	pthread_mutex_unlock(&w->mu);
}

void worker_status_clear(Worker *w)
{
	pthread_mutex_lock(&w->mu);
	w->shown.status[0] = '\0';
	w->shown.status_err = 0;
	pthread_mutex_unlock(&w->mu);
}
