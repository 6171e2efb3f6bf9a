/* model_graph.c - the model file's record of a graph network's nodes. */
#include "model/model_graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/limits.h"
#include "model/model_io_int.h"

/* The u32 fields of a node after its op (inputs, rank, …, count_pad), then
 * the floats a, lo and hi at FLOATS, two u32 0 at RESERVED, the name. */
enum { NFIELDS = 18, FLOATS = 76, RESERVED = 88 };
/* The largest value of a field (a checked size is smaller still). */
#define FIELD_MAX ((uint32_t)LIMIT_MAX_WIDTH)

uint64_t model_graph_bytes(const Graph *g)
{
	return MODEL_GRAPH_HEAD + (uint64_t)(g->n - 1) * MODEL_GRAPH_NODE_BYTES +
	       4 * (uint64_t)g->nedge;
}

static void fields(const GraphNode *n, uint32_t *f)
{
	const GraphWin *w = &n->win;
	int own = n->op == GRAPH_CONV || n->op == GRAPH_GEMM || n->op == GRAPH_RESHAPE;
	uint32_t v[NFIELDS] = {(uint32_t)n->nin,
	                       own ? (uint32_t)n->rank : 0,
	                       own ? (uint32_t)n->c : 0,
	                       n->op == GRAPH_RESHAPE ? (uint32_t)n->h : 0,
	                       n->op == GRAPH_RESHAPE ? (uint32_t)n->w : 0,
	                       (uint32_t)n->group,
	                       (uint32_t)w->kh,
	                       (uint32_t)w->kw,
	                       (uint32_t)w->sh,
	                       (uint32_t)w->sw,
	                       (uint32_t)w->dh,
	                       (uint32_t)w->dw,
	                       (uint32_t)w->pt,
	                       (uint32_t)w->pl,
	                       (uint32_t)w->pb,
	                       (uint32_t)w->pr,
	                       (uint32_t)w->ceil,
	                       (uint32_t)w->count_pad};
	memcpy(f, v, sizeof v);
}

void model_graph_put(unsigned char *p, const Graph *g)
{
	const GraphNode *in = &g->node[0];
	memset(p, 0, (size_t)model_graph_bytes(g));
	put_u32(p, (uint32_t)g->n);
	put_u32(p + 4, (uint32_t)g->nedge);
	put_u32(p + 8, (uint32_t)g->softmax);
	put_u32(p + 16, (uint32_t)in->rank);
	put_u32(p + 20, (uint32_t)in->c);
	put_u32(p + 24, (uint32_t)in->h);
	put_u32(p + 28, (uint32_t)in->w);
	unsigned char *q = p + MODEL_GRAPH_HEAD;
	for (int k = 1; k < g->n; k++, q += MODEL_GRAPH_NODE_BYTES) {
		const GraphNode *n = &g->node[k];
		uint32_t f[NFIELDS];
		fields(n, f);
		put_u32(q, (uint32_t)n->op);
		for (int i = 0; i < NFIELDS; i++)
			put_u32(q + 4 + 4 * i, f[i]);
		put_f32(q + FLOATS, n->a);
		put_f32(q + FLOATS + 4, n->lo);
		put_f32(q + FLOATS + 8, n->hi);
		memcpy(q + MODEL_GRAPH_NODE_BYTES - GRAPH_NAME, n->name,
		       strnlen(n->name, GRAPH_NAME - 1));
	}
	for (int i = 0; i < g->nedge; i++, q += 4)
		put_u32(q, (uint32_t)g->edge[i]);
}

uint64_t model_graph_size(const unsigned char *p)
{
	uint32_t n = get_u32(p), ne = get_u32(p + 4);
	if (n < 2 || n > GRAPH_MAX_NODES || ne > (uint64_t)n * GRAPH_MAX_INPUTS)
		return 0;
	return MODEL_GRAPH_HEAD + (uint64_t)(n - 1) * MODEL_GRAPH_NODE_BYTES + 4 * (uint64_t)ne;
}

/* Node k's record at q into a node to add (proto) and its inputs (from the
 * edges at *e0, which it advances); -1 when a count is out of range. */
static int read_node(const unsigned char *q, const unsigned char *edges, uint32_t ne, uint32_t *e0,
                     GraphNode *proto, int *in, uint32_t *f)
{
	memset(proto, 0, sizeof *proto);
	uint32_t op = get_u32(q);
	for (int i = 0; i < NFIELDS; i++)
		f[i] = get_u32(q + 4 + 4 * i);
	uint32_t nin = f[0];
	if (op <= GRAPH_INPUT || op >= GRAPH_OP_COUNT || nin < 1 || nin > GRAPH_MAX_INPUTS ||
	    nin > ne - *e0 || get_u32(q + RESERVED) || get_u32(q + RESERVED + 4))
		return -1;
	for (int i = 1; i < NFIELDS; i++)
		if (f[i] > FIELD_MAX)
			return -1;
	proto->op = (GraphOp)op;
	proto->rank = (int)f[1], proto->c = (int)f[2], proto->h = (int)f[3], proto->w = (int)f[4];
	proto->group = (int)f[5];
	proto->win =
	    (GraphWin){(int)f[6],  (int)f[7],  (int)f[8],  (int)f[9],  (int)f[10], (int)f[11],
	               (int)f[12], (int)f[13], (int)f[14], (int)f[15], (int)f[16], (int)f[17]};
	proto->a = get_f32(q + FLOATS);
	proto->lo = get_f32(q + FLOATS + 4);
	proto->hi = get_f32(q + FLOATS + 8);
	memcpy(proto->name, q + MODEL_GRAPH_NODE_BYTES - GRAPH_NAME, GRAPH_NAME - 1);
	proto->name[GRAPH_NAME - 1] = '\0';
	for (uint32_t i = 0; i < nin; i++)
		in[i] = (int)get_u32(edges + 4 * (size_t)(*e0 + i));
	*e0 += nin;
	return 0;
}

int model_graph_get(const unsigned char *p, Graph **out, const char *path, uint64_t off, Err *e)
{
	uint32_t n = get_u32(p), ne = get_u32(p + 4), sm = get_u32(p + 8), used = 0;
	Err ge;
	*out = NULL;
	if (!model_graph_size(p) || sm > 1 || get_u32(p + 12))
		return err_set(e, "%s: the graph at offset %llu is not valid (%u nodes, %u edges)",
		               path, (unsigned long long)off, n, ne);
	Graph *g =
	    graph_new((int)get_u32(p + 16), get_u32(p + 20), get_u32(p + 24), get_u32(p + 28), &ge);
	int *in = malloc(GRAPH_MAX_INPUTS * sizeof *in);
	const unsigned char *edges =
	    p + MODEL_GRAPH_HEAD + (size_t)(n - 1) * MODEL_GRAPH_NODE_BYTES;
	if (!g || !in) {
		free(in);
		graph_free(g);
		return err_set(e, "%s: the graph's input at offset %llu: %s", path,
		               (unsigned long long)off + 16, g ? "out of memory" : ge.msg);
	}
	for (uint32_t k = 1; k < n; k++) {
		const unsigned char *q =
		    p + MODEL_GRAPH_HEAD + (size_t)(k - 1) * MODEL_GRAPH_NODE_BYTES;
		unsigned long long at = (unsigned long long)off + (unsigned long long)(q - p);
		GraphNode proto;
		uint32_t f[NFIELDS], want[NFIELDS];
		int bad = read_node(q, edges, ne, &used, &proto, in, f), added = -1;
		if (!bad && (added = graph_add(g, &proto, in, (int)f[0], &ge)) >= 0) {
			fields(&g->node[k], want);
			bad = memcmp(f, want, sizeof f) != 0;
		}
		if (bad || added < 0) {
			free(in);
			graph_free(g);
			if (!bad)
				return err_set(e, "%s: graph node %u at offset %llu: %s", path, k,
				               at, ge.msg);
			return err_set(e, "%s: graph node %u at offset %llu is not valid", path, k,
			               at);
		}
	}
	free(in);
	if (used != ne) {
		graph_free(g);
		return err_set(e, "%s: the graph at offset %llu lists %u edges, its nodes read %u",
		               path, (unsigned long long)off, ne, used);
	}
	g->softmax = (int)sm;
	*out = g;
	return 0;
}
