/* report_layers.c - what each layer of a network with convolutions is. */
#include "report/report_layers.h"

#include <stdio.h>

const char *report_layer_kind(const Net *net, int i, char *buf, size_t len)
{
	if (i >= net->nconv) {
		snprintf(buf, len, "dense");
		return buf;
	}
	const ConvShape *c = &net->conv[i];
	char pad[24] = "";
	if (c->pad)
		snprintf(pad, sizeof pad, " pad %d", c->pad);
	snprintf(buf, len, "conv %d@%d×%d%s%s → %d×%d×%d", c->c_out, c->k, c->k, pad,
	         c->pool ? ", pool" : "", c->c_out, c->h_out, c->w_out);
	return buf;
}

const char *report_graph_kind(const Graph *g, int k, char *buf, size_t len)
{
	const GraphNode *n = &g->node[k];
	char name[GRAPH_NAME + 4] = "";
	if (n->name[0])
		snprintf(name, sizeof name, " '%s'", n->name);
	if (n->op != GRAPH_CONV) {
		snprintf(buf, len, "dense %d→%d%s", graph_rows(g, k), n->c, name);
		return buf;
	}
	const GraphWin *w = &n->win;
	char st[32] = "", pad[48] = "", dil[32] = "", grp[24] = "";
	if (w->sh != 1 || w->sw != 1)
		snprintf(st, sizeof st, w->sh == w->sw ? "/%d" : "/%d×%d", w->sh, w->sw);
	if (w->pt || w->pl || w->pb || w->pr)
		snprintf(pad, sizeof pad,
		         w->pt == w->pl && w->pt == w->pb && w->pt == w->pr ? " pad %d"
		                                                            : " pad %d,%d,%d,%d",
		         w->pt, w->pl, w->pb, w->pr);
	if (w->dh != 1 || w->dw != 1)
		snprintf(dil, sizeof dil, " dil %d×%d", w->dh, w->dw);
	if (n->group != 1)
		snprintf(grp, sizeof grp, " g%d", n->group);
	snprintf(buf, len, "conv %d@%d×%d%s%s%s%s → %d×%d×%d%s", n->c, w->kh, w->kw, st, pad, dil,
	         grp, n->c, n->h, n->w, name);
	return buf;
}
