/* graph.c - a graph's nodes: adding one with its shape worked out and every
 * size checked against the table of limits, and what the graph says of
 * itself (names, sizes, multiply-adds). */
#include "engine/graph.h"

#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/layers.h"
#include "engine/limits.h"

static const char *const op_names[GRAPH_OP_COUNT] = {"Input",
                                                     "Conv",
                                                     "Gemm",
                                                     "BatchNormalization",
                                                     "Add",
                                                     "Concat",
                                                     "MaxPool",
                                                     "AveragePool",
                                                     "GlobalAveragePool",
                                                     "Relu",
                                                     "Clip",
                                                     "LeakyRelu",
                                                     "Sigmoid",
                                                     "Tanh",
                                                     "Erf",
                                                     "Mul",
                                                     "Reshape"};

static atomic_ulong serial;

static unsigned long next_id(void)
{
	return atomic_fetch_add(&serial, 1) + 1;
}

const char *graph_op_name(GraphOp op)
{
	return (unsigned)op < GRAPH_OP_COUNT ? op_names[op] : "?";
}

const char *graph_node_str(const Graph *g, int k, char *buf, size_t len)
{
	const GraphNode *n = &g->node[k];
	if (n->name[0])
		snprintf(buf, len, "node %d '%s' (%s)", k, n->name, graph_op_name(n->op));
	else
		snprintf(buf, len, "node %d (%s)", k, graph_op_name(n->op));
	return buf;
}

void graph_free(Graph *g)
{
	if (!g)
		return;
	free(g->node);
	free(g->edge);
	free(g);
}

static int grow(Graph *g, int nin, Err *e)
{
	if (g->n == g->cap) {
		int cap = g->cap ? 2 * g->cap : 64;
		GraphNode *p = realloc(g->node, (size_t)cap * sizeof *p);
		if (!p)
			return err_set(e, "out of memory for a graph of %d nodes", cap);
		g->node = p;
		g->cap = cap;
	}
	while (g->nedge + nin > g->capedge) {
		int cap = g->capedge ? 2 * g->capedge : 128;
		int *p = realloc(g->edge, (size_t)cap * sizeof *p);
		if (!p)
			return err_set(e, "out of memory for a graph of %d edges", cap);
		g->edge = p;
		g->capedge = cap;
	}
	return 0;
}

/* c×h×w values, each size and the product within the table's width. */
static int check_tensor(int rank, long long c, long long h, long long w, const char *what, Err *e)
{
	if (c < 1 || h < 1 || w < 1)
		return err_set(e, "%s of %lld×%lld×%lld: every size must be at least 1", what, c, h,
		               w);
	if (c > LIMIT_MAX_WIDTH || h > LAYERS_MAX_SIDE || w > LAYERS_MAX_SIDE)
		return err_set(e,
		               "%s of %lld %s × %lld × %lld, more than condnet reads (at most %d "
		               "channels, sides of %d)",
		               what, c, rank == 4 ? "channels" : "features", h, w, LIMIT_MAX_WIDTH,
		               LAYERS_MAX_SIDE);
	if (c * h > LIMIT_MAX_WIDTH || c * h * w > LIMIT_MAX_WIDTH)
		return err_set(e,
		               "%s of %lld×%lld×%lld = %lld values, more than condnet reads (at "
		               "most %d)",
		               what, c, h, w, c * h * w, LIMIT_MAX_WIDTH);
	return 0;
}

Graph *graph_new(int rank, long long c, long long h, long long w, Err *e)
{
	if (rank != 2 && rank != 4) {
		err_set(e,
		        "an input of %d dimensions, expected 2 (batch, features) or 4 (batch, "
		        "channels, height, width)",
		        rank);
		return NULL;
	}
	if (rank == 2 && (h != 1 || w != 1)) {
		err_set(e, "features of %lld×%lld×%lld, expected a height and width of 1", c, h, w);
		return NULL;
	}
	if (check_tensor(rank, c, h, w, rank == 4 ? "maps" : "features", e))
		return NULL;
	Graph *g = calloc(1, sizeof *g);
	if (!g || grow(g, 0, e)) {
		graph_free(g);
		err_set(e, "out of memory for a graph");
		return NULL;
	}
	GraphNode *n = &g->node[0];
	memset(n, 0, sizeof *n);
	n->op = GRAPH_INPUT;
	n->rank = rank;
	n->c = (int)c;
	n->h = (int)h;
	n->w = (int)w;
	snprintf(n->name, sizeof n->name, "input");
	g->n = 1;
	g->id = next_id();
	return g;
}

Graph *graph_clone(const Graph *g, Err *e)
{
	Graph *c = calloc(1, sizeof *c);
	if (c) {
		*c = *g;
		c->node = malloc((size_t)g->cap * sizeof *c->node);
		c->edge = malloc((size_t)(g->capedge ? g->capedge : 1) * sizeof *c->edge);
	}
	if (!c || !c->node || !c->edge) {
		if (c) {
			free(c->node);
			free(c->edge);
		}
		free(c);
		err_set(e, "out of memory for a copy of a graph of %d nodes", g->n);
		return NULL;
	}
	memcpy(c->node, g->node, (size_t)g->n * sizeof *c->node);
	memcpy(c->edge, g->edge, (size_t)g->nedge * sizeof *c->edge);
	c->id = next_id();
	return c;
}

/* One side of a window's output: `in` cells padded by lo and hi, a window
 * of k cells dilated by d, stride s; ceil rounds up as PyTorch's pools do
 * (a last window that would start in the padding after the map dropped).
 * -1 when no window fits. */
static long long out_side(long long in, int k, int s, int d, int lo, int hi, int ceil)
{
	long long span = (long long)d * (k - 1) + 1, room = in + lo + hi - span;
	if (room < 0)
		return -1;
	long long out = (ceil ? (room + s - 1) / s : room / s) + 1;
	if (ceil && (out - 1) * s >= in + lo)
		out--;
	return out;
}

/* The window's numbers within range: kernel sides up to kmax, strides,
 * dilations and padding up to the largest side. */
static int check_win(const GraphWin *w, int kmax, Err *e)
{
	const int v[10] = {w->kh, w->kw, w->sh, w->sw, w->dh, w->dw, w->pt, w->pl, w->pb, w->pr};
	static const char *const what[10] = {"kernel height", "kernel width", "stride",  "stride",
	                                     "dilation",      "dilation",     "padding", "padding",
	                                     "padding",       "padding"};
	for (int i = 0; i < 10; i++) {
		int lo = i < 6 ? 1 : 0, hi = i < 2 ? kmax : LAYERS_MAX_SIDE;
		if (v[i] < lo || v[i] > hi)
			return err_set(e, "%s %d, expected %d to %d", what[i], v[i], lo, hi);
	}
	return 0;
}

/* The maps a window gives on input maps in (its h×w), into *h and *w. */
static int win_shape(const GraphWin *w, const GraphNode *in, int pool, int *h, int *wd, Err *e)
{
	long long oh = out_side(in->h, w->kh, w->sh, w->dh, w->pt, w->pb, pool && w->ceil);
	long long ow = out_side(in->w, w->kw, w->sw, w->dw, w->pl, w->pr, pool && w->ceil);
	if (oh < 1 || ow < 1)
		return err_set(e,
		               "a %d×%d %s%s on %d×%d maps padded by %d, %d, %d, %d (top, left, "
		               "bottom, right) has no place",
		               w->kh, w->kw, pool ? "window" : "kernel",
		               w->dh > 1 || w->dw > 1 ? " (dilated)" : "", in->h, in->w, w->pt,
		               w->pl, w->pb, w->pr);
	*h = (int)oh;
	*wd = (int)ow;
	return 0;
}

static int add_conv(Graph *g, GraphNode *n, const GraphNode *in, Err *e)
{
	if (check_win(&n->win, LAYERS_MAX_KERNEL, e))
		return -1;
	if (n->group < 1 || in->c % n->group || n->c < 1 || n->c > LIMIT_MAX_WIDTH ||
	    n->c % n->group)
		return err_set(e,
		               "%d groups of %d input and %d output channels: both counts must be "
		               "multiples of the groups",
		               n->group, in->c, n->c);
	if (win_shape(&n->win, in, 0, &n->h, &n->w, e))
		return -1;
	uint64_t rows = (uint64_t)(in->c / n->group) * (uint64_t)n->win.kh * (uint64_t)n->win.kw;
	n->nparam = (size_t)((rows + 1) * (uint64_t)n->c);
	n->rank = 4;
	return 0;
}

static int add_pool(Graph *g, GraphNode *n, const GraphNode *in, Err *e)
{
	const GraphWin *w = &n->win;
	if (check_win(w, LAYERS_MAX_SIDE, e))
		return -1;
	if (w->dh != 1 || w->dw != 1)
		return err_set(e, "dilations %d×%d: condnet pools without dilation", w->dh, w->dw);
	if (w->pt >= w->kh || w->pb >= w->kh || w->pl >= w->kw || w->pr >= w->kw)
		return err_set(
		    e,
		    "padding %d, %d, %d, %d (top, left, bottom, right) on %d×%d windows: "
		    "a window could lie all in the padding (expected less than the "
		    "window's side)",
		    w->pt, w->pl, w->pb, w->pr, w->kh, w->kw);
	n->c = in->c;
	n->rank = 4;
	return win_shape(w, in, 1, &n->h, &n->w, e);
}

/* Concat: the channels of maps of one size, or features, one after another. */
static int add_concat(Graph *g, GraphNode *n, const int *in, int nin, Err *e)
{
	long long c = 0;
	const GraphNode *a = &g->node[in[0]];
	for (int i = 0; i < nin; i++) {
		const GraphNode *b = &g->node[in[i]];
		if (b->rank != a->rank || b->h != a->h || b->w != a->w)
			return err_set(
			    e,
			    "input %d is %d×%d×%d, input 1 %d×%d×%d: a Concat of channels "
			    "needs maps of one size",
			    i + 1, b->c, b->h, b->w, a->c, a->h, a->w);
		c += b->c;
	}
	n->rank = a->rank;
	n->h = a->h;
	n->w = a->w;
	if (check_tensor(n->rank, c, n->h, n->w, "a concatenation", e))
		return -1;
	n->c = (int)c;
	return 0;
}

/* The shape of node n reading in[0..nin), by its op. */
static int shape_of(Graph *g, GraphNode *n, const int *in, int nin, Err *e)
{
	const GraphNode *a = &g->node[in[0]];
	int maps = a->rank == 4;
	switch (n->op) {
	case GRAPH_CONV:
		if (!maps)
			return err_set(e,
			               "its input is %d features, not maps (batch, channels, "
			               "height, width)",
			               a->c);
		return add_conv(g, n, a, e);
	case GRAPH_GEMM:
		if (maps)
			return err_set(e,
			               "its input is maps of %d×%d×%d; a Flatten comes between "
			               "maps and a dense layer",
			               a->c, a->h, a->w);
		if (n->c < 1 || n->c > LIMIT_MAX_WIDTH)
			return err_set(e, "%d outputs, expected 1 to %d", n->c, LIMIT_MAX_WIDTH);
		n->rank = 2;
		n->h = n->w = 1;
		n->nparam = ((size_t)a->c + 1) * (size_t)n->c;
		return 0;
	case GRAPH_MAXPOOL:
	case GRAPH_AVGPOOL:
	case GRAPH_GLOBALAVG:
		if (!maps)
			return err_set(e, "its input is %d features, not maps", a->c);
		if (n->op != GRAPH_GLOBALAVG)
			return add_pool(g, n, a, e);
		n->rank = 4;
		n->c = a->c;
		n->h = n->w = 1;
		return 0;
	case GRAPH_ADD:
		if (g->node[in[1]].rank != a->rank || g->node[in[1]].c != a->c ||
		    g->node[in[1]].h != a->h || g->node[in[1]].w != a->w)
			return err_set(e,
			               "adds %d×%d×%d to %d×%d×%d: condnet adds tensors of one "
			               "shape",
			               g->node[in[1]].c, g->node[in[1]].h, g->node[in[1]].w, a->c,
			               a->h, a->w);
		break;
	case GRAPH_CONCAT:
		return add_concat(g, n, in, nin, e);
	case GRAPH_RESHAPE:
		if (n->rank != 2 && n->rank != 4)
			return err_set(e, "a shape of %d dimensions, expected 2 or 4", n->rank);
		if (check_tensor(n->rank, n->c, n->h, n->w, "a reshape", e))
			return -1;
		if (graph_size(n) != graph_size(a))
			return err_set(e, "a reshape of %zu values into %d×%d×%d", graph_size(a),
			               n->c, n->h, n->w);
		return 0;
	case GRAPH_CLIP:
		if (!(n->lo <= n->hi))
			return err_set(e, "min %g above max %g", (double)n->lo, (double)n->hi);
		break;
	case GRAPH_LEAKY:
	case GRAPH_SCALE:
		if (!isfinite(n->a))
			return err_set(e, "a factor of %g, expected a finite number", (double)n->a);
		break;
	case GRAPH_AFFINE:
		n->nparam = 2 * (size_t)a->c;
		break;
	default:
		break;
	}
	n->rank = a->rank;
	n->c = a->c;
	n->h = a->h;
	n->w = a->w;
	return 0;
}

/* The inputs an op takes. */
static int inputs_ok(const Graph *g, GraphOp op, const int *in, int nin, Err *e)
{
	int want = op == GRAPH_ADD ? 2 : op == GRAPH_CONCAT ? -1 : 1;
	if (op <= GRAPH_INPUT || op >= GRAPH_OP_COUNT)
		return err_set(e, "operator %d is not one of a graph's", (int)op);
	if (want > 0 ? nin != want : nin < 1 || nin > GRAPH_MAX_INPUTS)
		return err_set(e, "%s of %d inputs, expected %s", graph_op_name(op), nin,
		               want == 2   ? "2"
		               : want == 1 ? "1"
		                           : "1 to 1024");
	for (int i = 0; i < nin; i++)
		if (in[i] < 0 || in[i] >= g->n)
			return err_set(e, "input %d is node %d, expected an earlier node (0..%d)",
			               i + 1, in[i], g->n - 1);
	return 0;
}

int graph_add(Graph *g, const GraphNode *proto, const int *in, int nin, Err *e)
{
	if (inputs_ok(g, proto->op, in, nin, e))
		return -1;
	if (g->n >= GRAPH_MAX_NODES)
		return err_set(e, "more than %d nodes", GRAPH_MAX_NODES);
	GraphNode n = *proto;
	n.nin = nin;
	n.in0 = g->nedge;
	n.nparam = 0;
	n.name[GRAPH_NAME - 1] = '\0';
	if (shape_of(g, &n, in, nin, e))
		return -1;
	if (check_tensor(n.rank, n.c, n.h, n.w, "its output", e))
		return -1;
	if (n.nparam > LIMIT_MAX_PARAMS || g->nparam + n.nparam > LIMIT_MAX_PARAMS)
		return err_set(e, "%zu parameters, more than condnet trains (%lu in all)",
		               g->nparam + n.nparam, (unsigned long)LIMIT_MAX_PARAMS);
	if (grow(g, nin, e))
		return -1;
	n.off = g->nparam;
	g->nparam += n.nparam;
	memcpy(g->edge + g->nedge, in, (size_t)nin * sizeof *in);
	g->nedge += nin;
	g->node[g->n] = n;
	g->id = next_id();
	return g->n++;
}

int graph_rows(const Graph *g, int k)
{
	const GraphNode *n = &g->node[k];
	const GraphNode *a = &g->node[graph_in(g, k)[0]];
	if (n->op == GRAPH_CONV)
		return a->c / n->group * n->win.kh * n->win.kw;
	return n->op == GRAPH_GEMM ? a->c : 0;
}

int graph_cols(const Graph *g, int k)
{
	const GraphNode *n = &g->node[k];
	return n->op == GRAPH_CONV || n->op == GRAPH_GEMM ? n->c : 0;
}

int graph_depthwise(const Graph *g, int k)
{
	const GraphNode *n = &g->node[k];
	return n->op == GRAPH_CONV && n->group > 1 && n->group == g->node[graph_in(g, k)[0]].c;
}

int graph_nlayers(const Graph *g)
{
	int n = 0;
	for (int k = 1; k < g->n; k++)
		n += g->node[k].op == GRAPH_CONV || g->node[k].op == GRAPH_GEMM;
	return n;
}

int graph_layer_node(const Graph *g, int l)
{
	for (int k = 1; k < g->n; k++)
		if ((g->node[k].op == GRAPH_CONV || g->node[k].op == GRAPH_GEMM) && --l == 0)
			return k;
	return -1;
}

double graph_macs(const Graph *g)
{
	double s = 0;
	for (int k = 1; k < g->n; k++) {
		const GraphNode *n = &g->node[k];
		if (n->op == GRAPH_CONV)
			s += (double)graph_rows(g, k) * n->c * n->h * n->w;
		else if (n->op == GRAPH_GEMM)
			s += (double)graph_rows(g, k) * n->c;
		else
			s += (double)graph_size(n);
	}
	return s;
}

void graph_uses(const Graph *g, int *uses)
{
	memset(uses, 0, (size_t)g->n * sizeof *uses);
	for (int k = 1; k < g->n; k++)
		for (int i = 0; i < g->node[k].nin; i++)
			uses[graph_in(g, k)[i]]++;
}

const char *graph_shape_str(const Graph *g, char *buf, size_t len)
{
	const GraphNode *in = &g->node[0], *out = &g->node[g->n - 1];
	int count[GRAPH_OP_COUNT] = {0};
	for (int k = 1; k < g->n; k++)
		count[g->node[k].op]++;
	size_t at = in->rank == 4
	                ? (size_t)snprintf(buf, len, "%dx%dx%d graph:", in->c, in->h, in->w)
	                : (size_t)snprintf(buf, len, "%d graph:", in->c);
	/* the layers first, then the rest in the order of the ops */
	static const GraphOp order[] = {GRAPH_CONV,   GRAPH_GEMM,    GRAPH_AFFINE,  GRAPH_ADD,
	                                GRAPH_CONCAT, GRAPH_MAXPOOL, GRAPH_AVGPOOL, GRAPH_GLOBALAVG,
	                                GRAPH_RELU,   GRAPH_CLIP,    GRAPH_LEAKY,   GRAPH_SIGMOID,
	                                GRAPH_TANH,   GRAPH_ERF,     GRAPH_SCALE,   GRAPH_RESHAPE};
	int first = 1;
	for (size_t i = 0; i < sizeof order / sizeof *order && at < len; i++)
		if (count[order[i]]) {
			at += (size_t)snprintf(buf + at, len - at, "%s %d %s", first ? "" : ",",
			                       count[order[i]], graph_op_name(order[i]));
			first = 0;
		}
	if (at < len)
		snprintf(buf + at, len - at, " -> %d", out->c);
	return buf;
}
