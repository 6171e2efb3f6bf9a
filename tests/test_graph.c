/* test_graph.c - graph networks (engine/graph.h): the shapes graph_add works
 * out and the sizes it refuses; the backward pass of every operator against
 * central differences of the loss (each between two layers with
 * parameters, so that its input gradient is checked through the first);
 * the gradient of a batch in parts against one part; training that gives
 * the same bits on one thread or two; evaluation in blocks against the
 * training workspace's forward pass; the conditioning of every Conv and Gemm
 * node. */
#include <math.h>
#include <string.h>

#include "base/rng.h"
#include "engine/cond.h"
#include "engine/graph.h"
#include "engine/graph_pass.h"
#include "engine/net.h"
#include "engine/train.h"
#include "engine/train_pass.h"
#include "graph_build.h"
#include "testutil.h"

/* ---- building graphs ---- */

/* Flatten and a Gemm to 3 classes after node k. */
static void head(Graph *g, int k)
{
	const GraphNode *n = &g->node[k];
	int f = k;
	if (n->rank == 4)
		f = gb_add(
		    g,
		    (GraphNode){
		        .op = GRAPH_RESHAPE, .rank = 2, .c = (int)graph_size(n), .h = 1, .w = 1},
		    k, -1);
	gb_add(g, (GraphNode){.op = GRAPH_GEMM, .c = 3}, f, -1);
}

/* ---- the cases of the gradient check: one operator each, between layers ---- */

enum { ROWS = 5 };

static Graph *case_graph(int which, const char **name)
{
	Err e;
	int side = which >= 21 ? 16 : 7; /* 16×16: a sample's products alone */
	Graph *g = graph_new(4, 4, side, side, &e);
	ck_assert_msg(g != NULL, "%s", e.msg);
	int a = gb_add(g, gb_conv(4, 3, 1, 1, 1), 0, -1), t;
	GraphNode p;
	switch (which) {
	case 0:
		*name = "conv stride 2";
		t = gb_add(g, gb_conv(3, 3, 2, 1, 1), a, -1);
		break;
	case 1:
		*name = "conv dilation 2";
		p = gb_conv(3, 3, 1, 2, 1);
		p.win.dh = p.win.dw = 2;
		t = gb_add(g, p, a, -1);
		break;
	case 2:
		*name = "conv groups 2";
		t = gb_add(g, gb_conv(6, 3, 1, 1, 2), a, -1);
		break;
	case 3:
		*name = "depthwise conv, 2 outputs a channel, stride 2";
		t = gb_add(g, gb_conv(8, 3, 2, 1, 4), a, -1);
		break;
	case 4:
		*name = "conv 2x3 kernel, asymmetric pads";
		p = gb_conv(3, 2, 1, 0, 1);
		p.win = (GraphWin){2, 3, 1, 2, 1, 1, 0, 1, 2, 1, 0, 0};
		t = gb_add(g, p, a, -1);
		break;
	case 5:
		*name = "maxpool 3x3 stride 2 pad 1";
		p = gb_op(GRAPH_MAXPOOL);
		p.win = (GraphWin){3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0};
		t = gb_add(g, p, a, -1);
		break;
	case 6:
		*name = "maxpool ceil_mode";
		p = gb_op(GRAPH_MAXPOOL);
		p.win = (GraphWin){2, 2, 2, 2, 1, 1, 0, 0, 0, 0, 1, 0};
		t = gb_add(g, p, a, -1);
		break;
	case 7:
		*name = "avgpool pad 1 count_include_pad";
		p = gb_op(GRAPH_AVGPOOL);
		p.win = (GraphWin){3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1};
		t = gb_add(g, p, a, -1);
		break;
	case 8:
		*name = "avgpool pad 1";
		p = gb_op(GRAPH_AVGPOOL);
		p.win = (GraphWin){3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0};
		t = gb_add(g, p, a, -1);
		break;
	case 9:
		*name = "global average pool";
		t = gb_add(g, gb_op(GRAPH_GLOBALAVG), a, -1);
		break;
	case 10:
		*name = "relu";
		t = gb_add(g, gb_op(GRAPH_RELU), a, -1);
		break;
	case 11:
		*name = "clip";
		p = gb_op(GRAPH_CLIP);
		p.lo = -0.3f;
		p.hi = 0.4f;
		t = gb_add(g, p, a, -1);
		break;
	case 12:
		*name = "leaky relu";
		p = gb_op(GRAPH_LEAKY);
		p.a = 0.1f;
		t = gb_add(g, p, a, -1);
		break;
	case 13:
		*name = "sigmoid";
		t = gb_add(g, gb_op(GRAPH_SIGMOID), a, -1);
		break;
	case 14:
		*name = "tanh";
		t = gb_add(g, gb_op(GRAPH_TANH), a, -1);
		break;
	case 15:
		*name = "erf";
		t = gb_add(g, gb_op(GRAPH_ERF), a, -1);
		break;
	case 16:
		*name = "mul by a constant";
		p = gb_op(GRAPH_SCALE);
		p.a = 1.7f;
		t = gb_add(g, p, a, -1);
		break;
	case 17:
		*name = "affine";
		t = gb_add(g, gb_op(GRAPH_AFFINE), a, -1);
		break;
	case 18:
		*name = "residual add";
		t = gb_add(
		    g, gb_op(GRAPH_ADD),
		    gb_add(g, gb_conv(4, 3, 1, 1, 1), gb_add(g, gb_op(GRAPH_TANH), a, -1), -1), a);
		break;
	case 19:
		*name = "concat";
		t = gb_add(g, (GraphNode){.op = GRAPH_CONCAT}, a,
		           gb_add(g, gb_conv(2, 1, 1, 0, 1), a, -1));
		break;
	case 20:
		*name = "reshape of features into maps";
		t = gb_add(g, (GraphNode){.op = GRAPH_RESHAPE, .rank = 2, .c = 196, .h = 1, .w = 1},
		           a, -1);
		t = gb_add(g, (GraphNode){.op = GRAPH_GEMM, .c = 32}, t, -1);
		t = gb_add(g, (GraphNode){.op = GRAPH_RESHAPE, .rank = 4, .c = 2, .h = 4, .w = 4},
		           t, -1);
		break;
	case 21:
		*name = "conv on 16x16 maps, sample by sample";
		t = gb_add(g, gb_conv(4, 3, 1, 1, 2), a, -1);
		break;
	case 22:
		*name = "1x1 conv on 16x16 maps, without columns";
		t = gb_add(g, gb_conv(6, 1, 1, 0, 2), a, -1);
		break;
	case 23:
		*name = "depthwise conv on 16x16 maps";
		t = gb_add(g, gb_conv(4, 5, 1, 2, 4), a, -1);
		break;
	case 24: /* 16×16 maps to 2×2, then a 1×1 output: 4 offsets meet the map */
		*name = "conv 3x3 stride 2 on 2x2 maps, 4 offsets of 9";
		t = gb_add(g, gb_conv(3, 3, 2, 1, 1), gb_add(g, gb_conv(4, 3, 8, 1, 1), a, -1), -1);
		break;
	default: /* 8 of the kernel's 9 offsets meet only padding */
		*name = "conv 3x3 on 1x1 maps, its centre alone";
		t = gb_add(g, gb_conv(3, 3, 1, 1, 1), gb_add(g, gb_op(GRAPH_GLOBALAVG), a, -1), -1);
	}
	/* a layer with parameters after the operator, then the head */
	head(g, gb_add(g, gb_conv(2, 3, 1, 1, 1), t, -1));
	return g;
}
enum { NCASES = 26 };

static double loss_of(const Net *net, const Dataset *d)
{
	double err, loss;
	Err e;
	ck_assert_msg(!net_error_threads(net, d, 1, &err, &loss, &e), "%s", e.msg);
	return loss;
}

/* ---- a direct forward pass in double, from the operators' definitions ---- */

/* Node k's output for one sample from its inputs' (v[i]), parameters p. */
static void ref_node(const Graph *g, int k, const double *p, double **v)
{
	const GraphNode *n = &g->node[k];
	const int *in = graph_in(g, k);
	const GraphNode *a = &g->node[in[0]];
	const double *x = v[in[0]];
	double *y = v[k];
	size_t sz = graph_size(n);
	const GraphWin *w = &n->win;
	switch (n->op) {
	case GRAPH_CONV: {
		int cig = a->c / n->group, cog = n->c / n->group, rows = graph_rows(g, k);
		const double *W = p + n->off, *b = W + (size_t)rows * n->c;
		for (int o = 0; o < n->c; o++)
			for (int oy = 0; oy < n->h; oy++)
				for (int ox = 0; ox < n->w; ox++) {
					double s = b[o];
					for (int c = 0; c < cig; c++)
						for (int ky = 0; ky < w->kh; ky++)
							for (int kx = 0; kx < w->kw; kx++) {
								int iy =
								    oy * w->sh - w->pt + ky * w->dh;
								int ix =
								    ox * w->sw - w->pl + kx * w->dw;
								if (iy < 0 || ix < 0 ||
								    iy >= a->h || ix >= a->w)
									continue;
								int ci = o / cog * cig + c;
								s += W[((size_t)(c * w->kh + ky) *
								            w->kw +
								        kx) *
								           n->c +
								       o] *
								     x[((size_t)ci * a->h + iy) *
								           a->w +
								       ix];
							}
					y[((size_t)o * n->h + oy) * n->w + ox] = s;
				}
		return;
	}
	case GRAPH_GEMM:
		for (int o = 0; o < n->c; o++) {
			double s = p[n->off + (size_t)a->c * n->c + o];
			for (int i = 0; i < a->c; i++)
				s += x[i] * p[n->off + (size_t)i * n->c + o];
			y[o] = s;
		}
		return;
	case GRAPH_MAXPOOL:
	case GRAPH_AVGPOOL:
		for (int c = 0; c < n->c; c++)
			for (int oy = 0; oy < n->h; oy++)
				for (int ox = 0; ox < n->w; ox++) {
					int ys = oy * w->sh - w->pt, xs = ox * w->sw - w->pl;
					double best = -INFINITY, sum = 0, cells = 0;
					for (int iy = ys; iy < ys + w->kh; iy++)
						for (int ix = xs; ix < xs + w->kw; ix++) {
							if (iy < 0 || ix < 0 || iy >= a->h ||
							    ix >= a->w) {
								/* padding (not past it) counts when
								 * count_pad */
								cells += w->count_pad &&
								         iy < a->h + w->pb &&
								         ix < a->w + w->pr;
								continue;
							}
							double t =
							    x[((size_t)c * a->h + iy) * a->w + ix];
							best = t > best ? t : best;
							sum += t;
							cells++;
						}
					y[((size_t)c * n->h + oy) * n->w + ox] =
					    n->op == GRAPH_MAXPOOL ? best : sum / cells;
				}
		return;
	case GRAPH_GLOBALAVG:
		for (int c = 0; c < n->c; c++) {
			double s = 0;
			for (int i = 0; i < a->h * a->w; i++)
				s += x[(size_t)c * a->h * a->w + i];
			y[c] = s / (a->h * a->w);
		}
		return;
	case GRAPH_ADD:
		for (size_t i = 0; i < sz; i++)
			y[i] = x[i] + v[in[1]][i];
		return;
	case GRAPH_CONCAT: {
		size_t at = 0;
		for (int j = 0; j < n->nin; j++) {
			size_t s = graph_size(&g->node[in[j]]);
			memcpy(y + at, v[in[j]], s * sizeof *y);
			at += s;
		}
		return;
	}
	case GRAPH_AFFINE:
		for (size_t i = 0; i < sz; i++) {
			size_t c = i / ((size_t)n->h * n->w);
			y[i] = p[n->off + c] * x[i] + p[n->off + n->c + c];
		}
		return;
	default:
		for (size_t i = 0; i < sz; i++) {
			double t = x[i];
			y[i] = n->op == GRAPH_RELU      ? (t > 0 ? t : 0)
			       : n->op == GRAPH_CLIP    ? (t < n->lo   ? n->lo
			                                   : t > n->hi ? n->hi
			                                               : t)
			       : n->op == GRAPH_LEAKY   ? (t >= 0 ? t : n->a * t)
			       : n->op == GRAPH_SIGMOID ? 1 / (1 + exp(-t))
			       : n->op == GRAPH_TANH    ? tanh(t)
			       : n->op == GRAPH_ERF     ? erf(t)
			       : n->op == GRAPH_SCALE   ? n->a * t
			                                : t;
		}
	}
}

/* The mean cross-entropy of rows d under the parameters p, in double. */
static double ref_loss(const Graph *g, const double *p, const Dataset *d)
{
	double **v = calloc((size_t)g->n, sizeof *v), loss = 0;
	for (int k = 0; k < g->n; k++)
		v[k] = malloc(graph_size(&g->node[k]) * sizeof **v);
	for (int r = 0; r < d->n; r++) {
		for (int i = 0; i < d->d; i++)
			v[0][i] = d->x[(size_t)r * d->d + i];
		for (int k = 1; k < g->n; k++)
			ref_node(g, k, p, v);
		const double *z = v[g->n - 1];
		int K = g->node[g->n - 1].c;
		double mx = z[0], s = 0;
		for (int j = 1; j < K; j++)
			mx = z[j] > mx ? z[j] : mx;
		for (int j = 0; j < K; j++)
			s += exp(z[j] - mx);
		loss += log(s) - (z[d->y[r]] - mx);
	}
	for (int k = 0; k < g->n; k++)
		free(v[k]);
	free(v);
	return loss / d->n;
}

START_TEST(test_gradient_check)
{
	const char *name;
	Net *net = gb_random_net(case_graph(_i, &name), 53 + _i);
	Dataset *d = gb_random_rows(ROWS, net->n[0], 7);
	float *grad = malloc(net->nparam * sizeof *grad);
	double loss;
	Err e;
	ck_assert_msg(!train_gradient(net, d->x, d->y, ROWS, grad, &loss, &e), "%s", e.msg);
	/* the training pass's loss is evaluation's */
	ck_assert_msg(fabs(loss - loss_of(net, d)) < 1e-5, "%s: loss %g, evaluation %g", name, loss,
	              loss_of(net, d));
	/* against central differences of the loss in double, over every
	 * parameter and over the first layer's alone (its gradient comes
	 * through the operator's backward pass); the double pass computes the
	 * float pass's loss */
	double *p = malloc(net->nparam * sizeof *p);
	for (size_t i = 0; i < net->nparam; i++)
		p[i] = net->param[i];
	double exact = ref_loss(net->graph, p, d);
	ck_assert_msg(fabs(exact - loss) < 1e-5, "%s: loss %g, in double %g", name, loss, exact);
	double num[2] = {0, 0}, den[2] = {0, 0};
	size_t first = net->graph->node[1].nparam;
	size_t fc = net->graph->node[net->graph->n - 1].off; /* the dense head: a sample of it */
	for (size_t i = 0; i < net->nparam; i += i < fc ? 1 : 7) {
		double w = p[i], h = 1e-6;
		p[i] = w + h;
		double up = ref_loss(net->graph, p, d);
		p[i] = w - h;
		double fd = (up - ref_loss(net->graph, p, d)) / (2 * h);
		p[i] = w;
		for (int k = 0; k < 2; k++)
			if (k == 0 || i < first) {
				num[k] += (grad[i] - fd) * (grad[i] - fd);
				den[k] += fd * fd;
			}
	}
	double rel = sqrt(num[0] / den[0]), rel1 = sqrt(num[1] / den[1]);
	printf("%-46s relative error %.2g, of the first layer %.2g\n", name, rel, rel1);
	ck_assert_msg(rel < 1e-4 && rel1 < 1e-4,
	              "%s: gradient differs from the finite differences by %.3g (the first "
	              "layer's by %.3g)",
	              name, rel, rel1);
	free(p);
	free(grad);
	dataset_free(d);
	net_free(net);
}
END_TEST

/* A batch in 3 parts (rows shared out, the gradients added in part order)
 * gives the one part's gradient but for rounding. */
START_TEST(test_parts)
{
	const char *name;
	Net *net = gb_random_net(case_graph(18, &name), 5);
	Dataset *d = gb_random_rows(7, net->n[0], 9);
	float *g1 = malloc(net->nparam * sizeof *g1), *g3 = malloc(net->nparam * sizeof *g3);
	Err e;
	long c1 = 0, c3 = 0;
	int f1, f3;
	Work *w1 = work_new(net, 7, 1, &e), *w3 = work_new(net, 7, 3, &e);
	ck_assert_ptr_nonnull(w1);
	ck_assert_ptr_nonnull(w3);
	double l1 = pass_batch(w1, NULL, net, d->x, d->y, 7, g1, &c1, &f1);
	double l3 = pass_batch(w3, NULL, net, d->x, d->y, 7, g3, &c3, &f3);
	ck_assert(f1 && f3);
	ck_assert_int_eq(c1, c3);
	ck_assert_msg(fabs(l1 - l3) < 1e-6, "loss %g in one part, %g in three", l1, l3);
	for (size_t i = 0; i < net->nparam; i++)
		ck_assert_msg(fabs(g1[i] - g3[i]) <= 1e-5 * (1 + fabs(g1[i])),
		              "parameter %zu: %g in one part, %g in three", i, g1[i], g3[i]);
	work_free(w1);
	work_free(w3);
	free(g1);
	free(g3);
	dataset_free(d);
	net_free(net);
}
END_TEST

/* Two threads or one compute the same parts: the same bits. */
START_TEST(test_threads_same_bits)
{
	const char *name;
	Net *a = gb_random_net(case_graph(19, &name), 11), *b;
	Err e;
	ck_assert_ptr_nonnull(b = net_clone(a, &e));
	Dataset *d = gb_random_rows(40, a->n[0], 3);
	TrainOpts o;
	train_opts_default(&o);
	o.batch = 8;
	o.threads = 2;
	ck_assert_msg(!train_epochs(a, d, &o, 2, NULL, NULL, &e), "%s", e.msg);
	o.workers = 1;
	ck_assert_msg(!train_epochs(b, d, &o, 2, NULL, NULL, &e), "%s", e.msg);
	ck_assert_int_eq(a->adam_t, b->adam_t);
	ck_assert(!memcmp(a->param, b->param, a->nparam * sizeof *a->param));
	ck_assert(!memcmp(a->adam_v, b->adam_v, a->nparam * sizeof *a->adam_v));
	dataset_free(d);
	net_free(a);
	net_free(b);
}
END_TEST

/* Training lowers the loss; the answers in blocks of evaluation are the
 * softmax of graph_logits. */
START_TEST(test_learns_and_evaluates)
{
	const char *name;
	Net *net = gb_random_net(case_graph(3, &name), 2);
	Dataset *d = gb_random_rows(60, net->n[0], 5);
	TrainOpts o;
	train_opts_default(&o);
	o.batch = 10;
	o.adam.lr = 0.01;
	Err e;
	double before = loss_of(net, d);
	ck_assert_msg(!train_epochs(net, d, &o, 20, NULL, NULL, &e), "%s", e.msg);
	double after = loss_of(net, d);
	ck_assert_msg(after < 0.5 * before, "loss %g before, %g after 20 epochs", before, after);
	float *z = malloc(60 * 3 * sizeof *z), *p = malloc(60 * 3 * sizeof *p);
	int cls[60];
	ck_assert(!graph_logits(net->graph, net->param, d->x, 60, z, &e));
	ck_assert(!net_classify(net, d->x, NULL, 60, cls, p, NULL, NULL, NULL, NULL, &e));
	for (int r = 0; r < 60; r++) {
		const float *zr = z + 3 * r;
		double mx = fmax(zr[0], fmax(zr[1], zr[2])), s = 0;
		for (int j = 0; j < 3; j++)
			s += exp(zr[j] - mx);
		for (int j = 0; j < 3; j++)
			ck_assert(fabs(p[3 * r + j] - exp(zr[j] - mx) / s) < 1e-6);
		ck_assert_int_eq(cls[r], net_answer(zr, 3));
	}
	free(z);
	free(p);
	dataset_free(d);
	net_free(net);
}
END_TEST

/* ---- shapes and sizes ---- */

START_TEST(test_shapes)
{
	Err e;
	Graph *g = graph_new(4, 3, 32, 32, &e);
	GraphNode p = gb_conv(64, 7, 2, 3, 1);
	int c = gb_add(g, p, 0, -1);
	ck_assert_int_eq(g->node[c].h, 16);
	ck_assert_int_eq(g->node[c].nparam, (3 * 49 + 1) * 64);
	p = gb_op(GRAPH_MAXPOOL);
	p.win = (GraphWin){3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0};
	int m = gb_add(g, p, c, -1);
	ck_assert_int_eq(g->node[m].h, 8);
	p.win = (GraphWin){2, 2, 3, 3, 1, 1, 0, 0, 0, 0, 1, 0}; /* ceil: (8 - 2)/3 + 1 rounded up */
	ck_assert_int_eq(g->node[gb_add(g, p, m, -1)].w, 3);
	p = gb_conv(64, 3, 1, 1, 64); /* depthwise: 3·3 + 1 rows */
	int d = gb_add(g, p, m, -1);
	ck_assert_int_eq(graph_rows(g, d), 9);
	ck_assert_int_eq(graph_nlayers(g), 2);
	ck_assert_int_eq(graph_layer_node(g, 2), d);
	/* what does not fit */
	int in[2] = {d, 0};
	ck_assert_int_eq(graph_add(g, &(GraphNode){.op = GRAPH_ADD}, in, 2, &e), -1);
	ck_assert_str_eq(e.msg, "adds 3×32×32 to 64×8×8: condnet adds tensors of one shape");
	p = gb_conv(5, 9, 1, 0, 1);
	ck_assert_int_eq(graph_add(g, &p, &d, 1, &e), -1);
	ck_assert_str_eq(e.msg, "a 9×9 kernel on 8×8 maps padded by 0, 0, 0, 0 (top, left, bottom, "
	                        "right) has no place");
	p = gb_conv(6, 3, 1, 0, 4);
	ck_assert_int_eq(graph_add(g, &p, &d, 1, &e), -1);
	ck_assert_str_eq(e.msg, "4 groups of 64 input and 6 output channels: both counts must be "
	                        "multiples of the groups");
	p = gb_op(GRAPH_AVGPOOL);
	p.win = (GraphWin){2, 2, 2, 2, 1, 1, 2, 0, 0, 0, 0, 0};
	ck_assert_int_eq(graph_add(g, &p, &d, 1, &e), -1);
	ck_assert_str_eq(e.msg, "padding 2, 0, 0, 0 (top, left, bottom, right) on 2×2 windows: a "
	                        "window could lie all in the padding (expected less than the "
	                        "window's side)");
	p = (GraphNode){.op = GRAPH_RESHAPE, .rank = 2, .c = 4095, .h = 1, .w = 1};
	ck_assert_int_eq(graph_add(g, &p, &d, 1, &e), -1);
	ck_assert_str_eq(e.msg, "a reshape of 4096 values into 4095×1×1");
	graph_free(g);
	/* every size before its product */
	ck_assert_ptr_null(graph_new(4, (1LL << 62) + 1, 4, 1, &e));
	ck_assert_str_eq(e.msg, "maps of 4611686018427387905 channels × 4 × 1, more than condnet "
	                        "reads (at most 10000000 channels, sides of 65536)");
	ck_assert_ptr_null(graph_new(4, 10000, 10000, 10, &e));
	ck_assert_str_eq(e.msg, "maps of 10000×10000×10 = 1000000000 values, more than condnet "
	                        "reads (at most 10000000)");
	/* a network ends in features */
	g = graph_new(4, 1, 4, 4, &e);
	gb_add(g, gb_conv(2, 3, 1, 1, 1), 0, -1);
	ck_assert_ptr_null(net_new_graph(g, &e));
	ck_assert_str_eq(e.msg,
	                 "the graph ends in maps of 2×4×4, not in (batch, classes): a Flatten "
	                 "or a dense layer comes last");
}
END_TEST

/* κ of every Conv and Gemm node: Ŵ = [W; bᵀ] as the graph holds it. */
START_TEST(test_cond)
{
	const char *name;
	Net *net = gb_random_net(case_graph(3, &name), 4);
	ck_assert_int_eq(cond_layers(net), 4); /* conv, depthwise conv, conv, gemm */
	LayerCond *lc;
	Err e;
	ck_assert_msg(!cond_net_new(net, 25, 1, &lc, &e), "%s", e.msg);
	ck_assert_int_eq(lc[1].node, graph_layer_node(net->graph, 2));
	ck_assert_int_eq(lc[1].rows, 3 * 3 + 1); /* a depthwise kernel and its bias */
	ck_assert_int_eq(lc[1].cols, 8);
	ck_assert(lc[1].conv && !lc[3].conv);
	int rows, cols;
	double *A = cond_stacked(net, 4, NULL, 0, &rows, &cols, &e);
	const GraphNode *gm = &net->graph->node[graph_layer_node(net->graph, 4)];
	ck_assert_int_eq(rows, graph_rows(net->graph, graph_layer_node(net->graph, 4)) + 1);
	ck_assert(A[(size_t)(rows - 1) * cols + 2] ==
	          net->param[gm->off + (size_t)(rows - 1) * 3 + 2]);
	free(A);
	cond_net_free(lc, cond_layers(net));
	net_free(net);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("graph");
	TCase *t = tcase_create("graph");
	tcase_set_timeout(t, 120);
	tcase_add_loop_test(t, test_gradient_check, 0, NCASES);
	tcase_add_test(t, test_parts);
	tcase_add_test(t, test_threads_same_bits);
	tcase_add_test(t, test_learns_and_evaluates);
	tcase_add_test(t, test_shapes);
	tcase_add_test(t, test_cond);
	suite_add_tcase(s, t);
	return tu_run(s);
}
