/* session.c - the session state, its actions, and the session log. */
#include "session.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <zlib.h>

#include "alg3_squeeze.h"
#include "datasets.h"
#include "model_io.h"
#include "rng.h"

#define UNDO_MAX 32

static const char *const kind_names[SESS_KIND_COUNT] = {
    "data",      "opts",     "net",   "load",    "tau",  "eta",  "train",
    "alg1-step", "alg1-run", "sweep", "squeeze", "undo", "save",
};

const char *session_kind_name(SessKind k)
{
	return (unsigned)k < SESS_KIND_COUNT ? kind_names[k] : "?";
}

/* ---- formatting ---- */

/* Appends " key=value" (key may be NULL for a bare value), escaping the value. */
static void put(char *buf, size_t len, const char *key, const char *val)
{
	size_t n = strlen(buf);
	if (n + 1 >= len)
		return;
	n += (size_t)snprintf(buf + n, len - n, key ? " %s=" : " ", key);
	for (const unsigned char *p = (const unsigned char *)val; *p && n + 4 < len; p++) {
		if (*p <= ' ' || *p == '%' || *p == 0x7f)
			n += (size_t)snprintf(buf + n, len - n, "%%%02X", *p);
		else
			buf[n++] = (char)*p;
	}
	buf[n < len ? n : len - 1] = '\0';
}

static void putf(char *buf, size_t len, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void putf(char *buf, size_t len, const char *key, const char *fmt, ...)
{
	char v[64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v, sizeof v, fmt, ap);
	va_end(ap);
	put(buf, len, key, v);
}

const char *session_format(const SessAction *a, char *buf, size_t len)
{
	if (!len)
		return buf;
	snprintf(buf, len, "%s", session_kind_name(a->kind));
	switch (a->kind) {
	case SESS_DATA:
		put(buf, len, "spec", a->spec);
		if (a->path[0])
			put(buf, len, "dir", a->path);
		putf(buf, len, "features", "%d", a->features);
		putf(buf, len, "label_col", "%d", a->label_col);
		putf(buf, len, "seed", "%llu", (unsigned long long)a->seed);
		putf(buf, len, "limit", "%d", a->limit);
		putf(buf, len, "val_frac", "%.17g", a->x);
		putf(buf, len, "val_per_class", "%d", a->val_per_class);
		break;
	case SESS_OPTS:
		putf(buf, len, "batch", "%d", a->batch);
		putf(buf, len, "lr", "%.17g", a->x);
		if (a->threads)
			putf(buf, len, "threads", "%d", a->threads);
		break;
	case SESS_NET:
		put(buf, len, "layers", a->spec);
		put(buf, len, "act", act_name((ActKind)a->act));
		putf(buf, len, "act_a", "%.9g", a->x);
		putf(buf, len, "seed", "%llu", (unsigned long long)a->seed);
		break;
	case SESS_LOAD:
		put(buf, len, "path", a->path);
		if (a->has_crc)
			putf(buf, len, "crc", "%08x", (unsigned)a->crc);
		break;
	case SESS_SAVE:
		put(buf, len, "path", a->path);
		break;
	case SESS_TAU:
	case SESS_ETA:
	case SESS_TRAIN:
		putf(buf, len, NULL, "%.17g", a->x);
		break;
	case SESS_ALG1_RUN:
		if (a->steps > 0)
			putf(buf, len, "steps", "%d", a->steps);
		break;
	case SESS_SWEEP:
		put(buf, len, "betas", a->spec);
		putf(buf, len, "q", "%d", a->q);
		break;
	case SESS_SQUEEZE:
		putf(buf, len, "layer", "%d", a->layer);
		put(buf, len, NULL, a->apply ? "apply" : "refuse");
		putf(buf, len, "comp", "%d", a->comp);
		break;
	default:
		break;
	}
	return buf;
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

static int num(const char *key, const char *v, double *x, Err *e)
{
	char *end;
	errno = 0;
	*x = strtod(v, &end);
	if (!*v || *end || errno || !isfinite(*x))
		return err_set(e, "%s: expected a number, got '%s'", key, v);
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
	F_DECIDE = 131072
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
		*have |= F_FEAT;
		return inum(key, v, 0, 1 << 20, &a->features, e);
	} else if (IS("label_col", k == SESS_DATA)) {
		*have |= F_LABEL;
		return inum(key, v, -1, 1 << 20, &a->label_col, e);
	} else if (IS("limit", k == SESS_DATA)) {
		*have |= F_LIMIT;
		return inum(key, v, 0, 1 << 30, &a->limit, e);
	} else if (IS("val_per_class", k == SESS_DATA)) {
		*have |= F_VALP;
		return inum(key, v, 0, 1 << 30, &a->val_per_class, e);
	} else if (IS("seed", k == SESS_DATA || k == SESS_NET)) {
		*have |= F_SEED;
		return u64num(key, v, &a->seed, e);
	} else if (IS("val_frac", k == SESS_DATA) || IS("lr", k == SESS_OPTS) ||
	           IS("act_a", k == SESS_NET)) {
		if (num(key, v, &x, e) < 0)
			return -1;
		if (x < 0 || (x == 0 && k != SESS_DATA) || (k == SESS_DATA && x >= 1))
			return err_set(e, "%s: out of range: %s", key, v);
		a->x = x;
		*have |= k == SESS_DATA ? F_VALF : k == SESS_OPTS ? F_LR : F_ACTA;
	} else if (IS("batch", k == SESS_OPTS)) {
		*have |= F_BATCH;
		return inum(key, v, 1, 1 << 24, &a->batch, e);
	} else if (IS("threads", k == SESS_OPTS)) {
		return inum(key, v, 0, 1024, &a->threads, e);
	} else if (IS("act", k == SESS_NET)) {
		if ((a->act = act_parse(v)) < 0)
			return err_set(
			    e, "act: unknown activation '%s' (expected erf, tanh, relu, sigmoid)",
			    v);
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
		return inum(key, v, 1, 1000, &a->q, e);
	} else if (IS("layer", k == SESS_SQUEEZE)) {
		*have |= F_LAYER;
		return inum(key, v, 1, 1 << 20, &a->layer, e);
	} else if (IS("comp", k == SESS_SQUEEZE)) {
		return inum(key, v, 0, 1, &a->comp, e);
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
		if (num(name, v, &a->x, e) < 0)
			return -1;
		if (a->x <= 0 || (a->kind == SESS_TAU && a->x < 1))
			return err_set(e, "%s: expected a value %s, got '%s'", name,
			               a->kind == SESS_TAU ? ">= 1" : "> 0", v);
		*have |= F_VALUE;
	} else if (a->kind == SESS_SQUEEZE && (!strcmp(v, "apply") || !strcmp(v, "refuse"))) {
		a->apply = v[0] == 'a';
		*have |= F_DECIDE;
	} else {
		return err_set(e, "%s: unexpected word '%s' (expected key=value)", name, v);
	}
	return 0;
}

int session_parse(const char *line, SessAction *a, Err *e)
{
	char buf[2048], val[1024];
	const char *sep = " \t\r\n";
	memset(a, 0, sizeof *a);
	a->label_col = -1;
	if (strlen(line) >= sizeof buf)
		return err_set(e, "line longer than %zu characters", sizeof buf - 1);
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
		               "train, alg1-step, alg1-run, sweep, squeeze, undo or save)",
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
		static const char *const names[] = {
		    "spec",     "features",      "label_col",      "seed",  "limit",
		    "val_frac", "val_per_class", "batch",          "lr",    "layers",
		    "act",      "act_a",         "path",           "betas", "q",
		    "layer",    "a value",       "apply or refuse"};
		int bit = 0;
		while (!(miss & (1 << bit)))
			bit++;
		return err_set(e, "%s: missing %s", session_kind_name(a->kind), names[bit]);
	}
	return 1;
}

/* ---- snapshots ---- */

void session_records_free(Alg1Record *r, int n)
{
	for (int i = 0; r && i < n; i++) {
		free(r[i].n);
		free(r[i].kappa);
		free(r[i].p);
	}
	free(r);
}

Alg1Record *session_records_copy(const Alg1Record *r, int n)
{
	Alg1Record *c = n > 0 ? calloc((size_t)n, sizeof *c) : NULL;
	if (!c)
		return NULL;
	for (int i = 0; i < n; i++) {
		c[i] = r[i];
		c[i].n = malloc((size_t)(r[i].m + 1) * sizeof *c[i].n);
		c[i].kappa = malloc((size_t)r[i].m * sizeof *c[i].kappa);
		c[i].p = malloc((size_t)r[i].m * sizeof *c[i].p);
		if (!c[i].n || !c[i].kappa || !c[i].p) {
			session_records_free(c, i + 1);
			return NULL;
		}
		memcpy(c[i].n, r[i].n, (size_t)(r[i].m + 1) * sizeof *c[i].n);
		memcpy(c[i].kappa, r[i].kappa, (size_t)r[i].m * sizeof *c[i].kappa);
		memcpy(c[i].p, r[i].p, (size_t)r[i].m * sizeof *c[i].p);
	}
	return c;
}

/* A deep copy of an Algorithm-1 state (same ownership as alg1_new gives). */
static Alg1 *alg1_copy(const Alg1 *a)
{
	Alg1 *c = malloc(sizeof *c);
	if (!c)
		return NULL;
	*c = *a;
	c->net = NULL;
	c->rec = NULL;
	c->nrec = 0;
	if (a->net && !(c->net = net_clone(a->net)))
		goto fail;
	if (a->nrec && !(c->rec = session_records_copy(a->rec, a->nrec)))
		goto fail;
	c->nrec = a->nrec;
	return c;
fail:
	alg1_free(c);
	return NULL;
}

static void snap_free(SessSnapshot *sn)
{
	net_free(sn->net);
	alg1_free(sn->alg1);
	memset(sn, 0, sizeof *sn);
}

static int snap_take(const Session *s, SessSnapshot *sn, Err *e)
{
	memset(sn, 0, sizeof *sn);
	sn->alg1_live = s->alg1_live;
	sn->ntrain = s->ntrain;
	if ((s->net && !(sn->net = net_clone(s->net))) ||
	    (s->alg1 && !(sn->alg1 = alg1_copy(s->alg1)))) {
		snap_free(sn);
		return err_set(e, "out of memory copying the network");
	}
	return 0;
}

/* Puts a snapshot back; the session takes its contents. */
static void snap_restore(Session *s, SessSnapshot *sn)
{
	net_free(s->net);
	alg1_free(s->alg1);
	s->net = sn->net;
	s->alg1 = sn->alg1;
	s->alg1_live = sn->alg1_live;
	s->ntrain = sn->ntrain;
	memset(sn, 0, sizeof *sn);
}

static int undo_push(Session *s, SessSnapshot *sn, Err *e)
{
	if (s->nundo == UNDO_MAX) {
		snap_free(&s->undo[0]);
		memmove(s->undo, s->undo + 1, (size_t)(UNDO_MAX - 1) * sizeof *s->undo);
		s->nundo--;
	}
	if (s->nundo == s->capundo) {
		int cap = s->capundo ? 2 * s->capundo : 8;
		SessSnapshot *u = realloc(s->undo, (size_t)cap * sizeof *u);
		if (!u)
			return err_set(e, "out of memory for the undo stack");
		s->undo = u;
		s->capundo = cap;
	}
	s->undo[s->nundo++] = *sn;
	memset(sn, 0, sizeof *sn);
	return 0;
}

static void undo_clear(Session *s)
{
	for (int i = 0; i < s->nundo; i++)
		snap_free(&s->undo[i]);
	s->nundo = 0;
}

/* ---- the session ---- */

Session *session_new(void)
{
	Session *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->tau = 25;
	s->eta = 1;
	train_opts_default(&s->topt);
	dataspec_default(&s->dspec);
	return s;
}

void session_free(Session *s)
{
	if (!s)
		return;
	undo_clear(s);
	free(s->undo);
	net_free(s->net);
	alg1_free(s->alg1);
	alg2_free(s->sweep);
	dataset_free(s->train);
	dataset_free(s->test);
	dataset_free(s->sweep_tr);
	dataset_free(s->sweep_v);
	if (s->log)
		fclose(s->log);
	free(s);
}

uint32_t session_param_crc(const Net *net)
{
	uLong c = crc32(0L, Z_NULL, 0);
	const Bytef *p = (const Bytef *)net->param;
	size_t left = net->nparam * sizeof *net->param;
	while (left) {
		uInt chunk = left > (1u << 30) ? (1u << 30) : (uInt)left;
		c = crc32(c, p, chunk);
		p += chunk;
		left -= chunk;
	}
	return (uint32_t)c;
}

double session_test_acc(const Session *s)
{
	if (!s->net || !s->test)
		return NAN;
	return 100.0 * (1.0 - net_error(s->net, s->test, NULL));
}

int session_can_undo(const Session *s)
{
	return s->nundo;
}

static void log_line(Session *s, const SessAction *a)
{
	char line[2048];
	if (!s->log)
		return;
	fprintf(s->log, "%s\n", session_format(a, line, sizeof line));
	fflush(s->log);
}

static int do_data(Session *s, const SessAction *a, Err *e)
{
	DataSpec d;
	Dataset *tr = NULL, *te = NULL;
	dataspec_default(&d);
	d.spec = a->spec;
	d.dir = a->path[0] ? a->path : NULL;
	d.features = a->features;
	d.label_col = a->label_col;
	d.seed = a->seed;
	d.limit = a->limit;
	if (datasets_load(&d, &tr, &te, e) < 0)
		return -1;
	dataset_free(s->train);
	dataset_free(s->test);
	dataset_free(s->sweep_tr);
	dataset_free(s->sweep_v);
	s->sweep_tr = s->sweep_v = NULL;
	s->train = tr;
	s->test = te;
	snprintf(s->data_spec, sizeof s->data_spec, "%s", a->spec);
	snprintf(s->data_dir, sizeof s->data_dir, "%s", a->path);
	s->dspec = d;
	s->dspec.spec = s->data_spec;
	s->dspec.dir = s->data_dir[0] ? s->data_dir : NULL;
	s->val_frac = a->x;
	s->val_per_class = a->val_per_class;
	undo_clear(s);
	net_free(s->net);
	alg1_free(s->alg1);
	alg2_free(s->sweep);
	s->net = NULL;
	s->alg1 = NULL;
	s->sweep = NULL;
	s->alg1_live = 0;
	s->dirty = 0;
	return 0;
}

/* Replaces the network by a new one (fresh or loaded): undoable. */
static int set_net(Session *s, Net *net, Err *e)
{
	SessSnapshot sn;
	if (net->n[0] != s->train->d || net->n[net->m] != s->train->k) {
		int d = net->n[0], k = net->n[net->m];
		net_free(net);
		return err_set(e,
		               "the network has %d inputs and %d outputs, the data set %d features "
		               "and %d classes",
		               d, k, s->train->d, s->train->k);
	}
	if (s->net) {
		if (snap_take(s, &sn, e) < 0 || undo_push(s, &sn, e) < 0) {
			net_free(net);
			return -1;
		}
	}
	net_free(s->net);
	s->net = net;
	s->alg1_live = 0;
	s->dirty = 0;
	return 0;
}

static int do_net(Session *s, const SessAction *a, Err *e)
{
	int *hidden = NULL, nh = 0;
	if (net_parse_layers(a->spec, &hidden, &nh, e) < 0)
		return err_prefix(e, "layers");
	int *w = malloc((size_t)(nh + 2) * sizeof *w);
	if (!w) {
		free(hidden);
		return err_set(e, "out of memory");
	}
	w[0] = s->train->d;
	memcpy(w + 1, hidden, (size_t)nh * sizeof *w);
	w[nh + 1] = s->train->k;
	free(hidden);
	Net *net = net_new(nh + 1, w, (ActKind)a->act, (float)a->x);
	free(w);
	if (!net)
		return err_set(e, "out of memory for the network %s", a->spec);
	Rng r;
	rng_seed(&r, a->seed);
	net_init_glorot(net, &r);
	s->seed = a->seed;
	return set_net(s, net, e);
}

static int do_load(Session *s, SessAction *a, Err *e)
{
	Net *net = model_load(a->path, e);
	if (!net)
		return -1;
	uint32_t crc = session_param_crc(net);
	if (a->has_crc && crc != a->crc) {
		net_free(net);
		return err_set(e,
		               "%s: the parameters' CRC-32 is %08x, the session loaded %08x "
		               "(the file has changed)",
		               a->path, (unsigned)crc, (unsigned)a->crc);
	}
	a->has_crc = 1;
	a->crc = crc;
	return set_net(s, net, e);
}

static int cancelled(const SessHooks *h)
{
	return h->cancelled && h->cancelled(h->ud);
}

static int do_train(Session *s, const SessAction *a, const SessHooks *h, Err *e)
{
	Net *backup = net_clone(s->net);
	if (!backup)
		return err_set(e, "out of memory copying the network");
	TrainOpts o = s->topt;
	o.seed = rng_derive(s->seed, 0x7000 + (uint64_t)s->ntrain);
	s->training = s->net;
	int rc = train_epochs(s->net, s->train, &o, a->x, h->train_cb, h->ud, e);
	s->training = NULL;
	if (rc != 0 || cancelled(h)) {
		net_free(s->net);
		s->net = backup;
		return rc < 0 ? -1 : 1;
	}
	net_free(backup);
	s->ntrain++;
	s->alg1_live = 0;
	s->dirty = 1;
	return 0;
}

/* Runs Algorithm-1 iterations (at most max, 0 = until it stops); *done gets
 * how many finished. One undo entry for all of them. */
static int do_alg1(Session *s, int max, const SessHooks *h, int *done, Err *e)
{
	SessSnapshot before;
	*done = 0;
	if (snap_take(s, &before, e) < 0)
		return -1;
	if (!s->alg1 || !s->alg1_live) {
		Alg1Opts o;
		alg1_opts_default(&o);
		o.tau = s->tau;
		o.eta = s->eta;
		o.seed = s->seed;
		o.train = s->topt;
		Alg1 *a = alg1_new(s->net, s->train, &o, e);
		if (!a) {
			snap_free(&before);
			return -1;
		}
		alg1_free(s->alg1);
		s->alg1 = a;
		s->alg1_live = 1;
	}
	Alg1 *a = s->alg1;
	a->cb = h->train_cb;
	a->cb_ud = h->ud;
	int rc = 0;
	while (!max || *done < max) {
		if (a->nrec > 0 && a->status != ALG1_RUNNING)
			break;
		Alg1 *back = alg1_copy(a);
		if (!back) {
			rc = err_set(e, "out of memory copying Algorithm 1's state");
			break;
		}
		int st = alg1_step(a, e);
		if (st < 0 || st == ALG1_STOPPED || cancelled(h)) {
			alg1_free(a);
			s->alg1 = a = back;
			rc = st < 0 ? -1 : 1;
			break;
		}
		alg1_free(back);
		Net *n = net_clone(a->net);
		if (!n) {
			rc = err_set(e, "out of memory copying the network");
			break;
		}
		net_free(s->net);
		s->net = n;
		s->dirty = 1;
		(*done)++;
		if (h->on_alg1)
			h->on_alg1(a, h->ud);
	}
	a->cb = NULL;
	a->cb_ud = NULL;
	if (*done == 0) {
		snap_restore(s, &before);
		return rc ? rc : 0;
	}
	if (undo_push(s, &before, rc < 0 ? NULL : e) < 0)
		snap_free(&before);
	return rc;
}

static int do_sweep(Session *s, const SessAction *a, const SessHooks *h, Err *e)
{
	Alg2Opts o;
	alg2_opts_default(&o);
	if (alg2_parse_betas(a->spec, &o, e) < 0)
		return err_prefix(e, "betas");
	o.q = a->q;
	o.eta = s->eta;
	o.seed = s->seed;
	o.train = s->topt;
	if (!s->sweep_tr && dataset_split(s->train, s->val_frac, s->val_per_class, s->seed,
	                                  &s->sweep_tr, &s->sweep_v, e) < 0)
		return err_prefix(e, "validation split");
	Alg2 *sw = alg2_new(s->net, s->sweep_tr, s->sweep_v, &o, e);
	if (!sw)
		return -1;
	sw->cb = h->train_cb;
	sw->cb_ud = h->ud;
	sw->on_trial = h->on_trial;
	sw->on_trial_ud = h->ud;
	alg2_free(s->sweep);
	s->sweep = sw;
	s->sweep_done = 0;
	int rc;
	while ((rc = alg2_step(sw, e)) == 0 && !cancelled(h))
		;
	sw->cb = NULL;
	sw->on_trial = NULL;
	if (cancelled(h))
		return 1;
	if (rc < 0)
		return -1;
	s->sweep_done = 1;
	return 0;
}

static int do_squeeze(Session *s, const SessAction *a, Err *e)
{
	if (a->layer < 1 || a->layer >= s->net->m)
		return err_set(e, "squeeze: layer %d is not a hidden layer (1..%d)", a->layer,
		               s->net->m - 1);
	if (!a->apply)
		return 0;
	SqueezeOpts o;
	SqueezeProposal sp;
	SessSnapshot sn;
	squeeze_opts_default(&o);
	o.tau = s->tau;
	o.compensate = a->comp;
	if (squeeze_propose(s->net, a->layer, &o, &sp, e) < 0)
		return -1;
	int rc = 0;
	if (sp.nkeep < sp.n_before) {
		if (snap_take(s, &sn, e) < 0) {
			rc = -1;
		} else if (squeeze_apply(s->net, &sp, a->comp, s->train, e) < 0) {
			snap_restore(s, &sn);
			rc = -1;
		} else {
			if (undo_push(s, &sn, e) < 0)
				snap_free(&sn);
			s->alg1_live = 0;
			s->dirty = 1;
		}
	}
	squeeze_proposal_free(&sp);
	return rc;
}

int session_apply(Session *s, const SessAction *act, const SessHooks *h, Err *e)
{
	static const SessHooks none;
	SessAction a = *act;
	const char *name = session_kind_name(a.kind);
	int rc = 0, done = 0;
	if (!h)
		h = &none;
	if (a.kind != SESS_DATA && !s->train)
		return err_set(e, "%s: no data set yet (the first action must be 'data')", name);
	if (a.kind > SESS_NET && a.kind != SESS_LOAD && a.kind != SESS_TAU && a.kind != SESS_ETA &&
	    !s->net)
		return err_set(e, "%s: no network yet (expected 'net' or 'load' before it)", name);
	switch (a.kind) {
	case SESS_DATA:
		rc = do_data(s, &a, e);
		break;
	case SESS_OPTS:
		if (a.batch < 1 || !(a.x > 0))
			return err_set(e, "opts: batch must be >= 1 and lr > 0");
		s->topt.batch = a.batch;
		s->topt.adam.lr = a.x;
		s->topt.threads = a.threads;
		break;
	case SESS_NET:
		rc = do_net(s, &a, e);
		break;
	case SESS_LOAD:
		rc = do_load(s, &a, e);
		break;
	case SESS_TAU:
		if (!(a.x >= 1))
			return err_set(e, "tau: expected a value >= 1");
		s->tau = a.x;
		if (s->alg1) {
			s->alg1->o.tau = a.x;
			if (s->alg1->status != ALG1_RUNNING)
				s->alg1_live = 0;
		}
		break;
	case SESS_ETA:
		if (!(a.x > 0))
			return err_set(e, "eta: expected a value > 0");
		s->eta = a.x;
		if (s->alg1)
			s->alg1->o.eta = a.x;
		break;
	case SESS_TRAIN:
		rc = do_train(s, &a, h, e);
		break;
	case SESS_ALG1_STEP:
		rc = do_alg1(s, 1, h, &done, e);
		break;
	case SESS_ALG1_RUN:
		rc = do_alg1(s, a.steps, h, &done, e);
		if (rc != 0 && done > 0) {
			a.steps = done;
			log_line(s, &a);
		}
		break;
	case SESS_SWEEP:
		rc = do_sweep(s, &a, h, e);
		break;
	case SESS_SQUEEZE:
		rc = do_squeeze(s, &a, e);
		break;
	case SESS_UNDO:
		if (!s->nundo)
			return err_set(e, "undo: nothing to undo");
		snap_restore(s, &s->undo[--s->nundo]);
		s->dirty = 1;
		break;
	case SESS_SAVE:
		if (!s->replay && model_save(s->net, a.path, e) < 0)
			return -1;
		s->dirty = 0;
		break;
	default:
		return err_set(e, "unknown action kind %d", (int)a.kind);
	}
	if (rc == 0)
		log_line(s, &a);
	return rc;
}

/* ---- the log file ---- */

static int mkdirs(char *path, Err *e)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int r = mkdir(path, 0700);
		int err = errno;
		*p = '/';
		if (r < 0 && err != EEXIST)
			return err_set(e, "%.*s: cannot create the directory: %s", (int)(p - path),
			               path, strerror(err));
	}
	return 0;
}

int session_log_open(Session *s, const char *path, Err *e)
{
	char dir[1024];
	snprintf(dir, sizeof dir, "%s", path);
	if (mkdirs(dir, e) < 0)
		return -1;
	FILE *f = fopen(path, "a");
	if (!f)
		return err_set(e, "%s: cannot open the session log: %s", path, strerror(errno));
	if (ftell(f) == 0)
		fprintf(f, "# condnet session log, version 1\n");
	fflush(f);
	if (s->log)
		fclose(s->log);
	s->log = f;
	snprintf(s->log_path, sizeof s->log_path, "%s", path);
	return 0;
}

int session_default_log_path(char *buf, size_t len, Err *e)
{
	const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	char stamp[32];
	time_t t = time(NULL);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	int n;
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/condnet/session-%s.log", xdg, stamp);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.local/state/condnet/session-%s.log", home, stamp);
	else
		return err_set(
		    e, "no place for the session log: neither XDG_STATE_HOME nor HOME is set");
	if (n < 0 || (size_t)n >= len)
		return err_set(e, "the session log path is too long");
	char dir[1024];
	snprintf(dir, sizeof dir, "%s", buf);
	return mkdirs(dir, e);
}

int session_replay(Session *s, const char *path, const SessHooks *h, Err *e)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	SessAction a;
	int lineno = 0;
	if (!f)
		return err_set(e, "%s: cannot open: %s", path, strerror(errno));
	while (fgets(line, sizeof line, f)) {
		lineno++;
		size_t n = strlen(line);
		if (n == sizeof line - 1 && line[n - 1] != '\n') {
			fclose(f);
			return err_set(e, "%s:%d: line longer than %zu characters", path, lineno,
			               sizeof line - 2);
		}
		int r = session_parse(line, &a, e);
		if (r == 0)
			continue;
		if (r < 0 || session_apply(s, &a, h, e) != 0) {
			fclose(f);
			if (r > 0 && e && !e->msg[0])
				err_set(e, "cancelled");
			return err_prefix(e, "%s:%d", path, lineno);
		}
	}
	int bad = ferror(f);
	fclose(f);
	if (bad)
		return err_set(e, "%s: read error after line %d", path, lineno);
	return 0;
}
