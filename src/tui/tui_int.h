/* tui/tui_int.h - what the screen's files share: the screen's own state,
 * its prompts (prompt.c) and its keys (keys.c). */
#ifndef CONDNET_TUI_TUI_INT_H
#define CONDNET_TUI_TUI_INT_H

#include "session/session_setting.h"
#include "tui/lesson.h"
#include "tui/views.h"
#include "tui/worker.h"

typedef enum PromptKind {
	P_NONE = 0,
	P_SETTING, /* a number of the settings table, Tui.pset */
	P_EPOCHS,
	P_BETAS,
	P_Q,
	P_SAVE,
	P_OVERWRITE,        /* the file to save to exists */
	P_EXPORT_OVERWRITE, /* files the export would write exist */
	P_OPEN,
	P_EXPORT,
	P_QUIT,    /* one key: an operation runs, or there is unsaved work */
	P_CAPTION, /* a caption for the log */
	P_SCHED,   /* the learning-rate schedule, then its warm-up, then the patience */
	P_WARMUP,
	P_PATIENCE,
	P_INPUTS, /* the inputs of data in the plane */
} PromptKind;

typedef struct Tui {
	Worker *w;
	UiState u;
	PromptKind pk;
	int pset; /* P_SETTING: the setting asked for (its row of the settings table) */
	char prompt[1200], input[1024], def[1024];
	size_t ilen;
	char betas[256];    /* the β list while q is asked */
	char beta_def[256]; /* what b proposes: the β list and q */
	int q_def;
	char data_name[64];   /* for the default file names */
	int patience;         /* early stopping of every t training, 0: none */
	int epochs_def;       /* the epochs t proposes */
	int speed_given;      /* the speed is --speed's, whatever a lesson says */
	char sched[256];      /* the schedule typed while its warm-up and patience are asked */
	double warmup;        /* the warm-up typed while the patience is asked */
	char model[1024];     /* the last path saved or opened */
	char overwrite[1024]; /* the path an overwrite question is about */
	int export_target;    /* the diagram's choice of the export asked about */
	int quit;
	int quit_after_save; /* on the way out: 1 a save is asked for, 2 it is on its way */
	const Lesson *lesson;
	double next_at; /* when a lesson played with a delay takes its next step */
	int was_busy;
	int small_asked; /* the terminal is too small and q asked about unsaved work */
} Tui;

/* Requests to the worker. */
void tui_submit(Tui *t, const Job *j);
/* 1 (after saying so) when an operation runs: others are refused. */
int tui_refuse_busy(Tui *t);
/* 1, saying "WHAT is not available for graph networks yet", when the
 * network shown is a graph; else 0. */
int tui_refuse_graph(Tui *t, const char *what);
void tui_submit_action(Tui *t, const SessAction *a);
void tui_submit_kind(Tui *t, JobKind k, int apply);
/* A setting (session_setting.h): submitted quietly behind a running
 * operation, which keeps the old value; 1 when one runs (the caller says
 * so). */
int tui_submit_setting(Tui *t, Job *j);
/* A number of the settings table (its row id), held to its bounds: queued
 * behind a running operation, which keeps the old value. */
void tui_set_value(Tui *t, int id, double x);
/* The schedule (a sched_parse spec) and its warm-up, queued the same way. */
void tui_set_sched(Tui *t, const char *spec, double warmup);

/* What a key does to the text typed at a prompt (input, *len bytes of cap):
 * Enter answers, Esc cancels, Backspace takes a whole UTF-8 character back,
 * Ctrl-U clears, a printable byte is added; with one_key (a y/n question)
 * any key but Esc is the answer. */
typedef enum PromptEdit { PROMPT_EDITED = 0, PROMPT_ANSWER, PROMPT_CANCEL } PromptEdit;
PromptEdit prompt_edit(char *input, size_t *len, size_t cap, int ch, int one_key);

/* Prompts: open one (def is proposed when nothing is typed), and a key
 * while one is open. */
void tui_ask(Tui *t, PromptKind k, const char *q, const char *def);
void tui_prompt_key(Tui *t, int ch);
/* S: asks for the schedule, its warm-up and the patience of early stopping
 * (prompt_sched.c), each proposing the setting in effect; and the answers. */
void tui_ask_sched(Tui *t);
void tui_answer_sched(Tui *t, PromptKind k, const char *v);

/* A key of the network diagram (keys_network.c): choose, add or remove a
 * neuron or a layer, ask for the inputs; and the inputs typed. */
void tui_network_key(Tui *t, int ch);
void tui_answer_inputs(Tui *t, const char *v);

/* The speed keys (keys_speed.c): { slower, } faster, . one epoch. */
void tui_speed_key(Tui *t, int ch);

/* A key with no prompt open. */
void tui_key(Tui *t, int ch);
/* The lesson's next action, in the view it is about. */
void tui_play_next(Tui *t);
/* Shows view (a ViewId) with arg: the history view's chart, or the layer
 * of a view that shows one (-1: as it is). */
void tui_show_view(Tui *t, int view, int arg);
/* Shows the view of the lesson's screen sc as it shows it, however it is
 * reached (→ or ←): its view, chart or layer, scrolled to the start. */
void tui_show_screen(Tui *t, LessonScreen sc);

/* What a key does with no prompt or panel open, in view (in a lesson when
 * lesson is set): the name of its handler ("view", "present", "play",
 * "operation", …) or NULL when unbound; *refused is set when a lesson
 * refuses it (the keys that change the network). */
const char *keys_lookup(ViewId view, int lesson, int ch, int *refused);

/* While the terminal is too small for the screen, keys do nothing but q:
 * it quits when nothing would be lost (clean), else asks (shown on the
 * small screen) and y then quits. */
typedef enum SmallKey { SMALL_NONE = 0, SMALL_QUIT, SMALL_ASK, SMALL_UNASK } SmallKey;
SmallKey keys_small(int ch, int asked, int clean);

#endif
