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
	double last_cond, cond_cost;
	Hook hooks;
	int export_csv;
};

/* Everything the panels show, after a job. */
void worker_publish(Worker *w);

/* The squeeze pass (the session holds it): begin it and show the first
 * proposal; show the proposal the session holds, with its preview, or end
 * the pass when none is left; end it (how: "finished", "stopped"); apply
 * (1) or refuse (0) the proposal shown, then show the next (0, or -1 when
 * there was none or it failed). */
void worker_sqz_begin(Worker *w);
void worker_sqz_show(Worker *w);
void worker_sqz_finish(Worker *w, const char *how);
int worker_sqz_decide(Worker *w, int apply);

#endif
