/* session_action.c - an action as one log line and back: a verb, then
 * key=value fields with '%', space and control characters escaped. The
 * actions are described once, as tmux's cmd_entry describes its commands:
 * a table of actions, each with its fields (key, type, bounds, whether
 * required, where in SessAction), which the one writer and the one reader
 * walk. A setting's line takes its verb and value from the settings table
 * (session_setting.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/datasets.h"
#include "data/mnist.h"
#include "data/plane_inputs.h"
#include "engine/limits.h"
#include "session/session.h"
#include "session/session_setting.h"

/* How a field's text becomes its value, and back. */
typedef enum FieldType {
	FT_TEXT,  /* a string of size bytes */
	FT_SCHED, /* a schedule, as sched_parse reads it */
	FT_PLANE, /* the plane's inputs, as plane_inputs_parse reads them */
	FT_NUM,   /* a double of the table of limits (lim), written with its digits */
	FT_INT,   /* an int of the table of limits, or of lo..hi (lim NOLIM) */
	FT_SEED,  /* an unsigned 64-bit integer */
	FT_CRC,   /* 8 hexadecimal digits */
	FT_ACT,   /* an activation's name */
	FT_MNIST, /* MNIST's inputs by name, 0 for the paper's */
	FT_SHAPE, /* CxHxW */
	FT_WORD   /* one of two words, 0 and 1 */
} FieldType;

enum {
	REQ = 1,    /* required */
	ZERO = 2,   /* "0" reads as not set, whatever the limit says */
	OPT = 4,    /* written only when set (not 0, not empty, or given) */
	ADD = 8,    /* of the add variant: required there, refused with remove */
	REMOVE = 16 /* of the remove variant */
};
#define NOLIM ((LimitId)-1)

typedef struct Field {
	const char *key; /* NULL: the action's bare value */
	FieldType type;
	size_t off, size; /* where in SessAction; a text's buffer */
	unsigned fl;
	LimitId lim;         /* FT_NUM, FT_INT */
	long lo, hi;         /* FT_INT without a limit */
	size_t given;        /* where "given" is kept (has_noise, has_crc, has_seed), or 0 */
	int digits;          /* FT_NUM: written with "%.*g" of these digits */
	const char *word[2]; /* FT_WORD */
	const char *what;    /* a bare value in "missing …" */
	const char *twice;   /* a bare value given twice */
} Field;

/* An action: its verb and its fields, in the order its line writes them
 * (a field's off is never 0: the list ends at the first that is). */
typedef struct ActionDef {
	SessKind kind;
	const char *name;
	Field f[14];
	int (*check)(const SessAction *a, Err *e); /* what the fields' own bounds do not say */
} ActionDef;

#define AT(m) offsetof(SessAction, m)
#define SIZE(m) sizeof(((SessAction *)0)->m)
#define TEXT(k, m, f_)                                                                             \
	{                                                                                          \
		.key = k, .type = FT_TEXT, .off = AT(m), .size = SIZE(m), .fl = f_, .lim = NOLIM   \
	}
#define LIM_INT(k, m, id, f_)                                                                      \
	{                                                                                          \
		.key = k, .type = FT_INT, .off = AT(m), .fl = f_, .lim = id                        \
	}
#define RANGE(k, m, l, h, f_)                                                                      \
	{                                                                                          \
		.key = k, .type = FT_INT, .off = AT(m), .fl = f_, .lim = NOLIM, .lo = l, .hi = h   \
	}
#define NUM(k, m, id, f, f_)                                                                       \
	{                                                                                          \
		.key = k, .type = FT_NUM, .off = AT(m), .fl = f_, .lim = id, .digits = f           \
	}
#define OF(k, t, m, f_)                                                                            \
	{                                                                                          \
		.key = k, .type = t, .off = AT(m), .fl = f_, .lim = NOLIM                          \
	}
#define WORD(m, w0, w1, wh)                                                                        \
	{                                                                                          \
		.type = FT_WORD, .off = AT(m), .fl = REQ, .lim = NOLIM, .word = {w0, w1},          \
		.what = wh, .twice = wh ", not both"                                               \
	}

static int check_layers(const SessAction *a, Err *e);
static int check_betas(const SessAction *a, Err *e);
static int check_neuron(const SessAction *a, Err *e);
static int check_layer(const SessAction *a, Err *e);
static int check_inputs(const SessAction *a, Err *e);
static int check_label_col(const SessAction *a, Err *e);

static const ActionDef actions[SESS_KIND_COUNT] = {
    {.kind = SESS_DATA,
     .name = "data",
     .f = {TEXT("spec", data.spec, REQ),
           TEXT("dir", data.dir, OPT),
           LIM_INT("features", data.features, LIM_FEATURES, REQ | ZERO),
           RANGE("label_col", data.label_col, -1, 1000000, REQ),
           OF("seed", FT_SEED, data.seed, REQ),
           LIM_INT("limit", data.limit, LIM_ROWS, REQ | ZERO),
           NUM("val_frac", data.val_frac, LIM_VAL_FRAC, 17, REQ | ZERO),
           LIM_INT("val_per_class", data.val_per_class, LIM_VAL_PER_CLASS, REQ | ZERO),
           RANGE("scale", data.scale, 0, 2, OPT),
           LIM_INT("points", data.points, LIM_POINTS, OPT),
           {.key = "noise",
            .type = FT_NUM,
            .off = AT(data.noise),
            .fl = OPT,
            .lim = LIM_NOISE,
            .given = AT(data.has_noise),
            .digits = 17},
           OF("inputs", FT_MNIST, data.inputs, OPT),
           OF("shape", FT_SHAPE, data.shape, OPT)},
     .check = check_label_col},
    {.kind = SESS_OPTS,
     .name = "opts",
     .f = {LIM_INT("batch", opts.batch, LIM_BATCH, REQ), NUM("lr", opts.lr, LIM_LR, 17, REQ),
           LIM_INT("threads", opts.threads, LIM_THREADS, OPT | ZERO)}},
    {.kind = SESS_NET,
     .name = "net",
     .f = {TEXT("layers", net.layers, REQ), OF("act", FT_ACT, net.act, REQ),
           NUM("act_a", net.act_a, LIM_ACT_SCALE, 9, REQ), OF("seed", FT_SEED, net.seed, REQ)},
     .check = check_layers},
    {.kind = SESS_LOAD,
     .name = "load",
     .f = {TEXT("path", load.path, REQ),
           {.key = "crc",
            .type = FT_CRC,
            .off = AT(load.crc),
            .fl = OPT,
            .lim = NOLIM,
            .given = AT(load.has_crc)},
           {.key = "seed",
            .type = FT_SEED,
            .off = AT(load.seed),
            .fl = OPT,
            .lim = NOLIM,
            .given = AT(load.has_seed)}}},
    {.kind = SESS_SET, .name = "set"}, /* the settings table's rows */
    {.kind = SESS_TRAIN,
     .name = "train",
     .f = {{.type = FT_NUM,
            .off = AT(train.epochs),
            .fl = REQ,
            .lim = LIM_EPOCHS,
            .digits = 17,
            .what = "a value",
            .twice = "more than one value"},
           LIM_INT("patience", train.patience, LIM_EARLY_STOP, OPT)}},
    {.kind = SESS_ALG1_STEP, .name = "alg1-step"},
    {.kind = SESS_ALG1_RUN, .name = "alg1-run", .f = {RANGE("steps", run.steps, 0, 1 << 20, OPT)}},
    {.kind = SESS_SWEEP,
     .name = "sweep",
     .f = {TEXT("betas", sweep.betas, REQ), LIM_INT("q", sweep.q, LIM_Q, REQ)},
     .check = check_betas},
    {.kind = SESS_SQUEEZE,
     .name = "squeeze",
     .f = {RANGE("layer", squeeze.layer, 1, 1 << 20, REQ),
           WORD(squeeze.apply, "refuse", "apply", "apply or refuse"),
           RANGE("comp", squeeze.comp, 0, 1, 0)}},
    {.kind = SESS_NEURON,
     .name = "neuron",
     .f = {WORD(neuron.add, "remove", "add", "add or remove"),
           RANGE("layer", neuron.layer, 1, 1 << 20, REQ), OF("seed", FT_SEED, neuron.seed, ADD),
           LIM_INT("neuron", neuron.neuron, LIM_WIDTH, REMOVE)},
     .check = check_neuron},
    {.kind = SESS_LAYER,
     .name = "layer",
     .f = {WORD(layer.add, "remove", "add", "add or remove"),
           RANGE("after", layer.after, 0, 1 << 20, ADD),
           RANGE("layer", layer.layer, 1, 1 << 20, REMOVE)},
     .check = check_layer},
    {.kind = SESS_INPUTS,
     .name = "inputs",
     .f = {{.type = FT_PLANE,
            .off = AT(inputs.names),
            .size = SIZE(inputs.names),
            .fl = REQ,
            .lim = NOLIM,
            .what = "the inputs",
            .twice = "more than one list of inputs"},
           OF("seed", FT_SEED, inputs.seed, REQ)},
     .check = check_inputs},
    {.kind = SESS_UNDO, .name = "undo"},
    {.kind = SESS_SAVE, .name = "save", .f = {TEXT("path", save.path, REQ)}},
};

/* A setting's fields, by its type. */
static const Field number_fields[] = {{.type = FT_NUM,
                                       .off = AT(set.value),
                                       .fl = REQ,
                                       .lim = NOLIM,
                                       .digits = 17,
                                       .what = "a value",
                                       .twice = "more than one value"},
                                      {0}};
static const Field schedule_fields[] = {{.type = FT_SCHED,
                                         .off = AT(set.spec),
                                         .size = SIZE(set.spec),
                                         .fl = REQ,
                                         .lim = NOLIM,
                                         .what = "a schedule",
                                         .twice = "more than one schedule"},
                                        NUM("warmup", set.warmup, LIM_WARMUP, 17, OPT | ZERO),
                                        {0}};

static const Field *fields_of(const SessAction *a)
{
	const SessSetting *t = session_setting_of(a);
	if (a->kind == SESS_SET)
		return !t ? NULL : t->type == SET_NUMBER ? number_fields : schedule_fields;
	return (unsigned)a->kind < SESS_KIND_COUNT ? actions[a->kind].f : NULL;
}

/* A number's limit: a setting's is its row's. */
static LimitId lim_of(const SessAction *a, const Field *f)
{
	const SessSetting *t = session_setting_of(a);
	return f->lim == NOLIM && f->type == FT_NUM && t ? t->lim : f->lim;
}

const char *session_action_name(const SessAction *a)
{
	if (a->kind == SESS_SET) {
		const SessSetting *t = session_setting_of(a);
		return t ? t->name : "set";
	}
	return (unsigned)a->kind < SESS_KIND_COUNT ? actions[a->kind].name : "?";
}

#define FIELD(a, f, T) ((T *)((char *)(a) + (f)->off))
#define CFIELD(a, f, T) ((const T *)((const char *)(a) + (f)->off))

/* ---- writing ---- */

/* A line being formatted: over is set when something did not fit. */
typedef struct Out {
	char *buf;
	size_t len, n;
	int over;
} Out;

/* Appends " key=value" (key may be NULL for a bare value), escaping the value. */
static void put(Out *o, const char *key, const char *val)
{
	char head[64];
	int h = snprintf(head, sizeof head, key ? " %s=" : " ", key);
	if (o->over || h < 0 || o->n + (size_t)h >= o->len) {
		o->over = 1;
		return;
	}
	memcpy(o->buf + o->n, head, (size_t)h);
	o->n += (size_t)h;
	for (const unsigned char *p = (const unsigned char *)val; *p; p++) {
		int esc = *p <= ' ' || *p == '%' || *p == 0x7f;
		if (o->n + (esc ? 3 : 1) >= o->len) {
			o->over = 1;
			break;
		}
		if (esc)
			o->n += (size_t)snprintf(o->buf + o->n, o->len - o->n, "%%%02X", *p);
		else
			o->buf[o->n++] = (char)*p;
	}
	o->buf[o->n] = '\0';
}

/* Whether an OPT field is set. */
static int is_set(const SessAction *a, const Field *f)
{
	if (f->given)
		return *(const int *)((const char *)a + f->given);
	switch (f->type) {
	case FT_TEXT:
	case FT_SCHED:
	case FT_PLANE:
		return CFIELD(a, f, char)[0] != '\0';
	case FT_NUM:
		return *CFIELD(a, f, double) > 0;
	case FT_SEED:
		return *CFIELD(a, f, uint64_t) != 0;
	default: /* an int, the first of a shape's */
		return *CFIELD(a, f, int) != 0;
	}
}

/* Whether f goes in a's line. */
static int written(const SessAction *a, const Field *f, int add)
{
	if ((f->fl & ADD && !add) || (f->fl & REMOVE && add))
		return 0;
	return !(f->fl & OPT) || is_set(a, f);
}

/* The value of f as its line says it, into v. */
static const char *value_text(const SessAction *a, const Field *f, char *v, size_t len)
{
	const int *i = CFIELD(a, f, int);
	switch (f->type) {
	case FT_TEXT:
	case FT_SCHED:
	case FT_PLANE:
		return CFIELD(a, f, char);
	case FT_NUM:
		snprintf(v, len, "%.*g", f->digits, *CFIELD(a, f, double));
		break;
	case FT_INT:
		snprintf(v, len, "%d", *i);
		break;
	case FT_SEED:
		snprintf(v, len, "%llu", (unsigned long long)*CFIELD(a, f, uint64_t));
		break;
	case FT_CRC:
		snprintf(v, len, "%08x", (unsigned)*CFIELD(a, f, uint32_t));
		break;
	case FT_ACT:
		return act_name((ActKind)*i);
	case FT_MNIST:
		return mnist_inputs_name((MnistInputs)*i);
	case FT_SHAPE:
		snprintf(v, len, "%dx%dx%d", i[0], i[1], i[2]);
		break;
	case FT_WORD:
		return f->word[*i != 0];
	}
	return v;
}

/* The add variant's word of a, when its fields have variants. */
static int add_of(const SessAction *a)
{
	return (a->kind == SESS_NEURON && a->neuron.add) || (a->kind == SESS_LAYER && a->layer.add);
}

/* Formats a into buf[0..len), len > 0; returns 0, or -1 when the line was cut. */
static int format(const SessAction *a, char *buf, size_t len)
{
	Out o = {buf, len, 0, 0};
	int n = snprintf(buf, len, "%s", session_action_name(a));
	if (n < 0 || (size_t)n >= len)
		return -1;
	o.n = (size_t)n;
	const Field *f = fields_of(a);
	for (int add = add_of(a); f && f->off; f++) {
		char v[64];
		if (written(a, f, add))
			put(&o, f->key, value_text(a, f, v, sizeof v));
	}
	return o.over ? -1 : 0;
}

const char *session_format(const SessAction *a, char *buf, size_t len)
{
	if (len)
		format(a, buf, len);
	return buf;
}

int session_format_line(const SessAction *a, char *buf, size_t len, Err *e)
{
	if (!len || format(a, buf, len) < 0)
		return err_set(e, "%s: the log line needs more than %zu characters",
		               session_action_name(a), len ? len - 1 : 0);
	return 0;
}

/* ---- reading ---- */

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
		return zero ? 0 : limit_parse(lim_of(a, f), key, v, FIELD(a, f, double), e);
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
	const Field *f = find(fields_of(a), eq ? tok : NULL, &i);
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
	const Field *f = fields_of(a);
	for (int bare = 0; bare < 2; bare++) /* the named fields first */
		for (int i = 0; f[i].off; i++)
			if (f[i].fl & REQ && !(have & 1u << i) && (!f[i].key) == bare)
				return err_set(e, "%s: missing %s", name,
				               f[i].key ? f[i].key : f[i].what);
	int add = add_of(a);
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
		if (k != SESS_SET && !strcmp(tok, actions[k].name)) {
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
			                                    : actions[k].name);
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
	const ActionDef *d = a->kind == SESS_SET ? NULL : &actions[a->kind];
	return d && d->check && d->check(a, e) < 0 ? -1 : 1;
}

/* ---- checking ---- */

/* Widths and β lists are checked as --layers and --beta check them. */
static int check_layers(const SessAction *a, Err *e)
{
	LayerSpec *w = NULL;
	int n = 0;
	if (layers_parse(a->net.layers, &w, &n, e) < 0)
		return err_prefix(e, "net");
	free(w);
	return 0;
}

static int check_betas(const SessAction *a, Err *e)
{
	Alg2Opts o;
	if (alg2_parse_betas(a->sweep.betas, &o, e) < 0)
		return err_prefix(e, "sweep");
	return 0;
}

static int check_neuron(const SessAction *a, Err *e)
{
	const SessNeuronArgs *n = &a->neuron;
	if (n->layer < 1)
		return err_set(e, "neuron: layer %d is not a hidden layer", n->layer);
	if (!n->add && n->neuron < 1)
		return err_set(e, "neuron: neuron %d, expected 1 or more", n->neuron);
	return 0;
}

static int check_layer(const SessAction *a, Err *e)
{
	const SessLayerArgs *l = &a->layer;
	int at = l->add ? l->after : l->layer;
	if (at < (l->add ? 0 : 1))
		return err_set(e, "layer: layer %d is not a hidden layer", at);
	return 0;
}

static int check_inputs(const SessAction *a, Err *e)
{
	unsigned mask;
	return plane_inputs_parse(a->inputs.names, &mask, e) < 0 ? -1 : 0;
}

static int check_label_col(const SessAction *a, Err *e)
{
	int c = a->data.label_col;
	if (c < -1 || c > 1000000)
		return err_set(e, "label_col: %d is out of range (-1..1000000)", c);
	return 0;
}

int session_check(const SessAction *a, Err *e)
{
	if (a->kind == SESS_SET)
		return session_setting_check(a, e);
	if ((unsigned)a->kind >= SESS_KIND_COUNT)
		return err_set(e, "unknown action kind %d", (int)a->kind);
	const ActionDef *d = &actions[a->kind];
	int add = add_of(a);
	if (d->check && d->check(a, e) < 0)
		return -1;
	/* every number of the table of limits its line would hold */
	for (const Field *f = d->f; f->off; f++) {
		if (f->lim == NOLIM || (f->type != FT_NUM && f->type != FT_INT) ||
		    !written(a, f, add) || (f->given && !is_set(a, f)))
			continue;
		double v = f->type == FT_NUM ? *CFIELD(a, f, double) : *CFIELD(a, f, int);
		if ((f->fl & (ZERO | OPT)) && v == 0)
			continue;
		if (limit_check(f->lim, v, f->key ? f->key : d->name, NULL, e) < 0)
			return -1;
	}
	return 0;
}
