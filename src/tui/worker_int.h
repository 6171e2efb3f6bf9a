/* tui/worker_int.h - what the worker's files share: the Worker itself and
 * the functions of each file, listed from the bottom up (a file calls only
 * those listed before its own): what it says (worker_say.c), the Plane
 * view (worker_plane.c) and its channel maps (worker_channels.c), publishing its state
 * (worker_shown.c), the squeeze pass (worker_squeeze.c), the engine's hooks (worker_hooks.c), an
 * action (worker_action.c), lessons (worker_play.c) and the export
 * (export.c); worker.c runs the queue. Only the worker thread runs these;
 * the mutex guards shown. */
#ifndef CONDNET_TUI_WORKER_INT_H
#define CONDNET_TUI_WORKER_INT_H

#include <pthread.h>

#include "alg/alg3_hand.h"
#include "alg/alg3_squeeze.h"
#include "tui/worker.h"

#define QMAX 64

struct Worker {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t wake, resume;
	Session *s;
	const Lesson *lesson;
	Job q[QMAX];
	int qh, qn, quit, cancel;
	Job cur; /* the job running, when busy */
	Shown shown;
	/* worker thread only */
	double last_cond, cond_cost, sample_epoch, t_job;
	int sample_k;         /* the κ series' next point (worker_series_samples) */
	const Net *sampled;   /* the network the κ series belongs to */
	double acc_before;    /* test accuracy before the running job */
	double alg1_acc_prev; /* of the network before the Algorithm-1 iteration under way */
	int sweep_trials;     /* trials reported in the sweep under way */
	Hook hooks;
	int last_comp; /* the compensation of the squeeze decisions under way */
	/* the Plane view (worker_plane.c): when the regions were last computed
	 * while a network trained and what that cost; the network before
	 * Algorithm 1's last step and the CRC-32 of the one it left */
	double plane_last, plane_cost;
	Net *plane_before;
	uint32_t plane_after_crc;
	int plane_step, plane_step_layer; /* what plane_before is before: 1 Algorithm 1's step,
	                                   * 2 a squeeze decision of that layer */
	char note[NARR_LEN];              /* a lesson's opening words (worker_play_note) */
	/* the speed of training (worker_pace.c): a step of one epoch asked, and
	 * when the last epoch ended */
	int step_epoch;
	double epoch_at;
	/* the screen a step back goes to, when the keys set one (worker_play.c) */
	int back_want;
	/* the network diagram (worker_diagram.c): when it was last sampled while
	 * a network trained, and what that cost */
	double diagram_last, diagram_cost;
	/* a neuron removed by hand beside pivoted QR's choice (worker_action.c) */
	Alg3Hand hand;
};

/* ---- what it says (worker_say.c; the status line and the narration are
 * worker.h's) ---- */

/* 1 when the screen is ending (worker_stop): nothing is published any more. */
int worker_quitting(Worker *w);
/* Stop predicates (hook_set_thread_stop): the screen is ending; or the job
 * under way is cancelled too. */
int worker_stop_quit(void *w);
int worker_stop_any(void *w);

/* ---- the Plane view (worker_plane.c) ---- */

/* Everything it shows for the current network, after a job or a change of
 * τ (nothing but why not, when the data are not in the plane); the same of
 * net at epoch `epoch` while it trains, at most every quarter second unless
 * forced (a slow speed's epoch); before an action, a copy of
 * the network when the action is an Algorithm-1 step that may remove
 * neurons (else NULL), and after it, that copy taken over, to show the
 * step's removals on it. */
void worker_plane_publish(Worker *w);
void worker_plane_sample(Worker *w, const Net *net, double epoch, int force);
Net *worker_plane_before(Worker *w, const SessAction *a);
void worker_plane_step(Worker *w, Net *before);
/* After a squeeze decision applied to layer (before: a copy of the network
 * it was made on, taken over): from the next worker_plane_publish on, the
 * maps of that network with the removals marked, beside the regions of
 * the network now. */
void worker_plane_squeezed(Worker *w, Net *before, int layer);
/* The panels of the squeeze proposal shown (the squeeze preview, on plane
 * data): the network now, without the proposal's neurons, the same
 * compensated, as many removed at random. */
void worker_plane_preview(Worker *w, const Alg3Proposal *sp);

/* ---- the network diagram (worker_diagram.c) ---- */

/* What view 8 shows of the current network (with the squeeze proposal's
 * combinations while one waits), after a job; the same of net while it
 * trains, at most every quarter second unless forced (a slow speed's
 * epoch); frees what a ShownNet holds. */
void worker_diagram_publish(Worker *w);
void worker_diagram_sample(Worker *w, const Net *net, int force);
void worker_diagram_free(ShownNet *d);

/* ---- the speed of training (worker_pace.c) ---- */

/* After epoch te of a training the screen runs: at a slow speed (or a step
 * of one epoch) its regions, maps and diagram drawn, and the rest of the
 * epoch's time waited (a pause, Esc or the screen's end noticed); after a
 * step, paused. */
void worker_pace_epoch(Worker *w, const TrainEpoch *te);
/* ---- the channel maps (worker_channels.c) ---- */

/* What the Plane view shows of a network with convolutions, for the current
 * network, after a job or a change of τ (nothing when it has none). */
void worker_channels_publish(Worker *w);
void channels_shown_free(ShownChannels *c);

/* ---- the session's files (worker_files.c) ---- */

/* Adds to shown.files what the session has read and written by now (the
 * model loaded and saved last, the data set's files, the log, the lesson);
 * an export's file written. */
void worker_files_sync(Worker *w);
int worker_files_exported(Worker *w, const char *path);
void sess_files_free(SessFiles *f);

/* ---- publishing (worker_shown.c) ---- */

/* shown.tau_next and eta_next from the session's values and the τ and η
 * actions queued or running (the mutex held). */
void worker_ahead_locked(Worker *w);
/* Everything the panels show, after a job. */
void worker_publish(Worker *w);
/* All but the layer table and the test accuracy (NaN): what the screen
 * shows at once while the worker measures those. */
void worker_publish_settings(Worker *w);
/* The engine's meter (hook_set_thread_meter) on the worker thread: the
 * conditioning under way into shown.work; done: it ended. */
void worker_meter(const char *what, double frac, void *ud);
void worker_meter_done(Worker *w);
/* The conditioning of net as the layer table (live: while it trains); lc
 * computed for net, taken over. */
void worker_shown_cond(Worker *w, const Net *net, int live);
void worker_shown_lc(Worker *w, const Net *net, LayerCond *lc, int live);
/* The sweep's table (the spreads of β already shown kept) and Algorithm
 * 1's history, the mutex held. */
void worker_shown_sweep_locked(Worker *w, const Alg2 *a);
void worker_shown_alg1_locked(Worker *w, const Alg1 *a, int live);
/* Frees what Shown holds (the lock is not taken). */
void worker_shown_free(Shown *p);

/* ---- the squeeze pass (worker_squeeze.c; the session holds it) ---- */

/* Begin it and show the first proposal; show the proposal the session
 * holds, with its preview, or end the pass when none is left; end it (how:
 * "finished", "stopped"); apply (1) or refuse (0) the proposal shown with
 * compensation comp (-1: as the screen's toggle says), then show the next
 * (0, or -1 when there was none or it failed). */
void worker_sqz_begin(Worker *w);
void worker_sqz_show(Worker *w);
void worker_sqz_finish(Worker *w, const char *how);
int worker_sqz_decide(Worker *w, int apply, int comp);
/* The pass begun at a given hidden layer's proposal (layer 0: the first
 * with something to remove, as worker_sqz_begin), or gone on to it when
 * one is under way; and a decision that shows the next proposal only when
 * show is set (a lesson shows each on a step of its own). */
void worker_sqz_begin_at(Worker *w, int layer);
int worker_sqz_decide_as(Worker *w, int apply, int comp, int show);
/* Applies the proposal shown and every later one (one engine call), then
 * shows the end of the pass. */
void worker_sqz_all(Worker *w);
/* 1 when a decision pressed for proposal seq (ShownSqueeze.seq; 0 any)
 * answers the proposal waiting now; else 0, said on the status line (a
 * decision queued behind a preview whose proposal is gone is not applied to
 * another). */
int worker_sqz_answers(Worker *w, int seq);
/* A decision of the pass was made (the HOOK_ALG3_LAYER step): noted among
 * the pass's decisions, its removals counted, its numbers kept for the
 * export's table. */
void worker_sqz_decided(Worker *w, const HookStep *st);

/* ---- the engine's hooks (worker_hooks.c) ---- */

/* The hooks the engine reports to (progress, step, cancelled). */
Hook worker_hooks(Worker *w);
/* Forgets the trainings charted (κ against epochs, the validation curve
 * and the last training's line): a network that replaced the one they
 * trained has none yet. */
void worker_forget_training(Worker *w);

/* ---- an action (worker_action.c) ---- */

/* Runs a session action with the screen's hooks and narrates the outcome
 * (quiet: leave the status line alone unless it fails); returns
 * session_apply's result. */
int worker_run_action(Worker *w, const SessAction *a, int quiet);
/* Replaces the network by a fresh one of the sweep's pick (undoable). */
void worker_adopt(Worker *w);

/* ---- lessons (worker_play.c) ---- */

/* The caption before action pos into the narration, the next action, one
 * back, a caption written to the log. */
void worker_play_caption(Worker *w, int pos);
void worker_play_next(Worker *w);
/* Back to the screen after target actions (proposal: with the proposal of
 * the squeeze at target): the lesson from its start again, each step as →
 * takes it, so that the screen is the one → showed there. */
void worker_play_back(Worker *w, int target, int proposal);
void worker_caption(Worker *w, const char *text);

/* ---- the export (export.c) ---- */

/* The tables (CSV or Markdown by path's extension) and, beside them, every
 * plot's data and a gnuplot script (run when gnuplot is installed), as
 * report/report_plot.h writes them; on data in the plane, the Plane view's
 * too, and the network diagram with the dropped neuron chosen in it (sel:
 * its layer × 65536 + the neuron, from 0) and its combination. Refused,
 * with one line that names the clash, when one of the files it would write
 * is a file the session reads or writes or another of its own
 * (worker_files_apart); when some exist and overwrite is 0, nothing is
 * written and the screen asks first (shown.ask_path). */
void worker_export(Worker *w, const char *path, int sel, int overwrite);

#endif
