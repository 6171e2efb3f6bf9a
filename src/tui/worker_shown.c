/* tui/worker_shown.c - what the worker publishes for the panels after a
 * job: the layer table, the Algorithm-1 history, the sweep with its
 * spreads, the settings and the τ and η ahead; the conditioning under way
 * (the engine's meter). */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "engine/graph_groups.h"
#include "report/report_format.h"
#include "report/report_layers.h"
#include "session/session_setting.h"
#include "tui/worker.h"
#include "tui/worker_int.h"
#include "tui/worker_plane.h"

void worker_shown_free(Shown *p)
{
	cond_net_free(p->lc, p->m);
	free(p->n);
	free(p->bias0);
	free(p->kind);
	free(p->lname);
	alg1_records_free(p->rec, p->nrec);
	free(p->beta);
	free(p->sq.perm);
	free(p->sq.rdiag);
	free(p->ks.epoch);
	free(p->ks.kappa);
	free(p->ep.acc);
	free(p->ep.val_acc);
	free(p->ep.lr);
	free(p->ep.loss);
	free(p->narr);
	plane_shown_free(&p->pl);
	worker_diagram_free(&p->net);
	channels_shown_free(&p->ch);
	sess_files_free(&p->files);
	memset(p, 0, sizeof *p);
}

/* A graph layer's shape: C_out×C_in/g×kh×kw and the stride or groups of a
 * Conv, inputs→outputs of a Gemm. */
static void graph_kind(const Graph *g, int k, char *buf, size_t len)
{
	const GraphNode *n = &g->node[k];
	const GraphWin *w = &n->win;
	char st[32] = "", grp[24] = "";
	if (n->op != GRAPH_CONV) {
		snprintf(buf, len, "Gemm %d→%d", graph_rows(g, k), n->c);
		return;
	}
	if (w->sh != 1 || w->sw != 1)
		snprintf(st, sizeof st, w->sh == w->sw ? " /%d" : " /%d×%d", w->sh, w->sw);
	if (n->group != 1)
		snprintf(grp, sizeof grp, " g%d", n->group);
	snprintf(buf, len, "Conv %d×%d×%d×%d%s%s", n->c, graph_rows(g, k) / (w->kh * w->kw), w->kh,
	         w->kw, st, grp);
}

/* A graph network's table (m layers): n the outputs of each, kind its
 * shape, name its node's; what the header says it is into what. */
static void graph_table(const Net *net, const LayerCond *lc, int m, int *n, char (*kind)[48],
                        char (*name)[GRAPH_NAME], char *what, size_t len)
{
	const Graph *g = net->graph;
	/* each layer's channel group (cond's group column); left out when the
	 * groups cannot be worked out (a graph of too many channels) */
	ChannelGroups *gg = graph_groups(g, NULL);
	n[0] = net->n[0];
	for (int i = 0; i < m; i++) {
		n[i + 1] = lc[i].cols;
		graph_kind(g, lc[i].node, kind[i], sizeof kind[i]);
		if (gg && i < gg->nlayers) {
			size_t at = strlen(kind[i]);
			snprintf(kind[i] + at, sizeof kind[i] - at, " G%d", gg->of_layer[i] + 1);
		}
		if (g->node[lc[i].node].name[0])
			snprintf(name[i], sizeof name[i], "%s", g->node[lc[i].node].name);
		else
			snprintf(name[i], sizeof name[i], "node %d", lc[i].node);
	}
	graph_groups_free(gg);
	char pb[32];
	snprintf(what, len, "graph: %d Conv/Gemm layer%s, %s params", m, m == 1 ? "" : "s",
	         report_thousands((double)net->nparam, pb, sizeof pb));
}

/* Publishes lc (computed for net; taken over) as the layer table. */
void worker_shown_lc(Worker *w, const Net *net, LayerCond *lc, int live)
{
	int m = cond_layers(net);
	int *n = malloc((size_t)(m + 1) * sizeof *n), *b0 = malloc((size_t)m * sizeof *b0);
	int named = net->nconv || net->graph;
	char(*kind)[48] = named ? malloc((size_t)m * sizeof *kind) : NULL;
	char(*name)[GRAPH_NAME] = net->graph ? malloc((size_t)m * sizeof *name) : NULL;
	if (!n || !b0 || (named && !kind) || (net->graph && !name)) {
		cond_net_free(lc, m);
		free(n);
		free(b0);
		free(kind);
		free(name);
		worker_status(w, 1, "conditioning: out of memory");
		return;
	}
	char what[256] = "";
	if (net->graph) {
		graph_table(net, lc, m, n, kind, name, what, sizeof what);
		memset(b0, 0, (size_t)m * sizeof *b0);
	} else {
		memcpy(n, net->n, (size_t)(m + 1) * sizeof *n);
	}
	for (int i = 0; !net->graph && i < m; i++) {
		b0[i] = 1;
		for (int j = 0; j < net_cols(net, i) && b0[i]; j++)
			b0[i] = net->b[i][j] == 0;
		if (kind)
			report_layer_kind(net, i, kind[i], sizeof kind[i]);
	}
	pthread_mutex_lock(&w->mu);
	cond_net_free(w->shown.lc, w->shown.m);
	free(w->shown.n);
	free(w->shown.bias0);
	free(w->shown.kind);
	free(w->shown.lname);
	w->shown.kind = kind;
	w->shown.lname = name;
	w->shown.graph = net->graph != NULL;
	snprintf(w->shown.conv_shape, sizeof w->shown.conv_shape, "%s", what);
	if (kind && !net->graph)
		net_shape_str(net, w->shown.conv_shape, sizeof w->shown.conv_shape);
	w->shown.lc = lc;
	w->shown.n = n;
	w->shown.bias0 = b0;
	w->shown.m = m;
	w->shown.nparam = net->nparam;
	w->shown.live = live;
	pthread_mutex_unlock(&w->mu);
}

void worker_meter(const char *what, double frac, void *ud)
{
	Worker *w = ud;
	pthread_mutex_lock(&w->mu);
	snprintf(w->shown.work, sizeof w->shown.work, "%s", what);
	w->shown.work_frac = frac;
	w->shown.have_work = 1;
	pthread_mutex_unlock(&w->mu);
}

void worker_meter_done(Worker *w)
{
	pthread_mutex_lock(&w->mu);
	w->shown.have_work = 0;
	pthread_mutex_unlock(&w->mu);
}

void worker_shown_cond(Worker *w, const Net *net, int live)
{
	Err e = {{0}};
	LayerCond *lc;
	int rc = cond_net_new(net, w->s->tau, !live, &lc, &e);
	worker_meter_done(w);
	if (rc != 0) {
		/* a stop (the screen ending, or Esc while it trains) is no failure */
		if (!worker_stop_any(w))
			worker_status(w, 1, "conditioning: %s", e.msg[0] ? e.msg : "out of memory");
		return;
	}
	worker_shown_lc(w, net, lc, live);
}

/* The sweep's table; the spreads of β already shown are kept. */
void worker_shown_sweep_locked(Worker *w, const Alg2 *a)
{
	Shown *p = &w->shown;
	ReportBeta *b = a->nb ? calloc((size_t)a->nb, sizeof *b) : NULL;
	if (a->nb && !b)
		return;
	for (int i = 0; i < a->nb; i++) {
		b[i] = (ReportBeta){.beta = a->b[i].beta,
		                    .err_tr = a->b[i].err_tr,
		                    .err_v = a->b[i].err_v,
		                    .score = a->b[i].score,
		                    .smin = NAN,
		                    .smax = NAN,
		                    .done = a->b[i].done};
		for (int k = 0; k < p->nbeta; k++)
			if (p->beta[k].beta == b[i].beta) {
				b[i].smin = p->beta[k].smin;
				b[i].smax = p->beta[k].smax;
			}
	}
	free(p->beta);
	p->beta = b;
	p->nbeta = a->nb;
	p->q = a->o.q;
	p->sweep_eta = a->o.eta;
	p->pick = alg2_pick(a);
	p->pick_shape[0] = '\0';
	for (int i = 0, k = 0; p->pick >= 0 && i <= a->base->m; i++) {
		int n = snprintf(p->pick_shape + k, sizeof p->pick_shape - (size_t)k,
		                 i ? "-%d" : "%d", a->b[p->pick].widths[i]);
		if (n < 0 || (size_t)(k + n) >= sizeof p->pick_shape)
			break;
		k += n;
	}
}

void worker_shown_alg1_locked(Worker *w, const Alg1 *a, int live)
{
	Alg1Record *r = alg1_records_copy(a->rec, a->nrec, NULL);
	if (a->nrec && !r)
		return;
	alg1_records_free(w->shown.rec, w->shown.nrec);
	w->shown.rec = r;
	w->shown.nrec = a->nrec;
	w->shown.alg1_status = (int)a->status;
	w->shown.alg1_live = live;
	snprintf(w->shown.alg1_reason, sizeof w->shown.alg1_reason, "%s", a->reason);
}

/* Everything but the layer table, with the test accuracy acc. */
static void publish_rest(Worker *w, double acc)
{
	Session *s = w->s;
	uint32_t crc = s->net ? session_param_crc(s->net) : 0;
	pthread_mutex_lock(&w->mu);
	Shown *p = &w->shown;
	p->tau = s->tau;
	for (int i = 0; i < session_nsettings; i++)
		if (session_settings[i].type == SET_NUMBER)
			p->set[i] = session_setting_get(s, i);
	worker_ahead_locked(w);
	p->lr = s->topt.adam.lr;
	p->sched = s->topt.sched;
	p->seed = s->seed;
	p->test_acc = acc;
	p->crc = crc;
	p->dirty = s->dirty;
	p->nundo = session_can_undo(s);
	p->gen++; /* what was said about the state before is history */
	if (s->alg1) {
		worker_shown_alg1_locked(w, s->alg1, s->alg1_live);
	} else {
		alg1_records_free(p->rec, p->nrec);
		p->rec = NULL;
		p->nrec = 0;
	}
	if (s->sweep) {
		worker_shown_sweep_locked(w, s->sweep);
		p->sweep_state = s->sweep_done ? 2 : 3;
	} else {
		p->nbeta = 0;
		p->sweep_state = 0;
	}
	pthread_mutex_unlock(&w->mu);
	worker_plane_publish(w);
	worker_diagram_publish(w);
	worker_channels_publish(w);
}

void worker_publish(Worker *w)
{
	Session *s = w->s;
	if (worker_quitting(w))
		return;
	if (s->net)
		worker_shown_cond(w, s->net, 0);
	double acc; /* NaN when it cannot be measured (a stop) */
	session_test_acc(s, &acc, NULL);
	publish_rest(w, acc);
}

void worker_publish_settings(Worker *w)
{
	publish_rest(w, NAN);
}

void worker_ahead_locked(Worker *w)
{
	Shown *p = &w->shown;
	memcpy(p->set_next, p->set, sizeof p->set);
	for (int k = -1; k < w->qn; k++) {
		const Job *j = k < 0 ? (p->busy ? &w->cur : NULL) : &w->q[(w->qh + k) % QMAX];
		const SessSetting *t =
		    j && j->kind == JOB_ACTION ? session_setting_of(&j->a) : NULL;
		if (t && t->type == SET_NUMBER)
			p->set_next[j->a.set.id] = j->a.set.value;
	}
}
