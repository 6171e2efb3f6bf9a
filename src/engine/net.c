/* net.c - the network's parameter layout, initialisation and the structural
 * edits (keep, remove, add neurons) that carry parameters and Adam state. */
#include "engine/net.h"

#include "engine/graph_family.h"
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

int net_rows(const Net *net, int i)
{
	return i < net->nconv ? (int)layers_rows(&net->conv[i]) : net->n[i];
}

int net_cols(const Net *net, int i)
{
	return i < net->nconv ? net->conv[i].c_out : net->n[i + 1];
}

size_t net_layer_params(const Net *net, int i)
{
	return ((size_t)net_rows(net, i) + 1) * (size_t)net_cols(net, i);
}

int net_has_conv(const Net *net)
{
	return net->nconv > 0;
}

void net_input_shape(const Net *net, int *c, int *h, int *w)
{
	if (net->graph) {
		const GraphNode *in = &net->graph->node[0];
		int maps = in->rank == 4;
		*c = maps ? in->c : 0;
		*h = maps ? in->h : 0;
		*w = maps ? in->w : 0;
		return;
	}
	*c = net->nconv ? net->conv[0].c_in : 0;
	*h = net->nconv ? net->conv[0].h_in : 0;
	*w = net->nconv ? net->conv[0].w_in : 0;
}

int net_check_images(const Net *net, int c, int h, int w, const char *what, Err *e)
{
	int nc, nh, nw;
	net_input_shape(net, &nc, &nh, &nw);
	if (!nc || !c || (c == nc && h == nh && w == nw))
		return 0;
	return err_set(e, "%s holds images of %dx%dx%d, but the network reads %dx%dx%d", what, c, h,
	               w, nc, nh, nw);
}

int net_units(const Net *net, int i)
{
	return i == 0 ? net->n[0] : net_cols(net, i - 1);
}

void net_units_all(const Net *net, int *units)
{
	for (int i = 0; i <= net->m; i++)
		units[i] = net_units(net, i);
}

int net_unit_rows(const Net *net, int i)
{
	if (i < 1 || i >= net->m)
		return 1;
	if (i < net->nconv)
		return net->conv[i].k * net->conv[i].k;
	if (i == net->nconv)
		return net->conv[i - 1].h_out * net->conv[i - 1].w_out;
	return 1;
}

const char *net_unit_name(const Net *net, int i, int plural)
{
	int conv = i >= 1 && i <= net->nconv;
	return conv ? (plural ? "channels" : "channel") : (plural ? "neurons" : "neuron");
}

static void set_pointers(Net *net)
{
	float *p = net->param;
	for (int i = 0; i < net->m; i++) {
		net->W[i] = p;
		p += (size_t)net_rows(net, i) * net_cols(net, i);
		net->b[i] = p;
		p += net_cols(net, i);
	}
}

/* The widths of a network with convolutions checked against the table of
 * limits and its shapes; the parameters into *np. */
static int check_conv_widths(int m, const int *w, int nconv, const ConvShape *cs, uint64_t *np,
                             Err *e)
{
	if (limit_check(LIM_LAYERS, m, "a network: its layers", NULL, e) < 0)
		return -1;
	if (nconv >= m)
		return err_set(e,
		               "a network of %d layers, %d of them convolutions: the output layer "
		               "is dense",
		               m, nconv);
	if (layers_check(cs, nconv, "a network", e) < 0)
		return -1;
	*np = 0;
	for (int i = 0; i <= m; i++) {
		long want = i == 0       ? (long)cs[0].c_in * cs[0].h_in * cs[0].w_in
		            : i <= nconv ? layers_out_width(&cs[i - 1])
		                         : w[i];
		if (limit_check(LIM_WIDTH, w[i], "a network: a width", NULL, e) < 0)
			return -1;
		if (w[i] != want)
			return err_set(e,
			               "a network: width n[%d] = %d, but its maps hold %ld values",
			               i, w[i], want);
		if (i > 0) {
			int conv = i <= nconv;
			uint64_t rows =
			    conv ? (uint64_t)layers_rows(&cs[i - 1]) : (uint64_t)w[i - 1];
			uint64_t cols = conv ? (uint64_t)cs[i - 1].c_out : (uint64_t)w[i];
			*np += (rows + 1) * cols;
		}
	}
	if (*np > LIMIT_MAX_PARAMS)
		return err_set(e, "a network has %llu parameters, more than condnet trains (%lu)",
		               (unsigned long long)*np, (unsigned long)LIMIT_MAX_PARAMS);
	return 0;
}

Net *net_new(int m, const int *widths, ActKind act, float act_a, Err *e)
{
	return net_new_conv(m, widths, 0, NULL, act, act_a, e);
}

Net *net_new_conv(int m, const int *widths, int nconv, const ConvShape *conv, ActKind act,
                  float act_a, Err *e)
{
	if (m < 1) {
		err_set(e, "a network of %d layers: expected at least 1", m);
		return NULL;
	}
	/* every network condnet holds is within the table of limits */
	uint64_t np;
	if (nconv > 0 ? check_conv_widths(m, widths, nconv, conv, &np, e) < 0
	              : limit_check_widths(m, widths, "a network", &np, e) < 0)
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
	if (nconv > 0 && (net->conv = malloc((size_t)nconv * sizeof *net->conv)))
		memcpy(net->conv, conv, (size_t)nconv * sizeof *net->conv);
	if (!net->n || !net->W || !net->b || !net->param || !net->adam_m || !net->adam_v ||
	    (nconv > 0 && !net->conv)) {
		net_free(net);
		err_set(e, "out of memory for a network of %zu parameters", (size_t)np);
		return NULL;
	}
	net->nconv = nconv;
	memcpy(net->n, widths, (size_t)(m + 1) * sizeof *net->n);
	set_pointers(net);
	return net;
}

Net *net_new_graph(Graph *g, Err *e)
{
	const GraphNode *out = &g->node[g->n - 1];
	if (g->n < 2 || out->rank != 2) {
		if (g->n < 2)
			err_set(e, "a graph of its input alone computes no classes");
		else
			err_set(e,
			        "the graph ends in maps of %d×%d×%d, not in (batch, classes): a "
			        "Flatten or a dense layer comes last",
			        out->c, out->h, out->w);
		graph_free(g);
		return NULL;
	}
	Net *net = calloc(1, sizeof *net);
	size_t np = g->nparam ? g->nparam : 1;
	if (net) {
		net->n = malloc(2 * sizeof *net->n);
		net->param = calloc(np, sizeof(float));
		net->adam_m = calloc(np, sizeof(float));
		net->adam_v = calloc(np, sizeof(float));
	}
	if (!net || !net->n || !net->param || !net->adam_m || !net->adam_v) {
		net_free(net);
		graph_free(g);
		err_set(e, "out of memory for a network of %zu parameters", g->nparam);
		return NULL;
	}
	net->graph = g;
	net->m = 1;
	net->n[0] = (int)graph_size(&g->node[0]);
	net->n[1] = out->c;
	net->act = ACT_ERF;
	net->act_a = 1.0f;
	net->nparam = g->nparam;
	return net;
}

int net_is_graph(const Net *net)
{
	return net->graph != NULL;
}

int net_refuse_graph(const Net *net, const char *what, Err *e)
{
	char sh[256];
	if (!net->graph)
		return 0;
	return err_set(e,
	               "%s reads a network layer by layer, and this one is a graph (%s): its "
	               "answers, its training, its conditioning (cond), Algorithms 1 to 3 by "
	               "channel groups (alg1, sweep, squeeze) and its files are what condnet "
	               "takes of a graph",
	               what, graph_shape_str(net->graph, sh, sizeof sh));
}

void net_free(Net *net)
{
	if (!net)
		return;
	graph_free(net->graph);
	free(net->n);
	free(net->W);
	free(net->b);
	free(net->param);
	free(net->adam_m);
	free(net->adam_v);
	free(net->conv);
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
	Graph *g = net->graph ? graph_clone(net->graph, e) : NULL;
	if (net->graph && !g)
		return NULL;
	Net *c = g ? net_new_graph(g, e)
	           : net_new_conv(net->m, net->n, net->nconv, net->conv, net->act, net->act_a, e);
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

/* A fresh graph network of a residual family's specification. */
static Net *fresh_family(const char *spec, int d, int c, int h, int w, int classes, ActKind act,
                         float act_a, uint64_t seed, const char *what, Err *e)
{
	if (c > 0 && (long)c * h * w != d) {
		err_set(e, "%s: %d features are not images of %d×%d×%d", what, d, c, h, w);
		return NULL;
	}
	Graph *g = graph_family(spec, d, c, h, w, classes, act, act_a, e);
	Net *net = g ? net_new_graph(g, e) : NULL;
	if (net) {
		Rng r;
		rng_seed(&r, seed);
		net_init_glorot(net, &r);
	}
	return net;
}

Net *net_fresh_spec(const char *spec, int d, int c, int h, int w, int classes, ActKind act,
                    float act_a, uint64_t seed, const char *what, Err *e)
{
	if (graph_family_spec(spec))
		return fresh_family(spec, d, c, h, w, classes, act, act_a, seed, what, e);
	LayerSpec *ls;
	int nl;
	if (layers_parse(spec, &ls, &nl, e))
		return NULL;
	int nconv = layers_conv_count(ls, nl), m = nl + 1;
	int *wd = malloc((size_t)(m + 1) * sizeof *wd);
	ConvShape *cs = nconv ? malloc((size_t)nconv * sizeof *cs) : NULL;
	Net *net = NULL;
	if (!wd || (nconv && !cs)) {
		err_set(e, "out of memory");
		goto out;
	}
	if (nconv && c < 1) {
		err_set(e,
		        "layers \"%s\": a convolution needs images, and %s holds %d features "
		        "without an image's shape (MNIST or Fashion with --inputs pixels, or a "
		        "CSV with --shape)",
		        spec, what, d);
		goto out;
	}
	if (nconv && (long)c * h * w != d) {
		err_set(e, "%s: %d features are not images of %d×%d×%d", what, d, c, h, w);
		goto out;
	}
	if (nconv && layers_geometry(ls, nconv, c, h, w, cs, e)) {
		err_prefix(e, "layers \"%s\" on %d×%d×%d images", spec, c, h, w);
		goto out;
	}
	wd[0] = d;
	for (int i = 0; i < nl; i++)
		wd[i + 1] = i < nconv ? (int)layers_out_width(&cs[i]) : ls[i].units;
	wd[m] = classes;
	char name[96];
	snprintf(name, sizeof name, "a %.60s network", spec);
	if (!nconv && limit_check_widths(m, wd, name, NULL, e))
		goto out;
	if ((net = net_new_conv(m, wd, nconv, cs, act, act_a, e))) {
		Rng r;
		rng_seed(&r, seed);
		net_init_glorot(net, &r);
	} else {
		err_prefix(e, "a %s network", spec);
	}
out:
	free(ls);
	free(wd);
	free(cs);
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
/* A graph network's Glorot weights (net.h): node by node in the graph's
 * order; a Conv's fan-out its columns times kh·kw, as Keras counts a
 * Conv2D's (a depthwise one's multiplier times kh·kw, as DepthwiseConv2D),
 * b = 0, an Affine's scale 1 and shift 0. */
static void init_graph(Net *net, Rng *rng)
{
	const Graph *g = net->graph;
	for (int k = 1; k < g->n; k++) {
		const GraphNode *n = &g->node[k];
		float *p = net->param + n->off;
		if (n->op == GRAPH_AFFINE) {
			for (int j = 0; j < n->c; j++)
				p[j] = 1.0f, p[n->c + j] = 0.0f;
			continue;
		}
		if (n->op != GRAPH_CONV && n->op != GRAPH_GEMM)
			continue;
		int rows = graph_rows(g, k), cols = n->c;
		double fan_out = cols;
		if (n->op == GRAPH_CONV)
			fan_out = (double)(graph_depthwise(g, k) ? cols / n->group : cols) *
			          n->win.kh * n->win.kw;
		double lim = sqrt(6.0 / (rows + fan_out));
		size_t len = (size_t)rows * (size_t)cols;
		for (size_t t = 0; t < len; t++)
			p[t] = (float)((2.0 * rng_uniform(rng) - 1.0) * lim);
		memset(p + len, 0, (size_t)cols * sizeof *p);
	}
}

void net_init_glorot(Net *net, Rng *rng)
{
	if (net->graph) {
		init_graph(net, rng);
		net_reset_adam(net);
		return;
	}
	for (int i = 0; i < net->m; i++) {
		int rows = net_rows(net, i), cols = net_cols(net, i);
		size_t len = (size_t)rows * cols;
		/* a convolution's fan-out counts every kernel weight of an input channel */
		double fan_out =
		    i < net->nconv ? (double)cols * net->conv[i].k * net->conv[i].k : cols;
		double lim = sqrt(6.0 / (rows + fan_out));
		for (size_t k = 0; k < len; k++)
			net->W[i][k] = (float)((2.0 * rng_uniform(rng) - 1.0) * lim);
		memset(net->b[i], 0, (size_t)cols * sizeof(float));
	}
	net_reset_adam(net);
}

int net_parse_layers(const char *spec, int **widths, int *count, Err *e)
{
	LayerSpec *ls;
	int n;
	*widths = NULL;
	*count = 0;
	if (layers_parse(spec, &ls, &n, e))
		return -1;
	int *w = malloc((size_t)n * sizeof *w);
	if (!w) {
		free(ls);
		return err_set(e, "out of memory");
	}
	for (int i = 0; i < n; i++)
		w[i] = ls[i].units;
	int conv = layers_conv_count(ls, n);
	free(ls);
	if (conv) {
		free(w);
		return err_set(
		    e, "layers \"%s\": convolutions are not taken here, only dense widths", spec);
	}
	*widths = w;
	*count = n;
	return 0;
}

const char *net_shape_str(const Net *net, char *buf, size_t len)
{
	size_t pos = 0;
	if (len == 0)
		return buf;
	if (net->graph)
		return graph_shape_str(net->graph, buf, len);
	buf[0] = '\0';
	if (net->nconv) {
		const ConvShape *c = &net->conv[0];
		pos = (size_t)snprintf(buf, len, "%dx%dx%d", c->c_in, c->h_in, c->w_in);
		for (int i = 0; i < net->nconv && pos < len; i++) {
			c = &net->conv[i];
			char pad[24] = "";
			if (c->pad)
				snprintf(pad, sizeof pad, "pad%d", c->pad);
			int w = snprintf(buf + pos, len - pos, "-%d@%dx%d%s%s", c->c_out, c->k,
			                 c->k, pad, c->pool ? "-pool" : "");
			if (w < 0)
				break;
			pos += (size_t)w;
		}
	}
	for (int i = net->nconv ? net->nconv + 1 : 0; i <= net->m && pos < len; i++) {
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
