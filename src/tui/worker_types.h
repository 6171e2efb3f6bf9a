/* tui/worker_types.h - what the worker and the screen share: the jobs the
 * screen submits (worker.h), and the state the worker publishes for the
 * panels to draw (Shown: the layer table, the algorithms, the squeeze pass,
 * the Plane view, the series, the narration, the progress), which the
 * worker's files fill in (worker_shown.c, worker_plane.c, worker_hooks.c,
 * worker_squeeze.c, worker_say.c). */
#ifndef CONDNET_TUI_WORKER_TYPES_H
#define CONDNET_TUI_WORKER_TYPES_H

#include <stdint.h>

#include "alg/alg1_proportion.h"
#include "alg/alg3_combination.h"
#include "alg/alg3_regions.h"
#include "engine/cond.h"
#include "engine/graph.h"
#include "engine/plane.h"
#include "engine/train.h"
#include "report/report.h"
#include "report/report_squeeze.h"
#include "session/session.h"

/* The grids: the regions, and every neuron's map. */
#define PLANE_REGION_PX 128
#define PLANE_MAP_PX 24
/* The training points published at most (evenly spaced through the set). */
#define PLANE_SHOWN_POINTS 2000

/* The panels' grids, and the random draws their random panel is the median
 * of (the squeeze preview's own, tui/worker_squeeze.c). */
#define PLANE_PANEL_PX 64
#define PLANE_PANEL_DRAWS 5

/* A squeeze seen as regions (alg/alg3_regions.h): the network now, with the
 * neurons removed by pivoted QR, the same compensated, and as many removed
 * at random; after an Algorithm-1 step, the network before it with the
 * step's removals, and a fifth panel, the network the step left. */
typedef struct ShownPanels {
	int n;               /* panels: 0 none, 4 a squeeze proposal's, 5 Algorithm 1's step */
	int layer;           /* the squeeze proposal's layer (0 for a step) */
	int removed;         /* neurons removed in all */
	uint32_t crc;        /* the network they belong to: the one the proposal is made on,
	                      * or the one the step left */
	PlaneRegions reg[5]; /* REGION_NOW .. REGION_RANDOM, then the step's network */
	double acc[5];       /* test accuracy, percent */
	int draws, median;   /* the random draws, and the one drawn */
	double mean, sd;     /* over the draws, without compensation */
	double mean_comp, sd_comp; /* with compensation */
} ShownPanels;

/* One hidden layer's maps. */
typedef struct ShownMaps {
	Alg3Combinations c; /* layer, n, nkeep, the pivot order, the combinations */
	float *act;         /* n maps of PLANE_MAP_PX²: map t is σ(z) of neuron c.perm[t] */
	float *comb; /* n − nkeep maps: removed neuron c.perm[nkeep + r]'s combination, of the
	              * kept neurons' activations fitted on the training points (c.act_coef)
	              * or, without that fit, σ(Σ c_k z_k) of its combination in Ŵ */
} ShownMaps;

typedef struct ShownPlane {
	int on;           /* the data set is in the plane (two features) */
	char why[160];    /* else why the view cannot draw it */
	PlaneBox box;     /* the grids' box, from the training points */
	int k;            /* classes */
	int npts;         /* training points published */
	float *pts;       /* npts (x, y) pairs */
	int *lab;         /* npts labels */
	PlaneRegions reg; /* the current network's regions (w = 0: none yet) */
	int live;         /* reg and maps are of the network being trained: the maps are in
	                   * pivoted-QR order, without the squeeze's marks */
	double epoch;     /* live: the epoch (fractional) of the training they are of */
	double acc;       /* the current network's test accuracy, percent */
	int m;            /* layers of the network the maps are of */
	ShownMaps *maps;  /* m − 1 hidden layers */
	double tau;       /* the τ the marks are decided at */
	int step;         /* the maps are of the network before the last removal, the marks its
	                   * removals (in pivoted-QR order): 1 Algorithm 1's step, 2 a squeeze
	                   * decision (of layer step_layer); 0 of the network now */
	int step_layer;
	uint32_t crc;   /* the network the maps are of */
	ShownPanels pn; /* the panels of the squeeze proposal shown or of that step */
} ShownPlane;

/* The network diagram (view 8): the weights among the first DIAG_MAX
 * neurons of every layer, and on data in the plane what the inputs and the
 * outputs give over it (the hidden neurons' maps are the Plane view's); the
 * combinations of the squeeze proposal waiting. */
#define DIAG_MAX 64
typedef struct ShownNet {
	int m;              /* layers, 0: no network */
	int *n;             /* n[0..m] */
	float **w;          /* m: min(n[i], DIAG_MAX) × min(n[i+1], DIAG_MAX) weights of layer
	                     * i + 1, row-major (row: the neuron it comes from); NULL for a
	                     * convolution */
	double *wmax;       /* m: the largest |w| of each layer, over all its weights */
	int plane;          /* the maps below are there */
	unsigned inputs;    /* the inputs beyond x and y (data/plane_inputs.h) */
	float *in_maps;     /* min(n[0], DIAG_MAX) maps of PLANE_MAP_PX²: each input */
	float *out_maps;    /* n[m] maps: each class's probability */
	float **hid_maps;   /* m − 1: hidden layer i + 1's first min(n, DIAG_MAX) neurons'
	                     * activations over the plane, in their order */
	Alg3Combinations c; /* the squeeze proposal's (c.layer 0: none waits) */
	int live;           /* of the network being trained */
	uint32_t crc;       /* of the network described (0 live) */
	Graph *graph;       /* a graph network's nodes (a copy; m is then 0), else NULL */
} ShownNet;
/* The Plane view's counterpart on a network with convolutions: on example
 * images of the test set (the first of each class), the maps of every
 * convolution layer's channels in pivoted-QR order, each kept or dropped by
 * the squeeze at τ, a dropped one's beside the map of the combination of
 * kept channels that replaces it (worker_channels.c). */
#define CHAN_EXAMPLES 10

typedef struct ShownChanLayer {
	Alg3Combinations c; /* layer, n channels, nkeep, pivot order, combinations */
	int h, w;           /* a map's size, as the layer gives it (after its pool) */
	float *act;         /* nex × n maps: of example e, map t is channel c.perm[t]'s */
	float *comb;        /* nex × (n − nkeep) maps: those of the combinations */
} ShownChanLayer;

typedef struct ShownChannels {
	int on;                   /* the network has convolutions */
	char why[160];            /* why there are no maps, when on and none */
	int nex;                  /* examples */
	int row[CHAN_EXAMPLES];   /* their rows in the test set */
	int label[CHAN_EXAMPLES]; /* and classes */
	int c, h, w;              /* the images */
	float *img;               /* nex images of c·h·w values */
	double tau;               /* the τ the marks are decided at */
	int nconv;                /* layers of maps */
	ShownChanLayer *layers;   /* nconv */
} ShownChannels;

typedef enum JobKind {
	JOB_ACTION,     /* a session action */
	JOB_SQZ_START,  /* begin a squeeze pass at the first hidden layer with κ > τ */
	JOB_SQZ_DECIDE, /* apply (apply = 1) or refuse the proposal shown, then the next;
	                 * target: the proposal (ShownSqueeze.seq) it answers, 0 any */
	JOB_SQZ_ALL,    /* apply the proposal shown and every later one (target: as above) */
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
	SessAction a; /* JOB_ACTION */
	int apply; /* JOB_SQZ_DECIDE: apply (1) or refuse (0); JOB_EXPORT: over files that exist */
	char path[1024];
	int quiet;    /* leave the status line alone (queued behind a running job) */
	int target;   /* JOB_PLAY_BACK: the lesson position to go back to; JOB_EXPORT: the
	               * network diagram's neuron chosen, layer × 65536 + neuron */
	int proposal; /* JOB_PLAY_BACK: and the proposal of its squeeze shown */
} Job;

/* A β of the sweep shown is report/'s ReportBeta (its means over the
 * trials done, the least and largest 2ε_v − ε_tr of single trials), and a
 * decision of a squeeze pass its SqueezeDecisionRow (the test accuracy after
 * it in percent): the export renders what the screen shows as it is. */
#define SQZ_DEC_MAX 64

/* Random orders the screen's what-if line measures beside the QR choice and
 * the norm rule: the draws the Plane view's random panel is the median of. */
#define SQZ_PREVIEW_DRAWS PLANE_PANEL_DRAWS

typedef struct ShownSqueeze {
	int active;    /* a pass is under way */
	int waiting;   /* a proposal waits for y / n / a */
	int seq;       /* proposals shown so far: a decision names the one it answers */
	int measuring; /* the preview of the proposal shown (its what-if) runs */
	int comp;      /* compensation for the next apply */
	int layer, n_before, nkeep, p_qr, nrdiag;
	double kappa_before, kappa_after;
	/* a graph network's proposal: its channel group (from 1; 0 a layer's,
	 * layer then 0), its producer layers ("1 stem, 3 b0_conv2"), its units
	 * before and kept in n_before and nkeep, κ of its stack in kappa_before */
	int group;
	char producers[1024];
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
	SqueezeDecisionRow dec[SQZ_DEC_MAX]; /* the same, as numbers (for the export) */
	int ndec;
	int removed;                              /* neurons removed in this pass */
	int undone;                               /* an undo followed the pass */
	double acc_start, acc_end, acc_retrained; /* NaN when unknown */
} ShownSqueeze;

/* The points the κ series of a training of span epochs is sampled at
 * (worker_hooks.c): every epoch of one of 16 to 64 epochs, else 16
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
	double *loss;               /* n: the training loss (mean over the epoch's batches) */
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

/* The files the session reads and writes (worker_files.c): what the
 * screen's save and export never write over. */
typedef enum SessFileKind {
	SFILE_LOADED,   /* a model a load read (--load, o, a lesson's) */
	SFILE_DATA,     /* a file of the data set read, or its directory (names) */
	SFILE_LOG,      /* the session log */
	SFILE_LESSON,   /* the lesson played */
	SFILE_SAVED,    /* a model a save wrote */
	SFILE_EXPORTED, /* a file an export wrote */
} SessFileKind;
typedef struct SessFile {
	SessFileKind kind;
	char *path;
	const char *const *names; /* a directory: the names of the files read in it */
} SessFile;
typedef struct SessFiles {
	SessFile *f;
	int n, cap;
} SessFiles;

typedef struct Shown {
	/* data and network */
	char data[256];
	int m;
	int *n; /* n[0..m] */
	size_t nparam;
	LayerCond *lc;                 /* m entries at tau, or NULL */
	int *bias0;                    /* m entries: 1 when the layer's biases are all zero */
	char (*kind)[48];              /* m entries with convolutions: what each layer is
	                                * (report_layer_kind); NULL for a dense network */
	char conv_shape[256];          /* with convolutions, net_shape_str; "" for a dense one;
	                                * for a graph network what it is */
	int graph;                     /* a graph network: its layers its Conv and Gemm nodes,
	                                * n[i] the outputs of layer i, kind each one's shape */
	char (*lname)[GRAPH_NAME];     /* graph: m entries, each layer's node's name or "node K" */
	int live;                      /* lc was taken during training */
	double tau;                    /* the session's: the τ κ is marked against */
	double set[SESS_SET_MAX];      /* the session's settings that are numbers, by their
	                                * rows of the settings table (session_setting.h) */
	double set_next[SESS_SET_MAX]; /* as they will be once the changes queued (or
	                                * running) apply: set when none is */
	double lr;                     /* the base learning rate (--lr) */
	LrSchedule sched;              /* the schedule of later trainings */
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
	ReportBeta *beta;                /* widths NULL: the screen shows the pick's alone */
	int nbeta, q, pick, sweep_state; /* 0 none, 1 running, 2 finished, 3 cancelled */
	double sweep_eta, sweep_secs;    /* its η; seconds spent so far */
	char pick_shape[256];            /* the pick's widths n_0-…-n_m, "" without one */
	ShownSqueeze sq;
	ShownPlane pl;    /* the Plane view's */
	ShownChannels ch; /* its channel maps, for a network with convolutions */
	ShownNet net;     /* the network diagram's */
	ShownSeries ks;
	ShownEpochs ep;
	/* narration */
	char (*narr)[NARR_LEN];
	unsigned char narr_kind[NARR_MAX]; /* NarrKind of each kept line */
	int nnarr; /* lines ever written; the last min(nnarr, NARR_MAX) are kept */
	/* progress */
	int busy, paused, queued; /* paused ends with the job it paused */
	double speed;             /* epochs a second of the trainings on the screen, 0: full */
	int paused_epoch;         /* the epoch a step of one paused after, 0: none */
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
	/* the message is also for a lesson's status line, which otherwise says
	 * only refusals and failures (an export's account: worker_status_done) */
	int status_lesson;
	/* a lesson played (worker_start with one) */
	int play_pos;  /* lesson actions applied */
	int playing;   /* 1 while a lesson step runs */
	int replaying; /* 1 while a step back replays the lesson */
	/* the files the session reads and writes (worker_files.c); lost: one
	 * could not be kept (out of memory), and a save or export is refused */
	SessFiles files;
	int files_lost;
	/* an export that would write over existing files asks first: its name
	 * and the question (ask_path "": none), the diagram's choice it goes with */
	char ask_path[1024], ask_q[1200];
	int ask_target;
} Shown;

typedef struct Worker Worker;

#endif
