/* tui/keys_network.c - the keys of the network diagram (view 8): the
 * arrows choose a layer and a neuron; d (or Delete) removes the neuron
 * chosen and i (or Insert) adds one to its layer, D removes its layer and
 * I adds one after it, f asks for the inputs of data in the plane; each a
 * logged, undoable action of the session (session.h: neuron, layer,
 * inputs), the new weights drawn from a seed made of the session's and the
 * network's. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "base/rng.h"
#include "data/plane_inputs.h"
#include "tui/tui_int.h"

/* What the keys need of the published state. */
typedef struct Net8 {
	int m, n[2], on_plane, inputs, busy;
	uint64_t seed;
	int graph;
} Net8;

static Net8 look(Tui *t)
{
	const Shown *p = worker_lock(t->w);
	const ShownNet *d = &p->net;
	int l = t->u.net_col;
	Net8 s = {d->m,
	          {0, 0},
	          p->pl.on,
	          (int)d->inputs,
	          p->busy || p->queued,
	          rng_derive(p->seed, p->crc),
	          d->graph != NULL};
	if (d->n && l >= 0 && l <= d->m)
		s.n[0] = d->n[l];
	worker_unlock(t->w);
	s.n[1] = l;
	return s;
}

/* A graph network's diagram: the keys scroll its rows (the drawing clamps
 * them); the edits are refused. */
static void graph_key(Tui *t, int ch)
{
	UiState *u = &t->u;
	int page = 10;
	if (ch == KEY_UP || ch == 'k' || ch == KEY_PPAGE)
		u->net_row -= ch == KEY_PPAGE ? page : 1;
	else if (ch == KEY_DOWN || ch == 'j' || ch == KEY_NPAGE)
		u->net_row += ch == KEY_NPAGE ? page : 1;
	else if (ch == KEY_HOME)
		u->net_row = 0;
	else if (ch == KEY_END)
		u->net_row = 1 << 20;
	else if (ch == 'f')
		tui_refuse_graph(t, "the plane's inputs");
	else if (ch != KEY_LEFT && ch != KEY_RIGHT && ch != 'h' && ch != 'l')
		tui_refuse_graph(t, "editing by hand");
	if (u->net_row < 0)
		u->net_row = 0;
}

void tui_network_key(Tui *t, int ch)
{
	UiState *u = &t->u;
	Net8 s = look(t);
	if (s.graph) {
		graph_key(t, ch);
		return;
	}
	if (ch == KEY_PPAGE || ch == KEY_NPAGE)
		return;
	int l = u->net_col, hidden = l >= 1 && l < s.m;
	if (ch == KEY_LEFT || ch == 'h')
		u->net_col = l > 0 ? l - 1 : 0;
	else if (ch == KEY_RIGHT || ch == 'l')
		u->net_col = l < s.m ? l + 1 : s.m;
	else if (ch == KEY_UP || ch == 'k')
		u->net_row = u->net_row > 0 ? u->net_row - 1 : 0;
	else if (ch == KEY_DOWN || ch == 'j')
		u->net_row++; /* the drawing clamps it */
	else if (ch == KEY_HOME)
		u->net_row = 0;
	else if (ch == KEY_END)
		u->net_row = 1 << 20;
	if (ch == KEY_LEFT || ch == KEY_RIGHT || ch == 'h' || ch == 'l')
		return;
	SessAction a;
	if ((ch == 'd' || ch == KEY_DC || ch == 'i' || ch == KEY_IC || ch == 'D') && !hidden) {
		worker_status(t->w, 1, "%s",
		              l == 0 ? "the inputs are the data's (f switches x², y², xy, "
		                       "sin x and sin y on data in the plane)"
		                     : "the outputs are the classes, one each");
		return;
	}
	if (ch == 'd' || ch == KEY_DC) {
		if (s.n[0] < 2) {
			worker_status(t->w, 1, "layer %d has one neuron: D removes the layer", l);
			return;
		}
		a = (SessAction){.kind = SESS_NEURON,
		                 .neuron = {.layer = l, .neuron = u->net_row + 1}};
		tui_submit_action(t, &a);
	} else if (ch == 'i' || ch == KEY_IC) {
		a = (SessAction){.kind = SESS_NEURON,
		                 .neuron = {.add = 1, .layer = l, .seed = s.seed}};
		tui_submit_action(t, &a);
		u->net_row = s.n[0]; /* the new one */
	} else if (ch == 'D') {
		a = (SessAction){.kind = SESS_LAYER, .layer = {.layer = l}};
		tui_submit_action(t, &a);
		u->net_row = 0;
	} else if (ch == 'I') {
		if (l >= s.m) {
			worker_status(t->w, 1,
			              "a layer goes before the classes: choose the layer to "
			              "add one after");
			return;
		}
		a = (SessAction){.kind = SESS_LAYER, .layer = {.add = 1, .after = l}};
		tui_submit_action(t, &a);
		u->net_col = l + 1;
		u->net_row = 0;
	} else if (ch == 'f') {
		char def[64];
		if (!s.on_plane) {
			worker_status(t->w, 1,
			              "x², y², xy, sin x and sin y are inputs of data in the "
			              "plane (--data spiral, circles, xor, gauss, moons)");
			return;
		}
		tui_ask(t, P_INPUTS, "inputs beyond x and y (x2,y2,xy,sinx,siny or none):",
		        plane_inputs_format((unsigned)s.inputs, def, sizeof def));
	}
}

void tui_answer_inputs(Tui *t, const char *v)
{
	unsigned mask;
	Err e = {{0}};
	if (plane_inputs_parse(v, &mask, &e) < 0) {
		worker_status(t->w, 1, "%s", e.msg);
		return;
	}
	Net8 s = look(t);
	SessAction a = {.kind = SESS_INPUTS, .inputs = {.seed = s.seed}};
	plane_inputs_format(mask, a.inputs.names, sizeof a.inputs.names);
	tui_submit_action(t, &a);
}
