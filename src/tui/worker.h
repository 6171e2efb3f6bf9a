/* tui/worker.h - the one background thread that runs engine operations for
 * the screen.
 *
 * The screen submits jobs; the worker runs them in order on the session
 * (which only it touches) and publishes copies of what the panels show in a
 * Pub guarded by a mutex. Training reports progress through the session's
 * hooks: pause blocks there on a condition variable, cancel makes the hook
 * return non-zero. Because jobs run strictly in submission order, results do
 * not depend on timing. */
#ifndef CONDNET_TUI_WORKER_H
#define CONDNET_TUI_WORKER_H

#include "engine/alg1_proportion.h"
#include "engine/cond.h"
#include "engine/session.h"
#include "engine/train.h"

typedef enum JobKind {
	JOB_ACTION,     /* a session action */
	JOB_SQZ_START,  /* begin a squeeze pass at the first hidden layer with κ > τ */
	JOB_SQZ_DECIDE, /* apply (a.apply = 1) or refuse the proposal shown, then the next */
	JOB_SQZ_ALL,    /* apply the proposal shown and every later one */
	JOB_SQZ_STOP,   /* end the pass */
	JOB_SQZ_COMP,   /* toggle compensation for the next decisions */
	JOB_EXPORT,     /* the tables into path (.csv: CSV, else Markdown) */
	JOB_ADOPT       /* a fresh network of the β sweep's pick (a logged `net`) */
} JobKind;

typedef struct Job {
	JobKind kind;
	SessAction a;
	char path[1024];
	int quiet; /* leave the status line alone (queued behind a running job) */
} Job;

typedef struct PubBeta {
	double beta, err_tr, err_v, score;
	int done;
} PubBeta;

typedef struct PubSqueeze {
	int active;  /* a pass is under way */
	int waiting; /* a proposal waits for y / n / a */
	int comp;    /* compensation for the next apply */
	int layer, n_before, nkeep, p_qr, nrdiag;
	double kappa_before, kappa_after;
	int *perm;     /* n_before */
	double *rdiag; /* nrdiag */
	double acc_now, acc_after, acc_comp;
	char done[16][96]; /* decisions of this pass */
	int ndone;
	int removed;                              /* neurons removed in this pass */
	int undone;                               /* an undo followed the pass */
	double acc_start, acc_end, acc_retrained; /* NaN when unknown */
} PubSqueeze;

typedef struct Pub {
	/* data and network */
	char data[256];
	int m;
	int *n; /* n[0..m] */
	size_t nparam;
	LayerCond *lc; /* m entries at tau, or NULL */
	int live;      /* lc was taken during training */
	double tau, eta;
	uint64_t seed;
	double test_acc;
	int dirty, nundo;
	char log_path[1024];
	/* Algorithm 1 */
	Alg1Record *rec;
	int nrec;
	char alg1_state[300];
	/* Algorithm 2 */
	PubBeta *beta;
	int nbeta, q, pick, sweep_state; /* 0 none, 1 running, 2 finished, 3 cancelled */
	char pick_shape[256];            /* the pick's widths n_0-…-n_m, "" without one */
	PubSqueeze sq;
	/* progress */
	int busy, paused, queued; /* paused ends with the job it paused */
	int ops;                  /* jobs queued or running, τ/η changes not counted */
	char running[128];        /* what the running job is, for "busy" answers */
	char activity[128];       /* what it does right now */
	TrainProgress prog;
	int have_prog;
	double sec_per_epoch;
	char status[512];
	int status_err;
} Pub;

typedef struct Worker Worker;

/* Starts the thread on s (which the worker owns from now on until
 * worker_stop). Publishes the initial state first. */
Worker *worker_start(Session *s, Err *e);
/* Cancels the running job, drops queued ones, joins the thread and frees the
 * worker (not the session). */
void worker_stop(Worker *w);
/* Queues a job; -1 when the queue is full. */
int worker_submit(Worker *w, const Job *j);
/* Pauses or resumes the running job's training: returns 1 paused, 0
 * resumed, -1 (and does nothing) when no job runs, so a pause never
 * carries over to the next job. */
int worker_toggle_pause(Worker *w);
/* Cancels the running job (its effect is rolled back). */
void worker_cancel(Worker *w);

/* The published state: lock, read, unlock. Hold the lock briefly. */
const Pub *worker_lock(Worker *w);
void worker_unlock(Worker *w);
/* Sets the status line (from the screen, e.g. a bad prompt entry). */
void worker_status(Worker *w, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
