#include "base/err.h"

#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* The length of the valid UTF-8 character at s that is not a C1 control
 * (2 to 4 bytes), or 0. */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	if (s[0] >= 0xf5 || !n)
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	unsigned cp = n == 2   ? (s[0] & 0x1fu) << 6 | (s[1] & 0x3fu)
	              : n == 3 ? (s[0] & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu)
	                       : (s[0] & 0x07u) << 18 | (s[1] & 0x3fu) << 12 | (s[2] & 0x3fu) << 6 |
	                             (s[3] & 0x3fu);
	/* overlong forms, surrogates, beyond U+10FFFF, the C1 controls */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp <= 0x9f))
		return 0;
	return n;
}

const char *err_printable(const char *s, char *out, size_t cap)
{
	size_t k = 0;
	const unsigned char *c = (const unsigned char *)s;
	while (*c && cap > 0) {
		char esc[8];
		int n = 1;
		const char *put = esc;
		if (*c == '\n' || *c == '\r')
			snprintf(esc, sizeof esc, "\\%c", *c == '\n' ? 'n' : 'r');
		else if ((*c < 0x20 && *c != '\t') || *c == 0x7f)
			snprintf(esc, sizeof esc, "\\x%02x", *c);
		else if (*c < 0x80)
			snprintf(esc, sizeof esc, "%c", *c);
		else if ((n = utf8_len(c)) == 0) {
			n = 1;
			snprintf(esc, sizeof esc, "\\x%02x", *c);
		} else {
			put = (const char *)c;
		}
		size_t len = put == esc ? strlen(esc) : (size_t)n;
		if (k + len >= cap)
			break;
		memcpy(out + k, put, len);
		k += len;
		c += n;
	}
	if (cap > 0)
		out[k] = '\0';
	return out;
}

/* ---- a message made of pieces, its quotes shortened to fit ----
 *
 * A message is formatted a conversion at a time: the literal text of the
 * format, and what each conversion gives, each made printable. When the
 * whole is longer than the message holds, the texts it quotes (its %s, the
 * longest first) are shortened in their middle, "…" standing for what was
 * left out, down to QUOTE_MIN bytes each, so that the reason, which the
 * format holds, is never what is cut. Only when that is not enough is the
 * message cut at its end. */

#define PIECES 64
#define QUOTE_MIN 40
#define CAP (sizeof((Err *)0)->msg - 1)

typedef struct Piece {
	const char *s;
	size_t len;
	int quote; /* a text the message quotes: it may be shortened */
} Piece;

typedef struct Pieces {
	Piece p[PIECES];
	char *own[PIECES * 4];
	int n, nown, bad; /* bad: a format these pieces cannot take (vsnprintf does) */
} Pieces;

static void pieces_free(Pieces *ps)
{
	for (int i = 0; i < ps->nown; i++)
		free(ps->own[i]);
}

/* A piece of len bytes at s, made printable (a copy when it changes). */
static void add(Pieces *ps, const char *s, size_t len, int quote, char *owned)
{
	if (ps->n == PIECES || ps->nown >= PIECES * 4 - 2) {
		free(owned);
		ps->bad = 1;
		return;
	}
	if (owned)
		ps->own[ps->nown++] = owned;
	int raw = 0;
	for (size_t i = 0; i < len && !raw; i++)
		raw = (unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f;
	if (raw) {
		char *in = malloc(len + 1), *out = malloc(4 * len + 1);
		if (!in || !out) {
			free(in);
			free(out);
			ps->bad = 1;
			return;
		}
		memcpy(in, s, len);
		in[len] = '\0';
		err_printable(in, out, 4 * len + 1);
		free(in);
		ps->own[ps->nown++] = out;
		s = out;
		len = strlen(out);
	}
	ps->p[ps->n++] = (Piece){s, len, quote};
}

/* (spec is one conversion of the caller's format, which the compiler
 * checked against its arguments where err_set was called) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* What one conversion gives, formatted by spec (a single conversion, its
 * '*' already replaced by numbers), its argument taken from ap. */
static void convert(Pieces *ps, const char *spec, char conv, const char *len, va_list *ap)
{
	char small[128], *buf;
	int n = -1;
#define PUT(T) n = snprintf(small, sizeof small, spec, va_arg(*ap, T))
	if (conv == 's' && !*len) {
		const char *s = va_arg(*ap, const char *);
		n = snprintf(NULL, 0, spec, s);
		buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
		if (buf)
			snprintf(buf, (size_t)n + 1, spec, s);
		if (!buf) {
			ps->bad = 1;
			return;
		}
		add(ps, buf, (size_t)n, 1, buf);
		return;
	} else if (strchr("di", conv)) {
		if (!strcmp(len, "l"))
			PUT(long);
		else if (!strcmp(len, "ll"))
			PUT(long long);
		else if (!strcmp(len, "z"))
			PUT(ssize_t);
		else if (!strcmp(len, "j"))
			PUT(intmax_t);
		else if (!strcmp(len, "t"))
			PUT(ptrdiff_t);
		else if (!*len || !strcmp(len, "h") || !strcmp(len, "hh"))
			PUT(int);
	} else if (strchr("uoxX", conv)) {
		if (!strcmp(len, "l"))
			PUT(unsigned long);
		else if (!strcmp(len, "ll"))
			PUT(unsigned long long);
		else if (!strcmp(len, "z"))
			PUT(size_t);
		else if (!strcmp(len, "j"))
			PUT(uintmax_t);
		else if (!strcmp(len, "t"))
			PUT(ptrdiff_t);
		else if (!*len || !strcmp(len, "h") || !strcmp(len, "hh"))
			PUT(unsigned);
	} else if (strchr("fFeEgGaA", conv)) {
		if (!strcmp(len, "L"))
			PUT(long double);
		else if (!*len || !strcmp(len, "l"))
			PUT(double);
	} else if (conv == 'c' && !*len) {
		PUT(int);
	} else if (conv == 'p' && !*len) {
		PUT(void *);
	}
#undef PUT
	/* (a number is never wider than small: one wider is not condnet's) */
	char *copy = n >= 0 && (size_t)n < sizeof small ? malloc((size_t)n + 1) : NULL;
	if (!copy) {
		ps->bad = 1;
		return;
	}
	memcpy(copy, small, (size_t)n + 1);
	add(ps, copy, (size_t)n, 0, copy);
}
#pragma GCC diagnostic pop

/* A '*' of a conversion: the int it takes from ap, written into spec. */
static void star(char *spec, size_t *k, size_t cap, va_list *ap)
{
	int v = va_arg(*ap, int);
	*k += (size_t)snprintf(spec + *k, cap - *k, "%d", v);
}

/* The pieces of fmt with the arguments of ap. */
static void split(Pieces *ps, const char *fmt, va_list ap)
{
	va_list aq;
	va_copy(aq, ap);
	const char *lit = fmt, *f = fmt;
	while (*f && !ps->bad) {
		if (*f != '%') {
			f++;
			continue;
		}
		if (f > lit)
			add(ps, lit, (size_t)(f - lit), 0, NULL);
		if (f[1] == '%') {
			add(ps, "%", 1, 0, NULL);
			lit = f += 2;
			continue;
		}
		char spec[64], len[3] = "";
		size_t k = 0;
		spec[k++] = *f++;
		while (*f && strchr("-+ #0'", *f) && k < 40)
			spec[k++] = *f++;
		if (*f == '*')
			star(spec, &k, sizeof spec, &aq), f++;
		while (*f >= '0' && *f <= '9' && k < 40)
			spec[k++] = *f++;
		if (*f == '.') {
			spec[k++] = *f++;
			if (*f == '*')
				star(spec, &k, sizeof spec, &aq), f++;
			while (*f >= '0' && *f <= '9' && k < 40)
				spec[k++] = *f++;
		}
		for (int l = 0; l < 2 && *f && strchr("hlzjtL", *f); l++)
			len[l] = spec[k++] = *f++;
		if (!*f || k > 50) {
			ps->bad = 1;
			break;
		}
		char conv = *f++;
		spec[k++] = conv;
		spec[k] = '\0';
		convert(ps, spec, conv, len, &aq);
		lit = f;
	}
	if (*lit && !ps->bad)
		add(ps, lit, strlen(lit), 0, NULL);
	va_end(aq);
}

/* The first byte of the character at or after s + i (not past len). */
static size_t char_start(const char *s, size_t i, size_t len)
{
	while (i < len && ((unsigned char)s[i] & 0xc0) == 0x80)
		i++;
	return i;
}

/* The length of the escape err_printable writes that starts at s, or 1. */
static size_t escape_len(const char *s)
{
	if (s[1] == 'n' || s[1] == 'r')
		return 2;
	return s[1] == 'x' && isxdigit((unsigned char)s[2]) && isxdigit((unsigned char)s[3]) ? 4
	                                                                                     : 1;
}

/* The piece p shortened to at most len bytes (len > 3): its start and end
 * kept, "…" between them, each cut at a whole character. */
static void shorten(Pieces *ps, Piece *p, size_t len)
{
	char *s = malloc(len + 1);
	if (!s || ps->nown == PIECES * 4) {
		free(s);
		ps->bad = 1;
		return;
	}
	size_t keep = len - 3, head = keep / 2, tail = keep - head;
	/* the head ends before a character that would not fit whole */
	size_t h = head;
	while (h > 0 && ((unsigned char)p->s[h] & 0xc0) == 0x80)
		h--;
	size_t t = char_start(p->s, p->len - tail, p->len);
	/* nor inside an escape err_printable wrote (\xHH, \n, \r) */
	for (size_t b = h > 3 ? h - 3 : 0; b < h; b++)
		if (p->s[b] == '\\' && b + escape_len(p->s + b) > h) {
			h = b;
			break;
		}
	for (size_t b = t > 3 ? t - 3 : 0; b < t; b++)
		if (p->s[b] == '\\' && b + escape_len(p->s + b) > t) {
			t = b + escape_len(p->s + b);
			break;
		}
	memcpy(s, p->s, h);
	memcpy(s + h, "\xe2\x80\xa6", 3);
	memcpy(s + h + 3, p->s + t, p->len - t);
	s[h + 3 + p->len - t] = '\0';
	ps->own[ps->nown++] = s;
	p->s = s;
	p->len = h + 3 + (p->len - t);
}

/* Where the longest quote of the messages last set on this thread lies,
 * for err_prefix to shorten it rather than the reason: kept with the
 * message's FNV-1a hash, so that a message changed since is not taken for
 * it (a message copied into another Err has none: its middle is cut). */
#define QUOTES_KEPT 8
typedef struct Quote {
	const Err *e;
	uint32_t hash;
	unsigned short at, len;
} Quote;
static _Thread_local Quote quotes[QUOTES_KEPT];
static _Thread_local int quote_next;

static uint32_t fnv(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void quote_keep(const Err *e, size_t at, size_t len)
{
	for (int i = 0; i < QUOTES_KEPT; i++)
		if (quotes[i].e == e)
			quotes[i].e = NULL;
	if (!len)
		return;
	quotes[quote_next] = (Quote){e, fnv(e->msg), (unsigned short)at, (unsigned short)len};
	quote_next = (quote_next + 1) % QUOTES_KEPT;
}

/* The quote of e's message when it is still the one set: 1, else 0. */
static int quote_of(const Err *e, size_t *at, size_t *len)
{
	for (int i = 0; i < QUOTES_KEPT; i++)
		if (quotes[i].e == e && quotes[i].hash == fnv(e->msg) &&
		    (size_t)quotes[i].at + quotes[i].len <= strlen(e->msg)) {
			*at = quotes[i].at;
			*len = quotes[i].len;
			return 1;
		}
	return 0;
}

/* The pieces into e: the longest quotes shortened until the whole fits. */
static void join(Pieces *ps, Err *e)
{
	size_t total = 0;
	for (int i = 0; i < ps->n; i++)
		total += ps->p[i].len;
	while (total > CAP && !ps->bad) {
		Piece *longest = NULL;
		for (int i = 0; i < ps->n; i++)
			if (ps->p[i].quote && ps->p[i].len > QUOTE_MIN &&
			    (!longest || ps->p[i].len > longest->len))
				longest = &ps->p[i];
		if (!longest)
			break;
		size_t over = total - CAP,
		       want = longest->len > over + QUOTE_MIN ? longest->len - over : QUOTE_MIN;
		total -= longest->len;
		shorten(ps, longest, want);
		total += longest->len;
	}
	size_t k = 0, best = 0, qat = 0;
	for (int i = 0; i < ps->n && k < CAP; i++) {
		size_t n = ps->p[i].len < CAP - k ? ps->p[i].len : CAP - k;
		if (n < ps->p[i].len) /* the end of what did not fit: at a whole character */
			while (n > 0 && ((unsigned char)ps->p[i].s[n] & 0xc0) == 0x80)
				n--;
		memcpy(e->msg + k, ps->p[i].s, n);
		if (ps->p[i].quote && n == ps->p[i].len && n > best) {
			best = n;
			qat = k;
		}
		k += n;
	}
	e->msg[k] = '\0';
	quote_keep(e, qat, best);
}

/* e's message made printable in place (a format these pieces cannot take). */
static void printable(Err *e)
{
	for (const unsigned char *c = (const unsigned char *)e->msg; *c; c++)
		if (*c < 0x20 || *c >= 0x7f) {
			char shown[sizeof e->msg];
			err_printable(e->msg, shown, sizeof shown);
			memcpy(e->msg, shown, sizeof shown);
			return;
		}
}

int err_vset(Err *e, const char *fmt, va_list ap)
{
	if (!e)
		return -1;
	Pieces ps = {.n = 0};
	split(&ps, fmt, ap);
	if (!ps.bad)
		join(&ps, e);
	if (ps.bad) {
		vsnprintf(e->msg, sizeof e->msg, fmt, ap);
		printable(e);
		quote_keep(e, 0, 0);
	}
	pieces_free(&ps);
	return -1;
}

int err_set(Err *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_vset(e, fmt, ap);
	va_end(ap);
	return -1;
}

int err_stop(Err *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_vset(e, fmt, ap);
	va_end(ap);
	return 1;
}

int err_prefix(Err *e, const char *fmt, ...)
{
	char old[sizeof e->msg];
	va_list ap;
	if (!e)
		return -1;
	memcpy(old, e->msg, sizeof old);
	old[sizeof old - 1] = '\0';
	size_t olen = strlen(old), qa = 0, ql = olen;
	quote_of(e, &qa, &ql); /* none known: the message's middle may go */
	Pieces ps = {.n = 0};
	va_start(ap, fmt);
	split(&ps, fmt, ap);
	va_end(ap);
	/* the message before: its quote may be shortened, the rest is kept */
	add(&ps, ": ", 2, 0, NULL);
	add(&ps, old, qa, 0, NULL);
	add(&ps, old + qa, ql, 1, NULL);
	add(&ps, old + qa + ql, olen - qa - ql, 0, NULL);
	if (!ps.bad)
		join(&ps, e);
	if (ps.bad) {
		va_start(ap, fmt);
		int n = vsnprintf(e->msg, sizeof e->msg, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < sizeof e->msg - 2) {
			size_t at = (size_t)n + 2, len = olen;
			if (len > sizeof e->msg - 1 - at)
				len = sizeof e->msg - 1 - at;
			memcpy(e->msg + n, ": ", 2);
			memcpy(e->msg + at, old, len);
			e->msg[at + len] = '\0';
		}
		printable(e);
		quote_keep(e, 0, 0);
	}
	pieces_free(&ps);
	return -1;
}

void err_clear(Err *e)
{
	if (e) {
		e->msg[0] = '\0';
		quote_keep(e, 0, 0);
	}
}
