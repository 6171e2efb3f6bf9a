/* onnx_window.c - the window of a Conv or a pool node from its attributes:
 * kernel_shape, strides, dilations, pads (begins then ends), auto_pad
 * (NOTSET, VALID, SAME_UPPER, SAME_LOWER), ceil_mode and count_include_pad,
 * each value checked against the table of limits before it is stored. */
#include <stdio.h>
#include <string.h>

#include "engine/layers.h"
#include "model/onnx_gimp.h"

/* An INTS attribute of node k: n values into v, each lo..hi (def when
 * absent; *given says whether it was there). */
static int ints(GImp *im, int k, const char *name, size_t n, long long lo, long long hi,
                long long def, long long *v, int *given, Err *e)
{
	const Onnx__AttributeProto *a = onnx_attr(im->g->node[k], name);
	for (size_t i = 0; i < n; i++)
		v[i] = def;
	*given = a != NULL;
	if (!a)
		return 0;
	if (a->n_ints != n)
		return onnx_node_err(im->g, k, e,
		                     "attribute '%s' has %zu values, expected %zu (condnet reads "
		                     "2-D maps)",
		                     name, a->n_ints, n);
	for (size_t i = 0; i < n; i++) {
		v[i] = (long long)a->ints[i];
		if (v[i] < lo || v[i] > hi)
			return onnx_node_err(
			    im->g, k, e, "attribute '%s' value %zu is %lld, expected %lld to %lld",
			    name, i + 1, v[i], lo, hi);
	}
	return 0;
}

/* auto_pad: 0 NOTSET (or absent), 1 VALID, 2 SAME_UPPER, 3 SAME_LOWER. */
static int auto_pad(GImp *im, int k, int *mode, Err *e)
{
	static const char *const modes[] = {"NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"};
	const Onnx__AttributeProto *a = onnx_attr(im->g->node[k], "auto_pad");
	*mode = 0;
	if (!a || !a->has_s)
		return 0;
	char v[24];
	snprintf(v, sizeof v, "%.*s", (int)(a->s.len < 20 ? a->s.len : 20),
	         (const char *)a->s.data);
	for (int i = 0; i < 4; i++)
		if (a->s.len == strlen(modes[i]) && !strcmp(v, modes[i])) {
			*mode = i;
			return 0;
		}
	return onnx_node_err(im->g, k, e,
	                     "auto_pad '%s', expected NOTSET, VALID, SAME_UPPER or SAME_LOWER",
	                     onnx_name(v).s);
}

/* SAME padding of one side: the output ceil(in / s), the padding the
 * window needs for it, its odd cell after (upper) or before (lower). */
static void same(int in, int k, int s, int d, int upper, int *lo, int *hi)
{
	long long out = (in + s - 1) / s;
	long long need = (out - 1) * s + (long long)(k - 1) * d + 1 - in;
	if (need < 0)
		need = 0;
	*lo = (int)(upper ? need / 2 : need - need / 2);
	*hi = (int)(need - *lo);
}

/* An INT attribute of 0 or 1 into *v (def when absent). */
static int flag(GImp *im, int k, const char *name, int def, int *v, Err *e)
{
	long long x;
	if (onnx_attr_int(im->g, k, name, def, &x, e))
		return -1;
	if (x != 0 && x != 1)
		return onnx_node_err(im->g, k, e, "attribute '%s' is %lld, expected 0 or 1", name,
		                     x);
	*v = (int)x;
	return 0;
}

/* kernel_shape: a Conv's from its weights (checked against the
 * attribute), a pool's from the attribute. */
static int kernel(GImp *im, int k, const long long *kern, long long *ks, Err *e)
{
	int given, pool = kern == NULL;
	long long most = pool ? LAYERS_MAX_SIDE : LAYERS_MAX_KERNEL;
	if (ints(im, k, "kernel_shape", 2, 1, most, -1, ks, &given, e))
		return -1;
	if (pool && !given)
		return onnx_node_err(im->g, k, e,
		                     "no attribute 'kernel_shape' (%s needs the window's "
		                     "size)",
		                     im->g->node[k]->op_type);
	if (!pool && given && (ks[0] != kern[0] || ks[1] != kern[1]))
		return onnx_node_err(im->g, k, e,
		                     "kernel_shape (%lld, %lld), but its weights hold %lld×%lld "
		                     "kernels",
		                     ks[0], ks[1], kern[0], kern[1]);
	if (!pool)
		ks[0] = kern[0], ks[1] = kern[1];
	return 0;
}

int onnx_window(GImp *im, int k, const long long *kern, int in, GraphWin *w, Err *e)
{
	const GraphNode *a = &im->graph->node[in];
	long long ks[2], st[2], dl[2], pd[4];
	int given, pads_given, mode, pool = kern == NULL;
	memset(w, 0, sizeof *w);
	if (kernel(im, k, kern, ks, e) ||
	    ints(im, k, "strides", 2, 1, LAYERS_MAX_SIDE, 1, st, &given, e) ||
	    ints(im, k, "dilations", 2, 1, LAYERS_MAX_SIDE, 1, dl, &given, e) ||
	    ints(im, k, "pads", 4, 0, LAYERS_MAX_SIDE, 0, pd, &pads_given, e) ||
	    auto_pad(im, k, &mode, e))
		return -1;
	if (pool && (dl[0] != 1 || dl[1] != 1))
		return onnx_node_err(im->g, k, e,
		                     "dilations (%lld, %lld): condnet pools without dilation",
		                     dl[0], dl[1]);
	if (mode && pads_given && (pd[0] || pd[1] || pd[2] || pd[3]))
		return onnx_node_err(
		    im->g, k, e,
		    "auto_pad %s with pads (%lld, %lld, %lld, %lld): the padding is "
		    "given by the one or the other",
		    mode == 1   ? "VALID"
		    : mode == 2 ? "SAME_UPPER"
		                : "SAME_LOWER",
		    pd[0], pd[1], pd[2], pd[3]);
	*w = (GraphWin){(int)ks[0], (int)ks[1], (int)st[0], (int)st[1], (int)dl[0], (int)dl[1],
	                (int)pd[0], (int)pd[1], (int)pd[2], (int)pd[3], 0,          0};
	if (mode >= 2) {
		same(a->h, w->kh, w->sh, w->dh, mode == 2, &w->pt, &w->pb);
		same(a->w, w->kw, w->sw, w->dw, mode == 2, &w->pl, &w->pr);
	}
	const char *op = im->g->node[k]->op_type;
	if (pool && flag(im, k, "ceil_mode", 0, &w->ceil, e))
		return -1;
	if (!strcmp(op, "AveragePool") && flag(im, k, "count_include_pad", 0, &w->count_pad, e))
		return -1;
	return 0;
}
