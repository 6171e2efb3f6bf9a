/* tui/worker_action.c - a session action run on the worker: the squeeze
 * pass it ends, the Plane view it updates, what it publishes, and what it
 * says when it is done, in the paper's terms. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "alg/alg3_hand.h"
#include "data/plane_inputs.h"
#include "session/session_setting.h"
#include "tui/status.h"
#include "tui/worker.h"
#include "tui/worker_int.h"

/* The layers with κ > τ, as "2, 3" (or "none"), and how many. */
static int layers_over(const Shown *p, char *buf, size_t len)
{
	int over = 0;
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; p->lc && i < p->m && k + 8 < len; i++)
		if (cond_over(p->lc[i].kappa, p->tau))
			k += (size_t)snprintf(buf + k, len - k, "%s%d", over++ ? ", " : "", i + 1);
	if (!over)
		snprintf(buf, len, "none");
	return over;
}

/* What a train action did: the epochs run of the cap and, with a
 * validation split, the epoch kept (the run's first words say it, so that
 * they fit a narrow screen). */
static void narrate_train(Worker *w, const SessAction *a, const char *shape, double acc,
                          const char *over)
{
	const Session *s = w->s;
	const TrainResult *r = &s->trained;
	char spec[64], head[200];
	sched_format(&s->topt.sched, spec, sizeof spec);
	if (!isnan(r->val_acc))
		snprintf(head, sizeof head,
		         "trained %d of %g epochs, kept epoch %d (validation %.2f %%)%s", r->epochs,
		         a->train.epochs, r->best_epoch, 100 * r->val_acc,
		         r->stopped_early ? ", stopped early" : "");
	else
		snprintf(head, sizeof head, "trained %d epoch%s", r->epochs,
		         r->epochs == 1 ? "" : "s");
	worker_narrate(w,
	               "%s: %s (Adam, batches of %d, %s), test accuracy %.2f %% → %.2f %%; "
	               "κ > τ in %s",
	               head, shape, s->topt.batch, spec, w->acc_before, acc, over);
}

/* What an edit by hand did; a neuron removed beside the one pivoted QR
 * would remove first (w->hand, measured before it). */
static void narrate_edit(Worker *w, const SessAction *a, const char *shape, double acc,
                         const char *over)
{
	const Session *s = w->s;
	char head[300], in[64];
	const Alg3Hand *h = &w->hand;
	const SessNeuronArgs *u = &a->neuron;
	if (a->kind == SESS_NEURON && u->add)
		snprintf(head, sizeof head,
		         "n%d added to layer %d by hand (incoming weights as a fresh network's, "
		         "outgoing ones small, from seed %llu)",
		         s->net->n[u->layer], u->layer, (unsigned long long)u->seed);
	else if (a->kind == SESS_NEURON && h->qr >= 0) {
		/* the comparison first: it is what a narrow screen shows */
		if (h->qr == h->hand)
			worker_narrate(
			    w,
			    "n%d removed by hand: %.2f → %.2f %%, the neuron Algorithm 3 "
			    "removes first (pivoted QR puts it last); layer %d, %s, κ > τ in %s",
			    u->neuron, w->acc_before, acc, u->layer, shape, over);
		else
			worker_narrate(
			    w,
			    "n%d removed by hand: %.2f → %.2f %%; Algorithm 3's first, n%d: "
			    "%.2f %% (pivoted QR puts it last); layer %d, %s, κ > τ in %s",
			    u->neuron, w->acc_before, acc, h->qr + 1, h->acc_qr, u->layer, shape,
			    over);
		return;
	} else if (a->kind == SESS_NEURON)
		snprintf(head, sizeof head, "n%d of layer %d removed by hand", u->neuron, u->layer);
	else if (a->kind == SESS_LAYER && a->layer.add)
		snprintf(head, sizeof head,
		         "a layer added after %s %d, starting as the identity (it passes on what "
		         "the layer before gives, through its activation)",
		         a->layer.after ? "layer" : "the inputs,", a->layer.after);
	else if (a->kind == SESS_LAYER)
		snprintf(head, sizeof head,
		         "layer %d removed, its weights multiplied into the next layer's (as if "
		         "its activation were the identity)",
		         a->layer.layer);
	else
		snprintf(head, sizeof head,
		         "inputs x, y and %s (new inputs' weights small, the others kept; "
		         "Algorithm 1's history and the sweep start anew)",
		         plane_inputs_format(s->inputs, in, sizeof in));
	worker_narrate(w, "%s: %s, test accuracy %.2f %% → %.2f %%; κ > τ in %s", head, shape,
	               w->acc_before, acc, over);
}

/* What an action did, in the paper's terms (Algorithm 1's iterations, the
 * sweep's trials and squeeze decisions say it themselves as they happen). */
static void narrate_done(Worker *w, const SessAction *a, int alg1_before, int quiet)
{
	const Session *s = w->s;
	char shape[256], over[128], kb[32];
	net_shape_str(s->net, shape, sizeof shape);
	pthread_mutex_lock(&w->mu);
	int nover = layers_over(&w->shown, over, sizeof over);
	double acc = w->shown.test_acc, maxk = 0;
	for (int i = 0; w->shown.lc && i < w->shown.m; i++)
		maxk = fmax(maxk, w->shown.lc[i].kappa);
	pthread_mutex_unlock(&w->mu);
	switch (a->kind) {
	case SESS_SET: {
		/* applied behind an operation: in the log, not over its account */
		char said[400];
		worker_narrate_kind(w, quiet ? NARR_QUIET : NARR_OP, "%s",
		                    session_setting_narrate(a, s, over, nover, said, sizeof said));
		break;
	}
	case SESS_TRAIN:
		narrate_train(w, a, shape, acc, over);
		break;
	case SESS_ALG1_STEP:
	case SESS_ALG1_RUN:
		if (s->alg1 && s->alg1->status != ALG1_RUNNING && alg1_before == ALG1_RUNNING) {
			const Alg1 *g = s->alg1;
			char first[256];
			snprintf(first, sizeof first, "%d", g->rec[0].n[0]);
			for (int i = 1; i <= g->rec[0].m; i++)
				snprintf(first + strlen(first), sizeof first - strlen(first), "-%d",
				         g->rec[0].n[i]);
			char why[sizeof g->reason * 2];
			worker_narrate(
			    w, "Algorithm 1 %s after %d iterations: %s → %s, Σ n_i %ld → %ld (%s)",
			    alg1_status_name(g->status), g->nrec - 1, first, shape, g->rec[0].sum_n,
			    g->rec[g->nrec - 1].sum_n, status_symbols(g->reason, why, sizeof why));
		}
		break;
	case SESS_SWEEP: {
		int p = alg2_pick(s->sweep);
		if (p < 0)
			break;
		const Alg2Beta *b = &s->sweep->b[p];
		pthread_mutex_lock(&w->mu);
		char pick[256];
		snprintf(pick, sizeof pick, "%s", w->shown.pick_shape);
		pthread_mutex_unlock(&w->mu);
		worker_narrate(
		    w,
		    "Algorithm 2 picks β = %g, the least 2ε_v − ε_tr = %.2f %% (ε_tr %.2f %%, "
		    "ε_v %.2f %%, mean of %d): widths %s; A adopts them with fresh weights",
		    b->beta, 100 * b->score, 100 * b->err_tr, 100 * b->err_v, b->done, pick);
		break;
	}
	case SESS_UNDO:
		worker_narrate(w, "undo: back to %s (test accuracy %.2f %%)", shape, acc);
		break;
	case SESS_NET:
		worker_narrate(w,
		               "a fresh network %s: Glorot weights from seed %llu, biases zero (so "
		               "κ = ∞ where a layer has more neurons than inputs)",
		               shape, (unsigned long long)a->net.seed);
		break;
	case SESS_LOAD:
		worker_narrate(w, "opened %s: %s, test accuracy %.2f %%, max κ %s, κ > τ in %s",
		               a->load.path, shape, acc,
		               cond_kappa_str(maxk, s->tau, kb, sizeof kb), over);
		break;
	case SESS_NEURON:
	case SESS_LAYER:
	case SESS_INPUTS:
		narrate_edit(w, a, shape, acc, over);
		break;
	default:
		break;
	}
}

/* The status line after an action that went through. */
static void status_done(Worker *w, const SessAction *a)
{
	Session *s = w->s;
	char shape[256];
	net_shape_str(s->net, shape, sizeof shape);
	switch (a->kind) {
	case SESS_SET: {
		char said[200];
		worker_status(w, 0, "%s", session_setting_said(a, s, said, sizeof said));
		break;
	}
	case SESS_TRAIN:
		pthread_mutex_lock(&w->mu);
		if (!isnan(w->shown.sq.acc_end) && !w->shown.sq.active && !w->shown.sq.undone)
			w->shown.sq.acc_retrained = w->shown.test_acc;
		pthread_mutex_unlock(&w->mu);
		if (!isnan(s->trained.val_acc))
			worker_status(w, 0,
			              "trained %d of %g epochs, kept epoch %d: test "
			              "accuracy %.2f%%",
			              s->trained.epochs, a->train.epochs, s->trained.best_epoch,
			              w->shown.test_acc);
		else
			worker_status(w, 0, "trained %g epoch%s: test accuracy %.2f%%",
			              a->train.epochs, a->train.epochs == 1 ? "" : "s",
			              w->shown.test_acc);
		break;
	case SESS_ALG1_STEP:
	case SESS_ALG1_RUN:
		worker_status(w, 0, "Algorithm 1, iteration %d: %s (%s)", s->alg1->nrec - 1, shape,
		              s->alg1->status == ALG1_RUNNING ? "more to do"
		                                              : alg1_status_name(s->alg1->status));
		break;
	case SESS_SWEEP: {
		int p = alg2_pick(s->sweep);
		worker_status(w, 0, "β sweep finished: pick β = %g",
		              p >= 0 ? s->sweep->b[p].beta : NAN);
		break;
	}
	case SESS_UNDO:
		pthread_mutex_lock(&w->mu);
		w->shown.sq.undone = !isnan(w->shown.sq.acc_end);
		pthread_mutex_unlock(&w->mu);
		worker_status(w, 0, "undone: %s", shape);
		break;
	case SESS_SAVE:
		worker_status(w, 0, "saved %s", a->save.path);
		break;
	case SESS_LOAD:
		worker_status(w, 0, "opened %s: %s", a->load.path, shape);
		break;
	case SESS_NEURON:
	case SESS_LAYER:
	case SESS_INPUTS: {
		char what[160];
		worker_status(w, 0, "%s: %s (u undoes)", status_action(a, what, sizeof what),
		              shape);
		break;
	}
	default:
		worker_status(w, 0, "%s: %s", session_action_name(a), shape);
		break;
	}
}

/* The last training, for the progress area: what trained, for how long;
 * kept with the network it left, so that it is not shown beside another
 * (an undo, a lesson stepped back). */
static void note_training(Worker *w, const SessAction *a, int rc)
{
	pthread_mutex_lock(&w->mu);
	const TrainProgress *t = &w->shown.prog;
	int said = 1;
	if (w->shown.have_prog && rc == 1)
		snprintf(w->shown.last_train, sizeof w->shown.last_train,
		         "cancelled at epoch %.2f: %.100s (rolled back)", t->epoch,
		         w->shown.running);
	else if (w->shown.have_prog && rc == 0 && t->epoch > 0 &&
	         (a->kind == SESS_TRAIN || a->kind == SESS_ALG1_STEP || a->kind == SESS_ALG1_RUN))
		snprintf(w->shown.last_train, sizeof w->shown.last_train,
		         "last training: %.2f epochs in %.3g s (%.3g s/epoch)", t->epoch,
		         t->seconds, t->seconds / t->epoch);
	else if (w->shown.have_prog && rc == 0 && a->kind == SESS_SWEEP)
		snprintf(w->shown.last_train, sizeof w->shown.last_train,
		         "last sweep: %d trials in %.3g s", w->sweep_trials, w->shown.sweep_secs);
	else
		said = 0;
	if (said)
		w->shown.last_train_crc = w->shown.crc;
	w->shown.have_prog = 0;
	pthread_mutex_unlock(&w->mu);
}

/* A setting's new value; τ's marks on the layers, the plane and the
 * channels. */
static void publish_setting(Worker *w, const SessAction *a, int rc)
{
	const Session *s = w->s;
	int tau = rc == 0 && a->set.id == SET_TAU;
	pthread_mutex_lock(&w->mu);
	for (int i = 0; i < session_nsettings; i++)
		if (session_settings[i].type == SET_NUMBER)
			w->shown.set[i] = session_setting_get(s, i);
	w->shown.sched = s->topt.sched;
	for (int i = 0; tau && w->shown.lc && i < w->shown.m; i++)
		cond_set_tau(&w->shown.lc[i], s->tau);
	w->shown.tau = s->tau;
	pthread_mutex_unlock(&w->mu);
	if (tau) {
		worker_plane_publish(w); /* the squeeze's marks at the new τ */
		worker_channels_publish(w);
	}
}

int worker_run_action(Worker *w, const SessAction *a, int quiet)
{
	Session *s = w->s;
	Err e = {{0}};
	char what[160];
	status_action(a, what, sizeof what);
	if (a->kind != SESS_SAVE && w->shown.sq.active)
		worker_sqz_finish(w, "stopped");
	int alg1_before = s->alg1 && s->alg1_live ? (int)s->alg1->status : ALG1_RUNNING;
	pthread_mutex_lock(&w->mu);
	snprintf(w->shown.activity, sizeof w->shown.activity, "%.120s", what);
	w->acc_before = w->alg1_acc_prev = w->shown.test_acc;
	if (a->kind == SESS_SWEEP) {
		w->shown.sweep_state = 1;
		w->shown.nbeta = 0;
		w->shown.sweep_secs = 0;
	}
	pthread_mutex_unlock(&w->mu);
	w->sweep_trials = 0;
	Net *before = worker_plane_before(w, a);
	/* a neuron removed by hand: the one pivoted QR would remove, measured
	 * on the network before (stopped by Esc like the action) */
	w->hand = (Alg3Hand){.qr = -1};
	if (a->kind == SESS_NEURON && !a->neuron.add && s->net) {
		hook_set_thread_stop(worker_stop_any, w);
		if (alg3_hand(s->net, a->neuron.layer, a->neuron.neuron - 1, s->test, &w->hand,
		              NULL) != 0)
			w->hand.qr = -1;
		hook_set_thread_stop(worker_stop_quit, w);
	}
	/* κ computed inside the action stops at Esc as well as when the screen ends */
	hook_set_thread_stop(worker_stop_any, w);
	int rc = session_apply(s, a, &w->hooks, &e);
	hook_set_thread_stop(worker_stop_quit, w);
	if (worker_quitting(w)) {
		net_free(before);
		return rc; /* the screen is ending: nothing to show */
	}
	/* said at once (publishing the network as it was back takes a while on
	 * MNIST), and again once it is published: the state it speaks of */
	char cancelled[300];
	snprintf(cancelled, sizeof cancelled, "cancelled: %s%s", what,
	         a->kind == SESS_ALG1_RUN && s->alg1 ? " (finished iterations kept)" : "");
	if (rc == 1)
		worker_status(w, 0, "%s", cancelled);
	if (a->kind == SESS_SET)
		publish_setting(w, a, rc);
	else
		worker_publish(w);
	if (a->kind == SESS_SWEEP) {
		pthread_mutex_lock(&w->mu);
		w->shown.sweep_state = rc == 0 ? 2 : 3;
		pthread_mutex_unlock(&w->mu);
	}
	if (rc == 0 && (a->kind == SESS_NET || a->kind == SESS_LOAD))
		worker_forget_training(w); /* the charts are of the network shown */
	if (rc == 0 && before)
		worker_plane_step(w, before);
	else
		net_free(before);
	note_training(w, a, rc);
	if (rc == 1)
		worker_status(w, 0, "%s", cancelled);
	if (rc < 0 && (a->kind == SESS_SAVE || a->kind == SESS_LOAD)) {
		worker_status_failed(w, a->kind == SESS_SAVE ? a->save.path : a->load.path,
		                     "%s failed: %s", session_action_name(a), e.msg);
		return rc;
	}
	if (rc < 0) {
		worker_status(w, 1, "%s failed: %s", session_action_name(a), e.msg);
		return rc;
	}
	if (rc == 1)
		return rc;
	narrate_done(w, a, alg1_before, quiet);
	if (!quiet)
		status_done(w, a);
	return rc;
}

/* Replaces the network by a fresh one of the sweep's pick (undoable). */
void worker_adopt(Worker *w)
{
	SessAction a;
	Err e = {{0}};
	double beta;
	char shape[256];
	if (session_adopt_action(w->s, &a, &beta, &e) < 0) {
		worker_status(w, 1, "%s", e.msg);
		return;
	}
	session_log_note(w->s, "adopt the beta sweep's pick, beta = %.17g", beta);
	if (worker_run_action(w, &a, 1) != 0)
		return;
	worker_status(w, 0, "adopted the sweep's pick (β %g): %s with fresh weights; u undoes",
	              beta, net_shape_str(w->s->net, shape, sizeof shape));
}
