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
#include "base/file_roles.h"
#include "engine/cond.h"
#include "engine/train.h"
#include "session/session.h"
#include "tui/lesson.h"
#include "tui/worker_types.h"

/* The narration line k (0 = oldest kept) of p, for k < worker_narr_count,
 * and its kind. */
int worker_narr_count(const Shown *p);
const char *worker_narr(const Shown *p, int k);
NarrKind worker_narr_kind(const Shown *p, int k);
/* The newest line of kind NARR_OP, or NULL. */
const char *worker_narr_last_op(const Shown *p);

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
/* The speed of the trainings the screen runs, in epochs a second (0: as
 * fast as they go); a change applies at the next epoch's end, or at once to
 * a wait under way. A speed outside the table of limits (LIM_SPEED: one
 * epoch a day to 100,000 a second) is refused: -1 with the message, the
 * speed as it was. */
int worker_set_speed(Worker *w, double speed, Err *e);
/* One epoch more of the running training, then a pause (paused: it goes
 * on for one; running: it pauses at the end of the epoch under way);
 * -1 when no job runs. */
int worker_step_epoch(Worker *w);
/* Cancels the running job (its effect is rolled back). */
void worker_cancel(Worker *w);
/* A lesson's opening words: narrated, and again when a step back returns
 * to its start. */
void worker_play_note(Worker *w, const char *note);
/* The lesson screen (2 × its position, + 1 with a squeeze's proposal) a
 * step back goes to, while it is on its way or asked for: a step back
 * under way stops there, a → pressed meanwhile moves it on (-1: none, the
 * step back's own). */
void worker_play_retarget(Worker *w, int screen);

/* 0 when none of the files out[0..nout) a save (save 1) or an export (0)
 * would write takes the place of a file the session reads or writes, or of
 * another of them; -1 with one line that names the clash ("export m.model:
 * is a model the session loaded (m.model), which the screen never writes
 * over; name another file"). A save may replace a model loaded or saved, an
 * export the files of an earlier export (worker_files.c). */
int worker_files_apart(Worker *w, const FileRole *out, int nout, int save, Err *e);

/* The published state: lock, read, unlock. Hold the lock briefly. */
const Shown *worker_lock(Worker *w);
void worker_unlock(Worker *w);
/* Says something on the status line about the current state (from the
 * screen, e.g. a bad prompt entry); it goes when the state moves on. */
void worker_status(Worker *w, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Says what a request from the screen did (an export written): on the
 * status line, a lesson's too, and in the narration (L keeps it). */
void worker_status_done(Worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
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
