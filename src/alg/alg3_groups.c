/* alg3_groups.c - Algorithm 3 on a graph network: each group's units
 * ordered by the pivoted QR of its producers' stacked Ŵ, those below
 * |r_11|/τ removed, the layers that read them refitted first. */
#include "alg/alg3_groups.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alg/alg3_squeeze.h"
#include "base/rng.h"
#include "engine/cond_matrix.h"
#include "engine/graph_edit.h"
#include "engine/graph_pass.h"

/* A group's units in the order of its first producer's channels, and the
 * column of each in each producer: col[p·nu + q] for producer p, unit q.
 * The units' count, 0 when some producer has more than one column of a
 * unit (a depthwise multiplier), -1 when out of memory. */
static int group_units(const Graph *g, const ChannelGroups *gg, const ChannelGroup *c, int **units,
                       int **col)
{
	int k0 = graph_layer_node(g, c->layer[0]), nu = 0;
	int *pos = malloc((size_t)gg->nunits * sizeof *pos);
	*units = malloc((size_t)g->node[k0].c * sizeof **units);
	*col = malloc((size_t)c->nlayer * (size_t)g->node[k0].c * sizeof **col);
	if (!pos || !*units || !*col) {
		free(pos);
		return -1;
	}
	for (int u = 0; u < gg->nunits; u++)
		pos[u] = -1;
	for (int j = 0; j < g->node[k0].c; j++) {
		int u = graph_unit(gg, k0, j);
		if (pos[u] < 0)
			pos[u] = nu, (*units)[nu++] = u;
	}
	for (int p = 0; p < c->nlayer; p++) {
		int k = graph_layer_node(g, c->layer[p]);
		if (g->node[k].c != nu) { /* each producer gives one channel a unit */
			free(pos);
			return 0;
		}
		for (int j = 0; j < nu; j++)
			(*col)[p * nu + pos[graph_unit(gg, k, j)]] = j;
	}
	free(pos);
	return nu;
}

/* The stacked matrix of the group's producers, Ŵ of each under the one
 * before, a column per unit: (Σ rows + 1) × nu doubles, row-major. */
static double *stack(const Net *net, const ChannelGroup *c, const int *col, int nu, int *rows)
{
	const Graph *g = net->graph;
	int r = 0;
	for (int p = 0; p < c->nlayer; p++)
		r += graph_rows(g, graph_layer_node(g, c->layer[p])) + 1;
	double *S = malloc((size_t)r * (size_t)nu * sizeof *S);
	if (!S)
		return NULL;
	size_t o = 0;
	for (int p = 0; p < c->nlayer; p++) {
		int k = graph_layer_node(g, c->layer[p]), nr = graph_rows(g, k) + 1,
		    nc = g->node[k].c;
		const float *W = net->param + g->node[k].off; /* b is W's row nr − 1 */
		for (int i = 0; i < nr; i++, o++)
			for (int q = 0; q < nu; q++)
				S[o * (size_t)nu + (size_t)q] =
				    W[(size_t)i * nc + (size_t)col[p * nu + q]];
	}
	*rows = r;
	return S;
}

/* The units' order by the L1 norms of their weights over the group's
 * producers (biases left out), largest first, into perm (of the stack S,
 * rows × nu, whose bias rows are each producer's last). */
static int order_l1(const Net *net, const ChannelGroup *c, const double *S, int nu, int *perm,
                    Err *e)
{
	double *w = calloc((size_t)nu, sizeof *w);
	if (!w)
		return err_set(e, "out of memory");
	size_t o = 0;
	for (int p = 0; p < c->nlayer; p++) {
		int rows = graph_rows(net->graph, graph_layer_node(net->graph, c->layer[p]));
		for (int i = 0; i < rows; i++, o++)
			for (int q = 0; q < nu; q++)
				w[q] += fabs(S[o * (size_t)nu + (size_t)q]);
		o++; /* the bias row */
	}
	for (int q = 0; q < nu; q++)
		perm[q] = q;
	for (int i = 1; i < nu; i++) { /* insertion sort, stable: ties keep their order */
		int x = perm[i], j = i;
		for (; j > 0 && w[perm[j - 1]] < w[x]; j--)
			perm[j] = perm[j - 1];
		perm[j] = x;
	}
	free(w);
	return 0;
}

/* The order o->criterion keeps group q's units in (perm, most kept
 * first), the QR's already in it. */
static int order_units(const Net *net, const ChannelGroup *c, const double *S, int nu, int q,
                       const GroupSqueezeOpts *o, int *perm, Err *e)
{
	if (o->criterion == ALG3_NORM)
		return order_l1(net, c, S, nu, perm, e);
	if (o->criterion == ALG3_RANDOM) {
		Rng r;
		rng_seed(&r, rng_derive(o->seed, (uint64_t)q));
		for (int j = 0; j < nu; j++)
			perm[j] = j;
		rng_shuffle(&r, perm, nu);
	}
	return 0;
}

int alg3_group_stack(const Net *net, const ChannelGroups *gg, int q, double **S, int **units,
                     int *nu, int *rows, Err *e)
{
	int *col = NULL;
	*S = NULL;
	*units = NULL;
	*rows = 0;
	*nu = group_units(net->graph, gg, &gg->g[q], units, &col);
	if (*nu > 0)
		*S = stack(net, &gg->g[q], col, *nu, rows);
	free(col);
	if (*nu > 0 && *S)
		return 0;
	free(*units);
	*units = NULL;
	if (*nu == 0)
		return 0;
	*nu = 0;
	return err_set(e, "out of memory for group %d's stacked matrix", q + 1);
}

/* One group: its stack's κ and pivoted QR, the units below |r_11|/τ. */
static int decide_one(const Net *net, const ChannelGroups *gg, int q, const GroupSqueezeOpts *o,
                      GroupDecision *d, unsigned char *drop, Err *e)
{
	const ChannelGroup *c = &gg->g[q];
	int *units = NULL, *perm = NULL, rows = 0, rc = -1, nu;
	double *S = NULL, *rdiag = NULL;
	if (alg3_group_stack(net, gg, q, &S, &units, &nu, &rows, e))
		goto out;
	if (!S) {
		d->skip = "a depthwise convolution gives several channels of each unit";
		rc = 0;
		goto out;
	}
	perm = malloc((size_t)nu * sizeof *perm);
	rdiag = malloc((size_t)nu * sizeof *rdiag);
	if (!perm || !rdiag) {
		err_set(e, "out of memory for group %d's stacked matrix", q + 1);
		goto out;
	}
	if (cond_kappa(S, rows, nu, &d->kappa, e) || cond_qrpt(S, rows, nu, perm, rdiag, e))
		goto out;
	int k = rows < nu ? rows : nu, keep = 0;
	while (keep < k && rdiag[keep] >= 1.0 / o->tau)
		keep++;
	d->rows = rows;
	d->kept = o->keep ? o->keep[q] : keep ? keep : 1;
	if (order_units(net, c, S, nu, q, o, perm, e))
		goto out;
	for (int t = d->kept; t < nu; t++)
		drop[units[perm[t]]] = 1;
	rc = 0;
out:
	free(units), free(perm), free(S), free(rdiag);
	return rc;
}

int alg3_groups_decide(const Net *net, const ChannelGroups *gg, const GroupSqueezeOpts *o,
                       GroupDecision *dec, unsigned char *drop, Err *e)
{
	memset(drop, 0, (size_t)gg->nunits);
	for (int q = 0; q < gg->n; q++) {
		const ChannelGroup *c = &gg->g[q];
		GroupDecision *d = &dec[q];
		*d = (GroupDecision){q + 1, c->units, c->units, 0, NAN, NULL};
		if (o->only && !o->only[q])
			d->skip = "not asked for";
		else if (c->free < c->units)
			d->skip = graph_group_fixed_str(c->fixed);
		else if (c->units < 2)
			d->skip = "one channel";
		else if (o->keep && (o->keep[q] < 1 || o->keep[q] > c->units))
			return err_set(e, "group %d: %d channels kept of its %d (expected 1..%d)",
			               q + 1, o->keep[q], c->units, c->units);
		else if (decide_one(net, gg, q, o, d, drop, e))
			return -1;
		if (d->skip && o->keep && o->keep[q] != c->units)
			return err_set(e, "group %d keeps its %d channels (%s), not %d", q + 1,
			               c->units, d->skip, o->keep[q]);
	}
	return 0;
}

/* The maps of node src (C channels of P positions) on s rows of sample,
 * evenly spaced through it, as doubles s × C × P. */
static double *maps_of(const Net *net, int src, const Dataset *sample, int s, Err *e)
{
	const Graph *g = net->graph;
	size_t size = graph_size(&g->node[src]), d = (size_t)sample->d;
	int B = 32;
	GraphWork *w = graph_work_new(g, B, 1, e);
	float *x = malloc((size_t)B * d * sizeof *x);
	double *Y = malloc((size_t)s * size * sizeof *Y);
	if (!w || !x || !Y) {
		err_set(e, "out of memory for the maps of %d rows", s);
		goto fail;
	}
	for (int i0 = 0; i0 < s; i0 += B) {
		int ns = s - i0 < B ? s - i0 : B;
		for (int i = 0; i < ns; i++) {
			long r = (long)(i0 + i) * sample->n / s;
			memcpy(x + (size_t)i * d, sample->x + (size_t)r * d, d * sizeof *x);
		}
		graph_forward(w, net->param, x, ns);
		const float *v = graph_work_value(w, src);
		for (size_t t = 0; t < (size_t)ns * size; t++)
			Y[(size_t)i0 * size + t] = v[t];
	}
	graph_work_free(w);
	free(x);
	return Y;
fail:
	graph_work_free(w);
	free(x);
	free(Y);
	return NULL;
}

/* comb ((nkeep+1) × nrem: the kept channels' coefficients, then the
 * constant) folded into layer node k's rows that read its input's channels
 * (per rows each) and its bias. */
static void fold(Net *net, int k, int per, const int *keep, int nkeep, const int *rem, int nrem,
                 const double *comb)
{
	const Graph *g = net->graph;
	int cols = g->node[k].c;
	float *W = net->param + g->node[k].off, *b = W + (size_t)graph_rows(g, k) * cols;
	for (int t = 0; t < nrem; t++)
		for (int p = 0; p < per; p++) {
			const float *wr = W + ((size_t)rem[t] * per + (size_t)p) * cols;
			for (int q = 0; q < nkeep; q++) {
				float a = (float)comb[(size_t)q * nrem + (size_t)t];
				float *wk = W + ((size_t)keep[q] * per + (size_t)p) * cols;
				for (int o = 0; o < cols; o++)
					wk[o] += a * wr[o];
			}
			float dc = (float)comb[(size_t)nkeep * nrem + (size_t)t];
			for (int o = 0; o < cols; o++)
				b[o] += dc * wr[o];
		}
}

/* The refit of layer node k of net when its input loses channels, on the
 * maps of orig (net before any refit): 0, -1. */
static int refit_reader(Net *net, const Net *orig, const ChannelGroups *gg,
                        const unsigned char *drop, int k, const Dataset *sample, int maxrows,
                        Err *e)
{
	const Graph *g = net->graph;
	int per, C, src;
	if (graph_read_rows(g, k, &per, &C, &src))
		return 0;
	int *keep = malloc((size_t)C * sizeof *keep), *rem = malloc((size_t)C * sizeof *rem);
	int nkeep = 0, nrem = 0, rc = -1;
	double *Y = NULL, *comb = NULL;
	if (!keep || !rem) {
		err_set(e, "out of memory");
		goto out;
	}
	for (int j = 0; j < C; j++)
		if (drop[graph_unit(gg, src, j)])
			rem[nrem++] = j;
		else
			keep[nkeep++] = j;
	if (nrem == 0) {
		rc = 0;
		goto out;
	}
	const GraphNode *m = &g->node[src];
	/* at most maxrows rows, and maps of at most 2^24 values (128 MiB) */
	int P = m->h * m->w, s = sample->n < maxrows ? sample->n : maxrows;
	size_t cap = ((size_t)1 << 24) / graph_size(m);
	if ((size_t)s > cap)
		s = cap > 0 ? (int)cap : 1;
	if (!(Y = maps_of(orig, src, sample, s, e)))
		goto out;
	if (!(comb = malloc((size_t)(nkeep + 1) * nrem * sizeof *comb))) {
		err_set(e, "out of memory");
		goto out;
	}
	int st = alg3_channel_fit(Y, s, C, P, keep, nkeep, comb, e);
	if (st) {
		if (st > 0)
			err_set(e, "the refit was stopped");
		goto out;
	}
	fold(net, k, per, keep, nkeep, rem, nrem, comb);
	rc = 0;
out:
	free(keep), free(rem), free(Y), free(comb);
	return rc;
}

int alg3_groups_compensate(Net *net, const ChannelGroups *gg, const unsigned char *drop,
                           const Dataset *sample, int maxrows, Err *e)
{
	if (!sample || sample->d != net->n[0])
		return err_set(e, "the refit needs a sample of the network's %d inputs", net->n[0]);
	/* every reader's maps are those of the network before any refit: the
	 * readers are refitted on a copy's maps, the weights changed in net */
	Net *orig = net_clone(net, e);
	if (!orig)
		return -1;
	const Graph *g = net->graph;
	int rc = 0;
	for (int l = 1; l <= gg->nlayers && !rc; l++)
		rc = refit_reader(net, orig, gg, drop, graph_layer_node(g, l), sample, maxrows, e);
	net_free(orig);
	return rc;
}

Net *alg3_squeeze_graph(const Net *net, const ChannelGroups *gg, const GroupSqueezeOpts *o,
                        GroupDecision *dec, Err *e)
{
	if (!net->graph)
		return err_set(e, "the squeeze by groups is for graph networks"), NULL;
	Net *work = NULL, *out = NULL;
	unsigned char *drop = malloc((size_t)(gg->nunits ? gg->nunits : 1));
	if (!drop) {
		err_set(e, "out of memory for the squeeze's decisions");
		goto out;
	}
	if (alg3_groups_decide(net, gg, o, dec, drop, e) || !(work = net_clone(net, e)))
		goto out;
	if (o->compensate && alg3_groups_compensate(work, gg, drop, o->sample, o->maxrows, e))
		goto out;
	out = graph_net_drop(work, gg, drop, e);
out:
	net_free(work);
	free(drop);
	return out;
}
