/* session.h - the state of an interactive session, the actions that change
 * it (session.c, with its undo stack in session_undo.c and its squeeze pass
 * in session_squeeze.c), an action as a log line (session_action.c), and
 * the session log file (session_log.c).
 *
 * Every change the screen makes goes through session_apply(), one action at a
 * time, in order; each completed action is appended to the log as one line.
 * `condnet replay LOG` feeds the same lines to session_apply() without a
 * screen, so the same log gives bit-identical networks. An action that is
 * cancelled is rolled back and not logged (a cancelled Algorithm-1 run keeps
 * its finished iterations and is logged with their count).
 *
 * Adopting the pick of a β sweep is logged as the `net` action it amounts
 * to (the pick's widths, fresh weights), after a '#' note naming β, so the
 * line replays without the sweep.
 *
 * Log line grammar: a verb, then space-separated key=value fields; values
 * escape '%', space and control characters as %XX. Lines starting with '#'
 * and blank lines are ignored by replay; of those, a line "#: TEXT" is a
 * caption that a lesson player shows between the actions around it (the
 * screen records them; TEXT is free, unescaped).
 *   data spec=S [dir=D] features=N label_col=N seed=N limit=N val_frac=X val_per_class=N
 *        [points=N noise=X]   (a plane data set's points and noise, as drawn: the
 *                              screen writes them whether given or the set's own)
 *        [inputs=K] [shape=CxHxW]   (MNIST's and Fashion's inputs when not the
 *                              paper's, --inputs; a CSV's images, --shape)
 *   opts batch=N lr=X [threads=N]
 *   net layers=L act=A act_a=X seed=N   (L as --layers: widths, convolutions)
 *   load path=P [crc=HEX] [seed=N]   (N: the seed of later trainings; without
 *                            it they keep the session's)
 *   tau X | eta X | sched SPEC [warmup=W]
 *                           (the settings, a row each of session_setting.c's
 *                            table: τ, η, and the learning-rate schedule of
 *                            later trainings, a sched_parse spec, W epochs of
 *                            warm-up)
 *   train X [patience=P]    (X epochs, the cap with P: early stopping on the
 *                            validation split, which a plateau schedule also
 *                            trains beside)
 *   alg1-step | alg1-run [steps=N]
 *   sweep betas=B q=N
 *   squeeze layer=N apply|refuse [comp=0|1]
 *   squeeze group=N apply|refuse [comp=0|1]
 *                           (Algorithm 3's decision for hidden layer N of a
 *                            chain, or for channel group N of a graph
 *                            network: alg/alg3_groups.h; comp=1 refits
 *                            what reads the units removed)
 *   neuron add layer=N seed=S | neuron remove layer=N neuron=J
 *                           (a neuron of hidden layer N added, its weights
 *                            drawn from S, or neuron J, from 1, removed:
 *                            engine/net_hand.h; every other weight kept)
 *   layer add after=N | layer remove layer=N
 *                           (a hidden layer added after layer N, 0 the
 *                            inputs, starting as the identity; or hidden
 *                            layer N removed, its weights multiplied into
 *                            the next layer's)
 *   inputs NAMES seed=S     (data in the plane: the inputs beyond x and y,
 *                            data/plane_inputs.h, "none" for none; the new
 *                            inputs' weights drawn from S, the others kept)
 *   undo | save path=P
 * A field given twice is refused, a bare value as a named one. */
#ifndef CONDNET_SESSION_H
#define CONDNET_SESSION_H

#include <stdint.h>
#include <stdio.h>

#include "alg/alg1_proportion.h"
#include "alg/alg2_scale.h"
#include "alg/alg3_groups.h"
#include "alg/alg3_squeeze.h"
#include "base/err.h"
#include "data/dataset.h"
#include "data/datasets.h"
#include "data/text.h"
#include "engine/hook.h"
#include "engine/net.h"
#include "engine/train.h"
#include "engine/train_plan.h"

/* The kinds of action, in the order the actions table lists them (the
 * settings, τ, η and the schedule, are one kind: session_setting.h). */
typedef enum SessKind {
	SESS_DATA = 0,
	SESS_OPTS,
	SESS_NET,
	SESS_LOAD,
	SESS_SET,
	SESS_TRAIN,
	SESS_ALG1_STEP,
	SESS_ALG1_RUN,
	SESS_SWEEP,
	SESS_SQUEEZE,
	SESS_NEURON,
	SESS_LAYER,
	SESS_INPUTS,
	SESS_UNDO,
	SESS_SAVE,
	SESS_KIND_COUNT
} SessKind;

/* Each action's fields, a member each (session_action.c's table says how
 * each is written in a log line and read back). */
typedef struct SessDataArgs {
	char spec[256];    /* the data set, as --data names it */
	char dir[1024];    /* its directory ("" = the default) */
	int features;      /* the features kept, 0 = all */
	int label_col;     /* a CSV's label column, -1 = the last */
	uint64_t seed;     /* a synthetic set's seed */
	int limit;         /* rows read, 0 = all */
	double val_frac;   /* the validation fraction (Algorithm 2's split) */
	int val_per_class; /* or rows per class of it, 0 = by the fraction */
	int scale;         /* DATA_RAW, DATA_CENTER or DATA_STANDARDIZE */
	int points;        /* a plane data set's training points, 0 = its default */
	int has_noise;     /* noise is given (else a plane data set's own) */
	double noise;      /* a plane data set's noise */
	int inputs;        /* MNIST's and Fashion's inputs (MnistInputs, data/mnist.h) */
	int shape[3];      /* a CSV's images (--shape), zeros: none */
} SessDataArgs;

typedef struct SessOptsArgs {
	int batch;
	double lr;
	int threads; /* threads to compute on, 0 = as the environment says */
} SessOptsArgs;

typedef struct SessNetArgs {
	char layers[256]; /* the hidden widths and convolutions, as --layers */
	int act;          /* ActKind */
	double act_a;     /* the activation's scale */
	uint64_t seed;    /* the weights' and the trainings' seed */
} SessNetArgs;

typedef struct SessLoadArgs {
	char path[1024]; /* the model file, or with onnx an ONNX file */
	int onnx;        /* 1: path is an ONNX model, imported (a chain or a graph) */
	int has_crc;
	uint32_t crc; /* CRC-32 of the loaded parameters */
	int has_seed;
	uint64_t seed; /* the seed of the trainings that follow */
} SessLoadArgs;

typedef struct SessSaveArgs {
	char path[1024];
} SessSaveArgs;

/* A setting: which (its row of the settings table) and its value. */
typedef struct SessSetArgs {
	int id;         /* SessSettingId (session_setting.h) */
	double value;   /* SET_NUMBER: the number */
	char spec[256]; /* SET_SCHEDULE: the schedule, as sched_parse reads it */
	double warmup;  /* SET_SCHEDULE: epochs of warm-up */
} SessSetArgs;

typedef struct SessTrainArgs {
	double epochs; /* the epochs, the cap with patience */
	int patience;  /* early stopping after this many epochs, 0 = none */
} SessTrainArgs;

typedef struct SessRunArgs {
	int steps; /* at most this many iterations, 0 = until done */
} SessRunArgs;

typedef struct SessSweepArgs {
	char betas[256]; /* the β list, as --beta */
	int q;           /* trainings per β */
} SessSweepArgs;

typedef struct SessSqueezeArgs {
	int layer; /* a chain's hidden layer, 1..m-1 (0: a group's) */
	int group; /* a graph network's channel group, from 1 (0: a layer's) */
	int apply; /* 1 apply, 0 refuse */
	int comp;  /* refit the next layer (compensation) */
} SessSqueezeArgs;

typedef struct SessNeuronArgs {
	int add;       /* 1 add, 0 remove */
	int layer;     /* the hidden layer, 1..m-1 */
	int neuron;    /* remove: the neuron, from 1 */
	uint64_t seed; /* add: its weights' seed */
} SessNeuronArgs;

typedef struct SessLayerArgs {
	int add;   /* 1 add, 0 remove */
	int after; /* add: the layer it follows, 0..m-1 (0: the inputs) */
	int layer; /* remove: the hidden layer, 1..m-1 */
} SessLayerArgs;

typedef struct SessInputsArgs {
	char names[256]; /* the plane's inputs beyond x and y, "none" for none */
	uint64_t seed;   /* the new inputs' weights' seed */
} SessInputsArgs;

/* One action: its kind and that kind's fields. */
typedef struct SessAction {
	SessKind kind;
	union {
		SessDataArgs data;
		SessOptsArgs opts;
		SessNetArgs net;
		SessLoadArgs load;
		SessSetArgs set;
		SessTrainArgs train;
		SessRunArgs run;
		SessSweepArgs sweep;
		SessSqueezeArgs squeeze;
		SessNeuronArgs neuron;
		SessLayerArgs layer;
		SessInputsArgs inputs;
		SessSaveArgs save;
	};
} SessAction;

/* The most settings the settings table holds (session_setting.h). */
#define SESS_SET_MAX 8

/* Longest log line (without its newline) that session_parse and replay
 * accept; every action's line fits, escapes included. */
#define SESS_LINE_MAX 4094

/* The verb of an action's log line: its kind's, or for a setting the
 * setting's name ("tau"). */
const char *session_action_name(const SessAction *a);
/* Writes the action as one log line (no newline) into buf; returns buf. */
const char *session_format(const SessAction *a, char *buf, size_t len);
/* The same, but 0 only when the whole line fits in len bytes; -1 with a
 * message otherwise (buf then holds a cut line that must not be used). */
int session_format_line(const SessAction *a, char *buf, size_t len, Err *e);
/* Parses one log line (without its newline). Returns 1 for an action, 0 for
 * a comment or blank line, -1 with a message saying what was expected. */
int session_parse(const char *line, SessAction *a, Err *e);
/* Checks every number of a against the table of limits (engine/limits.h),
 * as session_parse does with the text of a log line, and its widths and β
 * list as --layers and --beta parse them: session_apply refuses what a log
 * would refuse, so the screen never logs a line that does not replay. The
 * fields named as in the log ("lr: 1e+300 must be at most 10"). */
int session_check(const SessAction *a, Err *e);

typedef struct SessSnapshot {
	Net *net;
	Alg1 *alg1;
	int alg1_live;
	long ntrain;
	/* before an inputs action: the data sets and their inputs (else NULL) */
	Dataset *train, *test;
	unsigned inputs;
} SessSnapshot;

typedef struct Session {
	char data_spec[256], data_dir[1024];
	DataSpec dspec;
	double val_frac;
	int val_per_class;
	Dataset *train, *test;
	unsigned inputs;                   /* data in the plane: the inputs beyond x and y in
	                                    * train and test (data/plane_inputs.h) */
	Dataset *plain_train, *plain_test; /* the data action's sets, kept from the first
	                                    * inputs action on (NULL before) */
	Dataset *sweep_tr, *sweep_v;       /* Algorithm 2's split of train, made on first use */
	TrainOpts topt;                    /* batch, lr, threads and the schedule (topt.sched) */
	int jobs; /* trials a β sweep runs at once (Alg2Opts.jobs; the same results) */
	uint64_t seed;
	Net *net;       /* the current network */
	Alg1 *alg1;     /* Algorithm 1 (its history), NULL until the first step */
	int alg1_live;  /* 1 while alg1 continues from net; 0 after another change */
	Alg2 *sweep;    /* the last β sweep */
	int sweep_done; /* 1 when it ran to the end */
	Alg3 *sq;       /* the squeeze pass under way (on net), or NULL: any action
	                 * but squeeze and save ends it */
	/* a graph network's squeeze pass (session_squeeze_graph.c): net's
	 * channel groups (NULL: no pass), the group proposed (gprop.group 0:
	 * none) and the units it removes (gdrop[u] for unit u) */
	ChannelGroups *gg;
	GroupDecision gprop;
	unsigned char *gdrop;
	double tau, eta;
	double setv[SESS_SET_MAX]; /* the settings no engine code keeps: their values, by
	                            * their rows of the settings table */
	long ntrain;               /* train actions so far: the next one's shuffle seed */
	TrainResult trained;       /* what the last train action did (epochs, the epoch
	                            * kept, its validation accuracy) */
	SessSnapshot *undo;        /* snapshots before each structural change */
	int nundo, capundo;
	const Net *training; /* the network a `train` action trains now, or NULL */
	int dirty;           /* changed since the last save or load */
	char loaded[1024];   /* the model file the last load read, "" none */
	char saved[1024];    /* the model file the last save wrote, "" none */
	int replay;          /* 1: save actions write nothing */
	FILE *log;
	char log_path[1024];
	int log_err; /* errno of the write that lost the log (it is closed then), or 0 */
} Session;

/* An empty session: τ and η of alg1_opts_default, no data. Apply DATA first. */
Session *session_new(Err *e);
/* The session as session_new and its DATA action left it: the data sets
 * (and the log) are kept, everything else is forgotten (network, history,
 * sweep, undo, τ, η, options, seed). Applying a log's later actions again
 * then gives the same state as replaying the whole log. */
void session_rewind(Session *s);
void session_free(Session *s); /* accepts NULL; closes the log */

/* Applies one action, reporting to h (may be NULL: replay). Returns 0 when
 * done (and logged, when a log is open), 1 when the hook cancelled it
 * (state as before, except a cancelled ALG1_RUN which keeps and logs its
 * finished iterations), -1 on error (state as before, message in e).
 *
 * A train action trains the whole training set, or, with patience or under
 * a plateau schedule, Algorithm 2's training part while measuring its
 * validation part after every epoch (train_plan_fit: every epoch is a
 * HOOK_EPOCH step with its learning rate and validation loss and accuracy,
 * and early stopping keeps the best epoch); s->trained says what it did.
 *
 * A squeeze action applies (or refuses) the proposal the session holds for
 * that layer (a graph network's: that channel group) when a squeeze pass is
 * under way (session_squeeze_start), and then proposes the next; without a
 * pass (a log replayed) the layer's or group's proposal is made on the
 * spot, as Algorithm 3 makes it. A proposal's
 * decompositions ask the calling thread's stop (hook_set_thread_stop): a
 * stop there ends the pass; the action made on the spot then returns 1,
 * one under way is done and logged, with no proposal after it. */
int session_apply(Session *s, const SessAction *a, const Hook *h, Err *e);

/* The session's τ and η, and those of its Algorithm 1 (alg1_set_tau,
 * alg1_set_eta): the setters the tau and eta actions apply. τ follows
 * Algorithm 1's rule (alg1_check_tau), η is a positive number of epochs; -1
 * with nothing changed otherwise. A τ change leaves an Algorithm 1 that has
 * ended behind: the next step starts a new one from the network. */
int session_set_tau(Session *s, double tau, Err *e);
int session_set_eta(Session *s, double eta, Err *e);

/* A squeeze pass over the current network at the session's τ: Algorithm 3,
 * one layer at a time, each decision a logged squeeze action. 0, with a
 * proposal waiting for a decision (session_squeeze_proposal) or none when
 * no layer has anything to remove (the pass is then over); 1 when the
 * calling thread's stop stopped a proposal (no pass); -1 on error.
 * Nothing is logged: the pass changes the network only through squeeze
 * actions. */
int session_squeeze_start(Session *s, Err *e);
/* On a graph network the pass goes group by group in the graph's order
 * (alg/alg3_groups.h, the paper's pivoted QR of each group's stacked Ŵ at
 * the session's τ): a group is proposed when its units may all be removed
 * and its stack's κ is over τ; its decision is a squeeze action naming the
 * group, which session_squeeze_proposal does not show: the group proposed
 * is session_group_proposal's (NULL when none waits), its groups
 * session_groups'. */
const GroupDecision *session_group_proposal(const Session *s);
const ChannelGroups *session_groups(const Session *s);
/* The test accuracy in percent of the network with the group proposed
 * squeezed, its readers refitted first when comp (NaN without a proposal
 * or a test set). The network is not changed. 0, 1 when the calling
 * thread's stop said stop, -1 with a message. */
int session_group_whatif(const Session *s, int comp, double *acc, Err *e);
/* A squeeze pass whose first proposal is the given hidden layer's, as a
 * recorded decision for it is replayed (a lesson shows the proposal its
 * next action decides). 0 with the proposal waiting, 1 when the thread's
 * stop said stop in the layer's decompositions, or -1 with a message. */
int session_squeeze_propose(Session *s, int layer, Err *e);
/* Applies the proposal waiting and every later one, with compensation comp,
 * each a logged squeeze action (the rest of Algorithm 3 at once: no
 * proposal is measured beyond what the algorithm decides); the pass is
 * then over. Asks h between decisions: 1 when it cancelled (the decisions
 * made stay, the next proposal waits), 0, or -1 at a decision that failed
 * (message in e). */
int session_squeeze_apply_all(Session *s, int comp, const Hook *h, Err *e);
/* The proposal waiting for a decision, or NULL. */
const Alg3Proposal *session_squeeze_proposal(const Session *s);
/* Ends the pass (the network keeps the decisions made). */
void session_squeeze_stop(Session *s);

/* Appends to path (creating it and its directories); every later applied
 * action is written there as a line and flushed. The log is locked
 * (fcntl): a second session given the same path refuses it, naming the
 * process that holds it, rather than interleave its lines. A line that
 * cannot be written (a full disk, the file size limit) is taken back, the
 * log closed, and its errno kept in s->log_err: a log missing a line would
 * replay to another network, so nothing more is written. */
int session_log_open(Session *s, const char *path, Err *e);
/* What session_log_open checks before it creates anything: a FIFO, a
 * directory or another file that is not a regular file at path is refused
 * (same messages), without opening it. */
int session_log_check_path(const char *path, Err *e);
/* Writes one action as a line to the open log (nothing when none is open);
 * session_apply calls it for each completed action. An opts line is
 * followed by the record of what the trainings compute with (base/repro.h),
 * a comment older versions skip:
 *   # run reproducible=on kernels=Haswell threads=2 parts=2 */
void session_log_action(Session *s, const SessAction *a);
#define SESS_RUN_PREFIX "# run "
/* Whether a log (or lesson) records kernels or parts other than a replay
 * here would compute with: 0 when every record matches, there is none, or
 * the file cannot be read (the replay says so); else -1 and e holds the
 * warning to show: "LOG:LINE: recorded with Haswell kernels, 2 parts; this
 * run: SkylakeX, 2 parts — numbers may differ". */
int session_log_check(const char *path, Err *e);
/* Writes "# TEXT" to the open log (newlines become spaces). */
void session_log_note(Session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Writes the caption "#: TEXT" to the open log (control characters become
 * spaces). */
void session_log_caption(Session *s, const char *text);
/* The text of a caption line ("#: TEXT", leading blanks allowed), without
 * its newline, into buf; 1 for a caption, 0 for any other line. */
int session_caption(const char *line, char *buf, size_t len);

/* The default logs kept: starting a session removes the oldest
 * session-*.log files of the log directory beyond this many. */
#define SESS_LOG_KEEP 50
/* $XDG_STATE_HOME/condnet/session-YYYYmmdd-HHMMSS.log, else under
 * ~/.local/state/condnet (-2, -3, … appended when two start in the same
 * second; without HOME, under the user's home directory from the system,
 * else the current one, as for the data directory); the directories are
 * created (a failure says it is the session log's directory, and how to
 * choose another), and the oldest session-*.log files there are removed so
 * that, with the new one, SESS_LOG_KEEP remain. */
int session_default_log_path(char *buf, size_t len, Err *e);
/* The directory of the default logs (ending in '/'), without making it. */
int session_log_dir(char *buf, size_t len, Err *e);
/* 1 when path is the null device (--log /dev/null): no log is kept. */
int session_log_is_none(const char *path);

/* The session as its data action left it (session_rewind), then a[0..n)
 * applied in order, as a replay applies a log's lines (a lesson stepped
 * back). Before each, h gets the HOOK_NOTE "replaying action K of N".
 * *done receives how many were applied. 0; 1 when the hook cancelled one
 * (the first *done stay applied); -1 at the first that failed (message in
 * e). */
int session_replay_actions(Session *s, const SessAction *a, int n, const Hook *h, int *done,
                           Err *e);
/* Reads a log and applies every line: 0; 1 when the hook cancelled an
 * action ("LOG:LINE: cancelled", the lines before it applied); -1, the
 * message reading "LOG:LINE: …". */
int session_replay(Session *s, const char *path, const Hook *h, Err *e);
/* The one reader of session logs and lessons: path opened as a text file
 * (data/text.h: a regular file; a NUL byte refused; LF, CRLF or CR line
 * ends) whose lines hold at most SESS_LINE_MAX bytes. A longer line is
 * refused as a whole ("PATH:LINE: line longer than 4094 bytes"), never read
 * in pieces of which one could pass for an action. Lines are read with
 * text_next, actions with session_log_next; text_close ends it. */
int session_log_read(TextFile *t, const char *path, Err *e);
/* The next action of a log open in t (t->line counts the lines read): 1
 * with a filled, 0 at the end, -1 with "LOG:LINE: …" for a line that does
 * not parse, holds a NUL byte or is longer than SESS_LINE_MAX. Comments and
 * blank lines are skipped. */
int session_log_next(TextFile *t, SessAction *a, Err *e);

/* CRC-32 (zlib) of the parameter bytes. */
uint32_t session_param_crc(const Net *net);
/* The network of a load: the model file path (a chain or a graph network),
 * or with onnx the ONNX file, imported as `condnet import` reads it. NULL
 * with a message. */
Net *session_read_net(const char *path, int onnx, Err *e);
/* 0 when graph is 0 (a chain, or no network); else -1 and "WHAT is not
 * available for graph networks yet": what the session and the screen ask
 * before anything that works layer by layer through W and b. */
int session_refuse_graph(int graph, const char *what, Err *e);
/* Test accuracy in percent of the current network into *acc (NaN without
 * a network or a test set). 0, 1 when the calling thread's stop said stop
 * (acc NaN), -1. */
int session_test_acc(const Session *s, double *acc, Err *e);
/* Number of undoable changes. */
int session_can_undo(const Session *s);
/* The network being trained right now by a `train` action or inside an
 * Algorithm-1 step (for a hook to measure), else NULL. Valid only during
 * the hook call. */
const Net *session_training(const Session *s);
/* The `net` action that adopts the last β sweep's pick: its hidden widths,
 * the current activation and seed. *beta gets the pick's β. -1 when no
 * sweep has finished. */
int session_adopt_action(const Session *s, SessAction *a, double *beta, Err *e);

#endif
