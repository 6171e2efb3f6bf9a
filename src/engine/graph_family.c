/* graph_family.c - the residual families of --layers (graph_family.h). */
#include "engine/graph_family.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/limits.h"

/* The most stages of a specification, and blocks of one stage. */
#define FAMILY_MAX_STAGES 16
#define FAMILY_MAX_BLOCKS 64

typedef struct Stage {
	int width, blocks;
} Stage;

typedef struct Builder {
	Graph *g;
	ActKind act;
	float act_a;
	Err *e;
} Builder;

static const char *const prefixes[] = {"resnet:", "residual:"};

int graph_family_spec(const char *spec)
{
	for (size_t i = 0; spec && i < sizeof prefixes / sizeof *prefixes; i++)
		if (!strncmp(spec, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

/* A whole number at s[*at] in 1..hi into *v, *at past it. */
static int number(const char *spec, size_t *at, int hi, const char *what, int *v, Err *e)
{
	const char *s = spec + *at;
	if (!isdigit((unsigned char)*s))
		return err_set(e, "layers \"%s\": expected %s at column %zu", spec, what, *at + 1);
	long n = 0;
	while (isdigit((unsigned char)*s) && n <= hi)
		n = n * 10 + (*s++ - '0');
	if (n < 1 || n > hi)
		return err_set(e, "layers \"%s\": %s at column %zu is out of range (1..%d)", spec,
		               what, *at + 1, hi);
	*v = (int)n;
	*at = (size_t)(s - spec);
	return 0;
}

/* The stages after the prefix: W[xB] items, comma-separated. */
static int parse_stages(const char *spec, size_t at, Stage *st, int *n, Err *e)
{
	int width_hi = (int)limit_of(LIM_WIDTH)->hi;
	*n = 0;
	for (;;) {
		if (*n == FAMILY_MAX_STAGES)
			return err_set(e, "layers \"%s\": more than %d stages", spec,
			               FAMILY_MAX_STAGES);
		Stage *s = &st[(*n)++];
		s->blocks = 1;
		if (number(spec, &at, width_hi, "a width", &s->width, e))
			return -1;
		if (spec[at] == 'x') {
			at++;
			if (number(spec, &at, FAMILY_MAX_BLOCKS, "a count of blocks", &s->blocks,
			           e))
				return -1;
		}
		if (!spec[at])
			return 0;
		if (spec[at] != ',')
			return err_set(e, "layers \"%s\": expected ',' or 'x' at column %zu", spec,
			               at + 1);
		at++;
	}
}

/* The stages of spec, a family's specification: 0, or -1. */
static int parse(const char *spec, Stage *st, int *n, Err *e)
{
	for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
		if (!strncmp(spec, prefixes[i], strlen(prefixes[i])))
			return parse_stages(spec, strlen(prefixes[i]), st, n, e);
	return err_set(e, "layers \"%s\": expected resnet: or residual:", spec);
}

int graph_family_check(const char *spec, Err *e)
{
	Stage st[FAMILY_MAX_STAGES];
	int n;
	return parse(spec, st, &n, e);
}

/* proto named name reading a (and b unless negative): its index, or -1. */
static int add(Builder *bd, GraphNode p, const char *name, int a, int b)
{
	int in[2] = {a, b};
	snprintf(p.name, sizeof p.name, "%s", name);
	return graph_add(bd->g, &p, in, b < 0 ? 1 : 2, bd->e);
}

/* The activation after node k (erf(a·x) as a Scale, then Erf). */
static int activation(Builder *bd, int k, const char *name)
{
	static const GraphOp ops[ACT_COUNT] = {
	    [ACT_ERF] = GRAPH_ERF,
	    [ACT_TANH] = GRAPH_TANH,
	    [ACT_RELU] = GRAPH_RELU,
	    [ACT_SIGMOID] = GRAPH_SIGMOID,
	};
	char buf[GRAPH_NAME];
	if (k >= 0 && bd->act == ACT_ERF && bd->act_a != 1.0f) {
		snprintf(buf, sizeof buf, "%.30s.scale", name);
		k = add(bd, (GraphNode){.op = GRAPH_SCALE, .a = bd->act_a}, buf, k, -1);
	}
	snprintf(buf, sizeof buf, "%.30s.act", name);
	return k < 0 ? -1 : add(bd, (GraphNode){.op = ops[bd->act]}, buf, k, -1);
}

static GraphNode conv(int c, int k, int stride)
{
	int pad = k / 2;
	return (GraphNode){.op = GRAPH_CONV,
	                   .c = c,
	                   .group = 1,
	                   .win = {k, k, stride, stride, 1, 1, pad, pad, pad, pad, 0, 0}};
}

static GraphNode dense(int c)
{
	return (GraphNode){.op = GRAPH_GEMM, .c = c};
}

/* One block of width c and stride s on node x: its last node, or -1. */
static int block(Builder *bd, int x, int c, int s, int images, const char *name)
{
	char n1[GRAPH_NAME], n2[GRAPH_NAME], np[GRAPH_NAME];
	snprintf(n1, sizeof n1, "%.30s.%s1", name, images ? "conv" : "fc");
	snprintf(n2, sizeof n2, "%.30s.%s2", name, images ? "conv" : "fc");
	snprintf(np, sizeof np, "%.30s.proj", name);
	int a = add(bd, images ? conv(c, 3, s) : dense(c), n1, x, -1);
	a = a < 0 ? -1 : activation(bd, a, n1);
	a = a < 0 ? -1 : add(bd, images ? conv(c, 3, 1) : dense(c), n2, a, -1);
	int skip = x;
	if (a >= 0 && (s != 1 || bd->g->node[x].c != c))
		skip = add(bd, images ? conv(c, 1, s) : dense(c), np, x, -1);
	if (a < 0 || skip < 0)
		return -1;
	a = add(bd, (GraphNode){.op = GRAPH_ADD}, name, a, skip);
	return a < 0 ? -1 : activation(bd, a, name);
}

/* The stem, the stages and the head after the input node 0: 0, or -1. */
static int body(Builder *bd, const Stage *st, int ns, int images, int classes)
{
	int x = add(bd, images ? conv(st[0].width, 3, 1) : dense(st[0].width), "stem", 0, -1);
	x = x < 0 ? -1 : activation(bd, x, "stem");
	for (int i = 0; x >= 0 && i < ns; i++)
		for (int b = 0; x >= 0 && b < st[i].blocks; b++) {
			char name[GRAPH_NAME];
			snprintf(name, sizeof name, "s%db%d", i + 1, b + 1);
			x = block(bd, x, st[i].width, images && i > 0 && b == 0 ? 2 : 1, images,
			          name);
		}
	if (x >= 0 && images) {
		x = add(bd, (GraphNode){.op = GRAPH_GLOBALAVG}, "pool", x, -1);
		GraphNode flat = {.op = GRAPH_RESHAPE, .rank = 2, .h = 1, .w = 1};
		flat.c = x < 0 ? 0 : bd->g->node[x].c;
		x = x < 0 ? -1 : add(bd, flat, "flatten", x, -1);
	}
	return x < 0 ? -1 : add(bd, dense(classes), "fc", x, -1) < 0 ? -1 : 0;
}

Graph *graph_family(const char *spec, int d, int c, int h, int w, int classes, ActKind act,
                    float act_a, Err *e)
{
	int resnet = !strncmp(spec, prefixes[0], strlen(prefixes[0]));
	Stage st[FAMILY_MAX_STAGES];
	int ns;
	if (parse(spec, st, &ns, e))
		return NULL;
	if (resnet && c < 1) {
		err_set(
		    e,
		    "layers \"%s\": a ResNet reads images, and the data are %d features without "
		    "an image's shape (MNIST or Fashion with --inputs pixels, or a CSV with "
		    "--shape)",
		    spec, d);
		return NULL;
	}
	Builder bd = {resnet ? graph_new(4, c, h, w, e) : graph_new(2, d, 1, 1, e), act, act_a, e};
	if (bd.g && body(&bd, st, ns, resnet, classes) == 0)
		return bd.g;
	if (bd.g)
		err_prefix(e, "layers \"%s\"", spec);
	graph_free(bd.g);
	return NULL;
}
