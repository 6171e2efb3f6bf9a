/* session_action_int.h - the table of actions (session_action.c) as the
 * reader of log lines (session_action_read.c) walks it: the fields of each
 * action, their types and where in SessAction they are (not a public
 * interface). */
#ifndef CONDNET_SESSION_ACTION_INT_H
#define CONDNET_SESSION_ACTION_INT_H

#include <stddef.h>

#include "base/err.h"
#include "engine/limits.h"
#include "session/session.h"

/* How a field's text becomes its value, and back. */
typedef enum FieldType {
	FT_TEXT,  /* a string of size bytes */
	FT_SCHED, /* a schedule, as sched_parse reads it */
	FT_PLANE, /* the plane's inputs, as plane_inputs_parse reads them */
	FT_NUM,   /* a double of the table of limits (lim), written with its digits */
	FT_INT,   /* an int of the table of limits, or of lo..hi (lim NOLIM) */
	FT_SEED,  /* an unsigned 64-bit integer */
	FT_CRC,   /* 8 hexadecimal digits */
	FT_ACT,   /* an activation's name */
	FT_MNIST, /* MNIST's inputs by name, 0 for the paper's */
	FT_SHAPE, /* CxHxW */
	FT_WORD   /* one of two words, 0 and 1 */
} FieldType;

enum {
	REQ = 1,    /* required */
	ZERO = 2,   /* "0" reads as not set, whatever the limit says */
	OPT = 4,    /* written only when set (not 0, not empty, or given) */
	ADD = 8,    /* of the add variant: required there, refused with remove */
	REMOVE = 16 /* of the remove variant */
};
#define NOLIM ((LimitId)-1)

typedef struct Field {
	const char *key; /* NULL: the action's bare value */
	FieldType type;
	size_t off, size; /* where in SessAction; a text's buffer */
	unsigned fl;
	LimitId lim;         /* FT_NUM, FT_INT */
	long lo, hi;         /* FT_INT without a limit */
	size_t given;        /* where "given" is kept (has_noise, has_crc, has_seed), or 0 */
	int digits;          /* FT_NUM: written with "%.*g" of these digits */
	const char *word[2]; /* FT_WORD */
	const char *what;    /* a bare value in "missing …" */
	const char *twice;   /* a bare value given twice */
} Field;

/* An action: its verb and its fields, in the order its line writes them
 * (a field's off is never 0: the list ends at the first that is). */
typedef struct ActionDef {
	SessKind kind;
	const char *name;
	Field f[14];
	int (*check)(const SessAction *a, Err *e); /* what the fields' own bounds do not say */
} ActionDef;

/* The table, a row per SessKind (SESS_SET's fields are its setting's). */
extern const ActionDef session_actions[SESS_KIND_COUNT];
/* The fields of a's kind (of its setting's type for SESS_SET), ended by
 * one whose off is 0; NULL for no such kind or setting. */
const Field *session_action_fields(const SessAction *a);
/* A number's limit: a setting's is its row's. */
LimitId session_action_lim(const SessAction *a, const Field *f);
/* 1 when a is the add variant of an action that has variants. */
int session_action_adds(const SessAction *a);

/* Field f of action a, as a T. */
#define FIELD(a, f, T) ((T *)((char *)(a) + (f)->off))
#define CFIELD(a, f, T) ((const T *)((const char *)(a) + (f)->off))

#endif
