/* session_action.c - the table of actions, as tmux's cmd_entry describes
 * its commands: each action with its fields (key, type, bounds, whether
 * required, where in SessAction), which the one writer (here: a verb, then
 * key=value fields with '%', space and control characters escaped), the
 * one reader (session_action_read.c) and the check walk. A setting's line
 * takes its verb and value from the settings table (session_setting.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/datasets.h"
#include "data/mnist.h"
#include "data/plane_inputs.h"
#include "engine/graph_family.h"
#include "engine/limits.h"
#include "session/session.h"
#include "session/session_action_int.h"
#include "session/session_setting.h"

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
static int check_squeeze(const SessAction *a, Err *e);
static int check_neuron(const SessAction *a, Err *e);
static int check_layer(const SessAction *a, Err *e);
static int check_inputs(const SessAction *a, Err *e);
static int check_label_col(const SessAction *a, Err *e);

const ActionDef session_actions[SESS_KIND_COUNT] = {
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
           RANGE("onnx", load.onnx, 0, 1, OPT),
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
     .f = {RANGE("layer", squeeze.layer, 1, 1 << 20, OPT),
           RANGE("group", squeeze.group, 1, 1 << 20, OPT),
           WORD(squeeze.apply, "refuse", "apply", "apply or refuse"),
           RANGE("comp", squeeze.comp, 0, 1, 0)},
     .check = check_squeeze},
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

const Field *session_action_fields(const SessAction *a)
{
	const SessSetting *t = session_setting_of(a);
	if (a->kind == SESS_SET)
		return !t ? NULL : t->type == SET_NUMBER ? number_fields : schedule_fields;
	return (unsigned)a->kind < SESS_KIND_COUNT ? session_actions[a->kind].f : NULL;
}

/* A number's limit: a setting's is its row's. */
LimitId session_action_lim(const SessAction *a, const Field *f)
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
	return (unsigned)a->kind < SESS_KIND_COUNT ? session_actions[a->kind].name : "?";
}

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
int session_action_adds(const SessAction *a)
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
	const Field *f = session_action_fields(a);
	for (int add = session_action_adds(a); f && f->off; f++) {
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

/* ---- checking ---- */

/* Widths and β lists are checked as --layers and --beta check them. */
static int check_layers(const SessAction *a, Err *e)
{
	LayerSpec *w = NULL;
	int n = 0;
	if (graph_family_spec(a->net.layers) ? graph_family_check(a->net.layers, e)
	                                     : layers_parse(a->net.layers, &w, &n, e) < 0)
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

/* A chain's layer or a graph network's channel group, one of them. */
static int check_squeeze(const SessAction *a, Err *e)
{
	const SessSqueezeArgs *q = &a->squeeze;
	if (q->layer && q->group)
		return err_set(e, "squeeze: layer or group, not both");
	if (!q->layer && !q->group)
		return err_set(e,
		               "squeeze: missing layer (a chain's) or group (a graph network's)");
	if (q->layer < 0 || q->group < 0)
		return err_set(e, "squeeze: %s %d, expected 1 or more",
		               q->layer ? "layer" : "group", q->layer ? q->layer : q->group);
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
	const ActionDef *d = &session_actions[a->kind];
	int add = session_action_adds(a);
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
