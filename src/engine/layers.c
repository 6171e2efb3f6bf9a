/* layers.c - the --layers specification and the shapes of convolution
 * layers. */
#include "engine/layers.h"

#include "engine/limits.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest width or channel count a specification may ask for. */
#define MAX_WIDTH ((int)LIMIT_MAX_WIDTH)
/* Largest number of layers a specification may ask for (the output layer
 * is one more). */
#define MAX_LAYERS ((int)LIMIT_MAX_LAYERS - 1)

/* Reads a positive integer at *p (digits only), at most `most`; -1 with a
 * message otherwise. zero_ok accepts 0. */
static long parse_count(const char *spec, const char **p, const char *what, long most, int zero_ok,
                        Err *e)
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
	if (errno == ERANGE || v > most) {
		err_set(e, "layers \"%s\": %s at column %d is too large (at most %ld)", spec, what,
		        col, most);
		return -1;
	}
	if (v == 0 && !zero_ok) {
		err_set(e, "layers \"%s\": %s at column %d must be positive, not 0", spec, what,
		        col);
		return -1;
	}
	*p = end;
	return v;
}

/* ':' at *p, else a message saying what should follow it. */
static int colon(const char *spec, const char **p, const char *what, Err *e)
{
	if (**p == ':') {
		(*p)++;
		return 0;
	}
	if (**p == '\0')
		return err_set(e, "layers \"%s\": expected ':' and %s at the end", spec, what);
	return err_set(e, "layers \"%s\": expected ':' and %s at column %d, found '%c'", spec, what,
	               (int)(*p - spec) + 1, **p);
}

/* conv:C:K[:same|:P] at *p (past "conv") into s. */
static int parse_conv(const char *spec, const char **p, LayerSpec *s, Err *e)
{
	long c, k, pad = 0;
	if (colon(spec, p, "the output channels", e) ||
	    (c = parse_count(spec, p, "channel count", MAX_WIDTH, 0, e)) < 0 ||
	    colon(spec, p, "the kernel side", e) ||
	    (k = parse_count(spec, p, "kernel side", LAYERS_MAX_KERNEL, 0, e)) < 0)
		return -1;
	if (**p == ':') {
		(*p)++;
		int col = (int)(*p - spec) + 1;
		if (!strncmp(*p, "same", 4)) {
			if (k % 2 == 0)
				return err_set(e,
				               "layers \"%s\": 'same' at column %d needs an odd "
				               "kernel side, not %ld",
				               spec, col, k);
			pad = (k - 1) / 2;
			*p += 4;
		} else if (!strncmp(*p, "valid", 5)) {
			*p += 5;
		} else if (!isdigit((unsigned char)**p)) {
			return err_set(e,
			               "layers \"%s\": expected same, valid or the padding at "
			               "column %d",
			               spec, col);
		} else if ((pad = parse_count(spec, p, "padding", LAYERS_MAX_KERNEL, 1, e)) < 0) {
			return -1;
		} else if (pad >= k) {
			return err_set(e,
			               "layers \"%s\": padding %ld at column %d is not below the "
			               "kernel side %ld",
			               spec, pad, col, k);
		}
	}
	*s = (LayerSpec){.conv = 1, .units = (int)c, .k = (int)k, .pad = (int)pad};
	return 0;
}

/* One pass over spec: counts the layers into *count and, when out is not
 * NULL, fills it. */
static int scan(const char *spec, LayerSpec *out, int *count, Err *e)
{
	enum { LAST_NONE, LAST_CONV, LAST_POOL, LAST_DENSE };
	const char *p = spec;
	int k = 0, dense = 0, last = LAST_NONE;
	for (;;) {
		int col = (int)(p - spec) + 1, repeated = 0;
		if (!strncmp(p, "conv", 4)) {
			LayerSpec s;
			p += 4;
			if (parse_conv(spec, &p, &s, e))
				return -1;
			if (dense)
				return err_set(
				    e,
				    "layers \"%s\": the convolution at column %d follows "
				    "a dense layer (convolutions come first)",
				    spec, col);
			if (out)
				out[k] = s;
			k++;
			last = LAST_CONV;
		} else if (!strncmp(p, "pool", 4)) {
			p += 4;
			long size;
			if (colon(spec, &p, "the pool size", e) ||
			    (size = parse_count(spec, &p, "pool size", MAX_WIDTH, 0, e)) < 0)
				return -1;
			if (size != 2)
				return err_set(e,
				               "layers \"%s\": pool size %ld at column %d: condnet "
				               "pools 2×2 windows (pool:2)",
				               spec, size, col + 5);
			if (last != LAST_CONV)
				return err_set(e,
				               "layers \"%s\": the pool at column %d follows no "
				               "convolution (pool:2 comes right after a conv:C:K)",
				               spec, col);
			if (out)
				out[k - 1].pool = 1;
			last = LAST_POOL;
		} else {
			if (*p == 'c' || *p == 'p')
				return err_set(
				    e,
				    "layers \"%s\": expected a width, conv:C:K or pool:2 "
				    "at column %d, found '%c'",
				    spec, col, *p);
			long a = parse_count(spec, &p, "width", MAX_WIDTH, 0, e), reps = 1, w = a;
			if (a < 0)
				return -1;
			repeated = *p == 'x' || *p == 'X';
			if (repeated) {
				p++;
				reps = a;
				if ((w = parse_count(spec, &p, "width", MAX_WIDTH, 0, e)) < 0)
					return -1;
				if (reps > MAX_LAYERS)
					return err_set(
					    e, "layers \"%s\": %ld layers is too many (at most %d)",
					    spec, reps, MAX_LAYERS);
			}
			for (long r = 0; r < reps && k <= MAX_LAYERS; r++, k++)
				if (out)
					out[k] = (LayerSpec){.units = (int)w};
			dense = 1;
			last = LAST_DENSE;
		}
		if (k > MAX_LAYERS)
			return err_set(e, "layers \"%s\": more than %d layers", spec, MAX_LAYERS);
		if (*p == '\0')
			break;
		if (*p != ',')
			return err_set(e, "layers \"%s\": expected %s at column %d, found '%c'",
			               spec, repeated || !dense ? "','" : "',' or 'x'",
			               (int)(p - spec) + 1, *p);
		p++;
	}
	*count = k;
	return 0;
}

int layers_parse(const char *spec, LayerSpec **out, int *count, Err *e)
{
	*out = NULL;
	*count = 0;
	if (!spec || !*spec)
		return err_set(e, "layers: empty specification (expected e.g. 600,410,510 or "
		                  "12x300 or 3x50,20, or conv:6:5,pool:2,120)");
	int n;
	if (scan(spec, NULL, &n, e))
		return -1;
	LayerSpec *s = calloc((size_t)n, sizeof *s);
	if (!s)
		return err_set(e, "out of memory");
	if (scan(spec, s, &n, e)) {
		free(s);
		return -1;
	}
	*out = s;
	*count = n;
	return 0;
}

int layers_conv_count(const LayerSpec *s, int count)
{
	int k = 0;
	while (k < count && s[k].conv)
		k++;
	return k;
}

/* The shape of a convolution with these input maps and settings, its sizes
 * derived; -1 when the kernel is larger than the padded map or the pool has
 * no window. */
static int shape_of(int layer, int c, int h, int w, int c_out, int k, int pad, int pool,
                    ConvShape *o, Err *e)
{
	*o = (ConvShape){.c_in = c, .h_in = h, .w_in = w, .c_out = c_out, .k = k, .pad = pad};
	if (k > h + 2 * pad || k > w + 2 * pad)
		return err_set(e, "layer %d: a %d×%d kernel on %d×%d maps%s is larger than the map",
		               layer, k, k, h, w, pad ? " (padded)" : "");
	o->h_conv = h + 2 * pad - k + 1;
	o->w_conv = w + 2 * pad - k + 1;
	o->pool = pool;
	if (pool && (o->h_conv < 2 || o->w_conv < 2))
		return err_set(e, "layer %d: a 2×2 pool on %d×%d maps has no window", layer,
		               o->h_conv, o->w_conv);
	o->h_out = pool ? o->h_conv / 2 : o->h_conv;
	o->w_out = pool ? o->w_conv / 2 : o->w_conv;
	if ((long)c_out * o->h_out * o->w_out > LIMIT_MAX_WIDTH)
		return err_set(e, "layer %d: %d maps of %d×%d are more than %d values", layer,
		               c_out, o->h_out, o->w_out, LIMIT_MAX_WIDTH);
	return 0;
}

int layers_geometry(const LayerSpec *s, int nconv, int c, int h, int w, ConvShape *out, Err *e)
{
	if (c < 1 || h < 1 || w < 1 || h > LAYERS_MAX_SIDE || w > LAYERS_MAX_SIDE ||
	    (long)c * h * w > LIMIT_MAX_WIDTH)
		return err_set(e, "inputs of %d×%d×%d are not images condnet convolves", c, h, w);
	for (int i = 0; i < nconv; i++) {
		if (shape_of(i + 1, c, h, w, s[i].units, s[i].k, s[i].pad, s[i].pool, &out[i], e))
			return -1;
		c = out[i].c_out;
		h = out[i].h_out;
		w = out[i].w_out;
	}
	return 0;
}

int layers_check(const ConvShape *cs, int nconv, const char *what, Err *e)
{
	for (int i = 0; i < nconv; i++) {
		const ConvShape *c = &cs[i];
		ConvShape want;
		if (c->c_in < 1 || c->h_in < 1 || c->w_in < 1 || c->h_in > LAYERS_MAX_SIDE ||
		    c->w_in > LAYERS_MAX_SIDE ||
		    (long)c->c_in * c->h_in * c->w_in > LIMIT_MAX_WIDTH)
			return err_set(e,
			               "%s: layer %d reads %d×%d×%d maps, not images condnet "
			               "convolves",
			               what, i + 1, c->c_in, c->h_in, c->w_in);
		if (c->c_out < 1 || c->c_out > LIMIT_MAX_WIDTH || c->k < 1 ||
		    c->k > LAYERS_MAX_KERNEL || c->pad < 0 || c->pad >= c->k ||
		    (c->pool != 0 && c->pool != 1))
			return err_set(e,
			               "%s: layer %d: %d channels, kernel %d, padding %d, pool %d "
			               "is not a convolution condnet makes",
			               what, i + 1, c->c_out, c->k, c->pad, c->pool);
		if (shape_of(i + 1, c->c_in, c->h_in, c->w_in, c->c_out, c->k, c->pad, c->pool,
		             &want, e))
			return err_prefix(e, "%s", what);
		if (memcmp(&want, c, sizeof want))
			return err_set(e, "%s: layer %d's map sizes do not follow from its input",
			               what, i + 1);
		if (i > 0 && (c->c_in != cs[i - 1].c_out || c->h_in != cs[i - 1].h_out ||
		              c->w_in != cs[i - 1].w_out))
			return err_set(e,
			               "%s: layer %d reads %d×%d×%d maps, but layer %d gives "
			               "%d×%d×%d",
			               what, i + 1, c->c_in, c->h_in, c->w_in, i, cs[i - 1].c_out,
			               cs[i - 1].h_out, cs[i - 1].w_out);
	}
	return 0;
}

long layers_out_width(const ConvShape *c)
{
	return (long)c->c_out * c->h_out * c->w_out;
}

long layers_rows(const ConvShape *c)
{
	return (long)c->c_in * c->k * c->k;
}

double layers_macs(const ConvShape *c)
{
	return (double)c->h_conv * c->w_conv * layers_rows(c) * c->c_out;
}

const char *layers_conv_str(const ConvShape *c, char *buf, size_t len)
{
	char pad[24] = "";
	if (c->pad && c->k % 2 && c->pad == (c->k - 1) / 2)
		snprintf(pad, sizeof pad, ":same");
	else if (c->pad)
		snprintf(pad, sizeof pad, ":%d", c->pad);
	snprintf(buf, len, "conv:%d:%d%s%s", c->c_out, c->k, pad, c->pool ? ",pool:2" : "");
	return buf;
}
