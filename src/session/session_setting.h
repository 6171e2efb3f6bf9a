/* session_setting.h - the session's settings, described once: τ, η and the
 * learning-rate schedule. A setting is a value that later operations use;
 * changing it is an action (SESS_SET) that is logged, replayed, never
 * refused as busy and never undone. Its row of the table (session_setting.c,
 * as tmux's options-table.c describes tmux's options) says everything the
 * places that handle settings ask of it: its name in the log, its type and
 * bounds, its default, where its value lives, the keys and the prompt that
 * edit it on the screen, the key help, and what is said once it applies.
 * The log's reader and writer (session_action.c), session_apply, the
 * screen's worker, its copy of the state, its keys, prompt, key help,
 * explain panel and narration walk the table; none names a setting but the
 * engine code that uses its value.
 *
 * Adding a setting: a row of the table (and its SessSettingId when code
 * names it), and the engine code that uses its value. */
#ifndef CONDNET_SESSION_SETTING_H
#define CONDNET_SESSION_SETTING_H

#include <stddef.h>

#include "base/err.h"
#include "engine/limits.h"
#include "session/session.h"

/* The rows the code names (a row added for a test alone has none). */
typedef enum SessSettingId { SET_TAU = 0, SET_ETA, SET_SCHED } SessSettingId;

typedef enum SessSetType {
	SET_NUMBER,  /* one number, held to its row of the table of limits */
	SET_SCHEDULE /* a learning-rate schedule (sched_parse) and its warm-up */
} SessSetType;

typedef struct SessSetting {
	const char *name; /* the log line's verb, a lesson's claim key: "tau" */
	SessSetType type;
	LimitId lim; /* SET_NUMBER: its bounds, those of its command-line option */
	double def;  /* SET_NUMBER: a new session's value */
	size_t off;  /* SET_NUMBER: the double of Session that engine code reads it
	              * from; 0: the session keeps it in its slot (Session.setv) */
	int (*set)(Session *s, double v, Err *e); /* the engine's setter, which holds the
	                                           * value to its rule and stores it; NULL:
	                                           * stored as it is */
	/* on the screen */
	const char *sym, *ascii; /* its symbol, and the symbol in ASCII: "τ", "tau" */
	const char *unit;        /* after its value where the status line says it */
	int up[2], down, ask;    /* the keys that multiply it by factor, divide it by
	                          * factor, and ask for it (0: none) */
	double factor;
	int (*floor)(double v, Err *e); /* what the down key must leave it to (NULL: its
	                                 * bounds): "τ must stay above 1" */
	const char *floor_say;
	const char *prompt;           /* the question of its ask key: "τ =" */
	const char *hint_keys, *hint; /* the footer's key help: "+-", "τ" */
	const char *help_keys, *help; /* the keys panel's line */
	int header;                   /* shown in the header's state line */
	/* narrated once it applies (NULL: "τ = 25" with its unit): over lists the
	 * layers with κ > τ ("2, 3" or "none"), nover counts them */
	void (*narrate)(const Session *s, const char *over, int nover, char *buf, size_t len);
} SessSetting;

/* The table: session_nsettings rows (at most SESS_SET_MAX), indexed by
 * SessSettingId. */
extern const SessSetting session_settings[];
extern const int session_nsettings;

/* The row of a log verb or a claim key, or NULL. */
const SessSetting *session_setting_find(const char *name);
/* The row an action sets (a SESS_SET action), or NULL. */
const SessSetting *session_setting_of(const SessAction *a);
/* The action that sets a number. */
SessAction session_setting_action(int id, double v);
/* A number's value in the session. */
double session_setting_get(const Session *s, int id);
/* Every setting at its default (a new session; the schedule is the
 * training options'). */
void session_settings_reset(Session *s);
/* Applies a SESS_SET action: the engine's setter or the slot; the
 * schedule parsed (sched_parse) with its warm-up. -1 with a message
 * prefixed by the setting's name. */
int session_setting_apply(Session *s, const SessAction *a, Err *e);
/* Checks a's value against its row: the table of limits for a number, the
 * warm-up's for a schedule (the schedule itself is read by the log reader
 * and by session_setting_apply). */
int session_setting_check(const SessAction *a, Err *e);
/* What the status line says of a setting: "τ = 25", "η = 2 epochs"; of a
 * schedule, before it applies its name, and once it applied (s not NULL)
 * the schedule the session follows. */
const char *session_setting_said(const SessAction *a, const Session *s, char *buf, size_t len);
/* The narration once a applied (narrate, or the same as said). */
const char *session_setting_narrate(const SessAction *a, const Session *s, const char *over,
                                    int nover, char *buf, size_t len);

#endif
