/* tui/view_graph.c - the network diagram (view 8) of a graph network: a
 * row a node in the graph's topological order, with its operator, the
 * tensor it gives, κ of a Conv or Gemm layer and the nodes it reads; the
 * inputs of an Add or Concat that skip the rows between (residual
 * shortcuts) drawn as arcs in a gutter at the left, each from the row of
 * the node it comes from; the rows that do not fit scrolled with ↑↓ and
 * PgUp/PgDn. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "engine/graph.h"
#include "tui/screen.h"
#include "tui/views_int.h"

/* The arcs' lanes at most (two columns each). */
#define ARC_LANES 4

/* A skip input: from node `from` to node `to`, in lane `lane` (-1: none
 * free, named in the row only). */
typedef struct Arc {
	int from, to, lane;
} Arc;

const char *views_fit_name(const char *name, int w, char *buf, size_t len)
{
	int n = (int)strlen(name);
	if (n <= w || w < 2)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%s%s", S(ELLIPSIS), name + n - (w - 1));
	return buf;
}

static const char *node_name(const Graph *g, int k, char *buf, size_t len)
{
	if (k == 0)
		snprintf(buf, len, "input");
	else if (g->node[k].name[0])
		snprintf(buf, len, "%s", g->node[k].name);
	else
		snprintf(buf, len, "#%d", k);
	return buf;
}

/* The operator with its window: "Conv 3×3/2", "MaxPool 2×2". */
static void op_text(const GraphNode *n, char *buf, size_t len)
{
	const GraphWin *w = &n->win;
	int win = n->op == GRAPH_CONV || n->op == GRAPH_MAXPOOL || n->op == GRAPH_AVGPOOL;
	int k = snprintf(buf, len, "%s", n->op == GRAPH_INPUT ? "Input" : graph_op_name(n->op));
	if (win && k > 0 && (size_t)k < len)
		k += snprintf(buf + k, len - (size_t)k, " %d×%d", w->kh, w->kw);
	if (win && (w->sh != 1 || w->sw != 1) && k > 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, "/%d", w->sh);
}

static void shape_text(const GraphNode *n, char *buf, size_t len)
{
	if (n->rank == 4)
		snprintf(buf, len, "%d×%d×%d", n->c, n->h, n->w);
	else
		snprintf(buf, len, "%d", n->c);
}

/* The nodes k reads: names joined by " + " (an Add) or ", ", or their
 * numbers when the names do not fit in w columns. */
static void reads_text(const Graph *g, int k, int w, char *buf, size_t len)
{
	const int *in = graph_in(g, k);
	const char *sep = g->node[k].op == GRAPH_ADD ? " + " : ", ";
	char nb[GRAPH_NAME + 8];
	for (int pass = 0; pass < 2; pass++) {
		size_t at = 0;
		buf[0] = '\0';
		for (int i = 0; i < g->node[k].nin && at < len; i++) {
			if (pass)
				snprintf(nb, sizeof nb, "#%d", in[i]);
			else
				node_name(g, in[i], nb, sizeof nb);
			at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? sep : "", nb);
		}
		if (screen_width(buf) <= w)
			return;
	}
}

/* The inputs of g that skip rows (a node reading one other than the node
 * before it: a residual shortcut, a branch) into a (at most max), each
 * given a lane that no arc overlapping it holds: how many. */
static int arcs_of(const Graph *g, Arc *a, int max)
{
	int n = 0, end[ARC_LANES];
	for (int l = 0; l < ARC_LANES; l++)
		end[l] = -1;
	for (int k = 1; k < g->n && n < max; k++) {
		const int *in = graph_in(g, k);
		for (int i = 0; i < g->node[k].nin && n < max; i++) {
			if (in[i] == k - 1)
				continue;
			a[n] = (Arc){in[i], k, -1};
			for (int l = 0; l < ARC_LANES && a[n].lane < 0; l++)
				if (end[l] < in[i])
					a[n].lane = l, end[l] = k;
			n++;
		}
	}
	return n;
}

/* The arcs in the gutter (columns 0 .. 2·ARC_LANES) of rows y0.. for the
 * nodes first.. (rows of them). */
static void draw_arcs(const Arc *a, int na, int first, int rows, int y0)
{
	for (int i = 0; i < na; i++) {
		if (a[i].lane < 0)
			continue;
		int x = 2 * (ARC_LANES - 1 - a[i].lane);
		for (int k = a[i].from; k <= a[i].to; k++) {
			if (k < first || k >= first + rows)
				continue;
			int y = y0 + k - first;
			if (k == a[i].from) {
				screen_put(y, x, 1, C_KEY, 0, "%s", screen_pick("╭", "+"));
				for (int c = x + 1; c <= 2 * ARC_LANES; c++)
					screen_put(y, c, 1, C_KEY, 0, "%s", screen_pick("─", "-"));
			} else if (k == a[i].to) {
				screen_put(y, x, 1, C_KEY, 0, "%s", screen_pick("╰", "+"));
				for (int c = x + 1; c < 2 * ARC_LANES; c++)
					screen_put(y, c, 1, C_KEY, 0, "%s", screen_pick("─", "-"));
				screen_put(y, 2 * ARC_LANES, 1, C_KEY, 1, "%s",
				           screen_pick("►", ">"));
			} else {
				screen_put(y, x, 1, C_KEY, 0, "%s", screen_pick("│", "|"));
			}
		}
	}
}

/* Node k's row at y from column x: number, name, operator, output, κ of a
 * layer, and what it reads. */
static void node_row(const Shown *p, const Graph *g, int k, int y, int x)
{
	char name[GRAPH_NAME + 8], nb[64], op[48], sh[48], kb[48] = "", rd[512];
	const GraphNode *n = &g->node[k];
	int nw = COLS >= 120 ? 30 : 14;
	op_text(n, op, sizeof op);
	shape_text(n, sh, sizeof sh);
	int over = 0;
	for (int i = 0; p->graph && p->lc && i < p->m; i++)
		if (p->lc[i].node == k) {
			views_kappa(p->lc[i].kappa, p->tau, kb, sizeof kb);
			over = cond_over(p->lc[i].kappa, p->tau);
			if (over)
				strcat(kb, " !");
		}
	views_fit_name(node_name(g, k, nb, sizeof nb), nw, name, sizeof name);
	screen_put(y, x, 0, C_DIM, 0, "%3d", k);
	screen_put(y, x + 4, nw, C_NORMAL, 0, "%s", name);
	x += 5 + nw;
	screen_put(y, x, 13, C_NORMAL, n->op == GRAPH_CONV || n->op == GRAPH_GEMM, "%s", op);
	screen_put(y, x + 14, 11, C_NORMAL, 0, "%s", sh);
	screen_put(y, x + 26, 8, over ? C_WARN : C_NORMAL, over, "%s", kb);
	x += 35;
	if (k > 0 && x < COLS - 4) {
		reads_text(g, k, COLS - x - 2, rd, sizeof rd);
		screen_put_cut(y, x, COLS - x, n->nin > 1 ? C_KEY : C_DIM, 0, "%s %s",
		               screen_pick("←", "<-"), rd);
	}
}

void view_graph(const Shown *p, UiState *u, int top, int bot)
{
	const Graph *g = p->net.graph;
	Arc arcs[256];
	int na = arcs_of(g, arcs, 256), x = 2 * ARC_LANES + 2;
	int rows = bot - 1 - (top + 2) + 1;
	if (rows < 1)
		return;
	int first = u->net_row > g->n - rows ? g->n - rows : u->net_row;
	u->net_row = first = first < 0 ? 0 : first;
	screen_put_cut(top, 0, COLS - 16, C_TITLE, 1,
	               "Graph: input + %d nodes in order, %d inputs skip rows (arcs)", g->n - 1,
	               na);
	if (g->n > rows)
		screen_put(top, COLS - 15, 15, C_KEY, 0, "%s%s %d-%d of %d", first ? "▲" : " ",
		           first + rows < g->n ? "▼" : " ", first, first + rows - 1, g->n);
	int nw = COLS >= 120 ? 30 : 14;
	screen_put(top + 1, x, 0, C_TITLE, 1, "  # %-*s %-13s %-11s %-8s reads", nw, "node", "op",
	           "output", S(KAPPA));
	draw_arcs(arcs, na, first, rows, top + 2);
	for (int k = first; k < g->n && k < first + rows; k++)
		node_row(p, g, k, top + 2 + k - first, x);
	screen_put_items(bot, 0, 0, C_DIM, 0,
	                 "↑↓ PgUp PgDn scroll   %s%s an input from a node rows above (Add: "
	                 "residual)   κ of each Conv and Gemm layer, ! over τ   #k node k   "
	                 "1: the layers' table",
	                 screen_pick("╰", "+"), screen_pick("►", ">"));
}

int view_graph_note(const Shown *p, const UiState *u, int top, int bot)
{
	static const char *const what[VIEW_COUNT] = {
	    [VIEW_ALG1] = "Algorithm 1 (s, r)",
	    [VIEW_SWEEP] = "Algorithm 2's sweep of β (b)",
	    [VIEW_PLANE] = "The Plane view",
	};
	if (!p->graph || u->view >= VIEW_COUNT || !what[u->view] || bot < top + 2)
		return 0;
	char t[160];
	snprintf(t, sizeof t, "%s is not available for graph networks yet", what[u->view]);
	screen_put_wrapped(top, top + 1, 0, COLS - 1, C_TITLE, 1, t);
	char body[512];
	snprintf(body, sizeof body, "%s",
	         "It works layer by layer through the weights of a chain, neuron by neuron. This "
	         "network has its layers' conditioning (1, and 5 for a layer's spectrum), its "
	         "diagram (8), training (t) with κ while it trains (6), the squeeze by channel "
	         "groups (z, view 4), save (w) and export (e).");
	screen_put_wrapped(top + 2, bot, 0, COLS - 1, C_NORMAL, 0, body);
	return 1;
}
