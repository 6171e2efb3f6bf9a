/* tui/keys.c - what every key does: a table for the text panels, for a
 * lesson played, for each view and for all of them, looked up in that
 * order (as htop binds keys per panel). */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui/screen.h"
#include "tui/tui_int.h"

typedef void (*KeyFn)(Tui *t, int ch);

typedef struct KeyBind {
	int key;
	KeyFn fn;
	int play; /* 1: also while a lesson plays */
} KeyBind;

/* ---- the published state, briefly ---- */

typedef struct Snap {
	int busy, waiting, dirty, pick, m, nrec, pos, plane;
	int group; /* the squeeze proposal shown is a graph network's group's */
	int graph; /* the network is a graph network */
} Snap;

static Snap snap(Tui *t)
{
	const Shown *p = worker_lock(t->w);
	Snap s = {p->busy || p->queued,
	          p->sq.waiting,
	          p->dirty,
	          p->sweep_state == 2 && p->pick >= 0,
	          p->m,
	          p->nrec,
	          p->play_pos,
	          p->pl.on,
	          p->sq.group,
	          p->graph};
	worker_unlock(t->w);
	return s;
}

/* ---- views and panels ---- */

static void k_view(Tui *t, int ch)
{
	if (ch == '\t')
		t->u.view = (ViewId)((t->u.view + 1) % VIEW_COUNT);
	else if (ch == KEY_BTAB)
		t->u.view = (ViewId)((t->u.view + VIEW_COUNT - 1) % VIEW_COUNT);
	else if (ch - '1' < VIEW_COUNT)
		t->u.view = (ViewId)(ch - '1');
}

/* P: presentation mode, the view on the whole screen (P or Esc leaves). */
static void k_present(Tui *t, int ch)
{
	(void)ch;
	t->u.present = !t->u.present;
	worker_status_clear(t->w);
}

static void open_panel(Tui *t, PanelId id)
{
	t->u.panel = id;
	t->u.top = id == PANEL_LOG ? -1 : 0;
}

static void k_help(Tui *t, int ch)
{
	open_panel(t, ch == '?' ? PANEL_KEYS : ch == 'x' ? PANEL_EXPLAIN : PANEL_LOG);
}

static void panel_key(Tui *t, int ch)
{
	UiState *u = &t->u;
	int page = u->rows > 1 ? u->rows - 1 : 1;
	if (ch == KEY_UP || ch == 'k')
		u->top = u->top > 0 ? u->top - 1 : 0;
	else if (ch == KEY_DOWN || ch == 'j')
		u->top++;
	else if (ch == KEY_PPAGE)
		u->top = u->top > page ? u->top - page : 0;
	else if (ch == KEY_NPAGE || ch == ' ')
		u->top += page;
	else if (ch == KEY_HOME)
		u->top = 0;
	else if (ch == KEY_END)
		u->top = -1;
	else if ((ch == KEY_LEFT || ch == KEY_RIGHT || ch == '?') &&
	         (u->panel == PANEL_KEYS || u->panel == PANEL_EXPLAIN))
		open_panel(t, u->panel == PANEL_KEYS ? PANEL_EXPLAIN : PANEL_KEYS);
	else
		u->panel = PANEL_NONE;
}

static void k_layer(Tui *t, int ch)
{
	Snap s = snap(t);
	if (ch == KEY_UP || ch == 'k')
		t->u.layer = t->u.layer > 1 ? t->u.layer - 1 : 1;
	else if (ch == KEY_DOWN || ch == 'j')
		t->u.layer = t->u.layer < s.m ? t->u.layer + 1 : s.m;
	else if (t->u.view == VIEW_LAYERS)
		t->u.view = VIEW_SPECTRUM;
}

static void k_alg1(Tui *t, int ch)
{
	UiState *u = &t->u;
	Snap s = snap(t);
	int newest = s.nrec > u->it_fit ? s.nrec - u->it_fit : 0;
	if (ch == KEY_LEFT || ch == '<')
		u->it_first = u->it_shown > 0 ? u->it_shown - 1 : 0;
	else if (ch == KEY_RIGHT || ch == '>')
		u->it_first = u->it_shown + 1 >= newest ? -1 : u->it_shown + 1;
	else if (ch == KEY_HOME)
		u->it_first = 0;
	else if (ch == KEY_END)
		u->it_first = -1;
	else if (ch == KEY_UP)
		u->row_first = u->row_first > 0 ? u->row_first - 1 : 0;
	else if (ch == KEY_DOWN)
		u->row_first++;
}

/* The Plane view: ←→ scroll the neuron maps by one (Home, End: to the
 * ends); ↑↓ choose the hidden layer whose maps show; < > the panel shown
 * when they show one at a time. */
static void k_plane(Tui *t, int ch)
{
	UiState *u = &t->u;
	if (ch == KEY_LEFT)
		u->plane_first = u->plane_first > 0 ? u->plane_first - 1 : 0;
	else if (ch == KEY_RIGHT)
		u->plane_first++;
	else if (ch == KEY_HOME)
		u->plane_first = 0;
	else if (ch == KEY_END)
		u->plane_first = 1 << 20; /* the drawing clamps it */
	else if (ch == '<' || ch == '>')
		u->plane_panel += ch == '>' ? 1 : -1; /* the drawing wraps it */
	else if (ch == KEY_UP || ch == 'k')
		u->plane_layer = u->plane_shown > 1 ? u->plane_shown - 1 : 1;
	else if (ch == KEY_DOWN || ch == 'j')
		u->plane_layer = u->plane_shown + 1; /* the drawing clamps it, and shows another
		                                      * layer's maps from their start */
}

static void k_history(Tui *t, int ch)
{
	int back = ch == KEY_LEFT || ch == '<';
	const Shown *p = worker_lock(t->w);
	int none = !p->nrec;
	worker_unlock(t->w);
	/* before Algorithm 1 has run, its page is empty: the keys go between
	 * the training's two charts (the drawing shows page 0 as page 2) */
	if (none)
		t->u.hist_page = t->u.hist_page % 3 == 1 ? 2 : 1;
	else
		t->u.hist_page = (t->u.hist_page + (back ? 2 : 1)) % 3;
}

/* ---- operations ---- */

/* The setting a key edits, and how (0 up, 1 down, 2 ask), or NULL. */
static const SessSetting *setting_key(int ch, int *how)
{
	for (int i = 0; i < session_nsettings; i++) {
		const SessSetting *st = &session_settings[i];
		*how = ch == st->up[0] || ch == st->up[1] ? 0 : ch == st->down ? 1 : 2;
		if (ch && (*how < 2 || ch == st->ask))
			return st;
	}
	return NULL;
}

/* A key of the settings table: its setting scaled or asked for, from the
 * value the worker says it will have once the queued changes apply (a
 * setting is queued behind a running operation). */
static void k_setting(Tui *t, int ch)
{
	int how;
	const SessSetting *st = setting_key(ch, &how);
	int id = (int)(st - session_settings);
	if (st->type == SET_SCHEDULE) {
		tui_ask_sched(t);
		return;
	}
	if (how == 2) {
		t->pset = id;
		tui_ask(t, P_SETTING, st->prompt, "");
		return;
	}
	const Shown *p = worker_lock(t->w);
	double v = p->set_next[id];
	worker_unlock(t->w);
	if (how == 0)
		tui_set_value(t, id, v * st->factor);
	else if (!st->floor || st->floor(v / st->factor, NULL) == 0)
		tui_set_value(t, id, v / st->factor);
	else
		worker_status(t->w, 1, "%s %s", screen_pick(st->sym, st->ascii), st->floor_say);
}

static void k_alg(Tui *t, int ch)
{
	if (tui_refuse_busy(t))
		return;
	/* a graph network is squeezed too, channel group by channel group */
	if (ch != 't' && ch != 'z' &&
	    tui_refuse_graph(t, ch == 'b' ? "Algorithm 2's sweep of β" : "Algorithm 1"))
		return;
	if (ch == 's' || ch == 'r') {
		SessAction a = {.kind = ch == 's' ? SESS_ALG1_STEP : SESS_ALG1_RUN};
		tui_submit_action(t, &a);
		t->u.view = VIEW_ALG1;
		t->u.it_first = -1;
	} else if (ch == 't') {
		char def[16];
		snprintf(def, sizeof def, "%d", t->epochs_def > 0 ? t->epochs_def : 1);
		tui_ask(t, P_EPOCHS, "train epochs", def);
	} else if (ch == 'b') {
		tui_ask(t, P_BETAS, "β list", t->beta_def);
	} else {
		/* on data of two features the squeeze is seen as regions; a graph
		 * network's diagram marks no proposal */
		Snap s = snap(t);
		tui_submit_kind(t, JOB_SQZ_START, 0);
		if (t->u.view != VIEW_NETWORK || s.graph)
			t->u.view = s.plane ? VIEW_PLANE : VIEW_SQUEEZE;
	}
}

static void k_adopt(Tui *t, int ch)
{
	Snap s = snap(t);
	(void)ch;
	if (t->u.view != VIEW_SWEEP)
		worker_status(t->w, 0, "A adopts the β sweep's pick in the sweep view (3)");
	else if (!s.busy && !s.pick)
		worker_status(t->w, 1, "no finished β sweep to adopt from: b runs one");
	else
		tui_submit_kind(t, JOB_ADOPT, 0);
}

/* y, n or a for the proposal shown. While its preview (the what-if
 * accuracies) is measured, and nothing else waits, the decision is queued:
 * the worker applies it to that proposal when the preview ends, and to no
 * other (worker_sqz_answers); anything else running refuses it. */
static void sqz_decision(Tui *t, int ch)
{
	Job j = {.kind = ch == 'a' ? JOB_SQZ_ALL : JOB_SQZ_DECIDE};
	j.apply = ch != 'n';
	const Shown *p = worker_lock(t->w);
	int measuring = p->busy && p->sq.measuring && !p->queued && p->ops == 1;
	int running = p->ops > 0, layer = p->sq.group ? p->sq.group : p->sq.layer;
	const char *of = p->sq.group ? "group" : "layer";
	j.target = p->sq.seq;
	worker_unlock(t->w);
	if (running && !measuring) {
		tui_refuse_busy(t);
		return;
	}
	tui_submit(t, &j);
	if (measuring)
		worker_status(t->w, 0, "%c queued: it %s %s %d's proposal when its preview ends",
		              ch,
		              ch == 'n'   ? "refuses"
		              : ch == 'y' ? "applies"
		                          : "applies, with every later one,",
		              of, layer);
}

static void k_squeeze(Tui *t, int ch)
{
	Snap s = snap(t);
	if (ch == 'c') {
		Job j = {.kind = JOB_SQZ_COMP};
		tui_submit(t, &j); /* a setting, like τ: never refused */
	} else if (ch == 'p' && s.waiting && s.group) {
		worker_status(t->w, 0,
		              "p shows a layer's pivoted-QR order: a group's proposal "
		              "names its counts");
	} else if (ch == 'p') {
		open_panel(t, PANEL_ORDER);
	} else if (s.waiting) {
		sqz_decision(t, ch);
	} else {
		worker_status(t->w, 0, "no squeeze proposal waits: z starts a squeeze");
	}
}

static void k_file(Tui *t, int ch)
{
	char def[1100];
	if (tui_refuse_busy(t))
		return;
	if (ch == 'u') {
		SessAction a = {.kind = SESS_UNDO};
		tui_submit_action(t, &a);
	} else if (ch == 'w' || ch == 'o') {
		if (t->model[0])
			snprintf(def, sizeof def, "%s", t->model);
		else
			snprintf(def, sizeof def, "%s.model", t->data_name);
		tui_ask(t, ch == 'w' ? P_SAVE : P_OPEN, ch == 'w' ? "save to" : "open", def);
	} else if (ch == 'e') {
		snprintf(def, sizeof def, "%s-tables.md", t->data_name);
		tui_ask(t, P_EXPORT, "export tables and plots to", def);
	} else {
		tui_ask(t, P_CAPTION, "caption for the lesson (written to the session log):", "");
	}
}

static void k_pause(Tui *t, int ch)
{
	(void)ch;
	int r = worker_toggle_pause(t->w);
	if (r < 0)
		worker_status(t->w, 0, "nothing to pause: space pauses a running operation");
	else
		worker_status(t->w, 0, r ? "paused: space resumes, Esc stops" : "resumed");
}

static void k_escape(Tui *t, int ch)
{
	Snap s = snap(t);
	(void)ch;
	if (t->u.present) {
		t->u.present = 0; /* the status line then says what Esc does next */
		return;
	}
	if (s.waiting && !s.busy)
		tui_submit_kind(t, JOB_SQZ_STOP, 0);
	else
		worker_cancel(t->w);
}

static void k_quit(Tui *t, int ch)
{
	Snap s = snap(t);
	(void)ch;
	if (s.busy)
		tui_ask(t, P_QUIT, "an operation is running; quit anyway? (y/n)", "");
	else if (s.dirty)
		tui_ask(t, P_QUIT,
		        "unsaved changes: w saves and quits, y quits without saving, any "
		        "other key stays",
		        "");
	else
		t->quit = 1;
}

/* ---- a lesson ---- */

/* Each ← while a step back is on its way goes one screen further back:
 * the replay under way gives way to the new one. */
static void play_back(Tui *t, Snap s)
{
	LessonScreen from = {s.pos, s.waiting}, to;
	int *back = &t->u.back_to;
	if (s.busy && *back >= 0)
		from = (LessonScreen){*back / 2, *back % 2};
	if (s.busy && *back < 0) {
		worker_status(t->w, 0, "the lesson's step is running: wait, or Esc stops it");
		return;
	}
	if (lesson_screen_back(t->lesson, from, &to) < 0) {
		worker_status(t->w, 1, "at the start of the lesson: nothing to step back over");
		return;
	}
	if (s.busy)
		worker_cancel(t->w);
	*back = 2 * to.pos + to.proposal;
	worker_play_retarget(t->w, *back);
	Job j = {.kind = JOB_PLAY_BACK, .target = to.pos, .proposal = to.proposal};
	tui_show_screen(t, to);
	tui_submit(t, &j);
}

/* A → while a step back is on its way: it goes one screen further on
 * (the replay under way stops there instead). */
static void play_forward_of_back(Tui *t)
{
	int *back = &t->u.back_to;
	LessonScreen at = {*back / 2, *back % 2};
	int squeeze = at.pos < t->lesson->n && t->lesson->a[at.pos].kind == SESS_SQUEEZE;
	LessonScreen to =
	    squeeze && !at.proposal ? (LessonScreen){at.pos, 1} : (LessonScreen){at.pos + 1, 0};
	if (at.pos >= t->lesson->n)
		return;
	*back = 2 * to.pos + to.proposal;
	worker_play_retarget(t->w, *back);
	tui_show_screen(t, to);
}

static void k_play(Tui *t, int ch)
{
	Snap s = snap(t);
	if (ch == KEY_LEFT) {
		play_back(t, s);
		return;
	}
	if (s.busy && t->u.back_to >= 0) {
		play_forward_of_back(t);
		return;
	}
	if (s.busy) {
		worker_status(t->w, 0, "the lesson's step is running: wait, or Esc stops it");
		return;
	}
	tui_play_next(t);
}

static void k_play_pause(Tui *t, int ch)
{
	Snap s = snap(t);
	if (s.busy)
		k_pause(t, ch);
	if (t->u.delay > 0) {
		t->u.play_paused = !t->u.play_paused;
		worker_status(t->w, 0,
		              t->u.play_paused ? "the lesson is paused: space plays on"
		                               : "the lesson plays on");
	}
}

static void k_leave(Tui *t, int ch)
{
	(void)ch;
	t->quit = 1;
}

/* c in a lesson: its long caption whole or folded (presentation mode). */
static void k_caption(Tui *t, int ch)
{
	(void)ch;
	t->u.caption_open = !t->u.caption_open;
}

static const KeyBind play_keys[] = {
    {KEY_RIGHT, k_play, 1}, {'\n', k_play, 1},     {'\r', k_play, 1},
    {KEY_ENTER, k_play, 1}, {KEY_LEFT, k_play, 1}, {' ', k_play_pause, 1},
    {'q', k_leave, 1},      {'c', k_caption, 1},   {0, NULL, 0},
};

static const KeyBind layer_keys[] = {
    {KEY_UP, k_layer, 1}, {KEY_DOWN, k_layer, 1}, {'k', k_layer, 1},       {'j', k_layer, 1},
    {'\n', k_layer, 1},   {'\r', k_layer, 1},     {KEY_ENTER, k_layer, 1}, {0, NULL, 0},
};

static const KeyBind alg1_keys[] = {
    {KEY_LEFT, k_alg1, 1}, {KEY_RIGHT, k_alg1, 1}, {'<', k_alg1, 1},
    {'>', k_alg1, 1},      {KEY_HOME, k_alg1, 1},  {KEY_END, k_alg1, 1},
    {KEY_UP, k_alg1, 1},   {KEY_DOWN, k_alg1, 1},  {0, NULL, 0},
};

static const KeyBind squeeze_keys[] = {
    {'y', k_squeeze, 0}, {'n', k_squeeze, 0}, {'a', k_squeeze, 0},
    {'c', k_squeeze, 0}, {'p', k_squeeze, 1}, {0, NULL, 0},
};

static const KeyBind history_keys[] = {
    {KEY_LEFT, k_history, 1}, {KEY_RIGHT, k_history, 1},
    {'<', k_history, 1},      {'>', k_history, 1},
    {KEY_UP, k_layer, 1}, /* the layer highlighted among many */
    {KEY_DOWN, k_layer, 1},   {0, NULL, 0},
};

static const KeyBind plane_keys[] = {
    {KEY_UP, k_plane, 1},   {KEY_DOWN, k_plane, 1},  {'k', k_plane, 1},      {'j', k_plane, 1},
    {KEY_LEFT, k_plane, 1}, {KEY_RIGHT, k_plane, 1}, {KEY_HOME, k_plane, 1}, {KEY_END, k_plane, 1},
    {'<', k_plane, 1},      {'>', k_plane, 1},       {'y', k_squeeze, 0},    {'n', k_squeeze, 0},
    {'a', k_squeeze, 0},    {'c', k_squeeze, 0},     {'p', k_squeeze, 1},    {0, NULL, 0},
};

static const KeyBind network_keys[] = {
    {KEY_UP, tui_network_key, 1},
    {KEY_DOWN, tui_network_key, 1},
    {KEY_LEFT, tui_network_key, 1},
    {KEY_RIGHT, tui_network_key, 1},
    {'k', tui_network_key, 1},
    {'j', tui_network_key, 1},
    {'h', tui_network_key, 1},
    {'l', tui_network_key, 1},
    {KEY_HOME, tui_network_key, 1},
    {KEY_END, tui_network_key, 1},
    {KEY_PPAGE, tui_network_key, 1},
    {KEY_NPAGE, tui_network_key, 1},
    {'d', tui_network_key, 0},
    {KEY_DC, tui_network_key, 0},
    {'i', tui_network_key, 0},
    {KEY_IC, tui_network_key, 0},
    {'D', tui_network_key, 0},
    {'I', tui_network_key, 0},
    {'f', tui_network_key, 0},
    {'y', k_squeeze, 0},
    {'n', k_squeeze, 0},
    {'a', k_squeeze, 0},
    {'c', k_squeeze, 0},
    {'p', k_squeeze, 1},
    {0, NULL, 0},
};

static const KeyBind no_keys[] = {{0, NULL, 0}};

static const KeyBind *const view_keys[VIEW_COUNT] = {
    [VIEW_LAYERS] = layer_keys,    [VIEW_ALG1] = alg1_keys,       [VIEW_SWEEP] = no_keys,
    [VIEW_SQUEEZE] = squeeze_keys, [VIEW_SPECTRUM] = layer_keys,  [VIEW_HISTORY] = history_keys,
    [VIEW_PLANE] = plane_keys,     [VIEW_NETWORK] = network_keys,
};

static const KeyBind global_keys[] = {
    {'\t', k_view, 1},       {KEY_BTAB, k_view, 1},   {'1', k_view, 1},
    {'2', k_view, 1},        {'3', k_view, 1},        {'4', k_view, 1},
    {'5', k_view, 1},        {'6', k_view, 1},        {'7', k_view, 1},
    {'8', k_view, 1},        {'9', k_view, 1},        {'P', k_present, 1},
    {'?', k_help, 1},        {'x', k_help, 1},        {'L', k_help, 1},
    {'s', k_alg, 0},         {'r', k_alg, 0},         {'t', k_alg, 0},
    {'b', k_alg, 0},         {'z', k_alg, 0},         {'A', k_adopt, 0},
    {'u', k_file, 0},        {'w', k_file, 0},        {'o', k_file, 0},
    {'e', k_file, 1},        {'N', k_file, 0},        {' ', k_pause, 1},
    {27, k_escape, 1},       {'{', tui_speed_key, 1}, {'}', tui_speed_key, 1},
    {'.', tui_speed_key, 1}, {'q', k_quit, 1},        {0, NULL, 0},
};

static const KeyBind *find(const KeyBind *table, int ch)
{
	for (const KeyBind *b = table; b->fn; b++)
		if (b->key == ch)
			return b;
	return NULL;
}

/* The binding of ch among the global keys: the table's, or a setting's. */
static const KeyBind *find_global(int ch, KeyBind *setting)
{
	int how;
	const KeyBind *b = find(global_keys, ch);
	if (b || !setting_key(ch, &how))
		return b;
	*setting = (KeyBind){ch, k_setting, 0};
	return setting;
}

/* Runs the binding b of ch; 1 when there was one. */
static int run(Tui *t, const KeyBind *b, int ch)
{
	if (!b)
		return 0;
	if (t->lesson && !b->play)
		worker_status(t->w, 1,
		              "a lesson plays: right arrow next, left back, space pause, q "
		              "leave (the other keys only look)");
	else
		b->fn(t, ch);
	return 1;
}

/* What each handler is called in keys_lookup. */
static const struct {
	KeyFn fn;
	const char *name;
} fn_names[] = {
    {k_view, "view"},         {k_present, "present"},
    {k_help, "help"},         {k_layer, "layer"},
    {k_alg1, "alg1"},         {k_history, "history"},
    {k_setting, "setting"},   {k_alg, "operation"},
    {k_adopt, "adopt"},       {k_squeeze, "squeeze"},
    {k_file, "file"},         {k_pause, "pause"},
    {k_escape, "escape"},     {k_quit, "quit"},
    {k_play, "play"},         {k_play_pause, "play-pause"},
    {k_caption, "caption"},   {k_leave, "leave"},
    {k_plane, "plane"},       {tui_network_key, "network"},
    {tui_speed_key, "speed"},
};

const char *keys_lookup(ViewId view, int lesson, int ch, int *refused)
{
	KeyBind setting;
	const KeyBind *b = lesson ? find(play_keys, ch) : NULL;
	if (!b && view < VIEW_COUNT)
		b = find(view_keys[view], ch);
	if (!b)
		b = find_global(ch, &setting);
	*refused = b && lesson && !b->play;
	for (size_t i = 0; b && i < sizeof fn_names / sizeof *fn_names; i++)
		if (fn_names[i].fn == b->fn)
			return fn_names[i].name;
	return NULL;
}

SmallKey keys_small(int ch, int asked, int clean)
{
	if (asked)
		return ch == 'y' || ch == 'Y' ? SMALL_QUIT : SMALL_UNASK;
	if (ch != 'q')
		return SMALL_NONE;
	return clean ? SMALL_QUIT : SMALL_ASK;
}

void tui_key(Tui *t, int ch)
{
	if (t->pk) {
		tui_prompt_key(t, ch);
		return;
	}
	if (t->u.panel) {
		panel_key(t, ch);
		return;
	}
	KeyBind setting;
	if (t->lesson && run(t, find(play_keys, ch), ch))
		return;
	if (!run(t, find(view_keys[t->u.view], ch), ch))
		run(t, find_global(ch, &setting), ch);
}
