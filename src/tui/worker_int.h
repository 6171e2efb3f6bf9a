/* tui/worker_int.h - what the worker's files share: the Worker itself and
 * the steps the squeeze pass takes (tui/worker_squeeze.c). Only the worker
 * thread runs these; the mutex guards pub. */
#ifndef CONDNET_TUI_WORKER_INT_H
#define CONDNET_TUI_WORKER_INT_H

#include <pthread.h>

#include "engine/alg3_squeeze.h"
#include "tui/worker.h"

#define QMAX 64

struct Worker {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t wake, resume;
	Session *s;
	Job q[QMAX];
	int qh, qn, quit, cancel;
	Pub pub;
	/* worker thread only */
	SqueezeProposal sp;
	int have_sp;
	double last_cond, cond_cost;
	SessHooks hooks;
	int export_csv;
};

/* Everything the panels show, after a job. */
void worker_publish(Worker *w);

/* The squeeze pass: drop the proposal shown; end the pass (how: "finished",
 * "stopped"); propose the next hidden layer from `from` on with κ > τ, with
 * its preview; apply (1) or refuse (0) the proposal shown, then propose the
 * next (0, or -1 when there was none or it failed). */
void worker_sqz_drop(Worker *w);
void worker_sqz_finish(Worker *w, const char *how);
void worker_sqz_next(Worker *w, int from);
int worker_sqz_decide(Worker *w, int apply);

#endif
