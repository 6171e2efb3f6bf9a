/* net.c - the network's parameter layout, initialisation and the structural
 * edits (keep, remove, add neurons) that carry parameters and Adam state. */
#include "engine/net.h"

#include "engine/limits.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest width a layer specification may ask for (the table of limits). */
#define NET_MAX_WIDTH ((int)LIMIT_MAX_WIDTH)
/* Largest number of hidden layers a specification may ask for. */
#define NET_MAX_LAYERS ((int)LIMIT_MAX_LAYERS - 1)

/* Σ n[i]·n[i+1] + n[i+1]; 0 when a width is not positive or the sum overflows. */
size_t net_param_count_for(int m, const int *widths)
{
	size_t total = 0;
	if (m < 1)
		return 0;
	for (int i = 0; i < m; i++) {
		size_t layer;
		if (widths[i] <= 0 || widths[i + 1] <= 0)
			return 0;
		if (__builtin_mul_overflow((size_t)widths[i] + 1, (size_t)widths[i + 1], &layer) ||
		    __builtin_add_overflow(total, layer, &total))
			return 0;
	}
	return total;
}

static void set_pointers(Net *net)
{
	float *p = net->param;
	for (int i = 0; i < net->m; i++) {
		net->W[i] = p;
		p += (size_t)net->n[i] * net->n[i + 1];
		net->b[i] = p;
		p += net->n[i + 1];
	}
}

Net *net_new(int m, const int *widths, ActKind act, float act_a, Err *e)
{
	if (m < 1) {
		err_set(e, "a network of %d layers: expected at least 1", m);
		return NULL;
	}
	/* every network condnet holds is within the table of limits */
	uint64_t np;
	if (limit_check_widths(m, widths, "a network", &np, e) < 0)
		return NULL;
	if ((unsigned)act >= ACT_COUNT) {
		err_set(e, "activation %d: expected 0..%d", (int)act, ACT_COUNT - 1);
		return NULL;
	}
	if (limit_check(LIM_ACT_SCALE, act_a, "a network: the activation scale", NULL, e) < 0)
		return NULL;
	Net *net = calloc(1, sizeof *net);
	if (!net) {
		err_set(e, "out of memory for a network");
		return NULL;
	}
	net->m = m;
	net->act = act;
	net->act_a = act_a;
	net->nparam = np;
	net->n = malloc((size_t)(m + 1) * sizeof *net->n);
	net->W = malloc((size_t)m * sizeof *net->W);
	net->b = malloc((size_t)m * sizeof *net->b);
	net->param = calloc(np, sizeof(float));
	net->adam_m = calloc(np, sizeof(float));
	net->adam_v = calloc(np, sizeof(float));
	if (!net->n || !net->W || !net->b || !net->param || !net->adam_m || !net->adam_v) {
		net_free(net);
		err_set(e, "out of memory for a network of %zu parameters", (size_t)np);
		return NULL;
	}
	memcpy(net->n, widths, (size_t)(m + 1) * sizeof *net->n);
	set_pointers(net);
	return net;
}

void net_free(Net *net)
{
	if (!net)
		return;
	free(net->n);
	free(net->W);
	free(net->b);
	free(net->param);
	free(net->adam_m);
	free(net->adam_v);
	prep_free(net->prep);
	free(net);
}

int net_set_prep(Net *net, const Prep *p, Err *e)
{
	if (p && p->d != net->n[0])
		return err_set(e, "a preprocessing of %d features for a network of %d inputs", p->d,
		               net->n[0]);
	Prep *c = NULL;
	if (p && !(c = prep_clone(p, e)))
		return -1;
	prep_free(net->prep);
	net->prep = c;
	return 0;
}

Net *net_clone(const Net *net, Err *e)
{
	Net *c = net_new(net->m, net->n, net->act, net->act_a, e);
	if (!c)
		return NULL;
	memcpy(c->param, net->param, net->nparam * sizeof(float));
	memcpy(c->adam_m, net->adam_m, net->nparam * sizeof(float));
	memcpy(c->adam_v, net->adam_v, net->nparam * sizeof(float));
	c->adam_t = net->adam_t;
	c->sched = net->sched;
	c->sched_st = net->sched_st;
	c->run = net->run;
	if (net_set_prep(c, net->prep, e)) {
		net_free(c);
		return NULL;
	}
	return c;
}

Net *net_fresh(int m, const int *widths, ActKind act, float act_a, uint64_t seed, Err *e)
{
	Net *net = net_new(m, widths, act, act_a, e);
	if (!net)
		return NULL;
	Rng r;
	rng_seed(&r, seed);
	net_init_glorot(net, &r);
	return net;
}

void net_reset_adam(Net *net)
{
	memset(net->adam_m, 0, net->nparam * sizeof(float));
	memset(net->adam_v, 0, net->nparam * sizeof(float));
	net->adam_t = 0;
	sched_default(&net->sched);
	memset(&net->sched_st, 0, sizeof net->sched_st);
}

/* Glorot & Bengio (2010), as Keras' glorot_uniform: W ~ U(−L, L) with
 * L = √(6/(fan_in + fan_out)), drawn row by row; b = 0. */
void net_init_glorot(Net *net, Rng *rng)
{
	for (int i = 0; i < net->m; i++) {
		size_t len = (size_t)net->n[i] * net->n[i + 1];
		double lim = sqrt(6.0 / (net->n[i] + net->n[i + 1]));
		for (size_t k = 0; k < len; k++)
			net->W[i][k] = (float)((2.0 * rng_uniform(rng) - 1.0) * lim);
		memset(net->b[i], 0, (size_t)net->n[i + 1] * sizeof(float));
	}
	net_reset_adam(net);
}

/* Copies one buffer (parameters or a moment) from the old layout into the
 * new one, where the new neuron j of hidden layer L comes from old neuron
 * src[j], or is zero when src[j] < 0. */
static void remap(const Net *net, int L, const int *src, int nnew, const float *old, float *dst)
{
	const int *n = net->n;
	for (int i = 0; i < net->m; i++) {
		size_t rows = n[i], cols = n[i + 1];
		size_t ocount = (rows + 1) * cols;
		if (i == L - 1) {
			/* Incoming W (rows × cols → rows × nnew), then the bias. */
			for (size_t r = 0; r <= rows; r++)
				for (int j = 0; j < nnew; j++)
					dst[r * nnew + j] =
					    src[j] >= 0 ? old[r * cols + src[j]] : 0.0f;
			dst += (rows + 1) * nnew;
		} else if (i == L) {
			/* Outgoing W (rows × cols → nnew × cols), then the bias as is. */
			for (int j = 0; j < nnew; j++) {
				if (src[j] >= 0)
					memcpy(dst + (size_t)j * cols, old + (size_t)src[j] * cols,
					       cols * sizeof *dst);
				else
					memset(dst + (size_t)j * cols, 0, cols * sizeof *dst);
			}
			memcpy(dst + (size_t)nnew * cols, old + rows * cols, cols * sizeof *dst);
			dst += ((size_t)nnew + 1) * cols;
		} else {
			memcpy(dst, old, ocount * sizeof *dst);
			dst += ocount;
		}
		old += ocount;
	}
}

/* Rebuilds the three buffers for hidden layer L with neuron map src[0..nnew);
 * new incoming weights are drawn from Glorot uniform when rng is given. */
static int rebuild(Net *net, int L, const int *src, int nnew, Rng *rng, Err *e)
{
	int *n2 = malloc((size_t)(net->m + 1) * sizeof *n2);
	if (!n2)
		return err_set(e, "out of memory resizing hidden layer %d", L);
	memcpy(n2, net->n, (size_t)(net->m + 1) * sizeof *n2);
	n2[L] = nnew;
	size_t np = net_param_count_for(net->m, n2);
	float *buf[3] = {NULL, NULL, NULL};
	for (int k = 0; np && k < 3; k++)
		buf[k] = malloc(np * sizeof(float));
	if (!np || !buf[0] || !buf[1] || !buf[2]) {
		free(n2);
		for (int k = 0; k < 3; k++)
			free(buf[k]);
		return err_set(e, "out of memory resizing hidden layer %d to %d neurons", L, nnew);
	}
	remap(net, L, src, nnew, net->param, buf[0]);
	remap(net, L, src, nnew, net->adam_m, buf[1]);
	remap(net, L, src, nnew, net->adam_v, buf[2]);
	if (rng) {
		float *w = buf[0] + (size_t)(net->W[L - 1] - net->param);
		int fan_in = n2[L - 1];
		double lim = sqrt(6.0 / (fan_in + nnew));
		for (int r = 0; r < fan_in; r++)
			for (int j = 0; j < nnew; j++)
				if (src[j] < 0)
					w[(size_t)r * nnew + j] =
					    (float)((2.0 * rng_uniform(rng) - 1.0) * lim);
	}
	free(net->n);
	free(net->param);
	free(net->adam_m);
	free(net->adam_v);
	net->n = n2;
	net->nparam = np;
	net->param = buf[0];
	net->adam_m = buf[1];
	net->adam_v = buf[2];
	set_pointers(net);
	return 0;
}

static int check_hidden(const Net *net, int layer, Err *e)
{
	if (layer < 1 || layer > net->m - 1)
		return err_set(e, "layer %d is not a hidden layer (expected 1..%d)", layer,
		               net->m - 1);
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int net_keep_neurons(Net *net, int layer, const int *keep, int nkeep, Err *e)
{
	if (check_hidden(net, layer, e))
		return -1;
	int width = net->n[layer];
	if (nkeep < 1 || nkeep > width)
		return err_set(e, "hidden layer %d: cannot keep %d of its %d neurons", layer, nkeep,
		               width);
	int *src = malloc((size_t)nkeep * sizeof *src);
	if (!src)
		return err_set(e, "out of memory");
	memcpy(src, keep, (size_t)nkeep * sizeof *src);
	qsort(src, (size_t)nkeep, sizeof *src, cmp_int);
	for (int j = 0; j < nkeep; j++) {
		if (src[j] < 0 || src[j] >= width || (j > 0 && src[j] == src[j - 1])) {
			int bad = src[j];
			free(src);
			if (bad < 0 || bad >= width)
				return err_set(e, "hidden layer %d: neuron %d out of range (0..%d)",
				               layer, bad, width - 1);
			return err_set(e, "hidden layer %d: neuron %d listed twice", layer, bad);
		}
	}
	int rc = rebuild(net, layer, src, nkeep, NULL, e);
	free(src);
	return rc;
}

int net_remove_neuron(Net *net, int layer, int j, Err *e)
{
	if (check_hidden(net, layer, e))
		return -1;
	int width = net->n[layer];
	if (j < 0 || j >= width)
		return err_set(e, "hidden layer %d: neuron %d out of range (0..%d)", layer, j,
		               width - 1);
	if (width == 1)
		return err_set(e, "hidden layer %d: cannot remove its only neuron", layer);
	int *keep = malloc((size_t)(width - 1) * sizeof *keep);
	if (!keep)
		return err_set(e, "out of memory");
	for (int k = 0, c = 0; k < width; k++)
		if (k != j)
			keep[c++] = k;
	int rc = rebuild(net, layer, keep, width - 1, NULL, e);
	free(keep);
	return rc;
}

int net_add_neurons(Net *net, int layer, int count, Rng *rng, Err *e)
{
	if (check_hidden(net, layer, e))
		return -1;
	int width = net->n[layer];
	if (count < 1 || count > NET_MAX_WIDTH - width)
		return err_set(e, "hidden layer %d: cannot add %d neurons to %d", layer, count,
		               width);
	int *src = malloc((size_t)(width + count) * sizeof *src);
	if (!src)
		return err_set(e, "out of memory");
	for (int k = 0; k < width + count; k++)
		src[k] = k < width ? k : -1;
	int rc = rebuild(net, layer, src, width + count, rng, e);
	free(src);
	return rc;
}

/* hidden[0..m-2] become the widths n[1..m-1]. */
Net *net_reshape(const Net *net, const int *hidden, Err *e)
{
	int *w = malloc((size_t)(net->m + 1) * sizeof *w);
	if (!w) {
		err_set(e, "out of memory");
		return NULL;
	}
	w[0] = net->n[0];
	w[net->m] = net->n[net->m];
	for (int i = 1; i < net->m; i++)
		w[i] = hidden[i - 1];
	Net *r = net_new(net->m, w, net->act, net->act_a, e);
	free(w);
	if (r && net_set_prep(r, net->prep, e)) {
		net_free(r);
		return NULL;
	}
	return r;
}

/* Reads a positive integer at *p (digits only); -1 with a message otherwise. */
static long parse_count(const char *spec, const char **p, const char *what, Err *e)
{
	const char *s = *p;
	int col = (int)(s - spec) + 1;
	if (!isdigit((unsigned char)*s)) {
		if (*s == '\0')
			err_set(e, "layers \"%s\": expected a %s at the end", spec, what);
		else
			err_set(e, "layers \"%s\": expected a %s at column %d, found '%c'", spec,
			        what, col, *s);
		return -1;
	}
	errno = 0;
	char *end;
	long v = strtol(s, &end, 10);
	if (errno == ERANGE || v > NET_MAX_WIDTH) {
		err_set(e, "layers \"%s\": %s at column %d is too large (at most %d)", spec, what,
		        col, NET_MAX_WIDTH);
		return -1;
	}
	if (v == 0) {
		err_set(e, "layers \"%s\": %s at column %d must be positive, not 0", spec, what,
		        col);
		return -1;
	}
	*p = end;
	return v;
}

int net_parse_layers(const char *spec, int **widths, int *count, Err *e)
{
	*widths = NULL;
	*count = 0;
	if (!spec || !*spec)
		return err_set(e, "layers: empty specification (expected e.g. 600,410,510 or "
		                  "12x300 or 3x50,20)");
	/* First pass validates and counts, the second fills. */
	long total = 0;
	int *out = NULL;
	for (int pass = 0; pass < 2; pass++) {
		const char *p = spec;
		long k = 0;
		for (;;) {
			long a = parse_count(spec, &p, "width", e);
			if (a < 0)
				goto fail;
			long reps = 1, w = a;
			int repeated = *p == 'x' || *p == 'X';
			if (repeated) {
				p++;
				reps = a;
				w = parse_count(spec, &p, "width", e);
				if (w < 0)
					goto fail;
				if (reps > NET_MAX_LAYERS) {
					err_set(
					    e, "layers \"%s\": %ld layers is too many (at most %d)",
					    spec, reps, NET_MAX_LAYERS);
					goto fail;
				}
			}
			for (long r = 0; r < reps; r++, k++)
				if (out)
					out[k] = (int)w;
			if (k > NET_MAX_LAYERS) {
				err_set(e, "layers \"%s\": more than %d layers", spec,
				        NET_MAX_LAYERS);
				goto fail;
			}
			if (*p == '\0')
				break;
			if (*p != ',') {
				err_set(e, "layers \"%s\": expected %s at column %d, found '%c'",
				        spec, repeated ? "','" : "',' or 'x'", (int)(p - spec) + 1,
				        *p);
				goto fail;
			}
			p++;
		}
		if (pass == 0) {
			total = k;
			out = malloc((size_t)total * sizeof *out);
			if (!out)
				return err_set(e, "out of memory");
		}
	}
	*widths = out;
	*count = (int)total;
	return 0;
fail:
	free(out);
	return -1;
}

const char *net_shape_str(const Net *net, char *buf, size_t len)
{
	size_t pos = 0;
	if (len == 0)
		return buf;
	buf[0] = '\0';
	for (int i = 0; i <= net->m && pos < len; i++) {
		int w = snprintf(buf + pos, len - pos, i ? "-%d" : "%d", net->n[i]);
		if (w < 0)
			break;
		pos += (size_t)w;
	}
	return buf;
}

long net_hidden_total(const Net *net)
{
	long t = 0;
	for (int i = 1; i < net->m; i++)
		t += net->n[i];
	return t;
}
