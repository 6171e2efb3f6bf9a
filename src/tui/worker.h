/* tui/worker.h - the one background thread that runs engine operations for
 * the screen.
 *
 * The screen submits jobs; the worker runs them in order on the session
 * (which only it touches) and publishes copies of what the panels show in a
 * Shown guarded by a mutex. Training reports progress through the session's
 * hooks: pause blocks there on a condition variable, cancel makes the hook
 * return non-zero. Because jobs run strictly in submission order, results do
 * not depend on timing. */
#ifndef CONDNET_TUI_WORKER_H
#define CONDNET_TUI_WORKER_H

#include "alg/alg1_proportion.h"
#include "engine/cond.h"
#include "engine/train.h"
#include "session/session.h"
#include "tui/lesson.h"
#include "tui/worker_plane.h"

typedef enum JobKind {
	JOB_ACTION,     /* a session action */
	JOB_SQZ_START,  /* begin a squeeze pass at the first hidden layer with κ > τ */
	JOB_SQZ_DECIDE, /* apply (a.apply = 1) or refuse the proposal shown, then the next */
	JOB_SQZ_ALL,    /* apply the proposal shown and every later one */
	JOB_SQZ_STOP,   /* end the pass */
	JOB_SQZ_COMP,   /* toggle compensation for the next decisions */
	JOB_EXPORT,     /* the tables into path (.csv: CSV, else Markdown) and the plots beside */
	JOB_ADOPT,      /* a fresh network of the β sweep's pick (a logged `net`) */
	JOB_CAPTION,    /* a caption (path) written to the log, for lessons */
	JOB_PLAY_NEXT,  /* the lesson's next action (a squeeze's proposal is shown first) */
	JOB_PLAY_BACK   /* the lesson back to action `target`: replayed from its start */
} JobKind;

typedef struct Job {
	JobKind kind;
	SessAction a;
	char path[1024];
	int quiet;    /* leave the status line alone (queued behind a running job) */
	int target;   /* JOB_PLAY_BACK: the lesson position to go back to */
	int proposal; /* JOB_PLAY_BACK: and the proposal of its squeeze shown */
} Job;

typedef struct ShownBeta {
	double beta, err_tr, err_v, score; /* means over the trials done */
	int done;
	double smin, smax; /* the least and largest 2ε_v − ε_tr of single trials */
} ShownBeta;

/* One decision of a squeeze pass. */
#define SQZ_DEC_MAX 64
typedef struct ShownDecision {
	int layer, n_before, n_after, applied, comp;
	double tau, kappa_before, kappa_after, acc_after; /* acc_after: test accuracy, percent */
} ShownDecision;

/* Random orders the screen's what-if line measures beside the QR choice and
 * the norm rule: the draws the Plane view's random panel is the median of. */
#define SQZ_PREVIEW_DRAWS PLANE_PANEL_DRAWS

typedef struct ShownSqueeze {
	int active;  /* a pass is under way */
	int waiting; /* a proposal waits for y / n / a */
	int comp;    /* compensation for the next apply */
	int layer, n_before, nkeep, p_qr, nrdiag;
	double kappa_before, kappa_after;
	int *perm;     /* n_before: neuron numbers from 1 in pivot order */
	double *rdiag; /* nrdiag = min(rows, n_before): the neurons beyond it have no
	                * r_jj of their own (the layer's rank is at most its rows) */
	double acc_now, acc_after, acc_comp;
	double agree_after, agree_comp; /* percent of the test set answered as now; NaN until
	                                 * measured */
	/* the same layer's count kept by the simple rules (alg3_compare.h): QR,
	 * norm and the mean of `draws` random orders, without and with
	 * compensation, on the test set; NaN until measured */
	double cmp[3], cmp_comp[3], cmp_sd, cmp_sd_comp;
	int draws;
	char done[16][160]; /* decisions of this pass */
	int ndone;
	ShownDecision dec[SQZ_DEC_MAX]; /* the same, as numbers (for the export) */
	int ndec;
	int removed;                              /* neurons removed in this pass */
	int undone;                               /* an undo followed the pass */
	double acc_start, acc_end, acc_retrained; /* NaN when unknown */
} ShownSqueeze;

/* The points the κ series of a training of span epochs is sampled at
 * (worker_shown.c): every epoch of one of 16 to 64 epochs, else 16
 * (shorter) or 64 (longer) evenly spaced, by the epochs reached, never by
 * the clock; and its first report. */
int worker_series_samples(double span);

/* κ of every layer against epochs, while the last training ran. */
typedef struct ShownSeries {
	int m, n, cap;
	double *epoch; /* n */
	double *kappa; /* n × m */
	double epochs; /* the training's length */
	char what[128];
} ShownSeries;

/* The epochs of the last `t` training (train_plan_fit's HOOK_EPOCH steps):
 * its accuracies and rates, and the epoch early stopping keeps. */
typedef struct ShownEpochs {
	int n, cap;
	int epochs;                 /* the training's cap */
	int best;                   /* the best validation epoch so far (the kept one when
	                             * done), 0 without validation */
	int val;                    /* 1 when the validation split was measured */
	int done;                   /* the training ended (HOOK_TRAINED) */
	int stopped_early;          /* the patience ran out before the cap */
	double *acc, *val_acc, *lr; /* n each: training and validation accuracy
	                             * (fractions), the rate of the epoch's last batch */
	char what[128];
} ShownEpochs;

/* Narration: the last NARR_MAX lines saying what happened and why. */
#define NARR_MAX 256
#define NARR_LEN 2048

/* What a narration line is: an operation's account (the narration row
 * shows the newest), a setting applied behind an operation (the log only:
 * it must not hide the operation's account), or a lesson's caption (which
 * has a panel of its own). */
typedef enum NarrKind { NARR_OP = 0, NARR_QUIET, NARR_CAPTION } NarrKind;

typedef struct Shown {
	/* data and network */
	char data[256];
	int m;
	int *n; /* n[0..m] */
	size_t nparam;
	LayerCond *lc;             /* m entries at tau, or NULL */
	int *bias0;                /* m entries: 1 when the layer's biases are all zero */
	int live;                  /* lc was taken during training */
	double tau, eta;           /* the session's */
	double tau_next, eta_next; /* as they will be once the τ and η changes queued (or
	                            * running) apply: tau and eta when none is */
	double lr;                 /* the base learning rate (--lr) */
	LrSchedule sched;          /* the schedule of later trainings */
	uint64_t seed;
	double test_acc; /* of the network lc describes when not live */
	uint32_t crc;    /* of the current network's parameters */
	int dirty, nundo;
	char log_path[1024];
	int log_err; /* errno of the write that lost the session log, 0 while it is whole */
	/* Algorithm 1 */
	Alg1Record *rec;
	int nrec, alg1_status, alg1_live;
	char alg1_reason[300];
	/* Algorithm 2 */
	ShownBeta *beta;
	int nbeta, q, pick, sweep_state; /* 0 none, 1 running, 2 finished, 3 cancelled */
	double sweep_eta, sweep_secs;    /* its η; seconds spent so far */
	char pick_shape[256];            /* the pick's widths n_0-…-n_m, "" without one */
	ShownSqueeze sq;
	ShownPlane pl; /* the Plane view's */
	ShownSeries ks;
	ShownEpochs ep;
	/* narration */
	char (*narr)[NARR_LEN];
	unsigned char narr_kind[NARR_MAX]; /* NarrKind of each kept line */
	int nnarr; /* lines ever written; the last min(nnarr, NARR_MAX) are kept */
	/* progress */
	int busy, paused, queued; /* paused ends with the job it paused */
	int ops;                  /* jobs queued or running, τ/η changes not counted */
	int queued_ops;           /* operations waiting behind the running one */
	char running[128];        /* what the running job is, for "busy" answers */
	char activity[160];       /* what it does right now */
	TrainProgress prog;
	int have_prog;
	/* the conditioning under way (the engine's meter): what, its share done */
	char work[128];
	double work_frac;
	int have_work;
	char last_train[200];    /* the last finished or cancelled training, for people */
	uint32_t last_train_crc; /* the network that training left (last_train is
	                          * shown only while it is the current one) */
	/* The state's generation: it moves when an operation starts and when
	 * what it changed is published. A message belongs to the generation it
	 * was said in and is shown only while that is the current one (status.h
	 * decides the status line). */
	unsigned gen;
	char status[512];
	int status_err;
	unsigned status_gen;
	/* the message is the screen's opening note (the data set it opened and
	 * how to fetch MNIST): it outlives the measurements that follow the
	 * start and holds until the first operation or change */
	int status_opening;
	/* a lesson played (worker_start with one) */
	int play_pos;  /* lesson actions applied */
	int playing;   /* 1 while a lesson step runs */
	int replaying; /* 1 while a step back replays the lesson */
} Shown;

/* The narration line k (0 = oldest kept) of p, for k < worker_narr_count,
 * and its kind. */
int worker_narr_count(const Shown *p);
const char *worker_narr(const Shown *p, int k);
NarrKind worker_narr_kind(const Shown *p, int k);
/* The newest line of kind NARR_OP, or NULL. */
const char *worker_narr_last_op(const Shown *p);

typedef struct Worker Worker;

/* Starts the thread on s (which the worker owns from now on until
 * worker_stop; it may replace it while playing a lesson back). lesson, when
 * not NULL, is the lesson played (it must outlive the worker) and the
 * session holds its first `applied` actions. Publishes the initial state. */
Worker *worker_start(Session *s, const Lesson *lesson, int applied, Err *e);
/* Cancels the running job, drops queued ones, joins the thread and frees the
 * worker and its session. Returns the errno of the write that lost the
 * session log (session.h: log_err), 0 when the log is whole; -1 when the
 * thread did not stop within WORKER_STOP_SECONDS (a call that ignores its
 * stop): it is left running, with the session, and the process must end
 * (base/offload.h ends it without waiting for it). */
#define WORKER_STOP_SECONDS 3
int worker_stop(Worker *w);
/* Says on the status line that the session log could not be written (when
 * Shown.log_err is set). */
void worker_status_log_lost(Worker *w);
/* Queues a job; -1 when the queue is full. A setting (τ, η or the
 * schedule) queued right behind another of its kind replaces it, and one
 * that brings the value back to what it was before is dropped: ] then [
 * leave nothing queued. */
int worker_submit(Worker *w, const Job *j);
/* Pauses or resumes the running job's training: returns 1 paused, 0
 * resumed, -1 (and does nothing) when no job runs, so a pause never
 * carries over to the next job. */
int worker_toggle_pause(Worker *w);
/* Cancels the running job (its effect is rolled back). */
void worker_cancel(Worker *w);
/* A lesson's opening words: narrated, and again when a step back returns
 * to its start. */
void worker_play_note(Worker *w, const char *note);

/* The published state: lock, read, unlock. Hold the lock briefly. */
const Shown *worker_lock(Worker *w);
void worker_unlock(Worker *w);
/* Says something on the status line about the current state (from the
 * screen, e.g. a bad prompt entry); it goes when the state moves on. */
void worker_status(Worker *w, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The screen's opening note: a status message that holds until the first
 * operation or undoable change, whatever the start measures meanwhile. */
void worker_status_opening(Worker *w, const char *note);
/* Takes back what the status line says (a prompt closed with Esc). */
void worker_status_clear(Worker *w);
/* Adds a narration line (from the screen). */
void worker_narrate(Worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void worker_narrate_kind(Worker *w, NarrKind k, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A failure about a file (a save, an export, an open): the whole message
 * into the narration (the L log), and on the status line with path, and
 * its directories where the message names them, shortened from the left
 * ("…/name.model") so that the line fits STATUS_FIT columns and its reason,
 * at the end, shows. */
#define STATUS_FIT 76
void worker_status_failed(Worker *w, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
