/* tui/worker_squeeze.c - the screen's squeeze pass: Algorithm 3 one hidden
 * layer at a time, each proposal previewed and then applied or refused. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/alg3_squeeze.h"
#include "tui/worker.h"
#include "tui/worker_int.h"

void worker_sqz_drop(Worker *w)
{
	if (w->have_sp)
		squeeze_proposal_free(&w->sp);
	w->have_sp = 0;
}

void worker_sqz_finish(Worker *w, const char *how)
{
	worker_sqz_drop(w);
	double acc = session_test_acc(w->s);
	pthread_mutex_lock(&w->mu);
	PubSqueeze *q = &w->pub.sq;
	int was = q->active;
	q->active = q->waiting = 0;
	if (was)
		q->acc_end = acc;
	pthread_mutex_unlock(&w->mu);
	if (was)
		worker_status(
		    w, 0,
		    "squeeze %s: %d neuron(s) removed, test accuracy %.2f%% -> %.2f%% (t retrains)",
		    how, w->pub.sq.removed, w->pub.sq.acc_start, acc);
}

/* Proposes the next hidden layer from `from` on with κ > τ, with its preview. */
void worker_sqz_next(Worker *w, int from)
{
	Session *s = w->s;
	SqueezeOpts o;
	Err e = {{0}};
	double acc = NAN, accc = NAN;
	squeeze_opts_default(&o);
	o.tau = s->tau;
	worker_sqz_drop(w);
	for (int l = from; l < s->net->m; l++) {
		if (squeeze_propose(s->net, l, &o, &w->sp, &e) < 0) {
			worker_status(w, 1, "squeeze: layer %d: %s", l, e.msg);
			break;
		}
		if (!(w->sp.kappa_before > s->tau) || w->sp.nkeep == w->sp.n_before) {
			squeeze_proposal_free(&w->sp);
			continue;
		}
		w->have_sp = 1;
		pthread_mutex_lock(&w->mu);
		snprintf(w->pub.activity, sizeof w->pub.activity, "squeeze: previewing layer %d",
		         l);
		pthread_mutex_unlock(&w->mu);
		if (squeeze_preview(s->net, &w->sp, s->test, s->train, &acc, &accc, &e) < 0)
			worker_status(w, 1, "squeeze preview: %s", e.msg);
		int *perm = malloc((size_t)w->sp.n_before * sizeof *perm);
		double *rd = malloc((size_t)(w->sp.nrdiag > 0 ? w->sp.nrdiag : 1) * sizeof *rd);
		if (!perm || !rd) {
			free(perm);
			free(rd);
			break;
		}
		memcpy(perm, w->sp.perm, (size_t)w->sp.n_before * sizeof *perm);
		memcpy(rd, w->sp.rdiag, (size_t)w->sp.nrdiag * sizeof *rd);
		pthread_mutex_lock(&w->mu);
		PubSqueeze *q = &w->pub.sq;
		free(q->perm);
		free(q->rdiag);
		q->perm = perm;
		q->rdiag = rd;
		q->layer = l;
		q->n_before = w->sp.n_before;
		q->nkeep = w->sp.nkeep;
		q->p_qr = w->sp.p_qr;
		q->nrdiag = w->sp.nrdiag;
		q->kappa_before = w->sp.kappa_before;
		q->kappa_after = w->sp.kappa_after;
		q->acc_now = w->pub.test_acc;
		q->acc_after = 100 * acc;
		q->acc_comp = 100 * accc;
		q->waiting = 1;
		pthread_mutex_unlock(&w->mu);
		return;
	}
	worker_sqz_finish(w, "finished");
}

static void sqz_note(Worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sqz_note(Worker *w, const char *fmt, ...)
{
	va_list ap;
	pthread_mutex_lock(&w->mu);
	PubSqueeze *q = &w->pub.sq;
	if (q->ndone == 16) {
		memmove(q->done, q->done + 1, sizeof q->done - sizeof q->done[0]);
		q->ndone--;
	}
	va_start(ap, fmt);
	vsnprintf(q->done[q->ndone++], sizeof q->done[0], fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&w->mu);
}

/* Applies or refuses the waiting proposal; returns 0, or -1 on error. */
int worker_sqz_decide(Worker *w, int apply)
{
	if (!w->have_sp)
		return -1;
	Err e = {{0}};
	SessAction a = {
	    .kind = SESS_SQUEEZE, .layer = w->sp.layer, .apply = apply, .comp = w->pub.sq.comp};
	int n0 = w->sp.n_before, n1 = w->sp.nkeep;
	if (session_apply(w->s, &a, &w->hooks, &e) != 0) {
		worker_status(w, 1, "squeeze layer %d: %s", a.layer, e.msg);
		return -1;
	}
	if (apply) {
		sqz_note(w, "layer %d: %d -> %d neurons, kappa %.3g -> %.3g%s", a.layer, n0, n1,
		         w->sp.kappa_before, w->sp.kappa_after, a.comp ? ", compensated" : "");
		pthread_mutex_lock(&w->mu);
		w->pub.sq.removed += n0 - n1;
		pthread_mutex_unlock(&w->mu);
	} else {
		sqz_note(w, "layer %d: refused (kappa %.3g, %d neurons kept)", a.layer,
		         w->sp.kappa_before, n0);
	}
	worker_publish(w);
	worker_sqz_next(w, a.layer + 1);
	return 0;
}
