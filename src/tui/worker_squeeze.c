/* tui/worker_squeeze.c - the screen's squeeze pass: the session holds
 * Algorithm 3's pass and its proposals (a chain's layers, or a graph
 * network's channel groups); the worker measures what the one shown would
 * do (the what-if accuracies), publishes it, and sends the person's
 * decision back as a squeeze action, or all the rest at once. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alg/alg3_compare.h"
#include "alg/alg3_squeeze.h"
#include "tui/worker.h"
#include "tui/worker_int.h"

void worker_sqz_finish(Worker *w, const char *how)
{
	session_squeeze_stop(w->s);
	double acc;
	session_test_acc(w->s, &acc, NULL);
	pthread_mutex_lock(&w->mu);
	ShownSqueeze *q = &w->shown.sq;
	int was = q->active;
	q->active = q->waiting = 0;
	if (was)
		q->acc_end = acc;
	pthread_mutex_unlock(&w->mu);
	const char *units = w->s->net && w->s->net->graph   ? "channel(s)"
	                    : w->s->net && w->s->net->nconv ? "channel(s) and neuron(s)"
	                                                    : "neuron(s)";
	if (was)
		worker_narrate(w,
		               "squeeze %s: %d %s removed in this pass, test accuracy %.2f %% → "
		               "%.2f %%; t retrains",
		               how, w->shown.sq.removed, units, w->shown.sq.acc_start, acc);
	if (was && w->s->net && w->s->net->graph) /* whole on 80 columns */
		worker_status(w, 0,
		              "squeeze %s: %d channel(s) removed, test acc %.2f%% → %.2f%%; t "
		              "retrains",
		              how, w->shown.sq.removed, w->shown.sq.acc_start, acc);
	else if (was)
		worker_status(
		    w, 0, "squeeze %s: %d %s removed, test accuracy %.2f%% → %.2f%% (t retrains)",
		    how, w->shown.sq.removed, units, w->shown.sq.acc_start, acc);
}

/* The proposal sp on the screen (perm and rd, its pivot order from 1 and
 * its |r_jj|, handed over), its what-if accuracies to be measured. */
static ShownSqueeze *publish_proposal(Worker *w, const Alg3Proposal *sp, int *perm, double *rd)
{
	pthread_mutex_lock(&w->mu);
	ShownSqueeze *q = &w->shown.sq;
	free(q->perm);
	free(q->rdiag);
	q->perm = perm;
	q->rdiag = rd;
	q->layer = sp->layer;
	q->group = 0;
	q->n_before = sp->n_before;
	q->nkeep = sp->nkeep;
	q->p_qr = sp->p_qr;
	q->nrdiag = sp->nrdiag;
	q->kappa_before = sp->kappa_before;
	q->kappa_after = sp->kappa_after;
	q->acc_now = w->shown.test_acc;
	q->acc_after = q->acc_comp = q->agree_after = q->agree_comp = NAN;
	for (int c = 0; c < 3; c++)
		q->cmp[c] = q->cmp_comp[c] = NAN;
	q->cmp_sd = q->cmp_sd_comp = NAN;
	q->draws = SQZ_PREVIEW_DRAWS;
	q->waiting = 1;
	q->seq++;
	q->measuring = 1; /* a decision pressed meanwhile waits for it (keys.c) */
	snprintf(w->shown.activity, sizeof w->shown.activity,
	         "squeeze: measuring layer %d's choice against the simple rules", sp->layer);
	pthread_mutex_unlock(&w->mu);
	return q;
}

/* "1 stem, 3 b0_conv2": group d's producer layers, as the layer table
 * names them, into buf. */
static void producers(const Session *s, const GroupDecision *d, char *buf, size_t len)
{
	const ChannelGroup *c = &session_groups(s)->g[d->group - 1];
	const Graph *g = s->net->graph;
	size_t n = 0;
	buf[0] = '\0';
	for (int p = 0; p < c->nlayer && n < len; p++) {
		const GraphNode *nd = &g->node[graph_layer_node(g, c->layer[p])];
		int k = nd->name[0]
		            ? snprintf(buf + n, len - n, "%s%d %s", p ? ", " : "", c->layer[p],
		                       nd->name)
		            : snprintf(buf + n, len - n, "%s%d", p ? ", " : "", c->layer[p]);
		n += k > 0 ? (size_t)k : 0;
	}
}

/* A graph network's group proposed on the screen, then its what-if: the
 * test accuracy with it applied, without and with compensation. */
static void group_show(Worker *w, const GroupDecision *d)
{
	pthread_mutex_lock(&w->mu);
	ShownSqueeze *q = &w->shown.sq;
	free(q->perm);
	free(q->rdiag);
	q->perm = NULL;
	q->rdiag = NULL;
	q->layer = q->p_qr = q->nrdiag = 0;
	q->group = d->group;
	producers(w->s, d, q->producers, sizeof q->producers);
	q->n_before = d->units;
	q->nkeep = d->kept;
	q->kappa_before = d->kappa;
	q->kappa_after = NAN;
	q->acc_now = w->shown.test_acc;
	q->acc_after = q->acc_comp = q->agree_after = q->agree_comp = NAN;
	q->waiting = 1;
	q->seq++;
	q->measuring = 1;
	snprintf(w->shown.activity, sizeof w->shown.activity,
	         "squeeze: measuring group %d's proposal on the test set", d->group);
	pthread_mutex_unlock(&w->mu);
	Err e = {{0}};
	double acc[2] = {NAN, NAN};
	hook_set_thread_stop(worker_stop_any, w);
	int rc = 0;
	for (int comp = 0; comp < 2 && rc == 0; comp++)
		rc = session_group_whatif(w->s, comp, &acc[comp], &e);
	hook_set_thread_stop(worker_stop_quit, w);
	pthread_mutex_lock(&w->mu);
	q->measuring = 0;
	if (q->waiting && q->group == d->group) {
		q->acc_after = acc[0];
		q->acc_comp = acc[1];
	}
	pthread_mutex_unlock(&w->mu);
	if (rc > 0)
		worker_status(w, 0,
		              "squeeze preview stopped: its what-if accuracies are not measured");
	else if (rc < 0)
		worker_status(w, 1, "squeeze preview: %s", e.msg);
}

/* Publishes the proposal the session holds, with its preview, or ends the
 * pass when there is none. */
void worker_sqz_show(Worker *w)
{
	Session *s = w->s;
	const Alg3Proposal *sp = session_squeeze_proposal(s);
	const GroupDecision *gp = session_group_proposal(s);
	if (gp) {
		group_show(w, gp);
		return;
	}
	if (!sp) {
		worker_sqz_finish(w, "finished");
		return;
	}
	Err e = {{0}};
	int *perm = malloc((size_t)sp->n_before * sizeof *perm);
	double *rd = malloc((size_t)(sp->nrdiag > 0 ? sp->nrdiag : 1) * sizeof *rd);
	if (!perm || !rd) {
		free(perm);
		free(rd);
		worker_sqz_finish(w, "stopped (out of memory)");
		return;
	}
	for (int j = 0; j < sp->n_before; j++)
		perm[j] = sp->perm[j] + 1; /* neurons are numbered from 1, as layers are */
	memcpy(rd, sp->rdiag, (size_t)sp->nrdiag * sizeof *rd);
	ShownSqueeze *q = publish_proposal(w, sp, perm, rd);
	worker_diagram_publish(w); /* its marks and combinations in the diagram */
	/* The proposal is on the screen; what it would do follows: the QR
	 * choice, the norm rule and random orders keeping as many, each also
	 * compensated, on the whole test set. */
	Alg3LayerCompare lc;
	/* Esc or the screen's end stops it between two evaluations */
	hook_set_thread_stop(worker_stop_any, w);
	int rc = alg3_compare_layer(s->net, sp, s->test, s->train, SQZ_PREVIEW_DRAWS, s->seed, 1, 0,
	                            &lc, &e);
	hook_set_thread_stop(worker_stop_quit, w);
	pthread_mutex_lock(&w->mu);
	q->measuring = 0;
	pthread_mutex_unlock(&w->mu);
	if (rc != 0) {
		if (rc > 0)
			worker_status(w, 0,
			              "squeeze preview stopped: its what-if accuracies are not "
			              "measured");
		else
			worker_status(w, 1, "squeeze preview: %s", e.msg);
		return;
	}
	pthread_mutex_lock(&w->mu);
	if (q->waiting && q->layer == sp->layer) {
		q->acc_after = lc.acc[ALG3_QR];
		q->acc_comp = lc.acc_comp[ALG3_QR];
		q->agree_after = lc.agree;
		q->agree_comp = lc.agree_comp;
		for (int c = 0; c < 3; c++) {
			q->cmp[c] = lc.acc[c];
			q->cmp_comp[c] = lc.acc_comp[c];
		}
		q->cmp_sd = lc.sd;
		q->cmp_sd_comp = lc.sd_comp;
	}
	pthread_mutex_unlock(&w->mu);
	worker_plane_preview(w, sp); /* on plane data: the same as regions */
}

void worker_sqz_begin(Worker *w)
{
	worker_sqz_begin_at(w, 0);
}

void worker_sqz_begin_at(Worker *w, int layer)
{
	Err e = {{0}};
	pthread_mutex_lock(&w->mu);
	int going = w->shown.sq.active; /* a pass under way goes on to layer */
	if (!going) {
		w->shown.sq.active = 1;
		w->shown.sq.ndone = w->shown.sq.ndec = w->shown.sq.removed = 0;
		w->shown.sq.undone = 0;
		w->shown.sq.acc_start = w->shown.test_acc;
		w->shown.sq.acc_end = w->shown.sq.acc_retrained = NAN;
	}
	pthread_mutex_unlock(&w->mu);
	const Alg3Proposal *sp = session_squeeze_proposal(w->s);
	if (going && sp && sp->layer == layer) {
		worker_sqz_show(w); /* made with the last decision */
		return;
	}
	/* the first proposal stops at Esc too */
	hook_set_thread_stop(worker_stop_any, w);
	int rc =
	    layer > 0 ? session_squeeze_propose(w->s, layer, &e) : session_squeeze_start(w->s, &e);
	hook_set_thread_stop(worker_stop_quit, w);
	worker_meter_done(w);
	if (rc < 0) { /* refused: the message stays, nothing was squeezed */
		session_squeeze_stop(w->s);
		pthread_mutex_lock(&w->mu);
		w->shown.sq.active = w->shown.sq.waiting = 0;
		pthread_mutex_unlock(&w->mu);
		worker_status(w, 1, "squeeze: %s", e.msg);
		return;
	}
	if (rc > 0) { /* Esc is no failure */
		worker_sqz_finish(w, "stopped");
		return;
	}
	worker_sqz_show(w);
}

static void sqz_note(Worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Keeps a decision as numbers, for the export's table: the test accuracy
 * of the network it left. */
static void sqz_record(Worker *w, const Alg3Proposal *sp, int applied, int comp)
{
	double acc = NAN;
	session_test_acc(w->s, &acc, NULL);
	pthread_mutex_lock(&w->mu);
	ShownSqueeze *q = &w->shown.sq;
	if (q->ndec < SQZ_DEC_MAX)
		q->dec[q->ndec++] =
		    (SqueezeDecisionRow){sp->layer,
		                         sp->n_before,
		                         applied ? sp->nkeep : sp->n_before,
		                         applied,
		                         applied && comp,
		                         w->s->tau,
		                         sp->kappa_before,
		                         applied ? sp->kappa_after : sp->kappa_before,
		                         acc};
	pthread_mutex_unlock(&w->mu);
}

void worker_sqz_decided(Worker *w, const HookStep *st)
{
	const Alg3Proposal *sp = &st->alg3->prop;
	if (!w->shown.sq.active)
		return;
	const char *units = net_unit_name(w->s->net, sp->layer, 1);
	if (st->applied) {
		sqz_note(w, "layer %d: %d → %d %s, κ %.4g → %.4g%s", sp->layer, sp->n_before,
		         sp->nkeep, units, sp->kappa_before, sp->kappa_after,
		         w->last_comp ? ", compensated" : "");
		pthread_mutex_lock(&w->mu);
		w->shown.sq.removed += sp->n_before - sp->nkeep;
		pthread_mutex_unlock(&w->mu);
	} else {
		sqz_note(w, "layer %d: refused (κ %.4g, %d %s kept)", sp->layer, sp->kappa_before,
		         sp->n_before, units);
	}
	sqz_record(w, sp, st->applied, w->last_comp);
}

static void sqz_note(Worker *w, const char *fmt, ...)
{
	va_list ap;
	pthread_mutex_lock(&w->mu);
	ShownSqueeze *q = &w->shown.sq;
	if (q->ndone == 16) {
		memmove(q->done, q->done + 1, sizeof q->done - sizeof q->done[0]);
		q->ndone--;
	}
	va_start(ap, fmt);
	vsnprintf(q->done[q->ndone++], sizeof q->done[0], fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&w->mu);
}

int worker_sqz_decide(Worker *w, int apply, int comp)
{
	return worker_sqz_decide_as(w, apply, comp, 1);
}

/* Applies or refuses the group proposed on a graph network, as
 * worker_sqz_decide_as. */
static int group_decide(Worker *w, const GroupDecision *gp, int apply, int comp, int show)
{
	GroupDecision d = *gp;
	Err e = {{0}};
	SessAction a = {.kind = SESS_SQUEEZE,
	                .squeeze = {.group = d.group,
	                            .apply = apply,
	                            .comp = comp >= 0 ? comp : w->shown.sq.comp}};
	w->last_comp = a.squeeze.comp;
	/* the next proposal, made with the decision, stops at Esc too */
	hook_set_thread_stop(worker_stop_any, w);
	int rc = session_apply(w->s, &a, &w->hooks, &e);
	hook_set_thread_stop(worker_stop_quit, w);
	worker_meter_done(w);
	if (rc < 0) {
		worker_status(w, 1, "squeeze group %d: %s", d.group, e.msg);
		return -1;
	}
	worker_narrate(w,
	               "squeeze: group %d %s, %d of its %d channels kept (κ of its stack %.4g)%s",
	               d.group, apply ? "applied" : "refused", apply ? d.kept : d.units, d.units,
	               d.kappa, apply && a.squeeze.comp ? ", its readers refitted" : "");
	if (apply) {
		sqz_note(w, "group %d: %d → %d channels, κ %.4g%s", d.group, d.units, d.kept,
		         d.kappa, a.squeeze.comp ? ", compensated" : "");
		pthread_mutex_lock(&w->mu);
		w->shown.sq.removed += d.units - d.kept;
		pthread_mutex_unlock(&w->mu);
	} else {
		sqz_note(w, "group %d: refused (κ %.4g, %d channels kept)", d.group, d.kappa,
		         d.units);
	}
	worker_publish(w);
	if (!session_group_proposal(w->s) && worker_stop_any(w))
		worker_sqz_finish(w, "stopped");
	else if (show)
		worker_sqz_show(w);
	return 0;
}

/* Applies or refuses the waiting proposal; returns 0, or -1 on error. */
int worker_sqz_decide_as(Worker *w, int apply, int comp, int show)
{
	const GroupDecision *gp = session_group_proposal(w->s);
	if (gp)
		return group_decide(w, gp, apply, comp, show);
	const Alg3Proposal *sp = session_squeeze_proposal(w->s);
	if (!sp)
		return -1;
	Err e = {{0}};
	SessAction a = {.kind = SESS_SQUEEZE,
	                .squeeze = {.layer = sp->layer,
	                            .apply = apply,
	                            .comp = comp >= 0 ? comp : w->shown.sq.comp}};
	int layer = sp->layer;
	w->last_comp = a.squeeze.comp; /* the decision's note says it (worker_sqz_decided) */
	/* on plane data the view shows the layer as it was, its removals marked */
	Net *before = apply && w->shown.pl.on ? net_clone(w->s->net, NULL) : NULL;
	int n_before = w->s->net->n[layer];
	/* the next proposal, made with the decision, stops at Esc too */
	hook_set_thread_stop(worker_stop_any, w);
	int rc = session_apply(w->s, &a, &w->hooks, &e);
	hook_set_thread_stop(worker_stop_quit, w);
	worker_meter_done(w);
	if (rc < 0) {
		net_free(before);
		worker_status(w, 1, "squeeze layer %d: %s", layer, e.msg);
		return -1;
	}
	if (before && w->s->net->n[layer] < n_before)
		worker_plane_squeezed(w, before, layer); /* worker_publish shows it */
	else
		net_free(before);
	worker_publish(w);
	if (!session_squeeze_proposal(w->s) && (rc > 0 || worker_stop_any(w)))
		worker_sqz_finish(w, "stopped"); /* Esc while the next layer was measured */
	else if (show)
		worker_sqz_show(w);
	return 0;
}

int worker_sqz_answers(Worker *w, int seq)
{
	pthread_mutex_lock(&w->mu);
	const ShownSqueeze *q = &w->shown.sq;
	int same = !seq || (q->waiting && q->seq == seq);
	int layer = q->group ? q->group : q->layer;
	const char *of = q->group ? "group" : "layer";
	pthread_mutex_unlock(&w->mu);
	if (!same)
		worker_status(w, 1,
		              "the decision pressed for %s %d's proposal was not applied: that "
		              "proposal is no longer shown",
		              of, layer);
	return same;
}

void worker_sqz_all(Worker *w)
{
	const GroupDecision *gp;
	if (session_group_proposal(w->s)) { /* a graph network's groups, each noted */
		while ((gp = session_group_proposal(w->s)) && !worker_stop_any(w))
			if (group_decide(w, gp, 1, -1, 0) < 0)
				break;
		worker_sqz_show(w);
		return;
	}
	Err e = {{0}};
	w->last_comp = w->shown.sq.comp;
	int rc = session_squeeze_apply_all(w->s, w->last_comp, &w->hooks, &e);
	if (rc < 0)
		worker_status(w, 1, "squeeze: %s", e.msg);
	worker_publish(w);
	worker_sqz_show(w);
}
