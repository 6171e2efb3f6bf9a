/* session_action_read.c - the one reader of log lines: a verb, then
 * key=value fields with '%', space and control characters escaped, walked
 * through the table of actions (session_action_int.h); a field given twice
 * is refused, naming it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/datasets.h"
#include "data/mnist.h"
#include "data/plane_inputs.h"
#include "engine/limits.h"
#include "session/session.h"
#include "session/session_action_int.h"
#include "session/session_setting.h"

static int unescape(const char *s, char *out, size_t len, Err *e)
{
	size_t n = 0;
	for (; *s; s++) {
		int c = (unsigned char)*s;
		if (c == '%') {
			unsigned v;
			if (!s[1] || !s[2] || sscanf(s + 1, "%2x", &v) != 1)
				return err_set(e, "bad escape at '%.8s' (expected %%XX)", s);
			c = (int)v;
			s += 2;
		}
		if (n + 1 >= len)
			return err_set(e, "value longer than %zu characters", len - 1);
		out[n++] = (char)c;
	}
	out[n] = '\0';
	return 0;
}

static int inum(const char *key, const char *v, long lo, long hi, int *x, Err *e)
{
	char *end;
	errno = 0;
	long l = strtol(v, &end, 10);
	if (!*v || *end || errno || l < lo || l > hi)
		return err_set(e, "%s: expected an integer in [%ld, %ld], got '%s'", key, lo, hi,
		               v);
	*x = (int)l;
	return 0;
}

static int u64num(const char *key, const char *v, uint64_t *x, Err *e)
{
	char *end;
	errno = 0;
	unsigned long long l = strtoull(v, &end, 10);
	if (!*v || *end || errno || *v == '-')
		return err_set(e, "%s: expected an unsigned integer, got '%s'", key, v);
	*x = l;
	return 0;
}

static int crcnum(const char *v, uint32_t *x, Err *e)
{
	char *end;
	unsigned long c = strtoul(v, &end, 16);
	if (!*v || *end || c > 0xffffffffUL)
		return err_set(e, "crc: expected 8 hexadecimal digits, got '%s'", v);
	*x = (uint32_t)c;
	return 0;
}

/* A text field: what it must read as, then whether it fits. */
static int text(SessAction *a, const Field *f, const char *key, const char *v, Err *e)
{
	if (f->type == FT_SCHED) {
		LrSchedule sc;
		sched_default(&sc);
		if (sched_parse(v, &sc, e) < 0)
			return err_prefix(e, "%s", key);
	} else if (f->type == FT_PLANE) {
		unsigned mask;
		if (plane_inputs_parse(v, &mask, e) < 0)
			return -1;
	}
	if (strlen(v) >= f->size)
		return err_set(e, "%s: longer than %zu characters", key, f->size - 1);
	strcpy(FIELD(a, f, char), v);
	return 0;
}

/* The value v of field f (key: its name in messages) into a. */
static int value(SessAction *a, const Field *f, const char *key, const char *v, Err *e)
{
	int zero = f->fl & ZERO && !strcmp(v, "0");
	if (f->given)
		*(int *)((char *)a + f->given) = 1;
	switch (f->type) {
	case FT_TEXT:
	case FT_SCHED:
	case FT_PLANE:
		return text(a, f, key, v, e);
	case FT_NUM:
		*FIELD(a, f, double) = 0;
		return zero ? 0
		            : limit_parse(session_action_lim(a, f), key, v, FIELD(a, f, double), e);
	case FT_INT:
		*FIELD(a, f, int) = 0;
		if (zero)
			return 0;
		return f->lim == NOLIM ? inum(key, v, f->lo, f->hi, FIELD(a, f, int), e)
		                       : limit_parse_int(f->lim, key, v, FIELD(a, f, int), e);
	case FT_SEED:
		return u64num(key, v, FIELD(a, f, uint64_t), e);
	case FT_CRC:
		return crcnum(v, FIELD(a, f, uint32_t), e);
	case FT_ACT: {
		ActKind act;
		if (act_parse(v, &act, e))
			return err_prefix(e, "act");
		*FIELD(a, f, int) = (int)act;
		return 0;
	}
	case FT_MNIST:
		if ((*FIELD(a, f, int) = mnist_inputs_parse(v)) < 0)
			return err_set(e,
			               "inputs: unknown inputs '%s' (expected qr, variance, "
			               "coarse, all or pixels)",
			               v);
		return 0;
	case FT_SHAPE:
		return datasets_parse_shape(key, v, FIELD(a, f, int), e);
	case FT_WORD:
		*FIELD(a, f, int) = !strcmp(v, f->word[1]);
		return 0;
	}
	return 0;
}

/* The field of a's fields that key names (NULL: the bare value), or NULL. */
static const Field *find(const Field *f, const char *key, int *i)
{
	for (*i = 0; f && f[*i].off; (*i)++)
		if (key ? f[*i].key && !strcmp(f[*i].key, key) : !f[*i].key)
			return &f[*i];
	return NULL;
}

/* One word of a line: key=value, or a bare value. have: the fields given. */
static int word(SessAction *a, char *tok, unsigned *have, Err *e)
{
	char val[1024];
	const char *name = session_action_name(a);
	char *eq = strchr(tok, '=');
	if (eq)
		*eq = '\0';
	if (unescape(eq ? eq + 1 : tok, val, sizeof val, e) < 0)
		return err_prefix(e, "%s", name);
	int i;
	const Field *f = find(session_action_fields(a), eq ? tok : NULL, &i);
	if (!f && eq)
		return err_set(e, "%s: unknown field '%s'", name, tok);
	if (!f || (f->type == FT_WORD && strcmp(val, f->word[0]) && strcmp(val, f->word[1])))
		return err_set(e, "%s: unexpected word '%s' (expected key=value)", name, val);
	if (*have & 1u << i)
		return eq ? err_set(e, "%s: %s given twice", name, tok)
		          : err_set(e, "%s: %s", name, f->twice);
	*have |= 1u << i;
	return value(a, f, eq ? tok : name, val, e);
}

/* What the fields given lack, or hold that they must not. */
static int complete(const SessAction *a, unsigned have, Err *e)
{
	const char *name = session_action_name(a);
	const Field *f = session_action_fields(a);
	for (int bare = 0; bare < 2; bare++) /* the named fields first */
		for (int i = 0; f[i].off; i++)
			if (f[i].fl & REQ && !(have & 1u << i) && (!f[i].key) == bare)
				return err_set(e, "%s: missing %s", name,
				               f[i].key ? f[i].key : f[i].what);
	int add = session_action_adds(a);
	const char *word = add ? "add" : "remove";
	for (int i = 0; f[i].off; i++)
		if (f[i].fl & (add ? ADD : REMOVE) && !(have & 1u << i))
			return err_set(e, "%s %s: missing %s", name, word, f[i].key);
	for (int i = 0; f[i].off; i++)
		if (f[i].fl & (add ? REMOVE : ADD) && have & 1u << i)
			return err_set(e, "%s %s: unexpected %s", name, word, f[i].key);
	return 0;
}

/* The verb of a line: an action's, or a setting's. */
static int verb(const char *tok, SessAction *a, Err *e)
{
	for (int k = 0; k < SESS_KIND_COUNT; k++)
		if (k != SESS_SET && !strcmp(tok, session_actions[k].name)) {
			a->kind = (SessKind)k;
			if (k == SESS_DATA)
				a->data.label_col = -1;
			return 0;
		}
	const SessSetting *t = session_setting_find(tok);
	if (t) {
		a->kind = SESS_SET;
		a->set.id = (int)(t - session_settings);
		return 0;
	}
	char list[512];
	size_t n = 0;
	for (int k = 0; k < SESS_KIND_COUNT; k++)
		for (int j = 0; j < (k == SESS_SET ? session_nsettings : 1) && n < sizeof list; j++)
			n += (size_t)snprintf(list + n, sizeof list - n, "%s%s",
			                      n ? (k == SESS_KIND_COUNT - 1 ? " or " : ", ") : "",
			                      k == SESS_SET ? session_settings[j].name
			                                    : session_actions[k].name);
	return err_set(e, "unknown action '%s' (expected %s)", tok, list);
}

int session_parse(const char *line, SessAction *a, Err *e)
{
	char buf[SESS_LINE_MAX + 2];
	const char *sep = " \t\r\n";
	memset(a, 0, sizeof *a);
	size_t len = strcspn(line, "\r\n");
	if (len > SESS_LINE_MAX || strlen(line) >= sizeof buf)
		return err_set(e, "line longer than %d characters", SESS_LINE_MAX);
	strcpy(buf, line);
	char *save, *tok = strtok_r(buf, sep, &save);
	if (!tok || tok[0] == '#')
		return 0;
	if (verb(tok, a, e) < 0)
		return -1;
	unsigned have = 0;
	while ((tok = strtok_r(NULL, sep, &save)))
		if (word(a, tok, &have, e) < 0)
			return -1;
	if (complete(a, have, e) < 0)
		return -1;
	const ActionDef *d = a->kind == SESS_SET ? NULL : &session_actions[a->kind];
	return d && d->check && d->check(a, e) < 0 ? -1 : 1;
}
