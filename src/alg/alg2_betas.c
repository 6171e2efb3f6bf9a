/* alg2_betas.c - Algorithm 2's β list: read from its text, on a grid, in
 * order; the widths of the networks each β gives (every hidden width scaled
 * by β; a graph network's channel groups' units); and the checks of a list
 * against the table of limits and against itself (two β that give the same
 * network). */
#include "alg/alg2_scale.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "engine/graph_groups.h"
#include "engine/graph_resize.h"
#include "engine/limits.h"

/* β on a 1e-9 grid, so 1.0 + 3·0.2 and a typed 1.6 are the same value. */
double alg2_beta_snap(double b)
{
	return round(b * 1e9) / 1e9;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

void alg2_sort_betas(double *betas, int n)
{
	qsort(betas, (size_t)n, sizeof *betas, cmp_double);
}

int alg2_parse_betas(const char *s, Alg2Opts *o, Err *e)
{
	if (!s || !o)
		return err_set(e, "betas: expected \"1.0,1.2,1.4\" or \"1.0:2.4:0.2\"");
	double v[64];
	int n = 0;
	const char *p = s + strspn(s, " ");
	char sep = strchr(s, ':') ? ':' : ',', *end;
	if (!*p)
		return err_set(e, "betas \"%s\": empty list", s);
	/* numbers separated by sep: a list, or first:last:step */
	for (;;) {
		if (n == (sep == ':' ? 3 : 64))
			return err_set(e,
			               sep == ':' ? "betas \"%s\": expected first:last:step"
			                          : "betas \"%s\": more than 64 values",
			               s);
		errno = 0;
		v[n] = strtod(p, &end);
		if (end == p || errno == ERANGE || !isfinite(v[n]))
			return err_set(e, "betas \"%s\": at offset %d: expected a number", s,
			               (int)(p - s));
		n++;
		end += strspn(end, " ");
		if (!*end)
			break;
		if (*end != sep)
			return err_set(e, "betas \"%s\": at offset %d: expected '%c' or the end", s,
			               (int)(end - s), sep);
		p = end + 1;
	}
	if (sep == ':') {
		double lo = v[0], hi = v[1], step = v[2];
		if (n != 3)
			return err_set(e, "betas \"%s\": expected first:last:step", s);
		if (!(step > 0))
			return err_set(e, "betas \"%s\": step %g, expected > 0", s, step);
		if (hi < lo)
			return err_set(e, "betas \"%s\": last %g is below first %g", s, hi, lo);
		if (step < BETA_MATCH)
			return err_set(e, "betas \"%s\": step %g is finer than β's grid of %g", s,
			               step, BETA_MATCH);
		/* inclusive of the last, whatever the rounding of the step */
		double count = floor((hi - lo) / step + 1e-9) + 1;
		if (count > 64)
			return err_set(e,
			               "betas \"%s\": step %g from %g to %g makes more than 64 "
			               "values",
			               s, step, lo, hi);
		n = (int)count;
		for (int i = 0; i < n; i++)
			v[i] = lo + step * i;
	}
	char name[96];
	snprintf(name, sizeof name, "betas \"%.40s\": β", s);
	for (int i = 0; i < n; i++)
		if (v[i] > 0 && limit_check(LIM_BETA, v[i], name, NULL, e) < 0)
			return -1;
	for (int i = 0; i < n; i++)
		v[i] = alg2_beta_snap(v[i]);
	alg2_sort_betas(v, n);
	for (int i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return err_set(e, "betas \"%s\": β = %g, every β must be > 0", s, v[i]);
		if (i > 0 && v[i] - v[i - 1] < BETA_MATCH)
			return err_set(e, "betas \"%s\": β = %g appears twice", s, v[i]);
	}
	memcpy(o->betas, v, (size_t)n * sizeof *v);
	o->nbeta = n;
	return 0;
}

int alg2_nwidths(const Net *base)
{
	if (!base->graph)
		return base->m + 1;
	ChannelGroups *gg = graph_groups(base->graph, NULL);
	int n = gg ? gg->n : -1;
	graph_groups_free(gg);
	return n;
}

/* A graph network's units per group (gg its groups) scaled by β (β = 0:
 * as they are): every group whose units may all go as a layer's width. */
static void group_units(const ChannelGroups *gg, double beta, int *units)
{
	for (int q = 0; q < gg->n; q++) {
		const ChannelGroup *c = &gg->g[q];
		units[q] = c->units;
		if (beta > 0 && c->free == c->units) {
			double x = beta * c->units + 1e-9;
			long long w = x >= 1e9 ? 1000000000LL : llround(x);
			units[q] = w < 1 ? 1 : (int)w;
		}
	}
}

/* A graph network like base with units[q] in group q (NULL: base's),
 * fresh weights from seed. */
static Net *graph_like(const Net *base, const int *units, uint64_t seed, Err *e)
{
	ChannelGroups *gg = graph_groups(base->graph, e);
	int *u = gg ? malloc((size_t)(gg->n + 1) * sizeof *u) : NULL;
	Net *net = NULL;
	if (gg && !u)
		err_set(e, "out of memory");
	if (u) {
		group_units(gg, 0, u);
		net = graph_net_resize(base, gg, units ? units : u, seed, e);
	}
	free(u);
	graph_groups_free(gg);
	if (net)
		net_set_prep(net, NULL, NULL);
	return net;
}

Net *alg2_shape(const Net *base, const int *units, Err *e)
{
	if (base->graph) {
		Net *net = graph_like(base, units, 0, e);
		if (net)
			memset(net->param, 0, net->nparam * sizeof *net->param);
		return net;
	}
	int m = base->m;
	int *u = malloc((size_t)(m + 1) * sizeof *u);
	Net *net = NULL;
	if (!u) {
		err_set(e, "out of memory");
		return NULL;
	}
	if (units)
		memcpy(u, units, (size_t)(m + 1) * sizeof *u);
	else
		net_units_all(base, u);
	if (!base->nconv)
		net = net_new(m, u, base->act, base->act_a, e);
	else if ((net = net_reshape(base, u + 1, e)))
		net_set_prep(net, NULL, NULL);
	free(u);
	return net;
}

Net *alg2_fresh(const Net *base, const int *widths, uint64_t seed, Err *e)
{
	return base->graph ? graph_like(base, widths, seed, e)
	                   : net_fresh_like(base, widths, seed, e);
}

int alg2_scaled_widths(const Net *base, double beta, int *widths)
{
	if (base->graph) {
		ChannelGroups *gg = graph_groups(base->graph, NULL);
		if (!gg)
			return -1;
		group_units(gg, beta, widths);
		graph_groups_free(gg);
		return 0;
	}
	int m = base->m;
	widths[0] = base->n[0];
	widths[m] = base->n[m];
	for (int i = 1; i < m; i++) {
		/* round half away from zero; the nudge keeps 1.15·10 = 11.4999… at 12;
		 * a width past 10^9 stays there (llround of more is undefined);
		 * a convolution's channels scale as a dense layer's neurons */
		double x = beta * (base->nconv ? net_units(base, i) : base->n[i]) + 1e-9;
		long long w = x >= 1e9 ? 1000000000LL : llround(x);
		widths[i] = w < 1 ? 1 : (int)w;
	}
	return 0;
}

int alg2_check_betas(const Net *base, const double *betas, int n, Err *e)
{
	int nw = alg2_nwidths(base);
	int *w = nw > 0 ? malloc((size_t)nw * sizeof *w) : NULL;
	if (!w)
		return err_set(e, "out of memory");
	int rc = 0;
	for (int i = 0; i < n && rc == 0; i++) {
		char what[64];
		snprintf(what, sizeof what, "β = %g: its network", betas[i]);
		if (alg2_scaled_widths(base, betas[i], w)) {
			rc = err_set(e, "out of memory");
		} else if (base->nconv || base->graph) {
			/* the maps' sizes follow the channels: the network itself */
			Net *shape = alg2_shape(base, w, e);
			rc = shape ? 0 : err_prefix(e, "%s", what);
			net_free(shape);
		} else {
			rc = limit_check_widths(base->m, w, what, NULL, e);
		}
	}
	free(w);
	return rc;
}

int alg2_check_distinct(const Net *base, const double *betas, int n, Err *e)
{
	int m = base->m, rc = 0, nw = alg2_nwidths(base), g = base->graph != NULL;
	if (!g && m < 2)
		return 0; /* no hidden layer: every β gives the same network */
	int *w = nw > 0 ? malloc(2 * (size_t)nw * sizeof *w) : NULL;
	if (!w)
		return err_set(e, "out of memory");
	for (int i = 0; i < n && rc == 0; i++) {
		if (alg2_scaled_widths(base, betas[i], w))
			rc = err_set(e, "out of memory");
		for (int j = 0; j < i && rc == 0; j++) {
			if (alg2_scaled_widths(base, betas[j], w + nw))
				rc = err_set(e, "out of memory");
			if (rc || memcmp(w, w + nw, (size_t)nw * sizeof *w))
				continue;
			char shape[160];
			size_t pos = 0;
			for (int k = g ? 0 : 1; k < (g ? nw : m) && pos + 16 < sizeof shape; k++)
				pos += (size_t)snprintf(shape + pos, sizeof shape - pos,
				                        pos ? "x%d" : "%d", w[k]);
			if (pos + 16 >= sizeof shape)
				snprintf(shape + pos, sizeof shape - pos, "…");
			rc = err_set(e,
			             "β = %g and β = %g give the same %s %s: a step "
			             "that adds no %s, expected β further apart",
			             betas[j], betas[i], g ? "channel groups" : "hidden layers",
			             shape, g ? "unit" : "neuron");
		}
	}
	free(w);
	return rc;
}
