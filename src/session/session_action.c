/* session_action.c - an action as one log line and back: a verb, then
 * key=value fields with '%', space and control characters escaped. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/datasets.h"
#include "data/mnist.h"
#include "engine/limits.h"
#include "session/session.h"

static const char *const kind_names[SESS_KIND_COUNT] = {
    "data",      "opts",     "net",   "load",    "tau",  "eta",  "train",
    "alg1-step", "alg1-run", "sweep", "squeeze", "undo", "save", "sched",
};

const char *session_kind_name(SessKind k)
{
	return (unsigned)k < SESS_KIND_COUNT ? kind_names[k] : "?";
}

/* ---- formatting ---- */

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

static void putf(Out *o, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void putf(Out *o, const char *key, const char *fmt, ...)
{
	char v[64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v, sizeof v, fmt, ap);
	va_end(ap);
	put(o, key, v);
}

/* Formats a into buf[0..len), len > 0; returns 0, or -1 when the line was cut. */
static int format(const SessAction *a, char *buf, size_t len)
{
	Out o = {buf, len, 0, 0};
	int n = snprintf(buf, len, "%s", session_kind_name(a->kind));
	if (n < 0 || (size_t)n >= len)
		return -1;
	o.n = (size_t)n;
	switch (a->kind) {
	case SESS_DATA:
		put(&o, "spec", a->spec);
		if (a->path[0])
			put(&o, "dir", a->path);
		putf(&o, "features", "%d", a->features);
		putf(&o, "label_col", "%d", a->label_col);
		putf(&o, "seed", "%llu", (unsigned long long)a->seed);
		putf(&o, "limit", "%d", a->limit);
		putf(&o, "val_frac", "%.17g", a->x);
		putf(&o, "val_per_class", "%d", a->val_per_class);
		if (a->scale)
			putf(&o, "scale", "%d", a->scale);
		if (a->points > 0)
			putf(&o, "points", "%d", a->points);
		if (a->has_noise)
			putf(&o, "noise", "%.17g", a->noise);
		if (a->inputs)
			put(&o, "inputs", mnist_inputs_name((MnistInputs)a->inputs));
		if (a->shape[0])
			putf(&o, "shape", "%dx%dx%d", a->shape[0], a->shape[1], a->shape[2]);
		break;
	case SESS_OPTS:
		putf(&o, "batch", "%d", a->batch);
		putf(&o, "lr", "%.17g", a->x);
		if (a->threads)
			putf(&o, "threads", "%d", a->threads);
		break;
	case SESS_NET:
		put(&o, "layers", a->spec);
		put(&o, "act", act_name((ActKind)a->act));
		putf(&o, "act_a", "%.9g", a->x);
		putf(&o, "seed", "%llu", (unsigned long long)a->seed);
		break;
	case SESS_LOAD:
		put(&o, "path", a->path);
		if (a->has_crc)
			putf(&o, "crc", "%08x", (unsigned)a->crc);
		if (a->has_seed)
			putf(&o, "seed", "%llu", (unsigned long long)a->seed);
		break;
	case SESS_SAVE:
		put(&o, "path", a->path);
		break;
	case SESS_TAU:
	case SESS_ETA:
	case SESS_TRAIN:
		putf(&o, NULL, "%.17g", a->x);
		if (a->kind == SESS_TRAIN && a->patience > 0)
			putf(&o, "patience", "%d", a->patience);
		break;
	case SESS_SCHED:
		put(&o, NULL, a->spec);
		if (a->x > 0)
			putf(&o, "warmup", "%.17g", a->x);
		break;
	case SESS_ALG1_RUN:
		if (a->steps > 0)
			putf(&o, "steps", "%d", a->steps);
		break;
	case SESS_SWEEP:
		put(&o, "betas", a->spec);
		putf(&o, "q", "%d", a->q);
		break;
	case SESS_SQUEEZE:
		putf(&o, "layer", "%d", a->layer);
		put(&o, NULL, a->apply ? "apply" : "refuse");
		putf(&o, "comp", "%d", a->comp);
		break;
	default:
		break;
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
		               session_kind_name(a->kind), len ? len - 1 : 0);
	return 0;
}

/* ---- parsing ---- */

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

/* A value of the table's limit id, or 0 for "not set" (zero_ok). */
static int lim(LimitId id, const char *key, const char *v, int zero_ok, double *x, Err *e)
{
	if (zero_ok && !strcmp(v, "0")) {
		*x = 0;
		return 0;
	}
	return limit_parse(id, key, v, x, e);
}

static int lim_int(LimitId id, const char *key, const char *v, int zero_ok, int *x, Err *e)
{
	if (zero_ok && !strcmp(v, "0")) {
		*x = 0;
		return 0;
	}
	return limit_parse_int(id, key, v, x, e);
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

/* Which fields each kind requires (bit per field name below). */
enum {
	F_SPEC = 1,
	F_FEAT = 2,
	F_LABEL = 4,
	F_SEED = 8,
	F_LIMIT = 16,
	F_VALF = 32,
	F_VALP = 64,
	F_BATCH = 128,
	F_LR = 256,
	F_LAYERS = 512,
	F_ACT = 1024,
	F_ACTA = 2048,
	F_PATH = 4096,
	F_BETAS = 8192,
	F_Q = 16384,
	F_LAYER = 32768,
	F_VALUE = 65536,
	F_DECIDE = 131072,
	F_SCHED = 262144
};

static const int required[SESS_KIND_COUNT] = {
    [SESS_DATA] = F_SPEC | F_FEAT | F_LABEL | F_SEED | F_LIMIT | F_VALF | F_VALP,
    [SESS_OPTS] = F_BATCH | F_LR,
    [SESS_NET] = F_LAYERS | F_ACT | F_ACTA | F_SEED,
    [SESS_LOAD] = F_PATH,
    [SESS_SAVE] = F_PATH,
    [SESS_TAU] = F_VALUE,
    [SESS_ETA] = F_VALUE,
    [SESS_TRAIN] = F_VALUE,
    [SESS_SWEEP] = F_BETAS | F_Q,
    [SESS_SQUEEZE] = F_LAYER | F_DECIDE,
    [SESS_SCHED] = F_SCHED,
};

static int field(SessAction *a, const char *key, const char *v, int *have, Err *e)
{
	double x;
	int k = a->kind;
#define IS(name, kinds) (!strcmp(key, name) && (kinds))
	if (IS("spec", k == SESS_DATA) || IS("layers", k == SESS_NET) ||
	    IS("betas", k == SESS_SWEEP)) {
		if (strlen(v) >= sizeof a->spec)
			return err_set(e, "%s: longer than %zu characters", key,
			               sizeof a->spec - 1);
		strcpy(a->spec, v);
		*have |= k == SESS_DATA ? F_SPEC : k == SESS_NET ? F_LAYERS : F_BETAS;
	} else if (IS("dir", k == SESS_DATA) || IS("path", k == SESS_LOAD || k == SESS_SAVE)) {
		if (strlen(v) >= sizeof a->path)
			return err_set(e, "%s: longer than %zu characters", key,
			               sizeof a->path - 1);
		strcpy(a->path, v);
		*have |= !strcmp(key, "path") ? F_PATH : 0;
	} else if (IS("features", k == SESS_DATA)) {
		/* the ranges of the table of limits; 0: not set (the default) */
		*have |= F_FEAT;
		return lim_int(LIM_FEATURES, key, v, 1, &a->features, e);
	} else if (IS("label_col", k == SESS_DATA)) {
		*have |= F_LABEL;
		return inum(key, v, -1, 1000000, &a->label_col, e);
	} else if (IS("limit", k == SESS_DATA)) {
		*have |= F_LIMIT;
		return lim_int(LIM_ROWS, key, v, 1, &a->limit, e);
	} else if (IS("scale", k == SESS_DATA)) {
		return inum(key, v, 0, 2, &a->scale, e);
	} else if (IS("points", k == SESS_DATA)) {
		return lim_int(LIM_POINTS, key, v, 0, &a->points, e);
	} else if (IS("noise", k == SESS_DATA)) {
		a->has_noise = 1;
		return lim(LIM_NOISE, key, v, 0, &a->noise, e);
	} else if (IS("inputs", k == SESS_DATA)) {
		if ((a->inputs = mnist_inputs_parse(v)) < 0)
			return err_set(e,
			               "inputs: unknown inputs '%s' (expected qr, variance, "
			               "coarse, all or pixels)",
			               v);
		return 0;
	} else if (IS("shape", k == SESS_DATA)) {
		return datasets_parse_shape("shape", v, a->shape, e);
	} else if (IS("val_per_class", k == SESS_DATA)) {
		*have |= F_VALP;
		return lim_int(LIM_VAL_PER_CLASS, key, v, 1, &a->val_per_class, e);
	} else if (IS("seed", k == SESS_DATA || k == SESS_NET || k == SESS_LOAD)) {
		*have |= F_SEED;
		a->has_seed = k == SESS_LOAD;
		return u64num(key, v, &a->seed, e);
	} else if (IS("val_frac", k == SESS_DATA) || IS("lr", k == SESS_OPTS) ||
	           IS("act_a", k == SESS_NET)) {
		LimitId id = k == SESS_DATA   ? LIM_VAL_FRAC
		             : k == SESS_OPTS ? LIM_LR
		                              : LIM_ACT_SCALE;
		if (lim(id, key, v, k == SESS_DATA, &x, e) < 0)
			return -1;
		a->x = x;
		*have |= k == SESS_DATA ? F_VALF : k == SESS_OPTS ? F_LR : F_ACTA;
	} else if (IS("batch", k == SESS_OPTS)) {
		*have |= F_BATCH;
		return lim_int(LIM_BATCH, key, v, 0, &a->batch, e);
	} else if (IS("threads", k == SESS_OPTS)) {
		return lim_int(LIM_THREADS, key, v, 1, &a->threads, e);
	} else if (IS("act", k == SESS_NET)) {
		ActKind act;
		if (act_parse(v, &act, e))
			return err_prefix(e, "act");
		a->act = (int)act;
		*have |= F_ACT;
	} else if (IS("crc", k == SESS_LOAD)) {
		char *end;
		unsigned long c = strtoul(v, &end, 16);
		if (!*v || *end || c > 0xffffffffUL)
			return err_set(e, "crc: expected 8 hexadecimal digits, got '%s'", v);
		a->crc = (uint32_t)c;
		a->has_crc = 1;
	} else if (IS("steps", k == SESS_ALG1_RUN)) {
		return inum(key, v, 0, 1 << 20, &a->steps, e);
	} else if (IS("q", k == SESS_SWEEP)) {
		*have |= F_Q;
		return lim_int(LIM_Q, key, v, 0, &a->q, e);
	} else if (IS("layer", k == SESS_SQUEEZE)) {
		*have |= F_LAYER;
		return inum(key, v, 1, 1 << 20, &a->layer, e);
	} else if (IS("comp", k == SESS_SQUEEZE)) {
		return inum(key, v, 0, 1, &a->comp, e);
	} else if (IS("patience", k == SESS_TRAIN)) {
		return lim_int(LIM_EARLY_STOP, key, v, 0, &a->patience, e);
	} else if (IS("warmup", k == SESS_SCHED)) {
		if (lim(LIM_WARMUP, key, v, 1, &x, e) < 0)
			return -1;
		a->x = x;
	} else {
		return err_set(e, "%s: unknown field '%s'", session_kind_name(a->kind), key);
	}
#undef IS
	return 0;
}

/* A bare word: the value of tau/eta/train, or apply/refuse of squeeze. */
static int bare(SessAction *a, const char *v, int *have, Err *e)
{
	const char *name = session_kind_name(a->kind);
	if (a->kind == SESS_TAU || a->kind == SESS_ETA || a->kind == SESS_TRAIN) {
		if (*have & F_VALUE)
			return err_set(e, "%s: more than one value", name);
		/* the command line's ranges (--tau, --eta, --epochs), from the one table */
		LimitId id = a->kind == SESS_TAU   ? LIM_TAU
		             : a->kind == SESS_ETA ? LIM_ETA
		                                   : LIM_EPOCHS;
		if (limit_parse(id, name, v, &a->x, e) < 0)
			return -1;
		*have |= F_VALUE;
	} else if (a->kind == SESS_SQUEEZE && (!strcmp(v, "apply") || !strcmp(v, "refuse"))) {
		a->apply = v[0] == 'a';
		*have |= F_DECIDE;
	} else if (a->kind == SESS_SCHED) {
		LrSchedule sc;
		sched_default(&sc);
		if (*have & F_SCHED)
			return err_set(e, "sched: more than one schedule");
		if (sched_parse(v, &sc, e) < 0)
			return err_prefix(e, "sched");
		if (strlen(v) >= sizeof a->spec)
			return err_set(e, "sched: longer than %zu characters", sizeof a->spec - 1);
		strcpy(a->spec, v);
		*have |= F_SCHED;
	} else {
		return err_set(e, "%s: unexpected word '%s' (expected key=value)", name, v);
	}
	return 0;
}

/* Widths and β lists are checked as --layers and --beta check them. */
static int check_spec(const SessAction *a, Err *e)
{
	if (a->kind == SESS_NET) {
		LayerSpec *w = NULL;
		int n = 0;
		if (layers_parse(a->spec, &w, &n, e) < 0)
			return err_prefix(e, "net");
		free(w);
	} else if (a->kind == SESS_SWEEP) {
		Alg2Opts o;
		if (alg2_parse_betas(a->spec, &o, e) < 0)
			return err_prefix(e, "sweep");
	}
	return 0;
}

int session_parse(const char *line, SessAction *a, Err *e)
{
	char buf[SESS_LINE_MAX + 2], val[1024];
	const char *sep = " \t\r\n";
	memset(a, 0, sizeof *a);
	a->label_col = -1;
	size_t len = strcspn(line, "\r\n");
	if (len > SESS_LINE_MAX || strlen(line) >= sizeof buf)
		return err_set(e, "line longer than %d characters", SESS_LINE_MAX);
	strcpy(buf, line);
	char *save, *tok = strtok_r(buf, sep, &save);
	if (!tok || tok[0] == '#')
		return 0;
	int k;
	for (k = 0; k < SESS_KIND_COUNT && strcmp(tok, kind_names[k]); k++)
		;
	if (k == SESS_KIND_COUNT)
		return err_set(e,
		               "unknown action '%s' (expected data, opts, net, load, tau, eta, "
		               "sched, train, alg1-step, alg1-run, sweep, squeeze, undo or save)",
		               tok);
	a->kind = (SessKind)k;
	int have = 0;
	while ((tok = strtok_r(NULL, sep, &save))) {
		char *eq = strchr(tok, '=');
		if (eq)
			*eq = '\0';
		if (unescape(eq ? eq + 1 : tok, val, sizeof val, e) < 0)
			return err_prefix(e, "%s", session_kind_name(a->kind));
		if ((eq ? field(a, tok, val, &have, e) : bare(a, val, &have, e)) < 0)
			return -1;
	}
	int miss = required[k] & ~have;
	if (miss) {
		static const char *const names[] = {"spec",          "features", "label_col",
		                                    "seed",          "limit",    "val_frac",
		                                    "val_per_class", "batch",    "lr",
		                                    "layers",        "act",      "act_a",
		                                    "path",          "betas",    "q",
		                                    "layer",         "a value",  "apply or refuse",
		                                    "a schedule"};
		int bit = 0;
		while (!(miss & (1 << bit)))
			bit++;
		return err_set(e, "%s: missing %s", session_kind_name(a->kind), names[bit]);
	}
	return check_spec(a, e) < 0 ? -1 : 1;
}

/* A number of the table, or 0 for "not set" when zero_ok. */
static int chk(LimitId id, double v, int zero_ok, const char *key, Err *e)
{
	return zero_ok && v == 0 ? 0 : limit_check(id, v, key, NULL, e);
}

int session_check(const SessAction *a, Err *e)
{
	const char *name = session_kind_name(a->kind);
	int bad = 0;
	switch (a->kind) {
	case SESS_DATA:
		bad = chk(LIM_FEATURES, a->features, 1, "features", e) ||
		      chk(LIM_ROWS, a->limit, 1, "limit", e) ||
		      chk(LIM_VAL_FRAC, a->x, 1, "val_frac", e) ||
		      chk(LIM_VAL_PER_CLASS, a->val_per_class, 1, "val_per_class", e) ||
		      chk(LIM_POINTS, a->points, 1, "points", e) ||
		      (a->has_noise && chk(LIM_NOISE, a->noise, 0, "noise", e)) ||
		      (a->label_col < -1 || a->label_col > 1000000
		           ? err_set(e, "label_col: %d is out of range (-1..1000000)", a->label_col)
		           : 0);
		break;
	case SESS_OPTS:
		bad = chk(LIM_BATCH, a->batch, 0, "batch", e) || chk(LIM_LR, a->x, 0, "lr", e) ||
		      chk(LIM_THREADS, a->threads, 1, "threads", e);
		break;
	case SESS_NET:
		bad = chk(LIM_ACT_SCALE, a->x, 0, "act_a", e) || check_spec(a, e);
		break;
	case SESS_TAU:
		bad = chk(LIM_TAU, a->x, 0, name, e);
		break;
	case SESS_ETA:
		bad = chk(LIM_ETA, a->x, 0, name, e);
		break;
	case SESS_TRAIN:
		bad = chk(LIM_EPOCHS, a->x, 0, name, e) ||
		      chk(LIM_EARLY_STOP, a->patience, 1, "patience", e);
		break;
	case SESS_SCHED:
		bad = chk(LIM_WARMUP, a->x, 1, "warmup", e);
		break;
	case SESS_SWEEP:
		bad = chk(LIM_Q, a->q, 0, "q", e) || check_spec(a, e);
		break;
	default:
		break;
	}
	return bad ? -1 : 0;
}
